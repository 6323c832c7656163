"""The Pico firmware's own code in a real MicroPython: LED frames decoded per second and
bytes per second, and button latency while the host streams 300-LED frames at 60 fps.

MicroPython is the WebAssembly port (npm) under Node.js on this x86 machine
(`bash scripts/micropython.sh` installs it; `make bench` does). The shared modules run
unchanged (loop.PacketReader and loop.Board, device.Device, buttons.Bank, proto).

- Measured: decoding, whole 64-byte packets vs a byte a read (as the firmware read
  before), over pre-written frames (tests/firmware_bridge/mpy/throughput.py).
- Modelled: the 60 fps stream through loop.Board with the time of the models alone
  (tests/firmware_bridge/mpy/sim.py: USB packets at full speed into a 768-byte
  buffer, the strip's DMA wire time and latch, presses about every 120 ms); the code's
  own run time is left out, so these figures show the loop's schedule, not a CPU.
- Estimated: an RP2040 at 125 MHz, assumed to run MicroPython 10 to 25 times slower
  than the WebAssembly port here (an assumption: no RP2040, and no rp2 image to run in
  rp2040js, were to be had here), applied to the measured decode time.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

from tests import micropython

QUICK = "--quick" in sys.argv or bool(os.environ.get("TAVOLA_BENCH_QUICK"))

DRIVER = """
import json, stream, throughput
for pattern in ("lit", "board"):
    for packet in (64, 1):
        print(json.dumps(throughput.decode(pattern, packet, {frames})))
print(json.dumps(stream.run(seconds={seconds}, fps=60, cpu_scale=0, pattern="board")))
"""


def run() -> list[str]:
    reason = micropython.missing()
    if reason:
        return [f"NOT MEASURED: {reason}. No firmware figures in this run."]
    frames, seconds = (30, 2.0) if QUICK else (120, 10.0)
    with tempfile.TemporaryDirectory(prefix="tavola-bench-fw-") as tmp:
        script = Path(tmp) / "driver.py"
        script.write_text(DRIVER.format(frames=frames, seconds=seconds), encoding="utf-8")
        out = [json.loads(x) for x in micropython.run(script).splitlines() if x.startswith("{")]
    *decodes, s = out
    lines = [
        f"measured in MicroPython-wasm ({micropython.PACKAGE.name}, Node.js, this x86), "
        f"{frames} frames of 300 LEDs:"
    ]
    by = {(d["pattern"], d["packet"]): d for d in decodes}
    for pattern, label in (("lit", "all lit"), ("board", "one LED in ten lit")):
        new, old = by[(pattern, 64)], by[(pattern, 1)]
        lines.append(
            f"  {label}: whole packets {new['fps']:,.0f} frames/s "
            f"({new['bytes_per_s'] / 1e3:,.0f} kB/s, {new['us_per_frame'] / 1e3:.2f} ms "
            f"a frame); a byte a read {old['fps']:,.0f} frames/s "
            f"({old['bytes_per_s'] / 1e3:,.0f} kB/s); {new['fps'] / old['fps']:.1f}x"
        )
    lines.append(
        f"modelled 60 fps stream, {seconds:g} s, one LED in ten lit: "
        f"{s['fps']:.1f} fps on the strip ({s['shown']}/{s['frames']} frames); "
        f"button press -> event p50 {s['button_p50_ms']:.1f} ms p99 "
        f"{s['button_p99_ms']:.1f} ms over {s['pressed']} presses (20 ms of it the "
        f"debounce); buttons sampled {s['samples_per_s']:.0f}/s, longest gap "
        f"{s['sample_gap_max_ms']} ms; frame write -> latched p50 "
        f"{s['frame_p50_ms']:.1f} ms"
    )
    for pattern, label in (("lit", "all lit"), ("board", "one in ten lit")):
        ms = by[(pattern, 64)]["us_per_frame"] / 1e3
        old = by[(pattern, 1)]["us_per_frame"] / 1e3
        parts = [
            f"x{k}: {ms * k:.1f} ms a frame, at most {1000 / (ms * k):.0f} fps, "
            f"{6 * ms * k:.0f} % of the CPU at 60 fps (a byte a read: at most "
            f"{1000 / (old * k):.0f} fps)"
            for k in (10, 25)
        ]
        lines.append(f"RP2040 estimate, {label}: " + "; ".join(parts))
    return lines
