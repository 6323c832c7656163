"""The protocol: docs/protocol.md's test vectors, round trips, refusals, LED chunking."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge import protocol
from firmware_bridge.errors import ProtocolError
from firmware_bridge.firmware import proto
from firmware_bridge.firmware.device import Device
from firmware_bridge.parsers import Frame, FrameParser
from firmware_bridge.protocol import (
    Button,
    Card,
    Error,
    Heartbeat,
    Hello,
    HelloAck,
    Leds,
    Nak,
    decode,
    encode,
    led_messages,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def doc_rows(heading: str) -> list[list[str]]:
    """The body rows of the first table after `heading`, cells stripped of backticks."""
    text = DOC.read_text(encoding="utf-8")
    start = text.index(heading)
    rows = []
    for line in text[start:].splitlines()[1:]:
        if rows and not line.startswith("|"):
            break
        if line.startswith("|") and not re.fullmatch(r"[|\s:-]+", line):
            rows.append([c.strip().strip("`") for c in line.strip("|").split("|")])
    return rows[1:]  # without the header


def hexbytes(text: str) -> bytes:
    return bytes.fromhex(text.replace(" ", ""))


def test_the_crc_is_ccitt_false_as_documented() -> None:
    assert "`123456789`: `29b1`" in DOC.read_text(encoding="utf-8")
    assert proto.crc16(b"123456789") == 0x29B1


def test_cobs_vectors_of_the_doc() -> None:
    rows = doc_rows("COBS (data -> encoded")
    assert len(rows) == 5
    for data, encoded in rows:
        assert proto.cobs_encode(hexbytes(data)) == hexbytes(encoded)
        assert proto.cobs_decode(hexbytes(encoded)) == hexbytes(data)


def test_frame_vectors_of_the_doc() -> None:
    rows = doc_rows("Frames (sequence number")
    assert len(rows) == 10
    names = vars(protocol)
    for seq, expression, wire in rows:
        message = eval(expression, {"bytes": bytes}, names)
        assert encode(message, int(seq)) == hexbytes(wire), expression
        (frame,) = FrameParser().feed(hexbytes(wire))
        assert frame.seq == int(seq)
        assert decode(frame) == message


def test_the_doc_lists_every_message_type() -> None:
    rows = doc_rows("### Messages")
    assert {int(r[0], 16): r[1] for r in rows} == proto.NAMES


def test_long_cobs_runs_match_the_standard_encoding() -> None:
    run = bytes(range(1, 255))  # 254 non-zero bytes: one full block, no trailing code
    assert proto.cobs_encode(run) == b"\xff" + run
    longer = bytes(range(1, 256))
    assert proto.cobs_encode(longer) == b"\xff" + longer[:254] + b"\x02\xff"
    with pytest.raises(ValueError):
        proto.cobs_decode(b"\x05\x01")


messages = st.one_of(
    st.builds(Hello, st.integers(0, 255)),
    st.builds(
        HelloAck,
        st.integers(0, 255),
        st.integers(0, 0xFFFF),
        st.integers(0, 255),
        st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=32),
    ),
    st.builds(Heartbeat, st.integers(0, 0xFFFFFFFF)),
    st.builds(Nak, st.integers(0, 255), st.integers(0, 255)),
    st.builds(
        Card,
        st.integers(0, 255),
        st.text(st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=32),
    ),
    st.builds(
        Button,
        st.integers(0, 255),
        st.integers(0, len(proto.BUTTONS) - 1),
        st.integers(0, len(proto.KINDS) - 1),
    ),
    st.builds(
        Leds,
        st.integers(0, 255),
        st.integers(0, 0xFFFF),
        st.integers(0, 0xFFFF),
        st.binary(max_size=proto.LED_CHUNK),
    ),
)


@given(messages, st.integers(0, 255))
def test_every_message_round_trips(message: protocol.Message, seq: int) -> None:
    (frame,) = FrameParser().feed(encode(message, seq))
    assert frame.seq == seq and decode(frame) == message


@pytest.mark.parametrize(
    ("frame", "why"),
    [
        (Frame(0x7F, 0, b""), "unknown message type"),
        (Frame(proto.CARD, 0, b""), "CARD body"),
        (Frame(proto.CARD, 0, b"\x00"), "card id"),
        (Frame(proto.CARD, 0, b"\x00\xff"), "not ASCII"),
        (Frame(proto.BUTTON, 0, b"\x01\x09\x00"), "not in the protocol"),
        (Frame(proto.HELLO, 0, b"\x01\x02"), "HELLO body"),
    ],
)
def test_intact_frames_that_make_no_sense_raise_protocol_error(frame: Frame, why: str) -> None:
    with pytest.raises(ProtocolError, match=why):
        decode(frame)


def test_an_oversized_body_cannot_be_sent() -> None:
    with pytest.raises(ValueError, match="at most 252"):
        proto.encode(proto.LED, 0, bytes(proto.MAX_BODY + 1))
    with pytest.raises(ValueError, match="no tail"):
        proto.pack(proto.ACK, (1,), b"x")


def test_a_300_led_frame_goes_in_four_chunks_and_is_reassembled() -> None:
    data = bytes((i * 7) & 0xFF for i in range(900))
    chunks = led_messages(3, data)
    assert [(c.offset, len(c.data)) for c in chunks] == [
        (0, 240),
        (240, 240),
        (480, 240),
        (720, 180),
    ]
    assert {c.total for c in chunks} == {900} and {c.frame for c in chunks} == {3}
    shown: list[bytes] = []
    device = Device(lambda b: None, 300, 3, shown.append)
    device.feed(encode(Hello(led_count=300), 0), 0)
    wire = b"".join(encode(c, i) for i, c in enumerate(chunks))
    for i in range(0, len(wire), 50):  # any chunking of the wire
        device.feed(wire[i : i + 50], 0)
    assert shown == [data]


def test_a_lost_chunk_costs_its_frame_never_a_torn_one() -> None:
    old, new = bytes([1]) * 600, bytes([2]) * 600
    shown: list[bytes] = []
    device = Device(lambda b: None, 200, 3, shown.append)
    device.feed(encode(Hello(led_count=200), 0), 0)
    first = led_messages(1, old)
    for c in first[:-1]:  # the last chunk of frame 1 is lost
        device.feed(encode(c, 0), 0)
    for c in led_messages(2, new):
        device.feed(encode(c, 0), 0)
    assert shown == [new]


def test_an_led_frame_larger_than_the_strip_is_refused_with_an_error() -> None:
    sent: list[bytes] = []
    device = Device(sent.append, 10, 3)
    device.feed(encode(Hello(led_count=10), 0), 0)
    sent.clear()
    device.feed(encode(Leds(0, 0, 60, bytes(60)), 0), 0)
    (frame,) = FrameParser().feed(b"".join(sent))
    message = decode(frame)
    assert isinstance(message, Error) and message.code == proto.E_LED_SIZE
    assert "60 bytes" in message.text
