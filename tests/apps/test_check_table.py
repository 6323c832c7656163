"""The component check at the table, before the first game of a title: offered by the
lobby, answered with the seats' buttons, written to the owner's file on disk as the
terminal's `tavola data check` writes it; never in the way of a game.

The table is the mocked one (a mock pin factory, a mock strip): what a press does is the
real table's code, but no GPIO line or LED is involved; the sim test drives the real
`tavola sim` in a pseudo terminal and reads its screen.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

import engine
from apps import datacheck
from tests.apps.test_sim_screen import Tty, fits


@pytest.fixture
def owner_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty TAVOLA_DATA_DIR; the games play the shipped data again afterwards (a save
    to the owner's file makes its game play by that file from then on)."""
    folder = tmp_path / "owner"
    monkeypatch.setenv("TAVOLA_DATA_DIR", str(folder))
    yield folder
    for name in engine.games():
        engine.get(name).use_data_file(None)


def owner_tables(path: Path) -> dict[str, dict]:
    """The owner's file as tables of values (provenance and source left aside)."""
    data = tomllib.loads(path.read_text())
    return {
        group: {k: v for k, v in table.items() if k not in ("provenance", "source")}
        for group, table in data.items()
    }


def since(said: list[str], start: int) -> str:
    return "\n".join(said[start:])


def test_before_the_first_strada_romana_game_the_check_writes_what_matches(
    make_table, owner_dir: Path
) -> None:
    table, _clock, bot = make_table(2, game="strada_romana", component_check=True)
    app, said = table.app, make_table.said
    assert app.mode == "checking"
    assert "Strada Romana: 5 values of the components are guesses" in said[-1]
    assert "check now, later" in said[-1]

    bot.command("2", "select")  # any seat answers: check now
    assert said[-1].startswith("1/5 [column_c4] joined:") and "The guess: bottom." in said[-1]
    bot.command("1", "select")  # matches
    assert "Written as your copy's: [column_c4] joined." in said
    assert "2/5 [diagonals] rule:" in said[-1] and "The guess: unlinked." in said[-1]
    bot.command("1", "select")  # matches
    assert "3/5 [diagonals] pairs:" in said[-1] and "The guess: none." in said[-1]
    bot.press("table", "menu")  # the table's menu button takes the cursor's choice: matches
    assert "Written as your copy's: [diagonals] rule, pairs." in said
    assert said[-1].startswith("4/5 [area_names] names:")
    assert "The guess: I, II, III, IV, V, VI." in said[-1]
    start = len(said)
    bot.command("1", "next")
    bot.command("1", "select")  # differs
    differs = since(said, start)
    assert "Your copy differs: correct [area_names] names on the phone page's settings" in differs
    assert "`tavola data check strada_romana`" in differs
    assert said[-1].startswith("5/5 [finish] squares_per_side:")
    bot.command("1", "previous")
    bot.command("1", "select")  # stop: the rest later
    assert said[-2].startswith("Check stopped: 3 values written as your copy's, 2 still guesses.")
    assert app.mode == "seating"

    path = owner_dir / "strada_romana.toml"
    written = tomllib.loads(path.read_text())
    assert owner_tables(path) == {
        "column_c4": {"joined": "bottom"},
        "diagonals": {"rule": "unlinked", "pairs": []},
    }
    assert {t["provenance"] for t in written.values()} == {"owner"}
    left = datacheck.questions("strada_romana", engine.get("strada_romana").load_data(path))
    assert [q.label for q in left] == ["[area_names] names", "[finish] squares_per_side"]
    assert bot.play(2)  # the game starts and plays to its end
    assert app.mode == "over"


def test_later_plays_with_the_guesses_and_after_a_played_game_nothing_is_offered(
    make_table, owner_dir: Path
) -> None:
    table, _clock, bot = make_table(2, game="strada_romana", component_check=True)
    app, said = table.app, make_table.said
    bot.command("1", "next")
    bot.command("1", "select")  # later
    assert said[-2].startswith("Playing with the guesses. The check is offered again")
    assert app.mode == "seating"
    assert not owner_dir.exists()  # nothing written

    bot.command("1", "select")  # seat 1 joins; holding menu ends before any game
    bot.press("table", "menu", hold=True)
    assert app.mode == "checking"  # no game was played: offered again

    bot.command("1", "back")  # holding select: later
    assert app.mode == "seating"
    assert bot.play(2)
    offers = sum("values of the components are guesses" in s for s in said)
    bot.command("1", "select")  # game over: back to the (fixed) game's seating
    assert app.mode == "seating"
    assert sum("values of the components are guesses" in s for s in said) == offers


def test_a_refused_save_is_said_and_the_game_still_starts(
    make_table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder\n")
    monkeypatch.setenv("TAVOLA_DATA_DIR", str(blocker / "data"))  # cannot be made
    try:
        table, _clock, bot = make_table(2, game="strada_romana", component_check=True)
        app, said = table.app, make_table.said
        bot.command("1", "select")  # check now
        bot.command("1", "select")  # matches: the group is written, and refused
        refusal = next(s for s in said if s.startswith("Not written:"))
        assert "[column_c4] stays a guess" in refusal
        assert "the game plays with the guesses" in refusal
        assert app.mode == "seating"
        assert blocker.read_text() == "not a folder\n"
        assert bot.play(2)
        assert app.mode == "over"
    finally:
        for name in engine.games():
            engine.get(name).use_data_file(None)


def test_strozzi_says_where_the_ship_deck_is_entered(make_table, owner_dir: Path) -> None:
    table, _clock, bot = make_table(3, component_check=True)
    said = make_table.said
    assert "Strozzi: 4 values of the components are guesses" in said[-1]
    bot.command("1", "select")  # check now
    for _ in range(3):  # the track's two values, the token split: matches
        bot.command("1", "select")
    deck = next(s for s in said if s.startswith("4/4 [ships] cards is not checked with buttons"))
    assert "`tavola cards learn strozzi" in deck
    assert said[-2].startswith("Check done: 3 values written as your copy's, 1 still guesses.")
    assert table.app.mode == "seating"
    assert set(owner_tables(owner_dir / "strozzi.toml")) == {"track", "progress_tokens"}


def test_the_sim_shows_the_offer_and_a_question_in_words(tmp_path: Path) -> None:
    env = {**os.environ, "TAVOLA_DATA_DIR": str(tmp_path / "owner")}
    term = Tty(
        "sim",
        "strada_romana",
        "--seats",
        "2",
        "--names",
        "",
        "--db",
        str(tmp_path / "s.db"),
        env=env,
    )
    try:
        screen = term.wait_for("component check")
        assert "5 values of Strada Romana are guesses" in screen
        assert "any seat: [check now] later" in screen
        term.keys("w")  # seat 1: select
        screen = term.wait_for("1/5 [column_c4] joined")
        assert "the guess: bottom" in screen
        assert "any seat: [matches] differs stop" in screen
        assert "which of the two has four lines" in screen
        fits(term)
        term.keys("w")  # matches
        screen = term.wait_for("2/5 [diagonals] rule")
        assert "the guess: unlinked" in screen
        assert "can a wagon with the diagonal special move cross there?" in screen
        fits(term)
        term.keys("w")  # matches
        term.wait_for("3/5 [diagonals] pairs")
        term.keys("qw")  # previous (round to stop), select
        term.wait_for("joined: nobody yet")
    finally:
        term.close()
    written = owner_tables(tmp_path / "owner" / "strada_romana.toml")
    assert written == {"column_c4": {"joined": "bottom"}, "diagonals": {"rule": "unlinked"}}


def test_a_guess_is_said_in_words_and_a_deck_is_not_asked_with_buttons() -> None:
    words = datacheck.words
    assert words("unlinked") == "unlinked"
    assert words([]) == "none"
    assert words({4: 5, 7: 10}) == "4: 5, 7: 10"
    assert words([[3, 4, 4]] * 9) == "3, 4, 4 for each of the 9"
    assert words([[11, 7], [14, 9]]) == "11, 7; 14, 9"
    assert words(True) == "yes"
    ships = next(q for q in datacheck.questions("strozzi") if q.group == "ships")
    track = next(q for q in datacheck.questions("strozzi") if q.group == "track")
    assert not datacheck.at_a_glance(ships) and datacheck.at_a_glance(track)


def test_the_journal_tells_a_game_played_to_its_end(make_table) -> None:
    table, _clock, bot = make_table(2, game="strada_romana")
    journal = table.app.journal
    assert not journal.played("strada_romana")
    while table.app.mode != "playing":
        bot.advance(2)
    bot.press("table", "menu", hold=True)  # paused, then ended unscored: abandoned
    assert table.app.mode == "seating"
    assert not journal.played("strada_romana")
    assert bot.play(2)
    assert journal.played("strada_romana") and not journal.played("strozzi")
