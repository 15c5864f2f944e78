"""Ring board firmware (MicroPython on a Raspberry Pi Pico / RP2040).

A WS2812 ring, a buzzer and the table's buttons, spoken to by the table unit
over USB serial with the line protocol of ``ringproto.py`` (see README.md).

* Buttons are polled every loop (about 1 ms) and debounced on timestamps: the
  first change is reported at once, further changes within ``DEBOUNCE_MS`` are
  ignored. Edges go to the host; the host's clock applies the pass lockout.
* The ring is rendered here from the last ring frame (lit fraction, colour,
  blink mode), through a PIO state machine: the built-in ``neopixel`` module
  bit-bangs with interrupts off.
* The host is alive while frames arrive (it pings every 0.5 s when idle). After
  ``HOST_TIMEOUT_MS`` of silence the ring shows the "no host" pattern, the
  buzzer stops, and nothing more is written: a write to a host that does not
  read blocks for up to 500 ms.
* Ctrl-C (0x03) works only during the first ``BOOT_WINDOW_MS`` (for mpremote),
  then ``micropython.kbd_intr(-1)``. Holding the judge button while plugging
  the board in skips the firmware entirely (maintenance: the REPL stays free).
* The watchdog restarts the board if the loop ever stops.
"""

import array
import select
import sys
import time

import machine
import micropython
import ringproto
import rp2

FIRMWARE_VERSION = "1.0.0"

# Wiring (GP numbers of the Pico); see README.md.
RING_PIN = 2
LED_COUNT = 24
BUZZER_PIN = 15
BUTTON_PINS = (14, 13, 12)
"""Pass, judge, call judge: in the order of ``ringproto.BUTTONS``; to GND, pulled up."""

BRIGHTNESS = 64
"""Full scale of a colour channel (of 255): 24 LEDs at full white would draw 1.4 A."""

DEBOUNCE_MS = 20
HOST_TIMEOUT_MS = 2000
HEARTBEAT_MS = 500
FRAME_MS = 20
"""The ring is redrawn (if anything changed) at most every FRAME_MS."""
BOOT_WINDOW_MS = 1500
WATCHDOG_MS = 4000
LOOP_MS = 1
READ_LIMIT = 200
"""Bytes read from the host per loop, so a flood cannot starve the buttons."""
NO_HOST_PERIOD_MS = 1200
BUZZER_DUTY = 32768

HOST_KINDS = (ringproto.RING, ringproto.BUZZER, ringproto.PING)

TICKS_PERIOD = 1 << 30
"""``time.ticks_ms()`` wraps here on MicroPython."""


def ticks_diff(a, b):
    """``a - b`` in wrapping ms ticks, like ``time.ticks_diff``."""
    half = TICKS_PERIOD // 2
    return ((a - b + half) % TICKS_PERIOD) - half


# --- pure logic ----------------------------------------------------------------------


class Debouncer:
    """Reports a button's first change at once, then ignores bounces for ``DEBOUNCE_MS``."""

    def __init__(self, pressed=False, now=0):
        self.pressed = pressed
        self._since = now - DEBOUNCE_MS

    def update(self, raw, now):
        """The new state if ``raw`` makes an edge at ``now``, else None."""
        if raw == self.pressed or ticks_diff(now, self._since) < DEBOUNCE_MS:
            return None
        self.pressed = raw
        self._since = now
        return raw


def _byte(value):
    return min(255, max(0, value))


def scale(value, full):
    return (value * full + 127) // 255


def ring_pixels(count, ring, since_ms):
    """The ring's ``(r, g, b)`` per LED, ``since_ms`` after a ring frame arrived.

    ``ring`` is the frame's ``(level, r, g, b, blink, phase_ms)``.

    ``level`` of ``ringproto.LEVEL_FULL`` lights the whole ring; the LED at the
    edge glows in proportion (at least faintly while ``level`` is above 0).
    Blinking is on for the first half of each period, counted from the host's
    ``phase_ms`` into the period when the frame was sent.
    """
    level, red, green, blue, blink, phase_ms = ring
    dark = (0, 0, 0)
    period = ringproto.BLINK_PERIODS[blink] if 0 <= blink < len(ringproto.BLINK_PERIODS) else 0
    if period and (phase_ms + since_ms) % period >= period // 2:
        return [dark] * count
    r, g, b = scale(red, BRIGHTNESS), scale(green, BRIGHTNESS), scale(blue, BRIGHTNESS)
    lit = level * count  # in thousandths of an LED
    out = []
    for i in range(count):
        part = lit - i * ringproto.LEVEL_FULL
        if part >= ringproto.LEVEL_FULL:
            out.append((r, g, b))
        elif part > 0:
            out.append(
                (
                    _part(r, part),
                    _part(g, part),
                    _part(b, part),
                )
            )
        else:
            out.append(dark)
    return out


def _part(channel, thousandths):
    if not channel:
        return 0
    return max(1, channel * thousandths // ringproto.LEVEL_FULL)


def no_host_pixels(count, now):
    """The "no host" pattern: one dim amber LED circling with a fading tail."""
    head = (now % NO_HOST_PERIOD_MS) * count // NO_HOST_PERIOD_MS
    out = [(0, 0, 0)] * count
    for tail, fade in enumerate((24, 8, 2)):
        r = scale(fade * 10, BRIGHTNESS)
        out[(head - tail) % count] = (r, r * 2 // 5, 0)
    return out


class Firmware:
    """Everything the board does, driven by bytes from the host and the ms clock.

    ``board`` gives ``pressed()`` (debounce input, one bool per button),
    ``show(pixels)`` and ``buzz(on, hz)``; ``write(frame)`` sends bytes to the host.
    """

    def __init__(self, board, write, now, leds=LED_COUNT):
        self.board = board
        self._write = write
        self.leds = leds
        self.decoder = ringproto.Decoder()
        self.tx_seq = 0
        self.rx_seq = None
        self.lost = 0
        """Host frames missed (gaps in their sequence numbers)."""
        self.host_at = None
        """When the last valid host frame arrived; None while there is no host."""
        self.buttons = [Debouncer(raw, now) for raw in board.pressed()]
        self.ring = (0, 0, 0, 0, ringproto.STEADY, 0)
        self.ring_at = now
        self.ring_seq = 0
        self.buzzer = (0, 0)
        self.buzzer_seq = 0
        self.beat_at = now
        self.drawn_at = now - FRAME_MS
        self.pixels = None
        self.sent_frames = 0

    @property
    def host_alive(self):
        return self.host_at is not None

    # -- host -> device ----------------------------------------------------------

    def receive(self, data, now):
        for seq, kind, fields in self.decoder.feed(data):
            self._message(seq, kind, fields, now)

    def _message(self, seq, kind, fields, now):
        if kind not in HOST_KINDS:
            return  # a device -> host kind (an echo) or a newer host's: not for us
        self.lost += ringproto.seq_lost(self.rx_seq, seq)
        self.rx_seq = seq
        if self.host_at is None:
            self.host_at = now
            self._send(
                ringproto.HELLO,
                (ringproto.PROTOCOL, FIRMWARE_VERSION, self.leds, ringproto.BUTTONS),
            )
        self.host_at = now
        if kind == ringproto.RING:
            values = ringproto.ints(fields, 6)
            if values is None or not 0 <= values[0] <= ringproto.LEVEL_FULL:
                self.decoder.errors += 1
                return
            level, r, g, b, blink, phase = values
            self.ring = (level, _byte(r), _byte(g), _byte(b), blink, max(0, phase))
            self.ring_at = now
            self.ring_seq = seq
            self.drawn_at = now - FRAME_MS  # draw it at once
        elif kind == ringproto.BUZZER:
            values = ringproto.ints(fields, 2)
            if values is None:
                self.decoder.errors += 1
                return
            self.buzzer = (1 if values[0] else 0, max(0, values[1]))
            self.buzzer_seq = seq
            self.board.buzz(self.buzzer[0], self.buzzer[1])
        else:
            self._heartbeat(now)  # the answer to a ping

    # -- device -> host --------------------------------------------------------------

    def _send(self, kind, fields=()):
        if self.host_at is None:
            return  # nobody reads: a write would block for up to 500 ms
        frame = ringproto.encode(self.tx_seq, kind, fields)
        self.tx_seq = ringproto.seq_next(self.tx_seq)
        self._write(frame)
        self.sent_frames += 1

    def _heartbeat(self, now):
        self.beat_at = now
        self._send(
            ringproto.HEARTBEAT,
            (
                now % TICKS_PERIOD,
                self.buttons_mask(),
                self.ring_seq,
                self.buzzer_seq,
                self.decoder.errors + self.lost,
            ),
        )

    def buttons_mask(self):
        mask = 0
        for i, button in enumerate(self.buttons):
            if button.pressed:
                mask |= 1 << i
        return mask

    # -- the loop's work -----------------------------------------------------------

    def step(self, now):
        """Buttons, host timeout, heartbeat and the ring, at ms tick ``now``."""
        for i, raw in enumerate(self.board.pressed()):
            edge = self.buttons[i].update(raw, now)
            if edge is not None:
                self._send(ringproto.EDGE, (ringproto.BUTTONS[i], 1 if edge else 0, now))
        if self.host_at is not None and ticks_diff(now, self.host_at) > HOST_TIMEOUT_MS:
            self.host_at = None
            self.rx_seq = None
            self.buzzer = (0, 0)
            self.board.buzz(0, 0)
        if self.host_at is not None and ticks_diff(now, self.beat_at) >= HEARTBEAT_MS:
            self._heartbeat(now)
        if ticks_diff(now, self.drawn_at) >= FRAME_MS:
            self.drawn_at = now
            self._draw(now)

    def _draw(self, now):
        if self.host_at is None:
            pixels = no_host_pixels(self.leds, now)
        else:
            pixels = ring_pixels(self.leds, self.ring, ticks_diff(now, self.ring_at))
        if pixels != self.pixels:
            self.pixels = pixels
            self.board.show(pixels)


# --- hardware ---------------------------------------------------------------------------


@rp2.asm_pio(
    sideset_init=rp2.PIO.OUT_LOW,
    out_shiftdir=rp2.PIO.SHIFT_LEFT,
    autopull=True,
    pull_thresh=24,
)
def ws2812():
    # 800 kHz WS2812 timing at 8 MHz: 10 cycles per bit (MicroPython's rp2 example).
    # The names below are the PIO assembler's, defined by rp2.asm_pio.
    wrap_target()  # noqa: F821
    label("bitloop")  # noqa: F821
    out(x, 1).side(0)[2]  # noqa: F821
    jmp(not_x, "do_zero").side(1)[1]  # noqa: F821
    jmp("bitloop").side(1)[4]  # noqa: F821
    label("do_zero")  # noqa: F821
    nop().side(0)[4]  # noqa: F821
    wrap()  # noqa: F821


class Board:
    """The Pico's pins: ring (PIO), buttons (pulled up, active low), buzzer (PWM)."""

    def __init__(
        self,
        leds=LED_COUNT,
        ring_pin=RING_PIN,
        buzzer_pin=BUZZER_PIN,
        button_pins=BUTTON_PINS,
    ):
        pin = machine.Pin
        self.buttons = [pin(n, pin.IN, pin.PULL_UP) for n in button_pins]
        self.pwm = machine.PWM(pin(buzzer_pin))
        self.pwm.duty_u16(0)
        self.sm = rp2.StateMachine(0, ws2812, freq=8000000, sideset_base=pin(ring_pin))
        self.sm.active(1)
        self.words = array.array("I", [0] * leds)

    def pressed(self):
        return [button.value() == 0 for button in self.buttons]

    def show(self, pixels):
        words = self.words
        for i, (r, g, b) in enumerate(pixels):
            words[i] = (g << 16) | (r << 8) | b  # WS2812 takes GRB
        self.sm.put(words, 8)  # the PIO shifts out the top 24 bits

    def buzz(self, on, hz):
        if not on:
            self.pwm.duty_u16(0)
        elif hz:
            self.pwm.freq(hz)
            self.pwm.duty_u16(BUZZER_DUTY)  # a square wave for a passive buzzer
        else:
            self.pwm.freq(1000)
            self.pwm.duty_u16(65535)  # steady on for an active buzzer


# --- the loop ---------------------------------------------------------------------------


def read_available(poller, stream, limit=READ_LIMIT):
    """The bytes the host has sent, without blocking (one at a time: stdin's read blocks)."""
    data = bytearray()
    while len(data) < limit and poller.poll(0):
        chunk = stream.read(1)
        if not chunk:
            break
        data.extend(chunk)
    return bytes(data)


def run(firmware, poller, stream, watchdog, ticks_ms, *, loops=-1):
    """The main loop; ``loops`` bounds it for tests (-1: forever)."""
    while loops != 0:
        loops -= 1
        poller.poll(LOOP_MS)
        data = read_available(poller, stream)
        now = ticks_ms()
        if data:
            firmware.receive(data, now)
        firmware.step(now)
        watchdog.feed()


def maintenance_requested(board):
    """The judge button held at power-up: leave the REPL to mpremote."""
    return board.pressed()[1]


def main():
    board = Board()
    board.show(no_host_pixels(LED_COUNT, 0))
    if maintenance_requested(board):
        board.show([(0, 0, scale(80, BRIGHTNESS))] * LED_COUNT)
        return
    time.sleep_ms(BOOT_WINDOW_MS)  # Ctrl-C still interrupts here (mpremote)
    micropython.kbd_intr(-1)  # from now on 0x03 is data, not KeyboardInterrupt
    watchdog = machine.WDT(timeout=WATCHDOG_MS)
    stdin = sys.stdin.buffer
    stdout = sys.stdout.buffer
    poller = select.poll()
    poller.register(stdin, select.POLLIN)
    firmware = Firmware(board, stdout.write, time.ticks_ms())
    run(firmware, poller, stdin, watchdog, time.ticks_ms)


if __name__ == "__main__":
    main()
