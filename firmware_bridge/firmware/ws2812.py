"""A WS2812 strip driven by one PIO state machine fed by DMA: exact timing, and the CPU
free while a frame is on the wire (30 us an LED: 9 ms for 300).

The host sends wire bytes already in the strip's colour order (GRB for most
WS2812), through brightness, gamma and the current limiter, so the Pico copies the
bytes to a buffer of the strip's own and a DMA channel hands them to the PIO's FIFO,
one byte a transfer, paced by the FIFO (the PIO pulls 8 bits at a time; an 8-bit
write to the FIFO repeats the byte across the word, so its top byte is the data).
`show` never waits: while the previous frame is on the wire (or latching) the new one
is kept, a newer one replacing it, and `poll` (a task of the main loop) starts it.
This is the DMA pattern of MicroPython's rp2.DMA documentation (MicroPython 1.21 or
later). Not run on hardware here: tests/firmware_bridge/mpy/sim.py models its timing.
Pico only (`rp2`, `machine`).
"""

import time

import rp2
from machine import Pin

LATCH_US = 300  # WS2812B-V5 latch a frame after 280 us of low data
BYTE_US = 10  # 8 bits of 1.25 us


@rp2.asm_pio(
    sideset_init=rp2.PIO.OUT_LOW, out_shiftdir=rp2.PIO.SHIFT_LEFT, autopull=True, pull_thresh=8
)
def _ws2812():
    # 10 PIO cycles a bit at 8 MHz = 1.25 us: high 2 cycles, then the bit for 5, then low 3
    wrap_target()  # noqa: F821 (names the rp2 assembler provides)
    label("bit")  # noqa: F821
    out(x, 1).side(0)[2]  # noqa: F821
    jmp(not_x, "zero").side(1)[1]  # noqa: F821
    jmp("bit").side(1)[4]  # noqa: F821
    label("zero")  # noqa: F821
    nop().side(0)[4]  # noqa: F821
    wrap()  # noqa: F821


class Ws2812:
    def __init__(self, pin: int, count: int, sm_id: int = 0) -> None:
        self.count = count
        self.buf = bytearray(3 * count)  # what the DMA reads: never written during a transfer
        self.lit = 0  # bytes the last frame wrote
        self.sm = rp2.StateMachine(sm_id, _ws2812, freq=8_000_000, sideset_base=Pin(pin))
        self.sm.active(1)
        self.dma = rp2.DMA()
        # the TX request of state machine sm_id: PIO0's are 0-3, PIO1's 8-11
        request = ((sm_id >> 2) << 3) | (sm_id & 3)
        self.ctrl = self.dma.pack_ctrl(size=0, inc_write=False, treq_sel=request)
        self.done_us = time.ticks_us()
        self.kept = bytearray(3 * count)  # a frame waiting for the wire
        self.kept_n = -1

    def show(self, data: bytes) -> None:
        """Send wire bytes (3 a pixel) as soon as the wire is free; pixels an earlier, longer
        frame lit go dark."""
        n = min(len(data), len(self.kept))
        n -= n % 3
        self.kept[:n] = memoryview(data)[:n]
        self.kept_n = n
        self.poll(0)

    def poll(self, now_ms: int) -> None:
        """Start the kept frame if the previous one is out and latched."""
        n = self.kept_n
        if n < 0 or time.ticks_diff(self.done_us, time.ticks_us()) > 0 or self.dma.active():
            return
        self.kept_n = -1
        buf = self.buf
        buf[:n] = memoryview(self.kept)[:n]
        length = n
        if self.lit > n:
            buf[n : self.lit] = bytes(self.lit - n)
            length = self.lit
        self.lit = n
        self.dma.config(read=buf, write=self.sm, count=length, ctrl=self.ctrl, trigger=True)
        self.done_us = time.ticks_add(time.ticks_us(), BYTE_US * length + LATCH_US)
