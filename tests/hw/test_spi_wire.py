"""The SPI backend's frames decoded on the wire by tests/hw/ws2812_wire.py, a WS2812 model
written apart from hw/backends/spi.py: with and without the idle clock the BCM283x SPI
block inserts after each byte, at the clocks the Pi really makes.

What the model cannot show: a real chip's threshold between T0H max and T1H min, the
level MOSI really takes during the idle clock (both "low" and "hold" are tried), and
jitter of a real SPI clock."""

from __future__ import annotations

import logging
import random
import types
from pathlib import Path

import pytest

from hw.backends.spi import SpiEncoder, SpiStrip
from hw.config import parse_config_text

from .ws2812_wire import BOARDS, line, pi_clock, reads_right

CLOCKS = (2_400_000, 3_200_000, 4_000_000, 6_400_000)
#: per-byte patterns that stress every bit position, then random colours
DATA = bytes([0x00, 0xFF, 0xAA, 0x55, 0x01, 0x80, 0x7F, 0xFE]) + bytes(
    random.Random(2812).randrange(256) for _ in range(3 * 100)
)


def wire(hz: int) -> bytes:
    return SpiEncoder(hz).encode(DATA)


@pytest.mark.parametrize("board,source", BOARDS)
@pytest.mark.parametrize("hz", CLOCKS)
def test_every_clock_decodes_without_an_idle_clock(hz: int, board: str, source: float) -> None:
    ok, got = reads_right(DATA, wire(hz), pi_clock(hz, source))
    assert ok, (board, got.errors[:3])


@pytest.mark.parametrize("level", ["low", "hold"])
@pytest.mark.parametrize("board,source", BOARDS)
@pytest.mark.parametrize(
    "hz,survives", [(2_400_000, False), (3_200_000, True), (4_000_000, False), (6_400_000, True)]
)
def test_only_byte_aligned_clocks_survive_an_idle_clock_after_each_byte(
    hz: int, survives: bool, board: str, source: float, level: str
) -> None:
    ok, got = reads_right(DATA, wire(hz), pi_clock(hz, source), idle=1, level=level)
    assert ok is survives, (board, got.errors[:3])
    if survives:
        assert got.zero_margin_ns > 0 and got.one_margin_ns > 0 and got.latch_margin_ns > 0
    else:  # the chip reads other colours, or cannot read the bits at all
        assert got.errors or got.bits != [int(b) for x in DATA for b in f"{x:08b}"]


def test_the_model_catches_a_one_split_by_the_idle_clock() -> None:
    """The decoder itself: a 2.4 MHz `110` across a byte boundary is two short pulses."""
    hz = 2_400_000
    spi = bytes([0b00000001, 0b10000000])  # a high in the last bit of one byte and the first
    assert [lvl for lvl, _ in line(spi, hz)] == [0, 1, 0]
    assert line(spi, hz)[1] == (1, pytest.approx(2e9 / hz))  # 833 ns: a 1
    assert [lvl for lvl, _ in line(spi, hz, idle=1)] == [0, 1, 0, 1, 0]  # split in two
    assert [lvl for lvl, _ in line(spi, hz, idle=1, level="hold")] == [0, 1, 0]  # 1250 ns


def test_the_default_clock_survives_the_idle_clock(tmp_path: Path) -> None:
    hz = parse_config_text('[strip]\nbackend = "spi"\ncount = 100\n').strip.spi_hz  # type: ignore[union-attr]
    for board, source in BOARDS:
        for level in ("low", "hold"):
            ok, got = reads_right(DATA, wire(hz), pi_clock(hz, source), idle=1, level=level)
            assert ok, (hz, board, level, got.errors[:3])


def test_the_backend_default_is_the_config_default(
    fake_spidev: types.ModuleType, tmp_path: Path
) -> None:
    from tests.hw.conftest import FakeSpiDev

    SpiStrip(2, bufsiz_path=tmp_path / "none")
    strip = parse_config_text('[strip]\nbackend = "spi"\ncount = 2\n').strip
    assert strip is not None
    assert FakeSpiDev.instances[-1].max_speed_hz == strip.spi_hz


@pytest.mark.parametrize(
    "hz,warns", [(2_400_000, True), (4_000_000, True), (3_200_000, False), (6_400_000, False)]
)
def test_a_clock_that_puts_bits_across_bytes_is_warned_about(
    fake_spidev: types.ModuleType,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    hz: int,
    warns: bool,
) -> None:
    with caplog.at_level(logging.WARNING, logger="tavola.hw"):
        SpiStrip(2, hz=hz, bufsiz_path=tmp_path / "none")
    said = [r.getMessage() for r in caplog.records if r.name == "tavola.hw"]
    if warns:
        assert len(said) == 1 and f"spi_hz = {hz}" in said[0] and "3200000" in said[0]
    else:
        assert said == []
