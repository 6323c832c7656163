"""A Florence player with a plan: be in the active Noble's queue when it scores.

From the rulebook: "the Active Noble (who just moved) awards victory points to players
with Family Members on their destination" (Cosimo by queue position, Contessina the same
"except she will not award VPs to Debutants", Giovanni to whoever "Controls" it, "if they
spend time to talk to him"), and each Noble's Destination marker shows where it goes
next. So on its turn this player:

- claims Giovanni's award whenever it is offered and affordable;
- after passing, swaps one of its pieces forward at its ring, else takes 1 VP (1 time
  when it is short of time);
- otherwise tries the actions that change the coming scoring (dispatch, promote, move,
  rush, scandal cards) and brags, on a determinization of the position, and takes the
  one that gains most for its time: its VP plus what the active Noble would pay it if
  it scored now, plus half of what the next Noble would pay at its destination, in
  Giovanni's rounds keeping the time his award costs; if nothing gains enough, it passes,
  its ring where it has a piece in the active Noble's queue.

Moving along one's own Escort costs no time ("gain 1 time"), so a piece can be shuffled
for ever: like the bots, it never takes the same action twice in one position
(`engine.bots.Trail`).
"""

from __future__ import annotations

import random

from engine.bots import Trail
from engine.core import Action, State
from engine.florence.observation import FlorenceObservation
from engine.florence.society import piece_index
from engine.florence.tables import CONTESSINA, DEBUTANT, GIOVANNI

TIME_VP = 0.5
"""What a unit of time is worth: 'Each player scores 1 VP for every 2 Time'."""
TRIED = ("dispatch", "promote", "move", "rush", "brag", "scandal", "step", "done", "stop")
"""Action verbs whose effect on the coming scoring the player works out."""
GAIN = 1.0
"""The least gain (in VP, time spent counted) worth an action rather than a pass."""


def _scored(obs: FlorenceObservation, seat: int, rnd: int, weight: float) -> float:
    """What the Noble active in round `rnd` would pay `seat` at its destination now."""
    t = obs.tables
    if rnd > t.rounds:
        return 0.0
    noble = t.active_noble(rnd)
    dest = obs.nobles[noble].destination
    if dest < 0:
        return 0.0
    queue = obs.locations[dest].queue
    if noble == GIOVANNI:
        counts: dict[int, int] = {}
        for piece in queue:
            counts[piece.seat] = counts.get(piece.seat, 0) + 1
        mine = counts.get(seat, 0)
        if not mine:
            return 0.0
        place = sum(1 for s, n in counts.items() if s != seat and n >= mine)
        awards = t.giovanni[rnd]
        return weight * awards[place][0] if place < len(awards) else 0.0
    total = 0.0
    for value, piece in zip(t.queue_vp[rnd], queue, strict=False):
        if piece.seat == seat and not (noble == CONTESSINA and piece.rank == DEBUTANT):
            total += value
    return weight * total


class FlorencePlanner:
    """The purposeful Florence player (see the module's docstring)."""

    name = "purposeful"

    def __init__(self) -> None:
        self.trail = Trail()  # never the same move twice in one position: escorts loop

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        return self.trail.chosen(state, seat, self._choose(state, seat, rng))

    def _choose(self, state: State, seat: int, rng: random.Random) -> Action:
        legal = self.trail.fresh(state, seat)
        if len(legal) == 1:
            return legal[0]
        obs = state.observe(seat)
        assert isinstance(obs, FlorenceObservation)
        by_verb: dict[str, list[Action]] = {}
        for action in legal:
            by_verb.setdefault(action.text.split()[0], []).append(action)
        if "claim" in by_verb:
            return by_verb["claim"][0]
        if "bonus" in by_verb:
            return self._bonus(obs, seat, by_verb["bonus"])
        if "place" in by_verb:
            return self._where(obs, by_verb["place"], rng)
        best = self._best(state, obs, seat, rng, [a for v in TRIED for a in by_verb.get(v, [])])
        if best is not None:
            return best
        if "pass" in by_verb:
            return self._where(obs, by_verb["pass"], rng, seat)
        calm = [a for a in legal if a.text.split()[0] not in ("discard", "gift")]
        pool = calm or legal
        return pool[rng.randrange(len(pool))]

    def _value(self, obs: FlorenceObservation, seat: int) -> float:
        """VP, what this round's Noble would pay now, half of what the next one would."""
        rnd = max(obs.round or 1, 1)
        me = obs.boards[seat]
        value = me.vp + TIME_VP * me.time + _scored(obs, seat, rnd, 1.0)
        value += _scored(obs, seat, rnd + 1, 0.5)
        if obs.tables.active_noble(rnd) == GIOVANNI:  # keep the time his first award costs
            value -= TIME_VP * max(0, obs.tables.giovanni[rnd][0][1] - me.time)
        return value

    def _best(
        self,
        state: State,
        obs: FlorenceObservation,
        seat: int,
        rng: random.Random,
        tried: list[Action],
    ) -> Action | None:
        """The tried action gaining most over passing, if it gains at least `GAIN`."""
        if not tried:
            return None
        world = state.game.determinize(state, seat, rng)
        now = self._value(obs, seat)
        best: Action | None = None
        top = GAIN
        for action in tried:
            after = world.clone()
            after.apply(action)
            seen = after.observe(seat)
            assert isinstance(seen, FlorenceObservation)
            gain = self._value(seen, seat) - now
            if gain > top:
                best, top = action, gain
        return best

    @staticmethod
    def _bonus(obs: FlorenceObservation, seat: int, bonuses: list[Action]) -> Action:
        """A swap that moves one of its pieces forward, else 1 VP (1 time when short)."""
        ring = next((loc for loc in obs.locations if loc.ring == seat), None)
        for action in bonuses:
            words = action.text.split()
            if words[1] == "swap" and ring is not None:  # "bonus swap A B": A just ahead of B
                behind = piece_index(words[3])
                if ring.queue[behind].seat == seat:
                    return action
        want = "bonus time" if obs.boards[seat].time < 2 else "bonus vp"
        return next(a for a in bonuses if a.text == want)

    @staticmethod
    def _where(
        obs: FlorenceObservation, options: list[Action], rng: random.Random, seat: int = -1
    ) -> Action:
        """A placement or a ring: the active Noble's destination, then the next Nobles'
        (for a ring, one where it has a piece), else any."""
        names = obs.tables.loc_names
        nobles = obs.nobles
        order = [nobles[(obs.active_noble + k) % 3].destination for k in range(3)]
        if seat >= 0:
            order = [
                d for d in order if d >= 0 and any(p.seat == seat for p in obs.locations[d].queue)
            ]
        for dest in order:
            if dest < 0:
                continue
            for action in options:
                if action.text.split()[-1] == names[dest]:
                    return action
        return options[rng.randrange(len(options))]
