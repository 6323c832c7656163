"""A game in progress at the table: confirm, undo, resume, the journal, the prompts in words.

A `Session` exists only while a game is on (from seating to the end of the game), so
every field it has is there: the game, its view, its state, the journal's id for it,
who sits where. The table (`apps.table.app.TableApp`) holds one or none and routes the
presses of the game's modes (setup, playing, scoring, over, paused) to it.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import engine
from engine.core import CHANCE, Action, Event, Game, IllegalAction, State, seat_name

from ..journal import GameRecord, JournalUnavailable
from ..menu import Menu
from ..views import View, ViewContext, view_for
from ..views.base import Colour

if TYPE_CHECKING:
    from .app import TableApp

log = logging.getLogger("tavola.table")

RETRY_S = 2.0  # a write the journal refused is tried again this often
RETRY_WAIT_S = 0.1  # ... waiting this long for a lock (the first try waits the journal's 5 s)


@dataclass
class Unwritten:
    """A write the journal refused (disk full, a lock): kept in memory and tried again;
    until it is written the table takes no new action and the board shows what the
    journal has."""

    why: str
    retry_at: float


@dataclass
class UnwrittenAction(Unwritten):
    """A confirmed action the journal has not taken yet."""

    action: Action
    after: State  # the state with the action applied
    events: list[Event]


@dataclass
class UnwrittenFinish(Unwritten):
    """The end of a game (every action is in the journal), not written yet."""

    scores: list[int]
    winner: list[int]


def recorded(state: State, player: int, text: str) -> Action:
    """A journal's action as the engine now reads it. The text is what was entered; an
    action an older version recorded for another actor (a Strada Romana wagon tile was once
    a draw, now its holder's choice) is matched by its text alone."""
    try:
        return state.parse_action(text, player=player)
    except IllegalAction:
        action = state.parse_action(text)
        log.info("journal: %r was recorded for player %s, now %s's", text, player, action.player)
        return action


class Session:
    """One game from its first action to its end, with the seats its players sit at."""

    def __init__(
        self,
        table: TableApp,
        *,
        game: Game[Any],
        view: View,
        state: State,
        game_id: int,
        players: Sequence[str],
        colours: Sequence[Colour],
    ) -> None:
        self.table = table
        self.game = game
        self.view = view
        self.state = state
        self.game_id = game_id
        self.players = list(players)  # seat name per player index
        self.colours = list(colours)
        self.ctx = ViewContext(colours=tuple(self.colours), seats=tuple(self.players))
        self.menus: dict[str, Menu] = {}
        self.unwritten: Unwritten | None = None

    @classmethod
    def resumed(cls, table: TableApp, record: GameRecord) -> Session:
        """The journal's unfinished game, replayed through the engine."""
        game = engine.get(record.game)
        state = game.new_state(record.players, seed=record.seed, options=record.options)
        if state.data.digest != record.data_digest:
            raise ValueError("the component data changed since the game started")
        for player, text in record.actions:
            state.apply(recorded(state, player, text))
        colours: list[Colour] = [(c[0], c[1], c[2]) for c in (s["colour"] for s in record.seats)]
        return cls(
            table,
            game=game,
            view=view_for(game.name),
            state=state,
            game_id=record.id,
            players=[s["seat"] for s in record.seats],
            colours=colours,
        )

    # --- words ------------------------------------------------------------------
    def name(self, player: int) -> str:
        """The table's `SeatNamer`: a player as the seat they sit at ('seat 3' for player 0
        when the first to join sat at seat 3)."""
        if 0 <= player < len(self.players):
            return self.table.seat_label(self.players[player])
        return seat_name(player)

    def describe(self) -> str:
        """The engine's sentence about what it waits for, with the table's seat names."""
        return self.state.describe(self.name)

    def public_line(self, action: Action) -> str:
        """`#N seat S: text`, the acknowledgement of the state's last action."""
        who = "draw" if action.player == CHANCE else self.name(action.player)
        return f"#{len(self.state.history)} {who}: {self.view.public_text(self.state, action)}"

    # --- whose buttons act --------------------------------------------------------
    def waiting_seat(self, seen: State | None = None) -> str | None:
        """The seat whose buttons act now (None: any seat, for an unassigned chance pick).
        `seen` is the state as the frame being drawn sees it (observed once)."""
        state = self.state
        player = state.current_player()
        if player is None:
            return None
        if player == CHANCE:
            actor = self.view.chance_actor(seen if seen is not None else state)
            return None if actor is None else self.players[actor]
        return self.players[player]

    def in_setup(self) -> bool:
        return bool(self.view.in_setup(self.state))

    def menu_for(self, seat: str) -> Menu:
        """A fresh menu of the legal actions for `seat` (a one-button seat gets `back`)."""
        seats = self.table.seats
        one = seats[seat].one_button if seat in seats else False
        menu = Menu(self.state.legal_actions(), with_back=one)
        self.menus[seat] = menu
        return menu

    # --- presses in the game's modes -------------------------------------------------
    def on_setup(self, seat: str, command: str) -> None:
        """Setup draws first (picked at the buttons unless the app draws); then any seat's
        select says the board is laid out as the lights show."""
        if self.in_setup():
            self.on_playing(seat, command)
        elif command == "select":
            self.table.fire("setup_done")
            self.table.say("Play starts.")
            self.after_change([])

    def on_playing(self, seat: str, command: str) -> None:
        table, state = self.table, self.state
        if state.is_over():
            return
        refusal = table.refusal(seat)
        if refusal is not None:
            table.flash(seat, refusal)
            return
        if self.waiting_seat() is None and state.current_player() == CHANCE:
            # anyone may enter the card that came up; one menu serves the table
            seat = "*"
        menu = self.menus.get(seat) or self.menu_for(seat)
        if command == "next":
            menu.next()
        elif command == "previous":
            menu.previous()
        elif command == "back":
            if not menu.back():
                table.flash(seat if seat != "*" else table.seat_order[0], "already at the top.")
        elif command == "select":
            action = menu.select()
            if action is not None:
                self.confirm(action)
                return
        table.say(f"Seat {seat}: {menu.path()}")

    def on_scoring(self, seat: str, command: str) -> None:
        if command == "select":
            self.scores_done()

    def on_over(self, seat: str, command: str) -> None:
        if command in ("select", "back"):
            self.table.to_idle()

    def on_paused(self, seat: str, command: str) -> None:
        self.table.flash(seat, "the game is paused: press menu to resume.")

    # --- confirm, acknowledge, move on ------------------------------------------------
    def confirm(self, action: Action) -> list[Event]:
        """Apply, commit, then acknowledge: the journal has it before the lights say so.

        A journal that refuses the write (disk full, locked) keeps the game in memory:
        the action waits in `unwritten`, the board stays as the journal has it, every
        press is refused with the reason, and `tick()` tries again until it is written.
        """
        table, state = self.table, self.state
        events = state.apply(action)
        try:
            table.journal.append(self.game_id, len(state.history), action.player, action.text)
        except JournalUnavailable as exc:
            self.state = self.replayed(state.history[:-1])
            self.unwritten = UnwrittenAction(
                str(exc), table.clock() + RETRY_S, action=action, after=state, events=events
            )
            table.journal_refused(
                str(exc),
                "the game is kept; no action is taken until the "
                f"journal accepts it (tried again every {RETRY_S:g} s)",
            )
            return events
        self.acknowledge(action, events)
        return events

    def acknowledge(self, action: Action, events: list[Event]) -> None:
        self.say_action(action)
        self.table.journal.sync_mark()  # right after the acknowledgement, not between
        self.after_change(events)

    def say_action(self, action: Action) -> None:
        self.table.acknowledged = len(self.state.history)
        self.table.say(self.public_line(action))

    def after_change(self, events: list[Event]) -> None:
        """New state: reset menus, show scoring, finish, or let the app draw."""
        table, state = self.table, self.state
        self.menus.clear()
        table.changed()
        if table.mode == "idle":
            return
        if state.is_over():
            if self.view.is_scoring(events):
                self.show_scoring(events)
            self.finish()
            return
        if events and self.view.is_scoring(events):
            self.show_scoring(events)
            if table.mode != "scoring":
                table.fire("round_scored")
            return
        if table.mode == "setup" and not self.in_setup():
            table.say("Lay out the board as the lights show, then press select at any seat.")
            return
        if state.current_player() == CHANCE and table.chance.automatic:
            self.auto_draw()
        else:
            table.say(self.describe())  # the prompt in words: who acts, and on what

    def auto_draw(self) -> None:
        table, state = self.table, self.state
        if (
            table.mode in ("setup", "playing")
            and state.current_player() == CHANCE
            and table.chance.automatic
        ):
            action = table.chance.draw(state)
            table.say(self.view.describe_chance(state, action))
            self.confirm(action)

    def show_scoring(self, events: list[Event]) -> None:
        self.table.renderer.show_scoring(self.view.scoring_steps(self.state, events, self.ctx))
        for event in events:
            if event.kind in ("round_scored", "round_ended") and "round" in event.data:
                self.table.say(f"Round {event['round']} scored.")

    def scores_done(self) -> None:
        self.table.renderer.scoring = []
        if self.table.mode == "scoring":
            self.table.fire("scores_shown")
            self.auto_draw()

    def finish(self) -> None:
        table, state = self.table, self.state
        scores, winner = state.scores(), state.winner()
        try:
            table.journal.finish(self.game_id, scores, winner)
        except JournalUnavailable as exc:  # every action is in; the end is written later
            self.unwritten = UnwrittenFinish(
                str(exc), table.clock() + RETRY_S, scores=scores, winner=winner
            )
            table.journal_refused(str(exc), "the game's end is written as soon as it can be")
        table.fire("game_ended")
        results = ", ".join(f"{self.name(p)}: {v}" for p, v in enumerate(scores))
        names = ", ".join(self.name(p) for p in winner)
        # no winning seat: a solo player lost to the game's automa
        ending = f"Winner: {names}." if names else f"No seat wins. {self.describe()}"
        table.say(f"Game over. Scores: {results}. {ending}")

    def abandon(self) -> bool:
        """End an unfinished game unscored; False when the journal refused to record it."""
        if not self.state.is_over():
            try:
                self.table.journal.abandon(self.game_id)
            except JournalUnavailable as exc:
                self.table.journal_refused(str(exc), "the game goes on")
                return False
            self.table.say("Game ended without scoring.")
        return True

    # --- undo, refused writes ----------------------------------------------------------
    def undo(self) -> None:
        """Undo the last action, never past a draw that was seen (the table saw the card)."""
        table, state = self.table, self.state
        if table.mode not in ("playing", "setup") or not state.history:
            table.say("Nothing to undo.")
            return
        last = state.history[-1]
        if last.player == CHANCE:
            table.say(f"'{last.text}' was a draw everybody saw; it cannot be undone.")
            table.flash_seats(self.players)
            return
        try:
            table.journal.undo(self.game_id)
        except JournalUnavailable as exc:
            table.journal_refused(str(exc), "nothing was undone")
            return
        self.state = self.replayed(state.history[:-1])
        table.say(f"Undone: {last.text}.")
        self.after_change([])

    def replayed(self, actions: Sequence[Action]) -> State:
        """The game's state after `actions`, rebuilt from its seed (undo, refused writes)."""
        state = self.state
        replay = self.game.new_state(state.players, seed=state.seed, options=state.options)
        for action in actions:
            replay.apply(action)
        return replay

    def retry(self, now: float) -> None:
        """Try the refused write again; once it is in the journal, carry on from it."""
        u, journal = self.unwritten, self.table.journal
        if u is None:
            return
        try:
            if isinstance(u, UnwrittenAction):
                journal.append(
                    self.game_id,
                    len(u.after.history),
                    u.action.player,
                    u.action.text,
                    wait=RETRY_WAIT_S,
                )
            elif isinstance(u, UnwrittenFinish):
                journal.finish(self.game_id, u.scores, u.winner, wait=RETRY_WAIT_S)
        except JournalUnavailable as exc:
            u.why, u.retry_at = str(exc), now + RETRY_S
            return
        self.unwritten = None
        log.warning("journal %s accepts writes again", journal.path)
        self.table.say("The journal accepts writes again; nothing was lost.")
        if isinstance(u, UnwrittenAction):
            self.state = u.after
            self.acknowledge(u.action, u.events)


__all__ = [
    "RETRY_S",
    "RETRY_WAIT_S",
    "Session",
    "Unwritten",
    "UnwrittenAction",
    "UnwrittenFinish",
    "recorded",
]
