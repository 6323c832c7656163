"""Florence solo: Palla Strozzi, the automa of the rulebook's "Solo Mode".

A one-player game has two seats: the human (index 0) and Strozzi (index 1,
`state.automa`), who plays the Orange (colour 1) and Blue (colour 2) pieces.
Strozzi decides nothing: his turns are a card turned over from his solo deck (a
chance action `solo N`) and its consequences, plus the human's choice where the
rulebook says "In a tie, you choose" (`choose orange` / `choose blue`). Each of
his steps is carried out at once and described by events and a sentence
(`state.solo_say`); with the option `confirm_automa` the human then confirms it
(`ok`) after moving the physical pieces, so the table shows one step at a time.

His work is a short agenda of plain lists (JSON-ready): a turn is planned as
items such as `["draw"]`, `["end"]`, and a drawn card becomes its action's item,
which may put further items in front (a second debutant, a piece shortage's
recall before the placement). Items are never changed in place, so a shallow
copy of the agenda is a safe clone. Rulings: docs/florence-rulings.md, "Solo".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from dataclasses import fields as dataclass_fields
from typing import TYPE_CHECKING, Any

from engine.core import CHANCE, Event, Option

from .seats import SEAT_KINDS, SeatKind
from .tables import (
    CONTESSINA,
    COSIMO,
    DEBUTANT,
    DONNA,
    GIOVANNI,
    MAESTRO,
    RANKS,
)

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
OWN_ESCORT_VP = (
    1  # "For each of your own Escorts you move through, score 1 VP (as well as 1 time.)"
)
PARK_ESCORT = {0: (0, 1)}  # setup: "if Location 1, put it between Location 1 & 2"

# --- difficulty ----------------------------------------------------------------------------
EASIER = {
    "easier_brags": "Strozzi scores 1x / 2x / 3x for Brags instead of 2x / 3x / 4x",
    "easier_time": "Strozzi gains -1 Time per round (but still never less than 4)",
    "easier_scandals": "Strozzi doesn't get Time for Brags during the Noble Movement",
    "easier_setup": "Strozzi doesn't place guards during setup",
    "easier_giovanni": "Strozzi only scores 1/2 the VP if he hasn't got time to pay Giovanni",
}
HARDER = {
    "harder_pass": "If you pass 1st, you don't get a benefit when it's your turn again",
    "harder_party": "Strozzi gains 2 VP per remaining Time when he resolves Card 6",
    "harder_time": "Strozzi gains +1 time per round (but never more than 9)",
    "harder_first_pass": "If Strozzi passes 1st, after doing his Pass action he gets 2 time",
    "harder_scheme": "In setup, give Strozzi a face-down Scheme to score at the end",
    "harder_guards": "You cannot move along paths where Strozzi has a Guard",
}
DIFFICULTIES = ("normal", "easier", "harder")

OPTIONS = (
    Option(
        "difficulty",
        "normal",
        "solo: 'easier' or 'harder' turns on every adjustment of that list of the rulebook's "
        "Difficulty Tuning; a switch given on its own overrides the preset",
        choices=DIFFICULTIES,
    ),
    Option(
        "confirm_automa",
        True,
        "solo: after each of Strozzi's steps the human confirms it ('ok') once the physical "
        "pieces are moved",
        choices=(True, False),
    ),
    *(
        Option(name, False, f"solo, easier: '{text}' (default: from difficulty)", (False, True))
        for name, text in EASIER.items()
    ),
    *(
        Option(name, False, f"solo, harder: '{text}' (default: from difficulty)", (False, True))
        for name, text in HARDER.items()
    ),
)

CONFORMANCE_OPTIONS = (
    {"scandal_entry": "draw"},
    {"scandal_entry": "play"},
    {"scandal_entry": "draw", "difficulty": "harder", "confirm_automa": False},
    {"scandal_entry": "play", "difficulty": "easier"},
)


def resolve_difficulty(resolved: dict[str, Any], given: Mapping[str, Any]) -> dict[str, Any]:
    """Switches not given take the preset's value: all of its list on, the other list off."""
    preset = resolved["difficulty"]
    for name in (*EASIER, *HARDER):
        if name not in given:
            resolved[name] = name.startswith(preset)
    return resolved


@dataclass(frozen=True)
class Tuning:
    """The solo rules in force: the confirmation step and each difficulty switch."""

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


# --- the seat ---------------------------------------------------------------------------------
def seat_strozzi(state: FlorenceState) -> None:
    """Solo setup of the second seat: 'Give Strozzi a player board with all Orange and Blue
    Family Members, Guards, Gifts and Brag tokens. Give him 1 score marker and 1 Ring'."""
    t = state.tables
    a = state.automa
    state.kinds[a] = Strozzi.name
    state.colours = [HUMAN, a, a]
    state.owner = state._owners()
    state.supply = [0] * 12
    state.exiled = [0] * 12
    for c in range(3):
        for r in (DEBUTANT, DONNA, MAESTRO):
            state.supply[c * 4 + r] = t.family[r]
    state.time[a] = 0  # his time comes with the 1st Gain Time phase: 6
    state.guards_left[a] = 2 * t.guards
    state.markers_left[a] = 2 * t.brag_markers
    state.gifts_left[a] = 2 * t.gifts_at_start  # he never gives one
    state.tune = Tuning.of(state.options)
    state.agenda = []
    state.asks = ""  # "ok": the human confirms a step; "colour": the human breaks a tie
    state.solo_deck = ALL_CARDS  # cards in his draw pile
    state.solo_top = 0  # cards that may be among those kept on top at the last cleanup
    state.solo_top_left = 0  # how many of those kept cards are still to come
    state.solo_revealed = 0  # cards turned over this round
    state.solo_aside = 0  # card 6, set aside while the card drawn instead of it is turned over
    state.solo_marks = [-1] * len(state.slots)  # colour of each of his brag tokens
    state.solo_say = ""  # his last step, in words


SOLO_PLAIN = ("asks", "solo_deck", "solo_top", "solo_top_left", "solo_revealed", "solo_say")
SOLO_SINCE = {"solo_aside": 0}  # fields added later: older records load with these values


def fields(state: FlorenceState) -> dict[str, Any]:
    d: dict[str, Any] = {k: getattr(state, k) for k in (*SOLO_PLAIN, *SOLO_SINCE)}
    d["agenda"] = [list(item) for item in state.agenda]
    d["solo_marks"] = list(state.solo_marks)
    return d


def load_fields(state: FlorenceState, d: Mapping[str, Any]) -> None:
    for k in SOLO_PLAIN:
        setattr(state, k, d[k])
    for k, default in SOLO_SINCE.items():
        setattr(state, k, d.get(k, default))
    state.agenda = [list(item) for item in d["agenda"]]
    state.solo_marks = list(d["solo_marks"])
    _bar_roads(state)


def copy_fields(source: FlorenceState, new: FlorenceState) -> None:
    new.agenda = list(source.agenda)  # items are never changed in place
    new.solo_marks = list(source.solo_marks)


class Strozzi(SeatKind):
    """Palla Strozzi: his turns are card draws; the human confirms his steps and breaks ties."""

    name = "strozzi"

    def actor(self, state: FlorenceState, seat: int) -> int:
        return HUMAN if state.asks else CHANCE

    def texts(self, state: FlorenceState, seat: int) -> list[str]:
        if state.asks == "ok":
            return ["ok"]
        if state.asks == "colour":
            return ["choose orange", "choose blue"]
        pool = draw_pool(state)
        return [f"solo {n}" for n in range(1, CARDS + 1) if pool >> (n - 1) & 1]

    def apply(self, state: FlorenceState, seat: int, text: str, events: list[Event]) -> None:
        verb, _, rest = text.partition(" ")
        if verb == "ok":
            state.asks = ""
        elif verb == "choose":
            state.asks = ""
            colour = COLOUR_WORDS.index(rest)
            state.agenda[0] = [*state.agenda[0][:3], colour]
            events.append(_ev("strozzi_colour", colour=rest))
        else:  # "solo N": the card turned over
            state.agenda[0] = ["card", int(rest)]

    def weights(self, state: FlorenceState, seat: int) -> list[float] | None:
        return [1.0] * len(self.texts(state, seat))

    def time_gained(self, state: FlorenceState, seat: int, amount: int) -> int:
        """'In the 1st Gain Time phase, Strozzi gets 6 time. In future rounds he gets the same
        as you, but never less than 4.'"""
        tune = state.tune
        gain = FIRST_ROUND_TIME if state.round == 1 else max(MIN_TIME, amount)
        if tune.easier_time:
            gain = max(MIN_TIME, gain - 1)
        if tune.harder_time:
            gain = min(HARDER_MAX_TIME, gain + 1)
        return gain

    def affords(self, state: FlorenceState, seat: int, cost: int) -> bool:
        """'If he hasn't got enough time, he spends all his time and scores. If he has 0
        time, he cannot score.'"""
        return state.time[seat] > 0

    def has_scheme(self, state: FlorenceState, seat: int) -> bool:
        """'He does not get a Scheme card' (harder: 'give Strozzi a face-down Scheme')."""
        return state.tune.harder_scheme


SEAT_KINDS[Strozzi.name] = Strozzi()


def _ev(kind: str, **data: Any) -> Event:
    return Event(kind, data)


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


def _deploy_places(state: FlorenceState, letter: int) -> list[tuple[int, int]]:
    """(Noble whose action applies, location) in the order a deploy card tries them: Noble
    `letter`'s destination, the next ones 'cycling from C to A', then 'trace the Noble
    movement arrows back along a path from Noble A's destination'."""
    t = state.tables
    abc = nobles_abc(state)
    out: list[tuple[int, int]] = []
    seen: set[int] = set()
    for k in range(3):
        noble, loc = abc[(letter + k) % 3]
        if loc not in seen:
            out.append((noble, loc))
            seen.add(loc)
    own = abc[letter][0]
    at = abc[0][1]
    for _ in range(t.locations - 1):
        at = t.route_prev[at]
        if at not in seen:
            out.append((own, at))
            seen.add(at)
    return out


def _on_board(state: FlorenceState, colour: int) -> int:
    return sum(1 for q in state.queues for c in q if c >> 2 == colour)


def _left(state: FlorenceState, colour: int, placed: Sequence[tuple[int, ...]]) -> int:
    """Guards of `colour` still in his supply."""
    on = sum(1 for group in placed for stack in group for c in stack if c == colour)
    return state.tables.guards - on


def _guard_colour(state: FlorenceState) -> int:
    """A guard's colour ('3 Guards (either colour)'): the colour with more guards left,
    orange on a tie."""
    placed = (state.escorts, state.spies, state.bouncers)
    return ORANGE if _left(state, ORANGE, placed) >= _left(state, BLUE, placed) else BLUE


def swap_index(state: FlorenceState, loc: int) -> int:
    """Queue index of 'the furthest behind of his pieces' at `loc` standing right behind one
    of the human's pieces of its rank (a swap respecting Seniority); -1 if none."""
    q = state.queues[loc]
    owner = state.owner
    a = state.automa
    for i in range(len(q) - 1, 0, -1):
        if owner[q[i]] == a and owner[q[i - 1]] == HUMAN and q[i] & 3 == q[i - 1] & 3:
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
        q = state.queues[loc]
        if owner[q[0]] != state.automa:
            return loc
    return options[0] if options else -1


def draw_pool(state: FlorenceState) -> int:
    """The cards the next draw may be: the ones kept on top at cleanup while any is left,
    never the card 6 set aside until the card drawn instead of it is turned over."""
    return (state.solo_top if state.solo_top_left else state.solo_deck) & ~state.solo_aside


def _below_kept(kept: int) -> str:
    """Where a card shuffled back goes while cards kept on top at Cleanup are still to come."""
    if kept <= 0:
        return ""
    return f", below the {kept} card{'s' if kept > 1 else ''} still kept on top"


def _third(state: FlorenceState) -> int:
    """0, 1, 2 for rounds 1-3, 4-6, 7-9."""
    return min(2, (max(state.round, 1) - 1) // 3)


def _ordinal(n: int) -> str:
    return f"{n}{'st' if n == 1 else 'nd' if n == 2 else 'rd' if n == 3 else 'th'}"


def _piece(colour: int, rank: int) -> str:
    return f"{COLOUR_WORDS[colour]} {RANKS[rank].capitalize()}"


def _a(words: str) -> str:
    return ("an " if words[0] in "aeiou" else "a ") + words


# --- running his turns ----------------------------------------------------------------------
def run(state: FlorenceState, events: list[Event]) -> bool:
    """Carry out Strozzi's steps until input is due (True: a card, an ok, a choice) or his
    turn is over (False)."""
    while True:
        if state.asks:
            return True
        if not state.agenda:
            state.agenda = _plan(state)
        item = state.agenda[0]
        verb = item[0]
        if verb == "draw":  # his deck never runs out: card 6 ends his turns when it resolves
            return True
        del state.agenda[0]
        if verb == "end":
            _end_turn(state, events)
            return False
        say = STEPS[verb](state, item, events)
        if say and not state.asks:
            state.solo_say = say
            events.append(_ev("strozzi_step", player=state.automa, say=say))
            if state.tune.confirm:
                state.asks = "ok"


def _plan(state: FlorenceState) -> list[list[Any]]:
    """What his turn is, before anything is drawn."""
    a = state.automa
    if state.phase == "placement":
        items: list[list[Any]] = []
        if not state.tune.easier_setup:
            items += [
                ["setup_guard", COSIMO],
                ["setup_guard", CONTESSINA],
                ["setup_guard", GIOVANNI],
            ]
        return [*items, ["setup_place", ORANGE, COSIMO], ["setup_place", BLUE, GIOVANNI], ["end"]]
    if state.passed[a]:
        return [["after_pass"], ["end"]]
    if not state.time[a]:
        return [["pass"], ["end"]]
    abc = nobles_abc(state)
    if (
        abc[0][0] == GIOVANNI and state.time[a] <= GIOVANNI_KEEP and state.has_member(a, abc[0][1])
    ):  # "In Giovanni's rounds (3, 6, 9) Strozzi Passes as soon as he has <=3 time remaining"
        return [["pass"], ["end"]]
    return [["draw"], ["end"]]


def _end_turn(state: FlorenceState, events: list[Event]) -> None:
    if state.phase == "placement":
        state.placed += 1
        state.turn = (state.automa - 1) % state.seats
    else:
        state._end_turn(state.automa, events)


def claim(state: FlorenceState, events: list[Event]) -> bool:
    """Giovanni's award offered to Strozzi: 'he must spend the time indicated to get his
    reward. If he hasn't got enough time, he spends all his time and scores.' True while the
    human confirms it."""
    a = state.automa
    vp, cost = state.tables.giovanni[state.round][state.gio_award]
    pay = min(cost, state.time[a])
    if pay < cost and state.tune.easier_giovanni:
        vp //= 2  # "only scores 1/2 the VP if he hasn't got time to pay Giovanni" (rounded down)
    state.time[a] -= pay
    state.vp[a] += vp
    state.gio_done.append(a)
    award = state.gio_award + 1
    state.gio_award += 1
    events.append(_ev("giovanni_claimed", player=a, award=award, vp=vp, time=pay))
    say = f"Strozzi pays {pay} time to Giovanni for award {award}: {vp} VP."
    state.solo_say = say
    events.append(_ev("strozzi_step", player=a, say=say))
    if state.tune.confirm:
        state.asks = "ok"
        return True
    return False


def cleanup(state: FlorenceState) -> None:
    """'Put aside the top 3 cards of Strozzi's deck, shuffle his discard pile together with
    the rest of the cards in his deck, and place the 3 cards you put aside back on top.'"""
    left = state.solo_deck
    state.solo_top = left
    state.solo_top_left = min(KEPT_ON_TOP, left.bit_count())
    state.solo_deck = ALL_CARDS
    state.solo_revealed = 0


def scandals_earned(state: FlorenceState, noble: int, events: list[Event]) -> None:
    """'When Strozzi gains a Scandal card, discard the top card from the corresponding Noble
    and give him 1 time.' The card's name is entered like any draw; the time is given here."""
    a = state.automa
    loc = state.carriage[noble]
    brag = 0
    for k in (2, 1, 0):
        best = state.slots[loc * 3 + k]
        if best >= 0:
            brag = int(best == a and state.has_member(a, loc))
            break
    spies = sum(1 for c in state.spies[loc] if state.colours[c] == a)
    cards = brag + spies
    if not cards:
        return
    gain = spies + (0 if state.tune.easier_scandals else brag)
    gained = state._gain_time(a, gain)
    events.append(
        _ev("strozzi_scandal", player=a, noble=state.tables.nobles[noble], cards=cards, time=gained)
    )


# --- the steps ------------------------------------------------------------------------------
def _card(state: FlorenceState, item: list[Any], events: list[Event]) -> str:
    """A card turned over: 'When drawn, reduce his time accordingly before resolving. If it
    costs more time than he has, he loses all his time, and resolves it anyway.'"""
    t = state.tables
    a = state.automa
    n = item[1]
    bit = 1 << (n - 1)
    state.solo_deck &= ~bit
    if state.solo_top_left:
        state.solo_top_left -= 1
        state.solo_top = state.solo_top & ~bit if state.solo_top_left else 0
    state.solo_revealed += 1
    action = t.solo_actions[n - 1]
    if action == "party" and state.solo_revealed == 1:
        # "If this is the 1st card Strozzi reveals in a round, don't resolve it. Draw a new
        # card, and shuffle this one back into the draw deck." The new card comes first (the
        # next kept card, if any is left), so it is never card 6; card 6 then goes back into
        # the deck below the cards still kept on top.
        state.solo_aside = bit
        state.agenda.insert(0, ["draw"])
        events.append(_ev("solo_card", player=a, card=n, action=action, time=0, returned=True))
        return (
            f"Card {n}, Time to Party, is his first card this round: draw a new card, then "
            f"shuffle card {n} back into his deck{_below_kept(state.solo_top_left - 1)}."
        )
    lead = f"Card {n}: "
    if state.solo_aside:
        back = state.solo_aside.bit_length()
        state.solo_deck |= state.solo_aside
        state.solo_aside = 0
        lead = f"Shuffle card {back} back into his deck{_below_kept(state.solo_top_left)}. {lead}"
    cost = t.solo_cost[n - 1]
    paid = min(cost, state.time[a])
    state.time[a] -= paid
    events.append(_ev("solo_card", player=a, card=n, action=action, time=paid, returned=False))
    lead += f"Strozzi pays {paid} time ({state.time[a]} left). "
    state.agenda.insert(0, [action, n, lead])
    return ""


def _deploy(state: FlorenceState, item: list[Any], events: list[Event]) -> str:
    """Cards 1-5: 'Perform the action from those below on the Location, according to whose
    destination it is. Cosimo: Deploy 1 Debutant (of the indicated colour), and advance it ...
    Contessina: Deploy 1 Donna of the indicated colour. Giovanni: Deploy 2 Debutants (1
    orange, 1 blue.)'"""
    t = state.tables
    n, lead = item[1], item[2]
    letter = t.solo_noble[n - 1]
    found = next(((nb, loc) for nb, loc in _deploy_places(state, letter) if state._free(loc)), None)
    if found is None:
        return lead + "No location has room: Strozzi deploys nothing."
    noble, loc = found
    if noble == GIOVANNI:
        state.agenda[0:0] = [
            ["unit", DEBUTANT, ORANGE, 0, loc, letter, lead],
            ["unit", DEBUTANT, BLUE, 0, loc, letter, ""],
        ]
        return ""
    colour = t.solo_colour[n - 1]
    if not colour:  # "place whichever colour Strozzi has fewer pieces of on the board"
        orange, blue = _on_board(state, ORANGE), _on_board(state, BLUE)
        if orange != blue:
            colour = ORANGE if orange < blue else BLUE
        elif len(item) > 3:
            colour = item[3]
        else:  # "In a tie, you choose."
            state.agenda.insert(0, item)
            state.asks = "colour"
            state.solo_say = (
                f"{lead}Card {n}: Strozzi has as many orange as blue pieces on the board: "
                f"you choose the colour."
            )
            return ""
    rank = DEBUTANT if noble == COSIMO else DONNA
    state.agenda.insert(0, ["unit", rank, colour, int(noble == COSIMO), loc, letter, lead])
    return ""


def _unit(state: FlorenceState, item: list[Any], events: list[Event]) -> str:
    """One piece deployed; a full location passes it on along the same order of places."""
    _, rank, colour, front, loc, letter, lead = item
    code = colour * 4 + rank
    what = _piece(colour, rank)
    if not state.supply[code]:
        recalled = _recall(state, colour, events)
        if not recalled:
            return lead + f"Strozzi has no {what} left and none to take back: nothing is deployed."
        state.agenda.insert(0, [*item[:6], ""])
        return lead + f"Strozzi has no {what} left: {recalled}"
    if not state._free(loc):
        places = [p for _, p in _deploy_places(state, letter)]
        later = [p for p in places[places.index(loc) + 1 :] if state._free(p)]
        if not later:
            return lead + f"No location has room for his {what}: nothing is deployed."
        loc = later[0]
    pos = _enter_front(state, loc, code) if front else state._enter(loc, code)
    state.supply[code] -= 1
    events.append(
        _ev(
            "deployed",
            player=state.automa,
            location=loc + 1,
            position=pos + 1,
            rank=RANKS[rank],
            colour=COLOUR_WORDS[colour],
        )
    )
    return (
        lead
        + f"Strozzi deploys {_a(what)} on location {loc + 1}, {_ordinal(pos + 1)} in the queue."
    )


def _enter_front(state: FlorenceState, loc: int, code: int) -> int:
    """Cosimo's debutant: 'advance it to the highest possible space in the queue, respecting
    Seniority' (ahead of every piece of its rank)."""
    q = state.queues[loc]
    r = code & 3
    i = 0
    while i < len(q) and q[i] & 3 > r:
        i += 1
    q.insert(i, code)
    return i


def _recall(state: FlorenceState, colour: int, events: list[Event]) -> str:
    """The piece shortage: 'Move all deployed Family Members of that colour that aren't on a
    Noble Destination back to his supply.' Returns what was done, in words ('' if nothing)."""
    keep = set(destinations(state))
    where = []
    for loc, q in enumerate(state.queues):
        if loc in keep:
            continue
        mine = [c for c in q if c >> 2 == colour]
        if mine:
            q[:] = [c for c in q if c >> 2 != colour]
            for c in mine:
                state.supply[c] += 1
            where.append(loc + 1)
    if not where:
        return ""
    events.append(
        _ev("strozzi_recalled", player=state.automa, colour=COLOUR_WORDS[colour], locations=where)
    )
    places = ", ".join(map(str, where))
    return (
        f"his {COLOUR_WORDS[colour]} family members on location(s) {places} go back to his board."
    )


def _friend(state: FlorenceState, item: list[Any], events: list[Event]) -> str:
    """Card 7: 'Promote a Debutant (either colour) to a Donna on Noble A's Destination, if
    possible. Otherwise, do the same on Noble B or C's Destination. If there's a Donna present
    ..., no Debutant present, and / or no more available Donna pieces, promote the Donna to a
    Maestro instead.'"""
    n, lead = item[1], item[2]
    a = state.automa
    owner = state.owner
    dests = destinations(state)
    supply = state.supply
    for loc in dests:
        for rank in (DEBUTANT, DONNA):
            for i, code in enumerate(state.queues[loc]):
                if owner[code] == a and code & 3 == rank and supply[code + 1]:
                    return lead + _promote(state, loc, i, events)
    wanted = next(
        (
            code
            for loc in dests
            for rank in (DEBUTANT, DONNA)
            for code in state.queues[loc]
            if owner[code] == a and code & 3 == rank
        ),
        -1,
    )
    if not any(state.has_member(a, loc) for loc in dests):
        # "If there are no Family Members on any of the Destinations, perform a Brag action"
        state.agenda.insert(0, ["brag", n, lead, _brag_colour(state)])
        return ""
    if wanted >= 0:  # "See the rule in the boxout above in case of a piece shortage."
        recalled = _recall(state, wanted >> 2, events)
        if recalled:
            state.agenda.insert(0, ["friend", n, ""])
            missing = _piece(wanted >> 2, (wanted & 3) + 1)
            return lead + f"Strozzi has no {missing} left: {recalled}"
    return lead + "A Friend of Mine: Strozzi has no piece he can promote; nothing happens."


def _promote(state: FlorenceState, loc: int, idx: int, events: list[Event]) -> str:
    code = state.queues[loc].pop(idx)
    state.supply[code] += 1
    state.supply[code + 1] -= 1
    pos = state._enter(loc, code + 1)
    colour = COLOUR_WORDS[code >> 2]
    events.append(
        _ev(
            "promoted",
            player=state.automa,
            location=loc + 1,
            rank=RANKS[(code & 3) + 1],
            position=pos + 1,
            colour=colour,
        )
    )
    return (
        f"Strozzi promotes his {_piece(code >> 2, code & 3)} on location {loc + 1} to a "
        f"{RANKS[(code & 3) + 1].capitalize()}, {_ordinal(pos + 1)} in the queue."
    )


def _tokens_left(state: FlorenceState, colour: int) -> int:
    return state.tables.brag_markers - sum(1 for c in state.solo_marks if c == colour)


def _brag_colour(state: FlorenceState) -> int:
    """The token of a brag no card colours (card 7's): the colour with more tokens left."""
    return ORANGE if _tokens_left(state, ORANGE) >= _tokens_left(state, BLUE) else BLUE


def _brag(state: FlorenceState, item: list[Any], events: list[Event]) -> str:
    """Cards 8 & 9: 'Strozzi performs a Brag on the 1st Location after Noble A's current
    position (following Noble arrows).' VP shown on the tile twice / three / four times, the
    token on the lowest / middle / highest space; 'He doesn't need to meet the condition, or
    have a piece there. If he can't Brag because the spot is occupied, move along the Noble
    Movement arrows until you find a Location with a Brag he can use.'"""
    t = state.tables
    a = state.automa
    n, lead = item[1], item[2]
    colour = item[3] if len(item) > 3 else t.solo_colour[n - 1]
    if not _tokens_left(state, colour):
        colour = ORANGE + BLUE - colour  # that colour's six tokens are out: the other one
        if not _tokens_left(state, colour):
            return lead + "Strozzi has no brag token left: no brag."
    third = _third(state)
    times = (EASIER_BRAG_TIMES if state.tune.easier_brags else BRAG_TIMES)[third]
    loc = t.route_next[state.carriage[state.active_noble()]]
    for _ in range(t.locations):
        base = loc * 3
        if (
            state.tiles[loc] >= 0
            and state.slots[base + third] < 0
            and a not in state.slots[base : base + 3]
        ):
            break
        loc = t.route_next[loc]
    else:
        return lead + "Every brag tile has his token or that space taken: no brag."
    tile = t.tiles[state.tiles[loc]]
    vp = tile.rate * times
    k = loc * 3 + third
    state.slots[k] = a
    state.solo_marks[k] = colour
    state.markers_left[a] -= 1
    state.vp[a] += vp
    label = tile.labels[third]
    events.append(
        _ev(
            "brag",
            player=a,
            location=loc + 1,
            tile=tile.name,
            vp=vp,
            spot=label,
            colour=COLOUR_WORDS[colour],
        )
    )
    return (
        lead + f"Strozzi brags on location {loc + 1} ({tile.name}): {tile.rate} x {times} = "
        f"{vp} VP, his {COLOUR_WORDS[colour]} token on the {label} space."
    )


def _guard(state: FlorenceState, item: list[Any], events: list[Event]) -> str:
    """Card 10: 'Strozzi deploys a Guard on a shield of Noble B, at Noble B's Destination (or
    just before it, if it's Cosimo). If the spot is taken, trace a path back along the Noble
    arrows until you find a Location where a Guard can be placed. If no such spots exist, or
    it's round 9, give Strozzi 2 VP instead.'"""
    t = state.tables
    a = state.automa
    lead = item[2]
    noble, dest = nobles_abc(state)[1]
    spot = (
        None if state.round >= t.rounds or not state.guards_left[a] else _shield(state, noble, dest)
    )
    if spot is None:
        state.vp[a] += GUARD_VP
        events.append(_ev("strozzi_vp", player=a, vp=GUARD_VP, reason="guard"))
        return lead + f"Strozzi places no guard and scores {GUARD_VP} VP instead."
    return lead + _place_guard(state, noble, spot, events)


def _shield(state: FlorenceState, noble: int, dest: int) -> int | None:
    """The first free shield of `noble` tracing back from `dest`: a road (Cosimo: the one a
    Noble arrives by) or a location; None if every one is taken."""
    t = state.tables
    at = dest
    for _ in range(t.locations):
        prev = t.route_prev[at]
        if noble == COSIMO:
            road = t.road_index.get((min(prev, at), max(prev, at)))
            if road is not None and not state.escorts[road]:  # the park path has no shield
                return road
        elif not (state.spies if noble == CONTESSINA else state.bouncers)[at]:
            return at
        at = prev
    return None


def _place_guard(state: FlorenceState, noble: int, spot: int, events: list[Event]) -> str:
    t = state.tables
    colour = _guard_colour(state)
    kind = t.guard_kinds[noble]
    if noble == COSIMO:
        state.escorts[spot] = (*state.escorts[spot], colour)
        where = t.road_names[spot]
        place = f"on the road {where}"
        _bar_roads(state)
    else:
        stacks = state.spies if noble == CONTESSINA else state.bouncers
        stacks[spot] = (*stacks[spot], colour)
        where = t.loc_names[spot]
        place = f"at location {where}"
    state.guards_left[state.automa] -= 1
    events.append(
        _ev("guard_placed", player=state.automa, guard=kind, at=where, colour=COLOUR_WORDS[colour])
    )
    who = t.nobles[noble].capitalize()
    return f"Strozzi places {_a(COLOUR_WORDS[colour])} guard as {who}'s {kind} {place}."


def _bar_roads(state: FlorenceState) -> None:
    """Harder: 'You cannot move along paths where Strozzi has a Guard.'"""
    t = state.tables
    if not state.tune.harder_guards:
        state.nbrs = t.neighbours
        return
    mine = {r for r, stack in enumerate(state.escorts) if any(c != HUMAN for c in stack)}
    state.nbrs = tuple(tuple(nb for nb in near if nb[1] not in mine) for near in t.neighbours)


def _party(state: FlorenceState, item: list[Any], events: list[Event]) -> str:
    """Card 6: 'Strozzi spends all his time, then Passes. ... If it is Giovanni's round, he
    will spend all time except 3, before passing.'"""
    a = state.automa
    lead = item[2]
    keep = GIOVANNI_KEEP if state.active_noble() == GIOVANNI else 0
    remaining = state.time[a]  # harder: "2 VP per remaining Time when he resolves Card 6"
    spent = max(0, remaining - keep)
    state.time[a] -= spent
    vp = PARTY_VP * remaining if state.tune.harder_party else 0
    state.vp[a] += vp
    events.append(_ev("strozzi_party", player=a, time=spent, vp=vp))
    text = f"Time to Party: Strozzi spends {spent} time"
    text += f" and scores {vp} VP. " if vp else ". "
    return lead + text + _pass(state, events)


def _pass_step(state: FlorenceState, item: list[Any], events: list[Event]) -> str:
    return _pass(state, events)


def _pass(state: FlorenceState, events: list[Event]) -> str:
    """'He Passes, placing his ring ...' (the last to pass places none: the round ends)."""
    a = state.automa
    first = state.npassed == 0
    last = state.npassed == state.seats - 1
    state.npassed += 1
    state.passed[a] = True
    ring = -1 if last else ring_place(state)
    state.rings[a] = ring
    gained = 0
    if first and state.tune.harder_first_pass:
        gained = state._gain_time(a, FIRST_PASS_TIME)
    events.append(_ev("passed", player=a, ring=ring + 1 if ring >= 0 else None, time=gained))
    bonus = f" He gains {gained} time for passing first." if gained else ""
    if last:
        return "Strozzi passes last: the round's actions end." + bonus
    if ring < 0:
        return "Strozzi passes and keeps his ring: no destination where he could swap." + bonus
    return f"Strozzi passes and puts his ring on location {ring + 1}." + bonus


def _after_pass(state: FlorenceState, item: list[Any], events: list[Event]) -> str:
    """'He swaps the furthest behind of his pieces at the location of his ring 1 space ahead
    (if it is behind a piece of your colour). If he couldn't place his ring, or he has made
    all possible swaps, he scores 1 / 2 / 3 VP in rounds 1-3 / 4-6 / 7-9.'"""
    a = state.automa
    ring = state.rings[a]
    i = swap_index(state, ring) if ring >= 0 else -1
    if i >= 0:
        q = state.queues[ring]
        q[i - 1], q[i] = q[i], q[i - 1]
        events.append(_ev("bonus", player=a, bonus="swap", location=ring + 1, position=i))
        what = _piece(q[i - 1] >> 2, q[i - 1] & 3)
        return (
            f"Strozzi swaps his {what} on location {ring + 1} one space ahead, "
            f"{_ordinal(i)} in the queue."
        )
    vp = PASS_VP[_third(state)]
    state.vp[a] += vp
    events.append(_ev("bonus", player=a, bonus="vp", vp=vp))
    return f"Strozzi has no swap to make: he scores {vp} VP."


def _setup_guard(state: FlorenceState, item: list[Any], events: list[Event]) -> str:
    """'1 on the Cosimo shield immediately after his carriage's location (if Location 1, put
    it between Location 1 & 2), 1 on the Contessina shield on the Brag tile at Contessina's
    destination, and 1 on the Giovanni shield on Giovanni's destination.'"""
    t = state.tables
    noble = item[1]
    if noble == COSIMO:
        at = state.carriage[COSIMO]
        nxt = t.route_next[at]
        pair = (min(at, nxt), max(at, nxt))
        road = t.road_index.get(pair)
        if road is None:  # the park path is for Nobles only and has no shield
            road = t.road_index[PARK_ESCORT[at]]
        return _place_guard(state, COSIMO, road, events)
    return _place_guard(state, noble, dict(nobles_abc(state))[noble], events)


def _setup_place(state: FlorenceState, item: list[Any], events: list[Event]) -> str:
    """'1 Orange Debutant on Cosimo's destination and 1 Blue Debutant at Giovanni's
    destination.'"""
    _, colour, noble = item
    loc = dict(nobles_abc(state))[noble]
    code = colour * 4 + DEBUTANT
    state.supply[code] -= 1
    state._enter(loc, code)
    events.append(_ev("placed", player=state.automa, location=loc + 1, colour=COLOUR_WORDS[colour]))
    return (
        f"Strozzi places {_a(_piece(colour, DEBUTANT))} on location {loc + 1}, "
        f"{state.tables.nobles[noble].capitalize()}'s destination."
    )


STEPS = {
    "card": _card,
    "deploy": _deploy,
    "unit": _unit,
    "party": _party,
    "friend": _friend,
    "brag": _brag,
    "guard": _guard,
    "pass": _pass_step,
    "after_pass": _after_pass,
    "setup_guard": _setup_guard,
    "setup_place": _setup_place,
}
