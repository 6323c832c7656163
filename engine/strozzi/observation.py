"""What the Strozzi table shows, and what each seat knows besides.

"Players may keep the amount of their money secret" (Scoring the Ships): the public
`StrozziObservation` has no field that could hold money, so no view can show it. What
was paid out at each scoring happened in the open and is listed (`payouts`); the
running totals are not. A seat's own `StrozziSeatObservation` adds its money. Once the
game is over, "players reveal their money": the common `scores` field carries it then.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from engine.core import Observation

if TYPE_CHECKING:  # the rules import this module; the names are for annotations only
    from .rules import Payout, PortEntry, Rules, Ship, StrozziState, Token


class Track(NamedTuple):
    """One city's track: the space of each seat's marker, and the markers in order."""

    city: str
    positions: tuple[int, ...]
    """positions[seat]: the space of that seat's marker (0 is the start space)."""
    order: tuple[int, ...]
    """Seats from the highest marker down; on a shared space the leftmost comes first."""

    def on(self, space: int) -> tuple[int, ...]:
        """The seats whose markers stand on `space`, left to right."""
        return tuple(s for s in self.order if self.positions[s] == space)


class Port(NamedTuple):
    """The ships placed at a port this round, fastest (the top of the group) first."""

    name: str
    ships: tuple[PortEntry, ...]


class FlagOnShip(NamedTuple):
    """A flag lying on the ship in play: a +1 or goods flag waiting for pirates, or the
    flag the taker chose, which goes to the port with the ship."""

    seat: int
    flag: str


@dataclass(frozen=True, slots=True)
class StrozziObservation(Observation):
    """The Strozzi table as everyone at it sees it."""

    rules: Rules = field(repr=False)
    """The components: cities, ports, ship cards, tokens (public, immutable)."""
    active: int
    """The player whose turn it is (who turned the ship over)."""
    ship: Ship | None
    """The ship card face up in play, if any."""
    flag_on_ship: FlagOnShip | None
    taker: int | None
    """Who took the ship in play and is placing it."""
    flags: tuple[tuple[str, ...], ...]
    """The flags still in each seat's play area this round."""
    tracks: tuple[Track, ...]
    """One per city, in the order of `rules.cities`."""
    ports: tuple[Port, ...]
    face_up: tuple[Token, ...]
    """The progress tokens face up on the board."""
    tokens: tuple[tuple[Token, ...], ...]
    """The progress tokens each seat has taken."""
    pile: int
    """Progress tokens left face down in the pile."""
    ships_seen: tuple[str, ...]
    """Ship cards turned over this round (taken or discarded), by face (`Ship.face`), one
    entry per card: two cards showing one face appear twice."""
    deck_left: int
    """Ship cards left in this round's deck."""
    payouts: tuple[Payout, ...]
    """Every payment made so far, in the order of the scorings."""


@dataclass(frozen=True, slots=True)
class StrozziSeatObservation(StrozziObservation):
    """What one seat knows: the table, and its own money."""

    money: int


def observe(state: StrozziState, seat: int | None) -> StrozziObservation:
    """Build the observation of `state` for `seat` (None: the public table)."""
    r = state.rules
    n = state.players
    seats = range(n)
    tracks = []
    for city, pos, stamp in zip(r.cities, state.pos, state.stamp, strict=True):
        order = sorted(seats, key=lambda s: (-pos[s], stamp[s]))
        tracks.append(Track(city, tuple(pos), tuple(order)))
    if state.phase == "pirates":
        on_ship: FlagOnShip | None = FlagOnShip(state.flagger, state.flag)
    elif state.taker >= 0:
        on_ship = FlagOnShip(state.taker, state.taker_flag)
    else:
        on_ship = None
    token = r.tokens.__getitem__
    public = state._observed(seat)
    public.update(
        rules=r,
        active=state.active,
        ship=r.ship(state.ship) if state.ship else None,
        flag_on_ship=on_ship,
        taker=state.taker if state.taker >= 0 else None,
        flags=tuple(map(tuple, state.flags)),
        tracks=tuple(tracks),
        ports=tuple(map(Port, r.ports, map(tuple, state.ports))),
        face_up=tuple(map(token, state.face_up)),
        tokens=tuple(tuple(map(token, held)) for held in state.tokens),
        pile=sum(state.pile.values()),
        ships_seen=tuple(f for f, n in sorted(state.seen.items()) for _ in range(n)),
        deck_left=r.deck_size(n) - state.drawn,
        payouts=state.payouts,
    )
    if seat is None:
        return StrozziObservation(**public)
    return StrozziSeatObservation(**public, money=state.money[seat])
