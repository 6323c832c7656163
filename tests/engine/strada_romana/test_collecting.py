"""Ware tiles, cubes, contracts and coins (rulebook: Wagon's Position and "Ware" Tiles,
Taking "Ware" Tiles, Taking Cubes, Contracts, c) Pass).

Setup of `started()`: areas I-VI hold yellow, red, green, blue, brown, white; the
markets 112, 121, 132, 151, 152, 221, 232, 251, ... hold yellow, red, green, blue,
brown, white, yellow, red, ... so three red cubes lie on the board (121, 251, 352).
"""

from __future__ import annotations

import pytest

from engine.core import CHANCE

from .helpers import arrange, legal, play, refused, started


def collect_options(state) -> set[str]:
    return {t for t in legal(state) if t.startswith("collect")}


@pytest.mark.parametrize(
    ("square", "options"),
    [
        ("111", {"collect tile top"}),
        ("113", {"collect tile top", "collect tile bottom"}),
        ("112", {"collect tile bottom", "collect cube 112"}),
    ],
)
def test_top_middle_and_bottom_squares(square: str, options: set[str]) -> None:
    """'If on a top square, the player can only take a top "ware" tile. If on a middle
    square, the player can choose a top or a bottom "ware" tile. If on a bottom square, the
    player can only take a bottom "ware" tile.'"""
    state = started(4)
    play(state, f"step ballio {square}", "stop")
    assert collect_options(state) == options


def test_goods_only_when_the_wagon_ends_its_move() -> None:
    """'Only when a wagon ends its move on a square can the player immediately take the
    "ware" tile' and the cube of a connected market."""
    state = started(4)
    state.apply("step ballio 112")
    refused(state, "collect cube 112", "only when a wagon ends its move")
    state.apply("stop")
    assert collect_options(state) == {"collect cube 112", "collect tile bottom"}
    state.apply("step canopites 111")  # the next wagon moves: Ballio's chance is gone
    refused(state, "collect cube 112", "only when a wagon ends its move")
    state.apply("stop")
    refused(state, "collect cube 112", "ended its move: 111")
    assert collect_options(state) == {"collect tile top"}


def test_ware_tile_pays_a_coin_per_cube_of_its_colour_and_is_replaced() -> None:
    """'As soon as a "ware" tile is collected, the player takes one coin for each cube of
    the same colour currently on the board.' 'A new "ware" tile is drawn at random from the
    bag to replace the one taken.'"""
    state = started(4)
    play(state, "step ballio 112", "stop")
    events = state.apply("collect tile bottom")  # area II: red
    assert state.coins[0] == 3 and state.tiles[0][1] == 1
    assert [e["coins"] for e in events if e.kind == "ware_taken"] == [3]
    assert state.current_player() == CHANCE and state.phase == "refill"
    assert state.chance_weights() == [5.0] * 6
    state.apply("draw ware blue")
    assert state.to_dict()["areas"]["II"] == "blue" and state.current_player() == 0


def test_cube_from_the_connected_market_pays_nothing_and_is_replaced() -> None:
    """'Only when a wagon ends its move on a square connected to a market can the player
    immediately take the cube placed on the market. A new one is drawn at random from the
    bag to replace the one taken. The player does not receive coins.'"""
    state = started(4)
    play(state, "step ballio 112", "stop", "collect cube 112")
    assert state.coins[0] == 0 and state.cubes[0][0] == 1
    assert state.phase == "refill" and state.chance_weights() == [3.0, 3.0, 4.0, 4.0, 4.0, 4.0]
    state.apply("draw cube green")
    assert state.to_dict()["markets"]["112"] == "green"


@pytest.mark.parametrize("players", [2, 3])
def test_two_or_three_players_take_a_cube_or_a_tile(players: int) -> None:
    """'2-3 Players: during their turn, players must choose between a cube or a tile.'"""
    state = started(players)
    play(state, "step ballio 112", "stop", "collect cube 112", "draw cube red")
    assert not collect_options(state)
    refused(state, "collect tile bottom", "must choose between a cube or a ware tile")
    play(state, "step canopites 113", "stop")
    assert not collect_options(state)


@pytest.mark.parametrize("players", [4, 5])
def test_four_or_five_players_take_a_cube_and_or_a_tile(players: int) -> None:
    """'4-5 players: during their turn, players can take a cube and/or a tile.'"""
    state = started(players)
    play(state, "step ballio 112", "stop", "collect cube 112", "draw cube red")
    assert collect_options(state) == {"collect tile bottom"}
    play(state, "step canopites 113", "step canopites 121")  # 121: a market, area I
    assert collect_options(state) == {"collect tile top"}  # one cube per turn
    refused(state, "collect cube 121", "one cube")
    play(state, "collect tile top")
    assert state.cubes[0][0] == 1 and state.tiles[0][0] == 1


def test_five_coins_change_into_a_victory_point_at_once() -> None:
    """'When a player has 5 coins, he must change them into 1 Victory Point.'"""
    state = arrange(started(4), coins={0: 4})
    play(state, "step ballio 112", "stop")
    events = state.apply("collect tile bottom")
    assert state.coins[0] == 2 and state.vp[0] == 1
    assert any(e.kind == "victory_point" for e in events)


def test_an_empty_bag_leaves_the_market_empty() -> None:
    """When the bag has no cube left there is nothing to draw (ruling 18)."""
    state = started(4)
    d = state.to_dict()
    state = arrange(state, cubes=[d["cubes"][0], d["bag"]["cubes"], *d["cubes"][2:]])
    state = arrange(
        state, bag={"cubes": dict.fromkeys(d["bag"]["cubes"], 0), "tiles": d["bag"]["tiles"]}
    )
    assert not state.invariants()
    play(state, "step ballio 112", "stop", "collect cube 112")
    assert state.phase == "stopped" and state.to_dict()["markets"]["112"] is None
    assert not collect_options(state) or collect_options(state) == {"collect tile bottom"}


def test_the_last_payout_is_taken_in_full_when_the_last_victory_point_goes() -> None:
    """'As soon as a "ware" tile is collected, the player takes one coin for each cube of
    the same colour currently on the board' and 'When a player has 5 coins, he must change
    them into 1 Victory Point': when the payout hands out the 20th victory point, the rest of
    it is still taken; those coins stay with the player (they break a tie) and the game ends
    ('The game ends immediately when all the 20 Victory Points are assigned')."""
    state = arrange(started(4), coins={0: 4}, vp={1: 10, 2: 9})
    play(state, "step ballio 112", "stop")
    events = state.apply("collect tile bottom")  # area II, red: 3 red cubes on the board
    assert state.vp[0] == 1 and sum(state.vp) == 20
    assert state.coins[0] == 4 + 3 - 5
    assert state.is_over() and state.ended == "victory points"
    assert [e.kind for e in events].count("victory_point") == 1


def test_coins_beyond_the_last_victory_point_break_the_tie() -> None:
    """'If two or more players tie, the winner is the player with more coins': the coins of
    the payout that hands out the 20th victory point are the player's, and they can decide
    the game. Seat 1 (3 VP, 4 coins) takes a red ware tile worth 3 coins with one victory
    point left: 4 VP, 2 coins and a loose tile (-1) make 3 points. Seat 2 has 4 VP, a loose
    cube and 1 coin; seats 3 and 4 have 6 VP and three loose cubes: 3 points each too."""
    state = started(4)
    cubes = [dict(held) for held in state.to_dict()["cubes"]]
    cubes[1]["brown"], cubes[2]["brown"], cubes[3]["white"] = 1, 3, 3
    coins = {0: 4, 1: 1, 2: 0, 3: 0}
    state = arrange(state, coins=coins, vp={0: 3, 1: 4, 2: 6, 3: 6}, cubes=cubes)
    play(state, "step ballio 112", "stop")
    state.apply("collect tile bottom")
    assert state.is_over() and (state.vp[0], state.coins[0]) == (4, 2)
    assert state.scores() == [3, 3, 3, 3]
    assert state.winner() == [0]


def test_a_payout_takes_only_the_coins_the_game_has() -> None:
    """Components: '20 coins (yellow)'. Paying in full never hands out a 21st coin: with
    five players holding 4 coins each, the supply is empty and a payout takes nothing."""
    state = arrange(started(5), coins=dict.fromkeys(range(5), 4))
    play(state, "step ballio 112", "stop")
    events = state.apply("collect tile bottom")
    assert [e["coins"] for e in events if e.kind == "ware_taken"] == [3]
    assert [e["missing"] for e in events if e.kind == "coins_short"] == [3]
    assert state.coins == [4] * 5 and sum(state.coins) == 20 and not state.invariants()


def test_the_payout_beyond_the_last_victory_point_breaks_no_invariant() -> None:
    """'the player takes one coin for each cube of the same colour currently on the board'
    and 'The game ends immediately when all the 20 Victory Points are assigned' (ruling
    17): a payout of 6 to a player holding 4 coins with 19 victory points out changes the
    first 5 coins into the 20th point and leaves 5 coins with the player. That is a legal
    end position, so the conformance suite's invariants must accept it."""
    state = started(4)
    d = state.to_dict()
    markets, bag = dict(d["markets"]), {k: dict(v) for k, v in d["bag"].items()}
    for square in ("121", "132", "151"):  # six yellow cubes on the board
        bag["cubes"][markets[square]] += 1
        bag["cubes"]["yellow"] -= 1
        markets[square] = "yellow"
    state = arrange(state, markets=markets, bag=bag, coins={0: 4}, vp={0: 19})
    assert not state.invariants()
    play(state, "step ballio 111", "step ballio 121", "step ballio 131", "collect tile top")
    assert state.is_over() and state.vp[0] == 20 and state.coins[0] == 5
    assert not state.invariants()
