"""Solo options: the difficulty presets and switches, the confirmation step, and the solo
notation's refusals."""

from __future__ import annotations

import json

import pytest

from engine.core import CHANCE, IllegalAction, derive, random_action
from engine.florence.solo import EASIER, HARDER

from .helpers import DATA, GAME, new_game, play
from .solo_helpers import HUMAN, STROZZI, solo_game, steps, texts

SWITCHES = (*EASIER, *HARDER)


def test_the_difficulty_presets_turn_on_one_list_of_the_rulebook() -> None:
    """'For an easier game, try some of these adjustments' / 'If you find it too easy to
    beat, try these adjustments': every adjustment is a switch; a preset turns on its list."""
    assert len(EASIER) == 5 and len(HARDER) == 6
    normal = GAME.resolve_options(1, {})
    assert normal["difficulty"] == "normal" and not any(normal[k] for k in SWITCHES)
    easier = GAME.resolve_options(1, {"difficulty": "easier"})
    assert all(easier[k] for k in EASIER) and not any(easier[k] for k in HARDER)
    harder = GAME.resolve_options(1, {"difficulty": "harder"})
    assert all(harder[k] for k in HARDER) and not any(harder[k] for k in EASIER)
    mixed = GAME.resolve_options(1, {"difficulty": "harder", "harder_scheme": False})
    assert not mixed["harder_scheme"] and mixed["harder_guards"]
    with pytest.raises(ValueError, match="difficulty must be one of"):
        GAME.resolve_options(1, {"difficulty": "nightmare"})
    with pytest.raises(ValueError, match="must be one of"):
        GAME.resolve_options(1, {"easier_time": "yes"})


def test_options_are_recorded_so_a_replay_reproduces_the_game() -> None:
    state = GAME.new_state(1, seed=5, options={"difficulty": "harder"}, data=DATA)
    rng = derive(5, "replay")
    while not state.is_over():
        state.apply(random_action(state, rng))
    record = json.loads(json.dumps(state.to_dict()))
    assert all(record["options"][k] for k in HARDER)
    # the recorded options alone, without the preset, give the same game
    options = {k: v for k, v in record["options"].items() if k != "difficulty"}
    replay = GAME.new_state(1, seed=5, options=options, data=DATA)
    for _, text in record["history"]:
        replay.apply(text)
    assert replay.vp == state.vp and replay.to_dict()["options"] == {
        **record["options"],
        "difficulty": "normal",
    }
    restored = GAME.state_from_dict(record, data=DATA)
    assert restored.solo.tune == state.solo.tune and restored.vp == state.vp


def test_solo_options_change_nothing_in_a_multiplayer_game() -> None:
    plain = new_game(2, placements=(9, 5))
    tuned = new_game(2, placements=(9, 5), options={"difficulty": "harder"})
    assert tuned.automa == -1 and tuned.seats == tuned.players == 2
    rng_a, rng_b = derive(1, "m"), derive(1, "m")
    for _ in range(300):
        if plain.is_over():
            break
        a = random_action(plain, rng_a)
        b = random_action(tuned, rng_b)
        assert a == b
        assert plain.apply(a) == tuned.apply(b)


# --- the confirmation step --------------------------------------------------------------------
def test_each_step_waits_for_the_humans_ok_when_asked() -> None:
    """Strozzi's pieces are moved by the human: each step waits for 'ok' (confirm_automa)."""
    state = solo_game(confirm=True)
    assert state.phase == "placement" and state.current_player() == HUMAN
    play(state, "place 5", "dispatch 2")
    events = play(state, "solo 5")
    assert len(steps(events)) == 1 and texts(state) == ["ok"]
    assert state.turn == STROZZI and state.current_player() == HUMAN
    events = play(state, "ok")
    assert len(steps(events)) == 1 and texts(state) == ["ok"]
    play(state, "ok")
    assert state.turn == HUMAN and "ok" not in texts(state)


def test_setup_steps_wait_for_ok_one_by_one() -> None:
    state = GAME.new_state(1, seed=0, options={}, data=DATA)
    assert state.options["confirm_automa"] is True
    while state.current_player() == CHANCE:
        state.apply(state.legal_actions()[0])
    said = []
    while texts(state) == ["ok"]:
        said.append(state.solo.say)
        play(state, "ok")
    assert len(said) == 5 and said[-1].startswith("Strozzi places a blue Debutant")
    assert texts(state)[0].startswith("place ")


def test_without_confirmation_his_turn_runs_through() -> None:
    state = solo_game(place=5, confirm=False)
    events = play(state, "dispatch 2", "solo 5")
    assert len(steps(events)) == 2 and state.turn == HUMAN


# --- notation and refusals ------------------------------------------------------------------
def test_solo_verbs_are_refused_with_reasons() -> None:
    state = solo_game(place=5, confirm=True)
    with pytest.raises(IllegalAction, match="belongs to Strozzi's turn"):
        state.apply("ok")
    play(state, "dispatch 2", "solo 8")
    with pytest.raises(IllegalAction, match="waits for your ok"):
        state.apply("dispatch 3")
    with pytest.raises(IllegalAction, match="waits for your ok"):
        state.apply("solo 3")
    play(state, "ok", "dispatch 3")
    with pytest.raises(IllegalAction, match="discard pile"):
        state.apply("solo 8")
    with pytest.raises(IllegalAction, match="numbered 1-10"):
        state.apply("solo 11")
    with pytest.raises(IllegalAction, match="It is Strozzi's turn"):
        state.apply("pass 3")


def test_cards_kept_on_top_are_the_only_draws_until_they_are_drawn() -> None:
    """Cleanup: the top 3 cards are put aside and back on top: the next 3 draws are among
    the cards left in his deck at the end of the round."""
    state = solo_game(place=5)
    play(state, "pass 3", "solo 8", "bonus time", "solo 6")
    while state.phase != "actions":
        state.apply(state.legal_actions()[0])
    assert state.solo.top_left == 3
    assert "solo 8" not in texts(state) and "solo 6" not in texts(state)
    with pytest.raises(IllegalAction, match="not among the 3 card"):
        state.apply("solo 8")
    play(state, "solo 9", "pass 3", "solo 10", "bonus time", "solo 7", "bonus time")
    assert state.solo.top_left == 0 and state.current_player() == CHANCE
    assert "solo 8" in texts(state) and "solo 9" not in texts(state)
