"""Which board this is: the device tree says, without importing any GPIO library.

Backends ask before touching hardware, because constructing `rpi_ws281x`'s strip
off a Pi segfaults at exit and the Pi 5 needs a different LED backend.
"""

from __future__ import annotations

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
    return any(tag in model for tag in ("Raspberry Pi 5", "Raspberry Pi Compute Module 5",
                                        "Raspberry Pi 500"))


def describe(path: str | Path = MODEL_PATH) -> str:
    """A line for reports: the model, or why there is none."""
    model = pi_model(path)
    return model if model else f"not a Raspberry Pi ({path} does not name one)"
