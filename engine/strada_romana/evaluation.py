"""How the bots judge a Strada Romana position: each seat's score as the rulebook counts
it at the end, with what is still open valued by what it may become.

"Victory Points + Wagon Points + Total contract Points = FINAL SCORE": contracts are
"the number of coloured contracts stipulated x number of the more frequent colour" less
1 "for each cube or 'ware' tile owned that does not form part of a contract", "1 victory
point = 5 coins", and a wagon tile gives 3 if its wagon arrives and -1 if not. Until the
end, per seat:

- one loose cube or ware tile of a colour costs nothing (it is half of a contract that
  may still be matched); each more of that colour counts as half its end penalty;
- a wagon tile of an arrived wagon counts 3; any other, `TILE` (what an arrival three
  times in four is worth: its wagon is unknown to the other seats, and to the seat
  itself it is one of ten wagons, four of which arrive);
- coins count a fifth of a Victory Point.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .observation import Holding, StradaRomanaObservation

TILE = 0.6
"""A wagon tile whose wagon has not arrived: 3 x 0.4 - 1 x 0.6 (4 arrivals of 10)."""
EXTRA_LOOSE = 0.5
"""Each loose piece of a colour past the first, in points (-1 at the end)."""


def contracts(mine: Holding) -> float:
    """Contract points as they would be counted now, loose pieces valued as above."""
    made = [min(c, w) for c, w in zip(mine.cubes, mine.ware_tiles, strict=True)]
    loose = [abs(c - w) for c, w in zip(mine.cubes, mine.ware_tiles, strict=True)]
    colours = sum(1 for n in made if n)
    return colours * max(made, default=0) - EXTRA_LOOSE * sum(max(0, n - 1) for n in loose)


def evaluate(obs: StradaRomanaObservation) -> list[float]:
    """Each seat's expected score (see the module's docstring)."""
    if obs.over and obs.scores is not None:
        return [float(s) for s in obs.scores]
    own = getattr(obs, "own_wagon_tiles", None)
    arrived = {w.name for w in obs.wagons if w.arrived}
    out = []
    for seat, mine in enumerate(obs.holdings):
        tiles = TILE * mine.wagon_tiles
        if own is not None and seat == obs.seat:
            known = [w for w in own if w is not None]
            tiles += sum(3.0 - TILE for w in known if w in arrived)
        out.append(mine.victory_points + mine.coins / 5 + contracts(mine) + tiles)
    return out
