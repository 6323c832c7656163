"""`tavola doctor`: a hardware self-test a person can run at the table.

It reports the board and pin factory, lights each strip segment in turn (the
first three LEDs of each red, green, blue so a wrong colour order shows at a
glance), then asks each seat to press each of its buttons and reports which
responded. On mocked hardware (the mock LED backend and gpiozero's
MockFactory) it presses the buttons itself and checks the frames the mock strip
recorded, so the same report comes out with nobody at the table.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from pathlib import Path
from typing import TextIO

from hw import pi
from hw.buttons import ButtonError, Buttons, factory_name, resolve_pin_factory
from hw.config import ButtonSpec, ConfigError, HwConfig, load_config
from hw.strip import StripError

from .. import args as types

DEMO_CONFIG = Path(__file__).resolve().parents[2] / "hw" / "demo_table.toml"
LIT = (128, 128, 128)
MARKERS = ((255, 0, 0), (0, 255, 0), (0, 0, 255))

EPILOG = """\
examples:
  tavola doctor --config /etc/tavola/tavola.toml    at the table: light, then press
  tavola doctor --mock                              the demo table, mocked, no person
  tavola doctor --config my.toml --mock             check a config without hardware

exit status: 0 when every LED segment lit and every button responded, 1 when
something did not, 2 when the config is wrong.
"""


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "doctor", help="hardware self-test: board, LED segments, every seat's buttons",
        description=(
            "Check the table's wiring. Reports the Raspberry Pi model and GPIO pin factory, "
            "lights each LED segment in turn (its first three LEDs red, green, blue: if "
            "they show otherwise, fix [strip] order), then asks each seat to press each "
            "button and reports which responded. With the mock LED backend and the mock "
            "pin factory it presses the buttons itself."),
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--config", type=Path, metavar="FILE",
                   help=f"the config file (default with --mock: {DEMO_CONFIG.name})")
    p.add_argument("--mock", action="store_true",
                   help="use the mock LED backend and MockFactory pins: no hardware, no person")
    p.add_argument("--timeout", type=types.positive_seconds, default=10.0, metavar="S",
                   help="seconds to wait for each button press (default 10)")
    p.add_argument("--segment-seconds", type=types.seconds, default=None, metavar="S",
                   help="how long each segment stays lit (default 2, or 0 when mocked)")
    p.set_defaults(func=cmd_doctor)


def cmd_doctor(args: argparse.Namespace) -> int:
    path = args.config
    if path is None:
        if not args.mock:
            print("tavola doctor: give --config FILE (or --mock for the demo table)",
                  file=sys.stderr)
            return 2
        path = DEMO_CONFIG
    try:
        cfg = load_config(path)
    except ConfigError as e:
        print(f"tavola doctor: {e}", file=sys.stderr)
        return 2
    if args.mock:
        cfg = mocked(cfg)
    return Doctor(cfg, out=sys.stdout, timeout=args.timeout,
                  segment_seconds=args.segment_seconds).run()


def mocked(cfg: HwConfig) -> HwConfig:
    """The same table on mock hardware: mock LED backend, MockFactory pins."""
    strip = cfg.strip
    if strip is not None:
        strip = dataclasses.replace(strip, backend="mock")
    return dataclasses.replace(cfg, pin_factory="mock", strip=strip)


class Doctor:
    def __init__(self, cfg: HwConfig, *, out: TextIO, timeout: float = 10.0,
                 segment_seconds: float | None = None, model_path: str | Path = pi.MODEL_PATH
                 ) -> None:
        self.cfg, self.out, self.timeout = cfg, out, timeout
        self.segment_seconds = segment_seconds
        self.model_path = model_path
        self.failures = 0

    def say(self, line: str = "") -> None:
        self.out.write(line + "\n")
        self.out.flush()

    def run(self) -> int:
        cfg = self.cfg
        self.say(f"Tavola hardware self-test ({cfg.source})")
        self.say(f"board:        {pi.describe(self.model_path)}")
        factory = None
        try:
            factory = resolve_pin_factory(cfg.pin_factory)
            buttons = Buttons(cfg, pin_factory=factory) if cfg.buttons else None
        except ButtonError as e:
            self.say(f"pin factory:  FAILED: {e}")
            buttons = None
            self.failures += 1
        else:
            name = factory_name(buttons.pin_factory if buttons else factory)
            note = " (mocked: pressing buttons itself)" if self.auto(buttons) else ""
            self.say(f"pin factory:  {name}{note}")
        try:
            self.check_strip()
            if buttons is not None:
                self.check_buttons(buttons)
            else:
                self.say("buttons:      none configured")
        finally:
            if buttons is not None:
                buttons.close()
            if factory is not None:
                factory.close()
        verdict = f"{self.failures} problem(s), see above" if self.failures else "all good"
        self.say(f"result:       {verdict}")
        return 0 if not self.failures else 1

    @staticmethod
    def auto(buttons: Buttons | None) -> bool:
        return buttons is not None and type(buttons.pin_factory).__name__ == "MockFactory"

    # --- LEDs ------------------------------------------------------------------------------

    def check_strip(self) -> None:
        from hw.backends import open_strip
        from hw.backends.mock import MockStrip
        from hw.pipeline import Pipeline

        sc = self.cfg.strip
        if sc is None:
            self.say("strip:        none configured")
            return
        pc = self.cfg.pipeline
        budget = f", budget {pc.budget_ma:g} mA" if pc.budget_ma else ", no power budget"
        self.say(f"strip:        {sc.backend}, {sc.count} LEDs, order {sc.order}, "
                 f"brightness {pc.brightness:g}{budget}")
        try:
            strip = open_strip(sc)
        except StripError as e:
            self.say(f"  FAILED: {e}")
            self.failures += 1
            return
        mock = isinstance(strip, MockStrip)
        hold = self.segment_seconds if self.segment_seconds is not None else (0 if mock else 2)
        pipeline = Pipeline.from_config(strip, dataclasses.replace(pc, fps=None),
                                        segments=sc.segments)
        segments = sc.segments or {"whole strip": (0, sc.count)}
        width = max(len(n) for n in segments)
        try:
            for name, (start, stop) in segments.items():
                frame = [(0, 0, 0)] * sc.count
                for i in range(start, stop):
                    frame[i] = LIT
                for i, colour in zip(range(start, stop), MARKERS, strict=False):
                    frame[i] = colour
                pipeline.show(frame, force=True)
                line = (f"  {name:<{width}}  LEDs {start}-{stop - 1}: "
                        f"{pipeline.milliamps(strip_bytes(pipeline)):.0f} mA predicted")
                if mock:
                    ok = self.verify_mock(strip, start, stop)  # type: ignore[arg-type]
                    line += ", lit (checked on the mock strip)" if ok else ", WRONG LEDs lit"
                    self.failures += not ok
                else:
                    line += f", lit for {hold:g} s: first three red, green, blue?"
                self.say(line)
                time.sleep(hold)
        finally:
            strip.close()

    @staticmethod
    def verify_mock(strip: object, start: int, stop: int) -> bool:
        last = strip.last  # type: ignore[attr-defined]
        lit = [i for i, p in enumerate(last) if any(p)]
        if lit != list(range(start, stop)):
            return False
        first = [p.index(max(p)) for p in last[start:start + 3]]
        return first == [0, 1, 2][: len(first)]  # red, green, blue survive the colour order

    # --- buttons ---------------------------------------------------------------------------

    def check_buttons(self, buttons: Buttons) -> None:
        auto = self.auto(buttons)
        self.say("buttons:" + ("" if auto else
                               f"      press each button when asked ({self.timeout:g} s each)"))
        responded: set[tuple[str, str]] = set()
        results: dict[str, list[str]] = {}
        for seat in self.cfg.seats:
            words = []
            for spec in seat.buttons:
                key = (spec.seat, spec.button)
                if not auto:
                    self.say(f"  {_who(spec)}: press {spec.button.upper()} (GPIO{spec.pin})")
                got = self.wait_for(buttons, spec, auto, responded)
                if key in responded:
                    words.append(f"{spec.button} GPIO{spec.pin} ok")
                else:
                    words.append(f"{spec.button} GPIO{spec.pin} NO RESPONSE")
                    self.failures += 1
                if got:
                    words[-1] += f" (but {got} answered: wires swapped?)"
            results[_who(seat.buttons[0]) if seat.buttons else seat.name] = words
        width = max((len(w) for w in results), default=0)
        for who, words in results.items():
            self.say(f"  {who:<{width}}  " + ", ".join(words))
        total = sum(len(s.buttons) for s in self.cfg.seats)
        self.say(f"  {len(responded)} of {total} buttons responded")

    def wait_for(self, buttons: Buttons, spec: ButtonSpec, auto: bool,
                 responded: set[tuple[str, str]]) -> str:
        """Wait for `spec`'s press; return the name of another button that answered instead."""
        key = (spec.seat, spec.button)
        if auto:
            buttons.press_pin(spec.seat, spec.button, True)
        deadline = time.monotonic() + self.timeout
        other = ""
        while key not in responded:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            event = buttons.get(timeout=left)
            if event is None:
                break
            if event.kind == "press":
                responded.add((event.seat, event.button))
                if (event.seat, event.button) != key:
                    other = f"{_who_name(event.seat)} {event.button}"
        if auto:
            buttons.press_pin(spec.seat, spec.button, False)
            buttons.get(timeout=self.timeout)  # its release
        return other


def strip_bytes(pipeline: object) -> bytes:
    return pipeline._last_out or b""  # type: ignore[attr-defined]


def _who(spec: ButtonSpec) -> str:
    return _who_name(spec.seat)


def _who_name(seat: str) -> str:
    return "table" if seat == "table" else f"seat {seat}"
