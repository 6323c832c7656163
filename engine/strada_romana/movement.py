"""Strada Romana, Playing the Game and a) Moving the Wagons: the turn, the steps of the
wagons along the board's lines, and the must-move rule ('Players must always move by 3
squares, unless traffic blocks their way'), enforced exactly by a small search."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from engine.core import Event, Rule, in_phases

from . import goods, scoring, special_moves, wagon_tiles
from .board import ARRIVED, HEADINGS, TO_ROME, Board, SpecialMove
from .flow import FLOW, step_text, wagon_name

if TYPE_CHECKING:
    from .rules import StradaRomanaState

MUST_MOVE = "Players must always move by 3 squares, unless traffic blocks their way"
_EXTRA, _SIDEWAYS, _STACKING = SpecialMove.EXTRA, SpecialMove.SIDEWAYS, SpecialMove.STACKING


class Road(Protocol):
    """The part of a position the movement rules read: wagons and the move in progress.

    The state is one; the public observation builds another (`PublicRoad`), so the table
    can ask where a wagon can get without the state. The search mutates `pos`, `occ`,
    `finished` and `arrived` while it looks ahead, and restores them."""

    board: Board
    special: SpecialMove
    pos: list[int]
    head: list[int]
    occ: list[int]
    finished: list[int]
    arrived: list[int]
    used: int
    moved: int
    mover: int
    trail: int


class PlayingTheGame(Rule["StradaRomanaState"]):
    """'During their turn, players can choose among three options: a) To move the wagons
    (possibly collecting cubes and/or "ware" tiles); b) To pick a "wagon tile" (only
    three times in a game); c) To Pass and take a coin.'

    A turn is one of the three (ruling 14): once a special move is bought or a wagon has
    stepped, the turn is a move, and `tile` or `pass` is refused."""

    heading = "Playing the Game"
    refuses = in_phases(
        turn=("end",),
        special=("tile", "pass"),
        moving=("tile", "pass"),
        stopped=("tile", "pass"),
    )

    def refuse(self, state: StradaRomanaState, verb: str, arg: str) -> str | None:
        if verb == "end":
            return (
                "'end' closes a move: a turn is moving the wagons, choosing a wagon tile, "
                "or passing."
            )
        return (
            "This turn is a move: a turn is one of moving the wagons, "
            "choosing a wagon tile, or passing."
        )

    def prompt(self, state: StradaRomanaState) -> str:
        tile = ", take a wagon tile" if wagon_tiles.CHOOSING.may_take(state, state.seat) else ""
        return f"{state.who(state.seat)}: move wagons (3 steps){tile}, or pass and take a coin."

    @staticmethod
    def begin_turn(state: StradaRomanaState, seat: int) -> None:
        state.seat = seat
        state.turn += 1
        state.last[seat] = state.turn  # the tie-break's 'the player that played last'
        state.special = SpecialMove.NONE
        state.took = 0
        state.used = state.moved = state.trail = 0
        state.mover = state.stop_at = -1
        state._first = None

    def end_turn(self, state: StradaRomanaState, events: list[Event]) -> None:
        """'and then proceed clockwise'."""
        events.append(Event("turn_ended", {"player": state.seat}))
        self.begin_turn(state, (state.seat + 1) % state.players)
        FLOW.fire(state, "next_turn")


class MovingTheWagons(Rule["StradaRomanaState"]):
    """'Players move by 3 squares, splitting the moves as they like. For example, they
    can: move one wagon by 3 squares, move one wagon by 2 squares towards Rome and another
    wagon by 1 square towards Ostia-Portus, or move three wagons by 1 square. Players must
    always move by 3 squares, unless traffic blocks their way. In this case, they can buy
    a Special Move'.

    A wagon's steps are taken together, ended by `stop` or by themselves (ruling 4).
    'must always' is exact (ruling 6): a step, `stop` or `end` is offered only if it keeps
    the most steps the traffic still allows, up to three; a small search over the turn's
    remaining steps proves it (tests/engine/strada_romana/test_reference.py checks it
    against a brute force)."""

    heading = "a) Moving the Wagons"
    plays = in_phases(
        turn=("step",),
        special=("step",),
        moving=("step", "stop"),
        stopped=("step", "end"),
    )
    refuses = in_phases(turn=("stop",), special=("stop", "end"), moving=("end",), stopped=("stop",))

    # -- what may be done ------------------------------------------------------------------
    def texts(self, state: StradaRomanaState) -> Sequence[str]:
        phase = state.phase
        if phase == "moving":
            return self.moving_texts(state)
        b, head = state.board, state.head
        steps = [step_text(b, head, w, t) for w, t in self.first_steps_now(state)]
        if phase == "stopped" and (not steps or state.used >= b.steps):
            return [*steps, "end"]  # 'unless traffic blocks their way', or three are taken
        return steps

    def moving_texts(self, state: StradaRomanaState) -> list[str]:
        targets, can_stop = self.moving_steps(state)
        b, head, w = state.board, state.head, state.mover
        texts = [step_text(b, head, w, t) for t in targets]
        if can_stop:
            texts.append("stop")
        return texts

    def first_steps_now(self, state: StradaRomanaState) -> list[tuple[int, int]]:
        """`first_steps` of the state, found once per position: whether any wagon can step
        decides the special moves on offer and the end of a turn, too."""
        steps = state._first
        if steps is None:
            steps = state._first = self.first_steps(state)
        return steps

    def first_steps(self, road: Road) -> list[tuple[int, int]]:
        """(wagon, square) of every first step of a new wagon move (none is moving now)."""
        b = road.board
        left = b.allowance(road.special) - road.used
        if left <= 0:
            return []
        pos, occ = road.pos, road.occ
        moved = road.moved
        cands: list[tuple[int, int]] = []
        for w, sq in enumerate(pos):
            if sq < 0 or moved >> w & 1:
                continue
            occ[sq] = -1
            for t in THE_WAGONS.targets(road, w, left, 1 << sq):
                cands.append((w, t))
            occ[sq] = w
        need = b.steps - road.used
        if not cands or need <= 0:
            return cands
        count, goal = self.match(road, moved, -1)
        finish = b.finish
        values = []
        for w, t in cands:
            if (
                count >= need
                and (t == finish or occ[t] < 0)
                and self.spared(road, w, t, count, goal) >= need - 1
            ):
                values.append(need)  # step, stop there, and the others step apart
                continue
            sq = pos[w]
            occ[sq] = -1
            values.append(1 + self.after_step(road, w, t, moved | 1 << w, left, need, 1 << sq))
            occ[sq] = w
        most = max(values)
        return [c for c, v in zip(cands, values, strict=True) if v >= most]

    def moving_steps(self, road: Road) -> tuple[list[int], bool]:
        """The moving wagon's next squares, and whether it may stop where it is."""
        b = road.board
        w = road.mover
        sq = road.pos[w]
        left = b.allowance(road.special) - road.used
        need = b.steps - road.used
        occ = road.occ
        can_stop = occ[sq] < 0
        trail = road.trail
        targets = THE_WAGONS.targets(road, w, left, trail) if left > 0 else []
        if need <= 0 or not targets:
            return targets, can_stop
        moved = road.moved
        count = self.match(road, moved, sq)[0] if can_stop else 0
        finish = b.finish
        values = []
        for t in targets:
            if count >= need and (t == finish or occ[t] < 0):
                values.append(need)  # step, stop there, and the others step apart
            else:
                values.append(1 + self.after_step(road, w, t, moved, left, need, trail))
        stay = -1
        if can_stop:
            if count >= need:
                stay = need
            else:
                occ[sq] = w
                stay = self.search_next(road, moved, left, need)
                occ[sq] = -1
        most = max(*values, stay)
        return [t for t, v in zip(targets, values, strict=True) if v >= most], stay >= most

    # -- the must-move search ------------------------------------------------------------------
    def match(self, road: Road, moved: int, block: int) -> tuple[int, list[int]]:
        """Unmoved wagons that surely can each take one step, to distinct free squares.

        Greedy, so a lower bound: its count and each wagon's square (-1 unmatched;
        FINISH may repeat). Enough to skip the exact search in open traffic: if
        `count` wagons can step apart, `count` more steps are certain.
        """
        b = road.board
        occ, pos, head = road.occ, road.pos, road.head
        moves = b.steps_with[road.special]
        finish = b.finish
        goal = [-1] * len(pos)
        room = [b.finish_squares - road.finished[0], b.finish_squares - road.finished[1]]
        count = 0
        for w, sq in enumerate(pos):
            if sq < 0 or moved >> w & 1:
                continue
            h = head[w]
            for t in moves[h][sq]:
                if t == finish:
                    if room[h] > 0:
                        room[h] -= 1
                        goal[w] = t
                        count += 1
                        break
                elif occ[t] < 0 and t != block and t not in goal:
                    goal[w] = t
                    count += 1
                    break
        return count, goal

    @staticmethod
    def spared(road: Road, w: int, t: int, count: int, goal: list[int]) -> int:
        """Matched wagons other than `w` that can still step apart after `w` steps to `t`."""
        left = count - (goal[w] >= 0)
        b = road.board
        if t == b.finish:
            h = road.head[w]
            full = sum(1 for v, g in enumerate(goal) if g == t and road.head[v] == h and v != w)
            if full + road.finished[h] >= b.finish_squares:
                left -= 1
        elif t in goal and goal[w] != t:
            left -= 1
        return left

    def search_moving(
        self, road: Road, mover: int, moved: int, left: int, cap: int, trail: int
    ) -> int:
        """The most further steps (at most `cap`) this turn can still take, `mover` moving.

        Enforces 'Players must always move by 3 squares, unless traffic blocks their
        way' exactly: a choice is legal only if it keeps the most steps the traffic
        allows. Mutates pos/occ while searching and restores them.
        """
        if cap <= 0 or left <= 0:
            return 0
        best = 0
        for t in THE_WAGONS.targets(road, mover, left, trail):  # going on: try it first
            got = 1 + self.after_step(road, mover, t, moved, left, cap, trail)
            if got > best:
                best = got
                if best >= cap:
                    return cap
        occ = road.occ
        sq = road.pos[mover]
        if occ[sq] < 0:  # it may stop here and let other wagons move
            occ[sq] = mover
            got = self.search_next(road, moved, left, cap)
            occ[sq] = -1
            best = max(best, got)
        return best

    def search_next(self, road: Road, moved: int, left: int, cap: int) -> int:
        """The most further steps (at most `cap`) when no wagon is moving: the next wagon
        that has not moved this turn begins its move (see `search_moving`)."""
        if cap <= 0 or left <= 0:
            return 0
        if self.match(road, moved, -1)[0] >= cap:
            return cap
        pos, occ = road.pos, road.occ
        best = 0
        for w, sq in enumerate(pos):
            if sq < 0 or moved >> w & 1:
                continue
            occ[sq] = -1
            for t in THE_WAGONS.targets(road, w, left, 1 << sq):
                got = 1 + self.after_step(road, w, t, moved | 1 << w, left, cap, 1 << sq)
                if got > best:
                    best = got
                    if best >= cap:
                        break
            occ[sq] = w
            if best >= cap:
                return cap
        return best

    def after_step(
        self, road: Road, w: int, t: int, moved: int, left: int, cap: int, trail: int
    ) -> int:
        """Further steps after the lifted wagon `w` steps to `t` (for the search)."""
        pos = road.pos
        sq = pos[w]
        b = road.board
        if t == b.finish:
            if len(road.arrived) + 1 >= b.arrivals:
                return cap - 1  # the game ends at once: no step is owed any more
            h = road.head[w]
            pos[w] = ARRIVED
            road.finished[h] += 1
            road.arrived.append(w)
            got = self.search_next(road, moved, left - 1, cap - 1)
            road.arrived.pop()
            road.finished[h] -= 1
        else:
            pos[w] = t
            trail = THE_WAGONS.trail(b, sq, t, trail)
            got = self.search_moving(road, w, moved, left - 1, cap - 1, trail)
        pos[w] = sq
        return got

    def reach(self, road: Road, w: int) -> dict[int, int]:
        """Where wagon `w` can get with the turn's remaining steps, as the legal actions
        say step by step: square (FINISH for an arrival) -> the step that first gets there,
        1 for the next. A move that could only stop has ended, so it goes no further."""
        found: dict[int, int] = {}
        if road.mover >= 0:
            if road.mover == w:
                self._reach_on(road, w, self.moving_steps(road)[0], 1, found)
            return found
        firsts = [t for v, t in self.first_steps(road) if v == w]
        if not firsts:
            return found
        sq, moved, trail = road.pos[w], road.moved, road.trail
        road.occ[sq], road.mover, road.moved, road.trail = -1, w, moved | 1 << w, 1 << sq
        try:
            self._reach_on(road, w, firsts, 1, found)
        finally:
            road.occ[sq], road.mover, road.moved, road.trail = w, -1, moved, trail
        return found

    def _reach_on(
        self, road: Road, w: int, targets: list[int], depth: int, found: dict[int, int]
    ) -> None:
        b = road.board
        for t in targets:
            found[t] = min(found.get(t, depth), depth)
            if t == b.finish:
                continue  # an arrival ends the move
            sq, trail = road.pos[w], road.trail
            road.pos[w], road.used, road.trail = t, road.used + 1, THE_WAGONS.trail(b, sq, t, trail)
            try:
                self._reach_on(road, w, self.moving_steps(road)[0], depth + 1, found)
            finally:
                road.pos[w], road.used, road.trail = sq, road.used - 1, trail

    # -- carrying it out -------------------------------------------------------------------
    def apply(self, state: StradaRomanaState, verb: str, arg: str, events: list[Event]) -> None:
        if verb == "step":
            b = state.board
            wagon, target = arg.split()
            t = b.finish if target in HEADINGS else b.square_index[target]
            self.step(state, b.wagon_index[wagon], t, events)
        elif verb == "stop":
            self.stop(state, events)
        else:
            PLAYING.end_turn(state, events)

    def step(self, state: StradaRomanaState, w: int, t: int, events: list[Event]) -> None:
        b = state.board
        src = state.pos[w]
        if state.phase != "moving":  # a new wagon's move begins
            state.mover = w
            state.moved |= 1 << w
            state.occ[src] = -1
            state.stop_at = -1
            state.trail = 1 << src
            FLOW.fire(state, "step")
        state.used += 1
        if t == b.finish:
            self.arrive(state, w, src, events)
            return
        state.pos[w] = t
        state.trail = THE_WAGONS.trail(b, src, t, state.trail)
        events.append(
            Event(
                "wagon_moved",
                {"wagon": b.wagons[w], "from": b.square_names[src], "to": b.square_names[t]},
            )
        )
        texts = self.moving_texts(state)
        if texts == ["stop"]:  # no step left to take: the move ends by itself
            self.stop(state, events)
        else:
            state._texts = texts

    def arrive(self, state: StradaRomanaState, w: int, src: int, events: list[Event]) -> None:
        """A step off the last squares of the road (ruling 11); the fourth arrival ends
        the game."""
        b = state.board
        h = state.head[w]
        state.pos[w] = ARRIVED
        state.arrived.append(w)
        state.finished[h] += 1
        state.mover = -1
        state.trail = 0
        order = len(state.arrived)
        events.append(
            Event(
                "wagon_arrived",
                {
                    "wagon": b.wagons[w],
                    "from": b.square_names[src],
                    "at": HEADINGS[h],
                    "order": order,
                },
            )
        )
        if order >= b.arrivals:
            scoring.GAME_END.end(state, "arrivals", events)
        else:
            self.settle(state, events)

    def stop(self, state: StradaRomanaState, events: list[Event]) -> None:
        w = state.mover
        sq = state.pos[w]
        state.occ[sq] = w
        state.stop_at = sq
        state.mover = -1
        state.trail = 0
        b = state.board
        events.append(Event("wagon_stopped", {"wagon": b.wagons[w], "square": b.square_names[sq]}))
        self.settle(state, events)

    def settle(self, state: StradaRomanaState, events: list[Event]) -> None:
        """After a move ended or a refill: 'Only when a wagon ends its move on a square can
        the player immediately take' its goods; then the next wagon moves, or, with
        nothing left to choose, the turn ends by itself."""
        if not (
            goods.TAKING_CUBES.offer(state)
            or goods.TAKING_WARES.offer(state)
            or self.first_steps_now(state)
        ):
            PLAYING.end_turn(state, events)
            return
        if state.phase == "moving":
            FLOW.fire(state, "stop")
        elif state.phase == "refill":
            FLOW.fire(state, "refilled")
        state._texts = None  # a new menu: the legal texts are asked of the rulebook

    # -- refusals ----------------------------------------------------------------------------
    def refuse(self, state: StradaRomanaState, verb: str, arg: str) -> str | None:
        if verb == "step":
            return self.refuse_step(state, arg)
        if verb == "stop":
            if state.phase != "moving":
                return "No wagon is moving: 'stop' ends the move of the wagon that is moving."
            if arg:
                return "'stop' takes no more words."
            return self.refuse_stop(state)
        if state.phase != "stopped":  # end
            return f"{MUST_MOVE}: the turn ends once the steps are taken. {state.waiting_for()}"
        if arg:
            return "'end' takes no more words."
        return f"{MUST_MOVE}: a wagon can still move, and {state.used} of 3 steps are taken."

    def refuse_step(self, state: StradaRomanaState, arg: str) -> str:
        b = state.board
        words = arg.split()
        if len(words) != 2:
            return "A step is written 'step WAGON SQUARE', e.g. 'step ballio 121'."
        w = b.wagon_index.get(words[0])
        if w is None:
            return f"There is no wagon '{words[0]}': the wagons are {', '.join(b.wagons)}."
        name = wagon_name(state, w)
        if state.pos[w] == ARRIVED:
            return f"{name} has already arrived at its destination."
        if state.phase == "moving" and w != state.mover:
            return (
                f"{wagon_name(state, state.mover)} is moving: end its move with 'stop' before "
                f"moving {name} (a wagon's steps are taken together)."
            )
        if state.phase != "moving" and state.moved >> w & 1:
            return f"{name} has already moved this turn: each wagon makes one move per turn."
        why = self.refuse_allowance(state) or THE_WAGONS.refuse_step(state, w, words[1])
        return (
            why or f"{MUST_MOVE}: after this step fewer steps would remain than the traffic allows."
        )

    @staticmethod
    def refuse_allowance(state: StradaRomanaState) -> str | None:
        """'Players move by 3 squares', four with the extra move: none is left."""
        if state.used < state.board.allowance(state.special):
            return None
        if not state.special.includes(_EXTRA):
            return (
                "Players move by 3 squares: a fourth step needs the extra move "
                "(3 coins), bought at the beginning of the turn."
            )
        return "Even with the extra move a player moves by 4 squares, no more."

    @staticmethod
    def refuse_stop(state: StradaRomanaState) -> str:
        w = state.mover
        other = state.occ[state.pos[w]]
        if other >= 0:
            return (
                f"At the end of its move only one wagon can stay on each square: "
                f"{wagon_name(state, w)} is passing over {wagon_name(state, other)}."
            )
        return f"{MUST_MOVE}: stopping here would leave fewer steps than the traffic allows."

    def prompt(self, state: StradaRomanaState) -> str:
        who = state.who(state.seat)
        allowance = state.board.allowance(state.special)
        if state.phase == "moving":
            return (
                f"{who} moves {wagon_name(state, state.mover)} ({state.used} of {allowance} "
                f"steps): step on, or stop."
            )
        where = ""
        if state.stop_at >= 0:
            at = state.board.square_names[state.stop_at]
            where = f" ({wagon_name(state, state.occ[state.stop_at])} stopped at {at})"
        return f"{who} has used {state.used} of {allowance} steps{where}."


class TheWagons(Rule["StradaRomanaState"]):
    """'The wagons move a square at a time, without changing direction. There can never be
    more than one wagon on a square. The wagons cannot usually pass through an occupied
    square. Therefore, a wagon is blocked when it finds another wagon on the square in
    front of him (regardless of its direction); it can only move if it is entitled to
    avail of a Special Move. ... Wagons can only move straight ahead or diagonally (with
    the exception of the Special Moves) on the squares that link up. ... Wagons cannot go
    backwards. Wagons cannot go sideways unless of Special Moves.'

    The links are the board's (`Board.steps_with`); a wagon never returns to a square of
    its column it left in the same move (ruling 5), and blocks any kind of step (ruling
    7)."""

    heading = "The Wagons"

    @staticmethod
    def targets(road: Road, w: int, left: int, trail: int) -> list[int]:
        """Squares wagon `w` (already lifted if it is not moving) can step to now.

        `trail` marks the squares of its column it has left during this move:
        it does not go back to them.
        """
        b = road.board
        special = road.special
        h = road.head[w]
        occ = road.occ
        finish = b.finish
        sq = road.pos[w]
        out = []
        for t in b.steps_with[special][h][sq]:
            if t == finish:
                if road.finished[h] < b.finish_squares:
                    out.append(t)
            elif trail >> t & 1:
                continue
            elif occ[t] < 0 or (
                special is _STACKING
                and left > 1
                and special_moves.SPECIAL_MOVES.escape(
                    road, t, h, left - 1, TheWagons.trail(b, sq, t, trail)
                )
            ):
                out.append(t)
        return out

    @staticmethod
    def trail(b: Board, sq: int, t: int, trail: int) -> int:
        """The squares of its column a wagon has left, after it steps from `sq` to `t`."""
        if t < b.road and sq < b.road and b.column[t] == b.column[sq]:
            return trail | 1 << t  # sideways: both squares are now behind it
        return 1 << t

    @staticmethod
    def column(b: Board, sq: int) -> int:
        """Column of a square; start squares sit just beyond either end of the road."""
        if sq < b.road:
            return b.column[sq]
        return -1 if sq in b.start[TO_ROME] else len(b.columns)

    def refuse_step(self, state: StradaRomanaState, w: int, target: str) -> str | None:
        """Why wagon `w` cannot step to `target` by the lines of the board and the traffic;
        None if it could (then only the must-move rule forbids it)."""
        b = state.board
        name = wagon_name(state, w)
        sq, h = state.pos[w], state.head[w]
        if target in HEADINGS:
            if target != HEADINGS[h]:
                return f"Wagons never move backwards: {name} is heading to {HEADINGS[h].title()}."
            if b.finish not in b.straight[h][sq]:
                return f"{name} reaches {target.title()} only from the last squares of the road."
            return "All finish squares on that side are taken."
        t = b.square_index.get(target)
        if t is None:
            return f"There is no square '{target}': road squares are numbered 111 to 352."
        if t >= b.road:
            return f"Wagons never move backwards: {name} cannot go back to a start square."
        here = self.column(b, sq)
        ahead = b.column[t] - here if h == TO_ROME else here - b.column[t]
        if ahead < 0:
            return f"Wagons never move backwards: {name} is heading to {HEADINGS[h].title()}."
        return self._refuse_link(state, w, t, ahead) or self._refuse_traffic(state, w, t)

    @staticmethod
    def _refuse_link(state: StradaRomanaState, w: int, t: int, ahead: int) -> str | None:
        """No line links the squares, or only a special move not bought does."""
        b = state.board
        sq, h = state.pos[w], state.head[w]
        if t in b.straight[h][sq]:
            return None
        if t in b.sideways[sq]:
            if state.special.includes(_SIDEWAYS):
                return None
            return (
                "Wagons cannot go sideways unless of Special Moves: buy sideways "
                "(1 coin) at the beginning of the turn."
            )
        if t in b.diagonal[h][sq]:
            return special_moves.SPECIAL_MOVES.refuse_diagonal(state)
        if ahead == 0 and t != sq:
            return (
                "Sideways moves go to the square just above or below (in a 3-square "
                "column, to or from the middle one)."
            )
        if ahead == 1:
            return (
                f"No line links {b.square_names[sq]} to {b.square_names[t]}: wagons move "
                f"along the links, and diagonally only where the diagonal move allows."
            )
        return "Wagons move a square at a time."

    @staticmethod
    def _refuse_traffic(state: StradaRomanaState, w: int, t: int) -> str | None:
        """'without changing direction' and 'never more than one wagon on a square'."""
        name, target = wagon_name(state, w), state.board.square_names[t]
        if state.phase == "moving" and state.trail >> t & 1:
            return (
                f"Wagons move without changing direction: {name} does not go back to "
                f"{target}, which it left during this move."
            )
        other = state.occ[t]
        if other < 0 or other == w:
            return None
        if not state.special.includes(_STACKING):
            return (
                f"There can never be more than one wagon on a square: {wagon_name(state, other)} "
                f"is on {target} and blocks {name} (stacking, 4 coins, passes through)."
            )
        return special_moves.SPECIAL_MOVES.refuse_stacking(target)


PLAYING = PlayingTheGame()
MOVING = MovingTheWagons()
THE_WAGONS = TheWagons()
