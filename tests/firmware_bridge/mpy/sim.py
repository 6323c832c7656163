"""Stand-ins for the Pico's hardware, to run the firmware's own loop (firmware/loop.py)
in MicroPython's WebAssembly port or in CPython: the benchmark and the tests use them.

- `Clock`: virtual microseconds = the real time the code takes, times `cpu_scale`
  (1: as measured here; more: an assumed slower CPU), plus modelled waits (sleeps, the
  strip's wire time, a USB read that waits for input). Sleeping costs no real time.
- `Usb`: the RP2040's USB serial port as MicroPython shows it: `waiting()` says whether
  a byte waits, `readinto(buf)` waits until buf is full. The host's writes arrive in
  64-byte packets at USB full speed into the board's 768-byte buffer; while it is full
  the host waits (flow control).
- `Pin`: a button pressed during given intervals; `Strip`: records frames with the
  timing of firmware/ws2812.py (DMA: the CPU waits only if a frame is still on the wire).

What these cannot show: the RP2040's real speed (see `cpu_scale`), USB timing beyond
the packet model, interrupts, and the PIO and DMA themselves.
MicroPython subset: see firmware/proto.py.
"""

try:
    import js

    def real_us() -> float:
        return js.performance.now() * 1000.0
except ImportError:
    try:
        from time import perf_counter

        def real_us() -> float:
            return perf_counter() * 1e6
    except ImportError:
        from time import ticks_us

        def real_us() -> float:
            return ticks_us()


import proto

PACKET_US = 54  # one 64-byte packet at USB full speed (about 1.2 MB/s of payload)
BUFFER = 768  # MicroPython's stdin ring (512) plus TinyUSB's receive FIFO (256)
BYTE_US = 10  # 8 bits at 800 kHz on the strip's wire
LATCH_US = 300


def ticks_diff(a: int, b: int) -> int:
    return a - b


class Clock:
    """Reading the real clock costs time of its own (11 us in the WebAssembly port, a JS
    call): that cost is measured at start and taken out, and the stand-ins read the
    time the firmware last asked for (`cached`) instead of the clock."""

    def __init__(self, cpu_scale: float = 1.0) -> None:
        self.scale = cpu_scale
        self.extra = 0.0
        self.slept_us = 0.0
        self.calls = 0
        t0 = real_us()
        for _ in range(200):
            real_us()
        self.cost = (real_us() - t0) / 201
        self.start = real_us()
        self.cached = 0.0

    def us(self) -> float:
        self.calls += 1
        now = (real_us() - self.start - self.calls * self.cost) * self.scale + self.extra
        self.cached = now
        return now

    def ticks_ms(self) -> int:
        return int(self.us() // 1000)

    def sleep_ms(self, ms: int) -> None:
        self.extra += ms * 1000
        self.slept_us += ms * 1000
        self.cached += ms * 1000

    def wait_until(self, t_us: float) -> float:
        wait = t_us - self.us()
        if wait > 0:
            self.extra += wait
            self.cached += wait
            return wait
        return 0.0

    def hold(self) -> float:
        """Start of bookkeeping that the firmware would not do: `release` takes it out."""
        return real_us()

    def release(self, mark: float) -> None:
        self.extra -= (real_us() - mark + self.cost) * self.scale


class Usb:
    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.data = bytearray()
        self.writes = []  # [time_us, end offset]
        self.next_write = 0
        self.pos = 0  # bytes the board has read
        self.arrived = 0  # bytes in the board's buffer or read
        self.arrive_us = -1e9
        self.blocked = 0  # reads that had to wait
        self.blocked_us = 0.0

    def write(self, t_us: float, data: bytes) -> None:
        self.data.extend(data)
        self.writes.append((t_us, len(self.data)))

    def _next_packet(self) -> tuple:
        """(earliest arrival, size) of the next packet, or None when the host wrote no more."""
        writes = self.writes
        while self.next_write < len(writes) and writes[self.next_write][1] <= self.arrived:
            self.next_write += 1
        if self.next_write >= len(self.writes):
            return None
        t_us, end = self.writes[self.next_write]
        size = min(64, end - self.arrived)
        return max(t_us, self.arrive_us + PACKET_US), size

    def _deliver(self, now: float) -> None:
        while True:
            nxt = self._next_packet()
            if nxt is None or nxt[0] > now or self.arrived + nxt[1] - self.pos > BUFFER:
                return
            self.arrive_us = nxt[0]
            self.arrived += nxt[1]

    def waiting(self) -> bool:
        self._deliver(self.clock.cached)
        return self.arrived > self.pos

    def readinto(self, buf) -> int:
        n = len(buf)
        self._deliver(self.clock.cached)
        if self.arrived - self.pos < n:
            self.blocked += 1
            while self.arrived - self.pos < n:
                nxt = self._next_packet()
                if nxt is None:
                    raise RuntimeError("a read waits for input the host never sends")
                self.blocked_us += self.clock.wait_until(nxt[0])
                self._deliver(self.clock.us())
        buf[0:n] = self.data[self.pos : self.pos + n]
        self.pos += n
        return n


class Pin:
    """A pulled-up button: value() is 0 during the (down_us, up_us) presses given."""

    def __init__(self, clock: Clock, presses: list) -> None:
        self.clock = clock
        self.presses = presses
        self.i = 0

    def value(self) -> int:
        now = self.clock.cached
        presses = self.presses
        while self.i < len(presses) and presses[self.i][1] <= now:
            self.i += 1
        if self.i < len(presses) and presses[self.i][0] <= now:
            return 0
        return 1


class Strip:
    """firmware/ws2812.py's timing: a frame goes out by DMA in its wire time (10 us a
    byte) and latches 300 us later; a frame shown meanwhile is kept (a newer one
    replaces it) until `poll` finds the wire free. Nothing here waits."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.done_us = 0.0
        self.kept = None
        self.replaced = 0
        self.waited_us = 0.0
        self.shown = []  # (time_us latched, first bytes)

    def show(self, data: bytes) -> None:
        if self.kept is not None:
            self.replaced += 1
        self.kept = bytes(data)
        self.poll(0)

    def poll(self, now_ms: int) -> None:
        if self.kept is None or self.clock.cached < self.done_us:
            return
        data = self.kept
        self.kept = None
        self.done_us = self.clock.us() + BYTE_US * len(data) + LATCH_US
        self.shown.append((self.done_us, data[:2]))


def host_frames(seq: int, frame_id: int, data: bytes) -> bytes:
    """An LED frame as the host's McuLink writes it: chunks of 240, padded to packets."""
    out = bytearray()
    total = len(data)
    for offset in range(0, total, proto.LED_CHUNK):
        body = proto.pack(
            proto.LED, (frame_id & 0xFF, offset, total), data[offset : offset + proto.LED_CHUNK]
        )
        out.extend(proto.encode(proto.LED, (seq + offset // proto.LED_CHUNK) & 0xFF, body))
    return pad(out)


def pad(data) -> bytes:
    return bytes(data) + bytes(-len(data) % proto.USB_PACKET)


def hello(leds: int) -> bytes:
    return pad(
        proto.encode(proto.HELLO, 0, proto.pack(proto.HELLO, (proto.PROTOCOL_VERSION, leds)))
    )


def percentile(values: list, q: float) -> float:
    if not values:
        return -1.0
    s = sorted(values)
    return s[min(len(s) - 1, int(len(s) * q))]
