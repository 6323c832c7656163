"""Where an owner keeps corrections to a game's component data, and writing them.

The engine reads no environment and no home directory: it loads the data file it is
given (`Game.use_data_file`). This module decides which file that is, for the `tavola`
command: `$TAVOLA_DATA_DIR/GAME.toml`, else `$XDG_CONFIG_HOME/tavola/data/GAME.toml`
(`~/.config/tavola/data/GAME.toml`), and writes the answers of a component check
(`tavola data check`, `tavola cards learn`, the phone page) into it: textually, so an
owner's comments and other tables stay, and atomically with the old file kept as
`GAME.toml.bak` (apps.safefile).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import engine
from engine.core import DataError
from hw.tomledit import EditError, edit

from .safefile import create_file, replace_file

OWNER_SOURCE = "checked against the owner's copy of the game"


def user_override_path(game: str) -> Path:
    """Where an owner's corrections to `game` live: $TAVOLA_DATA_DIR or the XDG config dir."""
    base = os.environ.get("TAVOLA_DATA_DIR")
    if base:
        return Path(base) / f"{game}.toml"
    xdg = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(xdg) / "tavola" / "data" / f"{game}.toml"


def owner_file(game: str) -> Path | None:
    """The owner's file of `game` if there is one to read (see `present`)."""
    return present(user_override_path(game))


def present(path: Path) -> Path | None:
    """`path` if there is a file there to read: also when it cannot even be looked at (a
    directory without permission), so that reading it says why in one line
    (engine.core.DataUnreadable) instead of the look itself failing with a traceback."""
    try:
        return path if path.is_file() else None
    except OSError:
        return path


def _header(game: engine.Game) -> str:
    return (
        f"# {game.title}: this copy's components, where they differ from or confirm the\n"
        f"# shipped guesses. Tables replace the shipped ones key by key (`tavola data\n"
        f"# {game.name}` lists what is still provisional; `--template` shows every key).\n"
    )


def use_owner_data() -> None:
    """Make every game's default data include the owner's override file, where one exists.
    Nothing is read yet: each game's file is read and checked when that game is first used
    (`engine.Game.data()`), so a mistake in one game's file does not stop another game."""
    for name in engine.games():
        engine.get(name).use_data_file(owner_file(name))


def write_owner_groups(
    game: str,
    groups: Mapping[str, Mapping[str, Any]],
    *,
    path: Path | None = None,
    source: str = OWNER_SOURCE,
    use: bool = True,
) -> Path:
    """Write `groups` (group -> key -> value) into the owner's override file of `game`,
    each group marked `provenance = "owner"`; returns the file's path.

    The result is loaded with the game's own checks before anything is written
    (DataError, file untouched); keys and tables already in the file stay as written.
    `use=False` leaves this process's `Game.data()` as it is: the appliance switches it
    on the table's thread once no game of that title is in play (apps.web.components).
    """
    g = engine.get(game)
    owners = user_override_path(game)
    path = Path(path) if path is not None else owners
    old = path.read_bytes() if path.exists() else None
    try:
        text = _header(g) if old is None else old.decode("utf-8")
    except UnicodeDecodeError:
        raise DataError(f"{path}: not a TOML file (not UTF-8 text); nothing written") from None
    try:
        new = edit(text, _owner_changes(groups, source))
    except EditError as exc:
        raise DataError(f"{path}: {exc}") from None
    g.load_data(path, text=new)  # the game's own checks, before anything is written
    path.parent.mkdir(parents=True, exist_ok=True)
    if old is None:
        create_file(path, new.encode("utf-8"))
    else:
        replace_file(path, new.encode("utf-8"), expected=old)
    if use and path == owners:
        g.use_data_file(path)  # the next game of this process plays by it
    return path


def _owner_changes(
    groups: Mapping[str, Mapping[str, Any]], source: str
) -> dict[tuple[str, ...], Any]:
    """The edits that write `groups`, each marked as the owner's, with its source."""
    changes: dict[tuple[str, ...], Any] = {}
    for name, values in groups.items():
        for key, value in values.items():
            changes[(name, key)] = value
        changes[(name, "provenance")] = "owner"
        changes[(name, "source")] = source
    return changes
