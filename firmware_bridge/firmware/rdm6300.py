"""RDM6300 125 kHz RFID frames, shared by the host (a reader on a USB-serial adapter) and the
Pico firmware (a reader on a UART): the same bytes, so the same parser.

At 9600 baud the module sends, for each read, `02`, ten ASCII hex characters
(five data bytes: a version byte and the 32-bit tag number), two ASCII hex
characters of checksum (the XOR of the five data bytes) and `03`. It repeats
the frame while the tag stays in the field; `Presence` turns those repeats into
one read per presentation.

MicroPython subset: see proto.py.
"""

STX = 0x02
ETX = 0x03
HEX = set(b"0123456789ABCDEFabcdef")  # a set of ints: `in` works the same on both
_BODY = 12  # ten data characters and two checksum characters


class Rdm6300:
    """Incremental parser: `feed(bytes) -> [tag id]`, ids as ten upper-case hex characters.

    Any STX restarts a frame (STX is never a hex character), so a valid frame is
    found whatever came before it; anything malformed is counted and skipped.
    """

    def __init__(self) -> None:
        self.body = bytearray()
        self.inside = False
        self.frames = 0
        self.bad_checksum = 0
        self.broken = 0  # truncated, non-hex or missing ETX

    def feed(self, data: bytes) -> list:
        out = []
        for b in data:
            if b == STX:
                if self.inside:
                    self.broken += 1
                self.inside = True
                self.body = bytearray()
            elif not self.inside:
                continue
            elif len(self.body) < _BODY:
                if b in HEX:
                    self.body.append(b)
                else:
                    self.inside = False
                    self.broken += 1
            else:
                self.inside = False
                if b != ETX:
                    self.broken += 1
                    continue
                code = check(bytes(self.body))
                if code is None:
                    self.bad_checksum += 1
                else:
                    self.frames += 1
                    out.append(code)
        return out


def check(body: bytes):
    """The tag id of twelve hex characters if their checksum holds, else None."""
    text = body.decode().upper()
    values = [int(text[i : i + 2], 16) for i in range(0, _BODY, 2)]
    x = 0
    for v in values[:5]:
        x ^= v
    return text[:10] if x == values[5] else None


def frame(code: str) -> bytes:
    """The frame a reader sends for a ten-hex-character tag id (tests and the emulator)."""
    text = code.upper()
    if len(text) != 10 or any(c not in "0123456789ABCDEF" for c in text):
        raise ValueError(f"an RDM6300 tag id is ten hex characters, not {code!r}")
    x = 0
    for i in range(0, 10, 2):
        x ^= int(text[i : i + 2], 16)
    return bytes((STX,)) + f"{text}{x:02X}".encode() + bytes((ETX,))


class Presence:
    """One read per presentation: a tag seen again within `gap_ms` of its last frame is the
    same presentation (the reader repeats frames while the tag lies on it)."""

    def __init__(self, gap_ms: int = 500) -> None:
        self.gap_ms = gap_ms
        self.code = None  # type: str | None
        self.last_ms = 0

    def new(self, code: str, now_ms: int) -> bool:
        fresh = code != self.code or now_ms - self.last_ms > self.gap_ms
        self.code = code
        self.last_ms = now_ms
        return fresh
