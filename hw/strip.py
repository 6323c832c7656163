"""The one LED strip interface every backend implements.

Two ways in. `set(i, rgb)` / `set_all(frame)` + `show()` take logical colours
(RGB, or RGBW tuples on a four-channel strip) and the backend reorders them for
its chip: simple, for tools and tests. `write(data)` takes a whole frame of
bytes already in the backend's `order`, which is what `hw.pipeline` produces
with a few slice operations; it is the fast path, so no per-pixel Python objects
are made for every frame. Either way the colours are final wire values,
already through brightness, gamma and the current limiter.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

RGB = tuple[int, int, int]
LOGICAL = "RGBW"


class StripError(RuntimeError):
    """A backend that cannot start or write; the message names the fix.

    `absent`: the device is not there now but may come (a USB adapter unplugged), so
    waiting for it makes sense; otherwise the setup is wrong (SPI off, no permission).
    """

    def __init__(self, message: str, *, absent: bool = False) -> None:
        super().__init__(message)
        self.absent = absent


class Strip(ABC):
    """`n` pixels, `set(i, rgb)`, `show()`; `close()` turns the strip off and frees it."""

    #: The channel order `write()` expects: "RGB" unless the backend wants its chip's order.
    order: str = "RGB"
    #: Seconds after which the device forgets a frame unless it is sent again (WLED leaves
    #: its realtime mode 2.5 s after the last one); None: a frame stays until the next.
    keepalive_s: float | None = None

    def __init__(self, n: int, *, order: str = "RGB") -> None:
        if n <= 0:
            raise ValueError(f"a strip needs at least one LED (got {n})")
        if sorted(order) not in (sorted("RGB"), sorted("RGBW")):
            raise ValueError(f"colour order {order!r} must be a permutation of RGB or RGBW")
        self.n = n
        self.order = order
        self._pixels: list[tuple[int, ...]] = [(0,) * len(order)] * n

    @property
    def channels(self) -> int:
        return len(self.order)

    def set(self, i: int, rgb: tuple[int, ...]) -> None:
        self._pixels[i] = rgb

    def set_all(self, frame: list[RGB] | list[tuple[int, ...]]) -> None:
        if len(frame) != self.n:
            raise ValueError(f"frame has {len(frame)} pixels, strip has {self.n}")
        self._pixels = list(frame)

    def pixels(self) -> list[tuple[int, ...]]:
        return list(self._pixels)

    def write(self, data: bytes | bytearray) -> None:
        """Show a frame of `n * channels` bytes in `self.order` (the pipeline's fast path)."""
        self.set_all(decode(data, self.order, self.n))
        self.show()

    @abstractmethod
    def show(self) -> None:
        """Push the current pixels to the LEDs."""

    def close(self) -> None:
        """Turn every LED off and release the device."""
        self._pixels = [(0,) * self.channels] * self.n
        self.show()

    def __enter__(self) -> Strip:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def encode(pixels: list[tuple[int, ...]], order: str) -> bytes:
    """Logical RGB(W) pixels -> bytes in `order`; ValueError naming the first bad pixel."""
    k = len(order)
    try:
        if any(len(p) != k for p in pixels):
            raise ValueError
        logical = bytes(c for p in pixels for c in p)
    except (ValueError, TypeError):
        for i, p in enumerate(pixels):
            ok = (
                isinstance(p, tuple | list)
                and len(p) == k
                and all(isinstance(c, int) and 0 <= c <= 255 for c in p)
            )
            if not ok:
                raise ValueError(f"pixel {i} is {p!r}: need {k} channels, each 0-255") from None
        raise
    return reorder(logical, LOGICAL[:k], order)


def decode(data: bytes | bytearray, order: str, n: int) -> list[tuple[int, ...]]:
    """Bytes in `order` -> logical RGB(W) tuples."""
    k = len(order)
    if len(data) != n * k:
        raise ValueError(f"frame has {len(data)} bytes, strip needs {n * k} ({n} x {order})")
    logical = reorder(data, order, LOGICAL[:k])
    return list(zip(*(logical[j::k] for j in range(k)), strict=True))


def reorder(data: bytes | bytearray, src: str, dst: str) -> bytes:
    """Permute channels with one slice copy each: `src` and `dst` are orders like "RGB", "GRB"."""
    if src == dst:
        return bytes(data)
    k = len(src)
    out = bytearray(len(data))
    for j, c in enumerate(dst):
        i = src.index(c)
        out[j::k] = data[i::k]
    return bytes(out)


class ByteStrip(Strip):
    """A backend that sends one byte string per frame: it implements `_send(wire_bytes)` only."""

    def __init__(self, n: int, *, order: str = "RGB") -> None:
        super().__init__(n, order=order)
        self._wire: bytes | None = bytes(n * len(order))

    def set(self, i: int, rgb: tuple[int, ...]) -> None:
        self._sync_pixels()
        super().set(i, rgb)
        self._wire = None

    def set_all(self, frame: list[RGB] | list[tuple[int, ...]]) -> None:
        super().set_all(frame)
        self._wire = None

    def pixels(self) -> list[tuple[int, ...]]:
        self._sync_pixels()
        return super().pixels()

    def _sync_pixels(self) -> None:
        if self._pixels_stale:
            self._pixels = decode(self._wire or b"", self.order, self.n)
            self._pixels_stale = False

    _pixels_stale = False

    def write(self, data: bytes | bytearray) -> None:
        if len(data) != self.n * self.channels:
            raise ValueError(
                f"frame has {len(data)} bytes, strip needs "
                f"{self.n * self.channels} ({self.n} x {self.order})"
            )
        self._wire = bytes(data)
        self._pixels_stale = True
        self._send(self._wire)

    def show(self) -> None:
        if self._wire is None:
            self._wire = encode(self._pixels, self.order)
        self._send(self._wire)

    def close(self) -> None:
        self._wire = bytes(self.n * self.channels)
        self._pixels = [(0,) * self.channels] * self.n
        self._pixels_stale = False
        self._send(self._wire)

    @abstractmethod
    def _send(self, data: bytes) -> None:
        """Put one frame of bytes in `self.order` on the wire."""
