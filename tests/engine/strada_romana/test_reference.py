"""Perft-style checks: legal steps and jam purchases against a plain brute force.

The engine prunes its search over a turn's steps (the must-move rule) with a
greedy bound; this reference walks every sequence of steps with none of that,
straight from the board's link tables, so the two can be compared position by
position over random games.
"""

from __future__ import annotations

import pytest

from engine.core import derive, random_action
from engine.strada_romana import GAME, SpecialMove, StradaRomanaState
from engine.strada_romana.board import ARRIVED, BUYABLE, HEADINGS

from .helpers import arrange, refused, started, steps


class Walk:
    """Every turn a position allows, walked one step at a time."""

    def __init__(self, state: StradaRomanaState, special: SpecialMove) -> None:
        self.s = state
        self.b = state.board
        self.special = special
        self.allowance = self.b.allowance(special)
        self.pos = list(state.pos)
        self.occ = {sq: w for w, sq in enumerate(state.pos) if sq >= 0 and w != state.mover}
        self.finished = list(state.finished)
        self.arrived = len(state.arrived)

    def targets(self, w: int, left: int, seen: set[int]) -> list[tuple[int, str]]:
        """(square, kind) of each single step; kind: plain, sideways, diagonal, through."""
        b, h, sq = self.b, self.s.head[w], self.pos[w]
        out = [(t, "plain") for t in b.straight[h][sq]]
        if self.special.includes(SpecialMove.SIDEWAYS):
            out += [(t, "sideways") for t in b.sideways[sq]]
        if self.special.includes(SpecialMove.DIAGONAL):
            out += [(t, "diagonal") for t in b.diagonal[h][sq]]
        ok = []
        for t, kind in out:
            if t == b.finish:
                if self.finished[h] < b.finish_squares:
                    ok.append((t, kind))
            elif t in seen:
                continue
            elif t not in self.occ:
                ok.append((t, kind))
            elif (
                self.special.includes(SpecialMove.STACKING)
                and left > 1
                and self.escape(t, h, left - 1, seen | {t})
            ):
                ok.append((t, "through"))
        return ok

    def escape(self, sq: int, h: int, left: int, seen: set[int]) -> bool:
        b = self.b
        for t in b.straight[h][sq] + b.sideways[sq] + b.diagonal[h][sq]:
            if t == b.finish:
                if self.finished[h] < b.finish_squares:
                    return True
            elif t in seen:
                continue
            elif t not in self.occ or (left > 1 and self.escape(t, h, left - 1, seen | {t})):
                return True
        return False

    def best(self, mover: int, moved: int, used: int, seen: set[int], want: str = "") -> int:
        """Most further steps; with `want`, 1 if a step of that kind can still come."""
        if used >= self.allowance:
            return 0
        left = self.allowance - used
        res = 0
        if mover >= 0:
            sq = self.pos[mover]
            if sq not in self.occ:
                self.occ[sq] = mover
                res = self.best(-1, moved, used, set(), want)
                del self.occ[sq]
            for t, kind in self.targets(mover, left, seen):
                if want and (kind == want or (want == "fourth" and used == 3)):
                    return 1
                res = max(res, self.after(mover, t, moved, used, seen, want))
            return res
        for w, sq in enumerate(self.pos):
            if sq < 0 or moved >> w & 1:
                continue
            del self.occ[sq]
            for t, kind in self.targets(w, left, {sq}):
                if want and (kind == want or (want == "fourth" and used == 3)):
                    res = 1
                else:
                    res = max(res, self.after(w, t, moved | 1 << w, used, {sq}, want))
            self.occ[sq] = w
        return res

    def after(self, w: int, t: int, moved: int, used: int, seen: set[int], want: str) -> int:
        sq = self.pos[w]
        if t == self.b.finish:
            if self.arrived + 1 >= self.b.arrivals:
                return 0 if want else 99  # the game ends: every step owed is done
            self.pos[w], self.arrived = ARRIVED, self.arrived + 1
            self.finished[self.s.head[w]] += 1
            got = self.best(-1, moved, used + 1, set(), want)
            self.finished[self.s.head[w]] -= 1
            self.pos[w], self.arrived = sq, self.arrived - 1
        else:
            self.pos[w] = t
            got = self.best(w, moved, used + 1, seen | {t}, want)
            self.pos[w] = sq
        return got if want else 1 + got


def step_text(state: StradaRomanaState, w: int, t: int) -> str:
    """The notation of wagon `w` stepping to square `t` (or arriving)."""
    b = state.board
    where = HEADINGS[state.head[w]] if t == b.finish else b.square_names[t]
    return f"step {b.wagons[w]} {where}"


def reference_moves(state: StradaRomanaState) -> set[str]:
    """Steps (and `stop`) that keep the most steps the traffic allows, up to 3."""
    s = state
    walk = Walk(s, s.special)
    need = max(0, s.board.steps - s.used)
    left = walk.allowance - s.used
    values: dict[str, int] = {}
    if s.phase == "moving":
        w = s.mover
        seen = {i for i in range(s.board.finish) if s.trail >> i & 1}
        if left > 0:
            for t, _ in walk.targets(w, left, seen):
                values[step_text(s, w, t)] = walk.after(w, t, s.moved, s.used, seen, "")
        sq = walk.pos[w]
        if sq not in walk.occ:
            walk.occ[sq] = w
            values["stop"] = walk.best(-1, s.moved, s.used, set())
            del walk.occ[sq]
    elif left > 0:
        for w, sq in enumerate(walk.pos):
            if sq < 0 or s.moved >> w & 1:
                continue
            del walk.occ[sq]
            for t, _ in walk.targets(w, left, {sq}):
                values[step_text(s, w, t)] = walk.after(w, t, s.moved | 1 << w, s.used, {sq}, "")
            walk.occ[sq] = w
    capped = {k: min(v, need) for k, v in values.items()}
    most = max(capped.values(), default=0)
    return {k for k, v in capped.items() if v >= most}


def reference_jam_buys(state: StradaRomanaState) -> set[str]:
    """In a jam: every purchase it can pay for after which some wagon can step."""
    b = state.board
    return {
        f"buy {m.word}"
        for m in BUYABLE
        if b.costs[m] <= state.coins[state.seat] and Walk(state, m).best(-1, 0, 0, set()) > 0
    }


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_legal_steps_match_the_brute_force(players: int) -> None:
    """'Players must always move by 3 squares, unless traffic blocks their way.'"""
    checked = jams = 0
    for seed in range(3):
        state = GAME.new_state(players, seed=seed)
        rng = derive(seed, "reference", players)
        while not state.is_over():
            if state.phase in ("turn", "special", "moving", "stopped"):
                legal = {a.text for a in state.legal_actions()}
                moves = {t for t in legal if t.startswith("step") or t == "stop"}
                assert moves == reference_moves(state), (seed, len(state.history))
                checked += 1
                if state.phase == "turn" and not moves:
                    buys = {t for t in legal if t.startswith("buy")}
                    assert buys == reference_jam_buys(state), (seed, len(state.history))
                    jams += 1
            state.apply(random_action(state, rng))
    assert checked > 100 and jams > 0


def test_a_step_that_would_cost_a_later_step_is_refused() -> None:
    """A position found in play: with sideways bought and one step taken, Herennius going
    on to 221 would leave one more step where two are possible."""
    state = arrange(
        started(5),
        wagons={
            "ballio": ["231", "rome"],
            "canopites": ["222", "rome"],
            "curculio": ["252", "portus"],
            "demetrius": ["251", "portus"],
            "hamilcar": [None, "portus"],
            "herennius": ["211", "rome"],
            "maccus": ["232", "rome"],
            "persa": ["241", "rome"],
            "plotus": ["132", "portus"],
            "pseudolus": [None, "portus"],
        },
        arrived=["pseudolus", "hamilcar"],
        phase="stopped",
        seat=3,
        move={
            "special": "sideways",
            "steps": 1,
            "moved": ["plotus"],
            "mover": None,
            "left": [],
            "stopped_at": "132",
            "took": [],
        },
    )
    assert not state.invariants()
    moves = {"step canopites 221", "step herennius 212"}
    assert steps(state) == moves == reference_moves(state)
    refused(state, "step herennius 221", "Players must always move by 3 squares")
