"""A game in progress at the table: confirm, undo, resume, the journal, the prompts in words.

A `Session` exists only while a game is on (from seating to the end of the game), so
every field it has is there: the game, its view, its state, the journal's id for it,
who sits where. The table (`apps.table.app.Table`) holds one or none and routes the
presses of the game's modes (setup, playing, scoring, over, paused) to it.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import engine
from engine.bots import Bot, make_bot
from engine.core import (
    CHANCE,
    Action,
    Event,
    Game,
    Observation,
    SeatNamer,
    State,
    capital,
    seat_name,
)

from ..journal import GameRecord, JournalUnavailable
from ..menu import Menu
from ..record import data_of, recorded, result_lines
from ..thinker import Answer, Ask, Positions, think
from ..views import View, ViewContext, view_for
from ..views.base import Colour
from .ports import Table
from .render import seen
from .status import secrets_of, strings

log = logging.getLogger("tavola.table")

# a draw the app makes waits this long after an undoable action, so undo can still take
# the action back before anybody sees the card; any press draws at once
DRAW_GRACE_S = 4.0
RETRY_S = 2.0  # a write the journal refused is tried again this often
RETRY_WAIT_S = 0.1  # ... waiting this long for a lock (the first try waits the journal's 5 s)
# how a bot's secret is handled on the board: the app knows it, nobody at the table does
KEPT = "the table keeps it for the bot: nobody looks at it, it goes aside face down"
THINK_POLL_S = 0.02  # while a bot thinks, the main loop looks for its move this often


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


class Session:
    """One game from its first action to its end, with the seats its players sit at."""

    def __init__(
        self,
        table: Table,
        *,
        game: Game[Any],
        view: View,
        state: State,
        game_id: int,
        players: Sequence[str],
        colours: Sequence[Colour],
        bots: Mapping[int, str] | None = None,
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
        # Undo: the first `locked` actions can no longer be taken back (`why_locked` says
        # why); `held` is an automatic draw waiting for the next press, so that the
        # action before it stays undoable until somebody moves on.
        self.locked = 0
        self.why_locked = ""
        self.held = False
        self.held_until = 0.0  # ... and when the table draws it by itself
        # Bot seats: player -> its bot (and its level, which the table's thinker builds
        # the bot from); `proposal` is the move the bot to act has chosen, for the
        # `version` of the game it was chosen at, and its public text. `version` bumps at
        # every change of state, so an answer the thinker gives for an older one (an undo
        # or a move confirmed meanwhile) is never proposed; `asked` is (version, the ask's
        # number) of the decision being worked out.
        self.levels: dict[int, str] = dict(bots or {})
        self.bots: dict[int, Bot] = {p: make_bot(level) for p, level in self.levels.items()}
        self.proposal: tuple[int, Action, str] | None = None
        self.version = 0
        self.asked: tuple[int, int] | None = None
        self.asks = 0
        self.ask: Ask | None = None  # the latest ask, worked out here if the worker fails
        if self.levels:
            table.thinker.warm()  # the worker starts while the table is set up
        self.drawn: tuple[int, str] = (0, "")  # the last draw in words, at its history length

    @classmethod
    def resumed(cls, table: Table, record: GameRecord) -> Session:
        """The journal's unfinished game, replayed through the engine."""
        game = engine.get(record.game)
        try:
            data = data_of(record)  # the owner's file as it was when the game started
        except ValueError:
            raise ValueError("the component data changed since the game started") from None
        state = game.new_state(record.players, seed=record.seed, options=record.options, data=data)
        view = view_for(game.name)
        seats = [str(s["seat"]) for s in record.seats]

        def names(player: int) -> str:
            return (
                table.seat_label(seats[player]) if 0 <= player < len(seats) else seat_name(player)
            )

        locks: list[tuple[int, str]] = []
        drawn = (0, "")
        for n, (player, text) in enumerate(record.actions, start=1):
            action = recorded(state, player, text)
            if player == CHANCE and n == len(record.actions):  # the last draw, in words
                drawn = (n, view.describe_chance(state, action, names))
            events = state.apply(action)
            locks.append(lock(view, state, action, events, names))
        colours: list[Colour] = [(c[0], c[1], c[2]) for c in (s["colour"] for s in record.seats)]
        session = cls(
            table,
            game=game,
            view=view,
            state=state,
            game_id=record.id,
            players=[s["seat"] for s in record.seats],
            colours=colours,
            bots={p: str(s["bot"]) for p, s in enumerate(record.seats) if s.get("bot")},
        )
        session.drawn = drawn
        for at, why in locks:
            session.lock_at(at, why)
        # what was locked when an action was undone (a later player's turn had begun)
        for undone in table.journal.undone(record.id):
            session.lock_at(undone.locked, undone.why)
        return session

    def lock_at(self, at: int, why: str) -> None:
        """The first `at` actions can no longer be undone, because `why`."""
        if at > self.locked:
            self.locked, self.why_locked = at, why

    # --- words ------------------------------------------------------------------
    def name(self, player: int) -> str:
        """The table's `SeatNamer`: a player as the seat they sit at ('seat 3' for player 0
        when the first to join sat at seat 3)."""
        if 0 <= player < len(self.players):
            label = self.table.seat_label(self.players[player])
            return f"{label} (bot)" if player in self.bots else label
        return seat_name(player)

    def describe(self) -> str:
        """The engine's sentence about what it waits for, with the table's seat names."""
        return self.state.describe(self.name)

    def public_line(self, action: Action) -> str:
        """`#N seat S: text`, the acknowledgement of the state's last action."""
        who = "draw" if action.player == CHANCE else self.name(action.player)
        return f"#{len(self.state.history)} {who}: {self.shown(action)}"

    def last_line(self) -> str | None:
        """The last action as people read it: `#12 Anna: flag pirate`; a draw in the view's
        words (`#4 Ship 4 turned over: ...`) when the table saw it drawn."""
        history = self.state.history
        if not history:
            return None
        if history[-1].player == CHANCE and self.drawn[0] == len(history):
            return f"#{len(history)} {self.drawn[1]}"
        return self.public_line(history[-1])

    def shown(self, action: Action) -> str:
        """The state's last action as the whole table may read it: a wagon tile entered as
        it is taken stays face down in every sentence, undo's included."""
        return self.view.public_text(self.state, action)

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
            # a card a bot turns over is entered by anyone (its own are drawn by the app),
            # and so is one of a player no seat plays (solo Florence's automa, Strozzi)
            if actor is None or actor in self.bots or not 0 <= actor < len(self.players):
                return None
            return self.players[actor]
        return self.players[player]

    def menu_is_secret(self, menu: Menu, seat: str, public: Observation | None = None) -> bool:
        """Whether a menu's words tell `seat`'s secret (a card in its hand, a tile it
        holds, an action the log masks): it is then shown to that seat only. `public` is
        the public observation, when the caller has it."""
        if seat not in self.players:
            return False
        state = self.state
        public = public if public is not None else state.observe()
        hidden = strings(secrets_of(state, public, self.players.index(seat)))
        return any(
            self.view.public_text(state, a) != a.text or hidden.intersection(a.words)
            for a in menu.actions
        )

    def in_setup(self) -> bool:
        return bool(self.view.in_setup(self.state))

    def menu_for(self, seat: str) -> Menu:
        """A fresh menu of the legal actions for `seat`, kept as the seat's."""
        menu = self.fresh_menu(seat)
        self.menus[seat] = menu
        return menu

    def fresh_menu(self, seat: str, state: State | None = None) -> Menu:
        """The legal actions as `seat` is offered them (a one-button seat gets `back`),
        the cursor on a safe first choice; in the game's state unless `state` is given."""
        state = state if state is not None else self.state
        seats = self.table.seats
        one = seats[seat].one_button if seat in seats else False
        menu = Menu(state.legal_actions(), with_back=one)
        menu.index = self.safe_start(menu, state)
        return menu

    def safe_start(self, menu: Menu, state: State) -> int:
        """Where the cursor starts: on the first choice that does not end the seat's
        round (two presses of select must never pass a Florence round), tried on a copy
        of the state; on the first choice when every one ends it."""
        player = state.current_player()
        if player is None or player < 0:
            return 0
        for index in range(len(menu.options())):
            menu.index = index
            # a word with choices below it (Florence's `pass LOCATION`) is tried with its
            # first: they all end the round or none does
            under = menu.candidates()
            action = menu.candidate() or (under[0] if under else None)
            if action is None:  # `back`
                continue
            trial = state.clone()
            trial.apply(action)
            if trial.is_over() or self.view.seat_active(seen(self, trial), player):
                return index
        return 0

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
        if self.held:
            self.release(seat, command)
            return
        refusal = table.refusal(seat)
        if refusal is not None:
            table.flash(seat, refusal)
            return
        if self.bot_to_act() is not None:
            self.on_bot_turn(seat, command)
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
        table.say_where(seat, menu)

    def release(self, seat: str, command: str) -> None:
        """A press while a draw is held: the table draws now (the action before it can no
        longer be undone). A previous / next at the seat that is then to act also moves
        its cursor; a select only draws, so nobody chooses before seeing what came up."""
        self.held = False
        self.auto_draw()
        if command in ("next", "previous") and self.table.mode == "playing":
            menu = self.menus.get(seat)
            if menu is not None and self.waiting_seat() == seat:
                menu.next() if command == "next" else menu.previous()
                self.table.say_where(seat, menu)

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
        if action.player == CHANCE:  # a draw in words, as the view says it (never a secret)
            self.drawn = (
                len(state.history) + 1,
                self.view.describe_chance(state, action, self.name),
            )
        events = state.apply(action)
        self.version += 1
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
        self.lock_at(*lock(self.view, self.state, action, events, self.name))
        self.say_action(action)
        if action.player == CHANCE:
            self.table.chance_entered(action, len(self.state.history) - 1)
        self.table.journal.sync_mark()  # the append synced it already; a no-op then
        self.after_change(events)

    def say_action(self, action: Action) -> None:
        self.table.acknowledged = len(self.state.history)
        self.table.say(self.public_line(action))

    def after_change(self, events: list[Event]) -> None:
        """New state: reset menus, show scoring, finish, or let the app draw."""
        table, state = self.table, self.state
        self.menus.clear()
        self.proposal = None  # an undo and another move may reach the same length
        self.version += 1
        table.changed()
        if table.mode == "idle":
            return
        for sentence in state.news(events, self.name):
            table.say(sentence)  # each scoring step and public news as it happens, in words
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
        if self.bot_draws(state):
            self.auto_draw(by_bot=True)
            return
        if state.current_player() == CHANCE and table.chance.automatic:
            history = state.history
            if table.mode == "playing" and history and len(history) > self.locked:
                # the draw waits for the next press: until then the action stays undoable
                self.held = True
                self.held_until = table.clock() + DRAW_GRACE_S
                table.say(
                    f"Undo takes back {self.name(history[-1].player)}'s "
                    f"'{self.shown(history[-1])}' for {DRAW_GRACE_S:g} s; any button goes on."
                )
                return
            self.auto_draw()
            return
        if self.bot_to_act() is not None:
            self.propose()
            return
        table.say(self.describe())  # the prompt in words: who acts, and on what
        self.show_cursor()

    def show_cursor(self) -> None:
        """The seat to act gets its menu at once, cursor and preview included: nobody has
        to press a key to learn where the cursor is."""
        table, state = self.table, self.state
        if table.mode != "playing" or state.is_over() or not state.legal_actions():
            return
        seat = self.waiting_seat()
        if seat is None or state.current_player() == CHANCE:
            return  # a card to enter: no candidate card is previewed before it is drawn
        menu = self.menu_for(seat)
        table.say_where(seat, menu)

    def auto_draw(self, *, by_bot: bool = False) -> None:
        """The app draws the pending card (`by_bot`: one only a bot may see, said as the
        view says a draw, which never names a secret card, and how to set it aside)."""
        table, state = self.table, self.state
        if (
            table.mode in ("setup", "playing")
            and state.current_player() == CHANCE
            and (table.chance.automatic or by_bot)
        ):
            action = table.chance.draw(state)
            table.say(self.view.describe_chance(state, action, self.name))
            if by_bot:
                table.say(f"The card is secret: {KEPT}.")
            self.confirm(action)

    # --- bot seats ---------------------------------------------------------------------
    def bot_to_act(self) -> int | None:
        """The player whose bot is to decide now, if the one to act is a bot."""
        player = self.state.current_player()
        if player is None or player < 0 or player not in self.bots or self.state.is_over():
            return None
        return player

    def bot_draws(self, state: State) -> bool:
        """A draw that only a bot may see (a card into its hand): the app makes it, as it
        keeps the rest of the bot's secrets; nobody at the table sees the card. A draw a bot
        turns over in the open is entered as anyone's would be."""
        if state.current_player() != CHANCE or state.is_over() or not self.bots:
            return False
        actor = self.view.chance_actor(state)
        if actor is None or actor not in self.bots:
            return False
        trial = state.clone()
        action = trial.chance_outcomes()[0][0]
        trial.apply(action)
        return self.view.public_text(trial, action) != action.text

    def bot_move(self) -> Action:
        """The move of the bot to act, chosen once per position (and the same again after
        a resume or an undo: its randomness comes from the game's seed). Waits for the
        thinker: for tools and tests; the table's own loop never waits (`known`)."""
        known = self.known()
        if known is None:
            self.wait_for_bot()
            known = self.known()
        if known is None:
            raise RuntimeError(f"{self.name(self.bot_to_act() or 0)}'s bot gave no move")
        return known[1]

    def bot_shown(self) -> str:
        """The bot's move as the whole table may read it (a secret in it masked); 'thinking'
        while it is worked out."""
        known = self.known()
        return "thinking" if known is None else known[2]

    def known(self) -> tuple[int, Action, str] | None:
        """(version, the bot's move, its public text) once the thinker has answered for this
        position; None while it thinks (asked here if it was not yet)."""
        if self.proposal is not None and self.proposal[0] == self.version:
            return self.proposal
        self.think()
        if self.proposal is not None and self.proposal[0] == self.version:
            return self.proposal  # an inline thinker answers at once
        return None

    def thinking(self) -> bool:
        """Whether a bot is to act and its move is still being worked out."""
        return self.bot_to_act() is not None and self.known() is None

    def think(self) -> None:
        """Ask the table's thinker for the move of the bot to act, once per position."""
        player = self.bot_to_act()
        if player is None or self.unwritten is not None:
            return
        if self.asked is not None and self.asked[0] == self.version:
            return
        self.asks += 1
        self.asked = (self.version, self.asks)
        self.ask = Ask.of(self.state, player, self.levels[player], self.asks)
        thinker = self.table.thinker
        thinker.ask(self.ask)
        if thinker.kind == "inline":
            self.take(thinker.poll())

    def take(self, answer: Answer | None) -> bool:
        """Keep the thinker's answer as the proposal if it answers the ask for this very
        position (never a move worked out before an undo or a confirmed move); True if
        it was kept."""
        asked, player = self.asked, self.bot_to_act()
        if answer is None or asked is None or player is None:
            return False
        number, text, why = answer
        if number != asked[1] or asked[0] != self.version or self.unwritten is not None:
            return False
        if text is None and self.ask is not None:  # the worker failed: the same move,
            log.error("the bots' worker gave no move (%s); deciding on the table's loop", why)
            text = think(self.ask, Positions())  # worked out here this once
        action = next((a for a in self.state.legal_actions() if a.text == text), None)
        if action is None or action.player != player:
            log.error("the bot of %s proposed %r, not a legal move", self.name(player), text)
            return False
        self.asked = None
        after = self.state.clone()
        after.apply(action)
        self.proposal = (self.version, action, self.view.public_text(after, action))
        return True

    def awaiting(self) -> bool:
        """Whether the thinker is working out a move for this very position."""
        return self.asked is not None and self.asked[0] == self.version

    def poll_bot(self) -> None:
        """On each tick: the thinker's answer, if it has come, proposed at once."""
        if self.awaiting() and self.take(self.table.thinker.poll()):
            self.propose()

    def wait_for_bot(self, timeout: float | None = None) -> None:
        """Wait up to `timeout` seconds for the bot's move and propose it (tools, tests,
        the simulated table; the table's loop polls instead)."""
        if self.known() is not None or not self.awaiting():
            return
        if self.take(self.table.thinker.wait(timeout)):
            self.propose()

    def bot_line(self) -> str:
        """What the bot to act does, as the table may read it, and how to carry it out."""
        player = self.bot_to_act()
        assert player is not None
        known = self.known()
        if known is None:
            return f"{capital(self.name(player))} is thinking."
        _, action, shown = known
        kept = f" ({KEPT})" if shown != action.text else ""
        return (
            f"{capital(self.name(player))} plays {shown!r}{kept}: "
            "do it as the lights show, then select at any seat."
        )

    def propose(self) -> None:
        """The bot's move on the lights (its seat's preview, as a cursor would show it)
        and in words; one select at any seat confirms it. While the bot thinks, the table
        says so and goes on answering presses; the move is proposed when it comes."""
        player = self.bot_to_act()
        assert player is not None
        known = self.known()
        if known is not None:
            self.menus[self.players[player]] = Menu([known[1]])
        self.table.dirty = True
        self.table.say(self.bot_line())

    def on_bot_turn(self, seat: str, command: str) -> None:
        """A press while a bot's move waits: select confirms it; anything else says it
        again (nobody chooses for a bot). While the bot thinks, every press says so."""
        known = self.known()
        if command == "select" and known is not None:
            self.confirm(known[1])
        else:
            self.table.say(self.bot_line())

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
        for line in self.result_lines():
            table.say(line)

    def result_lines(self) -> list[str]:
        """The end in words: the result with its tie-break, then each seat's breakdown
        (the scoring steps of the whole game added up by kind)."""
        return result_lines(self.state, self.name)

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
        """Take back the last action while that is still fair: until the next player has
        acted, nothing hidden was revealed since and no draw was seen (a held draw is not
        drawn yet, so the action before it can be undone). Pressed again, it goes on
        through the same seat's earlier actions of the turn. The journal keeps what was
        undone (`Journal.undone`)."""
        table, state = self.table, self.state
        if table.mode not in ("playing", "setup") or not state.history:
            table.refused("nothing to undo")
            table.say("Nothing to undo.")
            return
        last = state.history[-1]
        if len(state.history) <= self.locked:
            why = f"'{self.shown(last)}' cannot be undone: {self.why_locked}."
            table.refused(why)
            table.say(why)
            table.flash_seats(self.players)
            return
        try:
            table.journal.undo(self.game_id, locked=self.locked, why=self.why_locked)
        except JournalUnavailable as exc:
            table.journal_refused(str(exc), "nothing was undone")
            return
        shown = self.shown(last)
        self.held = False
        self.state = self.replayed(state.history[:-1])
        table.say(f"Undone: {self.name(last.player)}'s '{shown}'.")
        self.after_change([])

    def replayed(self, actions: Sequence[Action]) -> State:
        """The game's state after `actions`, rebuilt from its seed (undo, refused writes)."""
        state = self.state
        replay = self.game.new_state(
            state.players, seed=state.seed, options=state.options, data=state.data
        )
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
        self.table.journal_refusal = None
        self.table.say("The journal accepts writes again; nothing was lost.")
        if isinstance(u, UnwrittenAction):
            self.state = u.after
            self.acknowledge(u.action, u.events)


# --- how far undo may go ----------------------------------------------------------------
def lock(
    view: View, state: State, action: Action, events: list[Event], names: SeatNamer = seat_name
) -> tuple[int, str]:
    """How many actions are locked once `action` is applied to `state` (state after it),
    and why. Undo never takes back what a seat or the table has seen: an action that
    revealed something hidden (the engine says which, `State.reveals`: a draw, a card
    discarded face up, a deck looked through), a scoring or the end lock everything; a
    seat acting after another seat locks what came before it (the other seat's turn is
    over)."""
    history = state.history
    n = len(history)
    revealed = state.reveals(action, events)
    if revealed is not None:
        return n, revealed
    if state.is_over() or (events and view.is_scoring(events)):
        return n, "it was scored"
    if n >= 2 and history[-2].player not in (action.player, CHANCE):
        return n - 1, f"{names(action.player)} has acted since"
    return 0, ""


__all__ = [
    "RETRY_S",
    "RETRY_WAIT_S",
    "Session",
    "Unwritten",
    "UnwrittenAction",
    "UnwrittenFinish",
    "lock",
    "recorded",
]
