"""The SPI MOSI line as a WS2812 sees it, decoded the way the chip decodes it.

Written from the WS2812B datasheet and the Linux SPI drivers, not from
hw/backends/spi.py, so that a wrong encoder (or a fragile default) fails here.

The wire: each SPI byte is clocked out MSB first, one bit per clock period; the
BCM283x SPI block inserts `idle` clocks after each byte (one, as seen on Pi 4 DMA
transfers), during which MOSI is low ("low") or keeps the byte's last bit ("hold";
both are modelled, since the level is not documented). The clock is what the SPI
block makes of the requested one: the BCM283x divides its core clock by an even
divisor, rounded up (spi-bcm2835.c: DIV_ROUND_UP, then +1 if odd); the Pi 5's RP1
divides 200 MHz the same way (spi-dw-core.c).

The chip: a high pulse up to T0H max (550 ns) is a 0, one from T1H min (650 ns) is
a 1, and anything between is undecidable (the datasheet's windows leave that gap; a
real chip's threshold lies somewhere in it). A high longer than T1H max is still a 1:
the chip only times the pulse against its threshold. A low longer than `latch_ns`
(5 us, where some chips already latch; the datasheet only promises a latch after
280 us) ends the frame early. These are the things the idle clock can break: it can
split a high pulse in two (a 1 becomes two short pulses) or lengthen a low.
"""

from __future__ import annotations

from dataclasses import dataclass, field

T0H_MAX_NS = 550.0  # 400 + 150: the longest high that is certainly a 0
T1H_MIN_NS = 650.0  # 800 - 150: the shortest high that is certainly a 1
T1H_MAX_NS = 950.0  # the datasheet's window; chips take longer highs as a 1 too
LATCH_NS = 5_000.0  # a low this long may latch the frame (some chips do it at ~6 us)
RESET_NS = 280_000.0  # WS2812B-V5: a low this long certainly latches

#: Where the SPI clock comes from: (name, source clock in Hz).
BOARDS = (("Pi 3, core_freq=250", 250e6), ("Pi 4, core_freq_min=500", 500e6), ("Pi 5 (RP1)", 200e6))


def pi_clock(requested_hz: float, source_hz: float) -> float:
    """The SPI clock the Pi makes when asked for `requested_hz`: an even divisor, rounded up."""
    div = -(-int(source_hz) // int(requested_hz))  # DIV_ROUND_UP
    div += div % 2
    return source_hz / max(2, div)


def line(spi: bytes, hz: float, *, idle: int = 0, level: str = "low") -> list[tuple[int, float]]:
    """The MOSI line as (level, nanoseconds) runs; `idle` clocks after each byte at `level`."""
    if level not in ("low", "hold"):
        raise ValueError("level is 'low' or 'hold'")
    t = 1e9 / hz
    runs: list[list[float]] = []

    def put(bit: int) -> None:
        if runs and runs[-1][0] == bit:
            runs[-1][1] += t
        else:
            runs.append([bit, t])

    for byte in spi:
        bits = [(byte >> (7 - k)) & 1 for k in range(8)]
        for bit in bits:
            put(bit)
        for _ in range(idle):
            put(0 if level == "low" else bits[-1])
    return [(int(b), d) for b, d in runs]


@dataclass
class Decoded:
    """What the chip read: its bits, and how close each pulse came to being misread."""

    bits: list[int] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    zero_highs: list[float] = field(default_factory=list)  # ns of every 0's high pulse
    one_highs: list[float] = field(default_factory=list)
    lows: list[float] = field(default_factory=list)  # every low inside the frame
    tail_ns: float = 0.0  # the low after the last bit
    latched: bool = False

    @property
    def zero_margin_ns(self) -> float:
        """How far the longest 0 stays below T0H max (negative: it may read as a 1)."""
        return T0H_MAX_NS - max(self.zero_highs, default=0.0)

    @property
    def one_margin_ns(self) -> float:
        """How far the shortest 1 stays above T1H min."""
        return min(self.one_highs, default=float("inf")) - T1H_MIN_NS

    @property
    def latch_margin_ns(self) -> float:
        """How far the longest low inside the frame stays below an early latch."""
        return LATCH_NS - max(self.lows, default=0.0)


def decode(runs: list[tuple[int, float]]) -> Decoded:
    out = Decoded()
    if runs and runs[0][0] == 0:
        runs = runs[1:]  # the line idles low before the first bit
    for k in range(0, len(runs), 2):
        level, high = runs[k]
        assert level == 1
        low = runs[k + 1][1] if k + 1 < len(runs) else 0.0
        last = k + 2 >= len(runs)
        if high <= T0H_MAX_NS:
            out.bits.append(0)
            out.zero_highs.append(high)
        elif high >= T1H_MIN_NS:
            out.bits.append(1)
            out.one_highs.append(high)
        else:
            out.errors.append(
                f"a {high:.0f} ns high pulse at bit {len(out.bits)} is neither a 0 nor a 1"
            )
            out.bits.append(-1)
        if last:
            out.tail_ns = low
            out.latched = low >= RESET_NS
        else:
            out.lows.append(low)
            if low > LATCH_NS:
                out.errors.append(
                    f"a {low:.0f} ns low at bit {len(out.bits)} may latch the frame early"
                )
    return out


def expected_bits(data: bytes) -> list[int]:
    return [(b >> (7 - k)) & 1 for b in data for k in range(8)]


def reads_right(
    data: bytes, spi: bytes, hz: float, *, idle: int = 0, level: str = "low"
) -> tuple[bool, Decoded]:
    """Whether the chip reads exactly `data` (and latches) from `spi` on the wire."""
    got = decode(line(spi, hz, idle=idle, level=level))
    return (not got.errors and got.latched and got.bits == expected_bits(data)), got
