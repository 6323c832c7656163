"""Commands from a paired phone, carried out on the table's thread by the table itself.

The server puts a `Command` on the table's event queue (`Appliance.events`); the table
thread hands it to `perform`, which passes it on as the seat's command
(`TableApp.command`): the same menus, the same refusals, the same journal-first
confirmation, the same words said as the seat's buttons. The answer is the table's,
given once it has acted: 200 when it did, 409 with the table's own sentence when it
refused (the phone shows it where the person tapped), 400 when the request itself is
malformed.

The answer goes back through `Command.reply` (called on the table's thread; the server
passes it to its own loop).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..table.status import Refused

if TYPE_CHECKING:
    from ..runtime import Appliance

log = logging.getLogger("tavola.web")

#: the commands a phone may send, and what each means
COMMANDS = {
    "cursor": "point at the word at `index` of the seat's menu (the board lights it)",
    "choose": "choose the word at `index` of the seat's menu",
    "go_on": "go on from a menu with nothing to decide (a draw, the board laid out)",
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
INDEXED = ("cursor", "choose", "bot")
"""The commands that name a place (`index`)."""


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
        log.exception("command %s failed", cmd.name)
        status, body = 500, {"error": f"the table could not do that: {exc}"}
    cmd.reply(status, body)


def refused(why: str, status: int = 409) -> tuple[int, dict[str, Any]]:
    return status, {"error": why}


def perform(table: Appliance, cmd: Command) -> tuple[int, dict[str, Any]]:
    """Carry out `cmd` at the table; (HTTP status, body)."""
    app = table.app
    if cmd.name not in COMMANDS:
        return refused(f"unknown command {cmd.name!r} (commands: {', '.join(COMMANDS)})", 400)
    if cmd.seat not in app.status().table_seats:
        return refused(f"seat {cmd.seat!r} is not at this table", 400)
    if cmd.name in INDEXED and cmd.index is None:
        return refused(f"{cmd.name} needs an index: the place of the word in the menu", 400)
    if cmd.name in ("choose", "cursor") and cmd.board not in (None, app.status().version):
        return refused("The board changed before your choice arrived; nothing was done.")
    done = app.command(cmd.seat, cmd.name, cmd.index)
    if isinstance(done, Refused):
        return refused(done.why)
    return 200, {"ok": True}


__all__ = ["COMMANDS", "Command", "attach", "perform"]
