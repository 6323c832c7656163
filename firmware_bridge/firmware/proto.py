"""Tavola's MCU wire format: the one definition both the host and the Pico firmware run.

Written in the subset of Python that MicroPython and CPython share (no
dataclasses, no `from __future__`, annotations only on functions), so the
constants, the CRC and the framing cannot drift between the two sides: the
host imports this file as `firmware_bridge.firmware.proto`, the Pico as `proto`.
docs/protocol.md describes the format; its test vectors are checked against
this code.

A frame on the wire is `00 | COBS(type, seq, body, crc_hi, crc_lo) | 00`. The
CRC is CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final
xor) over type, seq and body. The leading 00 costs a byte and lets a receiver
drop whatever noise came before the frame.
"""

import struct

PROTOCOL_VERSION = 2
FIRMWARE_ID = "tavola-pico/2.0"

# message types
HELLO = 0x01  # host -> MCU: version, the LED count the host drives
HELLO_ACK = 0x02  # MCU -> host: version, the LED count it now drives, channels, firmware id
HEARTBEAT = 0x03  # both ways: uptime in ms
ACK = 0x04  # both ways: the seq acknowledged
NAK = 0x05  # both ways: the seq refused and why
ERROR = 0x06  # MCU -> host: an error code and a short text
CARD = 0x10  # MCU -> host: reader index, the tag id in ASCII
BUTTON = 0x11  # MCU -> host: seat (0 = table), button, kind
LED = 0x20  # host -> MCU: frame id, byte offset, total bytes, data

#: struct layout of each body's fixed part (big-endian); TAILS may carry bytes after it.
LAYOUTS = {
    HELLO: ">BH",
    HELLO_ACK: ">BHB",
    HEARTBEAT: ">I",
    ACK: ">B",
    NAK: ">BB",
    ERROR: ">B",
    CARD: ">B",
    BUTTON: ">BBB",
    LED: ">BHH",
}
TAILS = (HELLO_ACK, ERROR, CARD, LED)
NAMES = {
    HELLO: "HELLO",
    HELLO_ACK: "HELLO_ACK",
    HEARTBEAT: "HEARTBEAT",
    ACK: "ACK",
    NAK: "NAK",
    ERROR: "ERROR",
    CARD: "CARD",
    BUTTON: "BUTTON",
    LED: "LED",
}

# error codes (NAK and ERROR)
E_VERSION = 1  # protocol versions differ
E_TYPE = 2  # unknown message type
E_MALFORMED = 3  # body too short or too long for its type
E_LED_SIZE = 4  # an LED frame larger than the strip

# buttons and kinds, by index on the wire
BUTTONS = ("previous", "select", "next", "button", "undo", "menu")
KINDS = ("press", "long_press", "release", "stuck")
TABLE_SEAT = 0  # seat 0 is the table's own buttons (undo, menu)

MAX_FRAME = 256  # decoded bytes: type + seq + body + crc
MAX_BODY = MAX_FRAME - 4
MAX_ENCODED = MAX_FRAME + MAX_FRAME // 254 + 1  # COBS adds one byte per 254
LED_CHUNK = 240  # data bytes per LED message: whole pixels of 3 or 4 channels
#: the host pads every write with zero bytes to a multiple of this (a USB full-speed
#: packet), so the board can read whole packets without ever waiting for a partial one
USB_PACKET = 64
MAX_CODE = 32  # longest card id carried

HEARTBEAT_MS = 1000  # each side sends one a second
SILENCE_MS = 3500  # no frame for this long: the other side is gone
RETRY_MS = 100  # an unacknowledged CARD or BUTTON is sent again after this
RETRIES = 5


def _crc_table() -> list:
    table = []
    for i in range(256):
        crc = i << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_CRC = _crc_table()


def crc16(data: bytes, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE: crc16(b"123456789") == 0x29B1."""
    table = _CRC
    for b in data:
        crc = ((crc << 8) & 0xFF00) ^ table[(crc >> 8) ^ b]
    return crc


def cobs_encode(data: bytes) -> bytes:
    """Consistent Overhead Byte Stuffing: the result holds no zero byte."""
    out = bytearray(b"\x00")
    code_at = 0
    code = 1
    n = len(data)
    for i in range(n):
        b = data[i]
        if b == 0:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
        else:
            out.append(b)
            code += 1
            if code == 0xFF and i + 1 < n:
                out[code_at] = code
                code_at = len(out)
                out.append(0)
                code = 1
    out[code_at] = code
    return bytes(out)


def cobs_decode(data: bytes | bytearray) -> bytes:
    """Undo `cobs_encode`; ValueError for anything it could not have produced.

    Decoded in place: each code byte after the first stands where the previous block's
    zero goes, so the loop runs once a block with no call in it (a mostly dark LED frame
    is one block per byte).
    """
    if b"\x00" in data:
        raise ValueError("zero byte inside a COBS frame")
    buf = bytearray(data)
    n = len(buf)
    cuts = []  # codes after a full block of 254: they stand for no zero
    i = 0
    prev = 0
    while i < n:
        code = buf[i]
        if i + code > n:
            raise ValueError("COBS block runs past the frame")
        if i:
            if prev == 0xFF:
                cuts.append(i)
            else:
                buf[i] = 0
        prev = code
        i += code
    if not cuts:
        return bytes(memoryview(buf)[1:])
    out = bytearray()
    start = 1
    for cut in cuts:
        out.extend(memoryview(buf)[start:cut])
        start = cut + 1
    out.extend(memoryview(buf)[start:])
    return bytes(out)


def pack(ftype: int, fields: tuple, tail: bytes = b"") -> bytes:
    """The body of a `ftype` message: its fixed fields, then the tail if the type has one."""
    if tail and ftype not in TAILS:
        raise ValueError(f"message type 0x{ftype:02x} carries no tail")
    return struct.pack(LAYOUTS[ftype], *fields) + bytes(tail)


def unpack(ftype: int, body: bytes) -> tuple:
    """(fields, tail) of a body; ValueError for an unknown type or a wrong length."""
    layout = LAYOUTS.get(ftype)
    if layout is None:
        raise KeyError(ftype)
    size = struct.calcsize(layout)
    if len(body) < size or (len(body) > size and ftype not in TAILS):
        raise ValueError(f"a {NAMES[ftype]} body of {len(body)} bytes (its layout takes {size})")
    return struct.unpack(layout, body[:size]), bytes(body[size:])


def encode(ftype: int, seq: int, body: bytes = b"") -> bytes:
    """One frame ready for the wire, delimiters included."""
    if len(body) > MAX_BODY:
        raise ValueError(f"a body holds at most {MAX_BODY} bytes, not {len(body)}")
    raw = bytes((ftype & 0xFF, seq & 0xFF)) + bytes(body)
    crc = crc16(raw)
    return b"\x00" + cobs_encode(raw + bytes((crc >> 8, crc & 0xFF))) + b"\x00"


def decode(encoded: bytes | bytearray) -> tuple:
    """(type, seq, body) of one frame's bytes between delimiters; ValueError if damaged."""
    raw = cobs_decode(encoded)
    if len(raw) < 4:
        raise ValueError(f"frame of {len(raw)} bytes is too short")
    crc = (raw[-2] << 8) | raw[-1]
    if crc16(raw[:-2]) != crc:
        raise ValueError("CRC mismatch")
    return raw[0], raw[1], bytes(raw[2:-2])


class Decoder:
    """Incremental frame splitter: feed any chunks, get every intact frame back.

    Zero bytes delimit frames, so after any noise the next zero resynchronises.
    Damaged frames are counted, never raised: a serial line is allowed to be noisy.
    """

    def __init__(self) -> None:
        self.buf = bytearray()
        self.dropping = False
        self.frames = 0
        self.damaged = 0  # bad COBS, too short or bad CRC
        self.overflows = 0  # longer than any frame can be

    def feed(self, data: bytes) -> list:
        out = []
        data = bytes(data)
        start = 0
        n = len(data)
        while start < n:
            end = data.find(b"\x00", start)
            if end < 0:
                self._take(data[start:])
                break
            self._take(data[start:end])
            start = end + 1
            if self.dropping:
                self.dropping = False
                continue
            if not self.buf:
                continue
            try:
                frame = decode(self.buf)
            except ValueError:
                self.damaged += 1
            else:
                self.frames += 1
                out.append(frame)
            self.buf = bytearray()
        return out

    def _take(self, piece: bytes) -> None:
        if self.dropping or not piece:
            return
        if len(self.buf) + len(piece) > MAX_ENCODED:
            self.overflows += 1
            self.dropping = True
            self.buf = bytearray()
            return
        self.buf.extend(piece)
