"""Strada Romana's board: the road with its square ids, the wagons with their heading,
the markets with their cubes, the areas with their ware tiles, the arrival squares.

The board is long and low; a phone is narrow and tall, so the drawing turns it a
quarter clockwise: Portus at the top, Roma at the bottom, the board's top side on
the right and its bottom side on the left (turn the phone a quarter to the left to
see the board as it lies). Drawn from `StradaRomanaObservation`, which counts each
seat's wagon tiles and names none until the end's reveal. Element names are those of
apps/layouts/strada_romana.toml (and apps/views/strada_romana.py, which lights them).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import counted
from engine.core.observation import Observation
from engine.strada_romana import (
    SpecialMove,
    StradaRomanaEndObservation,
    StradaRomanaObservation,
    Wagon,
)
from engine.strada_romana.board import BUYABLE, TO_PORTUS, TO_ROME

from ...views.base import Colour
from ...views.strada_romana import CUBE, GAME, WAGON
from ..svg import FAINT, INK, WIDTH, Canvas, hex_colour, text_colour

SIDE_W = 58.0
"""Width of the area strips either side of the road."""
ROAD_X = 4 + SIDE_W + 4
ROAD_W = WIDTH - 2 * ROAD_X
ROW = 34.0
UNPLACED_VERBS = frozenset({"start", "remove"})
"""Verbs whose words name a seat or a tile, not a square."""


def _obs(obs: Observation) -> StradaRomanaObservation:
    assert isinstance(obs, StradaRomanaObservation)
    return obs


def draw(obs: Observation, c: Canvas, colour: Sequence[Colour]) -> None:
    o = _obs(obs)
    b = o.board
    c.text(WIDTH / 2, c.y + 12, "Portus", 13, font_weight="bold", text_anchor="middle")
    c.y += 18
    rows: list[tuple[int, ...]] = [b.start[TO_ROME], *b.columns, b.start[TO_PORTUS]]
    top = c.y
    part_rows = _road(o, rows, top, c)
    _areas(o, part_rows, top, c)
    c.y = top + len(rows) * ROW
    c.text(WIDTH / 2, c.y + 12, "Roma", 13, font_weight="bold", text_anchor="middle")
    c.y += 20
    _arrivals(o, c)
    _turn(o, c, colour)


def _road(
    o: StradaRomanaObservation, rows: list[tuple[int, ...]], top: float, c: Canvas
) -> dict[int, list[int]]:
    """The squares row by row from Portus to Rome, with their wagons and market cubes;
    returns the rows of each part of the road, for the areas beside it."""
    b = o.board
    wagons_at = {w.square: w for w in o.wagons if w.square is not None}
    mover = o.move.mover if o.move is not None else None
    market = {m.square: m.cube for m in o.markets}
    part_rows: dict[int, list[int]] = {}
    for r, squares in enumerate(rows):
        y = top + r * ROW
        lanes = len(squares)
        start = r in (0, len(rows) - 1)  # no areas beside the start squares: full width
        span, x0 = (WIDTH - 8, 4.0) if start else (ROAD_W, ROAD_X)
        width = span / max(lanes, 2)
        left = x0 + (span - width * lanes) / 2
        for k, sq in enumerate(squares):
            # top of the column on the right: the board turned a quarter clockwise
            x = left + (lanes - 1 - k) * width
            name = b.square_names[sq]
            _square(c, name, x, y, width - 4, ROW - 4, wagons_at.get(name), mover, market)
        if not start:
            part_rows.setdefault(b.part[squares[0]], []).append(r)
    return part_rows


def _areas(
    o: StradaRomanaObservation, part_rows: dict[int, list[int]], top: float, c: Canvas
) -> None:
    """Each area beside the rows of its part of the road, with its ware tile."""
    b = o.board
    for area, part, side in zip(b.area_names, b.area_part, b.area_side, strict=True):
        beside = part_rows.get(part, [1])
        y0, y1 = top + beside[0] * ROW, top + (beside[-1] + 1) * ROW - 4
        x = WIDTH - 4 - SIDE_W if side == "top" else 4.0
        ware = next((a.ware for a in o.areas if a.name == area), None)
        _area(c, area, side, ware, x, y0, y1 - y0)


def _short(name: str, width: float) -> str:
    """A wagon's name, or its first four letters where the square is narrow."""
    return name.capitalize() if len(name) * 6.6 + 18 < width else name[:4].capitalize()


def _square(
    c: Canvas,
    name: str,
    x: float,
    y: float,
    w: float,
    h: float,
    wagon: Wagon | None,
    mover: str | None,
    market: dict[str, str | None],
) -> None:
    """A square: its id, the wagon on it pointing where it heads, its market's cube."""
    c.rect(x, y, w, h, "#fff", stroke=FAINT, stroke_width=0.7, rx=3)
    c.text(x + 11, y + 12, name, fill=FAINT)
    c.spot(name, x, y, w, h)
    # two LEDs along the road, the Portus side's (here the top) first
    c.place(f"{GAME}.square.{name}", x + 1, y + 1, 7, h - 2)
    if name in market:
        cube = market[name]
        fill = hex_colour(CUBE[cube]) if cube else "none"
        c.rect(x + w - 12, y + 3, 9, 9, fill, stroke=INK if cube else FAINT, stroke_width=0.5)
        c.place(f"{GAME}.market.{name}", x + w - 12, y + 14, 9, 3)
    if wagon is not None:
        _wagon(c, wagon, x + 10, y + 14, w - 13, h - 16, wagon.name == mover)


def _wagon(c: Canvas, wagon: Wagon, x: float, y: float, w: float, h: float, moving: bool) -> None:
    """A wagon in its colour, with a triangle pointing where it heads (down: Rome)."""
    fill = WAGON.get(wagon.name, (128, 128, 128))
    ring = {"stroke": INK, "stroke_width": 2} if moving else {}
    c.rect(x, y, w, h, hex_colour(fill), rx=3, **ring, class_="wagon")
    c.spot(wagon.name, x, y, w, h)
    tx = x + w - 8
    if wagon.heading == "rome":
        tri = [(tx - 4, y + 2), (tx + 4, y + 2), (tx, y + h - 2)]
    else:
        tri = [(tx - 4, y + h - 2), (tx + 4, y + h - 2), (tx, y + 2)]
    c.polygon(tri, text_colour(fill))
    c.text(x + 3, y + h - 3, _short(wagon.name, w), fill=text_colour(fill))


def _area(c: Canvas, area: str, side: str, ware: str | None, x: float, y: float, h: float) -> None:
    """An area beside the road and its ware tile."""
    c.rect(x, y, SIDE_W, h, "#e9e0cc", stroke=FAINT, stroke_width=0.7, rx=4)
    c.text(x + SIDE_W / 2, y + 16, area, 13, font_weight="bold", text_anchor="middle")
    c.text(x + SIDE_W / 2, y + 30, side, fill=FAINT, text_anchor="middle")
    c.spot(area, x, y, SIDE_W, h)
    if ware:
        fill = CUBE.get(ware, (128, 128, 128))
        c.rect(x + 8, y + 38, SIDE_W - 16, 22, hex_colour(fill), stroke=INK, stroke_width=0.5, rx=3)
        c.text(x + SIDE_W / 2, y + 53, ware, fill=text_colour(fill), text_anchor="middle")
    else:
        c.text(x + SIDE_W / 2, y + 53, "no tile", fill=FAINT, text_anchor="middle")
    c.place(f"{GAME}.area.{area}", x + 8, y + 64, SIDE_W - 16, 4)


def _arrivals(o: StradaRomanaObservation, c: Canvas) -> None:
    """The arrival squares 1-4 and the wagons on them, in their order of arrival."""
    top = c.y
    c.text(8, top + 12, "Arrival squares", font_weight="bold")
    n = o.board.arrivals
    w = (WIDTH - 8) / n
    by_place = {w.arrived: w for w in o.wagons if w.arrived}
    for k in range(1, n + 1):
        x = 4 + (k - 1) * w
        c.rect(x, top + 18, w - 4, 36, "#fff", stroke=FAINT, rx=3)
        c.text(x + 6, top + 30, str(k), font_weight="bold")
        c.spot(f"arrival.{k}", x, top + 18, w - 4, 36)
        wagon = by_place.get(k)
        if wagon is not None:
            _wagon(c, wagon, x + 18, top + 22, w - 26, 26, False)
        c.place(f"{GAME}.arrival.{k}", x + 1, top + 20, 4, 32)
    c.y = top + 60


def _turn(o: StradaRomanaObservation, c: Canvas, colour: Sequence[Colour]) -> None:
    """The turn in progress: the special move bought and the steps taken."""
    top = c.y
    move = o.move
    if move is None:
        words = "No turn of moving the wagons in progress."
    else:
        special = move.special.word if move.special else "none"
        words = f"Special move: {special}. Steps: {move.steps} of {move.allowance}."
    c.text(8, top + 12, words)
    # the board's special moves summary: one light under each move, cheapest first
    w = (WIDTH - 16) / len(BUYABLE)
    for k, m in enumerate(BUYABLE):
        c.text(8 + k * w, top + 28, m.word, fill=FAINT)
    c.place(f"{GAME}.special", 8, top + 32, w * len(BUYABLE), 6)
    c.text(8, top + 54, "steps", fill=FAINT)
    c.place(f"{GAME}.steps", 44, top + 46, 16.0 * _step_lights(o), 8)
    c.y = top + 62


def _step_lights(o: StradaRomanaObservation) -> int:
    """Lights of the steps bar: the longest turn's allowance."""
    return o.board.allowance(max(SpecialMove))


def holdings(obs: Observation, seat: int) -> str:
    """Coins, victory points, cubes and ware tiles by colour, and wagon tiles: how many
    while the game is on; which, once they are revealed at the end."""
    o = _obs(obs)
    h = o.holdings[seat]
    colours = o.board.colours
    cubes = ", ".join(f"{n} {col}" for col, n in zip(colours, h.cubes, strict=True) if n)
    tiles = ", ".join(f"{n} {col}" for col, n in zip(colours, h.ware_tiles, strict=True) if n)
    words = [f"{counted(h.coins, 'coin')}, {h.victory_points} VP"]
    words.append(f"cubes: {cubes or 'none'}")
    words.append(f"ware tiles: {tiles or 'none'}")
    words.append(_wagon_tiles(o, seat))
    return "; ".join(words) + "."


def _wagon_tiles(o: StradaRomanaObservation, seat: int) -> str:
    """How many wagon tiles a seat holds while the game is on; which, once revealed."""
    if isinstance(o, StradaRomanaEndObservation):
        named = [w.capitalize() if w else "not yet named" for w in o.revealed[seat]]
        return f"wagon tiles: {', '.join(named) or 'none'}"
    return f"{counted(o.holdings[seat].wagon_tiles, 'wagon tile')}, face down"
