"""`tavola sim`: a virtual table in the terminal (works over SSH).

The screen (apps/screen.py) is what a person at the table would read, all of it from
the table's status: whose turn it is, what the table asks in a sentence, the menu of the
seat to act with its cursor, the board drawn as a board in the colours its LEDs show, a
log of sentences that scrolls back, the setup checklist paged step by step. It fills the
terminal (80x24 at least) and is drawn again when the terminal is resized; sentences
wrap between words. Keys stand in for the seat buttons (Shift + key is a long press);
the table's own keys are its commands (undo, menu, end). Before a new game, the players'
names are typed at seating (unless --names gives them), and the component check is
offered as at a real table (unless --no-check).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import select
import signal
import sys
import tempfile
import termios
import time
import tty
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import engine
from hw.events import InputEvent
from hw.tomlsource import ConfigError

from .. import args as types
from .. import runtime
from ..journal import JournalError, default_path
from ..names import NAME, name_problem
from ..screen import RESET, SEAT_KEYS, Screen, fit, render, terminal_size
from ..sim import demo_config
from .engine_cmds import bot_args, option_args, parse_options

T = TypeVar("T")
BUTTONS = ("previous", "select", "next")
TABLE_KEYS = {"u": "undo", "m": "menu", "M": "end"}  # the table's commands
STEP_KEYS = {"[": 1, "]": -1}  # a sentence (a setup step) back, on
PAGE_KEYS = {"\x1b[5~": 1, "\x1b[6~": -1}  # Page Up, Page Down: a screenful
_SEQUENCE = re.compile(r"\x1b\[[0-9;]*[~A-Za-z]")


def key_map(seats: int) -> dict[str, tuple[str, str, bool]]:
    """A seat's key -> (seat, button, long press): its buttons pressed as by hand."""
    keys: dict[str, tuple[str, str, bool]] = {}
    for s in range(seats):
        for key, button in zip(SEAT_KEYS[s], BUTTONS, strict=True):
            keys[key] = (str(s + 1), button, False)
            keys[key.upper()] = (str(s + 1), button, True)
    return keys


def help_text(seats: int) -> str:
    parts = [f"seat {s + 1}: {' '.join(SEAT_KEYS[s])}" for s in range(seats)]
    return (
        "keys (previous select next; Shift = hold): "
        + " | ".join(parts)
        + " | u undo, m menu (pauses, resumes, starts), M ends a paused game"
        " | [ ] a sentence back and on, Page Up/Down a screenful (while the board is"
        " set up, the setup steps) | Ctrl-C quits"
    )


def tokens(chunk: str) -> list[str]:
    """Keys typed: an escape sequence (Page Up) is one key, never its letters."""
    out: list[str] = []
    i = 0
    while i < len(chunk):
        m = _SEQUENCE.match(chunk, i)
        if m:
            out.append(m.group())
            i = m.end()
        else:
            out.append(chunk[i])
            i += 1
    return out


def cmd_sim(args: argparse.Namespace) -> int:
    game = engine.get(args.game)
    seats = args.seats
    if not game.min_players <= seats <= game.max_players:
        return types.fail(
            "sim",
            f"--seats: {game.title} is for {game.min_players}-"
            f"{game.max_players} players, not {seats}",
        )
    options = parse_options(args)
    try:
        game.resolve_options(seats, options)
    except ValueError as exc:
        return types.fail("sim", exc)
    if not 0 <= args.bots <= seats:
        return types.fail("sim", f"--bots: {args.bots} bots for {seats} seats")
    names = [n.strip() for n in args.names.split(",")] if args.names else []
    if len(names) > seats:
        return types.fail("sim", f"--names: {len(names)} names for {seats} seats")
    for s, name in enumerate(names):
        why = name and name_problem(name, str(s + 1), dict(_numbered(names[:s])))
        if why:
            return types.fail("sim", f"--names: seat {s + 1}: {why}")
    screen = Screen(seats)
    holder: list[runtime.Appliance] = []

    def say(text: str) -> None:
        """The table keeps its log (`status().log`); what is said before there is a table
        (the journal's report on opening) the screen keeps."""
        if not holder:
            screen.notes.append(text)

    with tempfile.TemporaryDirectory(prefix="tavola-sim-") as tmp:
        journal = (
            Path(args.db) if args.db else (default_path() if args.keep else Path(tmp) / "sim.db")
        )
        try:
            config = demo_config(
                game.name,
                seats,
                journal=journal,
                seed=args.seed,
                chance=args.chance,
                options=options,
                names=names,
                component_check=not args.no_check,
                bots=args.bots,
                bot=args.bot,
            )
            table = runtime.Appliance(config, say=say)
        except (ConfigError, JournalError) as exc:
            return types.fail("sim", exc)
        holder.append(table)
        fd = sys.stdin.fileno()  # only once the table is built: a wrong --db is said first
        interactive = os.isatty(fd)
        if args.names is None and interactive and table.journal.unfinished() is None:
            asked = _with_cbreak(fd, lambda: ask_names(fd, game.title, seats))
            if asked is None:  # Ctrl-C or Ctrl-D while naming: nothing was played
                table.close()
                return 0
            table.app.names.update(_numbered(asked))
        saved = termios.tcgetattr(fd) if interactive else None
        resized = Resized()
        try:
            if interactive:
                tty.setcbreak(fd, termios.TCSANOW)  # keys typed ahead count
            sys.stdout.write("\x1b[?25l\x1b[2J")
            table.app.start()
            play(table, screen, fd, resized)
        except KeyboardInterrupt:
            pass
        finally:
            resized.close()
            sys.stdout.write("\x1b[0m\x1b[?25h\r\n")
            sys.stdout.flush()
            if saved is not None:
                termios.tcsetattr(fd, termios.TCSADRAIN, saved)
            table.close()
    return 0


def play(table: runtime.Appliance, screen: Screen, fd: int, resized: Resized) -> None:
    """Draw the table and act on the keys until Ctrl-C or Ctrl-D (or the input ends)."""
    app, keys = table.app, key_map(screen.seats)
    out = sys.stdout.fileno()
    shown = ""
    while True:
        timeout = app.tick()
        screen.resize(*terminal_size(out))
        text = render(screen.lines(app, app.clock()), screen.width)
        if text != shown:
            sys.stdout.write(text)
            sys.stdout.flush()
            shown = text
        ready, _, _ = select.select([fd, *resized.fds], [], [], timeout)
        resized.drain()
        if fd not in ready:
            continue  # a draw due, an animation, or the terminal resized: drawn again
        chunk = os.read(fd, 64).decode(errors="ignore")
        if not chunk or "\x04" in chunk or "\x03" in chunk:
            return  # Ctrl-D, or Ctrl-C arriving as a character (no controlling tty)
        for key in tokens(chunk):
            if key in STEP_KEYS:
                screen.scroll_by(STEP_KEYS[key])
            elif key in PAGE_KEYS:
                screen.page_by(PAGE_KEYS[key])
            elif key in TABLE_KEYS:
                app.command("table", TABLE_KEYS[key])  # a refusal is said in the log
            elif key in keys:
                seat, button, hold = keys[key]
                now = time.monotonic()
                app.handle(InputEvent(seat, button, "press", now))
                if hold:
                    app.handle(InputEvent(seat, button, "long_press", now))
                app.handle(InputEvent(seat, button, "release", now))


class Resized:
    """Wakes the loop when the terminal is resized (SIGWINCH), through a pipe the signal
    writes to: the screen is then drawn again at the new size."""

    def __init__(self) -> None:
        self.fds: list[int] = []
        self._old: Any = None
        self._wakeup = -1
        if not hasattr(signal, "SIGWINCH"):
            return
        read, write = os.pipe()
        os.set_blocking(read, False)
        os.set_blocking(write, False)
        self.fds, self._write = [read], write
        self._old = signal.signal(signal.SIGWINCH, lambda signum, frame: None)
        self._wakeup = signal.set_wakeup_fd(write)

    def drain(self) -> None:
        for fd in self.fds:
            with contextlib.suppress(BlockingIOError):
                os.read(fd, 512)

    def close(self) -> None:
        if not self.fds:
            return
        signal.set_wakeup_fd(self._wakeup)
        signal.signal(signal.SIGWINCH, self._old)
        os.close(self.fds[0])
        os.close(self._write)
        self.fds = []


def _numbered(names: list[str]) -> list[tuple[str, str]]:
    """(seat, name) for each named seat, seat 1 first."""
    return [(str(s + 1), n) for s, n in enumerate(names) if n]


def _with_cbreak(fd: int, run: Callable[[], T]) -> T:
    """`run()` with the terminal reading key by key, the terminal given back after."""
    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd, termios.TCSANOW)
        return run()
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def naming_lines(
    title: str, names: list[str], typed: str, problem: str | None, height: int = 24
) -> list[str]:
    """The seating screen: each seat with its name so far, the one being typed, the keys."""
    seat = len(names) + 1
    lines = [f"\x1b[1m{title} | seating: the players' names{RESET}", ""]
    for s, name in enumerate(names, start=1):
        lines.append(f"  seat {s}: {name or '(no name: seat ' + str(s) + ')'}")
    lines += [
        f"> seat {seat}: {typed}_",
        "",
        f"Type seat {seat}'s name and press Enter; Enter alone keeps 'seat {seat}'.",
        "Backspace deletes; Esc keeps the seat numbers for the rest; Ctrl-C quits.",
        "The names are said in every sentence of the game.",
    ]
    if problem:
        lines += ["", f"Not taken: {problem}. Type another name."]
    return [*lines, *[""] * (height - len(lines))][:height]


def ask_names(fd: int, title: str, seats: int) -> list[str] | None:
    """The players' names typed at seating, seat 1 first ('' keeps 'seat N'); None when
    the player quit (Ctrl-C, Ctrl-D). Each name is checked as the config's are."""
    names: list[str] = []
    typed, problem = "", None
    sys.stdout.write("\x1b[?25l\x1b[2J")
    while len(names) < seats:
        width, height = terminal_size(sys.stdout.fileno())
        lines = naming_lines(title, names, typed, problem, height)
        sys.stdout.write(render([fit(line, width - 1) for line in lines], width))
        sys.stdout.flush()
        chunk = os.read(fd, 64).decode(errors="ignore")  # blocks until a key: no polling
        if not chunk or "\x03" in chunk or "\x04" in chunk:
            return None
        for key in tokens(chunk):
            if len(names) == seats:
                break
            if key in ("\r", "\n"):
                seat = str(len(names) + 1)
                name = typed.strip()
                problem = name and name_problem(name, seat, dict(_numbered(names)))
                if not problem:
                    names.append(name)
                    typed, problem = "", None
            elif key == "\x1b":
                names += [""] * (seats - len(names))
            elif key in ("\x7f", "\x08"):
                typed = typed[:-1]
            elif len(key) == 1 and key.isprintable() and len(typed) < NAME.longest:
                typed += key
    return names


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "sim",
        help="a virtual table in the terminal, keys for seat buttons",
        description="Draws the table in the terminal (over SSH too): the headline and whose "
        "turn, what the table asks in a sentence with the menu of the seat to act, the board "
        "in the colours its LEDs show, and the log of the table's sentences (while the board "
        "is set up, the setup steps, numbered: 'steps 1-7 of 19'). It fills the terminal, "
        "80x24 at least, and is drawn again when the terminal is resized; sentences wrap "
        "between words, only a board wider than the terminal is cut. Keys stand in for the "
        "buttons; " + help_text(6) + ". --seats is how many play.",
    )
    p.add_argument(
        "game",
        nargs="?",
        default="strozzi",
        choices=engine.games(),
        help="which game (default strozzi)",
    )
    p.add_argument(
        "--seats",
        type=int,
        default=4,
        choices=range(1, 7),
        help="seats at the virtual table, as many as the game seats (default 4)",
    )
    p.add_argument("--seed", type=types.seed, default=None, help="seed of the app's draws")
    p.add_argument(
        "--chance",
        choices=("app", "pick"),
        default="app",
        help="the app draws (default) or players pick what came up",
    )
    p.add_argument("--db", help="journal file (default: temporary; see --keep)")
    p.add_argument(
        "--keep",
        action="store_true",
        help=f"keep games in the user journal for `history` ({default_path()})",
    )
    p.add_argument(
        "--names",
        metavar="ANNA,BEN,...",
        help="the players' names, seat 1 first: said in every sentence (without it, sim "
        "asks for them at seating; --names '' plays with seat numbers)",
    )
    p.add_argument(
        "--no-check",
        action="store_true",
        help="do not offer the component check before the game (offered, as at a real "
        "table, while the game's data holds guesses and no game of it was played)",
    )
    bot_args(p, others="the others are yours")
    option_args(p)
    p.set_defaults(func=cmd_sim)
