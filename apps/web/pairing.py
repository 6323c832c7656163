"""Pairing a phone with a seat: only somebody at the table can do it, seeing which
phone they pair.

1. The phone asks (POST /api/pair). It gets a random token in an HttpOnly,
   SameSite=Strict cookie, not yet bound to a seat, and a four-digit code it shows.
2. The table says the code and opens a pairing window, 60 s from this first ask; the
   same phone asking again gets the same code and the time left, never a longer window.
3. In the window, a hold of select at a seat (of the single button at a one-button seat)
   does not pair: the table asks *Pair phone 4821 with seat 2? Select confirms; next
   refuses.* (at a one-button seat: a hold confirms, a tap refuses). Only that answer,
   at that seat within 20 s, pairs; anything else there, or silence, refuses, and the
   window closes either way. The hold and the answer do not also act in the game;
   a tap elsewhere still acts, on release.
4. The table says *Seat 2 is paired with phone 4821.* The token is bound to that seat,
   server side; the phone's page now shows the seat's secrets and its choices. One
   phone per seat: pairing another replaces it.

So a phone re-asking without end cannot keep a window open for somebody's next hold
(a person going "back" in a menu) to pair it: the hold only asks, the question names
the code the person's own phone shows, and the person answers it.

A seat without buttons (`kind = "phone"`) is paired the same way, but the phone names
the seat it asks to play (POST /api/pair {"seat": "3"}) and the table says so; then the
hold that asks is one of the table's menu button (menu confirms, undo refuses) or of
select at any seat with buttons: somebody at the table still has to agree. Revoking a
phone seat's phone: while the game is paused, a hold of the table's undo button
unpairs every phone seat's phone.

One window at a time: a second phone asking meanwhile is told to wait, so the code said
at the table belongs to one phone only. Revoking from the table: while the game is
paused, holding select at a seat unpairs its phone. Tokens live in memory only: a
restart of the appliance unpairs every phone (docs/phone.md).

Everything that presses buttons runs on the table's thread (`tap`); the server's
thread asks and reads under the lock.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hw.events import InputEvent

if TYPE_CHECKING:
    from ..runtime import Appliance

WINDOW_S = 60.0  # how long a pairing window stays open, from the first ask
QUESTION_S = 20.0  # how long the question at the seat waits for its answer
TOKENS_KEPT = 64  # unpaired requests beyond this are forgotten, oldest first


class PairingBusy(Exception):
    """Another phone's pairing window is open; `seconds` until it closes."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"another phone is pairing; try again in {max(1, round(seconds))} s")
        self.seconds = seconds


@dataclass
class Phone:
    token: str
    code: str
    seat: str | None = None  # None: asked, not yet confirmed at the table


@dataclass(frozen=True)
class PairingOpened:
    """On the table's queue: a phone asked to pair (the table says the code, and the
    phone seat it asks to play, if any)."""

    code: str
    seat: str | None = None


@dataclass(frozen=True)
class Question:
    """The table asks at `at` (a seat, or "table") whether to pair the waiting phone
    with `seat`; `one_button`: the answer is a hold (confirms) or a tap (refuses)."""

    token: str
    seat: str
    at: str
    one_button: bool
    closes: float


class Pairings:
    """Tokens and their seats, the open window, the question, and the gestures."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._lock = threading.Lock()
        self._phones: dict[str, Phone] = {}
        self._window: tuple[str, float, str | None] | None = None  # (token, closes at, seat)
        self._question: Question | None = None
        self.phone_seats: frozenset[str] = frozenset()  # seats with no buttons
        self._held: dict[tuple[str, str], InputEvent] = {}  # presses held back
        self._swallow: set[tuple[str, str]] = set()  # releases after a pairing hold
        self._answering: set[tuple[str, str]] = set()  # presses that answer the question
        self.changes = 0  # bumps on every pairing or unpairing (the page republishes)
        self.say: Callable[[str], None] = lambda text: None
        self.label: Callable[[str], str] = lambda seat: f"seat {seat}"

    # --- the server's side ---------------------------------------------------------------
    def request(self, seat: str | None = None, token: str | None = None) -> tuple[Phone, bool]:
        """The phone `token` (asking again) or a new unpaired one with its code, and
        whether a window was opened for it now (for phone seat `seat`, or for the seat
        whose hold asks). Asking again never extends the window. PairingBusy when
        another phone's window is open."""
        now = self.clock()
        with self._lock:
            open_ = self._open_token(now)
            if open_ is not None:
                phone = self._phones.get(open_)
                if phone is not None and open_ == token and phone.seat is None:
                    return phone, False
                raise PairingBusy(self._closes() - now)
            if self._window is not None:
                self._drop_unpaired(self._window[0])
            self._window, self._question = None, None
            phone = Phone(secrets.token_urlsafe(32), f"{secrets.randbelow(10000):04d}")
            self._phones[phone.token] = phone
            self._window = (phone.token, now + WINDOW_S, seat)
            unpaired = [t for t, p in self._phones.items() if p.seat is None]
            for old in unpaired[:-TOKENS_KEPT]:
                del self._phones[old]
            self.changes += 1
            return phone, True

    def phone(self, token: str | None) -> Phone | None:
        if not token:
            return None
        with self._lock:
            return self._phones.get(token)

    def seat_of(self, token: str | None) -> str | None:
        phone = self.phone(token)
        return phone.seat if phone is not None else None

    def unpair(self, token: str) -> bool:
        with self._lock:
            phone = self._phones.pop(token, None)
            if self._window is not None and self._window[0] == token:
                self._window = None
            if self._question is not None and self._question.token == token:
                self._question = None
            self.changes += 1
            return phone is not None

    def window_left(self) -> float:
        """Seconds the open pairing window (or the question it led to) has left (0: none)."""
        with self._lock:
            now = self.clock()
            return max(0.0, self._closes() - now) if self._open_token(now) else 0.0

    def window_seat(self) -> str | None:
        """The phone seat the open window asks to play (None: the seat that confirms)."""
        with self._lock:
            if self._window is None or self._open_token(self.clock()) is None:
                return None
            return self._window[2]

    def asking(self) -> str | None:
        """The seat the table is asking about now (None: no question)."""
        with self._lock:
            q = self._question
            return q.seat if q is not None and q.closes > self.clock() else None

    def waiting(self, token: str | None) -> bool:
        """Whether the open window (or the question it led to) is this phone's."""
        with self._lock:
            return token is not None and self._open_token(self.clock()) == token

    def paired_seats(self) -> list[str]:
        with self._lock:
            return sorted({p.seat for p in self._phones.values() if p.seat is not None})

    def _open_token(self, now: float) -> str | None:
        """The token whose window or question is open now (under the lock)."""
        if self._question is not None:
            return self._question.token if self._question.closes > now else None
        if self._window is not None and self._window[1] > now:
            return self._window[0]
        return None

    def _closes(self) -> float:
        if self._question is not None:
            return self._question.closes
        return self._window[1] if self._window is not None else 0.0

    def _drop_unpaired(self, token: str) -> None:
        phone = self._phones.get(token)
        if phone is not None and phone.seat is None:
            del self._phones[token]

    # --- the table's side (its thread) ----------------------------------------------------
    def attach(self, table: Appliance) -> None:
        """Take the table's input first (`Appliance.taps`) and speak with its voice."""
        self.say = table.app.say
        self.label = table.app.seat_label
        self.phone_seats = frozenset(n for n, s in table.app.seats.items() if s.phone)
        table.taps.append(lambda ev: self.tap(table, ev))
        table.handlers[PairingOpened] = lambda ev: self.say(self._asked(ev))

    def _asked(self, ev: PairingOpened) -> str:
        if ev.seat is None:
            return (
                f"A phone asks to pair: its code is {ev.code}. To pair it, hold select at "
                f"your seat within {WINDOW_S:g} s, then confirm the code."
            )
        return (
            f"A phone asks to play {self.label(ev.seat)}: its code is {ev.code}. To agree, "
            f"hold menu at the table, or select at any seat with buttons, within "
            f"{WINDOW_S:g} s, then confirm the code."
        )

    def tap(self, table: Appliance, ev: Any) -> bool:
        """The gestures: while the table asks, the answer at the seat asked; a hold of
        select at a seat while a window is open (it asks); to unpair, a hold while
        paused. The press is held back until it is known to be a hold; a tap goes on to
        the table whole, press and release, so it still acts."""
        if not isinstance(ev, InputEvent):
            return False
        app = table.app
        key = (ev.seat, ev.button)
        if ev.kind == "release" and key in self._swallow:
            self._swallow.discard(key)
            return True
        if self._answer(ev):
            return True
        if not self._gesture_button(app, ev):
            return False
        if ev.kind == "press":
            if self._gesture_open(app.status().paused, ev.seat, ev.button):
                self._held[key] = ev
                return True
            return False
        if ev.kind == "long_press" and key in self._held:
            del self._held[key]
            self._swallow.add(key)
            one = ev.seat != "table" and app.seats[ev.seat].one_button
            self._hold(app.status().paused, ev.seat, ev.button, one)
            return True
        if ev.kind == "release":
            press = self._held.pop(key, None)
            if press is not None:
                app.handle(press)  # a tap: the table sees the whole press after all
            return False
        return False

    @staticmethod
    def _gesture_button(app: Any, ev: InputEvent) -> bool:
        """Whether `ev` is of a button whose hold asks or unpairs: select at a seat (a
        one-button seat's button), menu or undo at the table."""
        if ev.seat == "table":
            return ev.button in ("menu", "undo")
        seat = app.seats.get(ev.seat)
        if seat is None or seat.phone:
            return False
        return bool(ev.button == ("button" if seat.one_button else "select"))

    def _answer(self, ev: InputEvent) -> bool:
        """Whether `ev` is taken as (part of) the answer to the question at its seat: a
        tap of select (of menu at the table), or a hold at a one-button seat, confirms;
        any other press there refuses."""
        key = (ev.seat, ev.button)
        q = self._question_at(ev.seat)
        if q is None:
            return False
        if ev.kind == "press":
            self._answering.add(key)
            return True
        if key not in self._answering:
            return True  # the end of a press from before the question: ignored
        self._answering.discard(key)
        hold = ev.kind == "long_press"
        if hold:
            self._swallow.add(key)
        if q.one_button:
            yes = hold
        else:
            yes = not hold and ev.button == ("menu" if q.at == "table" else "select")
        self._decide(q, yes)
        return True

    def _question_at(self, seat: str) -> Question | None:
        """The question the table asks at `seat` now; one left unanswered too long is
        dropped (nothing paired, the window spent)."""
        with self._lock:
            q = self._question
            if q is not None and q.closes <= self.clock():
                self._question = self._window = None
                self._answering.clear()
                return None
            return q if q is not None and q.at == seat else None

    def _decide(self, q: Question, yes: bool) -> None:
        with self._lock:
            if self._question is not q:
                return
            self._question = self._window = None
            self._answering.clear()
            phone = self._phones.get(q.token)
            if phone is None:
                text = "The phone that asked to pair has gone; nothing was paired."
            elif not yes:
                self._drop_unpaired(q.token)
                self.changes += 1
                text = f"Phone {phone.code} is not paired: refused at {self.label(q.at)}."
                if q.at == "table":
                    text = f"Phone {phone.code} is not paired: refused at the table."
            else:
                for other in [t for t, p in self._phones.items() if p.seat == q.seat]:
                    del self._phones[other]
                phone.seat = q.seat
                self.changes += 1
                label = self.label(q.seat)
                text = f"{label[:1].upper()}{label[1:]} is paired with phone {phone.code}."
        self.say(text)

    def _gesture_open(self, paused: bool, seat: str, button: str) -> bool:
        """Whether a hold of `button` at `seat` would ask or unpair now (`paused`: the
        game is paused, as the table's status says)."""
        with self._lock:
            window = self._window
            if self._question is None and window is not None and window[1] > self.clock():
                if window[2] is None:  # a seat with buttons asks for itself
                    return seat != "table"
                return button != "undo"  # a phone seat: menu, or select at any seat
            if not paused:
                return False
            if seat == "table":
                owned = self.phone_seats if button == "undo" else frozenset()
            else:
                owned = frozenset({seat})
            return any(p.seat in owned for p in self._phones.values())

    def _hold(self, paused: bool, at: str, button: str, one_button: bool) -> None:
        """A hold at `at`: ask whether to pair the waiting phone (with its phone seat,
        or with `at`), or (paused) unpair the seat's phone (undo at the table: the
        phone seats')."""
        now = self.clock()
        with self._lock:
            window = self._window if self._window is not None and self._window[1] > now else None
            if window is not None and self._question is None:
                phone = self._phones.get(window[0])
                if phone is None:
                    self._window = None
                    text = "The phone that asked to pair has gone; nothing was paired."
                else:
                    seat = window[2] or at
                    self._question = Question(window[0], seat, at, one_button, now + QUESTION_S)
                    self.changes += 1
                    text = self._question_text(phone.code, seat, at, one_button)
            elif not paused:
                text = "The pairing window has closed; ask again from the phone."
            else:
                seats = self.phone_seats if at == "table" else frozenset({at})
                gone = [t for t, p in self._phones.items() if p.seat in seats]
                named = sorted({p.seat for p in self._phones.values() if p.seat in seats})
                for token in gone:
                    del self._phones[token]
                self.changes += 1
                text = " ".join(
                    f"{self.label(s)[:1].upper()}{self.label(s)[1:]}'s phone is unpaired."
                    for s in named
                )
        self.say(text)

    def _question_text(self, code: str, seat: str, at: str, one_button: bool) -> str:
        ask = f"Pair phone {code} with {self.label(seat)}?"
        if at == "table":
            return f"{ask} Menu confirms; undo refuses."
        where = "" if at == seat else f" at {self.label(at)}"
        if one_button:
            return f"{ask} Hold the button{where} to confirm; a tap refuses."
        return f"{ask} Select{where} confirms; next refuses."


__all__ = [
    "QUESTION_S",
    "TOKENS_KEPT",
    "WINDOW_S",
    "PairingBusy",
    "PairingOpened",
    "Pairings",
    "Phone",
    "Question",
]
