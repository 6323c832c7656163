"""Records written before the fields were declared: they load, write back byte for byte, and
their action texts replay to the same position (a journal resumes by replaying them).

The records in `records/` were written by the hand-written `_fields()` of the previous
engine: a 4-player game in the middle of a Figlisto journey (round 9), a 2-player Rush
whose piece is crossing a full location, a solo game whose Strozzi step waits for the
human's `ok` with steps pending (harder guards and scheme, play mode), and a finished
harder solo game.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.core import Action, derive, random_action
from engine.florence import GAME

RECORDS = Path(__file__).with_name("records")
NAMES = ["round9-journey", "transit-rush", "solo-round5-ok", "solo-harder-over"]


def old_record(name: str) -> dict:
    return json.loads((RECORDS / f"{name}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", NAMES)
def test_an_older_record_loads_and_writes_back_the_same_bytes(name: str) -> None:
    old = old_record(name)
    state = GAME.state_from_dict(old)
    assert json.dumps(state.to_dict()) == json.dumps(old)  # key order and every value
    assert json.dumps(state.clone().to_dict()) == json.dumps(old)


@pytest.mark.parametrize("name", NAMES)
def test_its_actions_replay_to_the_same_position(name: str) -> None:
    old = old_record(name)
    replay = GAME.new_state(old["players"], seed=old["seed"], options=old["options"])
    for player, text in old["history"]:
        replay.apply(Action(player, text))
    assert json.dumps(replay.to_dict()) == json.dumps(old)


@pytest.mark.parametrize("name", NAMES[:3])
def test_the_loaded_and_the_replayed_game_play_on_alike(name: str) -> None:
    old = old_record(name)
    loaded = GAME.state_from_dict(old)
    replay = GAME.new_state(old["players"], seed=old["seed"], options=old["options"])
    for _player, text in old["history"]:
        replay.apply(text)
    rng = derive(3, "records", name)
    while not replay.is_over():
        action = random_action(replay, rng)
        assert loaded.apply(action) == replay.apply(action)
        assert loaded.describe() == replay.describe()
    assert loaded.is_over() and loaded.scores() == replay.scores()
    assert loaded.winner() == replay.winner()
