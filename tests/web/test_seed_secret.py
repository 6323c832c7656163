"""A game's seed cannot be guessed by anyone at the table or on the LAN.

The seed decides every draw the app makes and every bot's choice, so whoever knows it
knows every seat's hand, tiles and money. Without `[app] seed` it used to be the clock
at seating: someone watching the public phone page leave seating could replay the
seconds around that moment through the engine until one reproduced the board. Here a
real `tavola run` (tests/web/appliance.py) starts each game with no seed; the test plays
that attacker with the public observation after seating and every second of a two-minute
window around it, and also checks that the journal keeps the (now large) seed for
resume, `tavola history --export` and `tavola replay` (two tables seated in the same
second: tests/apps/test_table.py).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterable
from pathlib import Path

import pytest

import engine
from apps.chance import ChanceSource
from apps.journal import GameRecord, Journal
from apps.record import game_log, recorded, replay
from apps.views import view_for
from apps.web.snapshot import plain
from engine.core import CHANCE

from .appliance import appliance

WINDOW_S = 60  # the attacker tries every second this far either side of seating
FAR = 10**6  # a seed this close to the clock would be the clock, shifted (test_table.py)


def public_observation(state: engine.State) -> str:
    """What the phone page draws its board from: the public observation, as JSON."""
    return json.dumps(plain(state.observe()), sort_keys=True)


def attack(record: GameRecord, seen: str, seeds: Iterable[int]) -> list[int]:
    """The seeds among `seeds` that reproduce the public observation `seen`: each one's
    game replayed as the table plays it, the app drawing from that seed where the record
    has a draw, the seats' (public) actions as recorded."""
    game = engine.get(record.game)
    app = ChanceSource("app")
    found = []
    for seed in seeds:
        state = game.new_state(record.players, seed=seed, options=record.options)
        for player, text in record.actions:
            if state.current_player() == CHANCE:
                state.apply(app.draw(state))
            else:
                state.apply(recorded(state, player, text))
        if public_observation(state) == seen:
            found.append(seed)
    return found


def the_game(journal: Path) -> GameRecord:
    db = Journal(journal, readonly=True)
    try:
        record = db.unfinished()
        assert record is not None
        return record
    finally:
        db.close()


@pytest.mark.parametrize("game", ["strozzi", "florence", "strada_romana"])
def test_no_second_around_seating_reproduces_the_public_board(tmp_path: Path, game: str) -> None:
    with appliance(tmp_path, game, seed=None) as running:
        start = time.time()
        public = running.start_game()["public"]
        end = time.time()
    record = the_game(tmp_path / "journal.db")
    truth = replay(record)
    assert not any(
        a.player != CHANCE and view_for(game).public_text(truth, a) != a.text for a in truth.history
    )  # every seat action so far is public
    # the page showed this very position: its last line is the record's last action's
    last = [line for line in game_log(record) if line.startswith("#")][-1]
    assert public["last"].split()[0] == last.split()[0]
    seen = public_observation(truth)
    # the attack itself works: the true seed reproduces the board, and the board tells
    # seeds apart (else trying seeds would prove nothing)
    assert attack(record, seen, [record.seed]) == [record.seed]
    assert attack(record, seen, [record.seed + 1, record.seed ^ 1 << 40]) == []
    window = range(int(start) - WINDOW_S, int(end) + WINDOW_S + 1)
    assert attack(record, seen, window) == []
    assert min(abs(record.seed - int(t)) for t in (start, end)) > FAR

    # the journal keeps the large seed: export, replay and resume still work with it
    exported = subprocess.run(
        [
            sys.executable,
            "-m",
            "apps.cli",
            "history",
            str(record.id),
            "--export",
            "-",
            "--db",
            str(tmp_path / "journal.db"),
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert json.loads(exported)["seed"] == record.seed
    (tmp_path / "game.json").write_text(exported)
    subprocess.run(
        [sys.executable, "-m", "apps.cli", "replay", str(tmp_path / "game.json")],
        capture_output=True,
        text=True,
        check=True,
    )
    with appliance(tmp_path, game, seed=None) as again:
        resumed = again.wait(lambda v: v["public"]["mode"] == "playing")["public"]
    same = ("last", "prompt", "menu", "round", "turn", "seats")  # (the board's colours pulse)
    assert {k: resumed.get(k) for k in same} == {k: public.get(k) for k in same}
    assert the_game(tmp_path / "journal.db").seed == record.seed
