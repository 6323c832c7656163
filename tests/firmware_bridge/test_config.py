"""[scanner] and [mcu] in the config file: defaults, the chance source, errors naming the line."""

from __future__ import annotations

from pathlib import Path

import pytest

from apps import runtime
from firmware_bridge.config import ScannerConfig, parse_bridge
from firmware_bridge.ports import DeviceSpec
from hw.backends import open_strip
from hw.config import parse_config_text
from hw.strip import StripError
from hw.tomlsource import ConfigError, TomlSource

BASE = """\
[buttons]
pin_factory = "mock"

[seats.1]
previous = 5
select = 6
next = 13

[strip]
backend = "mock"
count = 10
"""


def bridge(text: str):
    return parse_bridge(TomlSource.parse(text, name="t.toml"))


def test_no_tables_no_peripherals() -> None:
    config = runtime.parse_text(BASE)
    assert config.bridge.scanner is None and config.bridge.mcu is None
    assert config.app.chance == "app"


def test_a_scanner_table_makes_the_scanner_the_chance_source() -> None:
    config = runtime.parse_text(
        BASE
        + """
[scanner]
kind = "rdm6300"
usb = "1a86:7523"
repeat_s = 1.5
cards = "/etc/tavola/cards.toml"
"""
    )
    assert config.app.chance == "scanner"
    assert config.bridge.scanner == ScannerConfig(
        kind="rdm6300",
        device=DeviceSpec(usb=(0x1A86, 0x7523)),
        baud=9600,
        repeat_s=1.5,
        cards=Path("/etc/tavola/cards.toml"),
    )


def test_chance_scanner_alone_reads_the_default_barcode_scanner() -> None:
    config = runtime.parse_text(BASE + '\n[app]\nchance = "scanner"\n')
    assert config.bridge.scanner == ScannerConfig()
    assert config.bridge.scanner.device == DeviceSpec(path="/dev/tavola-scanner")


def test_an_explicit_chance_wins_over_a_scanner_table() -> None:
    config = runtime.parse_text(BASE + '\n[app]\nchance = "pick"\n\n[scanner]\nkind = "barcode"\n')
    assert config.app.chance == "pick" and config.bridge.scanner is not None


def test_the_strip_and_the_cards_on_the_mcu() -> None:
    text = (
        BASE.replace('backend = "mock"', 'backend = "mcu"')
        + """
[mcu]
path = "/dev/tavola-mcu"

[scanner]
kind = "mcu"
"""
    )
    config = runtime.parse_text(text)
    assert config.hw.strip is not None and config.hw.strip.order == "GRB"
    b = config.bridge
    assert b.strip_on_mcu and b.mcu is not None and b.scanner is not None
    assert b.scanner.device is None and b.mcu.device == DeviceSpec(path="/dev/tavola-mcu")
    with pytest.raises(StripError, match="McuStrip"):
        open_strip(config.hw.strip)  # hw builds no serial protocol: the runtime does


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[scanner]\nkind = "laser"\n', r"t\.toml:2: scanner\.kind: 'laser' is not one of"),
        ('[scanner]\npath = "/dev/a"\nusb = "1a86:7523"\n', r"t\.toml:3: scanner\.usb: give path"),
        ('[scanner]\nusb = "1a86"\n', r"t\.toml:2: scanner\.usb: USB id '1a86'"),
        (
            '[scanner]\npath = "ttyUSB0"\n',
            r"t\.toml:2: scanner\.path: 'ttyUSB0' must be an absolute",
        ),
        ("[scanner]\nrepeat_s = -1\n", r"t\.toml:2: scanner\.repeat_s: -1 is out of range"),
        ('[scanner]\nport = "/dev/a"\n', r"t\.toml:2: scanner\.port: unknown key"),
        ('[scanner]\nkind = "mcu"\n', r"t\.toml:2: scanner\.kind: \"mcu\" needs an \[mcu\]"),
        ('[mcu]\n\n[scanner]\nkind = "mcu"\npath = "/dev/a"\n', r"t\.toml:5: scanner\.path: kind"),
        ('[mcu]\nserial_number = "E66"\n', r"t\.toml:2: mcu\.serial_number: narrows"),
        ('[strip]\nbackend = "mcu"\ncount = 3\n', r"t\.toml:2: strip\.backend: \"mcu\" needs"),
    ],
)
def test_mistakes_name_the_file_line_and_key(text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        bridge(text)


def test_the_mcu_strip_carries_three_channels_only() -> None:
    with pytest.raises(ConfigError, match=r"strip\.order: the table microcontroller"):
        parse_config_text('[strip]\nbackend = "mcu"\ncount = 3\norder = "GRBW"\n', source="t.toml")
