"""Florence solo from the command line: selfplay with options, replay of a recorded game."""

from __future__ import annotations

import json
from pathlib import Path

from apps.commands.engine_cmds import bot_game
from engine import get

from .test_engine_cmds import run


def test_selfplay_plays_solo_games_with_a_difficulty_and_options() -> None:
    out = run(
        "selfplay", "florence", "--players", "1", "--games", "3", "--difficulty", "harder",
        "--option", "confirm_automa=false", "--option", "harder_scheme=false",
    ).stdout  # fmt: skip
    report = json.loads(out)
    assert report["players"] == 1 and report["errors"] == 0 and report["games"] == 3
    assert report["options"] == {
        "difficulty": "harder",
        "confirm_automa": False,
        "harder_scheme": False,
    }


def test_selfplay_refuses_unknown_options_with_a_message() -> None:
    proc = run("selfplay", "florence", "--option", "strozzi_mood=grumpy", check=False)
    assert proc.returncode != 0 and "Florence has no option strozzi_mood" in proc.stderr
    proc = run("selfplay", "florence", "--option", "difficulty", check=False)
    assert proc.returncode != 0 and "KEY=VALUE" in proc.stderr


def test_replay_of_a_solo_game_uses_the_recorded_options(tmp_path: Path) -> None:
    options = {"difficulty": "harder", "confirm_automa": True}
    state = bot_game(get("florence"), 1, 4, options)
    recorded = state.to_dict()
    record = {
        "game": "florence",
        "players": 1,
        "seed": 4,
        "options": recorded["options"],
        "actions": recorded["history"],
    }
    path = tmp_path / "solo.json"
    path.write_text(json.dumps(record))
    summary = json.loads(run("replay", str(path)).stdout)
    assert summary["ok"] and summary["over"] and summary["players"] == 1
    assert summary["scores"] == state.scores() and summary["winner"] == state.winner()
    del record["options"]  # without them the same actions are not a legal game
    path.write_text(json.dumps(record))
    proc = run("replay", str(path), check=False)
    assert proc.returncode == 1 and not json.loads(proc.stdout)["ok"]


def test_demo_plays_a_solo_game_with_strozzis_steps_confirmed_at_the_seat() -> None:
    out = run("demo", "florence", "--players", "1", "--seed", "5").stdout
    assert out.startswith("Florence on a mocked table: 1 players, seed 5")
    assert "seat 1: ok" in out and "draw: solo " in out
    assert "Game over. Strozzi (automa) wins " in out or "Game over. Seat 1 wins " in out
