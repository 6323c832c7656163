"""Barcode scanners in USB keyboard mode (HID), read through the kernel's evdev interface.

Most USB barcode scanners ship as keyboards: a scan "types" the code and presses
Enter. On a headless Pi those keystrokes would land in the login prompt, so the
scanner's event device is *grabbed* (EVIOCGRAB): while Tavola holds it, no other
reader of the device, the console's keyboard handler included, sees a keystroke.

`HidPort` makes such a device look like the serial port `SerialLink` reads: it
turns key events back into the characters of the code, one line per scan, so
the barcode `LineParser`, the reconnect-with-backoff and the `CardEvent`s are the
same as for a serial scanner. `input_ports` lists keyboards like pyserial's
`list_ports`, so `usb = "vendor:product"` works too.

Layouts: a scanner sends the key positions that type the code on the layout it
is set to emulate (its manual's "keyboard country" setting); `layout` must name
the same one. Supported: `us` (the factory default of most scanners) and `de`
(German QWERTZ). Digits, letters (either case) and the printable ASCII the layout
types with Shift alone are decoded; a code with anything else (AltGr or Ctrl
chords, function keys) is dropped whole and counted, never guessed.

The python `evdev` package is imported only here and only when a HID scanner is
opened (Debian and Raspberry Pi OS: `apt install python3-evdev`; pip: the
`hid` extra).
"""

from __future__ import annotations

import contextlib
import errno
import logging
import select
from collections.abc import Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from .errors import BridgeError

log = logging.getLogger("tavola.bridge")

__all__ = ["LAYOUTS", "HidPort", "KeyDecoder", "input_ports", "load_evdev"]

# Linux key codes (include/uapi/linux/input-event-codes.h): a stable kernel ABI.
EV_KEY = 1
KEY_TAB, KEY_ENTER, KEY_KPENTER = 15, 28, 96
KEY_LEFTSHIFT, KEY_RIGHTSHIFT, KEY_CAPSLOCK = 42, 54, 58
_SHIFTS = (KEY_LEFTSHIFT, KEY_RIGHTSHIFT)
_TERMINATORS = (KEY_ENTER, KEY_KPENTER, KEY_TAB)
#: modifiers that make the next key mean something this decoder does not type
_CHORDS = (29, 97, 56, 100, 125, 126)  # left/right Ctrl, left/right Alt (AltGr), Meta
#: rows of the main block: first key code, characters plain, characters with Shift
_US_ROWS = (
    (2, "1234567890-=", "!@#$%^&*()_+"),
    (16, "qwertyuiop[]", "QWERTYUIOP{}"),
    (30, "asdfghjkl;'`", 'ASDFGHJKL:"~'),
    (43, "\\zxcvbnm,./", "|ZXCVBNM<>?"),
    (57, " ", " "),
)
_DE_ROWS = (
    (2, "1234567890ß´", '!"§$%&/()=?`'),
    (16, "qwertzuiopü+", "QWERTZUIOPÜ*"),
    (30, "asdfghjklöä^", "ASDFGHJKLÖÄ°"),
    (43, "#yxcvbnm,.-", "'YXCVBNM;:_"),
    (57, " ", " "),
    (86, "<", ">"),
)
#: the keypad, the same on every layout (NumLock on, as scanners assume)
_KEYPAD = {
    71: "7",
    72: "8",
    73: "9",
    74: "-",
    75: "4",
    76: "5",
    77: "6",
    78: "+",
    79: "1",
    80: "2",
    81: "3",
    82: "0",
    83: ".",
    55: "*",
    98: "/",
}


def _layout(rows: tuple[tuple[int, str, str], ...]) -> dict[int, tuple[str, str]]:
    keys = {code: (ch, ch) for code, ch in _KEYPAD.items()}
    for first, plain, shifted in rows:
        for i, (a, b) in enumerate(zip(plain, shifted, strict=True)):
            keys[first + i] = (a, b)
    return keys


LAYOUTS: dict[str, dict[int, tuple[str, str]]] = {"us": _layout(_US_ROWS), "de": _layout(_DE_ROWS)}
#: what a dropped code becomes for the line parser: a control byte, so it rejects the line
_REJECT = b"\x1a"


class KeyDecoder:
    """Key events -> the bytes of the scanned codes, each ended by a newline.

    `feed(type, code, value)` takes one evdev event (value 1 press, 0 release, 2
    auto-repeat) and returns the bytes it completes (usually none). Shift and Caps
    Lock are followed; a key the layout does not type poisons the code so the line
    parser drops it (`unknown` counts them)."""

    def __init__(self, layout: str = "us") -> None:
        if layout not in LAYOUTS:
            raise ValueError(
                f"keyboard layout must be one of {', '.join(LAYOUTS)} (got {layout!r})"
            )
        self.layout = layout
        self.keys = LAYOUTS[layout]
        self._shift: set[int] = set()
        self._chords: set[int] = set()
        self._caps = False
        self._line = bytearray()
        self.unknown = 0

    def feed(self, type_: int, code: int, value: int) -> bytes:
        if type_ != EV_KEY:
            return b""
        if code in _SHIFTS or code in _CHORDS:
            held = self._shift if code in _SHIFTS else self._chords
            if value:
                held.add(code)
            else:
                held.discard(code)
            return b""
        if value != 1:  # releases and auto-repeat type nothing
            return b""
        if code == KEY_CAPSLOCK:
            self._caps = not self._caps
            return b""
        if code in _TERMINATORS:
            line, self._line = bytes(self._line) + b"\n", bytearray()
            return line
        chars = self.keys.get(code)
        if chars is None or self._chords:
            self.unknown += 1
            log.debug(
                "HID scanner: key %d (%s) is not typed by layout %s; code dropped",
                code,
                "+".join(map(str, sorted(self._chords))) or "alone",
                self.layout,
            )
            self._line += _REJECT
            return b""
        shifted = bool(self._shift)
        ch = chars[1] if shifted else chars[0]
        if self._caps and ch.isalpha():
            ch = ch.swapcase()
        self._line += ch.encode("utf-8")  # non-ASCII (ß, ü) is refused by the line parser
        return b""


def load_evdev() -> ModuleType:
    """The python evdev package, or a BridgeError that says how to install it."""
    try:
        import evdev
    except ImportError as e:
        raise BridgeError(
            "reading a keyboard-mode (HID) scanner needs the python evdev package, "
            "which is not installed: sudo apt install python3-evdev "
            "(or pip install 'tavola[hid]')"
        ) from e
    return evdev


def _is_keyboard(device: Any) -> bool:
    return KEY_ENTER in device.capabilities().get(EV_KEY, [])


@dataclass(frozen=True, slots=True)
class InputPort:
    """One keyboard the kernel lists, shaped like pyserial's `ListPortInfo`."""

    device: str
    vid: int
    pid: int
    serial_number: str | None
    name: str


def input_ports(evdev: ModuleType | None = None) -> Iterator[InputPort]:
    """The keyboards on /dev/input (those this user may open), for `DeviceSpec.resolve`."""
    ev = evdev or load_evdev()
    for path in ev.list_devices():
        try:
            d = ev.InputDevice(path)
        except OSError:
            continue
        try:
            if _is_keyboard(d):
                yield InputPort(path, d.info.vendor, d.info.product, d.uniq or None, d.name)
        finally:
            d.close()


class HidPort:
    """A grabbed keyboard read like a serial port: `read(n)` waits at most `timeout` seconds
    (select on the device, no busy loop) and returns decoded lines; a device that goes away
    raises OSError, which makes the link report it and reopen with backoff."""

    def __init__(
        self,
        path: str,
        *,
        timeout: float = 0.1,
        layout: str = "us",
        evdev: ModuleType | None = None,
        **_serial_options: object,
    ) -> None:
        self.decoder = KeyDecoder(layout)
        ev = evdev or load_evdev()
        self.path = path
        self.timeout = timeout
        self._buf = bytearray()
        self._dev = ev.InputDevice(path)
        try:
            if not _is_keyboard(self._dev):
                raise BridgeError(
                    f"{path} ({self._dev.name}) is not a keyboard: name the "
                    "scanner's event-kbd device (ls /dev/input/by-id)"
                )
            try:
                self._dev.grab()
            except OSError as e:
                if e.errno != errno.EBUSY:
                    raise
                raise BridgeError(
                    f"{path}: another program holds the scanner "
                    "(grabbed); stop it and Tavola takes it over"
                ) from e
        except BaseException:
            self._dev.close()
            raise
        self.name = self._dev.name

    @property
    def in_waiting(self) -> int:
        return len(self._buf)

    def read(self, size: int = 1) -> bytes:
        if not self._buf:
            ready, _, _ = select.select([self._dev.fd], [], [], self.timeout)
            if ready:
                with contextlib.suppress(BlockingIOError):
                    for event in self._dev.read():
                        self._buf += self.decoder.feed(event.type, event.code, event.value)
        out = bytes(self._buf[:size])
        del self._buf[:size]
        return out

    def write(self, data: bytes) -> int:
        raise BridgeError(f"{self.path}: a keyboard-mode scanner takes no writes")

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._dev.ungrab()
        with contextlib.suppress(OSError):
            self._dev.close()
