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
