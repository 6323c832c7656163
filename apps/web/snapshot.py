"""What the phone page shows, built on the table's thread after every change.

The table is the single writer of state and journal: the web server never touches
`TableApp` or a `State`. After each render the table thread calls `Snapshots.publish`,
which builds, only when something a page shows has changed, one public JSON text
(everything the whole table sees) and one private text per seat (what
`state.observe(seat)` adds for that seat, and its menu when the menu's words would
tell a secret). The server hands these immutable strings to browsers.

Everything but the drawing comes from the table's one status (`TableApp.status`,
apps/table/status.py): whose turn it is, the menu and what kind of choice it is, the
prompt, the log and the last action in words, the scores. The page works none of it out
from the table's internals, so it shows what the lights and the terminal show.

Secrets cannot reach the public text by construction: it is built from the status
(whose menu is marked private when its words would tell a seat's secret, and then goes
to that seat's text only), from the sentences the table says aloud, and from
`state.observe()` (the public observation, which has no field for a secret). tests/web
scan every public response for each seat's secrets all the same.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import threading
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ..table.status import MenuStatus, Status, secrets_of
from .board import SeatInfo, board_svg

if TYPE_CHECKING:
    from ..runtime import Appliance
    from ..table import TableApp

GREY = (128, 128, 128)  # a seat's colour before it has one


def plain(value: Any) -> Any:
    """A read-model value as JSON: frozen dataclasses and named tuples as objects."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return {k: plain(v) for k, v in zip(value._fields, value, strict=True)}
    if isinstance(value, list | tuple | set | frozenset):
        return [plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, enum.Enum):
        return plain(value.value)
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def hex_colour(rgb: tuple[int, int, int] | list[int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb[:3])


@dataclasses.dataclass(frozen=True)
class Published:
    """One published state of the table: immutable, shared by every connection."""

    version: int
    public: str  # JSON
    private: Mapping[str, str]  # seat name -> JSON of what only that seat sees
    players: Mapping[str, int]  # seat name -> player index in the game (for secrets)
    playing: str | None = None  # the game in play (set up, played, scored or paused)


class Snapshots:
    """The latest `Published` (read from any thread) and its builder (the table's)."""

    def __init__(self, *, extra: Callable[[], dict[str, Any]] | None = None):
        self.extra = extra  # more public fields (pairing state), from the server
        self._lock = threading.Lock()
        self._latest = Published(0, "{}", {}, {})
        self._key: Any = None
        self.listeners: list[Callable[[Published], None]] = []

    @property
    def latest(self) -> Published:
        with self._lock:
            return self._latest

    def publish(self, table: Appliance, *, force: bool = False) -> bool:
        """Build and publish when anything shown has changed; True when it did."""
        app = table.app
        status = app.status()
        extra = self.extra() if self.extra is not None else {}
        # the status is rebuilt whenever something it shows changed (a sentence, a
        # cursor, a name); equal statuses show the same page
        key = (status, json.dumps(extra, sort_keys=True))
        if key == self._key and not force:
            return False
        self._key = key
        public, private, players = build(app, status)
        public.update(extra)
        with self._lock:
            version = self._latest.version + 1
            public["version"] = version
            self._latest = Published(
                version,
                json.dumps(public, separators=(",", ":")),
                {s: json.dumps(p, separators=(",", ":")) for s, p in private.items()},
                players,
                status.game if status.in_game else None,
            )
            latest = self._latest
        for listener in self.listeners:
            listener(latest)
        return True


def seat_infos(status: Status) -> list[SeatInfo]:
    """The game's seats in player order, with their names and colours."""
    return [
        SeatInfo(s.player, s.label, s.colour or GREY, s.colour_name, s.seat)
        for s in status.seats
        if s.player is not None
    ]


def last_words(status: Status) -> str | None:
    """The last action as the whole table may read it, without its number and who took
    it: '#12 Anna: flag pirate' -> 'flag pirate' (the drawing outlines what it names)."""
    if status.last is None:
        return None
    rest = status.last.partition(" ")[2]  # without its number
    whos = ["draw"] + [f"{s.label} (bot)" if s.bot else s.label for s in status.seats]
    for who in whos:
        if rest.startswith(f"{who}: "):
            return rest[len(who) + 2 :]
    return rest.partition(": ")[2] or rest


def menu_json(menu: MenuStatus) -> dict[str, Any]:
    """A menu level as the page draws it: what kind of choice it is, the words chosen so
    far, the words offered (the same words as the buttons), the cursor."""
    return {
        "seat": menu.seat,
        "kind": menu.kind,
        "decision": menu.decision,
        "prefix": list(menu.prefix),
        "options": list(menu.options),
        "index": menu.index,
        "can_back": menu.can_back,
    }


def build(
    app: TableApp, status: Status | None = None
) -> tuple[dict[str, Any], dict[str, dict[str, Any]], dict[str, int]]:
    """(public, private per seat, seat -> player) of the table now."""
    status = status or app.status()
    players = {s.seat: s.player for s in status.seats if s.player is not None}
    public: dict[str, Any] = {
        "mode": status.mode,  # shown only; the page acts on the flags below
        "game": status.game,
        "title": status.title,
        "headline": status.headline,
        "prompt": status.prompt,
        "blocked": status.blocked,
        "question": list(status.question),
        "log": list(status.log),
        "checklist": list(status.checklist),
        "last": status.last,
        "round": status.round,
        "in_game": status.in_game,
        "over": status.over,
        "paused": status.paused,
        "seating": status.seating,
        "board": status.version,  # a choice names the board it was made on
        "seats": [
            {
                "player": s.player,
                "seat": s.seat,
                "name": s.label,
                "colour": hex_colour(s.colour or GREY),
                "colour_name": s.colour_name,
                "bot": s.bot,
            }
            for s in status.seats
            if s.player is not None
        ],
        "turn": None,
        "menu": None,
        "scores": [{"player": s.player, "name": s.label, "score": s.score} for s in status.scores],
        "result": list(status.result),
        "svg": "",
        "table_seats": list(status.table_seats),
    }
    turn = status.turn
    if turn is not None:
        public["turn"] = {
            "seat": turn.seat,
            "name": turn.label,
            "colour": hex_colour(turn.colour or GREY),
            "colour_name": turn.colour_name,
        }
    private: dict[str, dict[str, Any]] = {}
    menu = status.menu
    if menu is not None and menu.private:  # its words tell the seat's secret
        public["menu"] = {
            "seat": menu.seat,
            "kind": menu.kind,
            "decision": menu.decision,
            "private": True,
        }
        private.setdefault(menu.seat, {})["menu"] = menu_json(menu)
    elif menu is not None:
        public["menu"] = menu_json(menu)
    if status.seating:
        public["joined"] = [s.seat for s in status.seats if s.joined]
        public["bots"] = [s.seat for s in status.seats if s.bot]
        public["seat_order"] = list(status.table_seats)
    state = app.state
    if not status.in_game or state is None:
        return public, private, players
    obs = state.observe()
    public["svg"] = board_svg(obs, app.frame(app.clock()), seat_infos(status), last_words(status))
    for seat, p in players.items():
        private.setdefault(seat, {})["secrets"] = plain(secrets_of(state, obs, p))
        private[seat]["player"] = p
    return public, private, players


__all__ = [
    "Published",
    "Snapshots",
    "build",
    "hex_colour",
    "last_words",
    "menu_json",
    "plain",
    "seat_infos",
]
