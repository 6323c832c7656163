"""Incremental parsers for what serial peripherals send: `feed(bytes) -> [item]`.

Each takes chunks as they come off the wire (split anywhere), never raises on
any byte sequence, and resynchronises by itself: noise and damaged frames are
counted, and every intact frame after them is found.

- `LineParser`: barcode scanners in serial mode, one code per line (CR, LF or CRLF).
- `Rdm6300Parser`: RDM6300 125 kHz RFID readers (shared with the Pico firmware).
- `FrameParser`: Tavola's MCU protocol, COBS frames with a CRC-16 (docs/protocol.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from .firmware import proto
from .firmware.rdm6300 import Rdm6300

__all__ = ["Frame", "FrameParser", "LineParser", "Rdm6300Parser"]

#: Printable ASCII: what a scanner in serial mode sends for a code.
_PRINTABLE = bytes(range(0x20, 0x7F))


class LineParser:
    """One code per line. Lines longer than `max_length` are dropped whole (`overlong`),
    lines with control or non-ASCII bytes are dropped (`rejected`), blank lines ignored."""

    def __init__(self, *, max_length: int = 64) -> None:
        if max_length < 1:
            raise ValueError(f"max_length must be at least 1 (got {max_length})")
        self.max_length = max_length
        self._buf = bytearray()
        self._dropping = False
        self.lines = 0
        self.overlong = 0
        self.rejected = 0

    def feed(self, data: bytes | bytearray) -> list[str]:
        parts = bytes(data).replace(b"\r", b"\n").split(b"\n")
        out: list[str] = []
        for part in parts[:-1]:
            line = self._extend(part)
            dropped = self._dropping
            self._buf = bytearray()
            self._dropping = False
            if dropped:
                self.overlong += 1
            elif line is not None:
                code = self._check(line)
                if code:
                    out.append(code)
        self._extend(parts[-1])
        return out

    def _extend(self, piece: bytes) -> bytes | None:
        if self._dropping:
            return None
        if len(self._buf) + len(piece) > self.max_length:
            self._dropping = True
            self._buf = bytearray()
            return None
        self._buf += piece
        return bytes(self._buf)

    def _check(self, line: bytes) -> str | None:
        text = line.strip(b" ")
        if not text:
            return None
        if text.translate(None, _PRINTABLE):
            self.rejected += 1
            return None
        self.lines += 1
        return text.decode("ascii")


class Rdm6300Parser(Rdm6300):
    """RDM6300 frames -> tag ids (ten upper-case hex characters); counts `bad_checksum`
    and `broken` frames. The firmware runs the same class (firmware/rdm6300.py)."""

    def feed(self, data: bytes | bytearray) -> list[str]:
        return super().feed(bytes(data))


@dataclass(frozen=True, slots=True)
class Frame:
    """One intact protocol frame: message type, sequence number, body."""

    type: int
    seq: int
    body: bytes

    @property
    def name(self) -> str:
        return proto.NAMES.get(self.type, f"0x{self.type:02x}")


class FrameParser:
    """COBS frames delimited by zero bytes, checked by CRC-16/CCITT-FALSE. Counts
    `damaged` (bad COBS, short, bad CRC) and `overflows` (longer than any frame)."""

    def __init__(self) -> None:
        self._decoder = proto.Decoder()

    def feed(self, data: bytes | bytearray) -> list[Frame]:
        return [Frame(t, s, b) for t, s, b in self._decoder.feed(bytes(data))]

    @property
    def frames(self) -> int:
        return self._decoder.frames

    @property
    def damaged(self) -> int:
        return self._decoder.damaged

    @property
    def overflows(self) -> int:
        return self._decoder.overflows
