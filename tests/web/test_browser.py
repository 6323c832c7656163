"""The phone page in a real Chromium against a running `tavola run` on a mocked table.

A person's view: the words on the page, the buttons they tap, the board drawing that
changes, a press at the table that pairs the phone. See tests/web/appliance.py for
what is real (the process, the serial device, the browser) and what is mocked.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .appliance import PLAYERS, Running, appliance, confirm, pair, play_to_the_end
from .conftest import to_lay_out

PHONE = {"width": 360, "height": 780}


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Running]:
    with appliance(tmp_path) as running:
        yield running


def open_page(chromium: Any, running: Running) -> Page:
    context = chromium.new_context(viewport=PHONE, device_scale_factor=1)
    page = context.new_page()
    page.goto(running.base + "/")
    expect(page.locator("#status")).not_to_have_text("Connecting to the table…")
    return page


def test_pair_play_undo_and_read_the_breakdown_from_the_phone(chromium, table: Running) -> None:
    page = open_page(chromium, table)
    watcher = open_page(chromium, table)
    expect(page.locator("#status")).to_contain_text("Seating")
    view = table.start_game()
    seat = view["public"]["turn"]["seat"]
    # pair: the page shows a code, the table says it, a hold of select at the seat pairs
    page.get_by_role("button", name="Pair with my seat").click()
    code = page.locator("#code")
    expect(code).to_have_text(re.compile(r"^\d{4}$"))
    said = table.wait(lambda v: any("its code is" in line for line in v["public"]["log"]))
    assert any(f"its code is {code.inner_text()}" in line for line in said["public"]["log"])
    table.press(seat, hold=True)
    asked = table.wait(lambda v: v["public"]["pairing"]["asking"] == seat)
    assert f"Pair phone {code.inner_text()} with seat {seat}?" in asked["public"]["log"][-1]
    expect(page.locator("#you")).to_contain_text(f"asks to pair phone {code.inner_text()}")
    table.press(seat)  # select confirms
    expect(page.locator("#you")).to_contain_text(f"This phone plays seat {seat}")
    # its own secret (Strozzi money) on its page, on no other
    expect(page.locator("#secrets")).to_contain_text("money")
    expect(watcher.locator("#secrets")).to_be_hidden()
    assert "money" not in watcher.content()
    # play the seat from the page: the menu's words, tap to light, Choose to confirm
    choices = page.locator("#options button")
    expect(choices.first).to_be_visible()
    words = choices.all_inner_texts()
    assert words == view["public"]["menu"]["options"]
    before_svg = page.locator("#board svg").inner_html()
    before_log = page.locator("#log li").count()
    last = len(words) - 1
    choices.nth(last).click()
    expect(choices.nth(last)).to_have_attribute("aria-selected", "true")
    page.locator("#confirm").click()
    expect(page.locator("#log li")).not_to_have_count(before_log)
    page.wait_for_function(
        "before => document.querySelector('#board svg').innerHTML !== before", arg=before_svg
    )
    expect(watcher.locator("#last")).to_contain_text(f"seat {seat}")
    # undo from the page
    page.get_by_role("button", name="Undo").click()
    expect(page.locator("#log")).to_contain_text("Undone:")
    # the unpaired browser is refused when it tries to act
    refused = watcher.evaluate(
        """async () => {
            const r = await fetch('/api/command', {method: 'POST',
              headers: {'Content-Type': 'application/json', 'X-Tavola': '1'},
              body: JSON.stringify({command: 'undo'})});
            return [r.status, (await r.json()).error];
        }"""
    )
    assert refused[0] == 403 and "pair this phone" in refused[1]
    expect(watcher.locator("#choices")).to_be_hidden()
    expect(watcher.locator("#controls")).to_be_hidden()
    # the rest of the game from phones paired with every seat, then the breakdown
    from .conftest import Phone

    phones: dict[str, Phone] = {}
    for s in map(str, range(1, PLAYERS["strozzi"] + 1)):
        phones[s] = pair(table, s)
    play_to_the_end(table, phones)
    expect(page.locator("#result")).to_contain_text("Game over.")
    result = page.locator("#result li").all_inner_texts()
    assert len(result) == 1 + PLAYERS["strozzi"]  # the result, then each seat's breakdown
    assert all("=" in line for line in result[1:])
    # the finished game in the history, with its export for `tavola replay`
    page.get_by_role("button", name="Show finished games").click()
    expect(page.locator("#history")).to_contain_text("Strozzi")
    link = page.locator("#history a").first
    assert link.get_attribute("href", timeout=5000).endswith("/export")


def test_the_page_fits_a_phone_and_shows_each_game(chromium, tmp_path: Path) -> None:
    for game in PLAYERS:
        where = tmp_path / game
        where.mkdir()
        with appliance(where, game) as running:
            running.start_game()
            page = open_page(chromium, running)
            expect(page.locator("#title")).to_contain_text(
                {"strozzi": "Strozzi", "florence": "Florence", "strada_romana": "Strada"}[game]
            )
            expect(page.locator("#board svg")).to_be_visible()
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= PHONE["width"], f"{game}: the page is {width} px wide"
            shot = where / "page.png"
            page.screenshot(path=str(shot), full_page=True)
            assert shot.stat().st_size > 5000
            page.context.close()


def test_a_seat_without_buttons_pairs_and_plays_from_the_page(chromium, tmp_path: Path) -> None:
    """Seat 3 has no buttons: its phone asks for it by name, a hold of menu at the table
    agrees, and the seat joins and chooses by taps on the page."""
    with appliance(tmp_path, phone=1) as table:
        page = open_page(chromium, table)
        expect(page.locator("#status")).to_contain_text("Seating")
        page.get_by_role("button", name="Play seat 3 (no buttons)").click()
        expect(page.locator("#code")).to_have_text(re.compile(r"^\d{4}$"))
        expect(page.locator("#you")).to_contain_text("someone there holds menu")
        said = table.wait(
            lambda v: any("asks to play seat 3" in line for line in v["public"]["log"])
        )
        assert any(page.locator("#code").inner_text() in line for line in said["public"]["log"])
        confirm(table, "3", "table")
        expect(page.locator("#you")).to_contain_text("This phone plays seat 3")
        expect(page.get_by_role("button", name="Play seat 3 (no buttons)")).to_have_count(0)
        for seat in ("1", "2"):
            table.press(seat)
        page.get_by_role("button", name="Join").click()
        table.wait(lambda v: v["public"]["joined"] == ["1", "2", "3"])
        table.press("table", "menu")
        table.wait(to_lay_out)
        table.press("1")
        view = table.wait(lambda v: v["public"]["mode"] == "playing" and v["public"]["turn"])
        for _ in range(200):  # seats 1 and 2 take the word under their cursor
            turn = view["public"]["turn"]
            if turn and turn["seat"] == "3" and view["public"]["menu"]:
                break
            before = (view["public"]["board"], view["public"]["menu"])
            table.press(turn["seat"] if turn and turn["seat"] in ("1", "2") else "1")
            view = table.wait(lambda v, b=before: (v["public"]["board"], v["public"]["menu"]) != b)
        else:
            raise AssertionError("seat 3's turn never came")
        expect(page.locator("#secrets")).to_contain_text("money")
        choices = page.locator("#options button")
        expect(choices.first).to_be_visible()
        before_log = page.locator("#log li").count()
        choices.nth(choices.count() - 1).click()
        page.locator("#confirm").click()
        expect(page.locator("#log li")).not_to_have_count(before_log)
        assert table.phone().state()["public"]["turn"] is not None
