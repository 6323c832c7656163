"""The README's short tour, line by line, as written: each line runs in a fresh
directory (its own home, so the journal and registries are the test's) that has
`.venv/bin/tavola` and `examples/` as a checkout has them. Interactive lines (sim, run,
cards learn) run in a pseudo-terminal of 80x24 read through a terminal emulator, and
what a person would read there is asserted."""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from tests.apps.test_sim_screen import Tty
from tests.support import TAVOLA

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()


def tour() -> list[str]:
    """The lines of the README's tour, in order (the shell drops their comments)."""
    block = re.search(r"## A short tour\n\n```sh\n(.*?)```", README, re.S)
    assert block is not None, "README.md has no tour block"
    return [line.strip() for line in block.group(1).splitlines() if line.strip()]


def words(line: str) -> list[str]:
    """A line as the shell splits it, its comment dropped."""
    return shlex.split(line, comments=True)


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A working directory as a checkout after `make demo`: `.venv/bin/tavola`, examples/."""
    where = tmp_path_factory.mktemp("tour")
    (where / ".venv" / "bin").mkdir(parents=True)
    script = where / ".venv" / "bin" / "tavola"
    script.write_text(f'#!/bin/sh\nexec {shlex.join(TAVOLA)} "$@"\n')
    script.chmod(0o755)
    (where / "examples").symlink_to(ROOT / "examples")
    return where


def env_for(where: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "STATE_DIRECTORY"}
    env.update(
        HOME=str(where),
        XDG_DATA_HOME=str(where / "data"),
        XDG_CONFIG_HOME=str(where / "config"),
        TAVOLA_DATA_DIR=str(where / "owner"),
        PYTHONPATH=str(ROOT),
    )
    return env


def run(where: Path, line: str, **kw: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        words(line),
        cwd=where,
        env=env_for(where),
        text=True,
        capture_output=True,
        timeout=600,
        **kw,
    )


def in_pty(where: Path, line: str) -> Tty:
    """The line as typed at an 80x24 terminal in `where`."""
    return Tty(argv=words(line), cwd=where, env=env_for(where))


def test_the_tour_has_the_lines_this_test_knows() -> None:
    commands = [words(line)[1] for line in tour()]
    assert all(line.startswith(".venv/bin/tavola ") for line in tour())
    assert commands[0] == "--help" and commands[1] == "sim"
    assert {
        "demo",
        "doctor",
        "run",
        "history",
        "journal",
        "selfplay",
        "replay",
        "data",
        "cards",
    } <= set(commands)


def test_every_line_of_the_tour_runs_as_written(checkout: Path) -> None:
    played = 0
    for line in tour():
        argv = words(line)
        command = argv[1]
        if command == "--help":
            done = run(checkout, line)
            assert done.returncode == 0, done.stderr
            examples = done.stdout.split("examples:")[1].split()
            assert examples[:2] == ["tavola", "sim"], "sim is the first example"
        elif command == "sim":
            term = in_pty(checkout, line)
            try:
                term.skip_names()  # Esc at the names: the seats keep their numbers
                term.wait_for("any seat: [check now] later")  # a new owner's first game
                term.keys("ew")  # next, select: later, play with the guesses
                seats = int(argv[argv.index("--seats") + 1])
                bots = int(argv[argv.index("--bots") + 1]) if "--bots" in argv else 0
                bot_seats = [f"{s} (bot)" for s in range(seats - bots + 1, seats + 1)]
                screen = term.wait_for(f"joined: {', '.join(bot_seats) or 'nobody yet'}")
                assert screen.startswith("Strozzi | seating")
                term.keys("wsxt"[: seats - bots])  # the people's seats join
                people = [str(s) for s in range(1, seats - bots + 1)]
                term.wait_for("joined: " + ", ".join(people + bot_seats))  # in seat order
                term.keys("m")
                term.wait_for("setup, in order")
                term.keys("w")
                screen = term.wait_for("to act")
                assert re.search(r"round 1 \| seat \d \(\w+\) to act", screen)
            finally:
                assert term.close() == 0
        elif command == "demo":
            done = run(checkout, line)
            assert done.returncode == 0, done.stderr
            assert "winner: " in done.stdout
            played += "--keep" in argv
        elif command == "doctor":
            done = run(checkout, line)
            assert done.returncode == 0, done.stdout + done.stderr
            assert done.stdout.startswith("Tavola hardware self-test")
        elif command == "run":
            term = in_pty(checkout, line)
            try:
                term.wait_for("Table ready")
                time.sleep(1.0)  # frames keep coming: the log line stays readable
                term.settle()
                assert "Table ready (examples/strozzi-terminal.toml)." in term.text()
                term.proc.send_signal(signal.SIGINT)  # Ctrl-C stops it
                end = time.monotonic() + 60
                while term.proc.poll() is None and time.monotonic() < end:
                    term.pump()  # it draws while it stops: read, or it blocks writing
                assert term.proc.returncode == 0
            finally:
                term.close()
        elif command == "history" and "--export" in argv:
            target = checkout / argv[argv.index("--export") + 1]
            assert not target.exists()
            done = run(checkout, line)
            assert done.returncode == 0, done.stderr
            assert f"to {target.name}" in done.stdout and target.exists(), done.stdout
        elif command == "history":
            done = run(checkout, line)
            assert done.returncode == 0, done.stderr
            games = [g for g in done.stdout.splitlines() if g.startswith("#")]
            assert len(games) == played and played >= 1, done.stdout
            assert any("Strozzi" in g for g in games)
        elif command == "journal":
            done = run(checkout, line)
            assert done.returncode == 0, done.stdout + done.stderr
        elif command == "selfplay":
            done = run(checkout, line)
            assert done.returncode == 0, done.stderr
            figures = json.loads(done.stdout)
            assert figures["games"] == 200 and figures["errors"] == 0
        elif command == "replay":
            assert (checkout / argv[2]).exists(), "the tour exports the game before it replays it"
            done = run(checkout, line)
            assert done.returncode == 0, done.stderr
            assert json.loads(done.stdout)["game"] in ("florence", "strozzi")
        elif command == "data":
            done = run(checkout, line)
            assert done.returncode == 0, done.stderr
            last = done.stdout.splitlines()[-1]
            assert str(checkout / "owner" / "strozzi.toml") in last
            assert "tavola data check strozzi" in last and "--template" in last
        elif command == "cards":
            done = run(checkout, line, input="0001234\n1\n")
            assert done.returncode == 0, done.stderr
            assert "1 card paired" in done.stdout
        else:
            pytest.fail(f"the tour has a line this test does not know: {line}")
