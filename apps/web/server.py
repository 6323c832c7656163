"""The phone page's web server: aiohttp in its own thread, with its own event loop.

The table stays the single writer. This thread reads the immutable snapshots the table
thread publishes (`snapshot.Snapshots`) and sends commands through the table's event
queue (`Appliance.events`, carried out by `control.perform` on the table's thread).
The finished games of the history are read from the journal file with a read-only
connection of this thread's own (SQLite in WAL mode lets a reader beside the writer).

Routes (docs/phone.md):

    GET  /                      the page (index.html, app.js, style.css: no CDN)
    GET  /api/state             the table now: public, plus the paired seat's secrets
    GET  /api/events            the same, pushed by server-sent events on every change
    POST /api/pair              ask to pair this phone (a code; a hold at the seat, then a
                                confirmation of that code there, pairs it);
                                {"seat": "3"} asks to play seat 3, a seat without buttons
    POST /api/unpair            forget this phone's pairing
    POST /api/command           a paired seat's press: {"command": ..., "index": ...}
    GET  /api/settings          the settings a player may change (apps.web.settings)
    POST /api/settings          change them: checked, written back safely, reloaded
    GET  /api/components        the component check: provisional values and the owner's
    POST /api/components        answer them: written to the owner's data file (components.py)
    GET  /api/history           finished games with their results
    GET  /api/history/{id}      one game's log and breakdown
    GET  /api/history/{id}/export   the file `tavola replay` reads

Security: watching needs no login; anything that changes the game or shows a secret
needs a paired phone (pairing.py). State-changing requests are POST with a JSON body,
a custom header (`X-Tavola: 1`) and, when the browser sends one, an Origin that is this
host; the Host header must be an address or a .local name (no DNS rebinding). Bodies
are limited to 8 KiB and 32 levels of nesting, each client to a request rate, its open
connections and event streams to a share, and a connection must send its request in
time (connections.py); every refusal is one JSON error.
"""

from __future__ import annotations

import asyncio
import datetime
import ipaddress
import json
import logging
import socket
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import aiohttp
from aiohttp import web

import engine

from ..journal import Journal, JournalError
from ..record import exported, game_log, replay, seat_namer
from . import components, control
from .components import NextGame
from .config import WebConfig
from .connections import Connections, Guarded, budget, client_key, raise_open_files
from .pairing import PairingBusy, PairingOpened, Pairings
from .snapshot import Published, Snapshots

if TYPE_CHECKING:
    from ..runtime import Appliance

log = logging.getLogger("tavola.web")

_AIOHTTP = tuple(int(x) for x in aiohttp.__version__.split(".")[:2])
COOKIE = "tavola_phone"
CSRF_HEADER = "X-Tavola"
MAX_BODY = 8 * 1024  # bytes of a request body
KEEPALIVE_S = 25.0  # an idle event stream gets a comment this often (proxies, dead peers)
REPLY_S = 10.0  # how long a command waits for the table's answer
BODY_S = 10.0  # how long a request body may take to arrive
MAX_DEPTH = 32  # levels of nesting a JSON body may have (the API's need two)
MAX_STREAMS = 64  # event streams at once (every phone at a busy table, twice over)
STREAMS_PER_CLIENT = 4  # event streams from one client (a phone with a few tabs open)
WRITE_S = 20.0  # how long an event waits for a client that does not read
STATIC = {
    "index.html": "text/html; charset=utf-8",
    "app.js": "text/javascript; charset=utf-8",
    "style.css": "text/css; charset=utf-8",
}
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
    "style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; "
    "form-action 'none'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}


class Refused(Exception):
    """A request refused with one clear sentence (and an HTTP status)."""

    def __init__(self, status: int, message: str, *, retry: float | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.retry = retry


@dataclass
class Bucket:
    """A token bucket: `rate` requests a second on average, `burst` at once."""

    rate: float
    burst: float
    tokens: float = -1.0
    at: float = field(default_factory=time.monotonic)

    def take(self, now: float) -> float:
        """0 when a request may go; else seconds until one may."""
        if self.tokens < 0:
            self.tokens = self.burst
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return 0.0
        return (1 - self.tokens) / self.rate

    def full(self, now: float) -> bool:
        """Whether it has refilled: forgetting it changes nothing for its client."""
        return self.tokens < 0 or self.tokens + (now - self.at) * self.rate >= self.burst


#: (requests a second, burst) per client address, by kind of request
LIMITS = {"read": (20.0, 60.0), "write": (10.0, 30.0), "pair": (0.2, 8.0)}


MAX_CLIENTS = 4096  # buckets kept; a LAN has far fewer phones


class Limiter:
    """Requests per client address and kind (`LIMITS`), so one phone cannot flood the
    table's queue or open pairing windows without end.

    The buckets are kept least recently used first. Beyond `max_clients` only a full
    bucket (idle long enough to have refilled) is forgotten: forgetting one that is not
    full would hand its client a fresh burst, so many addresses could wipe a limited
    one's. When every bucket is still draining, a new client is refused until some refill.
    """

    def __init__(
        self,
        limits: dict[str, tuple[float, float]] | None = None,
        clock: Callable[[], float] = time.monotonic,
        max_clients: int = MAX_CLIENTS,
    ) -> None:
        self.limits = limits or LIMITS
        self.clock = clock
        self.max_clients = max_clients
        self.buckets: OrderedDict[tuple[str, str], Bucket] = OrderedDict()
        self._swept = -1.0  # when a sweep last found nothing to forget

    def check(self, client: str, kind: str) -> None:
        now = self.clock()
        key = (client, kind)
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) >= self.max_clients and not self._forget_full(now):
                raise Refused(429, "too many clients at once; try again in a second", retry=1.0)
            rate, burst = self.limits[kind]
            bucket = self.buckets[key] = Bucket(rate, burst, at=now)
        else:
            self.buckets.move_to_end(key)
        wait = bucket.take(now)
        if wait:
            raise Refused(429, f"too many requests; try again in {wait:.1f} s", retry=wait)

    def _forget_full(self, now: float) -> bool:
        """Forget the buckets that have refilled, oldest first; whether room was made.
        A sweep that found none is not repeated for a second (each costs the whole
        table)."""
        if now - self._swept < 1.0:
            return False
        for key in list(self.buckets):
            if self.buckets[key].full(now):
                del self.buckets[key]
        if len(self.buckets) >= self.max_clients:
            self._swept = now
            return False
        return True


def too_deep(raw: bytes, limit: int) -> bool:
    """Whether JSON text nests arrays and objects deeper than `limit`, found before
    parsing it: Python's parser recurses once a level, and thousands of `[` end in a
    RecursionError. Brackets inside strings do not count."""
    depth = 0
    in_string = escaped = False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            if depth > limit:
                return True
        elif byte in (0x5D, 0x7D):  # ] }
            depth -= 1
    return False


class HttpLog(logging.Logger):
    """aiohttp's server log, for requests it cannot even parse: one short line each
    (whence, and what was wrong; no traceback), a warning, at most `burst` lines and then one every
    `every` seconds, the next saying how many were left out. A client sending garbage
    must not be able to fill the journal."""

    def __init__(self, parent: logging.Logger, *, burst: float = 5, every: float = 10) -> None:
        super().__init__(f"{parent.name}.http")
        self.parent = parent
        self.bucket = Bucket(1 / every, burst)
        self.left_out = 0

    def handle(self, record: logging.LogRecord) -> None:
        what = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            words = " ".join(str(exc).split())
            what = f"{what}: {type(exc).__name__}{': ' if words else ''}{words}"
        if len(what) > 200:
            what = what[:199] + "…"
        if self.bucket.take(time.monotonic()):
            self.left_out += 1
            return
        if self.left_out:
            what += f" ({self.left_out} more like it not logged)"
            self.left_out = 0
        record.msg, record.args = what, None
        if record.levelno > logging.WARNING:  # the client's fault, not the appliance's
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        record.exc_info = record.exc_text = record.stack_info = None
        super().handle(record)


def host_allowed(host: str) -> bool:
    """Whether a Host header names this appliance the way a LAN does: an IP address,
    localhost, a .local name (mDNS) or the machine's own name. Anything else is a
    name some other site chose (DNS rebinding)."""
    name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
    if host.startswith("["):
        name = host[1 : host.find("]")]
    name = name.lower().rstrip(".")
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        pass
    own = socket.gethostname().lower()
    return name in ("localhost", own) or name.endswith(".local")


def _static(name: str) -> bytes:
    return resources.files("apps.web").joinpath("static", name).read_bytes()


class PhonePage:
    """The server and what it shares with the table: snapshots, pairings, the journal."""

    def __init__(
        self,
        config: WebConfig,
        *,
        journal: Path,
        config_path: Path | None = None,
        clock: Callable[[], float] = time.monotonic,
        limits: dict[str, tuple[float, float]] | None = None,
    ) -> None:
        self.config = config
        self.journal_path = journal
        self.config_path = config_path  # the file the settings are written back to
        self.pairings = Pairings(clock)
        self.snapshots = Snapshots(extra=self._extra)
        self.limiter = Limiter(limits)
        self.files = {name: _static(name) for name in STATIC}
        self.table: Appliance | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self._changed: asyncio.Event | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._runner: web.AppRunner | None = None
        self._listener: asyncio.AbstractServer | None = None
        self.connections = Connections()
        self._closing = False
        self.streams = 0
        self.streams_of: dict[str, int] = {}  # event streams by client (client_key)
        self.port = config.port

    # --- the table's side ------------------------------------------------------------------
    def attach(self, table: Appliance) -> None:
        """Publish after every render; take pairing holds and phone commands."""
        self.table = table
        self.pairings.attach(table)
        control.attach(table)
        NextGame(table)  # an owner's new component data: from the next game on
        table.watchers.append(lambda: self.snapshots.publish(table))
        self.snapshots.listeners.append(self._published)

    def _extra(self) -> dict[str, Any]:
        return {
            "pairing": {
                "open": self.pairings.window_left() > 0,
                "changes": self.pairings.changes,
                "seat": self.pairings.window_seat(),
                "asking": self.pairings.asking(),
            },
            "paired_seats": self.pairings.paired_seats(),
            "phone_seats": sorted(self.pairings.phone_seats),
        }

    def _published(self, latest: Published) -> None:
        """From the table's thread: wake every event stream."""
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._wake)

    def _wake(self) -> None:
        old, self._changed = self._changed, asyncio.Event()
        if old is not None:
            old.set()

    # --- the thread ------------------------------------------------------------------------
    def start(self) -> None:
        """Serve in a thread of its own; raises OSError when the address cannot be had.
        The process's descriptor limit is raised first, and the page's connections kept
        to a share of it that leaves the table its own (connections.py)."""
        self.connections.total = budget(raise_open_files(), self.connections.total)
        self._thread = threading.Thread(target=self._serve, name="tavola-web", daemon=True)
        self._thread.start()
        self._ready.wait()
        if self._error is not None:
            raise self._error
        log.info(
            "Phone page at http://%s:%d/ (pair a phone: when the table says its code, hold "
            "select at its seat, or menu for a seat without buttons, then confirm)",
            self.config.url_host,
            self.port,
        )

    def _serve(self) -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        self.loop = loop
        self._changed = asyncio.Event()
        try:
            # aiohttp 3.9 moved the shutdown timeout from the site to the runner (Debian
            # bookworm ships 3.8); the server's own shutdown below is given it either way
            timeout: dict[str, Any] = {"shutdown_timeout": 1.0} if _AIOHTTP >= (3, 9) else {}
            runner = self._runner = web.AppRunner(
                self.app(),
                handle_signals=False,
                access_log=None,
                logger=HttpLog(log),
                **timeout,
            )
            loop.run_until_complete(runner.setup())
            handlers = runner.server
            assert handlers is not None
            # "::" means every address: host None binds IPv4 and IPv6 both (asyncio makes an
            # IPv6 socket IPv6-only, so "::" itself would refuse every IPv4 phone). Every
            # connection is counted before aiohttp sees it (connections.py).
            every = ipaddress.ip_address(self.config.address).is_unspecified
            server = self._listener = loop.run_until_complete(
                loop.create_server(
                    lambda: Guarded(handlers(), self.connections),
                    None if every and ":" in self.config.address else self.config.address,
                    self.port,
                    reuse_address=True,
                    backlog=128,
                )
            )
            if not server.sockets:
                # asyncio starts with no socket at all when every family is refused
                # (a unit's RestrictAddressFamilies=): say so rather than serve nothing
                raise OSError(f"no socket could be opened on {self.config.address}")
            self.port = server.sockets[0].getsockname()[1]
            sweeper = loop.create_task(self._sweep())
        except BaseException as exc:
            self._error = exc
            self._ready.set()
            loop.close()
            return
        self._ready.set()
        try:
            loop.run_forever()
        finally:
            sweeper.cancel()
            server.close()
            loop.run_until_complete(handlers.shutdown(1.0))
            for conn in list(self.connections.open.values()):
                conn.transport.abort()  # type: ignore[attr-defined]
            loop.run_until_complete(runner.cleanup())
            loop.close()

    async def _sweep(self) -> None:
        """Once a second: close the connections that sent no request in time."""
        while True:
            await asyncio.sleep(1.0)
            self.connections.sweep()

    def stop(self) -> None:
        loop, thread = self.loop, self._thread
        self._closing = True
        if loop is not None and thread is not None and thread.is_alive():
            loop.call_soon_threadsafe(self._wake)
            loop.call_soon_threadsafe(loop.stop)
            thread.join(timeout=10)

    # --- the app ---------------------------------------------------------------------------
    def app(self) -> web.Application:
        app = web.Application(client_max_size=MAX_BODY, middlewares=[self._guard])
        r = app.router
        r.add_get("/", self.index)
        r.add_get("/static/{name}", self.static)
        r.add_get("/api/state", self.state)
        r.add_get("/api/events", self.events)
        r.add_post("/api/pair", self.pair)
        r.add_post("/api/unpair", self.unpair)
        r.add_post("/api/command", self.command)
        r.add_get("/api/settings", self.settings_now)
        r.add_post("/api/settings", self.settings)
        r.add_get("/api/components", self.components_now)
        r.add_post("/api/components", self.components)
        r.add_get("/api/history", self.history)
        r.add_get("/api/history/{game}", self.history_game)
        r.add_get("/api/history/{game}/export", self.history_export)
        return app

    @web.middleware
    async def _guard(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        """Every request: the host, the rate, CSRF for writes; every error as one JSON line.
        While it is answered, its connection is not idle (connections.py)."""
        self.connections.begin(request.transport)
        try:
            return await self._guarded(request, handler)
        finally:
            self.connections.end(request.transport)

    async def _guarded(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        try:
            if not host_allowed(request.host):
                raise Refused(421, f"this appliance does not answer to {request.host!r}")
            client = client_key(request.remote)
            if request.method == "POST":
                self.limiter.check(client, "pair" if request.path == "/api/pair" else "write")
                self._csrf(request)
            else:
                self.limiter.check(client, "read")
            if request.content_length is not None and request.content_length > MAX_BODY:
                raise Refused(413, f"the request is too large (at most {MAX_BODY} bytes)")
            response = await handler(request)
        except Refused as exc:
            response = _error(exc.status, str(exc))
            if exc.retry is not None:
                response.headers["Retry-After"] = str(max(1, round(exc.retry)))
        except web.HTTPRequestEntityTooLarge:
            response = _error(413, f"the request is too large (at most {MAX_BODY} bytes)")
        except web.HTTPMethodNotAllowed as exc:
            allowed = ", ".join(sorted(exc.allowed_methods))
            response = _error(405, f"{request.method} is not allowed here (use {allowed})")
        except web.HTTPNotFound:
            response = _error(404, f"nothing at {request.path}")
        except web.HTTPException as exc:
            response = _error(exc.status, exc.reason)
        except (asyncio.CancelledError, ConnectionResetError):
            raise
        except Exception:
            log.exception("request %s %s failed", request.method, request.path)
            response = _error(500, "the appliance failed to answer; the table goes on")
        if not response.prepared:
            for k, v in HEADERS.items():
                response.headers.setdefault(k, v)
        return response

    def _csrf(self, request: web.Request) -> None:
        """A write comes from this page: our header (a form or a cross-site fetch
        cannot send it without a preflight, which this server never grants) and, when
        the browser tells it, this very origin."""
        if request.headers.get(CSRF_HEADER) != "1":
            raise Refused(403, f"refused: a change needs the {CSRF_HEADER}: 1 header (CSRF)")
        origin = request.headers.get("Origin")
        if origin is not None and origin != f"{request.scheme}://{request.host}":
            raise Refused(403, f"refused: origin {origin} is not this appliance (CSRF)")
        site = request.headers.get("Sec-Fetch-Site")
        if site is not None and site not in ("same-origin", "none"):
            raise Refused(403, f"refused: a {site} request may not change anything (CSRF)")

    async def _json(self, request: web.Request) -> dict[str, Any]:
        if request.content_type != "application/json":
            raise Refused(415, "send JSON (Content-Type: application/json)")
        try:
            raw = await asyncio.wait_for(request.read(), BODY_S)
        except TimeoutError:
            raise Refused(408, f"the body did not arrive within {BODY_S:g} s") from None
        if too_deep(raw, MAX_DEPTH):
            raise Refused(400, f"the body is JSON nested deeper than {MAX_DEPTH} levels")
        try:
            body = json.loads(raw or b"{}")
        except (ValueError, UnicodeDecodeError, RecursionError) as exc:
            raise Refused(400, f"the body is not JSON: {exc}") from None
        if not isinstance(body, dict):
            raise Refused(400, "the body must be a JSON object")
        return body

    def _seat(self, request: web.Request) -> str | None:
        return self.pairings.seat_of(request.cookies.get(COOKIE))

    def _paired(self, request: web.Request) -> str:
        seat = self._seat(request)
        if seat is None:
            if self.pairings.phone(request.cookies.get(COOKIE)) is not None:
                raise Refused(
                    403, "this phone is not paired yet: hold select at your seat, then confirm"
                )
            raise Refused(403, "pair this phone with a seat first (Pair, on the page)")
        return seat

    # --- pages -----------------------------------------------------------------------------
    async def index(self, request: web.Request) -> web.Response:
        return self._file("index.html")

    async def static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in STATIC:
            raise Refused(404, f"no file {name!r}")
        return self._file(name)

    def _file(self, name: str) -> web.Response:
        return web.Response(
            body=self.files[name],
            headers={"Content-Type": STATIC[name], "Cache-Control": "no-cache"},
        )

    def _view(self, request: web.Request, latest: Published) -> str:
        """The table as this request may see it: public, plus its seat's secrets."""
        token = request.cookies.get(COOKIE)
        phone = self.pairings.phone(token)
        seat = phone.seat if phone is not None else None
        private = latest.private.get(seat, "null") if seat is not None else "null"
        you = {
            "seat": seat,
            "paired": seat is not None,
            "asked": phone is not None and seat is None,
            "waiting": self.pairings.waiting(token),
            "code": phone.code if phone is not None else None,
        }
        return f'{{"public":{latest.public},"private":{private},"you":{json.dumps(you)}}}'

    async def state(self, request: web.Request) -> web.Response:
        latest = self.snapshots.latest
        if latest.version == 0:
            raise Refused(503, "the table is starting; try again in a moment", retry=1)
        return web.Response(
            text=self._view(request, latest),
            content_type="application/json",
            headers={"Cache-Control": "no-store"},
        )

    async def events(self, request: web.Request) -> web.StreamResponse:
        """Server-sent events: the whole table at every change, `id` its version; a
        reconnecting page sends Last-Event-ID and gets only what is newer.

        At most `STREAMS_PER_CLIENT` from one client and `MAX_STREAMS` in all; a stream's
        slot is freed as soon as its connection closes (the wait watches it), and a
        client that stops reading is dropped once a write has waited `WRITE_S`."""
        client = client_key(request.remote)
        if self.streams >= MAX_STREAMS:
            raise Refused(503, f"too many pages open ({MAX_STREAMS}); close one", retry=2)
        if self.streams_of.get(client, 0) >= STREAMS_PER_CLIENT:
            raise Refused(
                503, f"too many pages open on this device ({STREAMS_PER_CLIENT}); close one"
            )
        try:
            sent = int(request.headers.get("Last-Event-ID") or request.query.get("v") or -1)
        except ValueError:
            raise Refused(400, "Last-Event-ID must be a version number") from None
        conn = self.connections.of(request.transport)
        gone: asyncio.Future[None] = conn.gone if conn is not None else asyncio.Future()
        response = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream",
                "Cache-Control": "no-store",
                "X-Accel-Buffering": "no",
                **HEADERS,
            }
        )
        await response.prepare(request)
        self.streams += 1
        self.streams_of[client] = self.streams_of.get(client, 0) + 1
        seen: tuple[int, str | None] = (sent, None)
        try:
            await self._write(request, response, "retry: 2000\n\n")
            while not self._closing and not gone.done():
                changed = self._changed
                latest = self.snapshots.latest
                seat = self._seat(request)
                if (latest.version, seat) != seen and latest.version > 0:
                    data = self._view(request, latest)
                    await self._write(request, response, f"id: {latest.version}\ndata: {data}\n\n")
                    seen = (latest.version, seat)
                    continue
                assert changed is not None
                waiting = asyncio.ensure_future(changed.wait())
                try:
                    done, _ = await asyncio.wait(
                        (waiting, gone), timeout=KEEPALIVE_S, return_when=asyncio.FIRST_COMPLETED
                    )
                finally:
                    waiting.cancel()
                if not done:
                    await self._write(request, response, ": still here\n\n")
        except (ConnectionResetError, asyncio.CancelledError, TimeoutError):
            pass
        finally:
            self.streams -= 1
            left = self.streams_of.pop(client, 1) - 1
            if left:
                self.streams_of[client] = left
        return response

    @staticmethod
    async def _write(request: web.Request, response: web.StreamResponse, data: str) -> None:
        """One write of an event stream; a reader that takes none of it for `WRITE_S` is
        cut off (TimeoutError), so it cannot hold its slot by not reading."""
        try:
            await asyncio.wait_for(response.write(data.encode()), WRITE_S)
        except TimeoutError:
            if request.transport is not None:
                request.transport.abort()  # type: ignore[attr-defined]
            raise

    # --- pairing ---------------------------------------------------------------------------
    async def pair(self, request: web.Request) -> web.Response:
        body = await self._json(request)
        if self.table is None:
            raise Refused(503, "the table is not running")
        seat = body.get("seat")
        phone_seats = sorted(self.pairings.phone_seats)
        if seat is not None and (not isinstance(seat, str) or seat not in phone_seats):
            raise Refused(
                400,
                f"{seat!r} is not a seat without buttons (those: "
                f"{', '.join(phone_seats) or 'none'}); a seat with buttons pairs by a hold of "
                "its own select",
            )
        try:
            phone, opened = self.pairings.request(seat, request.cookies.get(COOKIE))
        except PairingBusy as exc:
            raise Refused(409, str(exc), retry=exc.seconds) from None
        if opened:  # asking again is answered, but neither said again nor extended
            self.table.events.put(PairingOpened(phone.code, seat))
        left = round(self.pairings.window_left())
        how = (
            f"Within {left} s, hold select at your seat; when the table asks to pair phone "
            f"{phone.code} with your seat, tap select to confirm (at a one-button seat, "
            "hold its button)."
            if seat is None
            else f"To play seat {seat}, ask someone at the table to hold menu within {left} s "
            f"(or select at any seat with buttons); when the table asks to pair phone "
            f"{phone.code} with seat {seat}, a tap of menu (of select) confirms."
        )
        response = web.json_response(
            {"code": phone.code, "seconds": left, "say": f"Your code is {phone.code}. {how}"},
            status=201,
        )
        response.set_cookie(
            COOKIE, phone.token, httponly=True, samesite="Strict", path="/", max_age=400 * 86400
        )
        return response

    async def unpair(self, request: web.Request) -> web.Response:
        await self._json(request)
        token = request.cookies.get(COOKIE)
        if not token or self.pairings.phone(token) is None:
            raise Refused(403, "this phone is not paired")
        self.pairings.unpair(token)
        self._republish()
        response = web.json_response({"ok": True})
        response.del_cookie(COOKIE, path="/")
        return response

    def _republish(self) -> None:
        if self.table is not None:
            self.table.wake()  # the table's loop goes round and publishes the change

    # --- control ---------------------------------------------------------------------------
    async def command(self, request: web.Request) -> web.Response:
        seat = self._paired(request)
        body = await self._json(request)
        name = body.get("command")
        if not isinstance(name, str):
            raise Refused(400, f"say which command: one of {', '.join(control.COMMANDS)}")
        if name not in control.COMMANDS:
            known = ", ".join(control.COMMANDS)
            raise Refused(400, f"unknown command {name!r} (commands: {known})")
        index, board = body.get("index"), body.get("board")
        for key, value in (("index", index), ("board", board)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise Refused(400, f"{key} must be a whole number, got {value!r}")
        unknown = set(body) - {"command", "index", "board"}
        if unknown:
            raise Refused(400, f"unknown field(s): {', '.join(sorted(unknown))}")
        status, answer = await self._ask(control.Command(seat, name, index, board))
        return web.json_response(answer, status=status)

    async def _ask(self, cmd: control.Command) -> tuple[int, dict[str, Any]]:
        """Put `cmd` on the table's queue and wait for its answer."""
        if self.table is None:
            raise Refused(503, "the table is not running")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[tuple[int, dict[str, Any]]] = loop.create_future()

        def reply(status: int, body: dict[str, Any]) -> None:
            def settle() -> None:
                if not future.done():
                    future.set_result((status, body))

            loop.call_soon_threadsafe(settle)

        cmd.reply = reply
        self.table.events.put(cmd)
        try:
            return await asyncio.wait_for(future, REPLY_S)
        except TimeoutError:
            raise Refused(504, "the table did not answer in time; look at the board") from None

    def _config_file(self) -> Path:
        if self.config_path is None:
            raise Refused(501, "this table runs without a config file to change")
        return self.config_path

    async def settings_now(self, request: web.Request) -> web.Response:
        """The settings with their values and what each allows (apps.web.settings)."""
        self._paired(request)
        from . import settings

        return web.json_response(await asyncio.to_thread(settings.current, self._config_file()))

    async def settings(self, request: web.Request) -> web.Response:
        """The settings a player would otherwise edit in TOML: apps.web.settings checks
        them as `tavola run` would and writes the file back safely, then asks this
        process to reload it (SIGHUP, handled on the table's thread)."""
        self._paired(request)
        body = await self._json(request)
        from . import settings

        status, answer = await asyncio.to_thread(settings.post, self._config_file(), body)
        return web.json_response(answer, status=status)

    async def components_now(self, request: web.Request) -> web.Response:
        """The component check of every game (`?game=G`: that one), read from the files."""
        self._paired(request)
        status, answer = await asyncio.to_thread(components.listing, request.query.get("game"))
        return web.json_response(answer, status=status)

    async def components(self, request: web.Request) -> web.Response:
        """Answers of the component check, written to the owner's data file: only a paired
        phone may write; the running game keeps its data (components.NextGame)."""
        self._paired(request)
        body = await self._json(request)
        playing = self.snapshots.latest.playing
        status, answer = await asyncio.to_thread(components.post, body, self.table, playing=playing)
        return web.json_response(answer, status=status)

    # --- history ---------------------------------------------------------------------------
    def _journal(self) -> Journal:
        if not self.journal_path.exists():
            raise Refused(404, "no games played yet")
        try:
            return Journal(self.journal_path, readonly=True)
        except JournalError as exc:
            raise Refused(503, f"the journal cannot be read: {exc}") from None

    async def history(self, request: web.Request) -> web.Response:
        return web.json_response(await asyncio.to_thread(self._history))

    def _history(self) -> dict[str, Any]:
        if not self.journal_path.exists():
            return {"games": []}
        journal = self._journal()
        try:
            games = []
            for g in journal.history(limit=50):
                title = engine.get(g.game).title if g.game in engine.games() else g.game
                names = seat_namer(g.seats)
                try:
                    state = replay(journal.load(g.id))
                    result = state.result(names)
                    scores = [
                        {"name": state.label(p, names), "score": v} for p, v in state.standings()
                    ]
                except (KeyError, ValueError, JournalError):
                    result = "(this version cannot replay it)"
                    scores = [{"name": names(p), "score": v} for p, v in enumerate(g.scores or [])]
                games.append(
                    {
                        "id": g.id,
                        "game": g.game,
                        "title": title,
                        "started": datetime.datetime.fromtimestamp(g.started).isoformat(
                            timespec="minutes"
                        ),
                        "result": result,
                        "scores": scores,
                    }
                )
            return {"games": games}
        finally:
            journal.close()

    def _record(self, request: web.Request) -> tuple[Any, Any]:
        try:
            game_id = int(request.match_info["game"])
        except ValueError:
            raise Refused(400, "a game is named by its number, as the history lists it") from None
        journal = self._journal()
        try:
            record = journal.load(game_id)
        except JournalError as exc:
            raise Refused(404, f"{exc}") from None
        finally:
            journal.close()
        if record.status != "finished":
            raise Refused(404, f"game #{game_id} is not finished")
        if record.game not in engine.games():
            raise Refused(404, f"game #{game_id} is {record.game!r}, unknown to this version")
        return game_id, record

    async def history_game(self, request: web.Request) -> web.Response:
        game_id, record = await asyncio.to_thread(self._record, request)
        lines = await asyncio.to_thread(game_log, record)
        return web.json_response(
            {"id": game_id, "title": engine.get(record.game).title, "lines": lines}
        )

    async def history_export(self, request: web.Request) -> web.Response:
        game_id, record = await asyncio.to_thread(self._record, request)
        try:
            state = await asyncio.to_thread(replay, record)
        except ValueError as exc:
            raise Refused(409, str(exc)) from None
        return web.Response(
            text=json.dumps(exported(state), indent=1) + "\n",
            content_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="tavola-game-{game_id}.json"'},
        )


def _error(status: int, message: str) -> web.Response:
    return web.json_response({"error": message}, status=status)


__all__ = ["COOKIE", "CSRF_HEADER", "MAX_BODY", "PhonePage", "host_allowed"]
