"""The phone page under abuse from the LAN: the rate limiter cannot be wiped, a nested
or malformed request is one clear refusal and at most a short line in the log, event
streams are shared fairly and freed when their page goes.

Each HTTP test runs the `served(run=True)` table: the real aiohttp server on loopback
beside a table whose main loop runs in a thread, as `tavola run` runs it. Clients on
other addresses bind their sockets to other loopback addresses (127.0.0.0/8).
"""

from __future__ import annotations

import json
import socket
import threading
import time
from pathlib import Path

import pytest

from apps.web.server import LIMITS, MAX_CLIENTS, Limiter, Refused

from .appliance import appliance, pair
from .conftest import Served


def raw(port: int, data: bytes, *, source: str = "127.0.0.1", timeout: float = 5) -> bytes:
    """Send `data` from `source` and read the answer until the server closes."""
    with socket.create_connection(
        ("127.0.0.1", port), timeout=timeout, source_address=(source, 0)
    ) as conn:
        conn.sendall(data)
        chunks = []
        while True:
            chunk = conn.recv(65536)
            if not chunk:
                break
            chunks.append(chunk)
    return b"".join(chunks)


def get(path: str) -> bytes:
    return f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode()


def status_of(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1])


def address(i: int) -> str:
    """The i-th client address on loopback, never 127.0.0.1 (the test's own phone)."""
    return f"127.{1 + i // 65000}.{(i % 65000) // 250}.{2 + i % 250}"


# --- the rate limiter -----------------------------------------------------------------------
def test_many_other_addresses_do_not_wipe_a_limited_ones_bucket() -> None:
    now = [0.0]
    limiter = Limiter({"pair": (0.01, 3.0), "read": (20.0, 60.0)}, clock=lambda: now[0])
    for _ in range(3):
        limiter.check("10.0.0.66", "pair")
    with pytest.raises(Refused, match="too many requests"):
        limiter.check("10.0.0.66", "pair")
    refused = 0
    for i in range(MAX_CLIENTS + 1000):  # about 5 s of one new address a millisecond
        now[0] += 0.001
        try:
            limiter.check(address(i), "read")
        except Refused:
            refused += 1
        assert len(limiter.buckets) <= MAX_CLIENTS
    with pytest.raises(Refused, match="too many requests"):
        limiter.check("10.0.0.66", "pair")  # still limited: no fresh burst
    assert refused < 100  # the others' buckets refill in 50 ms and make room


def test_when_no_bucket_has_refilled_a_new_client_waits_not_the_limited_one() -> None:
    now = [0.0]
    limiter = Limiter({"read": (0.001, 2.0)}, clock=lambda: now[0], max_clients=50)
    for _ in range(2):
        limiter.check("10.0.0.66", "read")
    for i in range(49):
        limiter.check(address(i), "read")  # each bucket now drains for 1000 s
    with pytest.raises(Refused, match="too many clients"):
        limiter.check("10.9.9.9", "read")
    with pytest.raises(Refused, match="too many requests"):
        limiter.check("10.0.0.66", "read")
    now[0] += 2000  # every bucket has refilled: they are forgotten, the newcomer gets in
    limiter.check("10.9.9.9", "read")
    assert len(limiter.buckets) == 1


def test_requests_from_thousands_of_addresses_leave_a_limited_address_limited(served) -> None:
    """Before: beyond 4,096 buckets the limiter forgot them all, and a limited address
    got a fresh burst. Over HTTP from 4,200 loopback addresses."""
    limits = {**LIMITS, "pair": (0.01, 3.0)}
    s: Served = served(run=True, limits=limits)
    port = s.page.port
    pair = (
        b"POST /api/pair HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Tavola: 1\r\n"
        b"Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"
    )
    answers = [status_of(raw(port, pair)) for _ in range(4)]
    assert answers == [201, 409, 409, 429]  # one window at a time, then the limit
    statuses: list[int] = []
    lock = threading.Lock()

    def flood(part: int) -> None:
        for i in range(part, 4200, 4):
            answer = status_of(raw(port, get("/api/none"), source=address(i)))
            with lock:
                statuses.append(answer)

    started = time.monotonic()
    threads = [threading.Thread(target=flood, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    print(f"4,200 addresses in {time.monotonic() - started:.1f} s")
    assert len(statuses) == 4200 and set(statuses) <= {404, 429}
    assert len(s.page.limiter.buckets) <= MAX_CLIENTS
    assert status_of(raw(port, pair)) == 429  # not a fresh burst


# --- nested and malformed requests ------------------------------------------------------------
POSTS = ("/api/pair", "/api/unpair", "/api/command", "/api/settings", "/api/components")
MALFORMED = (
    b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nno colon in this header\r\n\r\n",
    b"GET / HTTP/9.x\r\nHost: 127.0.0.1\r\n\r\n",
    b"GET /\x00 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    b"POST /api/pair HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: x\r\n\r\n",
)


def test_nested_json_is_refused_on_every_post_route_and_garbage_is_logged_briefly(
    tmp_path: Path,
) -> None:
    """A real `tavola run` (its own log file): before, JSON nested 4,000 deep made every
    POST route answer 500 and log a traceback, and each malformed request logged
    aiohttp's traceback, without limit."""
    with appliance(tmp_path) as running:
        phone = pair(running, "1")  # the routes that need a paired phone reach the body
        for body in (b"[" * 4000, b'{"a": ' + b"[" * 40 + b"]" * 40 + b"}"):
            for path in POSTS:
                status, _, answer = phone.request("POST", path, raw=body, headers={"X-Tavola": "1"})
                assert status == 400, (path, answer)
                assert json.loads(answer) == {
                    "error": "the body is JSON nested deeper than 32 levels"
                }
        port = int(running.base.rsplit(":", 1)[1])
        started = time.monotonic()
        for i in range(1000):
            assert status_of(raw(port, MALFORMED[i % len(MALFORMED)])) == 400
        print(f"1,000 malformed requests in {time.monotonic() - started:.1f} s")
        assert phone.state()["you"]["seat"] == "1"  # the page goes on
        log = running.log.read_text(errors="replace")
    assert "Traceback" not in log
    lines = [line for line in log.splitlines() if "Error handling request" in line]
    print("\n".join(lines))
    assert 1 <= len(lines) <= 10
    assert all(len(line) < 400 for line in lines)


# --- connections ------------------------------------------------------------------------------
def test_a_connection_that_never_finishes_its_headers_is_closed(served) -> None:
    s: Served = served(run=True)
    s.page.connections.idle_s = 1.0  # 10 s on the appliance
    with socket.create_connection(("127.0.0.1", s.page.port), timeout=5) as conn:
        conn.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        started = time.monotonic()
        for _ in range(50):  # a byte every 0.1 s: activity, but never a whole request
            try:
                conn.sendall(b"a")
            except OSError:
                break
            conn.settimeout(0.1)
            try:
                if conn.recv(1024) == b"":
                    break
            except TimeoutError:
                pass
        closed = time.monotonic() - started
    assert closed < 3.0, f"still open after {closed:.1f} s"


def test_one_address_holds_at_most_its_share_of_connections(served) -> None:
    """The 17th connection from one address closes its oldest idle one; another address
    is served all along."""
    from apps.web.connections import PER_CLIENT

    s: Served = served(run=True)
    port = s.page.port
    held = [
        socket.create_connection(("127.0.0.1", port), source_address=("127.0.5.5", 0))
        for _ in range(PER_CLIENT + 4)
    ]
    try:
        deadline = time.monotonic() + 5
        while len(s.page.connections.by_client.get("127.0.5.5", {})) != PER_CLIENT:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        held[0].settimeout(2)
        assert held[0].recv(1024) == b""  # the oldest was closed to make room
        assert status_of(raw(port, get("/api/state"))) == 200  # 127.0.0.1 is served
    finally:
        for conn in held:
            conn.close()


# --- event streams ----------------------------------------------------------------------------
def open_stream(port: int, source: str = "127.0.0.1") -> tuple[socket.socket, int]:
    """An event stream's socket and its status."""
    conn = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))
    conn.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    head = b""
    while b"\r\n" not in head:
        chunk = conn.recv(1024)
        if not chunk:
            break
        head += chunk
    return conn, status_of(head)


def test_one_address_holds_at_most_four_event_streams(served) -> None:
    """Before: one client could hold all 64."""
    s: Served = served(run=True)
    streams = [open_stream(s.page.port) for _ in range(5)]
    try:
        assert [status for _, status in streams] == [200, 200, 200, 200, 503]
        streams.append(open_stream(s.page.port, "127.0.6.6"))
        assert streams[-1][1] == 200  # another address has its own four
    finally:
        for conn, _ in streams:
            conn.close()


def test_a_closed_stream_frees_its_slot_at_once(served) -> None:
    """Before: a closed stream kept its slot until the keep-alive write failed (25 s)."""
    from apps.web.server import MAX_STREAMS

    s: Served = served(run=True)
    port = s.page.port
    streams = [open_stream(port, f"127.0.7.{2 + i // 4}") for i in range(MAX_STREAMS)]
    assert all(status == 200 for _, status in streams)
    assert open_stream(port, "127.0.8.8")[1] == 503  # every slot taken
    for conn, _ in streams:
        conn.close()
    started = time.monotonic()
    while s.page.streams and time.monotonic() - started < 5:
        time.sleep(0.01)
    freed = time.monotonic() - started
    print(f"{MAX_STREAMS} closed streams freed in {freed * 1000:.0f} ms")
    assert s.page.streams == 0 and freed < 1.0
    conn, status = open_stream(port, "127.0.8.8")
    conn.close()
    assert status == 200
