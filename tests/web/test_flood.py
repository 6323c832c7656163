"""Idle and slow connections cannot take the table down.

A real `tavola run` process with `[web]` on loopback, its descriptor limit 1024 soft and
hard (as a unit's `LimitNOFILE=1024` would set it), its seat buttons pressed through the
emulated table microcontroller (tests/web/appliance.py). Against it: 2,000 sockets that
send a request's headers a byte a second and never finish them, and 100 event-stream
openers, from other loopback addresses (127.0.10.x, 127.0.20.x), each reopened when
the server closes it. Before: the server accepted until the process ran out of
descriptors, and the table died at its next file open.
"""

from __future__ import annotations

import collections
import contextlib
import os
import resource
import selectors
import socket
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from apps.journal import Journal

from .appliance import Running, appliance, pair

SLOW = 2000
STREAMS = 100
HEAD = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
EVENTS = b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"


class Flood:
    """The other clients, in one thread: `SLOW` sockets trickling headers and `STREAMS`
    event-stream openers, reopened at most `rate` a second once the server closes them;
    it also counts the appliance process's open descriptors (/proc)."""

    def __init__(self, port: int, pid: int, rate: float = 300.0, most_s: float = 240.0) -> None:
        self.port, self.pid, self.rate, self.most_s = port, pid, rate, most_s
        self.selector = selectors.DefaultSelector()
        self.trickle: collections.deque[tuple[float, socket.socket]] = collections.deque()
        self.reopen: collections.deque[str] = collections.deque()  # "slow" or "stream"
        self.opened = self.failed = self.closed_by_server = self.open_now = self.most_open = 0
        self.most_fds = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=30)
        for key in list(self.selector.get_map().values()):
            key.fileobj.close()  # type: ignore[union-attr]
        self.selector.close()

    def _open(self, kind: str, n: int) -> None:
        source = f"127.0.10.{2 + n % 20}" if kind == "slow" else f"127.0.20.{2 + n % 10}"
        sock = socket.socket()
        try:
            sock.bind((source, 0))
            sock.settimeout(0.2)
            sock.connect(("127.0.0.1", self.port))
            sock.sendall(HEAD if kind == "slow" else EVENTS)
            sock.setblocking(False)
        except OSError:
            sock.close()
            self.failed += 1
            self.reopen.append(kind)
            return
        self.opened += 1
        self.open_now += 1
        self.most_open = max(self.most_open, self.open_now)
        self.selector.register(sock, selectors.EVENT_READ, kind)
        if kind == "slow":
            self.trickle.append((time.monotonic() + 1.0, sock))

    def _run(self) -> None:
        started = time.monotonic()
        for n in range(SLOW + STREAMS):  # at once, as the harness did
            self._open("slow" if n < SLOW else "stream", n)
        budget, last, n = 0.0, time.monotonic(), 0
        while not self._stop.is_set() and time.monotonic() - started < self.most_s:
            for key, _ in self.selector.select(timeout=0.05):
                sock: Any = key.fileobj
                try:
                    data = sock.recv(65536)
                except BlockingIOError:
                    continue
                except OSError:
                    data = b""
                if not data:  # the server closed it: count, and come back
                    self.selector.unregister(sock)
                    sock.close()
                    self.open_now -= 1
                    self.closed_by_server += 1
                    self.reopen.append(key.data)
            now = time.monotonic()
            while self.trickle and self.trickle[0][0] <= now:
                _, sock = self.trickle.popleft()
                if sock.fileno() < 0:
                    continue
                try:
                    sock.send(b"a")
                except OSError:
                    continue
                self.trickle.append((now + 1.0, sock))
            budget = min(self.rate, budget + (now - last) * self.rate)
            last = now
            while self.reopen and budget >= 1:
                budget -= 1
                n += 1
                self._open(self.reopen.popleft(), n)
            with contextlib.suppress(OSError):
                self.most_fds = max(self.most_fds, len(os.listdir(f"/proc/{self.pid}/fd")))


def allow_sockets(count: int) -> None:
    """This process's own descriptor limit raised for `count` client sockets."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < count:
        if hard != resource.RLIM_INFINITY and hard < count:
            pytest.skip(f"needs {count} open files, the hard limit is {hard}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (count, hard))


def play_from_the_buttons(running: Running, most_presses: int = 2000) -> dict[str, Any]:
    """A whole game from the seat buttons: select at the seat the menu waits for."""
    view = running.start_game()
    deadline = time.monotonic() + 180
    for _ in range(most_presses):
        pub = view["public"]
        if pub["mode"] == "over":
            return view
        assert time.monotonic() < deadline, "the game took too long"
        menu = pub["menu"]
        seat = menu["seat"] if menu and menu["seat"] not in ("*", None) else "1"
        running.press(seat, "select")
        version = pub["version"]
        view = running.wait(lambda v, version=version: v["public"]["version"] != version)
    raise AssertionError("the game did not end")


def test_a_whole_game_is_played_and_journalled_under_2000_slow_connections(
    tmp_path: Path,
) -> None:
    allow_sockets(SLOW + STREAMS + 512)
    with appliance(tmp_path, open_files=1024) as running:
        phones = {seat: pair(running, seat) for seat in ("1", "2", "3")}
        port = int(running.base.rsplit(":", 1)[1])
        flood = Flood(port, running.proc.pid)
        flood.start()
        try:
            deadline = time.monotonic() + 60
            while flood.opened + flood.failed < SLOW + STREAMS and time.monotonic() < deadline:
                time.sleep(0.1)
            started = time.monotonic()
            view = play_from_the_buttons(running)
            played = time.monotonic() - started
            answers = []
            for phone in phones.values():
                asked = time.monotonic()
                assert phone.state()["you"]["paired"]
                answers.append(time.monotonic() - asked)
        finally:
            flood.stop()
        print(
            f"game over in {played:.1f} s; connections opened {flood.opened}, closed by the "
            f"server {flood.closed_by_server}, failed {flood.failed}, most open at once "
            f"{flood.most_open}; the appliance's descriptors at most {flood.most_fds}; "
            f"paired phones answered in {max(answers) * 1000:.0f} ms at most"
        )
        assert running.proc.poll() is None, running.log_text()
        assert max(answers) < 1.0
        assert flood.opened >= SLOW + STREAMS
        assert flood.most_fds < 1024
        log = running.log.read_text(errors="replace")
    assert "Too many open files" not in log and "Traceback" not in log
    last = view["public"]["last"]  # "#145 seat 3: pass": the game's last action
    journal = Journal(tmp_path / "journal.db", readonly=True)
    try:
        (game,) = journal.history(limit=5)
        record = journal.load(game.id)
    finally:
        journal.close()
    assert record.status == "finished"
    assert len(record.actions) == int(last[1:].split()[0]), (last, len(record.actions))
