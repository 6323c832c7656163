"""Tavola table microcontroller: a Raspberry Pi Pico on the host's USB port.

Copy proto.py, device.py, loop.py, rdm6300.py, buttons.py, ws2812.py and this file to
the Pico's flash (e.g. `mpremote cp *.py :`); it runs at boot. It speaks the protocol
of docs/protocol.md over the USB serial port, reads an RDM6300 on UART1, debounces
the seat buttons and drives a WS2812 strip through PIO. Edit the wiring below.
Pico only (`machine`, `rp2`, `micropython`).

Ctrl-C is off while the firmware runs (frames contain 0x03). To get the REPL back,
hold ESCAPE_PIN's button while plugging the board in, or send Ctrl-C within the first
5 s after it powers up (run mpremote then): see README.md, "Recovery".
"""

import select
import sys
import time

import buttons
import device
import loop
import micropython
import proto
import rdm6300
import ws2812
from machine import UART, Pin

# --- wiring ------------------------------------------------------------------------
LED_PIN = 2  # WS2812 data, through a 3.3 V -> 5 V level shifter
#: the longest strip this board drives (the host's HELLO sets the length, up to this):
#: 7 bytes of RAM an LED, and 30 us of wire time an LED per frame
MAX_LEDS = 1000
RFID_UART = 1
RFID_RX_PIN = 5  # RDM6300 TX (through a divider: the module is 5 V)
#: (GPIO, seat, button): seat 0 is the table (undo, menu); buttons as in proto.BUTTONS
BUTTON_PINS = (
    (10, 1, "previous"),
    (11, 1, "select"),
    (12, 1, "next"),
    (13, 2, "previous"),
    (14, 2, "select"),
    (15, 2, "next"),
    (20, 0, "undo"),
    (21, 0, "menu"),
)
ESCAPE_PIN = 21  # held down at power-up: the firmware does not start (the table's menu)
SAMPLE_MS = 1  # buttons sampled every millisecond, whatever the USB stream does


def main() -> None:
    micropython.kbd_intr(-1)  # frames contain 0x03: only loop.boot_escape reads a Ctrl-C
    usb_in = sys.stdin.buffer
    poller = select.poll()
    poller.register(usb_in, select.POLLIN)

    def waiting() -> bool:
        for _ in poller.ipoll(0):
            return True
        return False

    one = bytearray(1)

    def read_byte() -> int:
        usb_in.readinto(one)
        return one[0]

    escape_pin = Pin(ESCAPE_PIN, Pin.IN, Pin.PULL_UP)
    escape, early = loop.boot_escape(
        lambda: not escape_pin.value(),
        waiting,
        read_byte,
        time.ticks_ms,
        time.ticks_diff,
        time.sleep_ms,
    )
    if escape:
        micropython.kbd_intr(3)
        print("tavola: firmware not started; this is the REPL (Ctrl-D starts it again)")
        return
    strip = ws2812.Ws2812(LED_PIN, MAX_LEDS)
    dev = device.Device(sys.stdout.buffer.write, MAX_LEDS, 3, strip.show)
    reader = rdm6300.Rdm6300()
    presence = rdm6300.Presence()
    uart = UART(RFID_UART, baudrate=9600, rx=Pin(RFID_RX_PIN))

    def cards(now: int) -> None:
        waiting_bytes = uart.any()
        if waiting_bytes:
            for code in reader.feed(uart.read(waiting_bytes)):
                if presence.new(code, now):
                    dev.card(code)

    bank = buttons.Bank(
        [
            (Pin(gpio, Pin.IN, Pin.PULL_UP), buttons.Debounced(seat, proto.BUTTONS.index(name)))
            for gpio, seat, name in BUTTON_PINS
        ],
        SAMPLE_MS,
    )
    usb = loop.PacketReader(usb_in.readinto, waiting, time.ticks_ms, time.ticks_diff)
    board = loop.Board(
        dev, usb, bank, time.ticks_ms, time.ticks_diff, time.sleep_ms, (cards, strip.poll)
    )
    if early:
        dev.feed(early, 0)
    board.run()


main()
