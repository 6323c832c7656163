"""Strada Romana, the wagon tiles: b) Choose a "Wagon Tile" during the game, and Wagon
Tiles, revealed and scored at its end. A tile's identity is its holder's own input."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from engine.core import Event, Option, Rule, in_phases, revealing

from . import movement, scoring
from .flow import FLOW, action_words

if TYPE_CHECKING:
    from .rules import StradaRomanaState

UNKNOWN = -1
"""A wagon tile held but not named yet."""


class HeldTile(NamedTuple):
    """One wagon tile a seat holds: the `nth` of that seat's tiles (0 first)."""

    seat: int
    nth: int


NO_TILE = HeldTile(-1, -1)
"""What `WagonTiles.unrevealed` answers once every tile is named."""


class ChooseAWagonTile(Rule["StradaRomanaState"]):
    """'Players can score points by guessing which 4 wagons will arrive first at their
    destination. To do so, players pick the "wagon tiles" deck up and choose one of them;
    then, the deck is put back into its place. The "wagon tiles" are always kept face
    down (the other players may know how many each player owns, but not which ones). Each
    player can hold a maximum of three "wagon tiles" (which cannot be discarded).'

    The identity is the seat's own choice (ruling 20), entered now with the option
    `wagon_tiles = "when_taken"`, else at the reveal; nine tiles to share (ruling 21)."""

    heading = 'b) Choose a "Wagon Tile"'
    plays = in_phases(turn=("tile",), wagon_tile=("wagon",))
    # "players pick the 'wagon tiles' deck up and choose one of them": whoever takes a
    # tile has seen the deck, whenever its wagon is entered; a tile named as it is taken
    # is then a secret the table keeps face down
    reveals = revealing(
        wagon_tile_taken="the wagon tile deck has been looked through",
        wagon_tile_entered="the wagon tile chosen from the deck is named, face down",
    )

    def texts(self, state: StradaRomanaState) -> Sequence[str]:
        if state.phase == "wagon_tile":
            return self.still_possible(state)
        return ["tile"] if self.may_take(state, state.seat) else ()

    def apply(self, state: StradaRomanaState, verb: str, arg: str, events: list[Event]) -> None:
        seat = state.seat
        if verb == "wagon":
            state.wagon_tiles[seat][-1] = state.board.wagon_index[arg]
            events.append(Event("wagon_tile_entered", {"player": seat}))
            movement.PLAYING.end_turn(state, events)
            return
        state.wagon_tiles[seat].append(UNKNOWN)
        held = len(state.wagon_tiles[seat])
        events.append(Event("wagon_tile_taken", {"player": seat, "held": held}))
        if names_when_taken(state, seat):
            FLOW.fire(state, "take_tile")
        else:
            movement.PLAYING.end_turn(state, events)

    def refuse(self, state: StradaRomanaState, verb: str, arg: str) -> str | None:
        if verb == "wagon":
            return self.refuse_wagon(state, arg)
        if arg:
            return "'tile' takes no more words."
        if len(state.wagon_tiles[state.seat]) >= state.board.max_wagon_tiles:
            return "Each player can hold a maximum of three wagon tiles."
        return "The wagon tile deck is empty."

    @staticmethod
    def may_take(state: StradaRomanaState, seat: int) -> bool:
        b = state.board
        taken = sum(len(h) for h in state.wagon_tiles)
        return len(state.wagon_tiles[seat]) < b.max_wagon_tiles and taken < b.deck

    @staticmethod
    def still_possible(state: StradaRomanaState) -> list[str]:
        """`wagon NAME` for every wagon whose tile nobody has named yet (the one back in
        the box is unknown, so it is never excluded)."""
        b = state.board
        known = {w for held in state.wagon_tiles for w in held}
        return [b.wagon_texts[w] for w in range(len(b.wagons)) if w not in known]

    @staticmethod
    def refuse_wagon(state: StradaRomanaState, arg: str) -> str:
        b = state.board
        words = action_words("wagon", arg)
        if len(words) != 2 or words[1] not in b.wagon_index:
            return f"Write 'wagon NAME'; the wagons are {', '.join(b.wagons)}."
        return f"The {words[1]} wagon tile is already held: each wagon has one tile."

    def prompt(self, state: StradaRomanaState) -> str:
        return (
            f"{state.who(state.seat)} chose a wagon tile: enter (or scan) its wagon; "
            f"it stays face down."
        )


def names_when_taken(state: StradaRomanaState, seat: int) -> bool:
    """Whether `seat` names its tile as it takes it (the option `wagon_tiles`, or a seat
    of `named_tiles`, whose tiles the app keeps), rather than at the reveal."""
    if state.options["wagon_tiles"] == "when_taken":
        return True
    return seat in Option.seat_set(state.options.get("named_tiles", ""))


class WagonTiles(Rule["StradaRomanaState"]):
    """'When the game ends, all players reveal the "wagon tiles" they own. For each wagon
    that arrives at its destination (either Portus or Rome; the order of arrival does not
    matter), the player holding its tile scores 3 points. For each wagon that has not yet
    arrived, the player holding its tile loses 1 point.'

    Each tile not named when taken is named now by its holder, seat by seat."""

    heading = "Wagon Tiles"
    plays = in_phases(reveal=("wagon",))
    reveals = revealing(wagon_tile_revealed="the wagon tile is face up for everyone")

    def texts(self, state: StradaRomanaState) -> Sequence[str]:
        return CHOOSING.still_possible(state)

    def apply(self, state: StradaRomanaState, verb: str, arg: str, events: list[Event]) -> None:
        b = state.board
        seat, k = self.unrevealed(state)
        state.wagon_tiles[seat][k] = b.wagon_index[arg]
        events.append(Event("wagon_tile_revealed", {"player": seat, "wagon": arg}))
        if self.unrevealed(state).seat < 0:
            scoring.SCORE.final(state, events)

    def refuse(self, state: StradaRomanaState, verb: str, arg: str) -> str | None:
        return CHOOSING.refuse_wagon(state, arg)

    @staticmethod
    def unrevealed(state: StradaRomanaState) -> HeldTile:
        """The first tile still to be named, seat by seat; NO_TILE when none is."""
        for seat, held in enumerate(state.wagon_tiles):
            for k, w in enumerate(held):
                if w == UNKNOWN:
                    return HeldTile(seat, k)
        return NO_TILE

    @staticmethod
    def points(state: StradaRomanaState, seat: int) -> int:
        b = state.board
        arrived = set(state.arrived)
        return sum(
            b.points_arrived if w in arrived else b.points_not_arrived
            for w in state.wagon_tiles[seat]
            if w != UNKNOWN
        )

    @staticmethod
    def scored(state: StradaRomanaState, seat: int) -> list[Event]:
        """One event per tile `seat` holds, at the Score: its wagon, and whether it arrived."""
        b = state.board
        arrived = set(state.arrived)
        return [
            Event(
                "wagon_tile_scored",
                {
                    "player": seat,
                    "wagon": b.wagons[w],
                    "arrived": w in arrived,
                    "points": b.points_arrived if w in arrived else b.points_not_arrived,
                },
            )
            for w in state.wagon_tiles[seat]
            if w != UNKNOWN
        ]

    def prompt(self, state: StradaRomanaState) -> str:
        seat, k = self.unrevealed(state)
        return f"Game end: {state.who(seat)} reveals wagon tile {k + 1}: enter its wagon."


CHOOSING = ChooseAWagonTile()
WAGON_TILES = WagonTiles()
