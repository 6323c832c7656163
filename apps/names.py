"""A player's name at a seat: one checker for the config file, `tavola sim` and the phone page.

A name stands for its seat in every sentence the table says and in the status line
("Strozzi | round 1 | Anna (red) to act"), so it must be something a person can read
there: not empty, printable, short enough to fit, and not the name of another seat
(two "Anna"s, or a player called "seat 2" at seat 1, would make every sentence
ambiguous). Names are compared ignoring case and the spaces around them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["LONGEST", "check_name", "check_names"]

#: the longest name that still leaves the status line room for the game, round and colour
LONGEST = 16


def _same(a: str, b: str) -> bool:
    return a.strip().casefold() == b.strip().casefold()


def check_name(
    name: Any,
    *,
    seat: str | None = None,
    others: Mapping[str, str] | None = None,
    seats: Iterable[str] = (),
) -> str:
    """`name` for `seat`, stripped of the spaces around it; ValueError says why not.

    `others`: the other seats' names (seat -> name), which it must not repeat; `seats`:
    every seat of the table, whose labels ("seat 2") it must not take either.
    """
    if not isinstance(name, str):
        raise ValueError(f"a name must be text, not {type(name).__name__} {name!r}")
    text = name.strip()
    if not text:
        raise ValueError("a name cannot be empty (leave it out and the seat is 'seat N')")
    if not text.isprintable():
        raise ValueError(f"{text!r} has a character that cannot be shown (a control character)")
    if len(text) > LONGEST:
        raise ValueError(
            f"{text!r} is {len(text)} characters: a name has at most {LONGEST}, "
            "so it fits the status line"
        )
    for other, taken in (others or {}).items():
        if other != seat and _same(taken, text):
            raise ValueError(f"{text!r} is already the name of seat {other}")
    for other in {*seats, *(others or {})}:
        if other != seat and _same(f"seat {other}", text):
            raise ValueError(f"{text!r} is what seat {other} is called: choose another name")
    return text


def check_names(names: Mapping[str, Any], seats: Iterable[str] = ()) -> dict[str, str]:
    """Every seat's name checked against the others and the table's `seats`; the
    ValueError names the seat whose name is refused."""
    checked: dict[str, str] = {}
    for seat, name in names.items():
        try:
            checked[seat] = check_name(name, seat=seat, others=checked, seats=seats)
        except ValueError as exc:
            raise ValueError(f"seat {seat}: {exc}") from None
    return checked
