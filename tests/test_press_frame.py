"""An accepted press is unmistakable: the frame that follows it shows the next seat on the
display and the LED bar, and the buzzer ticks (unless the unit is quiet); a double slam
stays ignored, without a tick. The unit's real loop in its own thread, as on a Pi, with
gpiozero's MockFactory pins for the buttons, the LEDs and the buzzer, and the display
drawn by pygame (SDL's dummy driver). "Within one frame" is counted in frames (the loop's
own outputs, one call each), never timed."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pygame
import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from tablekit.config import UnitConfig, parse_config
from tablekit.core.clock import MoveClock
from tablekit.core.seats import Seat
from tablekit.display import TableScreen
from tablekit.hardware import GpioInputs, GpioOutputs
from tablekit.layout.scene import layout_for
from tablekit.unit import Quit, TableUnit
from tablekit.view import TableView


@dataclass(frozen=True)
class Frame:
    """What the table showed in one of the loop's frames."""

    active: Seat | None
    bar: tuple[float, ...]
    buzzer: bool
    drawn: tuple[pygame.Rect, ...]
    """The display's rectangles updated in this frame."""


class Recorder:
    """The last output of the loop: reads what the others did in the same frame."""

    def __init__(self, factory: MockFactory, config: UnitConfig, screen: TableScreen) -> None:
        self.bar = [factory.pin(p) for p in config.pins.led_bar]
        assert config.pins.buzzer is not None
        self.buzzer = factory.pin(config.pins.buzzer)
        self.screen = screen
        self.frames: list[Frame] = []

    def show(self, view: TableView, now: float) -> None:
        self.frames.append(Frame(
            view.clock.active, tuple(float(p.state) for p in self.bar), bool(self.buzzer.state),
            tuple(self.screen.last_update_rects),
        ))

    def close(self) -> None:
        pass


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = MockFactory(pin_class=MockPWMPin)
    yield f
    f.reset()


@contextmanager
def playing(factory: MockFactory, config: UnitConfig) -> Iterator[Recorder]:
    """The unit's loop running with its GPIO, display and the recorder."""
    screen = TableScreen(480, 320)
    outputs = GpioOutputs(config, factory)
    recorder = Recorder(factory, config, screen)
    unit = TableUnit(MoveClock(config.clock_rules()), outputs=[outputs, screen, recorder])
    inputs = GpioInputs(config, unit.put, factory)
    loop = threading.Thread(target=unit.run, name="unit-loop", daemon=True)
    loop.start()
    try:
        yield recorder
    finally:
        unit.put(Quit())
        loop.join(5)
        inputs.close()
        outputs.close()


def press_and_count(
    factory: MockFactory, config: UnitConfig, recorder: Recorder, seat: Seat, wait_until: Any
) -> list[Frame]:
    """Drive the pass pin down; the frames from the press until one shows ``seat``."""
    assert config.pins.pass_button is not None
    pin = factory.pin(config.pins.pass_button)
    mark = len(recorder.frames)
    pin.drive_low()
    wait_until(lambda: any(f.active is seat for f in recorder.frames[mark:]), what=f"seat {seat}")
    pin.drive_high()
    frames = recorder.frames[mark:]
    return frames[: next(i for i, f in enumerate(frames) if f.active is seat) + 1]


def test_the_frame_after_a_press_shows_the_next_seat_and_ticks(
    factory: MockFactory, wait_until: Any
) -> None:
    config = UnitConfig()
    box = layout_for(480, 320).seat
    seat_panel = pygame.Rect(box.x, box.y, box.w, box.h)
    with playing(factory, config) as recorder:
        started = press_and_count(factory, config, recorder, Seat.A, wait_until)
        assert started[-1].buzzer
        lockout = time.monotonic() + config.clock.lockout
        wait_until(lambda: time.monotonic() > lockout, what="the lockout over")
        frames = press_and_count(factory, config, recorder, Seat.B, wait_until)
        assert len(frames) <= 2, "the press waited for more than the frame being drawn"
        shown = frames[-1]
        assert shown.bar == (1.0,) * len(config.pins.led_bar)  # B's whole move
        assert shown.buzzer  # the tick: the press counted
        assert seat_panel in shown.drawn  # the seat panel drawn anew in that very frame
        # a second press right after it is ignored (a double slam), without a tick
        assert config.pins.pass_button is not None
        pin = factory.pin(config.pins.pass_button)
        mark = len(recorder.frames)
        pin.drive_low()
        pin.drive_high()
        wait_until(lambda: len(recorder.frames) > mark + 3, what="a few frames")
        later = recorder.frames[mark + 1 :]
        assert all(f.active is Seat.B and not f.buzzer for f in later)


def test_a_quiet_unit_shows_the_press_without_a_tick(
    factory: MockFactory, wait_until: Any
) -> None:
    config = parse_config('[buzzer]\nmode = "quiet"', "quiet.toml")
    with playing(factory, config) as recorder:
        frames = press_and_count(factory, config, recorder, Seat.A, wait_until)
        assert len(frames) <= 2 and frames[-1].bar == (1.0,) * len(config.pins.led_bar)
        assert not any(f.buzzer for f in recorder.frames)
