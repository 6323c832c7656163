"""A seat without buttons (`kind = "phone"`), played from its paired phone only.

The table is driven from the test's thread (the `served` fixture's ButtonBot presses the
mocked pins of seats 1 and 2); seat 3 has no pins, and every one of its decisions is an
HTTP command from its phone, carried out while the test's thread runs the table (the
table's thread is the test's own, as in `tavola run`'s single writer).
"""

from __future__ import annotations

import json
import threading
from typing import Any

from apps.table.render import pulse
from apps.views.base import OFF, dim
from apps.web.pairing import WINDOW_S

from .conftest import Phone, Served
from .test_secrets import _plain, leaks, others_words, secrets_of


def post_pumping(s: Served, phone: Phone, path: str, body: Any = None) -> tuple[int, Any]:
    """A phone's POST answered by the table, whose thread is this one."""
    bot = s.bot
    assert bot is not None
    answer: list[tuple[int, Any]] = []
    thread = threading.Thread(target=lambda: answer.append(phone.post(path, body)))
    thread.start()
    while thread.is_alive():
        bot.pump()
        thread.join(0.01)
    s.table.watch()
    return answer[0]


def ask(s: Served, phone: Phone, seat: str = "3") -> dict[str, Any]:
    status, answer = phone.post("/api/pair", {"seat": seat})
    assert status == 201, answer
    assert s.bot is not None
    s.bot.pump()  # the table says the code and the seat
    s.table.watch()
    return answer


def said(s: Served) -> str:
    """The table's sentences as the public page shows them."""
    return " ".join(s.phone().state()["public"]["log"])


def test_a_phone_seat_pairs_only_when_someone_at_the_table_holds_menu_and_confirms(served) -> None:
    s: Served = served("strozzi", 3, phone=1)
    assert s.table.app.seats["3"].phone
    phone = s.phone()
    answer = ask(s, phone)
    assert "seat 3" in answer["say"] and "hold menu" in answer["say"]
    assert f"A phone asks to play seat 3: its code is {answer['code']}" in said(s)
    assert phone.state()["you"]["paired"] is False  # asking alone pairs nothing
    status, _ = phone.post("/api/command", {"command": "join"})
    assert status == 403
    mode = s.table.app.mode
    assert s.bot is not None
    s.bot.press("table", "menu", hold=True)  # the table asks
    s.table.watch()
    assert phone.state()["you"]["paired"] is False
    assert f"Pair phone {answer['code']} with seat 3? Menu confirms; undo refuses." in said(s)
    s.bot.press("table", "menu")  # a tap of menu confirms
    s.table.watch()
    assert phone.state()["you"]["seat"] == "3"
    assert s.table.app.mode == mode  # the hold and the tap did nothing else
    assert f"Seat 3 is paired with phone {answer['code']}." in said(s)


def test_a_hold_of_select_at_a_button_seat_confirms_the_phone_seat(served) -> None:
    s: Served = served("strozzi", 3, phone=1)
    s.page.pairings.clock = s.clock  # the window's time is the table's manual clock
    ask(s, s.phone())
    phone = s.phone()
    # the window of the first ask is still open: a second phone must wait
    assert phone.post("/api/pair", {"seat": "3"})[0] == 409
    assert s.bot is not None
    s.clock.advance(WINDOW_S + 1)  # type: ignore[attr-defined]
    answer = ask(s, phone)
    s.bot.press("1", "select", hold=True)
    s.table.watch()
    assert f"Pair phone {answer['code']} with seat 3? Select at seat 1 confirms" in said(s)
    s.bot.press("1", "select")
    s.table.watch()
    assert phone.state()["you"]["seat"] == "3"
    assert s.page.pairings.paired_seats() == ["3"]  # not seat 1's


def test_a_phone_seat_window_that_closed_pairs_nothing(served) -> None:
    s: Served = served("strozzi", 3, phone=1)
    s.page.pairings.clock = s.clock
    phone = s.phone()
    ask(s, phone)
    s.clock.advance(WINDOW_S + 1)  # type: ignore[attr-defined]
    assert s.bot is not None
    s.bot.press("table", "menu", hold=True)
    s.table.watch()
    assert phone.state()["you"]["paired"] is False
    status, _ = phone.post("/api/command", {"command": "select"})
    assert status == 403


def test_only_a_seat_without_buttons_is_asked_for_by_name(served) -> None:
    s: Served = served("strozzi", 3, phone=1)
    for seat, why in [("1", "'1' is not a seat without buttons (those: 3)"), (3, "3 is not")]:
        status, answer = s.phone().post("/api/pair", {"seat": seat})
        assert status == 400
        assert why in answer["error"]
    assert s.page.pairings.window_left() == 0  # no window opened by a refused ask


def test_a_phone_seats_phone_is_unpaired_at_the_table_by_a_hold_of_undo_while_paused(
    served,
) -> None:
    s: Served = served("strozzi", 3, phone=1)
    phone = s.phone()
    ask(s, phone)
    assert s.bot is not None
    s.bot.press("table", "menu", hold=True)
    s.bot.press("table", "menu")
    s.table.watch()
    assert phone.state()["you"]["seat"] == "3"
    app = s.table.app
    while app.mode != "playing" or not any(a.player >= 0 for a in app.state.history):  # type: ignore[union-attr]
        s.bot.advance(3)
    s.bot.press("table", "menu")  # pause
    assert s.table.app.mode == "paused"
    history = len(s.table.app.state.history)  # type: ignore[union-attr]
    s.bot.press("table", "undo", hold=True)
    s.table.watch()
    assert phone.state()["you"]["paired"] is False
    assert len(s.table.app.state.history) == history  # type: ignore[union-attr]  # no undo
    assert "Seat 3's phone is unpaired." in said(s)
    assert "Nothing to undo." not in said(s)
    s.bot.press("table", "undo")  # a tap still reaches the table (no undo while paused)
    s.table.watch()
    assert "Nothing to undo." in said(s)


def test_seat_3_plays_a_whole_strozzi_game_from_its_phone(served) -> None:
    s: Served = served("strozzi", 3, seed=4, phone=1)
    bot = s.bot
    assert bot is not None
    phone = s.phone()
    ask(s, phone)
    bot.press("table", "menu", hold=True)
    bot.press("table", "menu")
    s.table.watch()
    assert phone.state()["you"]["seat"] == "3"
    stranger = s.phone()  # never paired
    sent: list[str] = []

    def from_the_phone(command: str) -> None:
        sent.append(command)
        status, answer = post_pumping(s, phone, "/api/command", {"command": command})
        assert status == 200, answer

    bot.hands["3"] = from_the_phone

    def no_pins(seat: str, button: str, *, hold: bool) -> None:
        raise AssertionError(f"seat {seat} has no {button} button to press")

    bot._phone_press = no_pins  # type: ignore[method-assign]  # seat 3: the phone only
    watcher = s.phone()
    version = checked = 0
    refused = False
    while s.table.app.mode != "over" and bot.presses < 20_000:
        bot.advance(3)
        s.table.watch()
        state = s.table.app.state
        if state is None or state.is_over() or s.page.snapshots.latest.version == version:
            continue
        version = s.page.snapshots.latest.version
        secrets = secrets_of(s)
        public, own = watcher.state(), phone.state()
        outside = json.dumps(own["public"]) + json.dumps(own["you"])  # all but "private"
        for p, sec in secrets.items():
            assert not leaks(json.dumps(public), sec, others_words(public, p)), p
            assert not leaks(outside, sec, others_words(public, p)), p
        assert set(own["private"]) <= {"secrets", "player", "menu"}
        assert own["private"]["player"] == 2
        assert own["private"]["secrets"] == json.loads(
            json.dumps({k: _plain(v) for k, v in secrets[2].items()})
        )
        checked += 1
        if not refused and s.table.app._waiting_seat() == "3":
            # the seat has no buttons, but its LEDs prompt it as any seat's do
            app, now = s.table.app, s.clock()
            assert app.session is not None
            frame = app.frame(now)
            assert frame["seat.3.status"] == dim(app.session.colours[2], pulse(now)) != OFF
            assert frame["seat.1.status"] != frame["seat.3.status"]
            before = s.table.app.version
            status, _ = stranger.post("/api/command", {"command": "select"})
            assert status == 403  # an unpaired phone cannot act for seat 3
            assert s.table.app.version == before
            refused = True
    assert s.table.app.mode == "over", "the game did not end"
    assert refused and checked > 50
    assert s.table.app.players == ["1", "2", "3"]  # seat 3 joined from its phone
    assert sent.count("select") > 10 and bot.presses > len(sent)
