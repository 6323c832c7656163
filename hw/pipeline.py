"""Logical colours -> what the LEDs are sent.

Stages, in order: global brightness and per-segment (per-seat) dimming, gamma,
RGBW white extraction, the current limiter, the strip's channel order. Then the
frame goes to the strip only if it differs from the last one pushed, and no
sooner than the frame-rate cap allows.

Speed matters: a frame must be ready in a small fraction of its wire time (30 us
per LED). Brightness and gamma fold into one 256-byte table per dimming level,
applied with `bytes.translate`; the limiter sums the bytes and, when over
budget, applies one more table; reordering is one slice copy per channel. No
per-pixel Python objects are made except when the input is a list of tuples
(flattened once) or the strip has a white channel.

The limiter models each channel as drawing `ma_per_channel` at 255, linearly,
plus `idle_ma` per LED, like WLED's automatic brightness limiter. A frame
predicted over `budget_ma` is scaled down uniformly, rounding each byte down, so
the prediction for the frame actually sent never exceeds the budget.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from itertools import chain
from operator import sub

from hw.config import PipelineConfig
from hw.strip import Strip

Frame = bytes | bytearray | memoryview | list[tuple[int, int, int]]


def gamma_table(factor: float, gamma: float) -> bytes:
    """v -> round(255 * (v * factor / 255) ** gamma): brightness first, so dimming looks even."""
    return bytes(round(255 * ((v * factor / 255) ** gamma)) for v in range(256))


class Pipeline:
    """Turns logical RGB frames into wire frames for one strip and pushes the changed ones."""

    def __init__(
        self,
        strip: Strip,
        *,
        brightness: float = 1.0,
        gamma: float = 2.2,
        ma_per_channel: float = 20.0,
        idle_ma: float = 1.0,
        budget_ma: float | None = None,
        fps: float | None = 60.0,
        segments: Mapping[str, tuple[int, int]] | None = None,
        dimming: Mapping[str, float] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.strip = strip
        self.n = strip.n
        self.order = strip.order
        self.white = len(strip.order) == 4
        self.gamma = gamma
        self.ma_per_channel = ma_per_channel
        self.idle_ma = idle_ma
        self.budget_ma = budget_ma
        self.fps = fps
        self.clock = clock
        self.segments = dict(segments or {})
        for name, (start, stop) in self.segments.items():
            if not 0 <= start < stop <= self.n:
                raise ValueError(
                    f"segment {name!r} {start}..{stop - 1} is outside the strip's {self.n} LEDs"
                )
        self._dimming: dict[str, float] = {}
        self._brightness = 1.0
        self._tables: dict[float, bytes] = {}
        self._max_units: int | None = None
        self._last_src: bytes | None = None
        self._last_out: bytes | None = None
        self._last_push: float | None = None
        self.pending: Frame | None = None
        self.pushed = 0
        self.limited = 0
        self.set_budget(budget_ma)
        self.set_brightness(brightness)
        for name, factor in (dimming or {}).items():
            self.set_dimming(name, factor)

    @classmethod
    def from_config(
        cls,
        strip: Strip,
        config: PipelineConfig,
        *,
        segments: Mapping[str, tuple[int, int]] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> Pipeline:
        return cls(
            strip,
            brightness=config.brightness,
            gamma=config.gamma,
            ma_per_channel=config.ma_per_channel,
            idle_ma=config.idle_ma,
            budget_ma=config.budget_ma,
            fps=config.fps,
            segments=segments,
            dimming=config.dimming,
            clock=clock,
        )

    # --- settings -------------------------------------------------------------------------

    @property
    def brightness(self) -> float:
        return self._brightness

    def set_brightness(self, brightness: float) -> None:
        if not 0.0 <= brightness <= 1.0:
            raise ValueError(f"brightness {brightness} is out of range 0.0-1.0")
        self._brightness = brightness
        self._rebuild()

    def set_dimming(self, segment: str, factor: float) -> None:
        """Dim one segment (a seat's LEDs, say) relative to the rest; 1.0 removes the dimming."""
        if segment not in self.segments:
            raise ValueError(f"no segment {segment!r} (segments: {', '.join(self.segments)})")
        if not 0.0 <= factor <= 1.0:
            raise ValueError(f"dimming {factor} for {segment!r} is out of range 0.0-1.0")
        if factor == 1.0:
            self._dimming.pop(segment, None)
        else:
            self._dimming[segment] = factor
        self._rebuild()

    def set_budget(self, budget_ma: float | None) -> None:
        self.budget_ma = budget_ma
        if budget_ma is None:
            self._max_units = None
        else:
            spare = budget_ma - self.n * self.idle_ma
            if spare <= 0:
                raise ValueError(
                    f"budget {budget_ma:g} mA does not cover the idle current of "
                    f"{self.n} LEDs ({self.n * self.idle_ma:g} mA)"
                )
            # channel-value units (0-255 per channel) the budget allows
            self._max_units = int(spare * 255 / self.ma_per_channel)
        self._last_src = None

    def _table(self, factor: float) -> bytes:
        table = self._tables.get(factor)
        if table is None:
            table = self._tables[factor] = gamma_table(factor, self.gamma)
        return table

    def _rebuild(self) -> None:
        self._base = self._table(self._brightness)
        self._runs = [
            (start * 3, stop * 3, self._table(self._brightness * f))
            for name, f in self._dimming.items()
            for start, stop in [self.segments[name]]
        ]
        self._last_src = None  # settings changed: re-render even an identical frame

    # --- rendering --------------------------------------------------------------------------

    def milliamps(self, wire: bytes | bytearray) -> float:
        """The limiter's prediction for a wire frame: what a power supply must deliver."""
        return self.n * self.idle_ma + sum(wire) * self.ma_per_channel / 255

    def render(self, frame: Frame) -> bytes:
        """Logical RGB frame -> wire bytes in the strip's order (no push, no caching)."""
        src = self._flatten(frame)
        buf = src.translate(self._base)
        if self._runs:
            out = bytearray(buf)
            for start, stop, table in self._runs:
                out[start:stop] = src[start:stop].translate(table)
            buf = bytes(out)
        if self.white:
            r, g, b = buf[0::3], buf[1::3], buf[2::3]
            w = bytes(map(min, r, g, b))
            if any(w):
                r, g, b = bytes(map(sub, r, w)), bytes(map(sub, g, w)), bytes(map(sub, b, w))
            chans = {"R": r, "G": g, "B": b, "W": w}
            k = 4
            wide = bytearray(self.n * 4)
            for j, c in enumerate("RGBW"):
                wide[j::4] = chans[c]
            buf = bytes(wide)
            logical = "RGBW"
        else:
            k = 3
            logical = "RGB"
        if self._max_units is not None:
            units = sum(buf)
            if units > self._max_units:
                scale = self._max_units
                buf = buf.translate(bytes(v * scale // units for v in range(256)))
                self.limited += 1
        if self.order != logical:
            out = bytearray(len(buf))
            for j, c in enumerate(self.order):
                i = logical.index(c)
                out[j::k] = buf[i::k]
            buf = bytes(out)
        return buf

    def _flatten(self, frame: Frame) -> bytes:
        if isinstance(frame, bytes | bytearray | memoryview):
            src = bytes(frame)
            if len(src) != self.n * 3:
                raise ValueError(
                    f"frame has {len(src)} bytes, need {self.n * 3} ({self.n} LEDs x RGB)"
                )
            return src
        if len(frame) != self.n:
            raise ValueError(f"frame has {len(frame)} colours, the strip has {self.n} LEDs")
        try:
            if set(map(len, frame)) != {3}:
                raise ValueError
            return bytes(chain.from_iterable(frame))
        except (ValueError, TypeError):
            _raise_bad_pixel(frame)
            raise

    # --- pushing ----------------------------------------------------------------------------

    def show(self, frame: Frame, *, force: bool = False) -> bool:
        """Render and push `frame` if it changed and the frame-rate cap allows; True if pushed.

        A frame that comes too soon is kept as `pending`; the next `show()` or `flush()`
        after the interval pushes the latest one, so an animation's last frame is never lost.
        """
        now = self.clock()
        if (
            not force
            and self.fps
            and self._last_push is not None
            and now - self._last_push < 1.0 / self.fps
        ):
            self.pending = frame
            return False
        self.pending = None
        src = self._flatten(frame)
        if not force and src == self._last_src:
            return False
        out = self.render(src)
        self._last_src = src
        if not force and out == self._last_out:
            return False
        self.strip.write(out)
        self._last_out = out
        self._last_push = now
        self.pushed += 1
        return True

    def flush(self) -> bool:
        """Push the pending frame if its time has come."""
        if self.pending is None:
            return False
        return self.show(self.pending)

    def due_in(self) -> float | None:
        """Seconds until a pending frame may be pushed (0 when it may now); None if none waits."""
        if self.pending is None:
            return None
        if not self.fps or self._last_push is None:
            return 0.0
        return max(0.0, self._last_push + 1.0 / self.fps - self.clock())

    def blank(self) -> None:
        self.show(bytes(self.n * 3), force=True)


def _raise_bad_pixel(frame: Iterable[object]) -> None:
    for i, p in enumerate(frame):
        ok = (
            isinstance(p, tuple | list)
            and len(p) == 3
            and all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= 255 for c in p)
        )
        if not ok:
            raise ValueError(f"LED {i}: colour {p!r} is not (r, g, b) with each channel 0-255")


def wire_time_s(n: int) -> float:
    """How long a frame of `n` WS2812 LEDs takes on the wire: 24 bits x 1.25 us + reset."""
    return n * 30e-6 + 280e-6
