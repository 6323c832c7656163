"""Fixtures for serial tests: emulated devices on real ptys, closed after every test."""

from __future__ import annotations

import functools
import queue
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.emulator import McuEmulator, PtyDevice, ScannerEmulator
from firmware_bridge.events import LinkEvent

#: fast reopening for tests; the defaults (0.1 s doubling to 5 s) suit a table
FAST = {"backoff_s": 0.02, "backoff_max_s": 0.1, "read_timeout_s": 0.02}
WAIT_S = 10.0  # generous: a loaded 2-core machine must not fail a test by slowness


def wait_for(predicate: Callable[[], Any], timeout: float = WAIT_S) -> Any:
    """Poll until `predicate()` is truthy; its value, or AssertionError on timeout."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {predicate}")
        time.sleep(0.005)


def next_event(events: queue.Queue[Any], kind: type, timeout: float = WAIT_S) -> Any:
    """The next event of type `kind`, skipping others (link messages, say)."""
    deadline = time.monotonic() + timeout
    while True:
        ev = events.get(timeout=max(0.0, deadline - time.monotonic()))
        if isinstance(ev, kind):
            return ev


def link_events(events: list[Any]) -> list[str]:
    return [e.kind for e in events if isinstance(e, LinkEvent)]


@pytest.fixture
def device_path(tmp_path: Path) -> Path:
    return tmp_path / "tavola-device"


@pytest.fixture
def emulators(device_path: Path) -> Iterator[Callable[..., PtyDevice]]:
    """`make(Class, **options)`: an emulated device at `device_path`, closed after the test."""
    made: list[PtyDevice] = []

    def make(cls: type[PtyDevice], **kw: Any) -> PtyDevice:
        emu = cls(device_path, **kw)
        made.append(emu)
        return emu

    yield make
    for emu in made:
        emu.close()


@pytest.fixture
def mcu_emulator(emulators: Callable[..., PtyDevice]) -> Callable[..., McuEmulator]:
    return functools.partial(emulators, McuEmulator)  # type: ignore[return-value]


@pytest.fixture
def scanner_emulator(emulators: Callable[..., PtyDevice]) -> Callable[..., ScannerEmulator]:
    return functools.partial(emulators, ScannerEmulator)  # type: ignore[return-value]
