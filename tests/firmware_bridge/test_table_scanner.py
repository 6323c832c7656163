"""End to end over a real pty: a card scanned at the emulated board becomes the draw, the
journal has it, and the board's lights show it; bad scans flash red and change nothing;
pulling the cable mid-game loses nothing."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from apps.cards import CardRegistry, demo_ids
from apps.runtime import Appliance
from apps.sim import ManualClock, demo_config
from engine.core import CHANCE
from firmware_bridge.config import BridgeConfig, McuConfig, ScannerConfig
from firmware_bridge.emulator import McuEmulator
from firmware_bridge.ports import DeviceSpec

from .conftest import WAIT_S

FRAME_S = 0.02  # more than the pipeline's 1/60 s, so every tick may push a frame


class Scanning:
    """A mocked table whose chance source is a scanner on an emulated board."""

    def __init__(self, table: Appliance, clock: ManualClock, said: list[str]) -> None:
        self.table, self.clock, self.said = table, clock, said
        self.app = table.app
        self.ids = demo_ids("strozzi")
        self.used: set[str] = set()

    def pump(self, until: Callable[[], Any] = lambda: True) -> None:
        """Handle queued events (blocking briefly for the link's) until `until()`, render."""
        deadline = time.monotonic() + WAIT_S
        while True:
            while not self.table.events.empty():
                self.table.step(0)
            if until():
                break
            assert time.monotonic() < deadline, "the table never got there"
            self.table.step(0.05)
        self.clock.advance(FRAME_S)
        self.app.tick()

    def press(self, seat: str, button: str) -> None:
        buttons = self.table.buttons
        buttons.press_pin(seat, button, True)
        self.clock.advance(0.05)
        buttons.process()
        buttons.press_pin(seat, button, False)
        self.clock.advance(0.05)
        buttons.process()
        self.pump()

    def seat(self, *seats: str) -> None:
        """Each seat joins with select; menu starts the game."""
        for seat in seats:
            self.press(seat, "select")
        self.press("table", "menu")

    def id_for(self, text: str) -> str:
        code = next(c for c, card in self.ids.items() if card == text and c not in self.used)
        self.used.add(code)
        return code

    def history(self) -> list[str]:
        assert self.app.state is not None
        return [a.text for a in self.app.state.history]

    def snapshot(self) -> str:
        assert self.app.state is not None
        return json.dumps(self.app.state.to_dict(), sort_keys=True)

    def heard(self, text: str) -> int:
        return sum(text in line for line in self.said)


@pytest.fixture
def scanning(tmp_path: Path, mcu_emulator) -> Iterator[Callable[..., tuple[Scanning, Any]]]:
    tables: list[Appliance] = []

    def make(kind: str = "mcu") -> tuple[Scanning, Any]:
        registry = CardRegistry(tmp_path / "cards.toml")
        for code, card in demo_ids("strozzi").items():
            registry.assign("strozzi", code, card)
        registry.save()
        link = tmp_path / "tavola-device"
        config = demo_config(  # every card of the shipped deck tagged: that deck is played
            "strozzi",
            3,
            journal=tmp_path / "journal.db",
            seed=5,
            chance="scanner",
            options={"ships": "deck"},
        )
        assert config.app.chance == "scanner"
        emu = mcu_emulator(leds=config.hw.strip.count)
        scanner = ScannerConfig(kind="mcu", device=None, cards=tmp_path / "cards.toml")
        config = replace(
            config,
            bridge=BridgeConfig(
                scanner=scanner, mcu=McuConfig(DeviceSpec(path=str(link))), strip_on_mcu=True
            ),
        )
        clock = ManualClock()
        said: list[str] = []
        table = Appliance(config, clock=clock, button_thread=False, say=said.append)
        tables.append(table)
        run = Scanning(table, clock, said)
        table.app.start()
        assert table.peripherals.mcu is not None
        run.pump(until=table.peripherals.mcu.ready.is_set)
        return run, emu

    yield make
    for table in tables:
        table.close()


def journal(path: Path) -> list[str]:
    db = sqlite3.connect(path)
    try:
        return [t for (t,) in db.execute("SELECT text FROM actions ORDER BY seq")]
    finally:
        db.close()


def red_at(run: Scanning, seat: str) -> Callable[[bytes], bool]:
    """Whether a GRB wire frame shows the error light at `seat`'s status LED."""
    ((_, i),) = run.table.layouts["strozzi"].indices(f"seat.{seat}.status")

    def check(frame: bytes) -> bool:
        g, r, b = frame[3 * i : 3 * i + 3]
        return r > 0 and g == 0 and b == 0

    return check


def scan(run: Scanning, emu: McuEmulator, code: str, *, applied: bool, message: str = "") -> None:
    before = len(run.history())
    heard = run.heard(message)
    assert emu.scan(code)
    if applied:
        run.pump(until=lambda: len(run.history()) == before + 1)
    else:
        run.pump(until=lambda: run.heard(message) > heard)
        assert len(run.history()) == before


def test_scanned_cards_are_the_draws_and_the_board_shows_them(scanning, tmp_path: Path) -> None:
    run, emu = scanning()
    app = run.app
    run.seat("1", "2", "3")
    assert app.mode == "setup" and app._in_setup()

    # an id nobody paired, read at a draw: new to the table, learned once it is entered;
    # nothing changes yet (and a known card read next is the draw, not this one)
    scan(run, emu, "NOT-A-CARD", applied=False, message="Card NOT-A-CARD is new to the table")
    assert run.history() == [] and journal(tmp_path / "journal.db") == []

    # setup: three progress tokens turned face up, each by scanning it
    for _ in range(3):
        token = app.state.legal_actions()[0].text
        scan(run, emu, run.id_for(token), applied=True)
        assert run.history()[-1] == token
    run.press("1", "select")  # the board is laid out
    assert app.mode == "playing" and app.state.current_player() == CHANCE

    # the ship draw: scanned, applied, journalled, and the board shows the new frame
    copies = app.state.rules.copies  # a face of one card: once drawn, it cannot come up again
    ship = next(a.text for a in reversed(app.state.legal_actions()) if copies[a.text[5:]] == 1)
    code = run.id_for(ship)
    before = emu.frames[-1]
    scan(run, emu, code, applied=True)
    assert run.history()[-1] == ship and journal(tmp_path / "journal.db")[-1] == ship
    mcu = run.table.peripherals.mcu
    shown = emu.wait_frame(lambda f: f == mcu._latest)
    assert shown is not None and shown != before
    assert any(f"#{len(run.history())} draw: {ship}" in line for line in run.said)

    # the same card again at once: refused as a repeat
    frozen = run.snapshot()
    scan(run, emu, code, applied=False, message="was just read")
    assert run.snapshot() == frozen

    # a ship while a seat decides: no draw is due
    other = next(c for c, card in run.ids.items() if card.startswith("draw ") and c != code)
    frames = len(emu.frames)
    scan(run, emu, other, applied=False, message="no draw is due")
    assert emu.wait_frame(red_at(run, "1"), after=frames)  # every seat flashes red
    assert emu.wait_frame(red_at(run, "3"), after=frames)
    assert run.snapshot() == frozen

    # at the next draw, the ship already seen this round is refused by the rules
    while app.state.current_player() != CHANCE:
        app.confirm(app.state.legal_actions()[-1])
    run.clock.advance(3.0)  # past the repeat window
    scan(run, emu, code, applied=False, message="has already come up")
    assert journal(tmp_path / "journal.db") == run.history()


def test_pulling_the_board_mid_game_loses_nothing(scanning, tmp_path: Path) -> None:
    run, emu = scanning()
    app = run.app
    run.seat("1", "2", "3")
    for _ in range(3):
        scan(run, emu, run.id_for(app.state.legal_actions()[0].text), applied=True)
    run.press("1", "select")
    frozen = run.snapshot()

    frames = len(emu.frames)
    emu.unplug()
    mcu = run.table.peripherals.mcu
    run.pump(until=lambda: run.heard("unplugged"))
    tries = mcu.link.attempts
    run.pump(until=lambda: mcu.link.attempts >= tries + 3)  # it keeps trying, quietly
    run.clock.advance(0.5)
    app.tick()  # the table goes on rendering with the cable out
    assert run.heard("unplugged") == 1 and run.snapshot() == frozen

    emu.plug()
    run.pump(until=lambda: run.heard("is back") and mcu.ready.is_set())
    assert emu.wait_frame(lambda f: f == mcu._latest, after=frames)  # the lights come back
    ship = app.state.legal_actions()[0].text
    scan(run, emu, run.id_for(ship), applied=True)
    assert run.history()[-1] == ship
    assert journal(tmp_path / "journal.db") == run.history()
    assert run.heard("unplugged") == 1 and run.heard("is back") == 1


def test_seat_buttons_on_the_board_drive_the_table_like_gpio_buttons(scanning) -> None:
    run, emu = scanning()
    for seat in (1, 2, 3):  # a three-button seat's select acts on release
        assert emu.press(seat, "select", "press") and emu.press(seat, "select", "release")
    run.pump(until=lambda: len(run.app.seating.joined) == 3)
    assert emu.press("table", "menu", "press")
    run.pump(until=lambda: run.app.mode == "setup")
    assert run.app.players == ["1", "2", "3"]
