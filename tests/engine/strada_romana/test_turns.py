"""b) Choose a Wagon Tile, c) Pass, Game End, Score and hidden wagon tiles."""

from __future__ import annotations

import pytest

from .helpers import WAGONS, arrange, legal, play, refused, started

ARRIVED = {w: [None, "portus"] for w in ("persa", "plotus", "pseudolus")}


def near_the_end(options: dict | None = None, held: list | None = None):
    """Three wagons have arrived; Ballio (to Rome) stands on 351, one step from the end."""
    state = arrange(started(4, options=options), wagons={"ballio": "351", **ARRIVED})
    state = arrange(state, arrived=list(ARRIVED))
    if held is not None:
        state = arrange(state, wagon_tiles=[held, [], [], []])
    return state


def test_pass_takes_a_coin_and_ends_the_turn() -> None:
    """'When a player decides to pass, he takes one coin and his turn is finished. If he owns
    5 coins, he must change them into 1 Victory Point as usual.'"""
    state = started(4)
    state.apply("pass")
    assert state.coins[0] == 1 and state.current_player() == 1
    state = arrange(started(4), coins={0: 4})
    state.apply("pass")
    assert (state.coins[0], state.vp[0]) == (0, 1)


def test_at_most_three_wagon_tiles() -> None:
    """'Each player can hold a maximum of three "wagon tiles" (which cannot be discarded).'"""
    state = started(4)
    for _ in range(3):
        play(state, "tile", "pass", "pass", "pass")
    assert len(state.wagon_tiles[0]) == 3 and "tile" not in legal(state)
    refused(state, "tile", "maximum of three wagon tiles")


def test_the_deck_of_nine_runs_out() -> None:
    """'Remove one of them ... Keep the other nine face-down in a deck': nine to share."""
    state = arrange(started(4), wagon_tiles=[[None] * 3, [None] * 3, [None] * 3, []], seat=3)
    assert "tile" not in legal(state)
    refused(state, "tile", "deck is empty")


def test_wagon_tile_entered_when_taken_is_hidden_until_the_end() -> None:
    """'players pick the "wagon tiles" deck up and choose one of them' and 'The "wagon tiles"
    are always kept face down (the other players may know how many each player owns, but not
    which ones).' Option wagon_tiles = when_taken: the chooser enters it, no draw."""
    state = started(4, options={"wagon_tiles": "when_taken"})
    events = state.apply("tile")
    assert state.phase == "wagon_tile" and state.current_player() == 0
    assert state.chance_outcomes() == [] and state.chance_weights() is None
    assert legal(state) == {f"wagon {w}" for w in WAGONS}
    refused(state, "wagon maccus", "not seat 2's turn", player=1)
    events += state.apply("wagon maccus")
    assert state.current_player() == 1 and state.wagon_tiles[0] == [WAGONS.index("maccus")]
    assert not any("maccus" in str(e.data) for e in events)
    assert "maccus" not in state.describe().lower()
    play(state, "tile")
    assert "wagon maccus" not in legal(state) and len(legal(state)) == 9


def test_wagon_tiles_revealed_at_the_end_score_three_or_minus_one() -> None:
    """'When the game ends, all players reveal the "wagon tiles" they own. For each wagon
    that arrives at its destination ... the player holding its tile scores 3 points. For
    each wagon that has not yet arrived, the player holding its tile loses 1 point.'"""
    state = near_the_end(held=[None, None])
    before = state.scores()[0]
    state.apply("step ballio rome")
    # the tiles were chosen by their holder: revealing one is that seat's entry, not a draw
    assert state.phase == "reveal" and state.current_player() == 0
    assert state.chance_outcomes() == []
    assert len(legal(state)) == 10  # any tile but one already revealed
    state.apply("wagon ballio")
    assert "wagon ballio" not in legal(state)
    state.apply("wagon maccus")
    assert state.is_over()
    assert state.scores()[0] == before + 3 - 1


def test_scores_show_no_wagon_tile_before_the_end() -> None:
    state = near_the_end({"wagon_tiles": "when_taken"}, held=["ballio", "maccus"])
    assert state.scores()[0] == 0  # the tiles are known to the engine, not shown
    state.apply("step ballio rome")
    assert state.is_over() and state.scores()[0] == 2


def test_the_game_ends_when_all_victory_points_are_assigned() -> None:
    """'The game ends immediately when all the 20 Victory Points are assigned'."""
    state = arrange(started(4), vp={1: 10, 2: 9}, coins={0: 4})
    events = state.apply("pass")
    assert state.is_over() and state.ended == "victory points"
    assert sum(state.vp) == 20 and any(e.kind == "game_over" for e in events)


@pytest.mark.parametrize(
    ("coins", "last", "winner"),
    [
        ([3, 2, 0, 0], [5, 6, 7, 8], [0]),  # more coins
        ([2, 2, 0, 0], [5, 6, 7, 8], [0]),  # seat 2 played after seat 1
        ([2, 2, 0, 0], [9, 6, 7, 8], [1]),  # seat 0 played last this time
        ([2, 2, 2, 0], [9, 6, 7, 8], [1]),  # three tied: the two who played last lose
    ],
)
def test_tie_breaks(coins: list[int], last: list[int], winner: list[int]) -> None:
    """'If two or more players tie, the winner is the player with more coins. If there is
    still a tie, the player that played last loses.'"""
    state = arrange(started(4), vp={0: 3, 1: 3, 2: 3, 3: 1}, last=last)
    state = arrange(state, coins=dict(enumerate(coins)))
    assert state.winner() == winner


@pytest.mark.parametrize("players", [2, 5])
def test_a_table_that_only_passes_still_ends(players: int) -> None:
    """Every pass gives a coin and every five coins a victory point, so passing seats end
    the game by handing out the 20 victory points (random play is the conformance suite's)."""
    state = started(players)
    turns = 0
    while not state.is_over():
        state.apply("tile" if "tile" in legal(state) else "pass")
        turns += 1
        while state.phase == "reveal":
            state.apply(sorted(legal(state))[0])
    assert state.ended == "victory points" and sum(state.vp) == 20
    assert turns <= 100 + 9  # 100 coins make the 20 points; at most 9 tiles
