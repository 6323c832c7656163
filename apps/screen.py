"""The virtual table of `tavola sim` as a person reads it, in a terminal of any size.

One screen, redrawn whole from the table's status (`TableApp.status()`,
apps/table/status.py): the headline (the game, the round, whose turn with the colour's
name), what the table asks now in a sentence with the line the buttons act on (a menu
with its cursor, the bot's move to carry out, or that any button goes on), the board
drawn as a board (each game's sheet below, in the LED colours the table shows now), the
log of the table's sentences that scrolls back, and the keys. While the table is being
set up the log gives way to the setup checklist, numbered, paged with `[` and `]`.

It fills the terminal: as wide and as high as the tty says (80x24 at least), drawn again
when the terminal is resized. Sentences are wrapped between words, never cut; only a
board sheet wider than the terminal is.

What it cannot show: the LED pipeline's brightness, gamma and current limit (the colours
are the element frame's, before the pipeline) and the physical spacing of the strips.
"""

from __future__ import annotations

import os
import re
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.core import counted
from engine.strada_romana.board import BUYABLE, HEADINGS, TO_PORTUS, TO_ROME

from .games import table_games
from .table.status import ANY, MenuStatus, Status
from .views.base import OFF, Colour, ElementFrame

if TYPE_CHECKING:
    from engine.strada_romana import StradaRomanaObservation
    from engine.strada_romana.observation import Holding

    from .table import TableApp

WIDTH, HEIGHT = 80, 24  # the smallest screen drawn, and its size when no tty tells one
DOT, DARK = "\u25cf", "\u00b7"
RESET = "\x1b[0m"
_ESCAPE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")

Sheet = Callable[[ElementFrame, "TableApp"], list[str]]


def tint(colour: Colour, text: str) -> str:
    """`text` in an LED's colour; grey while that LED is dark."""
    if colour == OFF:
        return f"\x1b[90m{text}{RESET}"
    r, g, b = colour
    return f"\x1b[38;2;{r};{g};{b}m{text}{RESET}"


def paint(colour: Colour, text: str = DOT) -> str:
    """`text` in an LED's colour; a dark LED is a grey dot."""
    return tint(OFF, DARK) if colour == OFF else tint(colour, text)


def leds(frame: ElementFrame, name: str, count: int = 1) -> list[Colour]:
    """An element's LED colours (one colour for the element repeats `count` times)."""
    value = frame.get(name, OFF)
    if isinstance(value, list):
        return value
    return [value] * count


def dots(frame: ElementFrame, name: str, count: int = 1) -> str:
    return "".join(paint(c) for c in leds(frame, name, count))


def visible(line: str) -> int:
    """Columns a line takes on screen (colour escapes take none)."""
    return len(_ESCAPE.sub("", line))


def fit(line: str, width: int = WIDTH) -> str:
    """Cut a line to `width` columns, keeping its colour escapes whole."""
    out, used, i = [], 0, 0
    while i < len(line) and used < width:
        m = _ESCAPE.match(line, i)
        if m:
            out.append(m.group())
            i = m.end()
            continue
        out.append(line[i])
        used += 1
        i += 1
    return "".join(out) + RESET


# --- the boards ---------------------------------------------------------------------
def strozzi_sheet(frame: ElementFrame, app: TableApp) -> list[str]:
    """Four city tracks with their space numbers (a space shows its markers, left to
    right; more than three: two and +N), the three ports with their ships fastest first,
    the face-up progress tokens, the ship in play with its sails, and each seat's flags."""
    from engine.strozzi import StrozziObservation

    state = app.state
    obs = state.observe() if state is not None else None
    cities: tuple[str, ...] = ("venice", "rome", "naples", "florence")
    last = 15
    if isinstance(obs, StrozziObservation):
        cities, last = obs.rules.cities, obs.rules.last_space
    lines = ["space    " + "".join(f"{s:<4}" for s in range(last + 1))]
    for city in cities:
        cells = []
        for space in range(last + 1):
            lit = [c for c in leds(frame, f"strozzi.track.{city}.{space}", 6) if c != OFF]
            if not lit:
                cell = paint(OFF) + "   "
            elif len(lit) <= 3:
                cell = "".join(paint(c) for c in lit) + " " * (4 - len(lit))
            else:
                cell = "".join(paint(c) for c in lit[:2]) + f"+{len(lit) - 2}"
            cells.append(cell)
        lines.append(f"{city.capitalize():<9}" + "".join(cells))
    ports: tuple[str, ...] = ("venice", "rome", "naples")
    if isinstance(obs, StrozziObservation):
        ports = obs.rules.ports
    lines.append(
        "ports    "
        + "  ".join(
            f"{p.capitalize()} "
            + "".join(dots(frame, f"strozzi.port.{p}.{k}") for k in range(1, 7))
            for p in ports
        )
    )
    tokens = "tokens   " + " ".join(dots(frame, f"strozzi.token.{i}") for i in (1, 2, 3))
    if isinstance(obs, StrozziObservation):
        tokens += "  " + ", ".join(f"{t.category} {t.value}" for t in obs.face_up)
    ship = "no ship in play"
    if isinstance(obs, StrozziObservation) and obs.ship is not None:
        ship = obs.rules.words(obs.ship)
    lines.append(tokens)
    lines.append(f"in play  {ship} " + dots(frame, "strozzi.ship.sails", 9))
    lines.append(
        "flags    "
        + "  ".join(
            f"{seat} {dots(frame, f'seat.{seat}.status')} {dots(frame, f'seat.{seat}.flags', 3)}"
            for seat in shown_seats(app)
        )
        + "  (pirate, +1, goods)"
    )
    return lines


def florence_sheet(frame: ElementFrame, app: TableApp) -> list[str]:
    """The 3x3 grid of locations: name, carriages and destination markers; the queue
    (a space's family member by its rank, 1 debutant to 3 maestro, in its colour);
    ring, brag tiles' spots, spy and bouncer shields (x: a space to cover with a queue
    blocker, o: an empty Prime Position). Then the roads' Escorts, the round
    dial and each seat's status, 1st player marker, time and score."""
    from engine.florence import FlorenceObservation

    from .views.florence import _title

    state = app.state
    obs = state.observe() if state is not None else None
    names: dict[str, str] = {}
    if isinstance(obs, FlorenceObservation):
        names = {
            loc.name: _title(loc.tile.name) if loc.tile is not None else "" for loc in obs.locations
        }
    lines: list[str] = []
    for row in range(3):
        parts: list[list[str]] = [[], [], []]
        for col in range(3):
            n = str(row * 3 + col + 1)
            at = f"florence.location.{n}"
            tile = names.get(n, "")[:15]
            parts[0].append(
                pad(
                    f"{n} {tile:<15} {dots(frame, f'{at}.carriage', 3)}"
                    f" {dots(frame, f'{at}.destination', 3)}",
                    26,
                )
            )
            queue = []
            for k in range(1, 8):
                lit = [c for c in leds(frame, f"{at}.queue.{k}", 3) if c != OFF]
                if lit and lit[0] in QUEUE_MARKS:  # a blocker to lay, an empty Prime Position
                    queue.append(paint(lit[0], QUEUE_MARKS[lit[0]]))
                else:
                    queue.append(paint(lit[0], str(len(lit))) if lit else paint(OFF))
            parts[1].append(pad(" queue " + " ".join(queue), 26))
            brags = "".join(dots(frame, f"{at}.brag.{k}") for k in (1, 2, 3))
            parts[2].append(
                pad(
                    f" ring{dots(frame, f'{at}.ring')} brag{brags} spy"
                    f"{dots(frame, f'{at}.spy', 2)} bnc"
                    f"{dots(frame, f'{at}.bouncer', 2)}",
                    26,
                )
            )
        lines += [" ".join(p) for p in parts]
    roads = ("1-2", "2-3", "4-5", "5-6", "7-8", "8-9", "1-4", "4-7", "2-5", "5-8", "3-6", "6-9")
    lines.append(
        "escorts " + " ".join(f"{r}{dots(frame, f'florence.road.{r}.escort', 2)}" for r in roads)
    )
    rnd = "".join(dots(frame, f"florence.round.{k}") for k in range(1, 10))
    scores = obs.scores if obs is not None else None
    seats = []
    for player, seat in enumerate(app.players):
        time = sum(1 for c in leds(frame, f"seat.{seat}.time", 12) if c != OFF)
        vp = f" {scores[player]}vp" if scores is not None and player < len(scores) else ""
        first = "1st " if leds(frame, f"seat.{seat}.first")[0] != OFF else ""
        seats.append(f"{seat} {dots(frame, f'seat.{seat}.status')} {first}t{time}{vp}")
    lines.append(f"dial {rnd}  " + "  ".join(seats))
    return lines


CELL = 5  # screen columns per road column: a square id, its market's cube, a space


def strada_sheet(frame: ElementFrame, app: TableApp) -> list[str]:
    """The road as the board lays it out, Portus on the left and Rome on the right (see
    `StradaDrawing`), then each seat's coins, VP and how many wagon tiles it holds (which
    wagons they name is secret), and what the letters mean. All from the public table."""
    from .views.strada_romana import _table

    state = app.state
    if state is None:
        return []
    obs = _table(state)
    drawing = StradaDrawing(frame, obs)
    return [*drawing.road(), seat_holdings(frame, app, obs.holdings), drawing.legend()]


class StradaDrawing:
    """Strada Romana's board in text: each column of squares (top, middle, bottom) with the
    ids players type, a market's cube as its colour's letter beside its square, and under
    each id what stands there: a wagon by its short name with its heading (`ba>` to Roma,
    `<ba` to Portus) in the colour its LEDs have now, or the square's two LEDs, so a
    wagon's reach lights on the drawn road while the wagon is chosen. Above and below the
    road, each part's areas with their ware tiles; under it the start squares, the
    arrival squares 1-4 and the turn's special move and steps."""

    def __init__(self, frame: ElementFrame, obs: StradaRomanaObservation) -> None:
        self.frame, self.obs, self.board = frame, obs, obs.board
        self.wagons = short_names(self.board.wagons, 2)
        self.cubes = short_names(self.board.colours, 1)
        self.at: dict[str, list[str]] = {}  # square -> its wagons, one moving over another first
        mover = obs.move.mover if obs.move is not None else None
        for wagon in sorted(obs.wagons, key=lambda w: w.name != mover):
            if wagon.square is not None:
                self.at.setdefault(wagon.square, []).append(wagon.name)
        self.heading = {w.name: w.heading for w in obs.wagons}

    def standing(self, element: str, wagons: Sequence[str]) -> str:
        """A square: its wagon (`+`: another under it) in its LEDs' brighter colour, or the
        two LEDs as dots when no wagon stands there."""
        lit = leds(self.frame, element, 2)
        if not wagons:
            return "".join(paint(c) for c in lit)
        code = self.wagons[wagons[0]]
        text = f"{code}>" if self.heading[wagons[0]] == HEADINGS[TO_ROME] else f"<{code}"
        return tint(max(lit, key=sum), text) + "+" * (len(wagons) > 1)

    def square(self, sq: int) -> str:
        name = self.board.square_names[sq]
        return self.standing(_strada("square", name), self.at.get(name, []))

    def market(self, sq: int) -> str:
        """The letter of the cube on the market beside `sq` ('·': empty; ' ': no market)."""
        k = self.board.market_at[sq]
        if k < 0:
            return " "
        cube = self.obs.markets[k].cube
        colour = leds(self.frame, _strada("market", self.board.square_names[sq]))[0]
        return tint(colour, self.cubes[cube]) if cube else paint(OFF)

    def road(self) -> list[str]:
        b = self.board
        rows = max(len(column) for column in b.columns)
        ids = [[" " * CELL] * len(b.columns) for _ in range(rows)]
        held = [[" " * CELL] * len(b.columns) for _ in range(rows)]
        for c, column in enumerate(b.columns):
            for k, sq in enumerate(column):  # alone in its column: the middle row
                row = (rows - 1) // 2 if len(column) == 1 else k * (rows - 1) // (len(column) - 1)
                ids[row][c] = pad(b.square_names[sq] + self.market(sq), CELL)
                held[row][c] = pad(self.square(sq), CELL)
        lines = [self.areas("top")]
        for row in range(rows):
            lines += ["".join(ids[row]).rstrip(), "".join(held[row]).rstrip()]
        return [
            *lines,
            self.areas("bottom"),
            f"Portus {self.starts(TO_ROME)}  arrived {self.arrivals()}",
            f"Roma   {self.starts(TO_PORTUS)}  {self.turn()}",
        ]

    def areas(self, side: str) -> str:
        """The areas on one side of the road, each over the columns of its part."""
        b = self.board
        out = ""
        for part in range(max(b.part) + 1):
            width = sum(1 for column in b.columns if b.part[column[0]] == part) * CELL
            words = [
                f"area {a.name} {side}: "
                + (tint(leds(self.frame, _strada("area", a.name))[0], a.ware) if a.ware else "none")
                for i, a in enumerate(self.obs.areas)
                if a.side == side and b.area_part[i] == part
            ]
            out += pad(", ".join(words), width)
        return out.rstrip()

    def starts(self, heading: int) -> str:
        """The start squares of one end, top to bottom, with the wagons still on them."""
        return " ".join(
            f"{self.board.square_names[sq]} {pad(self.square(sq), 3)}"
            for sq in self.board.start[heading]
        )

    def arrivals(self) -> str:
        """The squares numbered 1-4 with the wagons in their order of arrival."""
        arrived = {w.arrived: w.name for w in self.obs.wagons if w.arrived}
        return " ".join(
            f"{k} " + self.standing(_strada("arrival", k), [arrived[k]] if k in arrived else [])
            for k in range(1, self.board.arrivals + 1)
        )

    def turn(self) -> str:
        """The special move bought (and the cheaper ones it includes) and the steps taken."""
        text = (
            f"special {dots(self.frame, _strada('special'), len(BUYABLE))}"
            f" steps {dots(self.frame, _strada('steps'), self.board.allowance(max(BUYABLE)))}"
        )
        move = self.obs.move
        return text + (f" {move.special.word}" if move is not None and move.special else "")

    def legend(self) -> str:
        from .views.strada_romana import CUBE

        return (
            "cubes "
            + " ".join(f"{tint(CUBE.get(c, OFF), self.cubes[c])} {c}" for c in self.board.colours)
            + "  > to Roma, < to Portus"
        )


def _strada(kind: str, name: object = None) -> str:
    """A Strada Romana board element: `strada_romana.square.121`, `strada_romana.steps`."""
    return f"strada_romana.{kind}" + ("" if name is None else f".{name}")


def short_names(names: Sequence[str], size: int) -> dict[str, str]:
    """A code of `size` letters per name, each different: the name's first letters, else
    its first letter(s) and a later one (brown beside blue: `o`), else its place."""
    codes: dict[str, str] = {}
    for i, name in enumerate(names):
        head = name[: size - 1]
        tried = [name[:size], *(head + ch for ch in name[size - 1 :])]
        codes[name] = next(
            (code for code in tried if len(code) == size and code not in codes.values()),
            str(i + 1)[-size:].rjust(size),
        )
    return codes


def seat_holdings(frame: ElementFrame, app: TableApp, holdings: Sequence[Holding]) -> str:
    """Each playing seat's coins, victory points and count of wagon tiles, in words when
    that fits a line, else as three numbers."""
    seats = list(zip(app.players, holdings, strict=False))
    status = {seat: dots(frame, f"seat.{seat}.status") for seat, _ in seats}
    words = "  ".join(
        f"{app.seat_label(seat)} {status[seat]} {counted(h.coins, 'coin')}, "
        f"{h.victory_points} VP, {counted(h.wagon_tiles, 'wagon tile')}"
        for seat, h in seats
    )
    if visible(words) < WIDTH:
        return words
    return "coins/VP/wagon tiles  " + "  ".join(
        f"{seat}{status[seat]} {h.coins}/{h.victory_points}/{h.wagon_tiles}" for seat, h in seats
    )


def _queue_marks() -> dict[Colour, str]:
    from .views.florence import BLOCKER, PRIME_HINT

    return {BLOCKER: "x", PRIME_HINT: "o"}


QUEUE_MARKS = _queue_marks()


def generic_sheet(frame: ElementFrame, app: TableApp) -> list[str]:
    """Any other board: one labelled line per element group, in layout order."""
    layout = app_layout(app)
    rows: dict[str, list[str]] = {}
    if layout is None:
        return []
    playing = set(shown_seats(app))
    for name in layout.elements:
        group = name.rpartition(".")[0]
        parts = group.split(".")
        if parts[0] == "seat" and len(parts) > 1 and parts[1] not in playing:
            continue
        label = ".".join(parts[1:]) if len(parts) > 1 else group
        rows.setdefault(label, []).append(dots(frame, name))
    return [fit(f"{label[:22]:<22} " + "".join(cells)) for label, cells in rows.items()]


def app_layout(app: TableApp):  # type: ignore[no-untyped-def]
    """The LED layout of the game on the table (for the generic sheet)."""
    from hw.layout import Layout

    game = table_games().get(app.game_name or "") if app.view is not None else None
    if game is None:
        return None
    return Layout.load(game.layout)


def wrapped(text: str, width: int = WIDTH, indent: str = "  ") -> list[str]:
    """A sentence in lines of fewer than `width` columns, broken between words, the
    lines after the first indented (a word longer than a line is broken)."""
    return textwrap.wrap(
        text, max(20, width - 1), subsequent_indent=indent, break_on_hyphens=False
    ) or [""]


def pad(text: str, width: int) -> str:
    return text + " " * max(0, width - visible(text))


def shown_seats(app: TableApp) -> list[str]:
    """The seats drawn: the game's players, else every seat of the table."""
    return list(app.players) or [s for s in app.seat_order]


def terminal_size(fd: int) -> tuple[int, int]:
    """(columns, rows) of the terminal at `fd`, never less than 80x24 (also the size when
    `fd` is no terminal)."""
    try:
        columns, rows = os.get_terminal_size(fd)
    except OSError:
        return WIDTH, HEIGHT
    return max(columns, WIDTH), max(rows, HEIGHT)


# --- the screen ---------------------------------------------------------------------
LOG_MIN = 5  # lines the log (or the checklist) keeps below the board, its heading included


@dataclass
class Screen:
    """What the terminal holds of its own: its size, how far the log is scrolled back and
    the checklist paged on. Everything else is read from `app.status()` at each draw."""

    seats: int
    width: int = WIDTH
    height: int = HEIGHT
    scroll: int = 0  # sentences scrolled back from the newest
    page: int = 0  # the first setup step shown
    notes: list[str] = field(default_factory=list)  # said before the table was built
    _log: tuple[str, ...] = ()  # the log at the last draw (to hold a scrolled view still)
    _steps: int = 0  # setup steps at the last draw (0: the log was drawn)
    _paged: int = 1  # steps (or sentences) the last draw showed: Page Up/Down's stride
    _app: TableApp | None = field(default=None, repr=False)

    def resize(self, columns: int, rows: int) -> None:
        self.width, self.height = max(columns, WIDTH), max(rows, HEIGHT)

    def scroll_by(self, lines: int) -> None:
        """Back (positive) or on through the log; while the board is being set up,
        through the setup steps (`]` goes on to the later steps)."""
        if self._steps:
            last = max(0, self._steps - self._paged)
            self.page = max(0, min(self.page - lines, last))
            return
        self.scroll = max(0, min(self.scroll + lines, max(0, len(self._log) - 1)))

    def page_by(self, pages: int) -> None:
        """Page Up (positive) or Page Down: a screenful of sentences or steps."""
        self.scroll_by(pages * max(1, self._paged))

    # --- for apps/web/snapshot.py, until it reads `status().log` --------------------
    def say(self, app: TableApp | None, text: str) -> None:
        """A sentence the table said: the table keeps its log itself, so this only notes
        which table it was (or keeps the sentence, when said before there was a table)."""
        if app is None:
            self.notes.append(text)
        else:
            self._app = app

    @property
    def log(self) -> list[str]:
        return [*self.notes, *(self._app.status().log if self._app is not None else ())]

    @property
    def checklist(self) -> list[str]:
        return list(self._app.status().checklist) if self._app is not None else []

    # --- drawing -------------------------------------------------------------------
    def lines(self, app: TableApp, now: float) -> list[str]:
        """The whole screen: `height` lines of at most `width` columns. The headline, the
        instruction and the menu come first and are never cut (a sentence goes on over
        lines, each shorter than the screen is wide); the board sheet below is cut to
        the room left, the log or the setup checklist keeping at least a few lines."""
        status = app.status()
        wide = self.width
        top = [f"\x1b[1m{line}{RESET}" for line in wrapped(status.headline, wide)]
        top += self.instruction(status)
        help_ = help_lines(self.seats, wide, setup=bool(status.checklist))
        room = self.height - len(top) - len(help_)
        board: list[str] = []
        if app.view is not None:
            game = table_games().get(status.game or "")
            sheet = game.sheet if game is not None else generic_sheet
            board = sheet(app.frame(now), app)[: max(0, room - LOG_MIN)]
        room -= len(board)
        if status.checklist:
            body = self.setup_lines(status.checklist, room)
        else:
            self._steps, self.page = 0, 0
            body = self.log_lines((*self.notes, *status.log), room)
        out = [*top, *board, *body][: self.height - len(help_)]
        out += [""] * (self.height - len(help_) - len(out))
        return [fit(line, wide) for line in out + help_]

    def instruction(self, status: Status) -> list[str]:
        """What the table asks now, whole: why nothing is taken (a journal that refuses
        writes), the component check's question or the game's result, the prompt, and
        the line the buttons act on: the menu with its cursor in brackets, the bot's move
        to carry out, or, when there is nothing to decide, that any button goes on."""
        wide, out = self.width, []
        if status.blocked:
            out += wrapped(status.blocked, wide)
        for line in status.question or status.result:
            out += wrapped(line, wide)
        menu = status.menu
        prompt = status.prompt if not status.question else ""
        if menu is not None and menu.kind == "go_on" and "any button goes on" not in prompt:
            prompt = f"{prompt} (any button goes on)".strip()
        if prompt:
            out += wrapped(prompt, wide)
        if menu is not None and menu.kind != "go_on":
            out += wrapped(menu_line(status, menu), wide)
        if status.seating:
            joined = [f"{s.seat} (bot)" if s.bot else s.seat for s in status.seats if s.joined]
            out.append("joined: " + (", ".join(joined) if joined else "nobody yet"))
        return out

    def log_lines(self, log: Sequence[str], room: int) -> list[str]:
        """The log's newest sentences that fit (or older ones, scrolled back), each whole,
        under a heading that says how far back it is."""
        if self.scroll and self._log and tuple(log) != self._log:
            self.scroll += added(self._log, tuple(log))  # what is read stays in place
        self._log = tuple(log)
        self.scroll = min(self.scroll, max(0, len(log) - 1))
        shown, first = self._view(log, len(log) - self.scroll, room - 1)
        while self.scroll and first == 0:  # back at the start: the screen full from there
            more, start = self._view(log, len(log) - self.scroll + 1, room - 1)
            if start:
                break
            shown, self.scroll = more, self.scroll - 1
        self._paged = max(1, len(log) - self.scroll - first)
        newer = f" ({self.scroll} newer below, ] scrolls down)" if self.scroll else ""
        return [f"-- log{newer} --", *shown]

    def _view(self, log: Sequence[str], end: int, room: int) -> tuple[list[str], int]:
        """(the lines of the sentences before `end` that fit in `room` lines, each whole,
        the index of the first shown); the last sentence's beginning when it alone does
        not fit."""
        shown: list[str] = []
        first = end
        while first > 0:
            lines = wrapped(log[first - 1], self.width)
            if len(shown) + len(lines) > room:
                if not shown:
                    shown, first = lines[: max(0, room)], first - 1
                break
            shown, first = lines + shown, first - 1
        return shown, first

    def setup_lines(self, steps: Sequence[str], room: int) -> list[str]:
        """The setup checklist: its steps numbered, in order, as many whole as fit from the
        page shown, under a heading that says which of how many they are and how to page."""
        self._steps = len(steps)
        self.page = max(0, min(self.page, len(steps) - 1))
        digits = len(str(len(steps)))
        shown: list[str] = []
        last = self.page
        for k in range(self.page, len(steps)):
            number = f"{k + 1:>{digits}}. "
            lines = wrapped(number + steps[k], self.width, " " * len(number))
            if len(shown) + len(lines) > room - 1 and shown:
                break
            shown += lines
            last = k + 1
        self._paged = max(1, last - self.page)
        where = f"steps {self.page + 1}-{last} of {len(steps)}"
        hints = []
        if last < len(steps):
            hints.append("] shows the next")
        if self.page:
            hints.append("[ goes back")
        heading = f"setup, in order ({where}{'; ' if hints else ''}{', '.join(hints)}):"
        return [heading, *shown[: max(0, room - 1)]]


def added(before: tuple[str, ...], after: tuple[str, ...]) -> int:
    """How many sentences `after` adds to `before` (a log that keeps its newest: what
    it dropped from the start is not counted)."""
    for dropped in range(len(before) + 1):
        kept = len(before) - dropped
        if before[dropped:] == after[:kept]:
            return len(after) - kept
    return 0


def menu_line(status: Status, menu: MenuStatus) -> str:
    """The line the buttons act on: a seat's menu ('Anna: flag > [pirate] plus goods'),
    everyone's ('any seat: [Strozzi] Florence'), or the bot's move to carry out."""
    if menu.kind == "bot":
        who = f"{status.turn.label} (bot)" if status.turn is not None else "the bot"
        return f"{who} plays {' '.join(menu.options)}: select at any seat"
    label = "any seat"
    if menu.seat != ANY:
        label = next((s.label for s in status.seats if s.seat == menu.seat), f"seat {menu.seat}")
    return menu.line(label)


def colour_name(app: TableApp, seat: str) -> str:
    """The name of the colour a seat plays, as the palette names it (the phone page's;
    the terminal reads it from `status().seats`)."""
    view = app.view
    if view is None or seat not in app.players:
        return "?"
    colour = app.colours[app.players.index(seat)]
    names = {c: n for n, c in view.palette_for(len(app.players))}
    names.update({c: n for n, c in view.palette if c not in names})
    return names.get(colour, "?")


SEAT_KEYS = ["qwe", "asd", "zxc", "rty", "fgh", "vbn"]  # previous, select, next


def help_lines(seats: int, width: int = WIDTH, *, setup: bool = False) -> list[str]:
    """The keys, at the foot of the screen."""
    parts = [f"{s + 1}:{SEAT_KEYS[s]}" for s in range(seats)]
    what = "the setup steps" if setup else "scroll the log"
    return [
        *wrapped("keys: seat " + " ".join(parts) + " (previous select next; Shift holds)", width),
        *wrapped(f"u undo  m menu  M end (paused)  [ ] PgUp PgDn {what}  Ctrl-C quits", width),
    ]


def render(lines: Sequence[str], width: int = WIDTH) -> str:
    """The screen as one write: home, then each line cleared to its end (a line as wide
    as the terminal is not: clearing there would take its last character)."""
    return (
        "\x1b[H"
        + "\r\n".join(line + "\x1b[K" * (visible(line) < width) for line in lines)
        + "\x1b[J"
    )
