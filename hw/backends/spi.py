"""WS2812 over SPI: each WS2812 bit becomes a few SPI bits, so no DMA, PWM or root is needed.

This is the backend for the Raspberry Pi 5 (whose RP1 chip rpi_ws281x cannot drive)
and for unprivileged runs anywhere: only `/dev/spidev0.0` and the `spi` group.
At 3.2 MHz (the default) one SPI bit lasts 312.5 ns, so a WS2812 "0" is `1000` and a
"1" is `1110`, four SPI bits per 1.25 us WS2812 bit and two WS2812 bits per SPI byte.
After the frame the line stays low for at least 280 us (the WS2812B-V5 reset) so the
strip latches.

Why 3.2 MHz: the BCM283x SPI block inserts one idle clock (the line low) after each
byte, as reported on Pi 4 DMA transfers. Where every byte holds whole WS2812 bits,
each ending low (4 or 8 SPI bits a bit: 3.2 or 6.4 MHz), that idle clock only
lengthens a low, which the LEDs ignore. At 2.4 MHz (3 bits) and 4.0 MHz (5 bits) a
byte ends inside a WS2812 bit, and an idle clock there cuts a "1" in two: the strip
shows garbage. Those clocks still work where no idle clock is inserted, and are
accepted with a warning in the log. tests/hw/ws2812_wire.py decodes the wire with
and without the idle clock, independently of this module.

`spidev` is imported only when a strip opens, so this module imports anywhere.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hw.backends import Backend, own_keys
from hw.schema import Int, Key, Section, Table
from hw.strip import ByteStrip, StripError

if TYPE_CHECKING:
    from hw.config import StripConfig

#: WS2812B datasheet timings in seconds: (nominal, tolerance).
T0H = (0.40e-6, 0.15e-6)
T1H = (0.80e-6, 0.15e-6)
T0L = (0.85e-6, 0.15e-6)
T1L = (0.45e-6, 0.15e-6)
BIT_PERIOD = (1.25e-6, 0.60e-6)
#: Low time that latches a frame: 280 us for WS2812B-V5 (older chips: 50 us); a margin on top.
RESET_S = 300e-6
BUFSIZ_PATH = Path("/sys/module/spidev/parameters/bufsiz")
#: The clock the backend uses unless told otherwise: four SPI bits a WS2812 bit.
DEFAULT_HZ = 3_200_000
log = logging.getLogger("tavola.hw")


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

    @property
    def byte_aligned(self) -> bool:
        """Every SPI byte holds whole WS2812 bits, so an idle clock between bytes falls on
        a low (each bit ends low: high1 < bits) and changes no bit."""
        return 8 % self.bits == 0 and self.high1 < self.bits


def spi_timing(hz: int) -> SpiTiming:
    """The encoding for SPI clock `hz`; ValueError (saying which clocks work) if none fits."""
    hint = (
        "use 3200000 (4 bits) or 6400000 (8 bits); 2400000 (3 bits) and 4000000 "
        "(5 bits) also make WS2812 bits, but not where SPI idles a clock between bytes"
    )
    if hz <= 0:
        raise ValueError(f"{hz} Hz is not a clock; {hint}")
    bits = round(BIT_PERIOD[0] * hz)
    if not 3 <= bits <= 8:
        raise ValueError(f"{hz} Hz gives {bits} SPI bits per WS2812 bit (3-8 work); {hint}")
    high0 = max(1, round(T0H[0] * hz))
    high1 = min(bits - 1, round(T1H[0] * hz))
    t = 1 / hz
    checks = [
        ("T0H", high0 * t, T0H),
        ("T1H", high1 * t, T1H),
        ("T0L", (bits - high0) * t, T0L),
        ("T1L", (bits - high1) * t, T1L),
        ("bit period", bits * t, BIT_PERIOD),
    ]
    for name, got, (nominal, tol) in checks:
        if abs(got - nominal) > tol + 1e-12:
            raise ValueError(
                f"{hz} Hz gives {name} = {got * 1e9:.0f} ns, outside WS2812's "
                f"{nominal * 1e9:.0f} ± {tol * 1e9:.0f} ns; {hint}"
            )
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

    def __init__(
        self,
        n: int,
        *,
        order: str = "GRB",
        bus: int = 0,
        device: int = 0,
        hz: int = DEFAULT_HZ,
        bufsiz_path: str | Path = BUFSIZ_PATH,
    ) -> None:
        if len(order) != 3:
            raise StripError(
                "the spi backend drives 3-channel WS2812 strips; set order to e.g. 'GRB'"
            )
        super().__init__(n, order=order)
        self.encoder = SpiEncoder(hz)
        if not self.encoder.timing.byte_aligned:
            log.warning(
                "spi_hz = %d puts WS2812 bits across SPI byte boundaries: where the "
                "SPI block idles a clock between bytes (Pi 4 DMA transfers) the LEDs "
                "garble; %d or 6400000 survive it",
                hz,
                DEFAULT_HZ,
            )
        try:
            import spidev  # lazily: hardware library, imported only when used
        except ImportError:
            raise StripError("the spi backend needs spidev: pip install spidev") from None
        dev = f"/dev/spidev{bus}.{device}"
        self._spi = spidev.SpiDev()
        try:
            self._spi.open(bus, device)
        except FileNotFoundError:
            raise StripError(
                f"{dev} does not exist: enable SPI (raspi-config > Interface "
                "Options > SPI, or dtparam=spi=on in /boot/firmware/config.txt)"
            ) from None
        except PermissionError:
            raise StripError(
                f"no permission for {dev}: add the user to the spi group "
                "(sudo usermod -aG spi $USER) and log in again"
            ) from None
        # after the open: SPI off is the first thing to fix, the buffer the second
        frame_len = len(self.encoder.encode(bytes(n * 3)))
        bufsiz = _read_int(bufsiz_path)
        if bufsiz is not None and frame_len > bufsiz:
            self._spi.close()
            raise StripError(
                f"a frame of {n} LEDs is {frame_len} SPI bytes but spidev sends at most "
                f"{bufsiz} per transfer (gaps between transfers garble the strip); add "
                f"'spidev.bufsiz={1 << max(16, frame_len.bit_length())}' to "
                "/boot/firmware/cmdline.txt and reboot"
            )
        self._spi.max_speed_hz = hz
        self._spi.mode = 0

    def _send(self, data: bytes) -> None:
        try:
            self._spi.writebytes2(self.encoder.encode(data))
        except OSError as e:  # e.g. a DMA transfer that timed out (seen on Pi 5 kernels)
            raise StripError(f"SPI write failed: {e}") from None

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


# --- the backend as the config file sees it ------------------------------------------------
def _settings(t: Section, keys: Table) -> dict[str, Any]:
    try:
        spi_timing(t["spi_hz"])
    except ValueError as e:
        raise t.err("spi_hz", str(e)) from None
    return own_keys(t, keys)


def _open(config: StripConfig, **overrides: Any) -> SpiStrip:
    return SpiStrip(
        config.count,
        order=config.order,
        bus=config.spi_bus,
        device=config.spi_device,
        hz=config.spi_hz,
        **overrides,
    )


BACKEND = Backend(
    "spi",
    Table(
        Key("spi_bus", Int(lo=0, hi=6), 0),
        Key("spi_device", Int(lo=0, hi=3), 0),
        Key(
            "spi_hz",
            Int(lo=1),
            DEFAULT_HZ,
            "3200000 or 6400000 survive the idle clock SPI inserts between bytes",
        ),
    ),
    default_order="GRB",
    channels=(3,),
    channels_help="the spi backend drives 3-channel WS2812 strips only",
    settings=_settings,
    open=_open,
)
