"""The table and its LED strip when the strip misbehaves as real ones do: WLED leaving its
realtime mode, an Arduino resetting as its port opens, a cable pulled mid-game, an SPI
transfer that times out. Through `apps.runtime.Appliance`, with the peers of tests/hw/peers.py
on real ptys; what is asserted is what a person sees: the words said and the LEDs lit."""

from __future__ import annotations

import errno
import sys
import time
import types
from pathlib import Path
from typing import Any, ClassVar

import pytest

from apps.runtime import Appliance, parse_text
from apps.sim import ManualClock, demo_config_text
from tests.hw.peers import ArduinoPeer, WledPeer

LEDS = 438  # the Strozzi layout


def config(tmp_path: Path, *, game: bool = True, **strip: str | int | float) -> Any:
    text = demo_config_text(
        "strozzi",
        3,
        journal=tmp_path / "j.db",
        seed=7,
        strip=str(strip.pop("backend", "adalight")),
        strip_keys=strip,
    )
    if not game:  # no fixed game: the table waits at idle, a picture that does not move
        text = text.replace('game = "strozzi"\n', "")
    return parse_text(text, name="table.toml")


class Run:
    """A table on mocked buttons, driven like the main loop: events, then a render."""

    def __init__(self, cfg: Any) -> None:
        self.said: list[str] = []
        self.clock = ManualClock()
        self.table = Appliance(cfg, clock=self.clock, button_thread=False, say=self.said.append)
        self.table.app.start()
        self.table.app.tick()

    def loop(self, seconds: float) -> None:
        """The main loop for `seconds` of real time (the strip's keeper runs meanwhile)."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.table.step(0.05)
            self.clock.advance(0.05)
            self.table.app.tick()

    def press(self, seat: str, button: str) -> None:
        buttons = self.table.buttons
        for down in (True, False):
            buttons.press_pin(seat, button, down)
            self.clock.advance(0.05)
            buttons.process()
            self.loop(0.05)

    def until(self, words: str, timeout: float = 15) -> None:
        end = time.monotonic() + timeout
        while not any(words in line for line in self.said):
            assert time.monotonic() < end, f"never said {words!r}: {self.said}"
            self.loop(0.05)

    def close(self) -> None:
        self.table.close()


def test_a_still_picture_keeps_wled_in_realtime_mode(tmp_path: Path) -> None:
    link = tmp_path / "wled"
    peer = WledPeer(link, leds=LEDS)
    run = Run(config(tmp_path, game=False, port=str(link), baud=1_000_000))
    try:
        run.loop(4.5)  # idle: one picture, no animation; WLED gives up after 2.5 s
        assert peer.entered, "no frame reached WLED"
        assert peer.left == [], "WLED went back to its own effect under a still table"
        assert peer.realtime and peer.last == run.table.pipeline._last_out
    finally:
        run.close()
        peer.close()


def test_an_arduino_that_resets_on_open_shows_the_first_picture(tmp_path: Path) -> None:
    link = tmp_path / "arduino"
    peer = ArduinoPeer(link, leds=LEDS, boot_s=1.0)
    time.sleep(1.1)  # plugged in before the table starts
    run = Run(config(tmp_path, game=False, port=str(link), baud=1_000_000))
    try:
        run.loop(1.0)
        assert peer.resets, "opening the port did not reset the board"
        assert peer.lost_in_bootloader == 0, "frames went to the bootloader"
        assert peer.shown and peer.last == run.table.pipeline._last_out
    finally:
        run.close()
        peer.close()


def test_a_strip_unplugged_mid_game_is_said_once_the_game_goes_on_and_it_comes_back(
    tmp_path: Path,
) -> None:
    link = tmp_path / "wled"
    peer = WledPeer(link, leds=LEDS)
    run = Run(config(tmp_path, port=str(link), baud=1_000_000))
    try:
        run.press("1", "select")
        run.until("Seat 1 joined")
        peer.unplug()
        run.press("2", "select")  # a new picture: its write finds the strip gone
        run.until("Seat 2 joined")
        run.until("LED strip failed")
        run.press("3", "select")
        run.until("Seat 3 joined")  # the game goes on without its lights
        failed = [s for s in run.said if s.startswith("LED strip")]
        assert failed == [failed[0]] and "The game goes on" in failed[0], run.said
        peer.plug()
        run.until("LED strip is back; the board is shown again.")
        run.loop(0.3)
        assert peer.last == run.table.pipeline._last_out  # seats 1-3 joined, as it is now
        assert [s for s in run.said if s.startswith("LED strip")] == [
            failed[0],
            "LED strip is back; the board is shown again.",
        ]
    finally:
        run.close()
        peer.close()


class TimingOutSpi:
    """spidev's SpiDev, whose transfers time out while `failing` (a Pi 5 DMA fault)."""

    failing = False
    writes: ClassVar[list[bytes]] = []
    opens = 0

    def open(self, bus: int, device: int) -> None:
        TimingOutSpi.opens += 1

    def writebytes2(self, data: bytes) -> None:
        if TimingOutSpi.failing:
            raise OSError(errno.ETIMEDOUT, "Connection timed out")
        TimingOutSpi.writes.append(bytes(data))

    def close(self) -> None:
        pass


@pytest.fixture
def timing_out_spi(monkeypatch: pytest.MonkeyPatch) -> type[TimingOutSpi]:
    mod = types.ModuleType("spidev")
    mod.SpiDev = TimingOutSpi  # type: ignore[attr-defined]
    TimingOutSpi.failing, TimingOutSpi.writes, TimingOutSpi.opens = False, [], 0
    monkeypatch.setitem(sys.modules, "spidev", mod)
    return TimingOutSpi


def test_an_spi_transfer_that_times_out_does_not_end_the_table(
    tmp_path: Path, timing_out_spi: type[TimingOutSpi]
) -> None:
    """spidev is replaced (this machine has no SPI): what it cannot show is the kernel's
    own behaviour after a DMA timeout; the table's answer to the OSError is what counts."""
    run = Run(config(tmp_path, backend="spi"))
    try:
        run.press("1", "select")
        timing_out_spi.failing = True
        run.press("2", "select")
        run.until("LED strip failed: SPI write failed: [Errno 110] Connection timed out")
        run.press("3", "select")
        run.until("Seat 3 joined")
        timing_out_spi.failing = False
        run.until("LED strip is back")
        assert timing_out_spi.opens >= 2  # closed and opened again
        run.loop(0.2)
        assert timing_out_spi.writes[-1] == run.table.strip.backend.encoder.encode(  # type: ignore[attr-defined]
            run.table.pipeline._last_out
        )
    finally:
        run.close()
