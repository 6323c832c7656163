"""Screenshots of each game's phone page for docs/phone/: `python -m tests.web.screenshots`.

Each game runs in a real `tavola run` on a mocked table (tests/web/appliance.py), the
seat to act pairs a Chromium page at 360 px wide by a hold of its select button, and
the page, with a choice tapped (lit on the board, not yet confirmed), is saved as
docs/phone/<game>.png; Strozzi's settings form as docs/phone/settings.png and its
component check as docs/phone/components.png (an owner's data directory of its own).
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

from playwright.sync_api import expect, sync_playwright

from .appliance import PLAYERS, appliance, browser, confirm

OUT = Path(__file__).resolve().parents[2] / "docs" / "phone"


def main(out: Path = OUT) -> int:
    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        chromium = browser(p)
        for game in PLAYERS:
            with tempfile.TemporaryDirectory() as tmp:
                os.environ["TAVOLA_DATA_DIR"] = tmp  # the shipped guesses, not this user's
                shoot(chromium, Path(tmp), game, out)
        chromium.close()
    return 0


def shoot(chromium: Any, tmp: Path, game: str, out: Path) -> None:
    with appliance(tmp, game) as running:
        running.start_game()
        page = chromium.new_context(viewport={"width": 360, "height": 780}).new_page()
        page.goto(running.base + "/")
        page.get_by_role("button", name="Pair with my seat").click()
        expect(page.locator("#code")).to_be_visible()
        seat = running.wait(lambda v: v["public"]["turn"])["public"]["turn"]["seat"]
        running.wait(lambda v: v["public"]["pairing"]["open"])
        confirm(running, seat)
        expect(page.locator("#you")).to_contain_text("This phone plays")
        # a choice tapped, not yet confirmed: the board previews it
        options = page.locator("#options button")
        expect(options.first).to_be_visible()
        options.nth(random.Random(7).randrange(options.count())).click()
        page.wait_for_timeout(500)
        path = out / f"{game}.png"
        page.screenshot(path=str(path), full_page=True)
        print(f"wrote {path}")
        if game == "strozzi":  # the settings form, as a paired phone sees it
            form = page.locator("#settings-section")
            expect(page.locator("#settings")).to_be_visible()
            path = out / "settings.png"
            form.screenshot(path=str(path))
            print(f"wrote {path}")
            # the component check: the track answered "matches", the rest still to ask
            check = page.locator("#components-strozzi")
            check.locator(":scope > summary").click()
            row = check.locator('.component[data-state="guess"][data-key="last_space"]')
            row.get_by_role("button", name="Matches my copy").click()
            expect(check.locator(".said.ok")).to_be_visible()
            path = out / "components.png"
            page.locator("#components-section").screenshot(path=str(path))
            print(f"wrote {path}")
        page.context.close()


if __name__ == "__main__":
    sys.exit(main())
