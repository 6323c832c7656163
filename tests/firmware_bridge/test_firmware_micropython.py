"""The firmware's shared modules in a real MicroPython (the WebAssembly port) and in
CPython: the same protocol bytes, the boot escape, whole-packet USB reads, and button
sampling on schedule while LED frames stream (time modelled: tests/firmware_bridge/mpy)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.firmware import proto
from tests import micropython

CHECKS = micropython.SCENARIOS / "checks.py"


@pytest.fixture(scope="module")
def outcomes() -> dict[str, dict[str, Any]]:
    """checks.py's outcomes, keyed by interpreter."""
    reason = micropython.missing()
    if reason:
        pytest.fail(f"no MicroPython to run the firmware in: {reason}")
    return {
        "micropython": json.loads(micropython.run(CHECKS)),
        "cpython": json.loads(micropython.run_cpython(CHECKS, python=sys.executable)),
    }


INTERPRETERS = ("micropython", "cpython")


def test_the_shared_modules_speak_the_same_bytes_in_micropython(tmp_path: Path) -> None:
    script = tmp_path / "vectors.py"
    script.write_text(
        "import proto, device\n"
        "out = []\n"
        "out.append(proto.crc16(b'123456789'))\n"
        "out.append(proto.encode(proto.HELLO, 0, proto.pack(proto.HELLO, (2, 438))).hex())\n"
        "data = bytes(range(256)) * 3 + bytes(132)\n"
        "enc = proto.cobs_encode(data)\n"
        "out.append(enc.hex())\n"
        "out.append(proto.cobs_decode(enc) == data)\n"
        "w = []\n"
        "d = device.Device(w.append, 10, 3)\n"
        "d.feed(proto.encode(proto.HELLO, 0, proto.pack(proto.HELLO, (2, 4))), 0)\n"
        "out.append(b''.join(w).hex())\n"
        "print(repr(out))\n",
        encoding="utf-8",
    )
    got = micropython.run(script, libs=(micropython.FIRMWARE,))
    want = micropython.run_cpython(script, libs=(micropython.FIRMWARE,), python=sys.executable)
    assert got == want
    assert "0x29b1" in hex(proto.crc16(b"123456789")) and "True" in got


@pytest.mark.parametrize("where", INTERPRETERS)
def test_a_held_button_or_mpremotes_ctrl_c_leaves_the_board_at_the_repl(outcomes, where) -> None:
    esc = outcomes[where]["escape"]
    assert esc["held"][0] is True and esc["held"][2] == 0  # at once, nothing read
    assert esc["mpremote"][:2] == [True, ""] and esc["mpremote"][2] == 800  # as it arrives
    assert esc["hello_has_0x03"]  # a host's frame holds 0x03, yet it is no escape:
    assert esc["host"] == [False, "00", 300, 1]  # its leading zero starts the firmware at once
    assert esc["silence"][:3] == [False, "", 5000]  # nobody there: it starts after 5 s
    assert esc["late"][:2] == [False, ""]  # a Ctrl-C after the window is the firmware's data


@pytest.mark.parametrize("where", INTERPRETERS)
def test_padded_writes_are_read_a_whole_packet_at_a_time(outcomes, where) -> None:
    r = outcomes[where]["reader"]
    assert r["shown"] == list(range(1, 13)) and r["damaged"] == 0
    assert r["blocked"] == 0 and r["byte_reads"] == 0 and r["packet_reads"] > 0


@pytest.mark.parametrize("where", INTERPRETERS)
def test_unpadded_input_costs_one_slow_read_then_the_reader_realigns(outcomes, where) -> None:
    r = outcomes[where]["probe"]
    assert r["shown"] == list(range(1, 13))  # every frame still shown
    assert r["slow"] == 1 and r["byte_reads"] > 0 and r["aligned"]
    assert r["damaged"] == 1  # the probe itself, dropped as a damaged frame


@pytest.mark.parametrize("where", INTERPRETERS)
def test_buttons_are_sampled_every_millisecond_under_a_60_fps_stream(outcomes, where) -> None:
    s = outcomes[where]["stream"]  # 300 LEDs, mostly dark, 2 s; modelled time only
    assert s["shown"] == s["frames"] == 120 and s["replaced"] == 0 and s["damaged"] == 0
    assert s["sample_gap_max_ms"] == 1 and s["late_samples"] == 0
    assert s["pressed"] == s["presses"] > 0
    assert s["button_max_ms"] <= 20 + 2  # the debounce, plus at most two samples
    assert s["blocked_reads"] == 0 and s["slow_reads"] == 0
    assert proto.USB_PACKET == 64
