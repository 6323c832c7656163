"""Where an owner keeps corrections to a game's component data, and applying them.

The engine reads no environment and no home directory: it loads the data file it is
given (`Game.use_data_file`). This module decides which file that is, for the `tavola`
command: `$TAVOLA_DATA_DIR/GAME.toml`, else `$XDG_CONFIG_HOME/tavola/data/GAME.toml`
(`~/.config/tavola/data/GAME.toml`).
"""

from __future__ import annotations

import os
from pathlib import Path

import engine


def user_override_path(game: str) -> Path:
    """Where an owner's corrections to `game` live: $TAVOLA_DATA_DIR or the XDG config dir."""
    base = os.environ.get("TAVOLA_DATA_DIR")
    if base:
        return Path(base) / f"{game}.toml"
    xdg = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(xdg) / "tavola" / "data" / f"{game}.toml"


def use_owner_data() -> None:
    """Make every game's default data include the owner's override file, where one exists."""
    for name in engine.games():
        path = user_override_path(name)
        engine.get(name).use_data_file(path if path.is_file() else None)
