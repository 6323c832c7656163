"""Florence's Escorts: a bot does not move a piece there and back along its own Escort for
ever.

The rulebook, Move: 'Move (-1 time) Move 1 of your deployed Family Members from their
current location, along a path with a Shield icon on it, to an orthogonally adjacent
location.' and Cosimo's Gift: 'If you move a Family Member along a path occupied by an
Escort of your colour, gain 1 time. ... You must have the time to spend on the movement
before you do it'. A move along one's own Escort costs 1 time and gains it back, so a
seat with 1 time or more can move a lone piece across and back every turn while the
seats that passed take their bonus, and the round never ends. The rules allow it; the
bots' general mechanism (`engine.bots.Trail`, which bounds Strada Romana's jam, see
test_jam.py) stops a bot from playing it.
"""

from __future__ import annotations

from engine.bots import Budget, GreedyBot, IsmctsBot
from engine.core import State
from tests.engine.bots.test_jam import Shuffler, repeats
from tests.engine.florence.helpers import new_game, play

PREFERENCE = ("move", "bonus time", "pass", "")
"""A naive seat's taste: move (the first move in notation order: along its Escort), then
the passed seat's time, then pass."""


def escorted() -> State:
    """Seat 1 (2 players) has its Debutant on location 1 and an Escort on road 1-2; seat 2
    has passed: seat 1 acts, seat 2 takes a bonus, and so on until seat 1 passes."""
    state = new_game(2, placements=(9, 1))
    play(state, "gift cosimo escort 1-2", "pass 8")
    assert [a.text for a in state.legal_actions()][1] == "move 1 debutant1 2"
    return state


def test_a_naive_bot_moves_along_its_escort_for_ever_and_the_trail_stops_it() -> None:
    state = escorted()
    naive, texts = repeats(
        state, [Shuffler(trail=False, preference=PREFERENCE) for _ in range(2)], 400
    )
    assert naive > 390 and state.round == 1  # there and back, turn after turn
    assert {"move 1 debutant1 2", "move 2 debutant1 1"} <= set(texts)
    assert state.time[0] == 10  # each move: -1, then +1 from the own Escort
    state = escorted()
    kept, texts = repeats(
        state, [Shuffler(trail=True, preference=PREFERENCE) for _ in range(2)], 400
    )
    assert kept < naive / 5
    assert "pass" in texts and state.round > 1  # the round ended, and the game goes on


def test_greedy_and_ismcts_bots_do_not_loop_along_their_escort() -> None:
    """A bot valuing a piece alike on both ends of its Escort may come back to a
    position a few times (each time by another action, the trail allows no other), then
    the trail leaves it nothing but what ends the round."""
    state = escorted()
    again, _ = repeats(state, [GreedyBot() for _ in range(2)], 200)
    assert again <= 10 and state.round > 1
    state = escorted()
    bots = [IsmctsBot(Budget(playouts=8), playout_limit=200) for _ in range(2)]
    again, _ = repeats(state, bots, 200)
    assert again <= 10 and state.round > 1
