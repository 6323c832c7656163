"""The reference firmware: MicroPython-clean sources, its buttons, and its protocol side."""

from __future__ import annotations

import ast
import itertools
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_bridge.firmware import buttons, proto
from firmware_bridge.firmware.buttons import LONG_PRESS, PRESS, RELEASE, Debounced
from firmware_bridge.firmware.device import Device
from firmware_bridge.parsers import FrameParser
from firmware_bridge.protocol import (
    Ack,
    Button,
    Card,
    Heartbeat,
    Hello,
    HelloAck,
    Nak,
    decode,
    led_messages,
)
from firmware_bridge.protocol import encode as encode_message

FIRMWARE = Path(proto.__file__).parent
#: run on the Pico and the host
SHARED = ("proto.py", "rdm6300.py", "device.py", "buttons.py", "loop.py")
PICO_MODULES = {"machine", "rp2", "micropython", "select", "sys", "time", "struct", "array"}
OWN_MODULES = {p.stem for p in FIRMWARE.glob("*.py")} - {"__init__"}


def sources() -> list[Path]:
    return sorted(p for p in FIRMWARE.glob("*.py") if p.name != "__init__.py")


@pytest.mark.parametrize("path", sources(), ids=lambda p: p.name)
def test_firmware_imports_only_what_micropython_has(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # `from . import proto`: the host's spelling, with a Pico fallback
                continue
            names = [node.module or ""]
        else:
            continue
        for name in names:
            assert name.split(".")[0] in PICO_MODULES | OWN_MODULES, f"{path.name}: {name}"


@pytest.mark.parametrize("name", SHARED)
def test_shared_modules_keep_to_the_micropython_subset(name: str) -> None:
    tree = ast.parse((FIRMWARE / name).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        assert not isinstance(node, ast.AnnAssign), f"{name}:{node.lineno}: variable annotation"
        if isinstance(node, ast.ImportFrom):
            assert node.module not in ("__future__", "dataclasses", "typing"), name
        if isinstance(node, ast.ClassDef):
            assert not node.decorator_list, f"{name}: decorated class {node.name}"


def test_the_shared_modules_import_as_the_pico_lays_them_out() -> None:
    """On the Pico they are top-level modules: device.py must fall back to `import proto`."""
    code = (
        "import device, buttons, rdm6300, proto, loop; "
        "assert device.proto is proto and buttons.proto is proto and loop.proto is proto; "
        "print('ok')"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=FIRMWARE, capture_output=True, text=True, timeout=60
    )
    assert out.stdout.strip() == "ok", out.stderr


def test_main_wires_buttons_the_protocol_knows() -> None:
    tree = ast.parse((FIRMWARE / "main.py").read_text(encoding="utf-8"))
    pins = next(
        n.value
        for n in tree.body
        if isinstance(n, ast.Assign)
        and any(getattr(t, "id", "") == "BUTTON_PINS" for t in n.targets)
    )
    wiring = ast.literal_eval(pins)
    assert wiring, "no buttons wired"
    gpios = [g for g, _, _ in wiring]
    assert len(set(gpios)) == len(gpios)
    for gpio, seat, button in wiring:
        assert 0 <= gpio <= 28 and 0 <= seat <= 255
        assert button in proto.BUTTONS
        assert (seat == proto.TABLE_SEAT) == (button in ("undo", "menu"))
    for path in (FIRMWARE / "main.py", FIRMWARE / "ws2812.py"):
        compile(path.read_text(encoding="utf-8"), str(path), "exec")


# --- buttons -------------------------------------------------------------------------------
def run(button: Debounced, levels: list[tuple[int, bool]]) -> list[tuple[int, int]]:
    """(ms, kind) events for a sampled level trace: (from ms, pressed) steps, 1 ms samples."""
    out = []
    steps = [*levels, (levels[-1][0] + 2000, levels[-1][1])]
    for (start, level), (end, _) in itertools.pairwise(steps):
        for ms in range(start, end):
            out += [(ms, k) for k in button.update(level, ms)]
    return out


def test_bounces_shorter_than_the_debounce_are_ignored() -> None:
    b = Debounced(1, 1)
    trace = [
        (0, False),
        (100, True),
        (102, False),
        (104, True),
        (106, False),
        (108, True),
        (300, False),
        (303, True),
        (305, False),
    ]
    assert run(b, trace) == [(128, PRESS), (325, RELEASE)]


def test_a_hold_is_one_long_press_then_a_release() -> None:
    b = Debounced(2, 3, debounce_ms=20, hold_ms=600)
    assert run(b, [(0, False), (10, True), (1500, False)]) == [
        (30, PRESS),
        (630, LONG_PRESS),
        (1520, RELEASE),
    ]
    assert proto.KINDS.index("press") == buttons.PRESS


# --- the device side of the protocol -------------------------------------------------------
class Host:
    """A scripted host talking to a `Device` without any serial line."""

    def __init__(self, leds: int = 4) -> None:
        self.wire = bytearray()
        self.shown: list[bytes] = []
        self.device = Device(self.wire.extend, leds, 3, self.shown.append)
        self.parser = FrameParser()
        self.seq = 0

    def say(self, message: object, now: int = 0) -> None:
        self.device.feed(encode_message(message, self.seq), now)  # type: ignore[arg-type]
        self.seq += 1

    def heard(self) -> list[tuple[int, object]]:
        frames = self.parser.feed(bytes(self.wire))
        self.wire.clear()
        return [(f.seq, decode(f)) for f in frames]


def test_hello_is_answered_and_events_wait_for_a_host() -> None:
    host = Host()
    assert host.device.card("04A1B2C3D4") is False  # nobody listens yet: dropped
    host.say(Hello(led_count=4))
    assert host.heard() == [(0, HelloAck(2, 4, 3, proto.FIRMWARE_ID))]
    assert host.device.card("04A1B2C3D4") is True
    assert host.heard() == [(1, Card(0, "04A1B2C3D4"))]


def test_unacknowledged_events_are_resent_with_their_seq_then_given_up() -> None:
    host = Host()
    host.say(Hello())
    host.heard()
    host.device.button(1, 1, 0)
    sent = host.heard()
    now = 0
    for _ in range(proto.RETRIES + 2):
        now += proto.RETRY_MS
        host.say(Heartbeat(now), now)  # the host is alive but its ACKs are lost
        host.device.poll(now)
        sent += [e for e in host.heard() if isinstance(e[1], Button)]
    assert sent == [(1, Button(1, 1, 0))] * proto.RETRIES
    assert host.device.lost == 1


def test_an_acknowledged_event_is_not_resent() -> None:
    host = Host()
    host.say(Hello())
    host.heard()
    host.device.card("0011223344")
    ((seq, _),) = host.heard()
    host.say(Ack(seq))
    host.device.poll(proto.RETRY_MS * 3)
    assert [m for _, m in host.heard() if isinstance(m, Card)] == []


def test_heartbeats_flow_and_a_silent_host_turns_the_strip_off() -> None:
    host = Host(leds=2)
    host.say(Hello(led_count=2), 0)
    host.heard()
    host.device.poll(proto.HEARTBEAT_MS)
    assert [m for _, m in host.heard()] == [Heartbeat(proto.HEARTBEAT_MS)]
    host.device.poll(proto.SILENCE_MS + 1)
    assert host.shown == [bytes(6)] and not host.device.connected


def test_unknown_and_malformed_frames_are_refused_with_nak() -> None:
    host = Host()
    host.device.feed(proto.encode(0x7F, 9, b""), 0)
    host.device.feed(proto.encode(proto.HELLO, 10, b""), 0)
    assert [m for _, m in host.heard()] == [Nak(9, proto.E_TYPE), Nak(10, proto.E_MALFORMED)]
    assert host.device.refused == 2


def test_the_board_drives_as_many_leds_as_the_host_says_up_to_its_maximum() -> None:
    host = Host(leds=500)
    host.say(Hello(led_count=438))
    assert host.heard() == [(0, HelloAck(2, 438, 3, proto.FIRMWARE_ID))]
    for chunk in led_messages(1, bytes([7]) * (438 * 3)):
        host.say(chunk)
    assert host.shown == [bytes([7]) * (438 * 3)]
    host.say(Hello(led_count=900))  # more than it was sized for: it says what it drives
    assert [m for _, m in host.heard()] == [HelloAck(2, 500, 3, proto.FIRMWARE_ID)]


def test_a_hello_of_another_version_is_answered_with_ours_and_not_joined() -> None:
    host = Host()
    host.device.feed(proto.encode(proto.HELLO, 0, bytes([1])), 0)  # a protocol 1 host
    ((_, answer),) = host.heard()
    assert answer == HelloAck(proto.PROTOCOL_VERSION, 0, 3, proto.FIRMWARE_ID)
    assert not host.device.connected and host.device.card("0011223344") is False
