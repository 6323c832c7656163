"""Power cuts: the table in a real subprocess, killed with SIGKILL at random moments.

Each run is `tavola demo` on one journal file: bots press mocked buttons (with
stray out-of-turn presses), every acknowledged action is printed as `#N who: text`
after its commit. After each kill the journal must hold every acknowledged
action at its place (at most one more, committed but not yet acknowledged) and
nothing twice; the restarted table resumes from it. At the end the game's
scores must equal those of the same game played without interruption.
"""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import subprocess
from pathlib import Path

from engine.core import derive
from tests.support import TAVOLA

ACK = re.compile(r"^#(\d+) (draw|seat \S+): (.+)$")
RESUMED = re.compile(r"^Resumed .+ after (\d+) actions\.$")
KILLS = int(os.environ.get("TAVOLA_POWER_CUTS", "50"))


def demo(db: Path, seed: int, pace: float = 0.0) -> list[str]:
    return [
        *TAVOLA,
        "demo",
        "strozzi",
        "--players",
        "4",
        "--seed",
        str(seed),
        "--db",
        str(db),
        "--noise",
        "0.05",
        "--pace",
        str(pace),
    ]


def journal(db: Path) -> tuple[str | None, list[str]]:
    """(status of the newest game, its action texts in order)."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        try:
            row = conn.execute("SELECT id, status FROM games ORDER BY id DESC LIMIT 1").fetchone()
        except sqlite3.OperationalError:  # cut before the schema was created: no game yet
            return None, []
        if row is None:
            return None, []
        texts = [
            t
            for (t,) in conn.execute(
                "SELECT text FROM actions WHERE game_id=? ORDER BY seq", (row[0],)
            )
        ]
        seqs = [
            s
            for (s,) in conn.execute(
                "SELECT seq FROM actions WHERE game_id=? ORDER BY seq", (row[0],)
            )
        ]
        assert seqs == list(range(1, len(seqs) + 1)), "a gap or a duplicate in the journal"
        return row[1], texts
    finally:
        conn.close()


def run_until_killed(cmd: list[str], delay: float) -> tuple[list[tuple[int, str]], int, bool]:
    """Start `cmd`, SIGKILL it after `delay` s; return (acknowledged actions, how many actions
    a resume restored and so showed on the board, exited by itself)."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        proc.wait(timeout=delay)
        finished = True
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        finished = False
    out, err = proc.communicate()
    if finished:
        assert proc.returncode == 0, err
    acks = []
    restored = 0
    for line in out.splitlines():
        m = ACK.match(line)
        if m:
            acks.append((int(m.group(1)), m.group(3)))
        m = RESUMED.match(line)
        if m:
            restored = int(m.group(1))
    return acks, restored, finished


def uninterrupted_scores(tmp: Path, seed: int) -> str:
    out = subprocess.run(
        demo(tmp / f"clean-{seed}.db", seed),
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    return next(line for line in out.splitlines() if line.startswith("Game over."))


def test_sigkill_at_random_moments_loses_no_acknowledged_action(tmp_path: Path) -> None:
    rng = derive(2026, "power-cut")
    kills = games = 0
    seed = 40
    while kills < KILLS:
        seed += 1
        db = tmp_path / f"journal-{seed}.db"
        acknowledged: dict[int, str] = {}
        shown = 0  # the last action the lights acknowledged: printed, or restored by a resume
        while True:
            acks, restored, finished = run_until_killed(
                demo(db, seed, pace=0.002), delay=rng.uniform(0.2, 0.9)
            )
            for seq, text in acks:
                assert acknowledged.setdefault(seq, text) == text, "an action changed on resume"
            status, texts = journal(db) if db.exists() else (None, [])
            # every acknowledged action is in the journal, in its place
            for seq, text in acknowledged.items():
                assert seq <= len(texts) and texts[seq - 1] == text, f"lost action #{seq}"
            # at most the one being acknowledged when the power went is beyond what the
            # lights showed (a resumed table shows every action it restored)
            shown = max(shown, restored, max(acknowledged, default=0))
            assert len(texts) <= shown + 1
            if not finished:
                kills += 1
            if status == "finished":
                break
        games += 1
        clean = uninterrupted_scores(tmp_path, seed)
        last = subprocess.run(
            [*TAVOLA, "history", "--db", str(db), "--limit", "1"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        assert clean.removeprefix("Game over. ") in last, (clean, last)
    assert kills >= KILLS and games >= 1
