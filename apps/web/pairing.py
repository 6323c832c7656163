"""Pairing a phone with a seat: only somebody at the table can do it.

1. The phone asks (POST /api/pair). It gets a random token in an HttpOnly,
   SameSite=Strict cookie, not yet bound to a seat, and a four-digit code it shows.
2. The table says the code and opens a pairing window (60 s). In it, the next hold of
   the select button at a seat (the single button at a one-button seat) pairs that seat:
   the hold does not also act in the game. A tap still acts, on release.
3. The token is bound to that seat, server side; the phone's page now shows the seat's
   secrets and its choices. One phone per seat: pairing another replaces it.

A seat without buttons (`kind = "phone"`) is paired the same way, but the phone names
the seat it asks to play (POST /api/pair {"seat": "3"}) and the table says so; then the
hold that confirms is one of the table's menu button, or of select at any seat with
buttons: somebody at the table still has to agree. Revoking a phone seat's phone: while
the game is paused, a hold of the table's undo button unpairs every phone seat's phone.

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

WINDOW_S = 60.0  # how long a pairing window stays open
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


class Pairings:
    """Tokens and their seats, the open window, and the gesture at the table."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._lock = threading.Lock()
        self._phones: dict[str, Phone] = {}
        self._window: tuple[str, float, str | None] | None = None  # (token, closes at, seat)
        self.phone_seats: frozenset[str] = frozenset()  # seats with no buttons
        self._held: dict[tuple[str, str], InputEvent] = {}  # presses held back
        self._swallow: set[tuple[str, str]] = set()  # releases after a pairing hold
        self.changes = 0  # bumps on every pairing or unpairing (the page republishes)
        self.say: Callable[[str], None] = lambda text: None
        self.label: Callable[[str], str] = lambda seat: f"seat {seat}"

    # --- the server's side ---------------------------------------------------------------
    def request(self, seat: str | None = None) -> Phone:
        """A new unpaired token with its code, its window opened (for phone seat `seat`,
        or for the seat whose hold confirms it); PairingBusy when another phone's window
        is open."""
        now = self.clock()
        with self._lock:
            if self._window is not None and self._window[1] > now:
                raise PairingBusy(self._window[1] - now)
            if self._window is not None:
                self._drop_unpaired(self._window[0])
            phone = Phone(secrets.token_urlsafe(32), f"{secrets.randbelow(10000):04d}")
            self._phones[phone.token] = phone
            self._window = (phone.token, now + WINDOW_S, seat)
            unpaired = [t for t, p in self._phones.items() if p.seat is None]
            for token in unpaired[:-TOKENS_KEPT]:
                del self._phones[token]
            self.changes += 1
            return phone

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
            self.changes += 1
            return phone is not None

    def window_left(self) -> float:
        """Seconds the open pairing window has left (0: none open)."""
        with self._lock:
            return self._left()

    def window_seat(self) -> str | None:
        """The phone seat the open window asks to play (None: the seat that confirms)."""
        with self._lock:
            return self._window[2] if self._window is not None and self._left() > 0 else None

    def paired_seats(self) -> list[str]:
        with self._lock:
            return sorted({p.seat for p in self._phones.values() if p.seat is not None})

    def _left(self) -> float:
        if self._window is None:
            return 0.0
        return max(0.0, self._window[1] - self.clock())

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
                f"your seat within {WINDOW_S:g} s."
            )
        return (
            f"A phone asks to play {self.label(ev.seat)}: its code is {ev.code}. To agree, "
            f"hold menu at the table, or select at any seat with buttons, within {WINDOW_S:g} s."
        )

    def tap(self, table: Appliance, ev: Any) -> bool:
        """The pairing gesture: a hold of select at a seat while a window is open (or,
        to unpair, while paused). The press is held back until it is known to be a hold;
        a tap goes on to the table whole, press and release, so it still acts."""
        if not isinstance(ev, InputEvent):
            return False
        app = table.app
        if ev.seat == "table":
            if ev.button not in ("menu", "undo"):
                return False
        else:
            seat = app.seats.get(ev.seat)
            if seat is None or seat.phone:
                return False
            if ev.button != ("button" if seat.one_button else "select"):
                return False
        key = (ev.seat, ev.button)
        if ev.kind == "press":
            if self._gesture_open(app.status().paused, ev.seat, ev.button):
                self._held[key] = ev
                return True
            return False
        if ev.kind == "long_press" and key in self._held:
            del self._held[key]
            self._swallow.add(key)
            self._hold(app.status().paused, ev.seat, ev.button)
            return True
        if ev.kind == "release":
            if key in self._swallow:
                self._swallow.discard(key)
                return True
            press = self._held.pop(key, None)
            if press is not None:
                app.handle(press)  # a tap: the table sees the whole press after all
            return False
        return False

    def _gesture_open(self, paused: bool, seat: str, button: str) -> bool:
        """Whether a hold of `button` at `seat` would pair or unpair now (`paused`: the
        game is paused, as the table's status says)."""
        with self._lock:
            if self._left() > 0 and self._window is not None:
                if self._window[2] is None:  # a seat with buttons confirms its own
                    return seat != "table"
                return button != "undo"  # a phone seat: menu, or select at any seat
            if not paused:
                return False
            if seat == "table":
                owned = self.phone_seats if button == "undo" else frozenset()
            else:
                owned = frozenset({seat})
            return any(p.seat in owned for p in self._phones.values())

    def _hold(self, paused: bool, at: str, button: str) -> None:
        """A hold at `at`: pair the waiting phone (with its phone seat, or with `at`), or
        (paused) unpair the seat's phone (undo at the table: the phone seats')."""
        with self._lock:
            window = self._window if self._left() > 0 else None
            if window is not None:
                phone = self._phones.get(window[0])
                seat = window[2] or at
                self._window = None
                if phone is not None:
                    for other in [t for t, p in self._phones.items() if p.seat == seat]:
                        del self._phones[other]
                    phone.seat = seat
                    self.changes += 1
                    text = f"{self.label(seat)[:1].upper()}{self.label(seat)[1:]}'s phone "
                    text += f"(code {phone.code}) is paired."
                else:
                    text = "The phone that asked to pair has gone; nothing was paired."
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


__all__ = ["TOKENS_KEPT", "WINDOW_S", "PairingBusy", "PairingOpened", "Pairings", "Phone"]
