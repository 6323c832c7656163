"""Actions: what a seat may do on its turn of the Perform Actions phase.

One unit per action of the rulebook's "Actions" pages, in their order: Pass, Move,
Rush, Brag, Dispatch, Promote, Give a Gift (Play a Scandal is scandals.py), and
Trading Scandals for Time. Each holds its grammar (the notation it offers and reads),
its legal texts, its effect, its cost and its refusal, with the rulebook's words in
its docstring. Refusals run only for input that is not legal, never while a legal
action is applied.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, NamedTuple

from engine.core import Event, Rule, in_phases, revealing

from .end import next_seat_after, wants_discard
from .flow import FLOW
from .hand import playable_cards, reveal
from .society import (
    RANK,
    cost_refusal,
    counts,
    enter,
    ev,
    free,
    full_refusal,
    has_member,
    location,
    mine,
    piece,
    piece_index,
    piece_refusal,
    piece_word,
    promoted,
    replaced,
)
from .structure import GAIN_TIME, PERFORM_ACTIONS
from .tables import CONTESSINA, COSIMO, DEBUTANT, MAESTRO, RANK_OF, RANKS

if TYPE_CHECKING:
    from .rules import FlorenceState

OWN_ESCORT_VP = 1
"""Solo, Perform Actions: 'For each of your own Escorts you move through, score 1 VP (as
well as 1 time.)'"""


class Action(Rule["FlorenceState"]):
    """'During the Perform Actions phase, players spend time on actions. Starting with the
    1st player and going clockwise, each player performs exactly 1 action, until all
    players have chosen to Pass. On a turn, a player chooses 1 of the actions described
    here, and pays the indicated amount of time.'

    The base of every action: a seat that has passed takes none ('Once you have passed,
    you cannot perform more actions this round'), and each action costs its time."""

    heading = "Actions"
    verb: ClassVar[str] = ""
    """The action's verb in notation, and its key in the data's costs."""

    def texts(self, state: FlorenceState) -> list[str]:
        """The legal texts of this action for the seat in turn: none once it has passed
        (each action checks that first, with its cost: this runs for every decision)."""
        return []

    def cost(self, state: FlorenceState) -> int:
        return state.tables.cost[self.verb]

    def pay(self, state: FlorenceState, s: int) -> None:
        state.time[s] -= state.tables.cost[self.verb]

    def refuse(self, state: FlorenceState, verb: str, arg: str) -> str | None:
        return self.turn_refusal(state, verb) or self.refusal(
            state, state.turn, [verb, *arg.split()]
        )

    def refusal(self, state: FlorenceState, seat: int, words: list[str]) -> str | None:
        """Why this action, as `words`, is not possible for `seat` now; None: no reason."""
        return None

    def cost_refusal(self, state: FlorenceState, seat: int, what: str) -> str | None:
        cost = self.cost(state)
        if state.time[seat] < cost:
            return cost_refusal(what, cost, state.time[seat])
        return None

    @staticmethod
    def turn_refusal(state: FlorenceState, verb: str) -> str | None:
        """An action is taken on one's own turn of the Perform Actions phase, before
        passing."""
        if state.phase == "actions" and state.passed[state.turn]:
            return "Once you have passed, you cannot perform more actions this round: pick a bonus."
        if state.phase != "actions":
            return f"'{verb}' is an action of the Perform Actions phase. {state.waiting_for()}"
        return None


# --- Pass ------------------------------------------------------------------------------
class Pass(Action):
    """'Pass (0 time): Take your ring and place it on 1 of the board Locations (unless
    you're the last to pass, in which case the round ends.) ... You cannot place it on a
    Location where someone has placed their ring ... The 1st player to pass each round
    gains 2 time. If it would become your turn again after you have Passed, pick 1 of the
    following bonuses: Swap 1 Family Member you have on your ring's Location with an
    adjacent Family Member (respecting Seniority); Gain 1 Time; Gain 1 VP'."""

    heading = "Pass"
    verb = "pass"
    plays = in_phases(actions=("pass", "bonus"))

    def texts(self, state: FlorenceState) -> list[str]:
        s = state.turn
        if state.passed[s]:
            return self.bonus_texts(state, s)
        if state.npassed == state.seats - 1:
            return ["pass"]
        t = state.tables
        rings = state.rings
        return [f"pass {t.loc_names[loc]}" for loc in range(t.locations) if loc not in rings]

    @staticmethod
    def bonus_texts(state: FlorenceState, s: int) -> list[str]:
        out = ["bonus time", "bonus vp"]
        ring = state.rings[s]
        if ring < 0:
            return out
        q = state.queues[ring]
        owner = state.owner
        for i in range(len(q) - 1):
            a, b = q[i], q[i + 1]
            if RANK[a] == RANK[b] and (owner[a] == s) != (owner[b] == s):
                out.append(f"bonus swap {piece_word(a, i)} {piece_word(b, i + 1)}")
        return out

    def apply(self, state: FlorenceState, verb: str, arg: str, events: list[Event]) -> None:
        s = state.turn
        if verb == "bonus":
            self.bonus(state, s, arg.split(), events)
        else:
            self.pass_turn(state, s, arg, events)
        PERFORM_ACTIONS.end_turn(state, s, events)

    @staticmethod
    def pass_turn(state: FlorenceState, s: int, arg: str, events: list[Event]) -> None:
        gained = 0
        if state.npassed == 0:
            gained = GAIN_TIME.gain(state, s, state.tables.cost["first_pass_time"])
        state.npassed += 1
        state.passed[s] = True
        loc = int(arg) - 1 if arg else -1
        state.rings[s] = loc
        events.append(ev("passed", player=s, ring=loc + 1 if loc >= 0 else None, time=gained))

    @staticmethod
    def bonus(state: FlorenceState, s: int, words: list[str], events: list[Event]) -> None:
        cost = state.tables.cost
        what = words[0]
        if what == "time":
            gained = GAIN_TIME.gain(state, s, cost["bonus_time"])
            events.append(ev("bonus", player=s, bonus="time", time=gained))
        elif what == "vp":
            state.vp[s] += cost["bonus_vp"]
            events.append(ev("bonus", player=s, bonus="vp", vp=cost["bonus_vp"]))
        else:
            loc = state.rings[s]
            i = piece_index(words[1])
            q = state.queues[loc]
            q[i], q[i + 1] = q[i + 1], q[i]
            events.append(ev("bonus", player=s, bonus="swap", location=loc + 1, position=i + 1))

    def refuse(self, state: FlorenceState, verb: str, arg: str) -> str | None:
        if verb == "bonus":
            if state.phase != "actions" or not state.passed[state.turn]:
                return "A bonus is picked when your turn comes again after you have passed."
            return None
        return super().refuse(state, verb, arg)

    def refusal(self, state: FlorenceState, seat: int, words: list[str]) -> str | None:
        last = state.npassed == state.seats - 1
        if last and len(words) > 1:
            return "The last player to pass places no ring: the round's actions end at once."
        if not last and len(words) == 1:
            return "Passing places your ring on a location: say which, like 'pass 6'."
        loc = location(state, words[1]) if len(words) == 2 else None
        if loc is not None and loc in state.rings:
            owner = state.rings.index(loc)
            return (
                f"{state.who(owner)}'s ring is on location {loc + 1}: you cannot place your "
                f"ring where someone has placed theirs."
            )
        return None


# --- Move ------------------------------------------------------------------------------
class Move(Action):
    """'Move (-1 time): Move 1 of your deployed Family Members from their current
    location, along a path with a Shield icon on it, to an orthogonally adjacent
    location. ... all roads except the diagonal path through the park in the top left,
    which is only used by Nobles. ... If a location has no empty spaces, you may not Move
    there.' and Cosimo's Escorts: 'If you move a Family Member along a path occupied by an
    Escort of your colour, gain 1 time. If another player does the same you gain 2 VP'."""

    heading = "Move"
    verb = "move"
    plays = in_phases(actions=("move",))

    def texts(self, state: FlorenceState) -> list[str]:
        s = state.turn
        if state.passed[s] or state.time[s] < state.tables.cost["move"]:
            return []
        ln = state.tables.loc_names
        queues = state.queues
        cap = state.cap
        nbrs = state.nbrs
        out = []
        for loc, i, code in mine(state, s):
            head = f"move {ln[loc]} {piece_word(code, i)} "
            for d, _ in nbrs[loc]:
                if len(queues[d]) < cap[d]:
                    out.append(head + ln[d])
        return out

    def apply(self, state: FlorenceState, verb: str, arg: str, events: list[Event]) -> None:
        s = state.turn
        where, word, dest = arg.split()
        state.time[s] -= state.tables.cost["move"]
        loc = int(where) - 1
        code = state.queues[loc].pop(piece_index(word))
        self.relocate(state, s, loc, code, int(dest) - 1, events, True)
        PERFORM_ACTIONS.end_turn(state, s, events)

    def refusal(self, state: FlorenceState, seat: int, words: list[str]) -> str | None:
        return self.path_refusal(state, seat, words, "move", self.cost(state))

    @staticmethod
    def relocate(
        state: FlorenceState,
        s: int,
        loc: int,
        code: int,
        dest: int,
        events: list[Event],
        escorts: bool,
    ) -> int:
        """`code` has left `loc` for `dest`: Escorts on the road (unless a card ignores
        them), then it joins the queue, or stays in transit (-1) when `dest` is full."""
        if escorts:
            road = state.tables.road_index[(loc, dest) if loc < dest else (dest, loc)]
            if state.escorts[road]:
                Move.escorts(state, s, road, events)
        new = enter(state, dest, code) if len(state.queues[dest]) < state.cap[dest] else -1
        pos = new + 1 if new >= 0 else None
        events.append(
            ev("moved", player=s, origin=loc + 1, to=dest + 1, rank=RANKS[RANK[code]], position=pos)
        )
        return new

    @staticmethod
    def escorts(state: FlorenceState, s: int, road: int, events: list[Event]) -> None:
        """Moving along a road with Escorts: one's own gives 1 time, another's 2 VP to its
        owner ('they do not gain any time')."""
        t = state.tables
        name = t.road_names[road]
        for colour in state.escorts[road]:
            owner = state.colours[colour]
            if owner == s:
                gained = GAIN_TIME.gain(state, s, t.cost["escort_time"])
                vp = OWN_ESCORT_VP if state.solo is not None else 0
                state.vp[s] += vp  # solo: "For each of your own Escorts ... score 1 VP"
                events.append(ev("escort", player=s, owner=s, road=name, time=gained, vp=vp))
            else:
                vp = t.cost["escort_vp"]
                state.vp[owner] += vp
                events.append(ev("escort", player=s, owner=owner, road=name, vp=vp))

    @classmethod
    def path_refusal(
        cls, state: FlorenceState, seat: int, words: list[str], what: str, cost: int
    ) -> str | None:
        """Why `what LOC PIECE LOC` (a move, a rush, a step, a journey) is not possible."""
        t = state.tables
        if len(words) != 4:
            return (
                f"A {what} names a location, a family member and where it goes, "
                f"like '{what} 5 debutant2 6'."
            )
        a, b = location(state, words[1]), location(state, words[3])
        if a is None or b is None:
            return f"Locations are numbered 1-{t.locations}."
        if cost and state.time[seat] < cost:
            return cost_refusal(f"A {what.capitalize()}", cost, state.time[seat])
        if what != "step":
            why = piece_refusal(state, seat, a, words[2])
            if why:
                return why
        return cls.road_refusal(state, a, b) or cls.arrival_refusal(state, b, what)

    @staticmethod
    def road_refusal(state: FlorenceState, a: int, b: int) -> str | None:
        """Why a family member cannot go from `a` to `b` in one step."""
        t = state.tables
        pair = (a, b) if a < b else (b, a)
        if pair in t.nobles_only:
            return (
                f"Only Nobles use the diagonal path between {pair[0] + 1} and {pair[1] + 1} "
                f"through the park: family members move along roads with a shield."
            )
        if pair not in t.road_index:
            return (
                f"Location {b + 1} is not orthogonally adjacent to {a + 1}: a move follows one "
                f"road with a shield to the next location."
            )
        if all(d != b for d, _ in state.nbrs[a]):
            return (
                f"Strozzi has a guard on the road {pair[0] + 1}-{pair[1] + 1}: you cannot move "
                f"along paths where Strozzi has a Guard (harder solo game)."
            )
        return None

    @staticmethod
    def arrival_refusal(state: FlorenceState, b: int, what: str) -> str | None:
        if free(state, b):
            return None
        if what == "move":
            return (
                full_refusal(state, b)
                + " If a location has no empty spaces, you may not Move there."
            )
        return (
            full_refusal(state, b) + " A piece may pass through a full location but not stop there."
        )


# --- Rush ------------------------------------------------------------------------------
class Travel(NamedTuple):
    """A Rush, or a Figlisto journey, under way between its steps (stored as an array)."""

    kind: str
    """'rush' or 'journey'."""
    loc: int
    """The location of the family member moving now."""
    queue_index: int
    """Its queue index there; -1 while it crosses a full location."""
    piece: int
    """Its piece code."""
    steps: int
    """Steps it has taken."""
    pieces: int
    """Family members moved so far (1 or 2)."""
    left: int
    """Steps left in the whole action."""
    per: int
    """Steps one family member may take: 2 in a Rush, 3 on a journey."""


class Rush(Action):
    """'Rush (-3 time): Move 1 Family Member twice, or 2 Family Members once, following
    the above rules. When moving 1 Family Member twice, you may pass through a location
    that has no empty spaces, provided you don't stop there.'

    Entered as `rush` and then `step` (docs/florence-rulings.md, ruling 15); a Figlisto
    journey goes on by the same steps (ruling 22)."""

    heading = "Rush"
    verb = "rush"
    plays = in_phases(actions=("rush",), moving=("step",))

    def texts(self, state: FlorenceState) -> list[str]:
        s = state.turn
        if state.phase == "moving":
            return self.step_texts(state, s)
        if state.passed[s] or state.time[s] < state.tables.cost["rush"]:
            return []
        return self.first_steps(state, s, "rush", 1)

    @classmethod
    def first_steps(cls, state: FlorenceState, s: int, head: str, more: int) -> list[str]:
        """`head LOC PIECE DEST` for every piece of `s` and every way it may set off,
        with `more` steps after the first to reach a free location."""
        ln = state.tables.loc_names
        queues = state.queues
        cap = state.cap
        nbrs = state.nbrs
        out = []
        for loc, i, code in mine(state, s):
            start = f"{head} {ln[loc]} {piece_word(code, i)} "
            for d, _ in nbrs[loc]:
                if len(queues[d]) < cap[d] or cls.way_on(state, d, more, loc):
                    out.append(start + ln[d])
        return out

    def step_texts(self, state: FlorenceState, s: int) -> list[str]:
        """The next step of the travel under way: the same piece on, or a second piece."""
        tr = state.travel
        assert tr is not None
        out = []
        if tr.steps < tr.per and tr.left > 0:
            out += self._steps_on(state, tr)
        if tr.pieces < 2 and tr.queue_index >= 0 and tr.left > 0:
            out += self._second_piece(state, s, tr)
        return out

    def _steps_on(self, state: FlorenceState, tr: Travel) -> list[str]:
        ln = state.tables.loc_names
        queues = state.queues
        cap = state.cap
        loc = tr.loc
        word = (
            piece_word(tr.piece, tr.queue_index) if tr.queue_index >= 0 else RANKS[RANK[tr.piece]]
        )
        head = f"step {ln[loc]} {word} "
        more = min(tr.per - tr.steps - 1, tr.left - 1)
        origin = loc if tr.queue_index >= 0 else -1
        return [
            head + ln[d]
            for d, _ in state.nbrs[loc]
            if len(queues[d]) < cap[d] or self.way_on(state, d, more, origin)
        ]

    def _second_piece(self, state: FlorenceState, s: int, tr: Travel) -> list[str]:
        ln = state.tables.loc_names
        queues = state.queues
        cap = state.cap
        nbrs = state.nbrs
        more = min(tr.per - 1, tr.left - 1)
        out = []
        for oloc, i, ocode in mine(state, s):
            if oloc == tr.loc and i == tr.queue_index:
                continue
            head = f"step {ln[oloc]} {piece_word(ocode, i)} "
            for d, _ in nbrs[oloc]:
                if len(queues[d]) < cap[d] or self.way_on(state, d, more, oloc):
                    out.append(head + ln[d])
        return out

    @classmethod
    def way_on(cls, state: FlorenceState, loc: int, steps: int, origin: int) -> bool:
        """A piece may stop nowhere full: from full `loc`, can it reach a free location
        within `steps` more steps? (`origin` is where it left, one space freer now.)"""
        if steps <= 0:
            return False
        q = state.queues
        cap = state.cap
        for d, _ in state.nbrs[loc]:
            if len(q[d]) - (d == origin) < cap[d]:
                return True
            if steps > 1 and cls.way_on(state, d, steps - 1, origin):
                return True
        return False

    def apply(self, state: FlorenceState, verb: str, arg: str, events: list[Event]) -> None:
        s = state.turn
        if verb == "rush":
            self.pay(state, s)
            self.start(state, s, "rush", arg.split(), events)
            return
        where, word, dest = arg.split()
        loc, idx = int(where) - 1, piece_index(word)
        tr = state.travel
        assert tr is not None
        if not (loc == tr.loc and idx == tr.queue_index):  # a second family member sets off
            state.travel = tr._replace(
                loc=loc,
                queue_index=idx,
                piece=state.queues[loc][idx],
                steps=0,
                pieces=tr.pieces + 1,
            )
        self.step(state, s, loc, idx, int(dest) - 1, events)

    def start(
        self, state: FlorenceState, s: int, kind: str, words: list[str], events: list[Event]
    ) -> None:
        """A Rush or a journey sets off: `words` are LOC PIECE DEST of its first step."""
        per, left = (2, 2) if kind == "rush" else (3, 6)
        loc = int(words[0]) - 1
        idx = piece_index(words[1])
        state.travel = Travel(kind, loc, idx, state.queues[loc][idx], 0, 1, left, per)
        FLOW.fire(state, "travel")
        self.step(state, s, loc, idx, int(words[2]) - 1, events)

    def step(
        self, state: FlorenceState, s: int, loc: int, idx: int, dest: int, events: list[Event]
    ) -> None:
        """One step; a piece may cross a full location but not stop there."""
        tr = state.travel
        assert tr is not None
        code = state.queues[loc].pop(idx) if idx >= 0 else tr.piece
        new = Move.relocate(state, s, loc, code, dest, events, True)
        tr = state.travel = tr._replace(
            loc=dest, queue_index=new, piece=code, steps=tr.steps + 1, left=tr.left - 1
        )
        if new >= 0 and (tr.left <= 0 or (tr.steps >= tr.per and tr.pieces >= 2)):
            self.finish(state, s, events)

    @staticmethod
    def finish(state: FlorenceState, s: int, events: list[Event]) -> None:
        state.travel = None
        FLOW.fire(state, "arrived")
        PERFORM_ACTIONS.end_turn(state, s, events)

    def refuse(self, state: FlorenceState, verb: str, arg: str) -> str | None:
        if verb == "step":
            if state.phase != "moving":
                return "'step' continues a Rush or a journey already under way."
            return Move.path_refusal(state, state.turn, ["step", *arg.split()], "step", 0)
        return super().refuse(state, verb, arg)

    def refusal(self, state: FlorenceState, seat: int, words: list[str]) -> str | None:
        return Move.path_refusal(state, seat, words, "rush", self.cost(state))

    def prompt(self, state: FlorenceState) -> str:
        tr = state.travel
        assert tr is not None
        what = "rush" if tr.kind == "rush" else "journey"
        return f"{state.who(state.turn)} continues the {what}: the next step."


# --- Brag ------------------------------------------------------------------------------
class BragTiles:
    """Brag Tiles: 'The Influencers: 5 VP for each Donna / Maestro you have placed on the
    main board. Loudmouth: 3 VP for each Brag marker you've placed, including this one.
    Scandalous: 3 VP for each Scandal Card in your hand ... Life of the Party: 3 VP for
    each Prime Position you occupy. Street Cred: 3 VP for each Family Member you have in
    the same row as this Location ... Upwardly Mobile: ... in the same column ... Plus
    One: 4 VP for each Location where you have 2 or more Family Members. Big Spender: 3
    VP for each gift you've given (in total) to all Nobles. Eyes Everywhere: 2 VP for
    each Location in which you have at least 1 Family Member.'

    One counter per condition (the data's `counts` word): what the tile counts for a
    seat, given its family members per location and the cards leaving its hand."""

    @staticmethod
    def locations(state: FlorenceState, seat: int, loc: int, n: list[int], played: int) -> int:
        return sum(1 for c in n if c)

    @staticmethod
    def pairs(state: FlorenceState, seat: int, loc: int, n: list[int], played: int) -> int:
        return sum(1 for c in n if c >= 2)

    @staticmethod
    def row(state: FlorenceState, seat: int, loc: int, n: list[int], played: int) -> int:
        columns = state.tables.columns
        row = loc // columns
        return sum(n[row * columns : (row + 1) * columns])

    @staticmethod
    def column(state: FlorenceState, seat: int, loc: int, n: list[int], played: int) -> int:
        columns = state.tables.columns
        return sum(n[loc % columns :: columns])

    @staticmethod
    def senior(state: FlorenceState, seat: int, loc: int, n: list[int], played: int) -> int:
        owner = state.owner
        return sum(1 for q in state.queues for c in q if owner[c] == seat and RANK[c] > DEBUTANT)

    @staticmethod
    def markers(state: FlorenceState, seat: int, loc: int, n: list[int], played: int) -> int:
        return state.tables.brag_markers - state.markers_left[seat] + 1

    @staticmethod
    def hand(state: FlorenceState, seat: int, loc: int, n: list[int], played: int) -> int:
        return len(state.hands[seat]) - played

    @staticmethod
    def prime(state: FlorenceState, seat: int, loc: int, n: list[int], played: int) -> int:
        owner = state.owner
        return sum(1 for q in state.queues if q and owner[q[0]] == seat)

    @staticmethod
    def gifts(state: FlorenceState, seat: int, loc: int, n: list[int], played: int) -> int:
        return sum(state.given[seat])


COUNTERS = {
    name: getattr(BragTiles, name)
    for name in (
        "locations",
        "pairs",
        "row",
        "column",
        "senior",
        "markers",
        "hand",
        "prime",
        "gifts",
    )
}


class Brag(Action):
    """'Brag (-1 time): Perform a Brag. Each Brag rewards VPs based on how many times
    you've met its criteria. You may only Brag if all of the following are true: You have
    1 or more Family Members on the same location as the Brag tile; You must have at least
    1 Brag marker; You don't have a marker on it already. ... place a Brag marker in your
    colour on the spot next to the point range that includes the amount of VPs you
    scored. If the position matching your VPs is occupied, place your marker on the next
    lowest empty spot. If there are no such spots, you may not choose to take this
    action.'"""

    heading = "Brag"
    verb = "brag"
    plays = in_phases(actions=("brag",))

    def texts(self, state: FlorenceState) -> list[str]:
        s = state.turn
        if (
            state.passed[s]
            or state.time[s] < state.tables.cost["brag"]
            or not state.markers_left[s]
        ):
            return []
        return self.brag_texts(state, s, "brag", anywhere=False)

    @classmethod
    def brag_texts(cls, state: FlorenceState, s: int, prefix: str, anywhere: bool) -> list[str]:
        """`prefix LOC SPOT` for every tile `s` may brag on (`anywhere`: a Messere card,
        which needs no family member there and is played before the brag scores)."""
        t = state.tables
        n = counts(state, s)
        played = 1 if anywhere else 0
        out = []
        for loc in range(t.locations):
            if state.tiles[loc] < 0 or (not anywhere and not n[loc]) or s in state.slots[loc]:
                continue
            k = cls.spot(state, loc, cls.vp(state, s, loc, n, played))
            if k >= 0:
                out.append(f"{prefix} {t.loc_names[loc]} {t.tiles[state.tiles[loc]].labels[k]}")
        return out

    @staticmethod
    def vp(
        state: FlorenceState,
        seat: int,
        tile_loc: int,
        n: list[int] | None = None,
        played: int = 0,
    ) -> int:
        """What the brag on `tile_loc` scores for `seat` now; `played` cards are leaving
        the hand (a Messere brag card is played before its brag scores)."""
        tile = state.tables.tiles[state.tiles[tile_loc]]
        counter = COUNTERS.get(tile.counts)
        if counter is None:  # pragma: no cover - data names a condition the engine does not know
            raise ValueError(f"unknown brag condition {tile.counts!r}")
        if n is None:
            n = counts(state, seat)
        return tile.rate * counter(state, seat, tile_loc, n, played)

    @staticmethod
    def spot(state: FlorenceState, loc: int, vp: int) -> int:
        """The spot a brag scoring `vp` takes on `loc`: its range, else the next lower free
        one (-1: none)."""
        k = state.tables.tiles[state.tiles[loc]].spot_for(vp)
        spots = state.slots[loc]
        while k >= 0 and spots[k] >= 0:
            k -= 1
        return k

    def apply(self, state: FlorenceState, verb: str, arg: str, events: list[Event]) -> None:
        s = state.turn
        self.pay(state, s)
        self.brag(state, s, int(arg.split()[0]) - 1, events)
        PERFORM_ACTIONS.end_turn(state, s, events)

    @classmethod
    def brag(cls, state: FlorenceState, s: int, loc: int, events: list[Event]) -> None:
        vp = cls.vp(state, s, loc)
        k = cls.spot(state, loc, vp)
        state.slots[loc] = replaced(state.slots[loc], k, s)
        state.markers_left[s] -= 1
        state.vp[s] += vp
        tile = state.tables.tiles[state.tiles[loc]]
        events.append(
            ev("brag", player=s, location=loc + 1, tile=tile.name, vp=vp, spot=tile.labels[k])
        )

    def refusal(self, state: FlorenceState, seat: int, words: list[str]) -> str | None:
        return self.brag_refusal(state, seat, words, anywhere=False)

    @classmethod
    def brag_refusal(
        cls, state: FlorenceState, seat: int, words: list[str], anywhere: bool
    ) -> str | None:
        """Why `brag LOC SPOT` is not possible (`anywhere`: by a Messere card)."""
        t = state.tables
        if len(words) != 3:
            return "A brag names the location of the tile and the spot, like 'brag 5 7-12'."
        loc = location(state, words[1])
        if loc is None:
            return f"Locations are numbered 1-{t.locations}."
        return cls._condition_refusal(state, seat, loc, anywhere) or cls._spot_refusal(
            state, seat, loc, words[2], anywhere
        )

    @staticmethod
    def _condition_refusal(state: FlorenceState, seat: int, loc: int, anywhere: bool) -> str | None:
        cost = state.tables.cost["brag"]
        if not anywhere and state.time[seat] < cost:
            return cost_refusal("A Brag", cost, state.time[seat])
        if not anywhere and not has_member(state, seat, loc):
            return (
                f"You may only Brag with 1 or more Family Members on location {loc + 1}, "
                f"the Brag tile's location."
            )
        if not state.markers_left[seat]:
            return "You have no Brag marker left: you must have at least 1 Brag marker."
        if seat in state.slots[loc]:
            return f"You already have a marker on the brag at location {loc + 1}."
        return None

    @classmethod
    def _spot_refusal(
        cls, state: FlorenceState, seat: int, loc: int, word: str, anywhere: bool
    ) -> str | None:
        tile = state.tables.tiles[state.tiles[loc]]
        vp = cls.vp(state, seat, loc, played=1 if anywhere else 0)
        spot = cls.spot(state, loc, vp)
        if spot < 0:
            return (
                f"Your brag on location {loc + 1} scores {vp} VP and every spot up to its range "
                f"is taken: if there are no such spots, you may not choose to take this action."
            )
        label = tile.labels[spot]
        if word == label:
            return None
        if word in tile.labels and state.slots[loc][tile.labels.index(word)] >= 0:
            return (
                f"The {word} spot on location {loc + 1} is taken. Your brag scores {vp} VP, "
                f"so its marker goes on the {label} spot (the next lowest empty spot)."
            )
        return (
            f"Your brag on location {loc + 1} scores {vp} VP: its marker goes on the {label} spot."
        )


# --- Dispatch --------------------------------------------------------------------------
class Dispatch(Action):
    """'Dispatch (-4 time): Move a Debutant piece from your player board onto any Location
    with a vacant queue space on the main board. The Debutant always goes to the back of
    the line on the location, following the rules on p7. If all your Debutants are on the
    main board, you may not perform this action.'"""

    heading = "Dispatch"
    verb = "dispatch"
    plays = in_phases(actions=("dispatch",))

    def texts(self, state: FlorenceState) -> list[str]:
        s = state.turn
        t = state.tables
        if (
            state.passed[s]
            or state.time[s] < t.cost["dispatch"]
            or not state.supply[piece(state.colour(s), DEBUTANT)]
        ):
            return []
        queues = state.queues
        cap = state.cap
        return [
            f"dispatch {t.loc_names[loc]}"
            for loc in range(t.locations)
            if len(queues[loc]) < cap[loc]
        ]

    def apply(self, state: FlorenceState, verb: str, arg: str, events: list[Event]) -> None:
        s = state.turn
        self.pay(state, s)
        self.deploy(state, s, int(arg) - 1, events, "dispatched")
        PERFORM_ACTIONS.end_turn(state, s, events)

    @staticmethod
    def deploy(state: FlorenceState, s: int, loc: int, events: list[Event], kind: str) -> None:
        """A Debutant from the player board joins the queue at `loc`."""
        code = piece(state.colour(s), DEBUTANT)
        state.supply[code] -= 1
        pos = enter(state, loc, code)
        events.append(ev(kind, player=s, location=loc + 1, position=pos + 1))

    def refusal(self, state: FlorenceState, seat: int, words: list[str]) -> str | None:
        why = self.cost_refusal(state, seat, "Dispatch")
        if why:
            return why
        if not state.supply[piece(state.colour(seat), DEBUTANT)]:
            return "All your Debutants are on the main board: you may not Dispatch."
        loc = location(state, words[1]) if len(words) == 2 else None
        if loc is not None and not free(state, loc):
            return full_refusal(state, loc)
        return None


# --- Promote ---------------------------------------------------------------------------
class Promote(Action):
    """'Promote (-5 time): Replace a deployed Debutant with a Donna, or a deployed Donna
    with a Maestro. You may not directly replace a Debutant with the Maestro.' and 'When
    Family Members are Promoted, adjust their position immediately' (ruling 10: the new
    piece joins as an arrival)."""

    heading = "Promote"
    verb = "promote"
    plays = in_phases(actions=("promote",))

    def texts(self, state: FlorenceState) -> list[str]:
        s = state.turn
        if state.passed[s] or state.time[s] < state.tables.cost["promote"]:
            return []
        ln = state.tables.loc_names
        supply = state.supply
        return [
            f"promote {ln[loc]} {piece_word(code, i)}"
            for loc, i, code in mine(state, s)
            if RANK[code] < MAESTRO and supply[promoted(code)]
        ]

    def apply(self, state: FlorenceState, verb: str, arg: str, events: list[Event]) -> None:
        s = state.turn
        where, word = arg.split()
        self.pay(state, s)
        self.promote(state, s, int(where) - 1, piece_index(word), events)
        PERFORM_ACTIONS.end_turn(state, s, events)

    @staticmethod
    def promote(state: FlorenceState, s: int, loc: int, idx: int, events: list[Event]) -> int:
        """Replace the piece by the next rank, which takes its place by seniority at once.
        Returns the new piece's queue index."""
        code = state.queues[loc].pop(idx)
        state.supply[code] += 1
        state.supply[promoted(code)] -= 1
        pos = enter(state, loc, promoted(code))
        events.append(
            ev("promoted", player=s, location=loc + 1, rank=RANKS[RANK[code] + 1], position=pos + 1)
        )
        return pos

    def refusal(self, state: FlorenceState, seat: int, words: list[str]) -> str | None:
        return self.cost_refusal(state, seat, "Promote") or self.piece_refusal(
            state, seat, words[1:]
        )

    @staticmethod
    def piece_refusal(state: FlorenceState, seat: int, args: list[str]) -> str | None:
        if len(args) != 2 or location(state, args[0]) is None:
            return "Promote names a location and your piece there, like 'promote 6 debutant3'."
        loc = state.tables.loc_names.index(args[0])
        why = piece_refusal(state, seat, loc, args[1])
        if why:
            return why
        rank = RANK_OF[args[1].rstrip("0123456789")]
        if rank == MAESTRO:
            return "A Maestro is the highest rank: it cannot be promoted."
        idx = int(args[1][len(RANKS[rank]) :]) - 1
        if not state.supply[promoted(state.queues[loc][idx])]:
            return f"You have no {RANKS[rank + 1]} left on your player board."
        return None


# --- Give a Gift -----------------------------------------------------------------------
class GiveAGift(Action):
    """'Give a Gift (-2* time): Give a Gift to a Noble. You must have a Gift ... You must
    have a Family Member at the location of the Carriage of the Noble you are giving the
    Gift to. ... The first Gift you give to each Noble costs 2 time. Subsequent gifts cost
    +1 time per gift you've already given that Noble. ... Place 1 Guard piece of your
    colour onto 1 unoccupied Shield space of the Noble's colour.'

    Guards: 'Each player also has 6 Guards. These are not Family Members. Guards are
    deployed by Gift Actions and some Scandal Cards' (`place_guard`). A gift is given
    without a guard when none can be placed (ruling 17)."""

    heading = "Give a Gift"
    verb = "gift"
    plays = in_phases(actions=("gift",))

    def texts(self, state: FlorenceState) -> list[str]:
        s = state.turn
        if state.passed[s] or not state.gifts_left[s]:
            return []
        time = state.time[s]
        price = state.tables.cost["gift"]
        given = state.given[s]
        out = []
        for noble in range(3):
            if time >= price + given[noble] and has_member(state, s, state.carriage[noble]):
                out += self.gift_texts(state, s, noble, "gift")
        return out

    @classmethod
    def gift_texts(cls, state: FlorenceState, s: int, noble: int, prefix: str) -> list[str]:
        """`prefix NOBLE GUARD SHIELD` for each shield the guard may take, or `prefix NOBLE`."""
        head = f"{prefix} {state.tables.nobles[noble]}"
        shields = cls.guard_texts(state, s, noble, False) if state.guards_left[s] else []
        if not shields:
            return [head]
        return [f"{head} {g}" for g in shields]

    @staticmethod
    def guard_texts(state: FlorenceState, s: int, noble: int, stacked: bool) -> list[str]:
        """Shields for a new guard: unoccupied ones (a gift), or any without one's own (a
        Figlisto card)."""
        t = state.tables
        if noble == COSIMO:
            stacks, names = state.escorts, t.road_names
        else:
            stacks = state.spies if noble == CONTESSINA else state.bouncers
            names = t.loc_names
        kind = t.guard_kinds[noble]
        if stacked:
            colours = state.colours
            return [
                f"{kind} {names[i]}"
                for i, st in enumerate(stacks)
                if all(colours[c] != s for c in st)
            ]
        return [f"{kind} {names[i]}" for i, st in enumerate(stacks) if not st]

    def apply(self, state: FlorenceState, verb: str, arg: str, events: list[Event]) -> None:
        s = state.turn
        words = arg.split()
        self.give(state, s, state.tables.nobles.index(words[0]), words[1:], events)
        PERFORM_ACTIONS.end_turn(state, s, events)

    @classmethod
    def give(
        cls, state: FlorenceState, s: int, noble: int, guard: list[str], events: list[Event]
    ) -> None:
        t = state.tables
        given = state.given[s]
        state.time[s] -= t.cost["gift"] + given[noble]
        state.given[s] = replaced(given, noble, given[noble] + 1)
        state.gifts_left[s] -= 1
        events.append(ev("gift", player=s, noble=t.nobles[noble]))
        if guard:
            cls.place_guard(state, s, guard, events)

    @staticmethod
    def place_guard(state: FlorenceState, s: int, guard: list[str], events: list[Event]) -> None:
        """A guard of `s`'s colour onto the shield `guard` names (`escort 4-5`, `spy 6`)."""
        kind, where = guard
        t = state.tables
        state.guards_left[s] -= 1
        colour = state.colour(s)
        if kind == t.guard_kinds[COSIMO]:
            a, _, b = where.partition("-")
            road = t.road_index[(int(a) - 1, int(b) - 1)]
            state.escorts[road] = (*state.escorts[road], colour)
        else:
            loc = int(where) - 1
            stacks = state.spies if kind == t.guard_kinds[CONTESSINA] else state.bouncers
            stacks[loc] = (*stacks[loc], colour)
        events.append(ev("guard_placed", player=s, guard=kind, at=where))

    def refusal(self, state: FlorenceState, seat: int, words: list[str]) -> str | None:
        return self.gift_refusal(state, seat, words, anywhere=False)

    @staticmethod
    def gift_refusal(
        state: FlorenceState, seat: int, words: list[str], anywhere: bool
    ) -> str | None:
        """Why `gift NOBLE [GUARD SHIELD]` is not possible (`anywhere`: a Carissima card)."""
        t = state.tables
        if len(words) < 2 or words[1] not in t.nobles:
            return f"Gifts go to a Noble: {', '.join(t.nobles)}."
        noble = t.nobles.index(words[1])
        name = words[1].capitalize()
        if not state.gifts_left[seat]:
            return (
                "You have no Gift left: if you've already placed all your gifts, "
                "you can't give one."
            )
        given = state.given[seat][noble]
        cost = t.cost["gift"] + given
        if state.time[seat] < cost:
            return cost_refusal(f"Gift number {given + 1} to {name}", cost, state.time[seat])
        carriage = state.carriage[noble]
        if not anywhere and not has_member(state, seat, carriage):
            return (
                f"You must have a Family Member at the location of {name}'s carriage "
                f"(location {carriage + 1}) to give a gift to that Noble."
            )
        if len(words) != 4:
            return None
        kind = t.guard_kinds[noble]
        if words[2] != kind:
            return f"{name}'s shields take a guard as {kind}."
        return (
            "That shield is not free: the guard goes onto 1 unoccupied shield "
            "of the Noble's colour."
        )


# --- Trading Scandals for Time ---------------------------------------------------------
class TradingScandalsForTime(Rule["FlorenceState"]):
    """'At any time, without using an action, you may discard 1 Scandal to gain 1 time. You
    do not perform the action listed on the card.'

    A seat may discard at each of its decisions: its turns, a full hand's choice,
    Giovanni's offers and the last discards after round 9 (ruling 19). Discards are
    offered first."""

    heading = "Trading Scandals for Time"
    plays = in_phases(
        actions=("discard",),
        hand_limit=("discard",),
        queue_scoring=("discard",),
        final_discards=("discard",),
    )
    # the card goes onto its Noble's face-up discard pile ("form a discard pile for each
    # Noble"): every seat has seen it, at whichever decision it was discarded
    reveals = revealing(scandal_discarded="the card lies face up on its Noble's discard pile")

    def texts(self, state: FlorenceState) -> list[str]:
        return self.discard_texts(state, state.turn)

    @staticmethod
    def discard_texts(state: FlorenceState, seat: int) -> list[str]:
        return [f"discard {name}" for name in playable_cards(state, seat)]

    def apply(self, state: FlorenceState, verb: str, arg: str, events: list[Event]) -> None:
        s = state.turn
        reveal(state, s, arg)
        gained = GAIN_TIME.gain(state, s, state.tables.cost["discard_time"])
        events.append(ev("scandal_discarded", player=s, card=arg, time=gained))
        if state.phase == "final_discards" and not wants_discard(state, s):
            state.turn = next_seat_after(state, s)
        elif state.phase == "hand_limit":  # room for the new card: it is drawn next
            FLOW.fire(state, "limit_decided")

    def refuse(self, state: FlorenceState, verb: str, arg: str) -> str | None:
        words = arg.split()
        if len(words) == 1 and words[0] in state.tables.card_index:
            return f"You hold no '{words[0]}' scandal card that could be discarded."
        return "Discard names a scandal card in your hand, like 'discard journey'."


PASS = Pass()
MOVE = Move()
RUSH = Rush()
BRAG = Brag()
DISPATCH = Dispatch()
PROMOTE = Promote()
GIVE_A_GIFT = GiveAGift()
TRADING = TradingScandalsForTime()
