"""One module per LED backend, each declaring itself in a `Backend`; opened by name.

A backend module says everything about itself in one place: the `[strip]` keys it takes
(beyond `backend`, `count`, `order` and `segments`), the colour orders it can carry,
the checks that need more than one key, and how it opens. The config check
(`hw.config`) and `open_strip` look it up in `MODULES`, so a new backend is a module and
one line there. Each backend imports its hardware library only when a strip opens, so
importing `hw.backends` is safe on any machine.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hw.schema import Section, Table
from hw.strip import Strip, StripError

if TYPE_CHECKING:
    from hw.config import StripConfig

__all__ = ["MODULES", "Backend", "backend", "backends", "open_strip", "own_keys"]


def own_keys(table: Section, keys: Table) -> dict[str, Any]:
    """A backend's own checked keys as `StripConfig` fields (the default `settings`)."""
    return {k.name: table[k.name] for k in keys.keys}


@dataclass(frozen=True)
class Backend:
    """An LED backend as the config file and the table see it."""

    name: str
    keys: Table = field(default_factory=Table)
    """Its own `[strip]` keys; their checked values become `StripConfig` fields."""
    default_order: str = "RGB"
    channels: tuple[int, ...] = (3, 4)
    """Colour channels it can carry (3: RGB, 4: RGBW)."""
    channels_help: str = ""
    """Why another `order` length is refused, with the fix."""
    settings: Callable[[Section, Table], dict[str, Any]] = own_keys
    """The `StripConfig` fields from the checked table (cross-key checks raise here)."""
    open: Callable[..., Strip] | None = None
    """`open(config, **overrides)`; None when another layer opens it (`unopened` says who)."""
    unopened: str = ""


MCU = Backend(
    "mcu",
    default_order="GRB",
    channels=(3,),
    channels_help="the table microcontroller drives 3-channel WS2812 strips only",
    unopened="the mcu backend rides the [mcu] board's link: open it with "
    "firmware_bridge.mcu.McuStrip (apps.runtime does)",
)
"""The table microcontroller's strip: hw imports no serial protocol, so it has no module
here; its device is the `[mcu]` table's (firmware_bridge.config)."""

MODULES: dict[str, str | Backend] = {
    "ws281x": "hw.backends.ws281x",
    "spi": "hw.backends.spi",
    "adalight": "hw.backends.adalight",
    "mcu": MCU,
    "mock": "hw.backends.mock",
    "terminal": "hw.backends.terminal",
}
"""Backend name -> the module declaring it as `BACKEND` (or the declaration itself)."""


def backend(name: str) -> Backend:
    """The declaration of backend `name` (StripError for a name no module declares)."""
    entry = MODULES.get(name)
    if entry is None:
        raise StripError(f"unknown LED backend {name!r}: one of {', '.join(MODULES)}")
    if isinstance(entry, Backend):
        return entry
    declared: Backend = importlib.import_module(entry).BACKEND
    return declared


def backends() -> dict[str, Backend]:
    """Every backend, in `MODULES` order (the order `--help` and messages list them)."""
    return {name: backend(name) for name in MODULES}


def open_strip(config: StripConfig, **overrides: Any) -> Strip:
    """The strip `config` describes; `overrides` reach the backend (e.g. a stream, test paths)."""
    b = backend(config.backend)
    if b.open is None:
        raise StripError(b.unopened)
    return b.open(config, **overrides)
