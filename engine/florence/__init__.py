"""Florence for 2-5 players, or solo against Palla Strozzi: family members queue at
parties, Nobles tour the city."""

from .rules import FLOW, HIDDEN, PHASES, TRANSITIONS, FlorenceGame, FlorenceState
from .seats import SEAT_KINDS, SeatKind

GAME = FlorenceGame()

__all__ = [
    "FLOW",
    "GAME",
    "HIDDEN",
    "PHASES",
    "SEAT_KINDS",
    "TRANSITIONS",
    "FlorenceGame",
    "FlorenceState",
    "SeatKind",
]
