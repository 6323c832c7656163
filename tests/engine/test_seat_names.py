"""Every game's prompts name players through the caller's SeatNamer (engine.core.SeatNamer).

At a table player 0 sits wherever the first player joined: a prompt must name the seat the
player sits at, in the table's own spelling, without the table rewriting the words. A game
listed here builds its sentences with the namer; the table's regex fallback is for the rest.
"""

from __future__ import annotations

import pytest

import engine
from engine.core import CHANCE, capital, derive, random_action, seat_name

NAMING = ("strozzi", "florence", "strada_romana")


@pytest.mark.parametrize(
    ("game", "players"), [("strozzi", 4), ("florence", 3), ("florence", 1), ("strada_romana", 3)]
)
def test_describe_names_the_players_with_the_callers_namer(game: str, players: int) -> None:
    assert game in NAMING
    state = engine.get(game).new_state(players, seed=3)
    rng = derive(3, "seat names")
    names = {p: f"seat N{p}rth" for p in range(6)}
    seen = 0
    while not state.is_over():
        default, named = state.describe(), state.describe(names.__getitem__)
        expected = default
        for player, name in names.items():
            expected = expected.replace(capital(seat_name(player)), capital(name))
            expected = expected.replace(seat_name(player), name)
        assert named == expected
        seen += named != default
        state.apply(random_action(state, rng))
    assert seen >= 10  # most prompts name a player


def test_describe_leaves_no_namer_behind() -> None:
    """The namer is the caller's for one call: the next sentence says 'seat N' again."""
    state = engine.get("florence").new_state(3, seed=1)
    while "eat 1" not in state.describe():
        state.apply(random_action(state, derive(1, "x")))
    assert "Ann" in state.describe(lambda p: "Ann")
    assert "Ann" not in state.describe() and "Ann" not in (state.explain("move 99") or "")


def test_capital_keeps_the_rest_of_a_name() -> None:
    assert capital("seat east") == "Seat east" and capital("seat McKay") == "Seat McKay"
    assert capital("") == ""


@pytest.mark.parametrize("game", NAMING)
def test_reasons_given_inside_naming_use_the_callers_names(game: str) -> None:
    """A refusal the table shows (a card read out of turn, an action not this seat's) is
    given inside `state.naming(...)`, and says the table's names, not 'seat N'."""
    from engine.core import NotYourTurn

    state = engine.get(game).new_state(3, seed=2)
    rng = derive(2, "reasons")
    while state.current_player() in (None, CHANCE):
        state.apply(random_action(state, rng))
    me = state.current_player()
    assert me is not None
    other = (me + 1) % 3
    text = state.legal_actions()[0].text
    with state.naming(lambda p: f"seat N{p}rth"), pytest.raises(NotYourTurn) as refused:
        state.parse_action(text, player=other)
    assert f"It is not seat N{other}rth's turn" in str(refused.value)
    assert f"seat N{me}rth" in str(refused.value) and "seat 1" not in str(refused.value)
