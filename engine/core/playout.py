"""Playing a game out with a policy, bounded.

A rulebook may allow play that never ends (Strada Romana's wagons can shuffle
sideways in a traffic jam for as long as the players pay for it), so every
automatic playout (selfplay, benchmarks, bots, tests) stops at a bound and says
so, instead of hanging.
"""

from __future__ import annotations

import random
from bisect import bisect
from collections.abc import Callable
from itertools import accumulate, repeat
from operator import truediv

from .action import CHANCE, Action
from .rng import random_action
from .state import State

PLAYOUT_LIMIT = 20_000
"""Actions after which a playout stops: far beyond any real game (a random game takes a
few hundred actions, the longest seen a few thousand)."""

Policy = Callable[[State, random.Random], Action]


def play_out(
    state: State,
    rng: random.Random,
    *,
    limit: int = PLAYOUT_LIMIT,
    policy: Policy = random_action,
) -> bool:
    """Apply the policy's actions until the game ends or `limit` actions have been applied
    in this call. True if the game is over; False for a playout stopped at the bound."""
    for _ in range(limit):
        if state.is_over():
            return True
        state.apply(policy(state, rng))
    return state.is_over()


def fast_play_out(state: State, rng: random.Random, *, limit: int = PLAYOUT_LIMIT) -> bool:
    """`play_out` with the random policy, for search: the same games (the same rng draws,
    so the same actions and scores, `tests/engine/test_fast_playout.py`) without what a
    playout does not need: no new `Action` objects (each is made once, `_action`), no
    legality re-check of an action taken from the legal texts, no cached tuple of legal
    actions, no events where the game can skip them (`State._apply_quietly`), and a
    chance draw's cumulative weights summed in C and bisected as `random.choices` does,
    without its checks and keyword handling (a tenth of a random Strozzi game). The
    history is kept."""
    apply, legal_texts, current = state._apply_quietly, state._legal_texts, state.current_player
    randrange, uniform = rng.randrange, rng.random
    append, actions = state.history.append, _ACTIONS
    for _ in range(limit):
        player = current()
        if player is None:
            return True
        texts = legal_texts()
        if player == CHANCE:
            weights = state.chance_weights() or [1.0] * len(texts)
            # draw_chance's draw exactly: the weights over their float total, accumulated,
            # and the one draw `random.choices` makes from them (its own arithmetic)
            total = float(sum(weights))
            cum = list(accumulate(map(truediv, weights, repeat(total))))
            text = texts[bisect(cum, uniform() * (cum[-1] + 0.0), 0, len(cum) - 1)]
        else:
            text = texts[randrange(len(texts))]
        state._legal = None
        apply(text)
        action = actions.get((player, text))
        append(action if action is not None else _action(player, text))
    return state.is_over()


_ACTIONS: dict[tuple[int, str], Action] = {}
"""Actions made by `fast_play_out`, shared: an `Action` is immutable, and making one costs
as much as a small rule's effect. Bounded by `_ACTIONS_KEPT`."""
_ACTIONS_KEPT = 100_000


def _action(player: int, text: str) -> Action:
    key = (player, text)
    action = _ACTIONS.get(key)
    if action is None:
        if len(_ACTIONS) >= _ACTIONS_KEPT:
            _ACTIONS.clear()
        action = _ACTIONS[key] = Action(player, text)
    return action
