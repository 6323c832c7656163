"""One module per LED backend, opened by name through `open_strip`.

Each backend imports its hardware library only when a strip opens, so importing
`hw.backends` is safe on any machine.
"""

from __future__ import annotations

from typing import Any

from hw.config import StripConfig
from hw.strip import Strip, StripError

__all__ = ["open_strip"]


def open_strip(config: StripConfig, **overrides: Any) -> Strip:
    """The strip `config` describes; `overrides` reach the backend (e.g. a stream, test paths)."""
    b = config.backend
    if b == "mock":
        from hw.backends.mock import MockStrip

        return MockStrip(config.count, order=config.order, **overrides)
    if b == "terminal":
        from hw.backends.terminal import TerminalStrip

        return TerminalStrip(config.count, order=config.order, width=config.width, **overrides)
    if b == "adalight":
        from hw.backends.adalight import AdalightStrip

        assert config.port is not None
        return AdalightStrip(config.count, port=config.port, baud=config.baud,
                             greeting_s=config.greeting_s, keepalive_s=config.keepalive_s,
                             **overrides)
    if b == "spi":
        from hw.backends.spi import SpiStrip

        return SpiStrip(config.count, order=config.order, bus=config.spi_bus,
                        device=config.spi_device, hz=config.spi_hz, **overrides)
    if b == "ws281x":
        from hw.backends.ws281x import Ws281xStrip

        return Ws281xStrip(config.count, pin=config.pin or 18, order=config.order,
                           dma=config.dma, channel=config.channel, freq_hz=config.freq_hz,
                           invert=config.invert, **overrides)
    if b == "mcu":
        # hw imports no serial protocol: the runtime builds firmware_bridge.mcu.McuStrip
        raise StripError("the mcu backend rides the [mcu] board's link: open it with "
                         "firmware_bridge.mcu.McuStrip (apps.runtime does)")
    raise StripError(f"unknown LED backend {b!r}")
