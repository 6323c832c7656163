"""Button filtering with a hand-driven clock, then the same through gpiozero's MockFactory."""

from __future__ import annotations

import queue
import time

import pytest
from gpiozero.pins.mock import MockFactory, MockPin

from hw.buttons import ButtonBank, ButtonError, Buttons, resolve_pin_factory
from hw.config import ButtonSpec, Timing, parse_config_text
from hw.events import InputEvent
from tests.hw.conftest import FakeClock

T = Timing(debounce=0.020, glitch=0.002, hold=0.600, stuck=5.0)


def drain(q: queue.Queue[InputEvent]) -> list[tuple[str, str, str, float]]:
    out = []
    while not q.empty():
        e = q.get_nowait()
        out.append((e.seat, e.button, e.kind, round(e.time, 6)))
    return out


class Rig:
    """One bank, one clock: `edge(level, at)` records an edge at clock time `at`."""

    def __init__(self, timing: Timing = T, buttons: tuple[str, ...] = ("select",)) -> None:
        self.clock = FakeClock(0.0)
        self.bank = ButtonBank(timing, clock=self.clock)
        self.f = {b: self.bank.add("1", b) for b in buttons}

    def edge(self, active: bool, at: float, button: str = "select") -> None:
        self.clock.now = at
        self.bank.record(self.f[button], active)

    def run(self, until: float) -> list[tuple[str, str, str, float]]:
        self.clock.now = until
        self.bank.process()
        return drain(self.bank.events)

    def kinds(self, until: float) -> list[str]:
        return [k for _, _, k, _ in self.run(until)]


def test_a_clean_press_and_release() -> None:
    r = Rig()
    r.edge(True, 1.0)
    r.edge(False, 1.2)
    # a press is taken once the glitch window has passed; a release once the contact has
    # stayed open for the debounce window
    assert r.run(2.0) == [("1", "select", "press", 1.002), ("1", "select", "release", 1.22)]


def test_a_burst_of_bounce_is_one_press_and_one_release() -> None:
    r = Rig()
    t = 1.0
    for level in (True, False, True, False, True, False, True):  # contact bounce, 0.5 ms apart
        r.edge(level, t)
        t += 0.0005
    for level in (False, True, False, True, False):  # bounce on the way up again
        r.edge(level, 1.3 + (t - 1.0))
        t += 0.0005
    assert r.kinds(3.0) == ["press", "release"]


def test_bounce_longer_than_the_glitch_window_is_still_one_press() -> None:
    r = Rig()
    r.edge(True, 1.0)
    r.edge(False, 1.004)  # already accepted at 1.002; these edges fall in the debounce window
    r.edge(True, 1.006)
    r.edge(False, 1.009)
    r.edge(True, 1.011)
    assert r.kinds(1.5) == ["press"]
    r.edge(False, 1.5)
    assert r.kinds(2.0) == ["release"]


def test_a_pulse_shorter_than_the_glitch_window_is_nothing() -> None:
    r = Rig()
    r.edge(True, 1.0)
    r.edge(False, 1.0015)
    r.edge(True, 2.0)
    r.edge(False, 2.0019)
    assert r.run(5.0) == []


def test_a_pulse_just_longer_than_the_glitch_window_is_a_press() -> None:
    r = Rig()
    r.edge(True, 1.0)
    r.edge(False, 1.0021)
    assert r.kinds(5.0) == ["press", "release"]


def test_hold_gives_one_long_press_at_the_threshold() -> None:
    r = Rig()
    r.edge(True, 1.0)
    assert r.kinds(1.6) == ["press"]  # 1.002 + 0.6 = 1.602: not yet
    assert r.run(1.602) == [("1", "select", "long_press", 1.602)]
    assert r.run(3.0) == []  # once only
    r.edge(False, 3.0)
    assert r.kinds(3.1) == ["release"]


def test_stuck_is_reported_once_and_ignored_until_release() -> None:
    r = Rig()
    r.edge(True, 1.0)
    events = r.run(100.0)
    assert [k for *_, k, _ in events] == ["press", "long_press", "stuck"]
    assert events[-1][3] == pytest.approx(6.002)
    assert r.run(200.0) == []
    assert r.f["select"].stuck
    r.edge(False, 200.0)
    assert r.kinds(200.1) == ["release"]
    assert not r.f["select"].stuck
    r.edge(True, 201.0)  # works again
    assert r.kinds(201.1) == ["press"]


def test_a_short_tap_is_a_press_and_a_release() -> None:
    r = Rig()
    r.edge(True, 1.0)
    r.edge(False, 1.010)
    assert r.run(1.1) == [("1", "select", "press", 1.002), ("1", "select", "release", 1.03)]


def test_open_for_less_than_the_debounce_window_is_no_release() -> None:
    r = Rig()
    r.edge(True, 1.0)
    r.edge(False, 1.1)
    r.edge(True, 1.105)  # 5 ms open: no finger presses again that fast; a dropout
    assert r.kinds(1.2) == ["press"]


def test_open_for_longer_than_the_debounce_window_then_pressed_again() -> None:
    r = Rig()
    r.edge(True, 1.0)
    r.edge(False, 1.1)
    r.edge(True, 1.13)
    assert r.kinds(1.2) == ["press", "release", "press"]


def test_a_sub_millisecond_dropout_of_a_held_button_is_nothing() -> None:
    """A worn contact opens for 0.3 ms while select is held: it must stay one hold ("back"),
    not become a release ("select") and a new press."""
    r = Rig()
    r.edge(True, 1.0)
    r.edge(False, 1.3)
    r.edge(True, 1.3003)
    events = r.run(1.7)
    assert [k for *_, k, _ in events] == ["press", "long_press"]
    assert events[1][3] == pytest.approx(1.602)  # the hold is timed from the first press
    r.edge(False, 1.9)
    assert r.kinds(2.0) == ["release"]


def test_a_dropout_across_the_hold_threshold_keeps_the_hold() -> None:
    r = Rig()
    r.edge(True, 1.0)
    r.edge(False, 1.6015)  # open from just before the hold threshold (1.602) ...
    r.edge(True, 1.6025)  # ... to just after it
    events = r.run(1.7)
    assert [k for *_, k, _ in events] == ["press", "long_press"]
    assert events[1][3] == pytest.approx(1.6025)


def test_a_release_just_before_the_hold_threshold_is_a_tap() -> None:
    r = Rig()
    r.edge(True, 1.0)
    r.edge(False, 1.595)  # the release is confirmed at 1.615, after the threshold
    assert r.kinds(2.0) == ["press", "release"]


def test_bounce_longer_than_the_debounce_window_is_one_press() -> None:
    """A switch that chatters for 60 ms on closing (open gaps of 0.5-1.5 ms), then again
    for 60 ms on opening (closed blips of 2 ms, longer than the glitch window)."""
    r = Rig()
    t = 1.0
    while t < 1.06:
        r.edge(True, t)
        r.edge(False, t + 0.003)
        t += 0.003 + 0.0005 + (t * 1000 % 3) / 3000
    r.edge(True, t)
    t = 1.5
    r.edge(False, t)
    while t < 1.56:
        r.edge(True, t + 0.004)
        r.edge(False, t + 0.006)
        t += 0.006
    assert r.kinds(2.0) == ["press", "release"]


def test_zero_glitch_window_presses_on_the_edge() -> None:
    r = Rig(Timing(debounce=0.02, glitch=0.0, hold=0.6, stuck=5))
    r.edge(True, 1.0)
    assert r.run(1.0) == [("1", "select", "press", 1.0)]


def test_events_of_several_buttons_come_in_time_order() -> None:
    r = Rig(buttons=("previous", "select", "next"))
    r.edge(True, 1.0, "previous")
    r.edge(True, 1.001, "next")
    r.edge(False, 1.3, "previous")
    r.edge(False, 1.9, "next")
    events = r.run(2.0)
    assert [(b, k) for _, b, k, _ in events] == [
        ("previous", "press"),
        ("next", "press"),
        ("previous", "release"),
        ("next", "long_press"),
        ("next", "release"),
    ]
    times = [t for *_, t in events]
    assert times == sorted(times)


def test_next_deadline_is_none_when_nothing_is_pending() -> None:
    r = Rig()
    assert r.bank.process() is None
    r.edge(True, 1.0)
    assert r.bank.process() == pytest.approx(1.002)  # the glitch confirmation
    r.run(1.002)
    assert r.bank.next_deadline() == pytest.approx(1.602)  # long press
    r.edge(False, 1.1)
    assert r.bank.process() == pytest.approx(1.12)  # the release is being confirmed
    r.run(1.2)
    assert r.bank.next_deadline() is None


# --- through gpiozero -------------------------------------------------------------------

SIX_SEATS = (
    "\n".join(
        f"[seats.{s}]\nkind = 'three'\nprevious = {p}\nselect = {p + 1}\nnext = {p + 2}\n"
        for s, p in zip(range(1, 7), range(2, 20, 3), strict=True)
    )
    + "[table]\nundo = 20\nmenu = 21\n"
)


def test_buttons_from_config_on_mock_pins(mock_factory: MockFactory, clock: FakeClock) -> None:
    cfg = parse_config_text(SIX_SEATS)
    with Buttons(cfg, pin_factory=mock_factory, clock=clock, thread=False) as b:
        assert len(b.devices) == 20
        b.pin("3", "select").drive_low()  # pull-up wiring: pressed = low
        clock.advance(0.01)
        b.process()
        b.pin("3", "select").drive_high()
        clock.advance(0.1)
        b.process()
        b.pin("table", "undo").drive_low()
        clock.advance(0.01)
        b.process()
        assert [(e.seat, e.button, e.kind) for e in iter(lambda: b.get(0), None)] == [
            ("3", "select", "press"),
            ("3", "select", "release"),
            ("table", "undo", "press"),
        ]


def test_active_high_wiring(mock_factory: MockFactory, clock: FakeClock) -> None:
    spec = ButtonSpec("1", "button", 4, pull_up=False)
    with Buttons([spec], timing=T, pin_factory=mock_factory, clock=clock, thread=False) as b:
        b.press_pin("1", "button", True)
        assert b.pin("1", "button").state == 1
        clock.advance(0.01)
        b.process()
        assert b.get(0) == InputEvent("1", "button", "press", pytest.approx(100.002))


def test_a_button_held_at_start_up_counts_as_pressed(
    mock_factory: MockFactory, clock: FakeClock
) -> None:
    mock_factory.pin(4).drive_high()  # external pull-down, button closed to 3V3 at boot
    spec = ButtonSpec("1", "button", 4, pull_up=None, active_high=True)
    with Buttons([spec], timing=T, pin_factory=mock_factory, clock=clock, thread=False) as b:
        clock.advance(0.01)
        b.process()
        assert b.get(0).kind == "press"


def test_the_worker_thread_delivers_events(mock_factory: MockFactory) -> None:
    spec = ButtonSpec("2", "next", 6)
    with Buttons([spec], timing=T, pin_factory=mock_factory) as b:
        b.press_pin("2", "next", True)
        first = b.get(timeout=5)
        b.press_pin("2", "next", False)
        second = b.get(timeout=5)
    assert first is not None and (first.seat, first.button, first.kind) == ("2", "next", "press")
    assert second is not None and second.kind == "release"


def test_the_worker_times_a_long_press_without_input(mock_factory: MockFactory) -> None:
    timing = Timing(debounce=0.005, glitch=0.0, hold=0.05, stuck=1.0)
    with Buttons([ButtonSpec("1", "select", 5)], timing=timing, pin_factory=mock_factory) as b:
        b.press_pin("1", "select", True)
        kinds = [b.get(timeout=5), b.get(timeout=5)]
    assert [e.kind for e in kinds if e] == ["press", "long_press"]


def test_devices_are_closed_and_pins_released(mock_factory: MockFactory) -> None:
    b = Buttons([ButtonSpec("1", "button", 7)], pin_factory=mock_factory, thread=False)
    b.close()
    again = Buttons([ButtonSpec("1", "button", 7)], pin_factory=mock_factory, thread=False)
    again.close()


def test_a_pin_taken_twice_is_a_friendly_error(mock_factory: MockFactory) -> None:
    specs = [ButtonSpec("1", "button", 7), ButtonSpec("2", "button", 7)]
    with pytest.raises(ButtonError, match=r"seat 2 button on GPIO7"):
        Buttons(specs, pin_factory=mock_factory, thread=False)


def test_pin_factory_from_config_and_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    f = resolve_pin_factory("mock")
    assert isinstance(f, MockFactory)
    f.close()
    assert resolve_pin_factory(None) is None
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    assert resolve_pin_factory("lgpio") is None  # the environment wins: gpiozero reads it
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY")
    with pytest.raises(ButtonError, match="no pin factory 'nonesuch'"):
        resolve_pin_factory("nonesuch")


class LatePin(MockPin):
    """A pin whose edges carry the moment the contact moved while the callback runs 8 ms
    later: what lgpio reports (a kernel timestamp per edge) when a busy main thread holds
    the GIL. MockFactory cannot show a real kernel's stamps; the QEMU system test can."""

    LATE = 0.008

    def _change_state(self, value: bool) -> bool:
        changed = super()._change_state(value)
        if changed:
            self._last_change -= self.LATE
        return changed


def test_an_edge_is_dated_by_the_pins_own_timestamp_not_the_late_callback() -> None:
    factory = MockFactory(pin_class=LatePin)
    try:
        with Buttons(
            [ButtonSpec("1", "select", 5)], timing=T, pin_factory=factory, thread=False
        ) as b:  # the real clock: the one lgpio stamps are on
            before = time.monotonic()
            b.press_pin("1", "select", True)
            after = time.monotonic()
            time.sleep(0.02)
            b.process()
            press = b.get(0)
            assert press is not None and press.kind == "press"
            edge = press.time - T.glitch
            assert before - LatePin.LATE - 1e-3 <= edge <= after - LatePin.LATE + 1e-3
    finally:
        factory.close()
        factory.reset()


def test_an_injected_clock_ignores_pin_timestamps(
    mock_factory: MockFactory, clock: FakeClock
) -> None:
    with Buttons(
        [ButtonSpec("1", "select", 5)],
        timing=T,
        pin_factory=mock_factory,
        clock=clock,
        thread=False,
    ) as b:
        b.press_pin("1", "select", True)
        clock.advance(0.01)
        b.process()
        assert b.get(0) == InputEvent("1", "select", "press", 100.002)


class _BusyDevice:
    """A device whose close fails like lgpio's while its alert thread still holds the line."""

    def __init__(self, busy: int, error: str = "GPIO busy") -> None:
        self.busy, self.error, self.closes = busy, error, 0

    def close(self) -> None:
        self.closes += 1
        if self.closes <= self.busy:
            raise RuntimeError(self.error)


def test_a_line_still_busy_at_close_is_closed_on_a_retry() -> None:
    """lgpio's 'GPIO busy' when a watched line is freed under load: a later close succeeds,
    so closing the buttons neither fails nor leaves the line to gpiozero's exit handler."""
    from hw.buttons import close_device

    slept: list[float] = []
    dev = _BusyDevice(busy=3)
    assert close_device(dev, sleep=slept.append) is True
    assert dev.closes == 4 and slept == [0.005, 0.01, 0.02]
    stuck = _BusyDevice(busy=99)
    assert close_device(stuck, sleep=slept.append) is False and stuck.closes == 8
    with pytest.raises(RuntimeError, match="bad pin"):
        close_device(_BusyDevice(busy=1, error="bad pin"), sleep=slept.append)
