"""A running `tavola run` with the phone page, on a mocked table, and a real Chromium.

The appliance is a real subprocess started from a config file, as systemd starts it:
its seat buttons are mocked GPIO pins, and the presses arrive over a real serial
device, the table microcontroller's protocol on a pty (firmware_bridge's emulator),
so every press goes through the same queue, the same pairing tap and the same table
as a button on a Pi. What the mock cannot show: debouncing on real contacts.

The browser is Debian's Chromium driven by Playwright (no browser download).
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import random
import resource
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from apps.sim import demo_config_text
from firmware_bridge.emulator import McuEmulator

from .conftest import Phone, to_lay_out

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PLAYERS = {"strozzi": 3, "florence": 2, "strada_romana": 3}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Running:
    """The appliance process, its buttons (the emulated board) and its address."""

    proc: subprocess.Popen[str]
    mcu: McuEmulator
    base: str
    log: Path

    def press(self, seat: str, button: str = "select", *, hold: bool = False) -> None:
        """A press at the table, as the microcontroller reports it."""
        assert self.mcu.press(seat, button, "press")
        if hold:
            time.sleep(0.05)
            assert self.mcu.press(seat, button, "long_press")
        time.sleep(0.05)
        assert self.mcu.press(seat, button, "release")

    def phone(self) -> Phone:
        return Phone(self.base)

    def wait(self, predicate: Any, phone: Phone | None = None, timeout: float = 30) -> Any:
        phone = phone or self.phone()
        deadline = time.monotonic() + timeout
        view: Any = None
        while time.monotonic() < deadline:
            status, view = phone.get("/api/state")
            if status == 200 and predicate(view):
                return view
            time.sleep(0.05)
        raise AssertionError(f"never seen; last: {json.dumps(view)[:1500]}\n{self.log_text()}")

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")[-4000:]

    def start_game(self) -> dict[str, Any]:
        """Every seat joins with its button, menu starts, select: play begins."""
        view = self.wait(lambda v: v["public"]["mode"] == "seating")
        players = PLAYERS[view["public"]["game"]]
        for seat in range(1, players + 1):
            self.press(str(seat))
        self.press("table", "menu")
        self.wait(to_lay_out)
        self.press("1")
        return self.wait(lambda v: v["public"]["mode"] == "playing")


@contextlib.contextmanager
def appliance(
    tmp: Path,
    game: str = "strozzi",
    *,
    seed: int | None = 3,
    phone: int = 0,
    component_check: bool = False,
    open_files: int | None = None,
) -> Iterator[Running]:
    """`tavola run` on a mocked table with `[web]` on loopback and an emulated board (the
    last `phone` seats without buttons; `component_check`: offered before the game;
    `open_files`: the process's descriptor limit, soft and hard, as a unit's
    `LimitNOFILE=` sets it)."""
    link = tmp / "tavola-mcu"
    mcu = McuEmulator(link)
    port = free_port()
    text = demo_config_text(
        game,
        PLAYERS[game],
        journal=tmp / "journal.db",
        seed=seed,
        phone=phone,
        component_check=component_check,
        web={"enabled": True, "address": "127.0.0.1", "port": port},
    )
    text += f'\n[mcu]\npath = "{link}"\n'
    config = tmp / "tavola.toml"
    config.write_text(text)
    log = tmp / "tavola.log"
    with log.open("w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "apps.cli", "run", "--config", str(config)],
            stdout=out,
            stderr=subprocess.STDOUT,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
            preexec_fn=None if open_files is None else partial(_limit_files, open_files),
        )
    running = Running(proc, mcu, f"http://127.0.0.1:{port}", log)
    try:
        deadline = time.monotonic() + 60
        while "Table ready" not in log.read_text() or not mcu.connected:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"tavola run did not start:\n{running.log_text()}")
            time.sleep(0.05)
        yield running
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        mcu.close()


def confirm(running: Running, seat: str, at: str | None = None) -> None:
    """At `at` (the seat itself by default; "table" for a phone seat): the hold that
    makes the table ask, then the tap that answers yes."""
    at = at or seat
    button = "menu" if at == "table" else "select"
    running.press(at, button, hold=True)
    running.wait(lambda v: v["public"]["pairing"]["asking"] == seat)
    running.press(at, button)


def _limit_files(count: int) -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (count, count))


def pair(running: Running, seat: str, phone: Phone | None = None) -> Phone:
    """Pair an HTTP phone with `seat`: it asks, the seat holds select, then confirms."""
    phone = phone or running.phone()
    status, answer = phone.post("/api/pair")
    assert status == 201, answer
    running.wait(lambda v: v["public"]["pairing"]["open"])
    confirm(running, seat)
    running.wait(lambda v: v["you"]["paired"], phone)
    return phone


class Stream:
    """A page's event stream (/api/events) read line by line, with the phone's cookie."""

    def __init__(self, running: Running, phone: Phone) -> None:
        port = int(running.base.rsplit(":", 1)[1])
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=3)
        cookie = "; ".join(f"{c.name}={c.value}" for c in phone.jar)
        self.conn.request("GET", "/api/events", headers={"Cookie": cookie})
        self.response = self.conn.getresponse()
        assert self.response.status == 200

    def next(self) -> dict[str, Any] | None:
        """The next event's view; None when none came for a while."""
        data: list[str] = []
        try:
            while True:
                line = self.response.fp.readline().decode()
                if not line:
                    return None
                line = line.rstrip("\n")
                if line.startswith("data: "):
                    data.append(line[6:])
                elif line == "" and data:
                    return dict(json.loads("".join(data)))
        except (TimeoutError, OSError):
            return None

    def close(self) -> None:
        self.conn.close()


def play_to_the_end(running: Running, phones: dict[str, Phone], seed: int = 1) -> dict[str, Any]:
    """Every seat plays from its phone (random choices among the menu's words) to the end,
    reading the table from its event stream as the page does (no polling)."""
    rng = random.Random(seed)
    any_phone = next(iter(phones.values()))
    stream = Stream(running, any_phone)
    try:
        view = any_phone.state()
        for _ in range(20_000):
            pub = view["public"]
            if pub["mode"] == "over":
                return view
            act(pub, phones, any_phone, rng)
            got = stream.next()
            if got is None:  # nothing changed (a refused press): a new stream sends the table
                stream.close()
                stream = Stream(running, any_phone)
                got = stream.next()
            assert got is not None
            view = got
    finally:
        stream.close()
    raise AssertionError("the game did not end")


def act(
    pub: dict[str, Any], phones: dict[str, Phone], any_phone: Phone, rng: random.Random
) -> None:
    """One press from the phone whose turn it is."""
    menu = pub["menu"]
    if pub["mode"] == "scoring" or (pub["mode"] == "playing" and not menu):
        any_phone.post("/api/command", {"command": "select"})  # draw, or skip the show
        return
    if not menu:
        return
    seat = menu["seat"] if menu["seat"] in phones else next(iter(phones))
    board = pub["board"]
    if menu.get("private"):  # only its seat's phone sees the words
        mine = phones[seat].state()
        menu = (mine.get("private") or {}).get("menu")
        board = mine["public"]["board"]
        if not menu:
            return
    index = rng.randrange(len(menu["options"]))
    phones[seat].post("/api/command", {"command": "choose", "index": index, "board": board})


def browser(playwright: Any) -> Any:
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
