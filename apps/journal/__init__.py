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
- **Rotating backups.** After each game end a small journal is copied with
  SQLite's online backup API to `<journal>.backup-1` (the older copies move to
  `-2`, `-3`); a big one (over 1 MiB) adds the ended game to `backup-1`, and is
  copied whole and rotated at the stop once a day, so a game end costs the same
  at 10 games and at 10,000.
- **The mark.** After every commit a small sidecar, `<journal>.mark`, records
  the journal's id, its commit count and the game in progress with its actions;
  an action's mark is synced before the action is acknowledged, so a `-wal` that
  loses even the last acknowledged action leaves the journal behind its mark.
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

The modules, behind the one front `Journal` (`front`):

- `store`: the SQLite file: opening it, its transactions, the games and actions rows,
  queries, and what it holds kept in memory; `schema` (the tables, telling a journal
  from other files, upgrades) and `rows` (a game as rows, salvage) serve it;
- `mark`: the mark, rewritten after every commit (`sync_mark`);
- `backups`: an ended game added to `backup-1`, or the whole copy made and checked; rotation;
- `repair`: a journal behind its mark, one SQLite calls corrupt, `tavola journal restore`;
- `records` (`GameRecord`, `UndoneAction`), `errors` (`JournalError` and the words for a
  cause), `files` (the paths beside the journal, moving files aside).
"""

from __future__ import annotations

import time  # noqa: F401  (`apps.journal.time`: tests fix the clock of set-aside names through it)

from .backups import BACKUPS
from .errors import JournalError, JournalUnavailable
from .files import SQLITE_MAGIC, companion, default_path, set_aside, unique_path
from .front import Journal
from .mark import MARK_FORMAT, Mark
from .records import GameRecord, UndoneAction
from .schema import APPLICATION_ID, LEGACY_SCHEMA, SCHEMA, SCHEMA_VERSION
from .store import LOCK_TIMEOUT_S

__all__ = [
    "APPLICATION_ID",
    "BACKUPS",
    "LEGACY_SCHEMA",
    "LOCK_TIMEOUT_S",
    "MARK_FORMAT",
    "SCHEMA",
    "SCHEMA_VERSION",
    "SQLITE_MAGIC",
    "GameRecord",
    "Journal",
    "JournalError",
    "JournalUnavailable",
    "Mark",
    "UndoneAction",
    "companion",
    "default_path",
    "set_aside",
    "unique_path",
]
