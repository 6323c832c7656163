"""The microcontroller's side of the protocol, free of hardware: the Pico firmware and the
host's emulator both run this class, so the emulator cannot drift from the firmware.

Inputs: `feed(bytes, now_ms)` with what the host sent, `card(...)` and `button(...)` from
the readers and buttons, `poll(now_ms)` every loop. Outputs: `write(frame_bytes)` and
`on_leds(wire_bytes)` when a whole LED frame has arrived. Times are a millisecond count
the caller keeps monotonic.

MicroPython subset: see proto.py.
"""

try:
    from . import proto  # on the host: firmware_bridge.firmware.proto
except ImportError:
    import proto  # on the Pico: a module beside this one


class Device:
    """Handshake, heartbeats, acknowledged card and button events, chunked LED frames.

    The strip's length is the host's: each HELLO names the LEDs it drives, and the
    board drives that many, up to `max_leds` (what its memory was sized for); HELLO_ACK
    tells the host the count in force, so a host asking for more can say so.
    """

    def __init__(
        self,
        write,
        max_leds: int,
        channels: int = 3,
        on_leds=None,
        firmware: str = proto.FIRMWARE_ID,
    ) -> None:
        self.write = write
        self.max_leds = max_leds
        self.led_count = 0  # until a host says how many it drives
        self.channels = channels
        self.on_leds = on_leds
        self.firmware = firmware
        self.decoder = proto.Decoder()
        self.seq = 0
        self.pending = {}  # seq -> [frame, last sent ms, times sent]
        self.connected = False
        self.now_ms = 0
        self.host_ms = 0  # when the host last sent a frame
        self.beat_ms = 0
        self.leds = bytearray(max_leds * channels)  # allocated once: no heap churn later
        self.led_id = -1
        self.led_total = 0
        self.led_got = 0
        self.bad_led_id = -1
        self.lost = 0  # events never acknowledged
        self.refused = 0  # host frames answered with NAK

    # --- sending ---------------------------------------------------------------------
    def _send(self, ftype: int, fields: tuple, tail: bytes = b"", track: bool = False) -> int:
        seq = self.seq
        self.seq = (seq + 1) & 0xFF
        frame = proto.encode(ftype, seq, proto.pack(ftype, fields, tail))
        if track:
            self.pending[seq] = [frame, self.now_ms, 1]
        self.write(frame)
        return seq

    def card(self, code: str, reader: int = 0) -> bool:
        """Report a tag id; False (dropped) while no host listens."""
        if not self.connected:
            return False
        self._send(proto.CARD, (reader,), code.encode()[: proto.MAX_CODE], True)
        return True

    def button(self, seat: int, button: int, kind: int) -> bool:
        """Report a button event (indices into proto.BUTTONS and proto.KINDS)."""
        if not self.connected:
            return False
        self._send(proto.BUTTON, (seat, button, kind), b"", True)
        return True

    # --- receiving -------------------------------------------------------------------
    def feed(self, data: bytes, now_ms: int) -> None:
        self.now_ms = now_ms
        for ftype, seq, body in self.decoder.feed(data):
            self.host_ms = now_ms
            self._handle(ftype, seq, body)

    def _handle(self, ftype: int, seq: int, body: bytes) -> None:
        if ftype == proto.HELLO and body and body[0] != proto.PROTOCOL_VERSION:
            # the version leads HELLO in every protocol version: answer with ours so the
            # host can tell its user which side to update, and stay unconnected
            self._hello_ack()
            return
        try:
            fields, tail = proto.unpack(ftype, body)
        except KeyError:
            self.refused += 1
            self._send(proto.NAK, (seq, proto.E_TYPE))
            return
        except ValueError:
            self.refused += 1
            self._send(proto.NAK, (seq, proto.E_MALFORMED))
            return
        if ftype == proto.HELLO:
            self.connected = True
            self.beat_ms = self.now_ms
            self.led_count = min(fields[1], self.max_leds)
            self._hello_ack()
        elif ftype == proto.ACK:
            self.pending.pop(fields[0], None)
        elif ftype == proto.LED:
            self._led(fields[0], fields[1], fields[2], tail)

    def _hello_ack(self) -> None:
        self._send(
            proto.HELLO_ACK,
            (proto.PROTOCOL_VERSION, self.led_count, self.channels),
            self.firmware.encode(),
        )

    def _led(self, frame_id: int, offset: int, total: int, data: bytes) -> None:
        size = self.led_count * self.channels
        if total > size or offset + len(data) > total:
            if frame_id != self.bad_led_id:
                self.bad_led_id = frame_id
                text = f"LED frame of {total} bytes; the strip holds {size}"
                self._send(proto.ERROR, (proto.E_LED_SIZE,), text.encode())
            return
        if frame_id != self.led_id or total != self.led_total:
            self.led_id = frame_id
            self.led_total = total
            self.led_got = 0
        self.leds[offset : offset + len(data)] = data
        self.led_got += len(data)
        if self.led_got >= total:
            self.led_id = -1
            if self.on_leds is not None:
                self.on_leds(bytes(memoryview(self.leds)[:total]))

    # --- time ------------------------------------------------------------------------
    def poll(self, now_ms: int) -> None:
        """Heartbeats, retransmissions, and lights off when the host has gone silent."""
        self.now_ms = now_ms
        if not self.connected:
            return
        if now_ms - self.host_ms > proto.SILENCE_MS:
            self.connected = False
            self.lost += len(self.pending)
            self.pending = {}
            if self.on_leds is not None:
                self.on_leds(bytes(self.led_count * self.channels))
            return
        if now_ms - self.beat_ms >= proto.HEARTBEAT_MS:
            self.beat_ms = now_ms
            self._send(proto.HEARTBEAT, (now_ms & 0xFFFFFFFF,))
        for seq in list(self.pending):
            entry = self.pending[seq]
            if now_ms - entry[1] < proto.RETRY_MS:
                continue
            if entry[2] >= proto.RETRIES:
                del self.pending[seq]
                self.lost += 1
            else:
                entry[1] = now_ms
                entry[2] += 1
                self.write(entry[0])
