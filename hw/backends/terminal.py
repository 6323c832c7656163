"""LEDs as ANSI true-colour blocks in a terminal: the virtual table for `tavola sim`.

Wire values are gamma-encoded for LEDs (dim colours are pushed far down); a
monitor applies its own gamma, so the display undoes the pipeline's gamma to
look roughly like the strip does to an eye.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, TextIO

from hw.backends import Backend
from hw.schema import Int, Key, Table
from hw.strip import ByteStrip, reorder

if TYPE_CHECKING:
    from hw.config import StripConfig


class TerminalStrip(ByteStrip):
    def __init__(self, n: int, *, order: str = "RGB", stream: TextIO | None = None,
                 width: int = 60, display_gamma: float = 2.2) -> None:
        super().__init__(n, order=order)
        self.stream = stream if stream is not None else sys.stdout
        self.width = width
        self._rows = 0
        self._table = bytes(round(255 * (v / 255) ** (1 / display_gamma)) for v in range(256))

    def _send(self, data: bytes) -> None:
        k = self.channels
        rgb = reorder(data, self.order, "RGBW"[:k]).translate(self._table)
        out = []
        if self._rows:
            out.append(f"\x1b[{self._rows}F")  # back to the top of the previous frame
        rows = 0
        for start in range(0, self.n, self.width):
            cells = []
            for i in range(start, min(start + self.width, self.n)):
                r, g, b = rgb[i * k], rgb[i * k + 1], rgb[i * k + 2]
                if k == 4:
                    w = rgb[i * k + 3]
                    r, g, b = min(255, r + w), min(255, g + w), min(255, b + w)
                cells.append(f"\x1b[48;2;{r};{g};{b}m ")
            out.append("".join(cells) + "\x1b[0m\n")
            rows += 1
        self._rows = rows
        self.stream.write("".join(out))
        self.stream.flush()


def _open(config: StripConfig, **overrides: Any) -> TerminalStrip:
    return TerminalStrip(config.count, order=config.order, width=config.width, **overrides)


BACKEND = Backend("terminal", Table(Key("width", Int(lo=1, hi=1000), 60)), open=_open)
