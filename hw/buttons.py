"""Seat buttons on GPIO: gpiozero reads the pins, our filter decides what a press is.

gpiozero's callback threads only record `(button, level, time)` on a queue; one
worker thread (or the caller, through `process()`) runs the filters and puts
`InputEvent`s, in order, on the queue the app consumes. Nothing of the app runs
in a GPIO callback, so a slow app can never delay edge timestamps.

The time of an edge is the pin's own where the pin factory keeps one: lgpio
stamps each edge in the kernel (CLOCK_MONOTONIC, the clock of `time.monotonic`)
and gpiozero hands that stamp to the device, whose `active_time` /
`inactive_time` then say how long ago the edge was. The callback subtracts that
age from its clock, so a callback that runs late (a busy main thread held the
GIL: 5-13 ms was measured) still records when the contact moved. Other factories
report an age of about zero and the callback's clock reading stands. With an
injected clock (tests, demos) the ages are ignored unless asked for.

The filter (per button, driven only by the timestamps it is given, so tests
control time) treats the two directions differently, as switches need:

- press: the input must stay active for `glitch` before it counts, so a pulse
  shorter than that (interference on a long cable) is nothing; then the press
  is taken at once (leading edge: no delay beyond the glitch window);
- release: the input must stay inactive for `debounce` before it counts. While
  the button is down, every moment it reads inactive for less than that is
  bounce or a contact dropout and is nothing: bounce longer than the window
  (each gap in it is short), a sub-millisecond dropout of a held button (which
  would otherwise end a hold and start a new press). Bounce when letting go
  ends before the release is taken, so it cannot make a press either;
- hold: still pressed `hold` after the press gives one `long_press`;
- stuck: still pressed `stuck` after the press gives one `stuck`, and the button
  is then ignored until it is released (the `release` still comes, so every
  press is paired with a release).

A hold or stuck deadline that falls while a release is being confirmed waits
for the outcome: a dropout does not cost the hold, a real release cancels it.
Event times are the moments the filter decided, so they never go backwards.

We use gpiozero's `DigitalInputDevice`, not `Button`: `Button` starts a hold
thread per button that wakes every 100 ms, and we time holds ourselves. The
worker waits on its queue with a timeout set to the next deadline, or with none
when no button is down: an idle table costs no CPU.
"""

from __future__ import annotations

import logging
import os
import queue
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from hw.config import ButtonSpec, HwConfig, Timing
from hw.events import InputEvent, Kind
from hw.pi import lgpio_workdir

log = logging.getLogger("tavola.hw")

Clock = Callable[[], float]
EventQueue = queue.SimpleQueue[Any] | queue.Queue[Any]
"""Where filtered events go. The table's is a SimpleQueue: its put() is reentrant, so a
signal handler may use it (a Queue's put can deadlock on the lock its get holds)."""
_STOP = object()
#: an edge older than this when its callback runs is not believed (a clock mismatch)
MAX_EDGE_AGE = 0.5


class ButtonError(RuntimeError):
    """GPIO buttons that cannot start; the message names the fix."""


class ButtonFilter:
    """One button's edges and deadlines -> press / long_press / stuck / release events."""

    __slots__ = (
        "_confirm_at",
        "_deferred",
        "_hold_at",
        "_release_at",
        "_stuck_at",
        "button",
        "down",
        "emit",
        "raw",
        "seat",
        "stuck",
        "timing",
    )

    def __init__(
        self, seat: str, button: str, timing: Timing, emit: Callable[[InputEvent], None]
    ) -> None:
        self.seat, self.button, self.timing, self.emit = seat, button, timing, emit
        self.raw = False  # last level seen on the pin (True = active)
        self.down = False  # accepted state
        self.stuck = False
        self._confirm_at: float | None = None  # a press being confirmed
        self._release_at: float | None = None  # a release being confirmed
        self._hold_at: float | None = None
        self._stuck_at: float | None = None
        self._deferred = False  # hold/stuck deadlines moved to the end of _release_at

    def _event(self, kind: Kind, t: float) -> None:
        self.emit(InputEvent(self.seat, self.button, kind, t))

    def edge(self, active: bool, t: float) -> None:
        """The pin went active/inactive at `t` (deadlines up to `t` must be fired first)."""
        if active == self.raw:
            return
        self.raw = active
        if active:
            cancelled, self._release_at = self._release_at, None  # bounce or a dropout
            if self._deferred:  # a hold that fell inside the dropout is due now
                self._deferred = False
                if self._hold_at == cancelled:
                    self._hold_at = t
                if self._stuck_at == cancelled:
                    self._stuck_at = t
            if not self.down:
                self._confirm_at = t + self.timing.glitch
        else:
            self._confirm_at = None  # shorter than the glitch window: nothing
            if self.down:
                self._release_at = t + self.timing.debounce
        self.fire(t)

    def deadline(self) -> float | None:
        ds = [
            d
            for d in (self._confirm_at, self._release_at, self._hold_at, self._stuck_at)
            if d is not None
        ]
        return min(ds) if ds else None

    def fire(self, now: float) -> None:
        """Act on every deadline at or before `now`, oldest first."""
        while True:
            d = self.deadline()
            if d is None or d > now:
                return
            if d == self._confirm_at:
                self._confirm_at = None
                self._accept(True, d)
            elif d == self._release_at:
                self._release_at = None
                self._accept(False, d)
            elif self._release_at is not None:
                # a hold or stuck deadline while a release is unconfirmed: decide after it
                self._deferred = True
                if d == self._hold_at:
                    self._hold_at = self._release_at
                else:
                    self._stuck_at = self._release_at
            elif d == self._hold_at:
                self._hold_at = None
                self._event("long_press", d)
            elif d == self._stuck_at:
                self._stuck_at = None
                self.stuck = True
                self._event("stuck", d)

    def _accept(self, active: bool, t: float) -> None:
        self.down = active
        self._deferred = False
        if active:
            self._hold_at = t + self.timing.hold
            self._stuck_at = t + self.timing.stuck
            self._event("press", t)
        else:
            self._hold_at = self._stuck_at = None
            self.stuck = False
            self._event("release", t)


class ButtonBank:
    """Filters for many buttons fed from one edge queue, firing deadlines in time order.

    Thread-free: `process()` drains the recorded edges and fires deadlines up to the
    clock's now; `Buttons` runs it in a worker, tests call it with a fake clock.
    """

    def __init__(
        self, timing: Timing, *, clock: Clock = time.monotonic, events: EventQueue | None = None
    ) -> None:
        self.timing = timing
        self.clock = clock
        self.events: EventQueue = events if events is not None else queue.SimpleQueue()
        self.edges: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self.filters: dict[tuple[str, str], ButtonFilter] = {}
        self._busy: set[ButtonFilter] = set()
        self._now = float("-inf")

    def add(self, seat: str, button: str) -> ButtonFilter:
        f = ButtonFilter(seat, button, self.timing, self.events.put)
        self.filters[(seat, button)] = f
        return f

    def record(self, f: ButtonFilter, active: bool) -> None:
        """Called in the GPIO callback thread: timestamp and enqueue, nothing else."""
        self.edges.put((f, active, self.clock()))

    def _advance(self, t: float) -> None:
        busy = self._busy
        while busy:
            first = min(busy, key=_deadline_key)
            d = first.deadline()
            if d is None:
                busy.discard(first)
                continue
            if d > t:
                break
            first.fire(d)
            if first.deadline() is None:
                busy.discard(first)
        self._now = max(self._now, t)

    def _edge(self, f: ButtonFilter, active: bool, t: float) -> None:
        t = max(t, self._now)  # callbacks on different threads may enqueue slightly out of order
        self._advance(t)
        f.edge(active, t)
        if f.deadline() is not None:
            self._busy.add(f)

    def process(self, now: float | None = None) -> float | None:
        """Handle recorded edges and due deadlines; return the next deadline (clock time)."""
        while True:
            try:
                item = self.edges.get_nowait()
            except queue.Empty:
                break
            if item is _STOP:
                self.edges.put(_STOP)
                break
            self._edge(*item)
        self._advance(self.clock() if now is None else now)
        return self.next_deadline()

    def next_deadline(self) -> float | None:
        ds = [d for f in self._busy if (d := f.deadline()) is not None]
        return min(ds) if ds else None


def _deadline_key(f: ButtonFilter) -> float:
    d = f.deadline()
    return float("inf") if d is None else d


def resolve_pin_factory(name: str | None) -> Any:
    """The pin factory to build devices with: GPIOZERO_PIN_FACTORY wins, then the config's name.

    None means gpiozero's own default (which reads the environment variable itself).
    """
    lgpio_workdir()  # before gpiozero imports lgpio, here or in its default factory
    if os.environ.get("GPIOZERO_PIN_FACTORY") or name is None:
        return None
    if name == "mock":
        from gpiozero.pins.mock import MockFactory

        return MockFactory()
    from importlib.metadata import entry_points

    for ep in entry_points(group="gpiozero_pin_factories"):
        if ep.name == name:
            try:
                return ep.load()()
            except Exception as e:
                raise ButtonError(
                    f"pin factory {name!r} could not start: {e} (on a Pi 5 "
                    "use lgpio: sudo apt install python3-lgpio)"
                ) from None
    raise ButtonError(f"gpiozero has no pin factory {name!r}")


def factory_name(factory: Any) -> str:
    return type(factory).__name__ if factory is not None else "none"


class Buttons:
    """Every configured button, filtered, feeding one queue of `InputEvent`s (`.events`).

    With `thread=True` (the default) a worker thread runs the filters; with
    `thread=False` the owner calls `process()` (tests, single-threaded tools).
    `edge_ages` dates each edge by the pin's own timestamp (see the module's
    docstring); by default only when `clock` is `time.monotonic`, the clock those
    timestamps are on.
    """

    def __init__(
        self,
        specs: Iterable[ButtonSpec] | HwConfig,
        *,
        timing: Timing | None = None,
        pin_factory: Any = None,
        clock: Clock = time.monotonic,
        events: EventQueue | None = None,
        thread: bool = True,
        edge_ages: bool | None = None,
    ) -> None:
        lgpio_workdir()
        from gpiozero import DigitalInputDevice
        from gpiozero.exc import GPIOZeroError

        if isinstance(specs, HwConfig):
            timing = timing or specs.timing
            if pin_factory is None:
                pin_factory = resolve_pin_factory(specs.pin_factory)
            specs = specs.buttons
        self.bank = ButtonBank(timing or Timing(), clock=clock, events=events)
        self.events = self.bank.events
        self.devices: dict[tuple[str, str], Any] = {}
        self.specs: dict[tuple[str, str], ButtonSpec] = {}
        try:
            for spec in specs:
                f = self.bank.add(spec.seat, spec.button)
                try:
                    dev = DigitalInputDevice(
                        spec.pin,
                        pull_up=spec.pull_up,
                        active_state=spec.active_high if spec.pull_up is None else None,
                        pin_factory=pin_factory,
                    )
                except GPIOZeroError as e:
                    raise ButtonError(
                        f"seat {spec.seat} {spec.button} on GPIO{spec.pin}: {e}"
                    ) from None
                self.devices[(spec.seat, spec.button)] = dev
                self.specs[(spec.seat, spec.button)] = spec
                if dev.is_active:  # pressed (or stuck) at start-up: treat as a press now
                    self.bank.record(f, True)
                aged = clock is time.monotonic if edge_ages is None else edge_ages
                dev.when_activated = _recorder(self.bank, f, dev, True, aged)
                dev.when_deactivated = _recorder(self.bank, f, dev, False, aged)
        except BaseException:
            self._close_devices()
            raise
        self.pin_factory = (
            next(iter(self.devices.values())).pin_factory if self.devices else pin_factory
        )
        self._thread: threading.Thread | None = None
        if thread:
            self.start()

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="tavola-buttons", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        bank = self.bank
        while True:
            deadline = bank.process()
            timeout = None if deadline is None else max(0.0, deadline - bank.clock())
            try:
                item = bank.edges.get(timeout=timeout)
            except queue.Empty:
                continue
            if item is _STOP:
                return
            bank._edge(*item)

    def process(self, now: float | None = None) -> float | None:
        """Run the filters now (only without the worker thread, which otherwise does it)."""
        if self._thread is not None:
            raise RuntimeError("the worker thread runs the filters; make Buttons(thread=False)")
        return self.bank.process(now)

    def pin(self, seat: str, button: str) -> Any:
        """The gpiozero pin of a button (a `MockPin` under MockFactory: drive it in tests)."""
        return self.devices[(seat, button)].pin

    def press_pin(self, seat: str, button: str, active: bool) -> None:
        """Drive a mock pin to the button's active (pressed) or inactive level."""
        spec = self.specs[(seat, button)]
        active_high = (not spec.pull_up) if spec.pull_up is not None else bool(spec.active_high)
        pin = self.pin(seat, button)
        if active == active_high:
            pin.drive_high()
        else:
            pin.drive_low()

    def get(self, timeout: float | None = None) -> InputEvent | None:
        """The next event, or None after `timeout` seconds."""
        try:
            return self.events.get(timeout=timeout)
        except queue.Empty:
            return None

    def _close_devices(self) -> None:
        for dev in self.devices.values():
            close_device(dev)
        self.devices.clear()

    def close(self) -> None:
        if self._thread is not None:
            self.bank.edges.put(_STOP)
            self._thread.join(timeout=5)
            self._thread = None
        self._close_devices()

    def __enter__(self) -> Buttons:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _recorder(
    bank: ButtonBank, f: ButtonFilter, dev: Any, active: bool, aged: bool
) -> Callable[[], None]:
    """The GPIO callback: the edge's time (the clock, less the edge's age) onto the queue."""
    clock = bank.clock

    def record() -> None:
        bank.edges.put((f, active, clock()))

    def record_aged() -> None:
        now = clock()
        # gpiozero: seconds since the pin's own timestamp of this edge (lgpio: the kernel's)
        age = dev.active_time if active else dev.inactive_time
        if age is not None and 0.0 < age < MAX_EDGE_AGE:
            now -= age
        bank.edges.put((f, active, now))

    return record_aged if aged else record


def close_device(dev: Any, *, sleep: Callable[[float], None] = time.sleep, tries: int = 8) -> bool:
    """Close a gpiozero device, retrying while the line is still busy; False if it stayed so.

    lgpio frees a watched line by telling its alert thread to drop it, waits at most
    2 ms, and closes the line's file; gpiozero then claims the line again as an input.
    If the alert thread is still inside poll() on that file (a loaded or slow Pi: it
    happened in the emulated Pi), the kernel has not released the line yet and the
    claim fails with 'GPIO busy'. A few milliseconds later it succeeds, so try again
    with backoff (5 ms doubling, ~0.6 s in all); gpiozero keeps the pin until its close
    succeeds, so a retry is a whole close. Any other error is raised."""
    delay = 0.005
    for attempt in range(tries):
        try:
            dev.close()
            return True
        except Exception as e:  # lgpio.error is not importable without lgpio
            if "busy" not in str(e).lower():
                raise
            if attempt == tries - 1:
                log.warning(
                    "GPIO line still busy after %d tries (%s); the kernel frees it "
                    "when this process exits",
                    tries,
                    e,
                )
                return False
            sleep(delay)
            delay *= 2
    return False
