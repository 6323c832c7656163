"""Playing a game out with a policy, bounded.

A rulebook may allow play that never ends (Strada Romana's wagons can shuffle
sideways in a traffic jam for as long as the players pay for it), so every
automatic playout (selfplay, benchmarks, bots, tests) stops at a bound and says
so, instead of hanging.
"""

from __future__ import annotations

import random
from collections.abc import Callable

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
    playout does not need: no `Action` objects, no legality re-check of an action taken
    from the legal texts, no cached tuple of legal actions. The history is still kept.
    A game's rules still build their events (they are discarded)."""
    apply = state._apply
    history = state.history
    for _ in range(limit):
        player = state.current_player()
        if player is None:
            return True
        texts = state._legal_texts()
        if player == CHANCE:
            weights = state.chance_weights() or [1.0] * len(texts)
            total = float(sum(weights))
            text = rng.choices(texts, [w / total for w in weights])[0]
        else:
            text = texts[rng.randrange(len(texts))]
        state._legal = None
        apply(text)
        history.append(Action(player, text))
    return state.is_over()
