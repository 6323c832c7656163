"""The hardware part of the Tavola config file: seats and their buttons, the strip, the pipeline.

Everything is checked once, at start-up, and every problem becomes a `ConfigError`
naming the file, the line and the key, because a table that silently ignores a
typo in a pin number is far harder to debug than one that refuses to start.
Tables owned by other layers (anything but seats, table, buttons, strip and
pipeline) are left alone.

Example (see docs/wiring.md for the wiring behind it)::

    [buttons]
    debounce_ms = 20
    hold_ms = 600

    [seats.1]
    kind = "three"
    previous = 5
    select = 6
    next = 13

    [seats.2]
    kind = "one"
    button = 19

    [table]
    undo = 20
    menu = 21

    [strip]
    backend = "spi"
    count = 300
    order = "GRB"

    [strip.segments]
    "seat.1" = [0, 49]

    [pipeline]
    brightness = 0.6
    budget_ma = 4000
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hw.tomlsource import ConfigError, Key, TomlSource

__all__ = [
    "BACKENDS",
    "BUTTONS_BY_KIND",
    "ConfigError",
    "HwConfig",
    "PipelineConfig",
    "SeatConfig",
    "StripConfig",
    "Timing",
    "load_config",
    "parse_colour",
    "parse_config",
]

RGB = tuple[int, int, int]

BCM_PINS = range(0, 28)
BUTTONS_BY_KIND: dict[str, tuple[str, ...]] = {
    "three": ("previous", "select", "next"),
    "one": ("button",),
}
TABLE_BUTTONS = ("undo", "menu")
TABLE_SEAT = "table"
BACKENDS = ("ws281x", "spi", "adalight", "mcu", "mock", "terminal")
PIN_FACTORIES = ("mock", "lgpio", "rpigpio", "pigpio", "native")
#: rpi_ws281x output pins: PWM0 (12, 18), PWM1 (13, 19), PCM (21), SPI MOSI (10).
WS281X_PINS = {12: "PWM0", 18: "PWM0", 13: "PWM1", 19: "PWM1", 21: "PCM", 10: "SPI"}
#: SPI bus -> the pins its overlay takes over (CE1, CE0, MISO, MOSI, SCLK for SPI0).
SPI_PINS = {0: (7, 8, 9, 10, 11), 1: (18, 19, 20, 21)}
_ORDERS = {
    *("".join(p) for p in ("RGB", "RBG", "GRB", "GBR", "BRG", "BGR")),
    *("".join(p) + "W" for p in ("RGB", "RBG", "GRB", "GBR", "BRG", "BGR")),
}
_SEAT_NAME = re.compile(r"[A-Za-z0-9_-]+")


@dataclass(frozen=True, slots=True)
class Timing:
    """Button filter timing, in seconds (the file gives milliseconds, stuck in seconds).

    `debounce`: how long a contact must stay open before a release counts;
    `glitch`: how long it must stay closed before a press counts (hw.buttons).
    """

    debounce: float = 0.020
    glitch: float = 0.001
    hold: float = 0.600
    stuck: float = 30.0


@dataclass(frozen=True, slots=True)
class ButtonSpec:
    """One physical button: where it is wired and how it is pulled."""

    seat: str
    button: str
    pin: int
    #: True/False: internal pull-up/down; None: an external resistor (then active_high says which)
    pull_up: bool | None = True
    active_high: bool | None = None


@dataclass(frozen=True, slots=True)
class SeatConfig:
    name: str
    kind: str  # "three", "one" or "table"
    buttons: tuple[ButtonSpec, ...]
    colour: RGB | None = None


@dataclass(frozen=True, slots=True)
class StripConfig:
    backend: str
    count: int
    order: str = "GRB"
    pin: int | None = None
    dma: int = 10
    channel: int = 0
    freq_hz: int = 800_000
    invert: bool = False
    spi_bus: int = 0
    spi_device: int = 0
    spi_hz: int = 2_400_000
    port: str | None = None
    baud: int = 115_200
    width: int = 60
    #: name -> (start, stop) LED index range, stop exclusive
    segments: dict[str, tuple[int, int]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class PipelineConfig:
    brightness: float = 1.0
    gamma: float = 2.2
    ma_per_channel: float = 20.0
    idle_ma: float = 1.0
    budget_ma: float | None = None
    fps: float | None = 60.0
    #: segment name -> factor 0..1
    dimming: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class HwConfig:
    source: str
    seats: tuple[SeatConfig, ...] = ()
    timing: Timing = Timing()
    pin_factory: str | None = None
    strip: StripConfig | None = None
    pipeline: PipelineConfig = PipelineConfig()

    @property
    def buttons(self) -> tuple[ButtonSpec, ...]:
        return tuple(b for seat in self.seats for b in seat.buttons)


class _Table:
    """One TOML table being read: typed getters that raise errors naming the key and line."""

    def __init__(self, src: TomlSource, key: Key, data: Any) -> None:
        self.src, self.key = src, key
        if not isinstance(data, dict):
            raise src.error(key, f"must be a table, got {_kind(data)}")
        self.data = data

    def err(self, name: str | None, message: str) -> ConfigError:
        return self.src.error(self.key + ((name,) if name else ()), message)

    def check_keys(self, allowed: set[str] | tuple[str, ...], why: str = "") -> None:
        for name in self.data:
            if name not in allowed:
                hint = why or f"expected one of: {', '.join(sorted(allowed))}"
                raise self.err(name, f"unknown key ({hint})")

    def has(self, name: str) -> bool:
        return name in self.data

    def _lookup(self, name: str, default: Any) -> tuple[bool, Any]:
        """(True, value) if the key is written; (False, default) if not and there is one."""
        if name in self.data:
            return True, self.data[name]
        if default is ...:
            raise self.err(None, f"missing key {name!r}")
        return False, default

    def int(self, name: str, default: Any = ..., *, lo: int | None = None,
            hi: int | None = None) -> Any:
        found, v = self._lookup(name, default)
        if not found:
            return v
        if isinstance(v, bool) or not isinstance(v, int):
            raise self.err(name, f"must be a whole number, got {_kind(v)} {v!r}")
        _range(self, name, v, lo, hi)
        return v

    def num(self, name: str, default: Any = ..., *, lo: float | None = None,
            hi: float | None = None, above: float | None = None) -> Any:
        found, v = self._lookup(name, default)
        if not found:
            return v
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise self.err(name, f"must be a number, got {_kind(v)} {v!r}")
        if above is not None and not v > above:
            raise self.err(name, f"{v} is out of range: must be greater than {above}")
        _range(self, name, v, lo, hi)
        return float(v)

    def bool(self, name: str, default: Any = ...) -> Any:
        found, v = self._lookup(name, default)
        if not found:
            return v
        if not isinstance(v, bool):
            raise self.err(name, f"must be true or false, got {_kind(v)} {v!r}")
        return v

    def str(self, name: str, default: Any = ..., *, choices: tuple[str, ...] | set[str] = ()
            ) -> Any:
        found, v = self._lookup(name, default)
        if not found:
            return v
        if not isinstance(v, str):
            raise self.err(name, f"must be a string, got {_kind(v)} {v!r}")
        if choices and v not in choices:
            raise self.err(name, f"{v!r} is not one of: {', '.join(sorted(choices))}")
        return v


def _range(t: _Table, name: str, v: float, lo: float | None, hi: float | None) -> None:
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        span = f"{lo}..{hi}" if lo is not None and hi is not None else (
            f">= {lo}" if lo is not None else f"<= {hi}")
        raise t.err(name, f"{v} is out of range: must be {span}")


def _kind(v: Any) -> str:
    return {bool: "a boolean", int: "a number", float: "a number", str: "a string",
            list: "a list", dict: "a table"}.get(type(v), type(v).__name__)


def parse_colour(value: Any) -> RGB:
    """"#rrggbb" or [r, g, b] with channels 0-255; ValueError otherwise (message says which)."""
    if isinstance(value, str):
        m = re.fullmatch(r"#?([0-9a-fA-F]{6})", value.strip())
        if not m:
            raise ValueError(f"colour {value!r} is not '#rrggbb'")
        h = m.group(1)
        return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)
    if isinstance(value, (list, tuple)) and len(value) == 3:
        for c in value:
            if isinstance(c, bool) or not isinstance(c, int):
                raise ValueError(f"colour {list(value)!r}: channels must be whole numbers")
            if not 0 <= c <= 255:
                raise ValueError(f"colour {list(value)!r}: channel {c} is out of range 0-255")
        return (value[0], value[1], value[2])
    raise ValueError(f"colour {value!r} must be '#rrggbb' or [r, g, b]")


def load_config(path: str | Path) -> HwConfig:
    """Read and check the hardware part of a config file."""
    src = TomlSource.load(path)
    return _parse(src)


def parse_config(data: dict[str, Any], *, source: str | Path, text: str) -> HwConfig:
    """Check already-parsed TOML `data` read from `source` (raw `text` gives the line numbers)."""
    return _parse(TomlSource.from_data(data, name=str(source), text=text))


def parse_config_text(text: str, *, source: str = "<config>") -> HwConfig:
    return _parse(TomlSource.parse(text, name=source))


def _parse(src: TomlSource) -> HwConfig:
    data = src.data
    buttons = _Table(src, ("buttons",), data.get("buttons", {}))
    buttons.check_keys({"debounce_ms", "glitch_ms", "hold_ms", "stuck_s", "pin_factory",
                        "pull_up", "active_high"})
    timing = Timing(
        debounce=buttons.num("debounce_ms", 20, lo=0, hi=1000) / 1000,
        glitch=buttons.num("glitch_ms", 1, lo=0, hi=100) / 1000,
        hold=buttons.num("hold_ms", 600, lo=50, hi=60_000) / 1000,
        stuck=buttons.num("stuck_s", 30, lo=1, hi=3600),
    )
    if timing.stuck <= timing.hold:
        raise buttons.err("stuck_s", "must be longer than hold_ms")
    if timing.hold <= max(timing.debounce, timing.glitch):
        raise buttons.err("hold_ms", "must be longer than debounce_ms and glitch_ms")
    pin_factory = buttons.str("pin_factory", None, choices=PIN_FACTORIES)
    default_pull = _pull(buttons, (True, None))

    seats: list[SeatConfig] = []
    seats_t = _Table(src, ("seats",), data.get("seats", {}))
    for name, body in seats_t.data.items():
        if name == TABLE_SEAT or not _SEAT_NAME.fullmatch(name):
            raise seats_t.err(name, "seat names are letters, digits, '-' or '_' (and not 'table')")
        seats.append(_seat(src, ("seats", name), name, body, default_pull))
    if "table" in data:
        seats.append(_seat(src, ("table",), TABLE_SEAT, data["table"], default_pull))

    strip = None
    if "strip" in data:
        strip = _strip(_Table(src, ("strip",), data["strip"]))
    pipeline = _pipeline(_Table(src, ("pipeline",), data.get("pipeline", {})), strip)

    _check_pins(src, seats, strip)
    return HwConfig(source=src.name, seats=tuple(seats), timing=timing,
                    pin_factory=pin_factory, strip=strip, pipeline=pipeline)


def _pull(t: _Table, default: tuple[bool | None, bool | None]) -> tuple[bool | None, bool | None]:
    """(pull_up, active_high): an explicit active_high alone means an external resistor."""
    pull_up = t.bool("pull_up", None)
    active_high = t.bool("active_high", None)
    if pull_up is None and active_high is None:
        return default
    if active_high is None:
        return pull_up, None
    if pull_up is None:
        return None, active_high
    if pull_up == active_high:
        raise t.err("active_high", (
            f"pull_up = {str(pull_up).lower()} makes the button active "
            f"{'low' if pull_up else 'high'}; drop active_high, or drop pull_up to use an "
            "external resistor"))
    return pull_up, None


def _seat(src: TomlSource, key: Key, name: str, body: Any,
          default_pull: tuple[bool | None, bool | None]) -> SeatConfig:
    t = _Table(src, key, body)
    if name == TABLE_SEAT:
        kind, names = "table", TABLE_BUTTONS
        t.check_keys({*TABLE_BUTTONS, "pull_up", "active_high"})
    else:
        kind = t.str("kind", "three", choices=tuple(BUTTONS_BY_KIND))
        names = BUTTONS_BY_KIND[kind]
        t.check_keys({"kind", "colour", "pull_up", "active_high", *names},
                     f"a {kind!r} seat has {', '.join(names)}, kind, colour, pull_up, "
                     "active_high")
    pull_up, active_high = _pull(t, default_pull)
    buttons = []
    for button in names:
        if not t.has(button):
            if kind == "table":
                continue
            raise t.err(None, f"missing key {button!r} (the GPIO number of that button)")
        pin = t.data[button]
        if isinstance(pin, bool) or not isinstance(pin, int):
            raise t.err(button, f"must be a BCM GPIO number, got {_kind(pin)} {pin!r}")
        if pin not in BCM_PINS:
            raise t.err(button, f"GPIO{pin} does not exist: use a BCM number 0-27")
        buttons.append(ButtonSpec(name, button, pin, pull_up, active_high))
    colour = None
    if t.has("colour"):
        try:
            colour = parse_colour(t.data["colour"])
        except ValueError as e:
            raise t.err("colour", str(e)) from None
    return SeatConfig(name=name, kind=kind, buttons=tuple(buttons), colour=colour)


_STRIP_COMMON = {"backend", "count", "order", "segments"}
_STRIP_KEYS = {
    "ws281x": {"pin", "dma", "channel", "freq_hz", "invert"},
    "spi": {"spi_bus", "spi_device", "spi_hz"},
    "adalight": {"port", "baud"},
    "mcu": set(),  # the device is the [mcu] table's (firmware_bridge.config)
    "mock": set(),
    "terminal": {"width"},
}


def _strip(t: _Table) -> StripConfig:
    backend = t.str("backend", choices=BACKENDS)
    allowed = _STRIP_COMMON | _STRIP_KEYS[backend]
    t.check_keys(allowed, f"backend {backend!r} takes: {', '.join(sorted(allowed))}")
    count = t.int("count", lo=1, hi=10_000)
    order = t.str("order", "GRB" if backend in ("ws281x", "spi", "mcu") else "RGB")
    if order not in _ORDERS:
        raise t.err("order", f"{order!r} is not a colour order like 'GRB', 'RGB' or 'GRBW'")
    kw: dict[str, Any] = {}
    if backend == "ws281x":
        pin = t.int("pin", 18)
        if pin not in WS281X_PINS:
            raise t.err("pin", f"GPIO{pin} cannot drive rpi_ws281x: use 18 or 12 (PWM0), "
                        "13 or 19 (PWM1), 21 (PCM) or 10 (SPI)")
        dma = t.int("dma", 10, lo=0, hi=14)
        if dma == 5:
            raise t.err("dma", "DMA 5 is used by the SD card on current kernels and writing "
                        "to it can corrupt the card; use dma = 10")
        channel = 1 if WS281X_PINS[pin] == "PWM1" else 0
        if t.has("channel") and t.int("channel", lo=0, hi=1) != channel:
            raise t.err("channel", f"GPIO{pin} is on channel {channel}")
        kw = dict(pin=pin, dma=dma, channel=channel,
                  freq_hz=t.int("freq_hz", 800_000, lo=400_000, hi=800_000),
                  invert=t.bool("invert", False))
    elif backend == "spi":
        from hw.backends.spi import spi_timing

        hz = t.int("spi_hz", 2_400_000)
        try:
            spi_timing(hz)
        except ValueError as e:
            raise t.err("spi_hz", str(e)) from None
        if len(order) == 4:
            raise t.err("order", "the spi backend drives 3-channel WS2812 strips only")
        kw = dict(spi_bus=t.int("spi_bus", 0, lo=0, hi=6),
                  spi_device=t.int("spi_device", 0, lo=0, hi=3), spi_hz=hz)
    elif backend == "adalight":
        kw = dict(port=t.str("port"), baud=t.int("baud", 115_200, lo=1200, hi=4_000_000))
        if len(order) == 4:
            raise t.err("order", "Adalight carries RGB only; set the device's own order")
    elif backend == "mcu" and len(order) == 4:
        raise t.err("order", "the table microcontroller drives 3-channel WS2812 strips only")
    elif backend == "terminal":
        kw = dict(width=t.int("width", 60, lo=1, hi=1000))
    segments = _segments(t, count)
    return StripConfig(backend=backend, count=count, order=order, segments=segments, **kw)


def _segments(strip: _Table, count: int) -> dict[str, tuple[int, int]]:
    t = _Table(strip.src, (*strip.key, "segments"), strip.data.get("segments", {}))
    out: dict[str, tuple[int, int]] = {}
    taken: dict[int, str] = {}
    for name, span in t.data.items():
        if not (isinstance(span, list) and len(span) == 2
                and all(isinstance(x, int) and not isinstance(x, bool) for x in span)):
            raise t.err(name, "must be [first, last] LED indices (inclusive)")
        first, last = span
        if not 0 <= first <= last:
            raise t.err(name, f"[{first}, {last}]: first must be 0 or more and not after last")
        if last >= count:
            raise t.err(name, f"LED {last} is past the strip's {count} LEDs (0-{count - 1})")
        for i in range(first, last + 1):
            if i in taken:
                raise t.err(name, f"LED {i} is also in segment {taken[i]!r}")
            taken[i] = name
        out[name] = (first, last + 1)
    return out


def _pipeline(t: _Table, strip: StripConfig | None) -> PipelineConfig:
    t.check_keys({"brightness", "gamma", "ma_per_channel", "idle_ma", "budget_ma", "fps",
                  "dimming"})
    cfg = PipelineConfig(
        brightness=t.num("brightness", 1.0, lo=0, hi=1),
        gamma=t.num("gamma", 2.2, lo=1.0, hi=4.0),
        ma_per_channel=t.num("ma_per_channel", 20.0, above=0, hi=200),
        idle_ma=t.num("idle_ma", 1.0, lo=0, hi=20),
        budget_ma=t.num("budget_ma", None, above=0),
        fps=t.num("fps", 60.0, above=0, hi=1000),
    )
    dim = _Table(t.src, (*t.key, "dimming"), t.data.get("dimming", {}))
    segments = strip.segments if strip else {}
    dimming = {}
    for name in dim.data:
        if name not in segments:
            known = ", ".join(segments) or "none: add [strip.segments]"
            raise dim.err(name, f"names no segment of the strip (segments: {known})")
        dimming[name] = dim.num(name, lo=0, hi=1)
    if cfg.budget_ma is not None and strip is not None:
        idle = strip.count * cfg.idle_ma
        if cfg.budget_ma <= idle:
            raise t.err("budget_ma", (
                f"{cfg.budget_ma:g} mA does not even cover the strip's idle current "
                f"({strip.count} LEDs x {cfg.idle_ma:g} mA = {idle:g} mA)"))
    return PipelineConfig(brightness=cfg.brightness, gamma=cfg.gamma,
                          ma_per_channel=cfg.ma_per_channel, idle_ma=cfg.idle_ma,
                          budget_ma=cfg.budget_ma, fps=cfg.fps, dimming=dimming)


def _check_pins(src: TomlSource, seats: list[SeatConfig], strip: StripConfig | None) -> None:
    used: dict[int, tuple[Key, str]] = {}

    def claim(pin: int, key: Key, what: str) -> None:
        if pin in used:
            other_key, other = used[pin]
            line = src.line_of(other_key)
            at = f" (line {line})" if line else ""
            raise src.error(key, f"GPIO{pin} is used twice: here and by {other}{at}")
        used[pin] = (key, what)

    if strip is not None and strip.backend == "ws281x" and strip.pin is not None:
        claim(strip.pin, ("strip", "pin"), "strip.pin")
    spi_bus = strip.spi_bus if strip is not None and strip.backend == "spi" else None
    if strip is not None and strip.backend == "ws281x" and strip.pin == 10:
        spi_bus = 0  # rpi_ws281x's SPI mode uses SPI0 too
    if spi_bus in SPI_PINS:
        pins = SPI_PINS[spi_bus]
        for pin in pins:
            if pin not in used:
                claim(pin, ("strip", "backend"), f"the SPI strip (enabling SPI{spi_bus} takes "
                      f"GPIO{', '.join(map(str, pins))})")
    for seat in seats:
        base: Key = ("table",) if seat.kind == "table" else ("seats", seat.name)
        for b in seat.buttons:
            key = (*base, b.button)
            claim(b.pin, key, ".".join(key))
