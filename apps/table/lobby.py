"""The table before a game: idle, choosing a game, checking its components, seating.

The lobby holds what exists between games (the games on offer, the menu's cursor, who
has joined) and, once enough players have joined, starts the game: it writes the game
to the journal and hands the table a `Session`. Before the first game of a title whose
component data holds guesses it offers the component check (`check.ComponentCheck`).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import engine

from ..journal import JournalUnavailable
from ..views import View, view_for
from ..views.base import Colour
from .check import ComponentCheck
from .session import Session

if TYPE_CHECKING:
    from .app import TableApp


def _seat_entry(table: TableApp, seat: str, colour: Colour) -> dict[str, Any]:
    """A player's seat as the journal records it: the seat, its colour and, when the
    table knows one, the player's name, so `tavola history` says it as the table did."""
    entry: dict[str, Any] = {"seat": seat, "colour": list(colour)}
    if table.names.get(seat):
        entry["name"] = table.names[seat]
    return entry


@dataclass
class Seating:
    """Who joined, in joining order, with their colours."""

    joined: list[str] = field(default_factory=list)


class Lobby:
    """Idle, choosing and seating: the presses of those modes, and the start of a game."""

    def __init__(
        self,
        table: TableApp,
        *,
        games: Sequence[str],
        game: str | None,
        seed: int | None,
        options: Mapping[str, Any],
    ) -> None:
        self.table = table
        self.game_names = list(games)
        self.fixed_game = game
        self.seed = seed
        self.options = dict(options)
        self.game_name: str | None = game  # the game chosen last (its compositor stays)
        self.view: View | None = None  # the chosen game's view, for its seat colours
        self.choice = 0  # game menu cursor while choosing
        self.seating = Seating()
        self.check: ComponentCheck | None = None  # the component check, in `checking`

    def announce_choice(self) -> None:
        title = engine.get(self.game_names[self.choice]).title
        self.table.say(f"Choose a game: {title} (next/previous, select to choose).")

    def on_idle(self, seat: str, command: str) -> None:
        if command == "select":
            if self.fixed_game is not None:
                self.choose(self.fixed_game)
            else:
                self.table.fire("wake")
                self.announce_choice()

    def on_choosing(self, seat: str, command: str) -> None:
        if command in ("next", "previous"):
            step = 1 if command == "next" else -1
            self.choice = (self.choice + step) % len(self.game_names)
            self.announce_choice()
        elif command == "select":
            self.choose(self.game_names[self.choice])
        elif command == "back":
            self.table.fire("cancel")

    def choose(self, name: str) -> None:
        """`name` is chosen: offer its component check first, if it is due, else seat."""
        self.game_name = name
        self.view = view_for(name)
        self.seating = Seating()
        check = None
        if self.table.component_check:
            check = ComponentCheck.offered(self.table, name, done=self.seat)
        if check is not None:
            self.check = check
            self.table.fire("check_offered")
            check.offer()
            return
        self.seat()

    def on_checking(self, seat: str, command: str) -> None:
        if self.check is not None:
            self.check.on_press(seat, command)

    def seat(self) -> None:
        """Seating for the chosen game begins (after its component check, if any)."""
        self.check = None
        self.table.fire("game_chosen")
        game = engine.get(self.game_name or "")
        self.table.say(
            f"{game.title}: each player presses select at their seat "
            f"({game.min_players}-{game.max_players}); then menu (or hold select) starts."
        )

    def on_seating(self, seat: str, command: str) -> None:
        game = engine.get(self.game_name or "")
        joined = self.seating.joined
        if command == "select":
            if seat in joined:
                joined.remove(seat)
                self.table.say(f"{self.table.seat_label(seat, capital=True)} left.")
            elif len(joined) >= game.max_players:
                self.table.flash(seat, f"{game.title} is for at most {game.max_players} players.")
            else:
                before = [name for name, _ in self.palette()]
                joined.append(seat)
                now = [name for name, _ in self.palette()]
                label = self.table.seat_label
                moved = "".join(
                    f" {label(s, capital=True)} is {now[i]} now."
                    for i, s in enumerate(joined[:-1])
                    if before[i] != now[i]
                )
                self.table.say(
                    f"{label(seat, capital=True)} joined as {now[len(joined) - 1]}.{moved}"
                )
                if len(joined) == game.max_players:
                    self.start_if_ready()
        elif command == "back":
            if seat in joined:
                self.start_if_ready()
            else:
                self.table.flash(seat, "Press select to join first.")

    def palette(self) -> Sequence[tuple[str, Colour]]:
        """The colours of the seats joined so far, as the game would give them now (a solo
        game may reserve the automa's colours)."""
        if self.view is None:
            return ()
        return self.view.palette_for(max(1, len(self.seating.joined)))

    def open_deck(self, game: engine.Game, options: Mapping[str, Any]) -> dict[str, Any]:
        """Options that let the people at the table enter any card face while the game's
        deck is still the shipped guess (engine.core.faces): the card that came up is
        theirs, not the guess's. Not when the app draws, nor against the config's choice."""
        if self.table.chance.automatic:
            return {}
        faces = game.card_faces(game.data())
        if faces is None or not game.data()[faces.group].unchecked():
            return {}
        extra = {k: v for k, v in faces.open_options.items() if k not in options}
        if extra:
            self.table.say(
                f"Your {faces.kind} are not entered yet: the table takes any card as it comes "
                f"up (`tavola cards learn {game.name} --faces` enters your deck once)."
            )
        return extra

    def start_if_ready(self) -> None:
        """Start the chosen game with the joined players, or say why it cannot start."""
        table = self.table
        game = engine.get(self.game_name or "")
        joined = self.seating.joined
        if len(joined) < game.min_players:
            table.say(
                f"{game.title} needs at least {game.min_players} players ({len(joined)} joined)."
            )
            table.flash_seats(table.seat_order)
            return
        view = self.view if self.view is not None else view_for(game.name)
        palette = view.palette_for(len(joined))
        colour_of = {seat: palette[i][1] for i, seat in enumerate(joined)}
        # players sit clockwise in seat order, starting with whoever joined first
        order = [s for s in table.seat_order if s in joined]
        first = order.index(joined[0])
        players = order[first:] + order[:first]
        colours = [colour_of[s] for s in players]
        seed = self.seed if self.seed is not None else int(time.time()) & 0x7FFFFFFF
        # [app.options] may name options of several games: each game gets its own
        declared = {o.name for o in game.options}
        options = {k: v for k, v in self.options.items() if k in declared}
        options.update(self.open_deck(game, options))
        try:
            state = game.new_state(len(players), seed=seed, options=options)
        except ValueError as exc:  # checked at start-up; a combination can still be refused
            table.flash_all(f"{game.title} cannot start: {exc}", seats=players)
            return
        try:
            game_id = table.journal.start_game(
                game.name,
                state.players,
                seed,
                dict(state.options),
                [_seat_entry(table, s, c) for s, c in zip(players, colours, strict=True)],
                state.data.digest,
                data_text=state.data.override_text,  # the game keeps its own data
            )
        except JournalUnavailable as exc:
            table.journal_refused(
                str(exc), "the game does not start; press again to retry", seats=players
            )
            return
        session = Session(
            table,
            game=game,
            view=view,
            state=state,
            game_id=game_id,
            players=players,
            colours=colours,
        )
        table.begin(session)
        table.fire("players_seated")
        names = {c: n for n, c in palette}
        seated = ", ".join(
            f"{s} {names[colour_of[s]]}" + (f" ({table.names[s]})" if s in table.names else "")
            for s in players
        )
        table.say(
            f"{game.title} for {state.players}: seats {seated}. "
            f"Set up the board as the lights show."
        )
        session.after_change([])
