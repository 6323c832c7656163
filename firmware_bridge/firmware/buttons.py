"""Seat buttons on the Pico: our own debounce and hold detection, as hw.buttons does on
the Pi, so a press means the same thing whichever board reads it.

MicroPython subset: see proto.py.
"""

try:
    from . import proto
except ImportError:
    import proto

PRESS = proto.KINDS.index("press")
LONG_PRESS = proto.KINDS.index("long_press")
RELEASE = proto.KINDS.index("release")


class Debounced:
    """One button: a level must hold `debounce_ms` to count; `hold_ms` down is a long press.

    `update(pressed, now_ms)` returns the event kinds (indices into proto.KINDS) that
    became true; the caller samples every millisecond or so.
    """

    def __init__(self, seat: int, button: int, debounce_ms: int = 20, hold_ms: int = 600) -> None:
        self.seat = seat
        self.button = button
        self.debounce_ms = debounce_ms
        self.hold_ms = hold_ms
        self.raw = False
        self.stable = False
        self.changed_ms = 0
        self.down_ms = 0
        self.held = False

    def update(self, pressed: bool, now_ms: int) -> list:
        out = []
        if pressed != self.raw:
            self.raw = pressed
            self.changed_ms = now_ms
        if self.raw != self.stable and now_ms - self.changed_ms >= self.debounce_ms:
            self.stable = self.raw
            if self.stable:
                self.down_ms = now_ms
                self.held = False
                out.append(PRESS)
            else:
                out.append(RELEASE)
        if self.stable and not self.held and now_ms - self.down_ms >= self.hold_ms:
            self.held = True
            out.append(LONG_PRESS)
        return out


class Bank:
    """All the board's buttons, sampled together on a fixed schedule, whatever else the
    loop is doing; the events wait in `events` for the loop to send.

    `pins` are (pin, Debounced) pairs whose `pin.value()` is 0 while pressed (pulled up).
    A released, settled button costs one pin read a sample: its Debounced is asked only
    while something can happen (a level changed, a debounce or a hold is running).
    """

    def __init__(self, pins: list, period_ms: int = 1) -> None:
        self.pins = pins
        self.period_ms = period_ms
        self.due_ms = 0
        self.events = []  # (seat, button, kind)
        self.samples = 0
        self.late = 0  # samples taken more than a period after they were due

    def poll(self, now_ms: int) -> bool:
        """Sample every button if a sample is due; True if one was taken."""
        due = self.due_ms
        if now_ms < due:
            return False
        due += self.period_ms
        if due <= now_ms:  # the loop was held up (a strip write): no burst of catch-ups
            self.late += 1
            due = now_ms + self.period_ms
        self.due_ms = due
        self.samples += 1
        events = self.events
        for pin, button in self.pins:
            pressed = not pin.value()
            if (
                pressed != button.raw
                or button.raw != button.stable
                or (button.stable and not button.held)
            ):
                for kind in button.update(pressed, now_ms):
                    events.append((button.seat, button.button, kind))
        return True
