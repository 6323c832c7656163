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


def normalise(text: str) -> str:
    """Fold case and white space so that typed input matches the notation."""
    return " ".join(text.lower().split())
