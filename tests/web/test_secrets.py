"""Hidden information reaches only the phone paired with the seat that owns it.

Each game is played to its end by bots pressing the table's mocked buttons; after
every press the table publishes and the test reads what a phone can: the public
state (no cookie), seat 1's paired view, and every server-sent event both received.
Each seat's secrets (the fields `state.observe(seat)` adds: Strozzi money, Florence
hand and scheme, Strada Romana wagon tiles) must appear in none of them but the
owner's own, until the rulebook reveals them at the end.
"""

from __future__ import annotations

import dataclasses
import json
import threading
from typing import Any

import pytest

from apps.sim import HOLD_S

from .conftest import Phone, Served, read_events

#: (game, players, chance, options, seed): a seed each whose game is short enough for
#: `make test`; Strada Romana's wagon tiles named as they are taken (else only at the end)
GAMES = [
    ("strozzi", 3, "app", {}, 4),
    ("florence", 2, "app", {}, 4),
    ("florence", 3, "pick", {}, 4),
    ("strada_romana", 3, "pick", {"wagon_tiles": "when_taken"}, 5),
    ("strada_romana", 3, "app", {"wagon_tiles": "when_taken"}, 5),
]


def secrets_of(served: Served) -> dict[int, dict[str, Any]]:
    """Per player: the fields only that seat's observation has, and their values."""
    state = served.table.app.state
    if state is None:
        return {}
    public = {f.name for f in dataclasses.fields(state.observe())}
    out = {}
    for p in range(len(served.table.app.players)):
        mine = state.observe(p)
        out[p] = {
            f.name: getattr(mine, f.name) for f in dataclasses.fields(mine) if f.name not in public
        }
    return out


def words_in(value: Any) -> set[str]:
    """The secret strings a value holds (card names, tile names)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, tuple | list):
        return set().union(*(words_in(v) for v in value)) if value else set()
    return set()


def leaks(text: str, secrets: dict[str, Any], allowed: set[str] = frozenset()) -> list[str]:
    """The secrets (field names, the strings of their values) found in `text`; `allowed`
    are words another seat's own menu offers (Florence's `promote` is a card's name and
    an action's verb: offered to seat 3, it tells nothing of seat 1's hand)."""
    found = [name for name in secrets if f'"{name}":' in text]
    for value in secrets.values():
        found += [w for w in words_in(value) - allowed if json.dumps(w) in text]
    return found


def others_words(view: dict[str, Any], player: int) -> set[str]:
    """The words of the public menu when it is not `player`'s own."""
    menu = view["public"]["menu"]
    seats = view["public"]["seats"]
    if not menu or "options" not in menu or player >= len(seats):
        return set()
    if menu["seat"] == seats[player]["seat"]:
        return set()  # the owner's own menu shown publicly: its words must not hold a secret
    return set(menu["options"]) | set(menu["prefix"])


def pair_in_sync(served: Served, seat: str) -> Phone:
    """Pair `seat` on a table the test drives: the hold is a mocked button press."""
    phone = served.phone()
    status, _ = phone.post("/api/pair")
    assert status == 201
    bot = served.bot
    assert bot is not None
    bot.pump()  # the table says the code
    bot.press(seat, "select", hold=True)  # the table asks
    bot.press(seat, "select")  # and the seat confirms
    served.table.watch()
    assert phone.state()["you"]["paired"]
    return phone


@pytest.mark.parametrize(("game", "players", "chance", "options", "seed"), GAMES)
def test_no_response_or_event_shows_another_seats_secret(
    served, game: str, players: int, chance: str, options: dict[str, Any], seed: int
) -> None:
    s: Served = served(game, players, chance=chance, seed=seed, options=options)
    assert s.bot is not None
    mine = pair_in_sync(s, "1")
    watcher = s.phone()
    streams: dict[str, list[Any]] = {"public": [], "seat 1": []}
    cookie = "; ".join(f"{c.name}={c.value}" for c in mine.jar)

    def listen(name: str, headers: dict[str, str]) -> None:
        streams[name] = read_events(s.page.port, 10_000, headers=headers, timeout=60)

    threads = [
        threading.Thread(target=listen, args=("public", {}), daemon=True),
        threading.Thread(target=listen, args=("seat 1", {"Cookie": cookie}), daemon=True),
    ]
    for t in threads:
        t.start()
    seen_secret = False
    checked = 0
    version = 0
    while s.table.app.mode != "over" and s.bot.presses < 20_000:
        s.bot.advance(players)
        s.table.watch()
        secrets = secrets_of(s)
        if s.table.app.state is None or s.table.app.state.is_over():
            continue
        if s.page.snapshots.latest.version == version:
            continue  # nothing new was published: the responses are the ones checked
        version = s.page.snapshots.latest.version
        public = watcher.state()
        own = mine.state()
        text_public = json.dumps(public)
        text_own = json.dumps(own["public"]) + json.dumps(own["you"])
        for p, sec in secrets.items():
            allowed = others_words(public, p)
            assert not leaks(text_public, sec, allowed), (p, leaks(text_public, sec, allowed))
            assert not leaks(text_own, sec, allowed), (p, leaks(text_own, sec, allowed))
        # the owner sees its own secrets, and nothing else private
        assert set(own["private"]) <= {"secrets", "player", "menu"}
        assert own["private"]["secrets"] == json.loads(
            json.dumps({k: _plain(v) for k, v in secrets[0].items()})
        )
        seen_secret = seen_secret or any(
            words_in(v) or (isinstance(v, int) and v > 0)
            for sec in secrets.values()
            for v in sec.values()
        )
        checked += 1
    assert s.table.app.mode == "over", "the game did not end"
    assert checked > 50 and seen_secret, "the game never held a secret to guard"
    s.page.stop()  # ends the event streams
    for t in threads:
        t.join(timeout=30)
    assert streams["public"] and streams["seat 1"]
    assert all(e[1]["private"] is None for e in streams["public"])
    for _, event in streams["public"]:
        assert '"secrets"' not in json.dumps(event)
    assert any(e[1]["private"] for e in streams["seat 1"])
    assert HOLD_S > 0.6  # the pairing press above was a hold, not a tap


def _plain(value: Any) -> Any:
    from apps.web.snapshot import plain

    return plain(value)
