"""Reference firmware for a Raspberry Pi Pico running MicroPython (see README.md here).

`proto`, `rdm6300`, `device` and `buttons` run on both the Pico and the host, which
imports them from this package; `main` and `ws2812` need the Pico's `machine` and `rp2`.
"""
