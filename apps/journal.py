"""The game journal: one SQLite file that survives crashes and power cuts.

One row per game, one row per confirmed action. An action is committed
(WAL, `synchronous=FULL`) before the table acknowledges it with light, so an
acknowledged action is on disk. Resume replays the actions of the unfinished
game; undo deletes the last row and replays. A damaged file is moved aside,
never deleted, and the games still readable in it are copied to a new one,
together with those of the copy made after the last finished game
(`<journal>.last-good`), so a truncated file still keeps the last good game.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1
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
"""


class JournalError(RuntimeError):
    """The journal cannot be opened or written; the message names the file and the fix."""


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


def default_path() -> Path:
    """`$STATE_DIRECTORY/tavola.db` under systemd (`/var/lib/tavola`), else the XDG data dir."""
    state = os.environ.get("STATE_DIRECTORY")
    if state:
        return Path(state.split(":")[0]) / "tavola.db"
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "tavola" / "tavola.db"


class Journal:
    """The SQLite journal of games and actions."""

    def __init__(self, path: Path | str, *, clock: Any = time.time) -> None:
        self.path = Path(path)
        self.clock = clock
        self.recovered_from: Path | None = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise JournalError(
                f"cannot create the journal folder {self.path.parent}: {exc.strerror}; "
                f"set [table] journal in the config to a writable path"
            ) from None
        try:
            self.db = self._open(self.path)
        except sqlite3.DatabaseError as exc:
            self._recover(exc)

    # --- opening and recovery ---------------------------------------------------
    @staticmethod
    def _open(path: Path) -> sqlite3.Connection:
        db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            result = db.execute("PRAGMA quick_check").fetchone()[0]
            if result != "ok":
                raise sqlite3.DatabaseError(f"integrity check failed: {result}")
            db.executescript(SCHEMA)
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except sqlite3.DatabaseError:
            db.close()
            raise
        return db

    def _recover(self, exc: Exception) -> None:
        """Move a damaged file aside, salvage what it still holds into a fresh journal."""
        stamp = time.strftime("%Y%m%d-%H%M%S")
        aside = self.path.with_name(f"{self.path.name}.damaged-{stamp}")
        for suffix in ("", "-wal", "-shm"):
            src = Path(str(self.path) + suffix)
            if src.exists():
                src.rename(Path(str(aside) + suffix))
        log.error(
            "journal %s is damaged (%s); kept it as %s and started a new journal",
            self.path,
            exc,
            aside,
        )
        self.recovered_from = aside
        self.db = self._open(self.path)
        found: dict[int, GameRecord] = {r.id: r for r in _salvage(self.backup_path)}
        for record in _salvage(aside):
            known = found.get(record.id)
            if known is None or len(record.actions) >= len(known.actions):
                found[record.id] = record
        for record in sorted(found.values(), key=lambda r: r.id):
            self.import_game(record)
        if found:
            log.warning("copied %d readable game(s) from %s and %s", len(found), aside,
                        self.backup_path)

    @property
    def backup_path(self) -> Path:
        return self.path.with_name(self.path.name + ".last-good")

    def _backup(self) -> None:
        """Copy the journal after a finished game: written aside, then renamed into place."""
        tmp = self.path.with_name(self.path.name + ".last-good.tmp")
        target = sqlite3.connect(tmp)
        try:
            self.db.backup(target)
        finally:
            target.close()
        with open(tmp, "rb") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, self.backup_path)

    def import_game(self, r: GameRecord) -> None:
        """Store a whole game (recovery, imports) in one transaction."""
        with self._tx() as db:
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

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    def close(self) -> None:
        """Fold the write-ahead log into the file, then close: a clean file on shutdown."""
        try:
            self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.DatabaseError as exc:
            log.warning("journal checkpoint at close failed: %s", exc)
        self.db.close()

    # --- writing -------------------------------------------------------------------
    def start_game(
        self,
        game: str,
        players: int,
        seed: int,
        options: dict[str, Any],
        seats: Sequence[Any],
        data_digest: str,
    ) -> int:
        """A new game; any unfinished game is marked abandoned (only one game is live)."""
        with self._tx() as db:
            db.execute(
                "UPDATE games SET status='abandoned', ended=? WHERE status='playing'",
                (self.clock(),),
            )
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
                    self.clock(),
                ),
            )
            return int(cur.lastrowid or 0)

    def append(self, game_id: int, seq: int, player: int, text: str) -> None:
        """Commit action number `seq` (1-based) durably before anyone sees it acknowledged."""
        with self._tx() as db:
            db.execute(
                "INSERT INTO actions (game_id, seq, player, text, at) VALUES (?,?,?,?,?)",
                (game_id, seq, player, text, self.clock()),
            )

    def undo(self, game_id: int) -> tuple[int, str] | None:
        """Delete the last action of a game; returns it, or None when there is none."""
        with self._tx() as db:
            row = db.execute(
                "SELECT seq, player, text FROM actions WHERE game_id=? ORDER BY seq DESC LIMIT 1",
                (game_id,),
            ).fetchone()
            if row is None:
                return None
            db.execute("DELETE FROM actions WHERE game_id=? AND seq=?", (game_id, row[0]))
            return int(row[1]), str(row[2])

    def finish(self, game_id: int, scores: list[int], winner: list[int]) -> None:
        with self._tx() as db:
            db.execute(
                "UPDATE games SET status='finished', ended=?, scores=?, winner=? WHERE id=?",
                (self.clock(), json.dumps(scores), json.dumps(winner), game_id),
            )
        self._backup()

    def abandon(self, game_id: int) -> None:
        with self._tx() as db:
            db.execute(
                "UPDATE games SET status='abandoned', ended=? WHERE id=?", (self.clock(), game_id)
            )

    # --- reading -------------------------------------------------------------------
    def unfinished(self) -> GameRecord | None:
        row = self.db.execute(
            "SELECT id FROM games WHERE status='playing' ORDER BY id DESC LIMIT 1"
        ).fetchone()
        return None if row is None else self.load(int(row[0]))

    def load(self, game_id: int) -> GameRecord:
        return _load(self.db, game_id)

    def history(self, limit: int = 20) -> list[GameRecord]:
        rows = self.db.execute(
            "SELECT id FROM games WHERE status='finished' ORDER BY id DESC LIMIT ?", (limit,)
        ).fetchall()
        return [_load(self.db, int(r[0]), with_actions=False) for r in rows]


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
    """Every game still readable from a damaged journal; unreadable games are skipped."""
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.DatabaseError:
        return []
    found: list[GameRecord] = []
    try:
        ids = [int(r[0]) for r in db.execute("SELECT id FROM games ORDER BY id")]
    except sqlite3.DatabaseError:
        db.close()
        return []
    for game_id in ids:
        try:
            found.append(_load(db, game_id))
        except (sqlite3.DatabaseError, ValueError, JournalError):
            continue
    db.close()
    return found
