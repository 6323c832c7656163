"""A bot seat thinks off the table's loop (apps.thinker): the same move wherever it is
worked out, presses answered meanwhile, and an answer for a position the game has left
(an undo) never proposed."""

from __future__ import annotations

import pytest

import engine
from apps.thinker import THINKERS, Answer, Ask, InlineThinker, make_thinker
from engine.bots import decide, make_bot
from engine.core import CHANCE, State, derive, draw_chance


def positions(name: str, players: int, seed: int, count: int) -> list[tuple[State, int]]:
    """`count` positions of a random game where a seat is to act, with that seat."""
    state = engine.get(name).new_state(players, seed=seed)
    rng = derive(seed, "thinker")
    found: list[tuple[State, int]] = []
    while len(found) < count and not state.is_over():
        player = state.current_player()
        assert player is not None
        if player == CHANCE:
            state.apply(draw_chance(state, rng))
            continue
        if len(state.legal_actions()) > 1 and rng.random() < 0.2:
            found.append((state.clone(), player))
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return found


@pytest.mark.parametrize("kind", THINKERS)
def test_every_thinker_gives_decides_move(kind: str) -> None:
    """In order, as a game goes (the worker extends its replay), and back to an earlier
    position (it replays from the start): `decide`'s move each time."""
    asked = positions("strada_romana", 3, 4, 4)
    asked.append(asked[0])
    thinker = make_thinker(kind)
    try:
        for number, (state, seat) in enumerate(asked, 1):
            thinker.ask(Ask.of(state, seat, "greedy", number))
            answer = thinker.wait(120)
            assert answer == (number, decide(make_bot("greedy"), state, seat).text, None)
    finally:
        thinker.close()


def test_only_the_latest_asks_answer_is_given() -> None:
    thinker = make_thinker("thread")
    try:
        (first, seat1), (second, seat2) = positions("strozzi", 4, 2, 2)
        thinker.ask(Ask.of(first, seat1, "greedy", 1))
        thinker.ask(Ask.of(second, seat2, "greedy", 2))
        answer = thinker.wait(120)
        assert answer is not None and answer[0] == 2
    finally:
        thinker.close()


class HeldThinker(InlineThinker):
    """Works out each ask at once but answers only when `release` says so: a bot that is
    still thinking, for as long as a test needs."""

    def __init__(self) -> None:
        super().__init__()
        self.held: list[Answer] = []
        self.asks: list[Ask] = []

    def ask(self, ask: Ask) -> None:
        self.asks.append(ask)
        super().ask(ask)
        answer = super().poll()
        assert answer is not None
        self.held.append(answer)

    def release(self) -> None:
        self._answer = self.held.pop(0)

    def poll(self) -> Answer | None:
        return super().poll()

    kind = "held"


def bots_turn(make_table):  # type: ignore[no-untyped-def]
    table, clock, bot = make_table(3, seed=4, bots=1)
    app = table.app
    app.thinker = HeldThinker()
    while app.session is None or app.session.bot_to_act() is None:
        bot.advance(3)
    return table, clock, bot


def test_presses_while_a_bot_thinks_are_answered_and_choose_nothing(make_table) -> None:
    table, _clock, bot = bots_turn(make_table)
    app = table.app
    session = app.session
    before = len(session.state.history)
    assert session.thinking() and app.status().menu.options == ("thinking",)
    make_table.said.clear()
    bot.command("2", "next")
    bot.command("1", "select")
    assert len(session.state.history) == before
    assert make_table.said[-2:] == ["Seat 3 (bot) is thinking."] * 2
    app.thinker.release()
    app.tick()  # the loop finds the answer and proposes it
    assert not session.thinking()
    assert make_table.said[-1].startswith("Seat 3 (bot) plays ")
    move = session.bot_move()
    assert move == decide(make_bot("ismcts"), session.state, 2)
    bot.command("1", "select")
    assert session.state.history[before] == move


def test_an_answer_for_a_position_undone_meanwhile_is_never_proposed(make_table) -> None:
    """The bot thinks; the move before its turn is undone and played again: the answer
    to the first ask (made before the undo) is dropped and a new ask made, though the
    history is the same length again."""
    table, _clock, bot = bots_turn(make_table)
    app = table.app
    session = app.session
    history = list(session.state.history)
    last = history[-1]
    assert last.player not in (2, CHANCE), "a person's move before the bot's turn"
    bot.press("table", "undo")
    assert len(session.state.history) == len(history) - 1
    seat = session.players[last.player]
    for command in bot.presses_for(seat, last):
        bot.command(seat, command)
    assert session.state.history == history and session.thinking()
    assert len(app.thinker.asks) == 2  # asked again for the position reached again
    app.thinker.release()  # the answer to the ask made before the undo
    app.tick()
    assert session.thinking() and session.proposal is None
    app.thinker.release()
    app.tick()
    assert not session.thinking()
    assert session.bot_move() == decide(make_bot("ismcts"), session.state, 2)


class FailingThinker(HeldThinker):
    """A worker that stopped: every answer says why, with no move."""

    def release(self) -> None:
        number = self.held.pop(0)[0]
        self._answer = (number, None, "the bot's worker process stopped")


def test_a_failed_worker_gives_way_to_the_same_move_worked_out_on_the_loop(make_table) -> None:
    table, _clock, bot = make_table(3, seed=4, bots=1)
    app = table.app
    app.thinker = FailingThinker()
    while app.session is None or app.session.bot_to_act() is None:
        bot.advance(3)
    session = app.session
    assert session.thinking()
    app.thinker.release()
    app.tick()
    assert not session.thinking()
    assert session.bot_move() == decide(make_bot("ismcts"), session.state, 2)
