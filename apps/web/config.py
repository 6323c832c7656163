"""The `[web]` table of the config file: whether the phone page is served, and where.

    [web]
    enabled = true          # default false: the appliance opens no port unless asked
    address = "::"          # default: every address of the Pi, IPv6 and IPv4
    port = 8080             # default 8080 (no privilege needed)

Off by default: the page is the appliance's first network-facing part, so a table
serves it only once its owner says so (docs/phone.md). Checked with hw.schema like
every other table, so an error names the file, the line and the key.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from typing import Any

from hw.schema import Bool, Custom, Int, Key, Table

DEFAULT_ADDRESS = "::"
DEFAULT_PORT = 8080


def _address(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"must be an IP address like '192.168.1.20' or '::', got {value!r}")
    try:
        return str(ipaddress.ip_address(value.strip("[]")))
    except ValueError:
        raise ValueError(
            f"{value!r} is not an IP address (e.g. '::' for every address, "
            "'0.0.0.0' for every IPv4 address, '192.168.1.20' for one)"
        ) from None


WEB = Table(
    Key("enabled", Bool(), False, "serve the phone page"),
    Key("address", Custom("an IP address like '::'", _address), DEFAULT_ADDRESS, "listen here"),
    Key("port", Int(lo=1, hi=65535), DEFAULT_PORT, "the TCP port"),
)


@dataclass(frozen=True)
class WebConfig:
    enabled: bool = False
    address: str = DEFAULT_ADDRESS
    port: int = DEFAULT_PORT

    @property
    def url_host(self) -> str:
        """The address as a URL writes it (IPv6 in brackets)."""
        return f"[{self.address}]" if ":" in self.address else self.address
