"""Strada Romana for 2-5 players: wagons on the road to Rome, wares, cubes and contracts."""

from .board import Board, SpecialMove, board_for
from .observation import (
    Area,
    Draw,
    Holding,
    Market,
    Move,
    StradaRomanaEndObservation,
    StradaRomanaObservation,
    StradaRomanaSeatObservation,
    Wagon,
)
from .rules import FLOW, PHASES, RULEBOOK, TRANSITIONS, StradaRomanaGame, StradaRomanaState

GAME = StradaRomanaGame()

__all__ = [
    "FLOW",
    "GAME",
    "PHASES",
    "RULEBOOK",
    "TRANSITIONS",
    "Area",
    "Board",
    "Draw",
    "Holding",
    "Market",
    "Move",
    "SpecialMove",
    "StradaRomanaEndObservation",
    "StradaRomanaGame",
    "StradaRomanaObservation",
    "StradaRomanaSeatObservation",
    "StradaRomanaState",
    "Wagon",
    "board_for",
]
