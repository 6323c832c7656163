"""Every parser survives any bytes, resynchronises, and finds every valid frame after noise."""

from __future__ import annotations

import itertools

from hypothesis import example, given
from hypothesis import strategies as st

from firmware_bridge.firmware import proto
from firmware_bridge.firmware.rdm6300 import frame as rdm_frame
from firmware_bridge.parsers import Frame, FrameParser, LineParser, Rdm6300Parser

noise = st.binary(max_size=300)
cuts = st.lists(st.integers(min_value=0, max_value=2000), max_size=8)


def chunked(data: bytes, at: list[int]) -> list[bytes]:
    """`data` split at the positions `at` (modulo its length): any chunking the wire makes."""
    points = sorted({a % (len(data) + 1) for a in at} | {0, len(data)})
    return [data[a:b] for a, b in itertools.pairwise(points)]


def feed_all(parser: object, data: bytes, at: list[int]) -> list[object]:
    out: list[object] = []
    for chunk in chunked(data, at):
        out += parser.feed(chunk)  # type: ignore[attr-defined]
    return out


def is_subsequence(wanted: list[object], got: list[object]) -> bool:
    it = iter(got)
    return all(any(w == g for g in it) for w in wanted)


# --- barcode lines -------------------------------------------------------------------------
codes = st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=1, max_size=64)
terminators = st.sampled_from([b"\r", b"\n", b"\r\n"])


@given(noise, cuts)
@example(b"\r\n" * 3 + b"\x00\xff" * 100, [5])
def test_lines_survive_any_bytes_and_chunking_changes_nothing(data: bytes, at: list[int]) -> None:
    whole = LineParser().feed(data)
    parser = LineParser()
    assert feed_all(parser, data, at) == whole
    for code in whole:
        assert 0 < len(code) <= 64 and code.isprintable() and "\r" not in code


@given(st.lists(st.tuples(noise, codes, terminators), min_size=1, max_size=5), noise, cuts)
def test_every_code_between_noise_is_found(
    items: list[tuple[bytes, str, bytes]], tail: bytes, at: list[int]
) -> None:
    data = b"".join(g + b"\n" + c.encode() + t for g, c, t in items) + tail
    found = feed_all(LineParser(), data, at)
    assert is_subsequence([c for _, c, _ in items], found)


@given(terminators)
def test_each_line_ending_ends_one_code(end: bytes) -> None:
    parser = LineParser()
    assert parser.feed(b"A1" + end + b"B2" + end) == ["A1", "B2"]


def test_overlong_and_binary_lines_are_dropped_and_counted() -> None:
    parser = LineParser(max_length=8)
    out = parser.feed(b"123456789\r\n")
    out += parser.feed(b"x" * 50)
    out += parser.feed(b"y" * 50 + b"\nOK1\n")
    out += parser.feed(b"bad\x01code\nOK2\r")
    assert out == ["OK1", "OK2"]
    assert parser.overlong == 2 and parser.rejected == 1 and parser.lines == 2


# --- RDM6300 -------------------------------------------------------------------------------
tags = st.text("0123456789ABCDEF", min_size=10, max_size=10)


@given(noise, cuts)
@example(b"\x02" + b"0" * 12 + b"\x02\x03\x03", [3])
def test_rdm6300_survives_any_bytes(data: bytes, at: list[int]) -> None:
    whole = Rdm6300Parser().feed(data)
    assert feed_all(Rdm6300Parser(), data, at) == whole
    for code in whole:
        assert len(code) == 10 and all(c in "0123456789ABCDEF" for c in code)


@given(st.lists(st.tuples(noise, tags), min_size=1, max_size=5), noise, cuts)
def test_every_rdm6300_frame_between_noise_is_found(
    items: list[tuple[bytes, str]], tail: bytes, at: list[int]
) -> None:
    data = b"".join(g + rdm_frame(t) for g, t in items) + tail
    assert is_subsequence([t for _, t in items], feed_all(Rdm6300Parser(), data, at))


@given(tags, tags, st.integers(min_value=1, max_value=13))
def test_rdm6300_resyncs_after_truncated_and_bad_checksum_frames(
    bad: str, good: str, cut: int
) -> None:
    broken = rdm_frame(bad)
    wrong = bytearray(broken)
    wrong[11] = ord("0") if wrong[11] != ord("0") else ord("1")  # checksum high digit
    parser = Rdm6300Parser()
    assert parser.feed(broken[:cut] + bytes(wrong) + rdm_frame(good)) == [good]
    assert parser.bad_checksum == 1
    assert parser.broken == 1


def test_rdm6300_checksum_example() -> None:
    frame = bytes.fromhex("02 30 41 30 30 37 39 41 32 42 31 36 30 03")
    assert rdm_frame("0a0079a2b1") == frame
    assert Rdm6300Parser().feed(frame) == ["0A0079A2B1"]


# --- the MCU protocol ----------------------------------------------------------------------
frames = st.builds(
    Frame,
    st.integers(min_value=0, max_value=255),
    st.integers(min_value=0, max_value=255),
    st.binary(max_size=proto.MAX_BODY),
)


def wire(f: Frame) -> bytes:
    return proto.encode(f.type, f.seq, f.body)


@given(noise, cuts)
@example(b"\x00" + b"\x01" * 600 + b"\x00", [1])
def test_frames_survive_any_bytes(data: bytes, at: list[int]) -> None:
    whole = FrameParser().feed(data)
    assert feed_all(FrameParser(), data, at) == whole


@given(st.lists(st.tuples(noise, frames), min_size=1, max_size=4), noise, cuts)
def test_every_frame_between_noise_is_found(
    items: list[tuple[bytes, Frame]], tail: bytes, at: list[int]
) -> None:
    data = b"".join(g + wire(f) for g, f in items) + tail
    assert is_subsequence([f for _, f in items], feed_all(FrameParser(), data, at))


@given(frames, frames, st.integers(min_value=1, max_value=300), st.binary(max_size=600))
def test_frames_resync_after_truncation_bad_crc_and_overflow(
    bad: Frame, good: Frame, cut: int, junk: bytes
) -> None:
    raw = bytes((bad.type, bad.seq)) + bad.body
    crc = proto.crc16(raw) ^ 0x0001  # a wrong CRC, whatever the frame
    wrong_crc = b"\x00" + proto.cobs_encode(raw + bytes((crc >> 8, crc & 0xFF))) + b"\x00"
    truncated = wire(bad)[: min(cut, len(wire(bad)) - 1)]
    flood = b"\x01" + junk.replace(b"\x00", b"\x07") * 3 + b"\x01" * 300  # no zero: too long
    parser = FrameParser()
    found = parser.feed(truncated + wrong_crc + flood + wire(good))
    # (a truncated prefix may, once in 65536, carry a valid CRC of its own: it stays first)
    assert found[-1] == good and len(found) <= 2
    assert parser.damaged >= 1 and parser.overflows == 1


def test_a_frame_needs_its_crc_and_four_bytes() -> None:
    parser = FrameParser()
    assert parser.feed(b"\x00" + proto.cobs_encode(b"\x01\x02\x03") + b"\x00") == []
    assert parser.feed(b"\x00\x05\x01\x00") == []  # a COBS block running past the frame
    assert parser.damaged == 2
