"""Strips that keep working: errors told once, reopened with backoff, keep-alive resends, and
Adalight boards that reset when the port opens, against peers on real ptys (tests/hw/peers.py)."""

from __future__ import annotations

import itertools
import threading
import time
import types
from pathlib import Path

import pytest

from hw.backends.adalight import AdalightStrip
from hw.backends.mock import MockStrip
from hw.backends.ws281x import Ws281xStrip
from hw.config import StripConfig, parse_config_text
from hw.pipeline import Pipeline
from hw.recovery import RecoveringStrip
from hw.strip import StripError
from tests.hw.conftest import FakePixelStrip

from .peers import ArduinoPeer, WledPeer

N = 10
FRAME = bytes(range(3 * N))


class Said(list[tuple[str, str]]):
    def __call__(self, kind: str, message: str) -> None:
        self.append((kind, message))

    def kinds(self) -> list[str]:
        return [k for k, _ in self]


def wait_until(predicate, timeout: float = 10.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


class Flaky:
    """Opens MockStrips; `broken` makes writes and opens fail as an unplugged device's do."""

    def __init__(self) -> None:
        self.broken = False
        self.opened: list[MockStrip] = []
        self.attempts: list[float] = []

    def __call__(self) -> MockStrip:
        self.attempts.append(time.monotonic())
        if self.broken:
            raise StripError("/dev/ttyUSB0: no such device", absent=True)
        flaky = self

        class Strip(MockStrip):
            def _send(self, data: bytes) -> None:
                if flaky.broken:
                    raise OSError(110, "Connection timed out")  # what spidev raises
                super()._send(data)

        strip = Strip(N, order="RGB")
        self.opened.append(strip)
        return strip


def test_a_write_error_is_told_once_the_frames_go_on_and_the_board_comes_back() -> None:
    opener, said = Flaky(), Said()
    strip = RecoveringStrip(opener, n=N, order="RGB", report=said)
    try:
        strip.write(FRAME)
        opener.broken = True
        for k in range(20):  # the render loop goes on: nothing raises
            strip.write(bytes([k]) * (3 * N))
        assert said.kinds() == ["lost"]
        assert said[0][1] == (
            "LED strip failed: [Errno 110] Connection timed out. The game "
            "goes on; retrying until it is back."
        )
        assert not strip.connected
        opener.broken = False
        wait_until(lambda: strip.connected)
        wait_until(lambda: said.kinds() == ["lost", "reconnected"])
        assert said[1][1] == "LED strip is back; the board is shown again."
        assert opener.opened[-1].raw_frames[-1] == bytes([19]) * (3 * N)  # the latest frame
    finally:
        strip.close()
    assert opener.opened[-1].closed


def test_reopening_backs_off_from_a_tenth_of_a_second_doubling_to_five() -> None:
    opener = Flaky()
    strip = RecoveringStrip(opener, n=N, order="RGB")
    try:
        opener.broken = True
        strip.write(FRAME)
        wait_until(lambda: len(opener.attempts) >= 6, timeout=15)
    finally:
        strip.close()
    gaps = [b - a for a, b in zip(opener.attempts[1:], opener.attempts[2:], strict=False)]
    # 0.2, 0.4, 0.8, 1.6 s: each wait twice the last (the first retry comes after 0.1 s)
    for got, want in zip(gaps, (0.2, 0.4, 0.8, 1.6), strict=False):
        assert want <= got < want + 0.5, gaps


def test_a_device_absent_at_start_up_is_waited_for() -> None:
    opener, said = Flaky(), Said()
    opener.broken = True
    strip = RecoveringStrip(opener, n=N, order="RGB", report=said)
    try:
        assert said.kinds() == ["missing"]
        assert said[0][1].startswith(
            "LED strip not found: /dev/ttyUSB0: no such device. The game goes on; waiting for it."
        )
        strip.write(FRAME)
        opener.broken = False
        wait_until(lambda: said.kinds() == ["missing", "reconnected"])
        assert opener.opened[-1].raw_frames == [FRAME]
    finally:
        strip.close()


def test_a_setup_error_at_start_up_is_raised() -> None:
    def opener() -> MockStrip:
        raise StripError("/dev/spidev0.0 does not exist: enable SPI")

    with pytest.raises(StripError, match="enable SPI"):
        RecoveringStrip(opener, n=N, order="RGB")


def test_keep_alive_resends_a_still_frame_and_nothing_while_frames_change() -> None:
    opener = Flaky()
    strip = RecoveringStrip(opener, n=N, order="RGB", keepalive_s=0.2)
    try:
        backend = opener.opened[0]
        strip.write(FRAME)
        time.sleep(1.1)
        still = len(backend.raw_frames)
        assert 5 <= still <= 7, still  # 1 write + a resend every 0.2 s
        assert set(backend.raw_frames) == {FRAME}
        for k in range(22):  # an animation: a new frame every 0.05 s
            strip.write(bytes([k]) * (3 * N))
            time.sleep(0.05)
        assert len(backend.raw_frames) == still + 22  # no resend between them
    finally:
        strip.close()


def test_no_keep_alive_thread_work_without_one() -> None:
    opener = Flaky()
    strip = RecoveringStrip(opener, n=N, order="RGB")
    try:
        strip.write(FRAME)
        time.sleep(0.3)
        assert opener.opened[0].raw_frames == [FRAME]
        assert strip.keepalives == 0
    finally:
        strip.close()


# --- WLED and Arduino on ptys -------------------------------------------------------------


def adalight_config(port: Path, **keys: object) -> StripConfig:
    extra = "".join(f"{k} = {v}\n" for k, v in keys.items())
    cfg = parse_config_text(
        f'[strip]\nbackend = "adalight"\ncount = {N}\nport = "{port}"\nbaud = 500000\n{extra}'
    )
    assert cfg.strip is not None
    return cfg.strip


def test_the_adalight_defaults_wait_for_a_greeting_and_keep_wled_alive(tmp_path: Path) -> None:
    cfg = adalight_config(tmp_path / "tty")
    assert (cfg.greeting_s, cfg.keepalive_s) == (3.0, 1.0)
    assert adalight_config(tmp_path / "tty", keepalive_s=0).keepalive_s is None


def test_wled_stays_in_realtime_mode_on_a_still_picture(tmp_path: Path) -> None:
    link = tmp_path / "wled"
    peer = WledPeer(link, leds=N)
    strip = RecoveringStrip.from_config(adalight_config(link, greeting_s=0))
    try:
        Pipeline(strip, gamma=1.0).show(FRAME)
        time.sleep(4.0)  # WLED's realtime timeout is 2.5 s
        assert peer.entered and not peer.left, (peer.entered, peer.left)
        assert peer.last == FRAME
        times = [t for t, _ in peer.shown]
        gaps = [b - a for a, b in itertools.pairwise(times)]
        assert len(gaps) >= 3 and all(0.9 < g < 1.5 for g in gaps), gaps
        strip.close()  # turns the LEDs off: the peer may still be reading the last frame
        assert peer.wait(lambda: peer.last == bytes(3 * N)), peer.last
    finally:
        strip.close()
        peer.close()


def test_without_keep_alive_wled_drops_back_to_its_effect(tmp_path: Path) -> None:
    """The peer's own timeout, seen: what the keep-alive prevents."""
    link = tmp_path / "wled"
    peer = WledPeer(link, leds=N)
    strip = AdalightStrip(N, port=str(link))
    try:
        strip.write(FRAME)
        assert peer.wait(lambda: peer.left, timeout=5)
        assert 2.4 < peer.left[0] - peer.entered[0] < 3.0
    finally:
        strip.close()
        peer.close()


def test_an_arduino_that_resets_on_open_gets_its_first_frame_after_the_greeting(
    tmp_path: Path,
) -> None:
    link = tmp_path / "arduino"
    peer = ArduinoPeer(link, leds=N, boot_s=1.0)
    time.sleep(1.1)  # powered up with the USB cable: the sketch runs before any open
    t0 = time.monotonic()
    strip = AdalightStrip(N, port=str(link), greeting_s=3.0)
    try:
        assert strip.greeted is True
        assert len(peer.resets) == 1  # the open reset it
        assert 0.9 < time.monotonic() - t0 < 2.0  # its boot, not the whole 3 s
        strip.write(FRAME)
        assert peer.wait(lambda: peer.shown)
        assert peer.last == FRAME
        assert peer.lost_in_bootloader == 0
    finally:
        strip.close()
        peer.close()


def test_without_waiting_the_first_frame_is_lost_in_the_bootloader(tmp_path: Path) -> None:
    link = tmp_path / "arduino"
    peer = ArduinoPeer(link, leds=N, boot_s=0.5)
    strip = AdalightStrip(N, port=str(link), greeting_s=0)
    try:
        strip.write(FRAME)
        assert peer.wait(lambda: peer.greetings > 0, timeout=3)
        assert peer.lost_in_bootloader == 6 + 3 * N and not peer.shown
    finally:
        strip.close()
        peer.close()


def test_a_board_that_never_greets_gets_its_frame_after_greeting_s(tmp_path: Path) -> None:
    link = tmp_path / "wled"
    peer = WledPeer(link, leds=N)
    t0 = time.monotonic()
    strip = AdalightStrip(N, port=str(link), greeting_s=0.5)
    try:
        assert strip.greeted is False
        assert 0.5 <= time.monotonic() - t0 < 1.5
        strip.write(FRAME)
        assert peer.wait(lambda: peer.shown) and peer.last == FRAME
    finally:
        strip.close()
        peer.close()


def test_an_arduino_unplugged_and_replugged_shows_the_board_again(tmp_path: Path) -> None:
    link = tmp_path / "arduino"
    peer = ArduinoPeer(link, leds=N, boot_s=0.5)
    said = Said()
    strip = RecoveringStrip.from_config(adalight_config(link), report=said)
    try:
        Pipeline(strip, gamma=1.0).show(FRAME)
        assert peer.wait(lambda: peer.last == FRAME)
        peer.unplug()
        wait_until(lambda: said.kinds() == ["lost"])  # the next keep-alive finds it gone
        peer.plug()
        wait_until(lambda: said.kinds() == ["lost", "reconnected"], timeout=15)
        assert peer.wait(lambda: peer.last == FRAME)
        assert len(peer.resets) == 2  # each open reset it; nothing was lost either time
        assert peer.lost_in_bootloader == 0
    finally:
        strip.close()
        peer.close()


def test_close_stops_the_keeper_while_it_waits_for_a_device(tmp_path: Path) -> None:
    opener = Flaky()
    opener.broken = True
    strip = RecoveringStrip(opener, n=N, order="RGB", backoff_s=5.0)
    t0 = time.monotonic()
    strip.close()
    assert time.monotonic() - t0 < 1.0
    assert not any(
        t.name == "LED strip keeper" for t in threading.enumerate() if t is strip._thread
    )


def test_a_failed_ws281x_render_is_told_and_the_strip_opened_afresh(
    fake_ws281x: types.ModuleType, pi4_model: Path, writable: Path
) -> None:
    """rpi_ws281x replaced by the fake of conftest (no Pi here): what it cannot show is
    why a real render fails (a DMA or PWM fault); the answer to its RuntimeError counts."""
    said = Said()
    strip = RecoveringStrip(
        lambda: Ws281xStrip(2, pin=18, order="GRB", model_path=pi4_model, dev_mem=writable),
        n=2,
        order="RGB",
        report=said,
    )
    try:
        Pipeline(strip, gamma=1.0, fps=None).show([(1, 2, 3), (4, 5, 6)])
        first = FakePixelStrip.instances[0]
        assert first.shown == [[0x010203, 0x040506]]
        first.fail = "ws2811_render failed with code -11 (DMA error)"
        strip.write(bytes([7, 8, 9, 10, 11, 12]))
        assert said == [
            (
                "lost",
                "LED strip failed: rpi_ws281x could not show a frame: "
                "ws2811_render failed with code -11 (DMA error). The game goes on; "
                "retrying until it is back.",
            )
        ]
        assert first.finished  # freed (ws2811_fini), so a new one can take the DMA channel
        wait_until(lambda: said.kinds() == ["lost", "reconnected"])
        assert FakePixelStrip.instances[-1].shown[-1] == [0x070809, 0x0A0B0C]
    finally:
        strip.close()
