"""Which board this is: the device tree says, without importing any GPIO library.

Backends ask before touching hardware, because constructing `rpi_ws281x`'s strip
off a Pi segfaults at exit and the Pi 5 needs a different LED backend.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, MutableMapping
from pathlib import Path

MODEL_PATH = Path("/proc/device-tree/model")


def pi_model(path: str | Path = MODEL_PATH) -> str | None:
    """The board's model string ("Raspberry Pi 4 Model B Rev 1.4"), or None off a Pi."""
    try:
        raw = Path(path).read_bytes()
    except OSError:
        return None
    model = raw.rstrip(b"\0").decode("ascii", "replace").strip()
    return model if model.startswith("Raspberry Pi") else None


def is_pi5(model: str | None) -> bool:
    """The Pi 5 (and its CM5/500 relatives) route GPIO through the RP1 chip: no PWM/PCM DMA."""
    if not model:
        return False
    return any(
        tag in model
        for tag in ("Raspberry Pi 5", "Raspberry Pi Compute Module 5", "Raspberry Pi 500")
    )


def describe(path: str | Path = MODEL_PATH) -> str:
    """A line for reports: the model, or why there is none."""
    model = pi_model(path)
    return model if model else f"not a Raspberry Pi ({path} does not name one)"


def _writable(path: str) -> bool:
    return os.access(path, os.W_OK | os.X_OK)


def lgpio_workdir(
    environ: MutableMapping[str, str] = os.environ, writable: Callable[[str], bool] = _writable
) -> str | None:
    """Give lgpio a writable directory for its FIFOs before anything imports it.

    `import lgpio` makes its notification FIFOs (`.lgd-nfy*`) in `$LG_WD`, else in the
    working directory, and fails where that is read-only: `sudo -u tavola tavola doctor`
    from a home the user cannot write, or a service's `/`. Sets `LG_WD` to the service's
    runtime or state directory, `$XDG_RUNTIME_DIR`, or a private temporary directory;
    returns it, or None when `LG_WD` is set already or the working directory will do.
    """
    if environ.get("LG_WD"):
        return None
    try:
        if writable(os.getcwd()):
            return None
    except OSError:  # the working directory was removed
        pass
    for key in ("RUNTIME_DIRECTORY", "STATE_DIRECTORY", "XDG_RUNTIME_DIR"):
        found = environ.get(key, "").split(":")[0]
        if found and writable(found):
            environ["LG_WD"] = found
            return found
    environ["LG_WD"] = tempfile.mkdtemp(prefix="tavola-lgpio-")
    return environ["LG_WD"]
