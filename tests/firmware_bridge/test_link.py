"""Links over real ptys: scanners read, unplugging is told once, replugging reconnects."""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from firmware_bridge.errors import DeviceNotFound
from firmware_bridge.events import CardEvent, LinkEvent
from firmware_bridge.firmware.rdm6300 import frame as rdm_frame
from firmware_bridge.link import SerialLink
from firmware_bridge.ports import DeviceSpec
from firmware_bridge.scanner import ScannerHandler, open_scanner

from .conftest import FAST, link_events, next_event, wait_for


class Recorder(list[Any]):
    """An `emit` that keeps everything and can wait for it."""

    def __init__(self) -> None:
        super().__init__()
        self.arrived = threading.Condition()

    def __call__(self, ev: Any) -> None:
        with self.arrived:
            self.append(ev)
            self.arrived.notify_all()


def test_a_barcode_scanner_on_a_pty_gives_card_events(scanner_emulator, device_path) -> None:
    emu = scanner_emulator(kind="barcode")
    events: queue.Queue[Any] = queue.Queue()
    with open_scanner(
        "barcode", DeviceSpec(path=str(device_path)), emit=events.put, clock=lambda: 42.0, **FAST
    ) as link:
        assert link.wait_connected(10)
        emu.write(b"\x00\x01noise\r\n")  # the tail of a line sent before we opened
        emu.scan("04A1B2C3D4")
        emu.scan("X-17")
        assert next_event(events, CardEvent) == CardEvent("04A1B2C3D4", 42.0, "barcode")
        assert next_event(events, CardEvent).code == "X-17"


def test_an_rdm6300_tag_left_on_the_reader_is_one_read(scanner_emulator, device_path) -> None:
    emu = scanner_emulator(kind="rdm6300")
    events = Recorder()
    with open_scanner("rdm6300", DeviceSpec(path=str(device_path)), emit=events, **FAST) as link:
        assert link.wait_connected(10)
        emu.write(rdm_frame("0A0079A2B1") * 5 + b"\x02garbage" + rdm_frame("0A0079A2B1"))
        emu.scan("1122334455")
        wait_for(lambda: any(isinstance(e, CardEvent) and e.code == "1122334455" for e in events))
    assert [e.code for e in events if isinstance(e, CardEvent)] == ["0A0079A2B1", "1122334455"]


def test_presence_folds_repeats_but_not_a_new_presentation() -> None:
    now = [0.0]
    got: list[Any] = []
    handler = ScannerHandler("rdm6300", emit=got.append, monotonic=lambda: now[0])
    for t in (0.0, 0.1, 0.2, 0.3, 1.0, 1.1):  # lifted for 0.7 s between 0.3 and 1.0
        now[0] = t
        handler.received(rdm_frame("0A0079A2B1"), t)
    assert [e.time for e in got] == [0.0, 1.0]


def test_unplug_is_told_once_and_replug_reconnects(scanner_emulator, device_path) -> None:
    emu = scanner_emulator(kind="barcode")
    events = Recorder()
    link = open_scanner("barcode", DeviceSpec(path=str(device_path)), emit=events, **FAST)
    try:
        assert link.wait_connected(10)
        emu.scan("A1")
        wait_for(lambda: any(isinstance(e, CardEvent) for e in events))
        emu.unplug()
        wait_for(lambda: not link.connected)
        tries = link.attempts
        wait_for(lambda: link.attempts >= tries + 5)  # it keeps trying, quietly
        assert link_events(events) == ["connected", "lost"]
        emu.plug()
        wait_for(lambda: link.connected)
        emu.scan("B2")
        wait_for(lambda: [e.code for e in events if isinstance(e, CardEvent)] == ["A1", "B2"])
        assert link_events(events) == ["connected", "lost", "reconnected"]
        lost = next(e for e in events if isinstance(e, LinkEvent) and e.kind == "lost")
        assert "unplugged" in lost.message and lost.device == "card scanner"
    finally:
        link.close()
    assert link._thread is None and not link.connected


def test_a_device_missing_at_start_is_told_once_then_found(
    scanner_emulator, device_path: Path
) -> None:
    events = Recorder()
    link = open_scanner("barcode", DeviceSpec(path=str(device_path)), emit=events, **FAST)
    try:
        wait_for(lambda: link.attempts >= 4)
        assert link_events(events) == ["missing"]
        assert str(device_path) in events[0].message
        emu = scanner_emulator(kind="barcode")
        wait_for(lambda: link.connected)
        emu.scan("C3")
        wait_for(lambda: any(isinstance(e, CardEvent) for e in events))
        assert link_events(events) == ["missing", "connected"]
    finally:
        link.close()


class CountingStop(threading.Event):
    """A stop event that records how long the link waits, and stops it after `n` waits."""

    def __init__(self, n: int) -> None:
        super().__init__()
        self.n = n
        self.waits: list[float] = []

    def wait(self, timeout: float | None = None) -> bool:
        self.waits.append(timeout or 0.0)
        if len(self.waits) >= self.n:
            self.set()
        return self.is_set()


def test_reopening_backs_off_exponentially_up_to_a_cap(tmp_path: Path) -> None:
    link = SerialLink(
        DeviceSpec(path=str(tmp_path / "absent")),
        ScannerHandler("barcode", emit=lambda e: None),
        emit=lambda e: None,
        backoff_s=0.1,
        backoff_max_s=1.0,
    )
    stop = CountingStop(8)
    link._stop = stop
    link._run()  # on this thread: it returns once the stop event is set
    assert stop.waits == [0.1, 0.2, 0.4, 0.8, 1.0, 1.0, 1.0, 1.0]


def test_reads_block_with_a_timeout_rather_than_spin(tmp_path: Path) -> None:
    """The port is opened blocking with a read timeout, and read one byte at a time when idle:
    an idle link sleeps in the kernel, waking once per timeout to run its timers."""
    device = tmp_path / "dev"
    device.touch()
    opened: list[dict[str, Any]] = []
    reads: list[int] = []

    class Port:
        in_waiting = 0

        def read(self, n: int) -> bytes:
            reads.append(n)
            if len(reads) >= 3:
                link._stop.set()
            return b""

        def close(self) -> None:
            pass

    def factory(path: str, **kw: Any) -> Port:
        opened.append(kw)
        return Port()

    link = SerialLink(
        DeviceSpec(path=str(device)),
        ScannerHandler("barcode", emit=print),
        emit=lambda e: None,
        read_timeout_s=0.25,
        serial_factory=factory,
    )
    link._run()
    assert opened == [{"baudrate": 9600, "timeout": 0.25, "write_timeout": 0.5}]
    assert reads == [1, 1, 1]


def port(device: str, vid: int | None, pid: int | None, serial: str | None = None) -> Any:
    return SimpleNamespace(device=device, vid=vid, pid=pid, serial_number=serial)


def test_a_device_is_found_by_usb_id_on_every_open() -> None:
    ports = [
        port("/dev/ttyS0", None, None),
        port("/dev/ttyACM0", 0x1A86, 0x7523, "A"),
        port("/dev/ttyACM1", 0x2E8A, 0x0005, "E661"),
    ]
    spec = DeviceSpec.parse_usb("2e8a:0005")
    assert spec.resolve(comports=lambda: ports) == "/dev/ttyACM1"
    assert str(spec) == "USB 2e8a:0005"
    picky = DeviceSpec.parse_usb("1a86:7523", serial_number="B")
    with pytest.raises(DeviceNotFound, match=r"seen: /dev/ttyACM0 \(1a86:7523\)"):
        picky.resolve(comports=lambda: ports)
    with pytest.raises(ValueError, match="vendor:product"):
        DeviceSpec.parse_usb("2e8a-0005")
    with pytest.raises(ValueError, match="exactly one"):
        DeviceSpec(path="/dev/x", usb=(1, 2))


def test_a_link_by_usb_id_opens_the_port_listed_now(scanner_emulator, device_path) -> None:
    emu = scanner_emulator(kind="barcode")
    listed = [port(str(device_path), 0x1A86, 0x7523)]
    events: queue.Queue[Any] = queue.Queue()
    link = open_scanner(
        "barcode",
        DeviceSpec.parse_usb("1a86:7523"),
        emit=events.put,
        comports=lambda: list(listed),
        **FAST,
    )
    try:
        assert link.wait_connected(10)
        assert link.path == str(device_path)
        emu.scan("USB1")
        assert next_event(events, CardEvent).code == "USB1"
    finally:
        link.close()


def test_the_emulator_runs_from_the_command_line(tmp_path: Path) -> None:
    link = tmp_path / "tavola-mcu"
    out = subprocess.run(
        [sys.executable, "-m", "firmware_bridge.emulator", "--link", str(link), "--leds", "8"],
        input="frames\ncard 04A1B2C3D4\nunplug\nreplug\nquit\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("mcu on /dev/pts/") and str(link) in lines[0]
    assert lines[1:] == [
        "0 LED frames; last starts -",
        "no host connected: dropped",
        "unplugged",
        lines[4],
    ]
    assert lines[4].startswith("plugged in as /dev/pts/")
    assert not link.exists()  # closing unplugs: the symlink goes with the pty
