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

import math
import random

from engine.core import Action, State

from .base import Trail, outcome


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
    """Each seat's reward in an unfinished `world` (a determinization), judged by the
    game's evaluation from `seat`'s observation: its margin over the best other seat, as
    a share between 0 and 1 (`margin_share`), so a bigger lead is worth more. For a
    search that stops its playouts early: a win-or-lose judgement there gave every
    action that kept the seat in the lead the same reward, passing included."""
    standing = world.game.evaluate_seats(world.observe(seat), seat)
    if len(standing) != world.seats:  # a board the evaluation does not cover: the scores
        return outcome(world)
    return margin_share(standing, world.game.margin)


def margin_share(standing: list[float], margin: float) -> list[float]:
    """Each seat's lead over the best other seat (negative when behind) through a
    logistic curve: 0.5 for level, about 0.73 for a lead of `margin`, 0.27 behind by it."""
    out = []
    for s, value in enumerate(standing):
        best_other = max((v for o, v in enumerate(standing) if o != s), default=value)
        lead = max(-50.0, min(50.0, (value - best_other) / margin))
        out.append(1.0 / (1.0 + math.exp(-lead)))
    return out


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
