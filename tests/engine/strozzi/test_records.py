"""Records written before the fields were declared: they load, write back byte for byte, and
their action texts replay to the same position (a journal resumes by replaying them).

`records/round2-pirates.json` was written by the hand-written `_fields()` of the previous
engine: a 4-player game in round 2, a ship waiting for pirates.
"""

from __future__ import annotations

import json
from pathlib import Path

from engine.core import Action, derive, random_action
from engine.strozzi import GAME, Payout, PortEntry

RECORD = Path(__file__).with_name("records") / "round2-pirates.json"
# the data it was recorded with: a record loads only with its own component data
DATA = GAME.load_data(override=RECORD.with_name("data-before-public-track.toml"))


def old_record() -> dict:
    return json.loads(RECORD.read_text(encoding="utf-8"))


def test_an_older_record_loads_and_writes_back_the_same_bytes() -> None:
    old = old_record()
    state = GAME.state_from_dict(old, DATA)
    new = state.to_dict()
    assert new.pop("payouts") == []  # added since: an older record loads without payouts
    assert json.dumps(new) == json.dumps(old)  # key order and every value unchanged
    assert state.phase == "pirates" and state.round == 2
    assert all(isinstance(e, PortEntry) for q in state.ports for e in q)


def test_its_actions_replay_to_the_same_position_with_the_payouts_on_record() -> None:
    old = old_record()
    replay = GAME.new_state(old["players"], seed=old["seed"], options=old["options"], data=DATA)
    for player, text in old["history"]:
        replay.apply(Action(player, text))
    new = replay.to_dict()
    payouts = new.pop("payouts")
    assert json.dumps(new) == json.dumps(old)
    assert payouts and {p[0] for p in payouts} == {1}  # round 1 was scored
    assert sum(p.points for p in replay.payouts) == sum(replay.money)
    assert all(isinstance(p, Payout) for p in replay.payouts)


def test_the_loaded_and_the_replayed_game_play_on_alike() -> None:
    old = old_record()
    loaded = GAME.state_from_dict(old, DATA)
    replay = GAME.new_state(old["players"], seed=old["seed"], options=old["options"], data=DATA)
    for _player, text in old["history"]:
        replay.apply(text)
    rng = derive(3, "records")
    while not replay.is_over():
        action = random_action(replay, rng)
        assert loaded.apply(action) == replay.apply(action)
    assert loaded.is_over() and loaded.scores() == replay.scores()
    assert loaded.winner() == replay.winner()
