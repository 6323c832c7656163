"""Strozzi's sentences name players through the caller's SeatNamer (engine.core.SeatNamer).

At a table player 0 sits wherever the first player joined: the prompt must name the seat
the player sits at, in the seat's own spelling, without the table rewriting the words.
"""

from __future__ import annotations

import engine
from engine.core import capital, derive, random_action, seat_name


def test_describe_names_the_players_with_the_callers_namer() -> None:
    state = engine.get("strozzi").new_state(4, seed=3)
    rng = derive(3, "seat names")
    names = {0: "seat North", 1: "seat east", 2: "seat South", 3: "seat West"}
    seen = 0
    while not state.is_over():
        default, named = state.describe(), state.describe(names.__getitem__)
        expected = default
        for player, name in names.items():
            expected = expected.replace(capital(seat_name(player)), capital(name))
        assert named == expected
        seen += named != default
        state.apply(random_action(state, rng))
    assert seen >= 20  # most prompts name a player


def test_capital_keeps_the_rest_of_a_name() -> None:
    assert capital("seat east") == "Seat east" and capital("seat McKay") == "Seat McKay"
    assert capital("") == ""
