"""The unit files as systemd itself reads them: verify, security exposure, udev rules."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support import SCRIPT

SYSTEMD = Path(__file__).resolve().parents[2] / "systemd"
MAX_EXPOSURE = 1.0


def analyze() -> str:
    found = shutil.which("systemd-analyze")
    assert found, "systemd-analyze is missing: scripts/system-deps.sh installs it"
    return found


def unit_copy(tmp: Path, *, dropin: bool = False) -> Path:
    """The unit with ExecStart pointing at this venv's tavola (verify checks it exists)."""
    text = (SYSTEMD / "tavola.service").read_text()
    assert "ExecStart=/opt/tavola/venv/bin/tavola run" in text
    unit = tmp / "tavola.service"
    unit.write_text(text.replace("/opt/tavola/venv/bin/tavola", str(SCRIPT)))
    if dropin:
        d = tmp / "tavola.service.d"
        d.mkdir()
        shutil.copy(SYSTEMD / "tavola-pwm-root.conf", d / "pwm-root.conf")
    return unit


@pytest.mark.parametrize("dropin", [False, True], ids=["default", "pwm-drop-in"])
def test_systemd_analyze_verify_prints_no_warning(tmp_path: Path, dropin: bool) -> None:
    unit = unit_copy(tmp_path, dropin=dropin)
    proc = subprocess.run(
        [analyze(), "verify", str(unit)], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.strip() == ""


def test_security_exposure_is_at_most_one(tmp_path: Path) -> None:
    unit = unit_copy(tmp_path)
    proc = subprocess.run(
        [analyze(), "security", "--offline=true", str(unit)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    match = re.search(r"Overall exposure level for tavola\.service: (\d+\.\d+)", proc.stdout)
    assert match, proc.stdout + proc.stderr
    exposure = float(match.group(1))
    print(f"exposure {exposure}")
    assert exposure <= MAX_EXPOSURE


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
