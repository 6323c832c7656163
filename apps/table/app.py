"""The table: one `transitions` machine from idle to game over, driven by button events.

Everything here runs on the app's one thread: button events arrive through a
queue (hw.buttons), `handle()` applies them, `tick()` renders when something
changed or an animation is due and says how long the loop may sleep. Every
confirmed action is committed to the journal before the lights acknowledge it.

`TableApp` is the facade: it owns the machine, the seats' buttons and error lights,
and routes each press to the part whose mode it is: the `Lobby` (idle, choosing,
seating), the `Session` of the game in progress (setup, playing, scoring, over,
paused), and the `Renderer` draws the frames. docs/table.md says why it is split so.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

from transitions import Machine

import engine
from engine.core import CHANCE, Action, Event, IllegalAction, State
from hw.events import InputEvent

from ..cards import (
    CardError,
    CardReader,
    answers,
    catalogue,
    in_words,
    is_face,
    tagged_faces,
    write_deck_when_complete,
)
from ..chance import ChanceSource
from ..compositor import Compositor
from ..journal import Journal, JournalUnavailable
from ..menu import Menu
from ..thinker import Thinker, make_thinker
from ..views import View, ViewContext, has_view
from ..views.base import Colour, ElementFrame
from .lobby import Lobby, Seating
from .ports import TableLog, TableSeat
from .render import (
    BLINK_S,
    BLINKS,
    PULSE_PERIOD,
    PULSE_STEPS,
    SCORING_HOLD,
    SCORING_STEP,
    Renderer,
)
from .session import RETRY_S, THINK_POLL_S, Session, Unwritten
from .status import Done, Refused, Status
from .status import build as build_status

log = logging.getLogger("tavola.table")

# --- the table's flow -----------------------------------------------------------------
STATES = [
    "idle",
    "choosing",
    "checking",
    "seating",
    "setup",
    "playing",
    "scoring",
    "over",
    "paused",
]
TRANSITIONS: list[dict[str, Any]] = [
    {"trigger": "wake", "source": "idle", "dest": "choosing"},
    {"trigger": "check_offered", "source": ["idle", "choosing"], "dest": "checking"},
    {"trigger": "game_chosen", "source": ["idle", "choosing", "checking"], "dest": "seating"},
    {"trigger": "players_seated", "source": "seating", "dest": "setup"},
    {"trigger": "setup_done", "source": "setup", "dest": "playing"},
    {"trigger": "round_scored", "source": ["setup", "playing"], "dest": "scoring"},
    {"trigger": "scores_shown", "source": "scoring", "dest": "playing"},
    {"trigger": "game_ended", "source": ["playing", "scoring"], "dest": "over"},
    {"trigger": "pause", "source": "playing", "dest": "paused"},
    {"trigger": "resume", "source": "paused", "dest": "playing"},
    {"trigger": "resumed", "source": "idle", "dest": "playing"},
    {
        "trigger": "cancel",
        "source": ["choosing", "checking", "seating", "over", "paused"],
        "dest": "idle",
    },
]
GAME_MODES = ("setup", "playing", "scoring", "over", "paused")
"""The modes a `Session` exists in; the lobby's are idle, choosing, checking and seating."""

TABLE_VERBS = ("undo", "menu", "end", "pause", "start", "new")
SEAT_VERBS = ("next", "previous", "select", "back", "choose", "cursor", "go_on", "join", "bot")
VERBS = SEAT_VERBS + TABLE_VERBS
"""What `TableApp.command` takes: a seat's verbs, and the table's own."""

ERROR_SECONDS = BLINKS * 2 * BLINK_S  # the refusal's blinks (render.refusal_light)


class Output(Protocol):
    """Where composed frames go: the colour pipelines of the strips."""

    def show(self, frames: Mapping[str, bytes | bytearray]) -> None: ...

    def due_in(self) -> float | None: ...


class TableApp:
    """The table machine and everything between button events and frames."""

    def __init__(
        self,
        *,
        seats: Sequence[TableSeat],
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
        names: Mapping[str, str] | None = None,
        component_check: bool = True,
        bots: Mapping[str, str] | None = None,
        thinking: str = "process",
    ) -> None:
        self.seats = {s.name: s for s in seats}
        self.seat_order = [s.name for s in seats]
        self.names = dict(names or {})  # seat -> the player's name, for every sentence
        # offer the component check before the first game of a title with guesses in it
        self.component_check = component_check
        self.bots = dict(bots or {})  # seat -> the bot that takes it at each seating
        # where bot seats work out their moves: off this loop (apps.thinker); a worker
        # process starts at the first bot decision, none for a table of people
        self.thinker: Thinker = make_thinker(thinking)
        self.journal = journal
        self.output = output
        self.clock = clock
        self.chance = chance or ChanceSource("app")
        self._say_out = say or (lambda text: log.info("%s", text))
        self.table_log = TableLog()  # the sentences as people read them (status().log)
        self._status: tuple[tuple[Any, ...], Status] | None = None
        self._refused: list[str] | None = None  # the refusals of the command being done
        #: why the journal last refused a write: a table waits for it, a demo stops there
        self.journal_refusal: str | None = None
        self._compositors = dict(compositors or {})
        self.cards = cards
        self.new_card: tuple[str, int] | None = None  # a tag not yet known, and its draw
        game_names = [g for g in (games or engine.games()) if has_view(g)]
        if game is not None and game not in game_names:
            raise ValueError(
                f"no table view for game {game!r}; choose one of {', '.join(game_names)}"
            )
        self.machine = Machine(
            model=self,
            states=STATES,
            transitions=TRANSITIONS,
            initial="idle",
            auto_transitions=False,
            model_attribute="mode",
        )
        self.mode: str
        self.lobby = Lobby(self, games=game_names, game=game, seed=seed, options=options or {})
        self.session: Session | None = None  # the game in progress, in GAME_MODES only
        self.renderer = Renderer(self)
        self.errors: dict[str, float] = {}  # seat -> time its error flash ends
        # tap-or-hold buttons now down, with the board version their press began at
        self._held: dict[tuple[str, str], int] = {}
        self.version = 0  # bumps whenever the board changes
        self.dirty = True
        self.acknowledged = 0

    # --- the parts' shared services ----------------------------------------------
    def fire(self, trigger: str) -> None:
        """Move the table's machine (`trigger` is one of TRANSITIONS)."""
        self.machine.events[trigger].trigger(self)

    def changed(self) -> None:
        """The board changed: cached frames and held presses belong to the old one."""
        self.version += 1
        self.dirty = True

    def begin(self, session: Session) -> None:
        """A game starts (or resumes) with `session`."""
        self.session = session
        self.lobby.game_name = session.game.name
        self.renderer.reset()

    def seat_label(self, seat: str, *, capital: bool = False) -> str:
        """A seat in a sentence: its player's name when the table knows it, else 'seat 2'."""
        name = self.names.get(seat)
        return name if name else f"{'Seat' if capital else 'seat'} {seat}"

    def say(self, text: str) -> None:
        """A sentence for the people at the table: logged (in `status().log`, or in the
        setup checklist while the board is set up) and passed on (the app's `say`)."""
        self.table_log.add(text, setup=self.mode == "setup")
        self._say_out(text)

    def say_cursor(self, text: str) -> None:
        """Where a cursor is: passed on, not logged (the menu line shows it)."""
        self.table_log.said += 1
        self._say_out(text)

    def cursor_line(self, seat: str, menu: Menu) -> str:
        """Where a seat's cursor is, as the terminal says it: 'Anna: flag > [pirate]'."""
        return f"{self.seat_label(seat, capital=True)}: {menu.path()}"

    def say_where(self, seat: str, menu: Menu) -> None:
        self.say_cursor(self.cursor_line(seat, menu))

    def flash(self, seat: str, why: str) -> None:
        """A refused press: the seat's light blinks red and the reason is said (and is the
        answer of the command being done)."""
        self.errors[seat] = self.clock() + ERROR_SECONDS
        self.refused(why)
        self.say(f"{self.seat_label(seat, capital=True)}: {why}")

    def refused(self, why: str) -> None:
        """The command being done is refused because `why` (said by the caller)."""
        if self._refused is not None:
            self._refused.append(why[:1].upper() + why[1:])

    def flash_seats(self, seats: Iterable[str]) -> None:
        until = self.clock() + ERROR_SECONDS
        for seat in seats:
            self.errors[seat] = until

    def flash_all(self, why: str, *, seats: Sequence[str] | None = None) -> None:
        """Every seat of the game (or `seats`, or the whole table) red, and why."""
        self.flash_seats(seats or self.players or self.seat_order)
        self.refused(why)
        self.say(why)

    def journal_refused(self, why: str, what: str, *, seats: Sequence[str] | None = None) -> None:
        """Said at every seat (red) and in the log: the journal refused a write."""
        log.error("%s", why)
        self.journal_refusal = why
        self.flash_all(f"{why[:1].upper()}{why[1:]}: {what}.", seats=seats)

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
        if self.lobby.fixed_game is not None:
            self.lobby.choose(self.lobby.fixed_game)

    def _resume(self, record: Any) -> None:
        session = Session.resumed(self, record)
        self.begin(session)
        self.fire("resumed")
        self.say(f"Resumed {session.game.title} after {len(record.actions)} actions.")
        if session.state.history:
            # the last action again: a cut may have come between its commit and its
            # acknowledgement, and the board shows it now
            session.say_action(session.state.history[-1])
        session.after_change([])

    # --- input ---------------------------------------------------------------------
    def handle(self, ev: InputEvent) -> None:
        """One button event, turned into the command it makes (a tap, a hold) and done."""
        self.dirty = True
        if ev.seat == "table":
            if ev.kind == "press":
                self.command("table", ev.button)  # undo, menu
            elif ev.kind == "long_press" and ev.button == "menu":
                self.command("table", "end")
            return
        seat = self.seats.get(ev.seat)
        if seat is None:
            return
        if ev.kind == "stuck":
            self._held.pop((ev.seat, ev.button), None)
            self.say(
                f"Seat {ev.seat}: the {ev.button} button seems stuck; it is ignored until released."
            )
            return
        if self.unwritten is not None:
            if ev.kind == "press":
                self._refuse_unwritten(ev.seat)
            return
        verb = self._verb(seat, ev)
        if verb is not None:
            self.command(ev.seat, verb)

    def _verb(self, seat: TableSeat, ev: InputEvent) -> str | None:
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
            if ev.kind != "press":
                return None
            return {"next": "next", "previous": "previous"}.get(ev.button)
        if ev.kind == "press":
            refusal = self.refusal(ev.seat)
            if refusal is not None:
                self._held.pop(key, None)
                self.flash(ev.seat, refusal)
            else:
                self._held[key] = self.version
            return None
        began = self._held.pop(key, None) if ev.kind in ("long_press", "release") else None
        if began is None or began != self.version:
            return None
        if ev.kind == "long_press":
            return "select" if seat.one_button else "back"
        return "next" if seat.one_button else "select"

    def refusal(self, seat: str) -> str | None:
        """Why a press at `seat` cannot act now (None: it may); said with the error light."""
        session = self.session
        if self.mode != "playing" or session is None or session.state.is_over():
            return None
        if session.held:
            return None  # any press draws the held card
        if session.state.current_player() == CHANCE and self.chance.automatic:
            return "wait: the table is drawing."
        if session.bot_to_act() is not None:
            return None  # whoever carries out a bot's move confirms it
        waiting = session.waiting_seat()
        if waiting is not None and seat != waiting:
            return f"it is {self.seat_label(waiting)}'s turn. {session.describe()}"
        return None

    def command(self, seat: str, verb: str, arg: int | None = None) -> Done | Refused:
        """Do `verb` for `seat` (`table` for the table's own buttons): every front end acts
        through this, buttons, keys, phone taps and the bots at a mocked table alike. The
        answer comes once the table has acted: done, or refused with the sentence said.

        Seat verbs: next, previous, select, back (the buttons' meanings); choose and
        cursor (`arg`: the place of a word in the seat's menu: chosen, or only pointed at
        with the board lighting it); go_on (a menu with nothing to decide); join (seating);
        bot (`arg`: a seat's place in the table's order; seats or frees a bot). Table
        verbs: undo, menu, end (a hold of menu), pause, start, new (`VERBS`)."""
        self.dirty = True
        outer, self._refused = self._refused, []
        try:
            why = self._do(seat, verb, arg)
        finally:
            refusals, self._refused = self._refused, outer
        if why is not None:
            why = why[:1].upper() + why[1:]
            if verb in VERBS and seat in self.seats:
                self.flash(seat, why[:1].lower() + why[1:])
            elif verb in VERBS and seat == "table":
                self.say(f"{why}.")
            return Refused(why)
        return Refused(refusals[0]) if refusals else Done()

    def _do(self, seat: str, verb: str, arg: int | None) -> str | None:
        """Carry out a command; a refusal that is not said at the table is returned."""
        if verb not in VERBS:
            return f"unknown command {verb!r} (commands: {', '.join(VERBS)})"
        if self.unwritten is not None:
            self._refuse_unwritten(seat)
            return None
        if verb in TABLE_VERBS:
            return self._table_verb(verb)
        if seat not in self.seats:
            return f"seat {seat!r} is not at this table"
        if verb == "bot":
            return self._bot_verb(arg)
        if verb == "join":
            if self.mode != "seating":
                return "nobody is being seated now"
            verb = "select"
        elif verb in ("choose", "cursor"):
            why = self._point(seat, arg)
            if why is not None or verb == "cursor":
                return why
            verb = "select"
        elif verb == "go_on":
            menu = self.status().menu_for(seat)
            if menu is None or menu.kind != "go_on":
                return "there is nothing to go on from: choose with the menu"
            verb = "select"
        self._press(seat, verb)
        return None

    def _press(self, seat: str, verb: str) -> None:
        """A seat's next / previous / select / back, to the part whose mode it is."""
        lobby, session = self.lobby, self.session
        routes: dict[str, Callable[[str, str], None]] = {
            "idle": lobby.on_idle,
            "choosing": lobby.on_choosing,
            "checking": lobby.on_checking,
            "seating": lobby.on_seating,
        }
        if session is not None:
            routes.update(
                setup=session.on_setup,
                playing=session.on_playing,
                scoring=session.on_scoring,
                over=session.on_over,
                paused=session.on_paused,
            )
        route = routes.get(self.mode)
        if route is not None:
            route(seat, verb)

    def _point(self, seat: str, index: int | None) -> str | None:
        """Put the cursor of the menu `seat` acts on at `index` (the board previews it)."""
        if index is None:
            return "this command needs an index: the place of the word in the menu"
        status = self.status()
        menu = status.menu_for(seat)
        if menu is None:
            if status.turn is not None and status.menu is not None:
                return f"it is {status.turn.label}'s turn"
            return "there is nothing to choose now"
        if not 0 <= index < len(menu.options):
            return f"no choice at index {index}: the menu has {len(menu.options)}"
        if menu.kind == "lobby":
            self.lobby.choice = index
        elif menu.kind == "check" and self.lobby.check is not None:
            self.lobby.check.menu.index = index
        elif menu.kind == "game" and self.session is not None:
            self.session.menus[menu.seat].index = index
        return None

    def _bot_verb(self, index: int | None) -> str | None:
        if self.mode != "seating":
            return "nobody is being seated now"
        order = self.seat_order
        if index is None or not 0 <= index < len(order):
            return f"the bot's seat must be a place, 0-{len(order) - 1}"
        return self.lobby.toggle_bot(order[index])

    def _table_verb(self, verb: str) -> str | None:
        """The table's own buttons (undo, menu, a hold of menu) and what a phone asks of
        them by name (pause, start, new)."""
        mode = self.mode
        if verb == "undo":
            if self.session is None:
                return "nothing to undo: no game is on"
            self.session.undo()
        elif verb == "menu":
            self._menu_button()
        elif verb == "end":
            if mode not in ("paused", "over", "choosing", "checking", "seating"):
                return "a game in play is paused first (menu), then ended (hold menu)"
            self._abandon()
        elif verb == "pause":
            if mode not in ("playing", "paused"):
                return "only a game in play can be paused"
            self._menu_button()
        elif verb == "start":
            if mode not in ("idle", "seating"):
                return "a game is already on: end it first (New game)"
            self._menu_button()
        else:  # new: end the game in progress unscored, back to the game menu
            if mode == "playing":
                self._menu_button()  # paused first, as at the table
            if self.mode == "idle":
                self._menu_button()
            elif self.mode in ("paused", "over", "choosing", "checking", "seating"):
                self._abandon()
            else:
                return f"a new game cannot start while the table is {self.mode}"
        return None

    def _menu_button(self) -> None:
        if self.mode == "playing":
            self.fire("pause")
            self.say("Paused. Menu resumes; hold menu to end the game.")
        elif self.mode == "paused":
            self.fire("resume")
            self.say("Resumed.")
        elif self.mode == "idle":
            self.fire("wake")
            self.lobby.announce_choice()
        elif self.mode == "seating":
            self.lobby.start_if_ready()
        elif self.mode == "checking" and self.lobby.check is not None:
            self.lobby.check.on_press("*", "select")  # the cursor's choice

    def status(self) -> Status:
        """The table now, as every front end shows it (apps/table/status.py); built again
        only when something it shows has changed."""
        key = self._status_key()
        if self._status is None or self._status[0] != key:
            status = build_status(self)
            self._status = (self._status_key(), status)  # building may set a fresh menu
        return self._status[1]

    def _status_key(self) -> tuple[Any, ...]:
        session, lobby, check = self.session, self.lobby, self.lobby.check
        return (
            self.version,
            self.mode,
            self.table_log.said,
            lobby.choice,
            tuple(lobby.seating.joined),
            tuple(lobby.seating.bots.items()),
            tuple(sorted(self.names.items())),
            tuple((s, m.prefix, m.index) for s, m in self.menus.items()),
            (check.n, check.menu.index) if check is not None else None,
            (session.held, session.unwritten is None) if session is not None else None,
        )

    def handle_card(self, code: str, now: float) -> None:
        """A card, tile or token the scanner read: the draw it answers is confirmed like any
        action (journal first); anything else lights every seat red, says why, changes nothing."""
        self.dirty = True
        if self.unwritten is not None:
            self._refuse_unwritten("*")
            return
        session = self.session
        drawing = self.mode == "playing" or (
            self.mode == "setup" and session is not None and session.in_setup()
        )
        if self.cards is None or session is None or not drawing:
            self.flash_all(f"Card {code} read, but no draw is due now.")
            return
        state = session.state
        try:
            with state.naming(session.name):  # the game's reasons name the table's seats
                action = self.cards.resolve(
                    session.game.name, state, code, now, describe=session.describe
                )
        except CardError as exc:
            game = session.game.name
            if self.cards.registry.card(game, code) is None and state.current_player() == CHANCE:
                self.new_card = (code, len(state.history))  # learned when it is entered
                self.say(
                    f"Card {code} is new to the table: enter what it shows with the buttons, "
                    "and the table will know it next time."
                )
                return
            text = str(exc)
            self.flash_all(f"{text[:1].upper()}{text[1:]}.")
            return
        self.new_card = None  # this draw came from a known card
        self.say(session.view.describe_chance(state, action, session.name))
        session.confirm(action)

    def chance_entered(self, action: Action, at: int) -> None:
        """A draw was entered (`at`: the history's length before it): if an unknown card
        was scanned for it, the card is the one entered, and the registry learns it, so
        the table learns the owner's cards as they come up. A deck entered by face that is
        then complete is written as the owner's (apps.cards)."""
        new, self.new_card = self.new_card, None
        if new is None or new[1] != at or self.cards is None or self.session is None:
            return
        code, game = new[0], self.session.game.name
        try:  # the card as the registry writes it: its verb and its own name
            known = [card for card, _ in catalogue(game)]
        except CardError:
            known = []
        card = next((c for c in known if answers(c, action)), action.text)
        registry = self.cards.registry
        registry.assign(game, code, card)
        try:
            registry.save()
        except OSError as exc:
            registry.forget(game, code)
            self.say(f"Card {code} could not be remembered ({exc.strerror or exc}).")
            return
        faces = engine.get(game).card_faces(self.session.state.data)
        self.say(f"Card {code} is remembered as {in_words(faces, card)}.")
        if faces is not None and is_face(faces, card):
            write_deck_when_complete(game, faces, tagged_faces(faces, registry, game), self.say)

    def confirm(self, action: Action) -> list[Event]:
        """Apply, commit, then acknowledge (Session.confirm); only while a game is on."""
        if self.session is None:
            raise RuntimeError("no game is in progress")
        return self.session.confirm(action)

    def _refuse_unwritten(self, seat: str) -> None:
        why = self.unwritten.why if self.unwritten is not None else ""
        text = f"{why[:1].upper()}{why[1:]}; nothing is taken until the journal accepts it."
        if seat in self.seats:
            self.flash(seat, text)
        else:
            self.flash_all(text)

    # --- between games --------------------------------------------------------------
    def to_idle(self) -> None:
        self.fire("cancel")
        self.renderer.scoring = []
        self.session = None
        self.lobby.check = None
        if self.lobby.fixed_game is None:
            self.lobby.view = None
        self.changed()
        if self.lobby.fixed_game is not None:
            self.lobby.choose(self.lobby.fixed_game)

    def close(self) -> None:
        """Stop the bots' worker (the runtime closes the table)."""
        self.thinker.close()

    def wait_for_bot(self, timeout: float | None = None) -> bool:
        """If a bot seat is thinking, wait up to `timeout` seconds for its move and propose
        it; True if it was thinking. For a simulated table, whose clock is not the loop's
        (the table's own loop polls on its ticks instead)."""
        session = self.session
        if session is None or self.mode not in ("setup", "playing") or not session.thinking():
            return False
        session.wait_for_bot(timeout)
        return True

    def _abandon(self) -> None:
        if self.session is not None and not self.session.abandon():
            return
        self.to_idle()

    # --- rendering -----------------------------------------------------------------
    def frame(self, now: float) -> ElementFrame:
        """The whole table's element frame at `now` (board, prompts, previews, errors)."""
        return self.renderer.frame(now)

    def animating(self) -> bool:
        """Whether frames change with time now (pulses, flashes, a scoring sequence)."""
        return self.mode != "idle" or bool(self.errors)

    def tick(self) -> float | None:
        """Render and push if due; returns seconds until the next tick is needed (None: idle)."""
        now = self.clock()
        if self.session is not None:
            self._due(self.session, now)
        self.errors = {s: t for s, t in self.errors.items() if t > now}
        compositor = self._compositor()
        if compositor is not None:
            self.output.show(compositor.compose(self.frame(now)))
        self.dirty = False
        return self._next_tick(now)

    def _due(self, session: Session, now: float) -> None:
        """What time alone moves on: a refused write tried again, a held draw made once
        nobody took the action back, a round's scoring sequence ended."""
        unwritten = session.unwritten
        if unwritten is not None and now >= unwritten.retry_at:
            session.retry(now)
        if session.held and self.mode == "playing" and now >= session.held_until:
            session.release("", "")  # nobody took it back: the table draws
        if self.mode in ("setup", "playing"):
            session.poll_bot()  # a bot's move worked out off this loop, proposed once come
        if self.mode == "scoring":
            scoring = self.renderer.scoring
            done = self.renderer.scoring_start + SCORING_STEP * len(scoring) + SCORING_HOLD
            if not scoring or now >= done:
                session.scores_done()

    def _next_tick(self, now: float) -> float | None:
        """Seconds until something changes by itself: the output's own deadline, a retry,
        the next pulse step, a held draw, the next edge of a refusal's blink."""
        due = self.output.due_in()
        waits = [] if due is None else [due]
        if self.unwritten is not None:
            waits.append(max(0.0, self.unwritten.retry_at - now))
        if self.animating():
            step = PULSE_PERIOD / PULSE_STEPS
            waits.append(step - (now % step))
            if self.session is not None and self.session.held:
                waits.append(max(0.0, self.session.held_until - now))
            if self.session is not None and self.session.awaiting():
                waits.append(THINK_POLL_S)  # a bot thinks: look for its move soon
            waits += [(until - now) % BLINK_S or BLINK_S for until in self.errors.values()]
        return min(waits) if waits else None

    def _compositor(self) -> Compositor | None:
        key = self.game_name or "lobby"
        return self._compositors.get(key) or self._compositors.get("lobby")

    # --- what the runtime, the simulator, benchmarks and tests read ------------------
    @property
    def game_name(self) -> str | None:
        """The game in progress, else the game chosen last (None before any)."""
        return self.session.game.name if self.session is not None else self.lobby.game_name

    @property
    def game_names(self) -> list[str]:
        return self.lobby.game_names

    @property
    def choice(self) -> int:
        return self.lobby.choice

    @property
    def seating(self) -> Seating:
        return self.lobby.seating

    @property
    def fixed_game(self) -> str | None:
        return self.lobby.fixed_game

    @property
    def state(self) -> State | None:
        return self.session.state if self.session is not None else None

    @property
    def view(self) -> View | None:
        return self.session.view if self.session is not None else self.lobby.view

    @property
    def game_id(self) -> int:
        return self.session.game_id if self.session is not None else 0

    @property
    def players(self) -> list[str]:
        """Seat name per player index of the game in progress (empty between games)."""
        return self.session.players if self.session is not None else []

    @property
    def colours(self) -> list[Colour]:
        return self.session.colours if self.session is not None else []

    @property
    def ctx(self) -> ViewContext | None:
        return self.session.ctx if self.session is not None else None

    @property
    def menus(self) -> dict[str, Menu]:
        return self.session.menus if self.session is not None else {}

    @property
    def unwritten(self) -> Unwritten | None:
        return self.session.unwritten if self.session is not None else None

    @property
    def scoring(self) -> list[ElementFrame]:
        return self.renderer.scoring

    @property
    def scoring_start(self) -> float:
        return self.renderer.scoring_start

    def _waiting_seat(self) -> str | None:
        return self.session.waiting_seat() if self.session is not None else None

    def _in_setup(self) -> bool:
        return self.session is not None and self.session.in_setup()

    def _menu_for(self, seat: str) -> Menu:
        if self.session is None:
            raise RuntimeError("no game is in progress")
        return self.session.menu_for(seat)

    def _candidate_preview(self, menu: Menu, now: float) -> ElementFrame:
        if self.session is None:
            return {}
        return self.renderer.candidate_preview(self.session, menu, now)


__all__ = ["GAME_MODES", "RETRY_S", "STATES", "TRANSITIONS", "Output", "TableApp", "TableSeat"]
