"""Engine cost per action against a bare `transitions` trigger, measured in one run.

Figures: microseconds per applied action over random games (legal-action
generation and the bot's choice included) and complete games per second,
for every registered game at 4 players (or its nearest count), beside the
cost of one trigger of a bare two-state `transitions` machine.
"""

from __future__ import annotations

import time

from transitions import Machine

import engine
from engine.core import PLAYOUT_LIMIT, derive, play_out

BARE_TRIGGERS = 100_000
GAMES = {"strozzi": 300}  # per-game game counts; others get DEFAULT_GAMES
DEFAULT_GAMES = 100


def bare_trigger_us() -> float:
    class Model:
        pass

    model = Model()
    Machine(
        model=model,
        states=["a", "b"],
        initial="a",
        auto_transitions=False,
        transitions=[
            {"trigger": "go", "source": "a", "dest": "b"},
            {"trigger": "back", "source": "b", "dest": "a"},
        ],
    )
    go, back = model.go, model.back  # type: ignore[attr-defined]
    start = time.perf_counter()
    for _ in range(BARE_TRIGGERS // 2):
        go()
        back()
    return (time.perf_counter() - start) / BARE_TRIGGERS * 1e6


def game_figures(name: str, players: int, games: int) -> tuple[float, float, int, int]:
    """(us per action, games per second, actions, games stopped at the playout bound) over
    `games` random games."""
    game = engine.get(name)
    actions = unfinished = 0
    start = time.perf_counter()
    for seed in range(games):
        state = game.new_state(players, seed=seed)
        unfinished += not play_out(state, derive(seed, "bench", name))
        actions += len(state.history)
    seconds = time.perf_counter() - start
    return seconds / actions * 1e6, games / seconds, actions, unfinished


def run() -> list[str]:
    bare = bare_trigger_us()
    lines = [f"bare transitions trigger: {bare:.2f} us"]
    for name in engine.games():
        game = engine.get(name)
        players = min(max(4, game.min_players), game.max_players)
        us, gps, actions, unfinished = game_figures(name, players, GAMES.get(name, DEFAULT_GAMES))
        bounded = f", {unfinished} stopped at {PLAYOUT_LIMIT} actions" if unfinished else ""
        lines.append(
            f"{name} {players}p: {us:.1f} us/action = {us / bare:.2f} bare triggers, "
            f"{gps:.1f} games/s ({actions} actions{bounded})"
        )
    return lines
