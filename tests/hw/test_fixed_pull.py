"""GPIO2 and GPIO3 carry the board's own 1.8 kΩ pull-ups (I2C1), so a button there can only
use pull_up = true: gpiozero refuses a floating pin or a pull-down there (PinFixedPull).
The config check says so at start-up in one line with the fix, instead of a traceback from
inside gpiozero. gpiozero's MockFactory knows the Pi's pin table, fixed pulls included, so
what it refuses here is what a real Pi's pin factories refuse."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from gpiozero import Button
from gpiozero.exc import PinFixedPull
from gpiozero.pins.mock import MockFactory

from apps.sim import demo_config_text
from hw.buttons import Buttons
from hw.config import parse_config_text
from hw.tomlsource import ConfigError
from tests.support import TAVOLA

#: (seat settings, how the pin would be set, gpiozero's Button arguments for it)
WRONG = [
    ("active_high = false", "left floating", dict(pull_up=None, active_state=False)),
    ("active_high = true", "left floating", dict(pull_up=None, active_state=True)),
    ("pull_up = false", "pulled down", dict(pull_up=False)),
]


def seat(pin: int, settings: str = "") -> str:
    return f"[seats.6]\nkind = 'three'\n{settings}\nprevious = {pin}\nselect = 15\nnext = 14\n"


@pytest.mark.parametrize("pin,name", [(2, "SDA"), (3, "SCL")])
@pytest.mark.parametrize("settings,how,_", WRONG)
def test_a_floating_or_pulled_down_gpio2_or_3_is_refused_in_one_line(
    pin: int, name: str, settings: str, how: str, _: object
) -> None:
    with pytest.raises(ConfigError) as e:
        parse_config_text(seat(pin, settings), source="table.toml")
    (line,) = str(e.value).splitlines()
    assert line == (
        f"table.toml:4: seats.6.previous: GPIO{pin} ({name}) has a fixed 1.8 kΩ pull-up on "
        f"the board and cannot be {how} (gpiozero refuses it); set pull_up = true in "
        "[seats.6] and add no external resistor, or move the button"
    )


def test_the_default_pull_of_buttons_counts_too() -> None:
    with pytest.raises(ConfigError, match=r":4: seats\.6\.previous: GPIO2 .* pulled down"):
        parse_config_text(seat(2) + "[buttons]\npull_up = false\n")


@pytest.mark.parametrize("settings,_how,kwargs", WRONG)
def test_what_the_check_refuses_gpiozero_refuses(
    settings: str, _how: str, kwargs: dict[str, object]
) -> None:
    """The other side: the same pin set up the same way, in gpiozero itself."""
    factory = MockFactory()
    try:
        for pin in (2, 3):
            with pytest.raises(PinFixedPull):
                Button(pin, pin_factory=factory, **kwargs)  # type: ignore[arg-type]
        Button(4, pin_factory=factory, **kwargs).close()  # type: ignore[arg-type]
        parse_config_text(seat(4, settings))  # elsewhere the same settings are fine
    finally:
        factory.close()


def test_pull_up_true_on_gpio2_and_3_opens_in_gpiozero() -> None:
    cfg = parse_config_text(
        "[seats.6]\nkind = 'three'\nprevious = 2\nselect = 3\nnext = 15\npull_up = true\n"
    )
    factory = MockFactory()
    try:
        with Buttons(cfg, pin_factory=factory, thread=False) as b:
            assert len(b.devices) == 3
    finally:
        factory.close()


def test_tavola_run_says_it_in_one_line_and_exits_2(tmp_path: Path) -> None:
    text = demo_config_text("strozzi", 3, journal=tmp_path / "j.db", seed=1)
    text = text.replace("[seats.1]\n", "[seats.1]\nactive_high = false\n", 1)
    text = text.replace("previous = 5\n", "previous = 2\n", 1)
    config = tmp_path / "tavola.toml"
    config.write_text(text)
    out = subprocess.run(
        [*TAVOLA, "run", "--config", str(config)], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 2, out.stderr
    (line,) = out.stderr.splitlines()
    assert f"{config}:7: seats.1.previous: GPIO2 (SDA) has a fixed 1.8 kΩ pull-up" in line
    assert "set pull_up = true in [seats.1]" in line
