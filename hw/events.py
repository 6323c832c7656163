"""Input events as every input source reports them (GPIO buttons, a serial MCU, keys)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Kind = Literal["press", "long_press", "release", "stuck"]


@dataclass(frozen=True, slots=True)
class InputEvent:
    """A button event: seat name ("1".."6" or "table"), button name, kind, time in seconds."""

    seat: str
    button: str
    kind: Kind
    time: float
