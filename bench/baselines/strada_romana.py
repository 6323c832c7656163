"""A Strada Romana player with a plan: contracts.

From the rulebook: "When a player has a 'ware' tile and a cube of the same colour, he has
stipulated a contract, the main system to score points", scored as "the number of
colours in which he holds contracts multiplied by the greatest number of contracts held
of a single colour", less 1 "for each cube or 'ware' tile owned that does not form part
of a contract"; "1 victory point = 5 coins".

A turn is several single steps (buy a special move, step a wagon, stop, collect, end).
At each of its decisions this player plays its turn to the end `SAMPLES` times on
determinizations of the position, its own steps at random, and takes the first step of
the turn that left it best off: contract points, with one loose piece of a colour
counted as a third of a point (half a contract still to be matched) and each more of
that colour as half a point lost, plus a fifth of a point per coin. A pass
earns a coin, so when no turn gains more, it passes.
"""

from __future__ import annotations

import random

from engine.core import CHANCE, Action, State, draw_chance
from engine.strada_romana.observation import StradaRomanaObservation

SAMPLES = 24
"""Turns played out per decision."""
LOOSE = 0.3
"""One loose cube or ware tile of a colour: -1 at the end, but until then half of a
contract that may still be matched; each more of that colour counts -0.5."""


def worth(obs: StradaRomanaObservation, seat: int) -> float:
    """`seat`'s contract points (loose pieces at `LOOSE`), Victory Points and coins."""
    mine = obs.holdings[seat]
    contracts = [min(c, w) for c, w in zip(mine.cubes, mine.ware_tiles, strict=True)]
    loose = [abs(c - w) for c, w in zip(mine.cubes, mine.ware_tiles, strict=True)]
    waiting = sum(LOOSE if n else 0.0 for n in loose) - sum(max(0, n - 1) for n in loose) / 2
    colours = sum(1 for n in contracts if n)
    return colours * max(contracts, default=0) + waiting + mine.victory_points + mine.coins / 5


class ContractTrader:
    """The purposeful Strada Romana player (see the module's docstring)."""

    name = "purposeful"

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        scores: dict[str, list[float]] = {}
        for _ in range(SAMPLES):
            world = state.game.determinize(state, seat, rng)
            first = self._random_own(world, legal, rng)
            world.apply(first)
            steps = 0
            while world.current_player() in (seat, CHANCE) and steps < 30 and not world.is_over():
                if world.current_player() == CHANCE:
                    world.apply(draw_chance(world, rng))
                else:
                    options = world.legal_actions()
                    world.apply(self._random_own(world, options, rng))
                steps += 1
            obs = world.observe(seat)
            assert isinstance(obs, StradaRomanaObservation)
            scores.setdefault(first.text, []).append(worth(obs, seat))
        best = max(scores, key=lambda text: max(scores[text]))
        return next(a for a in legal if a.text == best)

    @staticmethod
    def _random_own(world: State, options: tuple[Action, ...], rng: random.Random) -> Action:
        """One of its own steps at random, a collect whenever one is offered (taking a
        piece is what a turn is for), never a wagon tile (it plays for contracts)."""
        collect = [a for a in options if a.text.startswith("collect")]
        if collect:
            return collect[rng.randrange(len(collect))]
        calm = [a for a in options if a.text.split()[0] not in ("tile", "wagon")]
        pool = calm or list(options)
        return pool[rng.randrange(len(pool))]
