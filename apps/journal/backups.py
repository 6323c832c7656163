"""Backups: after each game's end the game goes to `<journal>.backup-1`; whole copies rotate.

`<journal>.backup-1` is the newest, `-3` the oldest; `<journal>.last-good`, the single copy
older versions kept, is still read but no longer written.

A small journal (up to `COPY_ALL_BYTES`) is copied whole at each game's end, checked, and
the copies rotate. Copying a big one costs seconds (4 s at 10,000 games), so then only the
ended game's rows are added to `backup-1` (and read back to check them), and the whole
copy, checked by `quick_check`, and the rotation are done at the stop (`rotate_if_due`) once
`ROTATE_S` has passed since the last one, or when `backup-1` cannot take the game.
"""

from __future__ import annotations

import logging
import os
import sqlite3
from pathlib import Path

from .errors import cause
from .files import companion, fsync_dir, uri_path
from .records import GameRecord
from .rows import salvage
from .schema import is_journal_file

log = logging.getLogger(__package__)

BACKUPS = 3
COPY_ALL_BYTES = 1 << 20
"""Up to this size a journal is copied whole at each game's end (a few ms)."""
ROTATE_S = 24 * 3600.0
"""A big journal is copied whole and the copies rotate at the first stop after this long."""
COPIED = "backup copied"
"""The key in a whole copy's `meta` saying when it was made (by the journal's clock)."""


def backup_paths(journal: Path) -> list[Path]:
    """The backups that exist, newest first (the copy of journals before schema 2 last)."""
    names = [f".backup-{i}" for i in range(1, BACKUPS + 1)] + [".last-good"]
    return [p for p in (companion(journal, n) for n in names) if p.is_file()]


def backup_records(journal: Path) -> list[tuple[str, GameRecord]]:
    """Every game the backups hold, each with the name of the backup it came from."""
    found = []
    for path in backup_paths(journal):
        if is_journal_file(path):
            found += [(path.name, r) for r in salvage(path)]
    return found


def size_of(db: sqlite3.Connection) -> int:
    """The main file's size in bytes as SQLite counts its pages."""
    pages = int(db.execute("PRAGMA page_count").fetchone()[0])
    return pages * int(db.execute("PRAGMA page_size").fetchone()[0])


def back_up_game(
    db: sqlite3.Connection, journal: Path, lock_timeout: float, game_id: int, now: float
) -> None:
    """After game `game_id` ended: a small journal is copied whole; a big one adds the game
    to `backup-1`, or is copied whole when that copy cannot take it."""
    if size_of(db) > COPY_ALL_BYTES:
        try:
            if add_game(db, journal, game_id):
                return
        except (OSError, sqlite3.Error) as exc:
            log.info("journal %s: backup-1 cannot take game %d (%s)", journal, game_id, exc)
    write_backup(db, journal, lock_timeout, now)


def rotate_if_due(db: sqlite3.Connection, journal: Path, lock_timeout: float, now: float) -> None:
    """At the stop: a big journal is copied whole, checked and rotated once `ROTATE_S` has
    passed since `backup-1` was copied whole (a small one was at each game's end)."""
    if size_of(db) <= COPY_ALL_BYTES:
        return
    copied = _copied(companion(journal, ".backup-1"))
    if copied is None or now - copied >= ROTATE_S:
        write_backup(db, journal, lock_timeout, now)


def _copied(path: Path) -> float | None:
    if not is_journal_file(path):
        return None
    try:
        conn = sqlite3.connect(f"file:{uri_path(path)}?mode=ro", uri=True)
        try:
            row = conn.execute("SELECT value FROM meta WHERE key=?", (COPIED,)).fetchone()
        finally:
            conn.close()
    except sqlite3.Error:
        return None
    return None if row is None else float(row[0])


_GAME_ROWS = (
    ("games", "id"),
    ("actions", "game_id"),
    ("undone", "game_id"),
)


def add_game(db: sqlite3.Connection, journal: Path, game_id: int) -> bool:
    """Add (or replace) one game's rows in `backup-1` in one synced transaction, then read
    them back: the check of this game's pages a whole-file `quick_check` would cost seconds
    for. False (nothing written) when `backup-1` is missing, another journal's, or lacks
    the game before this one (an earlier game end it missed)."""
    path = companion(journal, ".backup-1")
    if not is_journal_file(path):
        return False
    rows = {t: _rows(db, t, c, game_id) for t, c in _GAME_ROWS}
    data = _rows_data(db, rows["games"])
    target = sqlite3.connect(path, isolation_level=None)
    try:
        target.execute("PRAGMA synchronous=FULL")
        ours, theirs = (
            c.execute("SELECT value FROM meta WHERE key='id'").fetchone() for c in (db, target)
        )
        newest = int(target.execute("SELECT COALESCE(MAX(id), 0) FROM games").fetchone()[0])
        if ours != theirs or newest < game_id - 1:
            return False
        target.execute("BEGIN IMMEDIATE")
        for table, column in reversed(_GAME_ROWS):
            target.execute(f"DELETE FROM {table} WHERE {column}=?", (game_id,))
        for table, _column in _GAME_ROWS:
            if rows[table]:
                marks = ",".join("?" * len(rows[table][0]))
                target.executemany(f"INSERT INTO {table} VALUES ({marks})", rows[table])
        target.executemany("INSERT OR IGNORE INTO meta VALUES (?, ?)", data)
        target.execute("COMMIT")
        if {t: _rows(target, t, c, game_id) for t, c in _GAME_ROWS} != rows:
            raise sqlite3.DatabaseError(f"backup-1 does not read game {game_id} back")
    finally:
        target.close()
    return True


Rows = list[tuple[object, ...]]


def _rows(db: sqlite3.Connection, table: str, column: str, game_id: int) -> Rows:
    order = "rowid" if table == "undone" else column if table == "games" else "seq"
    return [
        tuple(r)
        for r in db.execute(f"SELECT * FROM {table} WHERE {column}=? ORDER BY {order}", (game_id,))
    ]


def _rows_data(db: sqlite3.Connection, games: Rows) -> list[tuple[str, str]]:
    """The owner's data text the game was played with (meta `data GAME DIGEST`), if kept."""
    keys = [f"data {g[1]} {g[6]}" for g in games]
    return [
        (k, str(r[0]))
        for k in keys
        for r in db.execute("SELECT value FROM meta WHERE key=?", (k,)).fetchall()
    ]


def write_backup(
    db: sqlite3.Connection, journal: Path, lock_timeout: float, now: float | None = None
) -> None:
    """Copy the journal aside, check the copy, rotate: a failure is logged, never raised
    (the journal itself has the game). `now`: kept in the copy as when it was made."""
    tmp = companion(journal, ".backup.tmp")
    try:
        copy_journal(db, tmp, check=True, stamp=now)
        with open(tmp, "rb") as fh:
            os.fsync(fh.fileno())
        for i in range(BACKUPS - 1, 0, -1):
            older = companion(journal, f".backup-{i}")
            if older.exists():
                os.replace(older, companion(journal, f".backup-{i + 1}"))
        os.replace(tmp, companion(journal, ".backup-1"))
        fsync_dir(journal.parent)
    except (OSError, sqlite3.Error) as exc:
        tmp.unlink(missing_ok=True)
        log.warning(
            "journal %s: the backup after this game could not be written (%s); "
            "the journal itself has the game",
            journal,
            cause(exc, lock_timeout),
        )


def copy_journal(
    db: sqlite3.Connection, target_path: Path, *, check: bool, stamp: float | None = None
) -> None:
    """Copy an open journal, with its log, with SQLite's online backup API into one
    self-contained file; `check`: refuse a copy that fails its quick_check; `stamp`: say in
    the copy when it was made (`COPIED`)."""
    target = sqlite3.connect(target_path, isolation_level=None)
    try:
        db.backup(target)
        target.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
        if stamp is not None:
            target.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (COPIED, stamp))
        ok = not check or target.execute("PRAGMA quick_check").fetchone()[0] == "ok"
    finally:
        target.close()
    if not ok:
        raise sqlite3.DatabaseError("the copy fails its quick_check")
