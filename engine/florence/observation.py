"""What the Florence table shows, and what each seat knows besides.

Scheme cards 'are kept a secret from other players' and scandal cards are held in hand
(docs/florence-rulings.md, rulings 5 and 6): the public `FlorenceObservation` has no
field that could hold a scheme or a card in hand, only how many cards each seat holds
(the cards are seen going into hands). A seat's own `FlorenceSeatObservation` adds its
hand and its scheme (known to the engine once revealed). Everything else of the board,
the dial, the player boards and Strozzi's steps is public.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from engine.core import Observation

from .end import SCORE_SCHEMES
from .flow import SEAT_PHASES
from .nobles import destination
from .society import COLOUR, RANK, piece
from .tables import DEBUTANT, DONNA, MAESTRO, RANKS

if TYPE_CHECKING:  # the rules import this module; the names are for annotations only
    from .actions import Travel
    from .end import FinalScore
    from .rules import FlorenceState
    from .tables import BragTile, Tables


class Piece(NamedTuple):
    """A family member in a queue: whose, of which colour, of which rank."""

    seat: int
    colour: int
    """Its piece colour: a seat's own, or (solo) Strozzi's orange 1 or blue 2."""
    rank: int
    """1 debutant, 2 donna, 3 maestro."""

    @property
    def kind(self) -> str:
        return RANKS[self.rank]


class Location(NamedTuple):
    """A location of the board: its queue, Prime Position first, and what lies by it."""

    name: str
    queue: tuple[Piece, ...]
    capacity: int
    """Queue spaces in use with this many seats (the others are covered by blockers)."""
    tile: BragTile | None
    brags: tuple[int, ...]
    """The seat whose brag marker is on each spot, bottom first; -1 for an empty spot."""
    spies: tuple[int, ...]
    """Colours of the guards on Contessina's shield here, in the order they came."""
    bouncers: tuple[int, ...]
    """Colours of the guards on Giovanni's shield here."""
    ring: int | None
    """The seat whose pass ring is here."""


class Road(NamedTuple):
    """A road with Cosimo's shield: its name ('4-5') and the colours of its Escorts."""

    name: str
    escorts: tuple[int, ...]


class Noble(NamedTuple):
    """A Noble: where its carriage and destination marker stand, and its scandal piles."""

    name: str
    carriage: int
    """Its location (-1 before setup)."""
    destination: int
    """Where its marker stands (-1: removed, or not yet on the board)."""
    deck_left: int
    """Cards in its face-down pile."""
    discards: tuple[int, ...]
    """Copies of each of its cards on its face-up discard pile, in deck order."""


class Board(NamedTuple):
    """A seat's player board and score marker, as everyone sees them."""

    seat: int
    time: int
    vp: int
    passed: bool
    gifts_left: int
    gifts_given: tuple[int, ...]
    """Gifts given to each Noble."""
    guards_left: int
    markers_left: int
    pieces_left: tuple[tuple[int, int, int], ...]
    """Per colour the seat plays: debutants, donnas and maestros on its board."""
    hand_size: int
    """Scandal cards in hand: how many, never which."""


class Strozzi(NamedTuple):
    """The solo automa's public side: what he waits for, his last step, his tokens."""

    seat: int
    asks: str
    """'' (his card is due, or nothing), 'ok' (your confirmation), 'colour' (a tie)."""
    say: str
    marks: tuple[tuple[int, ...], ...]
    """Per location and brag spot: the colour of his token there (-1: none)."""
    deck: tuple[int, ...]
    """The solo cards in his draw pile, by number."""


class GiovanniOffer(NamedTuple):
    """The award of Giovanni's queue scoring now offered."""

    award: int
    """1, 2 or 3."""
    vp: int
    time: int


@dataclass(frozen=True, slots=True)
class FlorenceObservation(Observation):
    """The Florence table as everyone at it sees it."""

    tables: Tables = field(repr=False)
    """The components: board, dial values, tiles, cards (public, immutable)."""
    first: int
    """The seat holding the 1st player marker (-1 before it is given)."""
    turn: int | None
    """The seat whose decision the table waits for (None while it draws or at the end)."""
    colours: tuple[int, ...]
    """The seat playing each piece colour (solo: Strozzi plays colours 1 and 2)."""
    automa: int | None
    """The solo automa's seat (None in a multiplayer game)."""
    locations: tuple[Location, ...]
    roads: tuple[Road, ...]
    nobles: tuple[Noble, ...]
    active_noble: int
    """The Noble moving this round (Noble A)."""
    boards: tuple[Board, ...]
    """One per seat, the automa's included."""
    dial_time: tuple[int, ...]
    """The time token face up for each round (0: not yet drawn)."""
    dial_locations: tuple[int, ...]
    """The location token face up for each round (-1: not yet drawn)."""
    pending: tuple[int, ...]
    """Seats owed a scandal card where the Noble stands, the next first."""
    scheme_seat: int | None
    """The next seat to reveal its scheme at the end."""
    travel: Travel | None
    """A Rush or a Figlisto journey between its steps."""
    giovanni: GiovanniOffer | None
    final: tuple[FinalScore, ...]
    """Time and scheme VP of each seat, once the game is over."""
    strozzi: Strozzi | None

    def seat_colour(self, seat: int) -> int:
        """The first colour a seat plays (the automa's is orange)."""
        return self.colours.index(seat)


@dataclass(frozen=True, slots=True)
class FlorenceSeatObservation(FlorenceObservation):
    """What one seat knows: the table, its scandal cards and its scheme."""

    hand: tuple[str, ...]
    """Its cards in hand (with `scandal_entry = "play"` a Noble's name stands for a card
    not yet named)."""
    scheme: str | None
    """Its scheme card, once the table has entered it."""


def _locations(state: FlorenceState) -> tuple[Location, ...]:
    t = state.tables
    owner = state.owner
    rings: dict[int, int] = {}
    for seat, at in enumerate(state.rings):
        if at >= 0:
            rings.setdefault(at, seat)
    out = []
    for loc, q in enumerate(state.queues):
        tile = state.tiles[loc]
        out.append(
            Location(
                t.loc_names[loc],
                tuple(Piece(owner[c], COLOUR[c], RANK[c]) for c in q),
                state.cap[loc],
                t.tiles[tile] if tile >= 0 else None,
                state.slots[loc],
                state.spies[loc],
                state.bouncers[loc],
                rings.get(loc),
            )
        )
    return tuple(out)


def _nobles(state: FlorenceState) -> tuple[Noble, ...]:
    t = state.tables
    return tuple(
        Noble(
            name,
            state.carriage[n],
            destination(state, n),
            state.deck_left[n],
            tuple(state.discard[i] for i in t.deck(n)),
        )
        for n, name in enumerate(t.nobles)
    )


def _boards(state: FlorenceState) -> tuple[Board, ...]:
    out = []
    for s in range(state.seats):
        colours = [c for c, seat in enumerate(state.colours) if seat == s]
        left = tuple(
            (
                state.supply[piece(c, DEBUTANT)],
                state.supply[piece(c, DONNA)],
                state.supply[piece(c, MAESTRO)],
            )
            for c in colours
        )
        out.append(
            Board(
                s,
                state.time[s],
                state.vp[s],
                state.passed[s],
                state.gifts_left[s],
                state.given[s],
                state.guards_left[s],
                state.markers_left[s],
                left,
                len(state.hands[s]),
            )
        )
    return tuple(out)


def _strozzi(state: FlorenceState) -> Strozzi | None:
    solo = state.solo
    if solo is None:
        return None
    deck = tuple(n for n in range(1, 11) if solo.deck >> (n - 1) & 1)
    return Strozzi(state.automa, solo.asks, solo.say, tuple(solo.marks), deck)


def _giovanni(state: FlorenceState) -> GiovanniOffer | None:
    if state.phase != "queue_scoring":
        return None
    vp, time = state.tables.giovanni[state.round][state.gio_award]
    return GiovanniOffer(state.gio_award + 1, vp, time)


def observe(state: FlorenceState, seat: int | None) -> FlorenceObservation:
    """Build the observation of `state` for `seat` (None: the public table)."""
    t = state.tables
    scheme_seat = SCORE_SCHEMES.next_seat(state) if state.phase == "schemes" else -1
    public = state._observed(seat)
    public.update(
        tables=t,
        first=state.first,
        turn=state.turn if state.phase in SEAT_PHASES else None,
        colours=tuple(state.colours),
        automa=state.automa if state.automa >= 0 else None,
        locations=_locations(state),
        roads=tuple(map(Road, t.road_names, state.escorts)),
        nobles=_nobles(state),
        active_noble=t.active_noble(max(state.round, 1)),
        boards=_boards(state),
        dial_time=tuple(state.dial_time),
        dial_locations=tuple(state.dial_loc),
        pending=tuple(state.pending),
        scheme_seat=scheme_seat if scheme_seat >= 0 else None,
        travel=state.travel,
        giovanni=_giovanni(state),
        final=tuple(state.final),
        strozzi=_strozzi(state),
    )
    if seat is None:
        return FlorenceObservation(**public)
    scheme = state.schemes[seat]
    return FlorenceSeatObservation(
        **public,
        hand=state.hands[seat],
        scheme=t.schemes[scheme] if scheme >= 0 else None,
    )
