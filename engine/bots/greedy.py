"""The greedy bot: one step ahead, judged by a per-game evaluation of what the seat sees.

One mechanism for every game: each legal action is tried on a determinization of the
position (engine.core.hidden), and the seat's observation afterwards is given a value by
the game's evaluation; the best action is played (ties broken by `rng`). An evaluation
reads the observation only, so the bot knows what its seat knows. Each evaluation is the
seat's standing minus the best other seat's, in the game's own currency:

- Strozzi: money is secret, so the seat counts its own and the other seats' *public*
  payouts. To that it adds what the board promises: 2 per space of its markers on the
  city tracks (markers score at every round's end), 3 per ship it has at a port this
  round (ships score) and 2 per progress token held.
- Florence: Victory Points, plus a quarter point per unit of time (time buys actions and
  scores at the end) and half a point per scandal card in hand.
- Strada Romana: Victory Points count 5, coins 1 (5 coins change into a Victory Point).

These are heuristics, not the rulebooks' scoring: a greedy seat that plays well enough
to be worth beating, and fast.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.core import Action, Observation, State

from .base import Trail, leaders_share, outcome

Evaluation = Callable[[Observation, int], list[float]]
"""Observation of a seat, that seat -> a standing per seat (the seat's own from its
secrets, the others' from what is public)."""


def _strozzi(obs: Observation, seat: int) -> list[float]:
    paid = [0.0] * obs.players
    for p in obs.payouts:  # type: ignore[attr-defined]
        paid[p.seat] += p.points
    own_money = getattr(obs, "money", None)
    if own_money is not None:
        paid[seat] = float(own_money)
    board = [0.0] * obs.players
    for track in obs.tracks:  # type: ignore[attr-defined]
        for s, space in enumerate(track.positions):
            board[s] += 2.0 * space
    for port in obs.ports:  # type: ignore[attr-defined]
        for entry in port.ships:
            board[entry.seat] += 3.0
    for s, held in enumerate(obs.tokens):  # type: ignore[attr-defined]
        board[s] += 2.0 * len(held)
    return [m + b for m, b in zip(paid, board, strict=True)]


def _florence(obs: Observation, seat: int) -> list[float]:
    return [
        b.vp + b.time / 4 + b.hand_size / 2
        for b in obs.boards  # type: ignore[attr-defined]
    ]


def _strada_romana(obs: Observation, seat: int) -> list[float]:
    return [
        5.0 * h.victory_points + h.coins
        for h in obs.holdings  # type: ignore[attr-defined]
    ]


EVALUATIONS: dict[str, Evaluation] = {
    "strozzi": _strozzi,
    "florence": _florence,
    "strada_romana": _strada_romana,
}
"""The evaluation of each game, by `Game.name`."""


def evaluate(state: State, seat: int) -> float:
    """`seat`'s standing minus the best other seat's, from `state.observe(seat)`."""
    obs = state.observe(seat)
    if obs.over:
        won = obs.winner
        return 1e6 if seat in won else -1e6
    standing = EVALUATIONS[state.game.name](obs, seat)
    others = [v for s, v in enumerate(standing) if s != seat]
    return standing[seat] - max(others, default=0.0)


def judge(world: State, seat: int) -> list[float]:
    """Each seat's share of a win in an unfinished `world` (a determinization), judged by
    the game's evaluation from `seat`'s observation: the best standings share it, as
    `outcome` shares a finished game's win. For a search that stops its playouts early."""
    standing = EVALUATIONS[world.game.name](world.observe(seat), seat)
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
