"""A serial device kept open for as long as the table runs, whatever happens to the cable.

One reader thread per device blocks in `read()` with a short timeout (no busy
loop: an idle link wakes ten times a second to run its handler's timers). When
the device goes away the thread closes the port, reports it once (a log line
and a `LinkEvent` on the app's queue) and tries to reopen it with exponential
backoff, capped, until it returns or the link is closed; the game goes on
meanwhile, since the app only ever sees events.

What the bytes mean is a `Handler`'s business: `firmware_bridge.scanner` for
card scanners, `firmware_bridge.mcu` for the table microcontroller.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from .errors import BridgeError
from .events import LinkEvent, LinkKind
from .ports import DeviceSpec, open_serial

log = logging.getLogger("tavola.bridge")

Emit = Callable[[Any], None]


class Handler(Protocol):
    """The device-specific half of a link; its methods run on the link's reader thread."""

    label: str  # how people call the device: "card scanner", "table microcontroller"

    def opened(self, link: SerialLink, now: float) -> None: ...

    def received(self, data: bytes, now: float) -> None: ...

    def idle(self, now: float) -> None:
        """Timers (heartbeats, retries); raise `LinkLost` to have the port reopened."""

    def closed(self) -> None: ...


class SerialLink:
    """Open `device`, read it on a thread, reopen it with backoff when it goes away."""

    def __init__(
        self,
        device: DeviceSpec,
        handler: Handler,
        *,
        emit: Emit,
        baud: int = 9600,
        clock: Callable[[], float] = time.monotonic,
        backoff_s: float = 0.1,
        backoff_max_s: float = 5.0,
        read_timeout_s: float = 0.1,
        serial_factory: Callable[..., Any] | None = None,
        comports: Callable[[], Iterable[Any]] | None = None,
    ) -> None:
        if not 0 < backoff_s <= backoff_max_s:
            raise ValueError("backoff_s must be positive and at most backoff_max_s")
        self.device = device
        self.handler = handler
        self.emit = emit
        self.baud = baud
        self.clock = clock
        self.backoff_s = backoff_s
        self.backoff_max_s = backoff_max_s
        self.read_timeout_s = read_timeout_s
        self._factory = serial_factory
        self._comports = comports
        self._port: Any = None
        self._write_lock = threading.Lock()
        self._stop = threading.Event()
        self._up = threading.Event()
        self._thread: threading.Thread | None = None
        self._state: LinkKind | None = None  # the last state reported
        self.path: str | None = None
        self.opens = 0  # successful opens, for tests and `doctor`
        self.attempts = 0  # open attempts, failed ones included

    # --- life cycle --------------------------------------------------------------------
    def start(self) -> SerialLink:
        if self._thread is None:
            self._thread = threading.Thread(
                target=self._run, name=f"link {self.device}", daemon=True
            )
            self._thread.start()
        return self

    def close(self) -> None:
        """Stop the reader (it notices within one read timeout) and release the port."""
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=max(2.0, 5 * self.read_timeout_s))
        self._thread = None

    def __enter__(self) -> SerialLink:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def connected(self) -> bool:
        return self._up.is_set()

    def wait_connected(self, timeout: float) -> bool:
        """Block until the device is open (tests, `tavola cards learn`)."""
        return self._up.wait(timeout)

    # --- writing -----------------------------------------------------------------------
    def write(self, data: bytes) -> bool:
        """Send bytes if the device is there; False (and nothing raised) if it is not."""
        with self._write_lock:
            port = self._port
            if port is None:
                return False
            try:
                port.write(data)
            except (OSError, ValueError) as e:  # SerialException is an OSError
                log.debug("%s: write failed: %s", self.handler.label, e)
                return False
        return True

    def report(self, kind: LinkKind, message: str, *, level: int = logging.WARNING) -> None:
        """Tell the log and the app once per change of state."""
        if kind == self._state:
            return
        self._state = kind
        log.log(level, "%s", message)
        self.emit(LinkEvent(self.handler.label, kind, message, self.clock()))

    # --- the reader thread -------------------------------------------------------------
    def _run(self) -> None:
        delay = self.backoff_s
        while not self._stop.is_set():
            self.attempts += 1
            try:
                path = self.device.resolve(comports=self._comports)
                port = open_serial(
                    path, baud=self.baud, timeout=self.read_timeout_s, factory=self._factory
                )
            except (OSError, ValueError) as e:
                self._absent(e)
                self._stop.wait(delay)
                delay = min(delay * 2, self.backoff_max_s)
                continue
            delay = self.backoff_s
            self._serve(port, path)

    def _absent(self, error: Exception) -> None:
        label = self.handler.label.capitalize()
        if self._state is None:
            found = not isinstance(error, FileNotFoundError) and isinstance(error, BridgeError)
            what = "cannot be used" if found else "not found"  # there, but busy or wrong
            self.report("missing", f"{label} {what} ({error}); waiting for it.")
        else:
            log.debug("%s: reopen failed: %s", self.handler.label, error)

    def _serve(self, port: Any, path: str) -> None:
        label = self.handler.label.capitalize()
        with self._write_lock:
            self._port = port
        self.path = path
        self.opens += 1
        kind: LinkKind = "reconnected" if self._state in ("lost", "incompatible") else "connected"
        where = path if path == str(self.device) else f"{self.device} at {path}"
        self.report(
            kind,
            f"{label} {'is back' if kind == 'reconnected' else 'connected'} ({where}).",
            level=logging.INFO,
        )
        self._up.set()
        try:
            self.handler.opened(self, self.clock())
            while not self._stop.is_set():
                data = port.read(1)  # blocks until a byte or the read timeout
                if data:
                    waiting = port.in_waiting
                    if waiting:
                        data += port.read(waiting)
                    self.handler.received(bytes(data), self.clock())
                self.handler.idle(self.clock())
        except (OSError, ValueError) as e:
            if not self._stop.is_set():
                log.debug("%s: %s", self.handler.label, e)
                self.report(
                    "lost", f"{label} unplugged or not answering; waiting for it to return."
                )
        except Exception as e:  # a handler bug must not end the link for good
            log.exception("%s: handler failed", self.handler.label)
            self.report("lost", f"{label}: internal error ({e}); reopening.")
        finally:
            self._up.clear()
            with self._write_lock:
                self._port = None
            with contextlib.suppress(OSError, ValueError):
                port.close()
            self.handler.closed()
            if not self._stop.is_set():
                self._stop.wait(self.backoff_s)


__all__ = ["BridgeError", "Handler", "SerialLink"]
