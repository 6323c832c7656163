"""Per-game LED views. A game plugs into the table with a view, a layout and its notation.

Views are found by game name: `apps.views.<game>` defines `VIEW`.
"""

from __future__ import annotations

import importlib

from .base import Colour, Frame, View, ViewContext


def view_for(game: str) -> View:
    """The view of `game` (its module `apps.views.<game>` defines VIEW)."""
    try:
        module = importlib.import_module(f"{__name__}.{game}")
    except ModuleNotFoundError:
        raise KeyError(f"no table view for {game!r} yet") from None
    return module.VIEW


__all__ = ["Colour", "Frame", "View", "ViewContext", "view_for"]
