"""A big journal: each game end adds the game to `backup-1`, whole copies rotate at the stop.

The size beyond which a journal counts as big is set to 0 here, so a few short games
take the paths a journal of thousands of games takes (the times are in `make bench`).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from apps.journal import Journal, backups, store

SEATS = [{"seat": str(s)} for s in range(1, 4)]


@pytest.fixture(autouse=True)
def big(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(backups, "COPY_ALL_BYTES", 0)
    monkeypatch.setattr(store, "CHECK_ALL_BYTES", 0)


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def play(journal: Journal, n: int, *, finish: bool = True) -> int:
    game = journal.start_game("strozzi", 3, n, {}, SEATS, "x")
    for seq in range(1, 8):
        journal.append(game, seq, seq % 3, f"take {n}.{seq}")
    if finish:
        journal.undo(game, why="test")
        journal.finish(game, [1, 2, 3], [2])
    return game


def games_in(path: Path) -> list[tuple[int, str, int]]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        assert conn.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        return [
            (g, s, n)
            for g, s, n in conn.execute(
                "SELECT id, status, (SELECT COUNT(*) FROM actions WHERE game_id=id)"
                " FROM games ORDER BY id"
            )
        ]
    finally:
        conn.close()


def test_each_game_end_adds_the_game_to_backup_1_and_the_stop_rotates_once_a_day(
    tmp_path: Path,
) -> None:
    db, clock = tmp_path / "journal.db", Clock()
    journal = Journal(db, clock=clock)
    play(journal, 1)  # no backup yet: the first is a whole copy
    play(journal, 2)
    play(journal, 3)
    first = db.with_name("journal.db.backup-1")
    assert games_in(first) == [(1, "finished", 6), (2, "finished", 6), (3, "finished", 6)]
    assert not db.with_name("journal.db.backup-2").exists()  # no whole copy at each end
    undone = sqlite3.connect(first).execute("SELECT COUNT(*) FROM undone").fetchone()[0]
    assert undone == 3
    journal.close()  # a whole copy was made today: nothing rotates
    assert not db.with_name("journal.db.backup-2").exists()

    clock.now += backups.ROTATE_S
    again = Journal(db, clock=clock)
    play(again, 4)
    again.close()  # a day later: copied whole, the copies rotate
    assert [g for g, _, _ in games_in(first)] == [1, 2, 3, 4]
    assert [g for g, _, _ in games_in(db.with_name("journal.db.backup-2"))] == [1, 2, 3, 4]


def test_a_missing_or_foreign_backup_1_is_replaced_by_a_whole_copy(tmp_path: Path) -> None:
    db = tmp_path / "journal.db"
    journal = Journal(db)
    play(journal, 1)
    first = db.with_name("journal.db.backup-1")
    first.unlink()
    play(journal, 2)  # backup-1 lacks game 1: copied whole
    assert [g for g, _, _ in games_in(first)] == [1, 2]
    other = Journal(tmp_path / "other.db")
    play(other, 9)
    other.close()
    (tmp_path / "other.db").replace(first)  # another journal's backup in its place
    play(journal, 3)
    assert [g for g, _, _ in games_in(first)] == [1, 2, 3]
    journal.close()


def test_a_big_journal_reopens_and_restores_from_backup_1_and_the_mark(tmp_path: Path) -> None:
    db = tmp_path / "journal.db"
    journal = Journal(db)
    for n in range(1, 4):
        play(journal, n)
    live = play(journal, 4, finish=False)
    journal.db.close()  # the power goes
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    again = Journal(db)
    assert again.report is not None and "went back in time" in again.report
    assert [g.id for g in again.history()] == [3, 2, 1]
    assert again.unfinished().id == live  # type: ignore[union-attr]
    again.close()


def test_reopen_of_a_big_journal_still_finds_a_damaged_games_table(tmp_path: Path) -> None:
    db = tmp_path / "journal.db"
    journal = Journal(db)
    for n in range(1, 3):
        play(journal, n)
    journal.close()
    with open(db, "r+b") as fh:  # garble every page but the header's
        fh.seek(4096)
        fh.write(b"\xaa" * (db.stat().st_size - 4096))
    again = Journal(db)
    assert again.report is not None and "is damaged" in again.report
    assert [g.id for g in again.history()] == [2, 1]  # from backup-1
    again.close()


def test_a_journal_closed_twice_closes_once(tmp_path: Path) -> None:
    """A table closed on its way out and again by whoever held it (a test's fixture, a
    service stopping after an error): the second close does nothing, it never raises."""
    journal = Journal(tmp_path / "twice.db")
    game = journal.start_game("strozzi", 3, 1, {}, [{"seat": "1", "colour": [1, 2, 3]}], "x")
    journal.append(game, 1, 0, "flag pirate")
    journal.close()
    journal.close()
    again = Journal(tmp_path / "twice.db")
    try:
        assert again.unfinished() is not None and again.report is None
    finally:
        again.close()
