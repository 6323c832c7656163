"""The component check: `tavola data check GAME` asks every provisional value, the owner's
answers go to the override file marked `provenance = "owner"`, and the games play by them.

Run as an owner runs it: the installed `tavola` in a subprocess, answers typed on its
standard input, the override file read back from disk.
"""

from __future__ import annotations

import os
import subprocess
import tomllib
from pathlib import Path

import pytest

import engine
from apps import datacheck
from engine.core import DataError
from engine.florence import GAME as FLORENCE
from engine.strada_romana import GAME as STRADA
from engine.strada_romana import board_for
from engine.strozzi import GAME as STROZZI
from tests.support import TAVOLA

GAMES = engine.games()


def run(*args: str, stdin: str = "", env: dict[str, str] | None = None, check: bool = True):
    proc = subprocess.run(
        [*TAVOLA, *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **(env or {})},
    )
    if check:
        assert proc.returncode == 0, proc.stderr
    return proc


def provisional_keys(game: str) -> set[tuple[str, str]]:
    data = engine.get(game).load_data()
    return {
        (g.name, k) for g in data.groups.values() if g.provenance == "provisional" for k in g.values
    }


# --- what the check asks ----------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_the_check_asks_every_provisional_value_in_words(game: str) -> None:
    """Every key of every provisional group is one question, worded by the game's data (no
    generic fallback is shipped), with the shipped guess shown as the file writes it."""
    asked = datacheck.questions(game)
    assert {(q.group, q.key) for q in asked} == provisional_keys(game)
    for q in asked:
        assert q.text != datacheck.GENERIC.format(key=q.key), q.label
        assert tomllib.loads(f"v = {q.shown()}")["v"] == q.current


@pytest.mark.parametrize("game", GAMES)
def test_on_the_shipped_data_the_check_lists_every_provisional_value(game: str, tmp_path: Path):
    env = {"TAVOLA_DATA_DIR": str(tmp_path)}  # no owner's file yet
    proc = run("data", "check", game, stdin="q\n", env=env)
    total = len(provisional_keys(game))
    assert f"{total} values are provisional guesses" in proc.stdout
    assert datacheck.questions(game)[0].label in proc.stdout
    listed = run("data", game, env=env).stdout
    assert f"{total} values are provisional" in listed
    for group, key in provisional_keys(game):
        assert f"[{group}] {key}" in listed
    assert not list(tmp_path.iterdir())  # stopped before any answer: nothing written


@pytest.mark.parametrize("game", GAMES)
def test_a_complete_override_leaves_nothing_provisional(game: str, tmp_path: Path) -> None:
    """Confirming every guess (Enter at each question) writes them all as the owner's; the
    check then lists none, and `tavola data` says so."""
    path = tmp_path / f"{game}.toml"
    n = len(provisional_keys(game))
    proc = run("data", "check", game, "--override", str(path), stdin="\n" * n)
    assert f"{n} values written; 0 still provisional." in proc.stdout
    text = path.read_text()
    data = engine.get(game).load_data(path)
    assert not data.unchecked() and datacheck.questions(game, data) == []
    groups = {name for name, _ in provisional_keys(game)}
    assert all(data[g].provenance == "owner" for g in groups)
    assert tomllib.loads(text)[sorted(groups)[0]]["provenance"] == "owner"
    assert data.digest == engine.get(game).load_data().digest  # the same values, confirmed
    again = run("data", "check", game, "--override", str(path)).stdout
    assert "nothing to check" in again
    assert "No value is provisional" in run("data", game, "--override", str(path)).stdout


# --- answers ------------------------------------------------------------------------------------
def test_answers_are_checked_and_written_with_the_owners_comments_kept(tmp_path: Path) -> None:
    path = tmp_path / "strozzi.toml"
    path.write_text('# our copy, bought 2024\n[goods_venice_naples]\nvenice = "gold"\n')
    answers = "ten\n12\n{ 4 = 5, 8 = 10, 12 = 15 }\ns\nq\n"
    proc = run("data", "check", "strozzi", "--override", str(path), stdin=answers)
    assert "last_space must be a number, like 10. Try again" in proc.stdout
    assert "Written to" in proc.stdout and "[track] last_space, bonus" in proc.stdout
    text = path.read_text()
    assert text.startswith("# our copy, bought 2024\n[goods_venice_naples]\n")
    track = tomllib.loads(text)["track"]
    assert track["last_space"] == 12 and track["bonus"] == {"4": 5, "8": 10, "12": 15}
    assert track["provenance"] == "owner"
    assert Path(f"{path}.bak").read_text().startswith("# our copy")
    listed = run("data", "strozzi", "--override", str(path)).stdout
    assert "[track]" not in listed.split("provisional (")[1]  # checked now
    assert "[progress_tokens] counts" in listed  # skipped: still a guess


def test_an_answer_the_game_cannot_play_leaves_the_file_as_it_was(tmp_path: Path) -> None:
    """Florence with two queue numbers where three spots are printed: the game's own check
    refuses the group, the reason is said, and the file keeps every byte."""
    path = tmp_path / "florence.toml"
    path.write_text('[scheme_vp]\nminimum = 4\nprovenance = "owner"\n')
    before = path.read_bytes()
    wrong = "[" + ", ".join(["[3, 4]"] * 9) + "]"
    proc = run("data", "check", "florence", "--override", str(path), stdin=f"{wrong}\nq\n")
    assert "Not written:" in proc.stdout and "location 1 shows [3, 4]" in proc.stdout
    assert path.read_bytes() == before


def test_a_broken_owner_file_stops_a_game_with_its_line_and_key(tmp_path: Path) -> None:
    (tmp_path / "strozzi.toml").write_text('# mine\n[track]\nlast_space = "ten"\n')
    env = {"TAVOLA_DATA_DIR": str(tmp_path)}
    proc = run("demo", "strozzi", "--players", "3", env=env, check=False)
    assert proc.returncode == 2 and "button presses" not in proc.stdout
    assert f"{tmp_path}/strozzi.toml:3: [track] last_space must be a number" in proc.stderr
    (tmp_path / "strozzi.toml").write_text("[track]\nlast_spaces = 12\n")
    proc = run("demo", "strozzi", "--players", "3", env=env, check=False)
    assert "strozzi.toml:2: [track] has unknown keys: last_spaces" in proc.stderr
    (tmp_path / "strozzi.toml").write_text('[track]\nprovenance = "mine"\nlast_space = 12\n')
    proc = run("demo", "strozzi", "--players", "3", env=env, check=False)
    assert 'strozzi.toml:2: [track] provenance must be "owner"' in proc.stderr
    (tmp_path / "strozzi.toml").write_text("# mine\n[track]\nlast_space = 8\n")
    proc = run("demo", "strozzi", "--players", "3", env=env, check=False)
    assert "strozzi.toml:2: [track] bonus: the spaces of the 5, 10 and 15 bonus" in proc.stderr
    assert run("demo", "florence", "--players", "2", env=env).returncode == 0  # others play


# --- the template -------------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_the_template_changes_nothing_until_uncommented(game: str, tmp_path: Path) -> None:
    """`tavola data GAME --template`: every group, commented; uncommenting every table
    (the "# " lines, not the "## " notes) gives the shipped values."""
    text = run("data", game, "--template").stdout
    assert tomllib.loads(text) == {}
    data = engine.get(game).load_data()
    for name in data.groups:
        assert f"# [{name}]" in text
    plain = "\n".join(
        line[2:] if line.startswith("# ") else line
        for line in text.splitlines()
        if not line.startswith("##")
    )
    path = tmp_path / f"{game}.toml"
    path.write_text(plain)
    assert engine.get(game).load_data(path).digest == data.digest


# --- the owner's answers change the game --------------------------------------------------------
def test_strozzi_plays_on_the_owners_track(tmp_path: Path) -> None:
    """'players cannot move their markers past the bonus space 15': on a 12-space track
    whose 15 bonus is space 12, a marker stops there; the 10 bonus pays at space 8."""
    path = datacheck.save(
        "strozzi",
        {("track", "last_space"): 12, ("track", "bonus"): {"4": 5, "8": 10, "12": 15}},
        path=tmp_path / "strozzi.toml",
    )
    data = STROZZI.load_data(path)
    state = STROZZI.new_state(3, seed=1, data=data)
    assert data["track"].provenance == "owner"
    assert state.rules.last_space == 12 and state.rules.bonus == {4: 5, 8: 10, 12: 15}
    shipped = STROZZI.new_state(3, seed=1)
    assert shipped.rules.last_space == 10


def test_florence_covers_the_queue_spots_the_owners_board_numbers(tmp_path: Path) -> None:
    """Setup: 'cover the spots that show a number higher than the number of players'."""
    shipped = FLORENCE.new_state(3, seed=1).observe()
    path = datacheck.save(
        "florence", {("queue_blockers", "numbers"): [[4, 4, 4]] * 9}, path=tmp_path / "f.toml"
    )
    state = FLORENCE.new_state(3, seed=1, data=FLORENCE.load_data(path))
    owners = state.observe()
    # [3, 4, 4] at 3 players covers two spots, [4, 4, 4] all three
    assert [loc.capacity + 1 for loc in owners.locations] == [
        loc.capacity for loc in shipped.locations
    ]


def test_strada_romana_plays_the_owners_diagonals(tmp_path: Path) -> None:
    """With the owner's "parallel" diagonals, 212 -> 221 is no diagonal special move."""
    path = datacheck.save(
        "strada_romana", {("diagonals", "rule"): "parallel"}, path=tmp_path / "s.toml"
    )
    owners = board_for(STRADA.load_data(path))
    shipped = board_for(STRADA.load_data())
    ix = shipped.square_index
    assert shipped.diagonal[0][ix["212"]] and not owners.diagonal[0][ix["212"]]


def test_save_refuses_a_value_of_the_wrong_kind(tmp_path: Path) -> None:
    with pytest.raises(DataError, match=r"\[track\] last_space must be a number"):
        datacheck.save("strozzi", {("track", "last_space"): "ten"}, path=tmp_path / "s.toml")
    assert not (tmp_path / "s.toml").exists()


def test_a_strozzi_track_whose_last_space_is_not_the_15_bonus_is_refused(tmp_path: Path):
    """'players cannot move their markers past the bonus space 15': the 15 bonus is the
    track's last space; a shorter track with the shipped bonuses is refused by name."""
    path = tmp_path / "strozzi.toml"
    proc = run("data", "check", "strozzi", "--override", str(path), stdin="8\n\nq\n")
    assert "Not written:" in proc.stdout and "between 1 and the last space 8" in proc.stdout
    assert not path.exists()
    path.write_text("[track]\nbonus = { 4 = 10, 7 = 5, 10 = 15 }\n")
    with pytest.raises(DataError, match="must rise along the track"):
        STROZZI.load_data(path)
    path.write_text("[track]\nbonus = { 4 = 5, 7 = 10, 9 = 15 }\n")
    with pytest.raises(DataError, match="the 15 bonus is on the last space, 10"):
        STROZZI.load_data(path)


# --- a game keeps the data it started with ------------------------------------------------------
def test_a_game_resumes_with_its_own_data_after_the_owner_changes_the_file(
    make_table, tmp_path: Path, monkeypatch
) -> None:
    """The journal keeps the owner's file as it was when a game started: a check made
    while the game is on (the phone page, `tavola data check`) changes the next game, and
    the unfinished one resumes after a restart as it was, and replays in `history`."""
    from apps.journal import Journal
    from apps.record import replay

    owner = tmp_path / "data"
    owner.mkdir()
    monkeypatch.setenv("TAVOLA_DATA_DIR", str(owner))
    twelve = {("track", "last_space"): 12, ("track", "bonus"): {"2": 5, "8": 10, "12": 15}}
    try:
        datacheck.save("strozzi", twelve)  # the owner's file, in use from the next game
        table, _clock, bot = make_table(3, seed=4)
        while len(table.app.state.history if table.app.state else []) < 30:
            bot.advance(3)
        state = table.app.state
        assert state is not None and state.rules.last_space == 12 and not state.is_over()
        played = [a.text for a in state.history]
        table.close()
        ten = {("track", "last_space"): 10, ("track", "bonus"): {"4": 5, "7": 10, "10": 15}}
        datacheck.save("strozzi", ten)  # checked again while the game is unfinished
        assert STROZZI.data().digest != state.data.digest
        table, _clock, bot = make_table(3, seed=4)  # the same journal: it resumes
        resumed = table.app.state
        assert resumed is not None and len(played) > 20
        assert [a.text for a in resumed.history][: len(played)] == played
        assert resumed.rules.last_space == 12 and resumed.data.digest == state.data.digest
        assert not any("set aside" in line for line in make_table.said)
        assert bot.play(4) and table.app.state.is_over()
        table.close()
        journal = Journal(make_table.journal)
        record = journal.load(journal.history(limit=1)[0].id)
        assert replay(record).scores() == record.scores  # history replays it too
        journal.close()
        fresh = STROZZI.new_state(3, seed=4)
        assert fresh.rules.last_space == 10  # the next game plays by the new file
    finally:
        STROZZI.use_data_file(None)
