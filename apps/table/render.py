"""The table's lights: the element frame at a moment (board, prompts, previews, scoring).

The renderer reads the table (its mode, its session or lobby, the seats' error lights)
and never changes the game. A frame observes the game once: a view that reads only the
read model (`View.observes_only`) is handed the state as `Seen`, whose `observe()` is
computed on the first call and answered from then on, so the prompts' `seat_active` for
every seat, `chance_actor` and the candidate's hint share one observation.
"""

from __future__ import annotations

import math
from typing import cast

from engine.core import Observation, State

from ..menu import Menu
from ..views.base import OFF, Colour, ElementFrame, dim
from .ports import GameSession, Table
from .status import prompted

ERROR: Colour = (255, 0, 0)
# A refused press blinks: red and dark in turns, fast. Colour alone cannot say it at a
# seat whose own colour is red (Strozzi's seat 1), and no prompt is ever dark or this
# fast (the pulse never drops below a fifth and takes 1.6 s), so the pattern is plain at
# every seat colour.
BLINK_S = 0.1  # each half of a blink
BLINKS = 3
PREVIEW: Colour = (255, 255, 255)
PULSE_PERIOD = 1.6
PULSE_STEPS = 16  # distinct prompt brightnesses per period: frames repeat, few are pushed
SCORING_STEP = 0.6
SCORING_HOLD = 2.0
# Free seats glow while waiting: never so dim that gamma and brightness put them out.
GLOW_MIN = 0.15
GLOW_SPAN = 0.35


class Seen:
    """A state as one frame sees it: the public observation, computed once.

    It offers `observe()` and nothing else, which is all a view on the read model reads
    (tests/apps/test_read_model.py checks the same with a stricter stand-in)."""

    __slots__ = ("_public", "_state")

    def __init__(self, state: State) -> None:
        self._state = state
        self._public: Observation | None = None

    def observe(self, seat: int | None = None) -> Observation:
        if seat is not None:
            return self._state.observe(seat)
        if self._public is None:
            self._public = self._state.observe()
        return self._public


def seen(session: GameSession, state: State) -> State:
    """`state` as the view of `session` should be handed it in one frame."""
    return cast(State, Seen(state)) if session.view.observes_only else state


class Renderer:
    """Frames for the table; caches the board per board version and the candidate's preview."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.scoring: list[ElementFrame] = []  # the running scoring sequence, one frame a step
        self.scoring_start = 0.0
        self._base: tuple[int, ElementFrame] | None = None
        self._preview: tuple[int, str, str, ElementFrame] | None = None

    def reset(self) -> None:
        """A new game: nothing cached belongs to it."""
        self._base = None
        self._preview = None

    def show_scoring(self, steps: list[ElementFrame]) -> None:
        self.scoring = steps
        self.scoring_start = self.table.clock()

    # --- the frame -----------------------------------------------------------------
    def frame(self, now: float) -> ElementFrame:
        """The whole table's element frame at `now` (board, prompts, previews, errors)."""
        table, session = self.table, self.table.session
        frame: ElementFrame = {}
        if session is not None:
            state = seen(session, session.state)
            frame.update(self.board(session, state))
            if table.mode in ("playing", "setup", "paused"):
                self._prompts(session, state, frame, now)
            if table.mode == "scoring" and self.scoring:
                k = min(int((now - self.scoring_start) / SCORING_STEP), len(self.scoring) - 1)
                frame.update(self.scoring[k])
            if table.mode == "over":
                # the last round's scoring plays first, then the winner's seat pulses
                k = int((now - self.scoring_start) / SCORING_STEP)
                if k < len(self.scoring):
                    frame.update(self.scoring[k])
                else:
                    self._final(session, frame, now)
        else:
            self._lobby(frame, now)
        for seat, until in table.errors.items():
            if now < until:
                frame[f"seat.{seat}.status"] = refusal_light(until - now)
        return frame

    def board(self, session: GameSession, state: State | None = None) -> ElementFrame:
        """The game's board at this board version (setup picture while setting up)."""
        version = self.table.version
        if self._base is None or self._base[0] != version:
            state = state if state is not None else seen(session, session.state)
            if self.table.mode == "setup":
                board = session.view.setup_frame(state, session.ctx)
            else:
                board = session.view.render(state, session.ctx)
            self._base = (version, board)
        return self._base[1]

    def _prompts(self, session: GameSession, state: State, frame: ElementFrame, now: float) -> None:
        """Each seat's status light as the table's status says: the seats to act pulse in
        their colour, the others glow (dimmer once out of the round); the candidate of the
        menu being chosen (or of the bot's move) is lit on the board."""
        status = self.table.status()
        level = pulse(now) if not status.paused else 0.25
        for player, seat in enumerate(session.players):
            colour = session.colours[player]
            if prompted(status, seat):
                frame[f"seat.{seat}.status"] = dim(colour, level)
            elif session.view.seat_active(state, player):
                frame[f"seat.{seat}.status"] = dim(colour, 0.3)
            else:
                frame[f"seat.{seat}.status"] = dim(colour, 0.06)
        menu = status.menu
        key = None
        if menu is not None and menu.kind == "game":
            key = menu.seat
        elif menu is not None and menu.kind == "bot" and status.waiting:
            key = status.waiting[0]
        shown = session.menus.get(key) if key is not None else None
        if shown is not None and self.table.mode == "playing":
            frame.update(self.candidate_preview(session, shown, now, state))

    def candidate_preview(
        self, session: GameSession, menu: Menu, now: float, state: State | None = None
    ) -> ElementFrame:
        """Light what the candidate would change: the slot a ship would take, the space a
        marker would reach. Computed by applying it to a clone: no per-game code. A word
        that is not yet an action (a wagon before its square) shows the view's hint."""
        view, ctx = session.view, session.ctx
        state = state if state is not None else seen(session, session.state)
        action = menu.candidate()
        key = (self.table.version, menu.path(), action.text if action is not None else "")
        if action is None:
            if self._preview is None or self._preview[:3] != key:
                words = (*menu.prefix, menu.current) if menu.candidates() else ()
                hint = view.hint(state, words, ctx) if words else {}
                self._preview = (*key, hint)
            return self._preview[3]
        if self._preview is None or self._preview[:3] != key:
            trial = session.state.clone()
            trial.apply(action)
            after = view.render(seen(session, trial), ctx)
            before = self.board(session, state)
            changed: ElementFrame = view.candidate_hint(state, action, ctx)
            changed.update((k, v) for k, v in after.items() if before.get(k) != v)
            self._preview = (*key, changed)
        changed = self._preview[3]
        if pulse(now, period=0.5) > 0.6:
            return changed
        return {
            k: (PREVIEW if not isinstance(v, list) else [PREVIEW if c != OFF else OFF for c in v])
            for k, v in changed.items()
        }

    def _final(self, session: GameSession, frame: ElementFrame, now: float) -> None:
        winners = set(session.state.winner())
        for player, seat in enumerate(session.players):
            level = pulse(now) if player in winners else 0.15
            frame[f"seat.{seat}.status"] = dim(session.colours[player], level)

    def _lobby(self, frame: ElementFrame, now: float) -> None:
        table, lobby = self.table, self.table.lobby
        if table.mode == "seating" and lobby.view is not None:
            palette = lobby.palette()
            for i, seat in enumerate(lobby.seating.joined):
                frame[f"seat.{seat}.status"] = palette[i][1]
            glow = dim((255, 255, 255), GLOW_MIN + GLOW_SPAN * pulse(now))
            for seat in table.seat_order:
                if seat not in lobby.seating.joined:
                    frame[f"seat.{seat}.status"] = glow
        elif table.mode in ("choosing", "checking"):  # any seat may answer
            glow = dim((255, 255, 255), GLOW_MIN + 2 * GLOW_SPAN * pulse(now))
            for seat in table.seat_order:
                frame[f"seat.{seat}.status"] = glow


def refusal_light(left: float) -> Colour:
    """The status light of a refused press, `left` seconds before its flash ends: red,
    dark, red, dark, ... (it starts red, at once)."""
    elapsed = BLINKS * 2 * BLINK_S - left
    return ERROR if int(max(0.0, elapsed) / BLINK_S + 1e-9) % 2 == 0 else OFF


def pulse(now: float, period: float = PULSE_PERIOD) -> float:
    """0.2..1.0 brightness, quantised so the same frames recur and are not re-pushed."""
    phase = (now % period) / period
    step = round(phase * PULSE_STEPS) / PULSE_STEPS
    return 0.2 + 0.8 * (0.5 - 0.5 * math.cos(2 * math.pi * step))
