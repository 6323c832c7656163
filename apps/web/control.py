"""Commands from a paired phone, carried out on the table's thread as button presses.

The server puts a `Command` on the table's event queue (`Appliance.events`); the table
thread hands it to `perform`, which turns it into the very button events the seat's
buttons make (press and release of select, a hold of menu at the table) and gives them
to `TableApp.handle`. So a phone is one more way of pressing a seat's buttons: the same
menus, the same refusals, the same journal-first confirmation, the same words said.

The answer goes back through `Command.reply` (called on the table's thread; the server
passes it to its own loop).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.core import CHANCE
from hw.events import InputEvent

from ..table.app import GAME_MODES

if TYPE_CHECKING:
    from ..runtime import Appliance
    from ..table import TableApp

#: the commands a phone may send, and what each means
COMMANDS = {
    "choose": "choose the word at `index` of the seat's menu (select it)",
    "cursor": "move the seat's cursor to `index` (the board previews it)",
    "next": "the next word",
    "previous": "the previous word",
    "select": "select the word under the cursor",
    "back": "up one level of the menu",
    "join": "join (or leave) the game being seated",
    "bot": "seat a bot at a free seat, or free a bot's seat (`index`: the seat's place "
    "in the table's seat order)",
    "start": "start the game with the seats that joined",
    "undo": "the table's undo",
    "pause": "pause, or resume a paused game",
    "new": "end this game (unscored) and go back to choosing one",
}


@dataclass
class Command:
    """One phone's command: `seat` is the seat its phone is paired with."""

    seat: str
    name: str
    index: int | None = None
    board: int | None = None  # the board version the phone saw
    reply: Callable[[int, dict[str, Any]], None] = field(default=lambda status, body: None)


def attach(table: Appliance) -> None:
    """Carry out `Command`s taken from the table's queue."""
    table.handlers[Command] = lambda cmd: _answer(table, cmd)


def _answer(table: Appliance, cmd: Command) -> None:
    try:
        status, body = perform(table, cmd)
    except Exception as exc:  # never a traceback to the phone; the log keeps it
        import logging

        logging.getLogger("tavola.web").exception("command %s failed", cmd.name)
        status, body = 500, {"error": f"the table could not do that: {exc}"}
    cmd.reply(status, body)


def refused(why: str, status: int = 409) -> tuple[int, dict[str, Any]]:
    return status, {"error": why}


def perform(table: Appliance, cmd: Command) -> tuple[int, dict[str, Any]]:
    """Carry out `cmd` at the table; (HTTP status, body)."""
    app = table.app
    now = app.clock()
    if cmd.name not in COMMANDS:
        return refused(f"unknown command {cmd.name!r} (commands: {', '.join(COMMANDS)})", 400)
    if cmd.board is not None and cmd.board != app.version and cmd.name in ("choose", "cursor"):
        return refused("the board changed before your choice arrived; nothing was done")
    if cmd.name in ("undo", "pause", "new", "start"):
        return _table_command(app, cmd.name, now)
    if cmd.seat not in app.seats:
        return refused(f"seat {cmd.seat!r} is not at this table", 400)
    if cmd.name == "bot":
        if app.mode != "seating":
            return refused("nobody is being seated now")
        order = app.seat_order
        if cmd.index is None or not 0 <= cmd.index < len(order):
            return refused(f"`index` must be a seat's place, 0-{len(order) - 1}", 400)
        why = app.lobby.toggle_bot(order[cmd.index])
        app.dirty = True
        return refused(why[:1].upper() + why[1:]) if why else (200, {"ok": True})
    if cmd.name == "join":
        if app.mode != "seating":
            return refused("nobody is being seated now")
        _select(app, cmd.seat, now)
        return 200, {"ok": True}
    if app.unwritten is not None:
        return refused(f"{app.unwritten.why}; nothing is taken until the journal accepts it")
    if app.mode in GAME_MODES:
        why = app.refusal(cmd.seat)
        if why is not None:
            return refused(why[:1].upper() + why[1:])
    if app.mode == "paused":
        return refused("The game is paused: resume it first.")
    if cmd.name in ("choose", "cursor"):
        moved = _cursor(app, cmd.seat, cmd.index)
        if moved is not None:
            return moved
        app.dirty = True
        if cmd.name == "cursor":
            return 200, {"ok": True}
        _select(app, cmd.seat, now)
    elif cmd.name == "select":
        _select(app, cmd.seat, now)
    elif cmd.name == "back":
        _hold_select(app, cmd.seat, now)
    else:  # next, previous
        one = app.seats[cmd.seat].one_button
        if one and cmd.name == "previous":
            return refused("a one-button seat only goes on: choose the word instead", 400)
        button = "button" if one else cmd.name
        app.handle(InputEvent(cmd.seat, button, "press", now))
        app.handle(InputEvent(cmd.seat, button, "release", now))
    return 200, {"ok": True}


def _cursor(app: TableApp, seat: str, index: int | None) -> tuple[int, dict[str, Any]] | None:
    """Put the cursor of the menu the seat's buttons would act on at `index`."""
    if index is None:
        return refused("this command needs an index: the place of the word in the menu", 400)
    if app.mode == "choosing":
        if not 0 <= index < len(app.game_names):
            return refused(f"no game at index {index}", 400)
        app.lobby.choice = index
        return None
    session, state = app.session, app.state
    if app.mode not in ("playing", "setup") or session is None or state is None:
        return refused("there is nothing to choose now")
    if state.is_over() or not state.legal_actions():
        return refused("there is nothing to choose now")
    if session.held:
        return refused("the table is about to draw: press select first")
    if session.bot_to_act() is not None:  # the bot's move is the one choice
        return None if index == 0 else refused("a bot's move has one choice: index 0", 400)
    key = seat
    waiting = session.waiting_seat()
    if waiting is None and state.current_player() == CHANCE:
        key = "*"  # the card that came up: one menu serves the table
    elif waiting != seat:
        return refused(f"it is {app.seat_label(waiting) if waiting else 'nobody'}'s turn")
    menu = session.menus.get(key) or session.menu_for(key)
    options = menu.options()
    if not 0 <= index < len(options):
        return refused(f"no choice at index {index}: the menu has {len(options)}", 400)
    menu.index = index
    return None


def _select(app: TableApp, seat: str, now: float) -> None:
    """A tap of select (a hold at a one-button seat), as the seat's buttons make it."""
    if app.seats[seat].one_button:
        _hold(app, seat, "button", now)
    else:
        app.handle(InputEvent(seat, "select", "press", now))
        app.handle(InputEvent(seat, "select", "release", now))


def _hold_select(app: TableApp, seat: str, now: float) -> None:
    """`back`: a hold of select at a three-button seat (one-button seats: the menu's own
    `back` word)."""
    if app.seats[seat].one_button:
        menu = app.menus.get(seat)
        if menu is not None and menu.back():
            app.dirty = True
        return
    _hold(app, seat, "select", now)


def _hold(app: TableApp, seat: str, button: str, now: float) -> None:
    app.handle(InputEvent(seat, button, "press", now))
    app.handle(InputEvent(seat, button, "long_press", now))
    app.handle(InputEvent(seat, button, "release", now))


def _table_command(app: TableApp, name: str, now: float) -> tuple[int, dict[str, Any]]:
    """undo, pause, new, start: the table's own buttons (undo, menu)."""
    mode = app.mode
    if name == "undo":
        if app.session is None:
            return refused("nothing to undo: no game is on")
        app.handle(InputEvent("table", "undo", "press", now))
        return 200, {"ok": True}
    if name == "pause":
        if mode not in ("playing", "paused"):
            return refused("only a game in play can be paused")
        app.handle(InputEvent("table", "menu", "press", now))
        return 200, {"ok": True}
    if name == "start":
        if mode == "idle":
            app.handle(InputEvent("table", "menu", "press", now))
        elif mode == "seating":
            app.lobby.start_if_ready()
            app.dirty = True
        else:
            return refused("a game is already on: end it first (New game)")
        return 200, {"ok": True}
    # new: end the game in progress unscored, back to the game menu
    if mode == "playing":
        app.handle(InputEvent("table", "menu", "press", now))  # pause first, as at the table
    if app.mode in ("paused", "over", "choosing", "seating"):
        app.handle(InputEvent("table", "menu", "long_press", now))
    elif app.mode == "idle":
        app.handle(InputEvent("table", "menu", "press", now))
    else:
        return refused(f"a new game cannot start while the table is {app.mode}")
    return 200, {"ok": True}


__all__ = ["COMMANDS", "Command", "attach", "perform"]
