"""The choices on the phone page, in a real Chromium against a running `tavola run`.

What a person does with the page's menu: a tap on a choice lights it on the board, and
only Choose takes it, the very choice lit, even when the lit one is tapped again; a menu
with nothing to decide is one Go on button; the component check's answers are buttons;
whatever the table refuses (an undo past a draw everybody saw, a choice made on a board
that has changed since) is said in the table's words beside what was tapped. The table
is mocked as in tests/web/appliance.py (presses over an emulated serial board).
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect

from .appliance import Running, appliance
from .conftest import to_lay_out
from .test_browser import open_page
from .test_settings_page import pair_page


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Running]:
    with appliance(tmp_path) as running:
        yield running


def tap(page: Page, target: Any) -> tuple[int, dict[str, Any]]:
    """Tap `target`; (the HTTP status, the body) of the command the page sent."""
    with page.expect_response(lambda r: r.url.endswith("/api/command")) as answer:
        target.click()
    return answer.value.status, answer.value.request.post_data_json


def actions(view: dict[str, Any]) -> list[str]:
    """The log's lines of actions taken ('#12 seat 1: pass'), in order."""
    return [line for line in view["public"]["log"] if re.match(r"#\d+ ", line)]


def test_a_tap_lights_a_choice_and_only_choose_takes_it(chromium: Any, table: Running) -> None:
    view = table.start_game()
    seat = view["public"]["turn"]["seat"]
    page = open_page(chromium, table)
    pair_page(page, table, seat)
    choices = page.locator("#options button")
    expect(choices.first).to_be_visible()
    words = choices.all_inner_texts()
    assert words == view["public"]["menu"]["options"] and len(words) > 1
    pick = len(words) - 1  # a word with no level below it: choosing it takes an action
    board = view["public"]["board"]

    # the tap selects: the page sends the cursor, the table lights it and shows it lit
    assert tap(page, choices.nth(pick)) == (
        200,
        {"command": "cursor", "index": pick, "board": board},
    )
    table.wait(lambda v: v["public"]["menu"]["index"] == pick)
    expect(choices.nth(pick)).to_have_attribute("aria-selected", "true")
    expect(page.locator("#confirm")).to_have_text(f"Choose {words[pick]}")
    # the lit choice tapped again: still only selected, nothing taken
    assert tap(page, choices.nth(pick)) == (
        200,
        {"command": "cursor", "index": pick, "board": board},
    )
    now = table.phone().state()
    assert actions(now) == actions(view) and now["public"]["board"] == board
    assert now["public"]["menu"]["seat"] == seat and now["public"]["last"] == view["public"]["last"]

    # a choice that reaches the table on a changed board: the table's refusal, by the menu
    def stale(route: Route) -> None:
        body = route.request.post_data_json
        body["board"] -= 1
        route.continue_(post_data=json.dumps(body))

    page.route("**/api/command", stale)
    assert tap(page, page.locator("#confirm"))[0] == 409
    expect(page.locator("#choices-said")).to_have_text(
        "The board changed before your choice arrived; nothing was done."
    )
    page.unroute("**/api/command")
    assert table.phone().state()["public"]["last"] == view["public"]["last"]

    # Choose takes exactly the lit choice
    assert tap(page, page.locator("#confirm")) == (
        200,
        {"command": "choose", "index": pick, "board": board},
    )
    taken = f"seat {seat}: {words[pick]}"
    after = table.wait(lambda v: actions(v) != actions(view))
    assert re.fullmatch(rf"#\d+ {taken}", actions(after)[-1]), actions(after)[-3:]
    assert len(actions(after)) == len(actions(view)) + 1  # one action: the chosen one
    expect(page.locator("#last")).to_have_text(re.compile(rf"^Last: #\d+ {taken}$"))
    expect(page.locator("#choices-said")).to_have_text("")  # the refusal is old news


def test_an_undo_the_table_refuses_is_said_on_the_phone(chromium: Any, table: Running) -> None:
    """Play begins just after the setup's draws, which everybody saw: undo is refused, in
    the table's words, beside the Undo button; nothing is taken back."""
    view = table.start_game()
    assert view["public"]["last"].split()[1] == "The"  # the draw, in words
    page = open_page(chromium, table)
    pair_page(page, table, "1")
    undo = page.get_by_role("button", name="Undo")
    expect(undo).to_be_enabled()
    status, sent = tap(page, undo)
    assert (status, sent) == (409, {"command": "undo"})
    said = page.locator("#controls-said")
    expect(said).to_contain_text("cannot be undone: it was a draw, and what came up has been seen")
    expect(said).to_have_text(re.compile(r"^'draw .+' cannot be undone"))
    now = table.phone().state()["public"]
    assert now["last"] == view["public"]["last"] and now["board"] == view["public"]["board"]


def test_nothing_to_decide_is_one_go_on_button(chromium: Any, table: Running) -> None:
    """The setup's draws are made: the table waits for the board to be laid out, and the
    page offers one Go on button, no words to choose among."""
    table.wait(lambda v: v["public"]["seating"])
    for seat in ("1", "2", "3"):
        table.press(seat)
    table.press("table", "menu")
    view = table.wait(to_lay_out)
    assert view["public"]["menu"]["decision"] is False
    page = open_page(chromium, table)
    pair_page(page, table, "2")
    expect(page.locator("#choices-title")).to_have_text("Board laid out")
    go_on = page.get_by_role("button", name="Go on")
    expect(go_on).to_be_visible()
    expect(page.locator("#confirm")).to_be_hidden()
    expect(page.locator("#options")).to_be_hidden()
    assert tap(page, go_on) == (200, {"command": "go_on"})
    view = table.wait(lambda v: v["public"]["mode"] == "playing" and v["public"]["turn"])
    assert view["public"]["menu"]["kind"] == "game" and view["public"]["menu"]["decision"]
    expect(go_on).to_be_hidden()


def test_the_component_check_is_answered_from_the_page(
    chromium: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Check now, then matches for the first value and stop; before the next game the
    check is offered again, and later goes on to seating."""
    data = tmp_path / "data"
    data.mkdir()
    monkeypatch.setenv("TAVOLA_DATA_DIR", str(data))  # the appliance's own environment
    with appliance(tmp_path, component_check=True) as table:
        table.wait(lambda v: (v["public"]["menu"] or {}).get("kind") == "check")
        page = open_page(chromium, table)
        pair_page(page, table, "1")
        answers = page.locator("#answers button")
        question = page.locator("#question")
        expect(page.locator("#choices-title")).to_have_text("Component check")
        expect(question).to_contain_text("4 values of Strozzi are guesses")
        expect(answers).to_have_text(["Check now", "Later"])
        expect(page.locator("#options")).to_be_hidden()
        expect(page.locator("#confirm")).to_be_hidden()

        assert tap(page, answers.nth(0))[1]["index"] == 0  # check now
        expect(question).to_contain_text("1/4 [track] last_space")
        expect(question).to_contain_text("the guess: 10")
        expect(answers).to_have_text(["Matches", "Differs", "Stop"])
        assert tap(page, page.get_by_role("button", name="Matches"))[0] == 200
        expect(question).not_to_contain_text("1/4")
        assert tap(page, page.get_by_role("button", name="Stop"))[0] == 200
        view = table.wait(lambda v: v["public"]["seating"])
        assert any(line.startswith("Check stopped: 1 values") for line in view["public"]["log"])
        assert tomllib.loads((data / "strozzi.toml").read_text())["track"]["last_space"] == 10

        table.press("table", "menu", hold=True)  # seating ended: the check is offered again
        table.wait(lambda v: (v["public"]["menu"] or {}).get("kind") == "check")
        expect(answers).to_have_text(["Check now", "Later"])
        expect(question).to_contain_text("3 values of Strozzi are guesses")
        assert tap(page, page.get_by_role("button", name="Later"))[0] == 200
        view = table.wait(lambda v: v["public"]["seating"])
        assert any(line.startswith("Playing with the guesses.") for line in view["public"]["log"])
        expect(page.locator("#choices")).to_be_hidden()
        expect(page.get_by_role("button", name="Join")).to_be_visible()
