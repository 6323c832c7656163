"""A player's name: one checker, and the config file and `tavola sim` refuse the same names."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from apps import runtime
from apps.names import LONGEST, check_name, check_names
from apps.sim import demo_config_text
from hw.tomlsource import ConfigError
from tests.support import TAVOLA


def config_with(names: list[str]) -> str:
    return demo_config_text("strozzi", 3, journal=Path("/tmp/unused.db"), seed=1, names=names)


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("", "cannot be empty"),
        ("   ", "cannot be empty"),
        ("Anna\tB", "cannot be shown"),
        ("Anna\x1b[31m", "cannot be shown"),
        ("A" * (LONGEST + 1), f"at most {LONGEST}"),
        (7, "must be text"),
    ],
)
def test_a_name_nobody_could_read_is_refused(name: object, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        check_name(name, seat="1")


def test_a_name_fits_and_loses_its_spaces() -> None:
    assert check_name("  Anna  ", seat="1") == "Anna"
    assert check_name("Ö" * LONGEST, seat="1") == "Ö" * LONGEST
    assert check_name("Anna", seat="1", others={"1": "anna"}) == "Anna"  # its own old name


def test_another_seats_name_or_label_is_refused() -> None:
    with pytest.raises(ValueError, match="already the name of seat 2"):
        check_name("ANNA ", seat="1", others={"2": "Anna"})
    with pytest.raises(ValueError, match="what seat 3 is called"):
        check_name("Seat 3", seat="1", seats=["1", "2", "3"])
    with pytest.raises(ValueError, match="seat 2: 'Ben' is already the name of seat 1"):
        check_names({"1": "Ben", "2": "Ben"})


@pytest.mark.parametrize(
    ("names", "line"),
    [
        (["Anna", "anna"], "app.names.2: 'anna' is already the name of seat 1"),
        (["A" * 17], "app.names.1: '" + "A" * 17 + "' is 17 characters"),
        (["seat 2"], "app.names.1: 'seat 2' is what seat 2 is called"),
    ],
)
def test_the_config_file_refuses_them_at_the_key(names: list[str], line: str) -> None:
    text = config_with(names)
    with pytest.raises(ConfigError) as err:
        runtime.parse_text(text, name="t.toml")
    message = str(err.value)
    assert line in message
    seat = line.split(".")[2].split(":")[0]
    number = next(i for i, ln in enumerate(text.splitlines(), 1) if ln.startswith(f"{seat} = "))
    assert message.startswith(f"t.toml:{number}: ")


def test_sim_refuses_the_same_names_in_one_line(tmp_path: Path) -> None:
    proc = subprocess.run(
        [*TAVOLA, "sim", "strozzi", "--seats", "3", "--names", "Anna,Ben,anna"],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        "tavola sim: --names: seat 3: 'anna' is already the name of seat 1"
    ]
