"""Fixtures for hardware tests: a fresh MockFactory per test, a hand-driven clock, fake libs."""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

HERE = Path(__file__).parent


class FakeClock:
    """A clock tests move by hand: `clock()` reads it, `clock.advance(s)` moves it."""

    def __init__(self, start: float = 100.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def mock_factory() -> Iterator[MockFactory]:
    """A MockFactory installed as gpiozero's default; devices closed and pins reset after."""
    saved = Device.pin_factory
    factory = MockFactory()
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.close()
        factory.reset()
        Device.pin_factory = saved


@pytest.fixture
def pi4_model(tmp_path: Path) -> Path:
    p = tmp_path / "model"
    p.write_bytes(b"Raspberry Pi 4 Model B Rev 1.4\x00")
    return p


@pytest.fixture
def writable(tmp_path: Path) -> Path:
    """A file standing in for /dev/mem or /dev/spidev0.0 that the test user may open."""
    p = tmp_path / "dev"
    p.write_bytes(b"")
    return p


class FakePixelStrip:
    """Records what rpi_ws281x's PixelStrip would have been asked to do."""

    instances: ClassVar[list[FakePixelStrip]] = []

    def __init__(
        self,
        num: int,
        pin: int,
        freq_hz: int = 800_000,
        dma: int = 10,
        invert: bool = False,
        brightness: int = 255,
        channel: int = 0,
        strip_type: int | None = None,
        gamma: object = None,
    ) -> None:
        self.args = dict(
            num=num,
            pin=pin,
            freq_hz=freq_hz,
            dma=dma,
            invert=invert,
            brightness=brightness,
            channel=channel,
            strip_type=strip_type,
        )
        self.colours = [0] * num
        self.shown: list[list[int]] = []
        self.begun = False
        FakePixelStrip.instances.append(self)

    def begin(self) -> None:
        self.begun = True

    def setPixelColor(self, n: int, color: int) -> None:  # rpi_ws281x's name
        self.colours[n] = color

    #: what show() raises instead of showing (rpi_ws281x raises on a failed ws2811_render)
    fail: str | None = None

    def show(self) -> None:
        if self.fail:
            raise RuntimeError(self.fail)
        self.shown.append(list(self.colours))

    def _cleanup(self) -> None:  # ws2811_fini + delete_ws2811_t in rpi_ws281x
        self.finished = True

    finished = False


@pytest.fixture
def fake_ws281x(monkeypatch: pytest.MonkeyPatch) -> types.ModuleType:
    """A stand-in `rpi_ws281x` in sys.modules: the real one must never load off a Pi."""
    mod = types.ModuleType("rpi_ws281x")
    ws = types.ModuleType("rpi_ws281x.ws")
    for i, name in enumerate(
        (
            "WS2811_STRIP_RGB",
            "WS2811_STRIP_GRB",
            "WS2811_STRIP_BRG",
            "SK6812_STRIP_RGBW",
            "SK6812_STRIP_GRBW",
        )
    ):
        setattr(ws, name, 0x100 + i)
    mod.ws = ws  # type: ignore[attr-defined]
    FakePixelStrip.instances = []
    mod.PixelStrip = FakePixelStrip  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "rpi_ws281x", mod)
    return mod


class FakeSpiDev:
    instances: ClassVar[list[FakeSpiDev]] = []

    def __init__(self) -> None:
        self.opened: tuple[int, int] | None = None
        self.max_speed_hz = 0
        self.mode = -1
        self.writes: list[bytes] = []
        self.closed = False
        FakeSpiDev.instances.append(self)

    def open(self, bus: int, device: int) -> None:
        self.opened = (bus, device)

    def writebytes2(self, data: bytes) -> None:
        self.writes.append(bytes(data))

    def close(self) -> None:
        self.closed = True


@pytest.fixture
def fake_spidev(monkeypatch: pytest.MonkeyPatch) -> types.ModuleType:
    mod = types.ModuleType("spidev")
    FakeSpiDev.instances = []
    mod.SpiDev = FakeSpiDev  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "spidev", mod)
    return mod


def write_toml(tmp_path: Path, text: str, name: str = "tavola.toml") -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p
