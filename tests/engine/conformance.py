"""The conformance suite every registered game passes (see test_conformance.py).

Helpers here drive random games through the public contract only, so a game
that plugs into `engine` gets every check without writing a line of test code.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

from engine.core import CHANCE, PLAYOUT_LIMIT, Action, Game, State, derive, random_action

MAX_ACTIONS = PLAYOUT_LIMIT  # far beyond any real game; a playout past it does not terminate


def new_state(game: Game, players: int, seed: int) -> State:
    return game.new_state(players, seed=seed, options=playout_options(game, seed))


def playout_options(game: Game, seed: int) -> dict[str, Any]:
    """Vary options a game declares as playout-relevant (e.g. a solo variant)."""
    variants = game.conformance_options
    if not variants:
        return {}
    return dict(variants[seed % len(variants)])


def playout(game: Game, players: int, seed: int) -> Iterator[tuple[State, Action]]:
    """Yield (state before, action) for one random game; the state is then advanced."""
    state = new_state(game, players, seed)
    rng = derive(seed, "conformance", game.name, players)
    for _ in range(MAX_ACTIONS):
        if state.is_over():
            return
        action = random_action(state, rng)
        yield state, action
        state.apply(action)
    raise AssertionError(f"{game.name} {players}p seed {seed}: no end after {MAX_ACTIONS} actions")


def final_state(game: Game, players: int, seed: int) -> State:
    last = None
    for last, _ in playout(game, players, seed):  # noqa: B007 - advanced in place
        pass
    assert last is not None
    return last


def snapshot(state: State) -> str:
    """The state as canonical JSON, also proving `to_dict()` is JSON-serialisable."""
    return json.dumps(state.to_dict(), sort_keys=True)


def other_seat(state: State, rng: random.Random) -> int:
    current = state.current_player()
    seats = [p for p in range(state.players) if p != current]
    if current != CHANCE:
        seats.append(CHANCE)
    return rng.choice(seats)
