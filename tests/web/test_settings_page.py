"""The settings form of the phone page, in a real Chromium against a running `tavola run`.

What a player does: pair the phone, change the brightness and a name, tap Save, read
the answer; what they get: the config file on disk changed (its comments kept, the old
file beside it), the table saying the new name, and a wrong value refused in the
server's own words with the file untouched. The table is mocked as in
tests/web/appliance.py (presses over an emulated serial board).
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from .appliance import Running, appliance, confirm
from .test_browser import open_page

COMMENTED = "# the evening table: keep the lights low\n"


def pair_page(page: Page, table: Running, seat: str) -> None:
    """The page asks, the seat holds select at the table and confirms."""
    page.get_by_role("button", name="Pair with my seat").click()
    expect(page.locator("#code")).to_have_text(re.compile(r"^\d{4}$"))
    table.wait(lambda v: v["public"]["pairing"]["open"])
    confirm(table, seat)
    expect(page.locator("#you")).to_contain_text(f"This phone plays seat {seat}")


def save(page: Page) -> Any:
    """Tap Save; the body the page sent and the server's answer."""
    with page.expect_response(
        lambda r: r.url.endswith("/api/settings") and r.request.method == "POST"
    ) as response:
        page.get_by_role("button", name="Save").click()
    return response.value.request.post_data_json, response.value.json()


def test_a_paired_phone_changes_settings_and_an_unpaired_one_sees_no_form(
    chromium: Any, tmp_path: Path
) -> None:
    with appliance(tmp_path) as table:
        config = tmp_path / "tavola.toml"
        # a file a person wrote: comments the page must keep
        text = config.read_text().replace(
            "brightness = 0.5", "brightness = 0.5  # half: the room is dark"
        )
        config.write_text(COMMENTED + text)
        before = config.read_bytes()
        view = table.start_game()
        seat = str(view["public"]["turn"]["seat"])
        other = "2" if seat != "2" else "1"

        watcher = open_page(chromium, table)
        page = open_page(chromium, table)
        pair_page(page, table, seat)

        # each setting as a control offering what the schema allows
        brightness = page.get_by_label("Brightness")
        expect(brightness).to_have_value("0.5")
        assert brightness.get_attribute("type") == "number"
        assert (brightness.get_attribute("min"), brightness.get_attribute("max")) == ("0", "1")
        chance = page.get_by_label("Draws")
        assert chance.evaluate("e => e.tagName") == "SELECT"
        assert chance.locator("option").all_inner_texts() == [
            "the table draws (default)",
            "players enter what they drew",
            "a card scanner reads it",
        ]
        name = page.get_by_label(f"Seat {seat}", exact=True)
        assert name.get_attribute("placeholder") == f"seat {seat}"

        # change two: only those two are sent, the answer is said in words
        brightness.fill("0.25")
        name.fill("Ben")
        sent, answer = save(page)
        assert sent == {"pipeline.brightness": 0.25, f"app.names.{seat}": "Ben"}
        said = page.locator("#settings-said")
        expect(said).to_have_text(
            f"Saved: Brightness, Seat {seat}. Took effect now: Brightness, Seat {seat}."
        )
        assert answer["reloaded"] is True
        # on disk: the new values, the comments kept, the old file kept whole
        written = config.read_text()
        data = tomllib.loads(written)
        assert data["pipeline"]["brightness"] == 0.25
        assert data["app"]["names"][seat] == "Ben"
        assert written.startswith(COMMENTED)
        assert "# half: the room is dark" in written
        assert (tmp_path / "tavola.toml.bak").read_bytes() == before
        # the form shows what the file now says
        expect(page.get_by_label("Brightness")).to_have_value("0.25")
        expect(page.get_by_label(f"Seat {seat}", exact=True)).to_have_value("Ben")

        # the next sentence at the table says the new name
        expect(page.locator("#turn")).to_contain_text("Ben")
        log = page.locator("#log li")
        count = log.count()
        last = page.locator("#options button").last  # a word with no level below it
        last.click()
        expect(page.locator("#confirm")).to_have_text(f"Choose {last.inner_text()}")
        page.locator("#confirm").click()
        expect(log).not_to_have_count(count)
        assert "Ben" in log.nth(count).inner_text()

        # a name another seat has: refused in the server's words, the file byte for
        # byte as it was, the form keeping what was typed
        saved = config.read_bytes()
        page.get_by_label("Brightness").fill("0.75")
        page.get_by_label(f"Seat {other}", exact=True).fill("Ben")
        sent, answer = save(page)
        assert sent == {"pipeline.brightness": 0.75, f"app.names.{other}": "Ben"}
        assert answer["ok"] is False
        assert f"app.names.{other}: 'Ben' is seat {seat}'s name already" in answer["error"]
        expect(said).to_have_text(answer["error"])
        assert config.read_bytes() == saved
        assert (tmp_path / "tavola.toml.bak").read_bytes() == before
        expect(page.get_by_label("Brightness")).to_have_value("0.75")
        bad = page.get_by_label(f"Seat {other}", exact=True)
        expect(bad).to_have_value("Ben")
        expect(bad).to_have_attribute("aria-invalid", "true")
        # out of the schema's range: the browser does not stop it, the server says why
        page.get_by_label(f"Seat {other}", exact=True).fill("")
        page.get_by_label("Brightness").fill("3")
        _, answer = save(page)
        assert "pipeline.brightness" in answer["error"] and "3" in answer["error"]
        expect(said).to_have_text(answer["error"])
        expect(page.get_by_label("Brightness")).to_have_attribute("aria-invalid", "true")
        assert config.read_bytes() == saved

        # the unpaired browser: no form, only that pairing is needed
        expect(watcher.locator("#settings-note")).to_have_text(
            "Pairing is needed to change the settings: pair this phone with your seat."
        )
        expect(watcher.locator("#settings")).to_be_hidden()
        assert watcher.locator("#settings-fields [data-key]").count() == 0
        assert "0.25" not in watcher.locator("#settings-section").inner_text()
        # and it fits a phone with the form open
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, f"the page is {width} px wide"
        page.locator("#settings-section").screenshot(path=str(tmp_path / "settings.png"))
