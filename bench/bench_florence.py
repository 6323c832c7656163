"""Florence engine cost, measured in one run beside a bare `transitions` trigger.

Figures: microseconds per applied action over random 4-player games (legal-action
generation and the random choice included), complete games per second, the same
for every player count, solo games against the Strozzi automa (his steps confirmed
by the human, as at the table, and run straight through with the harder tuning),
and the cost of `clone()`, of a `to_dict` / `state_from_dict` round trip and of
`observe()` (the public table, which the view reads for every frame, and one seat).
The target is at most 15 bare triggers per action.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from typing import Any

import engine
from bench.bench_engine import bare_trigger_us
from engine.core import CHANCE, Action, State, derive, random_action

GAMES = 200  # 4-player games for the headline figure
OTHER_GAMES = 60  # per other player count
SOLO_GAMES = 200  # per solo variant
SOLO_VARIANTS = (
    ("normal, steps confirmed", {}),
    ("harder, unconfirmed", {"difficulty": "harder", "confirm_automa": False}),
)
COPIES = 2_000


def busy_action(state: State, rng: random.Random) -> Action:
    """A random action that is not a pass while anything else can be done: longer games
    with fuller boards, the heavier load for legal-action generation."""
    if state.current_player() == CHANCE:
        return random_action(state, rng)
    legal = state.legal_actions()
    busy = [a for a in legal if not a.text.startswith(("pass", "bonus", "discard", "decline"))]
    return rng.choice(busy or legal)


def play(
    players: int,
    games: int,
    policy: Callable[[State, random.Random], Action] = random_action,
    options: Mapping[str, Any] | None = None,
) -> tuple[float, float, int, list[State]]:
    """(us per action, games per second, actions, mid-game states) over random games."""
    game = engine.get("florence")
    actions = 0
    samples: list[State] = []
    start = time.perf_counter()
    for seed in range(games):
        state = game.new_state(players, seed=seed, options=options)
        rng = derive(seed, "bench", "florence", players)
        while not state.is_over():
            state.apply(policy(state, rng))
            actions += 1
            if actions % 97 == 0:
                samples.append(state.clone())
    seconds = time.perf_counter() - start
    return seconds / actions * 1e6, games / seconds, actions, samples


def copy_costs(samples: list[State]) -> tuple[float, float, float, float]:
    """(us per clone, us per to_dict + state_from_dict, us per observe(), us per
    observe(0)) over mid-game states."""
    game = engine.get("florence")
    picked = (samples * (COPIES // max(1, len(samples)) + 1))[:COPIES]
    start = time.perf_counter()
    for state in picked:
        state.clone()
    clone_us = (time.perf_counter() - start) / len(picked) * 1e6
    start = time.perf_counter()
    for state in picked[: COPIES // 4]:
        game.state_from_dict(state.to_dict())
    dict_us = (time.perf_counter() - start) / (COPIES // 4) * 1e6
    start = time.perf_counter()
    for state in picked:
        state.observe()
    public_us = (time.perf_counter() - start) / len(picked) * 1e6
    start = time.perf_counter()
    for state in picked:
        state.observe(0)
    seat_us = (time.perf_counter() - start) / len(picked) * 1e6
    return clone_us, dict_us, public_us, seat_us


def run() -> list[str]:
    bare = bare_trigger_us()
    us, gps, actions, samples = play(4, GAMES)
    lines = [
        f"bare transitions trigger: {bare:.2f} us",
        f"florence 4p: {us:.1f} us/action = {us / bare:.2f} bare triggers (target <= 15), "
        f"{gps:.1f} games/s, {actions / GAMES:.0f} actions/game ({GAMES} games)",
    ]
    for players in (2, 3, 5):
        us_n, gps_n, actions_n, _ = play(players, OTHER_GAMES)
        lines.append(
            f"florence {players}p: {us_n:.1f} us/action = {us_n / bare:.2f} bare triggers, "
            f"{gps_n:.1f} games/s, {actions_n / OTHER_GAMES:.0f} actions/game"
        )
    us_b, gps_b, actions_b, busy = play(4, OTHER_GAMES, busy_action)
    lines.append(
        f"florence 4p busy (no pass while anything else is legal): {us_b:.1f} us/action = "
        f"{us_b / bare:.2f} bare triggers, {gps_b:.1f} games/s, "
        f"{actions_b / OTHER_GAMES:.0f} actions/game"
    )
    solo: list[State] = []
    for name, options in SOLO_VARIANTS:
        us_s, gps_s, actions_s, more = play(1, SOLO_GAMES, options=options)
        solo += more
        lines.append(
            f"florence 1p solo ({name}): {us_s:.1f} us/action = {us_s / bare:.2f} bare "
            f"triggers, {gps_s:.1f} games/s, {actions_s / SOLO_GAMES:.0f} actions/game"
        )
    clone_us, dict_us, public_us, seat_us = copy_costs(samples + busy + solo)
    lines.append(
        f"florence clone: {clone_us:.1f} us; to_dict + state_from_dict: {dict_us:.1f} us; "
        f"observe(): {public_us:.1f} us, observe(seat): {seat_us:.1f} us"
    )
    return lines
