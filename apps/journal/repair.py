"""Repairs: a journal that went back in time, one SQLite calls corrupt, a restore asked for.

Each puts back what the backups and the mark (and a salvaged or given file) hold that the
journal lacks. A game is replaced only by a longer version of the same game, and the
journal as found is kept: copied before a restore writes to it, or set aside when corrupt.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Sequence
from pathlib import Path

from .backups import backup_paths, backup_records, copy_journal
from .errors import JournalError, cause
from .files import all_zero, is_sqlite, set_aside, unique_path
from .mark import Mark, mark_path, read_mark
from .records import GameRecord
from .rows import insert_game, load_game, salvage
from .schema import is_journal_file
from .store import Store

log = logging.getLogger(__package__)

Candidates = Sequence[tuple[str, GameRecord]]
"""Games that may be put back, each with where it comes from (a file's name, the mark)."""


def hint(journal: Path) -> str:
    """What the mark and the backups say about a journal that should be here."""
    mark = read_mark(journal)
    backups = [p.name for p in backup_paths(journal)]
    if mark is None and not backups:
        return ": name another file in [app] journal (or --db)"
    said = []
    if mark is not None:
        said.append(f"the mark says a journal with {mark.finished} finished game(s) lived here")
    if backups:
        said.append(f"backups: {', '.join(backups)}")
    return (
        f"; {'; '.join(said)}: if this file should be that journal, "
        f"`tavola journal restore --db {journal}` keeps it aside and restores"
    )


def compare_with_mark(store: Store) -> str | None:
    """A journal behind its mark went back in time: restore what it lacks. Returns the
    line saying so (None when the mark agrees).

    Behind means fewer commits than the mark says, or as many but without the last action
    the mark holds (a journal whose count was put right by a later write of another program
    must still have it). A mark behind the journal is normal after a cut between a commit
    and its mark, and no alarm."""
    mark = store.mark.read()
    if mark is None:
        store.mark.write()
        return None
    if store.created:  # a new, empty journal where the mark says one lived
        _adopt(store, mark)
    elif mark.journal_id != store.id:
        log.info("the mark %s belongs to another journal; it is rewritten", store.mark.path)
        store.mark.write()
        return None
    if store.commits > mark.commits or (store.commits == mark.commits and store.holds(mark.last)):
        store.mark.write()
        return None
    found = _went_back(store, mark)
    if store.readonly:
        return found + "; `tavola run` or `tavola journal restore` restores it"
    copy = copy_as_found(store) if store.games else None
    kept = restore_from(
        store, [*backup_records(store.path), *mark_records(mark, store.path)], at_least=mark.commits
    )
    report = found + "; " + kept + _kept_as(copy)
    log.warning("%s", report)
    return report


def _went_back(store: Store, mark: Mark) -> str:
    live = mark.live
    return (
        f"journal {store.path} went back in time: it holds {store.describe_counts()}, "
        f"where it had reached {mark.finished} finished game(s)"
        + (f" and game {live.id} at action {len(live.actions)}" if live is not None else "")
        + f" (commit {store.commits} of {mark.commits}, says {store.mark.path.name})"
    )


def _kept_as(copy: Path | None) -> str:
    return f"; the journal as found is kept as {copy.name}" if copy else ""


def _adopt(store: Store, mark: Mark) -> None:
    """A new journal where the mark says one lived takes that journal's id."""
    store.id = mark.journal_id
    store.set_meta("id", store.id)


def mark_records(mark: Mark | None, journal: Path) -> list[tuple[str, GameRecord]]:
    """The game in progress the mark holds, as a candidate to put back."""
    if mark is None or mark.live is None:
        return []
    return [(f"the mark ({mark_path(journal).name})", mark.live)]


def rebuild(store: Store, why: str) -> tuple[Path, str]:
    """SQLite called the file corrupt: set it aside and start again from what survives.
    Returns where the old file is kept and the line saying what was done."""
    aside = set_aside(store.path, "damaged")
    mark = store.mark.read()
    salvaged = [(aside.name, r) for r in salvage(aside)]
    store.start_new()
    if mark is not None:
        _adopt(store, mark)
    candidates = [*salvaged, *backup_records(store.path), *mark_records(mark, store.path)]
    kept = restore_from(store, candidates, at_least=mark.commits if mark else 0)
    report = (
        f"journal {store.path} is damaged ({why}); it is kept as {aside.name} "
        f"and a new journal was started; {kept}"
    )
    log.error("%s", report)
    return aside, report


def prepare_restore(path: Path, source: Path | None) -> tuple[Mark | None, Path | None]:
    """Before `tavola journal restore` opens the journal: its mark, and where a journal that
    is no SQLite file any more was set aside (None: it was not). Such a file is moved only
    if it is empty, all zero bytes, or the mark says a journal lived at this path."""
    mark = read_mark(path)
    if not path.exists() and mark is None and source is None and not backup_paths(path):
        raise JournalError(
            f"no journal at {path}, and no backup or mark beside it: nothing to restore"
        )
    if not path.exists() or path.is_dir() or is_sqlite(path):
        return mark, None
    if not (all_zero(path) or mark is not None):
        raise JournalError(
            f"{path} is not an SQLite database and no mark says a "
            "journal lived there; nothing was changed"
        )
    return mark, set_aside(path, "unreadable")


def records_of(source: Path | None) -> list[tuple[str, GameRecord]]:
    """The games of a journal or backup named by hand (`--from`)."""
    if source is None:
        return []
    if not is_journal_file(source):
        raise JournalError(f"{source} is not a Tavola journal or backup; nothing was changed")
    return [(source.name, r) for r in salvage(source)]


def restore(store: Store, mark: Mark | None, extra: Candidates, *, keep_copy: bool) -> str:
    """`tavola journal restore` on the opened journal: put back what the backups, the mark
    (when it is this journal's) and `extra` hold that it lacks; `keep_copy`: copy the
    journal as found first. Returns what was done."""
    same = mark if mark is not None and (store.created or mark.journal_id == store.id) else None
    if same is not None and store.created:
        _adopt(store, same)
    copy = copy_as_found(store) if store.games and keep_copy else None
    kept = restore_from(
        store,
        [*backup_records(store.path), *mark_records(same, store.path), *extra],
        at_least=same.commits if same is not None else 0,
    )
    return kept + _kept_as(copy)


def copy_as_found(store: Store) -> Path | None:
    """A copy of the journal (with its log) before a restore writes to it."""
    target_path = unique_path(store.path, "before-restore")
    try:
        copy_journal(store.db, target_path, check=False)
    except (OSError, sqlite3.Error) as exc:
        log.warning(
            "could not copy journal %s before restoring it: %s",
            store.path,
            cause(exc, store.lock_timeout),
        )
        return None
    return target_path


def restore_from(store: Store, candidates: Candidates, *, at_least: int = 0) -> str:
    """Store each game where a candidate got further than the journal; say what came back.

    A candidate replaces the journal's game only if it continues it (the journal's
    actions are a prefix of the candidate's): a different game under the same id is
    never overwritten. The commit count goes past `at_least` (the mark's), so the mark
    written after agrees.
    """
    restored: dict[str, list[str]] = {}
    with store.tx(count=False) as db:
        for game_id, (source, record) in sorted(_furthest(candidates).items()):
            if _put_back(db, record):
                restored.setdefault(source, []).append(
                    f"{game_id}"
                    + (f" ({len(record.actions)} actions)" if record.status == "playing" else "")
                )
        commits = max(store.commits, at_least) + 1
        db.execute("UPDATE meta SET value=? WHERE key='commits'", (commits,))
    store.load_counts()
    store.mark.write(durable=True)
    if not restored:
        return "the backups and the mark hold nothing it lacks"
    return "restored " + "; ".join(
        f"game {', '.join(ids)} from {source}" for source, ids in restored.items()
    )


def _furthest(candidates: Candidates) -> dict[int, tuple[str, GameRecord]]:
    """For each game id, the candidate that got furthest while continuing the others."""
    best: dict[int, tuple[str, GameRecord]] = {}
    for source, record in candidates:
        known = best.get(record.id)
        if known is None or (
            record.progress() > known[1].progress() and _continues(record, known[1])
        ):
            best[record.id] = (source, record)
    return best


def _put_back(db: sqlite3.Connection, record: GameRecord) -> bool:
    """Store `record` if the journal lacks its game or holds less of it; whether it did."""
    game_id = record.id
    if db.execute("SELECT id FROM games WHERE id=?", (game_id,)).fetchone() is None:
        insert_game(db, record)
        return True
    current = load_game(db, game_id)
    if current.progress() >= record.progress() or not _continues(record, current):
        return False
    # the undone actions stay: they are set aside while the game's row is replaced (they
    # refer to it), then put back
    kept = db.execute(
        "SELECT game_id, seq, player, text, at, undone_at, locked, why FROM undone WHERE game_id=?",
        (game_id,),
    ).fetchall()
    db.execute("DELETE FROM undone WHERE game_id=?", (game_id,))
    db.execute("DELETE FROM actions WHERE game_id=?", (game_id,))
    db.execute("DELETE FROM games WHERE id=?", (game_id,))
    insert_game(db, record)
    db.executemany("INSERT INTO undone VALUES (?,?,?,?,?,?,?,?)", kept)
    return True


def _continues(record: GameRecord, other: GameRecord) -> bool:
    """Whether `record` is `other` played further (same game, its actions extended)."""
    same = (record.game, record.seed, record.players) == (other.game, other.seed, other.players)
    return same and record.actions[: len(other.actions)] == other.actions
