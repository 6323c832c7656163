"""`tavola run` as systemd runs it: notify socket, watchdog, SIGTERM, SIGHUP, journald logs.

The table runs in a real subprocess. Its LEDs go out as Adalight frames on a
real pseudo-terminal, so the test sees exactly what a strip would get; systemd's
notify socket is a real AF_UNIX datagram socket.
"""

from __future__ import annotations

import os
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from apps.sim import demo_config_text
from tests.support import TAVOLA

LEDS = 438  # the Strozzi layout the demo table is sized for


def config_text(port: str, journal: Path) -> str:
    """The demo's mocked Strozzi table, its LEDs sent as Adalight frames to `port`."""
    return demo_config_text(
        "strozzi", 3, journal=journal, seed=3, strip="adalight", strip_keys={"port": port}
    )


class AdalightReader(threading.Thread):
    """Reads Adalight frames from the pty master (so the table never blocks on writes)."""

    def __init__(self, fd: int) -> None:
        super().__init__(daemon=True)
        self.fd = fd
        self.frames: list[bytes] = []
        self.buffer = b""
        self.size = 6 + 3 * LEDS

    def run(self) -> None:
        while True:
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:
                return
            if not chunk:
                return
            self.buffer += chunk
            while True:
                at = self.buffer.find(b"Ada")
                if at < 0 or len(self.buffer) - at < self.size:
                    break
                self.frames.append(self.buffer[at + 6 : at + self.size])
                self.buffer = self.buffer[at + self.size :]


@pytest.fixture
def service(tmp_path: Path):
    master, slave = os.openpty()
    reader = AdalightReader(master)
    reader.start()
    notify_path = tmp_path / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(notify_path))
    sock.settimeout(10)
    config = tmp_path / "tavola.toml"
    journal = tmp_path / "tavola.db"
    config.write_text(config_text(os.ttyname(slave), journal))
    env = dict(
        os.environ, NOTIFY_SOCKET=str(notify_path), WATCHDOG_USEC="200000", JOURNAL_STREAM="8:12345"
    )
    env.pop("WATCHDOG_PID", None)
    proc = subprocess.Popen(
        [*TAVOLA, "run", "--config", str(config)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    state = {
        "proc": proc,
        "sock": sock,
        "reader": reader,
        "config": config,
        "journal": journal,
        "slave": slave,
    }
    yield state
    if proc.poll() is None:
        proc.kill()
        proc.wait()
    sock.close()
    os.close(slave)
    os.close(master)


def messages(sock: socket.socket, until: str) -> list[str]:
    got: list[str] = []
    while not any(until in m for m in got):
        got.append(sock.recv(4096).decode())
    return got


def test_ready_then_watchdog_pings_then_sigterm_turns_off_and_exits_zero(service) -> None:
    proc, sock = service["proc"], service["sock"]
    first = messages(sock, "READY=1")
    assert any("READY=1" in m for m in first)
    pings = [m for m in messages(sock, "WATCHDOG=1") if "WATCHDOG=1" in m]
    pings += [m for m in messages(sock, "WATCHDOG=1") if "WATCHDOG=1" in m]
    assert len(pings) >= 2
    proc.send_signal(15)
    assert proc.wait(timeout=2) == 0  # systemd would SIGKILL a service that lingers
    rest = []
    sock.settimeout(1)
    try:
        while True:
            rest.append(sock.recv(4096).decode())
    except TimeoutError:
        pass
    assert any("STOPPING=1" in m for m in rest)
    time.sleep(0.2)  # let the reader take the last bytes off the pty
    frames = service["reader"].frames
    assert len(frames) >= 2
    assert any(any(f) for f in frames[:-1])  # the table was lit
    assert frames[-1] == bytes(3 * LEDS)  # ... and every LED is off after SIGTERM
    err = proc.stderr.read()
    lines = [ln for ln in err.splitlines() if ln]
    assert lines and all(ln.startswith(("<3>", "<4>", "<6>", "<7>")) for ln in lines), err
    assert any(ln.startswith("<6>Table ready") for ln in lines)
    # the journal is a clean SQLite file with the game in it
    db = sqlite3.connect(service["journal"])
    try:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 0  # nobody joined
    finally:
        db.close()
    assert (
        not Path(str(service["journal"]) + "-wal").exists()
        or Path(str(service["journal"]) + "-wal").stat().st_size == 0
    )


def test_sighup_reloads_the_config(service) -> None:
    proc, sock = service["proc"], service["sock"]
    messages(sock, "READY=1")
    config: Path = service["config"]
    config.write_text(config.read_text().replace("brightness = 0.5", "brightness = 0.2"))
    proc.send_signal(1)
    after = messages(sock, "READY=1")
    assert any("RELOADING=1" in m for m in after)
    config.write_text(config.read_text().replace("brightness = 0.2", "brightness = 7"))
    proc.send_signal(1)
    messages(sock, "READY=1")
    proc.send_signal(15)
    assert proc.wait(timeout=2) == 0
    err = proc.stderr.read()
    assert "<6>config reloaded from" in err
    assert "<3>config not reloaded, keeping the running one:" in err and "brightness" in err


def test_a_storm_of_signals_neither_crashes_nor_hangs_the_service(service) -> None:
    """systemd sends SIGHUP on `systemctl reload` and SIGTERM on stop, at any moment. The
    handlers wake the main loop through its event queue: a `queue.Queue` there can deadlock
    or crash (RecursionError) when a handler runs while the loop's get() holds its lock.
    Thousands of reloads, then a stop: the service still stops within the 5 s systemd
    gives it."""
    proc, sock = service["proc"], service["sock"]
    messages(sock, "READY=1")
    heard: list[str] = []
    logged: list[str] = []
    # as systemd and journald do, read every notification and every log line at once
    threading.Thread(target=listen, args=(sock, heard), daemon=True).start()
    reader = threading.Thread(target=lambda: logged.extend(proc.stderr), daemon=True)
    reader.start()
    deadline = time.monotonic() + 3
    sent = 0
    while time.monotonic() < deadline and proc.poll() is None:
        proc.send_signal(1)
        sent += 1
    assert proc.poll() is None, "".join(logged)[-2000:]
    proc.send_signal(15)
    assert proc.wait(timeout=5) == 0
    reader.join(timeout=5)
    assert sent > 1000 and any("RELOADING=1" in m for m in heard)
    assert not any("Traceback" in line for line in logged)
    assert "Table stopped; lights off, journal closed." in logged[-1]


def listen(sock: socket.socket, into: list[str]) -> None:
    try:
        while True:
            into.append(sock.recv(4096).decode())
    except OSError:
        return


def test_a_bad_config_is_one_clear_line(tmp_path: Path) -> None:
    config = tmp_path / "tavola.toml"
    config.write_text(
        config_text("/dev/null", tmp_path / "j.db").replace('game = "strozzi"', 'game = "chess"')
    )
    proc = subprocess.run(
        [*TAVOLA, "run", "--config", str(config)], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert "game" in proc.stderr and "chess" in proc.stderr and str(config) in proc.stderr


SIGNAL_WHILE_LOCKED = """
import contextlib, os, signal, sys
from pathlib import Path
from apps import runtime
from apps.sim import ManualClock, demo_config

config = demo_config("strozzi", 3, journal=Path(sys.argv[1]), seed=1)
table = runtime.Appliance(config, clock=ManualClock(), button_thread=False)
signal.signal(signal.SIGTERM, lambda signum, frame: table.stop())
# the main loop inside the queue's get(), holding its lock, when the signal arrives
with getattr(table.events, "mutex", contextlib.nullcontext()):
    os.kill(os.getpid(), signal.SIGTERM)
    for _ in range(1000):  # the handler runs between these bytecodes
        pass
table.close()
print("stopped")
"""


def test_the_stop_signal_is_safe_while_the_main_loop_holds_its_queue(tmp_path: Path) -> None:
    """A SIGTERM handler puts STOP on the table's event queue. If that queue's put() took a
    lock its get() may hold (queue.Queue does), a signal arriving at that moment would
    deadlock the service until systemd kills it: the queue must be reentrant."""
    proc = subprocess.run(
        [sys.executable, "-c", SIGNAL_WHILE_LOCKED, str(tmp_path / "j.db")],
        capture_output=True,
        text=True,
        timeout=20,
        check=False,
    )
    assert proc.returncode == 0 and proc.stdout.strip() == "stopped", proc.stderr[-2000:]
