"""`tavola doctor` on mocked hardware: the whole report, with nobody at the table."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from apps.cli import main
from apps.commands.doctor import Doctor, mocked
from hw.buttons import Buttons
from hw.config import load_config, parse_config_text

SMALL = """\
[buttons]
pin_factory = "mock"
[seats.1]
kind = "three"
previous = 5
select = 6
next = 13
[seats.2]
kind = "one"
button = 19
[table]
undo = 20
[strip]
backend = "mock"
count = 20
order = "GRB"
[strip.segments]
"seat.1" = [0, 9]
"seat.2" = [10, 19]
"""


def run(text: str, tmp_path: Path, model: Path | None = None) -> tuple[int, str]:
    out = io.StringIO()
    cfg = parse_config_text(text, source="small.toml")
    kw = {"model_path": model} if model else {"model_path": tmp_path / "none"}
    rc = Doctor(cfg, out=out, timeout=2, **kw).run()
    return rc, out.getvalue()


def test_mock_table_report(tmp_path: Path, pi4_model: Path, mock_factory: MockFactory) -> None:
    rc, out = run(SMALL, tmp_path, pi4_model)
    assert rc == 0, out
    assert out.splitlines() == [
        "Tavola hardware self-test (small.toml)",
        "board:        Raspberry Pi 4 Model B Rev 1.4",
        "pin factory:  MockFactory (mocked: pressing buttons itself)",
        "strip:        mock, 20 LEDs, order GRB, brightness 1, no power budget",
        "  seat.1  LEDs 0-9: 172 mA predicted, lit (checked on the mock strip)",
        "  seat.2  LEDs 10-19: 172 mA predicted, lit (checked on the mock strip)",
        "buttons:",
        "  seat 1  previous GPIO5 ok, select GPIO6 ok, next GPIO13 ok",
        "  seat 2  button GPIO19 ok",
        "  table   undo GPIO20 ok",
        "  5 of 5 buttons responded",
        "result:       all good",
    ]


def test_a_dead_button_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mock_factory: MockFactory
) -> None:
    real = Buttons.press_pin

    def press_pin(self: Buttons, seat: str, button: str, active: bool) -> None:
        if (seat, button) != ("1", "select"):
            real(self, seat, button, active)

    monkeypatch.setattr(Buttons, "press_pin", press_pin)
    monkeypatch.setattr(Doctor, "__init__", _short_timeout(Doctor.__init__))
    rc, out = run(SMALL, tmp_path)
    assert rc == 1
    assert "select GPIO6 NO RESPONSE" in out
    assert "4 of 5 buttons responded" in out
    assert "result:       1 problem(s), see above" in out


def _rewired(
    monkeypatch: pytest.MonkeyPatch, wiring: dict[tuple[str, str], tuple[str, str]]
) -> None:
    """A wiring fault on the MockFactory pins: pressing button k drives the pin of wiring[k]."""
    real = Buttons.press_pin

    def press_pin(self: Buttons, seat: str, button: str, active: bool) -> None:
        real(self, *wiring.get((seat, button), (seat, button)), active)

    monkeypatch.setattr(Buttons, "press_pin", press_pin)
    monkeypatch.setattr(Doctor, "__init__", _short_timeout(Doctor.__init__))


def test_swapped_wires_are_found_both_ways(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mock_factory: MockFactory
) -> None:
    _rewired(monkeypatch, {("1", "previous"): ("1", "next"), ("1", "next"): ("1", "previous")})
    rc, out = run(SMALL, tmp_path)
    assert (
        "  seat 1  previous GPIO5 answered as seat 1 next, select GPIO6 ok, "
        "next GPIO13 answered as seat 1 previous"
    ) in out
    assert (
        "  seat 1 previous (GPIO5) and seat 1 next (GPIO13) are swapped: fix: swap their "
        "wires, or swap the two pins in the config"
    ) in out
    assert "3 of 5 buttons responded" in out
    assert rc == 1


def test_swapped_seat_cables_are_one_finding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mock_factory: MockFactory
) -> None:
    text = SMALL.replace(
        'kind = "one"\nbutton = 19', 'kind = "three"\nprevious = 19\nselect = 26\nnext = 21'
    )
    names = ("previous", "select", "next")
    wiring = {("1", n): ("2", n) for n in names} | {("2", n): ("1", n) for n in names}
    _rewired(monkeypatch, wiring)
    rc, out = run(text, tmp_path)
    assert (
        "  seats 1 and 2 are swapped (each seat's buttons answer as the other's): fix: swap "
        "their cables, or the pins of [seats.1] and [seats.2]"
    ) in out
    assert "are swapped: fix: swap their wires" not in out  # one line, not one per pair
    assert "1 of 7 buttons responded" in out
    assert rc == 1


def test_a_wire_on_another_buttons_pin_names_where_it_goes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mock_factory: MockFactory
) -> None:
    _rewired(monkeypatch, {("2", "button"): ("1", "select")})  # seat 2's wire on GPIO6
    rc, out = run(SMALL, tmp_path)
    assert (
        "  seat 2 button (GPIO19): pressing it answered as seat 1 select (GPIO6): fix: "
        "its wire goes to GPIO6; move it to GPIO19"
    ) in out
    assert rc == 1


def test_a_button_held_since_start_is_a_finding_not_ok(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A switch shorted to ground before the doctor starts: the pin reads pressed whatever
    the pull-up does (a MockPin that stays low)."""
    from gpiozero.pins.mock import MockPin

    class Shorted(MockPin):
        def _set_pull(self, value: str) -> None:
            super()._set_pull(value)
            self.drive_low()

    factory = MockFactory()
    factory.pin(6, pin_class=Shorted)
    monkeypatch.setattr("apps.commands.doctor.resolve_pin_factory", lambda name: factory)
    monkeypatch.setattr(Doctor, "__init__", _short_timeout(Doctor.__init__))
    try:
        rc, out = run(SMALL, tmp_path)
    finally:
        factory.reset()
    assert (
        "  seat 1 select GPIO6: HELD DOWN since start (a shorted wire or a stuck switch): "
        "fix: free the switch, or part the wire of GPIO6 from the one it touches"
    ) in out
    assert "select GPIO6 HELD" in out and "select GPIO6 ok" not in out
    assert "previous GPIO5 ok" in out  # its stuck press answers no other question
    assert "4 of 5 buttons responded" in out
    assert rc == 1


def _short_timeout(init):  # type: ignore[no-untyped-def]
    def wrapped(self, cfg, **kw):  # type: ignore[no-untyped-def]
        kw["timeout"] = 0.2
        init(self, cfg, **kw)

    return wrapped


def test_wrong_leds_on_the_mock_strip_fail_the_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mock_factory: MockFactory
) -> None:
    monkeypatch.setattr("apps.commands.doctor.LIT", (0, 0, 0))  # a segment that stays dark
    monkeypatch.setattr("apps.commands.doctor.MARKERS", ())
    rc, out = run(SMALL, tmp_path)
    assert "seat.1  LEDs 0-9: 20 mA predicted, WRONG LEDs lit" in out
    assert rc == 1


def test_a_strip_that_cannot_start_is_reported(tmp_path: Path, mock_factory: MockFactory) -> None:
    text = SMALL.replace(
        'backend = "mock"\ncount = 20\norder = "GRB"',
        'backend = "adalight"\ncount = 20\nport = "/dev/ttyNONE"',
    )
    rc, out = run(text, tmp_path)
    assert "  FAILED: cannot open /dev/ttyNONE" in out
    assert "5 of 5 buttons responded" in out
    assert rc == 1


def test_cli_mock_demo_table(capsys: pytest.CaptureFixture[str], mock_factory: MockFactory) -> None:
    assert main(["doctor", "--mock", "--timeout", "2"]) == 0
    out = capsys.readouterr().out
    assert "20 of 20 buttons responded" in out
    assert out.count("lit (checked on the mock strip)") == 7


def test_cli_mock_overrides_a_real_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], mock_factory: MockFactory
) -> None:
    p = tmp_path / "pi.toml"
    p.write_text(
        SMALL.replace('pin_factory = "mock"', 'pin_factory = "lgpio"').replace(
            'backend = "mock"', 'backend = "spi"'
        )
    )
    cfg = mocked(load_config(p))
    assert cfg.pin_factory == "mock" and cfg.strip is not None and cfg.strip.backend == "mock"
    assert main(["doctor", "--config", str(p), "--mock", "--timeout", "2"]) == 0
    assert "5 of 5 buttons responded" in capsys.readouterr().out


def test_cli_config_error_is_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    p = tmp_path / "bad.toml"
    p.write_text(SMALL.replace("select = 6", "select = 5"))
    assert main(["doctor", "--config", str(p)]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"tavola doctor: {p}:6: seats.1.select: GPIO5 is used twice: here and by "
        "seats.1.previous (line 5)\n"
    )


def test_cli_needs_a_config(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["doctor"]) == 2
    assert "--config FILE" in capsys.readouterr().err


def test_help_explains_the_self_test(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["doctor", "--help"])
    out = capsys.readouterr().out
    for words in ("--config FILE", "--mock", "red, green, blue", "exit status", "examples:"):
        assert words in out


def _at_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *, sees_light: bool
) -> tuple[int, str]:
    """The interactive path on a terminal strip: a 'person' presses what each prompt asks
    for, and confirms a lit segment with seat 1's select only if `sees_light`."""
    text = SMALL.replace(
        'backend = "mock"\ncount = 20\norder = "GRB"',
        'backend = "terminal"\ncount = 20\nwidth = 10',
    )
    text = text.replace('pin_factory = "mock"', 'pin_factory = "mock"\nglitch_ms = 0')
    cfg = parse_config_text(text, source="small.toml")  # no glitch window: taps are instant
    out = io.StringIO()
    doctor = Doctor(
        cfg,
        out=out,
        timeout=5 if sees_light else 0.3,
        segment_seconds=0,
        model_path=tmp_path / "none",
    )
    monkeypatch.setattr(Doctor, "auto", staticmethod(lambda buttons: False))
    real_say = doctor.say

    def say(line: str = "") -> None:
        real_say(line)
        buttons = doctor.buttons
        if buttons is None:  # the lines before the pins are set up
            return
        if ": press any button if they light" in line:
            if sees_light:
                buttons.press_pin("1", "select", True)
                buttons.press_pin("1", "select", False)
        elif ": press " in line:  # the person presses what they are asked to, then lets go
            who, _, rest = line.strip().partition(": press ")
            seat = "table" if who == "table" else who.removeprefix("seat ")
            button = rest.split()[0].lower()
            buttons.press_pin(seat, button, True)
            buttons.press_pin(seat, button, False)

    doctor.say = say  # type: ignore[method-assign]
    return doctor.run(), out.getvalue()


def test_at_a_real_table_it_asks_and_waits(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    mock_factory: MockFactory,
) -> None:
    rc, report = _at_the_table(tmp_path, monkeypatch, sees_light=True)
    assert rc == 0, report
    assert (
        "  seat.1  LEDs 0-9: 172 mA predicted: press any button if they light, the first "
        "three red, green, blue (5 s)"
    ) in report
    assert "  seat.1  lit, confirmed by seat 1" in report
    assert "buttons:      press each button when asked (5 s each)" in report
    assert "  seat 1: press PREVIOUS (GPIO5)" in report
    assert "  table: press UNDO (GPIO20)" in report
    assert "5 of 5 buttons responded" in report
    assert "\x1b[48;2;" in capsys.readouterr().out  # the terminal strip drew the segments


def test_a_dark_strip_is_not_verified_and_does_not_exit_0(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mock_factory: MockFactory
) -> None:
    """Nobody saw the segments light (a dark strip): asked, nobody confirms; the buttons
    all work, so no fault is found, but the result is not 'all good'."""
    rc, report = _at_the_table(tmp_path, monkeypatch, sees_light=False)
    assert (
        "  seat.1  NOT VERIFIED: nobody pressed in 0.3 s: if they stayed dark, check the "
        "strip's 5 V supply, its ground shared with the Pi, and the data wire "
        "(docs/wiring.md)"
    ) in report
    assert report.count("NOT VERIFIED: nobody pressed") == 2
    assert "5 of 5 buttons responded" in report
    assert "result:       no fault found, 2 check(s) NOT VERIFIED, see above" in report
    assert rc == 3


def test_without_buttons_a_real_strip_is_not_verified(tmp_path: Path) -> None:
    text = '[strip]\nbackend = "terminal"\ncount = 4\nwidth = 4\n'
    out = io.StringIO()
    rc = Doctor(
        parse_config_text(text, source="t.toml"),
        out=out,
        timeout=0.2,
        segment_seconds=0,
        model_path=tmp_path / "none",
    ).run()
    assert "whole strip  NOT VERIFIED: no button to confirm with" in out.getvalue()
    assert rc == 3


def test_a_pin_driver_failing_at_release_ends_in_a_note_not_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mock_factory: MockFactory
) -> None:
    """lgpio can raise 'GPIO busy' when gpiozero re-claims a watched line at close."""
    real = Buttons.close

    def close(self: Buttons) -> None:
        real(self)
        raise RuntimeError("'GPIO busy'")

    monkeypatch.setattr(Buttons, "close", close)
    rc, out = run(SMALL, tmp_path)
    assert "pins:         releasing them failed ('GPIO busy'); they are freed on exit" in out
    assert out.splitlines()[-1] == "result:       all good"
    assert rc == 0


def test_doctor_says_a_phone_seat_has_nothing_to_press(
    tmp_path: Path, mock_factory: MockFactory
) -> None:
    text = SMALL.replace("[table]", '[seats.3]\nkind = "phone"\n[table]')
    rc, out = run(text, tmp_path)
    lines = out.splitlines()
    assert rc == 0, lines
    assert "  seat 3  no buttons: played from a paired phone, nothing to press" in lines
    assert "  5 of 5 buttons responded" in lines
