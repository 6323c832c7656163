"""A bot seated from the phone page and its move confirmed there, in a real Chromium
against a running `tavola run` (the table mocked as in tests/web/appliance.py).

What a person does: while seats are taken, tap "Bot at seat 2"; join, start; when it is
the bot's turn the page says to confirm the bot's move once it is done on the board, and
"Done on the board" confirms it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from .appliance import appliance
from .conftest import to_lay_out
from .test_browser import open_page
from .test_settings_page import pair_page


def test_a_bot_is_seated_and_its_move_confirmed_from_the_phone(
    chromium: Any, tmp_path: Path
) -> None:
    with appliance(tmp_path) as table:
        table.wait(lambda v: v["public"]["mode"] == "seating")
        page = open_page(chromium, table)
        pair_page(page, table, "1")
        bots = page.locator("#bots")
        expect(bots.get_by_role("button", name="Bot at seat 2")).to_be_visible()
        bots.get_by_role("button", name="Bot at seat 2").click()
        expect(bots.get_by_role("button", name="No bot at seat 2")).to_be_visible()
        view = table.wait(lambda v: v["public"].get("bots") == ["2"])
        assert view["public"]["joined"] == ["2"]
        assert "A bot (ismcts) joined at seat 2 as" in table.log_text()
        page.get_by_role("button", name="Join").click()
        table.wait(lambda v: v["public"].get("joined") == ["1", "2"])
        # a person at seat 1 never sees a bot button for itself once joined
        expect(bots.get_by_role("button", name="Bot at seat 1")).to_have_count(0)
        table.press("3")
        table.wait(lambda v: v["public"].get("joined") == ["1", "2", "3"])
        page.get_by_role("button", name="Start").click()
        table.wait(to_lay_out)
        table.press("1")  # the board is laid out
        # seat 1 (the first person to join) acts first; the bot at seat 2 next
        for _ in range(200):
            view = table.wait(lambda v: v["public"]["mode"] == "playing" and v["public"]["menu"])
            menu = view["public"]["menu"]
            if menu["kind"] == "go_on":  # a draw held for the next press: any seat draws it
                table.press("3")
                table.wait(lambda v, b=view["public"]["version"]: v["public"]["version"] != b)
                continue
            if menu["kind"] == "bot":
                if menu["options"] == ["thinking"]:  # the bot thinks off the table's loop
                    table.wait(lambda v: (v["public"]["menu"] or {}).get("options") != ["thinking"])
                    continue
                break
            assert menu["seat"] == "1", menu
            expect(page.locator("#choices")).to_be_visible()
            before = view["public"]["version"]
            page.locator("#confirm").click()  # seat 1 chooses where its cursor is
            table.wait(lambda v, b=before: v["public"]["version"] != b)
        else:
            raise AssertionError("the bot never came to act")
        expect(page.locator("#choices-title")).to_have_text(
            "Confirm the bot's move once it is done on the board"
        )
        move = menu["options"][0]
        expect(page.locator("#path")).to_have_text(move)  # the move, to carry out
        expect(page.locator("#options")).to_be_hidden()  # nothing to choose among
        before = view["public"]["board"]
        page.get_by_role("button", name="Done on the board").click()
        table.wait(lambda v: v["public"]["board"] != before)
        assert f"seat 2 (bot): {move}" in table.log_text()
