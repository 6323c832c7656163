"""The phone page: how fast a confirmed action reaches a page, and what the server costs.

- latency: an action confirmed at the table (the table's acknowledgement `#N seat S: ...`,
  said after the journal commit) -> the page's event stream delivers the snapshot that
  shows it; p50 / p99 / max over 1,000 actions on loopback, the table and the server in
  their own threads as in `tavola run` (buttons are events on the table's queue);
- CPU of 10 idle phones: a real `tavola run` (mocked pins, mock strip) waiting at the
  seating prompt, its CPU time over a window from /proc, with no page open and with 10
  event streams open (the difference is what the phones cost);
- first load: the bytes of the page, its script and its style, and of the first state;
- RSS: the same `tavola run` with `[web]` off and on.

Figures only, printed from one run; nothing is asserted.
"""

from __future__ import annotations

import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from apps.runtime import Appliance
from apps.sim import demo_config, demo_config_text
from apps.web.config import WebConfig
from apps.web.server import PhonePage
from hw.events import InputEvent

ACTIONS = 1000
PHONES = 10
IDLE_S = 20.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Stream:
    """An event stream as a page holds it; calls `on_event(view, received_at)`."""

    def __init__(self, port: int, on_event: Any = None) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.conn.request("GET", "/api/events")
        self.response = self.conn.getresponse()
        self.on_event = on_event
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        data: list[str] = []
        try:
            while True:
                line = self.response.fp.readline()
                if not line:
                    return
                text = line.decode().rstrip("\n")
                if text.startswith("data: "):
                    data.append(text[6:])
                elif text == "" and data:
                    at = time.perf_counter()
                    if self.on_event is not None:
                        self.on_event(json.loads("".join(data)), at)
                    data = []
        except (OSError, ValueError, AttributeError):  # closed under it: the bench is done
            return

    def close(self) -> None:
        self.conn.close()


def latency(tmp: Path) -> list[str]:
    """Confirmed at the table -> on the page, for ACTIONS actions."""
    config = demo_config("strozzi", 3, journal=tmp / "latency.db", seed=11)
    page = PhonePage(WebConfig(enabled=True, address="127.0.0.1", port=0), journal=tmp / "x.db")
    said: dict[str, float] = {}

    def say(text: str) -> None:
        if text.startswith("#"):
            said[text] = time.perf_counter()  # acknowledged: the journal has it

    table = Appliance(config, button_thread=False, say=say)
    page.attach(table)
    page.start()
    loop = threading.Thread(target=table.run, daemon=True)
    loop.start()
    delays: list[float] = []
    latest: dict[str, Any] = {}
    arrived = threading.Condition()

    def on_event(view: dict[str, Any], at: float) -> None:
        last = view["public"].get("last")
        if last in said:  # measured once; the same words in a later game are said again
            delays.append(at - said.pop(last))
        with arrived:
            latest["view"] = view
            arrived.notify_all()

    stream = Stream(page.port, on_event)

    def press(seat: str) -> None:
        now = time.monotonic()
        table.events.put(InputEvent(seat, "select", "press", now))
        table.events.put(InputEvent(seat, "select", "release", now))

    started = time.perf_counter()
    try:
        while len(delays) < ACTIONS and time.perf_counter() - started < 600:
            with arrived:
                arrived.wait_for(lambda: "view" in latest, timeout=5)
                view = latest.pop("view", None)
            if view is None:
                press("1")
                continue
            pub = view["public"]
            if pub["mode"] == "seating":
                for seat in ("1", "2", "3"):
                    if seat not in pub.get("joined", []):
                        press(seat)
                now = time.monotonic()
                table.events.put(InputEvent("table", "menu", "press", now))
                with arrived:  # the views on the way (one seat joined...) are not acted on
                    arrived.wait_for(
                        lambda: latest.get("view", {}).get("public", {}).get("mode") == "setup",
                        timeout=5,
                    )
                continue
            menu = pub["menu"]
            seat = menu["seat"] if menu and menu["seat"] != "*" else "1"
            press(seat)
    finally:
        stream.close()
        page.stop()
        table.stop()
        loop.join(timeout=10)
        table.close()
    ms = sorted(d * 1000 for d in delays)
    p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))]
    return [
        f"confirmed at the table -> page updated, {len(ms)} actions on loopback: "
        f"p50 {statistics.median(ms):.1f} ms, p99 {p99:.1f} ms, max {ms[-1]:.1f} ms "
        "(target p99 <= 100 ms)"
    ]


def _appliance(tmp: Path, *, web: bool) -> tuple[subprocess.Popen[bytes], int]:
    port = _free_port()
    text = demo_config_text("strozzi", 3, journal=tmp / f"run-{web}.db", seed=1)
    if web:
        text += f'\n[web]\nenabled = true\naddress = "127.0.0.1"\nport = {port}\n'
    path = tmp / f"run-{web}.toml"
    path.write_text(text)
    log = (tmp / f"run-{web}.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "apps.cli", "run", "--config", str(path)],
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    deadline = time.monotonic() + 60
    while b"Table ready" not in (tmp / f"run-{web}.log").read_bytes():
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError((tmp / f"run-{web}.log").read_text())
        time.sleep(0.05)
    time.sleep(1.0)  # imports done, first frames pushed
    return proc, port


def _cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _cpu_over(pid: int, seconds: float) -> float:
    """Per cent of one core the process used over `seconds`."""
    a, t = _cpu_s(pid), time.monotonic()
    time.sleep(seconds)
    return 100 * (_cpu_s(pid) - a) / (time.monotonic() - t)


def _stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def footprint(tmp: Path) -> list[str]:
    """CPU of idle phones, first-load bytes, RSS with and without the server."""
    off, _ = _appliance(tmp, web=False)
    try:
        rss_off = _rss_mb(off.pid)
        cpu_off = _cpu_over(off.pid, IDLE_S / 2)
    finally:
        _stop(off)
    on, port = _appliance(tmp, web=True)
    try:
        sizes = {}
        for path in ("/", "/static/app.js", "/static/style.css", "/api/state"):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            conn.request("GET", path)
            sizes[path] = len(conn.getresponse().read())
            conn.close()
        rss_on = _rss_mb(on.pid)
        cpu_none = _cpu_over(on.pid, IDLE_S / 2)
        streams = [Stream(port) for _ in range(PHONES)]
        time.sleep(1.0)
        cpu_phones = _cpu_over(on.pid, IDLE_S)
        rss_phones = _rss_mb(on.pid)
        for s in streams:
            s.close()
    finally:
        _stop(on)
    page = sizes["/"] + sizes["/static/app.js"] + sizes["/static/style.css"]
    return [
        f"first load: page {page / 1024:.1f} KB (html {sizes['/']} B, script "
        f"{sizes['/static/app.js']} B, style {sizes['/static/style.css']} B) + state "
        f"{sizes['/api/state'] / 1024:.1f} KB = {(page + sizes['/api/state']) / 1024:.1f} KB "
        "(target <= 200 KB)",
        f"CPU at the seating prompt: {cpu_off:.2f} % of a core without the server, "
        f"{cpu_none:.2f} % with it and no page, {cpu_phones:.2f} % with {PHONES} idle pages "
        f"open: the phones cost {cpu_phones - cpu_none:+.2f} % (target <= 1 %)",
        f"RSS of tavola run: {rss_off:.1f} MB without [web], {rss_on:.1f} MB with it, "
        f"{rss_phones:.1f} MB with {PHONES} pages open (target <= 64 MB)",
    ]


def run() -> list[str]:
    with tempfile.TemporaryDirectory(prefix="tavola-bench-web-") as tmp:
        return latency(Path(tmp)) + footprint(Path(tmp))


if __name__ == "__main__":
    for line in run():
        print(line)
