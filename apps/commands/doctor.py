"""`tavola doctor`: a hardware self-test a person can run at the table.

It reports the board and pin factory, finds buttons held down since start
(shorted or stuck), says HELLO to the `[mcu]` board (firmware, protocol, LED
count), lights each strip segment in turn (the first three LEDs of each red,
green, blue so a wrong colour order shows at a glance) and waits for a press
that confirms it lit, asks each seat to press each of its buttons and notes
which button answered (dead, swapped pairs, swapped seats), then opens the
`[scanner]` and waits for a scan. Every fault is one line: what is wrong and
the fix. What only a person can confirm and nobody did is NOT VERIFIED, with
its own exit status. On mocked hardware (the mock LED backend and gpiozero's
MockFactory) it presses the buttons itself and checks the frames the mock strip
recorded, so the same report comes out with nobody at the table.
"""

from __future__ import annotations

import argparse
import dataclasses
import queue
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from firmware_bridge.config import BridgeConfig, McuConfig, ScannerConfig, parse_bridge
from firmware_bridge.events import CardEvent, LinkEvent
from firmware_bridge.mcu import McuLink, McuStrip
from hw import pi
from hw.buttons import ButtonError, Buttons, factory_name, resolve_pin_factory
from hw.config import ButtonSpec, ConfigError, HwConfig, SeatConfig, StripConfig, load_config
from hw.strip import StripError
from hw.tomlsource import TomlSource

from .. import args as types

if TYPE_CHECKING:
    from firmware_bridge.link import SerialLink
    from hw.pipeline import Pipeline

DEMO_CONFIG = Path(__file__).resolve().parents[2] / "hw" / "demo_table.toml"
LIT = (128, 128, 128)
MARKERS = ((255, 0, 0), (0, 255, 0), (0, 0, 255))
NOT_VERIFIED = 3  # the exit status when no fault was found but a person confirmed nothing
DARK_FIX = (
    "if they stayed dark, check the strip's 5 V supply, its ground shared with the "
    "Pi, and the data wire (docs/wiring.md)"
)

EPILOG = """\
examples:
  tavola doctor --config /etc/tavola/tavola.toml    at the table: light, then press
  tavola doctor --mock                              the demo table, mocked, no person
  tavola doctor --config my.toml --mock             check a config without hardware

At a real table each lit segment waits for a press (any button) that says it
lit; a segment nobody confirms, and a [scanner] nobody scans a card with, is
NOT VERIFIED. --mock checks neither [mcu] nor [scanner] (they are real devices).

exit status: 0 when every check passed, 1 when a fault was found (one line
each: the fault and its fix), 2 when the config is wrong, 3 when no fault was
found but something was NOT VERIFIED (nobody confirmed a segment or a scan).
"""


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "doctor",
        help="hardware self-test: board, buttons, [mcu], LED segments, [scanner]",
        description=(
            "Check the table's wiring. Reports the Raspberry Pi model and GPIO pin factory, "
            "buttons held down since start, the [mcu] board's handshake, lights each LED "
            "segment in turn (its first three LEDs red, green, blue: if they show otherwise, "
            "fix [strip] order) and waits for a press saying it lit, asks each seat to press "
            "each button and reports which answered (dead, swapped), then waits for a scan "
            "on the [scanner]. With the mock LED backend and the mock pin factory it presses "
            "the buttons itself."
        ),
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--config",
        type=Path,
        metavar="FILE",
        help=f"the config file (default with --mock: {DEMO_CONFIG.name})",
    )
    p.add_argument(
        "--mock",
        action="store_true",
        help="use the mock LED backend and MockFactory pins: no hardware, no person",
    )
    p.add_argument(
        "--timeout",
        type=types.positive_seconds,
        default=10.0,
        metavar="S",
        help="seconds to wait for each press, handshake and scan (default 10)",
    )
    p.add_argument(
        "--segment-seconds",
        type=types.seconds,
        default=None,
        metavar="S",
        help="how long each segment stays lit when there is no button to "
        "confirm it with (default 2, or 0 when mocked)",
    )
    p.set_defaults(func=cmd_doctor)


def cmd_doctor(args: argparse.Namespace) -> int:
    path = args.config
    if path is None:
        if not args.mock:
            print(
                "tavola doctor: give --config FILE (or --mock for the demo table)", file=sys.stderr
            )
            return 2
        path = DEMO_CONFIG
    try:
        cfg = load_config(path)
        bridge = parse_bridge(TomlSource.load(path))
    except ConfigError as e:
        print(f"tavola doctor: {e}", file=sys.stderr)
        return 2
    if args.mock:
        cfg = mocked(cfg)
        if bridge.mcu or bridge.scanner:
            print("mcu, scanner: not checked with --mock (they are real devices)")
        bridge = BridgeConfig()
    return Doctor(
        cfg,
        out=sys.stdout,
        bridge=bridge,
        timeout=args.timeout,
        segment_seconds=args.segment_seconds,
    ).run()


def mocked(cfg: HwConfig) -> HwConfig:
    """The same table on mock hardware: mock LED backend, MockFactory pins."""
    strip = cfg.strip
    if strip is not None:
        strip = dataclasses.replace(strip, backend="mock")
    return dataclasses.replace(cfg, pin_factory="mock", strip=strip)


Key = tuple[str, str]  # (seat, button)


class Doctor:
    """Runs each check, prints one line per finding (the fault and its fix), counts them.

    `failures` are faults found; `unverified` are checks only a person can confirm that
    nobody confirmed (a segment nobody saw light, a scanner nobody scanned with)."""

    def __init__(
        self,
        cfg: HwConfig,
        *,
        out: TextIO,
        bridge: BridgeConfig | None = None,
        timeout: float = 10.0,
        segment_seconds: float | None = None,
        model_path: str | Path = pi.MODEL_PATH,
        link_options: dict[str, Any] | None = None,
    ) -> None:
        self.cfg, self.out, self.timeout = cfg, out, timeout
        self.bridge = bridge or BridgeConfig()
        self.segment_seconds = segment_seconds
        self.model_path = model_path
        self.link_options = link_options or {}
        self.failures = 0
        self.unverified = 0
        self.buttons: Buttons | None = None
        self.stuck: set[Key] = set()
        self.mcu: McuLink | None = None

    def say(self, line: str = "") -> None:
        self.out.write(line + "\n")
        self.out.flush()

    def fault(self, line: str) -> None:
        self.failures += 1
        self.say(line)

    def run(self) -> int:
        cfg = self.cfg
        self.say(f"Tavola hardware self-test ({cfg.source})")
        self.say(f"board:        {pi.describe(self.model_path)}")
        factory = self._open_buttons()
        try:
            self._check_parts()
        finally:
            if self.mcu is not None:
                self.mcu.close()
            self.release(factory)
        self.say(f"result:       {self._verdict()}")
        return 1 if self.failures else NOT_VERIFIED if self.unverified else 0

    def _open_buttons(self) -> Any:
        """Watch the configured buttons (`self.buttons`); returns the pin factory to release
        at the end, None if it could not be made."""
        cfg = self.cfg
        factory = None
        try:
            factory = resolve_pin_factory(cfg.pin_factory)
            self.buttons = Buttons(cfg, pin_factory=factory) if cfg.buttons else None
        except ButtonError as e:
            self.fault(f"pin factory:  FAILED: {e}")
            self.buttons = None
        else:
            name = factory_name(self.buttons.pin_factory if self.buttons else factory)
            note = " (mocked: pressing buttons itself)" if self.auto(self.buttons) else ""
            self.say(f"pin factory:  {name}{note}")
        return factory

    def _check_parts(self) -> None:
        """Each part in turn; the board first, since the strip may hang off it."""
        self.find_stuck()
        self.check_mcu()
        self.check_strip()
        if self.buttons is not None:
            self.check_buttons(self.buttons)
        else:
            self.say("buttons:      none configured")
        self.check_scanner()

    def _verdict(self) -> str:
        if self.failures:
            return f"{self.failures} problem(s), see above"
        if self.unverified:
            return f"no fault found, {self.unverified} check(s) NOT VERIFIED, see above"
        return "all good"

    def release(self, factory: Any) -> None:
        """Free the pins; a pin driver that fails at this point (lgpio's 'GPIO busy' when it
        re-claims a line it watched) must not end the report in a traceback: the kernel frees
        every line when this process exits anyway."""
        try:
            if self.buttons is not None:
                self.buttons.close()
            if factory is not None:
                factory.close()
        except Exception as e:  # any driver's error: the report is what matters
            self.say(f"pins:         releasing them failed ({e}); they are freed on exit")

    @staticmethod
    def auto(buttons: Buttons | None) -> bool:
        return buttons is not None and type(buttons.pin_factory).__name__ == "MockFactory"

    # --- buttons held since start ------------------------------------------------------

    def find_stuck(self) -> None:
        """A button that reads pressed before anyone touched it is shorted or stuck; its
        presses would answer every later question, so they are ignored from here on."""
        buttons = self.buttons
        if buttons is None:
            return
        for key, dev in buttons.devices.items():
            if dev.is_active:
                spec = buttons.specs[key]
                self.stuck.add(key)
                self.fault(
                    f"  {_who(spec)} {spec.button} GPIO{spec.pin}: HELD DOWN since start "
                    "(a shorted wire or a stuck switch): fix: free the switch, or part "
                    f"the wire of GPIO{spec.pin} from the one it touches"
                )
        self._drain()

    def _drain(self) -> None:
        """Forget the presses queued so far (a held button's, an earlier answer's release)."""
        assert self.buttons is not None
        while self.buttons.get(timeout=0.05) is not None:
            pass

    def next_press(self, timeout: float) -> Key | None:
        """The next press of a button that is not held since start, within `timeout`."""
        assert self.buttons is not None
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            event = self.buttons.get(timeout=left)
            if event is None:
                return None
            key = (event.seat, event.button)
            if event.kind == "press" and key not in self.stuck:
                return key
        return None

    # --- the table microcontroller -----------------------------------------------------

    def check_mcu(self) -> None:
        mc = self.bridge.mcu
        if mc is None:
            return
        sc = self.cfg.strip
        leds = sc.count if self.bridge.strip_on_mcu and sc is not None else 0
        told: list[LinkEvent] = []

        def emit(ev: object) -> None:
            if isinstance(ev, LinkEvent):
                told.append(ev)

        self.mcu = McuLink(
            mc.device, emit=emit, baud=mc.baud, leds=leds, **self.link_options
        ).start()
        link = self.mcu
        ready = link.ready.wait(self.timeout)
        if ready and link.info is not None:
            info = link.info
            self.say(
                f"mcu:          {link.link.path}: {info.firmware}, protocol "
                f"{info.version}, {info.led_count} LEDs: ok"
            )
            return
        self.fault(self._mcu_failure(link, told, mc))
        if not ready:
            link.close()
            self.mcu = None

    def _mcu_failure(self, link: McuLink, told: list[LinkEvent], mc: McuConfig) -> str:
        """Why the board did not answer, from what its link told, and the fix."""
        bad = next((e for e in told if e.kind == "incompatible"), None)
        if bad is not None:
            return f"mcu:          FAILED: {bad.message}"
        if not link.link.opens:
            missing = next((e.message for e in told if e.kind == "missing"), "")
            why = missing[missing.find("(") + 1 : missing.rfind(")")] if "(" in missing else ""
            return (
                f"mcu:          FAILED: not found ({why or mc.device}): fix: plug the "
                "board in, or correct [mcu] path / usb"
            )
        return (
            f"mcu:          FAILED: {link.link.path} opened but did not answer HELLO "
            f"in {self.timeout:g} s: fix: flash firmware_bridge/firmware to it, or "
            "point [mcu] at the board that runs it"
        )

    # --- LEDs ------------------------------------------------------------------------------

    def open_strip(self) -> Any:
        from hw.backends import open_strip

        sc = self.cfg.strip
        assert sc is not None
        if sc.backend == "mcu":
            if self.mcu is None:
                raise StripError("the strip hangs off the [mcu] board, which failed above")
            return McuStrip(sc.count, link=self.mcu, order=sc.order)
        return open_strip(sc)

    def check_strip(self) -> None:
        from hw.pipeline import Pipeline

        sc = self.cfg.strip
        if sc is None:
            self.say("strip:        none configured")
            return
        pc = self.cfg.pipeline
        budget = f", budget {pc.budget_ma:g} mA" if pc.budget_ma else ", no power budget"
        self.say(
            f"strip:        {sc.backend}, {sc.count} LEDs, order {sc.order}, "
            f"brightness {pc.brightness:g}{budget}"
        )
        try:
            strip = self.open_strip()
        except StripError as e:
            self.fault(f"  FAILED: {e}")
            return
        pipeline = Pipeline.from_config(
            strip, dataclasses.replace(pc, fps=None), segments=sc.segments
        )
        try:
            self._light_segments(strip, pipeline, sc)
        finally:
            strip.close()

    def _light_segments(self, strip: Any, pipeline: Pipeline, sc: StripConfig) -> None:
        """Light each segment alone, its first three LEDs red, green, blue, and have the
        mock strip, a press, or nobody (NOT VERIFIED) say it looked right."""
        from hw.backends.mock import MockStrip

        mock = isinstance(strip, MockStrip)
        confirm = not mock and self.buttons is not None
        hold = self.segment_seconds if self.segment_seconds is not None else (0 if mock else 2)
        segments = sc.segments or {"whole strip": (0, sc.count)}
        width = max(len(n) for n in segments)
        for name, (start, stop) in segments.items():
            pipeline.show(_segment_frame(sc.count, start, stop), force=True)
            label = f"  {name:<{width}}  "
            line = (
                f"{label}LEDs {start}-{stop - 1}: "
                f"{pipeline.milliamps(strip_bytes(pipeline)):.0f} mA predicted"
            )
            if mock:
                if self.verify_mock(strip, start, stop):
                    self.say(line + ", lit (checked on the mock strip)")
                else:
                    self.fault(line + ", WRONG LEDs lit")
            elif confirm:
                self._confirm_segment(label, line)
            else:
                self.say(line + f", lit for {hold:g} s: first three red, green, blue?")
                time.sleep(hold)
                self.not_verified(f"{label}NOT VERIFIED: no button to confirm with: {DARK_FIX}")

    def _confirm_segment(self, label: str, line: str) -> None:
        """A person at the table presses any button if the segment lit as it should."""
        self.say(
            line + f": press any button if they light, the first three red, "
            f"green, blue ({self.timeout:g} s)"
        )
        who = self.next_press(self.timeout)
        if who is not None:
            self.say(f"{label}lit, confirmed by {_who_name(who[0])}")
            time.sleep(0.3)  # the confirming press's release, then the next one
            self._drain()
        else:
            self.not_verified(
                f"{label}NOT VERIFIED: nobody pressed in {self.timeout:g} s: {DARK_FIX}"
            )

    def not_verified(self, line: str) -> None:
        self.unverified += 1
        self.say(line)

    @staticmethod
    def verify_mock(strip: object, start: int, stop: int) -> bool:
        last = strip.last  # type: ignore[attr-defined]
        lit = [i for i, p in enumerate(last) if any(p)]
        if lit != list(range(start, stop)):
            return False
        first = [p.index(max(p)) for p in last[start : start + 3]]
        return first == [0, 1, 2][: len(first)]  # red, green, blue survive the colour order

    # --- buttons ---------------------------------------------------------------------------

    def check_buttons(self, buttons: Buttons) -> None:
        """Ask for each button in turn and note which button answered each question: a
        button answering for another, both ways, is a swap; a seat whose buttons all
        answer as another seat's, both ways, is a swapped cable."""
        auto = self.auto(buttons)
        self.say(
            "buttons:"
            + ("" if auto else f"      press each button when asked ({self.timeout:g} s each)")
        )
        specs = [spec for seat in self.cfg.seats for spec in seat.buttons]
        answers = self._ask_buttons(buttons, specs, auto)
        by_key = {(s.seat, s.button): s for s in specs}
        findings = self.wiring_findings(answers, by_key)
        self._report_seats(answers)
        for line in findings:
            self.fault(line)
        good = sum(1 for k, v in answers.items() if v == k)
        self.say(f"  {good} of {len(specs)} buttons responded")

    def _ask_buttons(
        self, buttons: Buttons, specs: list[ButtonSpec], auto: bool
    ) -> dict[Key, Key | None]:
        """Which button answered the question for each (None: none in time); a button
        held since start is not asked. A mocked table presses each button itself."""
        answers: dict[Key, Key | None] = {}
        self._drain()
        for spec in specs:
            key = (spec.seat, spec.button)
            if key in self.stuck:
                continue
            if not auto:
                self.say(f"  {_who(spec)}: press {spec.button.upper()} (GPIO{spec.pin})")
            else:
                buttons.press_pin(spec.seat, spec.button, True)
            answers[key] = self.next_press(self.timeout)
            if auto:
                buttons.press_pin(spec.seat, spec.button, False)
            time.sleep(0.05 if auto else 0.3)
            self._drain()  # the release, and any bounce of a loose wire
        return answers

    def _report_seats(self, answers: dict[Key, Key | None]) -> None:
        """A line per seat, how each of its buttons answered, the names in one column."""
        results = {_seat_label(seat): self._seat_words(seat, answers) for seat in self.cfg.seats}
        width = max((len(w) for w in results), default=0)
        for who, words in results.items():
            self.say(f"  {who:<{width}}  " + ", ".join(words))

    def _seat_words(self, seat: SeatConfig, answers: dict[Key, Key | None]) -> list[str]:
        """How each button of a seat answered, for the seat's line of the report."""
        words = []
        if seat.kind == "phone":
            words.append("no buttons: played from a paired phone, nothing to press")
        for spec in seat.buttons:
            key = (spec.seat, spec.button)
            words.append(f"{spec.button} GPIO{spec.pin} {self._state(key, answers.get(key))}")
        return words

    def _state(self, key: Key, got: Key | None) -> str:
        if key in self.stuck:
            return "HELD"
        if got == key:
            return "ok"
        if got is None:
            return "NO RESPONSE"
        return f"answered as {_who_name(got[0])} {got[1]}"

    @staticmethod
    def wiring_findings(answers: dict[Key, Key | None], specs: dict[Key, ButtonSpec]) -> list[str]:
        """One line per wiring fault, with its fix: dead buttons, swapped pairs, swapped
        seats, and a button answering for another one way only."""
        wrong = {k: v for k, v in answers.items() if v is not None and v != k}
        lines, done = _swapped_seats(answers, wrong)
        lines += _crossed_buttons(wrong, specs, done)
        lines += _dead_buttons(answers, specs)
        return lines

    # --- the card scanner --------------------------------------------------------------

    def check_scanner(self) -> None:
        sc = self.bridge.scanner
        if sc is None:
            return
        if sc.device is None:  # kind = "mcu": the cards come over the board's link
            self.say("scanner:      on the [mcu] board (its link is checked above)")
            return
        from firmware_bridge.scanner import open_scanner

        events: queue.SimpleQueue[object] = queue.SimpleQueue()
        try:
            link = open_scanner(
                sc.kind,
                sc.device,
                emit=events.put,
                baud=sc.baud,
                layout=sc.layout,
                **self.link_options,
            )
        except (OSError, ValueError) as e:
            self.fault(f"scanner:      FAILED: {e}")
            return
        try:
            self._scan_a_card(link, events, sc)
        finally:
            link.close()

    def _scan_a_card(
        self, link: SerialLink, events: queue.SimpleQueue[object], sc: ScannerConfig
    ) -> None:
        """The scanner must open; a card scanned within the timeout shows it reads."""
        if not link.wait_connected(self.timeout):
            self.fault(_scanner_missing(events, sc))
            return
        self.say(
            f"scanner:      {sc.kind} at {link.path}: opened; scan any card ({self.timeout:g} s)"
        )
        if self._card_read(events):
            return
        self.not_verified(
            f"  NOT VERIFIED: no card scanned in {self.timeout:g} s: if you "
            "scanned one, check the scanner's mode "
            + (
                "(keyboard, Enter after each code) and [scanner] layout"
                if sc.kind == "hid"
                else "(serial, a line per code) and [scanner] baud"
            )
        )

    def _card_read(self, events: queue.SimpleQueue[object]) -> bool:
        """Wait up to the timeout for a card; say its code if one comes."""
        deadline = time.monotonic() + self.timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                ev = events.get(timeout=left)
            except queue.Empty:
                break
            if isinstance(ev, CardEvent):
                self.say(f"  read {ev.code!r}: ok")
                return True
        return False


def _scanner_missing(events: queue.SimpleQueue[object], sc: ScannerConfig) -> str:
    """Why the scanner did not open (the link's last word on it), and the fix."""
    why = ""
    while not events.empty():
        ev = events.get()
        if isinstance(ev, LinkEvent):
            why = ev.message
    return (
        f"scanner:      FAILED: {why or f'{sc.device} did not open'}: fix: "
        f"plug it in, or correct [scanner] path / usb"
        + (" (ls /dev/input/by-id)" if sc.kind == "hid" else "")
    )


def _segment_frame(count: int, start: int, stop: int) -> list[tuple[int, int, int]]:
    """The strip dark but for one segment, whose first three LEDs are red, green, blue."""
    frame = [(0, 0, 0)] * count
    for i in range(start, stop):
        frame[i] = LIT
    for i, colour in zip(range(start, stop), MARKERS, strict=False):
        frame[i] = colour
    return frame


def _seat_label(seat: SeatConfig) -> str:
    return _who(seat.buttons[0]) if seat.buttons else _who_name(seat.name)


def _swapped_seats(
    answers: dict[Key, Key | None], wrong: dict[Key, Key]
) -> tuple[list[str], set[Key]]:
    """Pairs of seats whose every button answers as the other seat's same button (a
    swapped cable), and the buttons that explains."""
    lines: list[str] = []
    done: set[Key] = set()
    seats = sorted({k[0] for k in wrong})
    for i, a in enumerate(seats):
        for b in seats[i + 1 :]:
            mine = [k for k in answers if k[0] in (a, b)]
            if mine and all(wrong.get(k) == (b if k[0] == a else a, k[1]) for k in mine):
                lines.append(
                    f"  seats {a} and {b} are swapped (each seat's buttons answer "
                    f"as the other's): fix: swap their cables, or the pins of "
                    f"[seats.{a}] and [seats.{b}]"
                )
                done.update(mine)
    return lines, done


def _crossed_buttons(
    wrong: dict[Key, Key], specs: dict[Key, ButtonSpec], done: set[Key]
) -> list[str]:
    """Buttons answering for another, not explained by a swapped seat: both ways is a
    swapped pair of wires, one way a wire on the other's pin."""
    lines: list[str] = []
    for k, v in wrong.items():
        if k in done:
            continue
        x, y = specs[k], specs[v]
        if wrong.get(v) == k:
            done.update((k, v))
            lines.append(
                f"  {_who(x)} {x.button} (GPIO{x.pin}) and {_who(y)} {y.button} "
                f"(GPIO{y.pin}) are swapped: fix: swap their wires, or swap the "
                "two pins in the config"
            )
        else:
            done.add(k)
            lines.append(
                f"  {_who(x)} {x.button} (GPIO{x.pin}): pressing it answered as "
                f"{_who(y)} {y.button} (GPIO{y.pin}): fix: its wire goes to "
                f"GPIO{y.pin}; move it to GPIO{x.pin}"
            )
    return lines


def _dead_buttons(answers: dict[Key, Key | None], specs: dict[Key, ButtonSpec]) -> list[str]:
    lines = []
    for k, answer in answers.items():
        if answer is None:
            x = specs[k]
            lines.append(
                f"  {_who(x)} {x.button} GPIO{x.pin}: NO RESPONSE: fix: check the "
                f"switch and its wires to GPIO{x.pin} and to GND"
            )
    return lines


def strip_bytes(pipeline: object) -> bytes:
    return pipeline._last_out or b""  # type: ignore[attr-defined]


def _who(spec: ButtonSpec) -> str:
    return _who_name(spec.seat)


def _who_name(seat: str) -> str:
    return "table" if seat == "table" else f"seat {seat}"
