"""Determinization: a state as one seat may believe it to be.

A bot that searches ahead needs whole states, but a seat knows only its observation.
`Game.determinize(state, seat, rng)` gives a copy of `state` in which everything the seat
could not see is re-sampled from what is still possible given what it can: other seats'
secrets redealt from the pool they were drawn from. The order of a deck is never in a
state (chance is input: a draw is a chance action whose outcomes are the cards still
possible), so nothing of it has to be hidden.

The result must depend on the seat's knowledge and `rng` only, never on the secrets it
replaces: `redeal` sorts its pool before drawing, so two states that differ only in
another seat's secret give the same determinization for the same `rng`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def redeal(slots: Sequence[int], pool: Sequence[T], rng: random.Random) -> tuple[list[T], list[T]]:
    """Deal `sum(slots)` items of `pool` at random: (the dealt items in slot order, the
    items left). `pool` is sorted first, so the deal depends on its contents alone, not on
    the order (or the owners) the items had before."""
    items = sorted(pool)  # type: ignore[type-var]
    rng.shuffle(items)
    dealt = sum(slots)
    if dealt > len(items):
        raise ValueError(f"cannot deal {dealt} items from a pool of {len(items)}")
    return items[:dealt], items[dealt:]
