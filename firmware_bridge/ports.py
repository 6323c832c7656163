"""Finding a serial device that may come and go: a stable path or a USB vendor/product id.

`/dev/ttyACM0` is whichever device enumerated first, and a replugged one may
come back as ttyACM1. Two stable ways to name it instead: a udev symlink (e.g.
`/dev/tavola-scanner`, see systemd/99-tavola.rules) or the USB vendor and product id,
looked up afresh on every (re)open with pyserial's `list_ports`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from .errors import DeviceNotFound

_USB_ID = re.compile(r"([0-9A-Fa-f]{4}):([0-9A-Fa-f]{4})")


@dataclass(frozen=True, slots=True)
class DeviceSpec:
    """Where a device is: `path` (a device file or udev symlink) or `usb` (vendor, product),
    optionally narrowed by the USB `serial_number` when two identical devices are plugged."""

    path: str | None = None
    usb: tuple[int, int] | None = None
    serial_number: str | None = None

    def __post_init__(self) -> None:
        if (self.path is None) == (self.usb is None):
            raise ValueError("a device is named by a path or by a USB id, exactly one of them")

    @classmethod
    def parse_usb(cls, text: str, *, serial_number: str | None = None) -> DeviceSpec:
        """`"2e8a:000a"` (vendor:product in hex, as lsusb prints them)."""
        m = _USB_ID.fullmatch(text.strip())
        if not m:
            raise ValueError(f"USB id {text!r} is not vendor:product in hex, like '2e8a:000a'")
        return cls(usb=(int(m.group(1), 16), int(m.group(2), 16)), serial_number=serial_number)

    def __str__(self) -> str:
        if self.path is not None:
            return self.path
        assert self.usb is not None
        sn = f" serial {self.serial_number}" if self.serial_number else ""
        return f"USB {self.usb[0]:04x}:{self.usb[1]:04x}{sn}"

    def resolve(self, *, comports: Callable[[], Iterable[Any]] | None = None) -> str:
        """The device file to open now; DeviceNotFound while it is not there."""
        if self.path is not None:
            if not os.path.exists(self.path):  # a dangling udev symlink counts as absent
                raise DeviceNotFound(f"{self.path}: no such device (unplugged?)")
            return self.path
        if comports is None:
            from serial.tools.list_ports import comports as listed

            comports = listed
        seen = []
        for port in comports():
            vid, pid = getattr(port, "vid", None), getattr(port, "pid", None)
            if vid is not None:
                seen.append(f"{port.device} ({vid:04x}:{pid or 0:04x})")
            if (vid, pid) == self.usb and (
                self.serial_number is None or port.serial_number == self.serial_number
            ):
                return str(port.device)
        listed = ", ".join(seen) or "no USB serial devices"
        raise DeviceNotFound(f"{self}: not plugged in (seen: {listed})")


def open_serial(
    path: str, *, baud: int, timeout: float, factory: Callable[..., Any] | None = None
) -> Any:
    """A pyserial port in blocking mode with a read timeout: the reader never busy-loops."""
    if factory is None:
        import serial

        factory = serial.Serial
    return factory(path, baudrate=baud, timeout=timeout, write_timeout=0.5)
