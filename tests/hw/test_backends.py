"""Every LED backend against what its wire really carries: fakes for Pi libraries, a real pty."""

from __future__ import annotations

import io
import os
import random
import select
import sys
import types
from pathlib import Path

import pytest

from hw.backends import open_strip
from hw.backends.adalight import AdalightStrip, header
from hw.backends.mock import MockStrip
from hw.backends.spi import SpiEncoder, SpiStrip, spi_timing
from hw.backends.terminal import TerminalStrip
from hw.backends.ws281x import Ws281xStrip
from hw.config import parse_config_text
from hw.pipeline import Pipeline
from hw.strip import StripError
from tests.hw.conftest import FakePixelStrip, FakeSpiDev

# --- the Strip interface, through the mock -----------------------------------------------


def test_mock_records_set_show_and_write() -> None:
    s = MockStrip(3, order="GRB")
    s.set(1, (10, 20, 30))
    s.show()
    assert s.raw_frames == [bytes([0, 0, 0, 20, 10, 30, 0, 0, 0])]
    s.write(bytes([1, 2, 3, 4, 5, 6, 7, 8, 9]))
    assert s.pixels() == [(2, 1, 3), (5, 4, 6), (8, 7, 9)]
    s.set(0, (0, 0, 0))  # set after write keeps the written pixels
    s.show()
    assert s.last == [(0, 0, 0), (5, 4, 6), (8, 7, 9)]
    s.close()
    assert s.closed and s.last == [(0, 0, 0)] * 3


def test_mock_keeps_only_the_last_frames_when_asked() -> None:
    s = MockStrip(1, keep=2)
    for v in range(5):
        s.write(bytes([v, 0, 0]))
    assert [f[0][0] for f in s.frames] == [3, 4]


def test_strip_rejects_wrong_sizes_and_colours() -> None:
    s = MockStrip(2)
    with pytest.raises(ValueError, match="frame has 5 bytes"):
        s.write(b"\x00" * 5)
    with pytest.raises(ValueError, match="frame has 1 pixels"):
        s.set_all([(0, 0, 0)])
    s.set(1, (0, 0, 300))
    with pytest.raises(ValueError, match=r"pixel 1 is \(0, 0, 300\)"):
        s.show()
    with pytest.raises(ValueError, match="at least one LED"):
        MockStrip(0)


# --- terminal --------------------------------------------------------------------------


def test_terminal_draws_true_colour_blocks_and_redraws_in_place() -> None:
    out = io.StringIO()
    s = TerminalStrip(3, stream=out, width=2, display_gamma=1.0)
    s.write(bytes([255, 0, 0, 0, 255, 0, 0, 0, 255]))
    first = out.getvalue()
    assert first == ("\x1b[48;2;255;0;0m \x1b[48;2;0;255;0m \x1b[0m\n\x1b[48;2;0;0;255m \x1b[0m\n")
    s.write(bytes(9))
    assert out.getvalue()[len(first) :].startswith("\x1b[2F")  # two rows up, then redraw


def test_terminal_undoes_led_gamma_for_the_screen() -> None:
    out = io.StringIO()
    TerminalStrip(1, stream=out).write(bytes([56, 0, 0]))
    assert "\x1b[48;2;128;0;0m" in out.getvalue()  # 56 on the wire looks like 128


# --- ws281x against a fake rpi_ws281x ---------------------------------------------------


def test_ws281x_drives_pixelstrip_with_our_colours(
    fake_ws281x: types.ModuleType, pi4_model: Path, writable: Path
) -> None:
    s = Ws281xStrip(3, pin=18, order="GRB", model_path=pi4_model, dev_mem=writable)
    (fake,) = FakePixelStrip.instances
    assert fake.begun
    assert fake.args == dict(
        num=3,
        pin=18,
        freq_hz=800_000,
        dma=10,
        invert=False,
        brightness=255,
        channel=0,
        strip_type=fake_ws281x.ws.WS2811_STRIP_GRB,
    )
    assert s.order == "RGB"  # the library reorders for the strip type itself
    p = Pipeline(s, gamma=1.0, fps=None)
    p.show([(0x12, 0x34, 0x56), (255, 0, 0), (0, 0, 1)])
    assert fake.shown == [[0x123456, 0xFF0000, 0x000001]]
    s.close()
    assert fake.shown[-1] == [0, 0, 0]


def test_ws281x_rgbw_sends_white_in_the_top_byte(
    fake_ws281x: types.ModuleType, pi4_model: Path, writable: Path
) -> None:
    s = Ws281xStrip(2, pin=13, order="GRBW", model_path=pi4_model, dev_mem=writable)
    (fake,) = FakePixelStrip.instances
    assert fake.args["strip_type"] == fake_ws281x.ws.SK6812_STRIP_GRBW
    assert fake.args["channel"] == 1  # GPIO13 is PWM1
    Pipeline(s, gamma=1.0, fps=None).show([(200, 150, 100), (0, 0, 9)])
    assert fake.shown == [[(100 << 24) | (100 << 16) | (50 << 8), 9]]


def test_ws281x_refuses_to_start_off_a_pi(fake_ws281x: types.ModuleType, tmp_path: Path) -> None:
    with pytest.raises(StripError, match='backend = "terminal"'):
        Ws281xStrip(3, model_path=tmp_path / "no-such-model")
    other = tmp_path / "model"
    other.write_bytes(b"Orange Pi 5\x00")
    with pytest.raises(StripError, match="only runs on a Raspberry Pi"):
        Ws281xStrip(3, model_path=other)
    assert FakePixelStrip.instances == []


def test_ws281x_on_a_pi_5_names_the_spi_backend(
    fake_ws281x: types.ModuleType, tmp_path: Path, writable: Path
) -> None:
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\x00")
    with pytest.raises(StripError, match='set backend = "spi"'):
        Ws281xStrip(3, model_path=model, dev_mem=writable)
    assert FakePixelStrip.instances == []


def test_ws281x_without_dev_mem_names_the_fix(
    fake_ws281x: types.ModuleType, pi4_model: Path, tmp_path: Path
) -> None:
    with pytest.raises(StripError, match=r"needs .*only root.*backend = \"spi\""):
        Ws281xStrip(3, pin=18, model_path=pi4_model, dev_mem=tmp_path / "mem")
    with pytest.raises(StripError, match="spi group"):
        Ws281xStrip(3, pin=10, model_path=pi4_model, spidev=tmp_path / "spidev0.0")
    assert FakePixelStrip.instances == []


def test_ws281x_missing_library_and_failed_init(
    monkeypatch: pytest.MonkeyPatch, fake_ws281x: types.ModuleType, pi4_model: Path, writable: Path
) -> None:
    def failing_begin(self: FakePixelStrip) -> None:
        raise RuntimeError("ws2811_init failed with code -5 (Failed to create mailbox device)")

    monkeypatch.setattr(FakePixelStrip, "begin", failing_begin)
    with pytest.raises(StripError, match=r"could not start: ws2811_init failed.*dma is 10"):
        Ws281xStrip(3, model_path=pi4_model, dev_mem=writable)
    monkeypatch.setitem(sys.modules, "rpi_ws281x", None)
    with pytest.raises(StripError, match="pip install rpi-ws281x"):
        Ws281xStrip(3, model_path=pi4_model, dev_mem=writable)


# --- SPI: the encoding, bit for bit, against WS2812 timing -------------------------------

# WS2812B datasheet, in nanoseconds; written out here rather than imported from the backend.
T0H, T1H, T0L, T1L, TOL = 400, 800, 850, 450, 150
PERIOD, PERIOD_TOL, RESET = 1250, 600, 280_000


def decode_waveform(spi: bytes, hz: int) -> tuple[list[int], float, list[float]]:
    """SPI bytes (MSB first) -> WS2812 data bits, trailing low time, and every bit's period.

    Checks each high pulse and low gap against the datasheet on the way.
    """
    tbit = 1e9 / hz
    bits = "".join(f"{b:08b}" for b in spi)
    runs: list[tuple[str, int]] = []
    for c in bits:
        if runs and runs[-1][0] == c:
            runs[-1] = (c, runs[-1][1] + 1)
        else:
            runs.append((c, 1))
    if runs[0][0] == "0":
        runs = runs[1:]  # the low lead-in before the first bit
    assert runs[-1][0] == "0", "the line must end low"
    tail = runs[-1][1] * tbit
    data: list[int] = []
    periods: list[float] = []
    for j in range(0, len(runs) - 1, 2):
        high = runs[j][1] * tbit
        low = runs[j + 1][1] * tbit
        last = j + 2 >= len(runs)
        if abs(high - T0H) <= TOL:
            data.append(0)
            if not last:
                assert abs(low - T0L) <= TOL, f"T0L {low} ns at bit {len(data)}"
        elif abs(high - T1H) <= TOL:
            data.append(1)
            if not last:
                assert abs(low - T1L) <= TOL, f"T1L {low} ns at bit {len(data)}"
        else:
            raise AssertionError(f"high pulse of {high} ns is neither a 0 nor a 1")
        if not last:
            periods.append(high + low)
    return data, tail, periods


@pytest.mark.parametrize("hz", [2_400_000, 3_200_000, 4_000_000, 6_400_000])
def test_spi_encoding_is_bit_exact_ws2812(hz: int) -> None:
    rng = random.Random(hz)
    wire = bytes([0x00, 0xFF, 0xAA, 0x55, 0x01, 0x80]) + bytes(
        rng.randrange(256) for _ in range(90)
    )
    spi = SpiEncoder(hz).encode(wire)
    data, tail, periods = decode_waveform(spi, hz)
    expected = [int(b) for byte in wire for b in f"{byte:08b}"]  # MSB first, as WS2812 wants
    assert data == expected
    assert all(abs(p - PERIOD) <= PERIOD_TOL for p in periods)
    assert periods and max(periods) == min(periods) == pytest.approx(1e9 * round(1.25e-6 * hz) / hz)
    assert tail >= RESET  # the strip latches


def test_spi_timing_rejects_clocks_that_cannot_make_ws2812_bits() -> None:
    for hz in (1_000_000, 2_000_000, 8_000_000, 0):
        with pytest.raises(ValueError, match="2400000"):
            spi_timing(hz)
    assert spi_timing(2_400_000).bits == 3
    assert spi_timing(6_400_000).bits == 8


def test_spi_strip_writes_encoded_frames(fake_spidev: types.ModuleType, tmp_path: Path) -> None:
    bufsiz = tmp_path / "bufsiz"
    bufsiz.write_text("4096\n")
    s = SpiStrip(2, order="GRB", bus=0, device=1, hz=2_400_000, bufsiz_path=bufsiz)
    (dev,) = FakeSpiDev.instances
    assert dev.opened == (0, 1) and dev.max_speed_hz == 2_400_000 and dev.mode == 0
    Pipeline(s, gamma=1.0, fps=None).show([(1, 2, 3), (4, 5, 6)])
    assert dev.writes == [SpiEncoder(2_400_000).encode(bytes([2, 1, 3, 5, 4, 6]))]
    s.close()
    assert dev.closed
    assert dev.writes[-1] == SpiEncoder(2_400_000).encode(bytes(6))


def test_spi_strip_too_big_for_spidev_buffer_names_the_fix(
    fake_spidev: types.ModuleType, tmp_path: Path
) -> None:
    bufsiz = tmp_path / "bufsiz"
    bufsiz.write_text("4096\n")
    with pytest.raises(StripError, match=r"spidev\.bufsiz=65536.*cmdline\.txt"):
        SpiStrip(1000, bufsiz_path=bufsiz)  # 9092 SPI bytes


def test_spi_strip_open_errors_name_the_fix(
    monkeypatch: pytest.MonkeyPatch, fake_spidev: types.ModuleType, tmp_path: Path
) -> None:
    def missing(self: FakeSpiDev, bus: int, device: int) -> None:
        raise FileNotFoundError

    def denied(self: FakeSpiDev, bus: int, device: int) -> None:
        raise PermissionError

    monkeypatch.setattr(FakeSpiDev, "open", missing)
    with pytest.raises(StripError, match="dtparam=spi=on"):
        SpiStrip(2, bufsiz_path=tmp_path / "none")
    monkeypatch.setattr(FakeSpiDev, "open", denied)
    with pytest.raises(StripError, match="usermod -aG spi"):
        SpiStrip(2, bufsiz_path=tmp_path / "none")
    monkeypatch.setitem(sys.modules, "spidev", None)
    with pytest.raises(StripError, match="pip install spidev"):
        SpiStrip(2, bufsiz_path=tmp_path / "none")


# --- Adalight through a real pseudo-terminal --------------------------------------------


def read_exactly(fd: int, n: int) -> bytes:
    got = b""
    while len(got) < n:
        ready, _, _ = select.select([fd], [], [], 5)
        assert ready, f"timed out after {len(got)} of {n} bytes"
        got += os.read(fd, n - len(got))
    return got


def test_adalight_header_matches_wled() -> None:
    assert header(1) == b"Ada\x00\x00\x55"
    assert header(300) == bytes([0x41, 0x64, 0x61, 0x01, 0x2B, 0x01 ^ 0x2B ^ 0x55])
    with pytest.raises(ValueError):
        header(0)


def test_adalight_frames_arrive_byte_for_byte_over_a_pty() -> None:
    master, slave = os.openpty()
    try:
        strip = AdalightStrip(300, port=os.ttyname(slave), baud=500_000)
        rng = random.Random(3)
        frame = [(rng.randrange(256), rng.randrange(256), rng.randrange(256)) for _ in range(300)]
        Pipeline(strip, gamma=1.0, fps=None).show(frame)
        got = read_exactly(master, 6 + 900)
        assert got[:6] == b"Ada" + bytes([0x01, 0x2B, 0x01 ^ 0x2B ^ 0x55])
        assert got[6:] == bytes(c for p in frame for c in p)  # RGB, including 0x0a and 0x0d
        strip.close()
        assert read_exactly(master, 906) == got[:6] + bytes(900)
    finally:
        os.close(master)
        os.close(slave)


def test_adalight_port_that_cannot_open(tmp_path: Path) -> None:
    with pytest.raises(StripError, match=r"cannot open .*dialout"):
        AdalightStrip(3, port=str(tmp_path / "ttyNONE"))


# --- the factory ------------------------------------------------------------------------


def test_open_strip_by_config(fake_spidev: types.ModuleType, tmp_path: Path) -> None:
    def strip(body: str, **kw: object) -> object:
        cfg = parse_config_text("[strip]\n" + body)
        assert cfg.strip is not None
        return open_strip(cfg.strip, **kw)

    m = strip("backend='mock'\ncount=5\norder='GRB'\n")
    assert isinstance(m, MockStrip) and m.n == 5 and m.order == "GRB"
    t = strip("backend='terminal'\ncount=5\nwidth=3\n", stream=io.StringIO())
    assert isinstance(t, TerminalStrip) and t.width == 3
    s = strip("backend='spi'\ncount=5\nspi_hz=3200000\n", bufsiz_path=tmp_path / "x")
    assert isinstance(s, SpiStrip) and s.encoder.timing.bits == 4
    master, slave = os.openpty()
    try:
        a = strip(f"backend='adalight'\ncount=5\nport='{os.ttyname(slave)}'\n")
        assert isinstance(a, AdalightStrip)
        a.close()
    finally:
        os.close(master)
        os.close(slave)
    with pytest.raises(StripError, match="only runs on a Raspberry Pi"):
        strip("backend='ws281x'\ncount=5\n", model_path=tmp_path / "none")


def test_each_backend_declares_its_own_keys_and_opens_by_its_declaration() -> None:
    """One home per backend: the keys the config check accepts for `backend = X` are the
    common ones plus X's own `BACKEND.keys`, an unknown key is answered with X's keys,
    and `open_strip` opens X through X's declaration."""
    from hw.backends import MODULES, backends
    from hw.config import ConfigError

    assert set(backends()) == set(MODULES)
    for name, declared in backends().items():
        assert declared.name == name
        with pytest.raises(ConfigError) as e:
            parse_config_text(f"[strip]\nbackend = '{name}'\ncount = 3\nbogus_key = 1\n")
        takes = str(e.value).split("takes: ")[1]
        own = {k.name for k in declared.keys.keys}
        assert set(takes.rstrip(")").replace(",", " ").split()) == {
            "backend",
            "count",
            "order",
            "segments",
            *own,
        }, name
    strip = open_strip(
        parse_config_text("[strip]\nbackend='terminal'\ncount=2\nwidth=7\n").strip,
        stream=io.StringIO(),
    )
    assert strip.width == 7
