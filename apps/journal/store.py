"""The SQLite store: opening the file, its transactions, the games and actions rows, queries.

The store also keeps in memory what the journal holds (its id, commit count, how many
games, the game in progress), which its mark repeats after every commit.
"""

from __future__ import annotations

import contextlib
import json
import logging
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .backups import size_of
from .errors import Corrupt, JournalError, JournalUnavailable, cause, is_corrupt
from .files import SQLITE_MAGIC, companion, read_head, uri_path
from .mark import Mark, MarkFile
from .records import GameRecord, UndoneAction
from .rows import add_game, insert_game, keep_data, load_game
from .schema import identify, prepare

log = logging.getLogger(__package__)

LOCK_TIMEOUT_S = 5.0
CHECK_ALL_BYTES = 4 << 20
"""Up to this size the whole file is checked at open (`quick_check`, a few ms)."""


class Store:
    """One journal file opened with SQLite, and its mark kept in step with its commits."""

    def __init__(
        self, path: Path, *, clock: Callable[[], float], readonly: bool, lock_timeout: float
    ) -> None:
        self.path = path
        self.clock = clock
        self.readonly = readonly
        self.lock_timeout = lock_timeout
        self.created = False  # the file was empty: a new journal was made in it
        self.id = ""
        self.commits = 0
        self.games = self.finished = 0
        self.live: GameRecord | None = None
        self.mark = MarkFile(path, readonly=readonly, held=self.held)
        self.db: sqlite3.Connection
        self._busy_ms = 0  # the busy timeout the connection has, set when it is made

    # --- opening ---------------------------------------------------------------------------
    def open(self, *, hint: Callable[[], str]) -> None:
        """Open the file as a Tavola journal. What SQLite calls corrupt raises `Corrupt`
        (when it may be set aside); anything else a `JournalError`, the file untouched and
        what this open began to create removed. `hint` adds to the refusal of a file that
        is no SQLite database what the mark and the backups say should be there."""
        exists = self._check_place(hint)
        had = {s: companion(self.path, s).exists() for s in ("", "-wal", "-shm")}
        try:
            db = self._connect(create=not exists)
            try:
                self._identify(db)
                self._check(db)
                self.db = db
                self.load_counts()  # reads the game in progress: a damaged page says so here
            except BaseException:
                db.close()
                raise
        except sqlite3.Error as exc:
            if is_corrupt(exc) and not self.readonly:
                raise Corrupt(cause(exc, self.lock_timeout)) from None
            for suffix, was in had.items():  # what this open began to create goes again
                if not was:
                    with contextlib.suppress(OSError):
                        companion(self.path, suffix).unlink(missing_ok=True)
            raise JournalError(
                f"cannot open journal {self.path}: "
                f"{cause(exc, self.lock_timeout, self.path)}; nothing was changed"
            ) from None

    def _check(self, db: sqlite3.Connection) -> None:
        """SQLite's quick_check: of the whole file while it is small (a few ms); of a big
        one only the small tables (games, meta, undone), since the whole file costs seconds
        at thousands of games. Old games' actions are checked when the whole file is copied
        (`backups.rotate_if_due`), and any read of a damaged page says so anyway."""
        if size_of(db) <= CHECK_ALL_BYTES:
            checks = ["PRAGMA quick_check"]
        else:
            checks = [f"PRAGMA quick_check({t})" for t in ("games", "meta", "undone")]
        for check in checks:
            result = db.execute(check).fetchone()[0]
            if result != "ok":
                raise Corrupt(f"SQLite's quick_check says: {result}")

    def start_new(self) -> None:
        """A new, empty journal at the path (the old file was set aside)."""
        self.db = self._connect(create=True)
        self._identify(self.db)
        self.load_counts()

    def _check_place(self, hint: Callable[[], str]) -> bool:
        """Whether a file is there to open; refuse a folder, a file that is not an SQLite
        database, or a path that cannot hold a new journal (nothing is changed)."""
        path = self.path
        if path.is_dir():
            raise JournalError(
                f"journal {path} is a folder, not a file; nothing was changed: "
                'name a file, e.g. [app] journal = "/var/lib/tavola/tavola.db"'
            )
        if path.exists():
            self._check_header(hint)
            return True
        if self.readonly:
            raise JournalError(f"no journal at {path}")
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
        return False

    def _check_header(self, hint: Callable[[], str]) -> None:
        """Refuse, untouched, a file that is not an SQLite database (a config, a picture)."""
        try:
            head = read_head(self.path)
        except OSError as exc:
            raise JournalError(
                f"cannot read journal {self.path}: {exc.strerror or exc}; nothing was changed"
            ) from None
        if head and head != SQLITE_MAGIC:
            raise JournalError(
                f"{self.path} is not an SQLite database, so not a Tavola journal "
                f"(it starts with {head[:8]!r}); nothing was changed" + hint()
            )

    def _connect(self, *, create: bool) -> sqlite3.Connection:
        mode = "ro" if self.readonly else ("rwc" if create else "rw")
        uri = f"file:{uri_path(self.path)}?mode={mode}"
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
        kind, version = identify(db, self.path)
        if self.readonly:
            return
        self.created = kind == "new"
        prepare(db, kind, version, self.path)

    # --- what the journal holds ------------------------------------------------------------
    def load_counts(self) -> None:
        db = self.db
        meta = (
            dict(db.execute("SELECT key, value FROM meta").fetchall()) if self._has_meta() else {}
        )
        self.id = str(meta.get("id", ""))
        self.commits = int(meta.get("commits", 0))
        self.games = int(db.execute("SELECT COALESCE(MAX(id), 0) FROM games").fetchone()[0])
        self.finished = int(
            db.execute("SELECT COUNT(*) FROM games WHERE status='finished'").fetchone()[0]
        )
        self.live = self.unfinished()

    def _has_meta(self) -> bool:
        return (
            self.db.execute(
                "SELECT 1 FROM sqlite_schema WHERE type='table' AND name='meta'"
            ).fetchone()
            is not None
        )

    def holds(self, action: tuple[int, int, int, str] | None) -> bool:
        """Whether action (game id, number, seat, text) is in the journal (None: nothing to
        hold)."""
        if action is None:
            return True
        game_id, seq, player, text = action
        row = self.db.execute(
            "SELECT 1 FROM actions WHERE game_id=? AND seq=? AND player=? AND text=?",
            (game_id, seq, player, text),
        ).fetchone()
        return row is not None

    def held(self) -> Mark:
        """What the mark is to say now."""
        return Mark(self.id, self.commits, self.games, self.finished, self.live)

    def describe_counts(self) -> str:
        live = self.live
        text = f"{self.finished} finished game(s)"
        return text + (f" and game {live.id} at action {len(live.actions)}" if live else "")

    # --- writing ---------------------------------------------------------------------------
    @contextmanager
    def tx(
        self,
        *,
        count: bool = True,
        wait: float | None = None,
        then: Callable[[], None] | None = None,
        flush_mark: bool = False,
    ) -> Iterator[sqlite3.Connection]:
        """One transaction; every one counts a commit. Failures that can pass are
        `JournalUnavailable` (nothing written). After the commit `then` updates what is
        kept in memory, and the mark follows (`flush_mark`: synced to the disk too)."""
        if self.readonly:
            raise JournalError(f"journal {self.path} is open read-only")
        self.mark.sync()
        db = self.db
        waited = self.lock_timeout if wait is None else wait
        self._busy(waited)
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
            raise JournalUnavailable(
                f"journal {self.path} cannot be written: {cause(exc, waited, self.path)}"
            ) from None
        if then is not None:
            then()
        if count:
            self._counted(flush=flush_mark)

    def _counted(self, *, flush: bool) -> None:
        self.commits += 1
        self.mark.due = True
        self.mark.sync(flush=flush)

    def _busy(self, seconds: float) -> None:
        """How long a write waits for another program's lock (SQLite's busy timeout)."""
        ms = int(seconds * 1000)
        if ms != self._busy_ms:
            self.db.execute(f"PRAGMA busy_timeout={ms}")
            self._busy_ms = ms

    def set_meta(self, key: str, value: Any) -> None:
        with self.tx(count=False) as db:
            db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def checkpoint(self) -> None:
        """Fold the write-ahead log into the main file."""
        try:
            busy, _log, _done = self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        except sqlite3.Error as exc:
            log.warning(
                "journal %s: checkpoint failed (%s); the log keeps everything",
                self.path,
                cause(exc, self.lock_timeout),
            )
            return
        if busy:
            log.info("journal %s: a reader kept the log from being folded in; next time", self.path)

    def close(self) -> None:
        """Fold the write-ahead log into the file, then close: a clean file on shutdown."""
        if not self.readonly:
            self.mark.due = False
            self.checkpoint()
            self.mark.write(durable=True)
        self.mark.close()
        self.db.close()

    # --- games and actions -----------------------------------------------------------------
    def import_game(self, r: GameRecord) -> None:
        """Store a whole game (recovery, imports) in one transaction."""
        with self.tx() as db:
            insert_game(db, r)
        self.games = max(self.games, r.id)

    def start_game(self, new: GameRecord, *, wait: float | None) -> tuple[int, bool]:
        """Store `new` as the game in progress, its id given here; any unfinished game is
        marked abandoned (only one game is live). Returns the id and whether one was."""

        def started() -> None:
            self.games = new.id
            self.live = new

        with self.tx(wait=wait, then=started) as db:
            if new.data_text is not None:
                keep_data(db, new.game, new.data_digest, new.data_text)
            ended = db.execute(
                "UPDATE games SET status='abandoned', ended=? WHERE status='playing'",
                (new.started,),
            ).rowcount
            new.id = add_game(db, new)
        return new.id, bool(ended)

    def append(
        self, game_id: int, seq: int, player: int, text: str, *, wait: float | None = None
    ) -> None:
        """Commit action number `seq` (1-based), then write and sync the mark, which holds
        the action too: once this returns, a `-wal` that loses the commit is noticed at
        open (the mark is ahead) and the action is put back from the mark."""

        def appended() -> None:
            live = self.live
            if live is not None and live.id == game_id and len(live.actions) == seq - 1:
                live.actions.append((player, text))

        try:
            with self.tx(wait=wait, then=appended, flush_mark=True) as db:
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
        """Move the last action of a game to `undone`; returns it, or None when there is none."""
        found: list[tuple[int, str]] = []

        def undone() -> None:
            live = self.live
            if found and live is not None and live.id == game_id and live.actions:
                live.actions.pop()

        with self.tx(wait=wait, then=undone) as db:
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

    def finish(
        self, game_id: int, scores: list[int], winner: list[int], *, wait: float | None
    ) -> None:
        self._end(
            game_id,
            "UPDATE games SET status='finished', ended=?, scores=?, winner=? WHERE id=?",
            (self.clock(), json.dumps(scores), json.dumps(winner), game_id),
            finished=True,
            wait=wait,
        )

    def abandon(self, game_id: int, *, wait: float | None) -> None:
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
            self.finished += finished
            if self.live is not None and self.live.id == game_id:
                self.live = None

        with self.tx(wait=wait, then=ended) as db:
            db.execute(sql, args)

    # --- reading ---------------------------------------------------------------------------
    def unfinished(self) -> GameRecord | None:
        row = self.db.execute(
            "SELECT id FROM games WHERE status='playing' ORDER BY id DESC LIMIT 1"
        ).fetchone()
        return None if row is None else load_game(self.db, int(row[0]))

    def undone(self, game_id: int) -> list[UndoneAction]:
        return [
            UndoneAction(*r)
            for r in self.db.execute(
                "SELECT seq, player, text, at, undone_at, locked, why FROM undone WHERE game_id=? "
                "ORDER BY undone_at, rowid",
                (game_id,),
            )
        ]

    def played(self, game: str) -> bool:
        row = self.db.execute(
            "SELECT 1 FROM games WHERE game=? AND status='finished' LIMIT 1", (game,)
        ).fetchone()
        return row is not None

    def history(self, limit: int) -> list[GameRecord]:
        rows = self.db.execute(
            "SELECT id FROM games WHERE status='finished' ORDER BY id DESC LIMIT ?", (limit,)
        ).fetchall()
        return [load_game(self.db, int(r[0]), with_actions=False) for r in rows]
