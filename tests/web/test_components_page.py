"""The component check on the phone page, in a real Chromium against a running `tavola run`.

What an owner does: pair the phone, open the Components section, read a question in
words with the shipped guess, tap "Matches my copy" or type what their copy shows;
what they get: the owner's data file on disk changed (provenance "owner"), the value
shown as checked, and a wrong answer refused by the field in the server's words with
the file untouched. The table is mocked as in tests/web/appliance.py.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .appliance import appliance
from .test_browser import open_page
from .test_settings_page import pair_page

TRACK = "Count the spaces of one city track: the start space is 0; which number has the last space?"


def test_an_owner_checks_a_component_from_the_phone(
    chromium: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    monkeypatch.setenv("TAVOLA_DATA_DIR", str(data))  # the appliance's own environment
    mine = data / "strozzi.toml"
    with appliance(tmp_path) as table:
        watcher = open_page(chromium, table)
        page = open_page(chromium, table)
        pair_page(page, table, "1")

        section = page.locator("#components-section")
        strozzi = section.locator("#components-strozzi")
        expect(strozzi.locator(":scope > summary")).to_have_text("Strozzi: 4 to check")
        strozzi.locator(":scope > summary").click()  # open the game's fold
        row = strozzi.locator('.component[data-group="track"][data-key="last_space"]')
        expect(row.locator("label")).to_have_text(TRACK)
        expect(row.locator(".value")).to_have_text("Shipped guess: 10")
        assert row.get_attribute("data-state") == "guess"

        # a wrong kind of answer: the sentence by the field, nothing written
        row.get_by_label(TRACK).fill("ten")
        row.get_by_role("button", name="Save my copy's value").click()
        expect(row.locator(".said")).to_have_text("[track] last_space must be a number, like 10")
        expect(row.get_by_label(TRACK)).to_have_attribute("aria-invalid", "true")
        assert not mine.exists()

        # the track matches: written as the owner's, shown as checked
        row.get_by_role("button", name="Matches my copy").click()
        said = strozzi.locator("#components-said-strozzi")
        expect(said).to_contain_text("[track] last_space = 10 (matches your copy)")
        expect(said).to_contain_text("The next game of Strozzi plays by these.")
        written = tomllib.loads(mine.read_text())
        assert written["track"] == {
            "last_space": 10,
            "provenance": "owner",
            "source": "checked against the owner's copy of the game",
        }
        checked = strozzi.locator('.component[data-state="checked"][data-key="last_space"]')
        expect(checked.locator(".value")).to_have_text("Checked against your copy: 10")
        expect(strozzi.locator(":scope > summary")).to_have_text("Strozzi: 3 to check")
        assert strozzi.locator('.component[data-state="guess"][data-key="last_space"]').count() == 0

        # a typed value for another: the bonus spaces of this copy
        bonus = strozzi.locator('.component[data-state="guess"][data-key="bonus"]')
        bonus.locator("input").fill("{ 3 = 5, 6 = 10, 10 = 15 }")
        bonus.get_by_role("button", name="Save my copy's value").click()
        expect(said).to_contain_text("[track] bonus = { 3 = 5, 6 = 10, 10 = 15 }")
        assert tomllib.loads(mine.read_text())["track"]["bonus"] == {"3": 5, "6": 10, "10": 15}
        assert (data / "strozzi.toml.bak").exists()
        expect(
            strozzi.locator('.component[data-state="checked"][data-key="bonus"] .value')
        ).to_have_text(
            "Checked against your copy: { 3 = 5, 6 = 10, 10 = 15 } "
            "(shipped guess: { 4 = 5, 7 = 10, 10 = 15 })"
        )

        # the unpaired browser: no check, only that pairing is needed
        expect(watcher.locator("#components-note")).to_have_text(
            "Pairing is needed to check the components: pair this phone with your seat."
        )
        expect(watcher.locator("#components")).to_be_hidden()
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, f"the page is {width} px wide"
