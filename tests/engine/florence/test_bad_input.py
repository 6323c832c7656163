"""Illegal input: refused with a sentence naming the rule; the state does not change."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction

from .helpers import new_game, play, queue, snapshot


def refused(state: object, text: str, match: str | None) -> str:
    before = snapshot(state)  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match=match) as info:
        state.apply(text)  # type: ignore[attr-defined]
    assert snapshot(state) == before  # type: ignore[arg-type]
    return str(info.value)


def crowded() -> object:
    """4 players; location 5 holds 7 family members; seat 4 (on 4) is to act."""
    state = new_game(4, placements=(1, 2, 3, 5))
    play(state, "dispatch 5", "dispatch 5", "dispatch 5", "dispatch 4")
    play(state, "dispatch 5", "dispatch 5", "dispatch 5")
    assert len(queue(state, 5)) == 7
    return state


def test_an_eighth_family_member_cannot_join_a_queue() -> None:
    """'7 spaces for player pieces'; Dispatch: 'onto any Location with a vacant queue space'."""
    state = crowded()
    message = refused(state, "dispatch 5", "Location 5 is full")
    assert "eighth" in message


def test_moving_onto_a_full_location() -> None:
    """'If a location has no empty spaces, you may not Move there.'"""
    state = crowded()
    message = refused(state, "move 4 debutant1 5", "Location 5 is full")
    assert "may not Move there" in message


def test_moving_along_the_nobles_only_diagonal() -> None:
    """'the diagonal path through the park in the top left, which is only used by Nobles'."""
    state = new_game(3, placements=(9, 8, 1))
    refused(state, "move 1 debutant1 5", "Only Nobles use the diagonal path between 1 and 5")
    refused(state, "rush 1 debutant1 5", "diagonal")
    refused(state, "move 1 debutant1 9", "not orthogonally adjacent")


def test_a_gift_without_a_family_member_at_the_carriage() -> None:
    """'You must have a Family Member at the location of the Carriage of the Noble you are
    giving the Gift to.'"""
    state = new_game(3, carriages=(1, 7, 9), placements=(9, 8, 5))
    refused(state, "gift cosimo escort 1-2", r"Cosimo's carriage \(location 1\)")
    refused(state, "gift giovanni bouncer 5", "location 9")


def test_a_brag_into_a_full_slot() -> None:
    """'If the position matching your VPs is occupied, place your marker on the next lowest
    empty spot.'"""
    state = new_game(2, tiles={5: "street-cred"}, placements=(4, 5))
    play(state, "dispatch 4", "dispatch 5", "dispatch 6", "dispatch 6", "brag 5 7-12")
    message = refused(state, "brag 5 7-12", "The 7-12 spot on location 5 is taken")
    assert "0-6" in message
    refused(state, "brag 5 13+", "goes on the 0-6 spot")
    play(state, "brag 5 0-6")
    refused(state, "brag 5 0-6", "already have a marker")


def test_paying_time_one_does_not_have() -> None:
    """'each player performs exactly 1 action ... and pays the indicated amount of time.'"""
    state = new_game(2, tiles={5: "street-cred"}, placements=(4, 5))
    play(state, "dispatch 4", "dispatch 5", "dispatch 6", "dispatch 6")
    assert state.time == [4, 4]
    play(state, "brag 5 7-12", "pass 1")
    assert state.time[0] == 3
    refused(state, "dispatch 7", "Dispatch costs 4 time and you have 3")
    refused(state, "promote 5 debutant1", "Promote costs 5 time")


def test_other_refusals_name_their_rule() -> None:
    state = new_game(3, placements=(9, 8, 5))
    refused(state, "promote 5 maestro1", "no maestro in position 1")
    refused(state, "move 8 debutant1 7", "not yours")
    refused(state, "bonus vp", "after you have passed")
    refused(state, "claim", "Giovanni")
    refused(state, "xyzzy", "not Florence notation")
    play(state, "pass 6")
    refused(state, "pass 6", "ring is on location 6")
    refused(state, "pass", "say which")
    play(state, "dispatch 2", "dispatch 3")
    refused(state, "dispatch 4", "cannot perform more actions")


def test_corrupted_notation_is_refused_without_change() -> None:
    """Every legal text with one word replaced or dropped is either legal or refused with
    IllegalAction (explain never fails), and the state does not change."""
    import random

    from engine.core import derive, random_action

    from .helpers import DATA, GAME

    vocab = ["1", "5", "0", "10", "4-5", "1-5", "debutant", "debutant1", "donna2", "maestro9"]
    vocab += ["cosimo", "escort", "spy", "bouncer", "7-12", "13+", "0-6", "journey", "x"]
    for seed in range(4):
        state = GAME.new_state(2 + seed, seed=seed, data=DATA)
        rng, words_rng = derive(seed, "corrupt"), random.Random(seed)
        while not state.is_over():
            legal = {a.text for a in state.legal_actions()}
            words = words_rng.choice(sorted(legal)).split()
            k = words_rng.randrange(len(words))
            if len(words) > 1 and words_rng.random() < 0.3:
                del words[k]
            else:
                words[k] = words_rng.choice(vocab)
            if " ".join(words) not in legal:
                refused(state, " ".join(words), None)
            state.apply(random_action(state, rng))
