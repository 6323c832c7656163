"""`systemd/install.sh` on a 64-bit Pi OS Lite-like userland: an arm64 root in a chroot.

The root is the guest image's own (`root.tar`: Debian bookworm arm64 with no compiler and
no python3-dev), unpacked afresh; its programs run under qemu-user.
There is no systemd in a chroot, so the installer's systemctl and udev steps are
skipped; the guest boots and runs them (test_appliance.py). Pi OS's own archive
(python3-lgpio) is out of reach here: the installer takes lgpio's wheel from PyPI,
as it does on plain Debian.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.system.conftest import FIGURES, SOURCE, image_dir, source_tarball

HERE = Path(__file__).resolve().parent


class Chroot:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.mounts: list[Path] = []

    def mount(self) -> None:
        subprocess.run(["bash", "-c", f"source {HERE / 'lib.sh'} && binfmt_aarch64"], check=True)
        for args, target in (
            (["-t", "proc", "proc"], "proc"),
            (["-t", "sysfs", "sys"], "sys"),
            (["--bind", "/dev"], "dev"),
            (["--bind", "/dev/pts"], "dev/pts"),
        ):
            path = self.root / target
            subprocess.run(["mount", *args, str(path)], check=True)
            self.mounts.append(path)
        shutil.copy("/etc/resolv.conf", self.root / "etc/resolv.conf")

    def umount(self) -> None:
        for path in reversed(self.mounts):
            subprocess.run(["umount", "-l", str(path)], check=False)
        self.mounts.clear()

    def run(
        self, command: str, *, timeout: float = 1800, env: dict[str, str] | None = None
    ) -> subprocess.CompletedProcess[str]:
        """`command` in the root as its root user, with a login's clean environment."""
        base = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "HOME": "/root", "LANG": "C.UTF-8"}
        pairs = [f"{k}={v}" for k, v in {**base, **(env or {})}.items()]
        return subprocess.run(
            ["chroot", str(self.root), "/usr/bin/env", "-i", *pairs, "/bin/bash", "-c", command],
            capture_output=True,
            text=True,
            timeout=timeout,
        )


@pytest.fixture(scope="module")
def pi_os(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Chroot]:
    if os.geteuid() != 0:
        pytest.fail("the arm64 root needs root (chroot, mount): run make system-test as root")
    work = tmp_path_factory.mktemp("pi-os")
    root = work / "root"
    root.mkdir()
    subprocess.run(
        ["tar", "-C", str(root), "--numeric-owner", "-xf", str(image_dir() / "root.tar")],
        check=True,
    )
    tarball = source_tarball(work)
    (root / "home/pi/tavola").mkdir(parents=True)
    subprocess.run(["tar", "-C", str(root / "home/pi/tavola"), "-xf", str(tarball)], check=True)
    chroot = Chroot(root)
    try:
        chroot.mount()
        yield chroot
    finally:
        chroot.umount()
        shutil.rmtree(root, ignore_errors=True)


SKIP = {"TAVOLA_SKIP": "systemctl,udev"}  # no systemd in a chroot


def test_the_root_is_arm64_without_a_compiler(pi_os: Chroot) -> None:
    r = pi_os.run(
        "uname -m; command -v gcc cc || echo no-compiler; "
        "ls /usr/include/python3*/Python.h 2>/dev/null || echo no-python3-dev"
    )
    assert r.stdout.split() == ["aarch64", "no-compiler", "no-python3-dev"], r


def test_install_sh_completes_and_compiles_nothing(pi_os: Chroot) -> None:
    import time

    t0 = time.monotonic()
    r = pi_os.run("cd /home/pi/tavola && systemd/install.sh", env=SKIP)
    FIGURES["install.sh on the arm64 root (qemu-user)"] = f"{time.monotonic() - t0:.0f} s"
    assert r.returncode == 0, r.stdout + r.stderr
    assert "tavola install: done" in r.stdout
    assert pi_os.run("command -v gcc cc").returncode != 0  # nothing was built
    probe = (
        "/opt/tavola/venv/bin/python -c 'import lgpio, spidev, gpiozero, "
        'importlib.metadata as m; print(m.version("gpiozero"))\' && '
        "/opt/tavola/venv/bin/tavola --help >/dev/null && id -nG tavola"
    )
    r = pi_os.run(probe)
    assert r.returncode == 0, r.stdout + r.stderr
    version, *groups = r.stdout.split()
    assert version == "2.0.1.post3"
    assert {"tavola", "gpio", "spi", "dialout"} <= set(groups)
    unit = (pi_os.root / "etc/systemd/system/tavola.service").read_text()
    assert unit == (SOURCE / "systemd/tavola.service").read_text()


def test_install_sh_pwm_builds_rpi_ws281x(pi_os: Chroot) -> None:
    import time

    t0 = time.monotonic()
    r = pi_os.run("cd /home/pi/tavola && systemd/install.sh --pwm", env=SKIP)
    FIGURES["install.sh --pwm on the arm64 root (builds rpi-ws281x)"] = (
        f"{time.monotonic() - t0:.0f} s"
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert "installed the PWM drop-in" in r.stdout
    r = pi_os.run("/opt/tavola/venv/bin/python -c 'import rpi_ws281x'")
    assert r.returncode == 0, r.stderr


FAILING_BEGIN = r"""
import sys
from hw.backends.ws281x import Ws281xStrip
from hw.strip import StripError
try:
    Ws281xStrip(8, pin=18, model_path=sys.argv[1], dev_mem=sys.argv[2])
except StripError as e:
    print(e)
    sys.exit(1)
print("began")
"""


def test_the_real_rpi_ws281x_failing_begin_is_reported_without_a_segfault(pi_os: Chroot) -> None:
    """The real library: in this chroot /proc is the host's, so rpi_ws281x finds no Pi
    revision and ws2811_init fails ("Hardware revision is not supported"), the error some
    Pi 3 revisions meet; its exit hook then used to segfault (status 139)."""
    model = pi_os.root / "tmp/model"
    model.write_bytes(b"Raspberry Pi 3 Model B Rev 1.2\x00")
    (pi_os.root / "tmp/mem").write_bytes(b"")
    script = pi_os.root / "tmp/begin.py"
    script.write_text(FAILING_BEGIN)
    r = pi_os.run("cd /tmp && /opt/tavola/venv/bin/python /tmp/begin.py /tmp/model /tmp/mem")
    assert r.returncode != 139 and r.returncode != -11, f"segfault at exit: {r}"
    assert r.returncode == 1, r.stdout + r.stderr
    assert "Hardware revision is not supported" in r.stdout, r.stdout
    assert "audio" not in r.stdout and "Traceback" not in r.stderr
