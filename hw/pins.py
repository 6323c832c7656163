"""The Pi's GPIO facts the config check and the LED backends share (BCM numbering).

A module of its own so a backend can declare its pin keys without importing the config
module that reads them.
"""

from __future__ import annotations

from typing import Any

from hw.schema import kind_of

BCM_PINS = range(0, 28)
#: rpi_ws281x output pins: PWM0 (12, 18), PWM1 (13, 19), PCM (21), SPI MOSI (10).
WS281X_PINS = {12: "PWM0", 18: "PWM0", 13: "PWM1", 19: "PWM1", 21: "PCM", 10: "SPI"}
#: SPI bus -> the pins its overlay takes over (CE1, CE0, MISO, MOSI, SCLK for SPI0).
SPI_PINS = {0: (7, 8, 9, 10, 11), 1: (18, 19, 20, 21)}


def gpio(value: Any) -> int:
    """A BCM GPIO number, or ValueError saying what is wrong with `value`."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"must be a BCM GPIO number, got {kind_of(value)} {value!r}")
    if value not in BCM_PINS:
        raise ValueError(f"GPIO{value} does not exist: use a BCM number 0-27")
    return value
