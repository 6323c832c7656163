"""The table microcontroller link: handshake, events, LED frames, resends, silence, replug."""

from __future__ import annotations

import queue
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.errors import LinkLost
from firmware_bridge.events import CardEvent, LinkEvent
from firmware_bridge.firmware import proto
from firmware_bridge.mcu import McuLink, McuStrip
from firmware_bridge.parsers import FrameParser
from firmware_bridge.ports import DeviceSpec
from firmware_bridge.protocol import (
    Ack,
    Button,
    Card,
    Heartbeat,
    Hello,
    HelloAck,
    Nak,
    decode,
    encode,
)
from hw.events import InputEvent

from .conftest import FAST, link_events, next_event, wait_for


def start(device_path: Path, events: queue.Queue[Any], **kw: Any) -> McuLink:
    return McuLink(DeviceSpec(path=str(device_path)), emit=events.put, **FAST, **kw).start()


def test_cards_buttons_and_a_300_led_strip_over_one_pty(mcu_emulator, device_path) -> None:
    emu = mcu_emulator(leds=300)
    events: queue.Queue[Any] = queue.Queue()
    mcu = start(device_path, events, clock=lambda: 7.0, leds=300)
    try:
        assert mcu.ready.wait(10)
        assert mcu.info == HelloAck(2, 300, 3, proto.FIRMWARE_ID)
        strip = McuStrip(300, link=mcu, order="GRB")
        strip.set_all([(i % 256, 0, 255 - i % 256) for i in range(300)])
        strip.show()
        wire = bytes(b for i in range(300) for b in (0, i % 256, 255 - i % 256))  # GRB
        assert emu.wait_frame(lambda f: f == wire) == wire  # 900 bytes: four LED messages
        assert emu.scan("04A1B2C3D4")
        assert emu.press("table", "menu", "long_press")
        assert next_event(events, CardEvent) == CardEvent("04A1B2C3D4", 7.0, "mcu")
        assert next_event(events, InputEvent) == InputEvent("table", "menu", "long_press", 7.0)
        wait_for(lambda: not emu.device.pending)  # both acknowledged: nothing resent
    finally:
        mcu.close()


def test_unplug_is_told_once_and_the_board_gets_the_latest_frame_back(
    mcu_emulator, device_path
) -> None:
    emu = mcu_emulator(leds=4)
    seen: list[Any] = []
    mcu = McuLink(DeviceSpec(path=str(device_path)), emit=seen.append, leds=4, **FAST).start()
    try:
        assert mcu.ready.wait(10)
        strip = McuStrip(4, link=mcu, order="RGB")
        strip.set(0, (9, 9, 9))
        strip.show()
        assert emu.wait_frame(lambda f: f[:3] == b"\x09\x09\x09")
        emu.unplug()
        wait_for(lambda: not mcu.link.connected)
        strip.set(1, (5, 6, 7))
        strip.show()  # the cable is out: nothing raised, the frame waits
        tries = mcu.link.attempts
        wait_for(lambda: mcu.link.attempts >= tries + 3)
        assert link_events(seen) == ["connected", "lost"]
        frames_before = len(emu.frames)
        emu.plug()
        assert wait_for(lambda: mcu.ready.is_set())
        assert emu.wait_frame(lambda f: f[3:6] == b"\x05\x06\x07", after=frames_before)
        assert link_events(seen) == ["connected", "lost", "reconnected"]
    finally:
        mcu.close()


def offline_link(
    leds: int = 0, start: float = 100.0
) -> tuple[McuLink, list[bytes], list[Any], list[float]]:
    """A link driven by hand: its writes recorded, its monotonic clock in our hands."""
    sent: list[bytes] = []
    emitted: list[Any] = []
    now = [start]
    mcu = McuLink(
        DeviceSpec(path="/dev/null-mcu"),
        emit=emitted.append,
        clock=lambda: 1.0,
        monotonic=lambda: now[0],
        leds=leds,
    )
    mcu.link.write = lambda data: sent.append(data) or True  # type: ignore[method-assign]
    mcu.opened(mcu.link, 1.0)
    return mcu, sent, emitted, now


@pytest.fixture
def offline() -> tuple[McuLink, list[bytes], list[Any], list[float]]:
    return offline_link()


def heard(sent: list[bytes]) -> list[Any]:
    out = [decode(f) for f in FrameParser().feed(b"".join(sent))]
    sent.clear()
    return out


def test_a_resent_event_is_acknowledged_but_passed_on_once(offline) -> None:
    mcu, sent, emitted, now = offline
    assert heard(sent) == [Hello()]
    mcu.received(encode(HelloAck(2, 4, 3, "x"), 0), 1.0)
    card = encode(Card(0, "0A0079A2B1"), 1)
    mcu.received(card, 1.0)
    now[0] += 0.1
    mcu.received(card, 1.0)  # our ACK was lost: the firmware resends, same seq
    assert [e for e in emitted if isinstance(e, CardEvent)] == [CardEvent("0A0079A2B1", 1.0, "mcu")]
    assert heard(sent) == [Ack(1), Ack(1)] and mcu.duplicates == 1
    now[0] += 5.0
    mcu.received(encode(Card(0, "0A0079A2B1"), 1), 1.0)  # seq 1 again, much later: a new read
    assert len([e for e in emitted if isinstance(e, CardEvent)]) == 2


def test_other_firmware_versions_are_told_once_and_get_no_frames(offline) -> None:
    mcu, sent, emitted, _now = offline
    mcu.received(encode(HelloAck(3, 4, 3, "tavola-pico/3.0"), 0), 1.0)
    (event,) = emitted
    assert isinstance(event, LinkEvent) and event.kind == "incompatible"
    assert "protocol 3" in event.message and "flash" in event.message
    heard(sent)
    assert mcu.send_leds(bytes(12)) is False and not mcu.ready.is_set()
    mcu.idle(1.0)
    assert heard(sent) == []  # no HELLO again: the answer was clear


def test_a_silent_board_is_dropped_and_hello_is_repeated_until_answered(offline) -> None:
    mcu, sent, _emitted, now = offline
    heard(sent)
    now[0] += 1.0
    mcu.idle(1.0)
    assert heard(sent) == [Hello()]  # no answer yet: ask again, once a second
    mcu.received(encode(HelloAck(2, 4, 3, "x"), 0), 1.0)
    now[0] += proto.SILENCE_MS / 1000 + 0.1
    with pytest.raises(LinkLost, match="no frame"):
        mcu.idle(1.0)


def test_nonsense_from_the_board_is_refused_with_nak(offline) -> None:
    mcu, sent, emitted, _now = offline
    heard(sent)
    mcu.received(proto.encode(0x7F, 3, b"") + proto.encode(proto.CARD, 4, b""), 1.0)
    assert heard(sent) == [Nak(3, proto.E_TYPE), Nak(4, proto.E_MALFORMED)]
    assert emitted == [] and mcu.refused == 2


def test_a_strip_of_four_channels_is_refused() -> None:
    mcu = McuLink(DeviceSpec(path="/dev/null-mcu"), emit=print)
    with pytest.raises(ValueError, match="3-channel"):
        McuStrip(10, link=mcu, order="GRBW")


# --- the LED count, the heartbeat's wrap, whole USB packets --------------------------------
def test_a_board_driving_fewer_leds_than_the_strip_is_refused_in_one_line() -> None:
    mcu, sent, emitted, _now = offline_link(leds=438)
    assert heard(sent) == [Hello(led_count=438)]  # the board is told the strip's length
    mcu.received(encode(HelloAck(2, 300, 3, "tavola-pico/2.0"), 0), 1.0)
    (event,) = emitted
    assert isinstance(event, LinkEvent) and event.kind == "incompatible"
    assert "\n" not in event.message
    assert "drives 300 LEDs" in event.message and "[strip] count is 438" in event.message
    assert "MAX_LEDS = 438" in event.message  # the fix
    assert not mcu.ready.is_set() and mcu.send_leds(bytes(438 * 3)) is False
    assert heard(sent) == []  # no frame the board would refuse


def test_the_board_takes_its_led_count_from_the_host(mcu_emulator, device_path) -> None:
    """The shipped config's 438 LEDs on a board whose firmware once said 300: shown."""
    emu = mcu_emulator()
    events: queue.Queue[Any] = queue.Queue()
    mcu = start(device_path, events, leds=438)
    try:
        assert mcu.ready.wait(10)
        assert mcu.info is not None and mcu.info.led_count == 438
        strip = McuStrip(438, link=mcu, order="RGB")
        strip.set(437, (1, 2, 3))
        strip.show()
        frame = emu.wait_frame(lambda f: f[-3:] == b"\x01\x02\x03")
        assert frame is not None and len(frame) == 438 * 3
        assert emu.device.refused == 0 and emu.device.bad_led_id == -1
    finally:
        mcu.close()


def test_a_board_too_small_for_the_strip_is_refused_end_to_end(mcu_emulator, device_path) -> None:
    emu = mcu_emulator(leds=300)
    seen: list[Any] = []
    mcu = McuLink(DeviceSpec(path=str(device_path)), emit=seen.append, leds=438, **FAST).start()
    try:
        wait_for(lambda: "incompatible" in link_events(seen))
        (event,) = [e for e in seen if isinstance(e, LinkEvent) and e.kind == "incompatible"]
        assert "300" in event.message and "438" in event.message
        assert emu.frames == [] and not mcu.ready.is_set()
    finally:
        mcu.close()


def test_a_strip_must_match_the_count_its_link_announces() -> None:
    mcu = McuLink(DeviceSpec(path="/dev/null-mcu"), emit=print, leds=300)
    with pytest.raises(ValueError, match="leds=438"):
        McuStrip(438, link=mcu)


def test_older_firmware_refusing_the_hello_is_told_once(offline) -> None:
    mcu, sent, emitted, _now = offline
    (hello,) = FrameParser().feed(b"".join(sent))
    mcu.received(encode(Nak(hello.seq, proto.E_MALFORMED), 0), 1.0)  # a protocol 1 board
    (event,) = emitted
    assert isinstance(event, LinkEvent) and event.kind == "incompatible"
    assert "older firmware" in event.message and "flash" in event.message


def test_the_heartbeat_wraps_past_49_7_days_as_the_firmware_does() -> None:
    start_s = 2**32 / 1000 - 1.5  # 49.7 days of uptime, 1.5 s before the u32 wraps
    mcu, sent, _emitted, now = offline_link(start=start_s)
    mcu.received(encode(HelloAck(2, 0, 3, "x"), 0), 1.0)
    heard(sent)
    beats = []
    for _ in range(4):
        now[0] += 1.0
        mcu.received(encode(Heartbeat(5), 1), 1.0)  # the board keeps talking
        mcu.idle(1.0)  # raised struct.error past 2**32 ms, and the link flapped
        beats += [m.uptime_ms for m in heard(sent) if isinstance(m, Heartbeat)]
    assert beats == [int((start_s + k) * 1000) % 2**32 for k in (1, 2, 3, 4)]
    assert beats[1] < beats[0]  # wrapped, as the firmware's `now_ms & 0xFFFFFFFF`
    assert mcu.ready.is_set()


def test_every_write_is_whole_usb_packets(offline) -> None:
    mcu, sent, _emitted, _now = offline
    mcu.received(encode(HelloAck(2, 0, 3, "x"), 0), 1.0)
    mcu.send(Ack(3))
    mcu.send(*[Ack(i) for i in range(40)])
    assert sent and all(len(w) % proto.USB_PACKET == 0 for w in sent)
    assert len(heard(sent)) == 1 + 1 + 40  # HELLO, then the ACKs: padding is no frame


def test_events_faster_than_256_a_second_are_all_passed_on(offline) -> None:
    """The board's 8-bit sequence number wraps within a second at 300 frames/s: an event
    equal to the one 256 frames earlier is a new press, not that frame's resend. Real
    resends (a lost ACK) still count once; an event whose original the line lost counts
    when its resend arrives."""
    mcu, _sent, emitted, now = offline
    mcu.received(encode(HelloAck(1, 4, 3, "x"), 0), 1.0)
    kinds = ("press", "release")
    frames = {}
    for n in range(1, 601):  # two seconds at 300 frames/s: press, release, press, ...
        frames[n] = encode(Button(1, 1, n % 2 * 2), n & 0xFF)  # kind 0 press, 2 release
    lost = {40, 300}  # the line garbles these originals
    for n in range(1, 601):
        now[0] += 1 / 300
        if n not in lost:
            mcu.received(frames[n], 1.0)
        if n - 30 in frames and (n - 30) % 97 == 0:
            mcu.received(frames[n - 30], 1.0)  # our ACK was lost: resent 100 ms later
        if n - 30 in lost:
            mcu.received(frames[n - 30], 1.0)  # the lost one's resend
    presses = [e for e in emitted if isinstance(e, InputEvent)]
    assert len(presses) == 600
    assert [e.kind for e in presses].count("press") == 300
    assert mcu.duplicates == len([n for n in range(1, 571) if n % 97 == 0])
    assert all(p.kind in kinds for p in presses)


def test_a_clashing_sequence_number_is_a_new_event_and_each_resend_counts_once(
    mcu_emulator, device_path
) -> None:
    """Two button events under one sequence number within a second (a board that
    renumbered, or a counter that came round) are two events: the host tells a resend by
    its whole frame, not by its number alone. A resend of either, still within the
    second and after the other arrived, is acknowledged and passed on no more."""
    emu = mcu_emulator()
    events: queue.Queue[Any] = queue.Queue()
    mcu = start(device_path, events)

    def presses_until(seat: str) -> list[tuple[str, str, str]]:
        """The button events passed on, up to the first of `seat` (the line keeps order)."""
        out = []
        while not out or out[-1][0] != seat:
            e = next_event(events, InputEvent)
            out.append((e.seat, e.button, e.kind))
        return out

    try:
        assert mcu.ready.wait(10)
        seq = emu.seq  # the board's own code numbers and sends both events
        assert emu.press(1, "select", seq=seq)
        assert emu.press(2, "next", seq=seq)  # under the number of the one just sent
        assert presses_until("2") == [("1", "select", "press"), ("2", "next", "press")]
        # our ACKs were lost: the board resends each under the number it was sent with
        emu.write(encode(Button(1, 1, 0), seq) + encode(Button(2, 2, 0), seq))
        emu.press(3, "select")  # then a new event, after the resends on the line
        assert presses_until("3") == [("3", "select", "press")]
        assert mcu.duplicates >= 2  # ours; the board resends too if an ACK comes late
    finally:
        mcu.close()
