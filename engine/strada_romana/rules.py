"""Strada Romana: the rules of the rulebook, for 2-5 players.

A turn is a few small actions so that seat buttons can enter it: `buy` a
special move (optional, first), then `step WAGON SQUARE` once per square,
`stop` to end a wagon's move, `collect ...` where it stopped, and `end` when
steps are optional. A wagon tile is chosen by the player who takes it ("pick
the 'wagon tiles' deck up and choose one of them"), so its identity is that
seat's own input, never a draw: entered when taken (option `wagon_tiles =
"when_taken"`) or when revealed at the end; views must not show it before the
end (see `HIDDEN`). Interpretations of ambiguous rules are listed in
docs/strada-romana-rulings.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core import CHANCE, Event, Flow, Game, GameData, Option, State
from engine.core import seat_name as _seat_name

from .board import HEADINGS, SIDES, TO_PORTUS, TO_ROME, board_for

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

TRANSITIONS = [
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

HIDDEN = ("wagon_tiles",)
"""State fields views must not show before the game is over (their count is public)."""

SEAT_PHASES = frozenset(("turn", "special", "moving", "stopped"))
ENTRY_PHASES = frozenset(("wagon_tile", "reveal"))  # a seat names the wagon tile it chose
UNPLACED, ARRIVED = -1, -2
CUBE, TILE = 1, 2
VERBS = (
    "step",
    "stop",
    "collect",
    "end",
    "buy",
    "tile",
    "pass",
    "place",
    "draw",
    "remove",
    "start",
    "wagon",
)
_VERB_PHASES = {
    "step": ("turn", "special", "moving", "stopped"),
    "stop": ("moving",),
    "collect": ("stopped",),
    "end": ("stopped",),
    "buy": ("turn",),
    "tile": ("turn",),
    "pass": ("turn",),
    "place": ("wagons",),
    "draw": ("wares", "cubes", "refill"),
    "remove": ("wagon_tiles",),
    "start": ("first_player",),
    "wagon": ("wagon_tile", "reveal"),
}
BARE_VERBS = ("stop", "end", "tile", "pass")
REMOVE_TEXT = "remove wagon tile"
MUST_MOVE = "Players must always move by 3 squares, unless traffic blocks their way"


def _coins(n: int) -> str:
    return f"{n} coin" if n == 1 else f"{n} coins"


def seat_name(seat: int) -> str:
    return _seat_name(seat).capitalize()


class StradaRomanaState(State):
    """A Strada Romana position: small integer lists, so clone and legal moves stay cheap.

    Wagon positions are square indices of `Board` (or UNPLACED / ARRIVED). While a
    wagon moves it is lifted off `occ`, so a stacking move may pass over others.
    """

    setup_phases = frozenset(("wagons", "wares", "cubes", "wagon_tiles", "first_player"))

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
        self.wagon_tiles: list[list[int]] = [[] for _ in range(n)]  # wagon index, -1 unknown
        self.level = 0  # special move bought this turn: 0 none, 1 sideways .. 4 stacking
        self.used = 0  # steps taken this turn
        self.moved = 0  # bit mask of wagons that moved this turn
        self.mover = -1  # the wagon moving now
        self.trail = 0  # squares of its column the mover has left (it does not go back)
        self.stop_at = -1  # where the last wagon ended its move (collecting)
        self.took = 0  # CUBE | TILE collected this turn
        self.refill_kind = ""  # "cube" or "ware" while a refill is drawn
        self.refill_at = -1  # market or area index
        self.ended = ""  # why the game ended: "arrivals" or "victory points"
        self._texts: list[str] | None = None  # legal texts computed while applying

    # --- whose turn --------------------------------------------------------------
    def current_player(self) -> int | None:
        phase = self.phase
        if phase in SEAT_PHASES or phase == "wagon_tile":
            return self.seat
        if phase == "reveal":
            return self._unrevealed()[0]
        if phase == "over":
            return None
        return CHANCE

    def _legal_texts(self) -> Sequence[str]:
        texts = self._texts
        if texts is not None:
            return texts
        phase = self.phase
        b = self.board
        if phase == "turn":
            return self._turn_texts()
        if phase == "moving":
            return self._moving_texts()
        if phase == "stopped":
            return self._stopped_texts()
        if phase == "special":
            return self._free_steps()
        if phase == "refill":
            if self.refill_kind == "cube":
                return [b.cube_texts[c] for c, k in enumerate(self.bag_cubes) if k]
            return [b.ware_texts[c] for c, k in enumerate(self.bag_tiles) if k]
        if phase == "cubes":
            return [b.cube_texts[c] for c, k in enumerate(self.bag_cubes) if k]
        if phase == "wagons":
            return [b.place_texts[w] for w, p in enumerate(self.pos) if p == UNPLACED]
        if phase == "wares":
            placed = set(self.area)
            return [b.ware_texts[c] for c in range(len(b.colours)) if c not in placed]
        if phase == "wagon_tiles":
            return [REMOVE_TEXT]
        if phase == "first_player":
            return [f"start seat {s + 1}" for s in range(self.players)]
        if phase in ("wagon_tile", "reveal"):
            known = {w for held in self.wagon_tiles for w in held}
            return [b.wagon_texts[w] for w in range(len(b.wagons)) if w not in known]
        return []

    def chance_weights(self) -> Sequence[float] | None:
        phase = self.phase
        if phase == "cubes" or (phase == "refill" and self.refill_kind == "cube"):
            return [float(k) for k in self.bag_cubes if k]
        if phase == "refill":
            return [float(k) for k in self.bag_tiles if k]
        return None

    # --- legal moves ---------------------------------------------------------------
    def _allowance(self) -> int:
        b = self.board
        return b.steps + (b.extra_steps if self.level >= 3 else 0)

    def _targets(self, w: int, left: int, trail: int) -> list[int]:
        """Squares wagon `w` (already lifted if it is not moving) can step to now.

        `trail` marks the squares of its column it has left during this move:
        it does not go back to them.
        """
        b = self.board
        level = self.level
        h = self.head[w]
        occ = self.occ
        finish = b.finish
        sq = self.pos[w]
        out = []
        for t in b.moves[level if level < 2 else 2][h][sq]:
            if t == finish:
                if self.finished[h] < b.finish_squares:
                    out.append(t)
            elif trail >> t & 1:
                continue
            elif occ[t] < 0 or (
                level >= 4 and left > 1 and self._escape(t, h, left - 1, self._trail(sq, t, trail))
            ):
                out.append(t)
        return out

    def _trail(self, sq: int, t: int, trail: int) -> int:
        """The squares of its column a wagon has left, after it steps from `sq` to `t`."""
        b = self.board
        if t < b.road and sq < b.road and b.column[t] == b.column[sq]:
            return trail | 1 << t  # sideways: both squares are now behind it
        return 1 << t

    def _escape(self, square: int, h: int, left: int, trail: int) -> bool:
        """Stacking: 'at the end of its move only one wagon can stay on each square'."""
        b = self.board
        occ = self.occ
        for t in b.moves[2][h][square]:
            if t == b.finish:
                if self.finished[h] < b.finish_squares:
                    return True
            elif trail >> t & 1:
                continue
            elif occ[t] < 0 or (
                left > 1 and self._escape(t, h, left - 1, self._trail(square, t, trail))
            ):
                return True
        return False

    def _match(self, moved: int, block: int) -> tuple[int, list[int]]:
        """Unmoved wagons that surely can each take one step, to distinct free squares.

        Greedy, so a lower bound: its count and each wagon's square (-1 unmatched;
        FINISH may repeat). Enough to skip the exact search in open traffic: if
        `count` wagons can step apart, `count` more steps are certain.
        """
        b = self.board
        occ, pos, head = self.occ, self.pos, self.head
        moves = b.moves[self.level if self.level < 2 else 2]
        finish = b.finish
        goal = [-1] * len(pos)
        room = [b.finish_squares - self.finished[0], b.finish_squares - self.finished[1]]
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

    def _spared(self, w: int, t: int, count: int, goal: list[int]) -> int:
        """Matched wagons other than `w` that can still step apart after `w` steps to `t`."""
        left = count - (goal[w] >= 0)
        if t == self.board.finish:
            h = self.head[w]
            full = sum(1 for v, g in enumerate(goal) if g == t and self.head[v] == h and v != w)
            if full + self.finished[h] >= self.board.finish_squares:
                left -= 1
        elif t in goal and goal[w] != t:
            left -= 1
        return left

    def _search(self, mover: int, moved: int, left: int, cap: int, trail: int = 0) -> int:
        """The most further steps (at most `cap`) this turn can still take.

        Enforces 'Players must always move by 3 squares, unless traffic blocks
        their way' exactly: a choice is legal only if it keeps the most steps the
        traffic allows. Mutates pos/occ while searching and restores them.
        """
        if cap <= 0 or left <= 0:
            return 0
        pos, occ = self.pos, self.occ
        best = 0
        if mover >= 0:
            sq = pos[mover]
            for t in self._targets(mover, left, trail):  # going on is cheap to try first
                got = 1 + self._after_step(mover, t, moved, left, cap, trail)
                if got > best:
                    best = got
                    if best >= cap:
                        return cap
            if occ[sq] < 0:  # it may stop here and let other wagons move
                occ[sq] = mover
                got = self._search(-1, moved, left, cap)
                occ[sq] = -1
                best = max(best, got)
            return best
        if self._match(moved, -1)[0] >= cap:
            return cap
        for w, sq in enumerate(pos):
            if sq < 0 or moved >> w & 1:
                continue
            occ[sq] = -1
            for t in self._targets(w, left, 1 << sq):
                got = 1 + self._after_step(w, t, moved | 1 << w, left, cap, 1 << sq)
                if got > best:
                    best = got
                    if best >= cap:
                        break
            occ[sq] = w
            if best >= cap:
                return cap
        return best

    def _after_step(self, w: int, t: int, moved: int, left: int, cap: int, trail: int) -> int:
        """Further steps after the lifted wagon `w` steps to `t` (for `_search`)."""
        pos = self.pos
        sq = pos[w]
        if t == self.board.finish:
            if len(self.arrived) + 1 >= self.board.arrivals:
                return cap - 1  # the game ends at once: no step is owed any more
            h = self.head[w]
            pos[w] = ARRIVED
            self.finished[h] += 1
            self.arrived.append(w)
            got = self._search(-1, moved, left - 1, cap - 1)
            self.arrived.pop()
            self.finished[h] -= 1
        else:
            pos[w] = t
            got = self._search(w, moved, left - 1, cap - 1, self._trail(sq, t, trail))
        pos[w] = sq
        return got

    def _step_text(self, w: int, t: int) -> str:
        b = self.board
        return b.step_text[w][t + self.head[w] if t == b.finish else t]

    def _free_steps(self) -> list[str]:
        """First steps of a new wagon move (no wagon moving now), under the must-move rule."""
        b = self.board
        left = self._allowance() - self.used
        if left <= 0:
            return []
        pos, occ = self.pos, self.occ
        moved = self.moved
        cands: list[tuple[int, int]] = []
        for w, sq in enumerate(pos):
            if sq < 0 or moved >> w & 1:
                continue
            occ[sq] = -1
            for t in self._targets(w, left, 1 << sq):
                cands.append((w, t))
            occ[sq] = w
        need = b.steps - self.used
        if not cands or need <= 0:
            return [self._step_text(w, t) for w, t in cands]
        count, goal = self._match(moved, -1)
        finish = b.finish
        values = []
        for w, t in cands:
            if (
                count >= need
                and (t == finish or occ[t] < 0)
                and self._spared(w, t, count, goal) >= need - 1
            ):
                values.append(need)  # step, stop there, and the others step apart
                continue
            sq = pos[w]
            occ[sq] = -1
            values.append(1 + self._after_step(w, t, moved | 1 << w, left, need, 1 << sq))
            occ[sq] = w
        most = max(values)
        return [self._step_text(w, t) for (w, t), v in zip(cands, values, strict=True) if v >= most]

    def _moving_texts(self) -> list[str]:
        b = self.board
        w = self.mover
        sq = self.pos[w]
        left = self._allowance() - self.used
        need = b.steps - self.used
        occ = self.occ
        can_stop = occ[sq] < 0
        trail = self.trail
        targets = self._targets(w, left, trail) if left > 0 else []
        if need > 0 and targets:
            moved = self.moved
            count = self._match(moved, sq)[0] if can_stop else 0
            finish = b.finish
            values = []
            for t in targets:
                if count >= need and (t == finish or occ[t] < 0):
                    values.append(need)  # step, stop there, and the others step apart
                else:
                    values.append(1 + self._after_step(w, t, moved, left, need, trail))
            stay = -1
            if can_stop:
                if count >= need:
                    stay = need
                else:
                    occ[sq] = w
                    stay = self._search(-1, moved, left, need)
                    occ[sq] = -1
            most = max(*values, stay)
            targets = [t for t, v in zip(targets, values, strict=True) if v >= most]
            can_stop = stay >= most
        texts = [self._step_text(w, t) for t in targets]
        if can_stop:
            texts.append("stop")
        return texts

    def _collect_texts(self) -> list[str]:
        sq = self.stop_at
        took = self.took
        if sq < 0 or (took and self.players <= self.board.one_item_up_to):
            return []
        b = self.board
        out = []
        if not took & CUBE:
            m = b.market_at[sq]
            if m >= 0 and self.market[m] >= 0:
                out.append(f"collect cube {b.square_names[sq]}")
        if not took & TILE:
            for a in b.areas_at[sq]:
                if self.area[a] >= 0:
                    out.append(f"collect tile {b.area_side[a]}")
        return out

    def _stopped_texts(self) -> list[str]:
        steps = self._free_steps()
        texts = self._collect_texts() + steps
        if not steps or self.used >= self.board.steps:
            texts.append("end")
        return texts

    def _moves_with(self, level: int) -> bool:
        """Could some wagon take a step if `level` were bought? In a traffic jam 'A player
        can buy a special move to solve the jam', and 'each special move includes all the
        benefits of the cheaper ones', so every affordable move that lets a wagon move may
        be bought; one after which no wagon could move is not offered (ruling 12)."""
        saved, self.level = self.level, level
        try:
            left = self._allowance()
            occ = self.occ
            for w, sq in enumerate(self.pos):
                if sq < 0:
                    continue
                occ[sq] = -1
                try:
                    if self._targets(w, left, 1 << sq):
                        return True
                finally:
                    occ[sq] = w
            return False
        finally:
            self.level = saved

    def _turn_texts(self) -> list[str]:
        b = self.board
        seat = self.seat
        steps = self._free_steps()
        coins = self.coins[seat]
        texts = []
        if steps:
            texts = [b.buy_texts[k] for k, cost in enumerate(b.costs) if cost <= coins]
        else:  # a traffic jam: from the cheapest move that solves it, all it can pay for
            cheapest = next(
                (k for k, c in enumerate(b.costs) if c <= coins and self._moves_with(k + 1)), None
            )
            if cheapest is not None:
                texts = [b.buy_texts[k] for k in range(cheapest, len(b.costs))
                         if b.costs[k] <= coins]
        texts += steps
        if self._may_take_tile(seat):
            texts.append("tile")
        texts.append("pass")
        return texts

    def _may_take_tile(self, seat: int) -> bool:
        b = self.board
        taken = sum(len(h) for h in self.wagon_tiles)
        return len(self.wagon_tiles[seat]) < b.max_wagon_tiles and taken < b.deck

    # --- applying ------------------------------------------------------------------
    def _apply(self, text: str) -> list[Event]:
        self._texts = None
        words = text.split()
        verb = words[0]
        b = self.board
        events: list[Event] = []
        if verb == "step":
            w = b.wagon_index[words[1]]
            target = words[2]
            t = b.finish if target in HEADINGS else b.square_index[target]
            self._step(w, t, events)
        elif verb == "stop":
            self._stop(events)
        elif verb == "collect":
            if words[1] == "cube":
                self._collect_cube(events)
            else:
                self._collect_tile(words[2], events)
        elif verb == "end":
            self._end_turn(events)
        elif verb == "buy":
            self._buy(b.special.index(words[1]), events)
        elif verb == "tile":
            self._take_tile(events)
        elif verb == "pass":
            self._pass(events)
        elif verb == "draw":
            colour = b.colours.index(words[2])
            if self.phase == "refill":
                self._refill(colour, events)
            elif words[1] == "ware":
                self._setup_ware(colour, events)
            else:
                self._setup_cube(colour, events)
        elif verb == "place":
            self._place(b.wagon_index[words[1]], events)
        elif verb == "remove":
            events.append(Event("wagon_tile_removed", {}))
            FLOW.fire(self, "tile_removed")
            if self.options["first"] != "random":
                self._choose_first(int(self.options["first"]), events)
        elif verb == "start":
            self._choose_first(int(words[2]) - 1, events)
        elif verb == "wagon":
            self._identify(b.wagon_index[words[1]], events)
        return events

    # setup
    def _place(self, w: int, events: list[Event]) -> None:
        b = self.board
        per_side = len(b.start[TO_ROME])
        heading = TO_ROME if self.cursor < per_side else TO_PORTUS
        sq = b.start[heading][self.cursor % per_side]
        self.pos[w], self.head[w], self.occ[sq] = sq, heading, w
        events.append(
            Event(
                "wagon_placed",
                {"wagon": b.wagons[w], "square": b.square_names[sq], "to": HEADINGS[heading]},
            )
        )
        self._next_setup(self.cursor + 1 == len(self.pos), "wagons_placed")

    def _setup_ware(self, colour: int, events: list[Event]) -> None:
        b = self.board
        self.area[self.cursor] = colour
        self.bag_tiles[colour] -= 1
        events.append(
            Event("ware_placed", {"area": b.area_names[self.cursor], "colour": b.colours[colour]})
        )
        self._next_setup(self.cursor + 1 == len(self.area), "wares_placed")

    def _setup_cube(self, colour: int, events: list[Event]) -> None:
        b = self.board
        self.market[self.cursor] = colour
        self.bag_cubes[colour] -= 1
        square = b.square_names[b.market_square[self.cursor]]
        events.append(Event("cube_placed", {"market": square, "colour": b.colours[colour]}))
        done = self.cursor + 1 == len(self.market) or not any(self.bag_cubes)
        self._next_setup(done, "cubes_placed")

    def _next_setup(self, done: bool, trigger: str) -> None:
        """The next start square, area or market; the next setup step after the last."""
        self.cursor = 0 if done else self.cursor + 1
        if done:
            FLOW.fire(self, trigger)

    def _choose_first(self, seat: int, events: list[Event]) -> None:
        n = self.players
        self.first = seat
        for i, coins in enumerate(self.board.starting_coins[:n]):
            self.coins[(seat + i) % n] = coins
        events.append(Event("first_player", {"player": seat, "coins": list(self.coins)}))
        FLOW.fire(self, "first_chosen")
        self._begin_turn(seat)

    # turns
    def _begin_turn(self, seat: int) -> None:
        self.seat = seat
        self.turn += 1
        self.last[seat] = self.turn
        self.level = self.used = self.moved = self.took = self.trail = 0
        self.mover = self.stop_at = -1

    def _end_turn(self, events: list[Event]) -> None:
        events.append(Event("turn_ended", {"player": self.seat}))
        self._begin_turn((self.seat + 1) % self.players)
        FLOW.fire(self, "next_turn")

    def _buy(self, k: int, events: list[Event]) -> None:
        b = self.board
        self.coins[self.seat] -= b.costs[k]
        self.level = k + 1
        events.append(
            Event("special_bought", {"player": self.seat, "move": b.special[k], "cost": b.costs[k]})
        )
        FLOW.fire(self, "buy")

    def _step(self, w: int, t: int, events: list[Event]) -> None:
        b = self.board
        src = self.pos[w]
        if self.phase != "moving":  # a new wagon's move begins
            self.mover = w
            self.moved |= 1 << w
            self.occ[src] = -1
            self.stop_at = -1
            self.trail = 1 << src
            FLOW.fire(self, "step")
        self.used += 1
        h = self.head[w]
        if t == b.finish:
            self.pos[w] = ARRIVED
            self.arrived.append(w)
            self.finished[h] += 1
            self.mover = -1
            self.trail = 0
            events.append(
                Event(
                    "wagon_arrived",
                    {
                        "wagon": b.wagons[w],
                        "from": b.square_names[src],
                        "at": HEADINGS[h],
                        "order": len(self.arrived),
                    },
                )
            )
            if len(self.arrived) >= b.arrivals:
                self._game_end("arrivals", events)
            else:
                self._settle(events)
            return
        self.pos[w] = t
        self.trail = self._trail(src, t, self.trail)
        events.append(
            Event(
                "wagon_moved",
                {"wagon": b.wagons[w], "from": b.square_names[src], "to": b.square_names[t]},
            )
        )
        texts = self._moving_texts()
        if texts == ["stop"]:  # no step left to take: the move ends by itself
            self._stop(events)
        else:
            self._texts = texts

    def _stop(self, events: list[Event]) -> None:
        w = self.mover
        sq = self.pos[w]
        self.occ[sq] = w
        self.stop_at = sq
        self.mover = -1
        self.trail = 0
        events.append(
            Event(
                "wagon_stopped",
                {"wagon": self.board.wagons[w], "square": self.board.square_names[sq]},
            )
        )
        self._settle(events)

    def _settle(self, events: list[Event]) -> None:
        """After a move ended or a refill: offer what is left of the turn, or end it."""
        texts = self._stopped_texts()
        if texts == ["end"]:
            self._end_turn(events)
            return
        if self.phase == "moving":
            FLOW.fire(self, "stop")
        elif self.phase == "refill":
            FLOW.fire(self, "refilled")
        self._texts = texts

    def _collect_cube(self, events: list[Event]) -> None:
        b = self.board
        m = b.market_at[self.stop_at]
        colour = self.market[m]
        self.market[m] = -1
        self.cubes[self.seat][colour] += 1
        self.took |= CUBE
        events.append(
            Event(
                "cube_taken",
                {
                    "player": self.seat,
                    "colour": b.colours[colour],
                    "market": b.square_names[self.stop_at],
                },
            )
        )
        if any(self.bag_cubes):
            self.refill_kind, self.refill_at = "cube", m
            FLOW.fire(self, "collect")
        else:
            self._settle(events)

    def _collect_tile(self, side: str, events: list[Event]) -> None:
        b = self.board
        a = next(a for a in b.areas_at[self.stop_at] if b.area_side[a] == side)
        colour = self.area[a]
        self.area[a] = -1
        seat = self.seat
        self.tiles[seat][colour] += 1
        self.took |= TILE
        coins = self.market.count(colour)
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
        if self._gain(seat, coins, events):
            return
        if any(self.bag_tiles):
            self.refill_kind, self.refill_at = "ware", a
            FLOW.fire(self, "collect")
        else:
            self._settle(events)

    def _refill(self, colour: int, events: list[Event]) -> None:
        b = self.board
        if self.refill_kind == "cube":
            self.market[self.refill_at] = colour
            self.bag_cubes[colour] -= 1
            where = b.square_names[b.market_square[self.refill_at]]
        else:
            self.area[self.refill_at] = colour
            self.bag_tiles[colour] -= 1
            where = b.area_names[self.refill_at]
        events.append(
            Event("refilled", {"kind": self.refill_kind, "at": where, "colour": b.colours[colour]})
        )
        self.refill_kind, self.refill_at = "", -1
        self._settle(events)

    def _gain(self, seat: int, coins: int, events: list[Event]) -> bool:
        """'the player takes one coin for each cube of the same colour currently on the
        board' and 'When a player has 5 coins, he must change them into 1 Victory Point':
        the whole payout is taken (as far as the 20 coins go), every 5 coins changed while
        victory points are left. True when that gave out the last one (the game ended)."""
        b = self.board
        supply = b.coins_total - sum(self.coins)
        given = False
        for k in range(coins):
            if not supply:  # every coin of the game is in the players' hands
                events.append(Event("coins_short", {"player": seat, "missing": coins - k}))
                break
            self.coins[seat] += 1
            supply -= 1
            if self.coins[seat] >= b.coins_per_vp and sum(self.vp) < b.vp_tokens:
                self.coins[seat] -= b.coins_per_vp
                supply += b.coins_per_vp
                self.vp[seat] += 1
                given = True
                events.append(Event("victory_point", {"player": seat, "vp": self.vp[seat]}))
        if given and sum(self.vp) >= b.vp_tokens:
            self._game_end("victory points", events)
            return True
        return False

    def _take_tile(self, events: list[Event]) -> None:
        seat = self.seat
        self.wagon_tiles[seat].append(-1)
        events.append(
            Event("wagon_tile_taken", {"player": seat, "held": len(self.wagon_tiles[seat])})
        )
        if self.options["wagon_tiles"] == "when_taken":
            FLOW.fire(self, "take_tile")
        else:
            self._end_turn(events)

    def _identify(self, w: int, events: list[Event]) -> None:
        if self.phase == "wagon_tile":
            self.wagon_tiles[self.seat][-1] = w
            events.append(Event("wagon_tile_entered", {"player": self.seat}))
            self._end_turn(events)
            return
        seat, k = self._unrevealed()
        self.wagon_tiles[seat][k] = w
        events.append(Event("wagon_tile_revealed", {"player": seat, "wagon": self.board.wagons[w]}))
        if self._unrevealed()[0] < 0:
            self._final(events)

    def _pass(self, events: list[Event]) -> None:
        seat = self.seat
        events.append(Event("passed", {"player": seat}))
        if not self._gain(seat, self.board.pass_coins, events):
            self._end_turn(events)

    # the end
    def _unrevealed(self) -> tuple[int, int]:
        for seat, held in enumerate(self.wagon_tiles):
            for k, w in enumerate(held):
                if w < 0:
                    return seat, k
        return -1, -1

    def _game_end(self, reason: str, events: list[Event]) -> None:
        """'The game ends immediately': the turn stops where it is."""
        self.ended = reason
        self.mover = -1
        events.append(Event("game_ended", {"reason": reason}))
        if self._unrevealed()[0] >= 0:
            FLOW.fire(self, "game_end")
        else:
            self._final(events)

    def _final(self, events: list[Event]) -> None:
        FLOW.fire(self, "scored")
        events.append(Event("game_over", {"scores": self.scores(), "winner": self.winner()}))

    # --- scoring -------------------------------------------------------------------
    def contract_points(self, seat: int) -> int:
        """'colours with contracts x the greatest number of one colour, minus 1 per loose one'."""
        cubes, tiles = self.cubes[seat], self.tiles[seat]
        contracts = [min(c, t) for c, t in zip(cubes, tiles, strict=True)]
        loose = sum(abs(c - t) for c, t in zip(cubes, tiles, strict=True))
        colours = sum(1 for k in contracts if k)
        return colours * max(contracts) + loose * self.board.points_loose

    def wagon_points(self, seat: int) -> int:
        b = self.board
        arrived = set(self.arrived)
        return sum(
            b.points_arrived if w in arrived else b.points_not_arrived
            for w in self.wagon_tiles[seat]
            if w >= 0
        )

    def scores(self) -> list[int]:
        """VP tokens + contracts; wagon tiles count only once revealed at the end."""
        over = self.phase == "over"
        return [
            self.vp[s] + self.contract_points(s) + (self.wagon_points(s) if over else 0)
            for s in range(self.players)
        ]

    def winner(self) -> list[int]:
        """Most points; then more coins; then 'the player that played last loses'."""
        scores = self.scores()
        keys = [(scores[s], self.coins[s], -self.last[s]) for s in range(self.players)]
        best = max(keys)
        return [s for s in range(self.players) if keys[s] == best]

    # --- describing and explaining ---------------------------------------------------
    def _column(self, sq: int) -> int:
        """Column of a square; start squares sit just beyond either end of the road."""
        b = self.board
        if sq < b.road:
            return b.column[sq]
        return -1 if sq in b.start[TO_ROME] else len(b.columns)

    def _wagon(self, w: int) -> str:
        return self.board.wagons[w].capitalize()

    def describe(self) -> str:
        phase = self.phase
        b = self.board
        who = seat_name(self.seat)
        if phase == "wagons":
            per_side = len(b.start[TO_ROME])
            heading = TO_ROME if self.cursor < per_side else TO_PORTUS
            square = b.square_names[b.start[heading][self.cursor % per_side]]
            side = "Portus" if heading == TO_ROME else "Roma"
            return f"Setup: which wagon stands on {side} start square {square}?"
        if phase == "wares":
            a = self.cursor
            return f"Setup: which ware tile lies on area {b.area_names[a]} ({b.area_side[a]})?"
        if phase == "cubes":
            square = b.square_names[b.market_square[self.cursor]]
            return f"Setup: draw a cube from the bag for the market at {square}."
        if phase == "wagon_tiles":
            return "Setup: put one wagon tile back into the box without looking at it."
        if phase == "first_player":
            return "Setup: choose the starting player at random."
        if phase == "turn":
            tile = ", take a wagon tile" if self._may_take_tile(self.seat) else ""
            return f"{who}: move wagons (3 steps){tile}, or pass and take a coin."
        if phase == "special":
            return f"{who} bought the {b.special[self.level - 1]} move: move the wagons."
        if phase == "moving":
            return (
                f"{who} moves {self._wagon(self.mover)} ({self.used} of {self._allowance()} "
                f"steps): step on, or stop."
            )
        if phase == "stopped":
            where = (
                f" ({self._wagon(self.occ[self.stop_at])} stopped at "
                f"{b.square_names[self.stop_at]})"
                if self.stop_at >= 0
                else ""
            )
            return f"{who} has used {self.used} of {self._allowance()} steps{where}."
        if phase == "refill":
            if self.refill_kind == "cube":
                square = b.square_names[b.market_square[self.refill_at]]
                return f"Draw a cube from the bag for the market at {square}."
            return f"Draw a ware tile from the bag for area {b.area_names[self.refill_at]}."
        if phase == "wagon_tile":
            return f"{who} chose a wagon tile: enter (or scan) its wagon; it stays face down."
        if phase == "reveal":
            seat, k = self._unrevealed()
            return f"Game end: {seat_name(seat)} reveals wagon tile {k + 1}: enter its wagon."
        return "The game is over."

    def is_notation(self, text: str) -> bool:
        return text.partition(" ")[0] in VERBS

    def explain(self, text: str) -> str | None:
        words = text.split()
        if not words:
            return "That is an empty action. " + self.describe()
        verb = words[0]
        if verb not in VERBS:
            return (
                f"'{text}' is not Strada Romana notation: actions start with "
                f"{', '.join(VERBS[:-1])} or {VERBS[-1]}."
            )
        if self.phase not in _VERB_PHASES[verb]:
            return self._wrong_phase(verb, text)
        if verb in BARE_VERBS and len(words) > 1:
            return f"'{verb}' takes no more words."
        why = getattr(self, f"_why_{verb}", None)
        return why(words) if why else None

    def _wrong_phase(self, verb: str, text: str) -> str:
        phase = self.phase
        if phase in SEAT_PHASES and phase != "turn":
            if verb == "buy":
                return "Special moves are bought at the beginning of the turn, before moving."
            if verb in ("tile", "pass"):
                return (
                    "This turn is a move: a turn is one of moving the wagons, "
                    "choosing a wagon tile, or passing."
                )
        if verb == "collect" and phase == "moving":
            return (
                "Goods are taken only when a wagon ends its move: 'stop' first "
                "(or take its remaining steps)."
            )
        if verb == "collect" and phase in ("turn", "special"):
            return "Goods are taken only when a wagon ends its move on a square."
        if verb == "end" and phase in ("moving", "special"):
            return f"{MUST_MOVE}: the turn ends once the steps are taken. {self.describe()}"
        if verb == "end" and phase == "turn":
            return (
                "'end' closes a move: a turn is moving the wagons, choosing a wagon tile, "
                "or passing."
            )
        if verb == "stop" and phase in SEAT_PHASES:
            return "No wagon is moving: 'stop' ends the move of the wagon that is moving."
        return f"'{text}' is not possible now. {self.describe()}"

    def _why_step(self, words: list[str]) -> str | None:
        b = self.board
        if len(words) != 3:
            return "A step is written 'step WAGON SQUARE', e.g. 'step ballio 121'."
        w = b.wagon_index.get(words[1])
        if w is None:
            return f"There is no wagon '{words[1]}': the wagons are {', '.join(b.wagons)}."
        name = self._wagon(w)
        sq, h = self.pos[w], self.head[w]
        if sq == ARRIVED:
            return f"{name} has already arrived at its destination."
        if self.phase == "moving" and w != self.mover:
            return (
                f"{self._wagon(self.mover)} is moving: end its move with 'stop' before "
                f"moving {name} (a wagon's steps are taken together)."
            )
        if self.phase != "moving" and self.moved >> w & 1:
            return f"{name} has already moved this turn: each wagon makes one move per turn."
        if self.used >= self._allowance():
            if self.level < 3:
                return (
                    "Players move by 3 squares: a fourth step needs the extra move "
                    "(3 coins), bought at the beginning of the turn."
                )
            return "Even with the extra move a player moves by 4 squares, no more."
        target = words[2]
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
        here = self._column(sq)
        ahead = b.column[t] - here if h == TO_ROME else here - b.column[t]
        if ahead < 0:
            return f"Wagons never move backwards: {name} is heading to {HEADINGS[h].title()}."
        kind = (
            "straight"
            if t in b.straight[h][sq]
            else "sideways"
            if t in b.sideways[sq]
            else "diagonal"
            if t in b.diagonal[h][sq]
            else ""
        )
        if not kind:
            if ahead == 0 and t != sq:
                return (
                    "Sideways moves go to the square just above or below (in a 3-square "
                    "column, to or from the middle one)."
                )
            if ahead == 1:
                return (
                    f"No line links {b.square_names[sq]} to {target}: wagons move along "
                    f"the links, and diagonally only where the diagonal move allows."
                )
            return "Wagons move a square at a time."
        if kind == "sideways" and self.level < 1:
            return (
                "Wagons cannot go sideways unless of Special Moves: buy sideways "
                "(1 coin) at the beginning of the turn."
            )
        if kind == "diagonal" and self.level < 2:
            return (
                "Moving diagonally where no line links the squares is a Special Move: "
                "buy diagonal (2 coins) at the beginning of the turn."
            )
        if self.phase == "moving" and self.trail >> t & 1:
            return (
                f"Wagons move without changing direction: {name} does not go back to "
                f"{target}, which it left during this move."
            )
        other = self.occ[t]
        if other >= 0 and other != w:
            if self.level < 4:
                return (
                    f"There can never be more than one wagon on a square: {self._wagon(other)} "
                    f"is on {target} and blocks {name} (stacking, 4 coins, passes through)."
                )
            return (
                f"With stacking a wagon may pass through {target}, but at the end of its "
                f"move only one wagon can stay on each square: no free square is in reach."
            )
        return f"{MUST_MOVE}: after this step fewer steps would remain than the traffic allows."

    def _why_stop(self, words: list[str]) -> str | None:
        w = self.mover
        other = self.occ[self.pos[w]]
        if other >= 0:
            return (
                f"At the end of its move only one wagon can stay on each square: "
                f"{self._wagon(w)} is passing over {self._wagon(other)}."
            )
        return f"{MUST_MOVE}: stopping here would leave fewer steps than the traffic allows."

    def _why_end(self, words: list[str]) -> str | None:
        return f"{MUST_MOVE}: a wagon can still move, and {self.used} of 3 steps are taken."

    def _why_collect(self, words: list[str]) -> str | None:
        b = self.board
        if len(words) != 3 or words[1] not in ("cube", "tile"):
            return "Write 'collect cube SQUARE' or 'collect tile top' / 'collect tile bottom'."
        sq = self.stop_at
        if sq < 0:
            return "Goods are taken only when a wagon ends its move on a road square."
        kind = words[1]
        if self.took and self.players <= b.one_item_up_to:
            return (
                "With 2-3 players a player must choose between a cube or a ware tile "
                "in a turn: not both."
            )
        if kind == "cube":
            if self.took & CUBE:
                return "With 4-5 players a player takes a cube and/or a tile in a turn: one cube."
            square = b.square_names[sq]
            if words[2] != square:
                return (
                    f"The cube comes from the market of the square where the wagon ended "
                    f"its move: {square}."
                )
            m = b.market_at[sq]
            if m < 0:
                return f"Square {square} is not connected to a market."
            return f"The market at {square} is empty: the bag had no cube left to refill it."
        if self.took & TILE:
            return "With 4-5 players a player takes a cube and/or a tile in a turn: one tile."
        side = words[2]
        if side not in SIDES:
            return "Write 'collect tile top' or 'collect tile bottom'."
        areas = b.areas_at[sq]
        if not any(b.area_side[a] == side for a in areas):
            row = b.area_side[areas[0]] if areas else "top"
            return f"If on a {row} square, the player can only take a {row} ware tile."
        a = next(a for a in areas if b.area_side[a] == side)
        return f"Area {b.area_names[a]} has no ware tile: the bag had none left."

    def _why_buy(self, words: list[str]) -> str | None:
        b = self.board
        if len(words) != 2 or words[1] not in b.special:
            moves = ", ".join(f"{m} ({c})" for m, c in zip(b.special, b.costs, strict=True))
            return f"The special moves (coins) are {moves}."
        k = b.special.index(words[1])
        coins = self.coins[self.seat]
        if b.costs[k] > coins:
            return (
                f"The {words[1]} move costs {_coins(b.costs[k])} and {seat_name(self.seat)} "
                f"has {_coins(coins)}."
            )
        return f"No wagon could move even with the {words[1]} move."

    def _why_tile(self, words: list[str]) -> str | None:
        if len(self.wagon_tiles[self.seat]) >= self.board.max_wagon_tiles:
            return "Each player can hold a maximum of three wagon tiles."
        return "The wagon tile deck is empty."

    def _why_draw(self, words: list[str]) -> str | None:
        b = self.board
        want = "cube" if self.phase == "cubes" else "ware" if self.phase == "wares" else ""
        if self.phase == "refill":
            want = self.refill_kind
        if len(words) != 3 or words[1] not in ("cube", "ware"):
            return f"Write 'draw {want} COLOUR'."
        if words[1] != want:
            return f"This draw is not a {words[1]}: {self.describe()}"
        if words[2] not in b.colours:
            return f"There is no colour '{words[2]}': the colours are {', '.join(b.colours)}."
        if self.phase == "wares":
            return f"A {words[2]} ware tile is already on an area: one of each colour is placed."
        kind = "cube" if want == "cube" else "ware tile"
        return f"No {words[2]} {kind} is left in the bag."

    def _why_place(self, words: list[str]) -> str | None:
        b = self.board
        if len(words) != 2 or words[1] not in b.wagon_index:
            return f"Write 'place WAGON'; the wagons are {', '.join(b.wagons)}."
        return f"{words[1].capitalize()} is already on a start square."

    def _why_wagon(self, words: list[str]) -> str | None:
        b = self.board
        if len(words) != 2 or words[1] not in b.wagon_index:
            return f"Write 'wagon NAME'; the wagons are {', '.join(b.wagons)}."
        return f"The {words[1]} wagon tile is already held: each wagon has one tile."

    def _why_start(self, words: list[str]) -> str | None:
        return f"Write 'start seat N' with N from 1 to {self.players}."

    def _why_remove(self, words: list[str]) -> str | None:
        return f"Write '{REMOVE_TEXT}'."

    # --- persistence -------------------------------------------------------------
    def _where(self, sq: int) -> str | None:
        return self.board.square_names[sq] if sq >= 0 else None

    def _fields(self) -> dict[str, Any]:
        b = self.board
        colours = b.colours

        def per_colour(counts: list[int]) -> dict[str, int]:
            return dict(zip(colours, counts, strict=True))

        return {
            "phase": self.phase,
            "cursor": self.cursor,
            "first": self.first,
            "seat": self.seat,
            "turn": self.turn,
            "last": list(self.last),
            "wagons": {
                b.wagons[w]: [self._where(sq), HEADINGS[self.head[w]]]
                for w, sq in enumerate(self.pos)
            },
            "arrived": [b.wagons[w] for w in self.arrived],
            "markets": {
                b.square_names[sq]: colours[c] if c >= 0 else None
                for sq, c in zip(b.market_square, self.market, strict=True)
            },
            "areas": {
                name: colours[c] if c >= 0 else None
                for name, c in zip(b.area_names, self.area, strict=True)
            },
            "bag": {"cubes": per_colour(self.bag_cubes), "tiles": per_colour(self.bag_tiles)},
            "coins": list(self.coins),
            "vp": list(self.vp),
            "cubes": [per_colour(c) for c in self.cubes],
            "tiles": [per_colour(t) for t in self.tiles],
            "wagon_tiles": [[b.wagons[w] if w >= 0 else None for w in h] for h in self.wagon_tiles],
            "move": {
                "special": b.special[self.level - 1] if self.level else None,
                "steps": self.used,
                "moved": [b.wagons[w] for w in range(len(b.wagons)) if self.moved >> w & 1],
                "mover": b.wagons[self.mover] if self.mover >= 0 else None,
                "left": [n for i, n in enumerate(b.square_names) if self.trail >> i & 1],
                "stopped_at": self._where(self.stop_at),
                "took": [k for k, bit in (("cube", CUBE), ("tile", TILE)) if self.took & bit],
            },
            "refill": [self.refill_kind, self.refill_at] if self.refill_kind else None,
            "ended": self.ended,
        }

    def _load_fields(self, d: Mapping[str, Any]) -> None:
        b = self.board
        wagons, colours = b.wagon_index, b.colours
        self.phase = d["phase"]
        self.cursor, self.first = d["cursor"], d["first"]
        self.seat, self.turn = d["seat"], d["turn"]
        self.last = list(d["last"])
        self.arrived = [wagons[w] for w in d["arrived"]]
        arrived = set(self.arrived)
        for name, (at, heading) in d["wagons"].items():
            w = wagons[name]
            self.head[w] = HEADINGS.index(heading)
            self.pos[w] = (
                b.square_index[at] if at is not None else ARRIVED if w in arrived else UNPLACED
            )
        self.finished = [sum(1 for w in self.arrived if self.head[w] == h) for h in (0, 1)]
        markets = [d["markets"][b.square_names[sq]] for sq in b.market_square]
        self.market = [colours.index(c) if c else -1 for c in markets]
        self.area = [colours.index(d["areas"][a]) if d["areas"][a] else -1 for a in b.area_names]
        self.bag_cubes = [d["bag"]["cubes"][c] for c in colours]
        self.bag_tiles = [d["bag"]["tiles"][c] for c in colours]
        self.coins, self.vp = list(d["coins"]), list(d["vp"])
        self.cubes = [[row[c] for c in colours] for row in d["cubes"]]
        self.tiles = [[row[c] for c in colours] for row in d["tiles"]]
        self.wagon_tiles = [
            [wagons[w] if w is not None else -1 for w in held] for held in d["wagon_tiles"]
        ]
        move = d["move"]
        self.level = b.special.index(move["special"]) + 1 if move["special"] else 0
        self.used = move["steps"]
        self.moved = sum(1 << wagons[w] for w in move["moved"])
        self.mover = wagons[move["mover"]] if move["mover"] else -1
        self.trail = sum(1 << b.square_index[n] for n in move["left"])
        self.stop_at = b.square_index[move["stopped_at"]] if move["stopped_at"] else -1
        self.took = sum(bit for k, bit in (("cube", CUBE), ("tile", TILE)) if k in move["took"])
        self.refill_kind, self.refill_at = d["refill"] if d["refill"] else ("", -1)
        self.ended = d["ended"]
        self.occ = [-1] * b.finish
        for w, sq in enumerate(self.pos):
            if sq >= 0 and w != self.mover:
                self.occ[sq] = w
        self._texts = None

    def clone(self) -> StradaRomanaState:
        new = object.__new__(StradaRomanaState)
        new.__dict__.update(self.__dict__)
        new.history = list(self.history)
        new.last = self.last[:]
        new.pos = self.pos[:]
        new.head = self.head[:]
        new.occ = self.occ[:]
        new.arrived = self.arrived[:]
        new.finished = self.finished[:]
        new.market = self.market[:]
        new.area = self.area[:]
        new.bag_cubes = self.bag_cubes[:]
        new.bag_tiles = self.bag_tiles[:]
        new.coins = self.coins[:]
        new.vp = self.vp[:]
        new.cubes = [c[:] for c in self.cubes]
        new.tiles = [t[:] for t in self.tiles]
        new.wagon_tiles = [h[:] for h in self.wagon_tiles]
        return new

    # --- invariants ----------------------------------------------------------------
    def invariants(self) -> list[str]:
        b = self.board
        broken: list[str] = []
        colours = range(len(b.colours))
        for c in colours:
            cubes = self.bag_cubes[c] + self.market.count(c) + sum(p[c] for p in self.cubes)
            if cubes != b.cubes_each:
                broken.append(f"{b.colours[c]} cubes not conserved ({cubes})")
            tiles = self.bag_tiles[c] + self.area.count(c) + sum(p[c] for p in self.tiles)
            if tiles != b.tiles_each:
                broken.append(f"{b.colours[c]} ware tiles not conserved ({tiles})")
        if any(k < 0 for k in self.bag_cubes + self.bag_tiles):
            broken.append("a bag count is negative")
        # 0-4 coins in play; the payout that gave out the 20th victory point is kept whole
        most = b.coins_total if self.ended == "victory points" else b.coins_per_vp - 1
        if any(not 0 <= c <= most for c in self.coins):
            broken.append(f"coins out of 0..{most}: {self.coins}")
        if sum(self.coins) > b.coins_total or sum(self.vp) > b.vp_tokens or min(self.vp) < 0:
            broken.append("more coins or victory points out than the box holds")
        placed = [sq for sq in self.pos if sq >= 0]
        resting = [sq for w, sq in enumerate(self.pos) if sq >= 0 and w != self.mover]
        if len(set(resting)) != len(resting):
            broken.append("two wagons on one square")
        for w, sq in enumerate(self.pos):
            if sq >= 0 and w != self.mover and self.occ[sq] != w:
                broken.append(f"{b.wagons[w]} is not where the board says")
        if sum(1 for o in self.occ if o >= 0) != len(resting):
            broken.append("the board shows a wagon that is not there")
        if self.phase != "wagons" and len(placed) + len(self.arrived) != len(b.wagons):
            broken.append("wagons lost")
        if (
            len(self.arrived) > b.arrivals
            or self.pos.count(ARRIVED) != len(self.arrived)
            or sum(self.finished) != len(self.arrived)
        ):
            broken.append("arrivals out of step")
        held = [len(h) for h in self.wagon_tiles]
        if max(held) > b.max_wagon_tiles or sum(held) > b.deck:
            broken.append("more wagon tiles held than allowed")
        known = [w for h in self.wagon_tiles for w in h if w >= 0]
        if len(set(known)) != len(known):
            broken.append("one wagon tile held twice")
        moving = self.phase == "moving"
        if (
            self.used > self._allowance()
            or moving != (self.mover >= 0)
            or moving != bool(self.trail)
        ):
            broken.append("the move in progress is inconsistent")
        if moving and self.occ[self.pos[self.mover]] >= 0 and self.level < 4:
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
