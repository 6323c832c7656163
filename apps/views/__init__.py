"""Per-game LED views. A game plugs into the table with a view, a layout and its notation.

Views are found by game name: `apps.views.<game>` defines `VIEW`.
"""

from __future__ import annotations

import importlib

from .base import Colour, ElementFrame, View, ViewContext


def view_for(game: str) -> View:
    """The view of `game` (its module `apps.views.<game>` defines VIEW)."""
    try:
        module = importlib.import_module(f"{__name__}.{game}")
    except ModuleNotFoundError:
        raise KeyError(f"no table view for {game!r} yet") from None
    return module.VIEW


def has_view(game: str) -> bool:
    """Whether `game` can be played at the table (it has a view)."""
    try:
        view_for(game)
    except KeyError:
        return False
    return True


__all__ = ["Colour", "ElementFrame", "View", "ViewContext", "has_view", "view_for"]
