"""Fault injection on the journal: real `tavola` subprocesses, real SQLite files, a real tmpfs.

Each case plays one whole game (it must live in the main file and in the backup) and is
killed with SIGKILL in the middle of a second one, whose acknowledged actions are then
only in the `-wal` and the mark. (It is killed once the table has said the line after an
acknowledgement: the mark follows each acknowledgement within microseconds, and a cut
inside those microseconds together with a lost `-wal` is not a fault this models.) Then
the fault: the `-wal` deleted, truncated or corrupted, the main file zeroed or its pages
garbled, a write lock held by another program, a full disk while playing. Then the table
starts again. Checked every time:

- nothing acknowledged is lost: the finished game and every acknowledged action are in
  the journal (after `tavola journal restore` where the table cannot restore alone), and
  the resumed game ends with the scores of the same game played without interruption;
- nothing is set aside that SQLite did not call corrupt;
- no file of the user's changes (a config and a note beside the journal; the journal
  itself when the table refuses it).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.support import TAVOLA

ACK = re.compile(r"^#(\d+) (?:draw|seat \S+): (.+)$")
SEED = 5
KILL_AFTER = 30  # acknowledged actions of the second game before the power goes
JOURNAL_FILES = re.compile(
    r"^journal\.db(-wal|-shm|\.mark|\.backup-\d|\.before-restore-[\d-]+"
    r"|\.unreadable-[\d-]+(-wal|-shm)?|\.damaged-[\d-]+(-wal|-shm)?)?$"
)


def demo(db: Path, seed: int, *extra: str) -> list[str]:
    return [
        *TAVOLA,
        "demo",
        "strozzi",
        "--players",
        "3",
        "--seed",
        str(seed),
        "--db",
        str(db),
        *extra,
    ]


def run(cmd: list[str], timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)


def scores(out: str) -> str:
    return next(line for line in out.splitlines() if line.startswith("Game over."))


def acknowledged(out: str) -> list[str]:
    return [m.group(2) for line in out.splitlines() if (m := ACK.match(line))]


def user_files(folder: Path) -> dict[str, str]:
    """Everything beside the journal that is not one of its own files, by content."""
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in folder.iterdir()
        if p.is_file() and not JOURNAL_FILES.match(p.name)
    }


def set_aside(folder: Path) -> list[str]:
    """Journals moved aside (their -wal and -shm moved with them are not listed)."""
    return sorted(
        p.name
        for p in folder.iterdir()
        if (".damaged-" in p.name or ".unreadable-" in p.name)
        and not p.name.endswith(("-wal", "-shm"))
    )


def journal_games(db: Path) -> list[tuple[int, str, list[str]]]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        games = conn.execute("SELECT id, status FROM games ORDER BY id").fetchall()
        return [
            (
                g,
                s,
                [
                    t
                    for (t,) in conn.execute(
                        "SELECT text FROM actions WHERE game_id=? ORDER BY seq", (g,)
                    )
                ],
            )
            for g, s in games
        ]
    finally:
        conn.close()


def play_until_killed(
    db: Path, *, after: int = KILL_AFTER, pace: str = "0.01"
) -> tuple[str, list[str]]:
    """A whole first game, then the second killed after `after` acknowledged actions.
    Returns the first game's final line and the second game's acknowledged actions."""
    first = run(demo(db, 1))
    assert first.returncode == 0, first.stderr
    proc = subprocess.Popen(
        demo(db, SEED, "--pace", pace), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    acks: list[str] = []
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if len(acks) >= after:
                break  # the line after the acknowledgement: its mark is written by now
            m = ACK.match(line.rstrip("\n"))
            if m:
                acks.append(m.group(2))
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        proc.communicate()
    assert len(acks) >= after
    assert Path(str(db) + "-wal").stat().st_size > 0  # the second game is in the log
    return scores(first.stdout), acks


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory: pytest.TempPathFactory) -> str:
    out = run(demo(tmp_path_factory.mktemp("clean") / "clean.db", SEED))
    assert out.returncode == 0, out.stderr
    return scores(out.stdout)


@pytest.fixture
def table_dir(tmp_path: Path) -> Path:
    """A folder like /var/lib/tavola, with files of the owner's beside the journal."""
    (tmp_path / "tavola.toml").write_text('[app]\ngame = "strozzi"\n')
    (tmp_path / "notes.txt").write_bytes(b"scores of last winter\n")
    return tmp_path


def assert_all_kept(
    db: Path, first: str, acks: list[str], resumed: str, uninterrupted: str
) -> None:
    """Both games finished, the second with every acknowledged action at its place and the
    scores of the game played without a cut."""
    games = journal_games(db)
    assert [(g, s) for g, s, _ in games] == [(1, "finished"), (2, "finished")]
    assert games[1][2][: len(acks)] == acks
    assert scores(resumed) == uninterrupted
    history = run([*TAVOLA, "history", "--db", str(db)]).stdout
    assert first.removeprefix("Game over. ") in history  # the same result, tie-break and all


def _delete(wal: Path) -> None:
    wal.unlink()


def _truncate(wal: Path) -> None:
    os.truncate(wal, wal.stat().st_size // 3)


def _corrupt(wal: Path) -> None:
    with open(wal, "r+b") as fh:
        fh.seek(wal.stat().st_size // 4)
        fh.write(os.urandom(512))


@pytest.mark.parametrize(
    "fault", [_delete, _truncate, _corrupt], ids=["deleted-wal", "truncated-wal", "corrupted-wal"]
)
def test_a_damaged_wal_is_noticed_and_nothing_acknowledged_is_lost(
    table_dir: Path, uninterrupted: str, fault: Callable[[Path], None]
) -> None:
    db = table_dir / "journal.db"
    first, acks = play_until_killed(db)
    mine = user_files(table_dir)
    fault(Path(str(db) + "-wal"))
    again = run(demo(db, SEED))
    assert again.returncode == 0, again.stderr
    said = [line for line in again.stdout.splitlines() if "went back in time" in line]
    assert len(said) == 1 and "restored game 2" in said[0] and "mark" in said[0], again.stdout
    resumed = re.search(r"Resumed Strozzi after (\d+) actions", again.stdout)
    assert resumed and int(resumed.group(1)) >= len(acks)
    assert "Traceback" not in again.stderr
    assert_all_kept(db, first, acks, again.stdout, uninterrupted)
    assert set_aside(table_dir) == []  # SQLite called nothing corrupt
    assert user_files(table_dir) == mine


def test_a_zeroed_main_file_is_refused_untouched_then_restored(
    table_dir: Path, uninterrupted: str
) -> None:
    db = table_dir / "journal.db"
    first, acks = play_until_killed(db)
    db.write_bytes(bytes(db.stat().st_size))  # the card returned zeros for the whole file
    zeros = db.read_bytes()
    mine = user_files(table_dir)
    refused = run(demo(db, SEED))
    assert refused.returncode == 2
    (line,) = refused.stderr.splitlines()
    assert str(db) in line and "not an SQLite database" in line and "nothing was changed" in line
    assert "tavola journal restore" in line
    assert db.read_bytes() == zeros and set_aside(table_dir) == []
    fixed = run([*TAVOLA, "journal", "restore", "--db", str(db)])
    assert fixed.returncode == 0, fixed.stderr
    assert "restored game 1" in fixed.stdout and "game 2" in fixed.stdout
    (kept,) = set_aside(table_dir)  # asked for: the zeroed file, kept under a new name
    assert (table_dir / kept).read_bytes() == zeros
    again = run(demo(db, SEED))
    assert again.returncode == 0, again.stderr
    assert_all_kept(db, first, acks, again.stdout, uninterrupted)
    assert user_files(table_dir) == mine


def test_a_main_file_sqlite_calls_corrupt_is_set_aside_and_rebuilt(
    table_dir: Path, uninterrupted: str
) -> None:
    db = table_dir / "journal.db"
    first, acks = play_until_killed(db)
    Path(str(db) + "-wal").unlink()  # the log lost, and every page but the first garbled
    with open(db, "r+b") as fh:
        fh.seek(4096)
        fh.write(b"\xaa" * (db.stat().st_size - 4096))
    damaged = db.read_bytes()
    mine = user_files(table_dir)
    again = run(demo(db, SEED))
    assert again.returncode == 0, again.stderr
    (said,) = [line for line in again.stdout.splitlines() if "is damaged" in line]
    assert "kept as journal.db.damaged-" in said and "a new journal was started" in said
    (aside,) = set_aside(table_dir)
    assert (table_dir / aside).read_bytes() == damaged
    assert_all_kept(db, first, acks, again.stdout, uninterrupted)
    assert user_files(table_dir) == mine


def test_a_write_lock_held_longer_than_5_s_is_an_error_and_changes_nothing(
    table_dir: Path, uninterrupted: str
) -> None:
    db = table_dir / "journal.db"
    first, acks = play_until_killed(db)
    holder = hold_lock(db)
    try:
        before = {p.name: p.read_bytes() for p in table_dir.iterdir() if p.is_file()}
        started = time.monotonic()
        refused = run(demo(db, SEED))
        waited = time.monotonic() - started
        assert refused.returncode == 2
        (line,) = refused.stderr.splitlines()
        assert str(db) in line and "locked for more than 5 s" in line
        assert "nothing was changed" in line and waited >= 5
        after = {p.name: p.read_bytes() for p in table_dir.iterdir() if p.is_file()}
        assert after == before
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=10)
    again = run(demo(db, SEED))  # the other program is done: the game resumes
    assert again.returncode == 0, again.stderr
    assert_all_kept(db, first, acks, again.stdout, uninterrupted)


def hold_lock(db: Path) -> subprocess.Popen[str]:
    """Another program holds the journal's write lock until its stdin closes."""
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            (
                "import sqlite3, sys\n"
                f"db = sqlite3.connect({str(db)!r}, isolation_level=None)\n"
                "db.execute('BEGIN IMMEDIATE')\n"
                "print('locked', flush=True)\n"
                "sys.stdin.readline()\n"
            ),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
    return holder


@pytest.mark.parametrize("command", ["demo", "history", "journal-check", "journal-restore"])
def test_db_pointing_at_a_folder_or_a_config_is_refused_and_left_alone(
    table_dir: Path, command: str
) -> None:
    folder = table_dir / "games"
    folder.mkdir()
    (folder / "inside.txt").write_text("kept")
    config = table_dir / "tavola.toml"
    args = {
        "demo": ["demo", "strozzi"],
        "history": ["history"],
        "journal-check": ["journal", "check"],
        "journal-restore": ["journal", "restore"],
    }[command]
    for target, cause in ((folder, "is a folder"), (config, "not an SQLite database")):
        before = sorted((p.name, p.read_bytes()) for p in table_dir.rglob("*") if p.is_file())
        out = run([*TAVOLA, *args, "--db", str(target)])
        assert out.returncode == 2, out
        (line,) = out.stderr.splitlines()
        assert str(target) in line and cause in line and "Traceback" not in out.stderr
        after = sorted((p.name, p.read_bytes()) for p in table_dir.rglob("*") if p.is_file())
        assert after == before and folder.is_dir()


# --- a full disk while playing: a real, small tmpfs --------------------------------------------
@contextlib.contextmanager
def small_tmpfs(where: Path, size: str) -> Iterator[Path]:
    where.mkdir()
    try:
        subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "tavola-test", str(where)],
            check=True,
            capture_output=True,
        )
    except (OSError, subprocess.CalledProcessError) as exc:
        pytest.skip(f"cannot mount a tmpfs here (needs root and CAP_SYS_ADMIN): {exc}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def fill(folder: Path) -> Path:
    filler = folder / "filler"
    with open(filler, "wb") as fh, contextlib.suppress(OSError):
        while True:
            fh.write(b"\0" * 65536)
            fh.flush()
    return filler


def test_a_full_disk_mid_game_is_said_at_the_table_and_loses_nothing(
    tmp_path: Path, uninterrupted: str
) -> None:
    with small_tmpfs(tmp_path / "state", "4m") as state:
        db = state / "journal.db"
        proc = subprocess.Popen(
            demo(db, SEED, "--pace", "0.01"),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert proc.stdout is not None
        lines: list[str] = []
        filler = None
        freed_at = None
        for raw in proc.stdout:
            line = raw.rstrip("\n")
            lines.append(line)
            if filler is None and len(acknowledged("\n".join(lines))) >= KILL_AFTER:
                filler = fill(state)
            if filler is not None and freed_at is None and "the disk is full" in line:
                # the table said it; it keeps refusing until the disk has room again
                count = len(acknowledged("\n".join(lines)))
                time.sleep(1.0)
                filler.unlink()
                freed_at = count
        proc.wait(timeout=60)
        err = proc.stderr.read() if proc.stderr else ""
        assert proc.returncode == 0, err
        assert "Traceback" not in err and "the disk is full" in err  # and in the log
        out = "\n".join(lines)
        full = [line for line in lines if "cannot be written: the disk is full" in line]
        assert full and all(str(db) in line for line in full)
        assert freed_at is not None and any("accepts writes again" in line for line in lines)
        acks = acknowledged(out)
        assert scores(out) == uninterrupted
        ((_, status, texts),) = journal_games(db)
        assert status == "finished" and texts == acks  # each acknowledged once, in order
        mark = json.loads((state / "journal.db.mark").read_text())
        assert mark["live"] is None and mark["finished"] == 1
