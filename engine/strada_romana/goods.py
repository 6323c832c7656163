"""Strada Romana, taking goods: Wagon's Position and "Ware" Tiles, Taking "Ware" Tiles
and Taking Cubes, each with the refill from the bag that follows it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.core import Event, Rule, in_phases

from . import movement, payouts, setup
from .board import SIDES
from .flow import FLOW, action_words

if TYPE_CHECKING:
    from .rules import StradaRomanaState

CUBE, TILE = 1, 2
"""The goods taken this turn, as bits of `took` (Taking Cubes, 'Number of players')."""
GOODS = (("cube", CUBE), ("tile", TILE))
"""Each kind of goods with its word in the record."""


class WagonsPosition(Rule["StradaRomanaState"]):
    """'Players can take a "ware" tile only from the area in the part on which the wagon
    ends its move. ... If on a top square, the player can only take a top "ware" tile. If
    on a middle square, the player can choose a top or a bottom "ware" tile. If on a
    bottom square, the player can only take a bottom "ware" tile.'

    The areas each road square borders are `Board.areas_at`; square 241, alone in its
    column, borders both areas of part B (ruling 19, provisional)."""

    heading = 'Wagon\'s Position and "Ware" Tiles'

    @staticmethod
    def area(state: StradaRomanaState, side: str) -> int | None:
        """The area on `side` of the square where the wagon stopped, if it borders one."""
        b = state.board
        return next((a for a in b.areas_at[state.stop_at] if b.area_side[a] == side), None)

    def refuse_side(self, state: StradaRomanaState, side: str) -> str | None:
        if side not in SIDES:
            return "Write 'collect tile top' or 'collect tile bottom'."
        if self.area(state, side) is None:
            b = state.board
            areas = b.areas_at[state.stop_at]
            row = b.area_side[areas[0]] if areas else "top"
            return f"If on a {row} square, the player can only take a {row} ware tile."
        return None


def _goods_refusal(state: StradaRomanaState, words: list[str]) -> str | None:
    """'Only when a wagon ends its move on a square can the player immediately take' a
    ware tile or a cube, and with 2-3 players only one of them: what both refuse alike,
    and a refill's draw. None when the kind of goods decides."""
    if state.phase == "refill":
        return setup.GAME_SETUP.draw_refusal(state, words)
    if state.phase in ("turn", "special"):
        return "Goods are taken only when a wagon ends its move on a square."
    if state.phase == "moving":
        return (
            "Goods are taken only when a wagon ends its move: 'stop' first "
            "(or take its remaining steps)."
        )
    if len(words) != 3 or words[1] not in ("cube", "tile"):
        return "Write 'collect cube SQUARE' or 'collect tile top' / 'collect tile bottom'."
    if state.stop_at < 0:
        return "Goods are taken only when a wagon ends its move on a road square."
    if state.took and TAKING_CUBES.one_item(state):
        return (
            "With 2-3 players a player must choose between a cube or a ware tile "
            "in a turn: not both."
        )
    return None


def _to_refill(
    state: StradaRomanaState, kind: str, at: int, bag: list[int], events: list[Event]
) -> None:
    """'A new one is drawn at random from the bag to replace the one taken': a draw, the
    next chance action; with the bag empty of that kind, the place stays empty (ruling
    18) and the turn goes on."""
    if any(bag):
        state.refill_kind, state.refill_at = kind, at
        FLOW.fire(state, "collect")
    else:
        movement.MOVING.settle(state, events)


def _replaced(
    state: StradaRomanaState,
    places: list[int],
    bag: list[int],
    where: str,
    arg: str,
    events: list[Event],
) -> None:
    """The refill drawn: colour `arg` from the bag onto `places[refill_at]`, named `where`."""
    colour = state.board.colours.index(arg)
    places[state.refill_at] = colour
    bag[colour] -= 1
    events.append(Event("refilled", {"kind": state.refill_kind, "at": where, "colour": arg}))
    state.refill_kind, state.refill_at = "", -1
    movement.MOVING.settle(state, events)


class TakingWareTiles(Rule["StradaRomanaState"]):
    """'Only when a wagon ends its move on a square can the player immediately take the
    "ware" tile of the area bordering the route square ... If the square is adjacent to 2
    areas, the player can choose which "ware" tile to take ... A new "ware" tile is drawn
    at random from the bag to replace the one taken. As soon as a "ware" tile is
    collected, the player takes one coin for each cube of the same colour currently on
    the board.'

    Right after the wagon's move ends, before the next wagon moves (ruling 15); the
    payout is taken in full (ruling 17); an empty bag leaves the area empty (ruling 18)."""

    heading = 'Taking "Ware" Tiles'
    plays = in_phases(stopped=("collect tile",), refill=("draw ware",))
    refuses = in_phases(turn=("collect tile",), special=("collect tile",), moving=("collect tile",))

    def texts(self, state: StradaRomanaState) -> Sequence[str]:
        if state.phase == "refill":
            return (
                setup.GAME_SETUP.from_the_bag(state, "ware") if state.refill_kind == "ware" else ()
            )
        return self.offer(state)

    @staticmethod
    def offer(state: StradaRomanaState) -> list[str]:
        """The ware tiles that may be taken where the wagon stopped."""
        if not TAKING_CUBES.may_take(state, TILE):
            return []
        b = state.board
        areas = b.areas_at[state.stop_at]
        return [f"collect tile {b.area_side[a]}" for a in areas if state.area[a] >= 0]

    def apply(self, state: StradaRomanaState, verb: str, arg: str, events: list[Event]) -> None:
        if verb == "draw ware":
            where = state.board.area_names[state.refill_at]
            _replaced(state, state.area, state.bag_tiles, where, arg, events)
            return
        a = WAGONS_POSITION.area(state, arg)
        assert a is not None
        self.take(state, a, events)

    def take(self, state: StradaRomanaState, a: int, events: list[Event]) -> None:
        b = state.board
        colour = state.area[a]
        state.area[a] = -1
        seat = state.seat
        state.tiles[seat][colour] += 1
        state.took |= TILE
        coins = state.market.count(colour)
        events.append(
            Event(
                "ware_taken",
                {
                    "player": seat,
                    "colour": b.colours[colour],
                    "area": b.area_names[a],
                    "coins": coins,
                },
            )
        )
        if payouts.PASS.gain(state, seat, coins, b.colours[colour], events):
            return  # the last victory point went out: the game has ended
        _to_refill(state, "ware", a, state.bag_tiles, events)

    def refuse(self, state: StradaRomanaState, verb: str, arg: str) -> str | None:
        words = action_words(verb, arg)
        why = _goods_refusal(state, words)
        if why is not None:
            return why
        if state.took & TILE:
            return "With 4-5 players a player takes a cube and/or a tile in a turn: one tile."
        why = WAGONS_POSITION.refuse_side(state, words[2])
        if why is not None:
            return why
        a = WAGONS_POSITION.area(state, words[2])
        assert a is not None
        return f"Area {state.board.area_names[a]} has no ware tile: the bag had none left."

    def prompt(self, state: StradaRomanaState) -> str:
        return f"Draw a ware tile from the bag for area {state.board.area_names[state.refill_at]}."


class TakingCubes(Rule["StradaRomanaState"]):
    """'Only when a wagon ends its move on a square connected to a market can the player
    immediately take the cube placed on the market. A new one is drawn at random from the
    bag to replace the one taken. The player does not receive coins (as for the "ware"
    tiles). Number of players: 2-3 Players: during their turn, players must choose
    between a cube or a tile. 4-5 players: during their turn, players can take a cube
    and/or a tile.'

    A limit per turn, not per stop (ruling 16); taking is never required."""

    heading = "Taking Cubes"
    plays = in_phases(stopped=("collect cube",), refill=("draw cube",))
    refuses = in_phases(turn=("collect cube",), special=("collect cube",), moving=("collect cube",))

    def texts(self, state: StradaRomanaState) -> Sequence[str]:
        if state.phase == "refill":
            return (
                setup.GAME_SETUP.from_the_bag(state, "cube") if state.refill_kind == "cube" else ()
            )
        return self.offer(state)

    def offer(self, state: StradaRomanaState) -> list[str]:
        """The cube that may be taken where the wagon stopped, if any."""
        if not self.may_take(state, CUBE):
            return []
        b = state.board
        m = b.market_at[state.stop_at]
        if m >= 0 and state.market[m] >= 0:
            return [f"collect cube {b.square_names[state.stop_at]}"]
        return []

    def apply(self, state: StradaRomanaState, verb: str, arg: str, events: list[Event]) -> None:
        b = state.board
        if verb == "draw cube":
            where = b.square_names[b.market_square[state.refill_at]]
            _replaced(state, state.market, state.bag_cubes, where, arg, events)
            return
        m = b.market_at[state.stop_at]
        colour = state.market[m]
        state.market[m] = -1
        state.cubes[state.seat][colour] += 1
        state.took |= CUBE
        square = b.square_names[state.stop_at]
        events.append(
            Event(
                "cube_taken", {"player": state.seat, "colour": b.colours[colour], "market": square}
            )
        )
        _to_refill(state, "cube", m, state.bag_cubes, events)

    def refuse(self, state: StradaRomanaState, verb: str, arg: str) -> str | None:
        words = action_words(verb, arg)
        why = _goods_refusal(state, words)
        if why is not None:
            return why
        if state.took & CUBE:
            return "With 4-5 players a player takes a cube and/or a tile in a turn: one cube."
        b = state.board
        square = b.square_names[state.stop_at]
        if words[2] != square:
            return (
                f"The cube comes from the market of the square where the wagon ended "
                f"its move: {square}."
            )
        if b.market_at[state.stop_at] < 0:
            return f"Square {square} is not connected to a market."
        return f"The market at {square} is empty: the bag had no cube left to refill it."

    @staticmethod
    def one_item(state: StradaRomanaState) -> bool:
        """'2-3 Players: during their turn, players must choose between a cube or a tile.'"""
        return state.players <= state.board.one_item_up_to

    def may_take(self, state: StradaRomanaState, kind: int) -> bool:
        """Whether goods of `kind` may still be taken where the wagon stopped this turn."""
        took = state.took
        return state.stop_at >= 0 and not (took and self.one_item(state)) and not took & kind

    def prompt(self, state: StradaRomanaState) -> str:
        b = state.board
        square = b.square_names[b.market_square[state.refill_at]]
        return f"Draw a cube from the bag for the market at {square}."


WAGONS_POSITION = WagonsPosition()
TAKING_WARES = TakingWareTiles()
TAKING_CUBES = TakingCubes()
