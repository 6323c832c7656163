"""Game End: the last discards, Score Remaining Time, Score Scheme Cards, Declare the
Winner."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from engine.core import Event, Rule, in_phases

from .flow import FLOW
from .setup import place_forced
from .society import ev, family_on_board

if TYPE_CHECKING:
    from .rules import FlorenceState


class FinalScore(NamedTuple):
    """What a seat scored after the game: its time and its scheme (stored as an array)."""

    time_vp: int
    scheme_vp: int


def wants_discard(state: FlorenceState, s: int) -> bool:
    """Whether a discard could still gain `s` time (it holds a card and has room)."""
    return bool(state.hands[s]) and state.time[s] < state.tables.time_max


def next_seat_after(state: FlorenceState, s: int) -> int:
    """In the last discards: the next seat clockwise that may still discard (or -1)."""
    n = state.seats
    for k in range(1, n + 1):
        seat = (s + k) % n
        if seat == state.first:
            return -1
        if wants_discard(state, seat):
            return seat
    return -1


class GameEnd(Rule["FlorenceState"]):
    """'After round 9, the game ends. Players gain additional VPs before a winner is
    declared.'

    Before the final scoring each seat, from the first player on, may still trade
    scandals for time ('At any time, without using an action, you may discard 1
    Scandal to gain 1 time'): docs/florence-rulings.md, ruling 19. `done` ends a seat's
    discards."""

    heading = "Game End"
    plays = in_phases(final_discards=("done",))

    def texts(self, state: FlorenceState) -> list[str]:
        return ["done"]

    def apply(self, state: FlorenceState, verb: str, arg: str, events: list[Event]) -> None:
        state.turn = next_seat_after(state, state.turn)

    def prompt(self, state: FlorenceState) -> str:
        return f"{state.who(state.turn)} may trade scandal cards for time before the final scoring."

    @staticmethod
    def begin(state: FlorenceState) -> None:
        """How the Game Ends: 'After 9 rounds, the game ends. Players gain points from
        their Scheme cards, and unspent time.' The last discards come first."""
        FLOW.fire(state, "last_round_scored")
        state.turn = state.first
        if not wants_discard(state, state.first):
            state.turn = next_seat_after(state, state.first)

    @staticmethod
    def advance(state: FlorenceState, events: list[Event]) -> bool:
        """True while a seat may still discard."""
        if state.turn >= 0:
            return True
        FLOW.fire(state, "discards_done")
        return False

    @staticmethod
    def final_scoring(state: FlorenceState, events: list[Event]) -> None:
        """Time and schemes scored for every seat, then the winner declared."""
        state.final = []
        for s in range(state.seats):
            time_vp = SCORE_TIME.vp(state, s)
            scheme = SCORE_SCHEMES.vp(state, s)
            state.vp[s] += time_vp + scheme
            state.final.append(FinalScore(time_vp, scheme))
            events.append(ev("final_score", player=s, time_vp=time_vp, scheme_vp=scheme))
        events.append(ev("game_over", winner=DECLARE_THE_WINNER.winner(state), vp=list(state.vp)))


class ScoreRemainingTime(Rule["FlorenceState"]):
    """'Each player scores 1 VP for every 2 Time they have remaining on the dial on their
    player board, rounded down.'"""

    heading = "Score Remaining Time"

    @staticmethod
    def vp(state: FlorenceState, seat: int) -> int:
        return state.time[seat] // state.tables.time_per_vp


class ScoreSchemeCards(Rule["FlorenceState"]):
    """'Each player scores VPs from their Scheme card, according to how many Family
    Members they have on the indicated locations at game end. ... If the player has 4 or
    more Family Members across those locations, they score the corresponding VPs. ... If
    you have fewer than 4 Family Members on the indicated locations, you score nothing.'

    Schemes 'are kept a secret from other players': the app learns a card only when it
    is revealed here (`scheme NAME`, seat by seat; ruling 5)."""

    heading = "Score Scheme Cards"
    plays = in_phases(schemes=("scheme",))

    def texts(self, state: FlorenceState) -> list[str]:
        return [text for text, _ in self.draws(state)]

    def draws(self, state: FlorenceState) -> list[tuple[str, float]]:
        taken = set(state.schemes)
        t = state.tables
        return [(f"scheme {name}", 1.0) for i, name in enumerate(t.schemes) if i not in taken]

    def apply(self, state: FlorenceState, verb: str, arg: str, events: list[Event]) -> None:
        seat = self.next_seat(state)
        state.schemes[seat] = state.tables.schemes.index(arg)
        events.append(ev("scheme_revealed", player=seat, scheme=arg))

    def prompt(self, state: FlorenceState) -> str:
        return f"Reveal {state.name(self.next_seat(state))}'s scheme card."

    def advance(self, state: FlorenceState, events: list[Event]) -> bool:
        """True when a card is to be revealed or the game is over."""
        if self.next_seat(state) < 0:
            GAME_END.final_scoring(state, events)
            FLOW.fire(state, "schemes_revealed")
            return True
        return not place_forced(state, self, self.draws(state), events)

    @staticmethod
    def next_seat(state: FlorenceState) -> int:
        """The next seat whose scheme card is to be revealed (-1: none left)."""
        for seat, scheme in enumerate(state.schemes):
            if scheme < 0 and state.kind(seat).has_scheme(state, seat):
                return seat
        return -1

    @staticmethod
    def count(state: FlorenceState, seat: int) -> int:
        """Family members of `seat` on its scheme's locations (0 before the reveal)."""
        if state.schemes[seat] < 0:
            return 0
        locs = state.tables.scheme_locs[state.schemes[seat]]
        owner = state.owner
        return sum(1 for loc in locs for c in state.queues[loc] if owner[c] == seat)

    @classmethod
    def vp(cls, state: FlorenceState, seat: int) -> int:
        t = state.tables
        count = cls.count(state, seat)
        if count < t.scheme_min:
            return 0
        return t.scheme_vp[min(count - t.scheme_min, len(t.scheme_vp) - 1)]


class DeclareTheWinner(Rule["FlorenceState"]):
    """'the winner is the player with the most Victory Points. In the case of a tie, the
    player with the most Family Members on the main board wins. If a tie persists, the
    player who has given the most Gifts wins. If a tie still persists, players rejoice in
    their shared victory!' Solo, End of the Game: 'If you have more VP than Strozzi, you
    win!'"""

    heading = "Declare the Winner"

    @staticmethod
    def winner(state: FlorenceState) -> list[int]:
        """Winning seats at the table: none when the solo automa won."""
        if state.automa >= 0:
            return [0] if state.vp[0] > state.vp[state.automa] else []

        def key(s: int) -> tuple[int, int, int]:
            return (state.vp[s], family_on_board(state, s), sum(state.given[s]))

        best = max(key(s) for s in range(state.players))
        return [s for s in range(state.players) if key(s) == best]

    def prompt(self, state: FlorenceState) -> str:
        if state.automa >= 0:
            you, him = state.vp[0], state.vp[state.automa]
            result = "you win" if self.winner(state) else "Strozzi wins"
            return f"The game is over: you have {you} VP, Strozzi {him}; {result}."
        return "The game is over."


GAME_END = GameEnd()
SCORE_TIME = ScoreRemainingTime()
SCORE_SCHEMES = ScoreSchemeCards()
DECLARE_THE_WINNER = DeclareTheWinner()
