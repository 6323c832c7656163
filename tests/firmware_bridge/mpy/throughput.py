"""How fast the firmware's own code takes LED frames in: PacketReader and Device over
pre-written host frames, timed with one clock reading around each batch (in the
WebAssembly port a clock reading is a JS call of some 10 us, too dear per packet).
MicroPython subset: see firmware/proto.py.
"""

try:
    import js

    def now_us() -> float:
        return js.performance.now() * 1000.0
except ImportError:
    from time import perf_counter

    def now_us() -> float:
        return perf_counter() * 1e6


import device
import loop
import sim
import stream


class Wire:
    """Everything the host wrote, already in the board's buffer."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def waiting(self) -> bool:
        return self.pos < len(self.data)

    def readinto(self, buf) -> int:
        n = len(buf)
        buf[0:n] = self.data[self.pos : self.pos + n]
        self.pos += n
        return n


def decode(pattern: str, packet: int, frames: int = 60, leds: int = 300) -> dict:
    wire = b"".join(
        sim.host_frames(4 * k + 1, k, stream.frame_data(k, leds, pattern)) for k in range(frames)
    )
    shown = []
    dev = device.Device(lambda frame: None, 1000, 3, shown.append)
    dev.feed(sim.hello(leds), 0)
    usb = Wire(wire)
    reader = loop.PacketReader(usb.readinto, usb.waiting, lambda: 0, sim.ticks_diff, packet)
    reader.aligned = True  # the line was quiet before the host wrote
    start = now_us()
    while True:
        chunk = reader.read()
        if chunk is None:
            break
        dev.feed(chunk, 0)
    took = now_us() - start
    return {
        "pattern": pattern,
        "packet": packet,
        "shown": len(shown),
        "bytes": len(wire),
        "us_per_frame": took / frames,
        "fps": frames * 1e6 / took,
        "bytes_per_s": len(wire) * 1e6 / took,
    }
