"""The table microcontroller (and plain scanners) emulated on a pseudo-terminal.

`McuEmulator` runs the firmware's own protocol code (firmware/device.py) behind
a pty whose slave is reachable under a stable symlink, as udev would make one:
the host opens that path exactly as it opens the real Pico. Tests script it
(`scan()`, `press()`, `frames`), and `unplug()` / `replug()` close the pty and
open a new one under the same symlink, as pulling and replugging the cable does.
`PtyDevice` alone stands in for a barcode scanner or an RDM6300 reader.

    python -m firmware_bridge.emulator --link /tmp/tavola-mcu [--leds 1000]

then type `card 04A1B2C3D4`, `press 1 select`, `hold 1 select`, `unplug`, `replug`, `quit`.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import select
import sys
import threading
import time
import tty
from pathlib import Path

from .firmware import proto
from .firmware.device import Device
from .firmware.rdm6300 import frame as rdm6300_frame


class PtyDevice:
    """A pty whose slave appears at `link`: bytes written here are what the device sends.

    The emulator keeps its own slave descriptor open so the master never reads EIO
    between host sessions, and puts the line in raw mode so nothing is echoed.
    """

    def __init__(self, link: str | Path) -> None:
        self.link = Path(link)
        self.master: int | None = None
        self._slave: int | None = None
        self.slave_name = ""
        self._lock = threading.Lock()
        self.plug()

    def plug(self) -> None:
        """A new pty under the symlink (the device enumerates)."""
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        self.slave_name = os.ttyname(slave)
        tmp = self.link.with_name(f".{self.link.name}.{os.getpid()}.tmp")
        tmp.unlink(missing_ok=True)
        tmp.symlink_to(self.slave_name)
        os.replace(tmp, self.link)  # atomic: the link never points nowhere while plugged
        with self._lock:
            self.master, self._slave = master, slave

    def unplug(self) -> None:
        """Close the pty and remove the symlink, as pulling the cable does."""
        with self._lock:
            master, slave = self.master, self._slave
            self.master = self._slave = None
        self.link.unlink(missing_ok=True)
        for fd in (master, slave):
            if fd is not None:
                os.close(fd)

    def replug(self) -> None:
        self.unplug()
        self.plug()

    @property
    def plugged(self) -> bool:
        return self.master is not None

    def write(self, data: bytes) -> None:
        """Send bytes to the host; dropped when unplugged or when nobody reads (full buffer)."""
        with self._lock:
            if self.master is None:
                return
            with contextlib.suppress(BlockingIOError):
                os.write(self.master, data)

    def read(self, timeout: float) -> bytes:
        """What the host wrote, waiting up to `timeout`; b"" if nothing (or unplugged)."""
        master = self.master
        if master is None:
            time.sleep(timeout)
            return b""
        try:
            ready, _, _ = select.select([master], [], [], timeout)
            return os.read(master, 4096) if ready else b""
        except OSError as e:  # closed under us by unplug(), or EIO
            if e.errno not in (errno.EBADF, errno.EIO):
                raise
            return b""

    def close(self) -> None:
        self.unplug()


class ScannerEmulator(PtyDevice):
    """A barcode scanner in serial mode or an RDM6300 reader."""

    def __init__(self, link: str | Path, *, kind: str = "barcode") -> None:
        if kind not in ("barcode", "rdm6300"):
            raise ValueError(f"kind must be barcode or rdm6300 (got {kind!r})")
        self.kind = kind
        super().__init__(link)

    def scan(self, code: str) -> None:
        self.write(rdm6300_frame(code) if self.kind == "rdm6300" else code.encode() + b"\r\n")


class McuEmulator(PtyDevice):
    """The Pico firmware's protocol behind a pty; records every LED frame it is sent.

    `leds` is the most the emulated board drives (main.py's MAX_LEDS); the host's
    HELLO sets how many it drives, as on the Pico.
    """

    def __init__(
        self,
        link: str | Path,
        *,
        leds: int = 1000,
        poll_s: float = 0.01,
        firmware: str = proto.FIRMWARE_ID,
    ) -> None:
        self.frames: list[bytes] = []
        self.frame_arrived = threading.Condition()
        self._device_lock = threading.Lock()
        self._start = time.monotonic()
        self.device = Device(self.write, leds, 3, self._leds, firmware)
        self.poll_s = poll_s
        self._stop = threading.Event()
        super().__init__(link)
        self._thread = threading.Thread(target=self._run, name="mcu emulator", daemon=True)
        self._thread.start()

    def _now_ms(self) -> int:
        return int((time.monotonic() - self._start) * 1000)

    def _leds(self, data: bytes) -> None:
        with self.frame_arrived:
            self.frames.append(data)
            self.frame_arrived.notify_all()

    def _run(self) -> None:
        while not self._stop.is_set():
            data = self.read(self.poll_s)
            with self._device_lock:
                if data:
                    self.device.feed(data, self._now_ms())
                self.device.poll(self._now_ms())

    # --- scripting ---------------------------------------------------------------------
    @property
    def connected(self) -> bool:
        """Whether a host has said HELLO (and not gone silent since)."""
        return self.device.connected

    def wait_connected(self, timeout: float = 5.0) -> bool:
        deadline = time.monotonic() + timeout
        while not self.device.connected:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.005)
        return True

    def scan(self, code: str, reader: int = 0) -> bool:
        """A tag read by the firmware's reader; False if no host is connected."""
        with self._device_lock:
            self.device.now_ms = self._now_ms()
            return self.device.card(code, reader)

    def press(
        self, seat: int | str, button: str, kind: str = "press", *, seq: int | None = None
    ) -> bool:
        """A debounced button event as the firmware reports it; `seq` numbers it as given
        (a board that renumbered, a counter come round) instead of the board's next."""
        seat_no = proto.TABLE_SEAT if seat == "table" else int(seat)
        with self._device_lock:
            self.device.now_ms = self._now_ms()
            if seq is not None:
                self.device.seq = seq & 0xFF
            return self.device.button(seat_no, proto.BUTTONS.index(button), proto.KINDS.index(kind))

    @property
    def seq(self) -> int:
        """The sequence number the board gives its next frame."""
        return int(self.device.seq)

    def wait_frame(
        self, predicate: object = None, *, after: int = 0, timeout: float = 5.0
    ) -> bytes | None:
        """The first LED frame (from index `after`) for which `predicate(frame)` holds."""
        check = predicate if callable(predicate) else (lambda f: True)
        deadline = time.monotonic() + timeout
        with self.frame_arrived:
            while True:
                for f in self.frames[after:]:
                    if check(f):
                        return f
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.frame_arrived.wait(left)

    def unplug(self) -> None:
        with self._device_lock:
            super().unplug()
            self.device.connected = False  # the Pico loses power with the cable

    def close(self) -> None:
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=2)
        self.unplug()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m firmware_bridge.emulator",
        description="Emulate the Tavola table microcontroller (or a scanner) on a pty.",
    )
    parser.add_argument("--link", required=True, help="symlink to create for the pty")
    parser.add_argument("--kind", choices=("mcu", "barcode", "rdm6300"), default="mcu")
    parser.add_argument(
        "--leds",
        type=int,
        default=1000,
        help="the most LEDs the emulated board drives, like main.py's MAX_LEDS "
        "(the host's HELLO sets how many it drives)",
    )
    args = parser.parse_args(argv)
    device: PtyDevice = (
        McuEmulator(args.link, leds=args.leds)
        if args.kind == "mcu"
        else ScannerEmulator(args.link, kind=args.kind)
    )
    print(
        f"{args.kind} on {device.slave_name} as {args.link}; commands: card ID, "
        "press SEAT BUTTON, hold SEAT BUTTON, unplug, replug, frames, quit",
        flush=True,
    )
    try:
        for line in sys.stdin:
            words = line.split()
            if not words:
                continue
            if words[0] == "quit":
                break
            print(_command(device, words), flush=True)
    except KeyboardInterrupt:
        pass
    finally:
        device.close()
    return 0


def _command(device: PtyDevice, words: list[str]) -> str:
    verb, args = words[0], words[1:]
    if verb == "unplug":
        device.unplug()
        return "unplugged"
    if verb == "replug":
        device.replug()
        return f"plugged in as {device.slave_name}"
    if verb == "card" and len(args) == 1:
        if isinstance(device, ScannerEmulator):
            device.scan(args[0])
            return "sent"
        assert isinstance(device, McuEmulator)
        return "sent" if device.scan(args[0]) else "no host connected: dropped"
    if isinstance(device, McuEmulator):
        if verb in ("press", "hold") and len(args) == 2 and args[1] in proto.BUTTONS:
            kinds = ("press", "long_press", "release") if verb == "hold" else ("press", "release")
            sent = all([device.press(args[0], args[1], k) for k in kinds])
            return "sent" if sent else "no host connected: dropped"
        if verb == "frames":
            last = device.frames[-1][:24].hex(" ") if device.frames else "-"
            return f"{len(device.frames)} LED frames; last starts {last}"
    return f"unknown command: {' '.join(words)}"


if __name__ == "__main__":
    sys.exit(main())
