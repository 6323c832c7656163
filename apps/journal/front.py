"""`Journal`, the one object the table and the commands use: a store, its mark, backups
and repairs put together."""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from . import repair as repairs
from .backups import back_up_game, backup_paths, rotate_if_due, write_backup
from .errors import Corrupt, JournalError
from .records import GameRecord, UndoneAction
from .rows import load_game
from .store import LOCK_TIMEOUT_S, Store

log = logging.getLogger("apps.journal")


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
        self.repair = repair
        self.report: str | None = None  # what was found at open and what was kept
        self.recovered_from: Path | None = None  # where a corrupt journal was set aside
        self._closed = False
        self.store = Store(self.path, clock=clock, readonly=readonly, lock_timeout=lock_timeout)
        self._open()

    def _open(self) -> None:
        """Open the store; set a corrupt file aside and rebuild it, or refuse it when
        read-only; then compare the journal with its mark."""
        try:
            self.store.open(hint=lambda: repairs.hint(self.path))
        except Corrupt as exc:
            if self.readonly:
                raise JournalError(
                    f"journal {self.path} is damaged ({exc}); nothing was changed: "
                    "`tavola journal restore` sets it aside and rebuilds it "
                    "from what it still holds, the backups and the mark"
                ) from None
            self.recovered_from, self.report = repairs.rebuild(self.store, str(exc))
            return
        if self.repair:
            self.report = repairs.compare_with_mark(self.store)

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
        mark, aside = repairs.prepare_restore(path, source)
        found = f"journal {path} could not be read; it is kept as {aside.name}; " if aside else ""
        extra = repairs.records_of(source)
        journal = cls(path, clock=clock, repair=False)
        if aside is not None:
            journal.recovered_from = aside
        elif journal.report is not None:  # SQLite called it corrupt: rebuilt at open
            found = journal.report + "; then "
        kept = repairs.restore(journal.store, mark, extra, keep_copy=not found)
        journal.report = (found or f"journal {path}: ") + kept
        return journal

    # --- what the store holds --------------------------------------------------------------
    @property
    def db(self) -> sqlite3.Connection:
        return self.store.db

    @property
    def id(self) -> str:
        """The journal's own id, which its mark and backups repeat."""
        return self.store.id

    @property
    def commits(self) -> int:
        return self.store.commits

    @property
    def clock(self) -> Callable[[], float]:
        return self.store.clock

    @property
    def readonly(self) -> bool:
        return self.store.readonly

    @property
    def lock_timeout(self) -> float:
        """How long a write waits for another program's lock before it is refused."""
        return self.store.lock_timeout

    @lock_timeout.setter
    def lock_timeout(self, seconds: float) -> None:
        self.store.lock_timeout = seconds

    @property
    def mark_path(self) -> Path:
        return self.store.mark.path

    def backups(self) -> list[Path]:
        """The backups that exist, newest first (the copy of journals before schema 2 last)."""
        return backup_paths(self.path)

    # --- writing ---------------------------------------------------------------------------
    def sync_mark(self) -> None:
        """Write the mark if a commit has not been marked yet.

        `append` writes and syncs its mark itself, before it returns (before the
        acknowledgement): a mark written only after the lights cannot tell a `-wal` that
        lost that action from one that never had it. Other writes mark as they commit;
        this stays for callers that mark once more after acknowledging."""
        self.store.mark.sync()

    def import_game(self, r: GameRecord) -> None:
        """Store a whole game (recovery, imports) in one transaction."""
        self.store.import_game(r)

    def close(self) -> None:
        """Fold the write-ahead log into the file, then close: a clean file on shutdown.
        A big journal is copied whole and its backups rotate here, once a day at most."""
        if self._closed:
            return  # closed already (a table closed twice on its way out)
        self._closed = True
        if not self.store.readonly:
            try:
                rotate_if_due(self.store.db, self.path, self.store.lock_timeout, self.store.clock())
            except (sqlite3.Error, OSError) as exc:  # the copies wait for the next close
                log.warning("journal %s: backups not rotated at close: %s", self.path, exc)
        self.store.close()

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
        new = GameRecord(
            0,
            game,
            players,
            seed,
            dict(options),
            list(seats),
            data_digest,
            "playing",
            self.store.clock(),
            data_text=data_text,
        )
        live = self.store.live
        game_id, abandoned = self.store.start_game(new, wait=wait)
        if abandoned:
            self._backup(live.id if live is not None else None)
        return game_id

    def append(
        self, game_id: int, seq: int, player: int, text: str, *, wait: float | None = None
    ) -> None:
        """Commit action number `seq` (1-based) durably, and its mark, before anyone sees it
        acknowledged."""
        self.store.append(game_id, seq, player, text, wait=wait)

    def undo(
        self, game_id: int, *, locked: int = 0, why: str = "", wait: float | None = None
    ) -> tuple[int, str] | None:
        """Take back the last action of a game; returns it, or None when there is none.

        Nothing is deleted silently: the action moves, in the same transaction, to the
        `undone` table with when it was undone and `locked`, how many actions before it
        could no longer be undone then, and `why` (a resumed table restores that limit
        and its reason exactly)."""
        return self.store.undo(game_id, locked=locked, why=why, wait=wait)

    def finish(
        self, game_id: int, scores: list[int], winner: list[int], *, wait: float | None = None
    ) -> None:
        """The game's end and result; then the log is folded in and a backup made."""
        self.store.finish(game_id, scores, winner, wait=wait)
        self._ended(game_id)

    def abandon(self, game_id: int, *, wait: float | None = None) -> None:
        self.store.abandon(game_id, wait=wait)
        self._ended(game_id)

    def _ended(self, game_id: int) -> None:
        """After a game end: the backup, then the mark, synced."""
        self._backup(game_id)
        self.store.mark.write(durable=True)

    def _backup(self, game_id: int | None) -> None:
        """Fold the log into the file, then back the ended game up (`backups`: a small
        journal is copied whole, a big one adds the game to `backup-1`); None: an unknown
        game ended, so the whole file is copied."""
        store = self.store
        store.checkpoint()
        if game_id is None:
            write_backup(store.db, self.path, store.lock_timeout, store.clock())
        else:
            back_up_game(store.db, self.path, store.lock_timeout, game_id, store.clock())

    # --- reading ---------------------------------------------------------------------------
    def unfinished(self) -> GameRecord | None:
        return self.store.unfinished()

    def load(self, game_id: int) -> GameRecord:
        return load_game(self.store.db, game_id)

    def undone(self, game_id: int) -> list[UndoneAction]:
        """The actions of a game that were taken back, in the order they were undone."""
        return self.store.undone(game_id)

    def played(self, game: str) -> bool:
        """Whether a game of `game` was played to its end (an abandoned one does not count)."""
        return self.store.played(game)

    def history(self, limit: int = 20) -> list[GameRecord]:
        return self.store.history(limit)

    def summary(self) -> str:
        """One line: what the journal holds, its backups and whether the mark agrees."""
        backups = self.backups()
        return (
            f"journal {self.path}: {self.store.describe_counts()}, {self.store.games} game(s) "
            f"in all; {len(backups)} backup(s)" + (f", newest {backups[0].name}" if backups else "")
        )
