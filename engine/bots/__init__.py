"""Seat players that know only what their seat may know: random, greedy, ISMCTS.

Every bot answers `choose(state, seat, rng) -> Action` for the seat whose turn it is.
A bot reads a position through `state.observe(seat)` and through the game's
`determinize` (engine.core.hidden), never through another seat's secrets, and draws
all its randomness from the `rng` it is given, so a decision is reproducible.
docs/bots.md says what each one does and what is not built yet.
"""

from .base import Bot, GameTrails, RandomBot, Trail, outcome, play_game
from .greedy import GreedyBot, evaluate, judge
from .ismcts import Budget, IsmctsBot, SearchStats
from .ladder import DEFAULT_LEVEL, LEVELS, decide, decision_rng, make_bot

__all__ = [
    "DEFAULT_LEVEL",
    "LEVELS",
    "Bot",
    "Budget",
    "GameTrails",
    "GreedyBot",
    "IsmctsBot",
    "RandomBot",
    "SearchStats",
    "Trail",
    "decide",
    "decision_rng",
    "evaluate",
    "judge",
    "make_bot",
    "outcome",
    "play_game",
]
