"""The table's one status: what every front end shows, worked out once per board version.

The LEDs, the terminal, the phone page, the bots at a mocked table and any later front
end used to each work out whose turn it is and what may be chosen from the table's
internals, and disagreed (the terminal offered a number menu for a draw the app makes;
solo Florence's automa had no seat and crashed it). `build` is now the one place that
reads them: a frozen `Status` with the mode, the seats whose buttons act, the menu with
its cursor and what kind of choice it is, the prompt and headline in words, the log, the
scores, the setup checklist and the question the table is asking. Front ends read that
and act through `Table.command` (apps/table/app.py), as the engine's views read only
`observe(seat)`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

import engine
from engine.core import CHANCE, Observation, State

from ..record import result_lines
from ..views.base import Colour
from .ports import GameSession, Table

#: what a menu offers: `game` a real decision among the legal actions; `go_on` nothing
#: to decide (a draw the app makes, the board laid out, the scores seen): any button goes
#: on; `bot` the bot's move, confirmed once carried out; `lobby` the games; `check` the
#: component check's answers
MenuKind = Literal["game", "go_on", "bot", "lobby", "check"]
ANY = "*"  # a menu any seat's buttons act on


@dataclass(frozen=True)
class MenuStatus:
    """The menu the buttons act on now: the words offered at this level, the cursor."""

    seat: str  # the seat whose buttons act on it, or ANY
    kind: MenuKind
    options: tuple[str, ...]
    index: int
    prefix: tuple[str, ...] = ()
    can_back: bool = False
    private: bool = False  # its words tell that seat's secret: shown to that seat only
    auto: bool = False  # the table goes on by itself soon (a held draw): no press needed

    @property
    def decision(self) -> bool:
        """Whether a person chooses here (else any button just goes on)."""
        return self.kind in ("game", "lobby", "check")

    def line(self, label: str) -> str:
        """The menu in one line, the cursor's word in brackets: 'Anna: flag > [pirate] +1'."""
        words = " ".join(f"[{w}]" if i == self.index else w for i, w in enumerate(self.options))
        path = " ".join(self.prefix)
        return f"{label}: {path + ' > ' if path else ''}{words}"


@dataclass(frozen=True)
class SeatStatus:
    """A seat of the game in play (player order), or of the table between games."""

    seat: str
    label: str  # the player's name, or 'seat 2'
    player: int | None  # index in the game, None between games
    colour: Colour | None
    colour_name: str
    bot: bool = False
    joined: bool = False  # seating: it has joined the game being seated


@dataclass(frozen=True)
class ScoreStatus:
    player: int
    label: str
    score: int


@dataclass(frozen=True)
class Status:
    """Everything a front end shows of the table at one moment."""

    version: int  # the board version it was built at
    mode: str  # shown ("game over"); front ends branch on the fields below, not on it
    game: str | None
    title: str
    headline: str  # 'round 2 | Anna (red) to act'
    prompt: str  # what the table waits for, in a sentence
    waiting: tuple[str, ...]  # seats whose status light prompts (ANY: every seat)
    turn: SeatStatus | None  # the one seat to act, if one is
    menu: MenuStatus | None
    seats: tuple[SeatStatus, ...]
    table_seats: tuple[str, ...]  # every seat of the table, in order
    log: tuple[str, ...]
    checklist: tuple[str, ...]  # the setup steps, while the board is being set up
    last: str | None  # the last action, as '#12 Anna: flag pirate'
    round: int | None = None
    scores: tuple[ScoreStatus, ...] = ()
    result: tuple[str, ...] = ()  # the end in words, once over
    question: tuple[str, ...] = ()  # the component check's question, in lines
    blocked: str | None = None  # why nothing is taken now (the journal refuses writes)
    game_menu: tuple[str, ...] = ()  # the games, while one is being chosen
    in_game: bool = False  # a game is set up, played, scored or paused
    over: bool = False
    paused: bool = False
    scoring: bool = False  # the lights show a round's scoring, step by step
    seating: bool = False  # players join now

    def menu_for(self, seat: str) -> MenuStatus | None:
        """The menu `seat`'s buttons act on now (a menu for any seat is everyone's)."""
        menu = self.menu
        if menu is not None and menu.seat in (seat, ANY):
            return menu
        return None


@dataclass(frozen=True)
class Done:
    """A command the table carried out."""

    ok: Literal[True] = True


@dataclass(frozen=True)
class Refused:
    """A command the table refused, and why, in a sentence for the person who acted."""

    why: str
    ok: Literal[False] = False


# --- building it ------------------------------------------------------------------------
def build(app: Table) -> Status:
    """The status of `app` now (`Table.status` caches it per change)."""
    session = app.session
    title = engine.get(app.game_name).title if app.game_name else "Tavola"
    common = {
        "version": app.version,
        "mode": app.mode,
        "game": app.game_name,
        "title": title,
        "table_seats": tuple(app.seat_order),
        "log": tuple(app.table_log.lines),
        "checklist": tuple(app.table_log.checklist),
    }
    if session is None:
        return _lobby(app, title, common)
    return _game(app, session, title, common)


def _lobby(app: Table, title: str, common: dict[str, object]) -> Status:
    lobby, mode = app.lobby, app.mode
    menu: MenuStatus | None = None
    question: tuple[str, ...] = ()
    prompt = {
        "idle": "Press menu at the table (or select at a seat) to choose a game.",
        "choosing": "Choose a game: next and previous go through them, select chooses.",
        "seating": (
            "Seating: select at a seat joins, next at a free seat seats a bot; "
            "menu at the table (or hold select) starts."
        ),
    }.get(mode, "")
    head = [title]
    games = tuple(engine.get(g).title for g in lobby.game_names)
    if mode == "choosing":
        head.append("choose a game")
        menu = MenuStatus(ANY, "lobby", games, lobby.choice)
    elif mode == "checking" and lobby.check is not None:
        check = lobby.check
        head.append("component check")
        question = tuple(check.prompt())
        prompt = " ".join(question)
        menu = MenuStatus(ANY, "check", tuple(check.choices()), check.menu.index)
    elif mode == "seating":
        head.append("seating: select at a seat joins, next seats a bot")
    else:
        head.append("press menu to choose a game")
    joined, bots = lobby.seating.joined, lobby.seating.bots
    palette = lobby.palette()
    seats = []
    for seat in app.seat_order:
        at = joined.index(seat) if seat in joined else None
        colour, name = (palette[at][1], palette[at][0]) if at is not None else (None, "")
        seats.append(
            SeatStatus(seat, app.seat_label(seat), None, colour, name, seat in bots, at is not None)
        )
    waiting = (ANY,) if mode in ("choosing", "checking", "seating") else ()
    return Status(
        headline=" | ".join(head),
        prompt=prompt,
        waiting=waiting,
        turn=None,
        menu=menu,
        seats=tuple(seats),
        last=None,
        question=question,
        game_menu=games,
        seating=mode == "seating",
        **common,  # type: ignore[arg-type]
    )


def _game(app: Table, session: GameSession, title: str, common: dict[str, object]) -> Status:
    state, mode = session.state, app.mode
    obs = state.observe()
    seats = tuple(
        SeatStatus(
            seat,
            app.seat_label(seat),
            p,
            session.colours[p],
            colour_name(session, p),
            p in session.bots,
        )
        for p, seat in enumerate(session.players)
    )
    menu, prompt, waiting = _menu(app, session, obs)
    turn = None
    if len(waiting) == 1 and waiting[0] in session.players:
        turn = seats[session.players.index(waiting[0])]
    head = [title]
    if obs.round:  # Florence is in round 0 until the first round starts
        head.append(f"round {obs.round}")
    if mode == "setup":
        head.append("setting up")
    elif mode in ("over", "paused", "scoring"):
        head.append({"over": "game over", "paused": "paused", "scoring": "scoring"}[mode])
    elif menu is not None and menu.kind == "bot":
        head.append("the bot's move")
    elif turn is not None:
        head.append(f"{turn.label} ({turn.colour_name}) to act")
    elif state.current_player() == CHANCE:
        head.append("a draw is due")
    scores: tuple[ScoreStatus, ...] = ()
    if obs.scores is not None:
        scores = tuple(
            ScoreStatus(p, state.label(p, session.name), v) for p, v in enumerate(obs.scores)
        )
    last = session.last_line()
    unwritten = session.unwritten
    return Status(
        headline=" | ".join(head),
        prompt=prompt,
        waiting=waiting,
        turn=turn,
        menu=menu,
        seats=seats,
        last=last,
        round=obs.round or None,
        scores=scores,
        result=tuple(result_lines(state, session.name)) if state.is_over() else (),
        blocked=f"{unwritten.why}; nothing is taken until the journal accepts it"
        if unwritten is not None
        else None,
        in_game=True,
        over=state.is_over() or mode == "over",
        paused=mode == "paused",
        scoring=mode == "scoring",
        **common,  # type: ignore[arg-type]
    )


def _menu(
    app: Table, session: GameSession, obs: Observation
) -> tuple[MenuStatus | None, str, tuple[str, ...]]:
    """(the menu the buttons act on, the prompt sentence, the seats prompted) in a game;
    `obs` is the public observation."""
    state, mode = session.state, app.mode
    if mode == "paused":
        waiting = session.waiting_seat()
        prompt = "Paused. Menu resumes; hold menu to end the game."
        return None, prompt, (waiting,) if waiting is not None else ()
    if mode == "over" or state.is_over():
        return (
            MenuStatus(ANY, "go_on", ("new game",), 0),
            "Game over. Select at any seat for the next game.",
            (),
        )
    if mode == "scoring":
        return MenuStatus(ANY, "go_on", ("go on",), 0), "The round's scoring is shown.", ()
    if mode == "setup" and not session.in_setup():
        return (
            MenuStatus(ANY, "go_on", ("board laid out",), 0),
            "Lay out the board as the lights show, then press select at any seat.",
            (ANY,),
        )
    if session.held:
        last = state.history[-1]
        return (
            MenuStatus(ANY, "go_on", ("go on",), 0, auto=True),
            f"Undo takes back {session.name(last.player)}'s '{session.shown(last)}' until "
            "the table draws; any button goes on.",
            (ANY,),
        )
    if state.current_player() == CHANCE and app.chance.automatic:
        return None, "The table is drawing.", ()
    player = session.bot_to_act()
    if player is not None:
        return (
            MenuStatus(ANY, "bot", (session.bot_shown(),), 0),
            session.bot_line(),
            (session.players[player],),
        )
    if not state.legal_actions():
        return None, session.describe(), ()
    waiting = session.waiting_seat()
    key = waiting if waiting is not None else ANY
    menu = session.menus.get(key) or session.menu_for(key)
    private = waiting is not None and session.menu_is_secret(menu, waiting, obs)
    shown = MenuStatus(
        key,
        "game",
        tuple(menu.options()),
        menu.index,
        tuple(menu.prefix),
        menu.prefix != menu.top,
        private,
    )
    return shown, session.describe(), (key,)


def colour_name(session: GameSession, player: int) -> str:
    """The name of the colour a player plays, as the game's palette names it."""
    view, colour = session.view, session.colours[player]
    names = {c: n for n, c in view.palette_for(len(session.players))}
    names.update({c: n for n, c in view.palette if c not in names})
    return names.get(colour, "?")


def prompted(status: Status, seat: str) -> bool:
    """Whether `seat`'s status light prompts it now."""
    return seat in status.waiting or ANY in status.waiting


def secrets_of(state: State, public: Observation, player: int) -> dict[str, Any]:
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


__all__ = [
    "ANY",
    "Done",
    "MenuKind",
    "MenuStatus",
    "Refused",
    "ScoreStatus",
    "SeatStatus",
    "Status",
    "build",
    "colour_name",
    "prompted",
    "secrets_of",
    "strings",
]
