"""Where a journal and the files beside it live, and moving files aside without replacing any."""

from __future__ import annotations

import os
import time
from pathlib import Path

SQLITE_MAGIC = b"SQLite format 3\x00"


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


def uri_path(path: Path) -> str:
    """A path for an SQLite `file:` URI (`?` and `#` would end the path)."""
    return str(path.absolute()).replace("%", "%25").replace("?", "%3f").replace("#", "%23")


def read_head(path: Path) -> bytes:
    """The first bytes of a file, as many as SQLite's magic string (OSError if unreadable)."""
    with open(path, "rb") as fh:
        return fh.read(len(SQLITE_MAGIC))


def is_sqlite(path: Path) -> bool:
    """Whether a file reads as an SQLite database by its first bytes (an empty file does)."""
    try:
        head = read_head(path)
    except OSError:
        return False
    return head == SQLITE_MAGIC or head == b""


def all_zero(path: Path) -> bool:
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


def fsync_dir(folder: Path) -> None:
    """Make a new name in `folder` durable (best effort: not every file system allows it)."""
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
