"""Adalight frames over serial: a microcontroller or a WLED device drives the strip.

Each frame is `b"Ada"`, the LED count minus one as two bytes (high, low), a
checksum `high ^ low ^ 0x55`, then R, G, B for every LED (WLED's Adalight
input and the common FastLED sketches read exactly this; the device applies its
own colour order). `pyserial` is imported when the port opens.

Mind the baud rate: 300 LEDs are 906 bytes a frame, about 79 ms at 115200 baud;
set the device and `baud` to 500000 or more for animations.
"""

from __future__ import annotations

from typing import Any

from hw.strip import ByteStrip, StripError


def header(n: int) -> bytes:
    if not 1 <= n <= 65536:
        raise ValueError(f"Adalight carries 1-65536 LEDs, not {n}")
    hi, lo = (n - 1) >> 8, (n - 1) & 0xFF
    return bytes((0x41, 0x64, 0x61, hi, lo, hi ^ lo ^ 0x55))


class AdalightStrip(ByteStrip):
    def __init__(self, n: int, *, port: str, baud: int = 115_200,
                 serial_factory: Any = None) -> None:
        super().__init__(n, order="RGB")
        self._header = header(n)
        self.port = port
        if serial_factory is None:
            try:
                import serial  # lazily: imported only when a port opens
            except ImportError:
                raise StripError("the adalight backend needs pyserial: pip install pyserial"
                                 ) from None
            serial_factory = serial.Serial
        try:
            self._serial = serial_factory(port, baudrate=baud, timeout=0, write_timeout=2)
        except (OSError, ValueError) as e:  # serial.SerialException is an OSError
            raise StripError(f"cannot open {port}: {e} (is the device plugged in, and is the "
                             "user in the dialout group?)") from None

    def frame(self, data: bytes) -> bytes:
        return self._header + data

    def _send(self, data: bytes) -> None:
        try:
            self._serial.write(self._header + data)
        except OSError as e:
            raise StripError(f"writing to {self.port} failed: {e} (unplugged?)") from None

    def close(self) -> None:
        try:
            super().close()
            self._serial.flush()
        finally:
            self._serial.close()
