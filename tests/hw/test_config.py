"""The hardware config: good files parse, every kind of bad file names the key and its line."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from hw.config import (
    ConfigError,
    Timing,
    load_config,
    parse_colour,
    parse_config,
    parse_config_text,
)

GOOD = """\
[buttons]
debounce_ms = 25
glitch_ms = 2
hold_ms = 700
stuck_s = 20

[seats.1]
kind = "three"
previous = 5
select = 6
next = 13
colour = "#ff8000"

[seats.2]
kind = "one"
button = 19
pull_up = false

[table]
undo = 20
menu = 21

[strip]
backend = "ws281x"
count = 120
pin = 18
order = "GRBW"

[strip.segments]
"seat.1" = [0, 29]
"seat.2" = [30, 59]

[pipeline]
brightness = 0.5
budget_ma = 2000
fps = 30

[pipeline.dimming]
"seat.2" = 0.25

[game]
anything = "belongs to another layer"
"""


def test_a_good_file_parses(tmp_path: Path) -> None:
    p = tmp_path / "tavola.toml"
    p.write_text(GOOD)
    cfg = load_config(p)
    assert cfg.timing == Timing(debounce=0.025, glitch=0.002, hold=0.7, stuck=20.0)
    assert [s.name for s in cfg.seats] == ["1", "2", "table"]
    assert [(b.seat, b.button, b.pin) for b in cfg.buttons] == [
        ("1", "previous", 5),
        ("1", "select", 6),
        ("1", "next", 13),
        ("2", "button", 19),
        ("table", "undo", 20),
        ("table", "menu", 21),
    ]
    assert cfg.seats[0].colour == (255, 128, 0)
    assert cfg.seats[1].buttons[0].pull_up is False
    assert cfg.strip is not None
    assert (
        cfg.strip.backend,
        cfg.strip.count,
        cfg.strip.pin,
        cfg.strip.dma,
        cfg.strip.channel,
        cfg.strip.order,
    ) == ("ws281x", 120, 18, 10, 0, "GRBW")
    assert cfg.strip.segments == {"seat.1": (0, 30), "seat.2": (30, 60)}
    assert cfg.pipeline.brightness == 0.5
    assert cfg.pipeline.gamma == 2.2
    assert cfg.pipeline.ma_per_channel == 20.0
    assert cfg.pipeline.budget_ma == 2000
    assert cfg.pipeline.dimming == {"seat.2": 0.25}


def test_parse_config_takes_the_parsed_dict_with_path_and_text() -> None:
    text = GOOD.replace("previous = 5", "previous = 99")
    with pytest.raises(ConfigError) as e:
        parse_config(tomllib.loads(text), source="/etc/tavola/tavola.toml", text=text)
    assert str(e.value).startswith("/etc/tavola/tavola.toml:9: seats.1.previous:")
    assert "GPIO99 does not exist" in str(e.value)


def test_an_empty_file_means_no_hardware() -> None:
    cfg = parse_config_text("")
    assert cfg.seats == () and cfg.strip is None


def line_of(text: str, line_text: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if line == line_text)


@pytest.mark.parametrize(
    ("old", "new", "key", "words"),
    [
        ("select = 6", "select = 5", "seats.1.select", "GPIO5 is used twice"),
        ("menu = 21", "menu = 18", "table.menu", "GPIO18 is used twice"),
        ("button = 19", "button = 28", "seats.2.button", "GPIO28 does not exist"),
        ("next = 13", "next = -1", "seats.1.next", "does not exist"),
        ("next = 13", 'next = "13"', "seats.1.next", "must be a BCM GPIO number"),
        ("next = 13", "next = 13\nnxet = 4", "seats.1.nxet", "unknown key"),
        ('kind = "one"', 'kind = "two"', "seats.2.kind", "'two' is not one of"),
        ("debounce_ms = 25", "debounce = 25", "buttons.debounce", "unknown key"),
        ("stuck_s = 20", "stuck_s = 0.5", "buttons.stuck_s", "out of range"),
        ('colour = "#ff8000"', "colour = [255, 300, 0]", "seats.1.colour", "300 is out of range"),
        ('colour = "#ff8000"', 'colour = "orange"', "seats.1.colour", "not '#rrggbb'"),
        ("brightness = 0.5", "brightness = 1.5", "pipeline.brightness", "out of range"),
        ("brightness = 0.5", "brightness = true", "pipeline.brightness", "must be a number"),
        ("budget_ma = 2000", "budget_ma = 100", "pipeline.budget_ma", "idle current"),
        ('"seat.2" = 0.25', '"seat.3" = 0.25', 'pipeline.dimming."seat.3"', "names no segment"),
        ('"seat.2" = 0.25', '"seat.2" = 2', 'pipeline.dimming."seat.2"', "out of range"),
        ("pin = 18", "pin = 17", "strip.pin", "cannot drive rpi_ws281x"),
        ("pin = 18", "pin = 18\ndma = 5", "strip.dma", "corrupt"),
        ("pin = 18", "pin = 18\nport = '/dev/ttyUSB0'", "strip.port", "backend 'ws281x' takes"),
        ('order = "GRBW"', 'order = "GRX"', "strip.order", "not a colour order"),
        ('"seat.2" = [30, 59]', '"seat.2" = [29, 59]', 'strip.segments."seat.2"', "also in"),
        (
            '"seat.2" = [30, 59]',
            '"seat.2" = [30, 120]',
            'strip.segments."seat.2"',
            "past the strip",
        ),
        ('backend = "ws281x"', 'backend = "neopixel"', "strip.backend", "not one of"),
        ("count = 120", "count = 0", "strip.count", "out of range"),
        ("undo = 20", "undo = 20\nredo = 22", "table.redo", "unknown key"),
    ],
)
def test_bad_input_names_file_line_and_key(old: str, new: str, key: str, words: str) -> None:
    assert old in GOOD
    text = GOOD.replace(old, new, 1)
    with pytest.raises(ConfigError) as e:
        parse_config_text(text, source="t.toml")
    msg = str(e.value)
    last = new.splitlines()[-1]
    m = re.match(r"t\.toml:(\d+): (\S+): ", msg)
    assert m, msg
    assert int(m.group(1)) == line_of(text, last), msg
    assert m.group(2) == key, msg
    assert words in msg, msg


def test_the_second_use_of_a_pin_also_names_the_first() -> None:
    text = GOOD.replace("select = 6", "select = 5")
    with pytest.raises(ConfigError, match=r"by seats\.1\.previous \(line 9\)"):
        parse_config_text(text)


@pytest.mark.parametrize("pin", [7, 8, 9, 10, 11])
def test_a_button_on_the_spi_strip_pins_is_refused(pin: int) -> None:
    text = f"[strip]\nbackend = 'spi'\ncount = 10\n\n[seats.1]\nkind = 'one'\nbutton = {pin}\n"
    with pytest.raises(ConfigError, match=rf":7: seats\.1\.button: GPIO{pin} is used twice.*SPI0"):
        parse_config_text(text)


def test_the_demo_table_config_is_valid() -> None:
    cfg = load_config(Path(__file__).parents[2] / "hw" / "demo_table.toml")
    assert len(cfg.buttons) == 20 and cfg.strip is not None and cfg.strip.count == 300


def test_spi_clock_must_give_ws2812_timing() -> None:
    with pytest.raises(ConfigError, match=r":4: strip\.spi_hz: .*2400000"):
        parse_config_text("[strip]\nbackend = 'spi'\ncount = 10\nspi_hz = 1000000\n")


def test_missing_seat_button_and_missing_strip_count() -> None:
    with pytest.raises(ConfigError, match=r":1: seats\.1: missing key 'next'"):
        parse_config_text("[seats.1]\nprevious = 5\nselect = 6\n")
    with pytest.raises(ConfigError, match=r":1: strip: missing key 'count'"):
        parse_config_text("[strip]\nbackend = 'mock'\n")


def test_invalid_toml_and_duplicate_keys_name_the_line() -> None:
    with pytest.raises(ConfigError, match=r"t\.toml: not valid TOML: .*line 2"):
        parse_config_text("[strip]\nbackend = \n", source="t.toml")
    with pytest.raises(
        ConfigError,
        match=r"t\.toml:4: seats\.1\.select: defined twice "
        r"\(first on line 3\)",
    ):
        parse_config_text("[seats.1]\nprevious = 5\nselect = 6\nselect = 7\n", source="t.toml")


def test_unreadable_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path / "missing.toml")


def test_pull_settings() -> None:
    cfg = parse_config_text(
        "[buttons]\npull_up = false\n[seats.a]\nkind = 'one'\nbutton = 4\n"
        "[seats.b]\nkind = 'one'\nbutton = 17\nactive_high = false\n"
    )
    a, b = cfg.buttons
    assert (a.pull_up, a.active_high) == (False, None)
    assert (b.pull_up, b.active_high) == (None, False)  # external resistor, active low
    with pytest.raises(ConfigError, match=r":4: seats\.a\.active_high: pull_up = true makes"):
        parse_config_text(
            "[seats.a]\nkind = 'one'\nbutton = 4\nactive_high = true\npull_up = true\n"
        )


def test_parse_colour() -> None:
    assert parse_colour("#00ff7f") == (0, 255, 127)
    assert parse_colour([1, 2, 3]) == (1, 2, 3)
    for bad in ("#fff", [1, 2], [1, 2, 256], [1.0, 2, 3], "red", None):
        with pytest.raises(ValueError):
            parse_colour(bad)
