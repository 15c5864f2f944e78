"""Press → clock updated → LED output changed and the display's frame drawn, through
MockFactory pins and the unit loop.

Each round drives the pass pin low in this thread; gpiozero (MockFactory: in the
caller's thread) runs GpioInputs' callback, which puts a ButtonEdge on the unit's
inbox; the real loop (tablekit.unit.TableUnit.run, in its own thread like on a
Pi) drains it, applies controls and clock, and calls GpioOutputs.show, which
lights the bar's top LED again for the next seat's full time, then the display
(pygame, SDL's dummy driver: the drawing, not a panel's refresh), which draws the
next seat. The figures are the time from driving the pin to that LED pin's write and
to the end of the frame that drew the next seat. Next to them, in the same run: the
bare gpiozero ``when_pressed`` callback latency (pin driven → callback), and the
display drawing the same change of seat alone (``TableScreen.show``, no loop).

A short move (``--move-seconds``, default 2 s) with a 10 ms lockout makes the
top LED dim within a few frames after a pass, so that every accepted pass changes
the LED again; the path measured is the same as with a 40 s move. Each round
waits for that dimming frame, so 500 presses take about two minutes. A move that
runs out (this process starved of CPU for a whole move) ends the run with a message
saying so: give a longer move.

    python bench/bench_press_latency.py [--presses 500] [--move-seconds 2]
"""

from __future__ import annotations

import argparse
import os
import threading
import time
from dataclasses import replace

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import msgspec
from gpiozero import Button as GpioButton
from gpiozero.pins.mock import MockFactory
from measure import WatchedPin, percentiles

from tablekit.config import parse_config
from tablekit.core.clock import MoveClock, Phase
from tablekit.core.seats import Seat
from tablekit.display import TableScreen
from tablekit.hardware import GpioInputs, GpioOutputs
from tablekit.samples import sample_views
from tablekit.unit import Quit, TableUnit
from tablekit.view import TableView


class FrameWatch:
    """The display as the unit's output, noting when a frame has drawn a new seat."""

    def __init__(self, screen: TableScreen) -> None:
        self.screen = screen
        self.drawn = threading.Event()
        self.at = 0.0
        self._seat: Seat | None = None

    def show(self, view: TableView, now: float) -> None:
        self.screen.show(view, now)
        seat = view.clock.active
        if seat != self._seat and self.screen.last_update_rects:
            self._seat = seat
            self.at = time.monotonic()
            self.drawn.set()

    def close(self) -> None:
        self.screen.close()


def bare_display_latency(screen: TableScreen, rounds: int) -> list[float]:
    """The display drawing a change of seat by itself: the same panels, no loop."""
    playing = sample_views(1000.0)["playing"]
    views = [replace(playing, clock=msgspec.structs.replace(playing.clock, active=seat))
             for seat in Seat]
    out = []
    for i in range(rounds):
        view = views[i % len(views)]
        start = time.monotonic()
        screen.show(view, 1000.0)
        out.append(time.monotonic() - start)
    return out


def bare_callback_latency(factory: MockFactory, pin: int, rounds: int) -> list[float]:
    fired: list[float] = []
    button = GpioButton(pin, pull_up=True, bounce_time=None, pin_factory=factory)
    button.when_pressed = lambda: fired.append(time.monotonic())
    mock = factory.pin(pin)
    out = []
    for _ in range(rounds):
        fired.clear()
        start = time.monotonic()
        mock.drive_low()
        out.append(fired[0] - start)
        mock.drive_high()
    button.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--presses", type=int, default=500)
    parser.add_argument("--move-seconds", type=float, default=2.0)
    args = parser.parse_args()

    config = parse_config(
        f'[clock]\nmove_seconds = {args.move_seconds}\nlockout = 0.01\n[buzzer]\nmode = "quiet"\n',
        "bench",
    )
    factory = MockFactory(pin_class=WatchedPin)
    outputs = GpioOutputs(config, factory)
    screen = TableScreen(480, 320)
    bare_frames = bare_display_latency(screen, args.presses)
    frame = FrameWatch(screen)
    unit = TableUnit(
        MoveClock(config.clock_rules()),
        outputs=[outputs, frame],
        fps=20,  # the top of the unit's 10-20 Hz range: each round waits for a frame
        judge_hold=config.clock.judge_hold,
        call_hold=config.clock.call_hold,
    )
    inputs = GpioInputs(config, unit.put, factory)
    assert config.pins.pass_button is not None
    pass_pin = factory.pin(config.pins.pass_button)
    top = factory.pin(config.pins.led_bar[-1])
    lit = threading.Event()
    lit_at: list[float] = []

    def on_top_write(at: float, value: float) -> None:
        if value >= 1.0 and not lit.is_set():
            lit_at.append(at)
            lit.set()

    loop = threading.Thread(target=unit.run, name="unit-loop", daemon=True)
    loop.start()
    pass_pin.drive_low()  # starts the game
    pass_pin.drive_high()
    step = args.move_seconds / (len(config.pins.led_bar) * 8)

    # The bare callback first, on a pin the unit does not use, with the loop idling.
    bare = bare_callback_latency(factory, 4, args.presses)

    through: list[float] = []
    framed: list[float] = []
    for _ in range(args.presses):
        time.sleep(2 * step)
        while float(top.state) >= 1.0:  # wait for a frame that dims the top LED
            time.sleep(0.002)
        lit.clear()
        lit_at.clear()
        frame.drawn.clear()
        top.watch = on_top_write
        start = time.monotonic()
        pass_pin.drive_low()
        # A loaded machine can hold the loop back for a second or more: that is measured
        # (it shows in p99), not an error; ten seconds without a write is.
        if not lit.wait(10.0):
            phase = unit.clock.state.phase
            if phase is not Phase.RUNNING:
                raise SystemExit(
                    f"the clock is {phase}, not running: a {args.move_seconds} s move ran out "
                    "while this machine was busy; give a longer --move-seconds"
                )
            raise SystemExit("the LED did not change within 10 s of a press")
        top.watch = None
        through.append(lit_at[0] - start)
        if not frame.drawn.wait(10.0):
            raise SystemExit("the display drew no frame within 10 s of a press")
        framed.append(frame.at - start)
        pass_pin.drive_high()
    unit.put(Quit())
    loop.join(2.0)
    state = unit.clock.state
    assert state.phase is Phase.RUNNING
    inputs.close()
    outputs.close()

    b50, b99 = percentiles(bare)
    t50, t99 = percentiles(through)
    d50, d99 = percentiles(bare_frames)
    f50, f99 = percentiles(framed)
    passes = sum(s.moves for s in state.stats)
    print(f"presses measured: {len(through)}; passes recorded by the clock: {passes}")
    print(row("bare gpiozero when_pressed (Mock pin)", b50, b99))
    print(row("press → clock → LED pin (unit loop)", t50, t99))
    print(f"{'ratio (through / bare)':<44} p50 {t50 / b50:8.1f}×    p99 {t99 / b99:8.1f}×")
    print(row("bare display: next seat drawn alone", d50, d99))
    print(row("press → clock → LEDs → frame drawn", f50, f99))
    print(f"{'ratio (frame / bare display)':<44} p50 {f50 / d50:8.1f}×    p99 {f99 / d99:8.1f}×")
    print(f"{'one frame of the loop (1/fps)':<44}     {1e6 / 20:8.1f} µs")


def row(label: str, p50: float, p99: float) -> str:
    return f"{label:<44} p50 {p50 * 1e6:8.1f} µs  p99 {p99 * 1e6:8.1f} µs"


if __name__ == "__main__":
    main()
