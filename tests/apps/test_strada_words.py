"""Strada Romana's words at a mocked table: every sentence names the table's players, the
coins are said as they are paid, the end says each scoring step and the tie-break that
decided it, and a wagon tile entered as it is taken stays unnamed until the end."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import engine
from apps.journal import Journal
from apps.record import game_log
from apps.runtime import Appliance
from apps.sim import ButtonBot
from engine.core import CHANCE, derive, random_action
from engine.strada_romana import StradaRomanaState
from tests.apps.test_scores_explained import run
from tests.engine.strada_romana.helpers import WAGONS

GAME = engine.get("strada_romana")
NAMES = ("Ada", "Bruno", "Carla")


@pytest.fixture
def strada(make_table) -> Iterator:
    """`strada(players, seed, **options)`: a mocked Strada Romana table whose players are
    named in the config (`[app.names]`); everything the table says is in `strada.said`."""

    def make(players: int, seed: int, **options: object) -> tuple[Appliance, ButtonBot]:
        table, _, bot = make_table(
            players, seed, game=GAME.name, options=options, names=NAMES[:players]
        )
        return table, bot

    make.said = make_table.said  # type: ignore[attr-defined]
    make.journal = make_table.journal  # type: ignore[attr-defined]
    yield make


def test_every_sentence_names_the_tables_players(strada) -> None:
    """Game Setup: 'Choose the starting player at random, and then proceed clockwise. All
    players receive coins at the beginning of the game (no coins are given to the starting
    player).' The draw and the coins name the players as the table knows them."""
    table, bot = strada(3, 4)
    assert bot.play(3)
    said = strada.said
    assert not [line for line in said if re.search(r"\b[Pp]layer \d", line)]
    start = next(line for line in said if line.startswith("Drawn at random: "))
    first = re.fullmatch(r"Drawn at random: (\w+) is the starting player\.", start)
    assert first is not None and first[1] in NAMES
    k = NAMES.index(first[1])
    order = [NAMES[(k + i) % 3] for i in range(3)]
    assert f"{first[1]} starts. Starting coins, clockwise: {order[0]} 0, {order[1]} 1, " in (
        "".join(said)
    )
    # the coins a ware tile pays, and the coin of a pass, are said with whom they go to
    paid = [line for line in said if re.fullmatch(r"(Ada|Bruno|Carla) takes \d coins? .*", line)]
    assert any("ware tile" in line for line in paid)
    assert any(re.fullmatch(r"(Ada|Bruno|Carla) passes and takes 1 coin\.", s) for s in said)
    # the end: the result, and each player's breakdown by the score sheet's headings
    end = next(i for i, line in enumerate(said) if line.startswith("Game over. "))
    state = table.app.state
    for line, (p, score) in zip(said[end + 1 : end + 4], state.standings(), strict=True):
        assert line.startswith(f"{NAMES[p]}: ") and line.endswith(f" = {score}")
        assert "other" not in line
    assert any(line.startswith(f"{NAMES[0]}'s contracts: ") for line in said[:end])
    # `tavola history` reads the game back with the same names
    record = table.app.journal.load(table.app.session.game_id)
    lines = game_log(record)
    assert any(line.startswith("#") and " Ada: " in line for line in lines)
    # the sentences (the notation, 'start seat 1', names seats by the engine's number)
    told = [line for line in lines if not line.startswith("#")]
    assert not [line for line in told if re.search(r"\bseat \d", line, re.IGNORECASE)]
    assert any(line.startswith("    Ada ") for line in told)


def test_a_tile_entered_as_it_is_taken_is_never_named_before_the_end(strada) -> None:
    """b) Choose a "Wagon Tile": 'The "wagon tiles" are always kept face down (the other
    players may know how many each player owns, but not which ones).' Not in the log, not
    when its holder tries to take it back with undo."""
    table, bot = strada(3, 2, wagon_tiles="when_taken")
    app = table.app
    wagons = re.compile(r"\b(" + "|".join(WAGONS) + r")\b", re.IGNORECASE)
    tested = 0
    for _ in range(20000):
        if app.mode == "over":
            break
        bot.advance(3)
        history = app.state.history if app.state is not None else []
        if history and history[-1].words[0] == "wagon" and not app.state.is_over():
            before = len(strada.said)
            bot.press("table", "undo")  # a tile cannot be taken back: it says which?
            after = strada.said[before:]
            assert any("cannot be undone" in line for line in after), after
            assert not any(wagons.search(line) for line in after), after
            tested += 1
    assert app.mode == "over" and tested
    said = strada.said
    end = next(i for i, line in enumerate(said) if line.startswith("The game ends: "))
    for line in said[:end]:
        if "tile" in line or "cannot be undone" in line:
            assert not wagons.search(line), line
    assert any("'s wagon tile " in line for line in said[end:])


# --- the tie-break at the end, from a journal one action before it --------------------
def tied_game(players: int, seed: int) -> StradaRomanaState:
    """A random game (reproducible by seed) whose best score is shared."""
    state = GAME.new_state(players, seed=seed)
    rng = derive(seed, "tie")
    while not state.is_over():
        state.apply(random_action(state, rng))
    return state


def resumed_before_the_end(strada, state: StradaRomanaState) -> tuple[Appliance, ButtonBot]:
    """The journal holds `state`'s game but its last action; the table resumes it."""
    journal = Journal(strada.journal)
    seats = [{"seat": str(p + 1), "colour": [255, 0, 0]} for p in range(state.players)]
    gid = journal.start_game(
        GAME.name, state.players, state.seed, dict(state.options), seats, state.data.digest
    )
    for n, action in enumerate(state.history[:-1], 1):
        journal.append(gid, n, action.player, action.text)
    journal.close()
    return strada(state.players, 0)


@pytest.mark.parametrize(
    ("seed", "players", "words"),
    [
        (
            33,
            3,
            "Bruno and Carla have 14 points each; Carla wins the tie with more coins (1 against "
            "0).",
        ),
        (
            51,
            3,
            "Ada and Carla have 1 point and 0 coins each; Ada played last and loses the tie: "
            "Carla wins.",
        ),
    ],
)
def test_the_table_names_the_tie_break_at_the_end(
    strada, seed: int, players: int, words: str
) -> None:
    """Score: 'If two or more players tie, the winner is the player with more coins. If
    there is still a tie, the player that played last loses.'"""
    state = tied_game(players, seed)
    scores = state.scores()
    assert sorted(scores)[-1] == sorted(scores)[-2]  # the game this seed plays is a tie
    table, bot = resumed_before_the_end(strada, state)
    app = table.app
    assert app.mode == "playing" and len(app.state.history) == len(state.history) - 1
    last = state.history[-1]
    assert last.player != CHANCE
    seat = app.players[last.player]
    for command in bot.presses_for(seat, last):
        bot.command(seat, command)
    assert app.state.is_over() and app.state.scores() == scores
    said = strada.said
    end = next(i for i, line in enumerate(said) if line.startswith("Game over. "))
    winner = NAMES[state.winner()[0]]
    assert said[end].startswith(f"Game over. {winner} wins ")
    assert said[end].endswith(words)


# --- tavola history ----------------------------------------------------------------------
def test_history_shows_a_strada_games_steps_breakdown_and_tie_break(tmp_path: Path) -> None:
    """`tavola history N` on a finished Strada Romana game: each coin and scoring step
    under the action that caused it, the result with its tie-break ('If there is still a
    tie, the player that played last loses'), and each seat's line by the score sheet."""
    state = tied_game(3, 51)
    db = tmp_path / "journal.db"
    journal = Journal(db)
    seats = [{"seat": str(p + 1), "colour": [255, 0, 0]} for p in range(3)]
    gid = journal.start_game(
        GAME.name, 3, state.seed, dict(state.options), seats, state.data.digest
    )
    for n, action in enumerate(state.history, 1):
        journal.append(gid, n, action.player, action.text)
    journal.finish(gid, state.scores(), state.winner())
    journal.close()
    tie = (
        "Seat 1 and seat 3 have 1 point and 0 coins each; seat 1 played last and loses "
        "the tie: seat 3 wins."
    )
    listing = run("history", "--db", str(db)).stdout
    assert f"Strada Romana: seat 1 1, seat 2 -1, seat 3 1; Seat 3 wins 1, 1, -1. {tie}" in listing
    shown = run("history", str(gid), "--db", str(db)).stdout.splitlines()
    assert shown[0].endswith("Strada Romana, 3 players, seed 51, finished")
    assert any(re.fullmatch(r"    Seat \d passes and takes 1 coin\.", s) for s in shown)
    assert any(
        re.fullmatch(r"    Seat \d changes 5 coins into a Victory Point .*", s) for s in shown
    )
    assert any(re.fullmatch(r"    Seat 1's contracts: .*", s) for s in shown)
    assert shown[-4] == f"Game over. Seat 3 wins 1, 1, -1. {tie}"
    for line, (p, score) in zip(shown[-3:], state.standings(), strict=True):
        assert re.fullmatch(rf"seat {p + 1}: (Victory Points -?\d+)?.* = {score}", line), line
        assert "other" not in line
