"""The one LED strip interface every backend implements.

Colours reaching a `Strip` are final wire values in logical RGB(W) order,
already through brightness, gamma and the current limiter (see hw.pipeline);
the backend only reorders channels for its chip and pushes bytes.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

RGB = tuple[int, int, int]


class StripError(RuntimeError):
    """A backend that cannot start or write; the message names the fix."""


class Strip(ABC):
    """`n` pixels, `set(i, rgb)`, `show()`; `close()` turns the strip off and frees it."""

    def __init__(self, n: int) -> None:
        if n <= 0:
            raise ValueError(f"a strip needs at least one LED (got {n})")
        self.n = n
        self._pixels: list[RGB] = [(0, 0, 0)] * n

    def set(self, i: int, rgb: RGB) -> None:
        self._pixels[i] = rgb

    def set_all(self, frame: list[RGB]) -> None:
        if len(frame) != self.n:
            raise ValueError(f"frame has {len(frame)} pixels, strip has {self.n}")
        self._pixels = list(frame)

    def pixels(self) -> list[RGB]:
        return list(self._pixels)

    @abstractmethod
    def show(self) -> None:
        """Push the current pixels to the LEDs."""

    def close(self) -> None:
        """Turn every LED off and release the device."""
        self._pixels = [(0, 0, 0)] * self.n
        self.show()
