"""Bot seats at the mocked table: a bot's move is lit and said, a person carries it out on
the board and confirms it with one press at any seat; its secrets stay with the app.

The buttons are mocked (hw's button layer, fed by ButtonBot); what a mock cannot show is
how long a Pi takes to decide (bench/bench_bots.py measures the search here).
"""

from __future__ import annotations

import subprocess
import sys

import pytest

import engine
from apps.journal import Journal
from apps.record import recorded, seat_namer
from apps.runtime import parse_text
from apps.sim import ButtonBot, demo_config_text
from apps.table.session import KEPT
from engine.bots import decide, make_bot
from engine.core import CHANCE, Action, Option
from hw.tomlsource import ConfigError


def bot_turns(bot: ButtonBot, players: int, limit: int = 20_000) -> list[dict]:
    """Play to the end; at each bot turn note what a person sees (the sentence, the seat's
    light, the board's preview) and confirm it with one press at a person's seat."""
    app = bot.table.app
    turns: list[dict] = []
    while app.mode != "over":
        assert bot.presses < limit, "the game did not end"
        session = app.session
        if session is None or app.mode not in ("playing", "setup") or session.held:
            bot.advance(players)
            continue
        player = session.bot_to_act()
        if player is None:
            bot.advance(players)
            continue
        seat = session.players[player]
        move = session.bot_move()
        frame = app.frame(bot.clock())
        menu = session.menus.get(seat)
        preview = (
            app.renderer.candidate_preview(session, menu, bot.clock()) if menu is not None else {}
        )
        before, presses = len(session.state.history), bot.presses
        bot.command(bot.hand_for_bot(), "select")
        turn = {
            "player": player,
            "move": move,
            "light": frame.get(f"seat.{seat}.status"),
            "colour": session.colours[player],
            "preview": preview,
            "presses": bot.presses - presses,
            "applied": session.state.history[before]
            if len(session.state.history) > before
            else None,
        }
        turns.append(turn)
    return turns


def test_two_people_and_a_bot_play_strozzi_to_the_end_at_the_mocked_table(make_table) -> None:
    """Strozzi: 'remove 17 cards with 3 players' - three seats, two of them people. The bot
    at seat 3 decides; the table lights its seat and says its move; a person presses select
    once and the journal has exactly the move the bot proposed."""
    table, _clock, bot = make_table(3, seed=11, bots=1)
    said = make_table.said
    turns = bot_turns(bot, 3)
    session = table.app.session
    assert session is not None and session.state.is_over()
    assert session.players == ["1", "2", "3"] and session.bots.keys() == {2}
    assert len(turns) > 20  # the bot played the whole game, not a move or two
    for turn in turns:
        assert turn["player"] == 2
        assert turn["presses"] == 1  # one press confirms a bot's move
        assert turn["applied"] is not None and turn["applied"].text == turn["move"].text
        # its seat pulses in its own colour, as a person's seat does on their turn
        light = turn["light"]
        assert light is not None and light != (0, 0, 0)
        ratio = [c / k for c, k in zip(light, turn["colour"], strict=True) if k]
        assert max(ratio) - min(ratio) < 0.02
    assert any(t["preview"] for t in turns)  # the board shows where the bot's piece goes
    lines = [line for line in said if line.startswith("Seat 3 (bot) plays ")]
    assert len(lines) >= len(turns)
    assert all(line.endswith("then select at any seat.") for line in lines)
    assert "Strozzi for 3: seats 1 green, 2 blue, 3 red (bot)." in " ".join(said)
    # the journal keeps who was a bot, and the bot's moves are what it decides
    record = Journal(make_table.journal).load(session.game_id)
    assert [s.get("bot") for s in record.seats] == [None, None, "ismcts"]
    names = seat_namer(record.seats)
    assert [names(p) for p in range(3)] == ["seat 1", "seat 2", "seat 3 (bot)"]  # history
    replay = session.game.new_state(3, seed=record.seed, options=record.options)
    for player, text in record.actions:
        if player == 2:
            assert decide(make_bot("ismcts"), replay, 2).text == text
        replay.apply(recorded(replay, player, text))
    assert replay.scores() == session.state.scores()
    # the bot's money is secret: the scores are said at the end only, never its purse
    assert not any("money" in line.lower() and "seat 3" in line.lower() for line in said[:-6])


def test_a_press_elsewhere_during_a_bots_turn_says_its_move_again(make_table) -> None:
    table, _clock, bot = make_table(3, seed=4, bots=1)
    app = table.app
    while app.session is None or app.session.bot_to_act() is None:
        bot.advance(3)
    session = app.session
    session.wait_for_bot()
    before = len(session.state.history)
    make_table.said.clear()
    bot.command("2", "next")
    assert len(session.state.history) == before  # nothing chosen for the bot
    assert make_table.said and make_table.said[-1].startswith("Seat 3 (bot) plays ")
    assert not any(line.startswith("Seat 2: it is") for line in make_table.said)  # not refused
    bot.command("1", "select")
    assert len(session.state.history) > before


def test_a_bot_is_seated_and_freed_on_the_buttons(make_table) -> None:
    """Seating: next at a free seat seats a bot, next again frees it; select there lets a
    person play instead."""
    table, _clock, bot = make_table(4, seed=3)
    app, said = table.app, make_table.said
    assert app.mode == "seating"
    bot.command("1", "select")
    bot.command("3", "next")
    assert "A bot (ismcts) joined at seat 3 as" in said[-1]
    assert app.seating.bots == {"3": "ismcts"}
    bot.command("3", "next")
    assert said[-1] == "The bot left seat 3; it is free."
    assert app.seating.joined == ["1"]
    bot.command("3", "next")
    bot.command("4", "next")
    bot.command("4", "select")
    assert said[-1] == "Seat 4 plays instead of the bot."
    assert app.seating.bots == {"3": "ismcts"} and app.seating.joined == ["1", "3", "4"]
    bot.command("1", "next")  # a person who joined cannot be made a bot
    assert "you have joined" in said[-1]
    bot.press("table", "menu")
    assert app.mode in ("setup", "playing")
    assert app.session is not None and app.session.bots.keys() == {1}  # seat 3 is player 1
    record = Journal(make_table.journal).load(app.session.game_id)
    assert [s.get("bot") for s in record.seats] == [None, "ismcts", None]


def test_a_table_of_bots_plays_itself_out_pressed_at_the_bots_seats(make_table) -> None:
    """Every seat a bot's: a press at the seat of the bot to act confirms (nobody sits)."""
    table, _clock, bot = make_table(3, seed=8, bots=3, bot="greedy")
    assert bot.play(3)
    session = table.app.session
    assert session is not None and session.state.is_over()
    assert set(session.bots) == {0, 1, 2}


def test_a_game_with_a_bot_resumes_with_the_bot_proposing_the_same_move(make_table) -> None:
    table, _clock, bot = make_table(3, seed=6, bots=1)
    app = table.app
    while app.session is None or app.session.bot_to_act() is None:
        bot.advance(3)
    proposed = app.session.bot_move().text
    at = len(app.session.state.history)
    table.close()
    make_table.said.clear()
    again, _clock2, _bot2 = make_table(3, seed=6, bots=1, db=make_table.journal)
    session = again.app.session
    assert session is not None and len(session.state.history) == at
    assert session.bots.keys() == {2}
    assert session.bot_move().text == proposed
    assert any(line.startswith("Seat 3 (bot) plays ") for line in make_table.said)


def test_a_florence_bots_secret_card_is_drawn_by_the_app_and_never_said(make_table) -> None:
    """Florence: scandal cards are drawn into a hand and kept secret. With the people
    entering draws (`chance = "pick"`), a card the bot draws is drawn by the app itself:
    nobody at the table is asked to look at it, and no sentence names it."""
    table, _clock, bot = make_table(3, seed=9, chance="pick", game="florence", bots=2, bot="greedy")
    assert bot.play(3)
    session = table.app.session
    assert session is not None
    secret = [
        a.text
        for a in session.state.history
        if a.player == CHANCE and a.words[0] == "draw" and len(a.words) == 3
    ]
    said = make_table.said
    kept = [line for line in said if KEPT in line]
    assert kept, "the bot drew no scandal card in this game"
    record = Journal(make_table.journal).load(session.game_id)
    # the bot's cards are in the journal (the engine has them) but in no sentence
    assert secret == [t for p, t in record.actions if p == CHANCE and t in secret]
    # each draw the app made for a bot: said without its card, which the journal has
    for i in (i for i, line in enumerate(said) if KEPT in line):
        drawn, logged = said[i - 1], said[i + 1]
        assert "(bot) draws a scandal card" in drawn and "it stays secret" in drawn
        assert logged.endswith("(a secret card)")
        number = int(logged.split()[0][1:])
        card = session.state.history[number - 1].words[2]
        assert session.state.history[number - 1].player == CHANCE
        assert card not in drawn.split() and card not in logged.split()


def test_strada_romana_keeps_a_bots_wagon_tiles_named_as_taken(make_table) -> None:
    """Strada Romana: 'The "wagon tiles" are always kept face down (the other players may
    know how many each player owns, but not which ones).' A bot chooses its tile when it
    takes it (named_tiles); people still reveal theirs at the end; no sentence names a
    bot's tile before the end."""
    table, _clock, bot = make_table(3, seed=2, game="strada_romana", bots=2)
    session = None
    while table.app.mode != "over":
        bot.advance(3)
        session = table.app.session
    assert session is not None
    assert session.state.options["named_tiles"] == "2,3"
    said = make_table.said
    end = next(i for i, line in enumerate(said) if "reveal" in line.lower() or "Game over" in line)
    taken = [line for line in said[:end] if "(bot): wagon" in line]
    assert taken and all(line.endswith("wagon (a face-down tile)") for line in taken)
    assert any(KEPT in line for line in said[:end])  # and how to handle it on the board


def test_strada_romana_named_tiles_names_only_those_seats_tiles_when_taken() -> None:
    """'players pick the "wagon tiles" deck up and choose one of them': a seat of
    `named_tiles` names its choice at once; the others at the end (wagon_tiles at_end)."""
    game = engine.get("strada_romana")
    for named, expect in (("2", [False, True]), ("", [False, False]), ("1,2", [True, True])):
        for seat in (0, 1):
            state = game.new_state(2, seed=1, options={"named_tiles": named, "first": seat})
            while state.current_player() != seat or "tile" not in {
                a.text for a in state.legal_actions()
            }:
                player = state.current_player()
                legal = state.legal_actions()
                if player == CHANCE:
                    state.apply(state.chance_outcomes()[0][0])
                else:
                    state.apply(
                        next(a for a in legal if a.text == "pass")
                        if any(a.text == "pass" for a in legal)
                        else legal[0]
                    )
            state.apply(next(a for a in state.legal_actions() if a.text == "tile"))
            naming = all(a.words[0] == "wagon" for a in state.legal_actions())
            assert naming == expect[seat], (named, seat)


def test_a_seats_option_is_checked() -> None:
    option = Option("named_tiles", "", "seats", seats=True)
    assert option.check("1,3", 4) == "1,3"
    assert option.seat_set("1,3") == frozenset({0, 2})
    for bad, words in (
        ("5", "the seats are 1-4"),
        ("1,1", "each once"),
        ("x", "numbers"),
        (2, "numbers from 1"),
    ):
        with pytest.raises(ValueError, match=words):
            option.check(bad, 4)


def test_the_config_names_the_bot_seats(tmp_path) -> None:
    text = demo_config_text("strozzi", 3, journal=tmp_path / "j.db", seed=1, bots=1)
    assert parse_text(text).app.bots == {"3": "ismcts"}
    with pytest.raises(ConfigError, match=r"no seat '7' in \[seats\]"):
        parse_text(text + '7 = "greedy"\n')
    with pytest.raises(ConfigError, match='is not one of "random", "greedy", "ismcts"'):
        parse_text(text.replace('3 = "ismcts"', '3 = "clever"'))


def test_tavola_demo_with_bots_plays_to_the_end() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "apps.cli", "demo", "strozzi", "--players", "3", "--bots", "1"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "3 players (1 played by the ismcts bot)" in out
    assert "Seat 3 (bot) plays " in out and "winner:" in out
    bad = subprocess.run(
        [sys.executable, "-m", "apps.cli", "demo", "strozzi", "--bots", "4"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2 and "--bots: 4 bots for 3 players" in bad.stderr


def test_after_an_undo_and_another_move_the_bot_decides_afresh(make_table) -> None:
    """Undo takes back a person's move before the bot has acted; the person plays another
    one that reaches the bot's turn after as many actions: the bot's move is chosen for
    the new position, not the one it proposed before (which may not be legal now)."""
    table, _clock, bot = make_table(3, seed=4, bots=1)
    app = table.app

    def same_length(session) -> Action | None:
        """Another move of the person before the bot that brings the bot's turn back
        after as many actions, the table's draws included."""
        history = session.state.history
        last = history[-1]
        if last.player in (2, CHANCE) or len(history) <= session.locked:
            return None
        trial = session.replayed(history[:-1])
        for other in trial.legal_actions():
            if other.text == last.text:
                continue
            after = trial.clone()
            after.apply(other)
            while after.current_player() == CHANCE:
                after.apply(app.chance.draw(after))
            if after.current_player() == 2 and len(after.history) == len(history):
                return other
        return None

    for _ in range(500):
        bot.advance(3)
        session = app.session
        assert app.mode != "over", "no such position in this game"
        if session is not None and session.bot_to_act() is not None:
            other = same_length(session)
            if other is not None:
                break
    before = session.bot_move()  # proposed for this position
    at = len(session.state.history)
    bot.press("table", "undo")
    assert len(session.state.history) == at - 1
    seat = session.players[other.player]
    for command in bot.presses_for(seat, other):
        bot.command(seat, command)
    while app.session.bot_to_act() is None:
        bot.advance(3)  # the table's draw, if one follows
    session = app.session
    assert len(session.state.history) == at  # as many actions as when it proposed
    move = session.bot_move()
    assert move in session.state.legal_actions()
    assert move == decide(make_bot("ismcts"), session.state, 2)
    assert before.player == move.player == 2
