"""WS2812 over SPI: each WS2812 bit becomes a few SPI bits, so no DMA, PWM or root is needed.

This is the backend for the Raspberry Pi 5 (whose RP1 chip rpi_ws281x cannot drive)
and for unprivileged runs anywhere: only `/dev/spidev0.0` and the `spi` group.
At 2.4 MHz one SPI bit lasts 417 ns, so a WS2812 "0" is `100` and a "1" is `110`,
three SPI bits per 1.25 us WS2812 bit. After the frame the line stays low for
at least 280 us (the WS2812B-V5 reset) so the strip latches.

`spidev` is imported only when a strip opens, so this module imports anywhere.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from hw.strip import ByteStrip, StripError

#: WS2812B datasheet timings in seconds: (nominal, tolerance).
T0H = (0.40e-6, 0.15e-6)
T1H = (0.80e-6, 0.15e-6)
T0L = (0.85e-6, 0.15e-6)
T1L = (0.45e-6, 0.15e-6)
BIT_PERIOD = (1.25e-6, 0.60e-6)
#: Low time that latches a frame: 280 us for WS2812B-V5 (older chips: 50 us); a margin on top.
RESET_S = 300e-6
BUFSIZ_PATH = Path("/sys/module/spidev/parameters/bufsiz")


@dataclass(frozen=True, slots=True)
class SpiTiming:
    """One WS2812 bit at an SPI clock: `bits` SPI bits, the first `high0`/`high1` of them set."""

    hz: int
    bits: int
    high0: int
    high1: int

    @property
    def reset_bytes(self) -> int:
        return math.ceil(RESET_S * self.hz / 8)


def spi_timing(hz: int) -> SpiTiming:
    """The encoding for SPI clock `hz`; ValueError (saying which clocks work) if none fits."""
    hint = "use 2400000 (3 bits), 3200000 (4 bits), 4000000 (5 bits) or 6400000 (8 bits)"
    if hz <= 0:
        raise ValueError(f"{hz} Hz is not a clock; {hint}")
    bits = round(BIT_PERIOD[0] * hz)
    if not 3 <= bits <= 8:
        raise ValueError(f"{hz} Hz gives {bits} SPI bits per WS2812 bit (3-8 work); {hint}")
    high0 = max(1, round(T0H[0] * hz))
    high1 = min(bits - 1, round(T1H[0] * hz))
    t = 1 / hz
    checks = [("T0H", high0 * t, T0H), ("T1H", high1 * t, T1H), ("T0L", (bits - high0) * t, T0L),
              ("T1L", (bits - high1) * t, T1L), ("bit period", bits * t, BIT_PERIOD)]
    for name, got, (nominal, tol) in checks:
        if abs(got - nominal) > tol + 1e-12:
            raise ValueError(f"{hz} Hz gives {name} = {got * 1e9:.0f} ns, outside WS2812's "
                             f"{nominal * 1e9:.0f} ± {tol * 1e9:.0f} ns; {hint}")
    return SpiTiming(hz=hz, bits=bits, high0=high0, high1=high1)


class SpiEncoder:
    """Bytes in wire order -> SPI bytes; `bits` translate tables do the work at C speed."""

    def __init__(self, hz: int) -> None:
        self.timing = timing = spi_timing(hz)
        k = timing.bits
        zero = ((1 << timing.high0) - 1) << (k - timing.high0)
        one = ((1 << timing.high1) - 1) << (k - timing.high1)
        words = []
        for value in range(256):
            word = 0
            for bit in range(7, -1, -1):
                word = (word << k) | (one if value >> bit & 1 else zero)
            words.append(word.to_bytes(k, "big"))  # 8 WS2812 bits x k SPI bits = k bytes
        self._tables = [bytes(w[j] for w in words) for j in range(k)]
        self._tail = bytes(timing.reset_bytes)

    def encode(self, data: bytes | bytearray) -> bytes:
        k = self.timing.bits
        n = len(data)
        out = bytearray(1 + n * k + len(self._tail))  # one low byte first, the reset after
        end = 1 + n * k
        for j, table in enumerate(self._tables):
            out[1 + j : end : k] = data.translate(table)
        return bytes(out)


class SpiStrip(ByteStrip):
    """A WS2812 strip on SPI MOSI (GPIO10 for bus 0)."""

    def __init__(self, n: int, *, order: str = "GRB", bus: int = 0, device: int = 0,
                 hz: int = 2_400_000, bufsiz_path: str | Path = BUFSIZ_PATH) -> None:
        if len(order) != 3:
            raise StripError("the spi backend drives 3-channel WS2812 strips; set order to "
                             "e.g. 'GRB'")
        super().__init__(n, order=order)
        self.encoder = SpiEncoder(hz)
        frame_len = len(self.encoder.encode(bytes(n * 3)))
        bufsiz = _read_int(bufsiz_path)
        if bufsiz is not None and frame_len > bufsiz:
            raise StripError(
                f"a frame of {n} LEDs is {frame_len} SPI bytes but spidev sends at most "
                f"{bufsiz} per transfer (gaps between transfers garble the strip); add "
                f"'spidev.bufsiz={1 << max(16, frame_len.bit_length())}' to "
                "/boot/firmware/cmdline.txt and reboot")
        try:
            import spidev  # lazily: hardware library, imported only when used
        except ImportError:
            raise StripError("the spi backend needs spidev: pip install spidev") from None
        dev = f"/dev/spidev{bus}.{device}"
        self._spi = spidev.SpiDev()
        try:
            self._spi.open(bus, device)
        except FileNotFoundError:
            raise StripError(f"{dev} does not exist: enable SPI (raspi-config > Interface "
                             "Options > SPI, or dtparam=spi=on in /boot/firmware/config.txt)"
                             ) from None
        except PermissionError:
            raise StripError(f"no permission for {dev}: add the user to the spi group "
                             "(sudo usermod -aG spi $USER) and log in again") from None
        self._spi.max_speed_hz = hz
        self._spi.mode = 0

    def _send(self, data: bytes) -> None:
        self._spi.writebytes2(self.encoder.encode(data))

    def close(self) -> None:
        try:
            super().close()
        finally:
            self._spi.close()


def _read_int(path: str | Path) -> int | None:
    try:
        return int(Path(path).read_text().strip())
    except (OSError, ValueError):
        return None
