"""Strada Romana for 2-5 players: wagons on the road to Rome, wares, cubes and contracts."""

from .board import Board, board_for
from .rules import FLOW, HIDDEN, PHASES, TRANSITIONS, StradaRomanaGame, StradaRomanaState

GAME = StradaRomanaGame()

__all__ = [
    "FLOW",
    "GAME",
    "HIDDEN",
    "PHASES",
    "TRANSITIONS",
    "Board",
    "StradaRomanaGame",
    "StradaRomanaState",
    "board_for",
]
