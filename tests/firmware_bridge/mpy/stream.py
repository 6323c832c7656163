"""LED frames streamed at the board while its buttons are pressed, through the firmware's
own loop (loop.Board, device.Device, buttons.Bank) on the stand-ins of sim.py.

`run(...)` returns a dict of figures (bench/bench_firmware.py, and the tests with a
clock that counts only modelled time).
MicroPython subset: see firmware/proto.py.
"""

import buttons
import device
import loop
import proto
import sim

BUTTONS = 8


def presses(seed: int, until_us: float) -> list:
    """Per button, (down_us, up_us) presses: one press somewhere every ~120 ms, 60-140 ms
    long (a linear congruential generator: the same in both Pythons)."""
    out = [[] for _ in range(BUTTONS)]
    free = [0.0] * BUTTONS
    state = seed
    t = 50_000.0
    while t < until_us:
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF
        b = state % BUTTONS
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF
        length = 60_000 + state % 80_000
        if t >= free[b]:
            out[b].append((t, t + length))
            free[b] = t + length + 40_000
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF
        t += 60_000 + state % 120_000
    return out


def frame_data(k: int, leds: int, pattern: str) -> bytes:
    data = bytearray(3 * leds)
    if pattern == "lit":
        for i in range(len(data)):
            data[i] = (i * 7 + k) % 255 + 1
    else:  # a board: one LED in ten lit, the rest dark
        for i in range(0, leds, 10):
            data[3 * i] = (k + i) % 255 + 1
    data[0] = k & 0xFF
    data[1] = (k >> 8) | 0x80
    return bytes(data)


def run(
    seconds: float = 5.0,
    fps: float = 60.0,
    leds: int = 300,
    cpu_scale: float = 1.0,
    packet: int = proto.USB_PACKET,
    pattern: str = "lit",
    seed: int = 1,
) -> dict:
    """`fps` 0: every frame written at once (the host as fast as the board takes them)."""
    count = int(seconds * (fps or 60))
    datas = [frame_data(k, leds, pattern) for k in range(count)]
    clock = sim.Clock(cpu_scale)
    usb = sim.Usb(clock)
    strip = sim.Strip(clock)
    usb.write(500, sim.hello(leds))  # after the boot window: the line is quiet at start
    written = []
    for k in range(count):
        t = 5000.0 + (k * 1e6 / fps if fps else 0.0)  # HELLO_ACK first
        written.append(t)
        usb.write(t, sim.host_frames(4 * k + 1, k, datas[k]))
    end_us = 1000.0 + seconds * 1e6
    plan = presses(seed, end_us - 300_000)
    pins = [sim.Pin(clock, plan[b]) for b in range(BUTTONS)]
    bank = buttons.Bank(
        [(pins[b], buttons.Debounced(1 + b // 3, b % 3)) for b in range(BUTTONS)], 1
    )
    dev = device.Device(lambda frame: None, 1000, 3, strip.show)
    latencies = []
    pressed = [0] * BUTTONS
    send = dev.button

    def button(seat: int, index: int, kind: int) -> bool:
        if kind == buttons.PRESS:
            mark = clock.hold()
            b = 3 * (seat - 1) + index
            latencies.append(clock.us() - plan[b][pressed[b]][0])
            pressed[b] += 1
            clock.release(mark)
        return send(seat, index, kind)

    dev.button = button
    samples = []
    poll = bank.poll

    def sample(now_ms: int) -> bool:
        taken = poll(now_ms)
        if taken:
            samples.append(now_ms)
        return taken

    bank.poll = sample
    reader = loop.PacketReader(usb.readinto, usb.waiting, clock.ticks_ms, sim.ticks_diff, packet)
    board = loop.Board(
        dev, reader, bank, clock.ticks_ms, sim.ticks_diff, clock.sleep_ms, (strip.poll,)
    )
    limit = end_us if fps else end_us * 20
    while clock.cached < limit and len(strip.shown) + strip.replaced < count:
        if not board.step():
            clock.sleep_ms(1)
    total = clock.us()
    frame_lat = []
    for t, head in strip.shown:
        k = head[0] | ((head[1] & 0x7F) << 8)
        frame_lat.append(t - written[k])
    first = strip.shown[0][0] if strip.shown else 0.0
    last = strip.shown[-1][0] if strip.shown else 0.0
    span = (last - first) if len(strip.shown) > 1 else 1.0
    gaps = [samples[i + 1] - samples[i] for i in range(len(samples) - 1)]
    cpu = total - clock.slept_us - usb.blocked_us - strip.waited_us
    return {
        "frames": count,
        "shown": len(strip.shown),
        "replaced": strip.replaced,
        "fps": (len(strip.shown) - 1) * 1e6 / span if len(strip.shown) > 1 else 0.0,
        "decoded_fps": (len(strip.shown) + strip.replaced) * 1e6 / total,
        "bytes_per_s": reader.bytes * 1e6 / (last or total),
        "frame_p50_ms": sim.percentile(frame_lat, 0.5) / 1000,
        "frame_p99_ms": sim.percentile(frame_lat, 0.99) / 1000,
        "presses": sum(1 for p in plan for down, _ in p if down + 30_000 < total),
        "pressed": len(latencies),
        "button_p50_ms": sim.percentile(latencies, 0.5) / 1000,
        "button_p99_ms": sim.percentile(latencies, 0.99) / 1000,
        "button_max_ms": (max(latencies) if latencies else -1000) / 1000,
        "sample_gap_max_ms": max(gaps) if gaps else -1,
        "late_samples": bank.late,
        "samples_per_s": len(samples) * 1e6 / total,
        "cpu_busy": cpu / total,
        "blocked_reads": usb.blocked,
        "slow_reads": reader.slow,
        "damaged": dev.decoder.damaged,
    }
