"""A bot's decision away from the table's main loop, so presses and lights never wait
for a search.

The table asks a `Thinker` for the move of a bot seat (`Ask`: the game, its seed,
options and component data, the history as (player, text) pairs, the seat, the bot's
level) and polls for the answer on its ticks. The answer is `engine.bots.decide`'s, a
function of the history alone, wherever it is worked out: the same move inline, in a
thread or in a process. An answer is tagged with the ask it answers, and the table
takes it only if its game has not changed since (an undo, a confirmed move).

Three kinds, `THINKERS`:

- `process` (the table's): one worker process, started when a game with bot seats
  begins (`warm`) or on the first ask, that keeps
  the last game replayed and extends it by the actions played since, so an ask sends
  the history's texts and the worker replays only what is new. A search in another
  process does not hold the table's interpreter lock: presses at the other seats are
  answered as fast as with no bot thinking (docs/bots.md gives the figures);
- `thread`: a worker thread in the table's process (a search then competes with the
  main loop for the interpreter lock);
- `inline`: the decision made at once, on the caller's thread (tests, tools).

This module imports nothing of the table, so the worker process starts light.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import queue
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any, Protocol

import engine
from engine.bots import decide, make_bot
from engine.core import Action, GameData, State

THINKERS = ("process", "thread", "inline")
"""Where a table's bots think, the table's own first."""


@dataclass(frozen=True)
class Ask:
    """A bot's decision to make: everything it depends on, in plain values."""

    game: str
    players: int
    seed: int
    options: Mapping[str, Any]
    data: GameData
    history: tuple[tuple[int, str], ...]
    seat: int
    level: str
    number: int = 0
    """Which ask of the thinker this is: its answer carries it back."""

    @classmethod
    def of(cls, state: State, seat: int, level: str, number: int = 0) -> Ask:
        return cls(
            state.game.name,
            state.players,
            state.seed,
            dict(state.options),
            state.data,
            tuple((a.player, a.text) for a in state.history),
            seat,
            level,
            number,
        )


@dataclass
class Positions:
    """The last game replayed, extended by the actions of a later ask's history."""

    key: tuple[Any, ...] = ()
    history: list[tuple[int, str]] = field(default_factory=list)
    state: State | None = None

    def at(self, ask: Ask) -> State:
        """The state after `ask.history`."""
        key = (ask.game, ask.players, ask.seed, repr(sorted(ask.options.items())), ask.data.digest)
        n = len(self.history)
        state = self.state
        if (
            state is None
            or key != self.key
            or len(ask.history) < n
            or list(ask.history[:n]) != self.history
        ):
            game = engine.get(ask.game)
            state = game.new_state(ask.players, seed=ask.seed, options=ask.options, data=ask.data)
            self.key, self.history, self.state, n = key, [], state, 0
        for player, text in ask.history[n:]:
            state.apply(Action(player, text))
            self.history.append((player, text))
        return state


def think(ask: Ask, positions: Positions) -> str:
    """The text of the bot's move for `ask` (`decide`: the same wherever it runs)."""
    state = positions.at(ask)
    return decide(make_bot(ask.level), state, ask.seat).text


Answer = tuple[int, str | None, str | None]
"""(the ask's number, the move's text, or None and why the worker failed)."""


class Thinker(Protocol):
    """Where a table's bots think (see the module docstring)."""

    kind: str

    def warm(self) -> None:
        """Start the worker now, so the first ask does not wait for it (a game with bot
        seats begins)."""

    def ask(self, ask: Ask) -> None:
        """Start working out `ask` (an ask still being worked out is answered first)."""

    def poll(self) -> Answer | None:
        """The answer to the latest ask once it is ready (older answers are dropped)."""

    def wait(self, timeout: float | None = None) -> Answer | None:
        """The answer to the latest ask, waiting up to `timeout` seconds for it."""

    def close(self) -> None:
        """Stop the worker, if there is one."""


class InlineThinker:
    """Decides at once on the caller's thread."""

    kind = "inline"

    def __init__(self) -> None:
        self._positions = Positions()
        self._answer: Answer | None = None

    def warm(self) -> None:
        pass

    def ask(self, ask: Ask) -> None:
        self._answer = _answer(ask, self._positions)

    def poll(self) -> Answer | None:
        answer, self._answer = self._answer, None
        return answer

    def wait(self, timeout: float | None = None) -> Answer | None:
        return self.poll()

    def close(self) -> None:
        self._answer = None


def _answer(ask: Ask, positions: Positions) -> Answer:
    try:
        return ask.number, think(ask, positions), None
    except Exception as exc:  # the table says why and the bot's seat waits
        return ask.number, None, f"{type(exc).__name__}: {exc}"


class _Latest:
    """The answers a worker sends, of which only the latest ask's counts."""

    def __init__(self) -> None:
        self.wanted = -1

    def keep(self, answer: Answer | None) -> Answer | None:
        return answer if answer is not None and answer[0] == self.wanted else None


class ThreadThinker(_Latest):
    """A worker thread in the table's process."""

    kind = "thread"

    def __init__(self) -> None:
        super().__init__()
        self._asks: queue.SimpleQueue[Ask | None] = queue.SimpleQueue()
        self._answers: queue.SimpleQueue[Answer] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None

    def warm(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._serve, name="bot", daemon=True)
            self._thread.start()

    def ask(self, ask: Ask) -> None:
        self.warm()
        self.wanted = ask.number
        self._asks.put(ask)

    def _serve(self) -> None:
        positions = Positions()
        while (ask := self._asks.get()) is not None:
            self._answers.put(_answer(ask, positions))

    def poll(self) -> Answer | None:
        while True:
            try:
                answer = self._answers.get_nowait()
            except queue.Empty:
                return None
            if (kept := self.keep(answer)) is not None:
                return kept

    def wait(self, timeout: float | None = None) -> Answer | None:
        while True:
            try:
                answer = self._answers.get(timeout=timeout)
            except queue.Empty:
                return None
            if (kept := self.keep(answer)) is not None:
                return kept

    def close(self) -> None:
        if self._thread is not None:
            self._asks.put(None)
            self._thread.join(timeout=5)
            self._thread = None


def _serve(conn: Connection) -> None:
    """The worker process: answer asks until the pipe closes or None comes."""
    positions = Positions()
    while True:
        try:
            ask = conn.recv()
        except EOFError:
            return
        if ask is None:
            return
        try:
            conn.send(_answer(ask, positions))
        except OSError:  # the table closed its end while the bot thought
            return


class ProcessThinker(_Latest):
    """One worker process, spawned (not forked: the table has threads) by `warm`."""

    kind = "process"

    def __init__(self) -> None:
        super().__init__()
        self._conn: Connection | None = None
        self._process: multiprocessing.process.BaseProcess | None = None

    def warm(self) -> None:
        if self._conn is None or self._process is None or not self._process.is_alive():
            context = multiprocessing.get_context("spawn")
            ours, theirs = context.Pipe()
            self._process = context.Process(
                target=_serve, args=(theirs,), name="tavola-bot", daemon=True
            )
            self._process.start()
            theirs.close()
            self._conn = ours

    def ask(self, ask: Ask) -> None:
        self.warm()
        assert self._conn is not None
        self.wanted = ask.number
        self._conn.send(ask)

    def poll(self) -> Answer | None:
        return self.wait(0)

    def wait(self, timeout: float | None = None) -> Answer | None:
        conn = self._conn
        if conn is None:
            return None
        while True:
            try:
                if not conn.poll(timeout):
                    return None
                answer: Answer = conn.recv()
            except (EOFError, OSError):  # the worker died: the next ask starts another
                self._conn = None
                return (self.wanted, None, "the bot's worker process stopped")
            if (kept := self.keep(answer)) is not None:
                return kept

    def close(self) -> None:
        conn, process = self._conn, self._process
        self._conn = self._process = None
        if conn is not None:
            with contextlib.suppress(OSError):
                conn.send(None)
            conn.close()
        if process is not None:
            process.join(timeout=5)
            if process.is_alive():
                process.kill()
                process.join()


def make_thinker(kind: str = "process") -> Thinker:
    """A thinker of `kind` (one of `THINKERS`)."""
    if kind == "process":
        return ProcessThinker()
    if kind == "thread":
        return ThreadThinker()
    if kind == "inline":
        return InlineThinker()
    raise ValueError(f"no thinker {kind!r}: choose one of {', '.join(THINKERS)}")
