"""A `-wal` damaged after a crash never loses an acknowledged action silently.

A real process appends actions the way the table does (`append`, the acknowledgement,
then `sync_mark`) and is killed with SIGKILL right after it acknowledged its last action.
Its files are then damaged the ways SD cards and careless copies do: the `-wal` deleted,
truncated at its header, mid-frame, whole frames off its end, bytes flipped in its last
frames or in its header. In every trial the journal reopened with `Journal(path)` must
hold every acknowledged action, and when the damaged file itself lacked any, say so.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from apps.journal import Journal

ROOT = Path(__file__).resolve().parents[2]
PAGE = 4096
FRAME = 24 + PAGE
HEADER = 32

CHILD = """
import sys, time
from apps.journal import Journal
path, first, actions = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
seats = [{"seat": str(s)} for s in range(1, 5)]
journal = Journal(path)
for g in range(first):  # finished games: in the main file, the log folded in
    game = journal.start_game("strozzi", 4, g, {}, seats, "x")
    for seq in range(1, 11):
        journal.append(game, seq, seq % 4, f"old {g} {seq}")
        journal.sync_mark()
    journal.finish(game, [1, 2, 3, 4], [3])
game = journal.start_game("strozzi", 4, 99, {}, seats, "x")
for seq in range(1, actions + 1):
    journal.append(game, seq, seq % 4, f"take card {seq}")
    print(f"ack {seq}", flush=True)  # the lights say so here
    if seq == actions:
        time.sleep(60)  # killed before it gets to mark anything more
    journal.sync_mark()
"""


def killed_after_ack(folder: Path, *, first: int, actions: int) -> tuple[Path, list[str]]:
    """The files of a table killed right after acknowledging action `actions` of its game."""
    folder.mkdir()
    db = folder / "journal.db"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(db), str(first), str(actions)],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    acks = []
    assert proc.stdout is not None
    for line in proc.stdout:
        acks.append(line.split()[1])
        if len(acks) == actions:
            break
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    proc.stdout.close()
    assert Path(f"{db}-wal").stat().st_size > HEADER
    return db, [f"take card {n}" for n in acks]


def _flip(wal: Path, at: int, n: int = 16) -> None:
    with open(wal, "r+b") as fh:
        fh.seek(at)
        data = fh.read(n)
        fh.seek(at)
        fh.write(bytes(b ^ 0xFF for b in data))


def _cut(size: Callable[[int], int]) -> Callable[[Path], None]:
    return lambda wal: os.truncate(wal, max(0, size(wal.stat().st_size)))


DAMAGE: dict[str, Callable[[Path], None]] = {
    "deleted": lambda wal: wal.unlink(),
    "emptied": _cut(lambda n: 0),
    "header-only": _cut(lambda n: HEADER),
    "mid-last-frame": _cut(lambda n: n - 100),
    "last-frame-off": _cut(lambda n: n - FRAME),
    "two-frames-off": _cut(lambda n: n - 2 * FRAME),
    "three-frames-off": _cut(lambda n: n - 3 * FRAME),
    "half": _cut(lambda n: HEADER + (n - HEADER) // 2),
    "last-frame-header-flipped": lambda wal: _flip(wal, wal.stat().st_size - FRAME + 8),
    "last-frame-page-flipped": lambda wal: _flip(wal, wal.stat().st_size - PAGE // 2),
    "second-last-frame-flipped": lambda wal: _flip(wal, wal.stat().st_size - FRAME - PAGE // 2),
    "wal-header-flipped": lambda wal: _flip(wal, 16, 8),
}
SCENES = {"first-game-5": (0, 5), "after-2-games-12": (2, 12), "after-1-game-40": (1, 40)}


@pytest.fixture(scope="module")
def killed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, list[str]]]:
    base = tmp_path_factory.mktemp("killed")
    return {
        name: killed_after_ack(base / name, first=first, actions=actions)
        for name, (first, actions) in SCENES.items()
    }


def raw_actions(db: Path) -> list[str]:
    """What SQLite alone finds in the damaged files (read from a copy, so nothing changes)."""
    copy = db.with_name("raw.db")
    for suffix in ("", "-wal"):
        if Path(f"{db}{suffix}").exists():
            shutil.copy(f"{db}{suffix}", f"{copy}{suffix}")
    conn = sqlite3.connect(copy)
    try:
        return [
            t
            for (t,) in conn.execute(
                "SELECT text FROM actions WHERE game_id=(SELECT MAX(id) FROM games) ORDER BY seq"
            )
        ]
    except sqlite3.OperationalError:  # not even the tables: nothing was ever folded in
        return []
    finally:
        conn.close()


@pytest.mark.parametrize("damage", list(DAMAGE))
@pytest.mark.parametrize("scene", list(SCENES))
def test_a_damaged_wal_never_loses_an_acknowledged_action_silently(
    killed: dict[str, tuple[Path, list[str]]], tmp_path: Path, scene: str, damage: str
) -> None:
    source, acks = killed[scene]
    for f in source.parent.iterdir():
        shutil.copy(f, tmp_path / f.name)
    db = tmp_path / source.name
    DAMAGE[damage](Path(f"{db}-wal"))
    lost = raw_actions(db) != acks
    journal = Journal(db)
    try:
        live = journal.unfinished()
        assert live is not None and live.actions == [(n % 4, t) for n, t in enumerate(acks, 1)]
        if lost:
            assert journal.report is not None and "went back in time" in journal.report
            assert "restored game" in journal.report and "from the mark" in journal.report
    finally:
        journal.close()


def test_an_old_mark_without_last_still_opens_and_is_compared(tmp_path: Path) -> None:
    """A mark written before `last` existed (and its journal) opens as before."""
    db = tmp_path / "journal.db"
    journal = Journal(db)
    game = journal.start_game("strozzi", 4, 1, {}, [], "x")
    for seq in range(1, 4):
        journal.append(game, seq, seq % 4, f"a{seq}")
    journal.close()
    mark = tmp_path / "journal.db.mark"
    data = json.loads(mark.read_text())
    del data["last"]
    mark.write_text(json.dumps(data))
    again = Journal(db)
    assert again.report is None and len(again.unfinished().actions) == 3  # type: ignore[union-attr]
    again.close()
