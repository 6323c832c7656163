"""Seat buttons on GPIO: gpiozero reads the pins, our filter decides what a press is.

gpiozero's callback threads only record `(button, level, time)` on a queue; one
worker thread (or the caller, through `process()`) runs the filters and puts
`InputEvent`s, in order, on the queue the app consumes. Nothing of the app runs
in a GPIO callback, so a slow app can never delay edge timestamps.

The filter (per button, driven only by the timestamps it is given, so tests
control time) works like this:

- glitch: the input must stay active for `glitch` before it counts, so a pulse
  shorter than that (interference on a long cable) is nothing;
- debounce: after an accepted press or release, edges for `debounce` are
  ignored and the level is re-read at the end of the window, so a burst of
  contact bounce is one press (leading edge: no delay beyond the glitch window);
- hold: still pressed `hold` after the press gives one `long_press`;
- stuck: still pressed `stuck` after the press gives one `stuck`, and the button
  is then ignored until it is released (the `release` still comes, so every
  press is paired with a release).

Event times are the moments the filter decided, so they never go backwards.

We use gpiozero's `DigitalInputDevice`, not `Button`: `Button` starts a hold
thread per button that wakes every 100 ms, and we time holds ourselves. The
worker waits on its queue with a timeout set to the next hold/stuck deadline,
or with none when no button is down: an idle table costs no CPU.
"""

from __future__ import annotations

import os
import queue
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from hw.config import ButtonSpec, HwConfig, Timing
from hw.events import InputEvent, Kind
from hw.pi import lgpio_workdir

Clock = Callable[[], float]
_STOP = object()


class ButtonError(RuntimeError):
    """GPIO buttons that cannot start; the message names the fix."""


class ButtonFilter:
    """One button's edges and deadlines -> press / long_press / stuck / release events."""

    __slots__ = ("_confirm_at", "_hold_at", "_raw_since", "_stuck_at", "_window_end", "button",
                 "down", "emit", "raw", "seat", "stuck", "timing")

    def __init__(self, seat: str, button: str, timing: Timing,
                 emit: Callable[[InputEvent], None]) -> None:
        self.seat, self.button, self.timing, self.emit = seat, button, timing, emit
        self.raw = False  # last level seen on the pin (True = active)
        self._raw_since = 0.0
        self.down = False  # accepted state
        self.stuck = False
        self._confirm_at: float | None = None
        self._window_end: float | None = None
        self._hold_at: float | None = None
        self._stuck_at: float | None = None

    def _event(self, kind: Kind, t: float) -> None:
        self.emit(InputEvent(self.seat, self.button, kind, t))

    def edge(self, active: bool, t: float) -> None:
        """The pin went active/inactive at `t` (deadlines up to `t` must be fired first)."""
        if active == self.raw:
            return
        self.raw, self._raw_since = active, t
        if self._window_end is None:
            self._settle(t)

    def deadline(self) -> float | None:
        ds = [d for d in (self._confirm_at, self._window_end, self._hold_at, self._stuck_at)
              if d is not None]
        return min(ds) if ds else None

    def fire(self, now: float) -> None:
        """Act on every deadline at or before `now`, oldest first."""
        while True:
            d = self.deadline()
            if d is None or d > now:
                return
            if d == self._window_end:
                self._window_end = None
                self._settle(d)
            elif d == self._confirm_at:
                self._confirm_at = None
                self._accept(True, d)
            elif d == self._hold_at:
                self._hold_at = None
                self._event("long_press", d)
            elif d == self._stuck_at:
                self._stuck_at = None
                self.stuck = True
                self._event("stuck", d)

    def _settle(self, t: float) -> None:
        """Compare the pin with the accepted state outside any debounce window."""
        if self.raw and not self.down:
            if self._confirm_at is None:
                confirm = self._raw_since + self.timing.glitch
                if confirm <= t:
                    self._accept(True, t)
                else:
                    self._confirm_at = confirm
        elif not self.raw:
            self._confirm_at = None  # shorter than the glitch window: nothing
            if self.down:
                self._accept(False, t)

    def _accept(self, active: bool, t: float) -> None:
        self.down = active
        if self.timing.debounce > 0:
            self._window_end = t + self.timing.debounce
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

    def __init__(self, timing: Timing, *, clock: Clock = time.monotonic,
                 events: queue.Queue[InputEvent] | None = None) -> None:
        self.timing = timing
        self.clock = clock
        self.events: queue.Queue[InputEvent] = events if events is not None else queue.Queue()
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
                raise ButtonError(f"pin factory {name!r} could not start: {e} (on a Pi 5 "
                                  "use lgpio: sudo apt install python3-lgpio)") from None
    raise ButtonError(f"gpiozero has no pin factory {name!r}")


def factory_name(factory: Any) -> str:
    return type(factory).__name__ if factory is not None else "none"


class Buttons:
    """Every configured button, filtered, feeding one `queue.Queue[InputEvent]` (`.events`).

    With `thread=True` (the default) a worker thread runs the filters; with
    `thread=False` the owner calls `process()` (tests, single-threaded tools).
    """

    def __init__(self, specs: Iterable[ButtonSpec] | HwConfig, *, timing: Timing | None = None,
                 pin_factory: Any = None, clock: Clock = time.monotonic,
                 events: queue.Queue[InputEvent] | None = None, thread: bool = True) -> None:
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
                        spec.pin, pull_up=spec.pull_up,
                        active_state=spec.active_high if spec.pull_up is None else None,
                        pin_factory=pin_factory)
                except GPIOZeroError as e:
                    raise ButtonError(f"seat {spec.seat} {spec.button} on GPIO{spec.pin}: "
                                      f"{e}") from None
                self.devices[(spec.seat, spec.button)] = dev
                self.specs[(spec.seat, spec.button)] = spec
                if dev.is_active:  # pressed (or stuck) at start-up: treat as a press now
                    self.bank.record(f, True)
                dev.when_activated = _recorder(self.bank, f, True)
                dev.when_deactivated = _recorder(self.bank, f, False)
        except BaseException:
            self._close_devices()
            raise
        self.pin_factory = next(iter(self.devices.values())).pin_factory if self.devices \
            else pin_factory
        self._thread: threading.Thread | None = None
        if thread:
            self.start()

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="tavola-buttons",
                                            daemon=True)
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
            dev.close()
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


def _recorder(bank: ButtonBank, f: ButtonFilter, active: bool) -> Callable[[], None]:
    def record() -> None:
        bank.edges.put((f, active, bank.clock()))

    return record
