"""Scenarios of the firmware's boot escape, packet reader and loop, run by the tests in
CPython and in MicroPython (WebAssembly): each prints one JSON object of outcomes.
MicroPython subset: see firmware/proto.py.
"""

import json

import device
import loop
import proto
import sim
import stream


class Line:
    """Bytes arriving at given virtual times, read a byte at a time (the boot window)."""

    def __init__(self, clock, arrivals: list) -> None:
        self.clock = clock
        self.usb = sim.Usb(clock)
        for t, data in arrivals:
            self.usb.write(t, data)
        self.one = bytearray(1)

    def read_byte(self) -> int:
        self.usb.readinto(self.one)
        return self.one[0]


def escape(held: bool, arrivals: list) -> list:
    clock = sim.Clock(0)
    line = Line(clock, arrivals)
    escaped, early = loop.boot_escape(
        lambda: held,
        line.usb.waiting,
        line.read_byte,
        clock.ticks_ms,
        sim.ticks_diff,
        clock.sleep_ms,
    )
    return [escaped, early.hex(), clock.ticks_ms(), line.usb.pos]


def escapes() -> dict:
    hello = sim.hello(3)  # HELLO for 3 LEDs: its body holds 0x03
    mpremote = b"\r\x03\r\x01"  # what mpremote sends on connecting
    return {
        "hello_has_0x03": 3 in hello,
        "held": escape(True, []),
        "mpremote": escape(False, [(800_000, mpremote)]),
        "host": escape(False, [(300_000, hello)]),
        "silence": escape(False, []),
        "late": escape(False, [(loop.ESCAPE_MS * 1000 + 500_000, mpremote)]),
    }


def reader(probe: bool) -> dict:
    """Padded host writes (and, if `probe`, an unpadded 'AT\\r' between them)."""
    clock = sim.Clock(0)
    usb = sim.Usb(clock)
    shown = []
    dev = device.Device(lambda frame: None, 50, 3, shown.append)
    usb.write(1000, sim.hello(50))
    t = 20_000
    for k in range(12):
        if probe and k == 4:
            usb.write(t - 5000, b"AT\r")
        usb.write(t, sim.host_frames(4 * k + 1, k, bytes([k + 1]) * 150))
        t += 20_000
    packets = loop.PacketReader(usb.readinto, usb.waiting, clock.ticks_ms, sim.ticks_diff)
    modes = []
    while clock.us() < t + 50_000:
        chunk = packets.read()
        if chunk is None:
            clock.sleep_ms(1)
            continue
        modes.append(len(chunk))
        dev.feed(chunk, clock.ticks_ms())
    return {
        "shown": [f[0] for f in shown],
        "blocked": usb.blocked,
        "slow": packets.slow,
        "aligned": packets.aligned,
        "packet_reads": modes.count(proto.USB_PACKET),
        "byte_reads": modes.count(1),
        "damaged": dev.decoder.damaged,
    }


def main() -> None:
    figures = stream.run(seconds=2.0, fps=60.0, leds=300, cpu_scale=0, pattern="board")
    print(
        json.dumps(
            {"escape": escapes(), "reader": reader(False), "probe": reader(True), "stream": figures}
        )
    )


main()
