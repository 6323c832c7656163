"""The games the table plays: one `TableGame` per game, the only place a game is
registered on the app side.

A game is at the table when `apps/games/<name>.py` (`name`: the engine game's
`Game.name`) defines `TABLE_GAME`, holding every part the app needs of it: its LED view,
its board on the phone page, its sheet in the terminal and its default LED layout. The
registry is found from the engine's games (`engine.games()`), so every lookup of a part
(`apps.views.view_for`, the phone's board, the terminal's sheet, the layout) reads one
object, and adding a game adds an engine package, one module here and a layout file
without changing any other file. docs/table.md says how.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

import engine

if TYPE_CHECKING:  # the parts import the table; the registry imports them only when asked
    from ..screen import Sheet
    from ..views.base import View
    from ..web.board import GameBoard


@dataclass(frozen=True)
class TableGame:
    """Everything the app side knows of one game, besides its engine package."""

    name: str
    """The engine game's `Game.name` (and this registration's module name)."""
    view: View
    """The LED view: a state to `{element: colour}`, the menus' hints, the scoring lights."""
    board: GameBoard
    """The board drawing of the phone page (`apps.web.board.board_svg` adds the rest)."""
    sheet: Sheet
    """The board in the terminal of `tavola sim` (`apps.screen.generic_sheet` draws one
    labelled line per element group, for a game without a drawing of its own)."""
    layout: Path
    """The default LED layout; an owner's `[app.layouts]` entry replaces it."""


def shipped_layout(file: str) -> Path:
    """A layout file shipped with the app (`apps/layouts/`)."""
    return Path(str(resources.files("apps.layouts").joinpath(file)))


_registry: dict[str, TableGame] | None = None


def table_games() -> Mapping[str, TableGame]:
    """Every game with a table registration, by name, in the order of `engine.games()`.

    Imported on first use, not with this module: the parts import the table's modules,
    which look games up here."""
    global _registry
    if _registry is None:
        found: dict[str, TableGame] = {}
        for name in engine.games():
            module_name = f"{__name__}.{name}"
            try:
                module = importlib.import_module(module_name)
            except ModuleNotFoundError as exc:
                if exc.name != module_name:  # a part of the game is missing: say so
                    raise
                continue  # an engine game not (yet) at the table
            table_game = getattr(module, "TABLE_GAME", None)
            if not isinstance(table_game, TableGame) or table_game.name != name:
                raise TypeError(f"{module_name} must define TABLE_GAME = TableGame({name!r}, ...)")
            found[name] = table_game
        _registry = found
    return _registry


def table_game(name: str) -> TableGame:
    """The registration of the game called `name`; KeyError for a game not at the table."""
    try:
        return table_games()[name]
    except KeyError:
        raise KeyError(f"no table for {name!r} yet") from None


__all__ = ["TableGame", "shipped_layout", "table_game", "table_games"]
