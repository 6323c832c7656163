"""`kind = "phone"`: a seat with no pins, and the config refusals it brings.

A phone seat is played only from its paired phone, so a table that cannot serve the
phone page, or has no button at which someone could confirm a pairing, is refused at
start-up with the file, the line and the fix (the style of test_bad_input.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from apps import runtime
from apps.sim import ButtonBot, ManualClock, demo_config
from hw.tomlsource import ConfigError

BUTTON_SEAT = '[seats.1]\nkind = "three"\nprevious = 5\nselect = 6\nnext = 13\n'
PHONE_SEAT = '[seats.3]\nkind = "phone"\n'
TABLE = "[table]\nundo = 20\nmenu = 21\n"
STRIP = '[strip]\nbackend = "mock"\ncount = 20\n'
WEB = "[web]\nenabled = true\n"


def parse(text: str) -> runtime.Config:
    return runtime.parse_text('[buttons]\npin_factory = "mock"\n' + text, name="t.toml")


def test_a_phone_seat_has_no_buttons_and_plays_as_a_three_button_seat() -> None:
    config = parse(BUTTON_SEAT + PHONE_SEAT + TABLE + STRIP + WEB)
    seat = next(s for s in config.hw.seats if s.name == "3")
    assert (seat.kind, seat.buttons) == ("phone", ())
    assert [b.seat for b in config.hw.buttons] == ["1", "1", "1", "table", "table"]


def test_a_table_of_phone_seats_only_needs_the_menu_button() -> None:
    config = parse(PHONE_SEAT + '[seats.4]\nkind = "phone"\n' + TABLE + STRIP + WEB)
    assert [s.kind for s in config.hw.seats] == ["phone", "phone", "table"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            BUTTON_SEAT + PHONE_SEAT + TABLE + STRIP,
            "t.toml:9: seats.3.kind: seat '3' is played from a phone, but the phone page is "
            "off: add [web] enabled = true, or give the seat buttons",
        ),
        (
            BUTTON_SEAT + PHONE_SEAT + TABLE + STRIP + "[web]\nenabled = false\n",
            "t.toml:9: seats.3.kind: seat '3' is played from a phone, but the phone page is off",
        ),
        (
            PHONE_SEAT + "[table]\nundo = 20\n" + STRIP + WEB,
            "t.toml:4: seats.3.kind: a phone pairs only by a hold of a button at the table, "
            "and this table has none: add [table] menu = <GPIO>, or a seat with buttons",
        ),
        (
            PHONE_SEAT + "select = 6\n" + TABLE + STRIP + WEB,
            "t.toml:5: seats.3.select: unknown key (kind 'phone' takes: active_high, colour, "
            "kind, pull_up)",
        ),
        (
            '[seats.3]\nkind = "tablet"\n' + TABLE + STRIP + WEB,
            't.toml:4: seats.3.kind: \'tablet\' is not one of "three", "one", "phone"',
        ),
    ],
)
def test_a_phone_seat_the_table_cannot_serve_is_refused_with_its_line(
    text: str, message: str
) -> None:
    with pytest.raises(ConfigError) as err:
        parse(text)
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def test_a_mocked_table_plays_a_phone_seat_with_the_presses_its_phone_makes(
    tmp_path: Path,
) -> None:
    """`tavola sim`/`demo`'s bot: a phone seat has no pin to press, so the bot hands the
    table a three-button seat's button events (a paired phone sends the same seat's
    commands, apps/web/control.py)."""
    config = demo_config("strozzi", 3, journal=tmp_path / "j.db", seed=4, phone=1)
    clock = ManualClock()
    table = runtime.Appliance(config, clock=clock, button_thread=False)
    try:
        assert "3" not in {b.seat for b in config.hw.buttons}
        table.app.start()
        bot = ButtonBot(table, clock, 4)
        assert bot.play(3)
        assert table.app.players == ["1", "2", "3"]
        state = table.app.state
        assert state is not None and any(a.player == 2 for a in state.history)
    finally:
        table.close()
