"""Records of numbered ship cards are refused in a sentence; records of faces round-trip.

`records/round2-pirates.json` was written when ships were `draw 1` ... `draw 29`: a 4-player
game in round 2, a ship waiting for pirates. Ships are now entered by their face, and the
component data changed with them, so such a game cannot resume: loading it or replaying its
actions must say so in words, never fail with a traceback.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.core import Action, IllegalAction, derive, random_action
from engine.strozzi import GAME, PortEntry

RECORD = Path(__file__).with_name("records") / "round2-pirates.json"
# the track it was recorded with; its ship cards had numbers, which no data has now
DATA = GAME.load_data(override=RECORD.with_name("data-before-public-track.toml"))


def old_record() -> dict:
    return json.loads(RECORD.read_text(encoding="utf-8"))


def test_an_older_record_is_refused_for_its_other_data() -> None:
    with pytest.raises(ValueError, match="recorded with other component data"):
        GAME.state_from_dict(old_record(), DATA)


def test_an_older_record_without_a_digest_is_refused_in_a_sentence() -> None:
    old = old_record()
    del old["data"]  # nothing tells the data apart: the numbered ships do
    with pytest.raises(ValueError, match=r"ship cards were numbered \('draw 7'\).*start a new"):
        GAME.state_from_dict(old, DATA)


def test_its_actions_replay_up_to_the_first_numbered_ship_which_is_refused() -> None:
    old = old_record()
    replay = GAME.new_state(old["players"], seed=old["seed"], options=old["options"], data=DATA)
    history = [Action(p, t) for p, t in old["history"]]
    first_draw = next(i for i, a in enumerate(history) if a.text.startswith("draw "))
    for action in history[:first_draw]:  # the token reveals still mean what they meant
        replay.apply(action)
    assert replay.phase == "draw" and len(replay.face_up) == 3
    with pytest.raises(IllegalAction, match=r"'draw 10' is not a ship card's face \(ships are no"):
        replay.apply(history[first_draw].text)


def test_a_record_of_faces_loads_writes_back_the_same_bytes_and_plays_on_alike() -> None:
    state = GAME.new_state(4, seed=11, options={"first": 2})
    rng = derive(11, "records")
    while state.round < 2 or state.phase != "pirates":
        state.apply(random_action(state, rng))
    record = state.to_dict()
    loaded = GAME.state_from_dict(json.loads(json.dumps(record)))
    assert json.dumps(loaded.to_dict()) == json.dumps(record)
    assert loaded.ship == state.ship and isinstance(loaded.ship, str)
    assert all(
        isinstance(e, PortEntry) and isinstance(e.ship, str) for q in loaded.ports for e in q
    )
    while not state.is_over():
        action = random_action(state, rng)
        assert loaded.apply(action) == state.apply(action)
    assert loaded.scores() == state.scores() and loaded.winner() == state.winner()
