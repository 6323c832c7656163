"""The strength ladder by name, as a table's config and the command line say it."""

from __future__ import annotations

import random

from engine.core import Action, State, derive

from .base import Bot, GameTrails, RandomBot
from .greedy import GreedyBot
from .ismcts import Budget, IsmctsBot

LEVELS = ("random", "greedy", "ismcts")
"""The bots a seat can be given, weakest first."""

DEFAULT_LEVEL = "ismcts"


def make_bot(level: str = DEFAULT_LEVEL) -> Bot:
    """A fresh bot of `level`. The table's ISMCTS has a budget in playouts only, never in
    seconds: the same position then gives the same move, so a resumed game proposes
    what it proposed before the cut."""
    if level == "random":
        return RandomBot()
    if level == "greedy":
        return GreedyBot()
    if level == "ismcts":
        return IsmctsBot(Budget())
    raise ValueError(f"no bot {level!r}: choose one of {', '.join(LEVELS)}")


def decision_rng(state: State, seat: int) -> random.Random:
    """The randomness of `seat`'s decision now: from the game's seed, the seat and the
    number of actions so far, so a decision is the same however often it is asked."""
    return derive(state.seed, "bot", seat, len(state.history))


TRAILS = GameTrails()
"""The trails `decide` gives bots, extended action by action rather than replayed."""


def decide(bot: Bot, state: State, seat: int, trails: GameTrails = TRAILS) -> Action:
    """`bot`'s move for `seat` in `state` (its turn), reproducibly: a function of the
    game so far, so a bot that keeps a trail (engine.bots.Trail) is given the one its
    game's history makes, not what it noted itself (an undone move, a restart). The
    trail comes from `trails`, which replays only the actions played since its last
    decision in the same game (one thread at a time: a table decides in one worker)."""
    if getattr(bot, "trail", None) is not None:
        bot.trail = trails.of_game(state, seat)  # type: ignore[attr-defined]
    return bot.choose(state, seat, decision_rng(state, seat))
