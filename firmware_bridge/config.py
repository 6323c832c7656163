"""The serial peripherals' part of the config file: `[scanner]` and `[mcu]`.

Checked at start-up like hw's tables, with errors naming file, line and key:

    [mcu]                         # a Pico running firmware_bridge/firmware
    path = "/dev/tavola-mcu"      # a udev symlink (default), or instead:
    # usb = "2e8a:0005"           # USB vendor:product, looked up on every (re)open
    # serial_number = "E6614103E7"  # ... when two identical boards are plugged in
    baud = 115200                 # ignored by USB CDC; used by USB-UART bridges

    [scanner]
    kind = "rdm6300"              # barcode | rdm6300 | hid | mcu (the [mcu] board's reader)
    path = "/dev/tavola-scanner"  # or usb = "...", as for [mcu]; not for kind = "mcu"
    baud = 9600
    # kind = "hid": a scanner in USB keyboard mode, read (and grabbed) through evdev;
    # path = "/dev/input/tavola-scanner" (default; or /dev/input/by-id/...-event-kbd)
    layout = "us"                 # hid only: the keyboard layout the scanner emulates (us, de)
    repeat_s = 2.0                # the same card again within this is refused at the table
    cards = "/etc/tavola/cards.toml"  # the card registry (default: the XDG config dir)

`[strip] backend = "mcu"` puts the LEDs on the `[mcu]` board (see docs/protocol.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from hw.schema import Choice, Custom, FilePath, Int, Key, Number, Section, Table, Text
from hw.tomlsource import ConfigError, TomlSource

from .ports import DeviceSpec

__all__ = ["TABLES", "BridgeConfig", "ConfigError", "McuConfig", "ScannerConfig", "parse_bridge"]

SCANNER_KINDS = ("barcode", "rdm6300", "hid", "mcu")
DEFAULT_SCANNER = "/dev/tavola-scanner"
DEFAULT_HID_SCANNER = "/dev/input/tavola-scanner"
HID_LAYOUTS = ("us", "de")  # firmware_bridge.hid.LAYOUTS (not imported: config needs no evdev)
DEFAULT_MCU = "/dev/tavola-mcu"


def _usb(value: object) -> str:
    if not isinstance(value, str):
        raise ValueError(f'must be "vendor:product" in hex like "2e8a:0005", got {value!r}')
    DeviceSpec.parse_usb(value)  # ValueError names the format
    return value


def _device_path(value: object) -> str:
    path = Text(example="/dev/ttyUSB0").check(value)
    if not path.startswith("/"):
        raise ValueError(f"{path!r} must be an absolute device path like '/dev/ttyUSB0'")
    return path


_DEVICE = (
    Key(
        "path",
        Custom("an absolute device path like '/dev/ttyUSB0'", _device_path),
        None,
        "an absolute device path, e.g. a udev symlink",
    ),
    Key(
        "usb",
        Custom('"vendor:product" in hex like "2e8a:0005"', _usb),
        None,
        "looked up on every (re)open",
    ),
    Key("serial_number", Text(), None, "narrows a usb lookup to one board"),
)
_DEVICE_KEYS = {k.name for k in _DEVICE} | {"baud"}
BAUD = Int(lo=1200, hi=4_000_000)
MCU = Table(*_DEVICE, Key("baud", BAUD, 115_200, "ignored by USB CDC"))
SCANNER = Table(
    Key("kind", Choice(SCANNER_KINDS), "barcode", "what reads the cards"),
    *_DEVICE,
    Key("baud", BAUD, 9600),
    Key("layout", Choice(HID_LAYOUTS), "us", 'kind = "hid": the layout the scanner emulates'),
    Key("repeat_s", Number(lo=0, hi=60), 2.0, "the same card again within this is refused"),
    Key("cards", FilePath(example="/etc/tavola/cards.toml"), None, "the card registry"),
)
#: firmware_bridge's tables of the config file
TABLES = {"mcu": MCU, "scanner": SCANNER}


@dataclass(frozen=True, slots=True)
class ScannerConfig:
    kind: str = "barcode"
    #: None for kind = "mcu": the cards come over the [mcu] link
    device: DeviceSpec | None = field(default_factory=lambda: DeviceSpec(path=DEFAULT_SCANNER))
    baud: int = 9600
    repeat_s: float = 2.0
    cards: Path | None = None
    #: kind = "hid": the keyboard layout the scanner is set to emulate
    layout: str = "us"


@dataclass(frozen=True, slots=True)
class McuConfig:
    device: DeviceSpec = field(default_factory=lambda: DeviceSpec(path=DEFAULT_MCU))
    baud: int = 115_200


@dataclass(frozen=True, slots=True)
class BridgeConfig:
    scanner: ScannerConfig | None = None
    mcu: McuConfig | None = None
    #: [strip] backend = "mcu": the LEDs hang off the [mcu] board
    strip_on_mcu: bool = False


def _device(t: Section, default: str) -> DeviceSpec:
    if t["path"] is not None and t["usb"] is not None:
        raise t.err("usb", "give path or usb, not both")
    if t["usb"] is not None:
        return DeviceSpec.parse_usb(t["usb"], serial_number=t["serial_number"])
    if t["serial_number"] is not None:
        raise t.err("serial_number", 'narrows a usb = "vendor:product" lookup; add usb')
    return DeviceSpec(path=t["path"] or default)


def parse_bridge(src: TomlSource) -> BridgeConfig:
    """The `[scanner]` and `[mcu]` tables of a config file (both optional)."""
    data = src.data
    mcu = None
    if "mcu" in data:
        t = MCU.read(src, ("mcu",), data["mcu"])
        mcu = McuConfig(device=_device(t, DEFAULT_MCU), baud=t["baud"])
    scanner = None
    if "scanner" in data:
        t = SCANNER.read(src, ("scanner",), data["scanner"])
        kind = t["kind"]
        device: DeviceSpec | None = None
        if kind == "mcu":
            for key in sorted(_DEVICE_KEYS):
                if t.given(key):
                    raise t.err(
                        key,
                        'kind = "mcu" reads cards over the [mcu] board\'s link: '
                        "set the device in [mcu]",
                    )
            if mcu is None:
                raise t.err("kind", '"mcu" needs an [mcu] table naming the board\'s device')
        else:
            device = _device(t, DEFAULT_HID_SCANNER if kind == "hid" else DEFAULT_SCANNER)
        if t.given("layout") and kind != "hid":
            raise t.err("layout", 'only a keyboard-mode scanner (kind = "hid") has a layout')
        if t.given("baud") and kind == "hid":
            raise t.err("baud", 'a keyboard-mode scanner (kind = "hid") has no baud rate')
        scanner = ScannerConfig(
            kind=kind,
            device=device,
            baud=t["baud"],
            repeat_s=t["repeat_s"],
            cards=t["cards"],
            layout=t["layout"],
        )
    strip = data.get("strip")
    on_mcu = isinstance(strip, dict) and strip.get("backend") == "mcu"
    if on_mcu and mcu is None:
        raise src.error(
            ("strip", "backend"),
            '"mcu" needs an [mcu] table naming the board\'s device (e.g. path = "/dev/tavola-mcu")',
        )
    return BridgeConfig(scanner=scanner, mcu=mcu, strip_on_mcu=on_mcu)
