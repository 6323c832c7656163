"""Strozzi engine cost, measured in one run beside a bare `transitions` trigger.

Figures: microseconds per applied action over random 4-player games (legal-action
generation and the random choice included), complete games per second, and what
`clone()`, a `to_dict` / `state_from_dict` round trip and `observe()` (the public
table and one seat) cost on mid-game states. Bots clone a state per simulated
line of play, and the table observes a state for every frame, so both are on
hot paths.
"""

from __future__ import annotations

import time

import engine
from bench.bench_engine import bare_trigger_us
from engine.core import State, derive, random_action

GAMES = 300
COPIES = 3_000


def play(players: int, games: int) -> tuple[float, float, int, list[State]]:
    """(us per action, games per second, actions, a mid-game state every 53 actions)."""
    game = engine.get("strozzi")
    actions = 0
    samples: list[State] = []
    start = time.perf_counter()
    for seed in range(games):
        state = game.new_state(players, seed=seed)
        rng = derive(seed, "bench", "strozzi", players)
        while not state.is_over():
            state.apply(random_action(state, rng))
            actions += 1
            if actions % 53 == 0:
                samples.append(state.clone())
    seconds = time.perf_counter() - start
    return seconds / actions * 1e6, games / seconds, actions, samples


def per_call_us(samples: list[State], call: object, count: int) -> float:
    picked = [samples[i % len(samples)] for i in range(count)]
    start = time.perf_counter()
    for state in picked:
        call(state)  # type: ignore[operator]
    return (time.perf_counter() - start) / count * 1e6


def run() -> list[str]:
    bare = bare_trigger_us()
    game = engine.get("strozzi")
    us, gps, actions, samples = play(4, GAMES)
    lines = [
        f"bare transitions trigger: {bare:.2f} us",
        f"strozzi 4p: {us:.1f} us/action = {us / bare:.2f} bare triggers, {gps:.1f} games/s, "
        f"{actions / GAMES:.0f} actions/game ({GAMES} games)",
    ]
    clone_us = per_call_us(samples, lambda s: s.clone(), COPIES)
    dict_us = per_call_us(samples, lambda s: game.state_from_dict(s.to_dict()), COPIES // 5)
    text = f"strozzi clone: {clone_us:.1f} us; to_dict + state_from_dict: {dict_us:.1f} us"
    if hasattr(samples[0], "observe"):
        public_us = per_call_us(samples, lambda s: s.observe(), COPIES)
        seat_us = per_call_us(samples, lambda s: s.observe(0), COPIES)
        text += f"; observe(): {public_us:.1f} us, observe(seat): {seat_us:.1f} us"
    lines.append(text)
    return lines
