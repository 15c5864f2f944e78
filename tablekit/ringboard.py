"""The serial ring board: an RP2040 with a WS2812 ring, a buzzer and buttons, over USB.

:class:`RingBoard` is both an output of the unit loop (``show(view, now)``,
``close()``) and an input: a thread reads the board's frames and hands each
button edge to ``put`` as a :class:`~tablekit.controls.ButtonEdge`. The
protocol and the firmware are in ``firmware/`` (README.md there); the framing
module :mod:`tablekit.ringproto` is the same file the firmware runs.

* What the ring shows is :func:`~tablekit.signals.render_signals` folded onto
  one ring: the bar is the lit fraction, the status LED's colour its colour,
  blinking already applied at ``now``. Blinks stay anchored on the clock's
  times, in step with the beeps, the GPIO LEDs and the display. A frame goes
  out only when what the ring should show changes (a few per second while a
  move runs); the board keeps drawing the last one between frames.
* Button edges are stamped ``time.monotonic()`` when they arrive rather than
  mapped from the board's ms counter: that counter has its own origin, wraps
  and restarts with the board, while USB delivers a frame within a few ms,
  far below the clock's 0.4 s lockout. The board debounces; the clock applies
  the lockout.
* Lost frames: the board's heartbeat (every 0.5 s) carries the buttons it holds
  down and the sequence numbers of the last ring and buzzer frames it applied.
  A release the host never saw is put as a release (a lost release would
  otherwise look like a long hold: a judge call); a ring or buzzer frame the
  board missed is sent again. A lost press is not replayed late.
* Unplugged, replugged, rebooted: serial errors close the port and it is
  opened again with backoff; the driver never raises into the unit. Buttons
  held when the board went away are released.
"""

from __future__ import annotations

import contextlib
import glob
import logging
import math
import os
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import serial
from serial.tools import list_ports

from tablekit import ringproto as proto
from tablekit.config import BuzzerSettings
from tablekit.controls import Button, ButtonEdge
from tablekit.signals import Signals, render_signals
from tablekit.view import TableView

log = logging.getLogger(__name__)

PICO_VID = 0x2E8A
PICO_PID = 0x0005
BY_ID_DIR = "/dev/serial/by-id"
DEFAULT_LEDS = 24
"""Ring size assumed until the board's hello says otherwise."""


BUTTON_CODES: dict[str, Button] = {"P": Button.PASS, "J": Button.JUDGE, "C": Button.CALL}
if "".join(BUTTON_CODES) != proto.BUTTONS:
    raise ImportError(f"ring board button codes {proto.BUTTONS!r} are not P, J, C")


def encode(seq: int, kind: str, fields: Sequence[object] = ()) -> bytes:
    return proto.encode(seq, kind, fields)


# --- what the ring shows (pure) ------------------------------------------------------


@dataclass(frozen=True)
class RingFrame:
    """One ring frame: lit fraction in thousandths, colour 0..255, blink mode and phase."""

    level: int
    rgb: tuple[int, int, int]
    blink: int = 0
    phase_ms: int = 0

    def fields(self) -> tuple[int, ...]:
        return (self.level, *self.rgb, self.blink, self.phase_ms)


DARK = RingFrame(0, (0, 0, 0))


@dataclass(frozen=True)
class Buzz:
    on: bool
    hz: int = 0
    """0: steady on (an active buzzer)."""

    def fields(self) -> tuple[int, int]:
        return (1 if self.on else 0, self.hz)


SILENT = Buzz(False)


def ring_frame(signals: Signals) -> RingFrame:
    """The ring for ``signals``: the bar's fraction lit in the status colour.

    An unlit ring is always :data:`DARK`, so a change nobody could see (the bar
    moving while the colour is off) sends no frame.
    """
    level = min(proto.LEVEL_FULL, max(0, math.ceil(signals.bar * proto.LEVEL_FULL - 1e-9)))
    r, g, b = (min(255, max(0, round(c * 255))) for c in signals.status)
    if level == 0 or (r, g, b) == (0, 0, 0):
        return DARK
    return RingFrame(level, (r, g, b))


def buzz(signals: Signals, default_hz: int = 0) -> Buzz:
    """The board's buzzer for ``signals``; ``default_hz`` when they name no tone."""
    if not signals.buzzer:
        return SILENT
    return Buzz(True, round(signals.tone) if signals.tone else default_hz)


# --- port discovery ------------------------------------------------------------------


def find_port(
    by_id: str = BY_ID_DIR, comports: Callable[[], Sequence[Any]] = list_ports.comports
) -> str | None:
    """The ring board's serial port, preferring a stable ``/dev/serial/by-id`` path.

    Looks for by-id names containing ``2E8A`` (the Pico's USB vendor id) or
    ``MicroPython`` (what udev names a Pico running MicroPython after its USB
    strings), then for any port whose USB vendor id is 2E8A, given by its by-id
    link when it has one. None when no board is plugged in.
    """
    links = sorted(glob.glob(os.path.join(by_id, "*")))
    for link in links:
        name = os.path.basename(link).lower()
        if "2e8a" in name or "micropython" in name:
            return link
    for info in sorted(comports(), key=lambda p: str(p.device)):
        if getattr(info, "vid", None) != PICO_VID:
            continue
        device = os.path.realpath(str(info.device))
        for link in links:
            if os.path.realpath(link) == device:
                return link
        return str(info.device)
    return None


def _wake(port: Any) -> None:
    """Interrupt the I/O thread's read on ``port`` (a no-op without a port)."""
    if port is not None:
        # A port being closed by the thread may refuse; the thread is awake then anyway.
        with contextlib.suppress(OSError, ValueError, serial.SerialException):
            port.cancel_read()


# --- the driver ----------------------------------------------------------------------


@dataclass(frozen=True)
class DeviceInfo:
    """What the board said in its hello."""

    protocol: int
    firmware: str
    leds: int
    buttons: str


class RingBoard:
    """The ring board as an output (``show``/``close``) and an input (``put`` edges).

    ``port`` is the serial device, or None to look for one with :func:`find_port`
    at every connection attempt. ``buzzer`` are the unit's buzzer settings (quiet
    mode, beeps, tone); ``tone`` the Hz for a passive buzzer on the board when the
    settings name none (None: drive it steadily, for an active buzzer).
    """

    def __init__(
        self,
        port: str | None,
        put: Callable[[object], None],
        *,
        buzzer: BuzzerSettings | None = None,
        tone: float | None = None,
        baudrate: int = 115200,
        ping_interval: float = 0.5,
        silence: float = 3.0,
        resend_after: float = 0.3,
        retry_min: float = 0.2,
        retry_max: float = 5.0,
        read_timeout: float = 0.1,
        monotonic: Callable[[], float] = time.monotonic,
        start: bool = True,
    ) -> None:
        self.port = port
        self._put = put
        self._settings = buzzer if buzzer is not None else BuzzerSettings()
        self._default_hz = round(tone) if tone else 0
        self._baudrate = baudrate
        self._ping_interval = ping_interval
        self._silence = silence
        self._resend_after = resend_after
        self._retry_min = retry_min
        self._retry_max = retry_max
        self._read_timeout = read_timeout
        self._monotonic = monotonic

        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._serial: Any = None
        """The open port while a session runs (for waking the reader from ``show``)."""
        # Wanted by show() (under the lock); sent by the I/O thread.
        self._want_ring = DARK
        self._want_buzz = SILENT
        self._shown: tuple[RingFrame, Buzz] | None = None
        # I/O thread state.
        self._decoder = proto.Decoder()
        self._tx_seq = 0
        self._rx_seq: int | None = None
        self._sent_ring: RingFrame | None = None
        self._sent_ring_seq = -1
        self._sent_ring_at = 0.0
        self._sent_buzz: Buzz | None = None
        self._sent_buzz_seq = -1
        self._sent_buzz_at = 0.0
        self._last_tx = 0.0
        self._last_rx: float | None = None
        self._down: set[Button] = set()

        self.device: DeviceInfo | None = None
        self.connected = False
        """The port is open and the board answered within ``silence`` seconds."""
        self.connections = 0
        """Sessions in which the board answered (1 + reconnections)."""
        self.lost = 0
        """Board frames missed, from gaps in their sequence numbers."""
        self.frames_sent = 0
        self.frames_received = 0

        self._thread = threading.Thread(target=self._run, name="ringboard", daemon=True)
        if start:
            self._thread.start()

    @property
    def bad_frames(self) -> int:
        """Frames from the board dropped as garbled (checksum, format, length)."""
        return int(self._decoder.errors)

    @property
    def leds(self) -> int:
        return self.device.leds if self.device is not None else DEFAULT_LEDS

    # -- output side (the unit loop's thread) ----------------------------------------------

    def show(self, view: TableView, now: float) -> None:
        """Render ``view`` at ``now``; the board hears of it only when the ring changes."""
        signals = render_signals(view, now, self._settings, self.leds)
        wanted = (ring_frame(signals), buzz(signals, self._default_hz))
        if wanted == self._shown:
            return
        self._shown = wanted
        with self._lock:
            self._want_ring, self._want_buzz = wanted
            port = self._serial
        _wake(port)

    def close(self) -> None:
        """Darken the ring, silence the buzzer, close the port and stop the thread."""
        with self._lock:
            self._want_ring, self._want_buzz = DARK, SILENT
            port = self._serial
        self._stop.set()
        _wake(port)
        if self._thread.is_alive():
            self._thread.join(timeout=2.0)

    def __enter__(self) -> RingBoard:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the I/O thread ------------------------------------------------------------------

    def _run(self) -> None:
        delay = self._retry_min
        reported = -1
        while not self._stop.is_set():
            answered = False
            try:
                answered = self._connect_and_serve()
            except (serial.SerialException, OSError) as exc:
                # Once per outage, not at every retry while the board is unplugged.
                level = logging.WARNING if self.connections != reported else logging.DEBUG
                reported = self.connections
                log.log(level, "ring board %s: %s", self.port or "(auto)", exc)
            except Exception:
                log.exception("ring board: unexpected error; reconnecting")
            self._release_all("the board went away")
            self.connected = False
            if self._stop.is_set():
                break
            delay = self._retry_min if answered else min(delay * 2, self._retry_max)
            self._stop.wait(delay)

    def _connect_and_serve(self) -> bool:
        """One session on an open port; True if the board answered in it."""
        path = self.port if self.port is not None else find_port()
        if path is None:
            return False
        port = serial.Serial(path, self._baudrate, timeout=self._read_timeout, write_timeout=0.5)
        answered = False
        try:
            with self._lock:
                self._serial = port
            self._decoder.reset()
            self._rx_seq = None
            self._last_rx = None
            self._sent_ring = self._sent_buzz = None  # the board's state is unknown
            self._send(port, proto.PING)
            while True:
                if self._stop.is_set():
                    self._flush(port, self._monotonic(), answered)  # dark and silent
                    return answered
                count = port.in_waiting
                data = port.read(count if count > 0 else 1)
                now = self._monotonic()
                if data:
                    for seq, kind, fields in self._decoder.feed(data):
                        if not answered:
                            answered = True
                            self.connections += 1
                            log.info("ring board answering on %s", path)
                        self._receive(seq, kind, fields, now)
                self._flush(port, now, answered)
                self._check_silence(now)
        finally:
            with self._lock:
                self._serial = None
            with contextlib.suppress(OSError, serial.SerialException):
                port.close()

    def _send(self, port: Any, kind: str, fields: Sequence[object] = ()) -> int:
        seq = self._tx_seq
        port.write(encode(seq, kind, fields))
        self._tx_seq = int(proto.seq_next(seq))
        self._last_tx = self._monotonic()
        self.frames_sent += 1
        return seq

    def _flush(self, port: Any, now: float, answered: bool) -> None:
        """Send what changed; ring and buzzer only to a board that has spoken.

        Until the board answers this session's first ping its state is unknown
        (it may still be booting): then everything is sent once.
        """
        if answered:
            with self._lock:
                ring, sound = self._want_ring, self._want_buzz
            if ring != self._sent_ring:
                self._sent_ring_seq = self._send(port, proto.RING, ring.fields())
                self._sent_ring, self._sent_ring_at = ring, now
            if sound != self._sent_buzz:
                self._sent_buzz_seq = self._send(port, proto.BUZZER, sound.fields())
                self._sent_buzz, self._sent_buzz_at = sound, now
        if now - self._last_tx >= self._ping_interval:
            self._send(port, proto.PING)

    def _check_silence(self, now: float) -> None:
        if self._last_rx is None or not self.connected:
            return
        if now - self._last_rx > self._silence:
            log.warning("ring board silent for %.1f s", now - self._last_rx)
            self.connected = False
            self._release_all("the board fell silent")

    # -- frames from the board ---------------------------------------------------------

    def _receive(self, seq: int, kind: str, fields: list[str], now: float) -> None:
        self.frames_received += 1
        self._last_rx = now
        self.connected = True
        if kind == proto.HELLO:
            self._hello(fields)
            self._rx_seq = seq
            return
        lost = int(proto.seq_lost(self._rx_seq, seq))
        if lost:
            self.lost += lost
            log.warning("ring board: %d frame(s) lost before #%d", lost, seq)
        self._rx_seq = seq
        if kind == proto.EDGE:
            self._edge(fields, now)
        elif kind == proto.HEARTBEAT:
            self._heartbeat(fields, now)
        # Anything else (an echo of our own frames from a board sitting in its
        # REPL, a kind from newer firmware) is not for us.

    def _hello(self, fields: list[str]) -> None:
        numbers = proto.ints([fields[0], fields[2]], 2) if len(fields) >= 4 else None
        if numbers is None or numbers[1] < 1:
            log.warning("ring board: malformed hello %r", fields)
            return
        self.device = DeviceInfo(int(numbers[0]), fields[1], int(numbers[1]), fields[3])
        log.info(
            "ring board: firmware %s, protocol %d, %d LEDs",
            self.device.firmware,
            self.device.protocol,
            self.device.leds,
        )
        if self.device.protocol != proto.PROTOCOL:
            log.warning(
                "ring board speaks protocol %d, this host %d", self.device.protocol, proto.PROTOCOL
            )
        # A fresh session on the board: it shows nothing of ours and holds no button.
        self._sent_ring = self._sent_buzz = None
        self._release_all("the board restarted")

    def _edge(self, fields: list[str], now: float) -> None:
        button = BUTTON_CODES.get(fields[0]) if fields else None
        values = proto.ints(fields[1:], 2)
        if button is None or values is None:
            log.warning("ring board: malformed edge %r", fields)
            return
        pressed = bool(values[0])
        if pressed:
            self._down.add(button)
        else:
            self._down.discard(button)
        self._put(ButtonEdge(button, pressed, now))

    def _heartbeat(self, fields: list[str], now: float) -> None:
        values = proto.ints(fields, 4)
        if values is None:
            log.warning("ring board: malformed heartbeat %r", fields)
            return
        _, mask, ring_seq, buzz_seq = (int(v) for v in values)
        down = {b for i, b in enumerate(BUTTON_CODES.values()) if mask & (1 << i)}
        for button in sorted(self._down - down):
            log.warning("ring board: release of %s was lost; releasing it", button)
            self._put(ButtonEdge(button, False, now))
        # A press we never saw is not replayed: it would act late.
        self._down = down
        if (
            self._sent_ring is not None
            and ring_seq != self._sent_ring_seq
            and now - self._sent_ring_at >= self._resend_after
        ):
            self._sent_ring = None
        if (
            self._sent_buzz is not None
            and buzz_seq != self._sent_buzz_seq
            and now - self._sent_buzz_at >= self._resend_after
        ):
            self._sent_buzz = None

    def _release_all(self, why: str) -> None:
        if not self._down:
            return
        now = self._monotonic()
        for button in sorted(self._down):
            log.info("ring board: releasing %s (%s)", button, why)
            self._put(ButtonEdge(button, False, now))
        self._down.clear()
