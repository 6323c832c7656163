"""`tavola sim` as a person reads it: a real pseudo-terminal (80x24, or larger), read
through a terminal emulator (pyte), so the assertions are about the characters on the
screen (what scrolled away or was overwritten is not there), not the bytes written; and
in tmux, a real terminal with its own size, keys sent and the screen captured."""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import re
import select
import shutil
import struct
import subprocess
import termios
import time
from pathlib import Path

import pyte
import pytest

import engine
from apps.runtime import Appliance
from apps.screen import SEAT_KEYS
from apps.sim import ButtonBot, ManualClock, demo_config
from tests.support import TAVOLA

COLS, ROWS = 80, 24
FRAME_START, FRAME_END = b"\x1b[H", b"\x1b[J"  # how apps.screen.render opens and ends a screen


class Tty:
    """`tavola sim` in a pseudo-terminal of 80x24 (or `size`), its screen emulated by pyte."""

    def __init__(
        self,
        *args: str,
        argv: list[str] | None = None,
        cwd: Path | None = None,
        env: dict[str, str] | None = None,
        size: tuple[int, int] = (COLS, ROWS),
    ) -> None:
        cols, rows = size
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        env = {
            **(env if env is not None else os.environ),
            "COLUMNS": str(cols),
            "LINES": str(rows),
            "TERM": "xterm-256color",
        }
        self.proc = subprocess.Popen(
            argv or [*TAVOLA, *args], stdin=slave, stdout=slave, stderr=slave, env=env, cwd=cwd
        )
        os.close(slave)
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.drawing = False  # the last bytes read end inside a screen being drawn
        self._tail = b""

    def pump(self, seconds: float = 0.1) -> None:
        ready, _, _ = select.select([self.master], [], [], seconds)
        if ready:
            with contextlib.suppress(OSError):
                data = os.read(self.master, 65536)
                self.stream.feed(data)
                self._track(data)

    def _track(self, data: bytes) -> None:
        """`sim` writes each screen whole (home ... clear to the end), but the pseudo-terminal
        may hand it over in pieces: a screen read half-way mixes new lines and old ones."""
        seen = self._tail + data
        start, end = seen.rfind(FRAME_START), seen.rfind(FRAME_END)
        if start != end:
            self.drawing = start > end
        self._tail = seen[-2:]

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def wait_for(self, text: str, limit: float = 30.0) -> str:
        """The screen, drawn whole, once `text` is on it (the limit only stops a hung test)."""
        end = time.monotonic() + limit
        while (text not in self.text() or self.drawing) and time.monotonic() < end:
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
        while before != self.text() or self.drawing:
            before = self.text()
            self.pump(0.3)
        return self.text()

    def keys(self, keys: str) -> None:
        """Typed one key at a time, an escape sequence (Page Up) as one key."""
        for key in re.findall(r"\x1b\[[0-9;]*[~A-Za-z]|.", keys, re.DOTALL):
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


def sim(*args: str, size: tuple[int, int] = (COLS, ROWS)) -> Tty:
    """`tavola sim` for a test of something else than the component check: none offered."""
    return Tty("sim", "--no-check", *args, size=size)


def fits(screen: Tty) -> None:
    """Nothing was drawn past the terminal: the cursor never wrapped or scrolled."""
    assert all(len(line.rstrip()) <= screen.screen.columns for line in screen.screen.display)


def test_strozzi_sim_reads_as_a_board_with_whose_turn_and_the_choices(tmp_path: Path) -> None:
    term = sim("strozzi", "--seats", "3", "--seed", "4", "--db", str(tmp_path / "s.db"))
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
        assert term.line_with("space").split()[-1] == "10"  # the shipped track
        for city in ("Venice", "Rome", "Naples", "Florence"):
            assert term.line_with(city).startswith(city)
        ports = term.line_with("ports")
        assert "Venice" in ports and "Rome" in ports and "Naples" in ports
        assert re.search(r"in play  \d-sail ship \(.+\)", term.line_with("in play"))
        assert "(pirate, +1, goods)" in term.line_with("flags")
        # whose turn, with the colour's name; what is asked; the choices, the cursor on one
        status, prompt, menu = screen.splitlines()[:3]
        assert status.startswith("Strozzi | round 1 | seat 1 (red) to act"), status
        assert prompt.startswith("Seat 1 decides on the "), prompt
        assert menu.startswith("seat 1: [flag] pass"), menu
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
    term = sim("strozzi", "--seats", "3", "--seed", "4", "--db", str(tmp_path / "s.db"))
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
    term = sim("florence", "--seats", "2", "--seed", "2", "--db", str(tmp_path / "f.db"))
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
        assert "Lay out the board as the lights show, then press select at any seat." in screen
        term.keys("]" * 20)
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
        assert re.match(r"seat [12]: .*\[", screen.splitlines()[2]), screen.splitlines()[2]
        # the setup steps are in the log now: scrolling back to its first sentence, then
        # on, finds them
        term.keys("[" * 40)
        screen = term.settle()
        lines = screen.splitlines()
        top = lines.index(term.line_with("-- log ("))
        assert lines[top + 1].startswith("Florence: each player presses select"), screen
        for _ in range(10):
            if "Brag tile Eyes Everywhere goes face up on location 1." in screen:
                break
            term.keys("]")
            screen = term.settle()
        assert "Brag tile Eyes Everywhere goes face up on location 1." in screen
        assert "newer below" in term.line_with("-- log (")
    finally:
        assert term.close() == 0


# --- the status as the terminal shows it: whole sentences, every step, any size ----------
class Tmux:
    """`tavola sim` in tmux: a terminal of a real size that can be resized (the program
    gets SIGWINCH), keys sent as typed, the screen captured as it shows. A shell around
    it says its exit status on the screen once it ends."""

    ENDED = "sim ended with status "

    def __init__(self, tmp_path: Path, *args: str, size: tuple[int, int] = (COLS, ROWS)) -> None:
        tmux = shutil.which("tmux")
        assert tmux is not None, (
            "tmux is not installed, and this test plays `tavola sim` in it: "
            "scripts/system-deps.sh installs it (Debian's package tmux)"
        )
        self.base = [tmux, "-f", "/dev/null", "-S", str(tmp_path / "tmux.sock")]
        cols, rows = size
        command = ["sh", "-c", f'"$@"; echo "{self.ENDED}$?"', "sh", *TAVOLA, "sim", "--no-check"]
        self.tmux("set-option", "-g", "remain-on-exit", "on", ";", "new-session", "-d",
                  "-s", "sim", "-x", str(cols), "-y", str(rows), "--", *command, *args)  # fmt: skip

    def tmux(self, *args: str) -> str:
        done = subprocess.run([*self.base, *args], capture_output=True, text=True, timeout=30)
        assert done.returncode == 0, f"tmux {' '.join(args)}: {done.stderr}"
        return done.stdout

    def capture(self) -> str:
        """The screen as it shows now (each line without its trailing blanks)."""
        screen = self.tmux("capture-pane", "-p", "-t", "sim")
        assert self.ENDED not in screen, f"`tavola sim` ended; the screen:\n{screen}"
        return screen

    def wait_for(self, text: str, limit: float = 30.0) -> str:
        """The screen, drawn whole, once `text` is on it."""
        end = time.monotonic() + limit
        screen = self.capture()
        while text not in screen and time.monotonic() < end:
            time.sleep(0.1)
            screen = self.capture()
        assert text in screen, f"{text!r} never appeared; the screen:\n{screen}"
        return self.whole(screen)

    def changed(self, before: str, limit: float = 10.0) -> str:
        """The screen, drawn whole, once its words differ from `before` (a key was acted
        on): the LEDs drawn as dots change by themselves (a seat's light pulses)."""
        end = time.monotonic() + limit
        screen = self.capture()
        while words(screen) == words(before) and time.monotonic() < end:
            time.sleep(0.05)
            screen = self.capture()
        return self.whole(screen)

    def whole(self, screen: str) -> str:
        """`screen` once its words stay the same for a moment: tmux may show a screen half
        drawn (its first lines still the old ones), and a key sent then would act on the
        screen after the one read."""
        while True:
            time.sleep(0.15)
            again = self.capture()
            if words(again) == words(screen):
                return again
            screen = again

    def keys(self, keys: str) -> None:
        self.tmux("send-keys", "-t", "sim", "-l", keys)

    def resize(self, cols: int, rows: int) -> None:
        self.tmux("resize-window", "-t", "sim", "-x", str(cols), "-y", str(rows))

    def close(self) -> int | None:
        """Ctrl-D quits `sim`: its exit status (None: it did not end)."""
        try:
            self.tmux("send-keys", "-t", "sim", "C-d")
            end = time.monotonic() + 10
            while time.monotonic() < end:
                screen = self.tmux("capture-pane", "-p", "-t", "sim")
                if self.ENDED in screen:
                    return int(found(rf"{self.ENDED}(\d+)", screen))
                time.sleep(0.1)
            return None
        finally:
            subprocess.run([*self.base, "kill-server"], capture_output=True, timeout=30)


def words(screen: str) -> str:
    """The screen without its LEDs (lit or dark dots)."""
    return re.sub("[●·]", "", screen)


def unwrapped(screen: str) -> list[str]:
    """The screen's lines with each sentence's continuation lines (indented by two or more
    blanks) joined to the line it goes on from."""
    out: list[str] = []
    for line in screen.splitlines():
        if out and out[-1].strip() and line.startswith("  ") and line.strip():
            out[-1] = f"{out[-1].rstrip()} {line.strip()}"
        else:
            out.append(line.rstrip())
    return out


def mocked(
    tmp_path: Path, game: str, seats: int, seed: int, names: tuple[str, ...] = ()
) -> Appliance:
    """The table `sim` plays, mocked in this process (the same draws for the same seed),
    its seats joined and the game started: the board being set up."""
    config = demo_config(game, seats, journal=tmp_path / "mocked.db", seed=seed, names=names)
    table = Appliance(config, clock=ManualClock(), button_thread=False, say=lambda text: None)
    table.app.start()
    table.app.tick()
    for seat in range(seats):
        table.app.command(str(seat + 1), "join")
    if table.app.status().seating:
        table.app.command("table", "start")
    return table


SOLO_FLORENCE = ("florence", "--seats", "1", "--seed", "2", "--names", "Sofia")


def set_up(term: Tty | Tmux, seats: int) -> str:
    """The first `seats` seats join at their select keys and the table's menu key starts
    the game: the screen of the board being set up."""
    term.wait_for("joined: nobody yet")
    term.keys("".join(SEAT_KEYS[s][1] for s in range(seats)))
    term.wait_for("joined: " + ", ".join(str(s + 1) for s in range(seats)))
    term.keys("m")
    return term.wait_for("setup, in order")


def test_solo_florence_is_played_to_its_end_in_a_real_terminal(tmp_path: Path) -> None:
    """Solo Florence against the automa in tmux, from the setup to the end, at seat 1's
    keys: Sofia passes as soon as she may (previous, select), and select carries out the
    rest. Each round then goes on past 'Strozzi passes last' (where the screen used to
    crash with an IndexError, the automa having no seat), and the result is on the
    screen, each score line whole."""
    term = Tmux(tmp_path, *SOLO_FLORENCE, "--db", str(tmp_path / "f.db"))
    try:
        screen = set_up(term, 1)
        heads: list[str] = []
        passed_last = False
        for _ in range(600):
            head = screen.splitlines()[0]
            if not heads or heads[-1] != head:
                heads.append(head)
            passed_last = passed_last or "Strozzi passes last" in screen
            if "game over" in head:
                break
            if "Sofia: pass [move]" in screen:
                term.keys("q")  # the cursor on pass
                screen = term.changed(screen)
            term.keys("w")
            screen = term.changed(screen)
        assert "Florence | round 9 | game over" in heads[-1], heads[-6:]
        assert passed_last and any("round 2 | Sofia (purple) to act" in h for h in heads)
        lines = unwrapped(screen)
        assert re.fullmatch(r"Game over\. (Sofia|Strozzi \(automa\)) wins \d+-\d+\.", lines[1])
        assert re.fullmatch(r"Sofia: .* = \d+", lines[2]), lines[2]
        assert re.fullmatch(r"Strozzi \(automa\): .* = \d+", lines[3]), lines[3]
        assert lines[4] == "Game over. Select at any seat for the next game. (any button goes on)"
        assert all(len(line) <= COLS for line in screen.splitlines()), screen
    finally:
        assert term.close() == 0  # Ctrl-D: sim ended, with status 0


def test_a_long_instruction_is_shown_whole_at_any_size(tmp_path: Path) -> None:
    """The automa's move, longer than 80 columns: on one line of a 200x60 terminal, wrapped
    between words over lines at 80x24 (the lines after the first indented), whole at both
    and again when the terminal is resized (SIGWINCH)."""
    table = mocked(tmp_path, "florence", 1, 2, ("Sofia",))
    try:
        table.app.command("1", "go_on")  # the board is laid out: the automa's first move
        move = table.app.status().prompt
    finally:
        table.close()
    assert move.startswith("Strozzi places ") and len(move) > 100, move
    term = Tmux(tmp_path, *SOLO_FLORENCE, size=(200, 60))
    try:
        set_up(term, 1)
        term.keys("w")
        screen = term.wait_for(move)  # whole, on one line
        assert screen.splitlines()[1] == move
        assert len(screen.splitlines()) == 60
        assert term.wait_for("-- log --")  # the board and the log below it, as at 80x24
        term.resize(80, 24)
        screen = term.wait_for(move[:40])
        lines = screen.splitlines()
        assert len(lines) == 24 and all(len(line) <= 80 for line in lines), screen
        first = next(y for y, line in enumerate(lines) if line.startswith(move[:40]))
        assert lines[first + 1].startswith("  ") and move not in screen
        assert len(lines[first]) < 80 and len(lines[first + 1]) < 80
        assert unwrapped(screen)[first] == move
        term.resize(120, 40)
        screen = term.wait_for(move)
        assert len(screen.splitlines()) == 40
    finally:
        assert term.close() == 0


CHECKLISTS = [("florence", 2, 19), ("strada_romana", 5, 35)]


@pytest.mark.parametrize(("game", "seats", "steps"), CHECKLISTS)
def test_every_setup_step_can_be_paged_to(
    tmp_path: Path, game: str, seats: int, steps: int
) -> None:
    """The setup checklist, longer than an 80x24 screen holds: `]` goes on step by step to
    the last, Page Up/Down a screenful; the heading says which steps of how many show, and
    every step the table said is read whole, numbered in order."""
    table = mocked(tmp_path, game, seats, 2)
    try:
        expected = table.app.status().checklist
    finally:
        table.close()
    assert len(expected) == steps
    term = sim(game, "--seats", str(seats), "--seed", "2", "--names", "")
    try:
        term.wait_for("joined: nobody yet")
        term.keys("".join(SEAT_KEYS[s][1] for s in range(seats)))  # a full table starts
        if "setup, in order" not in term.settle():
            term.keys("m")
        term.wait_for("setup, in order (steps 1-")
        seen: dict[int, str] = {}
        pages = []
        for _ in range(steps):
            screen = term.settle()
            heading = term.line_with("setup, in order (")
            m = re.search(r"steps (\d+)-(\d+) of (\d+)", heading)
            assert m is not None, heading
            first, last, total = map(int, m.groups())
            assert total == steps
            pages.append((first, last))
            rows = unwrapped(screen)
            top = next(y for y, row in enumerate(rows) if row.startswith("setup, in order ("))
            numbered = [re.match(r" *(\d+)\. (.*)$", row) for row in rows[top + 1 :]]
            shown = {int(n.group(1)): n.group(2) for n in numbered if n}
            assert sorted(shown) == list(range(first, last + 1)), (heading, shown)
            seen.update(shown)
            if last == steps:
                assert "] shows the next" not in heading and "[ goes back" in heading
                break
            assert "] shows the next" in heading
            term.keys("]")
            term.wait_for(f"steps {first + 1}-")
        assert pages[0][0] == 1 and pages[0][1] < steps  # not all on the first screen
        assert seen == {k + 1: step for k, step in enumerate(expected)}
        fits(term)
        term.keys("\x1b[5~" * 10)  # Page Up: back to the first step
        assert term.wait_for("setup, in order (steps 1-")
        term.keys("\x1b[6~" * 10)  # Page Down: on to the last
        assert term.wait_for(f"-{steps} of {steps}; [ goes back)")
    finally:
        assert term.close() == 0


def test_a_draw_the_app_makes_is_no_menu(tmp_path: Path) -> None:
    """With the app drawing (the default), a draw is nobody's decision: once a ship is
    placed, the screen says any button goes on, and offers no menu of ship cards; with
    `--chance pick` the people enter the draw on a menu (`draw > [1] 2 3`)."""
    term = sim("strozzi", "--seats", "3", "--seed", "4", "--names", "")
    try:
        set_up(term, 3)
        term.keys("w")  # the board is laid out
        screen = term.wait_for("to act")
        for _ in range(30):  # select at the seat to act until a ship is placed
            head = screen.splitlines()[0]
            if "a draw is due" in head:
                break
            seat = int(found(r"\| seat (\d) \(\w+\) to act", head))
            term.keys(SEAT_KEYS[seat - 1][1])
            screen = term.settle()
        assert "a draw is due" in screen.splitlines()[0], screen
        rows = unwrapped(screen)
        assert re.fullmatch(
            r"Undo takes back seat \d's 'port \w+' until the table draws; any button goes on\.",
            rows[1],
        ), rows[1]
        assert not re.search(r"draw > |\[1\] 2 3", screen), screen
        term.keys("w")  # any button: the table draws, the next seat acts
        screen = term.wait_for("to act")
        assert not re.search(r"draw > |\[1\] 2 3", screen), screen
    finally:
        assert term.close() == 0
    term = sim("strozzi", "--seats", "3", "--seed", "4", "--names", "", "--chance", "pick")
    try:
        set_up(term, 3)
        for _ in range(6):  # three progress tokens entered, the board laid out
            if "draw > [1]" in term.settle():
                break
            term.keys("w")
        assert term.line_with("draw > ").startswith("seat 1: draw > [1] 2 3 4 5 6 7 8")
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
    term = sim(
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
        assert screen.splitlines()[2].startswith("Anna: ")
        assert "Anna decides on the " in screen
        term.keys("a")
        assert "Ben: it is Anna's turn." in term.wait_for("Ben: it is")
    finally:
        assert term.close() == 0


def test_sim_seats_bots_and_says_their_moves(tmp_path: Path) -> None:
    """`sim --bots 1` seats a bot at the last seat; a seat's next key seats another; the
    bot's move is said on the screen and one select key confirms it."""
    term = sim("strozzi", "--seats", "3", "--seed", "4", "--bots", "1", "--names", "")
    try:
        screen = term.wait_for("joined: 3 (bot)")
        assert "next seats a bot" in screen
        term.keys("d")  # seat 2's next: a bot sits there
        term.wait_for("joined: 2 (bot), 3 (bot)")
        term.keys("d")  # and leaves
        term.wait_for("The bot left seat 2; it is free.")
        term.keys("ws")  # seats 1 and 2 join
        term.wait_for("joined: 1, 2, 3 (bot)")
        term.keys("m")
        screen = term.wait_for("3 red (bot)")
        term.keys("w")  # the board is laid out
        for _ in range(60):  # people play at seat 1 and 2 until the bot is to act
            screen = term.settle()
            if "Seat 3 (bot) is thinking" in screen:  # off the loop: slow on a loaded machine
                screen = term.wait_for("Seat 3 (bot) plays")
            if "Seat 3 (bot) plays" in screen:
                break
            term.keys(
                "w"
                if "Seat 1 (" in screen.splitlines()[0] or "| seat 1 (" in screen.splitlines()[0]
                else "s"
            )
        assert "Seat 3 (bot) plays" in screen
        assert "then select at any seat." in screen
        assert screen.splitlines()[1].startswith("Seat 3 (bot) plays ")  # what to do
        assert term.line_with("seat 3 (bot) plays ").rstrip().endswith(": select at any seat")
        term.keys("w")  # seat 1's select confirms the bot's move
        assert "seat 3 (bot): " in term.wait_for("seat 3 (bot): ")
    finally:
        assert term.close() == 0


def test_names_typed_at_seating_are_checked_and_said(tmp_path: Path) -> None:
    """Without --names, `sim` asks each seat's name before seating: a name another seat has
    (or 'seat N' of another seat) is refused in words and typed again, a name stops at the
    config's 24 characters, Enter alone keeps the seat number; the names are then said."""
    term = sim("strozzi", "--seats", "3", "--seed", "4", "--db", str(tmp_path / "s.db"))
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


# --- Strada Romana: the road drawn as a road ------------------------------------------------
STRADA = engine.get("strada_romana").new_state(5, seed=4).board
WAGON_CODES = {w[:2]: w for w in STRADA.wagons}


def hex_of(colour: tuple[int, int, int]) -> str:
    r, g, b = colour
    return f"{r:02x}{g:02x}{b:02x}"


def found(pattern: str, text: str) -> str:
    """The first group of `pattern` in `text`, which must be there."""
    m = re.search(pattern, text)
    assert m is not None, f"{pattern!r} not in {text!r}"
    return m.group(1)


def road_rows(display: list[str]) -> range:
    """The rows of the road: between the top areas' line and the bottom areas' line."""
    top = next(y for y, line in enumerate(display) if line.startswith("area I top: "))
    bottom = next(y for y, line in enumerate(display) if line.startswith("area II bottom: "))
    return range(top + 1, bottom)


def square_at(display: list[str], square: str) -> tuple[int, int]:
    """Where a road square's id is drawn; what stands on it is drawn right under the id."""
    for y in road_rows(display)[::2]:
        m = re.search(rf"(?<!\d){square}(?!\d)", display[y])
        if m:
            return y + 1, m.start()
    raise AssertionError(f"square {square} is not on the road:\n" + "\n".join(display))


def on_square(display: list[str], square: str) -> str:
    """What is drawn under a road square's id: its wagon (`ba>`, `<ba`) or its two LEDs."""
    y, x = square_at(display, square)
    return display[y][x : x + 4].rstrip()


def test_strada_sim_draws_the_road_with_its_squares_wagons_markets_and_areas(
    tmp_path: Path,
) -> None:
    """Five seats, the most Strada Romana seats: the road with its wagons and goods, the
    seats' coins, and still the status, the menu and a few log lines fit 80x24. A move
    draws the wagon at its new square."""
    from apps.views.strada_romana import WAGON

    term = sim("strada_romana", "--seats", "5", "--seed", "4", "--db", str(tmp_path / "s.db"))
    try:
        term.skip_names()
        term.wait_for("joined: nobody yet")
        term.keys("wsxtg")  # all five join: the game starts
        term.wait_for("setup, in order")
        term.keys("w")  # the board is laid out
        screen = term.wait_for("to act")
        lines = term.screen.display
        log = next(i for i, line in enumerate(lines) if line.startswith("-- log"))
        board = "\n".join(lines[2:log])
        # every road square by the id players type, once, in the road's rows
        for name in STRADA.square_names[: STRADA.road]:
            assert len(re.findall(rf"(?<!\d){name}(?!\d)", board)) == 1, name
            assert on_square(lines, name) == "··"  # nobody on the road yet: its LEDs dark
        # the ten wagons on the start squares, the Portus side heading to Roma
        portus, roma = term.line_with("Portus p1 "), term.line_with("Roma   r1 ")
        to_roma = re.findall(r"p\d (\w\w)> ", portus)
        to_portus = re.findall(r"r\d <(\w\w) ", roma)
        assert len(to_roma) == len(to_portus) == 5, (portus, roma)
        assert sorted(to_roma + to_portus) == sorted(WAGON_CODES)
        assert "arrived 1 ·· 2 ·· 3 ·· 4 ··" in portus
        # the markets' cubes by their colour's letter beside a square, the areas' tiles
        assert term.line_with("cubes ").startswith(
            "cubes y yellow r red g green b blue o brown w white  > to Roma, < to Portus"
        )
        for market in ("112", "121", "352"):
            assert re.search(rf"(?<!\d){market}[yrgbow]", board), market
        assert not re.search(r"(?<!\d)(111|113|241)[^ ]", board)  # no market beside them
        top, bottom = term.line_with("area I top: "), term.line_with("area II bottom: ")
        for line, areas in ((top, ("I", "III", "V")), (bottom, ("II", "IV", "VI"))):
            side = "top" if line is top else "bottom"
            labels = re.findall(rf"area (\w+) {side}: (\w+)", line)
            assert [a for a, _ in labels] == list(areas), line
            assert all(tile in STRADA.colours for _, tile in labels), line
        # each playing seat's coins, VP and wagon tiles: starting coins 0, 1, 2, 3, 3
        seats = re.findall(r"(\d)● (\d)/(\d)/(\d)", term.line_with("coins/VP/wagon tiles"))
        assert [seat for seat, *_ in seats] == ["1", "2", "3", "4", "5"]
        assert sorted(int(coins) for _, coins, _, _ in seats) == [0, 1, 2, 3, 3]
        assert all(vp == tiles == "0" for _, _, vp, tiles in seats)
        # the status, the menu and a few log lines are on the screen too
        assert re.match(r"Strada Romana \| seat \d \(\w+\) to act", lines[0]), lines[0]
        assert re.match(r"seat \d: \[step\] tile pass", lines[2]), lines[2]
        assert len([line for line in lines[log + 1 : -2] if line.strip()]) >= 4, screen
        fits(term)
        # the cursor on `step`: every wagon that can move is white on the drawn board
        y = lines.index(portus)
        x = portus.index(f"{to_roma[0]}>")
        assert term.screen.buffer[y][x].fg == "ffffff"
        # the seat to act chooses the first wagon offered: the others take their colours
        # back, the squares it can reach light, and it moves to the first of them
        seat = int(lines[0].split("seat ")[1][0])
        keys = dict(zip(("previous", "select", "next"), SEAT_KEYS[seat - 1], strict=True))
        term.keys(keys["select"])
        mover = found(r"step > \[(\w+)\]", term.wait_for("step > ["))
        other = next(code for code in to_roma if WAGON_CODES[code] != mover)
        term.settle()
        # all ten wagons to choose from: the menu takes a second line rather than cut them
        menu = " ".join(term.screen.display[2:4]).split()
        assert [w.strip("[]") for w in menu[4:]] == list(STRADA.wagons), menu
        y = term.screen.display.index(term.line_with("Portus p1 "))
        assert term.screen.buffer[y][portus.index(f"{other}>")].fg == hex_of(
            WAGON[WAGON_CODES[other]]
        )
        term.keys(keys["select"])
        term.wait_for(f"step {mover} > [")
        square = found(r"> \[(\w+)\]", term.screen.display[2])
        term.settle()
        assert on_square(term.screen.display, square) == "●●"
        term.keys(keys["select"])
        term.wait_for(f"moves {mover.capitalize()} (1 of ")
        term.settle()
        code = mover[:2]
        drawn = f"{code}>" if code in to_roma else f"<{code}"
        assert on_square(term.screen.display, square) == drawn, term.text()
        start = term.line_with("Portus p1 " if code in to_roma else "Roma   r1 ")
        assert drawn not in start  # its start square is empty now
        fits(term)
    finally:
        assert term.close() == 0


def strada_table(
    tmp_path: Path, players: int, seed: int, **options: object
) -> tuple[Appliance, ButtonBot]:
    """A mocked Strada Romana table past seating and setup, and the bot that presses its
    buttons."""
    config = demo_config("strada_romana", players, journal=tmp_path / "j.db", seed=seed)
    config.app.options = dict(options)
    clock = ManualClock()
    table = Appliance(config, clock=clock, button_thread=False, say=lambda text: None)
    table.app.start()
    table.app.tick()
    bot = ButtonBot(table, clock, seed)
    while table.app.mode != "playing":
        bot.advance(players)
    return table, bot


def sheet_cells(lines: list[str]) -> pyte.Screen:
    """The sheet's lines as a terminal shows them: characters and their colours."""
    screen = pyte.Screen(COLS, len(lines))
    pyte.Stream(screen).feed("\r\n".join(lines))
    return screen


def test_strada_sheet_lights_the_reach_of_the_wagon_under_the_cursor(tmp_path: Path) -> None:
    """The preview is drawn on the road: with the cursor on a wagon, the squares its next
    step reaches show their LEDs in its colour, later ones dim, the wagon itself white,
    every other square dark; the sheet is all public and fits 80 columns."""
    from apps.screen import strada_sheet, visible
    from apps.views.base import WHITE, dim
    from apps.views.strada_romana import LATER, WAGON
    from engine.strada_romana import StradaRomanaObservation

    table, bot = strada_table(tmp_path, 2, 1)
    try:
        app = table.app
        seat = app._waiting_seat()
        assert seat is not None
        bot.command(seat, "select")  # step: the cursor on the first wagon
        wagon = app.menus[seat].current
        obs = app.state.observe() if app.state is not None else None
        assert isinstance(obs, StradaRomanaObservation)
        reach = obs.reach(wagon)
        lines = strada_sheet(app.frame(app.clock()), app)
        assert all(visible(line) < COLS for line in lines)
        cells = sheet_cells(lines)
        display = cells.display
        assert {1, 2} <= set(reach.values())  # a first step and later ones to see
        lit = {step: hex_of(dim(WAGON[wagon], LATER)) for step in reach.values()}
        lit[1] = hex_of(WAGON[wagon])
        for name in obs.board.square_names[: obs.board.road]:
            y, x = square_at(display, name)
            assert display[y][x : x + 2] == ("●●" if name in reach else "··"), name
            colours = {cells.buffer[y][x + k].fg for k in (0, 1)}
            assert colours == ({lit[reach[name]]} if name in reach else {"brightblack"}), name
        # the wagon under the cursor, white where it stands, its heading towards Roma
        here = obs.wagon(wagon).square
        line = next(y for y, text in enumerate(display) if f" {here} " in text)
        x = display[line].index(f" {here} ") + len(here) + 2
        code = wagon[:2]
        assert display[line][x : x + 3] in (f"{code}>", f"<{code}")
        assert cells.buffer[line][x].fg == hex_of(WHITE)
        # two seats: their holdings in words
        holdings = next(text for text in display if text.startswith("seat 1 "))
        assert re.fullmatch(
            r"seat 1 ● \d coins?, 0 VP, 0 wagon tiles  seat 2 ● \d coins?, 0 VP, 0 wagon tiles",
            holdings.rstrip(),
        ), holdings
        assert "seat 3" not in "\n".join(display)
    finally:
        table.close()


def test_strada_sheet_never_tells_which_wagon_a_tile_names(tmp_path: Path) -> None:
    """'The "wagon tiles" are always kept face down (the other players may know how many
    each player owns, but not which ones)': two tables where the same seat took a tile
    naming different wagons draw the same board, which counts the tile."""
    from apps.screen import strada_sheet

    sheets, takers = [], []
    for k, named in enumerate(("ballio", "plotus")):
        table, bot = strada_table(tmp_path / str(k), 2, 1, wagon_tiles="when_taken")
        try:
            app = table.app
            state = app.state
            seat = app._waiting_seat()
            assert state is not None and seat is not None
            for text in ("tile", f"wagon {named}"):
                for command in bot.presses_for(seat, state.parse_action(text)):
                    bot.command(seat, command)
            assert app.ctx is not None and app.view is not None
            lines = strada_sheet(app.view.render(state, app.ctx), app)
            sheets.append(lines)
            takers.append(seat)
        finally:
            table.close()
    assert sheets[0] == sheets[1] and takers[0] == takers[1]
    holdings = re.sub(r"\x1b\[[0-9;]*m", "", next(s for s in sheets[0] if s.startswith("seat 1 ")))
    taker, other = takers[0], "1" if takers[0] == "2" else "2"
    assert re.search(rf"seat {taker} [●·] \d coins?, 0 VP, 1 wagon tile(?!s)", holdings), holdings
    assert re.search(rf"seat {other} [●·] \d coins?, 0 VP, 0 wagon tiles", holdings), holdings


def test_strada_sheet_puts_the_arrived_wagons_on_the_numbered_squares(tmp_path: Path) -> None:
    """'place the first 4 arrived wagons on the squares numbered from 1 to 4': at the end
    the arrived wagons stand there in their order, each with the end it reached, and are
    no longer on the road."""
    from apps.screen import strada_sheet
    from engine.strada_romana import StradaRomanaObservation

    table, bot = strada_table(tmp_path, 2, 3)
    try:
        assert bot.play(2)
        app = table.app
        obs = app.state.observe() if app.state is not None else None
        assert isinstance(obs, StradaRomanaObservation) and obs.arrivals
        lines = [re.sub(r"\x1b\[[0-9;]*m", "", line) for line in strada_sheet({}, app)]
        arrived = next(line for line in lines if line.startswith("Portus p1 "))
        cells = found(r"arrived (.*)$", arrived.rstrip())
        drawn = re.findall(r"(\d) (\S+)", cells)
        expected = [
            (str(k), f"{w[:2]}>" if obs.wagon(w).heading == "rome" else f"<{w[:2]}")
            for k, w in enumerate(obs.arrivals, start=1)
        ]
        expected += [(str(k), "··") for k in range(len(obs.arrivals) + 1, 5)]
        assert drawn == expected, arrived
        elsewhere = "\n".join(line for line in lines if line != arrived)
        for w in obs.arrivals:
            assert f"{w[:2]}>" not in elsewhere and f"<{w[:2]}" not in elsewhere, w
    finally:
        table.close()


def test_strada_sheet_fits_at_every_moment_of_a_five_seat_game(tmp_path: Path) -> None:
    """From the first setup draw to the end, entered at the seats' buttons (`pick`): the
    sheet never takes more than 12 lines or 79 columns, so the screen never cuts it."""
    from apps.screen import strada_sheet, visible

    config = demo_config(
        "strada_romana", 5, journal=tmp_path / "j.db", seed=7, chance="pick", one_button=2
    )
    clock = ManualClock()
    table = Appliance(config, clock=clock, button_thread=False, say=lambda text: None)
    try:
        table.app.start()
        table.app.tick()
        bot = ButtonBot(table, clock, 7)
        widest, longest, drawn = 0, 0, 0
        while table.app.mode != "over":
            bot.advance(5)
            if table.app.state is not None:
                lines = strada_sheet(table.app.frame(clock()), table.app)
                widest = max([widest, *map(visible, lines)])
                longest, drawn = max(longest, len(lines)), drawn + 1
        assert drawn > 100 and longest == 12 and widest < COLS, (drawn, longest, widest)
    finally:
        table.close()
