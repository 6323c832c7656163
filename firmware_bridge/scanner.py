"""Card scanners: barcode scanners (one code per line) and RDM6300 RFID readers on a serial
port, and barcode scanners in USB keyboard mode (`hid`, read through evdev, see
firmware_bridge/hid.py). Each read becomes a `CardEvent` on the app's queue.

    link = open_scanner("rdm6300", DeviceSpec(path="/dev/tavola-scanner"), emit=queue.put)
    ...
    link.close()
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any, Literal

from .events import CardEvent
from .firmware.rdm6300 import Presence
from .link import Emit, SerialLink
from .parsers import LineParser, Rdm6300Parser
from .ports import DeviceSpec

ScannerKind = Literal["barcode", "rdm6300", "hid"]
KINDS: tuple[ScannerKind, ...] = ("barcode", "rdm6300", "hid")


class ScannerHandler:
    """Parses a scanner's bytes; an RDM6300 repeats its frame while a tag lies on it, and
    `presence_s` folds those repeats into one read (a barcode scanner sends one line a scan)."""

    label = "card scanner"

    def __init__(
        self,
        kind: ScannerKind,
        *,
        emit: Emit,
        presence_s: float = 0.5,
        max_length: int = 64,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        if kind not in KINDS:
            raise ValueError(f"scanner kind must be one of {', '.join(KINDS)} (got {kind!r})")
        self.kind = kind
        self.emit = emit
        self.parser: LineParser | Rdm6300Parser = (
            Rdm6300Parser() if kind == "rdm6300" else LineParser(max_length=max_length)
        )
        self.presence = Presence(int(presence_s * 1000)) if kind == "rdm6300" else None
        self.monotonic = monotonic
        self.reads = 0

    def opened(self, link: SerialLink, now: float) -> None:
        pass

    def received(self, data: bytes, now: float) -> None:
        for code in self.parser.feed(data):
            if self.presence is not None and not self.presence.new(
                code, int(self.monotonic() * 1000)
            ):
                continue
            self.reads += 1
            self.emit(CardEvent(code, now, self.kind))

    def idle(self, now: float) -> None:
        pass

    def closed(self) -> None:
        pass


def open_scanner(
    kind: str,
    device: DeviceSpec,
    *,
    emit: Emit,
    baud: int = 9600,
    presence_s: float = 0.5,
    layout: str = "us",
    **link_options: Any,
) -> SerialLink:
    """A started link whose reads arrive as `CardEvent`s through `emit`. A `hid` scanner
    is the same link over a grabbed keyboard (`layout`: the one the scanner emulates).
    `kind` is a config's text: one of `KINDS`, else ValueError."""
    if kind not in KINDS:
        raise ValueError(f"unknown scanner kind {kind!r}: one of {', '.join(KINDS)}")
    handler = ScannerHandler(KINDS[KINDS.index(kind)], emit=emit, presence_s=presence_s)
    if kind == "hid":
        from .hid import HidPort, KeyDecoder, input_ports

        KeyDecoder(layout)  # a wrong layout fails here, not on the reader thread
        link_options.setdefault("serial_factory", functools.partial(HidPort, layout=layout))
        link_options.setdefault("comports", input_ports)
    return SerialLink(device, handler, emit=emit, baud=baud, **link_options).start()
