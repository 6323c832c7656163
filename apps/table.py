"""The table: one `transitions` machine from idle to game over, driven by button events.

Everything here runs on the app's one thread: button events arrive through a
queue (hw.buttons), `handle()` applies them, `tick()` renders when something
changed or an animation is due and says how long the loop may sleep. Every
confirmed action is committed to the journal before the lights acknowledge it.

A game plugs in with a view (apps.views.<game>), its layout and its notation:
the menus are built from the notation's words, candidates are previewed by
applying them to a clone and lighting what would change.
"""

from __future__ import annotations

import logging
import math
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from transitions import Machine

import engine
from engine.core import CHANCE, Action, Event, IllegalAction, State
from hw.events import InputEvent

from .cards import CardError, CardReader
from .chance import ChanceSource
from .compositor import Compositor
from .journal import Journal, JournalUnavailable
from .menu import Menu
from .views import Frame, View, ViewContext, view_for
from .views.base import OFF, Colour, dim

log = logging.getLogger("tavola.table")

# --- the table's flow -----------------------------------------------------------------
STATES = ["idle", "choosing", "seating", "setup", "playing", "scoring", "over", "paused"]
TRANSITIONS = [
    {"trigger": "wake", "source": "idle", "dest": "choosing"},
    {"trigger": "game_chosen", "source": ["idle", "choosing"], "dest": "seating"},
    {"trigger": "players_seated", "source": "seating", "dest": "setup"},
    {"trigger": "setup_done", "source": "setup", "dest": "playing"},
    {"trigger": "round_scored", "source": ["setup", "playing"], "dest": "scoring"},
    {"trigger": "scores_shown", "source": "scoring", "dest": "playing"},
    {"trigger": "game_ended", "source": ["playing", "scoring"], "dest": "over"},
    {"trigger": "pause", "source": "playing", "dest": "paused"},
    {"trigger": "resume", "source": "paused", "dest": "playing"},
    {"trigger": "resumed", "source": "idle", "dest": "playing"},
    {"trigger": "cancel", "source": ["choosing", "seating", "over", "paused"], "dest": "idle"},
]

ERROR: Colour = (255, 0, 0)
PREVIEW: Colour = (255, 255, 255)
ERROR_SECONDS = 0.4
PULSE_PERIOD = 1.6
PULSE_STEPS = 16  # distinct prompt brightnesses per period: frames repeat, few are pushed
SCORING_STEP = 0.6
SCORING_HOLD = 2.0
RETRY_S = 2.0  # a write the journal refused is tried again this often
RETRY_WAIT_S = 0.1  # ... waiting this long for a lock (the first try waits the journal's 5 s)
# Free seats glow while waiting: never so dim that gamma and brightness put them out.
GLOW_MIN = 0.15
GLOW_SPAN = 0.35


class Output(Protocol):
    """Where composed frames go: the colour pipelines of the strips."""

    def show(self, frames: Mapping[str, bytes | bytearray]) -> None: ...

    def due_in(self) -> float | None: ...


@dataclass
class SeatConfig:
    name: str
    one_button: bool = False


@dataclass
class Unwritten:
    """A write the journal refused (disk full, a lock): kept in memory and tried again;
    until it is written the table takes no new action and the board shows what the
    journal has."""

    kind: str  # "action" or "finish"
    why: str
    retry_at: float
    action: Action | None = None
    after: State | None = None  # the state with the action applied
    events: list[Event] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    winner: list[int] = field(default_factory=list)


@dataclass
class Seating:
    """Who joined, in joining order, with their colours."""

    joined: list[str] = field(default_factory=list)


def _recorded(state: State, player: int, text: str) -> Action:
    """A journal's action as the engine now reads it. The text is what was entered; an
    action an older version recorded for another actor (a Strada Romana wagon tile was once
    a draw, now its holder's choice) is matched by its text alone."""
    try:
        return state.parse_action(text, player=player)
    except IllegalAction:
        action = state.parse_action(text)
        log.info("journal: %r was recorded for player %s, now %s's", text, player, action.player)
        return action


class TableApp:
    """The table machine and everything between button events and frames."""

    def __init__(
        self,
        *,
        seats: Sequence[SeatConfig],
        journal: Journal,
        output: Output,
        clock: Callable[[], float] = time.monotonic,
        chance: ChanceSource | None = None,
        game: str | None = None,
        seed: int | None = None,
        options: Mapping[str, Any] | None = None,
        say: Callable[[str], None] | None = None,
        compositors: Mapping[str, Compositor] | None = None,
        cards: CardReader | None = None,
        games: Sequence[str] | None = None,
    ) -> None:
        self.seats = {s.name: s for s in seats}
        self.seat_order = [s.name for s in seats]
        self.journal = journal
        self.output = output
        self.clock = clock
        self.chance = chance or ChanceSource("app")
        self.fixed_game = game
        self.seed = seed
        self.options = dict(options or {})
        self.say = say or (lambda text: log.info("%s", text))
        self._compositors = dict(compositors or {})
        self.cards = cards
        self.game_names = [g for g in (games or engine.games()) if _has_view(g)]
        if game is not None and game not in self.game_names:
            raise ValueError(f"no table view for game {game!r}; choose one of "
                             f"{', '.join(self.game_names)}")
        self.machine = Machine(model=self, states=STATES, transitions=TRANSITIONS,
                               initial="idle", auto_transitions=False, model_attribute="mode")
        self.mode: str
        # game in progress
        self.game_name: str | None = game
        self.view: View | None = None
        self.state: State | None = None
        self.game_id = 0
        self.players: list[str] = []  # seat name per player index
        self.colours: list[Colour] = []
        self.ctx: ViewContext | None = None
        self.menus: dict[str, Menu] = {}
        self.choice = 0  # game menu cursor while choosing
        self.seating = Seating()
        self.errors: dict[str, float] = {}  # seat -> time its error flash ends
        # tap-or-hold buttons now down, with the board version their press began at
        self._held: dict[tuple[str, str], int] = {}
        self.scoring: list[Frame] = []
        self.scoring_start = 0.0
        self.version = 0  # bumps whenever the board changes
        self._base: tuple[int, Frame] | None = None
        self._preview: tuple[int, str, str, Frame] | None = None
        self.dirty = True
        self.acknowledged = 0
        self.unwritten: Unwritten | None = None

    # --- start-up ------------------------------------------------------------------
    def start(self) -> None:
        """Resume the unfinished game of the journal, or wait at idle (or seating)."""
        record = self.journal.unfinished()
        if record is not None:
            try:
                self._resume(record)
                return
            except (KeyError, ValueError, IllegalAction) as exc:
                self.say(f"Cannot resume game {record.id} ({exc}); it is set aside.")
                try:
                    self.journal.abandon(record.id)
                except JournalUnavailable as why:  # the next game start abandons it
                    log.error("%s", why)
        if self.fixed_game is not None:
            self._choose(self.fixed_game)

    def _resume(self, record: Any) -> None:
        game = engine.get(record.game)
        state = game.new_state(record.players, seed=record.seed, options=record.options)
        if state.data.digest != record.data_digest:
            raise ValueError("the component data changed since the game started")
        for player, text in record.actions:
            state.apply(_recorded(state, player, text))
        self.game_name = game.name
        self.view = view_for(game.name)
        self.game_id = record.id
        self.players = [s["seat"] for s in record.seats]
        self.colours = [tuple(s["colour"]) for s in record.seats]  # type: ignore[misc]
        self.state = state
        self._context()
        self.resumed()
        self.say(f"Resumed {game.title} after {len(record.actions)} actions.")
        if state.history:
            # the last action again: a cut may have come between its commit and its
            # acknowledgement, and the board shows it now
            self._say_action(state.history[-1])
        self._after_change([])

    # --- input ---------------------------------------------------------------------
    def handle(self, ev: InputEvent) -> None:
        """One button event; every path either changes something or flashes an error."""
        self.dirty = True
        if self.unwritten is not None:
            if ev.kind == "press":
                self._refuse_unwritten(ev.seat)
            return
        if ev.seat == "table":
            self._table_button(ev)
            return
        seat = self.seats.get(ev.seat)
        if seat is None:
            return
        if ev.kind == "stuck":
            self._held.pop((ev.seat, ev.button), None)
            self.say(f"Seat {ev.seat}: the {ev.button} button seems stuck; it is ignored "
                     f"until released.")
            return
        command = self._command(seat, ev)
        if command is None:
            return
        handler = getattr(self, f"_on_{self.mode}")
        handler(ev.seat, command)

    def _command(self, seat: SeatConfig, ev: InputEvent) -> str | None:
        """Buttons -> next / previous / select / back.

        A button that means one thing on a tap and another on a hold (the single button
        of a one-button seat, the select button of a three-button seat) acts on release
        when no long press came, so a hold never also counts as a tap. Such a press acts
        only if it began while the seat could act, and nothing changed on the board
        before it ended: when every seat slaps its select at once, the seat to act
        confirms and the others' releases, arriving once the turn has moved on, do
        nothing (they were refused, with the error light, when they went down).
        """
        key = (ev.seat, ev.button)
        dual = seat.one_button or ev.button == "select"
        if not dual:
            return {"next": "next", "previous": "previous"}.get(ev.button) if (
                ev.kind == "press") else None
        if ev.kind == "press":
            refusal = self._refusal(ev.seat)
            if refusal is not None:
                self._held.pop(key, None)
                self._flash(ev.seat, refusal)
            else:
                self._held[key] = self.version
            return None
        began = self._held.pop(key, None) if ev.kind in ("long_press", "release") else None
        if began is None or began != self.version:
            return None
        if ev.kind == "long_press":
            return "select" if seat.one_button else "back"
        return "next" if seat.one_button else "select"

    def _refusal(self, seat: str) -> str | None:
        """Why a press at `seat` cannot act now (None: it may); said with the error light."""
        state = self.state
        if self.mode != "playing" or state is None or state.is_over():
            return None
        if state.current_player() == CHANCE and self.chance.automatic:
            return "wait: the table is drawing."
        waiting = self._waiting_seat()
        if waiting is not None and seat != waiting:
            return f"it is seat {waiting}'s turn. {self._describe()}"
        return None

    def _table_button(self, ev: InputEvent) -> None:
        if ev.kind != "press":
            if ev.kind == "long_press" and ev.button == "menu" and self.mode in (
                "paused", "over", "choosing", "seating"
            ):
                self._abandon()
            return
        if ev.button == "undo":
            self._undo()
        elif ev.button == "menu":
            if self.mode == "playing":
                self.pause()
                self.say("Paused. Menu resumes; hold menu to end the game.")
            elif self.mode == "paused":
                self.resume()
                self.say("Resumed.")
            elif self.mode == "idle":
                self.wake()
                self._announce_choice()
            elif self.mode == "seating":
                self._start_if_ready()

    def _flash(self, seat: str, why: str) -> None:
        self.errors[seat] = self.clock() + ERROR_SECONDS
        self.say(f"Seat {seat}: {why}")

    def handle_card(self, code: str, now: float) -> None:
        """A card, tile or token the scanner read: the draw it answers is confirmed like any
        action (journal first); anything else lights every seat red, says why, changes nothing."""
        self.dirty = True
        if self.unwritten is not None:
            self._refuse_unwritten("*")
            return
        state = self.state
        drawing = self.mode == "playing" or (self.mode == "setup" and self._in_setup())
        if self.cards is None or state is None or self.game_name is None or not drawing:
            self._flash_all(f"Card {code} read, but no draw is due now.")
            return
        try:
            action = self.cards.resolve(self.game_name, state, code, now)
        except CardError as exc:
            text = str(exc)
            self._flash_all(f"{text[:1].upper()}{text[1:]}.")
            return
        assert self.view is not None
        self.say(self.view.describe_chance(state, action))
        self.confirm(action)

    def _flash_all(self, why: str) -> None:
        until = self.clock() + ERROR_SECONDS
        for seat in self.players or self.seat_order:
            self.errors[seat] = until
        self.say(why)

    # idle ---------------------------------------------------------------------------
    def _on_idle(self, seat: str, command: str) -> None:
        if command == "select":
            if self.fixed_game is not None:
                self._choose(self.fixed_game)
            else:
                self.wake()
                self._announce_choice()

    def _announce_choice(self) -> None:
        title = engine.get(self.game_names[self.choice]).title
        self.say(f"Choose a game: {title} (next/previous, select to choose).")

    def _on_choosing(self, seat: str, command: str) -> None:
        if command in ("next", "previous"):
            step = 1 if command == "next" else -1
            self.choice = (self.choice + step) % len(self.game_names)
            self._announce_choice()
        elif command == "select":
            self._choose(self.game_names[self.choice])
        elif command == "back":
            self.cancel()

    def _choose(self, name: str) -> None:
        self.game_name = name
        self.view = view_for(name)
        self.seating = Seating()
        self.game_chosen()
        game = engine.get(name)
        self.say(f"{game.title}: each player presses select at their seat "
                 f"({game.min_players}-{game.max_players}); then menu (or hold select) starts.")

    # seating -----------------------------------------------------------------------
    def _on_seating(self, seat: str, command: str) -> None:
        game = engine.get(self.game_name or "")
        joined = self.seating.joined
        if command == "select":
            if seat in joined:
                joined.remove(seat)
                self.say(f"Seat {seat} left.")
            elif len(joined) >= game.max_players:
                self._flash(seat, f"{game.title} is for at most {game.max_players} players.")
            else:
                joined.append(seat)
                self.say(f"Seat {seat} joined as {self._palette()[len(joined) - 1][0]}.")
                if len(joined) == game.max_players:
                    self._start_if_ready()
        elif command == "back":
            if seat in joined:
                self._start_if_ready()
            else:
                self._flash(seat, "Press select to join first.")

    def _palette(self) -> Sequence[tuple[str, Colour]]:
        assert self.view is not None
        return self.view.palette

    def _start_if_ready(self) -> None:
        game = engine.get(self.game_name or "")
        joined = self.seating.joined
        if len(joined) < game.min_players:
            self.say(f"{game.title} needs at least {game.min_players} players "
                     f"({len(joined)} joined).")
            for seat in self.seat_order:
                self.errors[seat] = self.clock() + ERROR_SECONDS
            return
        assert self.view is not None
        palette = self.view.palette_for(len(joined))
        colour_of = {seat: palette[i][1] for i, seat in enumerate(joined)}
        # players sit clockwise in seat order, starting with whoever joined first
        order = [s for s in self.seat_order if s in joined]
        first = order.index(joined[0])
        self.players = order[first:] + order[:first]
        self.colours = [colour_of[s] for s in self.players]
        seed = self.seed if self.seed is not None else int(time.time()) & 0x7FFFFFFF
        # [app.options] may name options of several games: each game gets its own
        declared = {o.name for o in game.options}
        options = {k: v for k, v in self.options.items() if k in declared}
        try:
            state = game.new_state(len(self.players), seed=seed, options=options)
        except ValueError as exc:  # checked at start-up; a combination can still be refused
            self._flash_all(f"{game.title} cannot start: {exc}")
            return
        try:
            self.game_id = self.journal.start_game(
                game.name, state.players, seed, dict(state.options),
                [{"seat": s, "colour": list(c)} for s, c in zip(self.players, self.colours,
                                                                 strict=True)],
                state.data.digest,
            )
        except JournalUnavailable as exc:
            self._journal_refused(str(exc), "the game does not start; press again to retry")
            return
        self.state = state
        self._context()
        self.players_seated()
        names = {c: n for n, c in palette}
        seated = ", ".join(f"{s} {names[colour_of[s]]}" for s in self.players)
        self.say(f"{game.title} for {state.players}: seats {seated}. "
                 f"Set up the board as the lights show.")
        self._after_change([])

    def _context(self) -> None:
        self.ctx = ViewContext(colours=tuple(self.colours), seats=tuple(self.players))
        self.menus.clear()
        self._base = None
        self._preview = None

    # setup / playing -----------------------------------------------------------------
    def _on_setup(self, seat: str, command: str) -> None:
        """Setup draws first (picked at the buttons unless the app draws); then any seat's
        select says the board is laid out as the lights show."""
        if self._in_setup():
            self._on_playing(seat, command)
        elif command == "select":
            self.setup_done()
            self.say("Play starts.")
            self._after_change([])

    def _waiting_seat(self) -> str | None:
        """The seat whose buttons act now (None: any seat, for an unassigned chance pick)."""
        state = self.state
        assert state is not None and self.view is not None
        player = state.current_player()
        if player is None:
            return None
        if player == CHANCE:
            actor = self.view.chance_actor(state)
            return None if actor is None else self.players[actor]
        return self.players[player]

    def _on_playing(self, seat: str, command: str) -> None:
        state = self.state
        assert state is not None
        if state.is_over():
            return
        refusal = self._refusal(seat)
        if refusal is not None:
            self._flash(seat, refusal)
            return
        waiting = self._waiting_seat()
        if waiting is None and state.current_player() == CHANCE:
            # anyone may enter the card that came up; one menu serves the table
            seat = "*"
        menu = self.menus.get(seat) or self._menu_for(seat)
        if command == "next":
            menu.next()
        elif command == "previous":
            menu.previous()
        elif command == "back":
            if not menu.back():
                self._flash(seat if seat != "*" else self.seat_order[0], "already at the top.")
        elif command == "select":
            action = menu.select()
            if action is not None:
                self.confirm(action)
                return
        self.say(f"Seat {seat}: {menu.path()}")

    def _menu_for(self, seat: str) -> Menu:
        assert self.state is not None
        one = self.seats[seat].one_button if seat in self.seats else False
        menu = Menu(self.state.legal_actions(), with_back=one)
        self.menus[seat] = menu
        return menu

    def confirm(self, action: Action) -> list[Event]:
        """Apply, commit, then acknowledge: the journal has it before the lights say so.

        A journal that refuses the write (disk full, locked) keeps the game in memory:
        the action waits in `unwritten`, the board stays as the journal has it, every
        press is refused with the reason, and `tick()` tries again until it is written.
        """
        state = self.state
        assert state is not None and self.view is not None
        events = state.apply(action)
        try:
            self.journal.append(self.game_id, len(state.history), action.player, action.text)
        except JournalUnavailable as exc:
            self.state = self._replayed(state.history[:-1])
            self.unwritten = Unwritten("action", str(exc), self.clock() + RETRY_S,
                                       action=action, after=state, events=events)
            self._journal_refused(str(exc), "the game is kept; no action is taken until the "
                                  f"journal accepts it (tried again every {RETRY_S:g} s)")
            return events
        self._acknowledge(action, events)
        return events

    def _acknowledge(self, action: Action, events: list[Event]) -> None:
        state = self.state
        assert state is not None and self.view is not None
        self._say_action(action)
        self.journal.sync_mark()  # right after the acknowledgement, not between
        self._after_change(events)

    def _say_action(self, action: Action) -> None:
        """`#N seat S: text`, the acknowledgement of the state's last action."""
        state = self.state
        assert state is not None and self.view is not None
        who = "draw" if action.player == CHANCE else f"seat {self.players[action.player]}"
        self.acknowledged = len(state.history)
        self.say(f"#{len(state.history)} {who}: {self.view.public_text(state, action)}")

    def _replayed(self, actions: Sequence[Action]) -> State:
        """The game's state after `actions`, rebuilt from its seed (undo, refused writes)."""
        state = self.state
        assert state is not None
        replay = engine.get(state.game.name).new_state(state.players, seed=state.seed,
                                                       options=state.options)
        for action in actions:
            replay.apply(action)
        return replay

    def _journal_refused(self, why: str, what: str) -> None:
        """Said at every seat (red) and in the log: the journal refused a write."""
        log.error("%s", why)
        self._flash_all(f"{why[:1].upper()}{why[1:]}: {what}.")

    def _refuse_unwritten(self, seat: str) -> None:
        assert self.unwritten is not None
        why = self.unwritten.why
        text = f"{why[:1].upper()}{why[1:]}; nothing is taken until the journal accepts it."
        if seat in self.seats:
            self._flash(seat, text)
        else:
            self._flash_all(text)

    def _retry(self, now: float) -> None:
        """Try the refused write again; once it is in the journal, carry on from it."""
        u = self.unwritten
        assert u is not None
        try:
            if u.kind == "action":
                assert u.action is not None and u.after is not None
                self.journal.append(self.game_id, len(u.after.history), u.action.player,
                                    u.action.text, wait=RETRY_WAIT_S)
            else:
                self.journal.finish(self.game_id, u.scores, u.winner, wait=RETRY_WAIT_S)
        except JournalUnavailable as exc:
            u.why, u.retry_at = str(exc), now + RETRY_S
            return
        self.unwritten = None
        log.warning("journal %s accepts writes again", self.journal.path)
        self.say("The journal accepts writes again; nothing was lost.")
        if u.kind == "action":
            assert u.action is not None and u.after is not None
            self.state = u.after
            self._acknowledge(u.action, u.events)

    def _after_change(self, events: list[Event]) -> None:
        """New state: reset menus, show scoring, finish, or let the app draw."""
        state = self.state
        assert state is not None and self.view is not None and self.ctx is not None
        self.menus.clear()
        self.version += 1
        self.dirty = True
        if self.mode == "idle":
            return
        if state.is_over():
            if self.view.is_scoring(events):
                self._show_scoring(events)
            self._finish()
            return
        if events and self.view.is_scoring(events):
            self._show_scoring(events)
            if self.mode != "scoring":
                self.round_scored()
            return
        if self.mode == "setup" and not self._in_setup():
            self.say("Lay out the board as the lights show, then press select at any seat.")
            return
        if state.current_player() == CHANCE and self.chance.automatic:
            self._auto_draw()
        else:
            self.say(self._describe())  # the prompt in words: who acts, and on what

    def _describe(self) -> str:
        """The engine's sentence about what it waits for, with the table's seat names.

        The engine numbers players from 1 ("seat 1" is player 0, engine.core.seat_name);
        at the table player 0 sits wherever the first player joined.
        """
        assert self.state is not None
        players = self.players

        def rename(m: re.Match[str]) -> str:
            index = int(m.group(2)) - 1
            return f"{m.group(1)}eat {players[index]}" if 0 <= index < len(players) else m[0]

        return _SEAT_WORD.sub(rename, self.state.describe())

    def _in_setup(self) -> bool:
        state = self.state
        assert state is not None and self.view is not None
        in_setup = getattr(self.view, "in_setup", None)
        if in_setup is not None:
            return bool(in_setup(state))
        return getattr(state, "phase", "") == "setup"

    def _auto_draw(self) -> None:
        state = self.state
        if (
            state is not None
            and self.mode in ("setup", "playing")
            and state.current_player() == CHANCE
            and self.chance.automatic
        ):
            action = self.chance.draw(state)
            assert self.view is not None
            self.say(self.view.describe_chance(state, action))
            self.confirm(action)

    def _show_scoring(self, events: list[Event]) -> None:
        assert self.view is not None and self.state is not None and self.ctx is not None
        self.scoring = self.view.scoring_steps(self.state, events, self.ctx)
        self.scoring_start = self.clock()
        for event in events:
            if event.kind in ("round_scored", "round_ended") and "round" in event.data:
                self.say(f"Round {event['round']} scored.")

    def _on_scoring(self, seat: str, command: str) -> None:
        if command == "select":
            self._scores_done()

    def _scores_done(self) -> None:
        self.scoring = []
        if self.mode == "scoring":
            self.scores_shown()
            self._auto_draw()

    def _finish(self) -> None:
        state = self.state
        assert state is not None
        scores, winner = state.scores(), state.winner()
        try:
            self.journal.finish(self.game_id, scores, winner)
        except JournalUnavailable as exc:  # every action is in; the end is written later
            self.unwritten = Unwritten("finish", str(exc), self.clock() + RETRY_S,
                                       scores=scores, winner=winner)
            self._journal_refused(str(exc), "the game's end is written as soon as it can be")
        self.game_ended()
        table = ", ".join(f"seat {self.players[p]}: {v}" for p, v in enumerate(scores))
        names = ", ".join(f"seat {self.players[p]}" for p in winner)
        # no winning seat: a solo player lost to the game's automa
        self.say(f"Game over. Scores: {table}. " + (f"Winner: {names}." if names else
                                                    f"No seat wins. {self._describe()}"))

    def _on_over(self, seat: str, command: str) -> None:
        if command in ("select", "back"):
            self._to_idle()

    def _on_paused(self, seat: str, command: str) -> None:
        self._flash(seat, "the game is paused: press menu to resume.")

    def _to_idle(self) -> None:
        self.cancel()
        self.scoring = []
        self.state = None
        self.view = None if self.fixed_game is None else self.view
        self.menus.clear()
        self.version += 1
        if self.fixed_game is not None:
            self._choose(self.fixed_game)

    def _abandon(self) -> None:
        if self.state is not None and not self.state.is_over():
            try:
                self.journal.abandon(self.game_id)
            except JournalUnavailable as exc:
                self._journal_refused(str(exc), "the game goes on")
                return
            self.say("Game ended without scoring.")
        self._to_idle()

    # --- undo ----------------------------------------------------------------------
    def _undo(self) -> None:
        """Undo the last action, never past a draw that was seen (the table saw the card)."""
        state = self.state
        if self.mode not in ("playing", "setup") or state is None or not state.history:
            self.say("Nothing to undo.")
            return
        last = state.history[-1]
        if last.player == CHANCE:
            self.say(f"'{last.text}' was a draw everybody saw; it cannot be undone.")
            for seat in self.players:
                self.errors[seat] = self.clock() + ERROR_SECONDS
            return
        try:
            self.journal.undo(self.game_id)
        except JournalUnavailable as exc:
            self._journal_refused(str(exc), "nothing was undone")
            return
        self.state = self._replayed(state.history[:-1])
        self.say(f"Undone: {last.text}.")
        self._after_change([])

    # --- rendering -----------------------------------------------------------------
    def frame(self, now: float) -> Frame:
        """The whole table's element frame at `now` (board, prompts, previews, errors)."""
        frame: Frame = {}
        if self.view is not None and self.state is not None and self.ctx is not None:
            frame.update(self._board())
            if self.mode in ("playing", "setup", "paused"):
                self._prompts(frame, now)
            if self.mode == "scoring" and self.scoring:
                k = min(int((now - self.scoring_start) / SCORING_STEP), len(self.scoring) - 1)
                frame.update(self.scoring[k])
            if self.mode == "over":
                # the last round's scoring plays first, then the winner's seat pulses
                k = int((now - self.scoring_start) / SCORING_STEP)
                if k < len(self.scoring):
                    frame.update(self.scoring[k])
                else:
                    self._final(frame, now)
        else:
            self._lobby(frame, now)
        for seat, until in self.errors.items():
            if now < until:
                frame[f"seat.{seat}.status"] = ERROR
        return frame

    def _board(self) -> Frame:
        assert self.view is not None and self.state is not None and self.ctx is not None
        if self._base is None or self._base[0] != self.version:
            if self.mode == "setup":
                board = self.view.setup_frame(self.state, self.ctx)
            else:
                board = self.view.render(self.state, self.ctx)
            self._base = (self.version, board)
        return self._base[1]

    def _prompts(self, frame: Frame, now: float) -> None:
        state = self.state
        assert state is not None and self.view is not None
        level = _pulse(now) if self.mode != "paused" else 0.25
        waiting = self._waiting_seat()
        for player, seat in enumerate(self.players):
            colour = self.colours[player]
            if seat == waiting:
                frame[f"seat.{seat}.status"] = dim(colour, level)
            elif self.view.seat_active(state, player):
                frame[f"seat.{seat}.status"] = dim(colour, 0.3)
            else:
                frame[f"seat.{seat}.status"] = dim(colour, 0.06)
        menu = self.menus.get(waiting or "*")
        if menu is not None and self.mode == "playing":
            frame.update(self._candidate_preview(menu, now))

    def _candidate_preview(self, menu: Menu, now: float) -> Frame:
        """Light what the candidate would change: the slot a ship would take, the space a
        marker would reach. Computed by applying it to a clone: no per-game code. A word
        that is not yet an action (a wagon before its square) shows the view's hint."""
        action = menu.candidate()
        if self.state is None or self.view is None or self.ctx is None:
            return {}
        key = (self.version, menu.path(), action.text if action is not None else "")
        if action is None:
            if self._preview is None or self._preview[:3] != key:
                words = (*menu.prefix, menu.current) if menu.candidates() else ()
                hint = self.view.hint(self.state, words, self.ctx) if words else {}
                self._preview = (*key, hint)
            return self._preview[3]
        if self._preview is None or self._preview[:3] != key:
            trial = self.state.clone()
            trial.apply(action)
            after = self.view.render(trial, self.ctx)
            before = self._board()
            changed: Frame = self.view.candidate_hint(self.state, action, self.ctx)
            changed.update((k, v) for k, v in after.items() if before.get(k) != v)
            self._preview = (*key, changed)
        changed = self._preview[3]
        if _pulse(now, period=0.5) > 0.6:
            return changed
        return {k: (PREVIEW if not isinstance(v, list) else [PREVIEW if c != OFF else OFF
                                                             for c in v])
                for k, v in changed.items()}

    def _final(self, frame: Frame, now: float) -> None:
        state = self.state
        assert state is not None
        winners = set(state.winner())
        for player, seat in enumerate(self.players):
            level = _pulse(now) if player in winners else 0.15
            frame[f"seat.{seat}.status"] = dim(self.colours[player], level)

    def _lobby(self, frame: Frame, now: float) -> None:
        if self.mode == "seating" and self.view is not None:
            palette = self.view.palette
            for i, seat in enumerate(self.seating.joined):
                frame[f"seat.{seat}.status"] = palette[i][1]
            glow = dim((255, 255, 255), GLOW_MIN + GLOW_SPAN * _pulse(now))
            for seat in self.seat_order:
                if seat not in self.seating.joined:
                    frame[f"seat.{seat}.status"] = glow
        elif self.mode == "choosing":
            glow = dim((255, 255, 255), GLOW_MIN + 2 * GLOW_SPAN * _pulse(now))
            for seat in self.seat_order:
                frame[f"seat.{seat}.status"] = glow

    def animating(self) -> bool:
        """Whether frames change with time now (pulses, flashes, a scoring sequence)."""
        return self.mode != "idle" or bool(self.errors)

    def tick(self) -> float | None:
        """Render and push if due; returns seconds until the next tick is needed (None: idle)."""
        now = self.clock()
        if self.unwritten is not None and now >= self.unwritten.retry_at:
            self._retry(now)
        if self.mode == "scoring" and self.scoring:
            done = self.scoring_start + SCORING_STEP * len(self.scoring) + SCORING_HOLD
            if now >= done:
                self._scores_done()
        elif self.mode == "scoring":
            self._scores_done()
        self.errors = {s: t for s, t in self.errors.items() if t > now}
        compositor = self._compositor()
        if compositor is not None:
            self.output.show(compositor.compose(self.frame(now)))
        self.dirty = False
        due = self.output.due_in()
        if self.unwritten is not None:
            retry = max(0.0, self.unwritten.retry_at - now)
            due = retry if due is None else min(due, retry)
        if not self.animating():
            return due
        step = PULSE_PERIOD / PULSE_STEPS
        wait = step - (now % step)
        return wait if due is None else min(wait, due)

    def _compositor(self) -> Compositor | None:
        key = self.game_name or "lobby"
        return self._compositors.get(key) or self._compositors.get("lobby")


_SEAT_WORD = re.compile(r"\b([Ss])eat (\d+)\b")


def _pulse(now: float, period: float = PULSE_PERIOD) -> float:
    """0.2..1.0 brightness, quantised so the same frames recur and are not re-pushed."""
    phase = (now % period) / period
    step = round(phase * PULSE_STEPS) / PULSE_STEPS
    return 0.2 + 0.8 * (0.5 - 0.5 * math.cos(2 * math.pi * step))


def _has_view(game: str) -> bool:
    try:
        view_for(game)
    except KeyError:
        return False
    return True
