"""The Nobles, and Noble Movement & Scoring: the active Noble's route, the rewards at each
location it enters, and the Queue Scoring at its destination."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core import Event, Rule, in_phases

from .flow import ARRIVED, FLOW
from .hand import SCANDAL_CARDS
from .society import RANK, RulesOfSociety, cost_refusal, ev, has_member
from .tables import CONTESSINA, DEBUTANT, GIOVANNI

if TYPE_CHECKING:
    from .rules import FlorenceState


def destination(state: FlorenceState, noble: int) -> int:
    """The Nobles: 'Each Noble has a Carriage, Destination Marker, and deck of Scandal
    cards. The Carriage marks their current position, while the Destination Marker
    indicates where they'll move next.' Where the Noble's destination marker stands (-1:
    removed, or not yet revealed).

    Once the active Noble has arrived, its marker counts as moved on to its next
    destination (the Cleanup step), so a view shows where it goes next."""
    t = state.tables
    start = state.round + 1 if state.phase in ARRIVED else max(state.round, 1)
    for rnd in range(start, t.rounds + 1):
        if t.active_noble(rnd) == noble:
            return state.dial_loc[rnd - 1]
    return -1


def best_brag(state: FlorenceState, loc: int) -> int:
    """The seat whose brag marker is highest on the tile at `loc` (-1: no marker)."""
    for seat in reversed(state.slots[loc]):
        if seat >= 0:
            return seat
    return -1


class NobleMovement(Rule["FlorenceState"]):
    """'After all players have passed during the Perform Actions phase, the active Noble
    (and only the active Noble) moves to their destination. ... Prime Position Scoring:
    When a Noble enters a location the player with a piece in Prime Position there
    immediately receives the VPs listed on the Noble Dial. ... Brag Scoring: Whoever has
    performed the best Brag on the location the Noble has just entered ... draws 1 card
    from the Active Noble's Scandal deck, as long as they have a Family Member present
    there.' and Contessina's Spies: 'When any Noble passes through or ends movement on a
    Location where you have a Spy, you gain a Scandal card of their colour'."""

    heading = "Noble Movement"

    @staticmethod
    def start(state: FlorenceState) -> None:
        """3. Noble Movement: 'After all players pass, the active Noble (and only the active
        Noble) moves to the location indicated on their Location token.'"""
        FLOW.fire(state, "all_passed")
        noble = state.active_noble()
        state.path = list(state.tables.path(state.carriage[noble], state.dial_loc[state.round - 1]))
        state.pending = []

    def advance(self, state: FlorenceState, events: list[Event]) -> bool:
        """Move the active Noble step by step; True while a scandal draw is awaited."""
        noble = state.active_noble()
        while True:
            if SCANDAL_CARDS.give(state, noble, events):
                return True
            if not state.path:
                break
            self.enter(state, noble, state.path.pop(0), events)
        FLOW.fire(state, "noble_arrived")
        QUEUE_SCORING.score(state, events)
        return False

    @staticmethod
    def enter(state: FlorenceState, noble: int, loc: int, events: list[Event]) -> None:
        """The Noble enters `loc`: Prime Position VP, then the best brag's and the Spies'
        scandal cards are owed ('This happens whether the Noble is just passing, or
        arriving at their final destination')."""
        t = state.tables
        state.carriage[noble] = loc
        events.append(ev("noble_moved", noble=t.nobles[noble], to=loc + 1))
        q = state.queues[loc]
        if q:
            seat = state.owner[q[0]]
            vp = t.prime[state.round - 1]
            state.vp[seat] += vp
            events.append(ev("prime_position", player=seat, location=loc + 1, vp=vp))
        best = best_brag(state, loc)
        if best >= 0 and has_member(state, best, loc):
            state.pending.append(best)
        if state.spies[loc]:
            state.pending.extend(state.colours[c] for c in state.spies[loc])
        if state.pending:
            for seat in dict.fromkeys(state.pending):
                state.kind(seat).earns_scandals(state, seat, noble, events)


class QueueScoring(Rule["FlorenceState"]):
    """'After the Noble Movement phase, the Active Noble (who just moved) awards victory
    points to players with Family Members on their destination ... Cosimo awards varying
    VP to the owner of each Family Member in the queue, based on their position. ...
    Contessina ... will not award VPs to Debutants. ... When Giovanni scores, the player
    who controls that location may spend the indicated time to get the 1st score. ... If
    a player cannot (or chooses not to) pay the required time, the next ranked player has
    the opportunity to claim that reward ... Each player may only gain one award from
    Giovanni'."""

    heading = "Queue Scoring"
    plays = in_phases(queue_scoring=("claim", "decline"))

    def texts(self, state: FlorenceState) -> list[str]:
        s = state.turn
        out = []
        if state.time[s] >= state.tables.giovanni[state.round][state.gio_award][1]:
            out.append("claim")
        out.append("decline")
        return out

    def apply(self, state: FlorenceState, verb: str, arg: str, events: list[Event]) -> None:
        s = state.turn
        vp, cost = state.tables.giovanni[state.round][state.gio_award]
        state.gio_done.append(s)
        if verb == "claim":
            state.time[s] = max(0, state.time[s] - cost)
            state.vp[s] += vp
            events.append(
                ev("giovanni_claimed", player=s, award=state.gio_award + 1, vp=vp, time=cost)
            )
            state.gio_award += 1
        else:
            events.append(
                ev("giovanni_declined", player=s, award=state.gio_award + 1, reason="choice")
            )

    def refuse(self, state: FlorenceState, verb: str, arg: str) -> str | None:
        if state.phase != "queue_scoring":
            return "Only Giovanni's queue scoring is claimed or declined."
        if verb == "decline":
            return None
        vp, cost = state.tables.giovanni[state.round][state.gio_award]
        award = f"Giovanni's award {state.gio_award + 1} ({vp} VP)"
        return cost_refusal(award, cost, state.time[state.turn])

    def prompt(self, state: FlorenceState) -> str:
        vp, cost = state.tables.giovanni[state.round][state.gio_award]
        return (
            f"{state.who(state.turn)} may pay {cost} time to Giovanni for award "
            f"{state.gio_award + 1} ({vp} VP), or decline."
        )

    @staticmethod
    def score(state: FlorenceState, events: list[Event]) -> None:
        """4. Queue Scoring: 'Complete the Queue scoring detailed on the active segment of
        the Noble dial.' Cosimo and Contessina pay at once; Giovanni's awards are offered."""
        t = state.tables
        noble = state.active_noble()
        loc = state.carriage[noble]
        if noble != GIOVANNI:
            values = t.queue_vp[state.round]
            for i, code in enumerate(state.queues[loc][: len(values)]):
                if noble == CONTESSINA and RANK[code] == DEBUTANT:
                    continue
                seat = state.owner[code]
                state.vp[seat] += values[i]
                events.append(
                    ev("queue_scored", player=seat, location=loc + 1, position=i + 1, vp=values[i])
                )
            state.gio_order = []
        else:
            state.gio_order = RulesOfSociety.ranking(state, loc)
        state.gio_award = 0
        state.gio_done = []

    @staticmethod
    def offer(state: FlorenceState, events: list[Event]) -> bool:
        """Offer the current award to the best ranked player still in; True when one decides."""
        if not state.gio_order:
            return False
        awards = state.tables.giovanni[state.round]
        if state.gio_award < len(awards):
            cost = awards[state.gio_award][1]
            for s in state.gio_order:
                if s in state.gio_done:
                    continue
                if state.kind(s).affords(state, s, cost):
                    state.turn = s
                    return True
                state.gio_done.append(s)  # cannot pay: the next ranked player may claim it
                events.append(
                    ev("giovanni_declined", player=s, award=state.gio_award + 1, reason="time")
                )
        state.gio_order = []
        return False


NOBLE_MOVEMENT = NobleMovement()
QUEUE_SCORING = QueueScoring()
