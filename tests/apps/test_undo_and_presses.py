"""Undo the way players expect, and fewer, safer presses: what a person at the table sees.

Undo takes back a seat's own last actions until the next player acts or something hidden
is revealed; the draw that follows an action waits for the next press, so the action
stays undoable until then. The journal keeps what was undone, and a table that restarts
after a power cut allows exactly the undo it allowed before.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path

import pytest

from apps.journal import Journal
from apps.runtime import Appliance
from apps.sim import ButtonBot, ManualClock, demo_config
from apps.table import TableApp
from apps.table.render import ERROR, pulse
from apps.views import view_for
from apps.views.base import OFF, dim
from engine.core import CHANCE, DRAWN
from tests.apps.test_table import journal_actions, seated, snapshot


@pytest.fixture
def florence(tmp_path: Path) -> Iterator:
    """A mocked Florence table; `florence(players, seed)` seats it and lays out the board."""
    tables: list[Appliance] = []
    said: list[str] = []

    def make(players: int, seed: int) -> tuple[Appliance, ButtonBot]:
        config = demo_config("florence", players, journal=tmp_path / "journal.db", seed=seed)
        clock = ManualClock()
        table = Appliance(config, clock=clock, button_thread=False, say=said.append)
        tables.append(table)
        table.app.start()
        table.app.tick()
        return table, ButtonBot(table, clock, seed)

    make.said = said  # type: ignore[attr-defined]
    yield make
    for table in tables:
        table.close()


def play_until(bot: ButtonBot, players: int, done) -> None:  # type: ignore[no-untyped-def]
    app = bot.table.app
    for _ in range(5000):
        if app.mode == "playing" and done(app):
            return
        assert app.mode != "over", "the game ended first"
        bot.advance(players)
    raise AssertionError("never reached")


def held(app: TableApp) -> bool:
    return bool(getattr(app.session, "held", False))


def just_after(pred):  # type: ignore[no-untyped-def]
    """A table right after a seat's action for which `pred` holds (draws may follow it)."""

    def done(app: TableApp) -> bool:
        seat_actions = [a for a in app.state.history if a.player != CHANCE]
        if not seat_actions or not pred(seat_actions[-1]):
            return False
        after = app.state.history[app.state.history.index(seat_actions[-1]) + 1 :]
        return all(a.player == CHANCE for a in after)

    return done


def undone_rows(path: Path) -> list[tuple[int, int, str]]:
    db = sqlite3.connect(path)
    try:
        return list(db.execute("SELECT seq, player, text FROM undone ORDER BY rowid"))
    finally:
        db.close()


# --- undo -------------------------------------------------------------------------------
def test_a_strozzi_port_can_be_undone_until_the_next_press(make_table, tmp_path: Path) -> None:
    """'The player who has taken the ship card places it ... near one of the three ports'
    (strozzi.txt): a wrong port is taken back with undo, because the next ship is drawn only
    at the next press."""
    table, clock, bot = seated(make_table)
    app = table.app
    play_until(bot, 4, just_after(lambda a: a.words[0] == "port"))
    port = next(a for a in reversed(app.state.history) if a.player != CHANCE)
    seat = app.players[port.player]
    count = len(app.state.history)
    assert app.state.current_player() == CHANCE  # the next ship is due, and waits
    said = f"Undo takes back seat {seat}'s '{port.text}' for 4 s; any button goes on."
    assert make_table.said[-1] == said
    # every seat's light pulses: any of them goes on
    now = clock()
    for s in app.players:
        assert len({_status(app, s, now + t) for t in (0.0, 0.4, 0.8)}) > 1
    bot.press("table", "undo")
    assert len(app.state.history) == count - 1
    assert app.state.history[-1] != port and port in app.state.legal_actions()
    assert app._waiting_seat() == seat
    assert f"Undone: seat {seat}'s '{port.text}'." in make_table.said
    # nothing deleted silently: the journal keeps the port as undone
    assert undone_rows(tmp_path / "journal.db") == [(count, port.player, port.text)]
    assert len(journal_actions(tmp_path / "journal.db")) == count - 1
    # the seat chooses a port again, and the next press draws the next ship
    other = next(p for p in app.state.legal_actions() if p.words[0] == "port")
    for command in bot.presses_for(seat, other):
        bot.command(seat, command)
    assert app.session.held and app.state.history[-1] == other
    bot.command(next(s for s in app.players if s != seat), "select")
    assert app.state.history[-1].player == CHANCE and not app.session.held
    drawn = snapshot(table)
    bot.press("table", "undo")
    assert snapshot(table) == drawn
    assert make_table.said[-1] == f"'{app.state.history[-1].text}' cannot be undone: {DRAWN}."


def test_a_solo_florence_action_can_be_undone(florence, tmp_path: Path) -> None:
    """Solo: 'after each of Strozzi's steps the human confirms it' - his own move before
    Strozzi's next card is drawn can be taken back; the card waits for his next press."""
    table, bot = florence(1, 2)
    app = table.app
    play_until(
        bot, 1, just_after(lambda a: a.text != "ok" and a.words[0] in ("bonus", "move", "dispatch"))
    )
    move = next(a for a in reversed(app.state.history) if a.player != CHANCE)
    count = len(app.state.history)
    before = app.session.replayed(app.state.history[:-1]).to_dict()
    bot.press("table", "undo")
    assert len(app.state.history) == count - 1 and app.state.to_dict() == before
    assert move in app.state.legal_actions() and app.mode == "playing"
    assert f"Undone: seat 1's '{move.text}'." in florence.said
    assert undone_rows(tmp_path / "journal.db") == [(count, 0, move.text)]
    # and the menu is shown again at once
    assert app.menus["1"].actions == list(app.state.legal_actions())


def test_undo_stops_where_the_next_player_acted_even_after_a_restart(
    make_table, tmp_path: Path
) -> None:
    """Seat A acts, seat B acts and undoes: A's action is no longer A's to take back (B's
    turn had begun), and a table restarted after a power cut says the same."""
    table, _clock, bot = seated(make_table, seed=9)
    app = table.app

    def two_seats(a: TableApp) -> bool:
        h = a.state.history
        return (
            not held(a)
            and len(h) >= 2
            and CHANCE not in (h[-1].player, h[-2].player)
            and h[-1].player != h[-2].player
        )

    play_until(bot, 4, two_seats)
    first, second = app.state.history[-2], app.state.history[-1]
    bot.press("table", "undo")
    assert app.state.history[-1] == first
    frozen = snapshot(table)
    bot.press("table", "undo")
    refused = f"'{first.text}' cannot be undone: seat {app.players[second.player]} has acted since."
    assert snapshot(table) == frozen and make_table.said[-1] == refused
    locked, waits = app.session.locked, app.session.held
    # a power cut: the process is gone without closing anything; a new one starts
    again, _clock2, _bot2 = make_table(seed=9)
    assert snapshot(again) == frozen
    assert (again.app.session.locked, again.app.session.held) == (locked, waits)
    again.app.handle(_undo_press())
    assert snapshot(again) == frozen and make_table.said[-1] == refused


def _undo_press():  # type: ignore[no-untyped-def]
    from hw.events import InputEvent

    return InputEvent(seat="table", button="undo", kind="press", time=0.0)


def test_a_resumed_table_holds_the_draw_as_before(make_table) -> None:
    """Power cut while the next ship waits: the restarted table still lets the port be
    undone, and draws nothing by itself."""
    table, _clock, bot = seated(make_table, seed=3)
    app = table.app
    play_until(bot, 4, just_after(lambda a: a.words[0] == "port"))
    frozen, port = snapshot(table), app.state.history[-1]
    again, _clock2, bot2 = make_table(seed=3)
    assert snapshot(again) == frozen and held(again.app)
    bot2.press("table", "undo")
    assert port not in again.app.state.history and port in again.app.state.legal_actions()


def test_an_old_journal_gains_the_undone_table(tmp_path: Path) -> None:
    """A journal of schema 2 (before undone actions were kept) opens and is brought on."""
    path = tmp_path / "old.db"
    journal = Journal(path)
    journal.close()
    db = sqlite3.connect(path)
    db.execute("DROP TABLE undone")
    db.execute("PRAGMA user_version=2")
    db.commit()
    db.close()
    journal = Journal(path)
    try:
        game = journal.start_game("strozzi", 3, 1, {}, [], "digest")
        journal.append(game, 1, 0, "flag plus")
        assert journal.undo(game, locked=0) == (0, "flag plus")
        assert [(u.seq, u.text) for u in journal.undone(game)] == [(1, "flag plus")]
    finally:
        journal.close()
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == 3


# --- fewer and safer presses ------------------------------------------------------------
def test_acknowledging_an_automa_step_is_one_press(florence) -> None:
    """'After each of Strozzi's steps the human confirms it ('ok')': one select."""
    table, bot = florence(1, 2)
    app = table.app
    play_until(
        bot, 1, lambda a: not held(a) and [x.text for x in a.state.legal_actions()] == ["ok"]
    )
    count = len(app.state.history)
    bot.command("1", "select")
    assert len(app.state.history) > count and app.state.history[count].text == "ok"


def test_the_cursor_is_shown_at_once_and_never_on_a_pass(florence) -> None:
    """Florence: 'Pass: ... you may not take any more actions this round' - the menu is
    shown with its cursor before any key, and two presses of select never pass."""
    table, bot = florence(2, 4)
    app = table.app
    play_until(
        bot,
        2,
        lambda a: (
            any(x.words[0] == "pass" for x in a.state.legal_actions())
            and a._waiting_seat() is not None
        ),
    )
    seat = app._waiting_seat()
    menu = app.menus[seat]  # no key pressed yet at this seat for this decision
    assert florence.said[-1] == f"Seat {seat}: {menu.path()}"
    assert menu.current != "pass"
    player = app.players.index(seat)
    for _ in range(2):
        bot.command(seat, "select")
    assert not any(a.player == player and a.words[0] == "pass" for a in app.state.history[-2:])


def _status(app: TableApp, seat: str, now: float):  # type: ignore[no-untyped-def]
    return app.frame(now)[f"seat.{seat}.status"]


def test_a_refused_press_blinks_even_at_a_red_seat(make_table) -> None:
    """Strozzi's seat 1 is red: its refused press blinks dark and red, fast, which no prompt
    ever does (a prompt pulses and never goes dark)."""
    table, clock, _bot = seated(make_table)
    app = table.app
    refused = next(s for s in app.players if s != app._waiting_seat())
    app.flash(refused, "not now")
    start = clock()
    seen = [_status(app, refused, start + 0.05 * k) for k in range(12)]
    assert ERROR in seen and OFF in seen
    assert sum(a != b for a, b in pairwise(seen)) >= 4  # blinks
    later = [_status(app, refused, start + 1.0 + 0.05 * k) for k in range(40)]
    assert OFF not in later  # the prompt again


@pytest.mark.parametrize("game", ["strozzi", "florence", "strada_romana"])
def test_the_refusal_pattern_differs_from_every_seats_prompt(game: str) -> None:
    """At every seat colour a game offers, the refusal is dark half the time; no prompt of
    that colour (pulsing, steady or dimmed) is ever dark."""
    from apps.table.render import BLINK_S, BLINKS, refusal_light

    view = view_for(game)
    samples = [refusal_light(BLINKS * 2 * BLINK_S - (k + 0.5) * BLINK_S) for k in range(BLINKS * 2)]
    assert samples == [ERROR, OFF] * BLINKS
    for _name, colour in view.palette:
        prompts = {dim(colour, pulse(t / 10)) for t in range(16)} | {dim(colour, 0.3)}
        assert OFF not in prompts


def test_a_strada_romana_move_can_be_undone_but_a_face_down_tile_cannot(tmp_path: Path) -> None:
    """'When the game ends, all players reveal the "wagon tiles" they own' (strada-romana.txt):
    a tile named as it is taken is hidden from the others, so naming it cannot be undone
    (the holder chose it from the deck it has seen); a move can, until the next seat acts."""
    config = demo_config("strada_romana", 2, journal=tmp_path / "j.db", seed=4)
    config.app.options = {"wagon_tiles": "when_taken"}  # the tile is named as it is taken
    clock = ManualClock()
    said: list[str] = []
    table = Appliance(config, clock=clock, button_thread=False, say=said.append)
    try:
        table.app.start()
        table.app.tick()
        bot = ButtonBot(table, clock, 4)
        app = table.app
        play_until(bot, 2, just_after(lambda a: a.words[0] not in ("wagon", "tile", "end")))
        move = next(a for a in reversed(app.state.history) if a.player != CHANCE)
        count = len(app.state.history)
        assert app.state.history[-1] == move  # any draw after it waits
        bot.press("table", "undo")
        assert len(app.state.history) == count - 1 and move in app.state.legal_actions()
        play_until(bot, 2, just_after(lambda a: a.words[0] == "wagon"))
        frozen = snapshot(table)
        bot.press("table", "undo")
        assert snapshot(table) == frozen
        assert said[-1] == (
            "'wagon (a face-down tile)' cannot be undone: "
            "the wagon tile chosen from the deck is named, face down."
        )
    finally:
        table.close()


KILLED_TABLE = """
import json, sys
from pathlib import Path
from apps.runtime import Appliance
from apps.sim import ButtonBot, ManualClock, demo_config
from engine.core import CHANCE
config = demo_config("strozzi", 4, journal=Path(sys.argv[1]), seed=9)
clock = ManualClock()
table = Appliance(config, clock=clock, button_thread=False, say=lambda _t: None)
app = table.app
app.start()
app.tick()
bot = ButtonBot(table, clock, 9)
undone = 0
while undone < 2:  # a port undone, then a seat's action undone after the next seat acted
    bot.advance(4)
    h, session = app.state.history, app.session
    if session is None or len(h) < 2 or CHANCE in (h[-1].player, h[-2].player):
        continue
    if (undone == 0 and session.held and h[-1].words[0] == "port") or (
            undone == 1 and not session.held and h[-1].player != h[-2].player):
        bot.press("table", "undo")
        undone += 1
print(json.dumps({"state": app.state.to_dict(), "locked": app.session.locked,
                  "why": app.session.why_locked, "held": app.session.held}), flush=True)
sys.stdin.readline()  # killed here, its journal open
"""


def test_a_power_cut_after_undo_resumes_exactly(tmp_path: Path) -> None:
    """A real process with undone actions in its journal is killed (SIGKILL, nothing
    closed); the table started again has the same game, the same undo limit and reason,
    and the same held draw."""
    import json
    import signal
    import subprocess
    import sys

    db = tmp_path / "journal.db"
    proc = subprocess.Popen(
        [sys.executable, "-c", KILLED_TABLE, str(db)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        before = json.loads(proc.stdout.readline())
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    assert len(undone_rows(db)) == 2
    config = demo_config("strozzi", 4, journal=db, seed=9)
    table = Appliance(config, clock=ManualClock(), button_thread=False, say=lambda _t: None)
    try:
        table.app.start()
        session = table.app.session
        assert session is not None and session.state.to_dict() == before["state"]
        assert (session.locked, session.why_locked, session.held) == (
            before["locked"],
            before["why"],
            before["held"],
        )
        assert before["why"].endswith("has acted since")
    finally:
        table.close()


def test_a_held_draw_is_made_by_itself_after_the_grace(make_table) -> None:
    """'The player who has taken the ship card places it ... near one of the three ports'
    (strozzi.txt), then the next ship card is drawn: the table waits DRAW_GRACE_S for an
    undo, then draws by itself, so nobody presses just to go on."""
    from apps.table.session import DRAW_GRACE_S

    table, clock, bot = seated(make_table)
    app = table.app
    play_until(bot, 4, just_after(lambda a: a.words[0] == "port"))
    count = len(app.state.history)
    assert app.session.held and app.status().menu.kind == "go_on"
    clock.advance(DRAW_GRACE_S - 0.5)
    app.tick()
    assert app.session.held and len(app.state.history) == count  # still undoable
    clock.advance(1.0)
    app.tick()
    assert not app.session.held and app.state.history[-1].player == CHANCE
    assert len(app.state.history) == count + 1
    assert app.status().menu.kind == "game"  # the next seat chooses; no press was needed
