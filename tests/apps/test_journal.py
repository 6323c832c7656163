"""The journal on real SQLite files: where games live, backups, the mark, what is refused.

The fault-injection runs over real `tavola` processes are in test_journal_faults.py.
"""

from __future__ import annotations

import hashlib
import json
import random
import shutil
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

import engine
from apps.journal import (
    APPLICATION_ID,
    BACKUPS,
    Journal,
    JournalError,
    JournalUnavailable,
)
from apps.table import RETRY_S
from engine.core import random_action
from tests.apps.test_table import seated

from .test_journal_faults import fill, hold_lock, small_tmpfs

SEATS = [
    {"seat": "1", "colour": [1, 2, 3]},
    {"seat": "2", "colour": [4, 5, 6]},
    {"seat": "3", "colour": [7, 8, 9]},
]


def play(journal: Journal, seed: int, *, finish: bool = True, actions: int | None = None) -> int:
    """A Strozzi game for three written to `journal` as the table writes it."""
    game = engine.get("strozzi")
    state = game.new_state(3, seed=seed)
    game_id = journal.start_game("strozzi", 3, seed, dict(state.options), SEATS, state.data.digest)
    rng = random.Random(seed)
    while not state.is_over() and (actions is None or len(state.history) < actions):
        action = random_action(state, rng)
        state.apply(action)
        journal.append(game_id, len(state.history), action.player, action.text)
        journal.sync_mark()  # acknowledged
    if finish and state.is_over():
        journal.finish(game_id, state.scores(), state.winner())
    return game_id


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def finished_ids(path: Path) -> list[int]:
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return [
            i for (i,) in db.execute("SELECT id FROM games WHERE status='finished' ORDER BY id")
        ]
    finally:
        db.close()


def test_a_finished_game_lives_in_the_main_file_while_the_table_runs(tmp_path: Path) -> None:
    """Once a game ends the log is folded in: the main file alone holds it, so a lost or
    damaged -wal cannot take finished games with it."""
    db = tmp_path / "journal.db"
    journal = Journal(db)
    first = play(journal, 1)
    second = play(journal, 2)
    alone = tmp_path / "alone.db"
    shutil.copy(db, alone)  # the main file only, the table still running
    try:
        assert finished_ids(alone) == [first, second]
    finally:
        journal.close()


def test_backups_rotate_after_each_game_and_stand_alone(tmp_path: Path) -> None:
    db = tmp_path / "journal.db"
    journal = Journal(db)
    ids = [play(journal, seed) for seed in range(1, 6)]
    journal.close()
    copies = [db.with_name(f"journal.db.backup-{i}") for i in range(1, BACKUPS + 1)]
    assert all(c.is_file() for c in copies)
    assert not db.with_name("journal.db.backup-4").exists()
    for i, copy in enumerate(copies):
        assert not Path(str(copy) + "-wal").exists()
        assert finished_ids(copy) == ids[: len(ids) - i]  # newest first
        conn = sqlite3.connect(f"file:{copy}?mode=ro", uri=True)
        assert conn.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        conn.close()


def test_the_mark_follows_every_commit_and_may_lag_without_alarm(tmp_path: Path) -> None:
    db = tmp_path / "journal.db"
    journal = Journal(db)
    game_id = play(journal, 3, finish=False, actions=12)
    mark = json.loads((tmp_path / "journal.db.mark").read_text())
    assert mark["commits"] == journal.commits and mark["live"]["id"] == game_id
    assert len(mark["live"]["actions"]) == 12
    journal.close()
    # a crash between a commit and its mark: the mark is one behind, which is no alarm
    mark["commits"] -= 1
    mark["live"]["actions"].pop()
    (tmp_path / "journal.db.mark").write_text(json.dumps(mark))
    again = Journal(db)
    assert again.report is None and len(again.unfinished().actions) == 12
    again.close()


def test_a_deleted_journal_comes_back_from_its_backup_and_mark(tmp_path: Path) -> None:
    db = tmp_path / "journal.db"
    journal = Journal(db)
    done = play(journal, 1)
    live = play(journal, 2, finish=False, actions=20)
    expected = journal.load(live).actions
    journal.db.close()  # the power goes: no checkpoint, no clean close
    for suffix in ("", "-wal", "-shm"):
        Path(str(db) + suffix).unlink(missing_ok=True)
    again = Journal(db)
    assert again.report is not None and "went back in time" in again.report
    assert [g.id for g in again.history()] == [done]
    assert again.unfinished().id == live and again.unfinished().actions == expected
    again.close()


def test_two_repairs_in_one_second_never_share_a_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A corrupt journal set aside twice within a second: the second must not replace the
    first (that lost a good journal once)."""
    monkeypatch.setattr("apps.journal.time.strftime", lambda fmt, *a: "20260101-120000")
    db = tmp_path / "journal.db"
    contents = []
    for seed in (1, 2):
        journal = Journal(db)
        play(journal, seed)
        journal.close()
        data = db.read_bytes()
        db.write_bytes(data[: len(data) // 2 + 100])  # cut: SQLite calls it corrupt
        contents.append(db.read_bytes())
        Journal(db).close()
    kept = sorted(
        p
        for p in tmp_path.iterdir()
        if ".damaged-" in p.name and not p.name.endswith(("-wal", "-shm"))
    )
    assert [p.name for p in kept] == [
        "journal.db.damaged-20260101-120000",
        "journal.db.damaged-20260101-120000-2",
    ]
    assert [p.read_bytes() for p in kept] == contents


def test_a_folder_or_a_file_in_the_way_is_refused_before_anything_is_made(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    with pytest.raises(JournalError, match=r"games is a folder, not a file; nothing was changed"):
        Journal(folder)
    assert folder.is_dir() and list(folder.iterdir()) == []
    blocker = tmp_path / "notes.txt"
    blocker.write_text("not a folder")
    with pytest.raises(JournalError, match=r"notes\.txt is a file, not a folder"):
        Journal(blocker / "journal.db")
    assert blocker.read_text() == "not a folder"


def test_an_sqlite_file_that_is_not_a_journal_is_never_written(tmp_path: Path) -> None:
    other = tmp_path / "photos.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE photos (name TEXT)")
    conn.execute("INSERT INTO photos VALUES ('beach.jpg')")
    conn.commit()
    conn.close()
    before = digest(other)
    for readonly in (False, True):
        with pytest.raises(
            JournalError,
            match=r"photos\.db is an SQLite database but not a "
            r"Tavola journal .*photos.*nothing was changed",
        ):
            Journal(other, readonly=readonly)
    assert digest(other) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["photos.db"]


def test_a_journal_of_schema_1_opens_resumes_and_gets_the_application_id(tmp_path: Path) -> None:
    """Journals written before the application id existed are recognised by their tables."""
    db = tmp_path / "journal.db"
    conn = sqlite3.connect(db)
    conn.executescript("""
        CREATE TABLE games (id INTEGER PRIMARY KEY, game TEXT NOT NULL, players INTEGER NOT NULL,
            seed INTEGER NOT NULL, options TEXT NOT NULL, seats TEXT NOT NULL,
            data_digest TEXT NOT NULL, status TEXT NOT NULL, started REAL NOT NULL, ended REAL,
            scores TEXT, winner TEXT);
        CREATE TABLE actions (game_id INTEGER NOT NULL REFERENCES games(id), seq INTEGER NOT NULL,
            player INTEGER NOT NULL, text TEXT NOT NULL, at REAL NOT NULL,
            PRIMARY KEY (game_id, seq)) WITHOUT ROWID;
        PRAGMA user_version=1;
    """)
    conn.execute(
        "INSERT INTO games VALUES (1, 'strozzi', 3, 4, '{}', ?, 'x', 'playing', 1.0,"
        " NULL, NULL, NULL)",
        (json.dumps(SEATS),),
    )
    conn.execute("INSERT INTO actions VALUES (1, 1, -1, 'draw 7', 1.0)")
    conn.commit()
    conn.close()
    journal = Journal(db)
    assert journal.unfinished().actions == [(-1, "draw 7")]
    journal.append(1, 2, 0, "pass")
    journal.close()
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    conn.close()


def test_a_read_only_disk_is_an_error_and_nothing_is_set_aside(tmp_path: Path) -> None:
    with small_tmpfs(tmp_path / "state", "8m") as state:
        db = state / "journal.db"
        journal = Journal(db)
        play(journal, 1)
        journal.close()
        before = {p.name: digest(p) for p in state.iterdir()}
        subprocess.run(["mount", "-o", "remount,ro", str(state)], check=True)
        try:
            with pytest.raises(
                JournalError,
                match=r"journal .*journal\.db.*nothing was "
                r"changed",
            ) as info:
                Journal(db)
            assert "read-only" in str(info.value) or "permission" in str(info.value)
            assert {p.name: digest(p) for p in state.iterdir()} == before
            history = Journal(db, readonly=True)  # reading still works
            assert len(history.history()) == 1
            history.close()
        finally:
            subprocess.run(["mount", "-o", "remount,rw", str(state)], check=True)


def test_a_full_disk_at_start_up_sets_nothing_aside_and_creates_nothing(tmp_path: Path) -> None:
    """After a clean stop SQLite needs room for its index (-shm) to open the journal: a full
    disk is then one line, the files untouched. After a crash the index is there: the
    journal opens, the game in progress is in it, and writes are refused (the table says
    so at the seats) until there is room again. A new journal on a full disk: one line,
    and no empty file left behind."""
    with small_tmpfs(tmp_path / "state", "4m") as state:
        db = state / "journal.db"
        journal = Journal(db)
        play(journal, 1)
        game_id = play(journal, 2, finish=False, actions=20)
        journal.close()
        filler = fill(state)
        before = {p.name: digest(p) for p in state.iterdir() if p != filler}
        with pytest.raises(
            JournalError,
            match=r"journal\.db: the disk is full.*nothing was "
            r"changed",
        ):
            Journal(db)
        with pytest.raises(
            JournalError,
            match=r"new\.db: the disk is full.*nothing was "
            r"changed",
        ):
            Journal(state / "new.db")
        assert {p.name: digest(p) for p in state.iterdir() if p != filler} == before
        filler.unlink()
        running = Journal(db)  # the table crashed: its -shm stays
        filler = fill(state)
        opened = Journal(db)
        assert opened.report is None and len(opened.unfinished().actions) == 20
        with pytest.raises(
            JournalUnavailable,
            match=r"journal\.db cannot be written: the disk "
            r"is full",
        ):
            opened.append(game_id, 21, 0, "pass")
        assert len(opened.load(game_id).actions) == 20
        assert not any(".damaged-" in p.name for p in state.iterdir())
        filler.unlink()
        opened.append(game_id, 21, 0, "pass")
        assert opened.load(game_id).actions[-1] == (0, "pass")
        opened.close()
        running.db.close()


# --- the table when the journal refuses a write -----------------------------------------------
def test_a_lock_mid_game_keeps_the_game_refuses_presses_and_catches_up(
    make_table, tmp_path: Path
) -> None:
    table, clock, bot = seated(make_table, players=3, seed=6)
    app = table.app
    journal = table.journal
    journal.lock_timeout = 0.3  # the appliance waits 5 s; the test need not
    db = tmp_path / "journal.db"
    seat, action = bot.choose()
    commands = bot.presses_for(seat, action)
    for command in commands[:-1]:
        bot.command(seat, command)
    count = len(app.state.history)
    holder = hold_lock(db)
    try:
        bot.command(seat, commands[-1])  # confirmed, but the journal cannot take it
        assert app.unwritten is not None and len(app.state.history) == count
        refused = [line for line in make_table.said if "locked" in line]
        assert refused and str(db) in refused[0] and "no action is taken" in refused[0]
        frozen = json.dumps(app.state.to_dict())
        for other in app.players:
            bot.command(other, "select")
        assert json.dumps(app.state.to_dict()) == frozen
        assert any(
            f"Seat {app.players[-1]}: " in line and "locked" in line for line in make_table.said
        )
        clock.advance(RETRY_S)
        app.tick()  # still locked: tried again, still waiting
        assert app.unwritten is not None
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=10)
    clock.advance(RETRY_S)
    app.tick()
    assert app.unwritten is None
    assert app.state.history[count].text == action.text
    assert any("accepts writes again" in line for line in make_table.said)
    assert any(line.startswith(f"#{count + 1} ") for line in make_table.said)
    conn = sqlite3.connect(db)
    texts = [t for (t,) in conn.execute("SELECT text FROM actions ORDER BY seq")]
    conn.close()
    assert texts == [a.text for a in app.state.history]
    bot.play(3)  # and the game goes on to its end
    assert app.mode == "over"


def test_a_write_refused_mid_game_raises_unavailable_and_writes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "journal.db"
    journal = Journal(db, lock_timeout=0.2)
    game_id = play(journal, 2, finish=False, actions=3)
    commits = journal.commits
    holder = hold_lock(db)
    try:
        started = time.monotonic()
        with pytest.raises(JournalUnavailable, match=r"locked for more than 0\.2 s"):
            journal.append(game_id, 4, 0, "pass")
        assert time.monotonic() - started < 3
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=10)
    assert journal.commits == commits and len(journal.load(game_id).actions) == 3
    journal.append(game_id, 4, 0, "pass")
    assert journal.load(game_id).actions[-1] == (0, "pass")
    journal.close()
