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


def test_the_token_pile_draws_alike_whatever_order_a_record_lists_it_in() -> None:
    """A JSON store may give a record's keys back in another order (the pile is a JSON
    object): the reveals offered, their weights and so the draw the same random stream
    makes stay those of the game that was saved (6 players, seed 0: the case where a
    restored game turned up another token)."""
    state = GAME.new_state(6, seed=0)
    rng = derive(0, "pile order")
    checked = 0
    while not state.is_over():
        if state.phase in ("setup", "reveal"):
            record = state.to_dict()
            record["pile"] = dict(reversed(record["pile"].items()))
            restored = GAME.state_from_dict(json.loads(json.dumps(record)))
            assert restored.legal_actions() == state.legal_actions()
            assert restored.chance_outcomes() == state.chance_outcomes()
            draws = [derive(0, "draw", len(state.history)) for _ in range(2)]
            assert random_action(restored, draws[0]) == random_action(state, draws[1])
            checked += 1
        state.apply(random_action(state, rng))
    assert checked > 3  # the three at setup, and one turned up after a token was taken


def test_a_record_whose_pile_holds_an_unknown_token_is_refused() -> None:
    record = GAME.new_state(3, seed=0).to_dict()
    record["pile"]["no-such-token"] = 1
    with pytest.raises(ValueError, match="unknown tokens: \\['no-such-token'\\]"):
        GAME.state_from_dict(record)
