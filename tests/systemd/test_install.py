"""systemd/install.sh into a scratch root: idempotent, keeps config and games on uninstall.

The steps that need a real Raspberry Pi OS (apt, the system user, systemctl, udev)
are skipped through TAVOLA_SKIP; the code really is installed into a new venv.
"""

from __future__ import annotations

import os
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
INSTALL = REPO / "systemd" / "install.sh"


def run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(
        os.environ,
        TAVOLA_ROOT=str(root),
        TAVOLA_SKIP="apt,user,systemctl,udev",
        TAVOLA_EXTRAS="",  # rpi-ws281x and lgpio build only on a Pi
        PIP_DISABLE_PIP_VERSION_CHECK="1",
    )
    return subprocess.run(
        ["bash", str(INSTALL), *args], capture_output=True, text=True, env=env, timeout=600
    )


def test_install_twice_then_uninstall_keeps_the_games(tmp_path: Path) -> None:
    root = tmp_path / "root"
    first = run(root)
    assert first.returncode == 0, first.stderr
    assert "wrote the default config" in first.stdout
    tavola = root / "opt/tavola/venv/bin/tavola"
    assert tavola.exists()
    unit = root / "etc/systemd/system/tavola.service"
    assert unit.read_text() == (REPO / "systemd/tavola.service").read_text()
    assert (root / "etc/udev/rules.d/99-tavola.rules").exists()
    config = root / "etc/tavola/tavola.toml"
    config.write_text(config.read_text().replace("brightness = 0.6", "brightness = 0.3"))
    help_text = subprocess.run(
        [str(tavola), "run", "--help"], capture_output=True, text=True, check=True
    ).stdout
    assert "--config" in help_text

    (root / "var/lib/tavola/tavola.db").write_bytes(b"games")
    config.write_text(config.read_text() + "\n[web]\nport = 8765\n")
    (root / "etc/avahi").mkdir(parents=True)  # Pi OS runs avahi
    second = run(root, "--pwm", "--web")
    assert second.returncode == 0, second.stderr
    assert "kept your config" in second.stdout
    assert "brightness = 0.3" in config.read_text()  # the owner's edit survives
    dropins = root / "etc/systemd/system/tavola.service.d"
    assert (dropins / "pwm-root.conf").exists()
    assert (dropins / "web.conf").read_text() == (REPO / "systemd/tavola-web.conf").read_text()
    assert (root / "etc/tavola").stat().st_mode & 0o777 == 0o775  # the page writes it back
    announced = ET.parse(root / "etc/avahi/services/tavola.service").getroot()
    assert announced.findtext("service/port") == "8765"  # the config's [web] port
    assert "announced the page over mDNS on port 8765" in second.stdout

    gone = run(root, "--uninstall")
    assert gone.returncode == 0, gone.stderr
    assert not (root / "opt/tavola").exists() and not unit.exists()
    assert not (root / "etc/systemd/system/tavola.service.d").exists()
    assert not (root / "etc/avahi/services/tavola.service").exists()
    assert (root / "var/lib/tavola/tavola.db").read_bytes() == b"games"
    assert config.exists()


def test_unknown_option_is_refused() -> None:
    proc = subprocess.run(
        ["bash", str(INSTALL), "--frobnicate"],
        capture_output=True,
        text=True,
        env=dict(os.environ, TAVOLA_ROOT="/nonexistent"),
    )
    assert proc.returncode == 2 and "unknown option --frobnicate" in proc.stderr


def test_the_mdns_announcement_is_avahis_service_xml() -> None:
    """avahi-daemon reads /etc/avahi/services/*.service (avahi.service(5)): a service-group
    with a name and one service of a DNS-SD type, a port and TXT records."""
    text = (REPO / "systemd/tavola-avahi.service").read_text()
    assert text.startswith('<?xml version="1.0" standalone="no"?>\n<!DOCTYPE service-group')
    group = ET.fromstring(text)
    assert group.tag == "service-group"
    assert [c.tag for c in group] == ["name", "service"]
    name = group.find("name")
    assert name is not None and name.get("replace-wildcards") == "yes" and "%h" in name.text
    service = group.find("service")
    assert service is not None
    assert [c.tag for c in service] == ["type", "port", "txt-record"]
    assert service.findtext("type") == "_http._tcp"
    assert service.findtext("port") == "8080"  # install.sh writes the config's port here
    assert service.findtext("txt-record") == "path=/"


def test_help_names_every_option() -> None:
    proc = subprocess.run(["bash", str(INSTALL), "--help"], capture_output=True, text=True)
    assert proc.returncode == 0
    for option in ("--pwm", "--web", "--uninstall", "TAVOLA_EXTRAS"):
        assert option in proc.stdout, option
    assert "set -euo" not in proc.stdout  # the comment block only
