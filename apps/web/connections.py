"""The phone page's open connections, counted and bounded, so no client on the LAN can
take the descriptors the table needs.

Every connection the server accepts passes `Connections.admit` before aiohttp sees it
(`Guarded`, a thin protocol in front of aiohttp's): at most `per_client` from one
client (an IPv4 address, an IPv6 /64) and `total` in all. Beyond either, the oldest
idle connection (no request being answered: a keep-alive, or one still sending its
headers) is closed to make room; with none idle, the newcomer is refused with one JSON
error. A connection must send its request headers within `idle_s` of connecting or of
its last answer (`sweep`, once a second), so a client trickling a header byte at a time,
or holding thousands of silent sockets, holds them seconds, not for ever.

`total` comes from the process's descriptor limit (`budget`): the table keeps
`RESERVED_FDS` for itself (journal, devices, lazy imports at a game's start), and the
web takes at most half of the rest.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import resource
import time
from collections.abc import Callable
from dataclasses import dataclass, field

log = logging.getLogger("tavola.web")

IDLE_S = 10.0  # a request's headers must arrive within this of connecting or of an answer
PER_CLIENT = 16  # a phone's browser opens about six, and its event stream
MAX_CONNECTIONS = 256  # in all, whatever the descriptor limit
RESERVED_FDS = 256  # descriptors kept for the table whatever the page's clients do
RAISE_TO = 8192  # the soft descriptor limit asked for at start (at most the hard one)


def client_key(remote: str | None) -> str:
    """Whom a limit counts: an IPv4 address, or an IPv6 address's /64 (one device on a
    LAN can take any number of addresses in its network's /64, but not another /64)."""
    try:
        address = ipaddress.ip_address((remote or "").split("%", 1)[0])
    except ValueError:
        return remote or "?"
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        if not address.is_loopback:
            return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


def raise_open_files(to: int = RAISE_TO) -> int:
    """Raise this process's soft limit of open descriptors towards the hard one (systemd
    starts a service with a soft 1024); the soft limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = to if hard == resource.RLIM_INFINITY else min(to, hard)
    if soft != resource.RLIM_INFINITY and soft < want:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
            soft = want
        except (ValueError, OSError) as exc:
            log.warning("cannot raise the open-files limit from %d: %s", soft, exc)
    return int(soft) if soft != resource.RLIM_INFINITY else to


def budget(soft: int, most: int = MAX_CONNECTIONS) -> int:
    """The web's connections for a soft descriptor limit: half of what the table's
    reserve leaves, never more than `most`, never fewer than 8."""
    return max(8, min(most, (soft - RESERVED_FDS) // 2))


@dataclass(eq=False)
class Connection:
    """One open connection: whose, since when idle, how many requests being answered."""

    transport: asyncio.BaseTransport
    client: str
    since: float
    busy: int = 0
    gone: asyncio.Future[None] = field(default_factory=asyncio.Future)


def _refusal(why: str) -> bytes:
    body = json.dumps({"error": why}).encode()
    head = (
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
        f"Retry-After: 2\r\nConnection: close\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


class Connections:
    """The open connections by client, oldest first (see the module's docstring)."""

    def __init__(
        self,
        total: int = MAX_CONNECTIONS,
        per_client: int = PER_CLIENT,
        idle_s: float = IDLE_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.total = total
        self.per_client = per_client
        self.idle_s = idle_s
        self.clock = clock
        self.open: dict[asyncio.BaseTransport, Connection] = {}
        self.by_client: dict[str, dict[asyncio.BaseTransport, Connection]] = {}
        self.refused = 0  # newcomers turned away (for the log and the tests)
        self.closed = 0  # idle connections closed to make room or for their silence

    def admit(self, transport: asyncio.BaseTransport) -> Connection | None:
        """Count a new connection, closing an idle one if need be; None: refused (the
        refusal is written and the transport closed)."""
        peer = transport.get_extra_info("peername")
        client = client_key(peer[0] if isinstance(peer, tuple) and peer else None)
        mine = self.by_client.get(client, {})
        why = None
        if len(mine) >= self.per_client and not self._close_idle(mine):
            why = f"too many connections from this address (at most {self.per_client})"
        elif len(self.open) >= self.total and not self._close_idle(self._busiest()):
            why = "the appliance has too many connections open; try again in a moment"
        if why is not None:
            self.refused += 1
            if self.refused in (1, 10, 100) or self.refused % 1000 == 0:
                log.warning("%s: refused (%d so far)", why, self.refused)
            try:
                transport.write(_refusal(why))  # type: ignore[attr-defined]
            finally:
                transport.close()
            return None
        conn = Connection(transport, client, self.clock())
        self.open[transport] = conn
        self.by_client.setdefault(client, {})[transport] = conn
        return conn

    def _busiest(self) -> dict[asyncio.BaseTransport, Connection]:
        """The connections of the client that has the most open."""
        return max(self.by_client.values(), key=len, default={})

    def _close_idle(self, conns: dict[asyncio.BaseTransport, Connection]) -> bool:
        """Close the oldest idle connection among `conns`; whether there was one."""
        oldest = next((c for c in conns.values() if not c.busy), None)
        if oldest is None:
            return False
        self._forget(oldest)
        oldest.transport.abort()  # type: ignore[attr-defined]
        self.closed += 1
        return True

    def lost(self, conn: Connection) -> None:
        """The connection has closed (either side): uncount it, wake its waiters."""
        self._forget(conn)
        if not conn.gone.done():
            conn.gone.set_result(None)

    def _forget(self, conn: Connection) -> None:
        self.open.pop(conn.transport, None)
        mine = self.by_client.get(conn.client)
        if mine is not None:
            mine.pop(conn.transport, None)
            if not mine:
                del self.by_client[conn.client]

    def of(self, transport: asyncio.BaseTransport | None) -> Connection | None:
        return self.open.get(transport) if transport is not None else None

    def begin(self, transport: asyncio.BaseTransport | None) -> None:
        """A request on this connection is being answered: it is not idle."""
        conn = self.of(transport)
        if conn is not None:
            conn.busy += 1

    def end(self, transport: asyncio.BaseTransport | None) -> None:
        """Answered: idle again from now."""
        conn = self.of(transport)
        if conn is not None:
            conn.busy = max(0, conn.busy - 1)
            conn.since = self.clock()

    def sweep(self) -> int:
        """Close the connections idle longer than `idle_s`; how many."""
        late = self.clock() - self.idle_s
        silent = [c for c in self.open.values() if not c.busy and c.since < late]
        for conn in silent:
            self._forget(conn)
            conn.transport.close()
        self.closed += len(silent)
        return len(silent)


class Guarded(asyncio.Protocol):
    """aiohttp's protocol behind `Connections.admit`: a refused connection never
    reaches it, and its loss is counted."""

    def __init__(self, inner: asyncio.Protocol, connections: Connections) -> None:
        self.inner = inner
        self.connections = connections
        self.conn: Connection | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.conn = self.connections.admit(transport)
        if self.conn is not None:
            self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self.conn is not None:
            self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.conn is not None else None

    def connection_lost(self, exc: Exception | None) -> None:
        if self.conn is not None:
            self.connections.lost(self.conn)
            self.inner.connection_lost(exc)

    def pause_writing(self) -> None:
        if self.conn is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.conn is not None:
            self.inner.resume_writing()


__all__ = [
    "IDLE_S",
    "MAX_CONNECTIONS",
    "PER_CLIENT",
    "Connection",
    "Connections",
    "Guarded",
    "budget",
    "client_key",
    "raise_open_files",
]
