"""Framing of the ring board's serial protocol, shared by the firmware and the host.

The one copy of it: the table unit imports it as ``tablekit.ringproto`` (it is in
the wheel) and the same file is copied to the Pico next to ``firmware/main.py``,
which imports it as ``ringproto`` (``firmware/README.md``, Flashing). It runs
unchanged on MicroPython, so it imports nothing at run time and uses no
dataclasses; its types are comments for mypy. The protocol is documented in
``firmware/README.md``; in brief, every message is one line of printable ASCII::

    $<seq> <kind>[ <field>]...*<CRC>\\n

``seq`` counts 0..255 per direction, ``kind`` is one capital letter, fields are
short tokens of letters, digits, ``.``, ``-`` and ``_``, and ``CRC`` is the
CRC-8 (polynomial 0x07, initial value 0) of the bytes between ``$`` and ``*``
as two upper-case hex digits. A ``$`` always starts a new frame, so a frame cut
short (a write the device dropped) costs only itself; bytes outside frames are
ignored. Only printable ASCII is ever sent: in particular never 0x03, which
would raise KeyboardInterrupt on the board while Ctrl-C is still enabled.
"""

TYPE_CHECKING = False
if TYPE_CHECKING:  # MicroPython has no typing module; mypy reads these
    from collections.abc import Sequence  # noqa: F401  (used in type comments)

    Message = tuple[int, str, list[str]]
    """A decoded frame: ``(seq, kind, fields)``."""

PROTOCOL = 1
"""Protocol version, sent in the hello message."""

MAX_FRAME = 96
"""Longest frame in bytes, from ``$`` to ``\\n``; longer lines are discarded."""

SEQ_MOD = 256

# Message kinds, device -> host.
HELLO = "H"  # H <protocol> <firmware version> <led count> <button codes>
EDGE = "E"  # E <button code> <1 pressed | 0 released> <device ms>
HEARTBEAT = "K"  # K <device ms> <buttons down mask> <ring seq> <buzzer seq> <rx errors>

# Message kinds, host -> device.
RING = "R"  # R <level 0..1000> <r> <g> <b> <blink mode> <blink phase ms>
BUZZER = "B"  # B <1 on | 0 off> <Hz, 0 = steady on for an active buzzer>
PING = "P"  # P

# Button codes in edges, hello and the heartbeat's mask (bit i = BUTTONS[i] down).
BUTTONS = "PJC"  # pass, judge, call judge

# Blink modes of a ring frame: the period in ms of each, on for its first half.
BLINK_PERIODS = (0, 1000, 500, 250)
STEADY = 0
BLINK_SLOW = 1
BLINK_FAST = 2
BLINK_FLASH = 3

LEVEL_FULL = 1000
"""A ring frame's ``level`` is the lit fraction of the ring in thousandths."""

_HEX = b"0123456789ABCDEF"


def _lookup(chars, value=1):
    # type: (bytes, int) -> bytes
    # Lookups by byte value: MicroPython's bytes have no ``int in bytes``.
    table = bytearray(256)
    for i, byte in enumerate(chars):
        table[byte] = value if value else i + 1
    return bytes(table)


_TOKEN = _lookup(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_")
_HEX_VALUE = _lookup(_HEX, 0)
"""Hex digit value + 1 by byte (0: not an upper-case hex digit)."""


def _make_table():
    # type: () -> bytes
    table = bytearray(256)
    for i in range(256):
        crc = i
        for _ in range(8):
            crc = ((crc << 1) ^ 0x07) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
        table[i] = crc
    return bytes(table)


_CRC_TABLE = _make_table()


def crc8(data):
    # type: (bytes | bytearray) -> int
    """CRC-8/SMBUS (polynomial 0x07, init 0, no reflection) of ``data``."""
    crc = 0
    for byte in data:
        crc = _CRC_TABLE[crc ^ byte]
    return crc


def _check_token(token):
    # type: (bytes) -> None
    if not token:
        raise ValueError("empty field")
    for byte in token:
        if not _TOKEN[byte]:
            raise ValueError(f"bad character {chr(byte)!r} in field {token!r}")


def encode(seq, kind, fields=()):
    # type: (int, str, Sequence[object]) -> bytes
    """One frame as bytes; ``fields`` are ints or strings of token characters."""
    if not 0 <= seq < SEQ_MOD:
        raise ValueError(f"seq out of range: {seq!r}")
    if len(kind) != 1 or not "A" <= kind <= "Z":
        raise ValueError(f"kind must be one capital letter: {kind!r}")
    parts = [str(seq), kind]
    for field in fields:
        text = str(field)
        _check_token(text.encode())
        parts.append(text)
    body = " ".join(parts).encode()
    crc = crc8(body)
    frame = b"$" + body + b"*" + bytes((_HEX[crc >> 4], _HEX[crc & 15])) + b"\n"
    if len(frame) > MAX_FRAME:
        raise ValueError(f"frame longer than {MAX_FRAME} bytes")
    return frame


def parse(frame):
    # type: (bytes) -> Message | None
    """Decode one frame body (the bytes between ``$`` and the newline).

    Returns ``(seq, kind, fields)`` with ``fields`` a list of strings, or None
    when the frame is malformed or its checksum does not match.
    """
    if frame.endswith(b"\r"):
        frame = frame[:-1]
    if len(frame) < 6 or frame[-3] != 0x2A:  # "*"
        return None
    body = frame[:-3]
    high = _HEX_VALUE[frame[-2]]
    low = _HEX_VALUE[frame[-1]]
    if not high or not low or (high - 1) * 16 + low - 1 != crc8(body):
        return None
    for byte in body:
        if byte != 0x20 and not _TOKEN[byte]:
            return None
    parts = body.decode().split(" ")
    if len(parts) < 2 or len(parts[1]) != 1 or not "A" <= parts[1] <= "Z":
        return None
    if not parts[0] or not parts[0].isdigit() or len(parts[0]) > 3:
        return None
    seq = int(parts[0])
    if seq >= SEQ_MOD:
        return None
    fields = parts[2:]
    for field in fields:
        if not field:  # two spaces in a row
            return None
    return (seq, parts[1], fields)


class Decoder:
    """Turns a byte stream into frames; survives garbage and partial frames.

    ``feed(data)`` returns the list of ``(seq, kind, fields)`` completed by
    ``data``. ``errors`` counts frames dropped as malformed, too long or with a
    bad checksum; bytes outside any frame are not errors (a REPL banner, noise).
    """

    def __init__(self):
        # type: () -> None
        self._buf = None  # type: bytearray | None
        self.errors = 0

    def reset(self):
        # type: () -> None
        self._buf = None

    def feed(self, data):
        # type: (bytes | bytearray) -> list[Message]
        out = []  # type: list[Message]
        for byte in data:
            if byte == 0x24:  # "$": a new frame starts, whatever came before
                if self._buf is not None and len(self._buf):
                    self.errors += 1
                self._buf = bytearray()
            elif self._buf is None:
                continue
            elif byte == 0x0A:  # "\n"
                message = parse(bytes(self._buf))
                if message is None:
                    self.errors += 1
                else:
                    out.append(message)
                self._buf = None
            elif len(self._buf) >= MAX_FRAME:
                self.errors += 1
                self._buf = None
            else:
                self._buf.append(byte)
        return out


def seq_next(seq):
    # type: (int) -> int
    return (seq + 1) % SEQ_MOD


def seq_lost(previous, seq):
    # type: (int | None, int) -> int
    """How many frames were lost between ``previous`` and ``seq`` (0 if none)."""
    if previous is None:
        return 0
    return (seq - previous - 1) % SEQ_MOD


def ints(fields, count):
    # type: (Sequence[str], int) -> list[int] | None
    """``count`` integer fields, or None if there are fewer or one is not a number."""
    if len(fields) < count:
        return None
    out = []  # type: list[int]
    for field in fields[:count]:
        text = field[1:] if field.startswith("-") else field
        if not text or not text.isdigit():
            return None
        out.append(int(field))
    return out
