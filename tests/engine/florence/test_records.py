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
from engine.florence.actions import Travel
from engine.florence.end import FinalScore
from engine.florence.strozzi import SoloState, Unit

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


def test_the_travel_is_named_and_still_stored_as_an_array() -> None:
    """The travel list (`tr[4] >= tr[7]`) is a named tuple: the steps of a Rush or a
    journey read by name, and the record keeps its array."""
    state = GAME.state_from_dict(old_record("round9-journey"))
    assert isinstance(state.travel, Travel)
    assert (state.travel.kind, state.travel.steps, state.travel.per) == ("journey", 1, 3)
    assert state.travel.pieces == 2 and state.travel.left == 2
    crossing = GAME.state_from_dict(old_record("transit-rush")).travel
    assert crossing is not None and crossing.kind == "rush" and crossing.queue_index == -1
    assert old_record("round9-journey")["travel"] == list(state.travel)


def test_strozzis_state_is_one_object_and_his_steps_are_named() -> None:
    """The solo fields are one object (`state.solo`), stored under the record's old keys;
    his agenda's steps read by name, not by position."""
    state = GAME.state_from_dict(old_record("solo-round5-ok"))
    solo = state.solo
    assert isinstance(solo, SoloState) and solo.asks == "ok"
    assert solo.tune.harder_guards and solo.tune.harder_scheme
    unit, end = solo.agenda
    assert isinstance(unit, Unit) and unit.verb == "unit" and end.verb == "end"
    assert (unit.rank, unit.colour, unit.loc) == (1, 2, 3)
    assert solo.marks[0] == tuple(old_record("solo-round5-ok")["solo_marks"][:3])
    copy = state.clone()
    assert copy.solo is not solo and copy.solo.agenda == solo.agenda
    copy.solo.agenda.pop()
    assert len(solo.agenda) == 2  # a clone's agenda is its own


def test_a_multiplayer_record_has_no_solo_keys() -> None:
    state = GAME.state_from_dict(old_record("round9-journey"))
    assert state.solo is None
    assert not {"asks", "agenda", "solo_marks"} & set(state.to_dict())


def test_the_final_scores_are_named() -> None:
    state = GAME.state_from_dict(old_record("solo-harder-over"))
    assert state.is_over() and all(isinstance(f, FinalScore) for f in state.final)
    human = state.final[0]
    assert human.time_vp == state.time[0] // 2 and human.scheme_vp == state.scheme_vp(0)
