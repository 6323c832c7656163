"""Solo Mode: Palla Strozzi, the automa, at the table.

A one-player game has two seats: the human (index 0) and Strozzi (index 1,
`state.automa`), who plays the Orange (colour 1) and Blue (colour 2) pieces.
Strozzi decides nothing: his turns are a card turned over from his solo deck (a
chance action `solo N`) and its consequences, plus the human's choice where the
rulebook says "In a tie, you choose" (`choose orange` / `choose blue`). Each of
his steps is carried out at once and described by events and a sentence
(`state.solo.say`); with the option `confirm_automa` the human then confirms it
(`ok`) after moving the physical pieces, so the table shows one step at a time.

The units follow the chapter's headings: his seat kind (`Strozzi`: Setup, Gain Time,
Noble Movement, Noble Scoring, Cleanup Phase), his turns (`StrozzisTurn`: Perform
Actions), his cards (solo_cards.py) and `Tuning` (Difficulty Tuning, strozzi.py).
`STEPS` maps each step of his agenda to its function. Rulings:
docs/florence-rulings.md, "Solo".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from engine.core import CHANCE, Event, Option, Rule, in_phases

from . import solo_cards
from .flow import SEAT_PHASES
from .nobles import best_brag
from .seats import SEAT_KINDS, SeatKind
from .society import COLOUR, RANK, enter, ev, has_member, piece
from .strozzi import (
    AFTER_PASS,
    ALL_CARDS,
    BLUE,
    CARDS,
    COLOUR_WORDS,
    DRAW,
    END,
    FIRST_ROUND_TIME,
    GIOVANNI_KEEP,
    HARDER_MAX_TIME,
    HUMAN,
    KEPT_ON_TOP,
    MIN_TIME,
    ORANGE,
    PARK_ESCORT,
    PASS,
    PASS_VP,
    CardStep,
    Coloured,
    SetupGuard,
    SetupPlace,
    SoloState,
    Step,
    Tuning,
    Turned,
    a,
    bar_roads,
    new_solo_state,
    nobles_abc,
    ordinal,
    piece_words,
    place_guard,
    solo_of,
    strozzi_pass,
    swap_index,
    third,
)
from .structure import GAIN_TIME, PERFORM_ACTIONS
from .tables import CONTESSINA, COSIMO, DEBUTANT, DONNA, GIOVANNI, MAESTRO

if TYPE_CHECKING:
    from .rules import FlorenceState

__all__ = ["ALL_CARDS", "BLUE", "CARDS", "COLOUR_WORDS", "EASIER", "HARDER", "ORANGE"]

# --- Difficulty Tuning ----------------------------------------------------------------------
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


# --- Setup ----------------------------------------------------------------------------------
def seat_strozzi(state: FlorenceState) -> SoloState:
    """Solo setup of the second seat: 'Give Strozzi a player board with all Orange and Blue
    Family Members, Guards, Gifts and Brag tokens. Give him 1 score marker and 1 Ring'."""
    t = state.tables
    automa = state.automa
    state.kinds[automa] = Strozzi.name
    state.colours = [HUMAN, automa, automa]
    state.owner = state.owners()
    state.supply = [0] * 12
    state.exiled = [0] * 12
    for c in range(3):
        for r in (DEBUTANT, DONNA, MAESTRO):
            state.supply[piece(c, r)] = t.family[r]
    state.time[automa] = 0  # his time comes with the 1st Gain Time phase: 6
    state.guards_left[automa] = 2 * t.guards
    state.markers_left[automa] = 2 * t.brag_markers
    state.gifts_left[automa] = 2 * t.gifts_at_start  # he never gives one
    return new_solo_state(state, Tuning.of(state.options))


def setup_guard(state: FlorenceState, item: SetupGuard, events: list[Event]) -> str:
    """'Strozzi starts with 3 Guards (either colour) on the board: 1 on the Cosimo shield
    immediately after his carriage's location (if Location 1, put it between Location 1 &
    2), 1 on the Contessina shield on the Brag tile at Contessina's destination, and 1 on
    the Giovanni shield on Giovanni's destination.'"""
    t = state.tables
    noble = item.noble
    if noble == COSIMO:
        at = state.carriage[COSIMO]
        road = t.road(at, t.route_next[at])
        if road is None:  # the park path is for Nobles only and has no shield
            road = t.road_index[PARK_ESCORT[at]]
        return place_guard(state, COSIMO, road, events)
    return place_guard(state, noble, dict(nobles_abc(state))[noble], events)


def setup_place(state: FlorenceState, item: SetupPlace, events: list[Event]) -> str:
    """'As the 2nd player, Strozzi deploys his Debutants before you: 1 Orange Debutant on
    Cosimo's destination and 1 Blue Debutant at Giovanni's destination.'"""
    loc = dict(nobles_abc(state))[item.noble]
    code = piece(item.colour, DEBUTANT)
    state.supply[code] -= 1
    enter(state, loc, code)
    events.append(
        ev("placed", player=state.automa, location=loc + 1, colour=COLOUR_WORDS[item.colour])
    )
    return (
        f"Strozzi places {a(piece_words(item.colour, DEBUTANT))} on location {loc + 1}, "
        f"{state.tables.nobles[item.noble].capitalize()}'s destination."
    )


# --- Perform Actions ------------------------------------------------------------------------
def draw_pool(state: FlorenceState) -> int:
    """The cards the next draw may be: the ones kept on top at cleanup while any is left,
    never the card 6 set aside until the card drawn instead of it is turned over."""
    solo = solo_of(state)
    return (solo.top if solo.top_left else solo.deck) & ~solo.aside


def pass_step(state: FlorenceState, item: Step, events: list[Event]) -> str:
    """'If he has 0 time and hasn't passed: He Passes, placing his ring on the 1st
    Destination (from Noble A to C) where he has no Family Member in Prime Position and can
    swap pieces with you.'"""
    return strozzi_pass(state, events)


def after_pass(state: FlorenceState, item: Step, events: list[Event]) -> str:
    """'If he has already passed: He swaps the furthest behind of his pieces at the location
    of his ring 1 space ahead (if it is behind a piece of your colour). If he couldn't place
    his ring, or he has made all possible swaps, he scores 1 / 2 / 3 VP in rounds 1-3 / 4-6 /
    7-9.'"""
    automa = state.automa
    ring = state.rings[automa]
    i = swap_index(state, ring) if ring >= 0 else -1
    if i >= 0:
        q = state.queues[ring]
        q[i - 1], q[i] = q[i], q[i - 1]
        events.append(ev("bonus", player=automa, bonus="swap", location=ring + 1, position=i))
        code = q[i - 1]
        what = piece_words(COLOUR[code], RANK[code])
        return (
            f"Strozzi swaps his {what} on location {ring + 1} one space ahead, "
            f"{ordinal(i)} in the queue."
        )
    vp = PASS_VP[third(state)]
    state.vp[automa] += vp
    events.append(ev("bonus", player=automa, bonus="vp", vp=vp))
    return f"Strozzi has no swap to make: he scores {vp} VP."


Steps = Callable[[Any, Any, list[Event]], str]
STEPS: Mapping[str, Steps] = MappingProxyType(
    {
        "card": solo_cards.card,
        "deploy": solo_cards.deploy,
        "unit": solo_cards.unit,
        "party": solo_cards.party,
        "friend": solo_cards.friend,
        "brag": solo_cards.brag,
        "guard": solo_cards.guard,
        "pass": pass_step,
        "after_pass": after_pass,
        "setup_guard": setup_guard,
        "setup_place": setup_place,
    }
)
"""Each step of his agenda: its function, which returns the step in words ('' for a step
that only planned further steps)."""


class StrozzisTurn(Rule["FlorenceState"]):
    """Solo Mode, Perform Actions: 'When it is Strozzi's turn: If he has 1 or more time:
    Draw a card from his deck ... If he has 0 time and hasn't passed: He Passes ... In
    Giovanni's rounds (3, 6, 9) Strozzi Passes as soon as he has <=3 time remaining, as
    long as he has a Family Member on Giovanni's Destination. If he has already passed: He
    swaps ...'

    The table's part of his turn: his card turned over (`solo N`), the human's
    confirmation of each step (`ok`, ruling 62) and card 5's tie (`choose COLOUR`)."""

    heading = "Solo Mode: Perform Actions"
    plays = in_phases(
        placement=("solo", "ok", "choose"),
        actions=("solo", "ok", "choose"),
        queue_scoring=("ok",),
    )

    def texts(self, state: FlorenceState) -> list[str]:
        if state.turn != state.automa:
            return []
        solo = solo_of(state)
        if solo.asks == "ok":
            return ["ok"]
        if solo.asks == "colour":
            return ["choose orange", "choose blue"]
        pool = draw_pool(state)
        return [f"solo {n}" for n in range(1, CARDS + 1) if pool >> (n - 1) & 1]

    def apply(self, state: FlorenceState, verb: str, arg: str, events: list[Event]) -> None:
        solo = solo_of(state)
        if verb == "ok":
            solo.asks = ""
        elif verb == "choose":
            solo.asks = ""
            item = solo.agenda[0]  # the deploy card whose tie you break
            assert isinstance(item, CardStep)
            solo.agenda[0] = Coloured(item.verb, item.card, item.lead, COLOUR_WORDS.index(arg))
            events.append(ev("strozzi_colour", colour=arg))
        else:  # "solo N": the card turned over
            solo.agenda[0] = Turned("card", int(arg))

    def refuse(self, state: FlorenceState, verb: str, arg: str) -> str | None:
        waiting = state.turn == state.automa and state.phase in SEAT_PHASES
        if not waiting:
            if verb in ("ok", "choose", "solo"):
                return f"'{verb}' belongs to Strozzi's turn in a solo game. {state.waiting_for()}"
            return None
        asks = solo_of(state).asks
        if asks == "ok":
            return f"Strozzi's step waits for your ok first. {self.prompt(state)}"
        if asks == "colour":
            return "Card 5 is a tie: 'In a tie, you choose.' Say 'choose orange' or 'choose blue'."
        words = arg.split()
        if verb == "solo" and len(words) == 1:
            return self._card_refusal(state, words[0])
        return f"It is Strozzi's turn. {self.prompt(state)}"

    @staticmethod
    def _card_refusal(state: FlorenceState, word: str) -> str | None:
        solo = solo_of(state)
        if not (word.isascii() and word.isdigit() and 1 <= int(word) <= CARDS):
            return f"Strozzi's cards are numbered 1-{CARDS}." if draw_pool(state) else None
        bit = 1 << (int(word) - 1)
        if solo.aside & bit:
            return (
                f"Card {word} was his first card this round: 'Draw a new card, and "
                f"shuffle this one back into the draw deck': the new card comes first."
            )
        if solo.top_left and solo.deck & bit:
            return (
                f"Card {word} is in Strozzi's deck but not among the "
                f"{solo.top_left} card(s) kept on top at the last cleanup."
            )
        return f"Card {word} is on Strozzi's discard pile, not in his deck."

    def prompt(self, state: FlorenceState) -> str:
        solo = solo_of(state)
        if solo.asks == "ok":
            return f"{solo.say} Move his pieces at the table, then confirm with ok."
        if solo.asks == "colour":
            return solo.say + " Say 'choose orange' or 'choose blue'."
        return "Strozzi's turn: turn over the next card of his solo deck."

    @staticmethod
    def plan(state: FlorenceState) -> list[Any]:
        """What his turn is, before anything is drawn."""
        automa = state.automa
        if state.phase == "placement":
            items: list[Any] = []
            if not solo_of(state).tune.easier_setup:
                items += [SetupGuard("setup_guard", n) for n in (COSIMO, CONTESSINA, GIOVANNI)]
            return [
                *items,
                SetupPlace("setup_place", ORANGE, COSIMO),
                SetupPlace("setup_place", BLUE, GIOVANNI),
                END,
            ]
        if state.passed[automa]:
            return [AFTER_PASS, END]
        if not state.time[automa]:
            return [PASS, END]
        noble, dest = nobles_abc(state)[0]
        if (
            noble == GIOVANNI
            and state.time[automa] <= GIOVANNI_KEEP
            and has_member(state, automa, dest)
        ):  # "In Giovanni's rounds (3, 6, 9) Strozzi Passes as soon as he has <=3 time remaining"
            return [PASS, END]
        return [DRAW, END]

    def run(self, state: FlorenceState, events: list[Event]) -> bool:
        """Carry out Strozzi's steps until input is due (True: a card, an ok, a choice) or his
        turn is over (False)."""
        solo = solo_of(state)
        while True:
            if solo.asks:
                return True
            if not solo.agenda:
                solo.agenda = self.plan(state)
            item = solo.agenda[0]
            if (
                item.verb == "draw"
            ):  # his deck never runs out: card 6 ends his turns when it resolves
                return True
            del solo.agenda[0]
            if item.verb == "end":
                self.end_turn(state, events)
                return False
            say = STEPS[item.verb](state, item, events)
            if say and not solo.asks:
                solo.say = say
                events.append(ev("strozzi_step", player=state.automa, say=say))
                if solo.tune.confirm:
                    solo.asks = "ok"

    @staticmethod
    def end_turn(state: FlorenceState, events: list[Event]) -> None:
        if state.phase == "placement":
            state.placed += 1
            state.turn = (state.automa - 1) % state.seats
        else:
            PERFORM_ACTIONS.end_turn(state, state.automa, events)


STROZZIS_TURN = StrozzisTurn()


class Strozzi(SeatKind):
    """Palla Strozzi's seat: his turns are card draws; the human confirms his steps and
    breaks ties. The hooks are the Solo Mode headings that change a phase for him."""

    name = "strozzi"

    def actor(self, state: FlorenceState, seat: int) -> int:
        return HUMAN if solo_of(state).asks else CHANCE

    def texts(self, state: FlorenceState, seat: int) -> list[str]:
        return STROZZIS_TURN.texts(state)

    def weights(self, state: FlorenceState, seat: int) -> list[float] | None:
        return [1.0] * len(self.texts(state, seat))

    def acts(self, state: FlorenceState, seat: int, events: list[Event]) -> bool:
        return STROZZIS_TURN.run(state, events)

    def time_gained(self, state: FlorenceState, seat: int, amount: int) -> int:
        """Solo Mode, Gain Time: 'In the 1st Gain Time phase, Strozzi gets 6 time. In future
        rounds he gets the same as you, but never less than 4.'"""
        tune = solo_of(state).tune
        gain = FIRST_ROUND_TIME if state.round == 1 else max(MIN_TIME, amount)
        if tune.easier_time:
            gain = max(MIN_TIME, gain - 1)
        if tune.harder_time:
            gain = min(HARDER_MAX_TIME, gain + 1)
        return gain

    def earns_scandals(
        self, state: FlorenceState, seat: int, noble: int, events: list[Event]
    ) -> None:
        """Solo Mode, Noble Movement: 'Strozzi gains Prime Position VPs as normal. When
        Strozzi gains a Scandal card, discard the top card from the corresponding Noble and
        give him 1 time.' The card's name is entered like any draw; the time is given here."""
        automa = state.automa
        loc = state.carriage[noble]
        best = best_brag(state, loc)
        brag = int(best == automa and has_member(state, automa, loc))
        spies = sum(1 for c in state.spies[loc] if state.colours[c] == automa)
        cards = brag + spies
        if not cards:
            return
        gain = spies + (0 if solo_of(state).tune.easier_scandals else brag)
        gained = GAIN_TIME.gain(state, automa, gain)
        events.append(
            ev(
                "strozzi_scandal",
                player=automa,
                noble=state.tables.nobles[noble],
                cards=cards,
                time=gained,
            )
        )

    def affords(self, state: FlorenceState, seat: int, cost: int) -> bool:
        """Solo Mode, Noble Scoring: 'If he hasn't got enough time, he spends all his time
        and scores. If he has 0 time, he cannot score.'"""
        return state.time[seat] > 0

    def offered(self, state: FlorenceState, seat: int, events: list[Event]) -> bool:
        """Solo Mode, Noble Scoring: 'For Giovanni, he must spend the time indicated to get
        his reward. If he hasn't got enough time, he spends all his time and scores.' True
        while the human confirms it."""
        automa = state.automa
        solo = solo_of(state)
        vp, cost = state.tables.giovanni[state.round][state.gio_award]
        pay = min(cost, state.time[automa])
        if pay < cost and solo.tune.easier_giovanni:
            vp //= (
                2  # "only scores 1/2 the VP if he hasn't got time to pay Giovanni" (rounded down)
            )
        state.time[automa] -= pay
        state.vp[automa] += vp
        state.gio_done.append(automa)
        award = state.gio_award + 1
        state.gio_award += 1
        events.append(ev("giovanni_claimed", player=automa, award=award, vp=vp, time=pay))
        say = f"Strozzi pays {pay} time to Giovanni for award {award}: {vp} VP."
        solo.say = say
        events.append(ev("strozzi_step", player=automa, say=say))
        if solo.tune.confirm:
            solo.asks = "ok"
            return True
        return False

    def cleanup(self, state: FlorenceState, seat: int) -> None:
        """Solo Mode, Cleanup Phase: 'Put aside the top 3 cards of Strozzi's deck, shuffle
        his discard pile together with the rest of the cards in his deck, and place the 3
        cards you put aside back on top.'"""
        solo = solo_of(state)
        left = solo.deck
        solo.top = left
        solo.top_left = min(KEPT_ON_TOP, left.bit_count())
        solo.deck = ALL_CARDS
        solo.revealed = 0

    def has_scheme(self, state: FlorenceState, seat: int) -> bool:
        """Setup: 'He does not get a Scheme card' (harder: 'give Strozzi a face-down Scheme')."""
        return solo_of(state).tune.harder_scheme


SEAT_KINDS[Strozzi.name] = Strozzi()


def dump(state: FlorenceState) -> dict[str, Any]:
    """His part of the game's record: top-level keys, as before it had a name."""
    return {} if state.solo is None else state.solo.dump()


def load(state: FlorenceState, d: Mapping[str, Any]) -> None:
    if state.solo is not None:
        state.solo = SoloState.load(state.solo.tune, d)
        bar_roads(state)
