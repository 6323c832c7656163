"""How the bots judge a Florence position: the VP each seat can expect from what is on
the table, not only the VP it has.

Most VP come from the Nobles' Queue Scoring ("the Active Noble (who just moved) awards
victory points to players with Family Members on their destination"), and each Noble's
Destination marker shows where it will score on its next turn. A position is worth,
per seat:

- its VP;
- the queue scoring still to come this round, as the queue stands (Cosimo pays by
  position, Contessina the same but "will not award VPs to Debutants", so a Debutant
  there counts for part of what it would earn once promoted; Giovanni pays
  his awards by control to whoever can pay their time), and the next two rounds'
  Nobles at their destinations, discounted, since queues change before they score;
- "1 VP for every 2 Time ... remaining" (what time is worth at the end), and a scandal
  card as the time it can always be traded for plus a little for its ability;
- a scheme card's VP expected over the schemes it could hold (the table learns a scheme
  only at the end), weighed by how far the game has gone.

A seat that passes for time keeps its VP while the others' queues grow, so a search
judged by this no longer mistakes passing for progress.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .tables import CONTESSINA, DEBUTANT, GIOVANNI

if TYPE_CHECKING:
    from .observation import Board, FlorenceObservation, Location
    from .tables import Tables

HAND = 1.2
"""A scandal card: 1 time traded at any moment (0.5 VP at the end), more as an ability."""
PROMOTE = 5
"""Time a Promote costs ('Promote (-5 time)')."""
PROMISE = 0.5
"""How much of a promotion's worth a Debutant in Contessina's queue counts for."""
LATER = (0.5, 0.25)
"""The weight of the next round's and the one after's queue scoring, as they stand."""
ARRIVED = frozenset({"queue_scoring", "cleanup", "final_discards", "schemes", "over"})


def queue_vp(
    t: Tables,
    rnd: int,
    noble: int,
    location: Location,
    boards: Sequence[Board],
    time: Sequence[float],
) -> list[float]:
    """Each seat's VP from `noble`'s queue scoring of round `rnd` at `location` as its
    queue stands (Giovanni's award net of the time it costs, paid only if affordable)."""
    out = [0.0] * len(boards)
    queue = location.queue
    if noble != GIOVANNI:
        for value, piece in zip(t.queue_vp[rnd], queue, strict=False):
            if noble == CONTESSINA and piece.rank == DEBUTANT:
                # paid nothing as it is, but a Promote (5 time) would make it a Donna here
                out[piece.seat] += PROMISE * max(0.0, value - PROMOTE / t.time_per_vp)
                continue
            out[piece.seat] += value
        return out
    count: dict[int, int] = {}
    best: dict[int, int] = {}
    for i, piece in enumerate(queue):
        count[piece.seat] = count.get(piece.seat, 0) + 1
        best.setdefault(piece.seat, i)
    ranked = sorted(count, key=lambda s: (-count[s], best[s]))
    awards = list(t.giovanni[rnd])
    for seat in ranked:
        for k, (vp, cost) in enumerate(awards):
            if time[seat] >= cost:
                out[seat] += vp - cost / t.time_per_vp
                del awards[k]
                break
    return out


def scheme_vp(t: Tables, location_seats: Sequence[Sequence[int]], seat: int) -> float:
    """`seat`'s scheme VP averaged over the schemes it could hold."""
    total = 0.0
    for locs in t.scheme_locs:
        count = sum(location_seats[loc].count(seat) for loc in locs)
        if count >= t.scheme_min:
            total += t.scheme_vp[min(count - t.scheme_min, len(t.scheme_vp) - 1)]
    return total / len(t.scheme_locs)


def evaluate(obs: FlorenceObservation) -> list[float]:
    """Each seat's expected VP as the table stands (see the module's docstring)."""
    t = obs.tables
    rnd = max(obs.round or 1, 1)
    boards = obs.boards
    time = [float(b.time) for b in boards]
    value = [b.vp + b.time / t.time_per_vp + HAND * b.hand_size for b in boards]
    if obs.phase == "over":
        return [float(b.vp) for b in boards]
    upcoming: list[tuple[int, float]] = []
    if obs.phase not in ARRIVED:
        upcoming.append((rnd, 1.0))
    upcoming += [(rnd + 1 + i, w) for i, w in enumerate(LATER)]
    for r, weight in upcoming:
        if r > t.rounds:
            break
        noble = t.active_noble(r)
        dest = obs.nobles[noble].destination
        if dest < 0:
            continue
        for seat, vp in enumerate(queue_vp(t, r, noble, obs.locations[dest], boards, time)):
            value[seat] += weight * vp
    seats_at = [[p.seat for p in loc.queue] for loc in obs.locations]
    progress = rnd / t.rounds
    for seat in range(len(boards)):
        value[seat] += progress * scheme_vp(t, seats_at, seat)
    return value
