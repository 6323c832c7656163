"""The emulated Pi for the system tests: one boot per test module, figures at the end.

`make system-test` (tests/system/run.sh) builds or finds the image and sets
TAVOLA_SYSTEM_IMAGE; run by hand, the fixture asks build-image.sh for it. The tests
of a module run in order against the same guest: each leaves the table as the
next expects (installed, then played, then killed and resumed).
"""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.system.guest import Guest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
#: The checkout the guest installs: this one, or TAVOLA_SYSTEM_SOURCE (another checkout,
#: e.g. an older unit, to see what these tests catch in it).
SOURCE = Path(os.environ.get("TAVOLA_SYSTEM_SOURCE") or REPO).resolve()

#: Figures the tests measure, printed after the run: name -> text.
FIGURES: dict[str, str] = {}
_T0 = time.monotonic()


def image_dir() -> Path:
    env = os.environ.get("TAVOLA_SYSTEM_IMAGE")
    if env:
        return Path(env)
    out = subprocess.run(
        ["bash", str(HERE / "build-image.sh")], check=True, text=True, stdout=subprocess.PIPE
    ).stdout
    return Path(out.strip().splitlines()[-1])


def source_tarball(dest: Path) -> Path:
    """The project's files as a clone has them (tracked and new, not ignored), for the guest."""
    files = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z"],
        cwd=SOURCE,
        check=True,
        stdout=subprocess.PIPE,
    ).stdout.split(b"\0")
    present = [f for f in files if f and (SOURCE / f.decode()).is_file()]
    tarball = dest / "tavola-src.tar"
    subprocess.run(
        ["tar", "-C", str(SOURCE), "--null", "-T", "-", "-cf", str(tarball)],
        input=b"\0".join(present),
        check=True,
    )
    return tarball


@pytest.fixture(scope="module")
def guest(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Guest]:
    share = tmp_path_factory.mktemp("share")
    source_tarball(share)
    g = Guest(image_dir(), tmp_path_factory.mktemp("guest"), share)
    try:
        g.boot()
        FIGURES["boot (QEMU start to systemd: boot finished)"] = f"{g.boot_s:.1f} s"
        yield g
    finally:
        g.shutdown()
        print(f"\nguest console: {g.console}")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    FIGURES["system tests, wall time"] = f"{time.monotonic() - _T0:.1f} s"
    if os.environ.get("TAVOLA_SYSTEM_IMAGE_S"):
        FIGURES["image ready (built, or found in the cache)"] = (
            f"{os.environ['TAVOLA_SYSTEM_IMAGE_S']} s"
        )
    info = Path(os.environ.get("TAVOLA_SYSTEM_IMAGE", "/nonexistent")) / "build-info.txt"
    if info.exists():
        FIGURES["image build (build-info.txt)"] = info.read_text().splitlines()[0]
    terminalreporter.section("emulated Pi: figures (one run; the machine is shared, so noisy)")
    for name, value in FIGURES.items():
        terminalreporter.write_line(f"{name}: {value}")
