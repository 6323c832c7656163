"""`tavola sim`: a virtual table in the terminal (works over SSH).

The board is drawn from the game's LED layout: one line per element group
(a city track, a port, a seat), one block per LED, in the colours the table
would show. Keys stand in for the seat buttons; Shift + key is a long press.
"""

from __future__ import annotations

import argparse
import os
import select
import sys
import tempfile
import termios
import time
import tty
from collections import deque
from pathlib import Path

import engine
from hw.events import InputEvent
from hw.tomlsource import ConfigError

from .. import args as types
from .. import runtime
from ..journal import JournalError, default_path
from ..sim import demo_config

SEAT_KEYS = ["qwe", "asd", "zxc", "rty", "fgh", "vbn"]  # previous, select, next
BUTTONS = ("previous", "select", "next")
TABLE_KEYS = {"u": "undo", "m": "menu"}


def key_map(seats: int) -> dict[str, tuple[str, str, bool]]:
    """key -> (seat, button, long press)."""
    keys: dict[str, tuple[str, str, bool]] = {}
    for s in range(seats):
        for key, button in zip(SEAT_KEYS[s], BUTTONS, strict=True):
            keys[key] = (str(s + 1), button, False)
            keys[key.upper()] = (str(s + 1), button, True)
    for key, button in TABLE_KEYS.items():
        keys[key] = ("table", button, False)
        keys[key.upper()] = ("table", button, True)
    return keys


def help_line(seats: int) -> str:
    parts = [f"seat {s + 1}: {' '.join(SEAT_KEYS[s])}" for s in range(seats)]
    return ("keys (previous select next; Shift = hold): " + " | ".join(parts)
            + " | u undo, m menu (M hold) | Ctrl-C quits")


def draw(table: runtime.Table, messages: deque[str], seats: int) -> str:
    """The screen: board lines from the layout, then recent messages and the key help."""
    app = table.app
    layout = table.layouts.get(app.game_name or "") or next(iter(table.layouts.values()))
    compositor = app._compositors.get(app.game_name or "lobby") or app._compositors["lobby"]
    frames = compositor.compose(app.frame(app.clock()))
    strip = layout.default_strip
    data = frames[strip]
    rows: dict[str, list[str]] = {}
    for name, element in layout.elements.items():
        group = name.rpartition(".")[0]
        cells = []
        for i in element.indices:
            r, g, b = data[3 * i], data[3 * i + 1], data[3 * i + 2]
            cells.append(f"\x1b[38;2;{r};{g};{b}m\u25cf" if (r or g or b) else "\x1b[90m\u00b7")
        rows.setdefault(group, []).append("".join(cells))
    title = engine.get(app.game_name).title if app.game_name else "Tavola"
    out = ["\x1b[H\x1b[2J", f"\x1b[1m{title}\x1b[0m  [{app.mode}]\r\n"]
    width = max((len(g) for g in rows), default=10)
    for group, cells in rows.items():
        out.append(f"{group:<{width}} {' '.join(cells)}\x1b[0m\r\n")
    out.append("\r\n")
    for line in messages:
        out.append(line[:200] + "\r\n")
    out.append("\r\n" + help_line(seats) + "\r\n")
    return "".join(out)


def cmd_sim(args: argparse.Namespace) -> int:
    game = engine.get(args.game)
    seats = args.seats
    messages: deque[str] = deque(maxlen=args.lines)
    with tempfile.TemporaryDirectory(prefix="tavola-sim-") as tmp:
        journal = Path(args.db) if args.db else (default_path() if args.keep else
                                                 Path(tmp) / "sim.db")
        try:
            config = demo_config(game.name, seats, journal=journal, seed=args.seed,
                                 chance=args.chance)
            table = runtime.Table(config, say=messages.append)
        except (ConfigError, JournalError) as exc:
            return types.fail("sim", exc)
        keys = key_map(seats)
        fd = sys.stdin.fileno()
        interactive = os.isatty(fd)
        saved = termios.tcgetattr(fd) if interactive else None
        try:
            if interactive:
                tty.setcbreak(fd)
            sys.stdout.write("\x1b[?25l")
            table.app.start()
            shown = ""
            while True:
                timeout = table.app.tick()
                screen = draw(table, messages, seats)
                if screen != shown:
                    sys.stdout.write(screen)
                    sys.stdout.flush()
                    shown = screen
                ready, _, _ = select.select([fd], [], [], timeout)
                if not ready:
                    continue
                chunk = os.read(fd, 64).decode(errors="ignore")
                if not chunk or "\x04" in chunk or "\x03" in chunk:
                    break  # Ctrl-D, or Ctrl-C arriving as a character (no controlling tty)
                for ch in chunk:
                    if ch not in keys:
                        continue
                    seat, button, hold = keys[ch]
                    now = time.monotonic()
                    table.app.handle(InputEvent(seat, button, "press", now))
                    if hold:
                        table.app.handle(InputEvent(seat, button, "long_press", now))
                    table.app.handle(InputEvent(seat, button, "release", now))
        except KeyboardInterrupt:
            pass
        finally:
            sys.stdout.write("\x1b[0m\x1b[?25h\r\n")
            sys.stdout.flush()
            if saved is not None:
                termios.tcsetattr(fd, termios.TCSADRAIN, saved)
            table.close()
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "sim", help="a virtual table in the terminal, keys for seat buttons",
        description="Draws the table's LEDs in the terminal (over SSH too) and maps keys to "
        "seat buttons: " + help_line(6) + ".")
    p.add_argument("game", nargs="?", default="strozzi", choices=engine.games(),
                   help="which game (default strozzi)")
    p.add_argument("--seats", type=int, default=4, choices=range(1, 7),
                   help="seats at the virtual table (default 4)")
    p.add_argument("--seed", type=types.seed, default=None, help="seed of the app's draws")
    p.add_argument("--chance", choices=("app", "pick"), default="app",
                   help="the app draws (default) or players pick what came up")
    p.add_argument("--db", help="journal file (default: temporary; see --keep)")
    p.add_argument("--keep", action="store_true",
                   help=f"keep games in the user journal ({default_path()})")
    p.add_argument("--lines", type=types.lines, default=8,
                   help="message lines shown (default 8)")
    p.set_defaults(func=cmd_sim)
