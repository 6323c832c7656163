"""Bad input: each refusal is an IllegalAction naming the rule, and changes nothing."""

from __future__ import annotations

import pytest

from engine.core import derive, random_action
from engine.strada_romana import GAME

from .helpers import arrange, play, refused, started


def test_moving_backwards() -> None:
    state = arrange(started(4), wagons={"ballio": "141", "maccus": "231"})
    refused(state, "step ballio 131", "Wagons never move backwards: Ballio is heading to Rome")
    refused(state, "step maccus 241", "Wagons never move backwards: Maccus is heading to Portus")
    refused(state, "step ballio portus", "never move backwards")
    refused(state, "step ballio p1", "cannot go back to a start square")


def test_moving_onto_an_occupied_square() -> None:
    state = arrange(started(4), wagons={"ballio": "141", "canopites": "151"})
    refused(state, "step ballio 151", "never be more than one wagon on a square: Canopites")


def test_a_fourth_step_without_paying() -> None:
    state = started(4)
    play(state, "step ballio 111", "step ballio 121", "step ballio 131")
    assert state.used == 3 and state.phase == "stopped"  # area I is there to collect
    refused(state, "step canopites 111", "a fourth step needs the extra move")


def test_a_special_move_without_the_coins() -> None:
    state = started(4)  # the starting player has no coin
    refused(state, "buy sideways", "The sideways move costs 1 coin and Seat 1 has 0 coins")
    state = arrange(state, coins={0: 3})
    refused(state, "buy stacking", "costs 4 coins and Seat 1 has 3 coins")


def test_a_fourth_wagon_tile() -> None:
    state = arrange(started(4), wagon_tiles=[[None] * 3, [], [], []])
    refused(state, "tile", "maximum of three wagon tiles")


@pytest.mark.parametrize("players", [2, 3])
def test_both_a_cube_and_a_tile_with_two_or_three_players(players: int) -> None:
    state = started(players)
    play(state, "step ballio 112", "stop", "collect tile bottom", "draw ware red")
    refused(state, "collect cube 112", "2-3 players a player must choose between a cube or")


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("drive ballio 111", "not Strada Romana notation"),
        ("step", "A step is written 'step WAGON SQUARE'"),
        ("step nero 111", "There is no wagon 'nero'"),
        ("step ballio 999", "There is no square '999'"),
        ("step ballio 121", "No line links p1 to 121|a square at a time"),
        ("buy teleport", "The special moves"),
        ("pass now", "'pass' takes no more words"),
        ("collect cube 112", "only when a wagon ends its move on a square"),
        ("stop", "No wagon is moving"),
        ("draw cube red", "not possible now"),
    ],
)
def test_unknown_or_malformed_notation(text: str, match: str) -> None:
    refused(started(4), text, match)


def test_wrong_seat_and_chance_steps() -> None:
    state = started(4)
    refused(state, "pass", "not seat 2's turn", player=1)
    play(state, "step ballio 112", "stop", "collect cube 112")
    refused(state, "draw cube purple", "There is no colour 'purple'")
    refused(state, "draw ware red", "This draw is not a ware")
    refused(state, "end", "not possible now")


FUZZED = 300
"""Actions of each game the explanations are fuzzed at."""


def test_explanations_never_fail_on_any_words() -> None:
    """Every refusal has a sentence, whatever words are typed, in every phase met in play."""
    words = ["step", "ballio", "111", "rome", "collect", "cube", "tile", "top", "buy", "extra"]
    words += ["draw", "ware", "wagon", "place", "start", "seat", "9", "stop", "end"]
    rng = derive(3, "fuzz")
    for seed in range(4):
        state = GAME.new_state(2 + seed % 4, seed=seed, options={"wagon_tiles": "when_taken"})
        for _ in range(FUZZED):  # the phases of play all come round well within it
            if state.is_over():
                break
            legal = {a.text for a in state.legal_actions()}
            for _ in range(4):
                text = " ".join(rng.choice(words) for _ in range(rng.randint(1, 4)))
                if text not in legal:
                    refused(state, text, ".")
            state.apply(random_action(state, rng))
