"""A small SVG writer for the board drawings: shapes, escaped text, and where the LEDs are.

The drawing is 360 units wide, the width of a small phone, so one unit is one CSS pixel
there and a font size of 11 is 11 px on screen; wider screens scale it up. A game's
drawing says where each LED element of its layout sits (`place`) and which words of the
notation name a spot on the board (`spot`); `apps.web.board` then paints the table's
LED colours and the last action's highlight over it, the same way for every game.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from html import escape

from ..views.base import Colour

WIDTH = 360
FONT = 11
"""The smallest font size used: 11 px at 360 px wide."""
INK = "#222"
PAPER = "#f6f1e6"
FAINT = "#8a8274"


def hex_colour(colour: Colour) -> str:
    return f"#{colour[0]:02x}{colour[1]:02x}{colour[2]:02x}"


def text_colour(colour: Colour) -> str:
    """Black or white, whichever reads on a fill of `colour`."""
    r, g, b = colour
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#fff"


def _num(v: float) -> str:
    """A coordinate, short: 12 not 12.0, 12.5 not 12.500001."""
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _name(key: str) -> str:
    """A keyword argument as an attribute name: `stroke_width` -> `stroke-width`,
    `class_` -> `class`."""
    return key.rstrip("_").replace("_", "-")


def wrap(text: str, width: float, size: int = FONT) -> list[str]:
    """`text` in lines that fit `width` units at `size` (about 0.58 em a character)."""
    per_line = max(8, int(width / (0.58 * size)))
    lines: list[str] = []
    line = ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > per_line:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return lines


@dataclass(frozen=True, slots=True)
class Box:
    x: float
    y: float
    w: float
    h: float


@dataclass
class Canvas:
    """SVG parts in drawing order, the LED places and the named spots; `y` is how far
    down the drawing has got (each section draws from there and moves it on)."""

    parts: list[str] = field(default_factory=list)
    places: dict[str, Box] = field(default_factory=dict)
    spots: dict[str, list[Box]] = field(default_factory=dict)
    y: float = 0.0

    def add(self, tag: str, attrs: dict[str, object], body: str = "") -> None:
        """One element; attribute values are escaped, floats shortened."""
        text = " ".join(
            f'{_name(k)}="{escape(_num(v) if isinstance(v, float) else str(v))}"'
            for k, v in attrs.items()
            if v is not None
        )
        self.parts.append(f"<{tag} {text}>{body}</{tag}>" if body else f"<{tag} {text}/>")

    def rect(self, x: float, y: float, w: float, h: float, fill: str, **attrs: object) -> None:
        self.add("rect", {"x": x, "y": y, "width": w, "height": h, "fill": fill, **attrs})

    def circle(self, x: float, y: float, r: float, fill: str, **attrs: object) -> None:
        self.add("circle", {"cx": x, "cy": y, "r": r, "fill": fill, **attrs})

    def polygon(self, points: Iterable[tuple[float, float]], fill: str, **attrs: object) -> None:
        pts = " ".join(f"{_num(float(a))},{_num(float(b))}" for a, b in points)
        self.add("polygon", {"points": pts, "fill": fill, **attrs})

    def line(
        self, x1: float, y1: float, x2: float, y2: float, stroke: str, **attrs: object
    ) -> None:
        self.add("line", {"x1": x1, "y1": y1, "x2": x2, "y2": y2, "stroke": stroke, **attrs})

    def text(
        self, x: float, y: float, words: str, size: int = FONT, fill: str = INK, **attrs: object
    ) -> None:
        """`words` with its baseline at `y`; `size` never below FONT. The drawing's own
        font size and ink (FONT, INK, set on the `<svg>`) are left to inheritance."""
        attrs = {
            "x": x,
            "y": y,
            "font-size": max(size, FONT) if size > FONT else None,
            "fill": fill if fill != INK else None,
            **attrs,
        }
        self.add("text", attrs, escape(words, quote=False) or " ")

    def open(self, **attrs: object) -> None:
        text = " ".join(f'{_name(k)}="{escape(str(v))}"' for k, v in attrs.items())
        self.parts.append(f"<g {text}>")

    def close(self) -> None:
        self.parts.append("</g>")

    def place(self, element: str, x: float, y: float, w: float, h: float) -> None:
        """Where the LEDs of layout element `element` are drawn, when the table lights them."""
        self.places[element] = Box(x, y, w, h)

    def spot(self, word: str, x: float, y: float, w: float, h: float) -> None:
        """A spot a word of the notation names (a square id, a port): outlined when the
        last action names it."""
        self.spots.setdefault(word, []).append(Box(x, y, w, h))
