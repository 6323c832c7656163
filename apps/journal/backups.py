"""Backups: after each game's end the journal is copied aside, checked, and the copies rotate.

`<journal>.backup-1` is the newest, `-3` the oldest; `<journal>.last-good`, the single copy
older versions kept, is still read but no longer written.
"""

from __future__ import annotations

import logging
import os
import sqlite3
from pathlib import Path

from .errors import cause
from .files import companion, fsync_dir
from .records import GameRecord
from .rows import salvage
from .schema import is_journal_file

log = logging.getLogger(__package__)

BACKUPS = 3


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


def write_backup(db: sqlite3.Connection, journal: Path, lock_timeout: float) -> None:
    """Copy the journal aside, check the copy, rotate: a failure is logged, never raised
    (the journal itself has the game)."""
    tmp = companion(journal, ".backup.tmp")
    try:
        copy_journal(db, tmp, check=True)
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


def copy_journal(db: sqlite3.Connection, target_path: Path, *, check: bool) -> None:
    """Copy an open journal, with its log, with SQLite's online backup API into one
    self-contained file; `check`: refuse a copy that fails its quick_check."""
    target = sqlite3.connect(target_path)
    try:
        db.backup(target)
        target.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
        ok = not check or target.execute("PRAGMA quick_check").fetchone()[0] == "ok"
    finally:
        target.close()
    if not ok:
        raise sqlite3.DatabaseError("the copy fails its quick_check")
