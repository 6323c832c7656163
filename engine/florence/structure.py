"""Game Structure: nine rounds of five phases, and the steps between decisions.

'The game has 9 rounds, each of which is split into the same 5 phases': 1. Gain Time,
2. Perform Actions, 3. Noble Movement, 4. Queue Scoring, 5. Cleanup. The phases are the
machine of flow.py; `GameStructure.advance` runs every step that needs no input, phase
by phase, until a seat decides or the table draws.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, ClassVar

from engine.core import Event, Rule, in_phases

from .end import GAME_END, SCORE_SCHEMES
from .flow import FLOW
from .nobles import NOBLE_MOVEMENT, QUEUE_SCORING
from .seats import SEAT_KINDS
from .setup import (
    BEFORE_THE_FIRST_ROUND,
    SETUP,
    Draws,
    location_draws,
    place_forced,
    place_token,
    time_draws,
    token_prompt,
)
from .society import ev

if TYPE_CHECKING:
    from .rules import FlorenceState


class GainTime(Rule["FlorenceState"]):
    """'1. Gain Time: All players gain the amount of Time on this round's Time token, then
    discard it. ... Keeping time: ... You can have up to 12 time, and no less than 0. Any
    extra you gain is lost.'"""

    heading = "1. Gain Time"

    @staticmethod
    def gain(state: FlorenceState, seat: int, amount: int) -> int:
        """Add time up to the cap; returns what was really gained."""
        before = state.time[seat]
        state.time[seat] = min(state.tables.time_max, max(0, before + amount))
        return state.time[seat] - before

    @classmethod
    def start_round(cls, state: FlorenceState, events: list[Event]) -> None:
        """A new round: everyone gains its time, then the first player opens the Perform
        Actions phase."""
        if state.phase == "cleanup":
            FLOW.fire(state, "next_round")
        state.round += 1
        amount = state.dial_time[state.round - 1]
        for s in range(state.seats):
            cls.gain(state, s, state.kind(s).time_gained(state, s, amount))
        events.append(ev("round_started", round=state.round, time=amount))
        FLOW.fire(state, "time_gained")
        state.turn = state.first


class PerformActions(Rule["FlorenceState"]):
    """'2. Perform Actions: From the 1st player going clockwise, each player performs 1
    action (p. 8-9). Continue until all players have chosen to Pass.'"""

    heading = "2. Perform Actions"

    @staticmethod
    def end_turn(state: FlorenceState, seat: int, events: list[Event]) -> None:
        """The next seat clockwise acts, or, once all have passed, the Noble moves."""
        if state.npassed >= state.seats:
            NOBLE_MOVEMENT.start(state)
            return
        nxt = (seat + 1) % state.seats
        solo = state.solo
        if solo is not None and nxt != state.automa and state.passed[nxt] and solo.tune.harder_pass:
            nxt = state.automa  # harder solo: "If you pass 1st, you don't get a benefit ..."
        state.turn = nxt

    def prompt(self, state: FlorenceState) -> str:
        seat = state.turn
        if state.passed[seat]:
            return (
                f"{state.who(seat)} has passed and picks a bonus: time, VP or a swap at the ring."
            )
        return f"{state.who(seat)} takes an action ({state.time[seat]} time left)."


class Cleanup(Rule["FlorenceState"]):
    """'At the end of rounds 1-8 there is a Cleanup Phase before the next round begins.
    The 1st player marker is handed to the next player in clockwise order. ... In rounds
    3 & 6, the players gain the amount of Gifts in their colour indicated at the bottom
    of Giovanni's segment. ... In rounds 1-6, the Noble Dial is rotated 1 space ... place
    new Time and Location tokens face-up onto the newly revealed slots. ... All players
    retrieve their Pass Rings from the board, if used.'"""

    heading = "Cleanup Phase"
    plays = in_phases(cleanup=("token",))

    def texts(self, state: FlorenceState) -> list[str]:
        return [text for text, _ in self.draws(state)]

    def draws(self, state: FlorenceState) -> Draws:
        rnd = state.round + 2  # 0-based slot of round + 3
        if not state.dial_time[rnd]:
            return time_draws(state)
        return location_draws(state, rnd)

    def apply(self, state: FlorenceState, verb: str, arg: str, events: list[Event]) -> None:
        kind, _, value = arg.partition(" ")
        place_token(state, self.slot(state)[1], kind, int(value), events)

    def prompt(self, state: FlorenceState) -> str:
        return token_prompt(*self.slot(state))

    @staticmethod
    def slot(state: FlorenceState) -> tuple[str, int]:
        """The token to draw: ('time' or 'location', 0-based round of the slot)."""
        rnd = state.round + 2
        return ("time" if not state.dial_time[rnd] else "location"), rnd

    def advance(self, state: FlorenceState, events: list[Event]) -> bool:
        """Once both tokens are on the dial the next round starts; True while one is due."""
        if state.dial_loc[state.round + 2] >= 0:
            GAIN_TIME.start_round(state, events)
            return False
        return not place_forced(state, self, self.draws(state), events)

    @staticmethod
    def end_round(state: FlorenceState, events: list[Event]) -> None:
        """5. Cleanup: 'Pass the 1st player marker to the next player in clockwise order.
        Retrieve Pass Rings from the board. Rounds 3 & 6: Gain the amount of Gifts ...
        Rounds 1-6: ... Place a random Time and Location token into the newly revealed
        slots'. You can skip this at the end of round 9: the game ends."""
        t = state.tables
        events.append(ev("round_ended", round=state.round, vp=list(state.vp)))
        if state.round >= t.rounds:
            GAME_END.begin(state)
            return
        FLOW.fire(state, "scored")
        for s in range(state.seats):
            state.kind(s).cleanup(state, s)
        state.first = (state.first + 1) % state.seats
        state.rings = [-1] * state.seats
        state.passed = [False] * state.seats
        state.npassed = 0
        gain = t.gifts_gained.get(state.round, 0)
        if gain:
            for s in range(state.seats):
                state.gifts_left[s] += gain
        if state.round > t.rounds - 3:  # rounds 7-9: no new tokens, the marker goes
            GAIN_TIME.start_round(state, events)


GAIN_TIME = GainTime()
PERFORM_ACTIONS = PerformActions()
CLEANUP = Cleanup()


def _placement(state: FlorenceState, events: list[Event]) -> bool:
    if BEFORE_THE_FIRST_ROUND.done(state):
        FLOW.fire(state, "placed")
        GAIN_TIME.start_round(state, events)
        return False
    return _seat_acts(state, events)


def _seat_acts(state: FlorenceState, events: list[Event]) -> bool:
    """A seat whose turn it is may take steps by itself (the automa does)."""
    turn = state.turn
    return SEAT_KINDS[state.kinds[turn]].acts(state, turn, events)


def _queue_scoring(state: FlorenceState, events: list[Event]) -> bool:
    if QUEUE_SCORING.offer(state, events):
        return state.kind(state.turn).offered(state, state.turn, events)
    CLEANUP.end_round(state, events)
    return False


def _waits(state: FlorenceState, events: list[Event]) -> bool:
    return True


class GameStructure(Rule["FlorenceState"]):
    """'The game has 9 rounds, each of which is split into the same 5 phases ... 1. Gain
    Time ... 2. Perform Actions ... 3. Noble Movement ... 4. Queue Scoring ... 5.
    Cleanup'. The steps of each phase that need no input run here."""

    heading = "Game Structure"

    STEPS: ClassVar[Mapping[str, Callable[[FlorenceState, list[Event]], bool]]] = MappingProxyType(
        {
            "setup": SETUP.advance,
            "placement": _placement,
            "gain_time": _waits,
            "actions": _seat_acts,
            "moving": _waits,
            "noble_movement": NOBLE_MOVEMENT.advance,
            "hand_limit": _waits,
            "queue_scoring": _queue_scoring,
            "cleanup": CLEANUP.advance,
            "final_discards": GAME_END.advance,
            "schemes": SCORE_SCHEMES.advance,
            "over": _waits,
        }
    )
    """phase -> its automatic step: True when input is due (a decision, a draw, the end)."""

    def advance(self, state: FlorenceState, events: list[Event]) -> None:
        """Run every step that needs no input, until a decision or a draw is due."""
        steps = self.STEPS
        while not steps[state.phase](state, events):
            pass


GAME_STRUCTURE = GameStructure()
