"""Florence's board: the 3x3 grid of locations (queue, brag tile and markers, guards,
carriages and destination markers, pass rings), the roads' escorts, the round dial and
the score track.

Drawn from `FlorenceObservation`, which has no field for a scheme or a card in hand:
only how many cards each seat holds is shown. Element names are those of
apps/layouts/florence.toml (and apps/views/florence.py, which lights them).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from engine.core import counted
from engine.core.observation import Observation
from engine.florence import FlorenceObservation, Location

from ...views.base import Colour
from ...views.florence import AUTOMA_COLOURS, NOBLE_COLOURS, STACK, TRACK, _title
from ..svg import FAINT, INK, WIDTH, Canvas, hex_colour, text_colour

GAP = 10.0
"""Between locations: the roads, where escorts stand."""
CELL_W = (WIDTH - 8 - 2 * GAP) / 3
CELL_H = 124.0
SPACE = 15.0
RANKS = {1: "d", 2: "D", 3: "M"}
"""A family member's letter on its piece: debutant, Donna, Maestro."""
UNPLACED_VERBS = frozenset({"first", "pass"})
"""Verbs whose numbers name a seat or an option, not a location."""
FREE = "#fff"
COVERED = "#cfc8b8"


def _obs(obs: Observation) -> FlorenceObservation:
    assert isinstance(obs, FlorenceObservation)
    return obs


def other_seat(obs: Observation, seat: int) -> tuple[str, Colour]:
    """The solo automa, Palla Strozzi, in his Orange."""
    return "Strozzi (automa)", AUTOMA_COLOURS[1]


def _piece_colour(o: FlorenceObservation, colour: int, seat_colour: Sequence[Colour]) -> Colour:
    """A piece colour: its seat's, or the automa's Orange or Blue."""
    seat = o.colours[colour]
    if o.automa is not None and seat == o.automa:
        return AUTOMA_COLOURS.get(colour, seat_colour[seat])
    return seat_colour[seat]


def draw(obs: Observation, c: Canvas, colour: Sequence[Colour]) -> None:
    o = _obs(obs)
    t = o.tables
    top = c.y
    for i, location in enumerate(o.locations):
        row, col = divmod(i, t.columns)
        x = 4 + col * (CELL_W + GAP)
        y = top + row * (CELL_H + GAP)
        _location(o, i, location, x, y, c, colour)
    _roads(o, top, c, colour)
    c.y = top + 3 * CELL_H + 2 * GAP + 8
    _nobles(o, c)
    _dial(o, c)
    _score_track(o, c, colour)


def _cell_origin(o: FlorenceObservation, loc: int, top: float) -> tuple[float, float]:
    row, col = divmod(loc, o.tables.columns)
    return 4 + col * (CELL_W + GAP), top + row * (CELL_H + GAP)


class _Cell(NamedTuple):
    """A location's square on the board: where it is drawn, what it holds, the seats'
    colours (`name`: the prefix of its LED elements)."""

    o: FlorenceObservation
    location: Location
    name: str
    x: float
    y: float
    colour: Sequence[Colour]


def _location(
    o: FlorenceObservation,
    i: int,
    location: Location,
    x: float,
    y: float,
    c: Canvas,
    colour: Sequence[Colour],
) -> None:
    """One location: number and pass ring, brag tile and markers, queue, guards, Nobles."""
    name = f"florence.location.{location.name}"
    c.rect(x, y, CELL_W, CELL_H, "#fff", stroke=FAINT, rx=5)
    c.spot(location.name, x, y, CELL_W, CELL_H)
    c.text(x + 6, y + 16, location.name, 15, font_weight="bold")
    if location.ring is not None:
        c.circle(
            x + 28, y + 11, 5, "none", stroke=hex_colour(colour[location.ring]), stroke_width=3
        )
    c.place(f"{name}.ring", x + 22, y + 20, 12, 4)
    cell = _Cell(o, location, name, x, y, colour)
    _location_nobles(cell, i, c)
    _location_brags(cell, c)
    _location_queue(cell, c)
    _location_guards(cell, c)


def _location_nobles(cell: _Cell, i: int, c: Canvas) -> None:
    """The Nobles: carriage here (filled) or destination marker here (outlined)."""
    o, name, x, y = cell.o, cell.name, cell.x, cell.y
    for n, noble in enumerate(o.nobles):
        nx = x + 46 + n * 22
        fill = hex_colour(NOBLE_COLOURS[n])
        if noble.carriage == i:
            c.rect(nx, y + 3, 20, 14, fill, rx=3)
            c.text(nx + 10, y + 14, noble.name[:2].capitalize(), text_anchor="middle")
        elif noble.destination == i:
            c.rect(nx, y + 3, 20, 14, "none", stroke=fill, stroke_width=2, rx=3)
            c.text(nx + 10, y + 14, noble.name[:2].capitalize(), fill=FAINT, text_anchor="middle")
    c.place(f"{name}.carriage", x + 46, y + 18, 64, 3)
    c.place(f"{name}.destination", x + 46, y + 22, 64, 3)


def _location_brags(cell: _Cell, c: Canvas) -> None:
    """The brag tile and its three marker spots, bottom (lowest VP) first."""
    location, name, x, y, colour = cell.location, cell.name, cell.x, cell.y, cell.colour
    tile = location.tile
    c.text(
        x + 6, y + 38, _title(tile.name) if tile else "(no brag tile)", fill=INK if tile else FAINT
    )
    labels = tile.labels if tile else ("", "", "")
    w = (CELL_W - 12) / 3
    for k, seat in enumerate(location.brags):
        bx = x + 6 + k * w
        filled = seat >= 0
        c.rect(bx, y + 44, w - 3, 16, hex_colour(colour[seat]) if filled else "#f3efe6", rx=3)
        col = text_colour(colour[seat]) if filled else FAINT
        c.text(
            bx + (w - 3) / 2,
            y + 56,
            labels[k] if k < len(labels) else "",
            fill=col,
            text_anchor="middle",
        )
        c.place(f"{name}.brag.{k + 1}", bx, y + 61, w - 3, 3)


def _location_queue(cell: _Cell, c: Canvas) -> None:
    """The queue, Prime Position first; spaces beyond the capacity are covered."""
    o, location, name, x, y, colour = cell
    qy = y + 68
    for k in range(o.tables.spaces):
        sx = x + 5 + k * SPACE
        c.rect(
            sx,
            qy,
            SPACE - 1,
            SPACE + 2,
            FREE if k < location.capacity else COVERED,
            stroke=FAINT,
            stroke_width=0.5,
        )
        if k < len(location.queue):
            piece = location.queue[k]
            rgb = _piece_colour(o, piece.colour, colour)
            c.circle(
                sx + SPACE / 2 - 0.5, qy + 8, 6.5, hex_colour(rgb), stroke=INK, stroke_width=0.5
            )
            c.text(
                sx + SPACE / 2 - 0.5,
                qy + 12,
                RANKS.get(piece.rank, "?"),
                fill=text_colour(rgb),
                text_anchor="middle",
            )
        c.place(f"{name}.queue.{k + 1}", sx, qy + SPACE + 3, SPACE - 1, 4)


def _location_guards(cell: _Cell, c: Canvas) -> None:
    """The guards: Contessina's shield (spies) and Giovanni's (bouncers)."""
    o, location, name, x, y, colour = cell
    for j, (word, guards) in enumerate((("spy", location.spies), ("bouncer", location.bouncers))):
        gx = x + 6 + j * (CELL_W / 2)
        c.text(gx, y + 104, word, fill=FAINT)
        for g, guard in enumerate(guards):
            rgb = _piece_colour(o, guard, colour)
            c.circle(gx + 16 + g * 9, y + 116, 3.6, hex_colour(rgb), stroke=INK, stroke_width=0.5)
        c.place(f"{name}.{word}", gx, y + 106, 5.0 * STACK, 4)


def _roads(o: FlorenceObservation, top: float, c: Canvas, colour: Sequence[Colour]) -> None:
    """Each road between two locations, with its escorts (guards on Cosimo's shield)."""
    t = o.tables
    for road, (a, b) in zip(o.roads, t.roads, strict=True):
        ax, ay = _cell_origin(o, a, top)
        _, by = _cell_origin(o, b, top)
        if ay == by:  # side by side: the gap between them, halfway down
            x, y, w, h = ax + CELL_W, ay + CELL_H / 2 - 14, GAP, 28.0
        else:  # one above the other
            x, y, w, h = ax + CELL_W / 2 - 14, ay + CELL_H, 28.0, GAP
        c.rect(x, y, w, h, "#e6dcc6")
        c.spot(road.name, x, y, w, h)
        for g, guard in enumerate(road.escorts):
            fill = hex_colour(_piece_colour(o, guard, colour))
            gx, gy = (x + w / 2, y + 5 + g * 8) if w < h else (x + 5 + g * 8, y + h / 2)
            c.circle(gx, gy, 3.5, fill, stroke=INK, stroke_width=0.5)
        c.place(f"florence.road.{road.name}.escort", x + 1, y + 1, min(w, h) - 2, min(w, h) - 2)


def _nobles(o: FlorenceObservation, c: Canvas) -> None:
    """Where each Noble is and is heading, in words, and which one moves this round."""
    names = o.tables.loc_names
    for n, noble in enumerate(o.nobles):
        c.y += 19
        at = names[noble.carriage] if noble.carriage >= 0 else "-"
        to = names[noble.destination] if noble.destination >= 0 else "-"
        moving = " (moves this round)" if n == o.active_noble else ""
        c.rect(8, c.y - 9, 10, 10, hex_colour(NOBLE_COLOURS[n]), rx=2)
        cards = counted(noble.deck_left, "card")
        c.text(24, c.y, f"{noble.name.capitalize()}: at {at}, heading to {to}, {cards}{moving}")
        c.spot(noble.name, 5, c.y - 12, WIDTH - 10, 15)
    c.y += 15
    c.text(8, c.y, "d debutant, D donna, M maestro; grey spaces: covered", fill=FAINT)
    c.y += 10


def _dial(o: FlorenceObservation, c: Canvas) -> None:
    """The round dial: each round's Noble, time token and location token."""
    t = o.tables
    top = c.y
    c.text(8, top + 12, "Round dial (time token, location token)", font_weight="bold")
    w = (WIDTH - 8) / t.rounds
    for r in range(1, t.rounds + 1):
        x = 4 + (r - 1) * w
        noble = NOBLE_COLOURS[t.active_noble(r)]
        now = r == o.round
        c.rect(
            x,
            top + 18,
            w - 2,
            48,
            hex_colour(noble),
            fill_opacity=0.3 if now else 0.12,
            rx=3,
            stroke=INK if now else "none",
            stroke_width=2,
        )
        c.text(
            x + (w - 2) / 2,
            top + 31,
            f"R{r}",
            font_weight="bold" if now else None,
            text_anchor="middle",
        )
        time = o.dial_time[r - 1] if r - 1 < len(o.dial_time) else 0
        loc = o.dial_locations[r - 1] if r - 1 < len(o.dial_locations) else -1
        c.text(x + (w - 2) / 2, top + 45, f"t{time}" if time else "t?", text_anchor="middle")
        c.text(
            x + (w - 2) / 2,
            top + 59,
            f"@{t.loc_names[loc]}" if loc >= 0 else "@?",
            text_anchor="middle",
        )
        c.place(f"florence.round.{r}", x + 2, top + 62, w - 6, 3)
    c.y = top + 72


def _score_track(o: FlorenceObservation, c: Canvas, colour: Sequence[Colour]) -> None:
    """The score track 0-99 around the board's edge, drawn as one line."""
    top = c.y
    c.text(8, top + 12, "Score track", font_weight="bold")
    w = (WIDTH - 10) / TRACK
    c.rect(5, top + 18, w * TRACK, 10, "#fff", stroke=FAINT, stroke_width=0.5)
    for space in range(0, TRACK, 10):
        c.line(5 + space * w, top + 18, 5 + space * w, top + 31, FAINT)
        c.text(5 + space * w, top + 42, str(space), text_anchor="start")
    for space in range(TRACK):
        c.place(f"florence.score.{space}", 5 + space * w, top + 18, w, 10)
    for seat, board in enumerate(o.boards):
        x = 5 + (board.vp % TRACK) * w + w / 2
        c.polygon(
            [(x, top + 17), (x - 3, top + 12), (x + 3, top + 12)],
            hex_colour(colour[seat]),
            stroke=INK,
            stroke_width=0.5,
        )
    c.y = top + 48


def holdings(obs: Observation, seat: int) -> str:
    """VP, time, gifts, guards and brag markers left, how many scandal cards (never
    which), passed, the 1st player marker."""
    o = _obs(obs)
    b = o.boards[seat]
    words = [f"{b.vp} VP", f"time {b.time}", f"{b.gifts_left} gifts", f"{b.guards_left} guards"]
    words.append(f"{b.markers_left} brag markers")
    words.append(counted(b.hand_size, "scandal card"))
    if o.first == seat:
        words.append("1st player")
    if b.passed:
        words.append("passed")
    return ", ".join(words) + "."
