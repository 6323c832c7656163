"""Element frames -> per-strip byte frames, through a layout.

Views speak element names; the compositor looks each name up once (cached)
and writes colours straight into one bytearray per strip, which the colour
pipeline takes without making per-pixel objects.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

from hw.layout import Layout

from .views.base import Colour, ElementFrame

log = logging.getLogger(__name__)


class Compositor:
    """Turns `{element: colour or [colours]}` into `{strip: bytes}` for a layout."""

    def __init__(self, layout: Layout, sizes: Mapping[str, int] | None = None) -> None:
        """`sizes`: LEDs per strip as wired, when a strip is longer than the layout uses."""
        self.layout = layout
        self.sizes = {s: max(n, (sizes or {}).get(s, 0)) for s, n in layout.strips.items()}
        self._offsets: dict[str, list[tuple[str, int]]] = {}
        self._missing: set[str] = set()

    def offsets(self, name: str) -> list[tuple[str, int]]:
        """(strip, byte offset) per LED of an element; empty for an element the layout lacks."""
        found = self._offsets.get(name)
        if found is None:
            try:
                found = [(strip, 3 * i) for strip, i in self.layout.indices(name)]
            except KeyError:
                found = []
                if name not in self._missing:
                    self._missing.add(name)
                    log.debug("layout %s has no element %s", self.layout.source, name)
            self._offsets[name] = found
        return found

    def blank(self) -> dict[str, bytearray]:
        return {strip: bytearray(3 * n) for strip, n in self.sizes.items()}

    def paint(self, frames: Mapping[str, bytearray], frame: ElementFrame) -> None:
        """Write `frame` over `frames` in place: later elements win where they overlap."""
        for name, value in frame.items():
            spots = self.offsets(name)
            if not spots:
                continue
            if isinstance(value, list):
                for (strip, at), colour in zip(spots, value, strict=False):
                    frames[strip][at : at + 3] = bytes(colour)
            else:
                rgb = bytes(value)
                for strip, at in spots:
                    frames[strip][at : at + 3] = rgb

    def compose(self, *layers: ElementFrame) -> dict[str, bytearray]:
        frames = self.blank()
        for layer in layers:
            self.paint(frames, layer)
        return frames


def scale(colour: Colour, factor: float) -> Colour:
    return (int(colour[0] * factor), int(colour[1] * factor), int(colour[2] * factor))
