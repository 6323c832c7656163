"""What the serial peripherals put on the app's queue beside hw's button events.

Button events from the table microcontroller are plain `hw.events.InputEvent`s, so
the app cannot tell them from GPIO buttons; cards and link changes get their own types.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

LinkKind = Literal["connected", "reconnected", "lost", "missing", "incompatible"]


@dataclass(frozen=True, slots=True)
class CardEvent:
    """A card, tile or token read by a scanner: its id as the reader reports it."""

    code: str
    time: float
    source: str = "scanner"


@dataclass(frozen=True, slots=True)
class LinkEvent:
    """A serial device came, went or cannot be used; `message` is for the people at the table."""

    device: str
    kind: LinkKind
    message: str
    time: float
