"""The engine commands, run as a user runs them: the installed `tavola` in a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.support import TAVOLA


def run(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([*TAVOLA, *args], capture_output=True, text=True, timeout=120)
    if check:
        assert proc.returncode == 0, proc.stderr
    return proc


def test_demo_is_byte_identical_for_the_same_seed() -> None:
    first = run("demo", "strozzi", "--players", "4", "--seed", "7").stdout
    second = run("demo", "strozzi", "--players", "4", "--seed", "7").stdout
    other = run("demo", "strozzi", "--players", "4", "--seed", "8").stdout
    assert first == second and first != other
    assert first.startswith("Strozzi on a mocked table: 4 players, seed 7")
    assert "Game over. Seat " in first and "\nwinner: seat" in first
    assert "button presses" in first and "frames sent to the strip" in first


def test_selfplay_prints_one_json_line_of_figures() -> None:
    out = run("selfplay", "strozzi", "--games", "5", "--players", "3").stdout
    lines = out.strip().splitlines()
    assert len(lines) == 1
    report = json.loads(lines[0])
    for key in (
        "game",
        "players",
        "games",
        "actions",
        "errors",
        "seconds",
        "games_per_s",
        "us_per_action",
    ):
        assert key in report
    assert report["game"] == "strozzi" and report["games"] == 5 and report["errors"] == 0
    assert report["actions"] > 5 * 50
    assert report["unfinished"] == 0


def test_selfplay_stops_a_game_at_its_bound_and_counts_it() -> None:
    """Strada Romana allows endless play in a traffic jam: a playout is bounded and a game
    stopped at the bound is reported as unfinished, not hung on."""
    report = json.loads(
        run(
            "selfplay", "strada_romana", "--games", "4", "--players", "4", "--max-actions", "50"
        ).stdout
    )
    assert report["unfinished"] == 4 and report["actions"] == 4 * 50
    bad = run("selfplay", "strozzi", "--max-actions", "0", check=False)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1
    assert "--max-actions: 0 is out of range: must be a whole number 1-10000000" in bad.stderr


def test_replay_of_a_demo_game_matches_its_scores(tmp_path: Path) -> None:
    from apps.commands.engine_cmds import bot_game
    from engine import get

    state = bot_game(get("strozzi"), 5, 3)
    record = {
        "game": "strozzi",
        "players": 5,
        "seed": 3,
        "actions": [a.text for a in state.history],
    }
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    summary = json.loads(run("replay", str(path)).stdout)
    assert summary["ok"] and summary["over"]
    assert summary["scores"] == state.scores() and summary["winner"] == state.winner()


def test_replay_reports_the_first_illegal_action(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    record = {
        "game": "strozzi",
        "players": 3,
        "seed": 0,
        "actions": [
            "reveal arts-2",
            "reveal arts-2",
            "reveal arts-2",
            "draw 3 gold1 grain0 cloth1 scrolls0 token",
            "flag pirate",
            "port florence",
        ],
    }
    path.write_text(json.dumps(record))
    proc = run("replay", str(path), check=False)
    assert proc.returncode == 1
    report = json.loads(proc.stdout)
    assert report["ok"] is False and report["position"] == 6
    assert "Florence is not a port" in report["reason"]


@pytest.mark.parametrize("content", ["not json", '{"game": "strozzi"}'])
def test_replay_of_a_broken_file_is_a_message(tmp_path: Path, content: str) -> None:
    path = tmp_path / "broken.json"
    path.write_text(content)
    proc = run("replay", str(path), check=False)
    assert proc.returncode != 0 and "Traceback" not in proc.stderr
    assert "tavola replay:" in proc.stderr


def test_data_lists_provenance_and_provisional_groups() -> None:
    out = run("data", "strozzi").stdout
    assert "ships  " in out or "ships " in out
    assert "provisional" in out and "rulebook" in out
    only = run("data", "strozzi", "--provisional").stdout
    assert "goods_rome" not in only and "track" in only
    assert "goods_venice_naples" not in only  # public: two reviews name the goods


def test_data_override_file_replaces_values(tmp_path: Path) -> None:
    override = tmp_path / "strozzi.toml"
    override.write_text("[track]\nlast_space = 12\nbonus = { 4 = 5, 8 = 10, 12 = 15 }\n")
    out = run("data", "strozzi", "--override", str(override)).stdout
    assert "track" in out and "override" in out
    bad = tmp_path / "bad.toml"
    bad.write_text("[track]\nlength = 3\n")
    proc = run("data", "strozzi", "--override", str(bad), check=False)
    assert proc.returncode == 1 and "unknown keys: length" in proc.stderr


def test_help_lists_the_commands() -> None:
    out = run("--help").stdout
    for command in ("demo", "selfplay", "replay", "data"):
        assert command in out


def test_the_owners_data_file_applies_to_every_command(tmp_path: Path) -> None:
    """The engine reads no home directory; `tavola` finds the owner's file and passes it on:
    `data` lists it, and a demo is played on the corrected track."""
    (tmp_path / "strozzi.toml").write_text(  # a 5 bonus on space 2 pays in every game
        "[track]\nlast_space = 12\nbonus = { 2 = 5, 8 = 10, 12 = 15 }\n"
    )
    env = {**os.environ, "TAVOLA_DATA_DIR": str(tmp_path)}

    def tavola(*args: str) -> str:
        proc = subprocess.run(
            [*TAVOLA, *args], capture_output=True, text=True, timeout=120, env=env
        )
        assert proc.returncode == 0, proc.stderr
        return proc.stdout

    listed = tavola("data", "strozzi")
    assert "track" in listed and f"+ {tmp_path / 'strozzi.toml'}" in listed
    assert tavola("demo", "strozzi", "--seed", "3") != run("demo", "strozzi", "--seed", "3").stdout
