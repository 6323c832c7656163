"""Scores that explain themselves, as a person at the table, at `tavola sim` and at
`tavola history` reads them: each scoring step a sentence, the tie-break named, Strozzi's
money never shown as a running total, a solo automa named as the winner."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

from apps.commands.sim_cmd import SEAT_KEYS
from apps.menu import DONE, Menu
from engine.core import CHANCE
from tests.apps.test_sim_screen import Tty
from tests.support import TAVOLA

PAYOUT = re.compile(
    r"Seat \d's ship is (1st|2nd|3rd) in (Venice|Rome|Naples): (15|10|5)\."
    r"|Seat \d's marker is (1st|2nd|3rd) in (Venice|Rome|Naples|Florence) "
    r"\(space \d+\): (15|10|5)\."
    r"|Seat \d's marker is on the bonus space (5|10|15) \(space \d+\) in \w+: \7 more\."
)


def run(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([*TAVOLA, *args], capture_output=True, text=True, timeout=300)
    if check:
        assert proc.returncode == 0, proc.stderr
    return proc


def test_the_table_says_each_payout_and_the_tie_break(make_table) -> None:
    """Strozzi, Scoring the Ships: 'At each port, the player with the ship positioned
    highest (fastest) earns 15 points' ... 'Players may keep the amount of their money
    secret.' End of the Game: 'In case of a tie, the player who has the marker in the
    better position in the city of Florence wins.'"""
    table, _, bot = make_table(4, seed=1)
    assert bot.play(4)
    said = make_table.said
    end = next(i for i, line in enumerate(said) if line.startswith("Game over."))
    first = said.index("Round 1 scored.")
    round1 = [line for line in said[:first] if PAYOUT.fullmatch(line)]
    # the three ports' ships and the four cities' markers, one sentence each
    assert len(round1) >= 9 + 4 and said[first - len(round1) : first] == round1
    assert "Seat 4's ship is 1st in Venice: 15." in round1
    # before the end no line names what a seat holds: only payouts and prompts
    for line in said[:end]:
        assert not re.search(r"\b(total|money|Scores?)\b|= \d", line), line
    assert said[end] == (
        "Game over. Seat 4 wins 225-225-190-180. Seat 4 and seat 1 have 225 each; seat 4 "
        "wins the tie with the better marker in Florence (space 8 against 5)."
    )
    assert said[end + 1 : end + 5] == [
        "seat 1: ships 75, markers 100, bonus spaces 10, progress 40 = 225",
        "seat 2: ships 55, markers 90, bonus spaces 5, progress 30 = 180",
        "seat 3: ships 55, markers 80, bonus spaces 5, progress 50 = 190",
        "seat 4: ships 85, markers 85, bonus spaces 5, progress 50 = 225",
    ]
    # every payout said adds up to the money revealed at the end
    state = table.app.state
    paid = [0] * 4
    for line in said[:end]:
        if (
            PAYOUT.fullmatch(line)
            or " is 1st in " in line
            or " is 2nd in " in line
            or " is 3rd in " in line
        ):
            seat = int(line.split()[1].rstrip("'s")) - 1
            paid[seat] += int(re.findall(r"(\d+)(?: more)?\.$", line)[0])
    assert paid == state.scores()


def test_solo_florence_names_the_automa_at_the_end_and_in_history(tmp_path: Path) -> None:
    """Florence solo, End of the Game: 'If you have more VP than Strozzi, you win!'"""
    db = tmp_path / "journal.db"
    out = run("demo", "florence", "--players", "1", "--seed", "2", "--db", str(db)).stdout
    assert "Game over. Strozzi (automa) wins 269-43." in out
    assert "winner: Strozzi (automa)" in out and "no seat" not in out
    assert "Seat 1 scores 5 VP for remaining time." in out
    listing = run("history", "--db", str(db)).stdout
    assert "Florence: seat 1 43, Strozzi (automa) 269; Strozzi (automa) wins 269-43." in listing


def test_history_shows_one_games_log_and_breakdown_and_exports_it(tmp_path: Path) -> None:
    db = tmp_path / "journal.db"
    run("demo", "strozzi", "--players", "4", "--seed", "1", "--db", str(db))
    shown = run("history", "1", "--db", str(db)).stdout.splitlines()
    assert shown[0].endswith("Strozzi, 4 players, seed 1, finished")
    assert shown[1].startswith("#1 draw: reveal ")
    assert "    Seat 4's ship is 1st in Venice: 15." in shown
    assert any(re.fullmatch(r"#\d+ seat \d: port (venice|rome|naples)", s) for s in shown)
    assert shown[-5].startswith("Game over. Seat 4 wins 225-225-190-180. Seat 4 and seat 1")
    assert shown[-3] == "seat 2: ships 55, markers 90, bonus spaces 5, progress 30 = 180"

    target = tmp_path / "game.json"
    said = run("history", "1", "--db", str(db), "--export", str(target)).stdout
    assert f"tavola replay {target}" in said
    summary = json.loads(run("replay", str(target)).stdout)
    assert summary["ok"] and summary["over"]
    assert summary["scores"] == [225, 180, 190, 225] and summary["winner"] == [3]
    # never over a file of the user's
    before = target.read_bytes()
    again = run("history", "1", "--db", str(db), "--export", str(target), check=False)
    assert again.returncode == 2 and "exists" in again.stderr
    assert target.read_bytes() == before
    missing = run("history", "7", "--db", str(db), check=False)
    assert missing.returncode == 2 and "no game 7" in missing.stderr


def test_sim_shows_the_breakdown_at_the_end(tmp_path: Path, make_table) -> None:
    """`tavola sim` resumes a Strozzi game one press-sequence before its end; the keys of
    the last decision end it, and the terminal shows the result and the breakdown."""
    db = tmp_path / "sim.db"
    table, _, bot = make_table(3, seed=4, db=tmp_path / "first.db")
    assert bot.play(3)
    history = table.app.state.history
    last = max(i for i, a in enumerate(history) if a.player != CHANCE)
    table, _, bot = make_table(3, seed=4, db=db)
    while len(table.app.state.history if table.app.state else ()) < last:
        bot.advance(3)
    state = table.app.state
    assert len(state.history) == last and state.current_player() == history[last].player
    seat = table.app._waiting_seat()
    menu = Menu(state.legal_actions())
    keys = ""
    _, select, nxt = SEAT_KEYS[int(seat) - 1]
    for _ in range(16):
        want = (
            history[last].words[len(menu.prefix)]
            if len(history[last].words) > len(menu.prefix)
            else DONE
        )
        while menu.current != want:
            menu.next()
            keys += nxt
        keys += select
        if menu.select() is not None:
            break
    table.close()
    # 80x24, read by pyte
    term = Tty("sim", "--no-check", "strozzi", "--seats", "3", "--db", str(db))
    try:
        term.wait_for("Resumed Strozzi")
        term.keys(keys)
        screen = term.wait_for("seat 3: ships")  # what a person reads on the 80x24 screen
        assert re.search(r"Game over\. Seat \d wins \d+-\d+-\d+\.", screen), screen
        assert re.search(r"seat 1: ships \d+, markers \d+.* = \d+", screen), screen
    finally:
        assert term.close() == 0
