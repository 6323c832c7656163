"""The table microcontroller: one USB cable carrying card reads, seat buttons and LED frames.

`McuLink` speaks the protocol of docs/protocol.md over a `SerialLink`: HELLO on
every (re)open, heartbeats both ways, card and button events acknowledged and
deduplicated (the firmware resends what was not acknowledged), LED frames split
into chunks. Card reads arrive on the app's queue as `CardEvent`s, buttons as
plain `hw.events.InputEvent`s. `McuStrip` is hw's `Strip` over that link, for a
Pi 5 or a board without a usable LED pin:

    mcu = McuLink(DeviceSpec(path="/dev/tavola-mcu"), emit=events.put, leds=300).start()
    strip = McuStrip(300, link=mcu, order="GRB")

The host tells the board how many LEDs it drives (HELLO) and refuses, in one line
naming both counts, a board that cannot drive that many.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, cast

from hw.events import InputEvent, Kind
from hw.strip import ByteStrip

from .errors import LinkLost, ProtocolError
from .events import CardEvent
from .firmware import proto
from .link import Emit, SerialLink
from .parsers import Frame, FrameParser
from .ports import DeviceSpec
from .protocol import (
    Ack,
    Button,
    Card,
    Error,
    Heartbeat,
    Hello,
    HelloAck,
    Message,
    Nak,
    decode,
    encode,
    led_messages,
)

log = logging.getLogger("tavola.bridge")

HELLO_RETRY_S = 1.0
DUPLICATE_S = 1.0  # a resend arrives within RETRIES * RETRY_MS; after that a seq is new
#: a frame this far ahead of the last one (mod 256) is new; farther is taken as behind
AHEAD = 32


class McuLink:
    """The host's side of the protocol; its handler methods run on the link's thread."""

    label = "table microcontroller"

    def __init__(
        self,
        device: DeviceSpec,
        *,
        emit: Emit,
        baud: int = 115_200,
        leds: int = 0,
        clock: Callable[[], float] = time.monotonic,
        monotonic: Callable[[], float] = time.monotonic,
        **link_options: Any,
    ) -> None:
        if not 0 <= leds <= 0xFFFF // 3:
            raise ValueError(f"an LED frame carries at most {0xFFFF // 3} LEDs, not {leds}")
        self.leds = leds  # the strip this host drives through the board (0: none)
        self.emit = emit
        self.monotonic = monotonic
        self.link = SerialLink(device, self, emit=emit, baud=baud, clock=clock, **link_options)
        self.parser = FrameParser()
        self.ready = threading.Event()  # the handshake is done: LED frames may flow
        self.info: HelloAck | None = None
        self._send_lock = threading.Lock()
        self._seq = 0
        self._led_id = 0
        self._latest: bytes | None = None
        # seq -> {(type, body): when last heard}: every distinct frame heard under a number
        self._seen: dict[int, dict[tuple[int, bytes], float]] = {}
        self._last_seq: int | None = None  # the board's newest sequence number heard
        self._hello_at = 0.0
        self._heard_at = 0.0
        self._beat_at = 0.0
        self._errors_told: set[int] = set()
        self.duplicates = 0
        self.refused = 0  # frames we answered with NAK
        self.naks = 0  # NAKs the MCU sent us
        self.led_frames = 0

    def start(self) -> McuLink:
        self.link.start()
        return self

    def close(self) -> None:
        self.link.close()

    # --- sending -----------------------------------------------------------------------
    def send(self, *messages: Message) -> bool:
        """Number and send messages in one write; False while the device is away.

        The write is padded with zeros (empty frames) to whole USB packets, so the board
        can read a packet at a time without waiting on a partial one.
        """
        with self._send_lock:
            out = bytearray()
            for message in messages:
                out += encode(message, self._seq)
                self._seq = (self._seq + 1) & 0xFF
            out += bytes(-len(out) % proto.USB_PACKET)
            return self.link.write(bytes(out))

    def send_leds(self, data: bytes) -> bool:
        """Show a frame of wire bytes; kept and sent again after a reconnect if it cannot go."""
        self._latest = bytes(data)
        if not self.ready.is_set():
            return False
        return self._push(self._latest)

    def _push(self, data: bytes) -> bool:
        with self._send_lock:
            frame_id = self._led_id
            self._led_id = (frame_id + 1) & 0xFF
        sent = self.send(*led_messages(frame_id, data))
        self.led_frames += sent
        return sent

    # --- the link's handler ------------------------------------------------------------
    def opened(self, link: SerialLink, now: float) -> None:
        self.parser = FrameParser()
        self.ready.clear()
        self.info = None
        self._seen.clear()
        self._last_seq = None
        mono = self.monotonic()
        self._hello_at = self._heard_at = self._beat_at = mono
        self.send(Hello(led_count=self.leds))

    def received(self, data: bytes, now: float) -> None:
        for frame in self.parser.feed(data):
            self._heard_at = self.monotonic()
            self._frame(frame, now)

    def idle(self, now: float) -> None:
        mono = self.monotonic()
        if not self.ready.is_set():
            if mono - self._hello_at >= HELLO_RETRY_S and self.info is None:
                self._hello_at = mono
                self.send(Hello(led_count=self.leds))
            return
        if mono - self._heard_at > proto.SILENCE_MS / 1000:
            raise LinkLost(f"no frame for {proto.SILENCE_MS / 1000:g} s")
        if mono - self._beat_at >= proto.HEARTBEAT_MS / 1000:
            self._beat_at = mono
            self.send(Heartbeat(int(mono * 1000) & 0xFFFFFFFF))  # wraps after 49.7 days

    def closed(self) -> None:
        self.ready.clear()

    # --- what the MCU says -------------------------------------------------------------
    def _frame(self, frame: Frame, now: float) -> None:
        fresh = self._advance(frame.seq)
        try:
            message = decode(frame)
        except ProtocolError as e:
            self.refused += 1
            code = proto.E_TYPE if frame.type not in proto.LAYOUTS else proto.E_MALFORMED
            log.debug("%s: refused %s frame: %s", self.label, frame.name, e)
            self.send(Nak(frame.seq, code))
            return
        if isinstance(message, Card | Button):
            self.send(Ack(frame.seq))
            if self._duplicate(frame, fresh):
                return
            if isinstance(message, Card):
                self.emit(CardEvent(message.code, now, "mcu"))
            else:
                kind = cast(Kind, message.kind_name)  # one of the protocol's button kinds
                self.emit(InputEvent(message.seat_name, message.button_name, kind, now))
        elif isinstance(message, HelloAck):
            self._hello(message)
        elif isinstance(message, Error):
            if message.code not in self._errors_told:
                self._errors_told.add(message.code)
                log.warning("%s reports: %s", self.label, message.text)
        elif isinstance(message, Nak):
            self.naks += 1
            if self.info is None:  # nothing but HELLO goes out before the handshake
                self.link.report(
                    "incompatible",
                    (
                        f"The table microcontroller refused this Tavola's HELLO (protocol "
                        f"{proto.PROTOCOL_VERSION}): it runs older firmware; flash "
                        "firmware_bridge/firmware to it."
                    ),
                )

    def _hello(self, message: HelloAck) -> None:
        self.info = message
        if message.version != proto.PROTOCOL_VERSION:
            self.link.report(
                "incompatible",
                (
                    f"The table microcontroller runs {message.firmware} (protocol "
                    f"{message.version}); this Tavola speaks protocol {proto.PROTOCOL_VERSION}: "
                    "flash firmware_bridge/firmware to it."
                ),
            )
            return
        if self.leds and message.led_count != self.leds:
            self.link.report(
                "incompatible",
                (
                    f"The table microcontroller drives {message.led_count} LEDs, [strip] count is "
                    f"{self.leds}: set MAX_LEDS = {self.leds} or more in "
                    "firmware_bridge/firmware/main.py and copy it to the board, or lower [strip] "
                    "count."
                ),
            )
            return
        log.info("%s: %s, %d LEDs", self.label, message.firmware, message.led_count)
        self.ready.set()
        if self._latest is not None:
            self._push(self._latest)

    def _advance(self, seq: int) -> bool:
        """Follow the board's sequence numbers; True for a frame ahead of the last one.

        The board numbers every frame it sends, one after another, and the serial line
        keeps their order; only a resend comes back with an old number. A frame a little
        ahead of the last one is therefore new, and the numbers it passes over (frames
        lost on the line) now belong to this round of the 8-bit counter: what was seen
        under them 256 frames ago is forgotten, so at more than 256 frames a second an
        event equal to one of the last round is not taken for its resend.
        """
        last = self._last_seq
        ahead = 1 if last is None else (seq - last) & 0xFF
        if not 0 < ahead <= AHEAD:
            return False
        for k in range(1, ahead + 1):
            self._seen.pop((seq - ahead + k) & 0xFF, None)
        self._last_seq = seq
        return True

    def _duplicate(self, frame: Frame, fresh: bool) -> bool:
        """A resend of an event already passed on (its ACK was lost).

        A resend repeats its original exactly: the sequence number, the type and the body.
        So a frame is a resend only when that whole frame was heard under its number within
        DUPLICATE_S, never for the number alone: a frame that shares a recent number but
        carries another event (a board that renumbered, a counter that came round) is new,
        and remembering it beside the first, not in its place, still knows a later resend
        of either. What is older than DUPLICATE_S is forgotten as the number is heard again,
        so a number holds at most a second's worth of frames.
        """
        mono = self.monotonic()
        key = (frame.type, bytes(frame.body))
        heard = self._seen.setdefault(frame.seq, {})
        when = heard.get(key)
        for old in [k for k, at in heard.items() if mono - at >= DUPLICATE_S]:
            del heard[old]
        heard[key] = mono
        if fresh or when is None:
            return False  # new, or the resend of an original the line lost
        if mono - when >= DUPLICATE_S:
            self._last_seq = frame.seq  # no resend comes this late: the board renumbered
            return False
        self.duplicates += 1
        return True


class McuStrip(ByteStrip):
    """hw's `Strip` whose frames go to the table microcontroller; the MCU drives the LEDs.

    Frames are wire bytes in `order` (the host does colour order, brightness and the
    current limit, as for the SPI backend). Sending never raises: with the cable out,
    the latest frame waits and is shown when the MCU returns.
    """

    def __init__(self, n: int, *, link: McuLink, order: str = "GRB") -> None:
        if len(order) != 3:
            raise ValueError("the table microcontroller drives 3-channel WS2812 strips only")
        if n != link.leds:
            raise ValueError(
                f"a strip of {n} LEDs on a link that announces {link.leds}: "
                f"build the McuLink with leds={n}"
            )
        super().__init__(n, order=order)
        self.link = link

    def _send(self, data: bytes) -> None:
        self.link.send_leds(data)


__all__ = ["McuLink", "McuStrip", "ProtocolError"]
