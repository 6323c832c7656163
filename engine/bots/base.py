"""The bot protocol, the random bot, and how a finished (or stopped) game is scored."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Protocol

from engine.core import CHANCE, PLAYOUT_LIMIT, Action, State, derive, draw_chance


class Bot(Protocol):
    """A seat player: the action `seat` takes in `state`, where it is `seat`'s turn.

    It may read `state.observe(seat)`, the legal actions (the mover knows its own
    choices) and determinizations of `state` for `seat`; nothing else of the state."""

    name: str

    def choose(self, state: State, seat: int, rng: random.Random) -> Action: ...


class RandomBot:
    """The bottom of the ladder: a uniformly random legal action."""

    name = "random"

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        legal = state.legal_actions()
        return legal[rng.randrange(len(legal))]


def outcome(state: State) -> list[float]:
    """Each seat's share of the win: 1 for a sole winner, 1/k for a win shared by k, 0 for
    the others (a solo game's automa included). A game stopped at a bound is judged by its
    scores as they stand: the best scores share the win, so a playout that never ends
    still tells a search something."""
    seats = state.seats
    if state.is_over():
        won = state.winning_seats()
    else:
        table = dict(state.standings())
        best = max(table.values())
        won = [s for s, v in table.items() if v == best]
    share = 1.0 / len(won) if won else 0.0
    return [share if s in won else 0.0 for s in range(seats)]


def play_game(
    state: State,
    bots: Mapping[int, Bot] | Sequence[Bot],
    seed: int,
    *,
    limit: int = PLAYOUT_LIMIT,
) -> int:
    """Play `state` out with a bot at every seat, chance drawn by weight: the actions
    applied. Stops at `limit` actions (Strada Romana's endless jam), so it always ends;
    the caller tells a stopped game by `state.is_over()`."""
    table = dict(enumerate(bots)) if isinstance(bots, Sequence) else dict(bots)
    chance = derive(seed, "chance")
    streams = {seat: derive(seed, "bot", seat) for seat in table}
    for applied in range(limit):
        player = state.current_player()
        if player is None:
            return applied
        if player == CHANCE:
            action = draw_chance(state, chance)
        else:
            action = table[player].choose(state, player, streams[player])
        state.apply(action)
    return limit
