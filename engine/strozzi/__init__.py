"""Strozzi for 3-6 players: ships, flags, city tracks and secret money."""

from .observation import FlagOnShip, Port, StrozziObservation, StrozziSeatObservation, Track
from .rules import FLOW, RULEBOOK, Payout, PortEntry, Rules, Ship, StrozziGame, StrozziState, Token

GAME = StrozziGame()

__all__ = [
    "FLOW",
    "GAME",
    "RULEBOOK",
    "FlagOnShip",
    "Payout",
    "Port",
    "PortEntry",
    "Rules",
    "Ship",
    "StrozziGame",
    "StrozziObservation",
    "StrozziSeatObservation",
    "StrozziState",
    "Token",
    "Track",
]
