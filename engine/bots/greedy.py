"""The greedy bot: one step ahead, judged by the game's evaluation of what the seat sees.

One mechanism for every game: each legal action is tried on a determinization of the
position (engine.core.hidden), and the seat's observation afterwards is given a value by
the game's `Game.evaluate_seats`; the best action is played (ties broken by `rng`). An
evaluation reads the observation only, so the bot knows what its seat knows. The value is
the seat's standing minus the best other seat's, in the game's own currency. Each game
declares its evaluation itself (a heuristic, not the rulebook's scoring: a greedy seat
that plays well enough to be worth beating, and fast); a game that declares none is
judged by its public scores. This module names no game.
"""

from __future__ import annotations

import random

from engine.core import Action, State

from .base import Trail, leaders_share, outcome


def evaluate(state: State, seat: int) -> float:
    """`seat`'s standing minus the best other seat's, from `state.observe(seat)`."""
    obs = state.observe(seat)
    if obs.over:
        won = obs.winner
        return 1e6 if seat in won else -1e6
    standing = state.game.evaluate_seats(obs, seat)
    others = [v for s, v in enumerate(standing) if s != seat]
    return standing[seat] - max(others, default=0.0)


def judge(world: State, seat: int) -> list[float]:
    """Each seat's share of a win in an unfinished `world` (a determinization), judged by
    the game's evaluation from `seat`'s observation: the best standings share it, as
    `outcome` shares a finished game's win. For a search that stops its playouts early."""
    standing = world.game.evaluate_seats(world.observe(seat), seat)
    if len(standing) != world.seats:  # a board the evaluation does not cover: the scores
        return outcome(world)
    return leaders_share(dict(enumerate(standing)), world.seats)


class GreedyBot:
    """The middle of the ladder: the action whose outcome the evaluation likes best."""

    name = "greedy"

    def __init__(self, *, repeats: bool = False) -> None:
        # repeats=True: no trail, so the bot may play a loop again (engine.bots.Trail)
        self.trail = None if repeats else Trail()

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        legal = state.legal_actions() if self.trail is None else self.trail.fresh(state, seat)
        action = self._best(state, seat, rng, legal)
        return action if self.trail is None else self.trail.chosen(state, seat, action)

    def _best(
        self, state: State, seat: int, rng: random.Random, legal: tuple[Action, ...]
    ) -> Action:
        if len(legal) == 1:
            return legal[0]
        world = state.game.determinize(state, seat, rng)
        best: list[Action] = []
        top = float("-inf")
        for action in legal:
            after = world.clone()
            after.apply(action)
            value = evaluate(after, seat)
            if value > top:
                top, best = value, [action]
            elif value == top:
                best.append(action)
        return best[rng.randrange(len(best))]
