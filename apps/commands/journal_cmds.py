"""`tavola journal`: look at the game journal, and restore it from its backups and mark.

    tavola journal check                     # what it holds, its backups, any problem
    tavola journal restore                   # put back what the backups and mark hold
    tavola journal restore --from tavola.db.backup-2

`check` never writes. `restore` is the repair a person asks for: it is what the
table does by itself for a journal that went back in time, and also what it
refuses to do alone for a journal that is no SQLite file any more (zeroed by a
failing SD card): that file is kept aside under a new name, never deleted.
docs/journal.md describes the files.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..journal import Journal, JournalError, default_path


def _fail(message: str) -> int:
    print(f"tavola journal: {message}", file=sys.stderr)
    return 2


def _path(args: argparse.Namespace) -> Path:
    return Path(args.db) if args.db else default_path()


def cmd_check(args: argparse.Namespace) -> int:
    path = _path(args)
    try:
        journal = Journal(path, readonly=True)
    except JournalError as exc:
        return _fail(str(exc))
    try:
        print(journal.summary())
        if journal.report is not None:
            print(journal.report)
            return 1
    finally:
        journal.close()
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    path = _path(args)
    try:
        journal = Journal.restore(path, source=Path(args.source) if args.source else None)
    except JournalError as exc:
        return _fail(str(exc))
    try:
        print(journal.report)
        print(journal.summary())
    finally:
        journal.close()
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "journal",
        help="check the game journal; restore it from its backups",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    journal_sub = p.add_subparsers(dest="journal_command", metavar="COMMAND", required=True)
    for name, func, text in (
        (
            "check",
            cmd_check,
            "what the journal holds and whether anything is wrong "
            "(exit status 1 if so); writes nothing",
        ),
        (
            "restore",
            cmd_restore,
            "put back what the backups and the mark hold that the journal lacks",
        ),
    ):
        q = journal_sub.add_parser(name, help=text, description=text)
        q.add_argument("--db", metavar="FILE", help=f"the journal (default {default_path()})")
        if name == "restore":
            q.add_argument(
                "--from",
                dest="source",
                metavar="FILE",
                help="also take games from this backup or journal",
            )
        q.set_defaults(func=func)
