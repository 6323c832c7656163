"""The component check at the table: before the first game of a title whose component
data still holds guesses, the lobby offers to check them with the components in hand.

It is the lobby's `checking` mode, between choosing the game and seating. Nobody is
seated yet, so any seat (or the table's menu button) answers; each seat's buttons move
one shared cursor, as in the game menu. The questions are `apps.datacheck`'s, the same
as `tavola data check GAME` asks in a terminal; an answer of `matches` is written as the
owner's with `datacheck.save`, group by group as `walk` writes them. `differs` says where
the value is corrected (the phone page's settings, `tavola data check GAME`): a value
typed in words is no job for three buttons. Whatever happens here, the game can start:
`later`, `stop` and a refused save all go on to seating.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import engine
from engine.core import Action, DataError

from .. import datacheck
from ..journal import JournalError
from ..menu import Menu
from ..userdata import present, user_override_path
from .ports import Table

log = logging.getLogger("tavola.table")

OFFER = ("check now", "later")
ASK = ("matches", "differs", "stop")


def _menu(words: tuple[str, ...]) -> Menu:
    return Menu([Action(0, w) for w in words])


def unchecked(game: str) -> tuple[Path, list[datacheck.Question]]:
    """The owner's file of `game` and the values in it (or shipped) still provisional;
    none when the file cannot be read (the table says so when the game starts)."""
    path = user_override_path(game)
    g = engine.get(game)
    try:
        data = g.load_data(present(path))
    except (DataError, OSError) as exc:
        log.warning("component check of %s not offered: %s", game, exc)
        return path, []
    return path, datacheck.questions(game, data)


class ComponentCheck:
    """The offer, then one question at a time; `done` is called once it is over."""

    def __init__(
        self,
        table: Table,
        game: str,
        todo: list[datacheck.Question],
        path: Path,
        *,
        done: Callable[[], None],
    ) -> None:
        self.table = table
        self.game = game
        self.title = engine.get(game).title
        self.todo = todo
        self.path = path
        self.done = done
        self.n = -1  # the question asked; -1 while the offer stands
        self.menu = _menu(OFFER)
        self.answers: dict[tuple[str, str], Any] = {}
        self.written = 0

    @classmethod
    def offered(cls, table: Table, game: str, *, done: Callable[[], None]) -> ComponentCheck | None:
        """The check to offer before a game of `game`, or None: its values were checked,
        or a game of it was played to its end (the owner has chosen to play with them)."""
        try:
            if table.journal.played(game):
                return None
        except (JournalError, sqlite3.Error) as exc:  # the game start says it, if it matters
            log.warning("component check of %s not offered: %s", game, exc)
            return None
        path, todo = unchecked(game)
        if not any(datacheck.at_a_glance(q) for q in todo):
            for q in todo:  # nothing the buttons can confirm: say where the rest is entered
                table.say(f"{engine.get(game).title}: {_where_entered(q)}")
            return None
        return cls(table, game, todo, path, done=done)

    # --- what is said and shown ----------------------------------------------------
    def choices(self) -> list[str]:
        """The menu's choices in full words (`check now`, not the menu's first word)."""
        return list(OFFER if self.n < 0 else ASK)

    def _groups(self) -> str:
        return ", ".join(dict.fromkeys(f"[{q.group}]" for q in self.todo))

    def offer(self) -> None:
        self.table.say(
            f"{self.title}: {len(self.todo)} values of the components are guesses, not in the "
            f"rulebook ({self._groups()}). Check them with your copy at hand now, or later "
            "and play with the guesses? (next/previous, select to choose: check now, later)"
        )

    def prompt(self) -> list[str]:
        """What the screen shows while the check waits: the offer, or the question in
        words with the guess in words (the choices are `choices()`)."""
        if self.n < 0:
            return [
                f"{len(self.todo)} values of {self.title} are guesses: "
                "check them with your copy now, or later?",
                f"the guesses: {self._groups()}",
            ]
        q = self.todo[self.n]
        return [
            f"{self.n + 1}/{len(self.todo)} [{q.group}] {q.key}: {q.text}",
            f"the guess: {datacheck.words(q.current)}",
        ]

    def _ask(self) -> None:
        q = self.todo[self.n]
        self.menu = _menu(ASK)
        self.table.say(
            f"{self.n + 1}/{len(self.todo)} [{q.group}] {q.key}: {_sentence(q.text)} "
            f"The guess: {datacheck.words(q.current)}. Does your copy show this? "
            "(matches, differs, or stop: the rest later)"
        )

    # --- presses -------------------------------------------------------------------
    def on_press(self, seat: str, command: str) -> None:
        """A seat's next / previous / select / back (back: later, or stop)."""
        if command in ("next", "previous"):
            if command == "next":
                self.menu.next()
            else:
                self.menu.previous()
            label = self.table.seat_label(seat, capital=True) if seat != "*" else "Table"
            self.table.say_cursor(f"{label}: {self.menu.path()}")
            return
        if command == "back":
            self.choose("later" if self.n < 0 else "stop")
        elif command == "select":
            action = self.menu.select()
            if action is not None:
                self.choose(action.text)

    def choose(self, word: str) -> None:
        if word == "later":
            self.table.say(
                f"Playing with the guesses. The check is offered again before each "
                f"{self.title} game until one is played to the end "
                f"(or any time: `tavola data check {self.game}`)."
            )
            self.done()
        elif word == "check now":
            self.table.say("Have the components at hand; select matches when your copy shows it.")
            self._next()
        elif word == "stop":
            if self._write():
                self._finish("Check stopped")
        elif word in ("matches", "differs"):
            q = self.todo[self.n]
            if word == "matches":
                self.answers[(q.group, q.key)] = q.current
            else:
                self.table.say(
                    f"Your copy differs: correct [{q.group}] {q.key} on the phone page's "
                    f"settings or with `tavola data check {self.game}`; until then the game "
                    "plays with the guess."
                )
            if self._group_ends() and not self._write():
                return
            self._next()

    def _group_ends(self) -> bool:
        after = self.n + 1
        return after >= len(self.todo) or self.todo[after].group != self.todo[self.n].group

    def _next(self) -> None:
        """The next question the buttons can answer; the others say where they are entered."""
        while True:
            self.n += 1
            if self.n >= len(self.todo):
                self._finish("Check done")
                return
            q = self.todo[self.n]
            if datacheck.at_a_glance(q):
                self._ask()
                return
            self.table.say(f"{self.n + 1}/{len(self.todo)} {_where_entered(q)}")
            if self._group_ends() and not self._write():
                return

    def _write(self) -> bool:
        """Write the answers of the group just asked; False when the check ended because the
        file could not be written (said, nothing changed, the game can start)."""
        if not self.answers:
            return True
        group = next(iter(self.answers))[0]
        try:
            datacheck.save(self.game, self.answers, path=self.path)
        except DataError as exc:
            self.table.say(f"Not written: {exc}. [{group}] stays a guess.")
        except OSError as exc:
            self.answers.clear()
            self.table.say(
                f"Not written: {exc.strerror or exc} ({self.path}). [{group}] stays a guess; "
                "the check stops here and the game plays with the guesses."
            )
            self._finish("Check stopped", said=False)
            return False
        else:
            self.written += len(self.answers)
            keys = ", ".join(k for _, k in self.answers)
            self.table.say(f"Written as your copy's: [{group}] {keys}.")
        self.answers.clear()
        return True

    def _finish(self, what: str, *, said: bool = True) -> None:
        if said:
            left = len(unchecked(self.game)[1])
            self.table.say(
                f"{what}: {self.written} values written as your copy's, {left} still guesses."
                + (
                    f" The check is offered again before the next {self.title} game until "
                    "one is played to the end."
                    if left
                    else ""
                )
            )
        self.done()


def _where_entered(q: datacheck.Question) -> str:
    return f"[{q.group}] {q.key} is not checked with buttons: {_sentence(q.text)}"


def _sentence(text: str) -> str:
    """A question's text as a sentence of its own (some end in an example, not a stop)."""
    text = text.strip()
    return text if text.endswith((".", "?", "!")) else text + "."


__all__ = ["ASK", "OFFER", "ComponentCheck", "unchecked"]
