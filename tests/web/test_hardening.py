"""The phone page under abuse from the LAN: the rate limiter forgets only buckets that
have refilled, and a nested or malformed request is one clear refusal and at most a
short line in the log.

The limiter is checked alone with a manual clock; the requests go to a real `tavola
run` (tests/web/appliance.py). Clients on other addresses bind their sockets to other
loopback addresses (127.0.0.0/8); test_lan_guest.py floods the process with them.
"""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path

import pytest

from apps.web.server import MAX_CLIENTS, Limiter, Refused

from .appliance import appliance, pair


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
