"""A WS2812 strip driven by one PIO state machine: exact timing without the CPU.

The host sends wire bytes already in the strip's colour order (GRB for most
WS2812), through brightness, gamma and the current limiter, so the Pico only
packs three bytes a pixel into a 24-bit word and hands the words to the FIFO.
Pico only (`rp2`, `machine`).
"""

import array

import rp2
from machine import Pin


@rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW, out_shiftdir=rp2.PIO.SHIFT_LEFT, autopull=True,
             pull_thresh=24)
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
        self.words = array.array("I", [0] * count)
        self.sm = rp2.StateMachine(sm_id, _ws2812, freq=8_000_000, sideset_base=Pin(pin))
        self.sm.active(1)

    def show(self, data: bytes) -> None:
        """Push wire bytes (3 a pixel); a shorter frame leaves the remaining pixels dark."""
        words = self.words
        n = min(self.count, len(data) // 3)
        for i in range(self.count):
            if i < n:
                j = 3 * i
                words[i] = (data[j] << 16) | (data[j + 1] << 8) | data[j + 2]
            else:
                words[i] = 0
        self.sm.put(words, 8)  # 24-bit words, shifted to the top of the OSR
