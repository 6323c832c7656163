"""Running as a systemd service: readiness and watchdog notifications, journald logging.

`sd_notify` is a datagram on the AF_UNIX socket named by `$NOTIFY_SOCKET` (a
leading `@` means the abstract namespace); the standard library is enough.
The watchdog interval comes from `$WATCHDOG_USEC` (for our PID when
`$WATCHDOG_PID` is set); the main loop pings at half of it.

Logs go to stderr. Under systemd (`$JOURNAL_STREAM` set) each line starts with
its syslog priority, `<3>` for errors to `<7>` for debug, which journald reads
as the entry's level; in a terminal lines read `level: message`.
"""

from __future__ import annotations

import logging
import os
import socket
import sys

PRIORITY = {
    logging.CRITICAL: 2,
    logging.ERROR: 3,
    logging.WARNING: 4,
    logging.INFO: 6,
    logging.DEBUG: 7,
}


class JournaldFormatter(logging.Formatter):
    """`<6>message`: journald takes the prefix as the priority and strips it."""

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        level = PRIORITY.get(record.levelno, 6 if record.levelno < logging.WARNING else 3)
        return "\n".join(f"<{level}>{line}" for line in text.splitlines() or [""])


def setup_logging(level: int = logging.INFO, *, stream: object = None) -> None:
    """Log to stderr, with syslog priority prefixes when journald reads the stream."""
    handler = logging.StreamHandler(stream or sys.stderr)  # type: ignore[arg-type]
    if os.environ.get("JOURNAL_STREAM"):
        handler.setFormatter(JournaldFormatter("%(message)s"))
    else:
        handler.setFormatter(logging.Formatter("%(levelname)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # transitions logs every state change at INFO: per-action noise in the journal
    logging.getLogger("transitions").setLevel(max(level, logging.WARNING))


SEND_TIMEOUT_S = 0.5


class Notifier:
    """sd_notify without libsystemd; a no-op outside systemd."""

    def __init__(self, address: str | None, watchdog_usec: int | None = None) -> None:
        self.address = address
        self.watchdog_usec = watchdog_usec
        self._sock: socket.socket | None = None
        if address:
            self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            # a notify socket nobody reads fills up: wait a moment, then drop the message
            # (logged) rather than stop the table's main loop for good
            self._sock.settimeout(SEND_TIMEOUT_S)

    @classmethod
    def from_env(cls) -> Notifier:
        address = os.environ.get("NOTIFY_SOCKET") or None
        usec = os.environ.get("WATCHDOG_USEC")
        pid = os.environ.get("WATCHDOG_PID")
        watchdog = int(usec) if usec and usec.isascii() and usec.isdigit() else None
        if pid and pid.isascii() and pid.isdigit() and int(pid) != os.getpid():
            watchdog = None  # the watchdog is meant for another process
        return cls(address, watchdog)

    @property
    def watchdog_interval(self) -> float | None:
        """Seconds between pings: half the watchdog timeout, as sd_watchdog_enabled advises."""
        return None if not self.watchdog_usec else self.watchdog_usec / 2e6

    def send(self, message: str) -> bool:
        if self._sock is None or not self.address:
            return False
        target = self.address
        if target.startswith("@"):
            target = "\0" + target[1:]
        try:
            self._sock.sendto(message.encode(), target)
        except OSError as exc:
            logging.getLogger("tavola").warning("cannot notify systemd: %s", exc)
            return False
        return True

    def ready(self) -> None:
        self.send("READY=1\nSTATUS=Table ready")

    def watchdog(self) -> None:
        self.send("WATCHDOG=1")

    def stopping(self) -> None:
        self.send("STOPPING=1")

    def reloading(self) -> None:
        self.send("RELOADING=1")

    def status(self, text: str) -> None:
        self.send(f"STATUS={text}")

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None
