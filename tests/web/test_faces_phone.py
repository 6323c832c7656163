"""A Strozzi ship entered on the phone page by what its card shows (`chance = "pick"`).

A real `tavola run` (the `served` fixture: buttons mocked at the GPIO edge, the page over
HTTP): the seats join and start with the buttons, the setup tokens are entered, and at the
first draw a paired phone walks the menu word by word to the face of the card that came
up, as a person reading the card would: sails, then what still differs.
"""

from __future__ import annotations

import time

from apps.menu import DONE
from engine.core import CHANCE


def enter(phone, s, words: list[str]) -> int:
    """Choose `words` level by level on the phone; returns the choices it took."""
    taken = 0
    count = len(s.table.app.state.history)
    deadline = time.monotonic() + 20
    while len(s.table.app.state.history) == count and time.monotonic() < deadline:
        view = phone.state()
        menu = view["public"]["menu"]
        if not menu:
            continue
        level = len(menu["prefix"])
        options = menu["options"]
        wanted = words[level] if level < len(words) else DONE
        index = options.index(wanted) if wanted in options else options.index(words[-1])
        status, body = phone.post(
            "/api/command",
            {"command": "choose", "index": index, "board": view["public"]["board"]},
        )
        assert status == 200, body
        taken += 1
        board = view["public"]["board"]
        s.wait(
            lambda v, m=menu, b=board: (v["public"]["menu"], v["public"]["board"]) != (m, b), phone
        )
    assert len(s.table.app.state.history) > count
    return taken


def test_a_ship_is_entered_on_the_phone_by_its_face(served) -> None:
    s = served(run=True, chance="pick", options={"ships": "deck"})
    for seat in ("1", "2", "3"):
        s.press(seat, "select")
    s.press("table", "menu")
    s.wait(lambda v: v["public"]["mode"] == "setup" and v["public"]["menu"])
    phone = s.pair("1")  # seat 1 turns the first ship over
    app = s.table.app
    while app.state.phase == "setup":  # the three face-up progress tokens
        enter(phone, s, app.state.legal_actions()[0].words)
    s.press("1", "select")  # the board is laid out
    s.wait(lambda v: v["public"]["mode"] == "playing")
    assert app.state.current_player() == CHANCE and app.state.phase == "draw"
    top = phone.state()["public"]["menu"]
    assert top["prefix"] == ["draw"] or "draw" not in top["options"]
    draws = app.state.legal_actions()
    sails = [a.words[1] for a in draws]
    card = max(draws, key=lambda a: sails.count(a.words[1]))  # the card that came up: a
    # face whose sails several faces share, so the phone asks for more than the sails
    taken = enter(phone, s, list(card.words))
    assert app.state.history[-1].text == card.text and app.state.ship == card.text[5:]
    assert 2 <= taken <= len(card.words)  # a level with one word left is entered for you
    words = app.state.rules.words(app.state.rules.ship(app.state.ship))
    log = s.wait(lambda v: any(words in line for line in v["public"]["log"]), phone)
    assert log  # the phone's log says the ship in words
