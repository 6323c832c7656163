"""Bad input: each refusal is an IllegalAction naming the rule, and changes nothing."""

from __future__ import annotations

import json

import pytest

from engine.core import Action, GameOver, IllegalAction, NotYourTurn, UnknownNotation
from engine.strozzi import GAME

from .helpers import play, started, take


def refused(state, text: str, match: str, player: int | None = None) -> None:
    before = json.dumps(state.to_dict(), sort_keys=True)
    with pytest.raises(IllegalAction, match=match):
        if player is None:
            state.apply(text)
        else:
            state.apply(Action(player, text))
    assert json.dumps(state.to_dict(), sort_keys=True) == before


def test_wrong_seat() -> None:
    state = started(4)
    state.apply("draw 1 gold2 grain1 cloth0 scrolls0 no-token")
    refused(state, "flag pirate", "not seat 3's turn: now it is seat 1's", player=2)
    with pytest.raises(IllegalAction, match="not seat 2's turn"):
        state.parse_action("pass", player=1)


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("sail away", "not Strozzi notation"),
        ("draw", "'draw ' is not a ship card's face: a ship is entered by what its card shows"),
        ("draw 99", "'draw 99' is not a ship card's face \\(ships are no longer numbered\\)"),
        ("draw seven", "draw <sails> gold<n> grain<n> cloth<n> scrolls<n> token|no-token"),
        ("draw 9 gold0 grain0 cloth0 scrolls0 token", "not a ship card's face"),  # 1-8 sails
        ("draw 5 gold0 grain2 cloth2 token", "every word present, like 'draw 1 gold1"),
        ("draw 8 gold3 grain3 cloth3 scrolls2 token", "No ship card in this deck shows an 8-sail"),
    ],
)
def test_unknown_or_malformed_notation(text: str, match: str) -> None:
    state = started(3)
    refused(state, text, match)


def test_unknown_token() -> None:
    refused(GAME.new_state(3), "reveal arts-3", "no progress token 'arts-3'")


def test_ship_already_drawn_this_round() -> None:
    state = started(3)
    play(state, "draw 4 gold2 grain0 cloth0 scrolls2 no-token", "pass", "pass", "pass")
    refused(state, "draw 4 gold2 grain0 cloth0 scrolls2 no-token", "already come up this round")


def test_second_ship_in_the_same_port() -> None:
    """'Each player may place only one ship with his flag in each port during a round.'"""
    state = started(3)
    take(state, "1 gold2 grain1 cloth0 scrolls0 no-token", "pirate", "venice")
    take(state, "2 gold0 grain2 cloth1 scrolls1 no-token", "pirate", "rome")
    take(state, "3 gold1 grain0 cloth1 scrolls0 token", "pirate", "naples")
    play(state, "draw 4 gold2 grain0 cloth0 scrolls2 no-token", "flag plus")
    refused(state, "port venice", "already have a ship in Venice this round")


def test_used_flag() -> None:
    state = started(3)
    take(state, "1 gold2 grain1 cloth0 scrolls0 no-token", "pirate", "venice")
    take(state, "2 gold0 grain2 cloth1 scrolls1 no-token", "pirate", "rome")
    take(state, "3 gold1 grain0 cloth1 scrolls0 token", "pirate", "naples")
    state.apply("draw 4 gold2 grain0 cloth0 scrolls2 no-token")
    refused(state, "flag pirate", "pirate flag is already used this round")
    refused(state, "flag green", "no 'green' flag")


def test_only_a_pirate_flag_seizes_a_flagged_ship() -> None:
    state = started(3)
    play(state, "draw 1 gold2 grain1 cloth0 scrolls0 no-token", "flag plus")
    refused(state, "flag goods", "only be seized with a pirate flag")


def test_florence_is_not_a_port() -> None:
    """'Florence is not considered a port, so a player cannot place a ship there.'"""
    state = started(3)
    play(state, "draw 1 gold2 grain1 cloth0 scrolls0 no-token", "flag pirate")
    refused(state, "port florence", "Florence is not a port")
    refused(state, "port genoa", "no port 'genoa'")


def test_action_of_another_phase() -> None:
    state = started(3)
    state.apply("draw 1 gold2 grain1 cloth0 scrolls0 no-token")
    refused(
        state,
        "port rome",
        r"not possible now. Seat 1 decides on the 1-sail ship \(2 gold, 1 grain\)",
    )
    refused(state, "token arts-2", "not possible now")


def test_action_after_the_game_ended() -> None:
    state = GAME.new_state(3)
    while not state.is_over():
        state.apply(state.legal_actions()[-1])
    refused(state, "draw 5 gold0 grain2 cloth2 scrolls0 token", "The game is over")
    refused(state, "pass", "The game is over", player=0)


def test_a_caller_can_tell_the_failures_apart() -> None:
    """Another seat's move, text that is no Strozzi notation at all, notation that is not
    possible now, and anything after the end: each its own IllegalAction (a ValueError)."""
    state = started(4)
    state.apply("draw 1 gold2 grain1 cloth0 scrolls0 no-token")
    with pytest.raises(NotYourTurn, match="not seat 3's turn"):
        state.apply(Action(2, "flag pirate"))
    with pytest.raises(UnknownNotation, match="not Strozzi notation"):
        state.apply("sail away")
    with pytest.raises(IllegalAction, match="not possible now") as info:
        state.apply("port rome")
    assert type(info.value) is IllegalAction
    with pytest.raises(IllegalAction, match="no 'green' flag") as info:
        state.parse_action("flag green")
    assert type(info.value) is IllegalAction
    over = GAME.new_state(3)
    while not over.is_over():
        over.apply(over.legal_actions()[-1])
    with pytest.raises(GameOver):
        over.apply("draw 5 gold0 grain2 cloth2 scrolls0 token")
    assert issubclass(GameOver, ValueError) and issubclass(UnknownNotation, IllegalAction)
