"""LEDs as ANSI true-colour blocks in a terminal: the virtual table for `tavola sim`.

Wire values are gamma-encoded for LEDs (dim colours are pushed far down); a
monitor applies its own gamma, so the display undoes the pipeline's gamma to
look roughly like the strip does to an eye.

On a terminal the strip keeps the top rows and whatever else the program prints
(its log) scrolls in the rows below (a scroll region), so neither overwrites the
other. Written to a file or pipe, each frame redraws in place with cursor moves.
"""

from __future__ import annotations

import shutil
import sys
from typing import TYPE_CHECKING, Any, TextIO

from hw.backends import Backend
from hw.schema import Int, Key, Table
from hw.strip import ByteStrip, reorder

if TYPE_CHECKING:
    from hw.config import StripConfig


class TerminalStrip(ByteStrip):
    def __init__(
        self,
        n: int,
        *,
        order: str = "RGB",
        stream: TextIO | None = None,
        width: int = 60,
        display_gamma: float = 2.2,
    ) -> None:
        super().__init__(n, order=order)
        self.stream = stream if stream is not None else sys.stdout
        self.width = width
        self._rows = 0
        self._pinned: bool | None = None  # strip at the top, a scroll region below
        self._table = bytes(round(255 * (v / 255) ** (1 / display_gamma)) for v in range(256))

    def _send(self, data: bytes) -> None:
        k = self.channels
        rgb = reorder(data, self.order, "RGBW"[:k]).translate(self._table)
        lines = []
        for start in range(0, self.n, self.width):
            cells = []
            for i in range(start, min(start + self.width, self.n)):
                r, g, b = rgb[i * k], rgb[i * k + 1], rgb[i * k + 2]
                if k == 4:
                    w = rgb[i * k + 3]
                    r, g, b = min(255, r + w), min(255, g + w), min(255, b + w)
                cells.append(f"\x1b[48;2;{r};{g};{b}m ")
            lines.append("".join(cells) + "\x1b[0m")
        if self._pin(len(lines)):
            # save the cursor, draw the rows at the top, put the cursor back in the log
            out = [
                "\x1b7",
                *(f"\x1b[{i + 1};1H{line}\x1b[K" for i, line in enumerate(lines)),
                "\x1b8",
            ]
        else:
            out = [f"\x1b[{self._rows}F"] if self._rows else []
            out += [line + "\n" for line in lines]
        self._rows = len(lines)
        self.stream.write("".join(out))
        self.stream.flush()

    def _pin(self, rows: int) -> bool:
        """On the first frame: on a terminal tall enough, keep the top `rows` for the
        strip and let the rest scroll (DECSTBM), the cursor below the strip."""
        if self._pinned is None:
            isatty = getattr(self.stream, "isatty", None)
            height = shutil.get_terminal_size((80, 0)).lines
            self._pinned = bool(isatty and isatty()) and height > rows + 2
            if self._pinned:
                self.stream.write(f"\x1b[2J\x1b[{rows + 1};{height}r\x1b[{rows + 1};1H")
        return self._pinned

    def close(self) -> None:
        super().close()
        if self._pinned:
            self.stream.write("\x1b[r\n")  # the whole screen scrolls again
            self.stream.flush()


def _open(config: StripConfig, **overrides: Any) -> TerminalStrip:
    return TerminalStrip(config.count, order=config.order, width=config.width, **overrides)


BACKEND = Backend("terminal", Table(Key("width", Int(lo=1, hi=1000), 60)), open=_open)
