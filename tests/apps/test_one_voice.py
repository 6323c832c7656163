"""Whole games of every title, played through the table's one command path, with the
LEDs, the terminal and the phone page compared with the table's status at every step.

The people are `ButtonBot`s pressing mocked buttons (every press becomes a
`TableApp.command`); solo Florence, bot seats and both chance sources (the app draws,
or the people pick what came up) are among the games. At every step the test asks
`status()` (it must never raise) and checks that:
- the LEDs prompt exactly the seats the status says are waiting (at the top of the
  pulse, a waiting seat is lit at its full colour, every other seat at most at a third);
- the terminal's screen shows the status's headline and, for a decision, its menu line;
- the phone page's public JSON names the same seat to act and offers the same words.

What a mock cannot show: the strip's own timing; tests/system plays on a real kernel.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from apps.runtime import Appliance
from apps.screen import Screen, menu_line
from apps.sim import ButtonBot, ManualClock, demo_config
from apps.table.render import PULSE_PERIOD
from apps.table.status import ANY, Status
from apps.web.snapshot import build

GAMES = [
    # game, players, chance, bots, seed
    ("strozzi", 3, "app", 0, 1),
    ("strozzi", 4, "pick", 1, 2),
    ("florence", 1, "app", 0, 2),  # solo: Strozzi, the automa, sits at no seat
    ("florence", 3, "pick", 1, 3),
    ("strada_romana", 3, "app", 1, 4),
    ("strada_romana", 2, "pick", 0, 5),
]


ESCAPE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def peak(now: float) -> float:
    """The next moment at the top of the prompt's pulse."""
    base = (now // PULSE_PERIOD) * PULSE_PERIOD + PULSE_PERIOD / 2
    return base if base >= now else base + PULSE_PERIOD


def brightness(colour: object) -> int:
    if isinstance(colour, list):
        return max((max(c) for c in colour), default=0)
    return max(colour) if isinstance(colour, tuple) else 0


def check_leds(app, status: Status) -> None:  # type: ignore[no-untyped-def]
    """Prompted seats at their full colour at the pulse's top; others at most a third."""
    if not status.in_game or status.paused or status.over or status.scoring:
        return
    now = peak(app.clock())
    frame = app.frame(now)
    for seat in status.seats:
        if seat.seat in app.errors or seat.colour is None:
            continue  # a refusal blinks there now
        light = brightness(frame.get(f"seat.{seat.seat}.status"))
        full = max(seat.colour)
        if seat.seat in status.waiting or ANY in status.waiting:
            assert light >= full - 2, (seat, status.headline, light)
        else:
            assert light <= full // 3 + 1, (seat, status.headline, light)


def check_phone(app, status: Status) -> None:  # type: ignore[no-untyped-def]
    """The phone page's JSON: the same seat to act, the same menu words and cursor; a
    menu that tells a secret only in that seat's private JSON."""
    public, private, _players = build(app, status)
    turn = public["turn"]["seat"] if public["turn"] else None
    assert turn == (status.turn.seat if status.turn else None)
    menu = status.menu
    if menu is None:
        assert public["menu"] is None
        return
    shown = private[menu.seat]["menu"] if menu.private else public["menu"]
    assert (shown["seat"], shown["kind"], shown["options"], shown["index"]) == (
        menu.seat,
        menu.kind,
        list(menu.options),
        menu.index,
    )
    if menu.private:
        assert "options" not in public["menu"]


def check_terminal(app, status: Status) -> None:  # type: ignore[no-untyped-def]
    """`tavola sim`'s screen (120 columns): the status's headline, and the menu line of a
    decision or the bot's move, each whole once its wrapping is undone."""
    screen = Screen(seats=len(status.table_seats), width=120, height=60)
    text = " ".join(
        " ".join(ESCAPE.sub("", line).split()) for line in screen.lines(app, app.clock())
    )
    assert " ".join(status.headline.split()) in text
    menu = status.menu
    if menu is not None and menu.kind != "go_on":
        assert " ".join(menu_line(status, menu).split()) in text, menu_line(status, menu)


CHECKS: list[Callable[..., None]] = [check_leds, check_phone, check_terminal]


def play_checking(game: str, players: int, chance: str, bots: int, seed: int, tmp: Path) -> int:
    """Play one whole game; every step checked by CHECKS. Returns the steps checked."""
    config = demo_config(
        game,
        players,
        journal=tmp / "journal.db",
        seed=seed,
        chance=chance,
        bots=bots,
        bot="random",
    )
    clock = ManualClock()
    table = Appliance(config, clock=clock, button_thread=False, say=lambda text: None)
    steps = 0
    try:
        bot = ButtonBot(table, clock, seed)
        table.app.start()
        waiting_seen: set[str] = set()
        while not table.app.status().over:
            assert bot.presses < 30_000, "the game did not end"
            status = table.app.status()
            for check in CHECKS:
                check(table.app, status)
            if status.turn is not None:
                waiting_seen.add(status.turn.seat)
            steps += 1
            bot.advance(players)
        final = table.app.status()
        assert final.over and final.result, final
        people = players - bots
        assert len(waiting_seen) >= min(people, 1)
    finally:
        table.close()
    return steps


@pytest.mark.parametrize(("game", "players", "chance", "bots", "seed"), GAMES)
def test_a_whole_game_shows_one_voice(
    game: str, players: int, chance: str, bots: int, seed: int, tmp_path: Path
) -> None:
    steps = play_checking(game, players, chance, bots, seed, tmp_path)
    assert steps > 20


def test_the_led_check_fails_when_a_waiting_seat_is_dark(tmp_path: Path) -> None:
    """The LED comparison can fail: a status naming another seat as waiting."""
    import dataclasses

    config = demo_config("strozzi", 3, journal=tmp_path / "j.db", seed=1)
    clock = ManualClock()
    table = Appliance(config, clock=clock, button_thread=False, say=lambda text: None)
    try:
        bot = ButtonBot(table, clock, 1)
        table.app.start()
        while table.app.status().turn is None:
            bot.advance(3)
        status = table.app.status()
        other = next(s.seat for s in status.seats if s.seat not in status.waiting)
        wrong = dataclasses.replace(status, waiting=(other,))
        with pytest.raises(AssertionError):
            check_leds(table.app, wrong)
        check_leds(table.app, status)
    finally:
        table.close()
