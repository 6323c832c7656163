"""Scores that explain themselves: each scoring step as a sentence, the whole game's
breakdown, and the result with the tie-break that decided it.

A game turns the events of its scorings into `ScoreStep`s (`State.score_steps`): who
scored, how much, under which heading of the score sheet (`kind`: "ships", "queues",
"time") and a sentence a player reads ("Seat 2's ship is 1st in Venice: 15."). Only what
happened in the open is a step: Strozzi pays money in public though the totals stay
secret, so its steps name payouts and never a running total.

`breakdown(state)` replays the game from its seed (determinism: the seed and the
actions reproduce every event) and adds the steps up per seat and kind, so a finished
game read back from a journal explains itself as well as one just played.

`State.result(names)` is the last sentence: who won, by how much, and, when the best
score was shared, the rulebook's tie-break that decided it (`State.tiebreak`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .action import Action, Event

if TYPE_CHECKING:
    from .state import SeatNamer, State


@dataclass(frozen=True, slots=True)
class ScoreStep:
    """One scoring step: `player` (a seat index, a solo automa's included) scored
    `points` under `kind`; `sentence` says so in words."""

    player: int
    points: int
    kind: str
    sentence: str


@dataclass(frozen=True)
class Breakdown:
    """A game's scores by kind: `kinds` in the order they first scored, and per seat
    the points of each kind (missing: none)."""

    kinds: tuple[str, ...]
    points: dict[int, dict[str, int]] = field(default_factory=dict)

    def total(self, player: int) -> int:
        return sum(self.points.get(player, {}).values())

    def lines(self, names: SeatNamer, standings: Sequence[tuple[int, int]]) -> list[str]:
        """One line per seat of `standings` (seat, score): 'seat 1: ships 30, markers 45,
        bonus spaces 10 = 85'. Points no step explains (a game that says none of its
        scoring) show as 'other', so a line always adds up to the score."""
        out = []
        for p, score in standings:
            mine = self.points.get(p, {})
            parts = [f"{k} {mine[k]}" for k in self.kinds if mine.get(k)]
            if score != self.total(p):
                parts.append(f"other {score - self.total(p)}")
            out.append(f"{names(p)}: {', '.join(parts) or 'nothing'} = {score}")
        return out


def replayed(state: State) -> Iterator[tuple[Action, list[Event]]]:
    """Every action of `state`'s history with the events it caused, replayed from the
    seed on a fresh state (the state itself is not touched)."""
    fresh = state.game.new_state(
        state.players, seed=state.seed, options=state.options, data=state.data
    )
    for action in state.history:
        yield action, fresh.apply(action)


def breakdown(state: State) -> Breakdown:
    """The scoring steps of the whole game so far, added up per seat and kind; in a game
    not over, with the points its position already counts (`State.standing_steps`)."""
    kinds: dict[str, None] = {}
    points: dict[int, dict[str, int]] = {}
    every = [step for _, events in replayed(state) for step in state.score_steps(events)]
    if not state.is_over():
        every += state.standing_steps()
    for step in every:
        kinds.setdefault(step.kind)
        mine = points.setdefault(step.player, {})
        mine[step.kind] = mine.get(step.kind, 0) + step.points
    return Breakdown(tuple(kinds), points)


def points_text(scores: list[int]) -> str:
    """Scores best first, as a result is read out: '245-43'; '3, -2, -9' when a score is
    below zero (Strada Romana's), which a dash would make a double minus."""
    sep = ", " if min(scores, default=0) < 0 else "-"
    return sep.join(str(v) for v in sorted(scores, reverse=True))


def joined(names: list[str]) -> str:
    """'seat 1', 'seat 1 and seat 2', 'seat 1, seat 2 and seat 3'."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


__all__ = ["Breakdown", "ScoreStep", "breakdown", "joined", "points_text", "replayed"]
