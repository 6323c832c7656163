"""The peripherals a config names, started for the table: a card scanner (serial, or a USB
keyboard-mode one read through evdev), the table microcontroller (cards, buttons, LEDs),
and the card reader that turns ids into draws.

Everything they report arrives on the table's event queue (`CardEvent`,
`LinkEvent`, `InputEvent`); `Table.step` dispatches it. Links keep reopening in
the background, so an unplugged scanner never stops a game: the buttons can
still pick the draw meanwhile.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from firmware_bridge.config import BridgeConfig
from firmware_bridge.link import Emit, SerialLink
from firmware_bridge.mcu import McuLink, McuStrip
from firmware_bridge.scanner import open_scanner
from hw.config import StripConfig

from .cards import CardReader, CardRegistry, default_path


class Peripherals:
    """Start the links of `config`; `close()` stops them all."""

    def __init__(
        self,
        config: BridgeConfig,
        *,
        emit: Emit,
        strip: StripConfig | None = None,
        clock: Callable[[], float] = time.monotonic,
        **link_options: Any,
    ) -> None:
        """`strip`: the [strip] table, whose LED count the board is told when the strip
        hangs off it."""
        self.config = config
        self.mcu: McuLink | None = None
        self.scanner: SerialLink | None = None
        self.cards: CardReader | None = None
        try:
            if config.mcu is not None:
                leds = strip.count if config.strip_on_mcu and strip is not None else 0
                self.mcu = McuLink(
                    config.mcu.device,
                    emit=emit,
                    baud=config.mcu.baud,
                    leds=leds,
                    clock=clock,
                    **link_options,
                ).start()
            sc = config.scanner
            if sc is not None:
                if sc.device is not None:
                    self.scanner = open_scanner(
                        sc.kind,
                        sc.device,
                        emit=emit,
                        baud=sc.baud,
                        layout=sc.layout,
                        clock=clock,
                        **link_options,
                    )
                registry = CardRegistry.load(sc.cards or default_path())
                self.cards = CardReader(registry, repeat_s=sc.repeat_s)
        except BaseException:
            self.close()
            raise

    def strip(self, config: StripConfig) -> McuStrip | None:
        """The LED strip on the table microcontroller, if the config puts it there."""
        if not self.config.strip_on_mcu or self.mcu is None:
            return None
        return McuStrip(config.count, link=self.mcu, order=config.order)

    def close(self) -> None:
        for link in (self.scanner, self.mcu):
            if link is not None:
                link.close()
