"""Seat kinds: who decides for a seat and where a seat's rules differ.

Every decision of a seat (the free Debutant before round 1, each turn of the
Perform Actions phase, a Rush in progress, Giovanni's claims, the last
discards) goes through the seat's kind, and so do the few rule steps where the
solo rules treat Palla Strozzi differently (time gained, scandals received,
Giovanni's awards, the cleanup). A human seat decides everything itself. The solo
automa, Palla Strozzi (`solo.py`), is another kind registered here: its turns are
card draws (CHANCE) resolved by its own steps, the human confirms its steps, and it
overrides the hooks, without the phase code changing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.core import Event

if TYPE_CHECKING:
    from .rules import FlorenceState


class SeatKind:
    """A human at the table: the seat itself answers every decision."""

    name = "player"

    def actor(self, state: FlorenceState, seat: int) -> int:
        """Who gives the input for `seat`'s decision: the seat, or CHANCE for a card draw."""
        return seat

    def texts(self, state: FlorenceState, seat: int) -> Sequence[str]:
        """Notation of everything `seat` may do now (the phase decides what is asked)."""
        return state.decision_texts(seat)

    def apply(self, state: FlorenceState, seat: int, text: str, events: list[Event]) -> None:
        """Carry out one legal decision of `seat`."""
        state.apply_decision(seat, text, events)

    def weights(self, state: FlorenceState, seat: int) -> list[float] | None:
        """Chance weights when `actor` is CHANCE (the automa's card deck); None = uniform."""
        return None

    def acts(self, state: FlorenceState, seat: int, events: list[Event]) -> bool:
        """Steps the seat takes by itself when its turn comes; True when it then waits for
        input (a human always does)."""
        return True

    def time_gained(self, state: FlorenceState, seat: int, amount: int) -> int:
        """Time this seat gains in the Gain Time phase (the automa has a floor)."""
        return amount

    def takes_scandal(
        self, state: FlorenceState, seat: int, noble: int, events: list[Event]
    ) -> bool:
        """True when the seat takes an earned scandal card; a kind that rewards it
        otherwise does so here and returns False."""
        return True

    def earns_scandals(
        self, state: FlorenceState, seat: int, noble: int, events: list[Event]
    ) -> None:
        """Called once at each location where the Noble owes the seat scandal cards, before
        they are drawn (the automa gains its time here)."""

    def affords(self, state: FlorenceState, seat: int, cost: int) -> bool:
        """Can the seat be offered a Giovanni award of `cost` time? (Discards count.)"""
        return state.time[seat] + len(state.hands[seat]) >= cost

    def offered(self, state: FlorenceState, seat: int, events: list[Event]) -> bool:
        """A Giovanni award is offered to the seat; True when it decides (the automa claims
        at once)."""
        return True

    def cleanup(self, state: FlorenceState, seat: int) -> None:
        """The seat's own part of the Cleanup phase (the automa's deck)."""

    def has_scheme(self, state: FlorenceState, seat: int) -> bool:
        """Whether a scheme card is dealt to (and revealed for) this seat."""
        return True


SEAT_KINDS: dict[str, SeatKind] = {"player": SeatKind()}
"""Registered seat kinds by name; a state stores each seat's kind name."""
