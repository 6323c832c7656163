"""The table before a game: idle, choosing a game, checking its components, seating.

The lobby holds what exists between games (the games on offer, the menu's cursor, who
has joined) and, once enough players have joined, starts the game: it writes the game
to the journal and hands the table a `Session`. Before the first game of a title whose
component data holds guesses it offers the component check (`check.ComponentCheck`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import engine
from engine.bots import DEFAULT_LEVEL

from ..chance import fresh_seed
from ..journal import JournalUnavailable
from ..views import View, view_for
from ..views.base import Colour
from .check import ComponentCheck
from .ports import Table
from .session import Session


def _seat_entry(table: Table, seat: str, colour: Colour) -> dict[str, Any]:
    """A player's seat as the journal records it: the seat, its colour and, when the
    table knows one, the player's name, so `tavola history` says it as the table did."""
    entry: dict[str, Any] = {"seat": seat, "colour": list(colour)}
    if table.names.get(seat):
        entry["name"] = table.names[seat]
    bot = table.lobby.seating.bots.get(seat)
    if bot is not None:
        entry["bot"] = bot
    return entry


@dataclass
class Seating:
    """Who joined, in joining order (bots included), and which seats a bot plays."""

    joined: list[str] = field(default_factory=list)
    bots: dict[str, str] = field(default_factory=dict)  # seat -> the bot's level

    def person(self, seat: str) -> bool:
        """A seat taken by a person (not free, not a bot's)."""
        return seat in self.joined and seat not in self.bots


class Lobby:
    """Idle, choosing and seating: the presses of those modes, and the start of a game."""

    def __init__(
        self,
        table: Table,
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
        table = self.table
        for seat, level in table.bots.items():  # the config's bot seats sit down at once
            if self.full() is None:
                self.seating.joined.append(seat)
                self.seating.bots[seat] = level
        self.table.say(
            f"{game.title}: each player presses select at their seat "
            f"({game.min_players}-{game.max_players}); next at a free seat seats a bot; "
            "then menu (or hold select) starts."
        )
        if self.seating.bots:
            bots = ", ".join(table.seat_label(s) for s in self.seating.bots)
            table.say(f"A bot plays at {bots} (select there to play yourself, next frees it).")

    def on_seating(self, seat: str, command: str) -> None:
        game = engine.get(self.game_name or "")
        joined, bots = self.seating.joined, self.seating.bots
        label = self.table.seat_label
        if command == "select":
            if seat in bots:  # a person takes the bot's seat, and its colour
                del bots[seat]
                self.table.say(f"{label(seat, capital=True)} plays instead of the bot.")
            elif seat in joined:
                joined.remove(seat)
                self.table.say(f"{label(seat, capital=True)} left.")
            elif (full := self.full()) is not None:
                self.table.flash(seat, full)
            else:
                self.join(seat)
                if len(joined) == game.max_players:
                    self.start_if_ready()
        elif command in ("next", "previous"):
            why = self.toggle_bot(seat)
            if why is not None:
                self.table.flash(seat, why)
        elif command == "back":
            if seat in joined:
                self.start_if_ready()
            else:
                self.table.flash(seat, "Press select to join first.")

    def toggle_bot(self, seat: str, level: str = DEFAULT_LEVEL) -> str | None:
        """A bot sits down at the free `seat`, or leaves it; why not, when it cannot."""
        joined, bots = self.seating.joined, self.seating.bots
        if seat in bots:
            del bots[seat]
            joined.remove(seat)
            self.table.say(f"The bot left {self.table.seat_label(seat)}; it is free.")
        elif seat in joined:
            return "you have joined: select leaves, menu starts."
        elif (full := self.full()) is not None:
            return full
        else:
            self.join(seat, bot=level)
        return None

    def full(self) -> str | None:
        """Why nobody more can sit down (the game's seats are all taken), or None."""
        game = engine.get(self.game_name or "")
        if len(self.seating.joined) >= game.max_players:
            return f"{game.title} is for at most {game.max_players} players."
        return None

    def join(self, seat: str, *, bot: str | None = None) -> None:
        """`seat` joins (a bot of level `bot` when given), said with its colour and any
        colour that changed for the seats before it."""
        joined = self.seating.joined
        label = self.table.seat_label
        before = [name for name, _ in self.palette()]
        joined.append(seat)
        if bot is not None:
            self.seating.bots[seat] = bot
        now = [name for name, _ in self.palette()]
        moved = "".join(
            f" {label(s, capital=True)} is {now[i]} now."
            for i, s in enumerate(joined[:-1])
            if before[i] != now[i]
        )
        who = f"A bot ({bot}) joined at {label(seat)}" if bot else f"{label(seat, capital=True)}"
        joined_as = "as" if bot else "joined as"
        self.table.say(f"{who} {joined_as} {now[len(joined) - 1]}.{moved}")

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
        people = [s for s in joined if self.seating.person(s)]
        first = order.index(people[0] if people else joined[0])
        players = order[first:] + order[:first]
        colours = [colour_of[s] for s in players]
        seed = self.seed if self.seed is not None else fresh_seed()  # secret unless fixed
        # [app.options] may name options of several games: each game gets its own
        declared = {o.name for o in game.options}
        options = {k: v for k, v in self.options.items() if k in declared}
        options.update(self.open_deck(game, options))
        kept = [str(p + 1) for p, s in enumerate(players) if s in self.seating.bots]
        if kept and game.kept_secrets is not None:  # the app keeps the bots' secrets
            options[game.kept_secrets] = ",".join(kept)
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
        table.journal_refusal = None
        session = Session(
            table,
            game=game,
            view=view,
            state=state,
            game_id=game_id,
            players=players,
            colours=colours,
            bots={p: self.seating.bots[s] for p, s in enumerate(players) if s in self.seating.bots},
        )
        table.begin(session)
        table.fire("players_seated")
        names = {c: n for n, c in palette}
        seated = ", ".join(
            f"{s} {names[colour_of[s]]}"
            + (f" ({table.names[s]})" if s in table.names else "")
            + (" (bot)" if s in self.seating.bots else "")
            for s in players
        )
        table.say(
            f"{game.title} for {state.players}: seats {seated}. "
            f"Set up the board as the lights show."
        )
        session.after_change([])
