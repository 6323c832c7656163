"""Build Florence positions by legal actions only, as a table would enter them."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

import engine
from engine.core import CHANCE, Event, load_game_data
from engine.florence import FlorenceState

GAME = engine.get("florence")
# The shipped data, never an owner's override file: tests check the shipped values.
DATA = load_game_data("engine.florence", "florence")  # the engine reads no owner file
TILES = [
    "influencers",
    "loudmouth",
    "scandalous",
    "life-of-the-party",
    "street-cred",
    "upwardly-mobile",
    "plus-one",
    "big-spender",
    "eyes-everywhere",
]


def new_game(
    players: int = 3,
    *,
    tiles: Mapping[int, str] | None = None,
    carriages: tuple[int, int, int] = (1, 7, 9),
    destinations: tuple[int, int, int] = (6, 4, 2),
    times: tuple[int, int] = (9, 8),
    first: int = 1,
    placements: Iterable[int] | None = None,
    mode: str = "draw",
    options: Mapping[str, Any] | None = None,
) -> FlorenceState:
    """A game after setup (and the free debutants, given in placement order: last seat first).

    `carriages` are Cosimo's, Contessina's and Giovanni's locations; `destinations`
    the location tokens of rounds 1-3; `times` the time tokens of rounds 2 and 3;
    `first` the 1-based seat with the 1st player marker (solo: always the human, not drawn).
    """
    opts = {"scandal_entry": mode, **(options or {})}
    state = GAME.new_state(players, seed=0, options=opts, data=DATA)
    wanted = dict(tiles or {})
    spare = [name for name in TILES if name not in wanted.values()]
    while state.phase == "setup" and state._chance_step()[0] == "tile":
        loc = state._chance_step()[1] + 1
        state.apply(f"tile {loc} {wanted.get(loc) or spare.pop(0)}")
    for noble, loc in zip(("cosimo", "contessina", "giovanni"), carriages, strict=True):
        state.apply(f"carriage {noble} {loc}")
    for loc in destinations:
        state.apply(f"token location {loc}")
    for value in times:
        state.apply(f"token time {value}")
    if players > 1:
        state.apply(f"first {first}")
    for loc in placements or ():
        state.apply(f"place {loc}")
    return state


def play(state: FlorenceState, *texts: str) -> list[Event]:
    """Apply legal actions in order; the events of all of them."""
    events: list[Event] = []
    for text in texts:
        events.extend(state.apply(text))
    return events


def seat_of(state: FlorenceState) -> int:
    player = state.current_player()
    assert player is not None and player != CHANCE, state.describe()
    return player


def pass_round(state: FlorenceState) -> list[Event]:
    """Everyone passes (rings on the first free locations, bonuses as time) and the
    Noble moves; any scandal drawn is the first card still possible."""
    events: list[Event] = []
    rnd = state.round
    while state.phase == "actions" and state.round == rnd:
        seat = seat_of(state)
        if state.passed[seat]:
            events += state.apply("bonus time")
        elif state.npassed == state.players - 1:
            events += state.apply("pass")
        else:
            free = next(loc for loc in range(9) if loc not in state.rings)
            events += state.apply(f"pass {free + 1}")
    events += draw_all(state)
    return events


def draw_all(state: FlorenceState) -> list[Event]:
    events: list[Event] = []
    while state.phase == "noble_movement" and state.current_player() == CHANCE:
        events += state.apply(state.legal_actions()[0])
    return events


def snapshot(state: FlorenceState) -> str:
    return json.dumps(state.to_dict(), sort_keys=True)


def queue(state: FlorenceState, loc: int) -> list[str]:
    """A queue as 'seat:rank' words (seats 1-based), Prime Position first."""
    ranks = ("", "debutant", "donna", "maestro")
    return [f"{(c >> 2) + 1}:{ranks[c & 3]}" for c in state.queues[loc - 1]]


def vp_by(events: list[Event], kind: str) -> dict[int, int]:
    """VP per seat (0-based) from events of one kind."""
    out: dict[int, int] = {}
    for e in events:
        if e.kind == kind:
            out[e["player"]] = out.get(e["player"], 0) + e["vp"]
    return out


NOBLE_OF = {
    **dict.fromkeys(("guard", "carry", "journey", "deploy"), "cosimo"),
    **dict.fromkeys(("gift", "usurp", "promote", "advance"), "contessina"),
    **dict.fromkeys(("recall", "reorder", "exile", "brag"), "giovanni"),
}


def holding(card: str, players: int = 3, mode: str = "draw") -> FlorenceState:
    """Seat 1 (index 0) holds `card` and opens the next round's Perform Actions phase.

    Seat 1 starts on location 5 with the Eyes Everywhere brag; Cosimo (round 1, 1 -> 6),
    Contessina (round 2, 7 -> 2) and Giovanni (round 3, 9 -> 3) all pass through 5, where
    seat 1's brag earns a card from each. Other seats start on 8, 3, 4, 6 and only pass.
    """
    rnd = ("cosimo", "contessina", "giovanni").index(NOBLE_OF[card]) + 1
    first = -rnd % players  # seat 1 holds the marker in round rnd + 1
    state = new_game(
        players,
        tiles={5: "eyes-everywhere"},
        carriages=(1, 7, 9),
        destinations=(6, 2, 3),
        first=first + 1,
        mode=mode,
    )
    start = {0: 5, 1: 8, 2: 3, 3: 4, 4: 6}
    while state.phase == "placement":
        state.apply(f"place {start[seat_of(state)]}")
    bragged = False
    while True:
        while state.phase == "actions":
            seat = seat_of(state)
            if seat == 0 and not bragged:
                state.apply("brag 5 0-6")
                bragged = True
            elif state.passed[seat]:
                state.apply("bonus time")
            elif state.npassed == state.players - 1:
                state.apply("pass")
            else:
                state.apply(f"pass {next(x for x in range(9) if x not in state.rings) + 1}")
        while state.phase == "noble_movement":
            wanted = f"draw {NOBLE_OF[card]} {card}"
            texts = [a.text for a in state.legal_actions()]
            state.apply(wanted if wanted in texts else texts[0])
        while state.phase == "queue_scoring":
            state.apply("decline")
        if state.round == rnd:
            break
        while state.phase == "cleanup":
            state.apply(state.legal_actions()[0])
    while state.phase == "cleanup":
        state.apply(state.legal_actions()[0])
    assert state.phase == "actions" and seat_of(state) == 0
    return state
