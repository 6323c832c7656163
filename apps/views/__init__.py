"""Per-game LED views. A game plugs into the table with one registration (apps.games)
holding its view, its layout and its drawings; its notation gives the menus.

`view_for` and `has_view` read that registration.
"""

from __future__ import annotations

from ..games import table_game
from .base import Colour, ElementFrame, View, ViewContext


def view_for(game: str) -> View:
    """The view of `game`, from its table registration (apps/games/<game>.py)."""
    try:
        return table_game(game).view
    except KeyError:
        raise KeyError(f"no table view for {game!r} yet") from None


def has_view(game: str) -> bool:
    """Whether `game` can be played at the table (it is registered there)."""
    try:
        view_for(game)
    except KeyError:
        return False
    return True


__all__ = ["Colour", "ElementFrame", "View", "ViewContext", "has_view", "view_for"]
