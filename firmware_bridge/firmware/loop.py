"""The firmware's main loop and boot escape, free of hardware: main.py hands them the
USB port, the buttons and the card reader; the host's tests and the benchmark run them
in MicroPython with stand-ins.

The loop reads USB input a whole packet at a time and decodes it in bulk, and samples
the buttons on a fixed schedule (every `Bank.period_ms`) whatever the stream does: it
reads only until the next sample is due. Only a strip write (the WS2812's wire time,
30 us an LED) holds a sample up.

MicroPython subset: see proto.py.
"""

try:
    from . import proto
except ImportError:
    import proto

ESCAPE_MS = 5000  # after boot, a Ctrl-C before any frame leaves the board at the REPL
SLOW_MS = 5  # a packet read that took longer waited for input that was not padded


def boot_escape(
    held, waiting, read_byte, ticks_ms, ticks_diff, sleep_ms, window_ms: int = ESCAPE_MS
) -> tuple:
    """(escape, bytes already read): whether to leave the board at the REPL.

    Escape if `held()` (a button held at power-up), or if a Ctrl-C (0x03) arrives in
    the first `window_ms` before any zero byte: mpremote and terminals send Ctrl-C,
    while a Tavola host's first byte is a frame's leading zero, which ends the window
    at once (so the table never waits). Ctrl-C must already be off (kbd_intr(-1)): a
    frame holds 0x03 bytes, and only this function decides what one means.
    """
    if held():
        return True, b""
    start = ticks_ms()
    while ticks_diff(ticks_ms(), start) < window_ms:
        if not waiting():
            sleep_ms(10)
            continue
        byte = read_byte()
        if byte == 3:
            return True, b""
        if byte == 0:
            return False, b"\x00"
    return False, b""


class PacketReader:
    """USB input a whole packet at a time, from a port whose readinto(buf) waits for a full buf.

    MicroPython's USB serial port on the RP2040 says only whether a byte waits (poll);
    it has no partial read. The host pads each write to whole packets
    (proto.USB_PACKET), so once a byte waits the rest of its packet came with it and
    a packet read never waits. Input that is not padded (a terminal, a probe) would
    leave a read waiting for the next write: after a read that waited, and at start,
    the reader takes a byte at a time until the line falls quiet after a zero, when
    the next byte begins a new write.
    """

    def __init__(
        self, readinto, waiting, ticks_ms, ticks_diff, size: int = proto.USB_PACKET
    ) -> None:
        self.readinto = readinto
        self.waiting = waiting
        self.ticks_ms = ticks_ms
        self.ticks_diff = ticks_diff
        self.buf = bytearray(size)
        self.packet = memoryview(self.buf)
        self.byte = self.packet[:1]
        self.aligned = False
        self.last = 0
        self.slow = 0  # packet reads that waited
        self.bytes = 0

    def read(self):
        """The next piece of input (a view valid until the next call), or None."""
        if not self.waiting():
            if self.last == 0:
                self.aligned = True
            return None
        if not self.aligned:
            self.readinto(self.byte)
            self.last = self.buf[0]
            self.bytes += 1
            return self.byte
        start = self.ticks_ms()
        self.readinto(self.packet)
        if self.ticks_diff(self.ticks_ms(), start) > SLOW_MS:
            self.aligned = False
            self.slow += 1
        self.last = self.buf[len(self.buf) - 1]
        self.bytes += len(self.buf)
        return self.packet


class Board:
    """One pass after another: the button sample when it is due, USB input until the next
    one is, the other tasks (the card reader), the protocol's timers; 1 ms of sleep when
    a pass found no input."""

    def __init__(self, device, usb, bank, ticks_ms, ticks_diff, sleep_ms, tasks=()) -> None:
        self.device = device
        self.usb = usb
        self.bank = bank
        self.ticks_ms = ticks_ms
        self.ticks_diff = ticks_diff
        self.sleep_ms = sleep_ms
        self.tasks = tasks  # callables of now_ms
        self.now = 0
        self.last = ticks_ms()

    def clock(self) -> int:
        """Milliseconds since start, a count that never wraps (unlike ticks_ms)."""
        tick = self.ticks_ms()
        self.now += self.ticks_diff(tick, self.last)
        self.last = tick
        return self.now

    def step(self) -> bool:
        """One pass; True if there was input (so the loop goes on without sleeping)."""
        bank = self.bank
        device = self.device
        now = self.clock()
        if bank.poll(now) and bank.events:
            for seat, button, kind in bank.events:
                device.button(seat, button, kind)
            bank.events.clear()
        busy = False
        while now < bank.due_ms:
            chunk = self.usb.read()
            if chunk is None:
                break
            busy = True
            device.feed(chunk, now)
            now = self.clock()
        for task in self.tasks:
            task(now)
        device.poll(now)
        return busy

    def run(self) -> None:
        while True:
            if not self.step():
                self.sleep_ms(1)
