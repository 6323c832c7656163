"""Typed messages of Tavola's MCU protocol, for the host (the wire format is firmware/proto.py).

`decode(frame)` turns an intact `Frame` into one of the message classes below;
`encode(message, seq)` gives the wire bytes. docs/protocol.md has the frame table
and test vectors.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import ClassVar

from .errors import ProtocolError
from .firmware import proto
from .parsers import Frame

__all__ = [
    "Ack",
    "Button",
    "Card",
    "Error",
    "Heartbeat",
    "Hello",
    "HelloAck",
    "Leds",
    "Message",
    "Nak",
    "decode",
    "encode",
    "led_messages",
]


class Message:
    """Base of every message: its `TYPE`, its fields in body order, and what its tail holds
    (`TAIL`: "text" for ASCII, "bytes" for raw data, None for no tail)."""

    TYPE: ClassVar[int]
    TAIL: ClassVar[str | None] = None

    def fields(self) -> tuple[tuple[int, ...], bytes]:
        values = [getattr(self, f.name) for f in dataclasses.fields(self)]  # type: ignore[arg-type]
        tail = b""
        if self.TAIL is not None:
            last = values.pop()
            tail = last.encode("ascii") if self.TAIL == "text" else bytes(last)
        return tuple(values), tail

    @classmethod
    def build(cls, fields: tuple[int, ...], tail: bytes) -> Message:
        args: list[object] = list(fields)
        if cls.TAIL == "text":
            try:
                args.append(tail.decode("ascii"))
            except UnicodeDecodeError:
                raise ProtocolError(
                    f"{proto.NAMES[cls.TYPE]} text is not ASCII: {tail!r}"
                ) from None
        elif cls.TAIL == "bytes":
            args.append(tail)
        return cls(*args)


@dataclass(frozen=True, slots=True)
class Hello(Message):
    """The host's greeting: its protocol version and the LEDs it drives (0: none)."""

    TYPE: ClassVar[int] = proto.HELLO
    version: int = proto.PROTOCOL_VERSION
    led_count: int = 0


@dataclass(frozen=True, slots=True)
class HelloAck(Message):
    TYPE: ClassVar[int] = proto.HELLO_ACK
    TAIL: ClassVar[str | None] = "text"
    version: int
    led_count: int
    channels: int
    firmware: str


@dataclass(frozen=True, slots=True)
class Heartbeat(Message):
    TYPE: ClassVar[int] = proto.HEARTBEAT
    uptime_ms: int


@dataclass(frozen=True, slots=True)
class Ack(Message):
    TYPE: ClassVar[int] = proto.ACK
    acked: int


@dataclass(frozen=True, slots=True)
class Nak(Message):
    TYPE: ClassVar[int] = proto.NAK
    refused: int
    code: int


@dataclass(frozen=True, slots=True)
class Error(Message):
    TYPE: ClassVar[int] = proto.ERROR
    TAIL: ClassVar[str | None] = "text"
    code: int
    text: str


@dataclass(frozen=True, slots=True)
class Card(Message):
    TYPE: ClassVar[int] = proto.CARD
    TAIL: ClassVar[str | None] = "text"
    reader: int
    code: str

    def __post_init__(self) -> None:
        if not 0 < len(self.code) <= proto.MAX_CODE or not self.code.isprintable():
            raise ProtocolError(f"card id {self.code!r} is empty, too long or not printable")


@dataclass(frozen=True, slots=True)
class Button(Message):
    TYPE: ClassVar[int] = proto.BUTTON
    seat: int
    button: int
    kind: int

    def __post_init__(self) -> None:
        if self.button >= len(proto.BUTTONS) or self.kind >= len(proto.KINDS):
            raise ProtocolError(
                f"button {self.button} / kind {self.kind} is not in the protocol's lists"
            )

    @property
    def seat_name(self) -> str:
        return "table" if self.seat == proto.TABLE_SEAT else str(self.seat)

    @property
    def button_name(self) -> str:
        return proto.BUTTONS[self.button]

    @property
    def kind_name(self) -> str:
        return proto.KINDS[self.kind]


@dataclass(frozen=True, slots=True)
class Leds(Message):
    TYPE: ClassVar[int] = proto.LED
    TAIL: ClassVar[str | None] = "bytes"
    frame: int
    offset: int
    total: int
    data: bytes


_BY_TYPE: dict[int, type[Message]] = {
    m.TYPE: m for m in (Hello, HelloAck, Heartbeat, Ack, Nak, Error, Card, Button, Leds)
}


def encode(message: Message, seq: int) -> bytes:
    """The wire bytes of `message` sent with sequence number `seq`."""
    fields, tail = message.fields()
    return proto.encode(message.TYPE, seq, proto.pack(message.TYPE, fields, tail))


def decode(frame: Frame) -> Message:
    """The message an intact frame carries; ProtocolError for an unknown type or bad body."""
    cls = _BY_TYPE.get(frame.type)
    if cls is None:
        raise ProtocolError(f"unknown message type 0x{frame.type:02x}")
    try:
        fields, tail = proto.unpack(frame.type, frame.body)
    except ValueError as e:
        raise ProtocolError(str(e)) from None
    return cls.build(fields, tail)


def led_messages(frame_id: int, data: bytes, *, chunk: int = proto.LED_CHUNK) -> list[Leds]:
    """One LED frame as messages of at most `chunk` data bytes (a frame's limit is 256)."""
    total = len(data)
    if total > 0xFFFF:
        raise ValueError(f"an LED frame carries at most 65535 bytes, not {total}")
    return [
        Leds(frame_id & 0xFF, i, total, data[i : i + chunk]) for i in range(0, max(total, 1), chunk)
    ]
