"""The Strada Romana table: wagons on the road with their heading, cubes, ware tiles, arrivals.

Every square (road and start squares) has two LEDs along the road, the first on
the Portus side. A wagon lights both in its own colour, the LED on the side it
is heading to bright and the other dim, so a wagon bound for Rome shows
`dim, BRIGHT` and one bound for Portus `BRIGHT, dim`.

Wagon tiles are hidden (engine.strada_romana.HIDDEN): only how many each seat
holds is shown (that count is public), and which wagons they name appears
only once the game is over.
"""

from __future__ import annotations

from engine.core import Action, State
from engine.strada_romana import StradaRomanaState
from engine.strada_romana.board import HEADINGS, TO_PORTUS, TO_ROME

from .base import OFF, WHITE, Colour, Frame, View, ViewContext, dim

GAME = "strada_romana"
SEAT_PHASES = frozenset(("turn", "special", "moving", "stopped", "refill"))

CUBE: dict[str, Colour] = {
    "yellow": (255, 190, 0),
    "red": (255, 0, 0),
    "green": (0, 200, 0),
    "blue": (0, 0, 255),
    "brown": (150, 55, 0),  # LEDs cannot show brown: a dim orange stands for it
    "white": (255, 255, 255),
}
"""Cube and ware tile colours."""

WAGON: dict[str, Colour] = {
    "ballio": (255, 0, 0),
    "canopites": (255, 100, 0),
    "curculio": (230, 230, 0),
    "demetrius": (100, 255, 0),
    "hamilcar": (0, 255, 60),
    "herennius": (0, 230, 230),
    "maccus": (0, 100, 255),
    "persa": (60, 0, 255),
    "plotus": (180, 0, 255),
    "pseudolus": (255, 0, 140),
}
"""One hue per wagon, none of them white (white marks the wagon under the cursor).
The physical wagons' outline colours are not in the public sources; change these
to match them."""

COIN: Colour = (255, 170, 0)
TRAIL = 0.2  # brightness of a wagon's rear LED
LATER = 0.25  # brightness of squares a wagon reaches only after its next step
AWAY = 0.1  # goods that a `collect` cannot take, while the cursor is on it
ARRIVED_TILE: Colour = (0, 255, 0)
ROAD_TILE: Colour = (255, 0, 0)


def _pair(colour: Colour, heading: int) -> list[Colour]:
    """A wagon's two LEDs: its heading's side bright (Portus-side LED first)."""
    rear = dim(colour, TRAIL)
    return [rear, colour] if heading == TO_ROME else [colour, rear]


class StradaRomanaView(View):
    game = GAME
    layout_name = "strada_romana.toml"
    palette = (  # five players at most; no yellow, the colour of the coins
        ("red", (255, 0, 0)),
        ("green", (0, 200, 0)),
        ("blue", (0, 0, 255)),
        ("purple", (150, 0, 255)),
        ("cyan", (0, 200, 200)),
    )

    # --- the board -----------------------------------------------------------------
    def render(self, state: State, ctx: ViewContext) -> Frame:
        assert isinstance(state, StradaRomanaState)
        b = state.board
        frame: Frame = {}
        for sq in range(b.finish):
            frame[f"{GAME}.square.{b.square_names[sq]}"] = [OFF, OFF]
        for w, sq in enumerate(state.pos):
            if sq >= 0 and w != state.mover:
                name = f"{GAME}.square.{b.square_names[sq]}"
                frame[name] = _pair(WAGON[b.wagons[w]], state.head[w])
        if state.mover >= 0:
            w = state.mover
            sq = state.pos[w]
            name = f"{GAME}.square.{b.square_names[sq]}"
            lead = _pair(WAGON[b.wagons[w]], state.head[w])
            under = state.occ[sq]
            if under >= 0:  # stacking: it passes over a wagon; the mover's LED leads
                other = dim(WAGON[b.wagons[under]], TRAIL)
                lead = [other, lead[1]] if state.head[w] == TO_ROME else [lead[0], other]
            frame[name] = lead
        for k in range(b.arrivals):
            slot = f"{GAME}.arrival.{k + 1}"
            if k < len(state.arrived):
                w = state.arrived[k]
                frame[slot] = _pair(WAGON[b.wagons[w]], state.head[w])
            else:
                frame[slot] = [OFF, OFF]
        for m, sq in enumerate(b.market_square):
            c = state.market[m]
            frame[f"{GAME}.market.{b.square_names[sq]}"] = CUBE[b.colours[c]] if c >= 0 else OFF
        for a, area in enumerate(b.area_names):
            c = state.area[a]
            frame[f"{GAME}.area.{area}"] = CUBE[b.colours[c]] if c >= 0 else OFF
        frame.update(self._turn(state, ctx))
        over = state.is_over()
        arrived = set(state.arrived)
        coin_leds = b.coins_per_vp - 1
        for player in range(state.players):
            seat = f"seat.{ctx.seat_of(player)}"
            coins = state.coins[player]
            frame[f"{seat}.coins"] = [COIN] * coins + [OFF] * (coin_leds - coins)
            held = state.wagon_tiles[player]
            if over:  # revealed: arrived (+3) or still on the road (-1)
                tiles = [ARRIVED_TILE if w in arrived else ROAD_TILE for w in held if w >= 0]
            else:  # how many is public; which wagons is not
                tiles = [ctx.colours[player]] * len(held)
            frame[f"{seat}.wagon_tiles"] = tiles + [OFF] * (b.max_wagon_tiles - len(tiles))
        return frame

    def _turn(self, state: StradaRomanaState, ctx: ViewContext) -> Frame:
        """The turn in progress: the special move bought and the steps taken of the allowance."""
        b = state.board
        special: list[Colour] = [OFF] * len(b.special)
        steps: list[Colour] = [OFF] * (b.steps + b.extra_steps)
        if state.phase in SEAT_PHASES:
            colour = ctx.colours[state.seat]
            for k in range(state.level):
                special[k] = colour
            allowance = b.steps + (b.extra_steps if state.level >= 3 else 0)
            for k in range(allowance):
                steps[k] = colour if k < state.used else dim(WHITE, LATER)
        return {f"{GAME}.special": special, f"{GAME}.steps": steps}

    def setup_frame(self, state: State, ctx: ViewContext) -> Frame:
        """The board to lay out: wagons on the start squares, wares, cubes, starting coins."""
        frame = self.render(state, ctx)
        return {k: v for k, v in frame.items() if k not in (f"{GAME}.special", f"{GAME}.steps")}

    # --- choosing ------------------------------------------------------------------
    def hint(self, state: State, words: tuple[str, ...], ctx: ViewContext) -> Frame:
        """`step`: the wagons that can move (white); `step WAGON`, or `step` when one wagon
        can: that wagon in white and every square it can reach this turn, in its colour,
        bright for the next step and dim for later ones. `collect`: only the goods it can
        take stay lit."""
        assert isinstance(state, StradaRomanaState)
        if not words:
            return {}
        under = [a for a in state.legal_actions() if a.words[: len(words)] == words]
        if words[0] == "step":
            wagons = list(dict.fromkeys(a.words[1] for a in under if len(a.words) == 3))
            if len(words) >= 2 or len(wagons) == 1:
                return self._reach(state, words[1] if len(words) >= 2 else wagons[0])
            b = state.board
            return {
                f"{GAME}.square.{b.square_names[state.pos[b.wagon_index[w]]]}": [WHITE, WHITE]
                for w in wagons
            }
        if words[0] == "collect":
            return self._goods(state, under)
        return {}

    def candidate_hint(self, state: State, action: Action, ctx: ViewContext) -> Frame:
        """At the reveal, the wagon a tile is being named for lights white where it stands,
        so the holder matches the tile in hand to the wagon on the board. A tile entered as
        it is taken stays secret: nothing is lit."""
        assert isinstance(state, StradaRomanaState)
        if action.words[0] != "wagon" or state.phase != "reveal":
            return {}
        b = state.board
        w = b.wagon_index[action.words[1]]
        if state.pos[w] >= 0:
            return {f"{GAME}.square.{b.square_names[state.pos[w]]}": [WHITE, WHITE]}
        if w in state.arrived:
            return {f"{GAME}.arrival.{state.arrived.index(w) + 1}": [WHITE, WHITE]}
        return {}

    def _goods(self, state: StradaRomanaState, offered: list[Action]) -> Frame:
        """The markets and areas a `collect` can take from stay lit; all others dim."""
        b = state.board
        keep: set[str] = set()
        for action in offered:
            kind, where = action.words[1], action.words[2]
            if kind == "cube":
                keep.add(f"{GAME}.market.{where}")
            else:
                a = next(a for a in b.areas_at[state.stop_at] if b.area_side[a] == where)
                keep.add(f"{GAME}.area.{b.area_names[a]}")
        goods = [(f"{GAME}.market.{b.square_names[sq]}", state.market[m])
                 for m, sq in enumerate(b.market_square)]
        goods += [(f"{GAME}.area.{name}", state.area[a]) for a, name in enumerate(b.area_names)]
        return {
            element: CUBE[b.colours[c]] if element in keep else dim(CUBE[b.colours[c]], AWAY)
            for element, c in goods
            if c >= 0
        }

    def _reach(self, state: StradaRomanaState, wagon: str) -> Frame:
        """Squares `wagon` can reach with the steps left, found by playing them on clones,
        so the must-move rule and every special move count exactly as the engine says."""
        b = state.board
        w = b.wagon_index[wagon]
        colour = WAGON[wagon]
        depth: dict[str, int] = {}
        frontier: list[StradaRomanaState] = [state]
        level = 1
        while frontier:
            following: list[StradaRomanaState] = []
            for here in frontier:
                for action in here.legal_actions():
                    words = action.words
                    if words[0] != "step" or words[1] != wagon:
                        continue
                    target = words[2]
                    if target in HEADINGS:
                        target = f"arrival.{len(state.arrived) + 1}"
                    else:
                        target = f"square.{target}"
                    depth.setdefault(target, level)
                    trial = here.clone()
                    trial.apply(action)
                    if trial.phase == "moving" and trial.mover == w:
                        following.append(trial)
            frontier = following
            level += 1
        frame: Frame = {
            f"{GAME}.{target}": [colour, colour] if d == 1 else [dim(colour, LATER)] * 2
            for target, d in depth.items()
        }
        if state.pos[w] >= 0:
            frame[f"{GAME}.square.{b.square_names[state.pos[w]]}"] = [WHITE, WHITE]
        return frame

    # --- draws -----------------------------------------------------------------------
    def describe_chance(self, state: State, action: Action) -> str:
        """What the draw puts where."""
        assert isinstance(state, StradaRomanaState)
        b = state.board
        words = action.words
        verb = words[0]
        if verb == "place":
            per_side = len(b.start[TO_ROME])
            heading = TO_ROME if state.cursor < per_side else TO_PORTUS
            square = b.square_names[b.start[heading][state.cursor % per_side]]
            side = "Portus" if heading == TO_ROME else "Roma"
            return (f"{words[1].capitalize()} stands on start square {square} ({side} side, "
                    f"heading to {HEADINGS[heading].capitalize()}).")
        if verb == "draw":
            kind, colour = words[1], words[2]
            if state.phase == "refill":
                if kind == "cube":
                    square = b.square_names[b.market_square[state.refill_at]]
                    return f"From the bag: a {colour} cube for the market at {square}."
                area = b.area_names[state.refill_at]
                return f"From the bag: a {colour} ware tile for area {area}."
            if kind == "cube":
                square = b.square_names[b.market_square[state.cursor]]
                return f"A {colour} cube goes on the market at {square}."
            area, side = b.area_names[state.cursor], b.area_side[state.cursor]
            return f"The {colour} ware tile goes on area {area} ({side})."
        if verb == "remove":
            return f"One wagon tile goes back into the box, unseen; {b.deck} stay in the deck."
        if verb == "start":
            coins = ", ".join(str(c) for c in b.starting_coins[: state.players])
            return f"Player {words[2]} starts; starting coins go {coins} clockwise."
        return super().describe_chance(state, action)

    def public_text(self, state: State, action: Action) -> str:
        """A wagon tile entered as it is taken is logged without its wagon until the end
        (`state` is the position after the action)."""
        assert isinstance(state, StradaRomanaState)
        if action.words[0] == "wagon" and state.phase not in ("reveal", "over"):
            return "wagon (a face-down tile)"
        return action.text

    def chance_actor(self, state: State) -> int | None:
        """The bag is drawn from by whoever emptied the market or area; the setup draws are
        anybody's. (A wagon tile is no draw: its holder names it as a decision.)"""
        assert isinstance(state, StradaRomanaState)
        if state.phase == "refill":
            return state.seat
        return None


VIEW = StradaRomanaView()
