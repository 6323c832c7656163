"""Keyboard-mode (HID) barcode scanners: key events decoded to codes, the device grabbed,
reconnected on replug, and the same `CardEvent`s as a serial scanner.

The decoder is tested on its own. The link is tested against `FakeEvdev`, a stand-in
for the python evdev package at the hardware edge: its device is a real pipe, so the
reader's `select` really blocks and wakes, but it cannot show that the kernel honours
the grab or that udev names the device; the emulated Pi does that with a real uinput
keyboard (tests/system/test_appliance.py, `test_a_usb_keyboard_scanner_...`).
"""

from __future__ import annotations

import errno
import os
import queue
import threading
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from firmware_bridge.config import parse_bridge
from firmware_bridge.events import CardEvent, LinkEvent
from firmware_bridge.hid import KeyDecoder, input_ports, load_evdev
from firmware_bridge.ports import DeviceSpec
from firmware_bridge.scanner import open_scanner
from hw.tomlsource import ConfigError, TomlSource

from .conftest import FAST, link_events, next_event, wait_for

# key codes, as in linux/input-event-codes.h
SHIFT, ENTER, CAPS, CTRL, ALTGR = 42, 28, 58, 29, 100
US = {ch: code for code, ch in zip(range(2, 12), "1234567890", strict=True)}
US.update({ch: code for code, ch in zip(range(16, 26), "qwertyuiop", strict=True)})
US.update({ch: code for code, ch in zip(range(30, 39), "asdfghjkl", strict=True)})
US.update({ch: code for code, ch in zip(range(44, 51), "zxcvbnm", strict=True)})
US["-"] = 12


def keystrokes(text: str, *, enter: bool = True) -> list[tuple[int, int, int]]:
    """What a US-layout scanner sends for `text`: press and release, Shift around capitals."""
    out = []
    for ch in text:
        code = US[ch.lower()]
        if ch.isupper():
            out.append((1, SHIFT, 1))
        out += [(1, code, 1), (0, 0, 0), (1, code, 0)]  # EV_SYN between, as the kernel does
        if ch.isupper():
            out.append((1, SHIFT, 0))
    if enter:
        out += [(1, ENTER, 1), (1, ENTER, 0)]
    return out


def decode(events: list[tuple[int, int, int]], layout: str = "us") -> bytes:
    d = KeyDecoder(layout)
    return b"".join(d.feed(*e) for e in events)


def test_digits_letters_and_shift_decode_to_the_code_and_enter_ends_it() -> None:
    assert (
        decode(keystrokes("Strozzi-07") + keystrokes("4006381333931"))
        == b"Strozzi-07\n4006381333931\n"
    )


def test_nothing_is_sent_before_the_terminator_and_repeats_type_nothing() -> None:
    assert decode(keystrokes("AB12", enter=False)) == b""
    assert decode([(1, 30, 1), (1, 30, 2), (1, 30, 2), (1, 30, 0), (1, ENTER, 1)]) == b"a\n"


def test_caps_lock_inverts_letters_only() -> None:
    caps = [(1, CAPS, 1), (1, CAPS, 0)]
    assert (
        decode(
            caps
            + keystrokes("ab1", enter=False)
            + [(1, SHIFT, 1), (1, 30, 1), (1, SHIFT, 0), (1, ENTER, 1)]
        )
        == b"AB1a\n"
    )


def test_the_german_layout_swaps_y_and_z_and_its_shifted_symbols() -> None:
    # key 21 types y on a US keyboard and z on a German one; Shift+7 is '/' there
    events = [
        (1, 21, 1),
        (1, 44, 1),
        (1, SHIFT, 1),
        (1, 8, 1),
        (1, SHIFT, 0),
        (1, 53, 1),
        (1, ENTER, 1),
    ]
    assert decode(events, "us") == b"yz&/\n"
    assert decode(events, "de") == b"zy/-\n"


def test_a_key_the_layout_does_not_type_poisons_the_whole_code() -> None:
    d = KeyDecoder("us")
    out = b"".join(d.feed(*e) for e in [(1, 59, 1), (1, 30, 1), (1, ENTER, 1)])  # F1, a
    out += b"".join(
        d.feed(*e) for e in [(1, ALTGR, 1), (1, 16, 1), (1, ALTGR, 0), (1, ENTER, 1)]
    )  # AltGr+Q (a German '@')
    assert d.unknown == 2
    assert out.count(b"\x1a") == 2  # the line parser rejects both lines
    assert decode(keystrokes("ok")) == b"ok\n"  # and the next scan is clean


def test_an_unknown_layout_is_refused_with_the_known_ones() -> None:
    with pytest.raises(ValueError, match="one of us, de"):
        KeyDecoder("fr")
    with pytest.raises(ValueError, match="one of us, de"):
        open_scanner("hid", DeviceSpec(path="/dev/null"), emit=print, layout="fr")


# --- the link, over a stand-in for python evdev ---------------------------------------


class FakeDevice:
    """An evdev InputDevice whose fd is a real pipe: events are queued, one byte wakes select."""

    def __init__(self, board: FakeEvdev, path: str) -> None:
        if not os.path.exists(path):
            raise FileNotFoundError(errno.ENOENT, "No such file or directory", path)
        self.board, self.path = board, path
        self.name = "Barcode Scanner Keyboard"
        self.info = SimpleNamespace(vendor=0x0C2E, product=0x0B61)
        self.uniq = "SN1"
        self.fd, self._wake = os.pipe()
        self.grabbed = False
        self.closed = False
        board.opened.append(self)

    def capabilities(self) -> dict[int, list[int]]:
        return {1: [ENTER, SHIFT, *range(2, 54)]} if self.board.keyboard else {1: [272]}

    def grab(self) -> None:
        if self.board.held_elsewhere:
            raise OSError(errno.EBUSY, "Device or resource busy")
        self.grabbed = True

    def ungrab(self) -> None:
        self.grabbed = False

    def send(self, events: list[tuple[int, int, int]]) -> None:
        with self.board.lock:
            self.board.pending += events
        os.write(self._wake, b"!")

    def unplug(self) -> None:
        self.board.gone = True
        os.unlink(self.path)
        os.write(self._wake, b"!")

    def read(self) -> list[SimpleNamespace]:
        os.read(self.fd, 4096)
        if self.board.gone:
            raise OSError(errno.ENODEV, "No such device")
        with self.board.lock:
            events, self.board.pending = self.board.pending, []
        if not events:
            raise BlockingIOError(errno.EAGAIN, "Resource temporarily unavailable")
        return [SimpleNamespace(type=t, code=c, value=v) for t, c, v in events]

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            os.close(self.fd)
            os.close(self._wake)


class FakeEvdev:
    """The parts of the evdev module Tavola uses: InputDevice and list_devices."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.opened: list[FakeDevice] = []
        self.pending: list[tuple[int, int, int]] = []
        self.lock = threading.Lock()
        self.gone = False
        self.keyboard = True
        self.held_elsewhere = False

    def InputDevice(self, path: str) -> FakeDevice:  # evdev's name
        return FakeDevice(self, path)

    def list_devices(self) -> list[str]:
        return [str(self.path)] if self.path.exists() else []

    def plug(self) -> None:
        self.gone = False
        self.path.touch()

    def device(self) -> FakeDevice:
        return wait_for(
            lambda: next((d for d in reversed(self.opened) if not d.closed and d.grabbed), None)
        )

    def close(self) -> None:
        for d in self.opened:
            d.close()


@pytest.fixture
def evdev(device_path: Path) -> Any:
    fake = FakeEvdev(device_path)
    yield fake
    fake.close()


def hid_link(evdev: FakeEvdev, events: Any, device: DeviceSpec | None = None) -> Any:
    from functools import partial

    from firmware_bridge.hid import HidPort

    return open_scanner(
        "hid",
        device or DeviceSpec(path=str(evdev.path)),
        emit=events,
        serial_factory=partial(HidPort, evdev=evdev),
        comports=lambda: input_ports(evdev),
        clock=lambda: 7.0,
        **FAST,
    )


def test_a_scan_becomes_a_card_event_and_the_device_is_grabbed(evdev: FakeEvdev) -> None:
    evdev.plug()
    events: queue.Queue[Any] = queue.Queue()
    with hid_link(evdev, events.put) as link:
        assert link.wait_connected(10)
        dev = evdev.device()
        assert dev.grabbed  # no other reader of the device (the console) sees the keys
        dev.send(keystrokes("X-17"))
        assert next_event(events, CardEvent) == CardEvent("X-17", 7.0, "hid")
        dev.send(keystrokes("Card42"))
        assert next_event(events, CardEvent).code == "Card42"
    assert dev.closed and not dev.grabbed  # let go on close


def test_unplug_is_told_once_and_replug_reconnects_and_grabs_again(evdev: FakeEvdev) -> None:
    evdev.plug()
    events: list[Any] = []
    link = hid_link(evdev, events.append)
    try:
        assert link.wait_connected(10)
        first = evdev.device()
        first.unplug()
        wait_for(lambda: "lost" in link_events(events))
        assert not link.connected
        attempts = link.attempts
        threading.Event().wait(0.3)
        # backoff capped at 0.1 s here: a few attempts, not a busy loop
        assert 1 <= link.attempts - attempts <= 8
        evdev.plug()
        wait_for(lambda: "reconnected" in link_events(events))
        second = evdev.device()
        assert second is not first and second.grabbed
        second.send(keystrokes("A1"))
        wait_for(lambda: any(isinstance(e, CardEvent) for e in events))
    finally:
        link.close()
    assert link_events(events) == ["connected", "lost", "reconnected"]
    assert [e.code for e in events if isinstance(e, CardEvent)] == ["A1"]
    lost = next(e for e in events if isinstance(e, LinkEvent) and e.kind == "lost")
    assert lost.message == "Card scanner unplugged or not answering; waiting for it to return."


def test_picked_by_usb_id_like_a_serial_scanner(evdev: FakeEvdev) -> None:
    evdev.plug()
    events: queue.Queue[Any] = queue.Queue()
    with hid_link(evdev, events.put, DeviceSpec.parse_usb("0c2e:0b61")) as link:
        assert link.wait_connected(10)
        assert link.path == str(evdev.path)
        evdev.device().send(keystrokes("9"))
        assert next_event(events, CardEvent).code == "9"


@pytest.mark.parametrize(
    ("fault", "says"),
    [
        ("keyboard", "is not a keyboard: name the scanner's event-kbd device"),
        ("held_elsewhere", "another program holds the scanner"),
    ],
)
def test_a_device_that_cannot_be_read_is_told_once(evdev: FakeEvdev, fault: str, says: str) -> None:
    evdev.plug()
    setattr(evdev, fault, not getattr(evdev, fault))
    events: list[Any] = []
    link = hid_link(evdev, events.append)
    try:
        wait_for(lambda: link.attempts >= 3)
    finally:
        link.close()
    told = [e for e in events if isinstance(e, LinkEvent)]
    assert len(told) == 1 and told[0].kind == "missing", told
    assert told[0].message.startswith("Card scanner cannot be used (")
    assert says in told[0].message
    assert all(d.closed for d in evdev.opened)  # nothing left open between attempts


def test_without_python_evdev_the_message_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import builtins

    real = builtins.__import__

    def no_evdev(name: str, *a: Any, **kw: Any) -> Any:
        if name == "evdev":
            raise ImportError("No module named 'evdev'")
        return real(name, *a, **kw)

    monkeypatch.setattr(builtins, "__import__", no_evdev)
    with pytest.raises(OSError, match=r"apt install python3-evdev .*tavola\[hid\]"):
        load_evdev()


def _bridge(text: str) -> Any:
    return parse_bridge(TomlSource.parse(text, name="t.toml"))


def test_config_kind_hid_defaults_to_the_udev_name_and_us() -> None:
    sc = _bridge('[scanner]\nkind = "hid"\n').scanner
    assert sc.device == DeviceSpec(path="/dev/input/tavola-scanner") and sc.layout == "us"
    sc = _bridge('[scanner]\nkind = "hid"\nusb = "0c2e:0b61"\nlayout = "de"\n').scanner
    assert sc.device == DeviceSpec(usb=(0x0C2E, 0x0B61)) and sc.layout == "de"


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('kind = "barcode"\nlayout = "de"', "only a keyboard-mode scanner"),
        ('kind = "hid"\nbaud = 9600', "has no baud rate"),
        ('kind = "hid"\nlayout = "fr"', "layout"),
    ],
)
def test_config_mistakes_name_the_key(text: str, says: str) -> None:
    with pytest.raises(ConfigError, match=says):
        _bridge("[scanner]\n" + text + "\n")


def test_the_config_offers_exactly_the_layouts_the_decoder_has() -> None:
    from firmware_bridge.config import HID_LAYOUTS
    from firmware_bridge.hid import LAYOUTS

    assert tuple(LAYOUTS) == HID_LAYOUTS
