"""LEDs and buzzer as pure views of the table: ``render_signals(view, now, ...)``.

No state and no I/O: the same ``(view, now)`` always gives the same
:class:`Signals`, so blinking is folded into the values at ``now`` (a blinking
bar is simply full or dark depending on ``now``) and the hardware shell only
writes what it is given. Blink phases are anchored on clock times (the
deadline, the expiry, the pause), so the red flashes of the last seconds start
together with the beeps.

What a player sees and hears:

- READY: bar full and steady; status dim white; silent.
- Running: the bar runs down from full to dark with the time left; status green,
  amber in the last 10 s, flashing red (2 Hz) in the last 5 s; a short beep
  at each configured mark (``beeps_at``).
- TIME (time up): the bar flashes full/dark (4 Hz); status steady red; the long
  tone for ``long_tone`` seconds from the expiry.
- Paused by the judge (or after a restart): the bar shows the frozen time left
  and blinks slowly (1 Hz); status steady blue; silent.
- A player called the judge: as paused, but the blue status flashes (2 Hz).
- GAME OVER: bar dark, status off, silent.
- Quiet mode: the same lights, the buzzer never sounds.
- Hall check: the LED step sweeps the bar from dark to full every ``SWEEP_PERIOD``
  while the status light cycles red, green, blue; the buzzer step beeps once a second
  (quiet mode too: the check tests the buzzer); afterwards a full bar and a green status
  light, or a red one when the person found a fault.

A running move whose deadline has passed is shown as TIME at once, even if the
loop has not yet ticked the clock: the expiry is a fact of the deadline.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tablekit.config import BuzzerSettings
from tablekit.core.clock import ClockState, Phase
from tablekit.core.clock_events import PauseReason
from tablekit.core.hallcheck import BEEP_PERIOD, SWEEP_PERIOD, CheckResult, CheckStep, CheckView
from tablekit.view import TableView

RGB = tuple[float, float, float]

OFF: RGB = (0.0, 0.0, 0.0)
DIM_WHITE: RGB = (0.15, 0.15, 0.15)
GREEN: RGB = (0.0, 1.0, 0.0)
AMBER: RGB = (1.0, 0.45, 0.0)
RED: RGB = (1.0, 0.0, 0.0)
BLUE: RGB = (0.0, 0.0, 1.0)

AMBER_FROM = 10.0
"""Seconds remaining from which the status LED turns amber."""
RED_FROM = 5.0
"""Seconds remaining from which the status LED flashes red."""

RED_FLASH_PERIOD = 0.5
TIME_UP_FLASH_PERIOD = 0.25
PAUSE_BLINK_PERIOD = 1.0
CALL_FLASH_PERIOD = 0.5

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
        return Signals(bar=1.0, status=DIM_WHITE, buzzer=False)
    if c.phase is Phase.GAME_OVER:
        return Signals(bar=0.0, status=OFF, buzzer=False)
    if c.paused is not None:
        return _paused(c, now, bar_length)
    expired_at = _expired_at(c, now)
    if expired_at is not None:
        sounding = not buzzer.quiet and 0 <= now - expired_at < buzzer.long_tone
        flash = _blink(now, expired_at, TIME_UP_FLASH_PERIOD)
        return Signals(
            bar=1.0 if flash else 0.0,
            status=RED,
            buzzer=sounding,
            tone=buzzer.tone if sounding else None,
        )
    remaining = c.remaining_at(now)
    if remaining > AMBER_FROM:
        status = GREEN
    elif remaining > RED_FROM:
        status = AMBER
    else:
        status = RED if (RED_FROM - remaining) % RED_FLASH_PERIOD < RED_FLASH_PERIOD / 2 else OFF
    beeping = not buzzer.quiet and _in_beep(remaining, c.rules.move_seconds, buzzer)
    return Signals(
        bar=_bar(remaining / c.rules.move_seconds, bar_length),
        status=status,
        buzzer=beeping,
        tone=buzzer.tone if beeping else None,
    )


def beep_windows(move_seconds: float, buzzer: BuzzerSettings) -> list[tuple[float, float]]:
    """The ``(low, high]`` spans of remaining seconds in which a short beep sounds.

    A mark at or above ``move_seconds`` never beeps: it would sound at every
    move's start.
    """
    if buzzer.quiet:
        return []
    return sorted(
        (mark - buzzer.beep_length, mark) for mark in buzzer.beeps_at if mark < move_seconds
    )


def _in_beep(remaining: float, move_seconds: float, buzzer: BuzzerSettings) -> bool:
    return any(low < remaining <= high for low, high in beep_windows(move_seconds, buzzer))


def _expired_at(c: ClockState, now: float) -> float | None:
    if c.phase is Phase.TIME_UP:
        return c.expired_at
    deadline = c.deadline()
    if deadline is not None and now >= deadline:
        return deadline
    return None


def _paused(c: ClockState, now: float, bar_length: int) -> Signals:
    frozen = c.remaining_at(now) / c.rules.move_seconds
    bar = _bar(frozen, bar_length) if _blink(now, c.paused_at, PAUSE_BLINK_PERIOD) else 0.0
    if c.paused is PauseReason.PLAYER_CALL:
        status = BLUE if _blink(now, c.paused_at, CALL_FLASH_PERIOD) else OFF
    else:
        status = BLUE
    return Signals(bar=bar, status=status, buzzer=False)


def _checking(check: CheckView, now: float, buzzer: BuzzerSettings) -> Signals:
    since = now - check.since
    if check.step is CheckStep.LEDS:
        phase = (since % SWEEP_PERIOD) / SWEEP_PERIOD
        status = (RED, GREEN, BLUE)[min(2, int(phase * 3))]
        return Signals(bar=phase, status=status, buzzer=False)
    if check.step is CheckStep.BUZZER:
        beeping = _blink(now, check.since, BEEP_PERIOD)
        return Signals(bar=1.0, status=DIM_WHITE, buzzer=beeping,
                       tone=buzzer.tone if beeping else None)
    if check.step is CheckStep.DONE:
        fault = any(r is CheckResult.FAILED for _, r in check.results)
        return Signals(bar=1.0, status=RED if fault else GREEN, buzzer=False)
    return Signals(bar=1.0, status=DIM_WHITE, buzzer=False)


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
