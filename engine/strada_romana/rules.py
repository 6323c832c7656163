"""Strada Romana: the rules of the rulebook, for 2-5 players, one unit per heading.

A turn is a few small actions so that seat buttons can enter it: `buy` a special move
(optional, first), then `step WAGON SQUARE` once per square, `stop` to end a wagon's
move, `collect ...` where it stopped, and `end` when steps are optional. Each heading of
the rulebook is one class below (`engine.core.Rule`), in the rulebook's order, holding
the grammar, legal texts, effect and refusal of the actions it governs;
docs/rules-index.md lists them. A wagon tile is chosen by the player who takes it ("pick
the 'wagon tiles' deck up and choose one of them"), so its identity is that seat's own
input, never a draw: entered when taken (option `wagon_tiles = "when_taken"`) or when
revealed at the end. The engine keeps it; the public observation has no field for it
before the end (observation.py). Interpretations of ambiguous rules are listed in
docs/strada-romana-rulings.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from engine.core import (
    CHANCE,
    LISTS,
    SCALAR,
    SCALARS,
    Event,
    Field,
    Fields,
    Flow,
    Game,
    GameData,
    Observation,
    Option,
    Rule,
    Rulebook,
    State,
    Stored,
    in_phases,
)
from engine.core import seat_name as _seat_name

from .board import (
    ARRIVED,
    BUYABLE,
    HEADINGS,
    SIDES,
    TO_ROME,
    UNPLACED,
    Board,
    SpecialMove,
    arrivals_by_heading,
    board_for,
    occupancy,
)

# --- the flow of a game, as in the rulebook's table of contents ------------------
PHASES = [
    "wagons",  # Game Setup 2: the 10 wagons at random on the starting squares
    "wares",  # 3: one ware tile of each colour at random on the six areas
    "cubes",  # 4: one cube at random on each market-place
    "wagon_tiles",  # 6: one wagon tile back into the box, unseen
    "first_player",  # 7: the starting player at random; starting coins
    "turn",  # Playing the Game: move the wagons, choose a wagon tile, or pass
    "special",  # Special Moves: bought at the beginning of the turn; now move
    "moving",  # a) Moving the Wagons: one wagon takes its steps
    "stopped",  # the wagon ended its move: take a ware tile and/or a cube, move on
    "refill",  # a new cube or ware tile is drawn at random from the bag
    "wagon_tile",  # b) Choose a Wagon Tile: its identity entered as it is taken
    "reveal",  # Game End / Score: all players reveal their wagon tiles
    "over",  # Total Score
]

TRANSITIONS: list[dict[str, Any]] = [
    {"trigger": "wagons_placed", "source": "wagons", "dest": "wares"},
    {"trigger": "wares_placed", "source": "wares", "dest": "cubes"},
    {"trigger": "cubes_placed", "source": "cubes", "dest": "wagon_tiles"},
    {"trigger": "tile_removed", "source": "wagon_tiles", "dest": "first_player"},
    {"trigger": "first_chosen", "source": "first_player", "dest": "turn"},
    {"trigger": "buy", "source": "turn", "dest": "special"},
    {"trigger": "step", "source": ["turn", "special", "stopped"], "dest": "moving"},
    {"trigger": "stop", "source": "moving", "dest": "stopped"},
    {"trigger": "collect", "source": "stopped", "dest": "refill"},
    {"trigger": "refilled", "source": "refill", "dest": "stopped"},
    {"trigger": "take_tile", "source": "turn", "dest": "wagon_tile"},
    {
        "trigger": "next_turn",
        "source": ["turn", "moving", "stopped", "refill", "wagon_tile"],
        "dest": "turn",
    },
    {"trigger": "game_end", "source": ["turn", "moving", "stopped"], "dest": "reveal"},
    {"trigger": "scored", "source": ["turn", "moving", "stopped", "reveal"], "dest": "over"},
]

FLOW = Flow("Strada Romana", PHASES, TRANSITIONS, initial="wagons")

SETUP_PHASES = frozenset(("wagons", "wares", "cubes", "wagon_tiles", "first_player"))
MOVE_PHASES = frozenset(("turn", "special", "moving", "stopped"))
"""The phases of a turn of moving the wagons, in which the seat whose turn it is acts."""
UNKNOWN = -1  # a wagon tile held but not named yet
REMOVE_TEXT = "remove wagon tile"
MUST_MOVE = "Players must always move by 3 squares, unless traffic blocks their way"

_NONE, _SIDEWAYS, _DIAGONAL = SpecialMove.NONE, SpecialMove.SIDEWAYS, SpecialMove.DIAGONAL
_EXTRA, _STACKING = SpecialMove.EXTRA, SpecialMove.STACKING
SPECIAL_BY_WORD: Mapping[str, SpecialMove] = {m.word: m for m in BUYABLE}


CUBE, TILE = 1, 2
"""The goods taken this turn, as bits of `took` (Taking Cubes, 'Number of players')."""
GOODS = (("cube", CUBE), ("tile", TILE))
"""Each kind of goods with its word in the record."""


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


def _coins(n: int) -> str:
    return f"{n} coin" if n == 1 else f"{n} coins"


def seat_name(seat: int) -> str:
    return _seat_name(seat).capitalize()


def _wagon(state: Road, w: int) -> str:
    return state.board.wagons[w].capitalize()


def _words(verb: str, arg: str) -> list[str]:
    """The action as the player wrote it, word by word (`verb` may be two words)."""
    return f"{verb} {arg}".split()


def _step_text(b: Board, head: list[int], w: int, t: int) -> str:
    return b.step_text[w][t + head[w] if t == b.finish else t]


# --- the rulebook, heading by heading --------------------------------------------------
class GameSetup(Rule["StradaRomanaState"]):
    """'2. Place the 10 wagons at random on the starting squares: 5 on the "Portus" side
    and 5 on the "Roma" side. The wagons must be turned towards the road. 3. Place 6
    "ware" tiles (one of each colour) at random on the dedicated area squares. 4. Place
    one cube at random on each market-place along the Roman road. 5. All the remaining
    "ware" tiles and cubes are kept in the bag. 6. Shuffle the 10 "wagon tiles". Remove
    one of them and put it back into the box without looking at it. ... 7. Choose the
    starting player at random, and then proceed clockwise.'

    Every random step is a chance action (rulings 1-3); `cursor` is the start square,
    area or market the next draw fills. Turned towards the road, a wagon's side fixes
    its heading."""

    heading = "Game Setup"
    plays = in_phases(
        wagons=("place",),
        wares=("draw",),
        cubes=("draw",),
        wagon_tiles=("remove",),
        first_player=("start",),
    )

    def texts(self, state: StradaRomanaState) -> Sequence[str]:
        phase = state.phase
        b = state.board
        if phase == "wagons":
            return [b.place_texts[w] for w, p in enumerate(state.pos) if p == UNPLACED]
        if phase == "wares":
            placed = set(state.area)
            return [b.ware_texts[c] for c in range(len(b.colours)) if c not in placed]
        if phase == "cubes":
            return self.from_the_bag(state, "cube")
        if phase == "wagon_tiles":
            return [REMOVE_TEXT]
        return [f"start seat {s + 1}" for s in range(state.players)]

    def apply(self, state: StradaRomanaState, verb: str, arg: str, events: list[Event]) -> None:
        b = state.board
        if verb == "place":
            self.place(state, b.wagon_index[arg], events)
        elif verb == "draw":
            kind, colour = arg.split()
            if kind == "ware":
                self.lay_ware(state, b.colours.index(colour), events)
            else:
                self.lay_cube(state, b.colours.index(colour), events)
        elif verb == "remove":
            events.append(Event("wagon_tile_removed", {}))
            FLOW.fire(state, "tile_removed")
            if state.options["first"] != "random":
                self.choose_first(state, int(state.options["first"]), events)
        else:
            self.choose_first(state, int(arg.split()[1]) - 1, events)

    def refuse(self, state: StradaRomanaState, verb: str, arg: str) -> str | None:
        words = _words(verb, arg)
        if verb == "place":
            b = state.board
            if len(words) != 2 or words[1] not in b.wagon_index:
                return f"Write 'place WAGON'; the wagons are {', '.join(b.wagons)}."
            return f"{words[1].capitalize()} is already on a start square."
        if verb == "draw":
            return self.draw_refusal(state, words)
        if verb == "remove":
            return f"Write '{REMOVE_TEXT}'."
        return f"Write 'start seat N' with N from 1 to {state.players}."

    def prompt(self, state: StradaRomanaState) -> str:
        b = state.board
        phase = state.phase
        if phase == "wagons":
            square, heading = b.start_square(state.cursor)
            side = "Portus" if heading == TO_ROME else "Roma"
            return f"Setup: which wagon stands on {side} start square {b.square_names[square]}?"
        if phase == "wares":
            a = state.cursor
            return f"Setup: which ware tile lies on area {b.area_names[a]} ({b.area_side[a]})?"
        if phase == "cubes":
            market = b.square_names[b.market_square[state.cursor]]
            return f"Setup: draw a cube from the bag for the market at {market}."
        if phase == "wagon_tiles":
            return "Setup: put one wagon tile back into the box without looking at it."
        return "Setup: choose the starting player at random."

    def place(self, state: StradaRomanaState, w: int, events: list[Event]) -> None:
        b = state.board
        sq, heading = b.start_square(state.cursor)
        state.pos[w], state.head[w], state.occ[sq] = sq, heading, w
        events.append(
            Event(
                "wagon_placed",
                {"wagon": b.wagons[w], "square": b.square_names[sq], "to": HEADINGS[heading]},
            )
        )
        self.next_draw(state, state.cursor + 1 == len(state.pos), "wagons_placed")

    def lay_ware(self, state: StradaRomanaState, colour: int, events: list[Event]) -> None:
        b = state.board
        state.area[state.cursor] = colour
        state.bag_tiles[colour] -= 1
        area = b.area_names[state.cursor]
        events.append(Event("ware_placed", {"area": area, "colour": b.colours[colour]}))
        self.next_draw(state, state.cursor + 1 == len(state.area), "wares_placed")

    def lay_cube(self, state: StradaRomanaState, colour: int, events: list[Event]) -> None:
        b = state.board
        state.market[state.cursor] = colour
        state.bag_cubes[colour] -= 1
        square = b.square_names[b.market_square[state.cursor]]
        events.append(Event("cube_placed", {"market": square, "colour": b.colours[colour]}))
        done = state.cursor + 1 == len(state.market) or not any(state.bag_cubes)
        self.next_draw(state, done, "cubes_placed")

    @staticmethod
    def next_draw(state: StradaRomanaState, done: bool, trigger: str) -> None:
        """The next start square, area or market; the next setup step after the last."""
        state.cursor = 0 if done else state.cursor + 1
        if done:
            FLOW.fire(state, trigger)

    @staticmethod
    def choose_first(state: StradaRomanaState, seat: int, events: list[Event]) -> None:
        state.first = seat
        STARTING_COINS.deal(state, seat)
        events.append(Event("first_player", {"player": seat, "coins": list(state.coins)}))
        FLOW.fire(state, "first_chosen")
        PLAYING.begin_turn(state, seat)

    @staticmethod
    def from_the_bag(state: StradaRomanaState, kind: str) -> list[str]:
        """'All the remaining "ware" tiles and cubes are kept in the bag': the draws it
        still allows, of cubes or of ware tiles."""
        b = state.board
        if kind == "cube":
            return [b.cube_texts[c] for c, k in enumerate(state.bag_cubes) if k]
        return [b.ware_texts[c] for c, k in enumerate(state.bag_tiles) if k]

    @staticmethod
    def draw_refusal(state: StradaRomanaState, words: list[str]) -> str:
        """Why a draw from the bag cannot be this one, at setup or to refill."""
        phase = state.phase
        want = "cube" if phase == "cubes" else "ware" if phase == "wares" else state.refill_kind
        if len(words) != 3 or words[1] not in ("cube", "ware"):
            return f"Write 'draw {want} COLOUR'."
        if words[1] != want:
            return f"This draw is not a {words[1]}: {state.describe()}"
        colours = state.board.colours
        if words[2] not in colours:
            return f"There is no colour '{words[2]}': the colours are {', '.join(colours)}."
        if phase == "wares":
            return f"A {words[2]} ware tile is already on an area: one of each colour is placed."
        kind = "cube" if want == "cube" else "ware tile"
        return f"No {words[2]} {kind} is left in the bag."


class StartingCoins(Rule["StradaRomanaState"]):
    """'All players receive coins at the beginning of the game (no coins are given to the
    starting player). See table.' 1st player 0 coins, 2nd 1, 3rd 2, 4th 3, 5th 3,
    counted in turn order from the starting player (ruling 1)."""

    heading = "Starting Coins"

    @staticmethod
    def deal(state: StradaRomanaState, first: int) -> None:
        n = state.players
        for i, coins in enumerate(state.board.starting_coins[:n]):
            state.coins[(first + i) % n] = coins


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
        tile = ", take a wagon tile" if CHOOSING.may_take(state, state.seat) else ""
        return f"{seat_name(state.seat)}: move wagons (3 steps){tile}, or pass and take a coin."

    @staticmethod
    def begin_turn(state: StradaRomanaState, seat: int) -> None:
        state.seat = seat
        state.turn += 1
        state.last[seat] = state.turn  # the tie-break's 'the player that played last'
        state.special = _NONE
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
        steps = [_step_text(b, head, w, t) for w, t in self.first_steps_now(state)]
        if phase == "stopped" and (not steps or state.used >= b.steps):
            return [*steps, "end"]  # 'unless traffic blocks their way', or three are taken
        return steps

    def moving_texts(self, state: StradaRomanaState) -> list[str]:
        targets, can_stop = self.moving_steps(state)
        b, head, w = state.board, state.head, state.mover
        texts = [_step_text(b, head, w, t) for t in targets]
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
            GAME_END.end(state, "arrivals", events)
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
            TAKING_CUBES.offer(state) or TAKING_WARES.offer(state) or self.first_steps_now(state)
        ):
            PLAYING.end_turn(state, events)
            return
        if state.phase == "moving":
            FLOW.fire(state, "stop")
        elif state.phase == "refill":
            FLOW.fire(state, "refilled")
        state._texts = RULEBOOK.texts(state)

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
            return f"{MUST_MOVE}: the turn ends once the steps are taken. {state.describe()}"
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
        name = _wagon(state, w)
        if state.pos[w] == ARRIVED:
            return f"{name} has already arrived at its destination."
        if state.phase == "moving" and w != state.mover:
            return (
                f"{_wagon(state, state.mover)} is moving: end its move with 'stop' before "
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
                f"{_wagon(state, w)} is passing over {_wagon(state, other)}."
            )
        return f"{MUST_MOVE}: stopping here would leave fewer steps than the traffic allows."

    def prompt(self, state: StradaRomanaState) -> str:
        who = seat_name(state.seat)
        allowance = state.board.allowance(state.special)
        if state.phase == "moving":
            return (
                f"{who} moves {_wagon(state, state.mover)} ({state.used} of {allowance} "
                f"steps): step on, or stop."
            )
        where = ""
        if state.stop_at >= 0:
            at = state.board.square_names[state.stop_at]
            where = f" ({_wagon(state, state.occ[state.stop_at])} stopped at {at})"
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
                and SPECIAL_MOVES.escape(road, t, h, left - 1, TheWagons.trail(b, sq, t, trail))
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
        name = _wagon(state, w)
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
            return SPECIAL_MOVES.refuse_diagonal(state)
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
        name, target = _wagon(state, w), state.board.square_names[t]
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
                f"There can never be more than one wagon on a square: {_wagon(state, other)} "
                f"is on {target} and blocks {name} (stacking, 4 coins, passes through)."
            )
        return SPECIAL_MOVES.refuse_stacking(target)


class WagonsPosition(Rule["StradaRomanaState"]):
    """'Players can take a "ware" tile only from the area in the part on which the wagon
    ends its move. ... If on a top square, the player can only take a top "ware" tile. If
    on a middle square, the player can choose a top or a bottom "ware" tile. If on a
    bottom square, the player can only take a bottom "ware" tile.'

    The areas each road square borders are `Board.areas_at`; square 241, alone in its
    column, borders both areas of part B (ruling 19, provisional)."""

    heading = 'Wagon\'s Position and "Ware" Tiles'

    @staticmethod
    def area(state: StradaRomanaState, side: str) -> int | None:
        """The area on `side` of the square where the wagon stopped, if it borders one."""
        b = state.board
        return next((a for a in b.areas_at[state.stop_at] if b.area_side[a] == side), None)

    def refuse_side(self, state: StradaRomanaState, side: str) -> str | None:
        if side not in SIDES:
            return "Write 'collect tile top' or 'collect tile bottom'."
        if self.area(state, side) is None:
            b = state.board
            areas = b.areas_at[state.stop_at]
            row = b.area_side[areas[0]] if areas else "top"
            return f"If on a {row} square, the player can only take a {row} ware tile."
        return None


def _goods_refusal(state: StradaRomanaState, words: list[str]) -> str | None:
    """'Only when a wagon ends its move on a square can the player immediately take' a
    ware tile or a cube, and with 2-3 players only one of them: what both refuse alike.
    None when the kind of goods decides."""
    if state.phase in ("turn", "special"):
        return "Goods are taken only when a wagon ends its move on a square."
    if state.phase == "moving":
        return (
            "Goods are taken only when a wagon ends its move: 'stop' first "
            "(or take its remaining steps)."
        )
    if len(words) != 3 or words[1] not in ("cube", "tile"):
        return "Write 'collect cube SQUARE' or 'collect tile top' / 'collect tile bottom'."
    if state.stop_at < 0:
        return "Goods are taken only when a wagon ends its move on a road square."
    if state.took and TAKING_CUBES.one_item(state):
        return (
            "With 2-3 players a player must choose between a cube or a ware tile "
            "in a turn: not both."
        )
    return None


def _replaced(state: StradaRomanaState, where: str, colour: int, events: list[Event]) -> None:
    """'A new one is drawn at random from the bag to replace the one taken.'"""
    kind = state.refill_kind
    events.append(
        Event("refilled", {"kind": kind, "at": where, "colour": state.board.colours[colour]})
    )
    state.refill_kind, state.refill_at = "", -1
    MOVING.settle(state, events)


class TakingWareTiles(Rule["StradaRomanaState"]):
    """'Only when a wagon ends its move on a square can the player immediately take the
    "ware" tile of the area bordering the route square ... If the square is adjacent to 2
    areas, the player can choose which "ware" tile to take ... A new "ware" tile is drawn
    at random from the bag to replace the one taken. As soon as a "ware" tile is
    collected, the player takes one coin for each cube of the same colour currently on
    the board.'

    Right after the wagon's move ends, before the next wagon moves (ruling 15); the
    payout is taken in full (ruling 17); an empty bag leaves the area empty (ruling 18)."""

    heading = 'Taking "Ware" Tiles'
    plays = in_phases(stopped=("collect tile",), refill=("draw ware",))
    refuses = in_phases(turn=("collect tile",), special=("collect tile",), moving=("collect tile",))

    def texts(self, state: StradaRomanaState) -> Sequence[str]:
        if state.phase == "refill":
            return GAME_SETUP.from_the_bag(state, "ware") if state.refill_kind == "ware" else ()
        return self.offer(state)

    @staticmethod
    def offer(state: StradaRomanaState) -> list[str]:
        """The ware tiles that may be taken where the wagon stopped."""
        if not TAKING_CUBES.may_take(state, TILE):
            return []
        b = state.board
        areas = b.areas_at[state.stop_at]
        return [f"collect tile {b.area_side[a]}" for a in areas if state.area[a] >= 0]

    def apply(self, state: StradaRomanaState, verb: str, arg: str, events: list[Event]) -> None:
        if verb == "draw ware":
            colour = state.board.colours.index(arg)
            state.area[state.refill_at] = colour
            state.bag_tiles[colour] -= 1
            _replaced(state, state.board.area_names[state.refill_at], colour, events)
            return
        a = WAGONS_POSITION.area(state, arg)
        assert a is not None
        self.take(state, a, events)

    def take(self, state: StradaRomanaState, a: int, events: list[Event]) -> None:
        b = state.board
        colour = state.area[a]
        state.area[a] = -1
        seat = state.seat
        state.tiles[seat][colour] += 1
        state.took |= TILE
        coins = state.market.count(colour)
        events.append(
            Event(
                "ware_taken",
                {
                    "player": seat,
                    "colour": b.colours[colour],
                    "area": b.area_names[a],
                    "coins": coins,
                },
            )
        )
        if PASS.gain(state, seat, coins, events):
            return  # the last victory point went out: the game has ended
        if any(state.bag_tiles):
            state.refill_kind, state.refill_at = "ware", a
            FLOW.fire(state, "collect")
        else:
            MOVING.settle(state, events)

    def refuse(self, state: StradaRomanaState, verb: str, arg: str) -> str | None:
        words = _words(verb, arg)
        if state.phase == "refill":
            return GAME_SETUP.draw_refusal(state, words)
        why = _goods_refusal(state, words)
        if why is not None:
            return why
        if state.took & TILE:
            return "With 4-5 players a player takes a cube and/or a tile in a turn: one tile."
        why = WAGONS_POSITION.refuse_side(state, words[2])
        if why is not None:
            return why
        a = WAGONS_POSITION.area(state, words[2])
        assert a is not None
        return f"Area {state.board.area_names[a]} has no ware tile: the bag had none left."

    def prompt(self, state: StradaRomanaState) -> str:
        return f"Draw a ware tile from the bag for area {state.board.area_names[state.refill_at]}."


class TakingCubes(Rule["StradaRomanaState"]):
    """'Only when a wagon ends its move on a square connected to a market can the player
    immediately take the cube placed on the market. A new one is drawn at random from the
    bag to replace the one taken. The player does not receive coins (as for the "ware"
    tiles). Number of players: 2-3 Players: during their turn, players must choose
    between a cube or a tile. 4-5 players: during their turn, players can take a cube
    and/or a tile.'

    A limit per turn, not per stop (ruling 16); taking is never required."""

    heading = "Taking Cubes"
    plays = in_phases(stopped=("collect cube",), refill=("draw cube",))
    refuses = in_phases(turn=("collect cube",), special=("collect cube",), moving=("collect cube",))

    def texts(self, state: StradaRomanaState) -> Sequence[str]:
        if state.phase == "refill":
            return GAME_SETUP.from_the_bag(state, "cube") if state.refill_kind == "cube" else ()
        return self.offer(state)

    def offer(self, state: StradaRomanaState) -> list[str]:
        """The cube that may be taken where the wagon stopped, if any."""
        if not self.may_take(state, CUBE):
            return []
        b = state.board
        m = b.market_at[state.stop_at]
        if m >= 0 and state.market[m] >= 0:
            return [f"collect cube {b.square_names[state.stop_at]}"]
        return []

    def apply(self, state: StradaRomanaState, verb: str, arg: str, events: list[Event]) -> None:
        b = state.board
        if verb == "draw cube":
            colour = b.colours.index(arg)
            state.market[state.refill_at] = colour
            state.bag_cubes[colour] -= 1
            _replaced(state, b.square_names[b.market_square[state.refill_at]], colour, events)
            return
        m = b.market_at[state.stop_at]
        colour = state.market[m]
        state.market[m] = -1
        state.cubes[state.seat][colour] += 1
        state.took |= CUBE
        square = b.square_names[state.stop_at]
        events.append(
            Event(
                "cube_taken", {"player": state.seat, "colour": b.colours[colour], "market": square}
            )
        )
        if any(state.bag_cubes):
            state.refill_kind, state.refill_at = "cube", m
            FLOW.fire(state, "collect")
        else:
            MOVING.settle(state, events)

    def refuse(self, state: StradaRomanaState, verb: str, arg: str) -> str | None:
        words = _words(verb, arg)
        if state.phase == "refill":
            return GAME_SETUP.draw_refusal(state, words)
        why = _goods_refusal(state, words)
        if why is not None:
            return why
        if state.took & CUBE:
            return "With 4-5 players a player takes a cube and/or a tile in a turn: one cube."
        b = state.board
        square = b.square_names[state.stop_at]
        if words[2] != square:
            return (
                f"The cube comes from the market of the square where the wagon ended "
                f"its move: {square}."
            )
        if b.market_at[state.stop_at] < 0:
            return f"Square {square} is not connected to a market."
        return f"The market at {square} is empty: the bag had no cube left to refill it."

    @staticmethod
    def one_item(state: StradaRomanaState) -> bool:
        """'2-3 Players: during their turn, players must choose between a cube or a tile.'"""
        return state.players <= state.board.one_item_up_to

    def may_take(self, state: StradaRomanaState, kind: int) -> bool:
        """Whether goods of `kind` may still be taken where the wagon stopped this turn."""
        took = state.took
        return state.stop_at >= 0 and not (took and self.one_item(state)) and not took & kind

    def prompt(self, state: StradaRomanaState) -> str:
        b = state.board
        square = b.square_names[b.market_square[state.refill_at]]
        return f"Draw a cube from the bag for the market at {square}."


class Contracts(Rule["StradaRomanaState"]):
    """'When a player has a "ware" tile and a cube of the same colour, he has stipulated a
    contract, the main system to score points in Strada Romana. He stacks them as shown.
    A contract is stipulated when a cube and a "ware" tile of the same colour are stacked.'

    Per colour, min(cubes, tiles) contracts and |cubes - tiles| loose items (ruling 24)."""

    heading = "Contracts"

    @staticmethod
    def count(state: StradaRomanaState, seat: int) -> tuple[list[int], int]:
        """Contracts per colour, and the cubes and ware tiles in none."""
        cubes, tiles = state.cubes[seat], state.tiles[seat]
        contracts = [min(c, t) for c, t in zip(cubes, tiles, strict=True)]
        loose = sum(abs(c - t) for c, t in zip(cubes, tiles, strict=True))
        return contracts, loose


class SpecialMoves(Rule["StradaRomanaState"]):
    """'At the beginning of their turn, players can use their coins to buy special
    features to be added to their 3 simple "straight" moves. Note: each special move
    includes all the benefits of the cheaper ones, and can be used for all the wagons
    moved during a single turn. Sideways move: A player pays 1 coin ... Diagonal move: A
    player pays 2 coins ... Extra move: A player pays 3 coins. During his turn, he can
    move by 4 instead of 3 ... Stacking: A player pays 4 coins. A wagon can pass through
    an occupied square, but at the end of its move only one wagon can stay on each
    square ... Special Moves can be performed in the order preferred and as many times as
    wished during the turn.'

    Bought once, before the first step (ruling 12): `SpecialMove`, whose steps are
    `Board.steps_with` and whose allowance is `Board.allowance`. Which unlinked diagonals
    exist is data (ruling 8); stacking passes through any kind of step (ruling 10)."""

    heading = "Special Moves"
    plays = in_phases(turn=("buy",))
    refuses = in_phases(special=("buy",), moving=("buy",), stopped=("buy",))

    def texts(self, state: StradaRomanaState) -> Sequence[str]:
        if TRAFFIC_JAM.jammed(state):
            return TRAFFIC_JAM.purchases(state)
        b = state.board
        coins = state.coins[state.seat]
        return [b.buy_texts[m] for m in BUYABLE if b.costs[m] <= coins]

    def apply(self, state: StradaRomanaState, verb: str, arg: str, events: list[Event]) -> None:
        special = SPECIAL_BY_WORD[arg]
        cost = state.board.costs[special]
        state.coins[state.seat] -= cost
        state.special = special
        events.append(
            Event("special_bought", {"player": state.seat, "move": special.word, "cost": cost})
        )
        FLOW.fire(state, "buy")

    def refuse(self, state: StradaRomanaState, verb: str, arg: str) -> str | None:
        if state.phase != "turn":
            return "Special moves are bought at the beginning of the turn, before moving."
        b = state.board
        special = SPECIAL_BY_WORD.get(arg)
        if special is None:
            moves = ", ".join(f"{m.word} ({b.costs[m]})" for m in BUYABLE)
            return f"The special moves (coins) are {moves}."
        coins = state.coins[state.seat]
        if b.costs[special] > coins:
            return (
                f"The {arg} move costs {_coins(b.costs[special])} and {seat_name(state.seat)} "
                f"has {_coins(coins)}."
            )
        return TRAFFIC_JAM.refuse_buy(special)

    def prompt(self, state: StradaRomanaState) -> str:
        return f"{seat_name(state.seat)} bought the {state.special.word} move: move the wagons."

    @staticmethod
    def escape(road: Road, square: int, h: int, left: int, trail: int) -> bool:
        """Stacking: 'at the end of its move only one wagon can stay on each square': a
        step onto a wagon is allowed only if a free square (or the arrival) is in reach."""
        b = road.board
        occ = road.occ
        for t in b.steps_with[_STACKING][h][square]:
            if t == b.finish:
                if road.finished[h] < b.finish_squares:
                    return True
            elif trail >> t & 1:
                continue
            elif occ[t] < 0 or (
                left > 1
                and SpecialMoves.escape(road, t, h, left - 1, TheWagons.trail(b, square, t, trail))
            ):
                return True
        return False

    @staticmethod
    def refuse_diagonal(state: StradaRomanaState) -> str | None:
        if state.special.includes(_DIAGONAL):
            return None
        return (
            "Moving diagonally where no line links the squares is a Special Move: "
            "buy diagonal (2 coins) at the beginning of the turn."
        )

    @staticmethod
    def refuse_stacking(target: str) -> str:
        return (
            f"With stacking a wagon may pass through {target}, but at the end of its "
            f"move only one wagon can stay on each square: no free square is in reach."
        )


class TrafficJam(Rule["StradaRomanaState"]):
    """'If the wagons are blocked, a traffic jam is formed. A player can buy a special move
    to solve the jam. If possible, he must make his three moves as usual. If the player
    cannot or does not want to pay to move, he can choose a wagon tile, or pass, taking a
    coin. During the next turn, if he wants, he can move by spending his coins.'

    Every special move the player can pay for from the cheapest one that lets a wagon
    step, since each includes the cheaper ones (ruling 13); one after which no wagon
    could move is not offered (ruling 12)."""

    heading = "Traffic Jam"

    @staticmethod
    def jammed(state: StradaRomanaState) -> bool:
        """No wagon can take a step (at the beginning of a turn, nothing bought)."""
        return not MOVING.first_steps_now(state)

    def purchases(self, state: StradaRomanaState) -> list[str]:
        b = state.board
        coins = state.coins[state.seat]
        cheapest = next(
            (m for m in BUYABLE if b.costs[m] <= coins and self.moves_with(state, m)), None
        )
        if cheapest is None:
            return []
        return [b.buy_texts[m] for m in BUYABLE if m >= cheapest and b.costs[m] <= coins]

    @staticmethod
    def moves_with(state: StradaRomanaState, special: SpecialMove) -> bool:
        """Could some wagon take a step if `special` were bought?"""
        saved, state.special = state.special, special
        try:
            left = state.board.allowance(special)
            occ = state.occ
            for w, sq in enumerate(state.pos):
                if sq < 0:
                    continue
                occ[sq] = -1
                try:
                    if THE_WAGONS.targets(state, w, left, 1 << sq):
                        return True
                finally:
                    occ[sq] = w
            return False
        finally:
            state.special = saved

    @staticmethod
    def refuse_buy(special: SpecialMove) -> str:
        return f"No wagon could move even with the {special.word} move."


class ChooseAWagonTile(Rule["StradaRomanaState"]):
    """'Players can score points by guessing which 4 wagons will arrive first at their
    destination. To do so, players pick the "wagon tiles" deck up and choose one of them;
    then, the deck is put back into its place. The "wagon tiles" are always kept face
    down (the other players may know how many each player owns, but not which ones). Each
    player can hold a maximum of three "wagon tiles" (which cannot be discarded).'

    The identity is the seat's own choice (ruling 20), entered now with the option
    `wagon_tiles = "when_taken"`, else at the reveal; nine tiles to share (ruling 21)."""

    heading = 'b) Choose a "Wagon Tile"'
    plays = in_phases(turn=("tile",), wagon_tile=("wagon",))

    def texts(self, state: StradaRomanaState) -> Sequence[str]:
        if state.phase == "wagon_tile":
            return self.still_possible(state)
        return ["tile"] if self.may_take(state, state.seat) else ()

    def apply(self, state: StradaRomanaState, verb: str, arg: str, events: list[Event]) -> None:
        seat = state.seat
        if verb == "wagon":
            state.wagon_tiles[seat][-1] = state.board.wagon_index[arg]
            events.append(Event("wagon_tile_entered", {"player": seat}))
            PLAYING.end_turn(state, events)
            return
        state.wagon_tiles[seat].append(UNKNOWN)
        held = len(state.wagon_tiles[seat])
        events.append(Event("wagon_tile_taken", {"player": seat, "held": held}))
        if state.options["wagon_tiles"] == "when_taken":
            FLOW.fire(state, "take_tile")
        else:
            PLAYING.end_turn(state, events)

    def refuse(self, state: StradaRomanaState, verb: str, arg: str) -> str | None:
        if verb == "wagon":
            return self.refuse_wagon(state, arg)
        if arg:
            return "'tile' takes no more words."
        if len(state.wagon_tiles[state.seat]) >= state.board.max_wagon_tiles:
            return "Each player can hold a maximum of three wagon tiles."
        return "The wagon tile deck is empty."

    @staticmethod
    def may_take(state: StradaRomanaState, seat: int) -> bool:
        b = state.board
        taken = sum(len(h) for h in state.wagon_tiles)
        return len(state.wagon_tiles[seat]) < b.max_wagon_tiles and taken < b.deck

    @staticmethod
    def still_possible(state: StradaRomanaState) -> list[str]:
        """`wagon NAME` for every wagon whose tile nobody has named yet (the one back in
        the box is unknown, so it is never excluded)."""
        b = state.board
        known = {w for held in state.wagon_tiles for w in held}
        return [b.wagon_texts[w] for w in range(len(b.wagons)) if w not in known]

    @staticmethod
    def refuse_wagon(state: StradaRomanaState, arg: str) -> str:
        b = state.board
        words = _words("wagon", arg)
        if len(words) != 2 or words[1] not in b.wagon_index:
            return f"Write 'wagon NAME'; the wagons are {', '.join(b.wagons)}."
        return f"The {words[1]} wagon tile is already held: each wagon has one tile."

    def prompt(self, state: StradaRomanaState) -> str:
        return (
            f"{seat_name(state.seat)} chose a wagon tile: enter (or scan) its wagon; "
            f"it stays face down."
        )


class Pass(Rule["StradaRomanaState"]):
    """'When a player decides to pass, he takes one coin and his turn is finished. If he
    owns 5 coins, he must change them into 1 Victory Point as usual. When a player has 5
    coins, he must change them into 1 Victory Point (1 victory point = 5 coins).'"""

    heading = "c) Pass"
    plays = in_phases(turn=("pass",))

    def texts(self, state: StradaRomanaState) -> Sequence[str]:
        return ("pass",)

    def apply(self, state: StradaRomanaState, verb: str, arg: str, events: list[Event]) -> None:
        seat = state.seat
        events.append(Event("passed", {"player": seat}))
        if not self.gain(state, seat, state.board.pass_coins, events):
            PLAYING.end_turn(state, events)

    def refuse(self, state: StradaRomanaState, verb: str, arg: str) -> str | None:
        return "'pass' takes no more words." if arg else None

    @staticmethod
    def gain(state: StradaRomanaState, seat: int, coins: int, events: list[Event]) -> bool:
        """Coins for `seat`, every 5 changed into a victory point while any are left; the
        whole payout is taken, as far as the 20 coins go (ruling 17). True when that gave
        out the last victory point: the game has ended."""
        b = state.board
        supply = b.coins_total - sum(state.coins)
        given = False
        for k in range(coins):
            if not supply:  # every coin of the game is in the players' hands
                events.append(Event("coins_short", {"player": seat, "missing": coins - k}))
                break
            state.coins[seat] += 1
            supply -= 1
            if state.coins[seat] >= b.coins_per_vp and sum(state.vp) < b.vp_tokens:
                state.coins[seat] -= b.coins_per_vp
                supply += b.coins_per_vp
                state.vp[seat] += 1
                given = True
                events.append(Event("victory_point", {"player": seat, "vp": state.vp[seat]}))
        if given and sum(state.vp) >= b.vp_tokens:
            GAME_END.end(state, "victory points", events)
            return True
        return False


class GameEnd(Rule["StradaRomanaState"]):
    """'The game ends immediately when all the 20 Victory Points are assigned, or when the
    fourth wagon reaches its destination (place the first 4 arrived wagons on the squares
    numbered from 1 to 4, regardless of the destination).'

    'immediately': in the middle of a turn if need be (ruling 22); then the wagon tiles
    not named yet are revealed."""

    heading = "Game End"

    @staticmethod
    def end(state: StradaRomanaState, reason: str, events: list[Event]) -> None:
        state.ended = reason
        state.mover = -1
        events.append(Event("game_ended", {"reason": reason}))
        if WAGON_TILES.unrevealed(state)[0] >= 0:
            FLOW.fire(state, "game_end")
        else:
            SCORE.final(state, events)


class Score(Rule["StradaRomanaState"]):
    """'Points are calculated on the basis of: The Victory Points; The "wagon tiles" owned
    by each player; The Contracts. The winner of the game is the player with the highest
    score. If two or more players tie, the winner is the player with more coins. If there
    is still a tie, the player that played last loses.'

    'played last' by the order of play: the tied player whose latest turn came later
    loses (ruling 23)."""

    heading = "Score"

    @staticmethod
    def victory_points(state: StradaRomanaState, seat: int) -> int:
        """Victory Points: 'Each player scores 1 point for each Victory Point token held.
        Coins do not give points.'"""
        return state.vp[seat]

    @staticmethod
    def contract_points(state: StradaRomanaState, seat: int) -> int:
        """Contracts: 'Each player's score equals the number of colours in which he holds
        contracts multiplied by the greatest number of contracts held of a single colour.
        However, he loses 1 Point for each cube or "ware" tile owned that does not form
        part of a contract.'"""
        contracts, loose = CONTRACTS.count(state, seat)
        colours = sum(1 for k in contracts if k)
        return colours * max(contracts) + loose * state.board.points_loose

    def total(self, state: StradaRomanaState) -> list[int]:
        """Total Score: 'Victory Points + Wagon Points + Total contract Points = FINAL
        SCORE'. Wagon tiles count only once revealed at the end (ruling 20)."""
        over = state.phase == "over"
        return [
            self.victory_points(state, s)
            + self.contract_points(state, s)
            + (WAGON_TILES.points(state, s) if over else 0)
            for s in range(state.players)
        ]

    def winner(self, state: StradaRomanaState) -> list[int]:
        scores = self.total(state)
        keys = [(scores[s], state.coins[s], -state.last[s]) for s in range(state.players)]
        best = max(keys)
        return [s for s in range(state.players) if keys[s] == best]

    def final(self, state: StradaRomanaState, events: list[Event]) -> None:
        FLOW.fire(state, "scored")
        events.append(
            Event("game_over", {"scores": self.total(state), "winner": self.winner(state)})
        )


class WagonTiles(Rule["StradaRomanaState"]):
    """'When the game ends, all players reveal the "wagon tiles" they own. For each wagon
    that arrives at its destination (either Portus or Rome; the order of arrival does not
    matter), the player holding its tile scores 3 points. For each wagon that has not yet
    arrived, the player holding its tile loses 1 point.'

    Each tile not named when taken is named now by its holder, seat by seat."""

    heading = "Wagon Tiles"
    plays = in_phases(reveal=("wagon",))

    def texts(self, state: StradaRomanaState) -> Sequence[str]:
        return CHOOSING.still_possible(state)

    def apply(self, state: StradaRomanaState, verb: str, arg: str, events: list[Event]) -> None:
        b = state.board
        seat, k = self.unrevealed(state)
        state.wagon_tiles[seat][k] = b.wagon_index[arg]
        events.append(Event("wagon_tile_revealed", {"player": seat, "wagon": arg}))
        if self.unrevealed(state)[0] < 0:
            SCORE.final(state, events)

    def refuse(self, state: StradaRomanaState, verb: str, arg: str) -> str | None:
        return CHOOSING.refuse_wagon(state, arg)

    @staticmethod
    def unrevealed(state: StradaRomanaState) -> tuple[int, int]:
        """(seat, index) of the first tile still to be named; (-1, -1) when none is."""
        for seat, held in enumerate(state.wagon_tiles):
            for k, w in enumerate(held):
                if w == UNKNOWN:
                    return seat, k
        return -1, -1

    @staticmethod
    def points(state: StradaRomanaState, seat: int) -> int:
        b = state.board
        arrived = set(state.arrived)
        return sum(
            b.points_arrived if w in arrived else b.points_not_arrived
            for w in state.wagon_tiles[seat]
            if w != UNKNOWN
        )

    def prompt(self, state: StradaRomanaState) -> str:
        seat, k = self.unrevealed(state)
        return f"Game end: {seat_name(seat)} reveals wagon tile {k + 1}: enter its wagon."


GAME_SETUP = GameSetup()
STARTING_COINS = StartingCoins()
PLAYING = PlayingTheGame()
MOVING = MovingTheWagons()
THE_WAGONS = TheWagons()
WAGONS_POSITION = WagonsPosition()
TAKING_WARES = TakingWareTiles()
TAKING_CUBES = TakingCubes()
CONTRACTS = Contracts()
SPECIAL_MOVES = SpecialMoves()
TRAFFIC_JAM = TrafficJam()
CHOOSING = ChooseAWagonTile()
PASS = Pass()
GAME_END = GameEnd()
SCORE = Score()
WAGON_TILES = WagonTiles()

RULEBOOK: Rulebook[StradaRomanaState] = Rulebook(
    "Strada Romana",
    [
        GAME_SETUP,
        STARTING_COINS,
        PLAYING,
        MOVING,
        THE_WAGONS,
        WAGONS_POSITION,
        TAKING_WARES,
        TAKING_CUBES,
        CONTRACTS,
        SPECIAL_MOVES,
        TRAFFIC_JAM,
        CHOOSING,
        PASS,
        GAME_END,
        SCORE,
        WAGON_TILES,
    ],
    # the menus: special moves 'at the beginning of their turn', then a move, a tile or a
    # pass; after a wagon's move, its goods first, then the next wagon or the end
    offers={
        "turn": (SPECIAL_MOVES, MOVING, CHOOSING, PASS),
        "stopped": (TAKING_CUBES, TAKING_WARES, MOVING),
    },
)

PROMPTS = {
    **dict.fromkeys(SETUP_PHASES, GAME_SETUP.prompt),
    "turn": PLAYING.prompt,
    "special": SPECIAL_MOVES.prompt,
    "moving": MOVING.prompt,
    "stopped": MOVING.prompt,
    "wagon_tile": CHOOSING.prompt,
    "reveal": WAGON_TILES.prompt,
}
"""What each phase waits for, in words (the refill's depends on what is drawn)."""


# --- the record -------------------------------------------------------------------------
def _where(b: Board, sq: int) -> str | None:
    return b.square_names[sq] if sq >= 0 else None


def _per_colour(b: Board, counts: list[int]) -> dict[str, int]:
    return dict(zip(b.colours, counts, strict=True))


def _dump_wagons(s: StradaRomanaState) -> dict[str, list[str | None]]:
    b = s.board
    return {b.wagons[w]: [_where(b, sq), HEADINGS[s.head[w]]] for w, sq in enumerate(s.pos)}


def _load_wagons(s: StradaRomanaState, d: Mapping[str, Any]) -> None:
    b = s.board
    arrived = {b.wagon_index[w] for w in d["arrived"]}
    for name, (at, heading) in d["wagons"].items():
        w = b.wagon_index[name]
        s.head[w] = HEADINGS.index(heading)
        s.pos[w] = b.square_index[at] if at is not None else ARRIVED if w in arrived else UNPLACED


def _dump_arrived(s: StradaRomanaState) -> list[str]:
    return [s.board.wagons[w] for w in s.arrived]


def _load_arrived(s: StradaRomanaState, d: Mapping[str, Any]) -> None:
    s.arrived = [s.board.wagon_index[w] for w in d["arrived"]]


def _dump_markets(s: StradaRomanaState) -> dict[str, str | None]:
    b = s.board
    return {
        b.square_names[sq]: b.colours[c] if c >= 0 else None
        for sq, c in zip(b.market_square, s.market, strict=True)
    }


def _load_markets(s: StradaRomanaState, d: Mapping[str, Any]) -> None:
    b = s.board
    markets = [d["markets"][b.square_names[sq]] for sq in b.market_square]
    s.market = [b.colours.index(c) if c else -1 for c in markets]


def _dump_areas(s: StradaRomanaState) -> dict[str, str | None]:
    b = s.board
    return {
        name: b.colours[c] if c >= 0 else None for name, c in zip(b.area_names, s.area, strict=True)
    }


def _load_areas(s: StradaRomanaState, d: Mapping[str, Any]) -> None:
    b = s.board
    s.area = [b.colours.index(d["areas"][a]) if d["areas"][a] else -1 for a in b.area_names]


def _dump_bag(s: StradaRomanaState) -> dict[str, dict[str, int]]:
    b = s.board
    return {"cubes": _per_colour(b, s.bag_cubes), "tiles": _per_colour(b, s.bag_tiles)}


def _load_bag(s: StradaRomanaState, d: Mapping[str, Any]) -> None:
    colours = s.board.colours
    s.bag_cubes = [d["bag"]["cubes"][c] for c in colours]
    s.bag_tiles = [d["bag"]["tiles"][c] for c in colours]


def _dump_cubes(s: StradaRomanaState) -> list[dict[str, int]]:
    return [_per_colour(s.board, c) for c in s.cubes]


def _load_cubes(s: StradaRomanaState, d: Mapping[str, Any]) -> None:
    s.cubes = [[row[c] for c in s.board.colours] for row in d["cubes"]]


def _dump_tiles(s: StradaRomanaState) -> list[dict[str, int]]:
    return [_per_colour(s.board, t) for t in s.tiles]


def _load_tiles(s: StradaRomanaState, d: Mapping[str, Any]) -> None:
    s.tiles = [[row[c] for c in s.board.colours] for row in d["tiles"]]


def _dump_wagon_tiles(s: StradaRomanaState) -> list[list[str | None]]:
    wagons = s.board.wagons
    return [[wagons[w] if w != UNKNOWN else None for w in held] for held in s.wagon_tiles]


def _load_wagon_tiles(s: StradaRomanaState, d: Mapping[str, Any]) -> None:
    index = s.board.wagon_index
    s.wagon_tiles = [
        [index[w] if w is not None else UNKNOWN for w in held] for held in d["wagon_tiles"]
    ]


def _dump_move(s: StradaRomanaState) -> dict[str, Any]:
    b = s.board
    return {
        "special": s.special.word if s.special else None,
        "steps": s.used,
        "moved": [b.wagons[w] for w in range(len(b.wagons)) if s.moved >> w & 1],
        "mover": b.wagons[s.mover] if s.mover >= 0 else None,
        "left": [n for i, n in enumerate(b.square_names) if s.trail >> i & 1],
        "stopped_at": _where(b, s.stop_at),
        "took": [word for word, kind in GOODS if s.took & kind],
    }


def _load_move(s: StradaRomanaState, d: Mapping[str, Any]) -> None:
    b = s.board
    wagons, squares = b.wagon_index, b.square_index
    move = d["move"]
    s.special = SPECIAL_BY_WORD[move["special"]] if move["special"] else _NONE
    s.used = move["steps"]
    s.moved = sum(1 << wagons[w] for w in move["moved"])
    s.mover = wagons[move["mover"]] if move["mover"] else -1
    s.trail = sum(1 << squares[n] for n in move["left"])
    s.stop_at = squares[move["stopped_at"]] if move["stopped_at"] else -1
    s.took = sum(kind for word, kind in GOODS if word in move["took"])


def _dump_refill(s: StradaRomanaState) -> list[Any] | None:
    return [s.refill_kind, s.refill_at] if s.refill_kind else None


def _load_refill(s: StradaRomanaState, d: Mapping[str, Any]) -> None:
    s.refill_kind, s.refill_at = d["refill"] if d["refill"] else ("", -1)


# --- the state ---------------------------------------------------------------------------
class StradaRomanaState(State):
    """A Strada Romana position: small integer lists, so clone and legal moves stay cheap.

    Wagon positions are square indices of `Board` (or UNPLACED / ARRIVED). While a
    wagon moves it is lifted off `occ`, so a stacking move may pass over others. The
    record names wagons, squares and colours (`FIELDS`).
    """

    FIELDS = Fields(
        phase=SCALAR,
        cursor=SCALAR,
        first=SCALAR,
        seat=SCALAR,
        turn=SCALAR,
        last=SCALARS,
        wagons=Stored(_dump_wagons, _load_wagons),
        arrived=Stored(_dump_arrived, _load_arrived, copy=SCALARS),
        markets=Stored(_dump_markets, _load_markets),
        areas=Stored(_dump_areas, _load_areas),
        bag=Stored(_dump_bag, _load_bag),
        coins=SCALARS,
        vp=SCALARS,
        cubes=Stored(_dump_cubes, _load_cubes, copy=LISTS),
        tiles=Stored(_dump_tiles, _load_tiles, copy=LISTS),
        wagon_tiles=Stored(_dump_wagon_tiles, _load_wagon_tiles, copy=LISTS),
        move=Stored(_dump_move, _load_move),
        refill=Stored(_dump_refill, _load_refill),
        ended=SCALAR,
        # stored above by name, copied as they are:
        pos=Field(SCALARS, saved=False),
        head=Field(SCALARS, saved=False),
        occ=Field(SCALARS, saved=False),
        finished=Field(SCALARS, saved=False),
        market=Field(SCALARS, saved=False),
        area=Field(SCALARS, saved=False),
        bag_cubes=Field(SCALARS, saved=False),
        bag_tiles=Field(SCALARS, saved=False),
    )
    setup_phases = SETUP_PHASES

    def __init__(self, players: int, seed: int, options: dict[str, Any], data: GameData) -> None:
        super().__init__(players, seed, options, data)
        b = self.board = board_for(data)
        n, colours, wagons = players, len(b.colours), len(b.wagons)
        self.phase = FLOW.initial
        self.cursor = 0  # which start square, area or market the setup draw is for
        self.first = -1
        self.seat = 0
        self.turn = 0
        self.last = [-1] * n  # turn number of each seat's latest turn (tie-break)
        self.pos = [UNPLACED] * wagons
        self.head = [TO_ROME] * wagons
        self.occ = [-1] * b.finish
        self.arrived: list[int] = []
        self.finished = [0, 0]  # arrivals per heading
        self.market = [-1] * len(b.market_square)
        self.area = [-1] * len(b.area_names)
        self.bag_cubes = [b.cubes_each] * colours
        self.bag_tiles = [b.tiles_each] * colours
        self.coins = [0] * n
        self.vp = [0] * n
        self.cubes = [[0] * colours for _ in range(n)]
        self.tiles = [[0] * colours for _ in range(n)]
        self.wagon_tiles: list[list[int]] = [[] for _ in range(n)]  # wagon index or UNKNOWN
        self.special = _NONE  # bought this turn
        self.used = 0  # steps taken this turn
        self.moved = 0  # bit mask of wagons that moved this turn
        self.mover = -1  # the wagon moving now
        self.trail = 0  # squares of its column the mover has left (it does not go back)
        self.stop_at = -1  # where the last wagon ended its move (collecting)
        self.took = 0  # goods collected this turn
        self.refill_kind = ""  # "cube" or "ware" while a refill is drawn
        self.refill_at = -1  # market or area index
        self.ended = ""  # why the game ended: "arrivals" or "victory points"
        self._texts: Sequence[str] | None = None  # legal texts computed while applying
        self._first: list[tuple[int, int]] | None = None  # first steps of this position

    def _after_load(self) -> None:
        self.finished = arrivals_by_heading(self.arrived, self.head)
        self.occ = occupancy(self.board, self.pos, self.mover)
        self._texts = self._first = None

    # --- whose turn, and what may be done -----------------------------------------------
    def current_player(self) -> int | None:
        phase = self.phase
        if phase in MOVE_PHASES or phase == "wagon_tile":
            return self.seat
        if phase == "reveal":
            return WAGON_TILES.unrevealed(self)[0]
        if phase == "over":
            return None
        return CHANCE

    def _legal_texts(self) -> Sequence[str]:
        texts = self._texts
        return texts if texts is not None else RULEBOOK.texts(self)

    def _apply(self, text: str) -> list[Event]:
        self._texts = self._first = None
        return RULEBOOK.apply(self, text)

    def chance_weights(self) -> Sequence[float] | None:
        phase = self.phase
        if phase == "cubes" or (phase == "refill" and self.refill_kind == "cube"):
            return [float(k) for k in self.bag_cubes if k]
        if phase == "refill":
            return [float(k) for k in self.bag_tiles if k]
        return None

    # --- results ---------------------------------------------------------------------------
    def scores(self) -> list[int]:
        return SCORE.total(self)

    def winner(self) -> list[int]:
        return SCORE.winner(self)

    def contract_points(self, seat: int) -> int:
        return SCORE.contract_points(self, seat)

    def wagon_points(self, seat: int) -> int:
        return WAGON_TILES.points(self, seat)

    # --- words for the table ---------------------------------------------------------------
    def describe(self) -> str:
        if self.phase == "refill":
            rule = TAKING_CUBES if self.refill_kind == "cube" else TAKING_WARES
            return rule.prompt(self)
        prompt = PROMPTS.get(self.phase)
        return prompt(self) if prompt is not None else "The game is over."

    def explain(self, text: str) -> str | None:
        if not text.split():
            return "That is an empty action. " + self.describe()
        return RULEBOOK.explain(self, text, self.describe())

    def is_notation(self, text: str) -> bool:
        return RULEBOOK.is_notation(text)

    # --- the read model --------------------------------------------------------------------
    def _observe(self, seat: int | None) -> Observation:
        from .observation import observe  # the observation builds on these rules

        return observe(self, seat)

    # --- invariants ------------------------------------------------------------------------
    def invariants(self) -> list[str]:
        return [
            *self._goods_invariants(),
            *self._coin_invariants(),
            *self._wagon_invariants(),
            *self._arrival_invariants(),
            *self._tile_invariants(),
            *self._move_invariants(),
        ]

    def _goods_invariants(self) -> list[str]:
        b = self.board
        broken = []
        for c in range(len(b.colours)):
            cubes = self.bag_cubes[c] + self.market.count(c) + sum(p[c] for p in self.cubes)
            if cubes != b.cubes_each:
                broken.append(f"{b.colours[c]} cubes not conserved ({cubes})")
            tiles = self.bag_tiles[c] + self.area.count(c) + sum(p[c] for p in self.tiles)
            if tiles != b.tiles_each:
                broken.append(f"{b.colours[c]} ware tiles not conserved ({tiles})")
        if any(k < 0 for k in self.bag_cubes + self.bag_tiles):
            broken.append("a bag count is negative")
        return broken

    def _coin_invariants(self) -> list[str]:
        b = self.board
        broken = []
        # 0-4 coins in play; the payout that gave out the 20th victory point is kept whole
        most = b.coins_total if self.ended == "victory points" else b.coins_per_vp - 1
        if any(not 0 <= c <= most for c in self.coins):
            broken.append(f"coins out of 0..{most}: {self.coins}")
        if sum(self.coins) > b.coins_total or sum(self.vp) > b.vp_tokens or min(self.vp) < 0:
            broken.append("more coins or victory points out than the box holds")
        return broken

    def _wagon_invariants(self) -> list[str]:
        wagons = self.board.wagons
        resting = {w: sq for w, sq in enumerate(self.pos) if sq >= 0 and w != self.mover}
        broken = ["two wagons on one square"] if len(set(resting.values())) != len(resting) else []
        broken += [
            f"{wagons[w]} is not where the board says"
            for w, sq in resting.items()
            if self.occ[sq] != w
        ]
        if sum(1 for o in self.occ if o >= 0) != len(resting):
            broken.append("the board shows a wagon that is not there")
        return broken

    def _arrival_invariants(self) -> list[str]:
        b = self.board
        broken = []
        placed = sum(1 for sq in self.pos if sq >= 0)
        if self.phase != "wagons" and placed + len(self.arrived) != len(b.wagons):
            broken.append("wagons lost")
        if (
            len(self.arrived) > b.arrivals
            or self.pos.count(ARRIVED) != len(self.arrived)
            or sum(self.finished) != len(self.arrived)
        ):
            broken.append("arrivals out of step")
        return broken

    def _tile_invariants(self) -> list[str]:
        b = self.board
        broken = []
        held = [len(h) for h in self.wagon_tiles]
        if max(held) > b.max_wagon_tiles or sum(held) > b.deck:
            broken.append("more wagon tiles held than allowed")
        known = [w for h in self.wagon_tiles for w in h if w != UNKNOWN]
        if len(set(known)) != len(known):
            broken.append("one wagon tile held twice")
        return broken

    def _move_invariants(self) -> list[str]:
        broken = []
        moving = self.phase == "moving"
        if (
            self.used > self.board.allowance(self.special)
            or moving != (self.mover >= 0)
            or moving != bool(self.trail)
        ):
            broken.append("the move in progress is inconsistent")
        if moving and self.occ[self.pos[self.mover]] >= 0 and not self.special.includes(_STACKING):
            broken.append("a wagon passes over another without stacking")
        if self.phase == "over" and not self.ended:
            broken.append("the game is over without a reason")
        return broken


class StradaRomanaGame(Game[StradaRomanaState]):
    name = "strada_romana"
    title = "Strada Romana"
    state_class = StradaRomanaState
    flow = FLOW
    min_players = 2
    max_players = 5
    options = (
        Option(
            "first",
            "random",
            "the starting player: 'random' asks for a draw as the rulebook says; "
            "a seat index when the table has chosen",
            choices=("random", 0, 1, 2, 3, 4),
            seat=True,
        ),
        Option(
            "wagon_tiles",
            "at_end",
            "when wagon tile identities are entered: 'when_taken' (scanned as taken) "
            "or 'at_end' (revealed at the end)",
            choices=("at_end", "when_taken"),
        ),
    )
    conformance_options = (
        {},
        {"wagon_tiles": "when_taken"},
        {"first": 1},
        {"first": 0, "wagon_tiles": "when_taken"},
    )

    def card_catalogue(self, data: GameData) -> list[tuple[str, int]]:
        """Ware tiles and wagon tiles; cubes come out of a bag and are picked on the buttons."""
        b = board_for(data)
        ware = [(f"draw ware {colour}", b.tiles_each) for colour in b.colours]
        wagons = [(f"wagon {name}", 1) for name in b.wagons]
        return ware + wagons
