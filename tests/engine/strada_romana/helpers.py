"""Small drivers for Strada Romana scenarios, spelled in notation like the journal.

`started()` plays the setup draws with fixed outcomes; `arrange()` then moves
pieces the way players set up a position on the table, through `to_dict()` and
`state_from_dict()`, so tests never reach into the engine's integer tables.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.core import Action, GameData, IllegalAction
from engine.strada_romana import GAME, StradaRomanaState

WAGONS = (
    "ballio",
    "canopites",
    "curculio",
    "demetrius",
    "hamilcar",
    "herennius",
    "maccus",
    "persa",
    "plotus",
    "pseudolus",
)
COLOURS = ("yellow", "red", "green", "blue", "brown", "white")
# one cube per market in market order (112, 121, 132, 151, 152, 221, 232, 251, 312, ...)
CUBES = (
    "yellow", "red", "green", "blue", "brown", "white", "yellow",
    "red", "green", "blue", "brown", "white", "yellow", "red",
)  # fmt: skip


def started(
    players: int,
    *,
    start: int = 0,
    wares: tuple[str, ...] = COLOURS,
    cubes: tuple[str, ...] = CUBES,
    options: dict[str, Any] | None = None,
    data: GameData | None = None,
) -> StradaRomanaState:
    """A game after setup: Ballio..Herennius head to Rome from p1..p5 (the first five
    names), the others to Portus from r1..r5; area I..VI hold `wares`; markets `cubes`;
    seat `start` is drawn to start (unless the option `first` chose already)."""
    state = GAME.new_state(players, seed=0, options=options, data=data)
    play(state, *(f"place {w}" for w in WAGONS))
    play(state, *(f"draw ware {c}" for c in wares))
    play(state, *(f"draw cube {c}" for c in cubes))
    state.apply("remove wagon tile")
    if state.phase == "first_player":
        state.apply(f"start seat {start + 1}")
    assert state.phase == "turn"
    return state


def arrange(state: StradaRomanaState, **changes: Any) -> StradaRomanaState:
    """The same game with pieces moved by hand, e.g. `wagons={"ballio": "141"}`.

    Keys of `changes` are fields of `to_dict()`; `wagons` maps a name to a square
    (keeping its heading) or to [square, heading]; `coins`/`vp` map seats to values.
    """
    d = json.loads(json.dumps(state.to_dict()))
    for name, where in changes.pop("wagons", {}).items():
        d["wagons"][name] = [where, d["wagons"][name][1]] if isinstance(where, str) else where
    for key in ("coins", "vp"):
        for seat, value in changes.pop(key, {}).items():
            d[key][seat] = value
    d.update(changes)
    return GAME.state_from_dict(d, data=state.data)


def play(state: StradaRomanaState, *texts: str) -> list:
    events = []
    for text in texts:
        events.extend(state.apply(text))
    return events


def legal(state: StradaRomanaState) -> set[str]:
    return {a.text for a in state.legal_actions()}


def steps(state: StradaRomanaState) -> set[str]:
    return {t for t in legal(state) if t.startswith("step")}


def refused(state: StradaRomanaState, text: str, match: str, player: int | None = None) -> None:
    """`text` raises IllegalAction matching `match`, and the state is unchanged."""
    before = json.dumps(state.to_dict(), sort_keys=True)
    with pytest.raises(IllegalAction, match=match):
        state.apply(text if player is None else Action(player, text))
    assert json.dumps(state.to_dict(), sort_keys=True) == before
