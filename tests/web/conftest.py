"""Fixtures of the phone page's tests: a mocked table with the real server on loopback.

`served` is a table driven from the test's own thread (ButtonBot presses mocked pins,
then `watch()` publishes as the main loop would); `running` runs the table's main loop
in a thread, as `tavola run` does, and its buttons are events on the table's queue (the
hardware edge: a mock stands in for the GPIO thread, it cannot show debouncing).
Requests are real HTTP from a client with its own cookie jar, as a phone's browser.
"""

from __future__ import annotations

import http.client
import http.cookiejar
import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from apps.runtime import Appliance
from apps.sim import ButtonBot, ManualClock, demo_config
from apps.web.config import WebConfig
from apps.web.server import PhonePage
from hw.events import InputEvent

#: the tests' own rate: high enough for a test reading after every press (the rate
#: limit's own test passes the appliance's LIMITS)
UNLIMITED = {kind: (1e6, 1e6) for kind in ("read", "write", "pair")}


@dataclass
class Phone:
    """A browser on the LAN: its own cookies, real HTTP."""

    base: str
    jar: http.cookiejar.CookieJar = field(default_factory=http.cookiejar.CookieJar)

    def __post_init__(self) -> None:
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        headers: dict[str, str] | None = None,
        raw: bytes | None = None,
    ) -> tuple[int, dict[str, str], bytes]:
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        h = {"Content-Type": "application/json"} if data is not None else {}
        h.update(headers or {})
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=h)
        try:
            with self.opener.open(req, timeout=20) as r:
                return r.status, dict(r.headers), r.read()
        except urllib.error.HTTPError as e:
            return e.code, dict(e.headers), e.read()

    def get(self, path: str) -> tuple[int, Any]:
        status, _, body = self.request("GET", path)
        return status, json.loads(body)

    def post(self, path: str, body: Any = None, **kw: Any) -> tuple[int, Any]:
        headers = {"X-Tavola": "1", **kw.pop("headers", {})}
        status, _, raw = self.request("POST", path, {} if body is None else body, headers=headers)
        return status, json.loads(raw)

    def state(self) -> dict[str, Any]:
        status, view = self.get("/api/state")
        assert status == 200
        return view


@dataclass
class Served:
    table: Appliance
    page: PhonePage
    clock: Callable[[], float]
    bot: ButtonBot | None
    base: str

    def phone(self) -> Phone:
        return Phone(self.base)

    def press(self, seat: str, button: str, *, hold: bool = False) -> None:
        """Buttons at the table (running tables): the events the GPIO thread would queue."""
        now = time.monotonic()
        q = self.table.events
        q.put(InputEvent(seat, button, "press", now))
        if hold:
            q.put(InputEvent(seat, button, "long_press", now + 0.7))
        q.put(InputEvent(seat, button, "release", now + (0.8 if hold else 0.05)))

    def wait(self, predicate: Callable[[dict[str, Any]], Any], phone: Phone | None = None) -> Any:
        """The first view (as `phone`, or an unpaired one) for which `predicate` holds."""
        phone = phone or self.phone()
        deadline = time.monotonic() + 20
        view: dict[str, Any] = {}
        while time.monotonic() < deadline:
            status, view = phone.get("/api/state")
            if status == 200 and predicate(view):
                return view
            time.sleep(0.02)
        raise AssertionError(f"never seen; last view: {json.dumps(view)[:2000]}")

    def pair(self, seat: str) -> Phone:
        """A phone paired with `seat` at the table: a hold of select there asks, a tap
        of select confirms."""
        phone = self.phone()
        status, answer = phone.post("/api/pair")
        assert status == 201, answer
        self.wait(lambda v: v["public"]["pairing"]["open"])
        self.press(seat, "select", hold=True)
        self.wait(lambda v: v["public"]["pairing"]["asking"] == seat)
        self.press(seat, "select")
        self.wait(lambda v: v["you"]["paired"], phone)
        return phone


def to_lay_out(view: dict[str, Any]) -> bool:
    """The setup's draws are made and the table waits for the board to be laid out: a
    menu with nothing to decide, any seat goes on."""
    pub = view["public"]
    return pub["mode"] == "setup" and bool(pub["menu"]) and pub["menu"]["kind"] == "go_on"


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """Debian's Chromium, driven by Playwright (`playwright install` cannot download here)."""
    from playwright.sync_api import sync_playwright

    from .appliance import browser

    with sync_playwright() as p:
        b = browser(p)
        yield b
        b.close()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Callable[..., Served]]:
    made: list[tuple[Appliance, PhonePage, threading.Thread | None]] = []

    def make(
        game: str = "strozzi",
        players: int = 3,
        *,
        seed: int = 3,
        chance: str = "app",
        run: bool = False,
        names: tuple[str, ...] = (),
        limits: dict[str, tuple[float, float]] | None = None,
        options: dict[str, Any] | None = None,
        phone: int = 0,
        one_button: int = 0,
    ) -> Served:
        journal = tmp_path / f"{game}-{len(made)}.db"
        config = demo_config(
            game,
            players,
            journal=journal,
            seed=seed,
            chance=chance,
            names=names,
            options=options,
            phone=phone,
            one_button=one_button,
        )
        page = PhonePage(
            WebConfig(enabled=True, address="127.0.0.1", port=0),
            journal=journal,
            limits=limits or UNLIMITED,
        )
        clock: Callable[[], float]
        if run:
            clock = time.monotonic
            table = Appliance(config, button_thread=False)
        else:
            clock = ManualClock()
            table = Appliance(config, clock=clock, button_thread=False)
        page.attach(table)
        page.start()
        thread = None
        bot = None
        if run:
            thread = threading.Thread(target=table.run, daemon=True)
            thread.start()
            deadline = time.monotonic() + 20
            while page.snapshots.latest.version == 0 and time.monotonic() < deadline:
                time.sleep(0.01)  # the first snapshot (before it, the state answers 503)
        else:
            table.app.start()
            table.app.tick()
            table.watch()
            assert isinstance(clock, ManualClock)
            bot = ButtonBot(table, clock, seed)
        made.append((table, page, thread))
        return Served(table, page, clock, bot, f"http://127.0.0.1:{page.port}")

    yield make
    for table, page, thread in made:
        page.stop()
        if thread is not None:
            table.stop()
            thread.join(timeout=10)
        table.close()


def read_events(
    port: int, count: int, *, headers: dict[str, str] | None = None, timeout: float = 20
) -> list[tuple[str | None, dict[str, Any]]]:
    """The first `count` server-sent events of /api/events: (id, data)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    conn.request("GET", "/api/events", headers=headers or {})
    response = conn.getresponse()
    assert response.status == 200
    assert response.getheader("Content-Type") == "text/event-stream"
    events: list[tuple[str | None, dict[str, Any]]] = []
    event_id: str | None = None
    data: list[str] = []
    try:
        while len(events) < count:
            line = response.fp.readline().decode()
            if not line:
                break
            line = line.rstrip("\n")
            if line.startswith("id: "):
                event_id = line[4:]
            elif line.startswith("data: "):
                data.append(line[6:])
            elif line == "" and data:
                events.append((event_id, json.loads("\n".join(data))))
                data = []
    finally:
        conn.close()
    return events
