"""Replace a user's file so that a crash or a power cut leaves the old one or the new one.

The new bytes go to a temporary file in the same directory (so `os.replace` is one
rename on one file system), are fsynced, and replace the file; the directory is
fsynced too, so the rename itself survives a power cut. The previous version is kept
beside it (`<name>.bak`), written the same way. Writers are serialised by a lock on
the directory (flock), which also makes the leftovers of a writer killed mid-way
(`.<name>.*.tmp`) safe to clear.
"""

from __future__ import annotations

import fcntl
import os
import tempfile
from pathlib import Path

__all__ = ["FileChanged", "backup_path", "create_file", "replace_file"]


class FileChanged(OSError):
    """The file is not what the caller read: someone else changed it meanwhile."""


def backup_path(path: Path) -> Path:
    return path.with_name(path.name + ".bak")


def _write_temp(folder: Path, name: str, data: bytes, mode: int, owner: tuple[int, int]) -> str:
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".tmp")
    try:
        os.fchmod(fd, mode)
        if os.geteuid() == 0 and owner != (os.geteuid(), os.getegid()):
            os.fchown(fd, *owner)  # root editing the service's file keeps it the owner's
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        Path(tmp).unlink(missing_ok=True)
        raise
    os.close(fd)
    return tmp


def replace_file(path: Path, data: bytes, *, expected: bytes | None = None) -> Path:
    """Write `data` as `path`, keeping what was there as `<name>.bak` (returned).

    `expected`: the bytes the caller based `data` on; FileChanged if the file holds
    anything else by the time the lock is held (nothing is written then). The new file
    keeps the old one's mode (and, when root writes, its owner); a symlink stays one and
    its target is replaced, with the backup beside the target.
    """
    path = Path(os.path.realpath(path))  # a symlinked file: its target changes, the link stays
    folder = path.parent
    dirfd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    tmps: list[str] = []
    try:
        fcntl.flock(dirfd, fcntl.LOCK_EX)
        for stale in folder.glob(f".{path.name}.*.tmp"):  # a writer killed mid-way
            stale.unlink(missing_ok=True)
        old = path.read_bytes()
        if expected is not None and old != expected:
            raise FileChanged(f"{path} was changed by someone else meanwhile; nothing written")
        st = os.stat(path)
        mode, owner = st.st_mode & 0o7777, (st.st_uid, st.st_gid)
        backup = backup_path(path)
        tmps.append(_write_temp(folder, path.name, old, mode, owner))
        os.replace(tmps[-1], backup)
        tmps.append(_write_temp(folder, path.name, data, mode, owner))
        os.replace(tmps[-1], path)
        os.fsync(dirfd)
        return backup
    finally:
        for tmp in tmps:
            Path(tmp).unlink(missing_ok=True)
        os.close(dirfd)  # closing it releases the lock


def create_file(path: Path, data: bytes, *, mode: int = 0o644) -> None:
    """Write a new file `path` whole or not at all (temp file, fsync, link, directory
    fsync); FileChanged if a file appeared there meanwhile (nothing is overwritten)."""
    folder = path.parent
    dirfd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    tmp = ""
    try:
        fcntl.flock(dirfd, fcntl.LOCK_EX)
        tmp = _write_temp(folder, path.name, data, mode, (os.geteuid(), os.getegid()))
        try:
            os.link(tmp, path)  # unlike a rename, never replaces a file someone just wrote
        except FileExistsError:
            raise FileChanged(
                f"{path} was written by someone else meanwhile; nothing written"
            ) from None
        os.fsync(dirfd)
    finally:
        if tmp:
            Path(tmp).unlink(missing_ok=True)
        os.close(dirfd)
