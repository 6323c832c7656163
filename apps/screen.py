"""The virtual table of `tavola sim` as a person reads it, in an 80x24 terminal.

One screen, redrawn whole: a status line (the game, the round, whose turn with the
colour's name), the menu of the seat to act with all its choices and the cursor, the
board drawn as a board (each game's sheet below, in the LED colours the table shows
now), a log of sentences that scrolls back, and the key help. While the table is being
set up the log gives way to a checklist of the setup steps, which stays until play starts.

What it cannot show: the LED pipeline's brightness, gamma and current limit (the colours
are the element frame's, before the pipeline) and the physical spacing of the strips.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import engine
from engine.core import CHANCE, counted
from engine.strada_romana.board import BUYABLE, HEADINGS, TO_PORTUS, TO_ROME

from .games import table_games
from .views.base import OFF, Colour, ElementFrame

if TYPE_CHECKING:
    from engine.strada_romana import StradaRomanaObservation
    from engine.strada_romana.observation import Holding

    from .table import TableApp

WIDTH, HEIGHT = 80, 24
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


def wrapped(text: str) -> list[str]:
    """A plain line in lines that fit the screen, broken between words and indented."""
    return textwrap.wrap(text, WIDTH - 1, subsequent_indent="  ") or [""]


def pad(text: str, width: int) -> str:
    return text + " " * max(0, width - visible(text))


def shown_seats(app: TableApp) -> list[str]:
    """The seats drawn: the game's players, else every seat of the table."""
    return list(app.players) or [s for s in app.seat_order]


# --- the screen ---------------------------------------------------------------------
@dataclass
class Screen:
    """The state of the terminal that is not the table's: the log and its scroll."""

    seats: int
    keys: str = ""
    log: list[str] = field(default_factory=list)
    checklist: list[str] = field(default_factory=list)
    scroll: int = 0  # lines scrolled back from the newest
    page: int = 0  # the first checklist step shown
    _setup: bool = False

    def say(self, app: TableApp | None, text: str) -> None:
        """A sentence for the log. A menu's cursor moving is in the status line and the
        journal line of an automatic draw repeats its sentence, so neither is logged; while
        the board is being set up, sentences go to the checklist."""
        if app is not None:
            for seat, menu in app.menus.items():
                if text == app.cursor_line(seat, menu):
                    return
            check = app.lobby.check
            if check is not None and text.endswith(f": {check.menu.path()}"):
                return  # the check's cursor: in the status line
            if re.match(r"#\d+ draw: ", text) and self.log and not self.log[-1].startswith("#"):
                return
        if app is not None and app.mode == "setup":
            self._setup = True
            self.checklist.append(text)
            return
        if self._setup:  # play starts: the checklist joins the log
            self.log += self.checklist
            self.checklist = []
            self.page = 0
            self._setup = False
        self.log.append(text)
        if self.scroll:
            self.scroll += 1  # keep the lines being read where they are

    def scroll_by(self, lines: int) -> None:
        """Back (positive) or forward through the log; during setup, through the checklist
        (`]` shows the next steps)."""
        if self.checklist:
            self.page = max(0, min(self.page - lines, len(self.checklist) - 1))
            return
        self.scroll = max(0, min(self.scroll + lines, max(0, len(self.log) - 1)))

    def setup_lines(self, room: int) -> list[str]:
        """The checklist: the setup steps in order, a page at a time, and what ends it."""
        shown = max(1, room - 2)
        first = min(self.page, max(0, len(self.checklist) - shown))
        items = self.checklist[first : first + shown]
        last = first + len(items)
        where = f"steps {first + 1}-{last} of {len(self.checklist)}"
        if last < len(self.checklist):
            where += "; ] shows the next"
        elif first:
            where += "; [ goes back"
        return [
            f"setup, in order ({where}):",
            *(f" - {c}" for c in items),
            "then, once the board is laid out: select at any seat",
        ]

    def status(self, app: TableApp) -> list[str]:
        """Where the game is and whose turn; the menu at that seat, every choice of it
        (ten wagons take two lines)."""
        title = engine.get(app.game_name).title if app.game_name else "Tavola"
        state = app.state
        head = [title]
        check = app.lobby.check
        if state is None and app.mode == "checking" and check is not None:
            head.append("component check")
            words = " ".join(
                f"[{w}]" if i == check.menu.index else w for i, w in enumerate(check.choices())
            )
            lines = [line for text in check.prompt() for line in wrapped(text)]
            return [" | ".join(head), *lines, f"any seat: {words}"]
        if state is None:
            head.append(
                {
                    "idle": "press menu to choose a game",
                    "choosing": "choose a game",
                    "seating": "seating: select at a seat joins, next seats a bot",
                }.get(app.mode, app.mode)
            )
            joined = app.seating.joined if app.mode == "seating" else []
            bots = app.seating.bots
            shown = [f"{s} (bot)" if s in bots else s for s in joined]
            line2 = "joined: " + (", ".join(shown) if shown else "nobody yet")
            return [" | ".join(head), line2]
        obs = state.observe()
        if obs.round:  # Florence is in round 0 until the first round starts
            head.append(f"round {obs.round}")
        seat = app._waiting_seat()
        if app.mode == "setup":
            head.append("setting up")
        elif app.mode in ("over", "paused", "scoring"):
            head.append({"over": "game over", "paused": "paused", "scoring": "scoring"}[app.mode])
        elif seat is not None:
            head.append(f"{app.seat_label(seat)} ({colour_name(app, seat)}) to act")
        elif state.current_player() == CHANCE:
            head.append("a draw is due")
        menu_line = obs.prompt
        session = app.session
        bot = session.bot_to_act() if session is not None else None
        if session is not None and bot is not None and app.mode in ("playing", "setup"):
            menu_line = f"{session.name(bot)} plays {session.bot_shown()}: select at any seat"
        elif seat is not None and app.mode in ("playing", "setup") and not state.is_over():
            menu = app.menus.get(seat)
            if menu is None:
                from .menu import Menu

                menu = Menu(
                    state.legal_actions(),
                    with_back=app.seats[seat].one_button if seat in app.seats else False,
                )
            words = " ".join(
                f"[{w}]" if i == menu.index else w for i, w in enumerate(menu.options())
            )
            path = " ".join(menu.prefix)
            menu_line = f"{app.seat_label(seat)}: {path + ' > ' if path else ''}{words}"
        return [" | ".join(head), *wrapped(menu_line)]

    def lines(self, app: TableApp, now: float) -> list[str]:
        """The whole screen, HEIGHT lines of at most WIDTH columns."""
        frame = app.frame(now)
        game = table_games().get(app.game_name or "")
        sheet = game.sheet if game is not None else generic_sheet
        board = sheet(frame, app) if app.view is not None else []
        top = [f"\x1b[1m{s}{RESET}" if i == 0 else s for i, s in enumerate(self.status(app))]
        help_ = help_line(self.seats)
        room = HEIGHT - len(top) - len(help_)
        board = board[: max(0, room - 4)]
        room -= len(board)
        if self.checklist:
            log = self.setup_lines(room)
        else:
            end = len(self.log) - self.scroll
            log = self.log[max(0, end - (room - 1)) : end]
            more = f" ({self.scroll} newer below, ] scrolls down)" if self.scroll else ""
            log = [f"-- log{more} --", *log]
        out = [*top, *board, *log]
        out += [""] * (HEIGHT - len(help_) - len(out))
        return [fit(line) for line in out + help_]


def colour_name(app: TableApp, seat: str) -> str:
    """The name of the colour a seat plays, as the palette names it."""
    view = app.view
    if view is None or seat not in app.players:
        return "?"
    colour = app.colours[app.players.index(seat)]
    names = {c: n for n, c in view.palette_for(len(app.players))}
    names.update({c: n for n, c in view.palette if c not in names})
    return names.get(colour, "?")


SEAT_KEYS = ["qwe", "asd", "zxc", "rty", "fgh", "vbn"]  # previous, select, next


def help_line(seats: int) -> list[str]:
    parts = [f"{s + 1}:{SEAT_KEYS[s]}" for s in range(seats)]
    return [
        "keys: seat " + " ".join(parts) + " (previous select next; Shift holds)",
        "u undo  m menu (M holds)  [ ] scroll the log  Ctrl-C quits",
    ]


def render(lines: Sequence[str]) -> str:
    """The screen as one write: home, then each line cleared to its end."""
    return "\x1b[H" + "\r\n".join(f"{line}\x1b[K" for line in lines) + "\x1b[J"
