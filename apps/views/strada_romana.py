"""The Strada Romana table: wagons on the road with their heading, cubes, ware tiles, arrivals.

Every square (road and start squares) has two LEDs along the road, the first on
the Portus side. A wagon lights both in its own colour, the LED on the side it
is heading to bright and the other dim, so a wagon bound for Rome shows
`dim, BRIGHT` and one bound for Portus `BRIGHT, dim`.

Everything here comes from the public observation (`state.observe()`). It counts
each seat's wagon tiles and has no field that names one, so only how many each
seat holds is shown; which wagons they name appears once the game is over, from
the end's observation.
"""

from __future__ import annotations

from engine.core import Action, SeatNamer, State, seat_name
from engine.strada_romana import (
    SpecialMove,
    StradaRomanaEndObservation,
    StradaRomanaObservation,
    Wagon,
)
from engine.strada_romana.board import BUYABLE, HEADINGS, TO_ROME

from .base import OFF, WHITE, Colour, ElementFrame, View, ViewContext, dim

GAME = "strada_romana"
TURN_LIGHTS = (f"{GAME}.special", f"{GAME}.steps")

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


def _pair(colour: Colour, heading: str) -> list[Colour]:
    """A wagon's two LEDs: its heading's side bright (Portus-side LED first)."""
    rear = dim(colour, TRAIL)
    return [rear, colour] if heading == HEADINGS[TO_ROME] else [colour, rear]


def _where(wagon: Wagon) -> str | None:
    """The element a wagon stands on: its square, or its arrival square."""
    if wagon.square is not None:
        return f"{GAME}.square.{wagon.square}"
    if wagon.arrived:
        return f"{GAME}.arrival.{wagon.arrived}"
    return None


class StradaRomanaView(View):
    observes_only = True
    palette = (  # five players at most; no yellow, the colour of the coins
        ("red", (255, 0, 0)),
        ("green", (0, 200, 0)),
        ("blue", (0, 0, 255)),
        ("purple", (150, 0, 255)),
        ("cyan", (0, 200, 200)),
    )

    # --- the board -----------------------------------------------------------------
    def render(self, state: State, ctx: ViewContext) -> ElementFrame:
        obs = _table(state)
        frame: ElementFrame = {}
        _road(obs, frame)
        _goods(obs, frame)
        frame.update(self._turn(obs, ctx))
        _seats(obs, ctx, frame)
        return frame

    def _turn(self, obs: StradaRomanaObservation, ctx: ViewContext) -> ElementFrame:
        """The turn in progress: the special move bought and the steps taken of the allowance."""
        b = obs.board
        special: list[Colour] = [OFF] * len(BUYABLE)  # one light per move, cheapest first
        steps: list[Colour] = [OFF] * b.allowance(max(SpecialMove))
        move = obs.move
        if move is not None:
            colour = ctx.colours[move.seat]
            for k, m in enumerate(BUYABLE):  # the cheaper moves it includes light too
                if move.special.includes(m):
                    special[k] = colour
            for k in range(move.allowance):
                steps[k] = colour if k < move.steps else dim(WHITE, LATER)
        return {TURN_LIGHTS[0]: special, TURN_LIGHTS[1]: steps}

    def setup_frame(self, state: State, ctx: ViewContext) -> ElementFrame:
        """The board to lay out: wagons on the start squares, wares, cubes, starting coins."""
        frame = self.render(state, ctx)
        return {k: v for k, v in frame.items() if k not in TURN_LIGHTS}

    # --- choosing ------------------------------------------------------------------
    def hint(self, state: State, words: tuple[str, ...], ctx: ViewContext) -> ElementFrame:
        """`step`: the wagons that can move (white); `step WAGON`, or `step` when one wagon
        can: that wagon in white and every square it can reach this turn, in its colour,
        bright for the next step and dim for later ones. `collect`: only the goods it can
        take stay lit."""
        if not words or words[0] not in ("step", "collect"):
            return {}
        obs = _table(state)
        under = [text.split() for text in obs.legal if tuple(text.split()[: len(words)]) == words]
        if words[0] == "collect":
            return _collectable(obs, under)
        return _stepping(obs, words, under)

    def candidate_hint(self, state: State, action: Action, ctx: ViewContext) -> ElementFrame:
        """At the reveal, the wagon a tile is being named for lights white where it stands,
        so the holder matches the tile in hand to the wagon on the board. A tile entered as
        it is taken stays secret: nothing is lit."""
        if action.words[0] != "wagon":
            return {}
        obs = _table(state)
        if obs.phase != "reveal":
            return {}
        where = _where(obs.wagon(action.words[1]))
        return {} if where is None else {where: [WHITE, WHITE]}

    # --- draws -----------------------------------------------------------------------
    def describe_chance(self, state: State, action: Action, names: SeatNamer = seat_name) -> str:
        """What the draw puts where, or who starts (the starting coins follow as the
        game's news)."""
        obs = _table(state)
        b = obs.board
        words = action.words
        verb = words[0]
        draw = obs.draw
        if verb == "place" and draw is not None:
            heading = b.heading_of_start(b.square_index[draw.at])
            side = "Portus" if heading == TO_ROME else "Roma"
            return (
                f"{words[1].capitalize()} stands on start square {draw.at} ({side} side, "
                f"heading to {HEADINGS[heading].capitalize()})."
            )
        if verb == "draw" and draw is not None:
            return _drawn(obs, words[1], words[2])
        if verb == "remove":
            return f"One wagon tile goes back into the box, unseen; {b.deck} stay in the deck."
        if verb == "start":
            return f"Drawn at random: {names(int(words[2]) - 1)} is the starting player."
        return super().describe_chance(state, action, names)

    def public_text(self, state: State, action: Action) -> str:
        """A wagon tile entered as it is taken is logged without its wagon until the end
        (`state` is the position after the action)."""
        if action.words[0] == "wagon" and not isinstance(_table(state), StradaRomanaEndObservation):
            return "wagon (a face-down tile)"
        return action.text

    def chance_actor(self, state: State) -> int | None:
        """The bag is drawn from by whoever emptied the market or area; the setup draws are
        anybody's. (A wagon tile is no draw: its holder names it as a decision.)"""
        obs = _table(state)
        if obs.draw is not None and obs.draw.refill and obs.move is not None:
            return obs.move.seat
        return None


def _road(obs: StradaRomanaObservation, frame: ElementFrame) -> None:
    """Every square dark but where a wagon stands, and the arrival squares in order. The
    moving wagon is drawn last: passing over another, its leading LED stays its own."""
    b = obs.board
    for name in b.square_names:
        frame[f"{GAME}.square.{name}"] = [OFF, OFF]
    for k in range(b.arrivals):
        frame[f"{GAME}.arrival.{k + 1}"] = [OFF, OFF]
    move = obs.move
    mover = move.mover if move is not None else None
    for wagon in obs.wagons:
        where = _where(wagon)
        if where is not None and wagon.name != mover:
            frame[where] = _pair(WAGON[wagon.name], wagon.heading)
    if move is not None and move.mover is not None:
        _moving(obs.wagon(move.mover), move.over, frame)


def _moving(wagon: Wagon, under: str | None, frame: ElementFrame) -> None:
    """The moving wagon; passing over another (stacking), the other's colour trails."""
    lead = _pair(WAGON[wagon.name], wagon.heading)
    if under is not None:
        other = dim(WAGON[under], TRAIL)
        lead = [other, lead[1]] if wagon.heading == HEADINGS[TO_ROME] else [lead[0], other]
    frame[f"{GAME}.square.{wagon.square}"] = lead


def _goods(obs: StradaRomanaObservation, frame: ElementFrame) -> None:
    """The cube on each market and the ware tile on each area, in their colours."""
    for market in obs.markets:
        frame[f"{GAME}.market.{market.square}"] = CUBE[market.cube] if market.cube else OFF
    for area in obs.areas:
        frame[f"{GAME}.area.{area.name}"] = CUBE[area.ware] if area.ware else OFF


def _seats(obs: StradaRomanaObservation, ctx: ViewContext, frame: ElementFrame) -> None:
    """Each seat's coins and wagon tiles: how many while the game is on (that count is
    public), and once it is over whether each tile's wagon arrived (+3) or not (-1)."""
    b = obs.board
    arrived = set(obs.arrivals)
    revealed = obs.revealed if isinstance(obs, StradaRomanaEndObservation) and obs.over else None
    for player, holding in enumerate(obs.holdings):
        seat = f"seat.{ctx.seat_of(player)}"
        coins = holding.coins
        frame[f"{seat}.coins"] = [COIN] * coins + [OFF] * (b.coins_per_vp - 1 - coins)
        if revealed is not None:
            tiles = [ARRIVED_TILE if w in arrived else ROAD_TILE for w in revealed[player] if w]
        else:
            tiles = [ctx.colours[player]] * holding.wagon_tiles
        frame[f"{seat}.wagon_tiles"] = tiles + [OFF] * (b.max_wagon_tiles - len(tiles))


def _collectable(obs: StradaRomanaObservation, offered: list[list[str]]) -> ElementFrame:
    """The markets and areas a `collect` can take from stay lit; all others dim."""
    keep = {_goods_element(obs, kind, where) for _verb, kind, where in offered}
    goods = [(f"{GAME}.market.{m.square}", m.cube) for m in obs.markets]
    goods += [(f"{GAME}.area.{a.name}", a.ware) for a in obs.areas]
    return {
        element: CUBE[c] if element in keep else dim(CUBE[c], AWAY)
        for element, c in goods
        if c is not None
    }


def _goods_element(obs: StradaRomanaObservation, kind: str, where: str) -> str:
    """The market of `collect cube SQUARE`, or the area of `collect tile SIDE` beside the
    square where the wagon stopped."""
    if kind == "cube":
        return f"{GAME}.market.{where}"
    b = obs.board
    assert obs.move is not None and obs.move.stopped_at is not None
    bordering = b.areas_at[b.square_index[obs.move.stopped_at]]
    area = next(a for a in bordering if b.area_side[a] == where)
    return f"{GAME}.area.{b.area_names[area]}"


def _stepping(
    obs: StradaRomanaObservation, words: tuple[str, ...], under: list[list[str]]
) -> ElementFrame:
    """`step`: the wagons that can move, in white; with a wagon chosen, or only one
    that can move, where it can get."""
    wagons = list(dict.fromkeys(w[1] for w in under if len(w) == 3))
    if len(words) >= 2 or len(wagons) == 1:
        return _reach(obs, words[1] if len(words) >= 2 else wagons[0])
    return {f"{GAME}.square.{obs.wagon(w).square}": [WHITE, WHITE] for w in wagons}


def _reach(obs: StradaRomanaObservation, wagon: str) -> ElementFrame:
    """Squares `wagon` can reach with the steps left, as the engine's rules say (the
    must-move rule and every special move counted): bright for the next step, dim for
    later ones; the wagon itself in white."""
    colour = WAGON[wagon]
    arrival = f"arrival.{len(obs.arrivals) + 1}"
    frame: ElementFrame = {}
    for target, step in obs.reach(wagon).items():
        element = f"{GAME}.{arrival if target in HEADINGS else f'square.{target}'}"
        frame[element] = [colour, colour] if step == 1 else [dim(colour, LATER)] * 2
    square = obs.wagon(wagon).square
    if square is not None:
        frame[f"{GAME}.square.{square}"] = [WHITE, WHITE]
    return frame


def _drawn(obs: StradaRomanaObservation, kind: str, colour: str) -> str:
    """What a setup draw or a refill from the bag puts where."""
    b = obs.board
    draw = obs.draw
    assert draw is not None
    if draw.refill:
        if kind == "cube":
            return f"From the bag: a {colour} cube for the market at {draw.at}."
        return f"From the bag: a {colour} ware tile for area {draw.at}."
    if kind == "cube":
        return f"A {colour} cube goes on the market at {draw.at}."
    side = b.area_side[b.area_names.index(draw.at)]
    return f"The {colour} ware tile goes on area {draw.at} ({side})."


def _table(state: State) -> StradaRomanaObservation:
    """The public table: all this view ever reads of a game."""
    obs = state.observe()
    assert isinstance(obs, StradaRomanaObservation)
    return obs


VIEW = StradaRomanaView()
