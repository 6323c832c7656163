"""`tavola sim` as a person reads it: a real pseudo-terminal of 80x24, read through a
terminal emulator (pyte), so the assertions are about the characters on the screen
(what scrolled away or was overwritten is not there), not the bytes written."""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import termios
import time
from pathlib import Path

import pyte

from tests.support import TAVOLA

COLS, ROWS = 80, 24


class Tty:
    """`tavola sim` in a pseudo-terminal of 80x24, its screen emulated by pyte."""

    def __init__(
        self,
        *args: str,
        argv: list[str] | None = None,
        cwd: Path | None = None,
        env: dict[str, str] | None = None,
    ) -> None:
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
        env = {
            **(env if env is not None else os.environ),
            "COLUMNS": str(COLS),
            "LINES": str(ROWS),
            "TERM": "xterm-256color",
        }
        self.proc = subprocess.Popen(
            argv or [*TAVOLA, *args], stdin=slave, stdout=slave, stderr=slave, env=env, cwd=cwd
        )
        os.close(slave)
        self.screen = pyte.Screen(COLS, ROWS)
        self.stream = pyte.ByteStream(self.screen)

    def pump(self, seconds: float = 0.1) -> None:
        ready, _, _ = select.select([self.master], [], [], seconds)
        if ready:
            with contextlib.suppress(OSError):
                self.stream.feed(os.read(self.master, 65536))

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def wait_for(self, text: str, limit: float = 30.0) -> str:
        """The screen once `text` is on it (the limit only stops a hung test)."""
        end = time.monotonic() + limit
        while text not in self.text() and time.monotonic() < end:
            self.pump()
        screen = self.text()
        assert text in screen, f"{text!r} never appeared; the screen:\n{screen}"
        return screen

    def skip_names(self) -> None:
        """At `sim`'s seating screen, Esc: the seats keep their numbers."""
        self.wait_for("seating: the players' names")
        self.keys("\x1b")

    def settle(self) -> str:
        """The screen once nothing more is written for a moment."""
        before = None
        while before != self.text():
            before = self.text()
            self.pump(0.3)
        return self.text()

    def keys(self, keys: str) -> None:
        for key in keys:
            os.write(self.master, key.encode())
            time.sleep(0.05)
            self.pump(0.05)

    def line_with(self, text: str) -> str:
        return next(line for line in self.screen.display if text in line)

    def close(self) -> int:
        try:
            os.write(self.master, b"\x04")  # Ctrl-D quits
            while self.proc.poll() is None:
                self.pump()
            return self.proc.wait(timeout=10)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
            os.close(self.master)


def fits(screen: Tty) -> None:
    """Nothing was drawn past the 80x24 terminal: the cursor never wrapped or scrolled."""
    assert all(len(line.rstrip()) <= COLS for line in screen.screen.display)


def test_strozzi_sim_reads_as_a_board_with_whose_turn_and_the_choices(tmp_path: Path) -> None:
    term = Tty("sim", "strozzi", "--seats", "3", "--seed", "4", "--db", str(tmp_path / "s.db"))
    try:
        term.skip_names()
        screen = term.wait_for("joined: nobody yet")
        assert "Strozzi" in screen and "seating" in screen
        term.keys("wsx")  # seats 1, 2, 3 press select: they join
        term.wait_for("joined: 1, 2, 3")
        term.keys("m")  # the table's menu button starts the game
        screen = term.wait_for("setup, in order")
        term.keys("w")  # the board is laid out
        screen = term.wait_for("to act")
        # the board as a board: four city tracks with space numbers, ports, tokens, ship
        assert term.line_with("space").split()[:4] == ["space", "0", "1", "2"]
        assert term.line_with("space").split()[-1] == "15"
        for city in ("Venice", "Rome", "Naples", "Florence"):
            assert term.line_with(city).startswith(city)
        ports = term.line_with("ports")
        assert "Venice" in ports and "Rome" in ports and "Naples" in ports
        assert "sails" in term.line_with("in play") and "ship " in term.line_with("in play")
        assert "(pirate, +1, goods)" in term.line_with("flags")
        # whose turn, with the colour's name, and the choices with the cursor on one
        status = screen.splitlines()[0]
        assert status.startswith("Strozzi | round 1 | seat 1 (red) to act"), status
        menu = screen.splitlines()[1]
        assert menu.startswith("seat 1: ") and "[" in menu, menu
        # 3 seats play: no seat 4 drawn; the screen fits
        assert " 4 " not in term.line_with("flags")
        fits(term)
        # a press at a seat not to act is refused in words, in the log, once
        term.keys("a")
        screen = term.wait_for("Seat 2: it is seat 1's turn")
        assert screen.count("Seat 2: it is seat 1's turn") == 1
        # the cursor moves in the status line, not in the log
        first = term.line_with("seat 1: ")
        term.keys("e")
        term.settle()
        assert term.line_with("seat 1: ") != first
        assert "Seat 1: " not in "\n".join(term.screen.display[2:])
    finally:
        assert term.close() == 0


def test_sim_log_scrolls_back_and_a_draw_is_said_once(tmp_path: Path) -> None:
    term = Tty("sim", "strozzi", "--seats", "3", "--seed", "4", "--db", str(tmp_path / "s.db"))
    try:
        term.skip_names()
        term.wait_for("joined: nobody yet")
        term.keys("wsxm")
        term.wait_for("setup, in order")
        term.keys("w")
        screen = term.wait_for("comes up")
        assert "draw: draw" not in screen  # the sentence, not also the journal line
        # play a few actions at seat 1: always the first choice
        for _ in range(6):
            if "seat 1 (red) to act" not in term.text().splitlines()[0]:
                break
            term.keys("w")
            term.settle()
        log_top = term.line_with("-- log")
        term.keys("[[[")
        screen = term.settle()
        assert "newer below" in term.line_with("-- log") and log_top != term.line_with("-- log")
        term.keys("]]]")
        term.settle()
        assert "newer below" not in term.line_with("-- log")
    finally:
        assert term.close() == 0


def test_florence_sim_keeps_the_setup_checklist_and_draws_the_grid(tmp_path: Path) -> None:
    term = Tty("sim", "florence", "--seats", "2", "--seed", "2", "--db", str(tmp_path / "f.db"))
    try:
        term.skip_names()
        term.wait_for("joined: nobody yet")
        term.keys("ws")
        term.wait_for("joined: 1, 2")
        term.keys("m")
        term.wait_for("setup, in order")
        screen = term.settle()
        # the setup steps stay on the screen, a page at a time, until the board is laid out
        assert "setting up" in screen.splitlines()[0]
        heading = term.line_with("setup, in order")
        assert heading.startswith("setup, in order (steps 1-"), heading
        assert "Brag tile Eyes Everywhere goes face up on location 1." in screen
        assert "then, once the board is laid out: select at any seat" in screen
        term.keys("]]]]]]]]]]]]]]]]]]]]")
        screen = term.settle()
        assert "Brag tile Eyes Everywhere" not in screen
        assert "The 1st player marker goes to" in screen  # the last step
        # the 3x3 grid: locations 1-9, each with its queue and shields
        grid = [line for line in term.screen.display if "queue" in line]
        assert len(grid) == 3 and all(line.count("queue") == 3 for line in grid)
        assert term.line_with("escorts").startswith("escorts 1-2")
        fits(term)
        term.keys("w")  # laid out: play starts, the checklist joins the log
        term.wait_for("to act")
        screen = term.settle()  # the whole frame: "to act" can show before the rest is drawn
        assert "setup, in order" not in screen
        assert re.match(
            r"Florence \| seat (1 \(blue\)|2 \(orange\)) to act", screen.splitlines()[0]
        ), screen.splitlines()[0]
        assert re.match(r"seat [12]: .*\[", screen.splitlines()[1]), screen.splitlines()[1]
        # the setup steps are in the log now: scrolling back finds the first
        term.keys("[" * 12)
        assert "Brag tile Eyes Everywhere goes face up on location 1." in term.settle()
    finally:
        assert term.close() == 0


def test_sim_refuses_a_seat_count_the_game_cannot_seat() -> None:
    done = subprocess.run(
        [*TAVOLA, "sim", "strozzi", "--seats", "2"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert done.stderr.strip() == "tavola sim: --seats: Strozzi is for 3-6 players, not 2"


def test_sim_takes_options_like_selfplay() -> None:
    done = subprocess.run(
        [*TAVOLA, "sim", "florence", "--seats", "1", "--difficulty", "hardest"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "hardest" in done.stderr
    done = subprocess.run(
        [*TAVOLA, "sim", "strozzi", "--option", "nonsense=1"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "Strozzi has no option nonsense" in done.stderr


def test_demo_takes_options_and_the_game_is_played_with_them(tmp_path: Path) -> None:
    """The journal records the options the game was played with: the preset's switches."""
    from apps.journal import Journal

    db = tmp_path / "d.db"
    done = subprocess.run(
        [
            *TAVOLA,
            "demo",
            "florence",
            "--players",
            "1",
            "--seed",
            "2",
            "--difficulty",
            "harder",
            "--db",
            str(db),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    journal = Journal(db)
    try:
        (game,) = journal.history()
    finally:
        journal.close()
    assert game.options["difficulty"] == "harder"
    assert game.options["harder_pass"] is True


def test_the_terminal_strip_does_not_overwrite_the_log(tmp_path: Path) -> None:
    """`demo --strip terminal` on an 80x24 terminal: the strip keeps the top rows and
    the sentences scroll below it, each whole, ending as the demo without the strip does."""
    plain = subprocess.run(
        [*TAVOLA, "demo", "strozzi", "--players", "3", "--seed", "1"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert plain.returncode == 0
    term = Tty("demo", "strozzi", "--players", "3", "--seed", "1", "--strip", "terminal")
    end = time.monotonic() + 300
    while term.proc.poll() is None and time.monotonic() < end:
        term.pump()
    term.settle()
    shown = [line.rstrip() for line in term.screen.display if line.strip()]
    assert term.close() == 0
    expected = plain.stdout.splitlines()
    # the lines below the strip are the demo's last lines, none cut or overdrawn
    assert shown[-8:-1] == expected[-8:-1]


def test_sim_says_the_players_names(tmp_path: Path) -> None:
    """Names typed at `sim --names` stand for the seats in the status line, the menu and
    every sentence of the log."""
    term = Tty(
        "sim",
        "strozzi",
        "--seats",
        "3",
        "--seed",
        "4",
        "--names",
        "Anna,Ben,Carla",
        "--db",
        str(tmp_path / "s.db"),
    )
    try:
        term.wait_for("joined: nobody yet")
        term.keys("wsx")
        term.wait_for("Carla joined as blue.")
        term.keys("m")
        screen = term.wait_for("setup, in order")
        assert "seats 1 red (Anna), 2 green (Ben), 3 blue (Carla)" in screen
        term.keys("w")
        screen = term.wait_for("to act")
        assert screen.splitlines()[0].startswith("Strozzi | round 1 | Anna (red) to act")
        assert screen.splitlines()[1].startswith("Anna: ")
        assert "Anna decides on ship" in screen
        term.keys("a")
        assert "Ben: it is Anna's turn." in term.wait_for("Ben: it is")
    finally:
        assert term.close() == 0


def test_names_typed_at_seating_are_checked_and_said(tmp_path: Path) -> None:
    """Without --names, `sim` asks each seat's name before seating: a name another seat has
    (or 'seat N' of another seat) is refused in words and typed again, a name stops at the
    config's 24 characters, Enter alone keeps the seat number; the names are then said."""
    term = Tty("sim", "strozzi", "--seats", "3", "--seed", "4", "--db", str(tmp_path / "s.db"))
    try:
        screen = term.wait_for("seating: the players' names")
        assert "> seat 1: _" in screen
        assert "Enter alone keeps 'seat 1'" in screen
        term.keys("Anna\n")
        term.keys("ANNA\n")
        screen = term.wait_for("Not taken")
        assert "Not taken: 'Anna' is seat 1's name already. Type another name." in screen
        assert "> seat 2: ANNA_" in screen  # what was typed stays, to be corrected
        term.keys("\x7f" * 4 + "seat 3\n")
        assert "'seat 3' would be mistaken for seat 3" in term.wait_for("mistaken")
        term.keys("\x7f" * 6 + "B" * 30)
        assert "> seat 2: " + "B" * 24 + "_" in term.wait_for("B" * 24)
        term.keys("\n\n")  # seat 2 is named; Enter alone: seat 3 keeps its number
        term.wait_for("joined: nobody yet")
        term.keys("wsx")
        screen = term.wait_for("Seat 3 joined as blue.")
        assert "Anna joined as red." in screen and "B" * 24 + " joined as green." in screen
        term.keys("mw")
        screen = term.wait_for("to act")
        assert screen.splitlines()[0].startswith("Strozzi | round 1 | Anna (red) to act")
    finally:
        assert term.close() == 0


def test_names_given_on_the_command_line_are_checked_as_the_config_checks_them() -> None:
    done = subprocess.run(
        [*TAVOLA, "sim", "strozzi", "--seats", "3", "--names", "Anna,anna"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.strip() == "tavola sim: --names: seat 2: 'Anna' is seat 1's name already"
