"""Strada Romana, Game Setup and Starting Coins: every random step of the setup is a
chance action, and the starting player's neighbours get their coins."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.core import Event, Rule, in_phases

from . import movement
from .board import HEADINGS, TO_ROME, UNPLACED
from .flow import FLOW, action_words

if TYPE_CHECKING:
    from .rules import StradaRomanaState

REMOVE_TEXT = "remove wagon tile"
"""Game Setup 6: the wagon tile put back into the box unseen; nobody can name it."""


# --- the rulebook, heading by heading --------------------------------------------------
class GameSetup(Rule["StradaRomanaState"]):
    """'2. Place the 10 wagons at random on the starting squares: 5 on the "Portus" side
    and 5 on the "Roma" side. The wagons must be turned towards the road. 3. Place 6
    "ware" tiles (one of each colour) at random on the dedicated area squares. 4. Place
    one cube at random on each market-place along the Roman road. 5. All the remaining
    "ware" tiles and cubes are kept in the bag. 6. Shuffle the 10 "wagon tiles". Remove
    one of them and put it back into the box without looking at it. ... 7. Choose the
    starting player at random, and then proceed clockwise.'

    Every random step is a chance action (rulings 1-3); `cursor` is the start square,
    area or market the next draw fills. Turned towards the road, a wagon's side fixes
    its heading."""

    heading = "Game Setup"
    plays = in_phases(
        wagons=("place",),
        wares=("draw",),
        cubes=("draw",),
        wagon_tiles=("remove",),
        first_player=("start",),
    )

    def texts(self, state: StradaRomanaState) -> Sequence[str]:
        phase = state.phase
        b = state.board
        if phase == "wagons":
            return [b.place_texts[w] for w, p in enumerate(state.pos) if p == UNPLACED]
        if phase == "wares":
            placed = set(state.area)
            return [b.ware_texts[c] for c in range(len(b.colours)) if c not in placed]
        if phase == "cubes":
            return self.from_the_bag(state, "cube")
        if phase == "wagon_tiles":
            return [REMOVE_TEXT]
        return [f"start seat {s + 1}" for s in range(state.players)]

    def apply(self, state: StradaRomanaState, verb: str, arg: str, events: list[Event]) -> None:
        b = state.board
        if verb == "place":
            self.place(state, b.wagon_index[arg], events)
        elif verb == "draw":
            kind, colour = arg.split()
            if kind == "ware":
                self.lay_ware(state, b.colours.index(colour), events)
            else:
                self.lay_cube(state, b.colours.index(colour), events)
        elif verb == "remove":
            events.append(Event("wagon_tile_removed", {}))
            FLOW.fire(state, "tile_removed")
            if state.options["first"] != "random":
                self.choose_first(state, int(state.options["first"]), events)
        else:
            self.choose_first(state, int(arg.split()[1]) - 1, events)

    def refuse(self, state: StradaRomanaState, verb: str, arg: str) -> str | None:
        words = action_words(verb, arg)
        if verb == "place":
            b = state.board
            if len(words) != 2 or words[1] not in b.wagon_index:
                return f"Write 'place WAGON'; the wagons are {', '.join(b.wagons)}."
            return f"{words[1].capitalize()} is already on a start square."
        if verb == "draw":
            return self.draw_refusal(state, words)
        if verb == "remove":
            return f"Write '{REMOVE_TEXT}'."
        return f"Write 'start seat N' with N from 1 to {state.players}."

    def prompt(self, state: StradaRomanaState) -> str:
        b = state.board
        phase = state.phase
        if phase == "wagons":
            square, heading = b.start_square(state.cursor)
            side = "Portus" if heading == TO_ROME else "Roma"
            return f"Setup: which wagon stands on {side} start square {b.square_names[square]}?"
        if phase == "wares":
            a = state.cursor
            return f"Setup: which ware tile lies on area {b.area_names[a]} ({b.area_side[a]})?"
        if phase == "cubes":
            market = b.square_names[b.market_square[state.cursor]]
            return f"Setup: draw a cube from the bag for the market at {market}."
        if phase == "wagon_tiles":
            return "Setup: put one wagon tile back into the box without looking at it."
        return "Setup: choose the starting player at random."

    def place(self, state: StradaRomanaState, w: int, events: list[Event]) -> None:
        b = state.board
        sq, heading = b.start_square(state.cursor)
        state.pos[w], state.head[w], state.occ[sq] = sq, heading, w
        events.append(
            Event(
                "wagon_placed",
                {"wagon": b.wagons[w], "square": b.square_names[sq], "to": HEADINGS[heading]},
            )
        )
        self.next_draw(state, state.cursor + 1 == len(state.pos), "wagons_placed")

    def lay_ware(self, state: StradaRomanaState, colour: int, events: list[Event]) -> None:
        b = state.board
        state.area[state.cursor] = colour
        state.bag_tiles[colour] -= 1
        area = b.area_names[state.cursor]
        events.append(Event("ware_placed", {"area": area, "colour": b.colours[colour]}))
        self.next_draw(state, state.cursor + 1 == len(state.area), "wares_placed")

    def lay_cube(self, state: StradaRomanaState, colour: int, events: list[Event]) -> None:
        b = state.board
        state.market[state.cursor] = colour
        state.bag_cubes[colour] -= 1
        square = b.square_names[b.market_square[state.cursor]]
        events.append(Event("cube_placed", {"market": square, "colour": b.colours[colour]}))
        done = state.cursor + 1 == len(state.market) or not any(state.bag_cubes)
        self.next_draw(state, done, "cubes_placed")

    @staticmethod
    def next_draw(state: StradaRomanaState, done: bool, trigger: str) -> None:
        """The next start square, area or market; the next setup step after the last."""
        state.cursor = 0 if done else state.cursor + 1
        if done:
            FLOW.fire(state, trigger)

    @staticmethod
    def choose_first(state: StradaRomanaState, seat: int, events: list[Event]) -> None:
        state.first = seat
        STARTING_COINS.deal(state, seat)
        events.append(Event("first_player", {"player": seat, "coins": list(state.coins)}))
        FLOW.fire(state, "first_chosen")
        movement.PLAYING.begin_turn(state, seat)

    @staticmethod
    def from_the_bag(state: StradaRomanaState, kind: str) -> list[str]:
        """'All the remaining "ware" tiles and cubes are kept in the bag': the draws it
        still allows, of cubes or of ware tiles."""
        b = state.board
        if kind == "cube":
            return [b.cube_texts[c] for c, k in enumerate(state.bag_cubes) if k]
        return [b.ware_texts[c] for c, k in enumerate(state.bag_tiles) if k]

    @staticmethod
    def draw_refusal(state: StradaRomanaState, words: list[str]) -> str:
        """Why a draw from the bag cannot be this one, at setup or to refill."""
        phase = state.phase
        want = "cube" if phase == "cubes" else "ware" if phase == "wares" else state.refill_kind
        if len(words) != 3 or words[1] not in ("cube", "ware"):
            return f"Write 'draw {want} COLOUR'."
        if words[1] != want:
            return f"This draw is not a {words[1]}: {state.waiting_for()}"
        colours = state.board.colours
        if words[2] not in colours:
            return f"There is no colour '{words[2]}': the colours are {', '.join(colours)}."
        if phase == "wares":
            return f"A {words[2]} ware tile is already on an area: one of each colour is placed."
        kind = "cube" if want == "cube" else "ware tile"
        return f"No {words[2]} {kind} is left in the bag."


class StartingCoins(Rule["StradaRomanaState"]):
    """'All players receive coins at the beginning of the game (no coins are given to the
    starting player). See table.' 1st player 0 coins, 2nd 1, 3rd 2, 4th 3, 5th 3,
    counted in turn order from the starting player (ruling 1)."""

    heading = "Starting Coins"

    @staticmethod
    def deal(state: StradaRomanaState, first: int) -> None:
        n = state.players
        for i, coins in enumerate(state.board.starting_coins[:n]):
            state.coins[(first + i) % n] = coins


GAME_SETUP = GameSetup()
STARTING_COINS = StartingCoins()
