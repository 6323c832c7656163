"""Palla Strozzi, the automa of the rulebook's "Solo Mode": his state, where he looks on
the board, and the steps several of his rules share (his pass, his guards).

His state is one object, `SoloState` (`state.solo`; None in a multiplayer game),
stored at the top level of the game's record as it always was (`asks`, `solo_deck`,
... `solo_marks`). His work is a short agenda of named steps (`Step`, `Unit`, ...),
stored as arrays: a turn is planned as steps such as `draw` and `end`, and a drawn
card becomes its action's step, which may put further steps in front (a second
debutant, a piece shortage's recall before the placement). Steps are never changed in
place, so a shallow copy of the agenda is a safe clone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from dataclasses import fields as dataclass_fields
from typing import TYPE_CHECKING, Any, NamedTuple

from engine.core import Event

from .society import COLOUR, RANK, enter, ev, promoted, replaced
from .structure import GAIN_TIME
from .tables import CONTESSINA, COSIMO, RANKS, SPOTS

if TYPE_CHECKING:
    from .rules import FlorenceState

HUMAN = 0
ORANGE, BLUE = 1, 2  # Strozzi's colours; colour 0 is the human's
COLOUR_WORDS = ("your", "orange", "blue")
CARDS = 10
ALL_CARDS = (1 << CARDS) - 1  # deck masks: bit n - 1 is card n

# Numbers of the "Solo Mode" text (rules, not component data).
FIRST_ROUND_TIME = 6  # "In the 1st Gain Time phase, Strozzi gets 6 time."
MIN_TIME = 4  # "In future rounds he gets the same as you, but never less than 4."
HARDER_MAX_TIME = 9  # "Strozzi gains +1 time per round (but never more than 9)"
GIOVANNI_KEEP = 3  # "Strozzi Passes as soon as he has <=3 time remaining"; card 6 keeps 3
KEPT_ON_TOP = 3  # Cleanup: "Put aside the top 3 cards of Strozzi's deck"
PASS_VP = (1, 2, 3)  # "he scores 1 / 2 / 3 VP in rounds 1-3 / 4-6 / 7-9"
BRAG_TIMES = (2, 3, 4)  # "twice", "three times", "four times" in rounds 1-3 / 4-6 / 7-9
EASIER_BRAG_TIMES = (1, 2, 3)  # "Strozzi scores 1x / 2x / 3x for Brags instead of 2x / 3x / 4x"
GUARD_VP = 2  # Card 10: "If no such spots exist, or it's round 9, give Strozzi 2 VP instead."
PARTY_VP = 2  # harder: "Strozzi gains 2 VP per remaining Time when he resolves Card 6"
FIRST_PASS_TIME = 2  # harder: "If Strozzi passes 1st, after doing his Pass action he gets 2 time"
PARK_ESCORT = {0: (0, 1)}  # setup: "if Location 1, put it between Location 1 & 2"


# --- difficulty ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Tuning:
    """Difficulty Tuning: the solo rules in force, the confirmation step and each
    difficulty switch of the rulebook's easier and harder lists."""

    confirm: bool = True
    easier_brags: bool = False
    easier_time: bool = False
    easier_scandals: bool = False
    easier_setup: bool = False
    easier_giovanni: bool = False
    harder_pass: bool = False
    harder_party: bool = False
    harder_time: bool = False
    harder_first_pass: bool = False
    harder_scheme: bool = False
    harder_guards: bool = False

    @classmethod
    def of(cls, options: Mapping[str, Any]) -> Tuning:
        values = {f.name: bool(options.get(f.name, False)) for f in dataclass_fields(cls)}
        values["confirm"] = bool(options.get("confirm_automa", True))
        return cls(**values)


# --- his pending steps, named -------------------------------------------------------------
class Step(NamedTuple):
    """A step with nothing to say but what it is: `draw` (his next card is due), `end`
    (his turn is over), `pass`, `after_pass`."""

    verb: str


DRAW, END, PASS, AFTER_PASS = Step("draw"), Step("end"), Step("pass"), Step("after_pass")


class Turned(NamedTuple):
    """`card`: the solo card the table turned over, to pay and resolve."""

    verb: str
    card: int


class CardStep(NamedTuple):
    """A card's action (`deploy`, `party`, `friend`, `brag`, `guard`) after its time is
    paid; `lead` is the sentence said before the action's own."""

    verb: str
    card: int
    lead: str


class Coloured(NamedTuple):
    """A deploy or brag card whose colour was decided (by you, on card 5's tie; by card
    7's brag)."""

    verb: str
    card: int
    lead: str
    colour: int


class Unit(NamedTuple):
    """`unit`: one piece of a deploy card to place, at `loc` or, if full, further on
    along the card's order of places (`letter`: Noble A, B or C as 0-2)."""

    verb: str
    rank: int
    colour: int
    front: int
    """1: ahead of every piece of its rank (Cosimo's debutant)."""
    loc: int
    letter: int
    lead: str


class SetupGuard(NamedTuple):
    """`setup_guard`: his setup guard for a Noble."""

    verb: str
    noble: int


class SetupPlace(NamedTuple):
    """`setup_place`: his setup debutant of a colour, at a Noble's destination."""

    verb: str
    colour: int
    noble: int


AgendaItem = Step | Turned | CardStep | Coloured | Unit | SetupGuard | SetupPlace
_BY_VERB: dict[str, type[Any]] = {
    "card": Turned,
    "unit": Unit,
    "setup_guard": SetupGuard,
    "setup_place": SetupPlace,
}
_BY_LENGTH: dict[int, type[Any]] = {1: Step, 3: CardStep, 4: Coloured}


def load_item(raw: list[Any]) -> AgendaItem:
    """A stored step (an array) as its named tuple."""
    kind = _BY_VERB.get(raw[0]) or _BY_LENGTH[len(raw)]
    item: AgendaItem = kind._make(raw)
    return item


# --- his state ----------------------------------------------------------------------------
NO_MARKS = (-1,) * SPOTS


@dataclass(slots=True)
class SoloState:
    """Everything of Strozzi's that a multiplayer game does not have."""

    tune: Tuning
    asks: str = ""
    """'ok': the human confirms his step; 'colour': the human breaks card 5's tie."""
    deck: int = ALL_CARDS
    """His draw pile, as a mask: bit n - 1 is card n."""
    top: int = 0
    """Cards that may be among those kept on top at the last cleanup."""
    top_left: int = 0
    """How many of those kept cards are still to come."""
    revealed: int = 0
    """Cards turned over this round."""
    aside: int = 0
    """Card 6, set aside while the card drawn instead of it is turned over."""
    say: str = ""
    """His last step, in words."""
    agenda: list[AgendaItem] = field(default_factory=list)
    marks: list[tuple[int, ...]] = field(default_factory=list)
    """Per location and brag spot (bottom first): the colour of his token there, -1 none."""

    def copy(self) -> SoloState:
        return SoloState(
            self.tune,
            self.asks,
            self.deck,
            self.top,
            self.top_left,
            self.revealed,
            self.aside,
            self.say,
            self.agenda[:],  # steps are never changed in place
            self.marks[:],
        )

    def dump(self) -> dict[str, Any]:
        """The record's keys, as they were written before his state had a name."""
        return {
            "asks": self.asks,
            "solo_deck": self.deck,
            "solo_top": self.top,
            "solo_top_left": self.top_left,
            "solo_revealed": self.revealed,
            "solo_say": self.say,
            "solo_aside": self.aside,
            "agenda": [list(item) for item in self.agenda],
            "solo_marks": [c for spots in self.marks for c in spots],
        }

    @classmethod
    def load(cls, tune: Tuning, d: Mapping[str, Any]) -> SoloState:
        flat = list(d["solo_marks"])
        return cls(
            tune,
            d["asks"],
            d["solo_deck"],
            d["solo_top"],
            d["solo_top_left"],
            d["solo_revealed"],
            d.get("solo_aside", 0),  # added later: older records have none set aside
            d["solo_say"],
            [load_item(item) for item in d["agenda"]],
            [tuple(flat[i : i + SPOTS]) for i in range(0, len(flat), SPOTS)],
        )


def solo_of(state: FlorenceState) -> SoloState:
    """Strozzi's state (only called in a solo game)."""
    solo = state.solo
    assert solo is not None
    return solo


# --- where things are ---------------------------------------------------------------------
def nobles_abc(state: FlorenceState) -> list[tuple[int, int]]:
    """(Noble, destination) of Nobles A, B and C: the active Noble and the next two on the
    dial ('In Round 8, Giovanni is Noble B and C. In Round 9, he is all three.')."""
    t = state.tables
    rnd = max(state.round, 1)
    out = []
    for k in range(3):
        r = min(rnd + k, t.rounds)
        out.append((t.active_noble(r), state.dial_loc[r - 1]))
    return out


def destinations(state: FlorenceState) -> list[int]:
    """The destinations of Nobles A, B, C in that order, each once."""
    out: list[int] = []
    for _, loc in nobles_abc(state):
        if loc not in out:
            out.append(loc)
    return out


def on_board(state: FlorenceState, colour: int) -> int:
    """His family members of `colour` on the board."""
    return sum(1 for q in state.queues for c in q if COLOUR[c] == colour)


def third(state: FlorenceState) -> int:
    """0, 1, 2 for rounds 1-3, 4-6, 7-9."""
    return min(2, (max(state.round, 1) - 1) // 3)


def tokens_left(state: FlorenceState, colour: int) -> int:
    """His brag tokens of `colour` not on the board."""
    marks = solo_of(state).marks
    return state.tables.brag_markers - sum(1 for spots in marks for c in spots if c == colour)


def brag_colour(state: FlorenceState) -> int:
    """The token of a brag no card colours (card 7's): the colour with more tokens left."""
    return ORANGE if tokens_left(state, ORANGE) >= tokens_left(state, BLUE) else BLUE


# --- words --------------------------------------------------------------------------------
def ordinal(n: int) -> str:
    return f"{n}{'st' if n == 1 else 'nd' if n == 2 else 'rd' if n == 3 else 'th'}"


def piece_words(colour: int, rank: int) -> str:
    return f"{COLOUR_WORDS[colour]} {RANKS[rank].capitalize()}"


def a(words: str) -> str:
    return ("an " if words[0] in "aeiou" else "a ") + words


# --- his guards ---------------------------------------------------------------------------
def _guards_left(state: FlorenceState, colour: int) -> int:
    """Guards of `colour` still in his supply."""
    placed = (state.escorts, state.spies, state.bouncers)
    on = sum(1 for group in placed for stack in group for c in stack if c == colour)
    return state.tables.guards - on


def guard_colour(state: FlorenceState) -> int:
    """A guard's colour ('3 Guards (either colour)'): the colour with more guards left,
    orange on a tie."""
    return ORANGE if _guards_left(state, ORANGE) >= _guards_left(state, BLUE) else BLUE


def place_guard(state: FlorenceState, noble: int, spot: int, events: list[Event]) -> str:
    """One of his guards on a shield of `noble` (a road for Cosimo, else a location)."""
    t = state.tables
    colour = guard_colour(state)
    kind = t.guard_kinds[noble]
    if noble == COSIMO:
        state.escorts[spot] = (*state.escorts[spot], colour)
        where = t.road_names[spot]
        place = f"on the road {where}"
        bar_roads(state)
    else:
        stacks = state.spies if noble == CONTESSINA else state.bouncers
        stacks[spot] = (*stacks[spot], colour)
        where = t.loc_names[spot]
        place = f"at location {where}"
    state.guards_left[state.automa] -= 1
    events.append(
        ev("guard_placed", player=state.automa, guard=kind, at=where, colour=COLOUR_WORDS[colour])
    )
    who = t.nobles[noble].capitalize()
    return f"Strozzi places {a(COLOUR_WORDS[colour])} guard as {who}'s {kind} {place}."


def bar_roads(state: FlorenceState) -> None:
    """Harder: 'You cannot move along paths where Strozzi has a Guard.'"""
    t = state.tables
    if not solo_of(state).tune.harder_guards:
        state.nbrs = t.neighbours
        return
    mine = {r for r, stack in enumerate(state.escorts) if any(c != HUMAN for c in stack)}
    state.nbrs = tuple(tuple(nb for nb in near if nb[1] not in mine) for near in t.neighbours)


# --- his pieces ---------------------------------------------------------------------------
def place_piece(state: FlorenceState, loc: int, code: int, front: bool) -> int:
    """One of his pieces from his board into the queue at `loc`."""
    pos = enter(state, loc, code, ahead=front)
    state.supply[code] -= 1
    return pos


def promote(state: FlorenceState, loc: int, idx: int, events: list[Event]) -> str:
    """His piece at `loc`, `idx` is replaced by the next rank, as an arrival."""
    code = state.queues[loc].pop(idx)
    state.supply[code] += 1
    state.supply[promoted(code)] -= 1
    pos = enter(state, loc, promoted(code))
    colour, rank = COLOUR[code], RANK[code]
    events.append(
        ev(
            "promoted",
            player=state.automa,
            location=loc + 1,
            rank=RANKS[rank + 1],
            position=pos + 1,
            colour=COLOUR_WORDS[colour],
        )
    )
    return (
        f"Strozzi promotes his {piece_words(colour, rank)} on location {loc + 1} to a "
        f"{RANKS[rank + 1].capitalize()}, {ordinal(pos + 1)} in the queue."
    )


def brag_at(
    state: FlorenceState, loc: int, spot: int, colour: int, times: int, events: list[Event]
) -> str:
    """His token of `colour` on `spot` of the tile at `loc`: the tile's VP `times` over."""
    a_ = state.automa
    tile = state.tables.tiles[state.tiles[loc]]
    vp = tile.rate * times
    state.slots[loc] = replaced(state.slots[loc], spot, a_)
    marks = solo_of(state).marks
    marks[loc] = replaced(marks[loc], spot, colour)
    state.markers_left[a_] -= 1
    state.vp[a_] += vp
    label = tile.labels[spot]
    events.append(
        ev(
            "brag",
            player=a_,
            location=loc + 1,
            tile=tile.name,
            vp=vp,
            spot=label,
            colour=COLOUR_WORDS[colour],
        )
    )
    return (
        f"Strozzi brags on location {loc + 1} ({tile.name}): {tile.rate} x {times} = "
        f"{vp} VP, his {COLOUR_WORDS[colour]} token on the {label} space."
    )


# --- his pass -----------------------------------------------------------------------------
def swap_index(state: FlorenceState, loc: int) -> int:
    """Queue index of 'the furthest behind of his pieces' at `loc` standing right behind one
    of the human's pieces of its rank (a swap respecting Seniority); -1 if none."""
    q = state.queues[loc]
    owner = state.owner
    automa = state.automa
    for i in range(len(q) - 1, 0, -1):
        if owner[q[i]] == automa and owner[q[i - 1]] == HUMAN and RANK[q[i]] == RANK[q[i - 1]]:
            return i
    return -1


def ring_place(state: FlorenceState) -> int:
    """'placing his ring on the 1st Destination (from Noble A to C) where he has no Family
    Member in Prime Position and can swap pieces with you. If no such Location exists, look
    for any destination where he could swap pieces with you. If none exist, he keeps his ring.'"""
    taken = state.rings[HUMAN]
    options = [loc for loc in destinations(state) if loc != taken and swap_index(state, loc) >= 0]
    owner = state.owner
    for loc in options:
        if owner[state.queues[loc][0]] != state.automa:
            return loc
    return options[0] if options else -1


def strozzi_pass(state: FlorenceState, events: list[Event]) -> str:
    """'He Passes, placing his ring ...' (the last to pass places none: the round ends)."""
    automa = state.automa
    first = state.npassed == 0
    last = state.npassed == state.seats - 1
    state.npassed += 1
    state.passed[automa] = True
    ring = -1 if last else ring_place(state)
    state.rings[automa] = ring
    gained = 0
    if first and solo_of(state).tune.harder_first_pass:
        gained = GAIN_TIME.gain(state, automa, FIRST_PASS_TIME)
    events.append(ev("passed", player=automa, ring=ring + 1 if ring >= 0 else None, time=gained))
    bonus = f" He gains {gained} time for passing first." if gained else ""
    if last:
        return "Strozzi passes last: the round's actions end." + bonus
    if ring < 0:
        return "Strozzi passes and keeps his ring: no destination where he could swap." + bonus
    return f"Strozzi passes and puts his ring on location {ring + 1}." + bonus


def new_solo_state(state: FlorenceState, tune: Tuning) -> SoloState:
    return SoloState(tune, marks=[NO_MARKS] * state.tables.locations)
