"""Hardware-layer costs, measured in one run: colour pipeline, button latency, idle CPU.

Figures:
- pipeline time per frame (logical RGB tuples -> wire bytes, the strip's work
  excluded) for 300 and 1,000 LEDs, beside that frame's WS2812 wire time
  (30 us per LED + 280 us reset); target <= 5 % of wire time;
- the SPI backend's encoding of the same frame, which runs on top for that backend;
- button latency from `MockPin.drive_low()` to the event in the app's queue,
  p50/p99 over 10,000 presses: with no glitch window (our handoff alone;
  target p99 <= 200 us) and with the default 1 ms window (which waits on purpose);
- CPU of an idle process with 6 three-button seats and 2 table buttons
  configured, over 10 s (target < 1 % of one core), beside the same buttons as
  gpiozero `Button`s, whose per-button hold threads wake every 100 ms.

`python -m bench hw --quick` (or TAVOLA_BENCH_QUICK=1) shortens the runs.
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from gpiozero.pins.mock import MockFactory

from hw.backends.mock import MockStrip
from hw.backends.spi import DEFAULT_HZ, SpiEncoder
from hw.buttons import Buttons
from hw.config import ButtonSpec, Timing
from hw.pipeline import Pipeline, wire_time_s

ROOT = Path(__file__).resolve().parents[1]
QUICK = "--quick" in sys.argv or bool(os.environ.get("TAVOLA_BENCH_QUICK"))


def pipeline_lines() -> list[str]:
    lines = []
    rng = random.Random(1)
    frames_per_case = 200 if QUICK else 1000
    for n in (300, 1000):
        frames = [
            [(rng.randrange(256), rng.randrange(256), rng.randrange(256)) for _ in range(n)]
            for _ in range(8)
        ]
        wire = wire_time_s(n)
        for label, order, kw in (
            (
                "GRB, limiter on, 6 seats dimmed:",
                "GRB",
                {
                    "budget_ma": n * 10,
                    "segments": {f"s{i}": (i * n // 6, (i + 1) * n // 6) for i in range(6)},
                    "dimming": {f"s{i}": 0.5 + i / 20 for i in range(6)},
                },
            ),
            ("GRBW (white extraction), limiter on:", "GRBW", {"budget_ma": n * 10}),
        ):
            p = Pipeline(MockStrip(n, order=order), fps=None, **kw)  # type: ignore[arg-type]
            p.render(frames[0])
            start = time.perf_counter()
            for i in range(frames_per_case):
                p.render(frames[i % 8])
            per = (time.perf_counter() - start) / frames_per_case
            lines.append(
                f"pipeline {n:4d} LEDs, {label:<36} {per * 1e6:5.0f} us/frame, "
                f"wire {wire * 1e3:.2f} ms, ratio {per / wire:.1%}"
            )
        out = Pipeline(MockStrip(n, order="GRB"), fps=None).render(frames[0])
        enc = SpiEncoder(DEFAULT_HZ)
        start = time.perf_counter()
        for _ in range(frames_per_case):
            enc.encode(out)
        per = (time.perf_counter() - start) / frames_per_case
        mhz = f"{DEFAULT_HZ / 1e6:.1f} MHz"
        lines.append(
            f"spi encode {n:4d} LEDs at {mhz}{'':<23} {per * 1e6:5.0f} us/frame, "
            f"wire {wire * 1e3:.2f} ms, ratio {per / wire:.1%}"
        )
    return lines


def latency_line(timing: Timing, presses: int, label: str) -> str:
    factory = MockFactory()
    buttons = Buttons([ButtonSpec("1", "select", 5)], timing=timing, pin_factory=factory)
    pin = buttons.pin("1", "select")
    get = buttons.events.get
    samples = []
    try:
        for _ in range(presses):
            start = time.perf_counter()
            pin.drive_low()
            get()
            samples.append(time.perf_counter() - start)
            pin.drive_high()
            get()  # the release
            pin.clear_states()  # MockPin keeps every state change otherwise
            if timing.debounce:
                time.sleep(timing.debounce)
    finally:
        buttons.close()
        factory.close()
    samples.sort()
    p50 = statistics.median(samples)
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
    return (
        f"button latency {label}: p50 {p50 * 1e6:.0f} us, p99 {p99 * 1e6:.0f} us "
        f"over {presses} presses"
    )


IDLE_SCRIPT = """
import sys, time
from gpiozero.pins.mock import MockFactory
seconds, kind = float(sys.argv[1]), sys.argv[2]
pins = list(range(2, 22))
factory = MockFactory()
if kind == "ours":
    from hw.buttons import Buttons
    from hw.config import ButtonSpec
    specs = [ButtonSpec(str(1 + i // 3), ("previous", "select", "next")[i % 3], p)
             for i, p in enumerate(pins[:18])]
    specs += [ButtonSpec("table", "undo", pins[18]), ButtonSpec("table", "menu", pins[19])]
    devices = Buttons(specs, pin_factory=factory)
else:
    from gpiozero import Button
    devices = [Button(p, pin_factory=factory) for p in pins]
start = time.process_time()
time.sleep(seconds)
print(time.process_time() - start)
"""


def idle_lines() -> list[str]:
    seconds = 2.0 if QUICK else 10.0
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    procs = {
        kind: subprocess.Popen(
            [sys.executable, "-c", IDLE_SCRIPT, str(seconds), kind],
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env=env,
        )
        for kind in ("ours", "gpiozero")
    }
    lines = []
    for kind, label in (
        ("ours", "20 buttons, our filter"),
        ("gpiozero", "20 gpiozero Buttons (for comparison)"),
    ):
        out, _ = procs[kind].communicate(timeout=seconds + 60)
        cpu = float(out.strip())
        lines.append(
            f"idle CPU {label}: {cpu * 1e3:.1f} ms over {seconds:g} s = "
            f"{cpu / seconds:.3%} of one core"
        )
    return lines


def run() -> list[str]:
    presses = 1000 if QUICK else 10_000
    lines = pipeline_lines()
    lines.append(
        latency_line(
            Timing(debounce=0.0, glitch=0.0, hold=0.6, stuck=30), presses, "(no glitch window)"
        )
    )
    lines.append(
        latency_line(
            Timing(debounce=0.0, glitch=0.001, hold=0.6, stuck=30),
            presses // 10,
            "(1 ms glitch window)",
        )
    )
    lines.extend(idle_lines())
    return lines
