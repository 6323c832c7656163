"""Florence for 2-5 players, or solo against Palla Strozzi: family members queue at
parties, Nobles tour the city (rulebook: shared/rules/florence.txt; one unit per heading,
docs/rules-index.md)."""

from .observation import (
    Board,
    FlorenceObservation,
    FlorenceSeatObservation,
    GiovanniOffer,
    Location,
    Noble,
    Piece,
    Road,
    Strozzi,
)
from .rules import FLOW, PHASES, RULEBOOK, TRANSITIONS, FlorenceGame, FlorenceState
from .seats import SEAT_KINDS, SeatKind

GAME = FlorenceGame()

__all__ = [
    "FLOW",
    "GAME",
    "PHASES",
    "RULEBOOK",
    "SEAT_KINDS",
    "TRANSITIONS",
    "Board",
    "FlorenceGame",
    "FlorenceObservation",
    "FlorenceSeatObservation",
    "FlorenceState",
    "GiovanniOffer",
    "Location",
    "Noble",
    "Piece",
    "Road",
    "SeatKind",
    "Strozzi",
]
