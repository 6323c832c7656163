"""What the Strada Romana table shows, and what each seat knows besides.

'The "wagon tiles" are always kept face down (the other players may know how many each
player owns, but not which ones).' The public `StradaRomanaObservation` counts each
seat's wagon tiles and has no field that could name one, so no view can show it; a
seat's own `StradaRomanaSeatObservation` adds the tiles it chose. 'When the game ends,
all players reveal the "wagon tiles" they own': from the reveal on, every observer gets
a `StradaRomanaEndObservation`, which names them. Everything else lies open on the
table: wagons, goods, coins, victory points, the bag (what is not on the board).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from engine.core import Observation

from .board import (
    ARRIVED,
    HEADINGS,
    UNPLACED,
    Board,
    SpecialMove,
    arrivals_by_heading,
    occupancy,
)
from .flow import MOVE_PHASES
from .goods import GOODS
from .movement import MOVING
from .rules import StradaRomanaState
from .wagon_tiles import UNKNOWN

END_PHASES = frozenset(("reveal", "over"))
"""'When the game ends, all players reveal the "wagon tiles" they own.'"""


class Wagon(NamedTuple):
    """A wagon: where it stands, where it is heading, and its place among the arrivals."""

    name: str
    square: str | None
    """Its road or start square; None once it has arrived, or before setup placed it."""
    heading: str
    """'rome' or 'portus'."""
    arrived: int
    """Its place on the arrival squares 'numbered from 1 to 4'; 0 while on the road."""


class Market(NamedTuple):
    """A market-place beside a road square, and the cube on it (None: empty)."""

    square: str
    cube: str | None


class Area(NamedTuple):
    """An area of the board ('I' to 'VI'), its side of the road, and its ware tile."""

    name: str
    side: str
    ware: str | None


class Holding(NamedTuple):
    """What one seat holds in front of it, for all to see."""

    coins: int
    victory_points: int
    cubes: tuple[int, ...]
    """Per colour, in the order of `board.colours`."""
    ware_tiles: tuple[int, ...]
    wagon_tiles: int
    """How many, face down: 'the other players may know how many each player owns'."""


class Move(NamedTuple):
    """The turn of moving the wagons in progress."""

    seat: int
    special: SpecialMove
    """The special move bought this turn (NONE: none)."""
    allowance: int
    """Steps the turn has: `board.allowance(special)`."""
    steps: int
    """Steps taken so far."""
    moved: tuple[str, ...]
    """Wagons that have made their move this turn, in board order."""
    mover: str | None
    """The wagon moving now."""
    over: str | None
    """The wagon the moving one stands on, passing through it (stacking)."""
    left: tuple[str, ...]
    """Squares of its column the moving wagon has left this move: it does not go back."""
    stopped_at: str | None
    """Where the last wagon ended its move: its goods may be taken."""
    took: tuple[str, ...]
    """'cube' and/or 'tile' taken this turn."""


class Draw(NamedTuple):
    """A draw the table waits for: what it fills."""

    kind: str
    """'wagon' (a start square), 'ware' (an area) or 'cube' (a market)."""
    at: str
    """The start square, the area or the market's square."""
    refill: bool
    """From the bag during play, replacing goods just taken."""


@dataclass(frozen=True, slots=True)
class StradaRomanaObservation(Observation):
    """The Strada Romana table as everyone at it sees it."""

    board: Board = field(repr=False)
    """The components and the road (public, immutable)."""
    wagons: tuple[Wagon, ...]
    """Every wagon, in the order of `board.wagons`."""
    arrivals: tuple[str, ...]
    """The arrived wagons in their order of arrival."""
    markets: tuple[Market, ...]
    areas: tuple[Area, ...]
    bag_cubes: tuple[int, ...]
    """Cubes per colour still in the bag."""
    bag_tiles: tuple[int, ...]
    """Ware tiles per colour still in the bag."""
    holdings: tuple[Holding, ...]
    """Per seat."""
    deck: int
    """Wagon tiles left in the deck."""
    move: Move | None
    """The turn of moving the wagons, from its start until the next turn (while the bag
    refills goods too); None in setup, while a wagon tile is named, and after the end."""
    draw: Draw | None
    """The setup draw or the refill the table waits for, if it waits for one."""
    legal: tuple[str, ...]
    """What the player to act may do now, in notation; empty while a seat names the
    wagon tile it chose (the tiles left would tell which ones are held)."""
    ended: str
    """Why the game ended: 'arrivals' or 'victory points'; '' before."""

    def wagon(self, name: str) -> Wagon:
        return self.wagons[self.board.wagon_index[name]]

    def reach(self, wagon: str) -> dict[str, int]:
        """Where `wagon` can get with the steps the turn has left, as the legal actions
        allow step by step (the must-move rule and the special move included): each
        square, or 'rome' / 'portus' for an arrival, with the step that first gets there
        (1: the next one). Empty when the wagon cannot move now."""
        if self.phase not in MOVE_PHASES:
            return {}
        road = PublicRoad.of(self)
        w = self.board.wagon_index[wagon]
        found = MOVING.reach(road, w)
        return {self.board.name(t, road.head[w]): step for t, step in found.items()}


@dataclass(frozen=True, slots=True)
class StradaRomanaSeatObservation(StradaRomanaObservation):
    """What one seat knows during the game: the table, and the wagon tiles it chose."""

    own_wagon_tiles: tuple[str | None, ...]
    """Its wagon tiles; None for one to be named when revealed at the end."""


@dataclass(frozen=True, slots=True)
class StradaRomanaEndObservation(StradaRomanaObservation):
    """The table once the game has ended: the wagon tiles are revealed."""

    revealed: tuple[tuple[str | None, ...], ...]
    """Per seat, its wagon tiles; None for one its holder has not named yet."""


class PublicRoad:
    """The road as an observation shows it, in the form the movement rules read
    (`movement.Road`), so the table can ask where a wagon can get without the state."""

    __slots__ = (
        "arrived",
        "board",
        "finished",
        "head",
        "moved",
        "mover",
        "occ",
        "pos",
        "special",
        "trail",
        "used",
    )

    def __init__(self, obs: StradaRomanaObservation, move: Move) -> None:
        b = obs.board
        self.board = b
        self.special = move.special
        self.pos = [_square(b, w) for w in obs.wagons]
        self.head = [HEADINGS.index(w.heading) for w in obs.wagons]
        self.arrived = [b.wagon_index[name] for name in obs.arrivals]
        self.finished = arrivals_by_heading(self.arrived, self.head)
        self.mover = -1 if move.mover is None else b.wagon_index[move.mover]
        self.occ = occupancy(b, self.pos, self.mover)
        self.used = move.steps
        self.moved = sum(1 << b.wagon_index[name] for name in move.moved)
        self.trail = sum(1 << b.square_index[name] for name in move.left)

    @classmethod
    def of(cls, obs: StradaRomanaObservation) -> PublicRoad:
        assert obs.move is not None, "no turn of moving the wagons is in progress"
        return cls(obs, obs.move)


def _square(b: Board, wagon: Wagon) -> int:
    if wagon.square is not None:
        return b.square_index[wagon.square]
    return ARRIVED if wagon.arrived else UNPLACED


def _names(names: Sequence[str], tiles: Sequence[int]) -> tuple[str | None, ...]:
    return tuple(names[w] if w != UNKNOWN else None for w in tiles)


def observe(state: StradaRomanaState, seat: int | None) -> StradaRomanaObservation:
    """Build the observation of `state` for `seat` (None: the public table)."""
    b = state.board
    colour = (*b.colours, None).__getitem__  # -1: none
    public = state._observed(seat)
    public.update(
        board=b,
        wagons=_wagons(state),
        arrivals=tuple(b.wagons[w] for w in state.arrived),
        markets=tuple(
            map(Market, (b.square_names[sq] for sq in b.market_square), map(colour, state.market))
        ),
        areas=tuple(map(Area, b.area_names, b.area_side, map(colour, state.area))),
        bag_cubes=tuple(state.bag_cubes),
        bag_tiles=tuple(state.bag_tiles),
        holdings=_holdings(state),
        deck=b.deck - sum(len(held) for held in state.wagon_tiles),
        move=_move(state),
        draw=_draw(state),
        legal=() if state.phase == "wagon_tile" else tuple(a.text for a in state.legal_actions()),
        ended=state.ended,
    )
    if state.phase in END_PHASES:
        revealed = tuple(_names(b.wagons, held) for held in state.wagon_tiles)
        return StradaRomanaEndObservation(**public, revealed=revealed)
    if seat is None:
        return StradaRomanaObservation(**public)
    own = _names(b.wagons, state.wagon_tiles[seat])
    return StradaRomanaSeatObservation(**public, own_wagon_tiles=own)


def _holdings(state: StradaRomanaState) -> tuple[Holding, ...]:
    return tuple(
        Holding(coins, vp, tuple(cubes), tuple(tiles), len(held))
        for coins, vp, cubes, tiles, held in zip(
            state.coins, state.vp, state.cubes, state.tiles, state.wagon_tiles, strict=True
        )
    )


def _wagons(state: StradaRomanaState) -> tuple[Wagon, ...]:
    b = state.board
    order = {w: k + 1 for k, w in enumerate(state.arrived)}
    return tuple(
        Wagon(
            name,
            b.square_names[sq] if sq >= 0 else None,
            HEADINGS[state.head[w]],
            order.get(w, 0),
        )
        for w, (name, sq) in enumerate(zip(b.wagons, state.pos, strict=True))
    )


def _move(state: StradaRomanaState) -> Move | None:
    if state.phase not in MOVE_PHASES and state.phase != "refill":
        return None
    b = state.board
    mover = state.mover
    under = state.occ[state.pos[mover]] if mover >= 0 else -1
    return Move(
        seat=state.seat,
        special=state.special,
        allowance=b.allowance(state.special),
        steps=state.used,
        moved=_in_mask(b.wagons, state.moved),
        mover=_name(b.wagons, mover),
        over=_name(b.wagons, under),
        left=_in_mask(b.square_names, state.trail),
        stopped_at=_name(b.square_names, state.stop_at),
        took=tuple(word for word, kind in GOODS if state.took & kind),
    )


def _name(names: Sequence[str], i: int) -> str | None:
    return names[i] if i >= 0 else None


def _in_mask(names: Sequence[str], mask: int) -> tuple[str, ...]:
    """The names whose bit is set in `mask` (wagons moved, squares left behind)."""
    return tuple(name for i, name in enumerate(names) if mask >> i & 1)


def _draw(state: StradaRomanaState) -> Draw | None:
    b = state.board
    phase = state.phase
    if phase == "wagons":
        return Draw("wagon", b.square_names[b.start_square(state.cursor)[0]], False)
    if phase == "wares":
        return Draw("ware", b.area_names[state.cursor], False)
    if phase == "cubes":
        return Draw("cube", b.square_names[b.market_square[state.cursor]], False)
    if phase == "refill":
        if state.refill_kind == "cube":
            return Draw("cube", b.square_names[b.market_square[state.refill_at]], True)
        return Draw("ware", b.area_names[state.refill_at], True)
    return None
