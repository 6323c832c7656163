"""Every endpoint of the phone page over real HTTP, and every refusal as one JSON error."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import threading
import time
import tomllib
from pathlib import Path
from typing import Any

import pytest

from apps import runtime
from apps.sim import demo_config_text
from apps.web.config import WebConfig
from apps.web.pairing import WINDOW_S
from apps.web.server import LIMITS, MAX_BODY, PhonePage
from engine.core import CHANCE
from hw.tomlsource import ConfigError

from .conftest import Phone, Served, read_events, to_lay_out

STATIC = ("/", "/static/app.js", "/static/style.css")


def start_game(s: Served, seats: tuple[str, ...] = ("1", "2", "3")) -> dict[str, Any]:
    """Seats join by their buttons, menu starts, select says the board is laid out."""
    for seat in seats:
        s.press(seat, "select")
    s.press("table", "menu")
    s.wait(to_lay_out)
    s.press(seats[0], "select")
    return s.wait(lambda v: v["public"]["mode"] == "playing" and v["public"]["turn"])


def json_error(status: int, body: bytes) -> str:
    """A refusal is one JSON object with one sentence, never a traceback."""
    answer = json.loads(body)
    assert set(answer) == {"error"}, answer
    assert "Traceback" not in answer["error"] and "\n" not in answer["error"]
    assert status >= 400
    return answer["error"]


# --- watching -------------------------------------------------------------------------------
def test_watching_needs_no_login_and_the_page_is_small(served) -> None:
    s = served(run=True)
    phone = s.phone()
    total = 0
    for path in STATIC:
        status, headers, body = phone.request("GET", path)
        assert status == 200
        assert "default-src 'self'" in headers["Content-Security-Policy"]
        total += len(body)
    status, _, html = phone.request("GET", "/")
    assert b'<script src="/static/app.js"' in html and b"http" not in html.split(b"<body>")[1]
    assert total <= 200 * 1024, f"first load {total} bytes"
    view = phone.state()
    assert view["you"] == {
        "seat": None,
        "paired": False,
        "asked": False,
        "waiting": False,
        "code": None,
    }
    assert view["private"] is None
    assert view["public"]["mode"] == "seating"
    assert view["public"]["prompt"].startswith("Seating: select at a seat joins")


def test_the_public_state_shows_the_turn_the_menu_the_log_and_the_board(served) -> None:
    s = served(run=True, names=("Anna",))
    view = start_game(s)
    pub = view["public"]
    assert pub["title"] == "Strozzi"
    assert pub["turn"]["name"] in ("Anna", "seat 2", "seat 3")
    assert pub["turn"]["colour"].startswith("#") and pub["turn"]["colour_name"]
    assert pub["prompt"] and pub["log"] and pub["last"].startswith("#")
    assert pub["menu"]["options"] and pub["menu"]["seat"] == pub["turn"]["seat"]
    assert pub["svg"].startswith("<svg")
    assert [x["name"] for x in pub["seats"]] == ["Anna", "seat 2", "seat 3"]
    assert any("Set up the board" in line for line in pub["log"])  # the checklist, joined


def test_events_push_every_change_and_resume_from_last_event_id(served) -> None:
    s = served(run=True)
    first = read_events(s.page.port, 1)
    (version, view) = first[0]
    assert version is not None and int(version) == view["public"]["version"]
    s.press("1", "select")  # seat 1 joins
    s.wait(lambda v: v["public"]["version"] > int(version))
    # reconnecting with the version it had, a page gets what is newer, at once
    (newer, view) = read_events(s.page.port, 1, headers={"Last-Event-ID": version})[0]
    assert int(newer) > int(version)
    assert view["public"]["joined"] == ["1"]


def test_a_page_already_up_to_date_gets_no_repeat(served) -> None:
    s = served(run=True)
    version = str(s.phone().state()["public"]["version"])
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", s.page.port, timeout=1.5)
    conn.request("GET", "/api/events", headers={"Last-Event-ID": version})
    response = conn.getresponse()
    lines = []
    with pytest.raises((TimeoutError, socket.timeout)):
        while True:
            lines.append(response.fp.readline())
    conn.close()
    assert not any(line.startswith(b"data:") for line in lines), lines


# --- pairing --------------------------------------------------------------------------------
def test_a_phone_pairs_by_a_hold_at_its_seat_then_a_confirmation_of_its_code(served) -> None:
    s = served(run=True)
    phone = s.phone()
    status, answer = phone.post("/api/pair")
    assert status == 201
    code = answer["code"]
    assert len(code) == 4 and code.isdigit()
    assert "tap select to confirm" in answer["say"]
    cookie = next(c for c in phone.jar)
    assert cookie.name == "tavola_phone" and len(cookie.value) >= 40
    assert cookie.has_nonstandard_attr("HttpOnly")
    view = s.wait(lambda v: v["public"]["pairing"]["open"], phone)
    assert view["you"]["asked"] and view["you"]["waiting"] and not view["you"]["paired"]
    # the table says the code and the gesture
    said = " ".join(view["public"]["log"])
    assert f"its code is {code}" in said and "hold select at your seat" in said
    # still unpaired: a command is refused
    status, refused = phone.post("/api/command", {"command": "select"})
    assert status == 403 and "not paired yet" in refused["error"]
    # the hold only asks, naming the code and the seat
    s.press("2", "select", hold=True)
    view = s.wait(lambda v: v["public"]["pairing"]["asking"] == "2", phone)
    assert not view["you"]["paired"]
    assert (
        view["public"]["log"][-1]
        == f"Pair phone {code} with seat 2? Select confirms; next refuses."
    )
    s.press("2", "select")  # the answer: select confirms
    view = s.wait(lambda v: v["you"]["paired"], phone)
    assert view["you"]["seat"] == "2" and not view["you"]["waiting"]
    assert f"Seat 2 is paired with phone {code}." in view["public"]["log"]
    assert view["public"]["pairing"] == {**view["public"]["pairing"], "open": False, "asking": None}
    # neither the hold nor the answer acted in the game: seat 2 did not join
    assert view["public"]["joined"] == []


def test_a_hold_of_select_alone_no_longer_pairs(served) -> None:
    """Before: the next hold of select at any seat while a window was open (a person
    going back up a menu) paired the phone that asked."""
    s = served(run=True)
    phone = s.phone()
    assert phone.post("/api/pair")[0] == 201
    changes = s.wait(lambda v: v["public"]["pairing"]["open"])["public"]["pairing"]["changes"]
    s.press("1", "select", hold=True)
    view = s.wait(lambda v: v["public"]["pairing"]["changes"] > changes, phone)  # handled
    assert not view["you"]["paired"]
    assert s.page.pairings.paired_seats() == []


def test_refusing_at_the_seat_leaves_the_phone_unpaired_and_closes_the_window(served) -> None:
    s = served(run=True)
    phone = s.phone()
    status, answer = phone.post("/api/pair")
    assert status == 201
    s.wait(lambda v: v["public"]["pairing"]["open"])
    s.press("3", "select", hold=True)
    s.wait(lambda v: v["public"]["pairing"]["asking"] == "3")
    s.press("3", "next")  # next refuses
    view = s.wait(lambda v: not v["public"]["pairing"]["open"], phone)
    assert f"Phone {answer['code']} is not paired: refused at seat 3." in view["public"]["log"]
    assert not view["you"]["paired"] and s.page.pairings.paired_seats() == []
    s.press("3", "select", hold=True)  # the window is gone: a hold is the game's again
    s.press("3", "select")  # and a tap joins
    view = s.wait(lambda v: v["public"]["joined"] == ["3"], phone)
    assert not view["you"]["paired"]


def test_asking_again_does_not_extend_the_window(served) -> None:
    """Before: a phone re-asking kept a window open for the next hold at any seat."""
    s = served()
    s.page.pairings.clock = s.clock  # the window's time is the table's manual clock
    phone = s.phone()
    status, first = phone.post("/api/pair")
    assert status == 201 and first["seconds"] == WINDOW_S
    s.clock.advance(40)  # type: ignore[attr-defined]
    status, again = phone.post("/api/pair")
    assert status == 201 and again["code"] == first["code"]
    assert again["seconds"] == WINDOW_S - 40  # the same window, not a new or longer one
    assert s.phone().post("/api/pair")[0] == 409  # another phone still waits
    s.clock.advance(WINDOW_S - 40 + 1)  # type: ignore[attr-defined]
    assert s.page.pairings.window_left() == 0
    assert s.bot is not None
    s.bot.pump()
    s.bot.press("1", "select", hold=True)  # the window has closed: no question
    s.bot.press("1", "select")
    s.table.watch()
    assert s.page.pairings.asking() is None
    assert not phone.state()["you"]["paired"]


def test_a_question_left_unanswered_pairs_nothing(served) -> None:
    from apps.web.pairing import QUESTION_S

    s = served()
    s.page.pairings.clock = s.clock
    phone = s.phone()
    assert phone.post("/api/pair")[0] == 201
    assert s.bot is not None
    s.bot.pump()
    s.bot.press("2", "select", hold=True)
    assert s.page.pairings.asking() == "2"
    s.clock.advance(QUESTION_S + 1)  # type: ignore[attr-defined]
    assert s.page.pairings.asking() is None and s.page.pairings.window_left() == 0
    s.bot.press("2", "select")  # too late: a tap of select acts in the game (seat 2 joins)
    s.table.watch()
    view = phone.state()
    assert not view["you"]["paired"] and view["public"]["joined"] == ["2"]


def test_a_one_button_seat_confirms_by_a_hold_and_refuses_by_a_tap(served) -> None:
    s = served(one_button=3)
    bot = s.bot
    assert bot is not None and s.table.app.seats["1"].one_button
    for yes in (False, True):
        phone = s.phone()
        status, answer = phone.post("/api/pair")
        assert status == 201
        bot.pump()
        bot.press("1", "button", hold=True)
        s.table.watch()
        assert phone.state()["public"]["log"][-1] == (
            f"Pair phone {answer['code']} with seat 1? Hold the button to confirm; a tap refuses."
        )
        bot.press("1", "button", hold=yes)
        s.table.watch()
        view = phone.state()
        assert view["you"]["paired"] is yes
        assert view["public"]["joined"] == []  # no press of the pairing acted in the game


def test_the_set_cookie_header_is_httponly_and_samesite_strict(served) -> None:
    s = served(run=True)
    status, headers, _ = s.phone().request("POST", "/api/pair", {}, headers={"X-Tavola": "1"})
    assert status == 201
    cookie = headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie


def test_a_tap_during_the_pairing_window_still_acts(served) -> None:
    s = served(run=True)
    s.phone().post("/api/pair")
    s.wait(lambda v: v["public"]["pairing"]["open"])
    s.press("1", "select")  # a tap: seat 1 joins, as always
    view = s.wait(lambda v: v["public"]["joined"] == ["1"])
    assert view["public"]["pairing"]["open"]  # and the window stays open


def test_one_pairing_window_at_a_time(served) -> None:
    s = served(run=True)
    assert s.phone().post("/api/pair")[0] == 201
    status, _, body = s.phone().request("POST", "/api/pair", {}, headers={"X-Tavola": "1"})
    assert status == 409
    assert "another phone is pairing" in json_error(status, body)
    assert WINDOW_S == 60.0


def test_pairing_another_phone_to_a_seat_replaces_the_first(served) -> None:
    s = served(run=True)
    first = s.pair("1")
    second = s.pair("1")
    assert second.state()["you"]["seat"] == "1"
    assert not first.state()["you"]["paired"]


def test_a_paired_seat_unpairs_at_the_table_by_a_hold_while_paused(served) -> None:
    s = served(run=True)
    start_game(s)
    phone = s.pair("1")
    assert phone.post("/api/command", {"command": "pause"})[0] == 200
    s.wait(lambda v: v["public"]["mode"] == "paused")
    s.press("1", "select", hold=True)
    view = s.wait(lambda v: not v["you"]["paired"], phone)
    assert any("Seat 1's phone is unpaired" in line for line in view["public"]["log"])
    status, answer = phone.post("/api/command", {"command": "pause"})
    assert status == 403 and "pair this phone" in answer["error"]


def test_a_phone_unpairs_itself(served) -> None:
    s = served(run=True)
    phone = s.pair("3")
    assert phone.post("/api/unpair") == (200, {"ok": True})
    assert not phone.state()["you"]["paired"]
    assert phone.post("/api/unpair")[0] == 403


# --- control --------------------------------------------------------------------------------
def test_a_seat_plays_from_its_phone_with_the_buttons_words(served) -> None:
    s = served(run=True)
    view = start_game(s)
    seat = view["public"]["turn"]["seat"]
    phone = s.pair(seat)
    view = phone.state()
    menu = view["public"]["menu"]
    before = len(view["public"]["log"])
    word = menu["options"][-1]
    # the cursor moves first: the table previews the choice, the page shows it lit
    status, _ = phone.post(
        "/api/command",
        {"command": "cursor", "index": len(menu["options"]) - 1, "board": view["public"]["board"]},
    )
    assert status == 200
    view = s.wait(
        lambda v: v["public"]["menu"] and v["public"]["menu"]["index"] == len(menu["options"]) - 1,
        phone,
    )
    status, _ = phone.post(
        "/api/command",
        {"command": "choose", "index": len(menu["options"]) - 1, "board": view["public"]["board"]},
    )
    assert status == 200
    view = s.wait(lambda v: len(v["public"]["log"]) > before, phone)
    text = " ".join(view["public"]["log"][before:])
    assert word in text or (view["public"]["menu"] and view["public"]["menu"]["prefix"] == [word])


def test_the_wrong_seat_is_refused_and_nothing_changes(served) -> None:
    s = served(run=True)
    view = start_game(s)
    turn = view["public"]["turn"]["seat"]
    other = next(x for x in ("1", "2", "3") if x != turn)
    phone = s.pair(other)
    view = phone.state()
    version = s.table.app.version
    status, answer = phone.post(
        "/api/command", {"command": "choose", "index": 0, "board": view["public"]["board"]}
    )
    assert status == 409
    assert f"seat {turn}'s turn" in answer["error"]
    assert s.table.app.version == version


def test_what_the_table_refuses_answers_409_with_its_own_sentence(served) -> None:
    """The answer comes once the table has acted: a press it refuses is a 409 with the
    sentence the table says (and flashes the seat's light for), never a 200."""
    s = served(run=True)
    view = start_game(s)
    turn = view["public"]["turn"]["seat"]
    other = next(x for x in ("1", "2", "3") if x != turn)
    phones = {seat: s.pair(seat) for seat in (turn, other)}
    before = s.table.app.state.history[:]
    refusals = [
        (other, {"command": "select"}, f"It is seat {turn}'s turn. "),
        (turn, {"command": "back"}, "Already at the top."),  # nothing chosen yet
        (turn, {"command": "go_on"}, "There is nothing to go on from: choose with the menu"),
        (turn, {"command": "choose", "index": 9, "board": view["public"]["board"]}, "No choice"),
    ]
    for seat, command, why in refusals:
        status, answer = phones[seat].post("/api/command", command)
        assert status == 409 and answer["error"].startswith(why), (command, answer)
        why = answer["error"]
        line = f"Seat {seat}: {why[:1].lower()}{why[1:]}"  # said at the table, as a press's
        s.wait(lambda v, line=line: line in v["public"]["log"])
    status, answer = phones[turn].post("/api/command", {"command": "choose"})
    assert status == 400 and "needs an index" in answer["error"]
    assert s.table.app.state.history == before


def test_an_undo_past_a_draw_everybody_saw_is_refused_in_the_tables_words(served) -> None:
    s = served(run=True)
    view = start_game(s)
    # the setup's last draw, seen, and said in words (not in notation)
    last = view["public"]["last"]
    assert s.table.app.state.history[-1].player == CHANCE and "draw:" not in last, last
    assert last.split()[1] == "The", last  # e.g. '#4 The ship 4 gold2 ... comes up.'

    phone = s.pair(view["public"]["turn"]["seat"])
    history = s.table.app.state.history[:]
    status, answer = phone.post("/api/command", {"command": "undo"})
    assert status == 409
    why = answer["error"]
    assert re.fullmatch(
        r"'draw .+' cannot be undone: it was a draw, and what came up has been seen\.", why
    )
    assert s.table.app.state.history == history
    s.wait(lambda v: v["public"]["log"][-1] == why)  # said at the table too


def test_a_choice_is_confirmed_before_the_phone_is_answered(served) -> None:
    s = served(run=True)
    view = start_game(s)
    phone = s.pair(view["public"]["turn"]["seat"])
    menu = view["public"]["menu"]
    assert menu["kind"] == "game" and menu["decision"] is True
    count = len(s.table.app.state.history)
    pick = len(menu["options"]) - 1
    status, answer = phone.post(
        "/api/command", {"command": "choose", "index": pick, "board": view["public"]["board"]}
    )
    assert (status, answer) == (200, {"ok": True})
    assert len(s.table.app.state.history) == count + 1  # already taken, journal first
    assert s.table.app.state.history[-1].text == menu["options"][pick]


def test_a_choice_made_on_an_old_board_is_refused(served) -> None:
    s = served(run=True)
    view = start_game(s)
    phone = s.pair(view["public"]["turn"]["seat"])
    status, answer = phone.post(
        "/api/command", {"command": "choose", "index": 0, "board": view["public"]["board"] - 1}
    )
    assert status == 409 and "The board changed" in answer["error"]


def test_undo_pause_and_new_game_from_a_phone(served) -> None:
    s = served(run=True)
    view = start_game(s)
    seat = view["public"]["turn"]["seat"]
    phone = s.pair(seat)
    view = phone.state()
    menu = view["public"]["menu"]
    index = menu["options"].index("pass") if "pass" in menu["options"] else 0
    before = s.table.app.state.history[:]
    phone.post(
        "/api/command", {"command": "choose", "index": index, "board": view["public"]["board"]}
    )
    s.wait(lambda v: v["public"]["last"] != view["public"]["last"], phone)
    assert phone.post("/api/command", {"command": "undo"})[0] == 200
    view = s.wait(lambda v: any(x.startswith("Undone:") for x in v["public"]["log"]), phone)
    assert s.table.app.state.history == before
    assert phone.post("/api/command", {"command": "pause"})[0] == 200
    s.wait(lambda v: v["public"]["mode"] == "paused", phone)
    status, answer = phone.post("/api/command", {"command": "choose", "index": 0})
    assert status == 409 and "nothing to choose" in answer["error"]
    assert phone.post("/api/command", {"command": "pause"})[0] == 200
    s.wait(lambda v: v["public"]["mode"] == "playing", phone)
    assert phone.post("/api/command", {"command": "new"})[0] == 200
    view = s.wait(lambda v: v["public"]["mode"] == "seating", phone)
    assert any("Game ended without scoring" in x for x in view["public"]["log"])


def test_seats_join_and_start_from_their_phones(served) -> None:
    s = served(run=True)
    phones = [s.pair(seat) for seat in ("1", "2", "3")]
    for phone in phones:
        assert phone.post("/api/command", {"command": "join"}) == (200, {"ok": True})
    s.wait(lambda v: v["public"]["joined"] == ["1", "2", "3"])
    assert phones[0].post("/api/command", {"command": "start"})[0] == 200
    s.wait(lambda v: v["public"]["mode"] == "setup")


def test_the_card_that_came_up_is_entered_from_a_phone(served) -> None:
    """chance = "pick": the table waits for the draw; any paired seat enters it."""
    s = served(run=True, chance="pick")
    for seat in ("1", "2", "3"):
        s.press(seat, "select")
    s.press("table", "menu")
    view = s.wait(lambda v: v["public"]["mode"] == "setup" and v["public"]["menu"])
    menu = view["public"]["menu"]
    assert menu["seat"] == "*"
    phone = s.pair("2")
    count = len(s.table.app.state.history)
    status, _ = phone.post(
        "/api/command", {"command": "choose", "index": 0, "board": phone.state()["public"]["board"]}
    )
    assert status == 200
    deadline = time.monotonic() + 10
    while len(s.table.app.state.history) == count and time.monotonic() < deadline:
        view = phone.state()  # a word with words below it opens them: choose on
        menu = view["public"]["menu"]
        if menu and menu["prefix"]:
            board = view["public"]["board"]
            phone.post("/api/command", {"command": "choose", "index": 0, "board": board})
    assert len(s.table.app.state.history) > count
    assert s.table.app.state.history[count].player == CHANCE


# --- refusals -------------------------------------------------------------------------------
def test_unpaired_requests_are_refused(served) -> None:
    s = served(run=True)
    phone = s.phone()
    for path, body in (("/api/command", {"command": "undo"}), ("/api/settings", {})):
        status, _, raw = phone.request("POST", path, body, headers={"X-Tavola": "1"})
        assert status == 403
        assert "pair this phone" in json_error(status, raw)


@pytest.mark.parametrize(
    ("headers", "why"),
    [
        ({}, "X-Tavola: 1 header"),
        ({"X-Tavola": "1", "Origin": "http://evil.example"}, "origin http://evil.example"),
        ({"X-Tavola": "1", "Sec-Fetch-Site": "cross-site"}, "cross-site request"),
    ],
)
def test_writes_without_the_csrf_checks_are_refused(served, headers, why) -> None:
    s = served(run=True)
    phone = s.pair("1")
    status, _, raw = phone.request("POST", "/api/command", {"command": "undo"}, headers=headers)
    assert status == 403
    assert why in json_error(status, raw)


def test_the_same_origin_passes_the_csrf_check(served) -> None:
    s = served(run=True)
    phone = s.pair("1")
    origin = f"http://127.0.0.1:{s.page.port}"
    status, _, raw = phone.request(
        "POST", "/api/command", {"command": "undo"}, headers={"X-Tavola": "1", "Origin": origin}
    )
    assert status == 409 and "Nothing to undo" in json_error(status, raw)


@pytest.mark.parametrize(
    ("raw", "content_type", "status", "why"),
    [
        (b"{not json", "application/json", 400, "not JSON"),
        (b"[1, 2]", "application/json", 400, "JSON object"),
        (b"command=undo", "application/x-www-form-urlencoded", 415, "send JSON"),
        (b'{"command": "fly"}', "application/json", 400, "unknown command 'fly'"),
        (b'{"command": 3}', "application/json", 400, "say which command"),
        (b'{"command": "choose", "index": "0"}', "application/json", 400, "index must be"),
        (b'{"command": "choose", "index": true}', "application/json", 400, "index must be"),
        (b'{"command": "undo", "extra": 1}', "application/json", 400, "unknown field(s): extra"),
        (b'{"command": "choose", "index": 99}', "application/json", 409, ""),
        (b"\xff\xfe", "application/json", 400, "not JSON"),
    ],
)
def test_malformed_requests_get_one_clear_error(served, raw, content_type, status, why) -> None:
    s = served(run=True)
    phone = s.pair("1")
    got, _, body = phone.request(
        "POST",
        "/api/command",
        raw=raw,
        headers={"X-Tavola": "1", "Content-Type": content_type},
    )
    assert got == status, body
    assert why in json_error(got, body)


def test_an_oversized_request_is_refused(served) -> None:
    s = served(run=True)
    phone = s.pair("1")
    big = json.dumps({"command": "undo", "pad": "x" * (MAX_BODY + 1)}).encode()
    status, _, body = phone.request("POST", "/api/command", raw=big, headers={"X-Tavola": "1"})
    assert status == 413
    assert "too large" in json_error(status, body)


def test_unknown_paths_methods_and_hosts(served) -> None:
    s = served(run=True)
    phone = s.phone()
    status, _, body = phone.request("GET", "/api/nothing")
    assert status == 404 and "nothing at /api/nothing" in json_error(status, body)
    status, _, body = phone.request("GET", "/static/../../etc/passwd")
    assert status == 404
    status, _, body = phone.request("GET", "/api/command")
    assert status == 405 and "POST" in json_error(status, body)
    status, _, body = phone.request("GET", "/api/state", headers={"Host": "evil.example"})
    assert status == 421 and "does not answer to" in json_error(status, body)
    status, _, body = phone.request("GET", "/api/state", headers={"Host": "tavola.local:8080"})
    assert status == 200
    status, _, body = phone.request("GET", "/api/events", headers={"Last-Event-ID": "x"})
    assert status == 400 and "version number" in json_error(status, body)


def test_the_rate_limit_answers_429_with_retry_after(served) -> None:
    # the appliance's pairing limit; a slow read rate, so a loaded machine still exhausts it
    limits = {"read": (1.0, 10.0), "write": (1.0, 5.0), "pair": LIMITS["pair"]}
    s = served(run=True, limits=limits)
    deadline = time.monotonic() + 20
    while s.page.snapshots.latest.version == 0 and time.monotonic() < deadline:
        time.sleep(0.01)  # the table's first snapshot (before it, the state answers 503)
    phone = s.phone()
    statuses = []
    for _ in range(int(limits["read"][1]) + 20):
        status, headers, body = phone.request("GET", "/api/state")
        statuses.append(status)
        if status == 429:
            assert int(headers["Retry-After"]) >= 1
            assert "too many requests" in json_error(status, body)
            break
    assert statuses[-1] == 429 and statuses[0] == 200
    # pairing requests have their own, lower limit
    pairs = [
        s.phone().request("POST", "/api/pair", {}, headers={"X-Tavola": "1"})[0]
        for _ in range(int(LIMITS["pair"][1]) + 1)
    ]
    assert pairs[-1] == 429


def test_settings_are_read_and_written_by_a_paired_phone_only(tmp_path: Path) -> None:
    """The settings route hands the body to apps.web.settings with the running config
    file: a change is checked, written back, and its refusal is one clear error."""
    from apps.web.config import WebConfig as Web
    from apps.web.server import PhonePage

    path = tmp_path / "tavola.toml"
    path.write_text(demo_config_text("strozzi", 3, journal=tmp_path / "j.db", seed=1))
    config = runtime.load(path)
    page = PhonePage(
        Web(enabled=True, address="127.0.0.1", port=0),
        journal=tmp_path / "j.db",
        config_path=path,
        limits={k: (1e6, 1e6) for k in LIMITS},
    )
    table = runtime.Appliance(config, button_thread=False)
    page.attach(table)
    page.start()
    loop = threading.Thread(target=table.run, daemon=True)
    loop.start()
    try:
        served = Served(table, page, time.monotonic, None, f"http://127.0.0.1:{page.port}")
        stranger = served.phone()
        assert stranger.post("/api/settings", {"pipeline.brightness": 0.4})[0] == 403
        assert stranger.get("/api/settings")[0] == 403
        phone = served.pair("1")
        status, now = phone.get("/api/settings")
        assert status == 200 and any(x["key"] == "pipeline.brightness" for x in now["settings"])
        before = path.read_bytes()
        status, answer = phone.post("/api/settings", {"pipeline.brightness": 7})
        assert status == 400 and answer["ok"] is False and "brightness" in answer["error"]
        assert path.read_bytes() == before  # refused: the file untouched
        status, answer = phone.post("/api/settings", {"pipeline.brightness": 0.4})
        assert status == 200 and answer["ok"] is True, answer
        assert "brightness = 0.4" in path.read_text()
    finally:
        page.stop()
        table.stop()
        loop.join(timeout=10)
        table.close()


# --- history --------------------------------------------------------------------------------
def test_history_lists_finished_games_with_breakdown_and_exports_for_replay(
    served, tmp_path: Path
) -> None:
    s = served("strozzi", 3, seed=2)
    phone = s.phone()
    assert phone.get("/api/history") == (200, {"games": []})
    assert s.bot is not None and s.bot.play(3)
    s.table.watch()
    view = phone.state()
    assert view["public"]["mode"] == "over"
    result = view["public"]["result"]
    assert result[0].startswith("Game over.") and len(result) == 4  # the result, 3 seats
    assert [x["score"] for x in view["public"]["scores"]] == s.table.app.state.scores()
    status, listing = phone.get("/api/history")
    assert status == 200
    (game,) = listing["games"]
    assert game["title"] == "Strozzi"
    assert f"Game over. {game['result']}" == result[0]
    status, one = phone.get(f"/api/history/{game['id']}")
    assert status == 200 and one["lines"][0].startswith("#1 ")
    assert any(line.startswith("Game over.") for line in one["lines"])
    status, headers, body = phone.request("GET", f"/api/history/{game['id']}/export")
    assert status == 200 and "attachment" in headers["Content-Disposition"]
    exported = json.loads(body)
    assert exported["game"] == "strozzi" and len(exported["actions"]) == len(
        s.table.app.state.history
    )
    path = tmp_path / "game.json"
    path.write_bytes(body)
    done = subprocess.run(
        [sys.executable, "-m", "apps.cli", "replay", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    status, _, raw = phone.request("GET", "/api/history/999")
    assert status == 404 and json_error(status, raw)
    status, _, raw = phone.request("GET", "/api/history/one")
    assert status == 400 and "number" in json_error(status, raw)


# --- the config file ---------------------------------------------------------------------------
def _config(tmp_path: Path, web: dict[str, Any] | str) -> str:
    text = demo_config_text("strozzi", 3, journal=tmp_path / "j.db", seed=1)
    if isinstance(web, str):
        return text + web
    lines = [f"{k} = {json.dumps(v)}" for k, v in web.items()]
    text += "\n[web]\n" + "\n".join(lines) + "\n"
    assert tomllib.loads(text)["web"] == web
    return text


def test_web_is_off_by_default_and_read_from_the_config(tmp_path: Path) -> None:
    config = runtime.parse_text(_config(tmp_path, ""))
    assert not config.web.enabled and config.web.port == 8080 and config.web.address == "::"
    config = runtime.parse_text(_config(tmp_path, {"enabled": True, "address": "::1", "port": 80}))
    assert config.web.enabled and config.web.address == "::1" and config.web.url_host == "[::1]"


@pytest.mark.parametrize(
    ("web", "message"),
    [
        ({"enabled": "yes"}, r"web\.enabled: must be true or false"),
        ({"port": 0}, r"web\.port: 0 is out of range"),
        ({"port": 70000}, r"web\.port: 70000 is out of range"),
        ({"address": "tavola"}, r"web\.address: 'tavola' is not an IP address"),
        ({"adress": "::"}, r"web\.adress: unknown key \(did you mean 'address'\?\)"),
    ],
)
def test_a_wrong_web_setting_names_its_key_and_line(tmp_path: Path, web, message) -> None:
    with pytest.raises(ConfigError, match=message) as err:
        runtime.parse_text(_config(tmp_path, web), name="t.toml")
    assert re.match(r"t\.toml:\d+: web\.", str(err.value))  # the file, the line, the key


def test_run_says_when_the_port_is_taken(tmp_path: Path) -> None:
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    port = busy.getsockname()[1]
    try:
        path = tmp_path / "t.toml"
        path.write_text(_config(tmp_path, {"enabled": True, "address": "127.0.0.1", "port": port}))
        done = subprocess.run(
            [sys.executable, "-m", "apps.cli", "run", "--config", str(path)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        busy.close()
    assert done.returncode == 2
    assert f"cannot serve the phone page on 127.0.0.1 port {port}" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_cursor_moved_from_a_phone_lights_its_candidate_on_the_board(served) -> None:
    """A choice highlighted on the phone is previewed by the LEDs (and the board drawing
    made from their frame) as a press of next would light it."""
    s = served("florence", 2, seed=3)
    bot = s.bot
    assert bot is not None
    app = s.table.app
    phone = s.phone()
    assert phone.post("/api/pair")[0] == 201
    bot.pump()
    bot.press("1", "select", hold=True)  # the table asks about seat 1's phone
    bot.press("1", "select")  # seat 1 confirms
    s.table.watch()
    assert phone.state()["you"]["seat"] == "1"
    target = None
    for _ in range(200):  # on to a choice of seat 1's whose words light different things
        bot.advance(2)
        seat = app._waiting_seat()
        if app.mode != "playing" or seat != "1" or app.session is None or app.session.held:
            continue
        menu = app.menus.get(seat) or app.session.menu_for(seat)
        now = app.clock()
        frames = []
        for i in range(len(menu.options())):
            menu.index = i
            frames.append(app.frame(now))
        menu.index = 0
        target = next((i for i, f in enumerate(frames) if f != frames[0]), None)
        if target is not None:
            break
    assert target is not None, "no choice with a preview came up"
    before = app.frame(now)
    answer: list[Any] = []
    board = app.version
    thread = threading.Thread(
        target=lambda: answer.append(
            phone.post("/api/command", {"command": "cursor", "index": target, "board": board})
        )
    )
    thread.start()
    while thread.is_alive():  # the table's thread is this one: it carries the command out
        bot.pump()
        thread.join(0.01)
    assert answer == [(200, {"ok": True})]
    assert app.menus[seat].index == target
    assert app.frame(now) == frames[target] != before
    s.table.watch()
    assert phone.state()["public"]["menu"]["index"] == target  # and the page shows it


def _free_port_on_both_families() -> int:
    """A port free on IPv4 and IPv6 alike (a dual-stack socket bound to it, then closed)."""
    with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        s.bind(("::", 0))
        return int(s.getsockname()[1])


def test_every_address_serves_ipv4_and_ipv6_phones(tmp_path: Path) -> None:
    """The default address '::' is every address of the Pi: a phone on IPv4 and one on
    IPv6 both get the page (asyncio makes an IPv6 socket IPv6-only, so binding '::'
    itself would refuse every IPv4 phone)."""
    port = _free_port_on_both_families()
    page = PhonePage(WebConfig(enabled=True, address="::", port=port), journal=tmp_path / "j.db")
    page.start()
    try:
        for base in (f"http://127.0.0.1:{port}", f"http://[::1]:{port}"):
            status, _, body = Phone(base).request("GET", "/")
            assert status == 200 and b"<html" in body.lower(), base
    finally:
        page.stop()


def test_the_board_draws_each_seats_lights_in_that_seats_row(served) -> None:
    """Seat 3 joined first, so it is player 0: the first row of the drawing is seat 3's,
    and the seat LEDs placed in it are seat 3's own (`seat.3.status`), not seat 1's."""
    from apps.web.snapshot import seat_infos

    s = served(run=True)
    view = start_game(s, seats=("3", "1", "2"))
    infos = seat_infos(s.table.app.status())
    assert [(i.player, i.seat) for i in infos] == [(0, "3"), (1, "1"), (2, "2")]
    svg = view["public"]["svg"]
    rows = [float(y) for y in re.findall(r'<rect[^>]*y="([\d.]+)"[^>]*class="seat seat-\d"', svg)]
    lit = re.search(r'<g data-el="seat\.3\.status"[^>]*>\s*<rect[^>]*y="([\d.]+)"', svg)
    assert rows and lit, svg[:400]
    assert rows[0] <= float(lit.group(1)) < rows[1]  # inside the first row: player 0's
