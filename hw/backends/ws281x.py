"""rpi_ws281x's `PixelStrip`: DMA-driven WS281x/SK6812 output on PWM, PCM or SPI pins.

Refuses to construct the real class anywhere it cannot work, before importing
it: off a Pi it segfaults at interpreter exit, the Pi 5's RP1 chip is not
supported, and PWM/PCM need `/dev/mem` (root). Each refusal names the fix.
Colours go to the library in RGB(W); it reorders for `strip_type` itself, so
our own gamma and brightness run and the library's are left at identity.
"""

from __future__ import annotations

import atexit
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hw.backends import Backend
from hw.pi import MODEL_PATH, is_pi5, pi_model
from hw.pins import WS281X_PINS as PINS
from hw.pins import gpio
from hw.schema import Bool, Custom, Int, Key, Section, Table
from hw.strip import ByteStrip, StripError

if TYPE_CHECKING:
    from hw.config import StripConfig


def strip_type_name(order: str) -> str:
    """rpi_ws281x's constant for a colour order: WS2811_STRIP_GRB, SK6812_STRIP_RGBW..."""
    return f"SK6812_STRIP_{order}" if len(order) == 4 else f"WS2811_STRIP_{order}"


class Ws281xStrip(ByteStrip):
    def __init__(
        self,
        n: int,
        *,
        pin: int = 18,
        order: str = "GRB",
        dma: int = 10,
        channel: int | None = None,
        freq_hz: int = 800_000,
        invert: bool = False,
        model_path: str | Path = MODEL_PATH,
        dev_mem: str | Path = "/dev/mem",
        spidev: str | Path = "/dev/spidev0.0",
    ) -> None:
        super().__init__(n, order="RGBW" if len(order) == 4 else "RGB")
        self.chip_order = order
        model = pi_model(model_path)
        if model is None:
            raise StripError(
                "rpi_ws281x only runs on a Raspberry Pi (and crashes elsewhere); "
                'for development set backend = "terminal" or "mock" in [strip]'
            )
        if is_pi5(model):
            raise StripError(
                f"rpi_ws281x cannot drive LEDs on the {model} (RP1 chip); set "
                'backend = "spi" in [strip] and wire the strip to GPIO10 (MOSI)'
            )
        if pin not in PINS:
            raise StripError(f"GPIO{pin} cannot drive rpi_ws281x; use 18, 12, 13, 19, 21 or 10")
        if PINS[pin] == "SPI":
            if not os.access(spidev, os.R_OK | os.W_OK):
                raise StripError(
                    f"no access to {spidev}: enable SPI (raspi-config) and add "
                    "the user to the spi group"
                )
        elif not os.access(dev_mem, os.R_OK | os.W_OK):
            raise StripError(
                f"{PINS[pin]} output on GPIO{pin} needs {dev_mem}, which only root may open: run "
                'as root (the systemd unit does), or set backend = "spi" in [strip] and wire '
                "the strip to GPIO10 to run unprivileged"
            )
        try:
            import rpi_ws281x  # lazily: never at module import: see the docstring
        except ImportError:
            raise StripError(
                "the ws281x backend needs rpi_ws281x: pip install rpi-ws281x"
            ) from None
        name = strip_type_name(order)
        ws = getattr(rpi_ws281x, "ws", rpi_ws281x)
        strip_type = getattr(ws, name, None)
        if strip_type is None:
            raise StripError(f"this rpi_ws281x has no {name}; choose another order")
        if channel is None:
            channel = 1 if PINS[pin] == "PWM1" else 0
        self._strip: Any = rpi_ws281x.PixelStrip(
            n,
            pin,
            freq_hz=freq_hz,
            dma=dma,
            invert=invert,
            brightness=255,
            channel=channel,
            strip_type=strip_type,
        )
        try:
            self._strip.begin()
        except RuntimeError as e:
            _forget(self._strip)
            raise StripError(begin_failed(str(e), PINS[pin], model)) from None
        self._four = len(order) == 4

    def _send(self, data: bytes) -> None:
        colours = _colour_ints(data, 4 if self._four else 3)
        set_pixel = self._strip.setPixelColor
        for i, c in enumerate(colours):
            set_pixel(i, c)
        try:
            self._strip.show()
        except RuntimeError as e:  # "ws2811_render failed with code ..."
            raise StripError(f"rpi_ws281x could not show a frame: {e}") from None

    def close(self) -> None:
        """LEDs off, then the library's DMA and PWM freed (ws2811_fini), so that the strip
        can be opened again in this process (hw.recovery reopens it after a failed render)."""
        try:
            super().close()
        finally:
            cleanup = getattr(self._strip, "_cleanup", None)
            if cleanup is not None:
                atexit.unregister(cleanup)
                cleanup()


def begin_failed(error: str, mode: str, model: str) -> str:
    """The message for a failed `begin()`, with the hint that fits the error and the mode."""
    if "Hardware revision is not supported" in error:
        return (
            f"rpi_ws281x could not start: {error}: this rpi_ws281x does not know the "
            f"{model} (some Pi 3 revisions); upgrade it (pip install -U rpi-ws281x) or "
            'set backend = "spi" in [strip] and wire the strip to GPIO10'
        )
    if mode == "SPI":
        hint = (
            "check that SPI is enabled and that the user may open /dev/spidev0.0 and "
            "/dev/gpiomem (the spi and gpio groups)"
        )
    else:
        hint = (
            "check that audio is off (dtparam=audio=off) for PWM, that dma is 10, and "
            "that nothing else drives the pin"
        )
    return f"rpi_ws281x could not start: {error}; {hint}"


def _forget(strip: Any) -> None:
    """Drop a PixelStrip whose begin() failed without letting its exit hook run.

    PixelStrip registers `_cleanup` with atexit, which calls ws2811_fini; after a failed
    ws2811_init that dereferences a device never set up, and the process dies at exit
    with a segfault (status 139) instead of reporting the error.
    """
    cleanup = getattr(strip, "_cleanup", None)
    if cleanup is not None:
        atexit.unregister(cleanup)


def _colour_ints(data: bytes, k: int) -> list[int]:
    """RGB(W) bytes -> rpi_ws281x's ints (W<<24 | R<<16 | G<<8 | B) by one native-endian cast."""
    n = len(data) // k
    quad = bytearray(4 * n)
    if sys.byteorder == "little":  # int 0xWWRRGGBB is stored B, G, R, W
        quad[0::4], quad[1::4], quad[2::4] = data[2::k], data[1::k], data[0::k]
        if k == 4:
            quad[3::4] = data[3::4]
    else:
        quad[1::4], quad[2::4], quad[3::4] = data[0::k], data[1::k], data[2::k]
        if k == 4:
            quad[0::4] = data[3::4]
    return memoryview(quad).cast("I").tolist()


# --- the backend as the config file sees it ------------------------------------------------
def _pin(value: Any) -> int:
    pin = gpio(value)
    if pin not in PINS:
        raise ValueError(
            f"GPIO{pin} cannot drive rpi_ws281x: use 18 or 12 (PWM0), 13 or 19 "
            "(PWM1), 21 (PCM) or 10 (SPI)"
        )
    return pin


def _settings(t: Section, keys: Table) -> dict[str, Any]:
    pin = t["pin"]
    if t["dma"] == 5:
        raise t.err(
            "dma",
            "DMA 5 is used by the SD card on current kernels and writing "
            "to it can corrupt the card; use dma = 10",
        )
    channel = 1 if PINS[pin] == "PWM1" else 0
    if t["channel"] is not None and t["channel"] != channel:
        raise t.err("channel", f"GPIO{pin} is on channel {channel}")
    return dict(pin=pin, dma=t["dma"], channel=channel, freq_hz=t["freq_hz"], invert=t["invert"])


def _open(config: StripConfig, **overrides: Any) -> Ws281xStrip:
    return Ws281xStrip(
        config.count,
        pin=config.pin or 18,
        order=config.order,
        dma=config.dma,
        channel=config.channel,
        freq_hz=config.freq_hz,
        invert=config.invert,
        **overrides,
    )


BACKEND = Backend(
    "ws281x",
    Table(
        Key("pin", Custom("18, 12, 13, 19, 21 or 10", _pin), 18),
        Key("dma", Int(lo=0, hi=14), 10),
        Key("channel", Int(lo=0, hi=1), None),
        Key("freq_hz", Int(lo=400_000, hi=800_000), 800_000),
        Key("invert", Bool(), False),
    ),
    default_order="GRB",
    settings=_settings,
    open=_open,
)
