"""The simulator's window: the display, and beside it the LED bar and the status light as
the GPIO outputs would drive them (the same :func:`~tablekit.signals.render_signals` of
the same view at the same time), with the buzzer played through the computer's sound
(pygame's mixer). ``M`` (or ``--mute``) silences the sound; a computer without a sound
device says so once and goes on with the lights alone. Headless, the same lights and
buzzer are lines on the terminal (:class:`tablekit.printer.SignalsPrinter`).
"""

from __future__ import annotations

import array
from collections.abc import Callable
from typing import Final

import pygame

from tablekit import fonts
from tablekit.config import UnitConfig
from tablekit.display import TableScreen
from tablekit.keyboard import WindowKeys
from tablekit.shared.i18n import words
from tablekit.signals import RGB, Signals, render_signals
from tablekit.unit import TableUnit
from tablekit.view import TableView

RATE: Final = 22050
"""Samples per second of the buzzer's sound."""
ACTIVE_TONE: Final = 2400.0
"""Hz an active buzzer sounds at (it has one tone of its own; the config names none)."""
LOUDNESS: Final = 0.25
"""Of the sound's full scale: a buzzer, not an alarm."""

LED_ON: Final = (70, 235, 110)
LED_OFF: Final = (36, 40, 46)
STRIP_BG: Final = (16, 18, 22)
LABEL: Final = (150, 154, 162)


def strip_width(width: int, height: int) -> int:
    """The width of the LED strip beside a display of ``width`` × ``height``."""
    return max(72, round(min(width, height) * 0.22))


def bar_levels(bar: float, leds: int) -> list[float]:
    """Each LED's brightness, the bottom one first, for the bar's lit fraction, as
    gpiozero's ``LEDBarGraph(pwm=True).value`` drives them."""
    lit = bar * leds
    return [min(1.0, max(0.0, lit - i)) for i in range(leds)]


def _mix(off: tuple[int, int, int], on: tuple[int, int, int], level: float) -> tuple[int, ...]:
    return tuple(round(a + (b - a) * level) for a, b in zip(off, on, strict=True))


def _rgb(colour: RGB) -> tuple[int, ...]:
    """The status light's channels (0..1) as the colour it glows (dark when off)."""
    if not any(colour):
        return LED_OFF
    return tuple(round(255 * channel) for channel in colour)


class SimSound:
    """The buzzer through the computer's sound: a square wave while it sounds."""

    def __init__(self, *, muted: bool, say: Callable[[str], None]) -> None:
        """``say``: what to tell the person, once, when there is no sound device (the
        reason given)."""
        self.muted = muted
        self.available = True
        self._playing: float | None = None
        self._sounds: dict[float, pygame.mixer.Sound] = {}
        try:
            pygame.mixer.init(frequency=RATE, size=-16, channels=1)
        except pygame.error as err:
            self.available = False
            say(str(err))

    def play(self, signals: Signals) -> None:
        """Sound the tone ``signals`` asks for, or nothing."""
        wanted = None
        if signals.buzzer and self.available and not self.muted:
            wanted = signals.tone or ACTIVE_TONE
        if wanted == self._playing:
            return
        if self._playing is not None:
            self._sounds[self._playing].stop()
        if wanted is not None:
            self._sound(wanted).play(loops=-1)
        self._playing = wanted

    def toggle(self) -> None:
        self.muted = not self.muted

    def close(self) -> None:
        if self.available:
            pygame.mixer.quit()

    def _sound(self, hz: float) -> pygame.mixer.Sound:
        sound = self._sounds.get(hz)
        if sound is None:
            periods = max(1, round(hz * 0.2))  # about 0.2 s of whole periods: a clean loop
            length = round(periods * RATE / hz)
            high = round(32767 * LOUDNESS)
            samples = array.array(
                "h", (high if (i * hz / RATE) % 1 < 0.5 else -high for i in range(length))
            )
            sound = pygame.mixer.Sound(buffer=samples.tobytes())
            self._sounds[hz] = sound
        return sound


class SimWindow:
    """The simulator's window as the unit's output: the display, its LEDs and buzzer, and
    the keys (read on the thread that opened the window)."""

    def __init__(
        self, config: UnitConfig, unit: TableUnit, *, muted: bool, say: Callable[[str], None]
    ) -> None:
        d = config.display
        self.side = strip_width(d.width, d.height)
        self.screen = TableScreen(d.width, d.height, d.fullscreen, d.rotate, side=self.side)
        self.keys = WindowKeys(
            unit.put, on_expose=self.invalidate, menu=lambda: unit.view.menu,
            on_mute=self.toggle_mute,
        )
        self.config = config
        self.leds = len(config.pins.led_bar)
        self.sound = SimSound(muted=muted, say=say) if config.pins.buzzer is not None else None
        width, height = self.screen.window.get_size()
        self.strip = pygame.Rect(width - self.side, 0, self.side, height)
        self._font = pygame.font.Font(fonts.font_path(fonts.BOLD), max(11, self.side // 5))
        self._drawn: tuple[object, ...] | None = None
        self.signals: Signals | None = None
        """What the LEDs and the buzzer show now."""

    def show(self, view: TableView, now: float) -> None:
        self.keys.pump()
        self.screen.show(view, now)
        signals = render_signals(view, now, self.config.buzzer, self.leds)
        self.signals = signals
        muted = self.sound is None or self.sound.muted
        drawn = (signals.bar, signals.status, signals.buzzer, muted, view.language)
        if drawn != self._drawn:
            self._drawn = drawn
            self._draw(signals, muted, view.language)
            pygame.display.update(self.strip)
        if self.sound is not None:
            self.sound.play(signals)

    def toggle_mute(self) -> None:
        if self.sound is not None:
            self.sound.toggle()

    def invalidate(self) -> None:
        self.screen.invalidate()
        self._drawn = None

    def close(self) -> None:
        if self.sound is not None:
            self.sound.close()
        self.screen.close()

    def _draw(self, signals: Signals, muted: bool, language: str) -> None:
        surface, box = self.screen.window, self.strip
        surface.fill(STRIP_BG, box)
        pad = max(4, box.w // 10)
        x, w = box.x + pad, box.w - 2 * pad
        top = box.y + pad
        if self.config.pins.status_led is not None:
            radius = w // 3
            centre = (box.centerx, top + radius)
            pygame.draw.circle(surface, _rgb(signals.status), centre, radius)
            top += 2 * radius + pad
        label_h = self._font.get_linesize() * 2 + pad
        if self.leds:
            bottom = box.bottom - label_h
            pitch = (bottom - top) / self.leds
            for i, level in enumerate(bar_levels(signals.bar, self.leds)):
                y = round(bottom - (i + 1) * pitch)
                led = pygame.Rect(x, y, w, max(2, round(pitch * 0.7)))
                pygame.draw.rect(surface, _mix(LED_OFF, LED_ON, level), led, border_radius=3)
        if self.sound is not None:
            _ = words(language).gettext
            # Translators: under the simulator's LEDs: the buzzer as the computer plays it.
            lines = (_("muted"), _("M: sound")) if muted else (_("sound"), _("M: mute"))
            if signals.buzzer and not muted:
                lines = ("♪ " + lines[0], lines[1])
            y = box.bottom - pad - self._font.get_linesize() * 2
            for line in lines:
                text = self._font.render(line, True, LABEL, STRIP_BG)
                surface.blit(text, (box.centerx - text.get_width() // 2, y))
                y += self._font.get_linesize()
