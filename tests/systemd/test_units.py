"""The unit files as systemd itself reads them: verify, security exposure, udev rules."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.support import SCRIPT

SYSTEMD = Path(__file__).resolve().parents[2] / "systemd"
MAX_EXPOSURE = 1.0
MAX_WEB_EXPOSURE = 1.5  # the phone page: a listener on the LAN (issue 18)
#: drop-in -> (its file in systemd/, its name in tavola.service.d/ as install.sh puts it)
DROPINS = {
    "pwm": ("tavola-pwm-root.conf", "pwm-root.conf"),
    "web": ("tavola-web.conf", "web.conf"),
}


def analyze() -> str:
    found = shutil.which("systemd-analyze")
    assert found, "systemd-analyze is missing: scripts/system-deps.sh installs it"
    return found


def unit_copy(tmp: Path, *dropins: str) -> Path:
    """The unit with ExecStart pointing at this venv's tavola (verify checks it exists),
    and the named drop-ins beside it as install.sh installs them."""
    text = (SYSTEMD / "tavola.service").read_text()
    assert "ExecStart=/opt/tavola/venv/bin/tavola run" in text
    unit = tmp / "tavola.service"
    unit.write_text(text.replace("/opt/tavola/venv/bin/tavola", str(SCRIPT)))
    for name in dropins:
        d = tmp / "tavola.service.d"
        d.mkdir(exist_ok=True)
        source, installed = DROPINS[name]
        shutil.copy(SYSTEMD / source, d / installed)
    return unit


@pytest.mark.parametrize(
    "dropins", [(), ("pwm",), ("web",), ("pwm", "web")], ids=["default", "pwm", "web", "pwm+web"]
)
def test_systemd_analyze_verify_prints_no_warning(tmp_path: Path, dropins: tuple[str]) -> None:
    unit = unit_copy(tmp_path, *dropins)
    proc = subprocess.run(
        [analyze(), "verify", str(unit)], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.strip() == ""


def exposure(unit: Path) -> tuple[float, str]:
    """`systemd-analyze security`'s overall figure for the unit (and its drop-ins), and
    its table."""
    proc = subprocess.run(
        [analyze(), "security", "--offline=true", str(unit)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    match = re.search(r"Overall exposure level for tavola\.service: (\d+\.\d+)", proc.stdout)
    assert match, proc.stdout + proc.stderr
    return float(match.group(1)), proc.stdout


def test_security_exposure_is_at_most_one(tmp_path: Path) -> None:
    figure, _ = exposure(unit_copy(tmp_path))
    print(f"exposure {figure}")
    assert figure <= MAX_EXPOSURE


def test_security_exposure_with_the_phone_page_is_at_most_one_and_a_half(tmp_path: Path) -> None:
    """Re-measured with the web drop-in: the network it opens costs, nothing else does."""
    (tmp_path / "default").mkdir()
    default, _ = exposure(unit_copy(tmp_path / "default"))
    figure, table = exposure(unit_copy(tmp_path, "web"))
    print(f"exposure {default} -> {figure} with the web drop-in")
    assert figure <= MAX_WEB_EXPOSURE
    assert figure > default  # systemd read the drop-in
    opened = {
        line.split()[1]
        for line in table.splitlines()
        if line.startswith("✗") and line.split()[1] in ("PrivateNetwork=", "IPAddressDeny=")
    }
    assert opened == {"PrivateNetwork=", "IPAddressDeny="}
    assert not re.search(r"^✗ RestrictAddressFamilies=~AF_(PACKET|NETLINK)", table, re.M)


def dropin_settings(name: str) -> dict[str, list[str]]:
    """Each setting of a drop-in with the values it is given, in order."""
    out: dict[str, list[str]] = {}
    for line in (SYSTEMD / DROPINS[name][0]).read_text().splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, value = line.split("=", 1)
            out.setdefault(key, []).append(value)
    return out


def test_the_web_drop_in_opens_the_lan_and_nothing_more() -> None:
    s = dropin_settings("web")
    assert s["PrivateNetwork"] == ["no"]
    assert s["IPAddressDeny"] == ["any"]
    allowed = " ".join(s["IPAddressAllow"]).split()
    assert sorted(allowed) == sorted(
        ["localhost", "link-local", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"]
    )
    # reset first: a drop-in's families would otherwise be added to the unit's list
    assert s["RestrictAddressFamilies"] == ["", "AF_UNIX AF_INET AF_INET6"]
    assert s["ReadWritePaths"] == ["/etc/tavola"]  # the config's directory, not /etc
    # a fixed descriptor limit, far above the page's share (apps/web/connections.py)
    assert s["LimitNOFILE"] == ["4096"] and s["TasksMax"] == ["128"]


def families(name: str | None) -> str:
    """The address families the default unit (None) or a drop-in leaves the service."""
    path = SYSTEMD / ("tavola.service" if name is None else DROPINS[name][0])
    values = [
        ln.split("=", 1)[1]
        for ln in path.read_text().splitlines()
        if ln.startswith("RestrictAddressFamilies=")
    ]
    return values[-1].replace(" ", ",")


LISTENER = textwrap.dedent(
    """
    import asyncio, socket

    async def main():
        async def serve(reader, writer):
            await reader.readline()
            writer.write(b"served\\n")
            await writer.drain()
            writer.close()

        # every address, as the web server binds: getaddrinfo(None, AI_PASSIVE), one
        # socket per family (aiohttp's TCPSite calls the same loop.create_server)
        server = await asyncio.start_server(serve, host=None, port=0)
        if not server.sockets:
            raise SystemExit("no socket: every address family was refused")
        for sock in server.sockets:
            host = "::1" if sock.family == socket.AF_INET6 else "127.0.0.1"
            reader, writer = await asyncio.open_connection(host, sock.getsockname()[1])
            writer.write(b"hello\\n")
            await writer.drain()
            print(host, (await reader.readline()).decode().strip())
            writer.close()
        server.close()

    asyncio.run(main())
    """
)


@pytest.mark.parametrize("dropin", [None, "web"], ids=["default", "web"])
def test_a_server_on_every_address_needs_the_web_drop_ins_families_and_no_netlink(
    dropin: str | None,
) -> None:
    """The families the unit leaves, enforced by a seccomp filter like systemd's
    (tests/systemd/families.py): with the drop-in's a server on every IPv4 and IPv6
    address answers on loopback; glibc's getaddrinfo tries AF_NETLINK (to sort the
    addresses) and goes on without it. The default unit's AF_UNIX alone serves nothing."""
    allowed = families(dropin)
    proc = subprocess.run(
        [
            sys.executable,
            str(Path(__file__).with_name("families.py")),
            allowed,
            "--",
            sys.executable,
            "-c",
            LISTENER,
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    if dropin is None:
        assert allowed == "AF_UNIX"
        assert proc.returncode == 1 and "every address family was refused" in proc.stderr
    else:
        assert "AF_NETLINK" not in allowed
        assert proc.returncode == 0, proc.stderr
        assert sorted(proc.stdout.splitlines()) == ["127.0.0.1 served", "::1 served"]


def test_unit_keeps_the_promised_settings() -> None:
    text = (SYSTEMD / "tavola.service").read_text()
    for setting in (
        "Type=notify",
        "WatchdogSec=",
        "Restart=on-failure",
        "StateDirectory=tavola",
        "/etc/tavola/tavola.toml",
        "User=tavola",
        "SupplementaryGroups=gpio spi dialout input",
        "DevicePolicy=closed",
        "NoNewPrivileges=yes",
        "ProtectSystem=strict",
        "ProtectHome=yes",
        "PrivateTmp=yes",
        "RestrictAddressFamilies=AF_UNIX",
        "SystemCallFilter=",
    ):
        assert setting in text, setting


def test_unit_leaves_what_the_gpio_libraries_need() -> None:
    """Found on the emulated Pi (tests/system): each of these stopped the table at first boot.

    lgpio makes its FIFOs in the working directory (/ is read-only under
    ProtectSystem=strict); ProcSubset=pid hides /proc/cpuinfo and /proc/device-tree,
    where gpiozero and rpi_ws281x find the board; rpi_ws281x's SPI mode maps /dev/gpiomem.
    """
    settings = [
        ln.strip()
        for ln in (SYSTEMD / "tavola.service").read_text().splitlines()
        if ln.strip() and not ln.startswith("#")
    ]
    assert "WorkingDirectory=/var/lib/tavola" in settings
    assert "StateDirectory=tavola" in settings  # ... which makes that directory the user's
    assert not any(s.startswith("ProcSubset=") for s in settings)
    assert "DeviceAllow=/dev/gpiomem rw" in settings
    assert not any(s.startswith("PrivateDevices=") for s in settings)  # hides the GPIO chips


def test_udev_rules_give_the_gpio_and_spi_devices_to_their_groups() -> None:
    rules = (SYSTEMD / "99-tavola.rules").read_text()
    for line in (
        'SUBSYSTEM=="gpio", KERNEL=="gpiochip*", GROUP="gpio", MODE="0660"',
        'KERNEL=="gpiomem*", GROUP="gpio", MODE="0660"',
        'SUBSYSTEM=="spidev", KERNEL=="spidev*", GROUP="spi", MODE="0660"',
    ):
        assert line in rules.splitlines(), line


def test_udev_rules_are_well_formed() -> None:
    rule = re.compile(r'^([A-Za-z{}_]+)(==|!=|=|\+=)"[^"]*"$')
    lines = [
        ln
        for ln in (SYSTEMD / "99-tavola.rules").read_text().splitlines()
        if ln.strip() and not ln.startswith("#")
    ]
    assert lines
    symlinks = set()
    for line in lines:
        parts = [p.strip() for p in line.split(", ")]
        for part in parts:
            assert rule.match(part), part
        symlinks.update(re.findall(r'SYMLINK\+="([^"]+)"', line))
    assert {"tavola-mcu", "tavola-scanner"} <= symlinks
