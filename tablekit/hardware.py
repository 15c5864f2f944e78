"""The gpiozero shell: buttons in, LEDs and buzzer out; no rules live here.

* :class:`GpioInputs` turns pin edges into :class:`~tablekit.controls.ButtonEdge`
  values with a monotonic timestamp and hands them to ``put`` (e.g. the unit
  loop's ``queue.put``). The callbacks do nothing else: gpiozero calls them on
  its own thread on a Pi, and the loop owns all state.
* :class:`GpioOutputs` renders :func:`~tablekit.signals.render_signals` onto an
  ``LEDBarGraph`` (PWM), an ``RGBLED`` and a ``Buzzer``/``TonalBuzzer``, writing a
  device only when its value changed (cheap at 20 Hz on a Pi Zero 2 W).

Debouncing is the clock's job, on timestamps (the lockout): with the lgpio
factory a ``bounce_time`` delays every press and swallows short ones, so
buttons are made with ``bounce_time=None``.

``pin_factory``: None uses gpiozero's default (lgpio on a Pi, or whatever
``GPIOZERO_PIN_FACTORY`` names; for ``mock`` also set
``GPIOZERO_MOCK_PIN_CLASS=mockpwmpin``, the LEDs need PWM pins). Tests pass
``MockFactory(pin_class=MockPWMPin)``.
"""

from __future__ import annotations

import queue
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gpiozero import RGBLED, Buzzer, LEDBarGraph, TonalBuzzer
from gpiozero import Button as GpioButton
from gpiozero.tones import Tone

from tablekit.config import ConfigError, UnitConfig, load_config
from tablekit.controls import Button, ButtonEdge
from tablekit.signals import RGB, Signals, render_signals
from tablekit.view import TableView

BOUNCE_TIME: float | None = None
"""gpiozero's debounce for the buttons: none, the clock's lockout handles it."""


class GpioInputs:
    """The pass button, the judge key and the optional call-judge button."""

    def __init__(
        self,
        config: UnitConfig,
        put: Callable[[object], None],
        pin_factory: Any = None,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._put = put
        self._clock = clock
        self.buttons: dict[Button, Any] = {}
        """The gpiozero devices, kept here so they are not garbage collected."""
        pins = config.pins
        wanted = (
            (Button.PASS, pins.pass_button),
            (Button.JUDGE, pins.judge_key),
            (Button.CALL, pins.call_button),
        )
        try:
            for button, pin in wanted:
                if pin is None:
                    continue
                device = GpioButton(
                    pin, pull_up=pins.pull_up, bounce_time=BOUNCE_TIME, pin_factory=pin_factory
                )
                device.when_pressed = self._callback(button, True)
                device.when_released = self._callback(button, False)
                self.buttons[button] = device
        except Exception:
            self.close()
            raise

    def _callback(self, button: Button, pressed: bool) -> Callable[[], None]:
        put, clock = self._put, self._clock

        def on_edge() -> None:
            put(ButtonEdge(button, pressed, clock()))

        return on_edge

    def close(self) -> None:
        for device in self.buttons.values():
            device.close()
        self.buttons.clear()

    def __enter__(self) -> GpioInputs:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class GpioOutputs:
    """The LED bar, the status RGB LED and the buzzer, as a view of the table."""

    def __init__(self, config: UnitConfig, pin_factory: Any = None) -> None:
        self._settings = config.buzzer
        pins = config.pins
        self.bar: Any = None
        self.status: Any = None
        self.buzzer: Any = None
        self.last: Signals | None = None
        """The signals last written; a device is written only when its part changed."""
        try:
            if pins.led_bar:
                self.bar = LEDBarGraph(*pins.led_bar, pwm=True, pin_factory=pin_factory)
            if pins.status_led is not None:
                red, green, blue = pins.status_led
                self.status = RGBLED(
                    red, green, blue, active_high=pins.active_high, pin_factory=pin_factory
                )
            if pins.buzzer is not None:
                if self._settings.tone is None:
                    self.buzzer = Buzzer(pins.buzzer, pin_factory=pin_factory)
                else:
                    self.buzzer = TonalBuzzer(
                        pins.buzzer,
                        mid_tone=Tone.from_frequency(self._settings.tone),
                        pin_factory=pin_factory,
                    )
        except Exception:
            self.close()
            raise

    @property
    def bar_length(self) -> int:
        return len(self.bar) if self.bar is not None else 0

    def show(self, view: TableView, now: float) -> None:
        """Render ``view`` at ``now`` onto the devices (``last`` keeps what was shown)."""
        signals = render_signals(view, now, self._settings, self.bar_length)
        last = self.last
        if self.bar is not None and (last is None or signals.bar != last.bar):
            self.bar.value = signals.bar
        if self.status is not None and (last is None or signals.status != last.status):
            self.status.value = signals.status
        if self.buzzer is not None and (
            last is None or (signals.buzzer, signals.tone) != (last.buzzer, last.tone)
        ):
            self._sound(signals)
        self.last = signals

    def _sound(self, signals: Signals) -> None:
        if isinstance(self.buzzer, TonalBuzzer):
            if signals.buzzer and signals.tone is not None:
                self.buzzer.play(Tone.from_frequency(signals.tone))
            else:
                self.buzzer.stop()
        elif signals.buzzer:
            self.buzzer.on()
        else:
            self.buzzer.off()

    def off(self) -> None:
        """Everything dark and silent (e.g. before the unit exits)."""
        dark: RGB = (0.0, 0.0, 0.0)
        if self.bar is not None:
            self.bar.value = 0
        if self.status is not None:
            self.status.value = dark
        if self.buzzer is not None:
            self._sound(Signals(bar=0.0, status=dark, buzzer=False))
        self.last = None

    def close(self) -> None:
        for device in (self.bar, self.status, self.buzzer):
            if device is not None:
                device.close()
        self.bar = self.status = self.buzzer = None
        self.last = None

    def __enter__(self) -> GpioOutputs:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def walk_test(
    config: UnitConfig,
    pin_factory: Any = None,
    *,
    listen: float = 15.0,
    step: float = 0.4,
    say: Callable[[str], None] = print,
    sleep: Callable[[float], None] = time.sleep,
) -> list[ButtonEdge]:
    """A builder's wiring check: each output in turn, then the buttons' edges.

    Lights the bar one LED at a time, shows red, green and blue on the status
    LED, sounds the buzzer once, then reports every button edge for ``listen``
    seconds and returns them.
    """
    edges: queue.SimpleQueue[object] = queue.SimpleQueue()
    seen: list[ButtonEdge] = []
    with GpioOutputs(config, pin_factory) as outputs, GpioInputs(config, edges.put, pin_factory):
        bar, status, buzzer = outputs.bar, outputs.status, outputs.buzzer
        if bar is not None:
            for i, pin in enumerate(config.pins.led_bar, start=1):
                say(f"bar LED {i} of {len(bar)} (GPIO{pin})")
                bar.value = i / len(bar)
                sleep(step)
            bar.value = 0
        if status is not None and config.pins.status_led is not None:
            for name, colour, pin in zip(
                ("red", "green", "blue"),
                ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)),
                config.pins.status_led,
                strict=True,
            ):
                say(f"status LED {name} (GPIO{pin})")
                status.value = colour
                sleep(step)
            status.value = (0.0, 0.0, 0.0)
        if buzzer is not None:
            say(f"buzzer (GPIO{config.pins.buzzer})")
            outputs._sound(Signals(0.0, (0.0, 0.0, 0.0), True, config.buzzer.tone))
            sleep(step)
            outputs._sound(Signals(0.0, (0.0, 0.0, 0.0), False))
        say(f"press the buttons; listening for {listen:g} s")
        end = time.monotonic() + listen
        while (left := end - time.monotonic()) > 0:
            try:
                edge = edges.get(timeout=min(left, 0.1))
            except queue.Empty:
                continue
            assert isinstance(edge, ButtonEdge)
            seen.append(edge)
            say(f"{edge.button} {'pressed' if edge.pressed else 'released'}")
    return seen


def main(argv: list[str] | None = None) -> int:
    """``python -m tablekit.hardware [FILE] [SECONDS]``: walk through the wiring."""
    args = sys.argv[1:] if argv is None else argv
    try:
        config = load_config(Path(args[0]) if args else None)
    except ConfigError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    walk_test(config, listen=float(args[1]) if len(args) > 1 else 15.0)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
