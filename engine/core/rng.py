"""Seeded randomness for bots and for app-drawn chance.

The engine never draws; these helpers live here so every consumer derives its
streams the same way. `derive(seed, "bot", 2)` gives seat 2's bot a stream
independent of the chance stream, so adding a bot does not change the cards.
"""

from __future__ import annotations

import hashlib
import random
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .action import Action
    from .state import State


def derive(seed: int, *labels: object) -> random.Random:
    """A `random.Random` seeded from `seed` and labels, stable across Python versions."""
    key = ":".join([str(seed), *map(str, labels)]).encode()
    return random.Random(int.from_bytes(hashlib.sha256(key).digest()[:8], "big"))


def draw_chance(state: State, rng: random.Random) -> Action:
    """Draw the outcome of the pending physical draw, weighted as the components are."""
    outcomes = state.chance_outcomes()
    actions = [a for a, _ in outcomes]
    weights = [w for _, w in outcomes]
    return rng.choices(actions, weights)[0]


def random_action(state: State, rng: random.Random) -> Action:
    """A uniformly random legal action (a chance draw is weighted instead)."""
    from .action import CHANCE

    if state.current_player() == CHANCE:
        return draw_chance(state, rng)
    legal = state.legal_actions()
    return legal[rng.randrange(len(legal))]
