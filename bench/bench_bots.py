"""Bots against each other: ISMCTS at one seat against random seats, then against each
game's purposeful player (bench/baselines: a plan from the rulebook's scoring).

First, random playouts per second of each game at 4 players on the checked and the fast
path. Then, per game and player count: ISMCTS's win rate as a ratio of its fair share
(1/players; a shared win counts its share) with a 95% Wilson interval, the decision time
p50/p95 of its search with the budget below, how many of its playouts were capped
(Strada Romana's endless jam) or judged at the game's horizon (`Game.horizon`), and the
process's peak RSS. The ISMCTS seat moves round the table from game to game. The
issue's figures need `--games 200`:

    python -m bench.bench_bots --games 200

`make bench` runs the small default, which shows the shape of the figures, not their
confidence.
"""

from __future__ import annotations

import argparse
import math
import random
import resource
import sys
import time
from collections.abc import Iterator

import engine
from engine.bots import Bot, Budget, IsmctsBot, RandomBot, outcome, play_game
from engine.core import Action, State, derive, fast_play_out, play_out

from .baselines import PURPOSEFUL

GAMES = 2
"""Games per game, player count and opponent in `make bench` (small: a few minutes)."""
PLAYERS = (3, 4)
BUDGET = Budget(playouts=48, seconds=0.2, clock=time.perf_counter)
"""The decision budget: 48 playouts, or 0.2 s on this machine, whichever comes first."""
NAMES = ("strozzi", "florence", "strada_romana")


class Timed:
    """A bot whose decisions are timed (only those with a real choice)."""

    def __init__(self, bot: IsmctsBot) -> None:
        self.bot = bot
        self.name = bot.name
        self.seconds: list[float] = []

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        start = time.perf_counter()
        action = self.bot.choose(state, seat, rng)
        if len(state.legal_actions()) > 1:
            self.seconds.append(time.perf_counter() - start)
        return action


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    centre = p + z * z / (2 * trials)
    margin = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    scale = 1 + z * z / trials
    return max(0.0, (centre - margin) / scale), min(1.0, (centre + margin) / scale)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def match(name: str, players: int, opponent: type[Bot] | None, games: int) -> str:
    """One line: ISMCTS at one seat against `opponent` at the others (None: the game's
    purposeful player), over `games`."""
    game = engine.get(name)
    opponent = opponent or PURPOSEFUL[name]
    timed = Timed(IsmctsBot(BUDGET))
    won = 0.0
    stopped = 0
    for g in range(games):
        seat = g % players
        bots: list[Bot] = [opponent() for _ in range(players)]
        bots[seat] = timed
        state = game.new_state(players, seed=g)
        play_game(state, bots, g)
        stopped += not state.is_over()
        won += outcome(state)[seat]
    fair = 1 / players
    low, high = wilson(won, games)
    stats = timed.bot.stats
    capped = stats.capped / max(stats.iterations, 1)
    per_decision = stats.iterations / max(stats.decisions, 1)
    return (
        f"{name} {players}p vs {opponent.name}: win {won / games:.2f} = "
        f"{won / games / fair:.2f} x fair share (95% CI {low / fair:.2f}-{high / fair:.2f}, "
        f"{games} games{f', {stopped} stopped at the bound' if stopped else ''}); decision "
        f"p50 {percentile(timed.seconds, 0.5) * 1e3:.0f} ms, p95 "
        f"{percentile(timed.seconds, 0.95) * 1e3:.0f} ms; {per_decision:.0f} playouts/decision"
        f", {stats.capped} of {stats.iterations} playouts capped ({capped:.1%}), "
        f"{stats.judged / max(stats.iterations, 1):.0%} judged at the horizon"
    )


SPEED_GAMES = 100
"""Random games per game for the playout speed lines."""


def playout_speed(name: str, players: int, games: int = SPEED_GAMES) -> str:
    """Random games per second on the checked path (`play_out`) and the fast path
    (`fast_play_out`), the same games on both."""
    game = engine.get(name)
    rates = []
    for run_once in (play_out, fast_play_out):
        start = time.perf_counter()
        for seed in range(games):
            run_once(game.new_state(players, seed=seed), derive(seed, "speed"))
        rates.append(games / (time.perf_counter() - start))
    return (
        f"{name} {players}p random playouts: checked {rates[0]:.0f}/s, fast {rates[1]:.0f}/s "
        f"({rates[1] / rates[0]:.2f}x; {games} games)"
    )


def rss_mb() -> float:
    """Peak resident set size of this process (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def lines(
    games: int = GAMES, players: tuple[int, ...] = PLAYERS, names: tuple[str, ...] = NAMES
) -> Iterator[str]:
    """The figures, each line as soon as it is measured (a 200-game line takes minutes)."""
    cut = ", ".join(f"{g} {engine.get(g).horizon}" for g in names if engine.get(g).horizon)
    yield (
        f"budget: {BUDGET.playouts} playouts or {BUDGET.seconds} s per decision; playouts "
        f"cut at {cut} actions; {games} games per line"
    )
    for name in names:
        yield playout_speed(name, 4)
    for name in names:
        for n in players:
            for opponent in (RandomBot, None):
                yield match(name, n, opponent, games)
    yield f"peak RSS of the process: {rss_mb():.0f} MB"


def run() -> list[str]:
    """`make bench`'s small run."""
    return list(lines())


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.bench_bots",
        description="ISMCTS against random seats and each game's purposeful player.",
    )
    parser.add_argument("--games", type=int, default=GAMES, help=f"games per line ({GAMES})")
    parser.add_argument("--players", type=int, nargs="+", default=list(PLAYERS))
    parser.add_argument("--game", dest="names", nargs="+", choices=NAMES, default=list(NAMES))
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    for line in lines(args.games, tuple(args.players), tuple(args.names)):
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
