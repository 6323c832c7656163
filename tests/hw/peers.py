"""Adalight devices on real pseudo-terminals, behaving as the real ones do on the wire.

- `WledPeer`: WLED's serial Adalight input (wled00/wled_serial.cpp): a header `Ada`,
  count-1 (hi, lo), `hi ^ lo ^ 0x55`, then RGB per LED, parsed byte by byte; a whole
  frame is shown and locks WLED in realtime mode for `realtimeTimeoutMs` (2500 ms by
  default), after which it goes back to its own effect. It sends no greeting.
- `ArduinoPeer`: an Arduino running the Adalight-FastLED sketch behind a USB serial
  chip whose DTR line resets it: every open of the port resets the board, its
  bootloader swallows what arrives for `boot_s`, then the sketch prints `Ada\\n`, and
  again every second while no byte comes; after `serial_timeout_s` without data it
  blanks the LEDs.

A pty has no DTR line. The host's open of the port is seen instead through inotify
on the pty's device node (IN_OPEN), which is what the DTR pulse follows on a real
board. What these cannot show: a USB chip's own timing, the bootloader's real length
(Optiboot waits about 1 s, older Nano bootloaders about 2 s), bytes lost while
FastLED's show() has interrupts off.

The frame parser here is written from the two devices' sources, not from
hw/backends/adalight.py, so that a wrong encoder fails against it.
"""

from __future__ import annotations

import ctypes
import os
import struct
import threading
import time
from pathlib import Path

from firmware_bridge.emulator import PtyDevice

IN_OPEN = 0x20
_libc = ctypes.CDLL(None, use_errno=True)


class AdalightParser:
    """WLED's state machine for Adalight: one byte at a time, resynchronising on `A`."""

    def __init__(self) -> None:
        self.state = "A"
        self.count = self.check = 0
        self.data = bytearray()
        self.bad_headers = 0

    def feed(self, data: bytes) -> list[bytes]:
        frames = []
        for b in data:
            st = self.state
            if st == "A":
                self.state = "d" if b == 0x41 else "A"
            elif st == "d":
                self.state = "a" if b == 0x64 else "A"
            elif st == "a":
                self.state = "hi" if b == 0x61 else "A"
            elif st == "hi":
                self.count, self.check, self.state = b * 256, b, "lo"
            elif st == "lo":
                self.count += b + 1
                self.check ^= b ^ 0x55
                self.state = "check"
            elif st == "check":
                if b == self.check:
                    self.state, self.data = "rgb", bytearray()
                else:
                    self.bad_headers += 1
                    self.state = "A"
            else:
                self.data.append(b)
                if len(self.data) == 3 * self.count:
                    frames.append(bytes(self.data))
                    self.state = "A"
        return frames


class _Peer(PtyDevice):
    """A thread reading the host's bytes; subclasses say what the device does with them."""

    def __init__(self, link: str | Path, *, leds: int) -> None:
        self.leds = leds
        self.parser = AdalightParser()
        self.lock = threading.Condition()
        #: (monotonic time, RGB bytes) of every frame the device put on its LEDs
        self.shown: list[tuple[float, bytes]] = []
        self.received = 0
        self._stop = threading.Event()
        super().__init__(link)
        self._thread = threading.Thread(target=self._run, name=type(self).__name__, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            self._round()

    def _round(self) -> None:
        """Wait up to 20 ms for the host's bytes, then act on them and on the time."""
        data = self.read(0.02)
        now = time.monotonic()
        with self.lock:
            self._on_bytes(data, now)
            self._tick(now)
            self.lock.notify_all()

    def _on_bytes(self, data: bytes, now: float) -> None:
        self.received += len(data)
        for frame in self.parser.feed(data):
            self._show(frame, now)

    def _show(self, frame: bytes, now: float) -> None:
        self.shown.append((now, frame[: 3 * self.leds]))

    def _tick(self, now: float) -> None:
        pass

    def wait(self, predicate, timeout: float = 10.0) -> bool:  # type: ignore[no-untyped-def]
        """Block until `predicate()` holds (checked under the peer's lock)."""
        deadline = time.monotonic() + timeout
        with self.lock:
            while not predicate():
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.lock.wait(left)
            return True

    @property
    def last(self) -> bytes | None:
        return self.shown[-1][1] if self.shown else None

    def close(self) -> None:
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=2)
        super().close()


class WledPeer(_Peer):
    """WLED with its serial Adalight input: realtime mode ends `timeout_s` after a frame."""

    def __init__(self, link: str | Path, *, leds: int, timeout_s: float = 2.5) -> None:
        self.timeout_s = timeout_s
        self.realtime = False
        self._until = 0.0
        self.entered: list[float] = []  # when realtime mode began
        self.left: list[float] = []  # when WLED went back to its own effect
        super().__init__(link, leds=leds)

    def _show(self, frame: bytes, now: float) -> None:
        super()._show(frame, now)
        if not self.realtime:
            self.realtime = True
            self.entered.append(now)
        self._until = now + self.timeout_s

    def _tick(self, now: float) -> None:
        if self.realtime and now >= self._until:
            self.realtime = False
            self.left.append(now)


class ArduinoPeer(_Peer):
    """An Arduino Adalight board: reset on open, bootloader, `Ada` greetings, serial timeout."""

    def __init__(
        self, link: str | Path, *, leds: int, boot_s: float = 1.0, serial_timeout_s: float = 60.0
    ) -> None:
        self.boot_s = boot_s
        self.serial_timeout_s = serial_timeout_s
        self.resets: list[float] = []
        self.lost_in_bootloader = 0  # bytes that arrived while the bootloader ran
        self.greetings = 0
        self.blanked = 0
        self._booting_until: float | None = None  # None: unplugged
        self._running = False
        self._ack_at = self._byte_at = 0.0
        self._inotify = -1
        super().__init__(link, leds=leds)

    def plug(self) -> None:
        """Plugged in: powered up, so the bootloader runs, then the sketch (which greets
        nobody yet); the host's open will reset it again."""
        super().plug()
        fd = _libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        if fd < 0 or _libc.inotify_add_watch(fd, self.slave_name.encode(), IN_OPEN) < 0:
            raise OSError(ctypes.get_errno(), "inotify on the pty failed")
        with self.lock:
            if self._inotify >= 0:
                os.close(self._inotify)
            self._inotify = fd
            self._running = False
            self._booting_until = time.monotonic() + self.boot_s

    def unplug(self) -> None:
        super().unplug()
        with self.lock:
            if self._inotify >= 0:
                os.close(self._inotify)
                self._inotify = -1
            self._running = False
            self._booting_until = None

    def _round(self) -> None:
        if self._opened():  # DTR rises with the open: the reset pin pulses
            with self.lock:
                now = time.monotonic()
                self.resets.append(now)
                self._booting_until = now + self.boot_s
                self._running = False
                self.parser = AdalightParser()
        super()._round()

    def _opened(self) -> bool:
        """Whether the host opened the port since the last look (inotify's IN_OPEN)."""
        fd = self._inotify
        if fd < 0:
            return False
        try:
            events = os.read(fd, 4096)
        except (BlockingIOError, OSError):
            return False
        opened, i = False, 0
        while i + 16 <= len(events):  # struct inotify_event: wd, mask, cookie, len, name
            _, mask, _, name_len = struct.unpack_from("iIII", events, i)
            opened |= bool(mask & IN_OPEN)
            i += 16 + name_len
        return opened

    def _on_bytes(self, data: bytes, now: float) -> None:
        if not data:
            return
        if not self._running:
            self.received += len(data)
            self.lost_in_bootloader += len(data)
            return
        self._byte_at = self._ack_at = now
        super()._on_bytes(data, now)

    def _tick(self, now: float) -> None:
        if self._booting_until is not None and not self._running and now >= self._booting_until:
            self._running = True  # setup(): Serial.begin, print "Ada\n"
            self._byte_at = self._ack_at = now
            self._greet()
        if not self._running:
            return
        if now - self._ack_at >= 1.0:
            self._ack_at = now
            self._greet()
            if self.serial_timeout_s and now - self._byte_at >= self.serial_timeout_s:
                self.blanked += 1
                self.shown.append((now, bytes(3 * self.leds)))
                self._byte_at = now

    def _greet(self) -> None:
        self.greetings += 1
        self.write(b"Ada\n")
