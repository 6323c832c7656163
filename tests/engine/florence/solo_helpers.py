"""Build solo positions by legal actions, as a table would enter them.

Strozzi's solo cards are chance input, so a test chooses which card the table
turns over (`solo N`). The provisional card faces (data.toml, `solo_faces`):
cards 1-2 show Noble A (orange, blue), 3-4 Noble B (orange, blue), 5 Noble C
(the colour he has fewer of).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import CHANCE, Event
from engine.florence import FlorenceState
from engine.florence.solo import BLUE, ORANGE

from .helpers import new_game

HUMAN, STROZZI = 0, 1
YOUR_DEB, ORANGE_DEB, BLUE_DEB = 1, ORANGE * 4 + 1, BLUE * 4 + 1
ORANGE_DONNA, BLUE_DONNA = ORANGE * 4 + 2, BLUE * 4 + 2


def solo_game(
    *,
    tiles: Mapping[int, str] | None = None,
    carriages: tuple[int, int, int] = (1, 7, 9),
    destinations: tuple[int, int, int] = (6, 4, 2),
    times: tuple[int, int] = (9, 8),
    confirm: bool = False,
    place: int | None = None,
    **options: Any,
) -> FlorenceState:
    """A solo game after setup: Strozzi's setup is done (confirmed, if asked) and the human
    places the free debutant on `place` (or is still to place it when None)."""
    opts = {"confirm_automa": confirm, **options}
    state = new_game(
        1, tiles=tiles, carriages=carriages, destinations=destinations, times=times, options=opts
    )
    confirm_all(state)
    if place is not None:
        state.apply(f"place {place}")
    return state


def confirm_all(state: FlorenceState) -> list[Event]:
    """The human confirms every step of Strozzi's that waits for it."""
    events: list[Event] = []
    while state.current_player() == HUMAN and texts(state) == ["ok"]:
        events += state.apply("ok")
    return events


def texts(state: FlorenceState) -> list[str]:
    return [a.text for a in state.legal_actions()]


def strozzi_draws(state: FlorenceState, *cards: int) -> list[Event]:
    """Turn over Strozzi's cards in order (confirming his steps in between, if asked)."""
    events: list[Event] = []
    for card in cards:
        assert state.current_player() == CHANCE and state.turn == STROZZI, state.describe()
        events += state.apply(f"solo {card}")
        events += confirm_all(state)
    return events


def steps(events: list[Event]) -> list[str]:
    """Strozzi's steps in words."""
    return [e["say"] for e in events if e.kind == "strozzi_step"]


def pieces(state: FlorenceState, loc: int) -> list[str]:
    """A queue as words: 'you:debutant', 'orange:donna', Prime Position first."""
    names = ("you", "orange", "blue")
    ranks = ("", "debutant", "donna", "maestro")
    return [f"{names[c >> 2]}:{ranks[c & 3]}" for c in state.queues[loc - 1]]


def finish_round(
    state: FlorenceState,
    *,
    cards: tuple[int, ...] = (8, 9, 10, 7),
    tokens: tuple[int, int] | None = None,
    party: bool = True,
) -> None:
    """Play on to the next round (or to the schemes' reveal): the human passes at once (bonus
    time afterwards, Giovanni declined); Strozzi turns over the first card of `cards` still in
    his deck (any card if none is), then card 6 as soon as it resolves (unless not `party`);
    `tokens` are the next time and location tokens if still in the bags."""
    rnd = state.round
    while state.round == rnd and state.phase not in ("schemes", "over"):
        legal = texts(state)
        if state.current_player() != CHANCE:
            if legal == ["ok"]:
                state.apply("ok")
            elif state.phase == "actions":
                if state.passed[HUMAN]:
                    state.apply("bonus time")
                else:
                    state.apply(
                        "pass" if "pass" in legal else next(t for t in legal if t[:5] == "pass ")
                    )
            elif state.phase == "queue_scoring":
                state.apply("decline")
            else:
                state.apply(legal[-1])
        elif state.phase == "actions":
            wanted = [f"solo {c}" for c in (6,) * (party and state.solo.revealed > 0) + cards]
            state.apply(next((t for t in wanted if t in legal), legal[0]))
        elif state.phase == "cleanup" and tokens:
            time, loc = tokens
            wanted = [f"token time {time}", f"token location {loc}"]
            state.apply(next((t for t in wanted if t in legal), legal[0]))
        else:
            state.apply(legal[0])
