"""A strip that outlives its device: write errors are reported once, the game goes on, the
device is reopened with backoff, and the board is shown again when it returns.

The render loop must never die of a strip. An unplugged Adalight board makes its
write raise `StripError`, an SPI DMA transfer that times out raises an `OSError` (a
known Pi 5 kernel issue), rpi_ws281x's render can fail; before this, any of them
ended the service, and after five restarts systemd gave up. `RecoveringStrip` wraps
the backend `hw.backends.open_strip` opens:

- a write that fails closes the backend, reports once (`report("lost", message)`)
  and returns: the render loop carries on, and the latest frame is kept;
- a thread reopens the backend with exponential backoff (0.1 s doubling to 5 s, as
  the serial links of firmware_bridge do), then shows the latest frame and reports
  once (`report("reconnected", ...)`);
- a backend whose device forgets a frame (`keepalive_s`: WLED leaves its realtime
  mode 2.5 s after the last frame, Adalight sketches blank after their timeout) gets
  the current frame again whenever that long has passed without a write, since the
  pipeline sends only frames that change;
- at start-up a device that is absent (`StripError.absent`: a USB adapter not
  plugged in) is waited for like one that went away; any other error (SPI off, no
  permission, a wrong pin) is raised, so the service refuses to start and says why.

The thread sleeps on a condition until its next deadline (a retry or a keep-alive),
or for good while there is none: an idle table with a strip that needs no keep-alive
costs nothing.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from hw.config import StripConfig
from hw.strip import ByteStrip, Strip, StripError

log = logging.getLogger("tavola.hw")

#: `report(kind, message)`: "missing", "lost" or "reconnected", and a sentence for the table
Report = Callable[[str, str], None]
#: what a failed backend write raises: our backends raise StripError; OSError for safety
FAILURES = (StripError, OSError)
#: the backends with a device that can fail or go away (mock and terminal cannot; the mcu
#: strip rides firmware_bridge's link, which recovers by itself)
DEVICE_BACKENDS = ("spi", "ws281x", "adalight")


class RecoveringStrip(ByteStrip):
    """A `Strip` over a backend that may fail; `opener()` makes a fresh backend."""

    def __init__(
        self,
        opener: Callable[[], Strip],
        *,
        n: int,
        order: str,
        report: Report | None = None,
        keepalive_s: float | None = None,
        backoff_s: float = 0.1,
        backoff_max_s: float = 5.0,
        label: str = "LED strip",
    ) -> None:
        if not 0 < backoff_s <= backoff_max_s:
            raise ValueError("backoff_s must be positive and at most backoff_max_s")
        super().__init__(n, order=order)
        self.opener = opener
        self.report = report if report is not None else (lambda kind, message: None)
        self.keepalive_s = keepalive_s
        self.backoff_s = backoff_s
        self.backoff_max_s = backoff_max_s
        self.label = label
        self._name = label[:1].upper() + label[1:]  # "LED strip", at the start of a sentence
        self._lock = threading.Condition()
        self._inner: Strip | None = None
        self._latest: bytes | None = None
        self._sent_at = time.monotonic()
        self._retry_at: float | None = None
        self._delay = backoff_s
        self._stop = False
        self.failures = 0  # backend errors seen (writes and reopens), for tests and doctor
        self.reopens = 0  # successful reopens
        self.keepalives = 0  # frames resent only to keep the device in its mode
        try:
            inner = opener()
        except StripError as e:
            if not e.absent:
                raise
            self.failures += 1
            self._retry_at = time.monotonic() + self._delay
            self._tell("missing", f"{self._name} not found: {e}. The game goes on; waiting for it.")
        else:
            self._check(inner)
            self._inner = inner
        self._thread = threading.Thread(target=self._run, name=f"{label} keeper", daemon=True)
        self._thread.start()

    @classmethod
    def from_config(
        cls, config: StripConfig, *, report: Report | None = None, **options: Any
    ) -> RecoveringStrip:
        """The strip `config` describes, kept alive (hw.backends.open_strip opens it)."""
        from hw.backends import open_strip

        order = "RGB" if config.backend == "adalight" else config.order
        return cls(
            lambda: open_strip(config),
            n=config.count,
            order=order,
            report=report,
            keepalive_s=config.keepalive_s,
            **options,
        )

    @property
    def connected(self) -> bool:
        return self._inner is not None

    @property
    def backend(self) -> Strip | None:
        """The open backend, or None while the device is away."""
        return self._inner

    def _check(self, inner: Strip) -> None:
        if inner.n != self.n or inner.order != self.order:
            inner.close()
            raise ValueError(
                f"the backend opened {inner.n} LEDs in {inner.order}, this strip "
                f"is {self.n} in {self.order}"
            )

    def _tell(self, kind: str, message: str) -> None:
        (log.info if kind == "reconnected" else log.warning)("%s", message)
        self.report(kind, message)

    # --- the render loop's side ---------------------------------------------------------
    def _send(self, data: bytes) -> None:
        with self._lock:
            self._latest = data
            if self._inner is not None:
                self._write(data)
            self._lock.notify()  # the keep-alive deadline moved

    def _write(self, data: bytes) -> None:
        """Send to the backend (the lock held); a failure takes it down and schedules a retry."""
        assert self._inner is not None
        try:
            self._inner.write(data)
        except FAILURES as e:
            self.failures += 1
            inner, self._inner = self._inner, None
            with contextlib.suppress(*FAILURES, ValueError):
                inner.close()
            self._delay = self.backoff_s
            self._retry_at = time.monotonic() + self._delay
            self._tell(
                "lost", f"{self._name} failed: {e}. The game goes on; retrying until it is back."
            )
        else:
            self._sent_at = time.monotonic()

    # --- the keeper thread ----------------------------------------------------------------
    def _due(self) -> float | None:
        if self._inner is None:
            return self._retry_at
        if self.keepalive_s and self._latest is not None:
            return self._sent_at + self.keepalive_s
        return None

    def _run(self) -> None:
        while True:
            with self._lock:
                while not self._stop:
                    due = self._due()
                    now = time.monotonic()
                    if due is not None and due <= now:
                        break
                    self._lock.wait(None if due is None else due - now)
                if self._stop:
                    return
                if self._inner is not None:  # a keep-alive
                    assert self._latest is not None
                    self.keepalives += 1
                    self._write(self._latest)
                    continue
            self._reopen()  # outside the lock: opening may wait for a greeting

    def _reopen(self) -> None:
        try:
            inner = self.opener()
            self._check(inner)
        except (*FAILURES, ValueError) as e:
            self.failures += 1
            with self._lock:
                self._delay = min(self._delay * 2, self.backoff_max_s)
                self._retry_at = time.monotonic() + self._delay
            log.debug("%s: reopen failed: %s", self.label, e)
            return
        with self._lock:
            if self._stop:
                with contextlib.suppress(*FAILURES, ValueError):
                    inner.close()
                return
            self._inner = inner
            self._retry_at = None
            self.reopens += 1
            if self._latest is not None:
                self._write(self._latest)  # the board as it is now, shown again
            if self._inner is not None:
                self._tell("reconnected", f"{self._name} is back; the board is shown again.")

    def close(self) -> None:
        """Stop the keeper; the backend (if it is there) turns the LEDs off and is freed."""
        with self._lock:
            self._stop = True
            self._lock.notify()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout=10)
        with self._lock:
            inner, self._inner = self._inner, None
        if inner is not None:
            with contextlib.suppress(*FAILURES):
                inner.close()
