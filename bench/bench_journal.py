"""The journal's cost per confirmed action and per game end, measured in one run.

Figures only; nothing here asserts a time.

- journal append: `Journal.append` (the commit with `synchronous=FULL`, the commit
  counter, and the mark rewritten and synced) beside a bare SQLite insert committed
  the same way into the same schema: what the integrity machinery costs per action.
- game end: `Journal.finish` (commit, `wal_checkpoint(TRUNCATE)`, a backup with the
  online backup API checked by `quick_check`, rotation, the mark) for a finished game
  of a journal already holding 20 games.
"""

from __future__ import annotations

import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from apps.journal import SCHEMA, Journal

ACTIONS = 400
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


def run() -> list[str]:
    with tempfile.TemporaryDirectory(prefix="tavola-bench-journal-") as name:
        tmp = Path(name)
        ours, bare = appends(tmp), bare_commits(tmp)
        ends = game_ends(tmp)
    p50, bare50 = statistics.median(ours), statistics.median(bare)
    return [
        f"journal append over {ACTIONS} actions: p50 {p50 * 1e3:.2f} ms, p99 "
        f"{_p(ours, 0.99) * 1e3:.2f} ms; a bare SQLite commit: p50 {bare50 * 1e3:.2f} ms "
        f"(ratio {p50 / bare50:.2f})",
        f"game end (checkpoint, backup, rotation, mark) with 20 games in the journal: p50 "
        f"{statistics.median(ends) * 1e3:.1f} ms, max {max(ends) * 1e3:.1f} ms",
    ]
