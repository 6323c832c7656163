"""The small words the README tour showed wrong: counts with their noun, the colour a
seat is told it plays is the colour its light shows."""

from __future__ import annotations

import subprocess
from pathlib import Path

import engine
from apps.runtime import Appliance
from apps.sim import ButtonBot, ManualClock, demo_config
from apps.views import view_for
from engine.core import Action
from tests.support import TAVOLA


def test_a_count_of_one_takes_the_singular() -> None:
    from engine.core import counted

    assert [counted(n, "sail") for n in (0, 1, 2)] == ["0 sails", "1 sail", "2 sails"]


def test_a_one_sail_ship_comes_up_with_1_sail() -> None:
    state = engine.get("strozzi").new_state(3, seed=1)
    rules = state.observe().rules
    one = next(ship for ship in rules.ships.values() if ship.sails == 1)
    text = view_for("strozzi").describe_chance(state, Action(-1, f"draw {one.face}"))
    assert text.startswith("The 1-sail ship (") and text.endswith(") comes up."), text


def test_one_card_paired_is_said_in_the_singular(tmp_path: Path) -> None:
    """The README's `cards learn strozzi --keyboard`: a scanner in keyboard mode types
    the id, then the person names the card (1: the first of the list, a progress token)."""
    done = subprocess.run(
        [*TAVOLA, "cards", "learn", "strozzi", "--keyboard", "--cards", str(tmp_path / "c.toml")],
        input="0001234\n1\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert f"1 card paired; the registry is {tmp_path / 'c.toml'}." in done.stdout


def test_the_colour_a_solo_seat_is_told_is_the_colour_its_light_shows(tmp_path: Path) -> None:
    """Solo Florence reserves Orange and Blue for Strozzi: the first seat to join plays
    purple, and its light and the sentence say so; a second seat makes it blue."""
    said: list[str] = []
    config = demo_config("florence", 2, journal=tmp_path / "j.db", seed=1)
    clock = ManualClock()
    table = Appliance(config, clock=clock, button_thread=False, say=said.append)
    try:
        table.app.start()
        table.app.tick()
        bot = ButtonBot(table, clock, 1)
        bot.command("1", "select")
        purple = dict(view_for("florence").palette)["purple"]
        assert said[-1] == "Seat 1 joined as purple."
        assert table.app.frame(clock())["seat.1.status"] == purple
        bot.command("2", "select")
        assert said[-1] == "Seat 2 joined as orange. Seat 1 is blue now."
        assert (
            table.app.frame(clock())["seat.1.status"] == dict(view_for("florence").palette)["blue"]
        )
    finally:
        table.close()
