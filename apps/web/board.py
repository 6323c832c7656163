"""Each game's board as SVG, drawn from the public read model (`State.observe()`) and the
LED colours the table shows now, for the phone page.

Only public information reaches the drawing: it takes an `Observation` for the whole
table (`observe(None)`), never a State, so a secret has no way in.

One drawing for every game: the game's board drawing (its `board`, registered in
apps/games/<game>.py; the shipped games' are in `apps.web.boards`) draws the board itself
and says where each LED element of its layout is; this module adds what every game
shares: the prompt, the last action (in words, and its squares or ports outlined), the
seats with their public holdings and whose turn it is, and the table's LED colours from
`frame` on the elements they light, so a preview lit while a seat chooses shows on the
phone as it does on the board.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from engine.core.observation import Observation

from ..games import table_game
from ..views.base import OFF, Colour, ElementFrame
from .svg import FAINT, FONT, INK, PAPER, WIDTH, Box, Canvas, hex_colour, wrap

LAST = "#e08a00"
"""The outline of what the last action touched (no seat colour is this orange)."""
LED = 7.0
"""Side of an LED drawn in a seat's row."""
ROW = 3 * FONT + 12


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """A seat as the page draws it: its player index, name and colour.

    `seat` is the table's seat label the LEDs are named by (`seat.<seat>.status`);
    empty: the player's number, as the table names seats by default."""

    player: int
    name: str
    colour: Colour
    colour_name: str
    seat: str = ""

    @property
    def label(self) -> str:
        return self.seat or str(self.player + 1)


class GameBoard(Protocol):
    """What a game's board drawing provides (a module of `apps.web.boards`)."""

    def draw(self, obs: Observation, c: Canvas, colour: Sequence[Colour]) -> None:
        """The board from `c.y` down; `colour[seat]` is each seat's colour (the
        automa's included)."""

    def holdings(self, obs: Observation, seat: int) -> str:
        """A seat's public holdings in words."""


def _board(game: str) -> GameBoard:
    """The drawing of `game`, from its table registration (apps.games)."""
    try:
        return table_game(game).board
    except KeyError:
        raise KeyError(f"no board drawing for {game!r} yet") from None


def _seat_list(
    obs: Observation, seats: Sequence[SeatInfo], board: GameBoard
) -> list[tuple[str, Colour, str | None]]:
    """(name, colour, LED label) of every seat at the board; a seat the table does not
    seat (a solo automa) comes from the game's drawing."""
    out: list[tuple[str, Colour, str | None]] = [(s.name, s.colour, s.label) for s in seats]
    for seat in range(len(out), obs.seats):
        other = getattr(board, "other_seat", None)
        name, colour = other(obs, seat) if other else (f"Seat {seat + 1}", (128, 128, 128))
        out.append((name, colour, None))
    return out


def board_svg(
    obs: Observation,
    frame: ElementFrame,
    seats: Sequence[SeatInfo],
    last: str | None = None,
) -> str:
    """The board of `obs.game` as one `<svg>` element; `frame` holds the LED colours now
    (a preview lit while a seat chooses shows on the drawing), `last` the last action's
    public text, highlighted."""
    board = _board(obs.game)
    listed = _seat_list(obs, seats, board)
    c = Canvas()
    c.y = 4.0
    _caption(c, obs, last)
    board.draw(obs, c, [colour for _, colour, _ in listed])
    _seats(c, obs, board, listed, frame)
    _lights(c, frame)
    if last and last.split()[0] not in getattr(board, "UNPLACED_VERBS", ()):
        _outline_last(c, last)
    height = int(c.y + 6)
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
        f'class="board board-{obs.game}" role="img" font-family="sans-serif" '
        f'font-size="{FONT}" fill="{INK}" '
        f'aria-label="{obs.game.replace("_", " ")} board">'
        f'<rect width="{WIDTH}" height="{height}" fill="{PAPER}"/>'
    )
    return head + "".join(c.parts) + "</svg>"


def _caption(c: Canvas, obs: Observation, last: str | None) -> None:
    """The prompt in words, then the last action on an orange band."""
    for line in wrap(obs.prompt, WIDTH - 16, 13):
        c.y += 16
        c.text(8, c.y, line, 13, font_weight="bold")
    if last:
        lines = wrap(f"Last: {last}", WIDTH - 24)
        c.rect(4, c.y + 5, WIDTH - 8, 15 * len(lines) + 6, LAST, rx=4, fill_opacity=0.25)
        for line in lines:
            c.y += 15
            c.text(12, c.y + 4, line, class_="last")
        c.y += 10
    c.y += 8


def _seats(
    c: Canvas,
    obs: Observation,
    board: GameBoard,
    listed: list[tuple[str, Colour, str | None]],
    frame: ElementFrame,
) -> None:
    """One row per seat: colour, name, public holdings, its table LEDs; the seat whose
    turn it is ringed in its colour."""
    c.y += 6
    turn = obs.current if obs.current is not None and 0 <= obs.current < obs.seats else None
    for seat, (name, colour, label) in enumerate(listed):
        lines = wrap(board.holdings(obs, seat), WIDTH - 40)
        leds = _seat_leds(frame, label)
        height = 8 + 15 * (1 + len(lines)) + (14 if leds else 0)
        top = c.y
        _seat_box(c, seat, name, colour, top, height, to_play=seat == turn)
        for k, line in enumerate(lines):
            c.text(28, top + 31 + 15 * k, line)
        if label is not None:
            _seat_lights(c, frame, label, leds, top, height)
        c.y += height + 4


def _seat_leds(frame: ElementFrame, label: str | None) -> list[str]:
    """The seat's elements along the foot of its row (its status LED sits in the corner)."""
    return [
        k
        for k in frame
        if label is not None and k.startswith(f"seat.{label}.") and k != f"seat.{label}.status"
    ]


def _seat_box(
    c: Canvas, seat: int, name: str, colour: Colour, top: float, height: float, *, to_play: bool
) -> None:
    """The row's frame, colour dot and name; the seat to play ringed in its colour."""
    fill = hex_colour(colour)
    ring = {"stroke": fill, "stroke_width": 3} if to_play else {"stroke": FAINT}
    c.rect(4, top, WIDTH - 8, height, "#fff", rx=5, **ring, class_=f"seat seat-{seat}")
    if to_play:  # a thin dark line inside: a pale seat colour still shows
        c.rect(7, top + 3, WIDTH - 14, height - 6, "none", rx=3, stroke=INK, stroke_width=0.6)
    c.circle(16, top + 12, 6, fill, stroke=INK, stroke_width=0.5)
    who = f"{name} - to play" if to_play else name
    c.text(28, top + 16, who, 13, font_weight="bold" if to_play else None)


def _seat_lights(
    c: Canvas, frame: ElementFrame, label: str, leds: list[str], top: float, height: float
) -> None:
    """Where the seat's LEDs are drawn: the status LED in the corner, the others named
    side by side along the foot of the row."""
    c.place(f"seat.{label}.status", WIDTH - 20, top + 6, LED, LED)
    x = 28.0
    for key in leds:
        word = key.rsplit(".", 1)[1].replace("_", " ")
        value = frame[key]
        n = len(value) if isinstance(value, list) else 1
        c.text(x, top + height - 5, word, fill=FAINT)
        x += 6.4 * len(word) + 4
        c.place(key, x, top + height - 12, LED * n, LED)
        x += LED * n + 10


def _lights(c: Canvas, frame: ElementFrame) -> None:
    """The LED colours the table shows now, on the elements they light: one square per
    LED, dark LEDs left out (the drawing beneath shows through)."""
    for element, value in frame.items():
        box = c.places.get(element)
        if box is None:
            continue
        colours = value if isinstance(value, list) else [value]
        lit = [(i, col) for i, col in enumerate(colours) if col != OFF]
        if not lit:
            continue
        c.open(data_el=element, stroke="#333", stroke_width=0.5)
        _leds(c, box, len(colours), lit)
        c.close()


def _leds(c: Canvas, box: Box, n: int, lit: list[tuple[int, Colour]]) -> None:
    """LEDs side by side along the longer side of `box`."""
    across = box.w >= box.h
    step = (box.w if across else box.h) / n
    for i, colour in lit:
        if across:
            c.rect(box.x + i * step, box.y, step, box.h, hex_colour(colour))
        else:
            c.rect(box.x, box.y + i * step, box.w, step, hex_colour(colour))


def _outline_last(c: Canvas, last: str) -> None:
    """Outline every spot a word of the last action names (the square a wagon reached,
    the port a ship went to)."""
    for word in dict.fromkeys(last.split()):
        for box in c.spots.get(word, ()):
            c.rect(
                box.x - 2,
                box.y - 2,
                box.w + 4,
                box.h + 4,
                "none",
                stroke=LAST,
                stroke_width=3,
                rx=4,
                class_="last",
            )
