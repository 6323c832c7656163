"""A guest on the LAN against a real `tavola run`: the rate limiter cannot be wiped, a
slow or hoarding client holds nothing for long, event streams are shared and freed at
once, and a phone cannot keep a pairing window open for somebody's next hold.

Each test starts the appliance as systemd would (tests/web/appliance.py): the real
process with `[web]` on loopback, its limits the shipped ones, its seat buttons pressed
through the emulated table microcontroller. Other clients bind their sockets to other
loopback addresses (127.0.0.0/8), so the server sees them as other machines.
"""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path

from apps.web.connections import IDLE_S, PER_CLIENT
from apps.web.server import LIMITS, MAX_STREAMS, STREAMS_PER_CLIENT

from .appliance import appliance
from .test_hardening import address, get, open_stream, raw, status_of

PAIR = (
    b"POST /api/pair HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Tavola: 1\r\n"
    b"Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"
)
GUEST = "127.0.9.9"  # the limited address; 127.0.0.1 is the test's own phone


def test_thousands_of_other_addresses_do_not_give_a_limited_one_a_fresh_burst(
    tmp_path: Path,
) -> None:
    """Before: beyond 4,096 buckets the limiter forgot them all, and requests from
    ~4,200 other addresses (about 4 s) gave a limited address a fresh burst."""
    rate, burst = LIMITS["pair"]
    with appliance(tmp_path) as running:
        port = int(running.base.rsplit(":", 1)[1])
        answers = [status_of(raw(port, PAIR, source=GUEST)) for _ in range(int(burst) + 2)]
        assert answers[0] == 201 and 429 in answers  # the burst is spent
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
            t.join(timeout=180)
        after = [status_of(raw(port, PAIR, source=GUEST)) for _ in range(int(burst))]
        took = time.monotonic() - started
        refilled = int(rate * took) + 1  # what the bucket earns meanwhile, rounded up
        print(f"4,200 addresses in {took:.1f} s; after them: {after}")
        assert len(statuses) == 4200 and set(statuses) <= {404, 429}
        assert refilled < burst, "the flood was too slow to tell a fresh burst from a refill"
        assert sum(status != 429 for status in after) <= refilled  # not a fresh burst
        assert running.phone().get("/api/state")[0] == 200  # and the page goes on
        assert running.proc.poll() is None


def test_slow_and_hoarding_clients_are_closed_and_others_served(tmp_path: Path) -> None:
    """A client trickling header bytes is closed about `IDLE_S` after connecting; one
    address opening more than its share closes its own oldest idle connection."""
    with appliance(tmp_path) as running:
        port = int(running.base.rsplit(":", 1)[1])
        slow = socket.create_connection(("127.0.0.1", port), source_address=("127.0.4.4", 0))
        slow.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        held = [
            socket.create_connection(("127.0.0.1", port), source_address=("127.0.5.5", 0))
            for _ in range(PER_CLIENT + 4)
        ]
        try:
            held[0].settimeout(5)
            assert held[0].recv(1024) == b""  # the oldest was closed to make room
            assert status_of(raw(port, get("/api/state"))) == 200  # 127.0.0.1 is served
            started = time.monotonic()
            slow.settimeout(0.5)
            closed = None
            while time.monotonic() - started < IDLE_S + 10:
                try:
                    slow.sendall(b"a")  # activity, but never a whole request
                    if slow.recv(1024) == b"":
                        closed = time.monotonic() - started
                        break
                except TimeoutError:
                    continue
                except OSError:
                    closed = time.monotonic() - started
                    break
            print(f"a header trickle closed after {closed} s (limit {IDLE_S} s)")
            assert closed is not None and closed <= IDLE_S + 2
            assert status_of(raw(port, get("/api/state"))) == 200
        finally:
            slow.close()
            for conn in held:
                conn.close()


def test_event_streams_are_shared_and_a_closed_one_is_freed_at_once(tmp_path: Path) -> None:
    """Before: one client could hold all 64 streams, and a closed stream kept its slot
    until the keep-alive write failed (25 s)."""
    with appliance(tmp_path) as running:
        port = int(running.base.rsplit(":", 1)[1])
        mine = [open_stream(port, "127.0.6.6") for _ in range(STREAMS_PER_CLIENT + 1)]
        assert [status for _, status in mine] == [200] * STREAMS_PER_CLIENT + [503]
        for conn, _ in mine:
            conn.close()
        time.sleep(0.5)
        streams = [
            open_stream(port, f"127.0.7.{2 + i // STREAMS_PER_CLIENT}") for i in range(MAX_STREAMS)
        ]
        assert all(status == 200 for _, status in streams)
        late, status = open_stream(port, "127.0.8.8")
        late.close()
        assert status == 503  # every slot taken
        for conn, _ in streams:
            conn.close()
        started = time.monotonic()
        while True:
            conn, status = open_stream(port, "127.0.8.8")
            conn.close()
            if status == 200 or time.monotonic() - started > 10:
                break
            time.sleep(0.05)
        freed = time.monotonic() - started
        print(f"{MAX_STREAMS} closed streams: a new one served after {freed * 1000:.0f} ms")
        assert status == 200 and freed < 1.0


def test_a_phone_asking_again_keeps_no_window_open_for_a_hold_at_any_seat(
    tmp_path: Path,
) -> None:
    """Before: a phone re-asking every 60 s kept the window open, and the next hold of
    select at any seat (a person going back up a menu) paired that phone to that seat.
    Now asking again is the same window, a hold only asks the seat about the phone's
    code, and the table says which seat was paired."""
    with appliance(tmp_path) as running:
        phone = running.phone()
        status, first = phone.post("/api/pair")
        assert status == 201 and first["seconds"] == 60
        time.sleep(2.5)
        status, again = phone.post("/api/pair")
        assert status == 201 and again["code"] == first["code"]
        assert again["seconds"] <= 58  # the same window running out, not a fresh one
        assert running.phone().post("/api/pair")[0] == 409  # another phone still waits
        code = first["code"]
        running.press("1", "select", hold=True)  # a person going back at seat 1
        view = running.wait(lambda v: v["public"]["pairing"]["asking"] == "1", phone)
        assert not view["you"]["paired"]
        assert view["public"]["log"][-1] == (
            f"Pair phone {code} with seat 1? Select confirms; next refuses."
        )
        running.press("1", "next")  # not what they meant
        view = running.wait(lambda v: not v["public"]["pairing"]["open"], phone)
        assert f"Phone {code} is not paired: refused at seat 1." in view["public"]["log"]
        running.press("2", "select", hold=True)  # the window is gone: nothing is asked
        running.press("2", "select")  # and a tap is the game's again: seat 2 joins
        view = running.wait(lambda v: v["public"]["joined"] == ["2"], phone)
        assert not view["you"]["paired"] and view["public"]["pairing"]["asking"] is None
        # meant at the seat: the phone asks, the seat holds and confirms its code
        status, third = phone.post("/api/pair")
        assert status == 201
        running.wait(lambda v: v["public"]["pairing"]["open"], phone)
        running.press("3", "select", hold=True)
        running.wait(lambda v: v["public"]["pairing"]["asking"] == "3", phone)
        running.press("3", "select")
        view = running.wait(lambda v: v["you"]["paired"], phone)
        assert view["you"]["seat"] == "3"
        assert f"Seat 3 is paired with phone {third['code']}." in view["public"]["log"]
        assert view["public"]["joined"] == ["2"]  # no press of the pairing acted in the game
