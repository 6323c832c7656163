"""A real MicroPython for the firmware's tests and benchmark: the WebAssembly port from
the npm registry, under Node.js (`bash scripts/micropython.sh` installs it; `make test`
and `make bench` do).

It runs the Pico's shared modules (firmware_bridge/firmware) as the Pico lays them
out, one module per file at the root. What it cannot show: the RP2040's speed, its
USB stack, PIO, DMA and interrupts (tests/firmware_bridge/mpy/sim.py models those).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUNNER = ROOT / "scripts" / "micropython.mjs"
FIRMWARE = ROOT / "firmware_bridge" / "firmware"
SCENARIOS = ROOT / "tests" / "firmware_bridge" / "mpy"
PORT = Path(os.environ.get("TAVOLA_MICROPYTHON", ROOT / ".venv" / "micropython"))
PACKAGE = PORT / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"


def missing() -> str | None:
    """Why MicroPython cannot run here, or None when it can."""
    if shutil.which("node") is None:
        return "Node.js is not installed (sudo apt-get install nodejs npm)"
    if not (PACKAGE / "micropython.mjs").exists():
        return f"MicroPython's WebAssembly port is not in {PORT}: run bash scripts/micropython.sh"
    return None


def run(
    script: Path, *, libs: tuple[Path, ...] = (FIRMWARE, SCENARIOS), timeout: float = 600
) -> str:
    """stdout of `script` run in MicroPython with the modules of `libs` beside it."""
    reason = missing()
    if reason:
        raise RuntimeError(reason)
    args = ["node", str(RUNNER)]
    for lib in libs:
        args += ["--lib", str(lib)]
    env = {**os.environ, "TAVOLA_MICROPYTHON": str(PORT)}
    out = subprocess.run(
        [*args, str(script)], capture_output=True, text=True, timeout=timeout, cwd=ROOT, env=env
    )
    if out.returncode != 0:
        raise RuntimeError(f"MicroPython failed ({out.returncode}):\n{out.stderr}")
    return out.stdout


def run_cpython(
    script: Path,
    *,
    libs: tuple[Path, ...] = (FIRMWARE, SCENARIOS),
    python: str = "python3",
    timeout: float = 600,
) -> str:
    """The same script in CPython, the modules laid out the same way."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(str(p) for p in libs)}
    out = subprocess.run(
        [python, str(script)],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        env=env,
        check=True,
    )
    return out.stdout
