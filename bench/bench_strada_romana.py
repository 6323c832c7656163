"""Strada Romana engine cost, measured in one run beside a bare `transitions` trigger.

Figures: microseconds per applied action over random 4-player games (legal-action
generation, the must-move search and the random choice included), complete games
per second and milliseconds per game, the same for the other player counts, how
many phase triggers an action fires, and what `clone()` and a dict round trip
cost. The target is at most 10 bare triggers per action and under 30 ms a game.
"""

from __future__ import annotations

import time

import engine
from bench.bench_engine import bare_trigger_us
from engine.core import PLAYOUT_LIMIT, State, derive, random_action
from engine.strada_romana import rules

GAMES = 200  # 4-player games for the headline figure
OTHER_GAMES = 50  # per other player count
TRIGGER_GAMES = 20
COPIES = 1_000


def games(players: int, count: int) -> tuple[float, int, int, int, list[State]]:
    """(seconds, actions, longest game, games stopped at the playout bound, a mid-game
    state every 101 actions)."""
    game = engine.get("strada_romana")
    actions = longest = unfinished = 0
    samples: list[State] = []
    start = time.perf_counter()
    for seed in range(count):
        state = game.new_state(players, seed=seed)
        rng = derive(seed, "bench", "strada_romana", players)
        length = 0
        while not state.is_over() and length < PLAYOUT_LIMIT:
            state.apply(random_action(state, rng))
            length += 1
            if length % 101 == 0:
                samples.append(state.clone())
        unfinished += not state.is_over()
        actions += length
        longest = max(longest, length)
    return time.perf_counter() - start, actions, longest, unfinished, samples


def triggers_per_action() -> float:
    """Phase triggers fired per action (counted in untimed games)."""
    fired = 0
    fire = rules.FLOW.fire

    def counting(model: object, trigger: str) -> None:
        nonlocal fired
        fired += 1
        fire(model, trigger)

    rules.FLOW.fire = counting  # type: ignore[method-assign]
    try:
        _, actions, _, _, _ = games(4, TRIGGER_GAMES)
    finally:
        rules.FLOW.fire = fire  # type: ignore[method-assign]
    return fired / actions


def copies(samples: list[State]) -> tuple[float, float]:
    """(us per clone, us per to_dict + state_from_dict)."""
    game = engine.get("strada_romana")
    picked = [samples[i % len(samples)] for i in range(COPIES)]
    start = time.perf_counter()
    for state in picked:
        state.clone()
    clone_us = (time.perf_counter() - start) / COPIES * 1e6
    start = time.perf_counter()
    for state in picked[: COPIES // 5]:
        game.state_from_dict(state.to_dict())
    return clone_us, (time.perf_counter() - start) / (COPIES // 5) * 1e6


def line(players: int, count: int, bare: float) -> tuple[str, list[State]]:
    seconds, actions, longest, unfinished, samples = games(players, count)
    us = seconds / actions * 1e6
    bounded = f", {unfinished} stopped at {PLAYOUT_LIMIT} actions" if unfinished else ""
    text = (
        f"strada_romana {players}p: {us:.1f} us/action = {us / bare:.2f} bare triggers, "
        f"{count / seconds:.1f} games/s = {seconds / count * 1000:.1f} ms/game, "
        f"{actions / count:.0f} actions/game (longest {longest}, {count} games{bounded})"
    )
    return text, samples


def run() -> list[str]:
    bare = bare_trigger_us()
    lines = [f"bare transitions trigger: {bare:.2f} us (target <= 10 per action)"]
    headline, samples = line(4, GAMES, bare)
    lines.append(headline)
    for players in (2, 3, 5):
        lines.append(line(players, OTHER_GAMES, bare)[0])
    lines.append(f"strada_romana phase triggers fired: {triggers_per_action():.2f} per action")
    clone_us, dict_us = copies(samples)
    lines.append(
        f"strada_romana clone: {clone_us:.1f} us; to_dict + state_from_dict: {dict_us:.1f} us"
    )
    return lines
