"""What the table's parts use of each other, as protocols, so no table module imports
one that imports it back.

`TableApp` (app.py) composes the lobby, the session, the renderer and the status, and
they call back into it: the sentences said, the error lights, the journal, the clock.
They see it as a `Table`, and the renderer and the status see the game in progress as
a `GameSession`; app.py and session.py satisfy these (mypy checks it where they are
handed over). The import graph of apps/table is then a tree: ports and the table's log
at the bottom, app.py at the top.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from engine.core import Action, Observation, State

from ..chance import ChanceSource
from ..journal import Journal
from ..menu import Menu
from ..thinker import Thinker
from ..views import View, ViewContext
from ..views.base import Colour

DRAW_LINE = re.compile(r"#\d+ draw: ")


@dataclass
class TableSeat:
    """A seat as the table uses it: its name and whether it has one button or three
    (hw.config.SeatConfig is the hardware's: pins, pulls, colour). A `phone` seat has no
    buttons: its paired phone makes the three-button seat's presses (apps/web/control.py)."""

    name: str
    one_button: bool = False
    phone: bool = False


class TableLog:
    """The table's sentences as people read them: a cursor moving is in the menu line and
    not logged; while the board is being set up, sentences are the setup checklist, which
    joins the log once play starts."""

    KEPT = 400  # sentences the log keeps (the journal keeps the game)

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.checklist: list[str] = []
        self.said = 0  # bumps with every sentence, logged or not
        self._setup = False

    def add(self, text: str, *, setup: bool) -> None:
        self.said += 1
        if DRAW_LINE.match(text) and self.lines and not self.lines[-1].startswith("#"):
            return  # the journal line of a draw the table made repeats its sentence
        if setup:
            self._setup = True
            self.checklist.append(text)
            return
        if self._setup:
            self.lines += self.checklist
            self.checklist = []
            self._setup = False
        self.lines.append(text)
        del self.lines[: -self.KEPT]


class GameSession(Protocol):
    """The game in progress, as the renderer and the status read it (session.Session)."""

    state: State
    view: View
    ctx: ViewContext
    players: list[str]
    colours: list[Colour]
    menus: dict[str, Menu]
    bots: dict[int, Any]
    held: bool
    unwritten: Any

    def name(self, player: int) -> str: ...
    def describe(self) -> str: ...
    def public_line(self, action: Action) -> str: ...
    def last_line(self) -> str | None: ...
    def shown(self, action: Action) -> str: ...
    def waiting_seat(self, seen: State | None = None) -> str | None: ...
    def menu_for(self, seat: str) -> Menu: ...
    def menu_is_secret(self, menu: Menu, seat: str, public: Observation | None = None) -> bool: ...
    def in_setup(self) -> bool: ...
    def bot_to_act(self) -> int | None: ...
    def bot_shown(self) -> str: ...
    def bot_line(self) -> str: ...


class Table(Protocol):
    """The table facade (app.TableApp) as its parts use it: its seats and services."""

    mode: str
    version: int
    seats: dict[str, TableSeat]
    seat_order: list[str]
    names: dict[str, str]
    bots: dict[str, str]
    component_check: bool
    journal: Journal
    chance: ChanceSource
    clock: Callable[[], float]
    errors: dict[str, float]
    acknowledged: int
    journal_refusal: str | None  # the journal's last refusal, until it accepts again
    table_log: TableLog
    lobby: Any  # lobby.Lobby
    session: Any  # session.Session | None
    renderer: Any  # render.Renderer
    thinker: Thinker
    dirty: bool

    @property
    def game_name(self) -> str | None: ...
    def status(self) -> Any: ...  # status.Status
    def fire(self, trigger: str) -> None: ...
    def changed(self) -> None: ...
    def begin(self, session: Any) -> None: ...
    def seat_label(self, seat: str, *, capital: bool = False) -> str: ...
    def say(self, text: str) -> None: ...
    def say_cursor(self, text: str) -> None: ...
    def say_where(self, seat: str, menu: Menu) -> None: ...
    def flash(self, seat: str, why: str) -> None: ...
    def flash_seats(self, seats: Iterable[str]) -> None: ...
    def flash_all(self, why: str, *, seats: Sequence[str] | None = None) -> None: ...
    def journal_refused(
        self, why: str, what: str, *, seats: Sequence[str] | None = None
    ) -> None: ...
    def refusal(self, seat: str) -> str | None: ...
    def refused(self, why: str) -> None: ...
    def chance_entered(self, action: Action, at: int) -> None: ...
    def to_idle(self) -> None: ...


__all__ = ["GameSession", "Table", "TableLog", "TableSeat"]
