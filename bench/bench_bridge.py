"""Serial-peripheral costs, measured in one run: parser throughput and scan latency.

Figures:
- frames parsed per second by each parser (barcode lines, RDM6300 frames, MCU
  CARD frames and 240-byte LED chunks), fed in 4 KiB chunks as a read returns them;
- scan -> chance action applied: from the emulated board writing a CARD frame on
  its pty to the table having applied the draw and committed it to the journal
  (link thread wake-up, parse, ACK, queue, main loop, registry, engine, SQLite),
  p50/p99 over a Strozzi game's draws (target p99 <= 5 ms); and scan -> lights,
  to the board receiving the LED frame that shows it.

`python -m bench bridge --quick` (or TAVOLA_BENCH_QUICK=1) shortens the runs.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from apps.cards import CardRegistry, demo_ids
from apps.runtime import Appliance
from apps.sim import ManualClock, demo_config
from engine.core import CHANCE
from firmware_bridge.config import BridgeConfig, McuConfig, ScannerConfig
from firmware_bridge.emulator import McuEmulator
from firmware_bridge.firmware import proto
from firmware_bridge.firmware.rdm6300 import frame as rdm_frame
from firmware_bridge.parsers import FrameParser, LineParser, Rdm6300Parser
from firmware_bridge.ports import DeviceSpec
from firmware_bridge.protocol import Card, encode, led_messages

QUICK = "--quick" in sys.argv or bool(os.environ.get("TAVOLA_BENCH_QUICK"))
CHUNK = 4096


def throughput(label: str, make: Callable[[], object], frame: bytes, count: int) -> str:
    data = frame * count
    chunks = [data[i : i + CHUNK] for i in range(0, len(data), CHUNK)]
    parser = make()
    found = 0
    start = time.perf_counter()
    for chunk in chunks:
        found += len(parser.feed(chunk))  # type: ignore[attr-defined]
    seconds = time.perf_counter() - start
    assert found == count, (label, found, count)
    return (
        f"{label}: {count / seconds:,.0f} frames/s ({len(data) / seconds / 1e6:.1f} MB/s, "
        f"{len(frame)} bytes a frame)"
    )


def parser_lines() -> list[str]:
    n = 20_000 if QUICK else 100_000
    led = b"".join(encode(m, 1) for m in led_messages(1, bytes(range(240))))
    return [
        throughput("barcode lines", LineParser, b"04A1B2C3D4\r\n", n),
        throughput("RDM6300 frames", Rdm6300Parser, rdm_frame("0A0079A2B1"), n),
        throughput("MCU CARD frames", FrameParser, encode(Card(0, "04A1B2C3D4"), 7), n),
        throughput("MCU LED chunks (240 data bytes)", FrameParser, led, n // 10),
    ]


def percentiles(samples: list[float]) -> str:
    s = sorted(samples)
    p50 = s[len(s) // 2]
    p99 = s[min(len(s) - 1, int(len(s) * 0.99))]
    return f"p50 {p50 * 1e3:.2f} ms, p99 {p99 * 1e3:.2f} ms, max {s[-1] * 1e3:.2f} ms"


def latency_lines() -> list[str]:
    """Scans of real draws through a mocked Strozzi table whose strip and reader are the
    emulated board, until enough draws were timed (new games as they end)."""
    want = 150 if QUICK else 600
    times: dict[str, list[float]] = {"applied": [], "lit": [], "queued": [], "journal": []}
    with tempfile.TemporaryDirectory(prefix="tavola-bench-") as tmp:
        games = 0
        while len(times["applied"]) < want:
            games += 1
            one_game(Path(tmp), games, want - len(times["applied"]), times)
    return [
        f"scan -> draw applied and journalled: {percentiles(times['applied'])} "
        f"over {len(times['applied'])} scans ({games} games); target p99 <= 5 ms",
        f"  of which scan -> handled by the main loop: {percentiles(times['queued'])}",
        f"  of which the journal's commit (SQLite, synchronous FULL): "
        f"{percentiles(times['journal'])}",
        f"scan -> the board has the frame showing it: {percentiles(times['lit'])}",
    ]


def one_game(tmp: Path, n: int, want: int, times: dict[str, list[float]]) -> None:
    registry = CardRegistry(tmp / f"cards{n}.toml")
    ids = demo_ids("strozzi")
    for code, card in ids.items():
        registry.assign("strozzi", code, card)
    registry.save()
    by_card: dict[str, list[str]] = {}
    for code, card in ids.items():
        by_card.setdefault(card, []).append(code)
    link = tmp / f"mcu{n}"
    # the shipped deck, as its tags are registered (not any face, as an unchecked deck is)
    config = demo_config(
        "strozzi",
        4,
        journal=tmp / f"journal{n}.db",
        seed=n,
        chance="scanner",
        options={"ships": "deck"},
    )
    assert config.hw.strip is not None
    emu = McuEmulator(link, leds=config.hw.strip.count, poll_s=0.05)
    shown: list[float] = []
    emu.device.on_leds = lambda data: shown.append(time.perf_counter())
    config = replace(
        config,
        bridge=BridgeConfig(
            scanner=ScannerConfig(kind="mcu", device=None, cards=registry.path),
            mcu=McuConfig(DeviceSpec(path=str(link))),
            strip_on_mcu=True,
        ),
    )
    clock = ManualClock()
    table = Appliance(config, clock=clock, button_thread=False, say=lambda text: None)
    applied, lit = times["applied"], times["lit"]
    want += len(applied)
    marks: dict[str, float] = {}
    handle_card, append = table.app.handle_card, table.journal.append

    def timed_handle(code: str, now: float) -> None:
        marks["handled"] = time.perf_counter()
        handle_card(code, now)

    def timed_append(*args: object) -> None:
        start = time.perf_counter()
        append(*args)  # type: ignore[arg-type]
        marks["journal"] = time.perf_counter() - start

    table.app.handle_card = timed_handle  # type: ignore[method-assign]
    table.journal.append = timed_append  # type: ignore[method-assign]
    try:
        app = table.app
        app.start()
        mcu = table.peripherals.mcu
        assert mcu is not None and mcu.ready.wait(10)
        for seat in ("1", "2", "3", "4"):
            press(table, clock, seat)
        press(table, clock, "table", "menu")
        while not app.state.is_over() and len(applied) < want:
            state = app.state
            if state.current_player() != CHANCE:
                app.confirm(state.legal_actions()[-1])  # the seats decide: not timed
                continue
            if app.mode == "scoring" or (app.mode == "setup" and not app._in_setup()):
                press(table, clock, "1")  # skip the scoring lights; the board is laid out
                continue
            card = state.legal_actions()[0].text
            codes = by_card[card]  # ships come back each round: the same card, read again
            code = codes.pop(0)
            codes.append(code)
            done = len(state.history) + 1
            clock.advance(2.5)  # past the repeat window (and the pipeline's frame interval)
            frames = len(shown)
            start = time.perf_counter()
            emu.scan(code)
            deadline = time.monotonic() + 10
            while len(app.state.history) < done:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"scan of {card!r} was not applied")
                table.step(1.0)
            applied.append(time.perf_counter() - start)
            times["queued"].append(marks["handled"] - start)
            times["journal"].append(marks["journal"])
            app.tick()
            deadline = time.monotonic() + 2
            while len(shown) == frames and time.monotonic() < deadline:
                time.sleep(0.0002)
            if len(shown) > frames:
                lit.append(shown[frames] - start)
    finally:
        table.close()
        emu.close()


def press(table: Appliance, clock: ManualClock, seat: str, button: str = "select") -> None:
    """A button pressed and released on the mocked pins, then handled."""
    buttons = table.buttons
    for down in (True, False):
        buttons.press_pin(seat, button, down)
        clock.advance(0.05)
        buttons.process()
    while not table.events.empty():
        table.step(0)
    table.app.tick()


def run() -> list[str]:
    return [
        *parser_lines(),
        *latency_lines(),
        f"(LED chunk {proto.LED_CHUNK} bytes; heartbeats every {proto.HEARTBEAT_MS} ms)",
    ]
