"""The table app on mocked hardware: only button presses drive it, as at a real table."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

import pytest

import engine
from apps.journal import JournalError
from apps.menu import Menu
from apps.runtime import Appliance
from apps.sim import ButtonBot, ManualClock, demo_config
from apps.views import view_for
from apps.views.base import ViewContext
from engine.core import CHANCE


def seated(make, **kw):
    table, clock, bot = make(**kw)
    app = table.app
    players = kw.get("players", 4)
    for seat in [str(s) for s in range(1, players + 1)]:
        bot.command(seat, "select")
    if app.mode == "seating":
        bot.press("table", "menu")
    assert app.mode == "setup"
    bot.command("1", "select")  # the board is laid out
    assert app.mode == "playing"
    return table, clock, bot


def journal_actions(path: Path) -> list[tuple[int, str]]:
    db = sqlite3.connect(path)
    try:
        return [(p, t) for p, t in db.execute("SELECT player, text FROM actions ORDER BY seq")]
    finally:
        db.close()


def assert_journal_replays(table: Appliance, path: Path) -> None:
    """The game is over, and the journal alone, replayed by the bare engine, gives the
    table's scores and winner, recorded with the finished game."""
    state = table.app.state
    assert table.app.mode == "over" and state is not None and state.is_over()
    replay = engine.get(state.game.name).new_state(
        state.players, seed=state.seed, options=state.options
    )
    for player, text in journal_actions(path):
        replay.apply(replay.parse_action(text, player=player))
    assert replay.is_over()
    assert replay.scores() == state.scores() and replay.winner() == state.winner()
    record = table.journal.history(1)[0]
    assert record.status == "finished" and record.scores == replay.scores()


def snapshot(table: Appliance) -> str:
    assert table.app.state is not None
    return json.dumps(table.app.state.to_dict(), sort_keys=True)


def status_pixel(table: Appliance, seat: str) -> tuple[int, ...]:
    layout = table.layouts["strozzi"]
    ((_, index),) = layout.indices(f"seat.{seat}.status")
    last = table.strip.last  # type: ignore[attr-defined]
    assert last is not None
    return last[index]


@pytest.mark.parametrize(("players", "seed"), [(3, 11), (4, 5), (6, 2)])
def test_a_whole_game_by_button_presses_scores_as_the_engine(
    make_table, tmp_path: Path, players: int, seed: int
) -> None:
    table, _clock, bot = make_table(players=players, seed=seed)
    assert bot.play(players)
    assert_journal_replays(table, tmp_path / "journal.db")
    assert any("Game over" in line for line in make_table.said)


def test_one_button_seats_and_picked_draws_play_a_whole_game(make_table) -> None:
    table, _clock, bot = make_table(players=3, seed=8, chance="pick", one_button=2)
    assert bot.play(3)
    assert table.app.mode == "over"
    assert sum(1 for a in table.app.state.history if a.player == CHANCE) > 10


def test_an_out_of_turn_press_flashes_that_seat_and_changes_nothing(
    make_table, tmp_path: Path
) -> None:
    table, _clock, bot = seated(make_table)
    app = table.app
    waiting = app._waiting_seat()
    other = next(s for s in app.players if s != waiting)
    before, logged = snapshot(table), journal_actions(tmp_path / "journal.db")
    for command in ("select", "next", "previous"):
        bot.command(other, command)
        assert snapshot(table) == before
        assert journal_actions(tmp_path / "journal.db") == logged
        red, green, blue = status_pixel(table, other)[:3]
        assert red > 0 and green == 0 and blue == 0  # the error light
    assert any(f"Seat {other}: it is seat {waiting}'s turn" in s for s in make_table.said)


def slap(table: Appliance, clock, bot: ButtonBot, first: str) -> None:
    """Every seat's select goes down at once; `first` lets go first, the others after."""
    buttons = table.buttons
    seats = table.app.players
    for seat in seats:
        buttons.press_pin(seat, "select", True)
    clock.advance(0.05)
    buttons.process()
    for seat in [first, *(s for s in seats if s != first)]:
        buttons.press_pin(seat, "select", False)
        clock.advance(0.03)
        buttons.process()
    bot.pump()


def test_a_slap_of_every_seats_select_confirms_one_action_only(make_table) -> None:
    """The seat to act confirms with its release; the other seats' presses began out of
    turn, so their releases must not act when the turn reaches them a moment later."""
    table, clock, bot = seated(make_table, players=4, seed=3)
    app = table.app
    slaps = 0
    while app.mode != "over" and slaps < 80:
        state = app.state
        seat = app._waiting_seat()
        if app.mode != "playing" or state.current_player() == CHANCE or seat is None:
            bot.advance(4)
            continue
        _, action = bot.choose()
        commands = bot.presses_for(seat, action)
        for command in commands[:-1]:
            bot.command(seat, command)
        before = len(state.history)
        slap(table, clock, bot, seat)
        slaps += 1
        assert app.state.history[before].text == action.text
        players = [a.player for a in app.state.history[before:] if a.player != CHANCE]
        assert players == [action.player], f"slap {slaps} confirmed {players}"
    assert slaps >= 40


def test_a_long_press_begun_out_of_turn_never_acts(make_table) -> None:
    """A one-button seat starts holding its button while the seat before it acts; the hold
    completes once the turn has reached it. It began out of turn: it must not choose."""
    table, clock, bot = seated(make_table, players=3, seed=8, one_button=3)
    app = table.app
    buttons = table.buttons
    for _ in range(200):
        seat = app._waiting_seat()
        _, action = bot.choose()
        trial = app.state.clone()
        trial.apply(action)
        after = trial.current_player()
        if (
            app.mode == "playing"
            and app.state.current_player() != CHANCE
            and after not in (None, CHANCE)
            and app.players[after] != seat
        ):
            break
        bot.advance(3)
    else:
        raise AssertionError("no turn passed from one seat to another")
    other = app.players[after]
    commands = bot.presses_for(seat, action)
    assert commands[-1] == "select"  # on one button: a hold
    for command in commands[:-1]:
        bot.command(seat, command)

    def wait(seconds: float) -> None:
        clock.advance(seconds)
        buttons.process()
        bot.pump()

    before = len(app.state.history)
    buttons.press_pin(seat, "button", True)  # the seat starts its hold ...
    wait(0.3)
    buttons.press_pin(other, "button", True)  # ... the next seat starts one out of turn
    wait(0.35)  # the seat's hold completes: its action is confirmed
    count = len(app.state.history)
    assert count > before and app.state.history[before].text == action.text
    assert app._waiting_seat() == other
    wait(0.5)  # the other hold completes now that it is that seat's turn
    buttons.press_pin(seat, "button", False)
    buttons.press_pin(other, "button", False)
    wait(0.1)
    assert len(app.state.history) == count
    fresh = Menu(app.state.legal_actions(), with_back=True)
    assert other not in app.menus or app.menus[other].path() == fresh.path()


def test_selecting_applies_only_after_confirmation(make_table, tmp_path: Path) -> None:
    table, _clock, bot = seated(make_table)
    app = table.app
    seat = app._waiting_seat()
    count = len(app.state.history)
    bot.command(seat, "next")
    bot.command(seat, "previous")
    assert len(app.state.history) == count
    bot.command(seat, "select")  # "flag" opens the flag menu; nothing applied yet
    assert len(app.state.history) == count
    bot.command(seat, "select")  # confirm the pirate flag
    assert len(app.state.history) == count + 1
    assert journal_actions(tmp_path / "journal.db")[-1] == (
        app.state.history[-1].player,
        "flag pirate",
    )


def test_undo_removes_the_last_action_but_never_a_seen_draw(make_table, tmp_path: Path) -> None:
    table, _clock, bot = seated(make_table)
    app = table.app
    seat = app._waiting_seat()
    for command in ("select", "next", "select"):  # flag plus: the pirate window opens
        bot.command(seat, command)
    assert app.state.history[-1].text == "flag plus" and app.state.phase == "pirates"
    before_undo = len(app.state.history)
    bot.press("table", "undo")
    assert len(app.state.history) == before_undo - 1
    assert app.state.phase == "decide"
    assert len(journal_actions(tmp_path / "journal.db")) == before_undo - 1
    # the last action is now the ship draw everyone saw: undo refuses
    assert app.state.history[-1].player == CHANCE
    frozen = snapshot(table)
    bot.press("table", "undo")
    assert snapshot(table) == frozen
    assert any("cannot be undone" in s for s in make_table.said)


def test_pause_blocks_input_until_menu_resumes(make_table) -> None:
    table, _clock, bot = seated(make_table)
    app = table.app
    seat = app._waiting_seat()
    bot.press("table", "menu")
    assert app.mode == "paused"
    frozen = snapshot(table)
    bot.command(seat, "select")
    bot.command(seat, "select")
    assert snapshot(table) == frozen
    bot.press("table", "menu")
    assert app.mode == "playing"


def test_a_restarted_table_resumes_the_game_exactly(make_table, tmp_path: Path) -> None:
    table, _clock, bot = seated(make_table, seed=9)
    for _ in range(12):  # decisions, and the presses that release held draws
        bot.advance(4)
    before = snapshot(table)
    last = table.app.state.history[-1]
    count = len(table.app.state.history)
    table.close()
    said = len(make_table.said)
    again, _clock2, _bot2 = make_table(seed=9)
    assert again.app.mode == "playing"
    assert snapshot(again) == before
    assert again.app.players == table.app.players and again.app.colours == table.app.colours
    # it says where it resumed, and repeats the last action: a cut may have come between
    # that action's commit and its acknowledgement
    who = "draw" if last.player == CHANCE else f"seat {again.app.players[last.player]}"
    assert make_table.said[said : said + 2] == [
        f"Resumed Strozzi after {count} actions.",
        f"#{count} {who}: {last.text}",
    ]


def test_two_tables_seated_in_the_same_second_get_unrelated_seeds(
    make_table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No `[app] seed`: each game's seed is secret, not the clock's second, so two tables
    seated while the clock shows the same second differ, and neither seed is anywhere
    near the clock (tests/web/test_seed_secret.py tries the seconds around a real start
    against the public page)."""
    now = 1_750_000_000.0
    monkeypatch.setattr(time, "time", lambda: now)
    seeds = []
    for n in range(2):
        table, _clock, _bot = seated(make_table, players=3, seed=None, db=tmp_path / f"{n}.db")
        assert table.config.app.seed is None and table.app.state is not None
        seeds.append(table.app.state.seed)
        assert table.journal.unfinished().seed == seeds[-1]  # kept for resume and undo
    assert seeds[0] != seeds[1]
    assert all(abs(seed - int(now)) > 10**6 for seed in seeds)
    assert all(0 <= seed < 2**63 for seed in seeds)  # what the journal's INTEGER holds


def test_a_file_that_is_not_a_journal_is_refused_and_left_alone(make_table, tmp_path: Path) -> None:
    db = tmp_path / "journal.db"
    db.write_bytes(b"this is not a database at all" * 100)
    with pytest.raises(
        JournalError,
        match=r"journal\.db is not an SQLite database.*nothing "
        r"was changed",
    ):
        make_table(db=db)
    assert db.read_bytes() == b"this is not a database at all" * 100
    assert sorted(p.name for p in tmp_path.iterdir()) == ["journal.db"]


def test_a_truncated_journal_keeps_the_last_good_game(make_table, tmp_path: Path) -> None:
    db = tmp_path / "journal.db"
    table, _clock, bot = make_table(players=3, seed=4, db=db)
    assert bot.play(3)
    finished = table.journal.history(1)[0]
    table.close()
    # an unclean cut in the middle of the file
    data = db.read_bytes()
    for suffix in ("-wal", "-shm"):
        Path(str(db) + suffix).unlink(missing_ok=True)
    db.write_bytes(data[: len(data) // 2 + 100])
    again, _clock2, _bot2 = make_table(players=3, seed=4, db=db)
    aside = again.journal.recovered_from  # SQLite calls a cut file corrupt: set aside
    assert aside is not None and aside.exists()
    assert aside.read_bytes() == data[: len(data) // 2 + 100]
    kept = again.journal.history(5)
    assert [g.id for g in kept] == [finished.id] and kept[0].scores == finished.scores
    assert any("damaged" in line and aside.name in line for line in make_table.said)


def test_setup_guidance_lights_start_spaces_and_tokens(make_table) -> None:
    table, _clock, bot = make_table(players=3)
    for seat in ("1", "2", "3"):
        bot.command(seat, "select")
    bot.press("table", "menu")
    app = table.app
    assert app.mode == "setup" and not app._in_setup()
    frame = app.frame(app.clock())
    for city in ("venice", "rome", "naples", "florence"):
        assert frame[f"strozzi.track.{city}.0"][:3] == list(app.colours)
    for i in (1, 2, 3):
        assert frame[f"strozzi.token.{i}"] != (0, 0, 0)
    assert "strozzi.port.venice.1" not in frame


def test_the_candidate_port_lights_its_ship_slot_and_track_space(make_table) -> None:
    table, _clock, bot = seated(make_table, seed=5)
    app = table.app
    seat = app._waiting_seat()
    bot.command(seat, "select")
    bot.command(seat, "select")  # flag pirate: the seat now chooses a port
    assert app.state.phase == "place"
    menu = app._menu_for(seat)
    changed = app._candidate_preview(menu, now=0.0)
    port = menu.candidate().text.split()[1]
    assert f"strozzi.port.{port}.1" in changed
    assert any(k.startswith("strozzi.track.") for k in changed) or not any(
        app.state.rules.ship(app.state.ship).goods
    )


def test_money_is_never_shown_before_the_end() -> None:
    """'Players may keep the amount of their money secret.'"""
    view = view_for("strozzi")
    state = engine.get("strozzi").new_state(3)
    ctx = ViewContext(colours=((255, 0, 0), (0, 255, 0), (0, 0, 255)))
    before = view.render(state, ctx)
    state.money = [500, 0, 1234]
    assert view.render(state, ctx) == before


def test_stacked_markers_show_in_arrival_order() -> None:
    """'he places it to the right of all the other markers present on that same space'."""
    view = view_for("strozzi")
    state = engine.get("strozzi").new_state(3)
    colours = ((255, 0, 0), (0, 255, 0), (0, 0, 255))
    rome = state.rules.cities.index("rome")
    state.pos[rome] = [4, 4, 4]
    state.stamp[rome] = [9, 3, 5]
    frame = view.render(state, ViewContext(colours=colours))
    assert frame["strozzi.track.rome.4"][:3] == [colours[1], colours[2], colours[0]]


def test_the_last_rounds_scoring_plays_before_the_winner_pulses(make_table) -> None:
    """'After a complete third round, including the scoring phase, ...': the table shows
    the third round's scoring as it does after every round, then the winner."""
    from apps.table import SCORING_STEP

    table, _clock, bot = make_table(players=3, seed=6)
    assert bot.play(3)
    app = table.app
    assert app.mode == "over" and app.scoring
    first = app.frame(app.scoring_start)
    for element, colour in app.scoring[0].items():
        assert first[element] == colour
    winner = app.players[app.state.winner()[0]]
    late = app.scoring_start + SCORING_STEP * len(app.scoring) + 0.01
    frame = app.frame(late)
    others = [s for s in app.players if s != winner]
    assert max(frame[f"seat.{winner}.status"]) > max(frame[f"seat.{others[0]}.status"])


def test_prompts_use_the_table_seat_names(make_table) -> None:
    """Player 0 sits where the first player joined; the terminal speaks of that seat."""
    table, _clock, bot = make_table(players=3, seed=5)
    for seat in ("3", "1", "2"):  # seat 3 joins first: it is player 0 and starts
        bot.command(seat, "select")
    bot.press("table", "menu")
    bot.command("3", "select")
    app = table.app
    assert app.players == ["3", "1", "2"] and app.mode == "playing"
    said = make_table.said
    assert said[-2].startswith("Seat 3 decides on the "), said[-2]
    assert said[-1] == "Seat 3: [flag]"  # its cursor, at once
    bot.command("1", "select")  # out of turn
    assert said[-1].startswith("Seat 1: it is seat 3's turn. Seat 3 decides"), said[-1]


def test_the_game_menu_offers_the_games_the_strip_can_show(tmp_path: Path) -> None:
    from dataclasses import replace

    from hw.tomlsource import ConfigError

    config = demo_config("strozzi", 3, journal=tmp_path / "j.db", seed=1)
    small = replace(
        config,
        hw=replace(config.hw, strip=replace(config.hw.strip, count=500)),
        app=replace(config.app, game=None),
    )
    table = Appliance(small, clock=ManualClock(), button_thread=False, say=lambda _t: None)
    try:
        assert "strozzi" in table.app.game_names and "florence" not in table.app.game_names
        table.app.start()
        table.app.tick()  # frames are as long as the wired strip, whatever the layout
        assert len(table.strip.last) == 500  # type: ignore[attr-defined]
    finally:
        table.close()
    tiny = replace(config, hw=replace(config.hw, strip=replace(config.hw.strip, count=200)))
    with pytest.raises(ConfigError, match="has 200 LEDs but the layout needs 438"):
        Appliance(tiny, clock=ManualClock(), button_thread=False)


def test_a_solo_florence_player_never_gets_the_automas_colours(tmp_path: Path) -> None:
    """Solo Mode: Strozzi plays the Orange and Blue pieces."""
    config = demo_config("florence", 2, journal=tmp_path / "j.db", seed=1)
    said: list[str] = []
    table = Appliance(config, clock=ManualClock(), button_thread=False, say=said.append)
    try:
        table.app.start()
        bot = ButtonBot(table, table.clock, 1)  # type: ignore[arg-type]
        bot.command("1", "select")
        bot.press("table", "menu")
        assert table.app.players == ["1"] and table.app.state.players == 1
        colour = table.app.colours[0]
        assert colour not in [c for n, c in view_for("florence").palette if n in ("orange", "blue")]
        assert any("Florence for 1: seats 1 purple" in line for line in said)
    finally:
        table.close()


def test_the_cursor_line_names_the_player(make_table) -> None:
    """At a table with names, the cursor is said with the player's name too, as every
    other sentence is ('Anna: [flag]', not 'Seat 1: [flag]')."""
    table, _clock, bot = make_table(players=3, seed=5, names=("Anna", "Ben", "Cleo"))
    for seat in ("1", "2", "3"):
        bot.command(seat, "select")
    bot.press("table", "menu")
    bot.command("1", "select")
    said = make_table.said
    assert table.app.mode == "playing"
    assert said[-1] == "Anna: [flag]", said[-2:]
    bot.command("1", "next")
    assert said[-1] == "Anna: [pass]", said[-1]
    assert not any(line.startswith("Seat 1: [") for line in said)
