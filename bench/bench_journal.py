"""The journal's cost per confirmed action and per game end, measured in one run.

Figures only; nothing here asserts a time.

- journal append: `Journal.append` (the commit with `synchronous=FULL`, the commit
  counter, and the mark rewritten and synced) beside a bare SQLite insert committed
  the same way into the same schema: what the integrity machinery costs per action.
- game end: `Journal.finish` (commit, `wal_checkpoint(TRUNCATE)`, a backup with the
  online backup API checked by `quick_check`, rotation, the mark) for a finished game
  of a journal already holding 20 games.
- finish and reopen by size: `Journal.finish` of five more games (the first one after
  the journal was opened, with cold files, included), then `Journal(path)` after a
  clean close, in journals of 100, 1,000 and 10,000 finished games of 140
  actions each (built with direct SQL inserts of rows like the table writes, with a
  backup beside them, self-contained as the table's last game end wrote it).
"""

from __future__ import annotations

import json
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from apps.journal import SCHEMA, Journal
from apps.journal.backups import copy_journal

ACTIONS = 400
ENDS = 5  # game ends timed in each journal size
SEATS = [{"seat": str(s), "colour": [s, s, s]} for s in range(1, 5)]


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def appends(tmp: Path) -> list[float]:
    journal = Journal(tmp / "append.db")
    game = journal.start_game("strozzi", 4, 1, {}, SEATS, "x")
    times = []
    for seq in range(1, ACTIONS + 1):
        start = time.perf_counter()
        journal.append(game, seq, seq % 4, "flag pirate")
        times.append(time.perf_counter() - start)
    journal.close()
    return times


def bare_commits(tmp: Path) -> list[float]:
    db = sqlite3.connect(tmp / "bare.db", isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.executescript(SCHEMA)
    db.execute(
        "INSERT INTO games (game, players, seed, options, seats, data_digest, status,"
        " started) VALUES ('strozzi', 4, 1, '{}', '[]', 'x', 'playing', 0)"
    )
    times = []
    for seq in range(1, ACTIONS + 1):
        start = time.perf_counter()
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO actions VALUES (1, ?, ?, 'flag pirate', 0)", (seq, seq % 4))
        db.execute("COMMIT")
        times.append(time.perf_counter() - start)
    db.close()
    return times


def game_ends(tmp: Path) -> list[float]:
    journal = Journal(tmp / "ends.db")
    times = []
    for g in range(20):
        game = journal.start_game("strozzi", 4, g, {}, SEATS, "x")
        for seq in range(1, 141):
            journal.append(game, seq, seq % 4, "flag pirate")
        start = time.perf_counter()
        journal.finish(game, [1, 2, 3, 4], [3])
        times.append(time.perf_counter() - start)
    journal.close()
    return times


SIZES = (100, 1_000, 10_000)
GAME_ACTIONS = 140


def build(path: Path, games: int) -> None:
    """A journal of `games` finished games, written with plain SQL in one transaction."""
    Journal(path).close()
    db = sqlite3.connect(path, isolation_level=None)
    seats = json.dumps(SEATS)
    db.execute("BEGIN")
    for g in range(1, games + 1):
        db.execute(
            "INSERT INTO games VALUES (?, 'strozzi', 4, ?, '{}', ?, 'x', 'finished', ?, ?,"
            " '[61, 58, 72, 49]', '[2]')",
            (g, g, seats, g * 3600.0, g * 3600.0 + 2400),
        )
        db.executemany(
            "INSERT INTO actions VALUES (?, ?, ?, ?, ?)",
            [
                (g, s, s % 4, f"flag pirate {s % 7} at {s % 5},{s % 3}", g * 3600.0 + s)
                for s in range(1, GAME_ACTIONS + 1)
            ],
        )
    db.execute("UPDATE meta SET value=? WHERE key='commits'", (games * (GAME_ACTIONS + 2),))
    db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    # the table that ran has a backup, a self-contained copy as its last game end wrote it
    copy_journal(db, Path(f"{path}.backup-1"), check=False, stamp=games * 3600.0 + 2400)
    db.close()


def finish_and_reopen(tmp: Path, games: int) -> tuple[list[float], float]:
    """Seconds for `finish()` of games `games + 1` to `games + ENDS` (the first after the
    journal was opened included), then for reopening the journal."""
    path = tmp / f"size-{games}.db"
    build(path, games)
    journal = Journal(path)
    finished = []
    for _ in range(ENDS):
        game = journal.start_game("strozzi", 4, 7, {}, SEATS, "x")
        for seq in range(1, GAME_ACTIONS + 1):
            journal.append(game, seq, seq % 4, "flag pirate")
        start = time.perf_counter()
        journal.finish(game, [1, 2, 3, 4], [3])
        finished.append(time.perf_counter() - start)
    journal.close()
    start = time.perf_counter()
    again = Journal(path)
    reopened = time.perf_counter() - start
    again.close()
    return finished, reopened


def run() -> list[str]:
    with tempfile.TemporaryDirectory(prefix="tavola-bench-journal-") as name:
        tmp = Path(name)
        ours, bare = appends(tmp), bare_commits(tmp)
        ends = game_ends(tmp)
        by_size = [(n, *finish_and_reopen(tmp, n)) for n in SIZES]
    p50, bare50 = statistics.median(ours), statistics.median(bare)
    return [
        f"journal append over {ACTIONS} actions: p50 {p50 * 1e3:.2f} ms, p99 "
        f"{_p(ours, 0.99) * 1e3:.2f} ms; a bare SQLite commit: p50 {bare50 * 1e3:.2f} ms "
        f"(ratio {p50 / bare50:.2f})",
        f"game end (checkpoint, backup, rotation, mark) with 20 games in the journal: p50 "
        f"{statistics.median(ends) * 1e3:.1f} ms, max {max(ends) * 1e3:.1f} ms",
        f"finish() p50 / max of {ENDS} game ends, then reopen, by finished games: "
        + "; ".join(
            f"{n:,}: {statistics.median(f) * 1e3:.0f} / {max(f) * 1e3:.0f} ms, {r * 1e3:.0f} ms"
            for n, f, r in by_size
        ),
    ]
