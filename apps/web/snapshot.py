"""What the phone page shows, built on the table's thread after every change.

The table is the single writer of state and journal: the web server never touches
`TableApp` or a `State`. After each render the table thread calls `Snapshots.publish`,
which builds, only when something a page shows has changed, one public JSON text
(everything the whole table sees) and one private text per seat (what
`state.observe(seat)` adds for that seat, and its menu when the menu's words would
tell a secret). The server hands these immutable strings to browsers.

Secrets cannot reach the public text by construction: it is built from
`state.observe()` (the public observation, which has no field for a secret), from the
sentences the table says aloud, and from menus whose every action reads the same in
public (`View.public_text`). tests/web scan every public response for each seat's
secrets all the same.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import threading
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import engine
from engine.core import CHANCE

from ..menu import Menu
from ..record import result_lines
from ..screen import Screen, colour_name
from .board import SeatInfo, board_svg

if TYPE_CHECKING:
    from ..runtime import Appliance
    from ..table import TableApp

LOG_KEPT = 200  # sentences the page can scroll back through


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


class Sentences:
    """The table's sentences as the terminal keeps them (apps.screen.Screen: a menu's
    cursor moves are not logged, setup steps go to the checklist); the app's `say`."""

    def __init__(self, also: Callable[[str], None] | None = None) -> None:
        self.screen = Screen(seats=0)
        self.app: TableApp | None = None
        self.also = also
        self.said = 0  # bumps with every sentence, logged or not

    def say(self, text: str) -> None:
        self.screen.say(self.app, text)
        del self.screen.log[:-LOG_KEPT]
        self.said += 1
        if self.also is not None:
            self.also(text)


@dataclasses.dataclass(frozen=True)
class Published:
    """One published state of the table: immutable, shared by every connection."""

    version: int
    public: str  # JSON
    private: Mapping[str, str]  # seat name -> JSON of what only that seat sees
    players: Mapping[str, int]  # seat name -> player index in the game (for secrets)


class Snapshots:
    """The latest `Published` (read from any thread) and its builder (the table's)."""

    def __init__(self, sentences: Sentences, *, extra: Callable[[], dict[str, Any]] | None = None):
        self.sentences = sentences
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
        extra = self.extra() if self.extra is not None else {}
        key = (
            app.version,
            app.mode,
            self.sentences.said,
            app.choice,
            tuple(app.seating.joined),
            tuple(app.seating.bots),
            tuple(sorted(app.names.items())),  # a reload renames seats (apps.web.settings)
            tuple((s, m.prefix, m.index) for s, m in app.menus.items()),
            json.dumps(extra, sort_keys=True),
        )
        if key == self._key and not force:
            return False
        self._key = key
        public, private, players = build(app, self.sentences)
        public.update(extra)
        with self._lock:
            version = self._latest.version + 1
            public["version"] = version
            self._latest = Published(
                version,
                json.dumps(public, separators=(",", ":")),
                {s: json.dumps(p, separators=(",", ":")) for s, p in private.items()},
                players,
            )
            latest = self._latest
        for listener in self.listeners:
            listener(latest)
        return True


def seat_infos(app: TableApp) -> list[SeatInfo]:
    """The game's seats in player order, with their names and colours."""
    return [
        SeatInfo(p, app.seat_label(seat), app.colours[p], colour_name(app, seat), seat)
        for p, seat in enumerate(app.players)
    ]


def build(
    app: TableApp, sentences: Sentences
) -> tuple[dict[str, Any], dict[str, dict[str, Any]], dict[str, int]]:
    """(public, private per seat, seat -> player) of the table now."""
    screen = sentences.screen
    title = engine.get(app.game_name).title if app.game_name else "Tavola"
    public: dict[str, Any] = {
        "mode": app.mode,
        "game": app.game_name,
        "title": title,
        "log": list(screen.log),
        "checklist": list(screen.checklist),
        "seats": [],
        "turn": None,
        "menu": None,
        "scores": [],
        "result": [],
        "svg": "",
        "last": None,
        "round": None,
        "prompt": "",
        "table_seats": list(app.seat_order),
    }
    private: dict[str, dict[str, Any]] = {}
    players: dict[str, int] = {}
    session, state = app.session, app.state
    if session is None or state is None:
        public["prompt"] = {
            "idle": "Press menu at the table (or New game here) to choose a game.",
            "choosing": "Choose a game: next and previous go through them, select chooses.",
            "seating": (
                "Seating: select at a seat joins, next at a free seat seats a bot; "
                "menu at the table starts."
            ),
        }.get(app.mode, app.mode)
        if app.mode == "choosing":
            public["menu"] = {
                "seat": "*",
                "prefix": [],
                "options": [engine.get(g).title for g in app.game_names],
                "index": app.choice,
                "kind": "lobby",
            }
        if app.mode == "seating":
            public["joined"] = list(app.seating.joined)
            public["bots"] = list(app.seating.bots)
            public["seat_order"] = list(app.seat_order)
        return public, private, players
    obs = state.observe()
    infos = seat_infos(app)
    public["seats"] = [
        {
            "player": s.player,
            "seat": app.players[s.player],
            "name": s.name,
            "colour": hex_colour(s.colour),
            "colour_name": s.colour_name,
        }
        for s in infos
    ]
    public["round"] = obs.round or None
    public["prompt"] = session.describe()
    public["over"] = state.is_over()
    last_text = None
    if state.history:
        last = state.history[-1]
        last_text = session.view.public_text(state, last)
        public["last"] = session.public_line(last)
    waiting = app._waiting_seat()
    if waiting is not None and waiting in app.players and app.mode in ("playing", "setup"):
        p = app.players.index(waiting)
        public["turn"] = {
            "seat": waiting,
            "name": app.seat_label(waiting),
            "colour": hex_colour(app.colours[p]),
            "colour_name": colour_name(app, waiting),
        }
    menu_seat = waiting
    if session.bot_to_act() is not None and app.mode in ("playing", "setup"):
        # a bot's move: any paired phone confirms it once it is done on the board
        public["menu"] = {
            "seat": "*",
            "prefix": [],
            "options": [session.bot_shown()],
            "index": 0,
            "can_back": False,
            "kind": "bot",
        }
        menu_seat = None
    elif (
        menu_seat is None
        and state.current_player() == CHANCE
        and not app.chance.automatic
        and app.mode in ("playing", "setup")
    ):
        menu_seat = "*"  # the card that came up: any paired seat enters it
    if (
        menu_seat is not None
        and app.mode in ("playing", "setup")
        and not state.is_over()
        and not session.held
        and (app.mode == "playing" or session.in_setup())
        and state.legal_actions()
    ):
        menu = app.menus.get(menu_seat) or session.fresh_menu(menu_seat)
        shown = menu_json(menu, menu_seat)
        hidden: set[str] = set()
        if menu_seat in app.players:
            hidden = strings(secrets_of(state, obs, app.players.index(menu_seat)))
        if all(
            session.view.public_text(state, a) == a.text and not hidden.intersection(a.words)
            for a in menu.actions
        ):
            public["menu"] = shown
        elif menu_seat in app.players:
            public["menu"] = {"seat": menu_seat, "private": True}
            private.setdefault(menu_seat, {})["menu"] = shown
    # the scoreboard: public scores now, the result and breakdown once over
    if obs.scores is not None:
        public["scores"] = [
            {"player": p, "name": state.label(p, session.name), "score": v}
            for p, v in enumerate(obs.scores)
        ]
    if state.is_over():
        public["result"] = result_lines(state, session.name)
    public["svg"] = board_svg(obs, app.frame(app.clock()), infos, last_text)
    for p, seat in enumerate(app.players):
        players[seat] = p
        private.setdefault(seat, {})["secrets"] = plain(secrets_of(state, obs, p))
        private[seat]["player"] = p
    return public, private, players


def secrets_of(state: Any, public: Any, player: int) -> dict[str, Any]:
    """What `player`'s observation adds to the public one: its secrets, by field."""
    names = {f.name for f in dataclasses.fields(public)}
    mine = state.observe(player)
    return {f.name: getattr(mine, f.name) for f in dataclasses.fields(mine) if f.name not in names}


def strings(value: Any) -> set[str]:
    """Every string inside a value (the names of cards in a hand, of tiles held): a menu
    that offers one of them as a word would tell the secret, so it is shown privately."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, Mapping):
        value = list(value.values())
    if isinstance(value, list | tuple | set | frozenset):
        return set().union(*(strings(v) for v in value)) if value else set()
    return set()


def menu_json(menu: Menu, seat: str) -> dict[str, Any]:
    """A menu level as the page draws it: the words chosen so far, the words offered
    (the same words as the buttons), the cursor."""
    return {
        "seat": seat,
        "prefix": list(menu.prefix),
        "options": menu.options(),
        "index": menu.index,
        "can_back": menu.prefix != menu.top,
        "kind": "game",
    }


__all__ = ["LOG_KEPT", "Published", "Sentences", "Snapshots", "build", "hex_colour", "plain"]
