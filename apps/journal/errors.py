"""What stops a journal, and how to say it in words a person at the table can act on."""

from __future__ import annotations

import os
import shutil
from pathlib import Path


class JournalError(RuntimeError):
    """The journal cannot be used; the message names the file and the cause (and says the
    file was left untouched, or where it was kept)."""


class JournalUnavailable(JournalError):
    """A write the journal refuses now (disk full, locked, read-only, an I/O error): nothing
    was written; keep what was to be written and try again."""


class Corrupt(Exception):
    """SQLite itself reported the file corrupt (the one case that allows setting it aside)."""


_ACCESS = ("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM")
"""The errors a missing permission or a read-only file system can be behind."""

_SAID = {
    "SQLITE_FULL": "the disk is full",
    "SQLITE_READONLY": "it is read-only (the file's or its folder's permissions)",
    "SQLITE_CANTOPEN": "permission denied, or its folder is missing",
    "SQLITE_PERM": "permission denied, or its folder is missing",
    "SQLITE_AUTH": "permission denied, or its folder is missing",
    "SQLITE_NOTADB": "SQLite says it is not a database",
}
"""The errors whose words need nothing of the error itself."""


def is_corrupt(exc: BaseException) -> bool:
    return str(getattr(exc, "sqlite_errorname", "")).startswith("SQLITE_CORRUPT")


def cause(exc: BaseException, lock_timeout: float, path: Path | None = None) -> str:
    """What went wrong, in words a person at the table can act on."""
    if isinstance(exc, OSError):
        return str(exc.strerror or exc)
    name = str(getattr(exc, "sqlite_errorname", ""))
    base = "_".join(name.split("_")[:2])
    found = _on_disk(base, name, path) if path is not None else None
    if found:
        return found
    if base in ("SQLITE_BUSY", "SQLITE_LOCKED"):
        return f"another program has held it locked for more than {lock_timeout:g} s"
    if base == "SQLITE_IOERR":
        return f"a disk error ({name})"
    if base == "SQLITE_CORRUPT":
        return f"SQLite reports it corrupt: {exc}"
    if base in _SAID:
        return _SAID[base]
    return f"{exc} ({name})" if name else str(exc)


def _on_disk(base: str, name: str, path: Path) -> str | None:
    """What the file system shows behind an error: a permission, a read-only file system,
    a full disk (an I/O error with almost no room left)."""
    if base in _ACCESS:
        return _access_problem(path)
    if base == "SQLITE_IOERR" and _nearly_full(path):
        return f"the disk is full ({name})"
    return None


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
