"""`tavola sim` in a real pseudo-terminal: keys press seat buttons, the board is drawn."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import time
from pathlib import Path

from tests.support import TAVOLA


class Terminal:
    def __init__(self, *args: str) -> None:
        self.master, slave = pty.openpty()
        self.proc = subprocess.Popen([*TAVOLA, *args], stdin=slave, stdout=slave, stderr=slave)
        os.close(slave)
        self.seen = b""

    def read_until(self, text: str, limit: float = 20.0) -> str:
        """Read the screen until `text` appears (the limit only stops a hung test)."""
        end = time.monotonic() + limit
        while text.encode() not in self.seen and time.monotonic() < end:
            ready, _, _ = select.select([self.master], [], [], 0.1)
            if ready:
                try:
                    self.seen += os.read(self.master, 65536)
                except OSError:
                    break
        return self.seen.decode(errors="ignore")

    def keys(self, keys: str) -> None:
        for key in keys:
            os.write(self.master, key.encode())
            time.sleep(0.05)

    def close(self) -> int:
        try:
            os.write(self.master, b"\x04")  # Ctrl-D quits
            while self.proc.poll() is None:
                ready, _, _ = select.select([self.master], [], [], 0.1)
                if ready:
                    try:
                        os.read(self.master, 65536)
                    except OSError:
                        break
            return self.proc.wait(timeout=10)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
            os.close(self.master)


def test_sim_draws_the_board_and_keys_play(tmp_path: Path) -> None:
    term = Terminal(
        "sim",
        "--no-check",
        "strozzi",
        "--seats",
        "3",
        "--seed",
        "4",
        "--db",
        str(tmp_path / "sim.db"),
    )
    try:
        term.read_until("the players' names")
        term.keys("\x1b")  # Esc: the seats keep their numbers
        screen = term.read_until("keys (previous select next")
        assert "Venice" in screen and "(pirate, +1, goods)" in screen
        term.keys("wsx")  # seats 1, 2, 3 press select: they join
        screen = term.read_until("Seat 3 joined as blue")
        term.keys("m")  # the table's menu button starts the game
        term.read_until("Set up the board as the lights show")
        term.keys("w")  # the board is ready
        term.read_until("Play starts")
        screen = term.read_until("comes up")
        term.keys("a")  # seat 2 is not the active seat: an error, nothing changes
        screen = term.read_until("Seat 2: it is seat 1's turn")
        term.keys("ww")  # seat 1: flag, then the pirate flag
        screen = term.read_until("seat 1: flag pirate")
        assert "\x1b[38;2;" in screen  # coloured LEDs are drawn
    finally:
        assert term.close() == 0
