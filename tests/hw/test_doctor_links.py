"""`tavola doctor` and the serial peripherals: the `[mcu]` board's handshake, the strip on
it, and the `[scanner]`, each against the emulated device on a real pty.

The emulators speak the real protocol (firmware_bridge/emulator.py runs the firmware's
own device code); they cannot show a Pico's USB stack or a scanner's optics.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from apps.cli import main
from apps.commands.doctor import Doctor
from firmware_bridge.config import parse_bridge
from firmware_bridge.emulator import McuEmulator, PtyDevice, ScannerEmulator
from firmware_bridge.firmware import proto
from hw.config import parse_config_text
from hw.tomlsource import TomlSource

FAST = {"backoff_s": 0.02, "backoff_max_s": 0.1, "read_timeout_s": 0.02}

TABLE = """\
[buttons]
pin_factory = "mock"
glitch_ms = 0
[seats.1]
kind = "one"
button = 19
"""
STRIP_ON_MCU = """
[strip]
backend = "mcu"
count = 20
[strip.segments]
"seat.1" = [0, 9]
"seat.2" = [10, 19]
"""


@pytest.fixture
def devices(tmp_path: Path) -> Iterator[list[PtyDevice]]:
    made: list[PtyDevice] = []
    yield made
    for d in made:
        d.close()


def doctor(text: str, *, timeout: float = 5.0) -> Doctor:
    src = TomlSource.parse(text, name="t.toml")
    cfg = parse_config_text(text, source="t.toml")
    return Doctor(
        cfg,
        out=io.StringIO(),
        bridge=parse_bridge(src),
        timeout=timeout,
        model_path="/nonexistent",
        link_options=FAST,
    )


def run(d: Doctor) -> tuple[int, str]:
    rc = d.run()
    return rc, d.out.getvalue()  # type: ignore[attr-defined]


def watching(d: Doctor, react: Any) -> None:
    """Call `react(line)` after each line the doctor says (a person at the table)."""
    real = d.say

    def say(line: str = "") -> None:
        real(line)
        react(line)

    d.say = say  # type: ignore[method-assign]


def test_the_mcu_handshake_and_its_strip_are_checked(
    tmp_path: Path, devices: list[PtyDevice], mock_factory: MockFactory
) -> None:
    board = McuEmulator(tmp_path / "mcu", leds=300)
    devices.append(board)
    d = doctor(TABLE + f'[mcu]\npath = "{tmp_path / "mcu"}"\n' + STRIP_ON_MCU)

    def person(line: str) -> None:  # presses when the board shows the segment lit
        if ": press any button if they light" in line:
            start = 0 if "seat.1" in line else 10
            with board.frame_arrived:
                board.frame_arrived.wait_for(
                    lambda: bool(board.frames) and any(board.frames[-1][3 * start : 3 * start + 9]),
                    timeout=5,
                )
            assert d.buttons is not None
            d.buttons.press_pin("1", "button", True)
            d.buttons.press_pin("1", "button", False)

    watching(d, person)
    rc, out = run(d)
    assert (
        f"mcu:          {tmp_path / 'mcu'}: {proto.FIRMWARE_ID}, protocol "
        f"{proto.PROTOCOL_VERSION}, 20 LEDs: ok"
    ) in out
    assert "strip:        mcu, 20 LEDs, order GRB" in out  # no longer refused
    assert "  seat.1  lit, confirmed by seat 1" in out
    assert "  seat.2  lit, confirmed by seat 1" in out
    assert rc == 0, out


def test_a_board_that_drives_fewer_leds_than_the_strip_is_a_finding(
    tmp_path: Path, devices: list[PtyDevice], mock_factory: MockFactory
) -> None:
    devices.append(McuEmulator(tmp_path / "mcu", leds=10))
    rc, out = run(doctor(TABLE + f'[mcu]\npath = "{tmp_path / "mcu"}"\n' + STRIP_ON_MCU))
    assert (
        "mcu:          FAILED: The table microcontroller drives 10 LEDs, [strip] count is "
        "20: set MAX_LEDS = 20 or more"
    ) in out
    assert "  FAILED: the strip hangs off the [mcu] board, which failed above" in out
    assert rc == 1


def test_a_missing_board_is_a_finding_with_the_fix(
    tmp_path: Path, mock_factory: MockFactory
) -> None:
    rc, out = run(doctor(TABLE + f'[mcu]\npath = "{tmp_path / "none"}"\n', timeout=0.5))
    line = next(ln for ln in out.splitlines() if ln.startswith("mcu:"))
    assert line.startswith(
        f"mcu:          FAILED: not found ({tmp_path / 'none'}: no such "
        "device (unplugged?)): fix: plug the board in, or correct [mcu] "
        "path / usb"
    ), line
    assert rc == 1


def test_a_device_that_does_not_speak_the_protocol_is_a_finding(
    tmp_path: Path, devices: list[PtyDevice], mock_factory: MockFactory
) -> None:
    devices.append(ScannerEmulator(tmp_path / "mcu"))  # the wrong device at [mcu] path
    rc, out = run(doctor(TABLE + f'[mcu]\npath = "{tmp_path / "mcu"}"\n', timeout=1.0))
    assert (
        f"mcu:          FAILED: {tmp_path / 'mcu'} opened but did not answer HELLO in 1 s: "
        "fix: flash firmware_bridge/firmware to it, or point [mcu] at the board that runs "
        "it"
    ) in out
    assert rc == 1


def test_the_scanner_is_opened_and_a_scan_read(
    tmp_path: Path, devices: list[PtyDevice], mock_factory: MockFactory
) -> None:
    scanner = ScannerEmulator(tmp_path / "scanner")
    devices.append(scanner)
    d = doctor(TABLE + f'[scanner]\npath = "{tmp_path / "scanner"}"\n')
    watching(d, lambda line: scanner.scan("X-17") if "scan any card" in line else None)
    rc, out = run(d)
    assert f"scanner:      barcode at {tmp_path / 'scanner'}: opened; scan any card (5 s)" in out
    assert "  read 'X-17': ok" in out
    assert rc == 0, out


def test_a_scanner_nobody_scans_with_is_not_verified(
    tmp_path: Path, devices: list[PtyDevice], mock_factory: MockFactory
) -> None:
    devices.append(ScannerEmulator(tmp_path / "scanner"))
    rc, out = run(doctor(TABLE + f'[scanner]\npath = "{tmp_path / "scanner"}"\n', timeout=0.3))
    assert (
        "  NOT VERIFIED: no card scanned in 0.3 s: if you scanned one, check the scanner's "
        "mode (serial, a line per code) and [scanner] baud"
    ) in out
    assert rc == 3


def test_a_missing_scanner_is_a_finding_with_the_fix(
    tmp_path: Path, mock_factory: MockFactory
) -> None:
    rc, out = run(doctor(TABLE + f'[scanner]\npath = "{tmp_path / "none"}"\n', timeout=0.5))
    assert (
        f"scanner:      FAILED: Card scanner not found ({tmp_path / 'none'}: no such device "
        "(unplugged?)); waiting for it.: fix: plug it in, or correct [scanner] path / usb"
    ) in out
    assert rc == 1


def test_cli_mock_skips_the_real_devices_and_accepts_an_mcu_strip(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], mock_factory: MockFactory
) -> None:
    p = tmp_path / "pi.toml"
    p.write_text(TABLE + '[mcu]\npath = "/dev/tavola-mcu"\n' + STRIP_ON_MCU)
    assert main(["doctor", "--config", str(p), "--mock", "--timeout", "2"]) == 0
    out = capsys.readouterr().out
    assert "mcu, scanner: not checked with --mock (they are real devices)" in out
    assert out.count("lit (checked on the mock strip)") == 2
