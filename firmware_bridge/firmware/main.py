"""Tavola table microcontroller: a Raspberry Pi Pico on the host's USB port.

Copy proto.py, device.py, rdm6300.py, buttons.py, ws2812.py and this file to the
Pico's flash (e.g. `mpremote cp *.py :`); it runs at boot. It speaks the protocol
of docs/protocol.md over the USB serial port, reads an RDM6300 on UART1, debounces
the seat buttons and drives a WS2812 strip through PIO. Edit the wiring below.
Pico only (`machine`, `rp2`, `micropython`).
"""

import select
import sys
import time

import buttons
import device
import micropython
import proto
import rdm6300
import ws2812
from machine import UART, Pin

# --- wiring ------------------------------------------------------------------------
LED_PIN = 2  # WS2812 data, through a 3.3 V -> 5 V level shifter
LED_COUNT = 300
RFID_UART = 1
RFID_RX_PIN = 5  # RDM6300 TX (through a divider: the module is 5 V)
#: (GPIO, seat, button): seat 0 is the table (undo, menu); buttons as in proto.BUTTONS
BUTTON_PINS = (
    (10, 1, "previous"), (11, 1, "select"), (12, 1, "next"),
    (13, 2, "previous"), (14, 2, "select"), (15, 2, "next"),
    (20, 0, "undo"), (21, 0, "menu"),
)
READ_MAX = 512  # host bytes handled per loop, so the buttons are never starved


def main() -> None:
    micropython.kbd_intr(-1)  # frames contain 0x03: Ctrl-C must not stop the firmware
    usb_in = sys.stdin.buffer
    usb_out = sys.stdout.buffer
    strip = ws2812.Ws2812(LED_PIN, LED_COUNT)
    dev = device.Device(usb_out.write, LED_COUNT, 3, strip.show)
    reader = rdm6300.Rdm6300()
    presence = rdm6300.Presence()
    uart = UART(RFID_UART, baudrate=9600, rx=Pin(RFID_RX_PIN))
    seats = [(Pin(gpio, Pin.IN, Pin.PULL_UP), buttons.Debounced(seat, proto.BUTTONS.index(name)))
             for gpio, seat, name in BUTTON_PINS]
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    now = 0
    last = time.ticks_ms()
    while True:
        tick = time.ticks_ms()
        now += time.ticks_diff(tick, last)  # a count that never wraps, unlike ticks_ms
        last = tick
        for _ in range(READ_MAX):
            if not poller.poll(0):
                break
            dev.feed(usb_in.read(1), now)
        waiting = uart.any()
        if waiting:
            for code in reader.feed(uart.read(waiting)):
                if presence.new(code, now):
                    dev.card(code)
        for pin, button in seats:
            for kind in button.update(not pin.value(), now):  # pulled up: low is pressed
                dev.button(button.seat, button.button, kind)
        dev.poll(now)
        time.sleep_ms(1)


main()
