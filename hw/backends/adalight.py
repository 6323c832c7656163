"""Adalight frames over serial: a microcontroller or a WLED device drives the strip.

Each frame is `b"Ada"`, the LED count minus one as two bytes (high, low), a
checksum `high ^ low ^ 0x55`, then R, G, B for every LED (WLED's Adalight
input and the common FastLED sketches read exactly this; the device applies its
own colour order). `pyserial` is imported when the port opens.

Two habits of the devices matter to a table that sends only changed frames:

- An Arduino-based board resets when the port opens (the USB adapter's DTR line
  pulses its reset pin); its bootloader swallows what arrives for a second or two,
  then the sketch says `Ada\\n` (and again every second until data comes). So the
  strip waits for that greeting, `greeting_s` at most, before the first frame;
  WLED sends no greeting (set `greeting_s = 0` to skip the wait).
- WLED leaves its realtime mode 2.5 s after the last frame and goes back to its own
  effect; the Adalight sketches blank the LEDs after their serial timeout. So the
  current frame is sent again every `keepalive_s` (`hw.recovery` does it).

Mind the baud rate: 300 LEDs are 906 bytes a frame, about 79 ms at 115200 baud;
set the device and `baud` to 500000 or more for animations.
"""

from __future__ import annotations

import errno
import time
from typing import TYPE_CHECKING, Any

from hw.backends import Backend, own_keys
from hw.schema import Int, Key, Number, Section, Table, Text
from hw.strip import ByteStrip, StripError

if TYPE_CHECKING:
    from hw.config import StripConfig

GREETING = b"Ada"
#: errnos that mean "not plugged in (yet)", not "set up wrong"
ABSENT = (errno.ENOENT, errno.ENODEV, errno.ENXIO)


def header(n: int) -> bytes:
    if not 1 <= n <= 65536:
        raise ValueError(f"Adalight carries 1-65536 LEDs, not {n}")
    hi, lo = (n - 1) >> 8, (n - 1) & 0xFF
    return bytes((0x41, 0x64, 0x61, hi, lo, hi ^ lo ^ 0x55))


class AdalightStrip(ByteStrip):
    def __init__(
        self,
        n: int,
        *,
        port: str,
        baud: int = 115_200,
        greeting_s: float = 0.0,
        keepalive_s: float | None = None,
        serial_factory: Any = None,
    ) -> None:
        super().__init__(n, order="RGB")
        self._header = header(n)
        self.port = port
        self.keepalive_s = keepalive_s
        if serial_factory is None:
            try:
                import serial  # lazily: imported only when a port opens
            except ImportError:
                raise StripError(
                    "the adalight backend needs pyserial: pip install pyserial"
                ) from None
            serial_factory = serial.Serial
        try:
            self._serial = serial_factory(port, baudrate=baud, timeout=0, write_timeout=2)
        except (OSError, ValueError) as e:  # serial.SerialException is an OSError
            absent = getattr(e, "errno", None) in ABSENT
            raise StripError(
                f"cannot open {port}: {e} (is the device plugged in, and is the "
                "user in the dialout group?)",
                absent=absent,
            ) from None
        #: True: the board said `Ada`; False: no greeting within greeting_s; None: not awaited
        self.greeted: bool | None = None
        self.greeting_wait_s = 0.0
        if greeting_s > 0:
            t0 = time.monotonic()
            try:
                self.greeted = self._await_greeting(greeting_s)
            except (OSError, ValueError) as e:
                self._serial.close()
                raise StripError(
                    f"{port} failed while waiting for its greeting: {e} (unplugged?)", absent=True
                ) from None
            self.greeting_wait_s = time.monotonic() - t0

    def _await_greeting(self, seconds: float) -> bool:
        """Read until the board says `Ada` (its sketch is running) or `seconds` pass."""
        deadline = time.monotonic() + seconds
        seen = b""
        self._serial.timeout = 0.05  # each read blocks this long at most: no busy loop
        try:
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                chunk = self._serial.read(64)
                if chunk:
                    seen = (seen + chunk)[-64:]
                    if GREETING in seen:
                        self._serial.reset_input_buffer()  # the rest of its greetings
                        return True
        finally:
            self._serial.timeout = 0

    def frame(self, data: bytes) -> bytes:
        return self._header + data

    def _send(self, data: bytes) -> None:
        try:
            self._serial.write(self._header + data)
        except (OSError, ValueError) as e:  # ValueError: pyserial's port closed under us
            raise StripError(f"{self.port}: {e} (unplugged?)", absent=True) from None

    def close(self) -> None:
        try:
            super().close()
            self._serial.flush()
        finally:
            self._serial.close()


# --- the backend as the config file sees it ------------------------------------------------
def _settings(t: Section, keys: Table) -> dict[str, Any]:
    return {**own_keys(t, keys), "keepalive_s": t["keepalive_s"] or None}  # 0: never


def _open(config: StripConfig, **overrides: Any) -> AdalightStrip:
    assert config.port is not None  # a required key
    return AdalightStrip(
        config.count,
        port=config.port,
        baud=config.baud,
        greeting_s=config.greeting_s,
        keepalive_s=config.keepalive_s,
        **overrides,
    )


BACKEND = Backend(
    "adalight",
    Table(
        Key("port", Text(example="/dev/ttyACM0"), help="its serial device"),
        Key("baud", Int(lo=1200, hi=4_000_000), 115_200),
        Key(
            "greeting_s",
            Number(lo=0, hi=30),
            3.0,
            "wait this long for an Arduino's 'Ada' after it resets on open; 0 for WLED",
        ),
        Key(
            "keepalive_s",
            Number(lo=0, hi=60),
            1.0,
            "send the frame again this often (WLED drops realtime after 2.5 s); 0: never",
        ),
    ),
    channels=(3,),
    channels_help="Adalight carries RGB only; set the device's own order",
    settings=_settings,
    open=_open,
)
