"""A player's name at a seat: one rule for the config file, `tavola sim --names`, the names
typed at seating in `sim`, and the phone page.

A name is said in every sentence ("Anna plays Venice"), so it must read as one person
at this table: not empty, printable, short enough for the status line, and not the
name of another seat (another player's name, or "seat 2" while seat 2 is unnamed).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from hw.schema import Invalid, Text

NAME = Text(longest=24, example="Anna")
"""The type of a name in `[app.names]`; its limits are the ones every entry point uses."""


def name_problem(name: str, seat: str, names: Mapping[str, str]) -> str | None:
    """Why `name` cannot be seat `seat`'s (None: it can). `names` are the other seats'
    names so far (seat -> name); a seat's own entry is ignored."""
    try:
        NAME.check(name)
    except Invalid as exc:
        return f"a name {exc}"
    folded = name.strip().casefold()
    for other, taken in names.items():
        if other != seat and taken.strip().casefold() == folded:
            return f"{taken!r} is seat {other}'s name already"
    m = re.fullmatch(r"seat\s*(\S+)", folded)
    if m and m.group(1) != seat.casefold():
        return f"{name!r} would be mistaken for seat {m.group(1)}"
    return None


__all__ = ["NAME", "name_problem"]
