"""Actions, events and the chance player.

An action is a seat plus one line of canonical notation. Keeping the text as
the identity (rather than an opaque integer) means logs, journals, replays,
bug reports and the button menus all speak the same words.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

CHANCE = -1
"""The `current_player()` of a state whose next input is a physical random draw."""


@dataclass(frozen=True, slots=True)
class Action:
    """One move: who makes it (a seat index or CHANCE) and its notation."""

    player: int
    text: str

    def __str__(self) -> str:
        return self.text

    @property
    def words(self) -> tuple[str, ...]:
        """The notation split into words; menus group actions by these."""
        return tuple(self.text.split())


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened while applying an action, for views to animate.

    `kind` is a short identifier ("marker_moved"); `data` holds plain values
    (ints, strings, lists) so events can be logged as JSON.
    """

    kind: str
    data: dict[str, Any] = field(default_factory=dict)

    def __getitem__(self, key: str) -> Any:
        return self.data[key]


class _Unheard(list):  # type: ignore[type-arg]
    """An event list that keeps nothing: see `QUIET`."""

    __slots__ = ()

    def append(self, event: Any) -> None:
        pass

    def extend(self, events: Any) -> None:
        pass

    def insert(self, index: Any, event: Any) -> None:
        pass

    def __iadd__(self, events: Any) -> _Unheard:  # type: ignore[misc]  # nothing is kept
        return self


QUIET: list[Event] = _Unheard()
"""The events of an action nobody reads (a search's playout): a rule given it as its
event list may skip building its events (`if events is not QUIET: events.append(...)`),
and any it still appends are dropped. A rule never reads back the events it made, so
the state it leaves is the same either way (tests/engine/test_fast_playout.py)."""


def whole_number(text: str) -> int | None:
    """`text` as a number when it is ASCII digits only, else None: `str.isdigit()` also
    takes '²' (which `int()` refuses: a traceback) and `isdecimal()` takes '٣', and
    neither is what a person at the table meant to type."""
    return int(text) if text.isascii() and text.isdigit() else None


def typed_digits(text: str) -> bool:
    """Whether `text` has a digit that is not 0-9 ('²', '٣'): worth its own answer."""
    return any(c.isdigit() and not c.isascii() for c in text)


def normalise(text: str) -> str:
    """Fold case and white space so that typed input matches the notation."""
    return " ".join(text.lower().split())
