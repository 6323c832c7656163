"""The serial peripherals' part of the config file: `[scanner]` and `[mcu]`.

Checked at start-up like hw's tables, with errors naming file, line and key:

    [mcu]                         # a Pico running firmware_bridge/firmware
    path = "/dev/tavola-mcu"      # a udev symlink (default), or instead:
    # usb = "2e8a:0005"           # USB vendor:product, looked up on every (re)open
    # serial_number = "E6614103E7"  # ... when two identical boards are plugged in
    baud = 115200                 # ignored by USB CDC; used by USB-UART bridges

    [scanner]
    kind = "rdm6300"              # barcode | rdm6300 | mcu (the [mcu] board's reader)
    path = "/dev/tavola-scanner"  # or usb = "...", as for [mcu]; not for kind = "mcu"
    baud = 9600
    repeat_s = 2.0                # the same card again within this is refused at the table
    cards = "/etc/tavola/cards.toml"  # the card registry (default: the XDG config dir)

`[strip] backend = "mcu"` puts the LEDs on the `[mcu]` board (see docs/protocol.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from hw.config import _Table
from hw.tomlsource import ConfigError, TomlSource

from .ports import DeviceSpec

__all__ = ["BridgeConfig", "ConfigError", "McuConfig", "ScannerConfig", "parse_bridge"]

SCANNER_KINDS = ("barcode", "rdm6300", "mcu")
DEFAULT_SCANNER = "/dev/tavola-scanner"
DEFAULT_MCU = "/dev/tavola-mcu"
_DEVICE_KEYS = {"path", "usb", "serial_number", "baud"}


@dataclass(frozen=True, slots=True)
class ScannerConfig:
    kind: str = "barcode"
    #: None for kind = "mcu": the cards come over the [mcu] link
    device: DeviceSpec | None = field(default_factory=lambda: DeviceSpec(path=DEFAULT_SCANNER))
    baud: int = 9600
    repeat_s: float = 2.0
    cards: Path | None = None


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


def _device(t: _Table, default: str) -> DeviceSpec:
    if t.has("path") and t.has("usb"):
        raise t.err("usb", "give path or usb, not both")
    serial_number = t.str("serial_number", None)
    if t.has("usb"):
        try:
            return DeviceSpec.parse_usb(t.str("usb"), serial_number=serial_number)
        except ValueError as e:
            raise t.err("usb", str(e)) from None
    if serial_number is not None:
        raise t.err("serial_number", "narrows a usb = \"vendor:product\" lookup; add usb")
    path = t.str("path", default)
    if not path.startswith("/"):
        raise t.err("path", f"{path!r} must be an absolute device path like {default!r}")
    return DeviceSpec(path=path)


def parse_bridge(src: TomlSource) -> BridgeConfig:
    """The `[scanner]` and `[mcu]` tables of a config file (both optional)."""
    data = src.data
    mcu = None
    if "mcu" in data:
        t = _Table(src, ("mcu",), data["mcu"])
        t.check_keys(_DEVICE_KEYS)
        mcu = McuConfig(device=_device(t, DEFAULT_MCU),
                        baud=t.int("baud", 115_200, lo=1200, hi=4_000_000))
    scanner = None
    if "scanner" in data:
        t = _Table(src, ("scanner",), data["scanner"])
        t.check_keys(_DEVICE_KEYS | {"kind", "repeat_s", "cards"})
        kind = t.str("kind", "barcode", choices=SCANNER_KINDS)
        device: DeviceSpec | None = None
        if kind == "mcu":
            for key in _DEVICE_KEYS:
                if t.has(key):
                    raise t.err(key, "kind = \"mcu\" reads cards over the [mcu] board's link: "
                                "set the device in [mcu]")
            if mcu is None:
                raise t.err("kind", "\"mcu\" needs an [mcu] table naming the board's device")
        else:
            device = _device(t, DEFAULT_SCANNER)
        cards = t.str("cards", None)
        scanner = ScannerConfig(kind=kind, device=device,
                                baud=t.int("baud", 9600, lo=1200, hi=4_000_000),
                                repeat_s=t.num("repeat_s", 2.0, lo=0, hi=60),
                                cards=Path(cards) if cards else None)
    strip = data.get("strip")
    on_mcu = isinstance(strip, dict) and strip.get("backend") == "mcu"
    if on_mcu and mcu is None:
        raise src.error(("strip", "backend"), "\"mcu\" needs an [mcu] table naming the board's "
                        "device (e.g. path = \"/dev/tavola-mcu\")")
    return BridgeConfig(scanner=scanner, mcu=mcu, strip_on_mcu=on_mcu)
