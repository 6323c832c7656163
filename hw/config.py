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

    [seats.3]
    kind = "phone"          # no pins: this seat has no buttons

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
    budget_ma = 3000
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hw.backends import MODULES, backend, backends
from hw.pins import SPI_PINS, gpio
from hw.schema import (
    Bool,
    Choice,
    Custom,
    Int,
    Key,
    Number,
    Section,
    Table,
    Variants,
)
from hw.tomlsource import ConfigError, TomlSource
from hw.tomlsource import Key as KeyPath

__all__ = [
    "BACKENDS",
    "BUTTONS_BY_KIND",
    "TABLES",
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

BUTTONS_BY_KIND: dict[str, tuple[str, ...]] = {
    "three": ("previous", "select", "next"),
    "one": ("button",),
    "phone": (),  # no buttons at all: the seat is played from elsewhere (hw does not say where)
}
TABLE_BUTTONS = ("undo", "menu")
TABLE_SEAT = "table"
BACKENDS = tuple(MODULES)
PIN_FACTORIES = ("mock", "lgpio", "rpigpio", "pigpio", "native")
#: Pins with a pull-up resistor on the board itself (I2C1's 1.8 kΩ to 3.3 V): gpiozero
#: refuses to float them or pull them down (PinFixedPull), so only pull_up = true works.
FIXED_PULL_UP = {2: "SDA", 3: "SCL"}
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
    kind: str  # "three", "one", "phone" (no buttons) or "table"
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
    spi_hz: int = 3_200_000
    port: str | None = None
    baud: int = 115_200
    #: adalight: wait this long after opening for the board's `Ada` greeting (0: do not)
    greeting_s: float = 0.0
    #: send the current frame again this often, for devices that forget it (None: never)
    keepalive_s: float | None = None
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


def parse_colour(value: Any) -> RGB:
    """ "#rrggbb" or [r, g, b] with channels 0-255; ValueError otherwise (message says which)."""
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


# --- the schema of hw's tables ------------------------------------------------------------
def _order(value: Any) -> str:
    if not isinstance(value, str) or value not in _ORDERS:
        raise ValueError(f"{value!r} is not a colour order like 'GRB', 'RGB' or 'GRBW'")
    return value


def _span_of(value: Any) -> tuple[int, int]:
    if not (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(x, int) and not isinstance(x, bool) for x in value)
    ):
        raise ValueError("must be [first, last] LED indices (inclusive)")
    first, last = value
    if not 0 <= first <= last:
        raise ValueError(f"[{first}, {last}]: first must be 0 or more and not after last")
    return first, last


GPIO = Custom("a BCM GPIO number 0-27", gpio)
COLOUR = Custom("'#rrggbb' or [r, g, b]", parse_colour)
_PULL = (
    Key("pull_up", Bool(), None, "true: the Pi's pull-up (pressed = low); false: pull-down"),
    Key("active_high", Bool(), None, "with an external resistor and no pull_up: pressed = high"),
)
BUTTONS = Table(
    Key(
        "debounce_ms",
        Number(lo=0, hi=1000),
        20,
        "a release counts once the contact has stayed open this long",
    ),
    Key(
        "glitch_ms",
        Number(lo=0, hi=100),
        1,
        "a press counts once the contact has stayed closed this long",
    ),
    Key("hold_ms", Number(lo=50, hi=60_000), 600, "held this long: long_press"),
    Key("stuck_s", Number(lo=1, hi=3600), 30, "held this long: reported once as stuck"),
    Key("pin_factory", Choice(PIN_FACTORIES), None, "gpiozero's pin factory"),
    *_PULL,
)
SEAT = Variants(
    Key(
        "kind",
        Choice(tuple(BUTTONS_BY_KIND)),
        "three",
        "three buttons, one (tap and hold), or phone (no buttons)",
    ),
    common=(Key("colour", COLOUR, None, "the seat's colour"), *_PULL),
    by={
        kind: Table(*(Key(b, GPIO, help="the GPIO number of that button") for b in names))
        for kind, names in BUTTONS_BY_KIND.items()
    },
)
SEATS = Table(
    rest=SEAT,
    rest_name="seat name: letters, digits, '-' or '_' (and not 'table')",
    rest_pattern=r"(?!table$)[A-Za-z0-9_-]+",
)
TABLE_KEYS = Table(
    *(Key(b, GPIO, None, f"the {b} button's GPIO number") for b in TABLE_BUTTONS), *_PULL
)
SEGMENTS = Table(
    rest=Custom("[first, last] LED indices (inclusive)", _span_of), rest_name="segment name"
)
STRIP = Variants(
    Key("backend", Choice(BACKENDS), help='which LEDs to drive, e.g. backend = "mock"'),
    common=(
        Key("count", Int(lo=1, hi=10_000), help="how many LEDs"),
        Key("order", Custom("a colour order like 'GRB'", _order), None),
        Key("segments", SEGMENTS, {}),
    ),
    by={name: b.keys for name, b in backends().items()},
)
PIPELINE = Table(
    Key("brightness", Number(lo=0, hi=1), 1.0),
    Key("gamma", Number(lo=1.0, hi=4.0), 2.2),
    Key("ma_per_channel", Number(above=0, hi=200), 20.0),
    Key("idle_ma", Number(lo=0, hi=20), 1.0),
    Key("budget_ma", Number(above=0, hi=1_000_000), None),
    Key("fps", Number(above=0, hi=1000), 60.0),
    Key("dimming", Table(rest=Number(lo=0, hi=1), rest_name="segment name"), {}),
)
#: hw's tables of the config file; the rest of the file belongs to other layers
TABLES: dict[str, Table | Variants] = {
    "buttons": BUTTONS,
    "seats": SEATS,
    "table": TABLE_KEYS,
    "strip": STRIP,
    "pipeline": PIPELINE,
}


def _parse(src: TomlSource) -> HwConfig:
    data = src.data
    b = BUTTONS.read(src, ("buttons",), data.get("buttons", {}))
    timing = Timing(
        debounce=b["debounce_ms"] / 1000,
        glitch=b["glitch_ms"] / 1000,
        hold=b["hold_ms"] / 1000,
        stuck=b["stuck_s"],
    )
    if timing.stuck <= timing.hold:
        raise b.err("stuck_s", "must be longer than hold_ms")
    if timing.hold <= max(timing.debounce, timing.glitch):
        raise b.err("hold_ms", "must be longer than debounce_ms and glitch_ms")
    default_pull = _pull(b, (True, None))

    seats: list[SeatConfig] = []
    for name, seat in SEATS.read(src, ("seats",), data.get("seats", {})).items():
        seats.append(_seat(seat, name, default_pull))
    if "table" in data:
        table = TABLE_KEYS.read(src, ("table",), data["table"])
        seats.append(_seat(table, TABLE_SEAT, default_pull))

    strip = _strip(STRIP.read(src, ("strip",), data["strip"])) if "strip" in data else None
    pipeline = _pipeline(PIPELINE.read(src, ("pipeline",), data.get("pipeline", {})), strip)
    _check_pins(src, seats, strip)
    return HwConfig(
        source=src.name,
        seats=tuple(seats),
        timing=timing,
        pin_factory=b["pin_factory"],
        strip=strip,
        pipeline=pipeline,
    )


def _pull(t: Section, default: tuple[bool | None, bool | None]) -> tuple[bool | None, bool | None]:
    """(pull_up, active_high): an explicit active_high alone means an external resistor."""
    pull_up, active_high = t["pull_up"], t["active_high"]
    if pull_up is None and active_high is None:
        return default
    if active_high is None:
        return pull_up, None
    if pull_up is None:
        return None, active_high
    if pull_up == active_high:
        raise t.err(
            "active_high",
            (
                f"pull_up = {str(pull_up).lower()} makes the button active "
                f"{'low' if pull_up else 'high'}; drop active_high, or drop pull_up to use an "
                "external resistor"
            ),
        )
    return pull_up, None


def _seat(t: Section, name: str, default_pull: tuple[bool | None, bool | None]) -> SeatConfig:
    kind = "table" if name == TABLE_SEAT else t["kind"]
    names = TABLE_BUTTONS if kind == "table" else BUTTONS_BY_KIND[kind]
    pull_up, active_high = _pull(t, default_pull)
    buttons = tuple(
        ButtonSpec(name, b, t[b], pull_up, active_high) for b in names if t[b] is not None
    )
    return SeatConfig(name=name, kind=kind, buttons=buttons, colour=t.get("colour"))


def _strip(t: Section) -> StripConfig:
    b = backend(t["backend"])
    count = t["count"]
    order = t["order"] or b.default_order
    if len(order) not in b.channels:
        raise t.err("order", b.channels_help)
    kw = b.settings(t, b.keys)
    segments = _segments(t["segments"], count)
    return StripConfig(backend=b.name, count=count, order=order, segments=segments, **kw)


def _segments(t: Section, count: int) -> dict[str, tuple[int, int]]:
    out: dict[str, tuple[int, int]] = {}
    taken: dict[int, str] = {}
    for name, (first, last) in t.items():
        if last >= count:
            raise t.err(name, f"LED {last} is past the strip's {count} LEDs (0-{count - 1})")
        for i in range(first, last + 1):
            if i in taken:
                raise t.err(name, f"LED {i} is also in segment {taken[i]!r}")
            taken[i] = name
        out[name] = (first, last + 1)
    return out


def _pipeline(t: Section, strip: StripConfig | None) -> PipelineConfig:
    segments = strip.segments if strip else {}
    dim = t["dimming"]
    for name in dim:
        if name not in segments:
            known = ", ".join(segments) or "none: add [strip.segments]"
            raise dim.err(name, f"names no segment of the strip (segments: {known})")
    budget = t["budget_ma"]
    if budget is not None and strip is not None:
        idle = strip.count * t["idle_ma"]
        if budget <= idle:
            raise t.err(
                "budget_ma",
                (
                    f"{budget:g} mA does not even cover the strip's idle current "
                    f"({strip.count} LEDs x {t['idle_ma']:g} mA = {idle:g} mA)"
                ),
            )
    return PipelineConfig(
        brightness=t["brightness"],
        gamma=t["gamma"],
        ma_per_channel=t["ma_per_channel"],
        idle_ma=t["idle_ma"],
        budget_ma=budget,
        fps=t["fps"],
        dimming=dict(dim),
    )


def _check_pins(src: TomlSource, seats: list[SeatConfig], strip: StripConfig | None) -> None:
    used: dict[int, tuple[KeyPath, str]] = {}

    def claim(pin: int, key: KeyPath, what: str) -> None:
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
                claim(
                    pin,
                    ("strip", "backend"),
                    f"the SPI strip (enabling SPI{spi_bus} takes GPIO{', '.join(map(str, pins))})",
                )
    for seat in seats:
        base: KeyPath = ("table",) if seat.kind == "table" else ("seats", seat.name)
        for b in seat.buttons:
            key = (*base, b.button)
            claim(b.pin, key, ".".join(key))
            if b.pin in FIXED_PULL_UP and b.pull_up is not True:
                how = "pulled down" if b.pull_up is False else "left floating"
                raise src.error(
                    key,
                    (
                        f"GPIO{b.pin} ({FIXED_PULL_UP[b.pin]}) has a fixed 1.8 kΩ pull-up on the "
                        f"board and cannot be {how} (gpiozero refuses it); set pull_up = true in "
                        f"[{'.'.join(base)}] and add no external resistor, or move the button"
                    ),
                )
