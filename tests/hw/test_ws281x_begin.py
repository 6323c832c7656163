"""A failing rpi_ws281x `begin()`: the message fits the error, and the process exits cleanly.

rpi_ws281x's PixelStrip registers an atexit hook that calls ws2811_fini, which after a
failed ws2811_init dereferences a device never set up: a segfault (status 139) at exit.
The stand-in library below registers a hook that kills the process with SIGSEGV in the
same place, so the test sees what a user would: a traceback-free message and status 1,
or a crash. The real library is exercised on the arm64 root (tests/system).
"""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

SCRIPT = textwrap.dedent("""
    import atexit, os, signal, sys, types
    ws = types.ModuleType("rpi_ws281x.ws")
    ws.WS2811_STRIP_GRB = 0x00081000

    class PixelStrip:
        def __init__(self, *args, **kwargs):
            atexit.register(self._cleanup)  # as rpi_ws281x does

        def _cleanup(self):  # ws2811_fini on a device ws2811_init never made
            os.kill(os.getpid(), signal.SIGSEGV)

        def begin(self):
            raise RuntimeError("ws2811_init failed with code -3 (Hardware revision is not "
                               "supported)")

    mod = types.ModuleType("rpi_ws281x")
    mod.ws, mod.PixelStrip = ws, PixelStrip
    sys.modules["rpi_ws281x"] = mod
    from hw.backends.ws281x import Ws281xStrip
    from hw.strip import StripError
    try:
        Ws281xStrip(8, pin=18, model_path=sys.argv[1], dev_mem=sys.argv[2])
    except StripError as e:
        print(e)
        sys.exit(1)
""")


def test_failed_begin_reports_and_exits_without_a_segfault(tmp_path: Path) -> None:
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 3 Model B Rev 1.2\x00")
    mem = tmp_path / "mem"
    mem.write_bytes(b"")
    proc = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(model), str(mem)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode != -signal.SIGSEGV, "segfault at exit (status 139 in a shell)"
    assert proc.returncode == 1, proc.stderr
    assert "Hardware revision is not supported" in proc.stdout
    assert "Raspberry Pi 3 Model B Rev 1.2" in proc.stdout
    assert "audio" not in proc.stdout and "dma" not in proc.stdout
    assert "Traceback" not in proc.stderr


def test_each_begin_failure_gets_the_hint_that_fits() -> None:
    from hw.backends.ws281x import begin_failed

    hw = begin_failed(
        "ws2811_init failed with code -3 (Hardware revision is not supported)",
        "PWM0",
        "Raspberry Pi 3 Model B Rev 1.2",
    )
    assert "upgrade it (pip install -U rpi-ws281x)" in hw and 'backend = "spi"' in hw
    assert "audio" not in hw
    spi = begin_failed(
        "ws2811_init failed with code -13 (Unable to initialize SPI)",
        "SPI",
        "Raspberry Pi 4 Model B Rev 1.4",
    )
    assert "/dev/gpiomem" in spi and "audio" not in spi
    pwm = begin_failed(
        "ws2811_init failed with code -5 (Failed to create mailbox device)",
        "PWM0",
        "Raspberry Pi 4 Model B Rev 1.4",
    )
    assert "dtparam=audio=off" in pwm and "dma is 10" in pwm
