"""Strozzi for 3-6 players: ships, flags, city tracks and hidden money."""

from .rules import FLOW, HIDDEN, StrozziGame, StrozziState

GAME = StrozziGame()

__all__ = ["FLOW", "GAME", "HIDDEN", "StrozziGame", "StrozziState"]
