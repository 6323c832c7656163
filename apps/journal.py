"""The game journal: one SQLite file that survives crashes, power cuts and a damaged disk.

One row per game, one row per confirmed action. An action is committed (WAL,
`synchronous=FULL`) before the table acknowledges it with light, so an
acknowledged action is on disk. Resume replays the actions of the unfinished
game; undo moves the last row to the `undone` table and replays. docs/journal.md says all of this
for the people at the table; in short:

- **Finished games live in the main file.** When a game ends (finished or
  abandoned) and when the table stops, the write-ahead log is folded into the
  main file (`wal_checkpoint(TRUNCATE)`), so a lost or damaged `-wal` can cost
  at most the game in progress.
- **Rotating backups.** After each game end the journal is copied with SQLite's
  online backup API to `<journal>.backup-1` (the older copies move to `-2`, `-3`).
- **The mark.** After every commit a small sidecar, `<journal>.mark`, records
  the journal's id, its commit count and the game in progress with its actions.
  At open a journal whose commit count is behind its mark has gone back in time
  (a deleted, truncated or corrupted `-wal`, an old copy put back): the table
  restores what the backups and the mark hold and it lacks, keeping a copy of
  the journal as found, and says so in one line.
- **Only what SQLite calls corrupt is set aside.** A file SQLite reports as
  corrupt is renamed aside (never deleted, never over another file) and a new
  journal is built from what it still holds, the backups and the mark. Anything
  else that stops the journal from opening (a folder, a file that is not an
  SQLite database or not a Tavola journal, a full disk, a lock held longer than
  5 s, a permission) is a `JournalError` naming the path and the cause, and the
  file is left exactly as it was. A file is only ever written to once its
  application id (or, for journals of schema 1, its tables) says it is a
  Tavola journal.
- **Writes that cannot be done now** (disk full, locked, read-only, I/O error)
  raise `JournalUnavailable`; nothing was written, and the caller keeps what it
  wanted to write and tries again (apps.table does, refusing new actions).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import sqlite3
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

APPLICATION_ID = 0x54564C41  # "TVLA" at offset 68 of the SQLite header: a Tavola journal
SCHEMA_VERSION = 3  # 3: the `undone` table (2 is brought to 3 when opened)
LEGACY_SCHEMA = 1  # journals written before the application id and the meta table
SQLITE_MAGIC = b"SQLite format 3\x00"
BACKUPS = 3
LOCK_TIMEOUT_S = 5.0
MARK_FORMAT = "tavola journal mark"
SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    players INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    options TEXT NOT NULL,
    seats TEXT NOT NULL,
    data_digest TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('playing', 'finished', 'abandoned')),
    started REAL NOT NULL,
    ended REAL,
    scores TEXT,
    winner TEXT
);
CREATE TABLE IF NOT EXISTS actions (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    player INTEGER NOT NULL,
    text TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS undone (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    player INTEGER NOT NULL,
    text TEXT NOT NULL,
    at REAL NOT NULL,
    undone_at REAL NOT NULL,
    locked INTEGER NOT NULL,
    why TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value NOT NULL
) WITHOUT ROWID;
"""
_UNDONE = (
    SCHEMA[
        SCHEMA.index("CREATE TABLE IF NOT EXISTS undone") : SCHEMA.index(
            "CREATE TABLE IF NOT EXISTS meta"
        )
    ]
    .strip()
    .rstrip(";")
)
_GAME_COLUMNS = {
    "id",
    "game",
    "players",
    "seed",
    "options",
    "seats",
    "data_digest",
    "status",
    "started",
    "ended",
    "scores",
    "winner",
}


@dataclass(frozen=True)
class UndoneAction:
    """An action taken back by undo, as the journal keeps it: it was number `seq`, and
    when it was undone the first `locked` actions could no longer be, because `why`."""

    seq: int
    player: int
    text: str
    at: float
    undone_at: float
    locked: int
    why: str


class JournalError(RuntimeError):
    """The journal cannot be used; the message names the file and the cause (and says the
    file was left untouched, or where it was kept)."""


class JournalUnavailable(JournalError):
    """A write the journal refuses now (disk full, locked, read-only, an I/O error): nothing
    was written; keep what was to be written and try again."""


class _Corrupt(Exception):
    """SQLite itself reported the file corrupt (the one case that allows setting it aside)."""


@dataclass
class GameRecord:
    """A game as the journal stores it."""

    id: int
    game: str
    players: int
    seed: int
    options: dict[str, Any]
    seats: list[Any]
    data_digest: str
    status: str
    started: float
    ended: float | None = None
    scores: list[int] | None = None
    winner: list[int] | None = None
    actions: list[tuple[int, str]] = field(default_factory=list)
    data_text: str | None = None
    """The owner's override file the game was played with (None: the shipped data), kept
    in `meta` under `data GAME DIGEST`, so a later change to the file cannot strand it."""

    def to_json(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameRecord:
        record = cls(**{k: data[k] for k in data if k in cls.__dataclass_fields__})
        record.actions = [(int(p), str(t)) for p, t in record.actions]
        return record

    def progress(self) -> tuple[int, int]:
        """How far the game got: ended games beyond playing ones, then more actions."""
        return (0 if self.status == "playing" else 1, len(self.actions))


@dataclass(frozen=True)
class Mark:
    """The sidecar's content: which journal, how many commits, the game in progress."""

    journal_id: str
    commits: int
    games: int
    finished: int
    live: GameRecord | None


def default_path() -> Path:
    """`$STATE_DIRECTORY/tavola.db` under systemd (`/var/lib/tavola`), else the XDG data dir."""
    state_dirs = os.environ.get("STATE_DIRECTORY")
    if state_dirs:
        return Path(state_dirs.split(":")[0]) / "tavola.db"
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "tavola" / "tavola.db"


def companion(path: Path, suffix: str) -> Path:
    """`tavola.db` -> `tavola.db<suffix>` (`-wal`, `.mark`, `.backup-1`)."""
    return path.with_name(path.name + suffix)


class Journal:
    """The SQLite journal of games and actions.

    `readonly=True` (tavola history, tavola journal check) reads without writing
    anything, not even a repair: problems are described in `report`. Otherwise a
    corrupt journal is set aside and rebuilt, and one that went back in time is
    restored; `report` is then the one line saying what was found and kept.
    """

    def __init__(
        self,
        path: Path | str,
        *,
        clock: Callable[[], float] = time.time,
        readonly: bool = False,
        repair: bool = True,
        lock_timeout: float = LOCK_TIMEOUT_S,
    ) -> None:
        self.path = Path(path)
        self.clock = clock
        self.readonly = readonly
        self.repair = repair
        self._created = False
        self.lock_timeout = lock_timeout
        self.report: str | None = None  # what was found at open and what was kept
        self.recovered_from: Path | None = None  # where a corrupt journal was set aside
        self.id = ""
        self.commits = 0
        self._live: GameRecord | None = None
        self._games = self._finished = 0
        self._mark_warned = False
        self._mark_fd: int | None = None
        self._mark_len = 0
        self._mark_due = False
        self.db = self._open()

    # --- opening ---------------------------------------------------------------------------
    def _open(self) -> sqlite3.Connection:
        path = self.path
        if path.is_dir():
            raise JournalError(
                f"journal {path} is a folder, not a file; nothing was changed: "
                'name a file, e.g. [app] journal = "/var/lib/tavola/tavola.db"'
            )
        exists = path.exists()
        if exists:
            self._check_header()
        elif self.readonly:
            raise JournalError(f"no journal at {path}")
        else:
            blocker = next((p for p in path.parents if p.exists() and not p.is_dir()), None)
            if blocker is not None:
                raise JournalError(
                    f"cannot make journal {path}: {blocker} is a file, not a "
                    "folder; nothing was changed: set [app] journal (or --db) "
                    "to a path in a folder"
                )
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise JournalError(
                    f"cannot create the folder of journal {path}: "
                    f"{exc.strerror or exc}; nothing was changed: set [app] "
                    "journal to a writable path"
                ) from None
        had = {s: companion(path, s).exists() for s in ("", "-wal", "-shm")}
        try:
            db = self._connect(create=not exists)
            try:
                self._identify(db)
                result = db.execute("PRAGMA quick_check").fetchone()[0]
                if result != "ok":
                    raise _Corrupt(f"SQLite's quick_check says: {result}")
            except BaseException:
                db.close()
                raise
        except _Corrupt as exc:
            if self.readonly:
                raise JournalError(
                    f"journal {path} is damaged ({exc}); nothing was changed: "
                    "`tavola journal restore` sets it aside and rebuilds it "
                    "from what it still holds, the backups and the mark"
                ) from None
            return self._rebuild(str(exc))
        except sqlite3.Error as exc:
            if _is_corrupt(exc) and not self.readonly:
                return self._rebuild(_cause(exc, self.lock_timeout))
            for suffix, was in had.items():  # what this open began to create goes again
                if not was:
                    with contextlib.suppress(OSError):
                        companion(path, suffix).unlink(missing_ok=True)
            raise JournalError(
                f"cannot open journal {path}: "
                f"{_cause(exc, self.lock_timeout, path)}; nothing was changed"
            ) from None
        self.db = db
        self._load_counts()
        if self.repair:
            self._compare_with_mark()
        return self.db

    def _check_header(self) -> None:
        """Refuse, untouched, a file that is not an SQLite database (a config, a picture)."""
        try:
            with open(self.path, "rb") as fh:
                head = fh.read(len(SQLITE_MAGIC))
        except OSError as exc:
            raise JournalError(
                f"cannot read journal {self.path}: {exc.strerror or exc}; nothing was changed"
            ) from None
        if head and head != SQLITE_MAGIC:
            raise JournalError(
                f"{self.path} is not an SQLite database, so not a Tavola journal "
                f"(it starts with {head[:8]!r}); nothing was changed" + self._hint()
            )

    def _hint(self) -> str:
        """What the mark and the backups say about a journal that should be here."""
        mark = self._read_mark()
        backups = [p.name for p in self.backups()]
        if mark is None and not backups:
            return ": name another file in [app] journal (or --db)"
        said = []
        if mark is not None:
            said.append(f"the mark says a journal with {mark.finished} finished game(s) lived here")
        if backups:
            said.append(f"backups: {', '.join(backups)}")
        return (
            f"; {'; '.join(said)}: if this file should be that journal, "
            f"`tavola journal restore --db {self.path}` keeps it aside and restores"
        )

    def _connect(self, *, create: bool) -> sqlite3.Connection:
        mode = "ro" if self.readonly else ("rwc" if create else "rw")
        uri = f"file:{_uri_path(self.path)}?mode={mode}"
        db = sqlite3.connect(
            uri, uri=True, timeout=self.lock_timeout, isolation_level=None, check_same_thread=False
        )
        if self.readonly and not companion(self.path, "-wal").exists():
            try:
                db.execute("PRAGMA application_id").fetchone()
            except sqlite3.OperationalError:  # a read-only disk: no -shm can be made
                db.close()
                db = sqlite3.connect(
                    uri + "&immutable=1", uri=True, isolation_level=None, check_same_thread=False
                )
        self._busy_ms = int(self.lock_timeout * 1000)
        db.execute(f"PRAGMA busy_timeout={self._busy_ms}")
        return db

    def _identify(self, db: sqlite3.Connection) -> None:
        """A Tavola journal, an empty file to start one in, or refused; then WAL on."""
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        tables = {
            r[0]
            for r in db.execute(
                "SELECT name FROM sqlite_schema WHERE type='table' AND name NOT LIKE 'sqlite_%'"
            )
        }
        if app_id == APPLICATION_ID:
            if version > SCHEMA_VERSION:
                raise JournalError(
                    f"journal {self.path} was written by a newer Tavola (schema "
                    f"{version}, this one knows {SCHEMA_VERSION}); nothing was "
                    "changed: update Tavola"
                )
            kind = "journal"
        elif app_id == 0 and not tables and version == 0:
            kind = "new"
        elif (
            app_id == 0
            and version in (0, LEGACY_SCHEMA)
            and tables == {"games", "actions"}
            and {r[1] for r in db.execute("PRAGMA table_info(games)")} >= _GAME_COLUMNS
        ):
            kind = "legacy"
        else:
            what = f"application id {app_id:#x}" if app_id else "no application id"
            listed = ", ".join(sorted(tables)) or "no tables"
            raise JournalError(
                f"{self.path} is an SQLite database but not a Tavola journal "
                f"({what}; {listed}); nothing was changed: name another file "
                "in [app] journal (or --db)"
            )
        if self.readonly:
            return
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
        self._created = kind == "new"
        if kind != "journal":
            db.execute("BEGIN IMMEDIATE")
            try:
                for statement in SCHEMA.split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute("INSERT OR IGNORE INTO meta VALUES ('id', ?)", (uuid.uuid4().hex,))
                db.execute("INSERT OR IGNORE INTO meta VALUES ('commits', 0)")
                db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
            if kind == "legacy":
                log.info("journal %s: brought to schema %d", self.path, SCHEMA_VERSION)
        elif version < SCHEMA_VERSION:  # schema 2: the undone table is added, nothing else
            db.execute("BEGIN IMMEDIATE")
            try:
                db.execute(_UNDONE)
                db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
            log.info("journal %s: brought to schema %d", self.path, SCHEMA_VERSION)
        else:  # take the write lock once: a lock held elsewhere is an error now, not mid-game
            db.execute("BEGIN IMMEDIATE")
            db.execute("ROLLBACK")

    def _load_counts(self) -> None:
        db = self.db
        meta = (
            dict(db.execute("SELECT key, value FROM meta").fetchall()) if self._has_meta() else {}
        )
        self.id = str(meta.get("id", ""))
        self.commits = int(meta.get("commits", 0))
        self._games = int(db.execute("SELECT COALESCE(MAX(id), 0) FROM games").fetchone()[0])
        self._finished = int(
            db.execute("SELECT COUNT(*) FROM games WHERE status='finished'").fetchone()[0]
        )
        self._live = self.unfinished()

    def _has_meta(self) -> bool:
        return (
            self.db.execute(
                "SELECT 1 FROM sqlite_schema WHERE type='table' AND name='meta'"
            ).fetchone()
            is not None
        )

    # --- the mark --------------------------------------------------------------------------
    @property
    def mark_path(self) -> Path:
        return companion(self.path, ".mark")

    def _read_mark(self) -> Mark | None:
        try:
            data = json.loads(self.mark_path.read_text(encoding="utf-8"))
            if data.get("format") != MARK_FORMAT:
                return None
            live = data.get("live")
            return Mark(
                str(data["id"]),
                int(data["commits"]),
                int(data["games"]),
                int(data["finished"]),
                None if live is None else GameRecord.from_json(live),
            )
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, TypeError) as exc:
            log.warning(
                "journal mark %s is unreadable (%s); it is ignored and rewritten",
                self.mark_path,
                exc,
            )
            return None

    def _write_mark(self, *, durable: bool = False) -> None:
        """Rewrite the mark after a commit. It may lag (a crash between the two), never lead.

        One `pwrite` over the file kept open, padded with spaces to the length it had (JSON
        allows them), so the time between a commit and its acknowledgement stays a few
        microseconds; a crash cannot leave half a write, and a write torn by a power cut
        only makes the mark unreadable, which is no alarm. Game ends and the stop also
        shorten the file and sync it.
        """
        if self.readonly:
            return
        data = json.dumps(
            {
                "format": MARK_FORMAT,
                "id": self.id,
                "commits": self.commits,
                "games": self._games,
                "finished": self._finished,
                "live": None if self._live is None else self._live.to_json(),
                "journal": str(self.path),
            },
            separators=(",", ":"),
        ).encode()
        try:
            fd = self._mark_file()
            os.pwrite(fd, data + b" " * (self._mark_len - len(data)), 0)
            self._mark_len = max(self._mark_len, len(data))
            if durable:
                os.ftruncate(fd, len(data))
                self._mark_len = len(data)
                os.fsync(fd)
        except OSError as exc:
            if not self._mark_warned:
                self._mark_warned = True
                log.warning(
                    "cannot write the journal mark %s (%s); the journal itself is fine",
                    self.mark_path,
                    exc.strerror or exc,
                )
            return
        self._mark_warned = False

    def _mark_file(self) -> int:
        """The mark's descriptor, (re)opened when missing or when the file was removed."""
        fd = self._mark_fd
        if fd is not None and os.fstat(fd).st_nlink == 0:
            os.close(fd)
            fd = None
        if fd is None:
            fd = os.open(self.mark_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
            self._mark_fd = fd
            self._mark_len = os.fstat(fd).st_size
            _fsync_dir(self.path.parent)
        return fd

    def _compare_with_mark(self) -> None:
        """A journal behind its mark went back in time: restore what it lacks."""
        mark = self._read_mark()
        if mark is None:
            self._write_mark()
            return
        if self._created:  # a new, empty journal where the mark says one lived
            self.id = mark.journal_id
            self._set_meta("id", self.id)
        elif mark.journal_id != self.id:
            log.info("the mark %s belongs to another journal; it is rewritten", self.mark_path)
            self._write_mark()
            return
        if self.commits >= mark.commits:
            self._write_mark()
            return
        found = (
            f"journal {self.path} went back in time: it holds {self._describe_counts()}, "
            f"where it had reached {mark.finished} finished game(s)"
            + (
                f" and game {mark.live.id} at action {len(mark.live.actions)}"
                if mark.live is not None
                else ""
            )
            + f" (commit {self.commits} of {mark.commits}, says {self.mark_path.name})"
        )
        if self.readonly:
            self.report = found + "; `tavola run` or `tavola journal restore` restores it"
            return
        copy = self._copy_as_found() if self._games else None
        kept = self._restore_from(
            [*self._backup_records(), *self._mark_records(mark)], at_least=mark.commits
        )
        self.report = (
            found + "; " + kept + (f"; the journal as found is kept as {copy.name}" if copy else "")
        )
        log.warning("%s", self.report)

    def _describe_counts(self) -> str:
        live = self._live
        text = f"{self._finished} finished game(s)"
        return text + (f" and game {live.id} at action {len(live.actions)}" if live else "")

    def _mark_records(self, mark: Mark) -> list[tuple[str, GameRecord]]:
        return [] if mark.live is None else [(f"the mark ({self.mark_path.name})", mark.live)]

    # --- backups ---------------------------------------------------------------------------
    def backups(self) -> list[Path]:
        """The backups that exist, newest first (the copy of journals before schema 2 last)."""
        names = [f".backup-{i}" for i in range(1, BACKUPS + 1)] + [".last-good"]
        return [p for p in (companion(self.path, n) for n in names) if p.is_file()]

    def _backup_records(self) -> list[tuple[str, GameRecord]]:
        found = []
        for path in self.backups():
            if _is_journal_file(path):
                found += [(path.name, r) for r in _salvage(path)]
        return found

    def _backup(self) -> None:
        """After a game end: fold the log into the file, then copy it aside and rotate."""
        self._checkpoint()
        tmp = companion(self.path, ".backup.tmp")
        try:
            target = sqlite3.connect(tmp)
            try:
                self.db.backup(target)
                target.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
                ok = target.execute("PRAGMA quick_check").fetchone()[0] == "ok"
            finally:
                target.close()
            if not ok:
                raise sqlite3.DatabaseError("the copy fails its quick_check")
            with open(tmp, "rb") as fh:
                os.fsync(fh.fileno())
            for i in range(BACKUPS - 1, 0, -1):
                older = companion(self.path, f".backup-{i}")
                if older.exists():
                    os.replace(older, companion(self.path, f".backup-{i + 1}"))
            os.replace(tmp, companion(self.path, ".backup-1"))
            _fsync_dir(self.path.parent)
        except (OSError, sqlite3.Error) as exc:
            tmp.unlink(missing_ok=True)
            log.warning(
                "journal %s: the backup after this game could not be written (%s); "
                "the journal itself has the game",
                self.path,
                _cause(exc, self.lock_timeout),
            )

    def _checkpoint(self) -> None:
        try:
            busy, _log, _done = self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        except sqlite3.Error as exc:
            log.warning(
                "journal %s: checkpoint failed (%s); the log keeps everything",
                self.path,
                _cause(exc, self.lock_timeout),
            )
            return
        if busy:
            log.info("journal %s: a reader kept the log from being folded in; next time", self.path)

    # --- repairs ---------------------------------------------------------------------------
    def _rebuild(self, why: str) -> sqlite3.Connection:
        """SQLite called the file corrupt: set it aside and start again from what survives."""
        aside = set_aside(self.path, "damaged")
        self.recovered_from = aside
        mark = self._read_mark()
        salvaged = [(aside.name, r) for r in _salvage(aside)]
        self.db = self._connect(create=True)
        self._identify(self.db)
        self._load_counts()
        if mark is not None:
            self.id = mark.journal_id
            self._set_meta("id", self.id)
        candidates = [
            *salvaged,
            *self._backup_records(),
            *(self._mark_records(mark) if mark is not None else []),
        ]
        kept = self._restore_from(candidates, at_least=mark.commits if mark else 0)
        self.report = (
            f"journal {self.path} is damaged ({why}); it is kept as {aside.name} "
            f"and a new journal was started; {kept}"
        )
        log.error("%s", self.report)
        return self.db

    def _copy_as_found(self) -> Path | None:
        """A copy of the journal (with its log) before a restore writes to it."""
        target_path = unique_path(self.path, "before-restore")
        try:
            target = sqlite3.connect(target_path)
            try:
                self.db.backup(target)
                target.execute("PRAGMA journal_mode=DELETE")
            finally:
                target.close()
        except (OSError, sqlite3.Error) as exc:
            log.warning(
                "could not copy journal %s before restoring it: %s",
                self.path,
                _cause(exc, self.lock_timeout),
            )
            return None
        return target_path

    def _restore_from(
        self, candidates: Sequence[tuple[str, GameRecord]], *, at_least: int = 0
    ) -> str:
        """Store each game where a candidate got further than the journal; say what came back.

        A candidate replaces the journal's game only if it continues it (the journal's
        actions are a prefix of the candidate's): a different game under the same id is
        never overwritten.
        """
        best: dict[int, tuple[str, GameRecord]] = {}
        for source, record in candidates:
            known = best.get(record.id)
            if known is None or (
                record.progress() > known[1].progress() and _continues(record, known[1])
            ):
                best[record.id] = (source, record)
        restored: dict[str, list[str]] = {}
        with self._tx(count=False) as db:
            for game_id, (source, record) in sorted(best.items()):
                row = db.execute("SELECT id FROM games WHERE id=?", (game_id,)).fetchone()
                if row is not None:
                    current = _load(db, game_id)
                    if current.progress() >= record.progress() or not _continues(record, current):
                        continue
                    # the undone actions stay: they are set aside while the game's row
                    # is replaced (they refer to it), then put back
                    kept = db.execute(
                        "SELECT game_id, seq, player, text, at, undone_at, locked,"
                        " why FROM undone WHERE game_id=?",
                        (game_id,),
                    ).fetchall()
                    db.execute("DELETE FROM undone WHERE game_id=?", (game_id,))
                    db.execute("DELETE FROM actions WHERE game_id=?", (game_id,))
                    db.execute("DELETE FROM games WHERE id=?", (game_id,))
                    _insert(db, record)
                    db.executemany("INSERT INTO undone VALUES (?,?,?,?,?,?,?,?)", kept)
                else:
                    _insert(db, record)
                restored.setdefault(source, []).append(
                    f"{game_id}"
                    + (f" ({len(record.actions)} actions)" if record.status == "playing" else "")
                )
            commits = max(self.commits, at_least) + 1
            db.execute("UPDATE meta SET value=? WHERE key='commits'", (commits,))
        self._load_counts()
        self._write_mark(durable=True)
        if not restored:
            return "the backups and the mark hold nothing it lacks"
        return "restored " + "; ".join(
            f"game {', '.join(ids)} from {source}" for source, ids in restored.items()
        )

    def _set_meta(self, key: str, value: Any) -> None:
        with self._tx(count=False) as db:
            db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    @classmethod
    def restore(
        cls, path: Path | str, *, source: Path | None = None, clock: Callable[[], float] = time.time
    ) -> Journal:
        """`tavola journal restore`: the one repair a person asks for; `report` says what.

        A readable journal gets what the backups, the mark (and `source`) hold that it
        lacks. An unreadable one (not an SQLite file any more, e.g. zeroed) is set aside
        and rebuilt, but only if it is empty, all zero bytes, or the mark says a journal
        lived at this path: a file that may be someone's is never moved.
        """
        path = Path(path)
        probe = cls.__new__(cls)
        probe.path = path
        mark = probe._read_mark()
        if not path.exists() and mark is None and source is None and not probe.backups():
            raise JournalError(
                f"no journal at {path}, and no backup or mark beside it: nothing to restore"
            )
        found = ""
        aside = None
        if path.exists() and not path.is_dir() and not _is_sqlite(path):
            if not (_all_zero(path) or mark is not None):
                raise JournalError(
                    f"{path} is not an SQLite database and no mark says a "
                    "journal lived there; nothing was changed"
                )
            aside = set_aside(path, "unreadable")
            found = f"journal {path} could not be read; it is kept as {aside.name}; "
        extra = _records_of(source)
        journal = cls(path, clock=clock, repair=False)
        if aside is not None:
            journal.recovered_from = aside
        elif journal.report is not None:  # SQLite called it corrupt: rebuilt at open
            found = journal.report + "; then "
        same = (
            mark
            if mark is not None and (journal._created or mark.journal_id == journal.id)
            else None
        )
        if same is not None and journal._created:
            journal.id = same.journal_id
            journal._set_meta("id", journal.id)
        copy = journal._copy_as_found() if journal._games and not found else None
        kept = journal._restore_from(
            [
                *journal._backup_records(),
                *(journal._mark_records(same) if same is not None else []),
                *extra,
            ],
            at_least=same.commits if same is not None else 0,
        )
        journal.report = (
            (found or f"journal {path}: ")
            + kept
            + (f"; the journal as found is kept as {copy.name}" if copy else "")
        )
        return journal

    # --- writing ---------------------------------------------------------------------------
    @contextmanager
    def _tx(
        self,
        *,
        count: bool = True,
        wait: float | None = None,
        then: Callable[[], None] | None = None,
        mark_later: bool = False,
    ) -> Iterator[sqlite3.Connection]:
        """One transaction; every one counts a commit. Failures that can pass are
        `JournalUnavailable` (nothing written). After the commit `then` updates what is
        kept in memory, and the mark follows (`mark_later`: at `sync_mark()`)."""
        if self.readonly:
            raise JournalError(f"journal {self.path} is open read-only")
        self.sync_mark()
        db = self.db
        self._busy(self.lock_timeout if wait is None else wait)
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
                if count:
                    db.execute("UPDATE meta SET value = value + 1 WHERE key='commits'")
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        db.execute("ROLLBACK")
                raise
        except sqlite3.OperationalError as exc:
            waited = self.lock_timeout if wait is None else wait
            raise JournalUnavailable(
                f"journal {self.path} cannot be written: {_cause(exc, waited, self.path)}"
            ) from None
        if then is not None:
            then()
        if count:
            self.commits += 1
            self._mark_due = True
            if not mark_later:
                self.sync_mark()

    def sync_mark(self) -> None:
        """Write the mark if a commit has not been marked yet.

        `append` leaves this to its caller, which acknowledges the action first: the
        time between a commit and its acknowledgement (where a cut leaves the journal an
        action ahead of what the table said) stays as short as SQLite makes it. Any
        later write, a game end and `close()` mark what is due anyway."""
        if self._mark_due:
            self._mark_due = False
            self._write_mark()

    def _busy(self, seconds: float) -> None:
        """How long a write waits for another program's lock (SQLite's busy timeout)."""
        ms = int(seconds * 1000)
        if ms != self._busy_ms:
            self.db.execute(f"PRAGMA busy_timeout={ms}")
            self._busy_ms = ms

    def import_game(self, r: GameRecord) -> None:
        """Store a whole game (recovery, imports) in one transaction."""
        with self._tx() as db:
            _insert(db, r)
        self._games = max(self._games, r.id)

    def close(self) -> None:
        """Fold the write-ahead log into the file, then close: a clean file on shutdown."""
        if not self.readonly:
            self._mark_due = False
            self._checkpoint()
            self._write_mark(durable=True)
        if self._mark_fd is not None:
            os.close(self._mark_fd)
            self._mark_fd = None
        self.db.close()

    def start_game(
        self,
        game: str,
        players: int,
        seed: int,
        options: dict[str, Any],
        seats: Sequence[Any],
        data_digest: str,
        *,
        data_text: str | None = None,
        wait: float | None = None,
    ) -> int:
        """A new game; any unfinished game is marked abandoned (only one game is live).
        `data_text`: the owner's override file the game is played with, kept with it."""
        now = self.clock()
        made: list[int] = []

        def started() -> None:
            self._games = made[0]
            self._live = GameRecord(
                made[0],
                game,
                players,
                seed,
                dict(options),
                list(seats),
                data_digest,
                "playing",
                now,
                data_text=data_text,
            )

        with self._tx(wait=wait, then=started) as db:
            if data_text is not None:
                _keep_data(db, game, data_digest, data_text)
            ended = db.execute(
                "UPDATE games SET status='abandoned', ended=? WHERE status='playing'", (now,)
            ).rowcount
            cur = db.execute(
                "INSERT INTO games (game, players, seed, options, seats, data_digest, status,"
                " started) VALUES (?,?,?,?,?,?,'playing',?)",
                (
                    game,
                    players,
                    seed,
                    json.dumps(options),
                    json.dumps(list(seats)),
                    data_digest,
                    now,
                ),
            )
            made.append(int(cur.lastrowid or 0))
        if ended:
            self._backup()
        return made[0]

    def append(
        self, game_id: int, seq: int, player: int, text: str, *, wait: float | None = None
    ) -> None:
        """Commit action number `seq` (1-based) durably before anyone sees it acknowledged;
        call `sync_mark()` once it has been acknowledged."""

        def appended() -> None:
            live = self._live
            if live is not None and live.id == game_id and len(live.actions) == seq - 1:
                live.actions.append((player, text))

        try:
            with self._tx(wait=wait, then=appended, mark_later=True) as db:
                db.execute(
                    "INSERT INTO actions (game_id, seq, player, text, at) VALUES (?,?,?,?,?)",
                    (game_id, seq, player, text, self.clock()),
                )
        except sqlite3.IntegrityError:
            # a retry of a write whose commit did reach the disk although SQLite said not
            row = self.db.execute(
                "SELECT player, text FROM actions WHERE game_id=? AND seq=?", (game_id, seq)
            ).fetchone()
            if row is None or tuple(row) != (player, text):
                raise JournalError(
                    f"journal {self.path}: game {game_id} already has an action {seq}"
                ) from None
            appended()

    def undo(
        self, game_id: int, *, locked: int = 0, why: str = "", wait: float | None = None
    ) -> tuple[int, str] | None:
        """Take back the last action of a game; returns it, or None when there is none.

        Nothing is deleted silently: the action moves, in the same transaction, to the
        `undone` table with when it was undone and `locked`, how many actions before it
        could no longer be undone then, and `why` (a resumed table restores that limit
        and its reason exactly)."""
        found: list[tuple[int, str]] = []

        def undone() -> None:
            live = self._live
            if found and live is not None and live.id == game_id and live.actions:
                live.actions.pop()

        with self._tx(wait=wait, then=undone) as db:
            row = db.execute(
                "SELECT seq, player, text, at FROM actions WHERE game_id=? ORDER BY seq DESC"
                " LIMIT 1",
                (game_id,),
            ).fetchone()
            if row is not None:
                db.execute(
                    "INSERT INTO undone (game_id, seq, player, text, at, undone_at, locked,"
                    " why) VALUES (?,?,?,?,?,?,?,?)",
                    (game_id, *row, self.clock(), locked, why),
                )
                db.execute("DELETE FROM actions WHERE game_id=? AND seq=?", (game_id, row[0]))
                found.append((int(row[1]), str(row[2])))
        return found[0] if found else None

    def undone(self, game_id: int) -> list[UndoneAction]:
        """The actions of a game that were taken back, in the order they were undone."""
        return [
            UndoneAction(*r)
            for r in self.db.execute(
                "SELECT seq, player, text, at, undone_at, locked, why FROM undone WHERE game_id=? "
                "ORDER BY undone_at, rowid",
                (game_id,),
            )
        ]

    def finish(
        self, game_id: int, scores: list[int], winner: list[int], *, wait: float | None = None
    ) -> None:
        """The game's end and result; then the log is folded in and a backup made."""
        self._end(
            game_id,
            "UPDATE games SET status='finished', ended=?, scores=?, winner=? WHERE id=?",
            (self.clock(), json.dumps(scores), json.dumps(winner), game_id),
            finished=True,
            wait=wait,
        )

    def abandon(self, game_id: int, *, wait: float | None = None) -> None:
        self._end(
            game_id,
            "UPDATE games SET status='abandoned', ended=? WHERE id=?",
            (self.clock(), game_id),
            finished=False,
            wait=wait,
        )

    def _end(
        self, game_id: int, sql: str, args: tuple[Any, ...], *, finished: bool, wait: float | None
    ) -> None:
        def ended() -> None:
            self._finished += finished
            if self._live is not None and self._live.id == game_id:
                self._live = None

        with self._tx(wait=wait, then=ended) as db:
            db.execute(sql, args)
        self._backup()
        self._write_mark(durable=True)

    # --- reading ---------------------------------------------------------------------------
    def unfinished(self) -> GameRecord | None:
        row = self.db.execute(
            "SELECT id FROM games WHERE status='playing' ORDER BY id DESC LIMIT 1"
        ).fetchone()
        return None if row is None else self.load(int(row[0]))

    def load(self, game_id: int) -> GameRecord:
        return _load(self.db, game_id)

    def played(self, game: str) -> bool:
        """Whether a game of `game` was played to its end (an abandoned one does not count)."""
        row = self.db.execute(
            "SELECT 1 FROM games WHERE game=? AND status='finished' LIMIT 1", (game,)
        ).fetchone()
        return row is not None

    def history(self, limit: int = 20) -> list[GameRecord]:
        rows = self.db.execute(
            "SELECT id FROM games WHERE status='finished' ORDER BY id DESC LIMIT ?", (limit,)
        ).fetchall()
        return [_load(self.db, int(r[0]), with_actions=False) for r in rows]

    def summary(self) -> str:
        """One line: what the journal holds, its backups and whether the mark agrees."""
        backups = self.backups()
        return (
            f"journal {self.path}: {self._describe_counts()}, {self._games} game(s) in all; "
            f"{len(backups)} backup(s)" + (f", newest {backups[0].name}" if backups else "")
        )


# --- helpers ---------------------------------------------------------------------------------
def _data_key(game: str, digest: str) -> str:
    return f"data {game} {digest}"


def _keep_data(db: sqlite3.Connection, game: str, digest: str, text: str) -> None:
    """The override text of data `digest`, once per digest (the same text gives the same
    digest, so the first one kept stays right)."""
    db.execute("INSERT OR IGNORE INTO meta VALUES (?, ?)", (_data_key(game, digest), text))


def _kept_data(db: sqlite3.Connection, game: str, digest: str) -> str | None:
    try:
        row = db.execute(
            "SELECT value FROM meta WHERE key=?", (_data_key(game, digest),)
        ).fetchone()
    except sqlite3.OperationalError:  # a journal from before the meta table
        return None
    return None if row is None else str(row[0])


def _insert(db: sqlite3.Connection, r: GameRecord) -> None:
    if r.data_text is not None:
        _keep_data(db, r.game, r.data_digest, r.data_text)
    db.execute(
        "INSERT INTO games (id, game, players, seed, options, seats, data_digest, status,"
        " started, ended, scores, winner) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
        (
            r.id,
            r.game,
            r.players,
            r.seed,
            json.dumps(r.options),
            json.dumps(r.seats),
            r.data_digest,
            r.status,
            r.started,
            r.ended,
            None if r.scores is None else json.dumps(r.scores),
            None if r.winner is None else json.dumps(r.winner),
        ),
    )
    db.executemany(
        "INSERT INTO actions (game_id, seq, player, text, at) VALUES (?,?,?,?,?)",
        [(r.id, i, p, t, r.started) for i, (p, t) in enumerate(r.actions, 1)],
    )


def _continues(record: GameRecord, other: GameRecord) -> bool:
    """Whether `record` is `other` played further (same game, its actions extended)."""
    same = (record.game, record.seed, record.players) == (other.game, other.seed, other.players)
    return same and record.actions[: len(other.actions)] == other.actions


def _load(db: sqlite3.Connection, game_id: int, *, with_actions: bool = True) -> GameRecord:
    row = db.execute(
        "SELECT id, game, players, seed, options, seats, data_digest, status, started, ended,"
        " scores, winner FROM games WHERE id=?",
        (game_id,),
    ).fetchone()
    if row is None:
        raise JournalError(f"no game {game_id} in the journal")
    record = GameRecord(
        id=row[0],
        game=row[1],
        players=row[2],
        seed=row[3],
        options=json.loads(row[4]),
        seats=json.loads(row[5]),
        data_digest=row[6],
        status=row[7],
        started=row[8],
        ended=row[9],
        scores=None if row[10] is None else json.loads(row[10]),
        winner=None if row[11] is None else json.loads(row[11]),
        data_text=_kept_data(db, row[1], row[6]),
    )
    if with_actions:
        record.actions = [
            (int(p), str(t))
            for p, t in db.execute(
                "SELECT player, text FROM actions WHERE game_id=? ORDER BY seq", (game_id,)
            )
        ]
    return record


def _salvage(path: Path) -> list[GameRecord]:
    """Every game still readable from a journal (a damaged one too); the rest is skipped."""
    try:
        db = sqlite3.connect(f"file:{_uri_path(path)}?mode=ro", uri=True)
    except sqlite3.Error:
        return []
    found: list[GameRecord] = []
    try:
        ids = [int(r[0]) for r in db.execute("SELECT id FROM games ORDER BY id")]
    except sqlite3.Error:
        db.close()
        return []
    for game_id in ids:
        try:
            found.append(_load(db, game_id))
        except (sqlite3.Error, ValueError, JournalError):
            continue
    db.close()
    return found


def _records_of(source: Path | None) -> list[tuple[str, GameRecord]]:
    if source is None:
        return []
    if not _is_journal_file(source):
        raise JournalError(f"{source} is not a Tavola journal or backup; nothing was changed")
    return [(source.name, r) for r in _salvage(source)]


def _is_sqlite(path: Path) -> bool:
    try:
        with open(path, "rb") as fh:
            head = fh.read(len(SQLITE_MAGIC))
    except OSError:
        return False
    return head == SQLITE_MAGIC or head == b""


def _is_journal_file(path: Path) -> bool:
    """A readable Tavola journal (or backup) by its application id or its schema-1 tables."""
    if not path.is_file() or not _is_sqlite(path):
        return False
    try:
        db = sqlite3.connect(f"file:{_uri_path(path)}?mode=ro", uri=True)
        try:
            app_id = db.execute("PRAGMA application_id").fetchone()[0]
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_schema WHERE type='table'")}
        finally:
            db.close()
    except sqlite3.Error:
        return False
    return app_id == APPLICATION_ID or (app_id == 0 and {"games", "actions"} <= tables)


def _all_zero(path: Path) -> bool:
    with open(path, "rb") as fh:
        while chunk := fh.read(1 << 16):
            if chunk.count(0) != len(chunk):
                return False
    return True


def unique_path(path: Path, label: str) -> Path:
    """`tavola.db.<label>-<time>`, with -2, -3 ... added until neither it nor its -wal and
    -shm exist: two repairs in one second never share a name."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    n = 1
    while True:
        candidate = companion(path, f".{label}-{stamp}" + (f"-{n}" if n > 1 else ""))
        if not any(
            companion(candidate, s).exists() or companion(candidate, s).is_symlink()
            for s in ("", "-wal", "-shm")
        ):
            return candidate
        n += 1


def set_aside(path: Path, label: str) -> Path:
    """Move a journal (and its -wal and -shm) to a new name; never over an existing file."""
    while True:
        aside = unique_path(path, label)
        try:
            _move_no_clobber(path, aside)
        except FileExistsError:
            continue  # somebody took the name between the check and the move
        break
    for suffix in ("-wal", "-shm"):
        src = companion(path, suffix)
        if src.exists():
            _move_no_clobber(src, companion(aside, suffix))
    return aside


def _move_no_clobber(src: Path, dst: Path) -> None:
    """rename() replaces an existing target; link() + unlink() refuses to."""
    try:
        os.link(src, dst)
    except FileExistsError:
        raise
    except OSError:  # no hard links on this file system: check, then rename
        if dst.exists():
            raise FileExistsError(dst) from None
        os.rename(src, dst)
        return
    os.unlink(src)


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _uri_path(path: Path) -> str:
    """A path for an SQLite `file:` URI (`?` and `#` would end the path)."""
    return str(path.absolute()).replace("%", "%25").replace("?", "%3f").replace("#", "%23")


def _nearly_full(path: Path) -> bool:
    try:
        return shutil.disk_usage(path.parent).free < 256 * 1024
    except OSError:
        return False


def _access_problem(path: Path) -> str | None:
    """Why `path` cannot be written, when the file system or the permissions say so."""
    folder = path.parent
    try:
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            return f"the file system of {folder} is mounted read-only"
    except OSError:
        return f"its folder {folder} cannot be reached"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"no permission to write in {folder}"
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        return "no permission to read and write it"
    return None


def _is_corrupt(exc: BaseException) -> bool:
    return str(getattr(exc, "sqlite_errorname", "")).startswith("SQLITE_CORRUPT")


def _cause(exc: BaseException, lock_timeout: float, path: Path | None = None) -> str:
    """What went wrong, in words a person at the table can act on."""
    if isinstance(exc, OSError):
        return str(exc.strerror or exc)
    name = str(getattr(exc, "sqlite_errorname", ""))
    base = "_".join(name.split("_")[:2])
    if path is not None and base in ("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM"):
        denied = _access_problem(path)
        if denied:
            return denied
    if base == "SQLITE_FULL":
        return "the disk is full"
    if base in ("SQLITE_BUSY", "SQLITE_LOCKED"):
        return f"another program has held it locked for more than {lock_timeout:g} s"
    if base == "SQLITE_READONLY":
        return "it is read-only (the file's or its folder's permissions)"
    if base in ("SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_AUTH"):
        return "permission denied, or its folder is missing"
    if base == "SQLITE_IOERR":
        if path is not None and _nearly_full(path):
            return f"the disk is full ({name})"
        return f"a disk error ({name})"
    if base == "SQLITE_NOTADB":
        return "SQLite says it is not a database"
    if base == "SQLITE_CORRUPT":
        return f"SQLite reports it corrupt: {exc}"
    return f"{exc} ({name})" if name else str(exc)
