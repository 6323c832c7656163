"""Strada Romana's traffic jam: a bot does not shuffle wagons back and forth for ever.

'If the wagons are blocked, a traffic jam is formed. A player can buy a special move to
solve the jam. If possible, he must make his three moves as usual. If the player cannot
or does not want to pay to move, he can choose a wagon tile, or pass, taking a coin.'
and 'Special Moves can be performed ... as many times as wished during the turn': a
seat that buys the sideways move every turn can move Ballio, Persa and Plotus round the
same squares and back, and the game never ends (docs/strada-romana-rulings.md, 25).
"""

from __future__ import annotations

import random

from engine.bots import Budget, GreedyBot, IsmctsBot, Trail
from engine.core import CHANCE, Action, State, derive, draw_chance
from tests.engine.strada_romana.helpers import arrange, started
from tests.engine.strada_romana.test_movement import JAM

PREFERENCE = ("buy sideways", "step", "end", "pass", "tile", "")
"""A naive seat's taste: buy the sideways move whenever it can and move."""


class Shuffler:
    """The naive bot: always its most preferred legal action by `preference` (the
    beginnings of action texts, best first; then notation order); with `trail`, the same
    taste among the actions the general mechanism (`Trail`) leaves it."""

    name = "shuffler"

    def __init__(self, trail: bool, preference: tuple[str, ...] = PREFERENCE) -> None:
        self.trail = Trail() if trail else None
        self.preference = preference

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        legal = state.legal_actions() if self.trail is None else self.trail.fresh(state, seat)
        action = min(legal, key=self._taste)
        return action if self.trail is None else self.trail.chosen(state, seat, action)

    def _taste(self, action: Action) -> tuple[int, str]:
        rank = next(i for i, p in enumerate(self.preference) if action.text.startswith(p))
        return rank, action.text


def jammed() -> State:
    """The jam found in play (no wagon can take a plain step), 2 coins at every seat."""
    return arrange(started(4), wagons=JAM, coins={seat: 2 for seat in range(4)})


def repeats(state: State, bots: list, actions: int) -> tuple[int, list[str]]:
    """How often the table is back in a position it has been in (the public
    observation), over `actions` actions, and the texts played."""
    seen: set[str] = set()
    start = len(state.history)
    again = 0
    chance = derive(1, "chance")
    for i in range(actions):
        player = state.current_player()
        if player is None:
            break
        key = repr(state.observe())
        again += key in seen
        seen.add(key)
        if player == CHANCE:
            action = draw_chance(state, chance)
        else:
            action = bots[player].choose(state, player, derive(i, "bot"))
        state.apply(action)
    return again, [a.text for a in state.history[start:]]


def test_a_naive_bot_shuffles_for_ever_and_the_trail_stops_it() -> None:
    naive, _ = repeats(jammed(), [Shuffler(trail=False) for _ in range(4)], 400)
    assert naive > 350  # a sideways shuffle and back, turn after turn
    state = jammed()
    kept, texts = repeats(state, [Shuffler(trail=True) for _ in range(4)], 400)
    assert kept < naive / 5
    # once every arrangement has been seen, the seats turn to what changes the game
    assert "pass" in texts


def test_greedy_and_ismcts_bots_do_not_loop_in_the_jam() -> None:
    """With their trail (the default) neither bot brings the table back to a position it
    has been in; greedy seats end the game, ISMCTS seats take tiles and pass (the jam
    stays, as the rulebook allows: `play_game`'s limit bounds such a game)."""
    state = jammed()
    again, texts = repeats(state, [GreedyBot() for _ in range(4)], 400)
    assert again == 0 and state.is_over()
    bots = [IsmctsBot(Budget(playouts=4), playout_limit=200) for _ in range(4)]
    again, texts = repeats(jammed(), bots, 200)
    assert again == 0 and "pass" in texts


def test_a_trail_starts_again_with_a_new_game() -> None:
    trail = Trail()
    state = jammed()
    trail.fresh(state, 0)
    state.apply(state.legal_actions()[0])
    trail.fresh(state, 1)
    assert len(trail.seen) == 2
    trail.fresh(jammed(), 0)  # a shorter history: another game
    assert len(trail.seen) == 1


def test_a_trail_rebuilt_from_the_history_is_the_one_a_bot_kept() -> None:
    """A table's bot decides from the game's history (`Trail.of_game`, through `decide`):
    after a restart or an undo it avoids the loops it would have avoided, and the same
    position gives the same move however often it is asked."""
    import engine
    from engine.bots import decide

    state = engine.get("strada_romana").new_state(3, seed=4)
    bots = [GreedyBot() for _ in range(3)]
    chance = derive(2, "chance")
    for i in range(300):
        player = state.current_player()
        if player is None:
            break
        if player == CHANCE:
            state.apply(draw_chance(state, chance))
        else:
            state.apply(bots[player].choose(state, player, derive(i, "bot")))
    for seat in range(3):
        kept = bots[seat].trail
        assert kept is not None and kept.seen
        assert Trail.of_game(state, seat).seen == kept.seen
    player = state.current_player()
    if player is not None and player >= 0:
        fresh = GreedyBot()
        first = decide(fresh, state, player)
        assert decide(fresh, state, player) == first  # not what the object noted meanwhile
