"""Game rules, pure Python: no I/O, threads, clocks or hardware.

Games are found by package: every subpackage of `engine` (other than `core`)
that defines `GAME` is registered, so adding a game touches nothing here.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

from .core import (
    CHANCE,
    Action,
    Event,
    Game,
    GameOver,
    IllegalAction,
    NotYourTurn,
    Observation,
    State,
    UnknownNotation,
    parse_action,
)

__all__ = [
    "CHANCE",
    "Action",
    "Event",
    "Game",
    "GameOver",
    "IllegalAction",
    "NotYourTurn",
    "Observation",
    "State",
    "UnknownNotation",
    "games",
    "get",
    "parse_action",
]

_registry: dict[str, Game[Any]] | None = None


def _discover() -> dict[str, Game[Any]]:
    global _registry
    if _registry is None:
        found: dict[str, Game[Any]] = {}
        for info in pkgutil.iter_modules(__path__):
            if not info.ispkg or info.name == "core":
                continue
            module = importlib.import_module(f"{__name__}.{info.name}")
            game = getattr(module, "GAME", None)
            if isinstance(game, Game):
                found[game.name] = game
        _registry = dict(sorted(found.items()))
    return _registry


def games() -> list[str]:
    """Names of the registered games, sorted."""
    return list(_discover())


def get(name: str) -> Game[Any]:
    """The game called `name` (as in `tavola demo NAME`)."""
    registry = _discover()
    key = name.lower().replace("-", "_")
    if key not in registry:
        raise KeyError(f"no game {name!r}; known games: {', '.join(registry)}")
    return registry[key]
