"""Game Setup: every random step is a chance action (rulebook: Game Setup 1-7)."""

from __future__ import annotations

import pytest

from engine.core import CHANCE
from engine.strada_romana import GAME

from .helpers import COLOURS, CUBES, WAGONS, legal, play, started


def test_wagons_at_random_on_the_start_squares_turned_towards_the_road() -> None:
    """'Place the 10 wagons at random on the starting squares: 5 on the "Portus" side and
    5 on the "Roma" side. The wagons must be turned towards the road.'"""
    state = GAME.new_state(3)
    assert state.current_player() == CHANCE and state.phase == "wagons"
    assert legal(state) == {f"place {w}" for w in WAGONS}
    assert state.chance_weights() is None  # every wagon equally likely
    play(state, "place persa", "place ballio")
    assert len(legal(state)) == 8 and "place persa" not in legal(state)
    play(state, *(f"place {w}" for w in WAGONS if w not in ("persa", "ballio")))
    wagons = state.to_dict()["wagons"]
    assert wagons["persa"] == ["p1", "rome"] and wagons["ballio"] == ["p2", "rome"]
    assert [wagons[w][1] for w in WAGONS if w not in ("persa", "ballio")][3:] == ["portus"] * 5
    assert state.phase == "wares"


def test_one_ware_tile_of_each_colour_on_the_areas() -> None:
    """'Place 6 "ware" tiles (one of each colour) at random on the dedicated area squares.'"""
    state = GAME.new_state(2)
    play(state, *(f"place {w}" for w in WAGONS))
    assert legal(state) == {f"draw ware {c}" for c in COLOURS}
    state.apply("draw ware green")
    assert "draw ware green" not in legal(state) and len(legal(state)) == 5
    play(state, *(f"draw ware {c}" for c in COLOURS if c != "green"))
    d = state.to_dict()
    assert d["areas"] == dict(
        zip(
            ["I", "II", "III", "IV", "V", "VI"],
            ["green", "yellow", "red", "blue", "brown", "white"],
            strict=True,
        )
    )
    assert set(d["bag"]["tiles"].values()) == {5}  # 'All the remaining ... tiles ... in the bag'


def test_one_cube_at_random_on_each_market_weighted_by_the_bag() -> None:
    """'Place one cube at random on each market-place along the Roman road.'"""
    state = GAME.new_state(2)
    play(state, *(f"place {w}" for w in WAGONS), *(f"draw ware {c}" for c in COLOURS))
    assert state.phase == "cubes"
    assert state.chance_weights() == [6.0] * 6
    play(state, *(f"draw cube {c}" for c in CUBES[:4]))
    assert state.chance_weights() == [5.0, 5.0, 5.0, 5.0, 6.0, 6.0]
    play(state, *(f"draw cube {c}" for c in CUBES[4:]))
    assert state.phase == "wagon_tiles"
    assert sum(1 for c in state.to_dict()["markets"].values() if c) == 14


def test_one_wagon_tile_removed_unseen() -> None:
    """'Remove one of them and put it back into the box without looking at it. Keep the
    other nine face-down in a deck near the board.'"""
    state = GAME.new_state(2)
    play(state, *(f"place {w}" for w in WAGONS), *(f"draw ware {c}" for c in COLOURS))
    play(state, *(f"draw cube {c}" for c in CUBES))
    assert legal(state) == {"remove wagon tile"}  # a physical step, nothing identified
    state.apply("remove wagon tile")
    assert state.phase == "first_player" and state.board.deck == 9


@pytest.mark.parametrize(
    ("players", "first", "coins"),
    [
        (2, 1, [1, 0]),
        (3, 0, [0, 1, 2]),
        (4, 2, [2, 3, 0, 1]),
        (5, 3, [2, 3, 3, 0, 1]),
    ],
)
def test_starting_player_at_random_and_starting_coins(
    players: int, first: int, coins: list[int]
) -> None:
    """'Choose the starting player at random, and then proceed clockwise. ... (no coins are
    given to the starting player)': 1st player 0, 2nd 1, 3rd 2, 4th 3, 5th 3 coins."""
    state = started(players, start=first)
    assert state.coins == coins
    assert state.current_player() == first


def test_the_table_may_choose_the_starting_player() -> None:
    """Option `first`: the draw is skipped when the table has chosen (ruling 1)."""
    state = started(4, options={"first": 2})
    assert state.coins == [2, 3, 0, 1] and state.current_player() == 2
    assert "start seat 3" not in [a.text for a in state.history]
    with pytest.raises(ValueError, match="seat below 3"):
        GAME.new_state(3, options={"first": 4})
