"""LEDs and buzzer as pure views of the table: ``render_signals(view, now, ...)``.

No state and no I/O: the same ``(view, now)`` always gives the same
:class:`Signals`, so blinking is folded into the values at ``now`` (a blinking
bar is simply full or dark depending on ``now``) and the hardware shell only
writes what it is given. Blink phases are anchored on clock times (the
deadline, the expiry, the pause), so the red flashes of the last seconds start
together with the beeps.

What a player sees and hears (the status light's meanings are :data:`LIGHTS`):

- READY: bar full and steady; status dim white; silent.
- Running: the bar runs down from full to dark with the time left; status turquoise,
  yellow in the last 10 s, flashing red (2 Hz) in the last 5 s; a short beep
  at each configured mark (``beeps_at``). In the last lap each of those beeps is
  doubled, so the table hears that it is the last lap. An accepted press (a pass, the
  game's first) ticks once (``TICK_LENGTH``, a higher tone on a passive buzzer): the
  press counted.
- TIME (time up): the bar flashes full/dark (4 Hz); status steady red; the long
  tone for ``long_tone`` seconds from the expiry.
- Paused by the judge (or after a restart): the bar shows the frozen time left
  and blinks slowly (1 Hz); status steady blue; silent.
- A player called the judge: as paused, but the blue status flashes (2 Hz), and three
  quick beeps say the call was taken.
- GAME OVER: bar dark, status off, silent.
- Quiet mode: the same lights, the buzzer never sounds.
- Hall check: the LED step sweeps the bar from dark to full every ``SWEEP_PERIOD``
  while the status light cycles red, green, blue; the buzzer step beeps half of every
  second (quiet mode too: the check tests the buzzer); afterwards a full bar and a
  steady turquoise status light, or a slowly flashing red one (1 Hz) when the person
  found a fault.

Colours and sounds everyone can tell apart: two meanings of the status light differ
either in how it flashes or, as people with protanopia and deuteranopia see them, in
colour; and every state that sounds has a rhythm of its own (tests/test_palette.py
computes both).

A running move whose deadline has passed is shown as TIME at once, even if the
loop has not yet ticked the clock: the expiry is a fact of the deadline.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass

from tablekit.config import BuzzerSettings
from tablekit.core.clock import ClockState, Phase
from tablekit.core.clock_events import PauseReason
from tablekit.core.hallcheck import BEEP_PERIOD, SWEEP_PERIOD, CheckResult, CheckStep, CheckView
from tablekit.core.words import N_
from tablekit.view import TableView

RGB = tuple[float, float, float]

OFF: RGB = (0.0, 0.0, 0.0)
DIM_WHITE: RGB = (0.15, 0.15, 0.15)
TURQUOISE: RGB = (0.0, 1.0, 0.8)
"""Green with blue in it: people who tell red from green poorly still tell it from yellow."""
YELLOW: RGB = (1.0, 0.8, 0.0)
RED: RGB = (1.0, 0.0, 0.0)
GREEN: RGB = (0.0, 1.0, 0.0)
BLUE: RGB = (0.0, 0.0, 1.0)

AMBER_FROM = 10.0
"""Seconds remaining from which the status LED turns yellow (hurry)."""
RED_FROM = 5.0
"""Seconds remaining from which the status LED flashes red."""

RED_FLASH_PERIOD = 0.5
TIME_UP_FLASH_PERIOD = 0.25
PAUSE_BLINK_PERIOD = 1.0
CALL_FLASH_PERIOD = 0.5
FAULT_FLASH_PERIOD = 1.0
CALL_BEEPS = 3
"""Quick beeps that say a player's judge call was taken."""
CALL_BEEP = 0.08
"""Seconds of each of them, and of the silence between them."""


@dataclass(frozen=True)
class Light:
    """What the status light says: a colour, steady or flashing (on for the first half of
    each ``period`` seconds)."""

    colour: RGB
    period: float | None = None


LIGHTS: dict[str, Light] = {
    "ready": Light(DIM_WHITE),
    "going": Light(TURQUOISE),
    "hurry": Light(YELLOW),
    "last seconds": Light(RED, RED_FLASH_PERIOD),
    "time": Light(RED),
    "paused": Light(BLUE),
    "called": Light(BLUE, CALL_FLASH_PERIOD),
    "fault": Light(RED, FAULT_FLASH_PERIOD),
}
"""Every meaning of the status light: ``going`` is a move with time to spare and a hall
check that passed (all is well), ``paused`` the judge's pause and a restart's (the judge
resumes), ``fault`` a hall check that found one. Off: a game over."""

TICK_LENGTH = 0.05
"""Seconds of the tick after an accepted press: the frame that shows the next seat sounds
it, the next frame ends it (a press ignored as a double slam gets none)."""
TICK_PITCH = 1.5
"""A passive buzzer's tick is this much higher than its beeps (within TonalBuzzer's octave)."""

BAR_LEVELS = 8
"""Brightness steps per LED of the bar: fewer writes than a continuous value."""


@dataclass(frozen=True)
class Signals:
    bar: float
    """Fraction of the LED bar lit, 0..1 (blinking already applied at ``now``)."""
    status: RGB
    """The status LED's colour, each channel 0..1."""
    buzzer: bool
    tone: float | None = None
    """Hz to play while ``buzzer`` is on, for a passive buzzer (TonalBuzzer)."""


def render_signals(view: TableView, now: float, buzzer: BuzzerSettings, bar_length: int) -> Signals:
    """The LEDs and buzzer for ``view`` at monotonic time ``now``.

    ``bar_length`` is the number of LEDs in the bar: the lit fraction is rounded
    up to :data:`BAR_LEVELS` brightness steps per LED, so the last LED glows until
    the time is really up. With ``bar_length`` 0 the fraction is not rounded.
    """
    c = view.clock
    if view.check is not None:
        return _checking(view.check, now, buzzer)
    if c.phase is Phase.READY:
        return Signals(bar=1.0, status=_lit("ready", 0.0), buzzer=False)
    if c.phase is Phase.GAME_OVER:
        return Signals(bar=0.0, status=OFF, buzzer=False)
    if c.paused is not None:
        return _paused(c, now, buzzer, bar_length)
    expired_at = _expired_at(c, now)
    if expired_at is not None:
        sounding = not buzzer.quiet and 0 <= now - expired_at < buzzer.long_tone
        flash = _blink(now, expired_at, TIME_UP_FLASH_PERIOD)
        return _sounding(1.0 if flash else 0.0, _lit("time", 0.0), sounding, buzzer)
    remaining = c.remaining_at(now)
    if remaining > AMBER_FROM:
        status = _lit("going", 0.0)
    elif remaining > RED_FROM:
        status = _lit("hurry", 0.0)
    else:
        status = _lit("last seconds", RED_FROM - remaining)
    last_lap = c.last_lap_left is not None
    beeping = _in_beep(remaining, c.rules.move_seconds, buzzer, doubled=last_lap)
    bar = _bar(remaining / c.rules.move_seconds, bar_length)
    if not beeping and _ticking(c, now, buzzer):
        tone = None if buzzer.tone is None else buzzer.tone * TICK_PITCH
        return Signals(bar=bar, status=status, buzzer=True, tone=tone)
    return _sounding(bar, status, beeping, buzzer)


class Look(enum.StrEnum):
    """The status light's pattern, as words (the simulator's headless lines)."""

    OFF = N_("off")
    WHITE = N_("dim white")
    TURQUOISE = N_("turquoise")
    YELLOW = N_("yellow")
    RED_FLASHING = N_("red, flashing")
    RED_FLASHING_SLOWLY = N_("red, flashing slowly")
    RED = N_("red")
    BLUE = N_("blue")
    BLUE_FLASHING = N_("blue, flashing")
    CYCLING = N_("red, green and blue in turn")


class Sound(enum.StrEnum):
    """The buzzer's pattern, as words (a countdown's beeps are its marks, counted apart)."""

    SILENT = N_("silent")
    LONG_TONE = N_("the long tone")
    EVERY_SECOND = N_("a beep every second")
    CALL_TAKEN = N_("three quick beeps")


@dataclass(frozen=True)
class Pattern:
    """What the LEDs and the buzzer do over time, not at one instant: a flashing light is
    one pattern, a countdown's marks are counted (each one a beep and a step of the bar)."""

    status: Look
    sound: Sound
    lit: int
    """Whole LEDs of the bar lit (its steady part; a blinking bar counts as lit)."""
    marks: int = 0
    """The beep marks (seconds left) the running move has passed (a last lap's doubled
    beep counts with its mark)."""


def signal_pattern(
    view: TableView, now: float, buzzer: BuzzerSettings, bar_length: int
) -> Pattern:
    """The pattern of :func:`render_signals` for ``view`` at ``now``."""
    c = view.clock
    if view.check is not None:
        step = view.check.step
        if step is CheckStep.LEDS:
            return Pattern(Look.CYCLING, Sound.SILENT, 0)
        if step is CheckStep.BUZZER:
            return Pattern(Look.WHITE, Sound.EVERY_SECOND, bar_length)
        if step is CheckStep.DONE:
            fault = any(r is CheckResult.FAILED for _, r in view.check.results)
            light = Look.RED_FLASHING_SLOWLY if fault else Look.TURQUOISE
            return Pattern(light, Sound.SILENT, bar_length)
        return Pattern(Look.WHITE, Sound.SILENT, bar_length)
    if c.phase is Phase.READY:
        return Pattern(Look.WHITE, Sound.SILENT, bar_length)
    if c.phase is Phase.GAME_OVER:
        return Pattern(Look.OFF, Sound.SILENT, 0)
    lit = math.ceil(max(0.0, c.remaining_at(now)) / c.rules.move_seconds * bar_length - 1e-9)
    if c.paused is not None:
        if c.paused is not PauseReason.PLAYER_CALL:
            return Pattern(Look.BLUE, Sound.SILENT, lit)
        beeping = not buzzer.quiet and 0 <= now - c.paused_at < 2 * CALL_BEEPS * CALL_BEEP
        return Pattern(Look.BLUE_FLASHING, Sound.CALL_TAKEN if beeping else Sound.SILENT, lit)
    expired_at = _expired_at(c, now)
    if expired_at is not None:
        sounding = not buzzer.quiet and 0 <= now - expired_at < buzzer.long_tone
        return Pattern(Look.RED, Sound.LONG_TONE if sounding else Sound.SILENT, bar_length)
    remaining = c.remaining_at(now)
    status = Look.TURQUOISE if remaining > AMBER_FROM else Look.YELLOW
    if remaining <= RED_FROM:
        status = Look.RED_FLASHING
    marks = sum(1 for _, high in beep_windows(c.rules.move_seconds, buzzer) if remaining <= high)
    return Pattern(status, Sound.SILENT, lit, marks)


def beep_windows(
    move_seconds: float, buzzer: BuzzerSettings, *, doubled: bool = False
) -> list[tuple[float, float]]:
    """The ``(low, high]`` spans of remaining seconds in which a short beep sounds;
    ``doubled`` (the last lap): a second beep after each, a beep's length apart.

    A mark at or above ``move_seconds`` never beeps: it would sound at every
    move's start.
    """
    if buzzer.quiet:
        return []
    length = buzzer.beep_length
    starts = [mark for mark in buzzer.beeps_at if mark < move_seconds]
    if doubled:
        starts += [mark - 2 * length for mark in starts]
    return sorted((start - length, start) for start in starts)


def _in_beep(remaining: float, move_seconds: float, buzzer: BuzzerSettings, *,
             doubled: bool) -> bool:
    windows = beep_windows(move_seconds, buzzer, doubled=doubled)
    return any(low < remaining <= high for low, high in windows)


def _ticking(c: ClockState, now: float, buzzer: BuzzerSettings) -> bool:
    """The short tick of an accepted press (a pass, or the game's first press)."""
    if buzzer.quiet or c.last_press is None:
        return False
    return 0 <= now - c.last_press < TICK_LENGTH - 1e-9  # float noise: a whole tick


def _expired_at(c: ClockState, now: float) -> float | None:
    if c.phase is Phase.TIME_UP:
        return c.expired_at
    deadline = c.deadline()
    if deadline is not None and now >= deadline:
        return deadline
    return None


def _paused(c: ClockState, now: float, buzzer: BuzzerSettings, bar_length: int) -> Signals:
    frozen = c.remaining_at(now) / c.rules.move_seconds
    bar = _bar(frozen, bar_length) if _blink(now, c.paused_at, PAUSE_BLINK_PERIOD) else 0.0
    since = now - c.paused_at
    if c.paused is not PauseReason.PLAYER_CALL:
        return Signals(bar=bar, status=_lit("paused", since), buzzer=False)
    beep = 0 <= since < 2 * CALL_BEEPS * CALL_BEEP and int(since / CALL_BEEP) % 2 == 0
    return _sounding(bar, _lit("called", since), beep and not buzzer.quiet, buzzer)


def _checking(check: CheckView, now: float, buzzer: BuzzerSettings) -> Signals:
    since = now - check.since
    if check.step is CheckStep.LEDS:
        phase = (since % SWEEP_PERIOD) / SWEEP_PERIOD
        status = (RED, GREEN, BLUE)[min(2, int(phase * 3))]  # each colour of the LED alone
        return Signals(bar=phase, status=status, buzzer=False)
    if check.step is CheckStep.BUZZER:
        return _sounding(1.0, DIM_WHITE, _blink(now, check.since, BEEP_PERIOD), buzzer)
    if check.step is CheckStep.DONE:
        fault = any(r is CheckResult.FAILED for _, r in check.results)
        return Signals(bar=1.0, status=_lit("fault" if fault else "going", since), buzzer=False)
    return Signals(bar=1.0, status=DIM_WHITE, buzzer=False)


def _lit(meaning: str, since: float) -> RGB:
    """The status light of ``meaning`` (:data:`LIGHTS`) ``since`` seconds into it."""
    light = LIGHTS[meaning]
    if light.period is None or since % light.period < light.period / 2:
        return light.colour
    return OFF


def _sounding(bar: float, status: RGB, beeping: bool, buzzer: BuzzerSettings) -> Signals:
    return Signals(bar=bar, status=status, buzzer=beeping, tone=buzzer.tone if beeping else None)


def _blink(now: float, anchor: float, period: float) -> bool:
    """On for the first half of each ``period`` counted from ``anchor``."""
    return (now - anchor) % period < period / 2


def _bar(fraction: float, bar_length: int) -> float:
    fraction = min(1.0, max(0.0, fraction))
    if bar_length < 1:
        return fraction
    steps = bar_length * BAR_LEVELS
    # A hair of tolerance keeps float noise from lighting a step above full time.
    return min(1.0, math.ceil(fraction * steps - 1e-9) / steps)
