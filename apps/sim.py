"""Driving a table without people: a manual clock, mock pins and bots that press buttons.

`tavola demo` and the crash tests use this: bots choose among the legal actions
and reach their choice the way a player does, by pressing previous / next /
select on mocked GPIO pins (`MockPin.drive_low()/drive_high()`), so the whole
input path (filters, event queue, menus, journal, lights) runs for real.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import engine
from engine.core import CHANCE, Action, derive
from hw.backends.mock import MockStrip
from hw.events import InputEvent

from . import runtime
from .games import table_game
from .menu import DONE, Menu
from .runtime import Appliance
from .table.session import DRAW_GRACE_S, RETRY_S
from .table.status import ANY, Status

PRESS_S = 0.05  # how long a bot holds a button for a press
BOT_WAIT_S = 60.0  # the longest a simulated table waits for a bot seat's move at once
HOLD_S = 0.8  # ... and for a long press (above the 0.6 s hold threshold)
GAP_S = 0.05
PINS = [5, 6, 13, 19, 26, 16, 20, 21, 12, 17, 27, 22, 23, 24, 25, 4, 14, 15, 18, 2, 3]


class ManualClock:
    """A clock that moves only when told: demos and tests are exact and fast."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def demo_config_text(
    game: str,
    seats: int,
    *,
    journal: Path,
    seed: int | None,
    strip: str = "mock",
    chance: str = "app",
    one_button: int = 0,
    phone: int = 0,
    strip_keys: Mapping[str, str | int | float] | None = None,
    options: Mapping[str, Any] | None = None,
    names: Sequence[str] = (),
    web: Mapping[str, str | int | bool] | None = None,
    component_check: bool = False,
    bots: int = 0,
    bot: str = "ismcts",
) -> str:
    """The config file of a mocked table for `game`: `seats` three-button seats (the last
    `phone` of them with no buttons, played from a phone, and the `one_button` before those
    with a single button), undo/menu table buttons, a strip as long as the game's layout
    (`strip_keys` adds backend keys, e.g. an Adalight port), the game's `options`
    (`[app.options]`) and the players' `names`, seat 1 first; `web` is the `[web]` table
    (phone seats turn it on, on loopback, when not given: a phone seat needs the page).
    `component_check` is off unless asked for: a demo or a test of something else goes
    straight to seating, as a table whose owner has checked the components does. The last
    `bots` seats are taken by a bot of level `bot` (`[app.bots]`)."""
    pins = iter(PINS)
    lines = ["[buttons]", 'pin_factory = "mock"', ""]
    for s in range(1, seats + 1):
        lines.append(f"[seats.{s}]")
        if s > seats - phone:
            lines += ['kind = "phone"', ""]
        elif s > seats - phone - one_button:
            lines += ['kind = "one"', f"button = {next(pins)}", ""]
        else:
            lines += [
                'kind = "three"',
                f"previous = {next(pins)}",
                f"select = {next(pins)}",
                f"next = {next(pins)}",
                "",
            ]
    lines += ["[table]", f"undo = {next(pins)}", f"menu = {next(pins)}", ""]
    lines += [
        "[strip]",
        f'backend = "{strip}"',
        f"count = {_layout_count(game)}",
        'order = "GRB"',
        *(f"{k} = {_value(v)}" for k, v in (strip_keys or {}).items()),
        "",
    ]
    lines += ["[pipeline]", "brightness = 0.5", "budget_ma = 6000", ""]
    lines += ["[app]", f'game = "{game}"', f'chance = "{chance}"', f'journal = "{journal}"']
    if seed is not None:
        lines.append(f"seed = {seed}")
    lines.append(f"component_check = {'true' if component_check else 'false'}")
    if options:
        lines += ["", "[app.options]", *(f"{k} = {json.dumps(v)}" for k, v in options.items())]
    if bots:
        lines += ["", "[app.bots]", *(f'{s} = "{bot}"' for s in range(seats - bots + 1, seats + 1))]
    if names:
        lines += [
            "",
            "[app.names]",
            *(f"{s} = {json.dumps(n)}" for s, n in enumerate(names, start=1) if n),
        ]
    if web is None and phone:
        web = {"enabled": True, "address": "127.0.0.1"}
    if web:
        lines += ["", "[web]", *(f"{k} = {json.dumps(v)}" for k, v in web.items())]
    return "\n".join(lines) + "\n"


def _value(v: str | int | float) -> str:
    return f'"{v}"' if isinstance(v, str) else str(v)


def demo_config(
    game: str,
    seats: int,
    *,
    journal: Path,
    seed: int | None,
    strip: str = "mock",
    chance: str = "app",
    one_button: int = 0,
    phone: int = 0,
    options: Mapping[str, Any] | None = None,
    names: Sequence[str] = (),
    component_check: bool = False,
    bots: int = 0,
    bot: str = "ismcts",
) -> runtime.Config:
    """The mocked table of `demo_config_text`, parsed."""
    text = demo_config_text(
        game,
        seats,
        journal=journal,
        seed=seed,
        strip=strip,
        chance=chance,
        one_button=one_button,
        phone=phone,
        options=options,
        names=names,
        component_check=component_check,
        bots=bots,
        bot=bot,
    )
    return runtime.parse_text(text, name=f"<demo {game}>")


def _layout_count(game: str) -> int:
    from hw.layout import Layout

    layout = Layout.load(table_game(game).layout)
    return layout.strips[layout.default_strip]


class ButtonBot:
    """Presses buttons on a mocked table to play random legal actions.

    A seat without buttons (`kind = "phone"`) is played through `hands[seat]` when given
    (a test's phone, sending the command over HTTP), otherwise by a three-button seat's
    button events, handed to the table directly (a paired phone sends the same seat's
    commands, `TableApp.command`, through apps/web/control.py).
    """

    def __init__(
        self,
        table: Appliance,
        clock: ManualClock,
        seed: int,
        *,
        noise: float = 0.0,
        on_press: Callable[[], None] | None = None,
    ) -> None:
        self.table = table
        self.clock = clock
        self.seed = seed
        self.noise = noise
        self.on_press = on_press
        self.presses = 0
        self._stray = derive(seed, "stray")
        #: seat -> what carries out its commands (next, previous, select, back) instead
        self.hands: dict[str, Callable[[str], None]] = {}
        #: each chance outcome entered on the buttons, with the presses it took
        self.entered: list[tuple[str, int]] = []

    # --- the physical part ---------------------------------------------------------
    def press(self, seat: str, button: str, *, hold: bool = False) -> None:
        table_seat = self.table.app.seats.get(seat)
        if table_seat is not None and table_seat.phone:
            self._phone_press(seat, button, hold=hold)
            return
        buttons = self.table.buttons
        buttons.press_pin(seat, button, True)
        self.clock.advance(HOLD_S if hold else PRESS_S)
        buttons.process()
        buttons.press_pin(seat, button, False)
        self.clock.advance(GAP_S)
        buttons.process()
        self.presses += 1
        self.pump()

    def _phone_press(self, seat: str, button: str, *, hold: bool) -> None:
        """A seat without pins: the events its phone's command makes, queued whole."""
        now = self.clock()
        self.table.dispatch(InputEvent(seat, button, "press", now))
        if hold:
            self.table.dispatch(InputEvent(seat, button, "long_press", now + HOLD_S))
        self.clock.advance(HOLD_S if hold else PRESS_S)
        self.table.dispatch(InputEvent(seat, button, "release", self.clock()))
        self.clock.advance(GAP_S)
        self.presses += 1
        self.pump()

    def pump(self) -> None:
        """Let the app handle what the buttons (and any peripheral) produced, and render."""
        app = self.table.app
        while True:
            ev = self.table.buttons.get(timeout=0)
            if ev is None:
                break
            self.table.dispatch(ev)
        app.tick()
        if self.on_press is not None:
            self.on_press()

    def command(self, seat: str, command: str) -> None:
        """previous / next / select / back as the seat's hardware does them."""
        hands = self.hands.get(seat)
        if hands is not None:
            hands(command)
            self.presses += 1
            self.pump()
            return
        one = self.table.app.seats[seat].one_button
        if one:
            self.press(seat, "button", hold=command == "select")
        elif command == "back":
            self.press(seat, "select", hold=True)
        else:
            self.press(seat, command)

    # --- playing -------------------------------------------------------------------
    def presses_for(self, seat: str, action: Action) -> list[str]:
        """The commands that walk the seat's menu, from where its cursor is now (as the
        table's status shows it), to `action`, as a player would."""
        app = self.table.app
        assert app.state is not None
        one = app.seats[seat].one_button if seat in app.seats else False
        menu = Menu(app.state.legal_actions(), with_back=one)
        shown = app.status().menu_for(seat)
        if shown is not None and shown.kind == "game":
            menu.prefix, menu.index = shown.prefix, shown.index
        commands: list[str] = []
        words = action.words
        for _ in range(64):
            depth = len(menu.prefix)
            want = words[depth] if len(words) > depth else DONE
            options = menu.options()
            ahead = (options.index(want) - menu.index) % len(options)
            # the shorter way round, as a person would go (a single button only goes on)
            step, move = (
                ("next", menu.next)
                if one or ahead <= len(options) - ahead
                else ("previous", menu.previous)
            )
            while menu.current != want:
                move()
                commands.append(step)
            commands.append("select")
            if menu.select() is not None:
                return commands
        raise RuntimeError(f"menu never reached {action.text!r}")

    def choose(self, status: Status | None = None) -> tuple[str, Action]:
        """The seat whose menu it is (the first player for anyone's) and a random legal
        action of it (a draw as the app would make it)."""
        app = self.table.app
        status = status or app.status()
        state = app.state
        assert state is not None and status.menu is not None
        rng = derive(self.seed, "bot", len(state.history))
        seat = status.menu.seat if status.menu.seat != ANY else app.players[0]
        legal = state.legal_actions()
        if state.current_player() == CHANCE:
            action = app.chance.draw(state)
        else:
            action = legal[rng.randrange(len(legal))]
        return seat, action

    def hand_for_bot(self, status: Status | None = None) -> str:
        """Who confirms a bot's move: the first person at the table (the bot's own
        seat's buttons when every seat is a bot's)."""
        status = status or self.table.app.status()
        people = [s.seat for s in status.seats if not s.bot]
        return people[0] if people else status.waiting[0]

    def stray_press(self, rng: random.Random, status: Status) -> None:
        """Somebody presses out of turn: the table must flash and change nothing."""
        others = [s.seat for s in status.seats if s.seat not in status.waiting]
        if others:
            self.command(rng.choice(others), rng.choice(["next", "select", "previous"]))

    def play(
        self, players: int, max_presses: int = 200_000, stop: Callable[[], bool] | None = None
    ) -> bool:
        """From wherever the table is (idle, seating, mid-game) to game over. False when the
        game had not ended after `max_presses` presses (a rulebook may allow endless play),
        or when `stop()` says pressing on is pointless (a demo's journal refused a write)."""
        while not self.table.app.status().over:
            if self.presses > max_presses or (stop is not None and stop()):
                return False
            self.advance(players)
        return True

    def advance(self, players: int) -> None:
        """One step towards the end, as the table's status asks: join and start, answer
        the component check, go on, confirm a bot's move, or decide."""
        app = self.table.app
        seats = [s.name for s in self.table.config.hw.seats if s.kind != "table"][:players]
        status = app.status()
        menu = status.menu
        if status.blocked:  # the journal refuses writes: the table retries by itself
            self.wait(RETRY_S)
            return
        if status.seating:
            joined = {s.seat: s for s in status.seats if s.joined}
            for seat in seats:
                if seat not in joined:
                    self.command(seat, "select")
                elif joined[seat].bot and seat not in app.bots:
                    self.command(seat, "select")  # a bot seated by hand: play there
            if app.status().seating:
                self.press("table", "menu")
        elif status.paused:
            self.press("table", "menu")
        elif menu is None or menu.kind == "lobby":
            self.command(seats[0], "select")  # idle wakes; a game is chosen
        elif menu.kind == "check":
            # a bot plays with the guesses: the cursor to `later` (or `stop`), and select
            while (m := app.status().menu) is not None and m.options[m.index] not in (
                "later",
                "stop",
            ):
                self.command(seats[0], "next")
            self.command(seats[0], "select")
        elif menu.kind == "go_on":
            if menu.auto:
                self.wait(DRAW_GRACE_S)  # a held draw: nobody needs to press
            else:
                self.command(seats[0], "select")
        elif menu.kind == "bot":
            if app.wait_for_bot(BOT_WAIT_S):
                return  # the bot thought off the table's loop; its move is proposed now
            # the bot's move is carried out on the board; a person confirms it
            self.command(self.hand_for_bot(status), "select")
        else:
            if self.noise and self._stray.random() < self.noise:
                self.stray_press(self._stray, status)
            seat, action = self.choose(status)
            chance, before = (
                app.state is not None and app.state.current_player() == CHANCE,
                self.presses,
            )
            for command in self.presses_for(seat, action):
                self.command(seat, command)
            if chance:  # a card entered on the buttons (`chance = "pick"`)
                self.entered.append((action.text, self.presses - before))

    def wait(self, seconds: float) -> None:
        """Nobody presses for `seconds`: the table goes on by itself where it does."""
        self.clock.advance(seconds)
        self.pump()


def final_lines(table: Appliance) -> list[str]:
    """The scores and the winner on two lines (a solo automa named as the winner)."""
    state = table.app.state
    if state is None:
        return []
    game = engine.get(state.game.name)
    players = table.app.players

    def names(p: int) -> str:
        return table.app.seat_label(players[p]) if 0 <= p < len(players) else f"seat {p + 1}"

    return [
        f"{game.title}: " + ", ".join(f"{state.label(p, names)} {v}" for p, v in state.standings()),
        "winner: " + ", ".join(state.label(p, names) for p in state.winning_seats()),
    ]


def strip_of(table: Appliance) -> MockStrip | None:
    return table.strip if isinstance(table.strip, MockStrip) else None
