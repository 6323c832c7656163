"""The mark: a small JSON file beside the journal, rewritten after every commit.

It says which journal it belongs to, how many commits that journal had made, the game
in progress with its actions and the last of them (`last`: game, number, seat, text), so a
journal that went back in time (a lost `-wal`, an old copy put back) is noticed at open and
its lost game can be put back. An append writes and syncs it before the action is
acknowledged: an acknowledged action is always in the mark too.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .files import companion, fsync_dir
from .records import GameRecord

log = logging.getLogger(__package__)

MARK_FORMAT = "tavola journal mark"


@dataclass(frozen=True)
class Mark:
    """The sidecar's content: which journal, how many commits, the game in progress."""

    journal_id: str
    commits: int
    games: int
    finished: int
    live: GameRecord | None

    @property
    def last(self) -> tuple[int, int, int, str] | None:
        """The last action of the game in progress (game id, number, seat, text): what the
        journal must hold when its commit count equals the mark's."""
        live = self.live
        if live is None or not live.actions:
            return None
        player, text = live.actions[-1]
        return (live.id, len(live.actions), player, text)


def mark_path(journal: Path) -> Path:
    return companion(journal, ".mark")


def read_mark(journal: Path) -> Mark | None:
    """The mark beside `journal`; None when there is none or it cannot be read (no alarm:
    a power cut can tear it, and it is rewritten)."""
    path = mark_path(journal)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
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
        log.warning("journal mark %s is unreadable (%s); it is ignored and rewritten", path, exc)
        return None


class MarkFile:
    """The mark of an open journal, written from what `held` says the journal holds.

    `due` is set by a commit whose mark is still to be written (`sync()` writes it)."""

    def __init__(self, journal: Path, *, readonly: bool, held: Callable[[], Mark]) -> None:
        self.journal = journal
        self.path = mark_path(journal)
        self.readonly = readonly
        self.due = False
        self._held = held
        self._fd: int | None = None
        self._len = 0
        self._warned = False

    def read(self) -> Mark | None:
        return read_mark(self.journal)

    def sync(self, *, flush: bool = False) -> None:
        """Write the mark if a commit has not been marked yet (`flush`: and fdatasync it)."""
        if self.due:
            self.due = False
            self.write(flush=flush)

    def write(self, *, durable: bool = False, flush: bool = False) -> None:
        """Rewrite the mark after a commit. It may lag (a crash between the two), never lead.

        One `pwrite` over the file kept open, padded with spaces to the length it had (JSON
        allows them), so the time between a commit and its acknowledgement stays a few
        microseconds; a crash cannot leave half a write, and a write torn by a power cut
        only makes the mark unreadable, which is no alarm. `flush` (each append, before its
        acknowledgement) syncs the data; game ends and the stop also shorten the file.
        """
        if self.readonly:
            return
        data = self._encode(self._held())
        try:
            fd = self._file()
            os.pwrite(fd, data + b" " * (self._len - len(data)), 0)
            self._len = max(self._len, len(data))
            if durable:
                os.ftruncate(fd, len(data))
                self._len = len(data)
                os.fsync(fd)
            elif flush:
                _datasync(fd)
        except OSError as exc:
            if not self._warned:
                self._warned = True
                log.warning(
                    "cannot write the journal mark %s (%s); the journal itself is fine",
                    self.path,
                    exc.strerror or exc,
                )
            return
        self._warned = False

    def _encode(self, mark: Mark) -> bytes:
        return json.dumps(
            {
                "format": MARK_FORMAT,
                "id": mark.journal_id,
                "commits": mark.commits,
                "games": mark.games,
                "finished": mark.finished,
                "live": None if mark.live is None else mark.live.to_json(),
                "last": mark.last,
                "journal": str(self.journal),
            },
            separators=(",", ":"),
        ).encode()

    def _file(self) -> int:
        """The mark's descriptor, (re)opened when missing or when the file was removed."""
        fd = self._fd
        if fd is not None and os.fstat(fd).st_nlink == 0:
            os.close(fd)
            fd = None
        if fd is None:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
            self._fd = fd
            self._len = os.fstat(fd).st_size
            fsync_dir(self.journal.parent)
        return fd

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def _datasync(fd: int) -> None:
    """The mark's bytes on the disk (its length does not change: it is padded in place)."""
    sync = getattr(os, "fdatasync", os.fsync)  # macOS has no fdatasync
    sync(fd)
