"""Records written before the fields were declared: they load, write back byte for byte, and
their action texts replay to the same position (a journal resumes by replaying them).

The files in `records/` were written by the hand-written `_fields()` of the previous engine,
from random games: a 4-player game with wagon tiles entered as taken, stopped while a wagon
bought with stacking passes over another; a 3-player game waiting for a ware tile from the
bag; a 5-player game in the middle of the reveal at the end. They were played with
the diagonals then shipped (rule "parallel"), so they load with that data
(`records/data-parallel.toml`) on the shipped data of the time, which the engine keeps
(`shipped/0ca7c04ec651.toml`: the areas, square 241 and part C column 4 before they were
compared with the public sources); their `data` digest is that data's now that the group
also has `pairs`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.core import Action, derive, random_action
from engine.strada_romana import GAME

RECORDS = sorted((Path(__file__).parent / "records").glob("*.json"))
DATA = GAME.load_data(
    override=Path(__file__).parent / "records" / "data-parallel.toml", shipped="0ca7c04ec651"
)


def old_record(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def replayed(old: dict):
    state = GAME.new_state(old["players"], seed=old["seed"], options=old["options"], data=DATA)
    for player, text in old["history"]:
        state.apply(Action(player, text))
    return state


def test_the_records_cover_the_positions_they_are_named_for() -> None:
    phases = {old_record(p)["phase"] for p in RECORDS}
    assert phases == {"moving", "refill", "reveal"}


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_an_older_record_loads_and_writes_back_the_same_bytes(path: Path) -> None:
    old = old_record(path)
    state = GAME.state_from_dict(old, DATA)
    assert json.dumps(state.to_dict()) == json.dumps(old)  # key order and every value
    assert not state.invariants()
    assert json.dumps(state.clone().to_dict()) == json.dumps(old)


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_its_actions_replay_to_the_same_position(path: Path) -> None:
    old = old_record(path)
    assert json.dumps(replayed(old).to_dict()) == json.dumps(old)


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_the_loaded_and_the_replayed_game_play_on_alike(path: Path) -> None:
    old = old_record(path)
    loaded, replay = GAME.state_from_dict(old, DATA), replayed(old)
    rng = derive(5, "records", path.stem)
    for _ in range(3000):
        if replay.is_over():
            break
        assert [a.text for a in loaded.legal_actions()] == [a.text for a in replay.legal_actions()]
        action = random_action(replay, rng)
        assert loaded.apply(action) == replay.apply(action)
    assert loaded.to_dict() == replay.to_dict()
    assert loaded.scores() == replay.scores()
