"""The table app's parts at work: one observation per frame, seat names through the engine.

Strozzi at a mocked table (tests/apps/conftest.py). The counting wrapper on `observe`
stands in for nothing: it calls the real method and only counts.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from apps.cards import CardReader, CardRegistry
from engine.core import CHANCE
from engine.strozzi import StrozziState


def seated_at(make_table, order: list[str]):
    """A 4-player Strozzi game whose players joined in `order` (the first plays first)."""
    table, clock, bot = make_table(players=4, seed=5)
    app = table.app
    for seat in order:
        bot.command(seat, "select")
    bot.press("table", "menu")  # all who play have joined
    assert app.mode == "setup"
    bot.command(order[0], "select")  # the board is laid out
    assert app.mode == "playing"
    return table, clock, bot


def to_a_decision(app, bot) -> str:
    """On to a seat choosing an action (not a draw); its seat."""
    for _ in range(200):
        seat = app._waiting_seat()
        if app.mode == "playing" and app.state.current_player() != CHANCE and seat:
            return seat
        bot.advance(4)
    raise AssertionError("no decision came")


@contextmanager
def counting_observes(state: Any) -> Iterator[list[int | None]]:
    """Every `observe()` of `state` (not of its clones), by the seat asked for."""
    calls: list[int | None] = []
    real = StrozziState.observe

    def observe(self: StrozziState, seat: int | None = None) -> Any:
        if self is state:
            calls.append(seat)
        return real(self, seat)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(StrozziState, "observe", observe)
        yield calls


def test_a_frame_observes_the_game_once(make_table) -> None:
    """Board, the four seats' prompts and the candidate's preview share one observation;
    the table's status, built once per change, observes the public view and the acting
    seat's (whether its menu tells a secret) once, and a frame at the same board version
    reads it as it is."""
    table, clock, bot = seated_at(make_table, ["1", "2", "3", "4"])
    app = table.app
    seat = to_a_decision(app, bot)
    bot.command(seat, "next")  # a menu at the waiting seat: the frame previews its candidate
    assert app.menus.get(seat) is not None
    with counting_observes(app.state) as calls:
        app.version += 1  # a new board version: nothing cached, the whole frame is drawn
        frame = app.frame(clock())
    player = app.players.index(seat)
    assert sorted(calls, key=str) == sorted([None, player, None], key=str)
    with counting_observes(app.state) as calls:
        app.frame(clock() + 0.1)  # the same board: the status and the board are kept
    assert calls == [None]
    assert f"seat.{seat}.status" in frame and any(k.startswith("strozzi.track.") for k in frame)


def test_the_prompt_names_the_seats_through_the_engines_namer(make_table) -> None:
    """The first to join (seat 3) is player 0: the engine's sentence names seat 3 itself,
    given the table's SeatNamer, and the out-of-turn refusal repeats that sentence."""
    table, _clock, bot = seated_at(make_table, ["3", "1", "2", "4"])
    app = table.app
    assert app.players == ["3", "4", "1", "2"]
    seat = to_a_decision(app, bot)
    other = next(s for s in app.players if s != seat)
    namers: list[tuple[Any, ...]] = []
    real = StrozziState.describe

    def describe(self: StrozziState, *args: Any, **kw: Any) -> str:
        namers.append(args + tuple(kw.values()))
        return real(self, *args, **kw)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(StrozziState, "describe", describe)
        bot.command(other, "next")
    # the table's sentence asks with its namer (observe()'s public prompt asks without)
    assert any(len(n) == 1 and n[0](0) == "seat 3" for n in namers)
    expected = real(app.state, lambda p: f"seat {app.players[p]}")
    assert f"Seat {seat}" in expected
    assert make_table.said[-1] == f"Seat {other}: it is seat {seat}'s turn. {expected}"


def test_a_card_read_out_of_turn_names_the_tables_seats(make_table) -> None:
    """'no draw is due: Seat 3 decides ...': the scanner's refusal speaks of the seat the
    player sits at, as every other prompt does (the engine alone would say seat 1)."""
    table, clock, bot = seated_at(make_table, ["3", "1", "2", "4"])
    app = table.app
    seat = to_a_decision(app, bot)
    player = app.players.index(seat)
    app.cards = CardReader(
        CardRegistry(None, {"strozzi": {"A": "draw 5 gold0 grain2 cloth2 scrolls0 token"}})
    )
    history = len(app.state.history)
    app.handle_card("A", clock())
    said = make_table.said[-1]
    assert "no draw is due" in said and f"Seat {seat} " in said
    if seat != str(player + 1):
        assert f"Seat {player + 1} " not in said
    assert len(app.state.history) == history  # nothing changed
