"""How late after the deadline the timeout event and the long tone fire, second core busy.

Drives the unit's real loop (tablekit.unit.TableUnit.run, in a thread like on a
Pi) with GpioOutputs on MockFactory pins. Many short moves (``--move-seconds``,
default 0.2 s) run out; for each, the lateness after the move's deadline
(``ClockState.expired_at``) of

* the MoveTimedOut event, taken when the loop hands it to the journal, and
* the buzzer pin going high (the long tone), taken in the pin write,

is recorded; then the late player's press starts the next move. A busy-loop
process keeps the other core loaded. Baseline in the same run, same load: the
lateness of a bare ``SimpleQueue.get(timeout=...)`` wake-up aimed at a deadline
(waits of at most 50 ms), which is what the loop waits on.

    python bench/bench_expiry.py [--moves 200] [--no-busy]
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import queue
import threading
import time
from collections.abc import Sequence

from gpiozero.pins.mock import MockFactory
from measure import WatchedPin, percentiles

from tablekit.config import parse_config
from tablekit.core.clock import MoveClock
from tablekit.core.clock_events import AnyClockEvent, MoveTimedOut
from tablekit.hardware import GpioInputs, GpioOutputs
from tablekit.unit import Quit, TableUnit


def busy() -> None:
    while True:
        pass


def row(label: str, samples: list[float]) -> str:
    p50, p99 = percentiles(samples)
    worst = max(samples)
    return (
        f"{label:<40} p50 {p50 * 1e3:7.3f} ms  p99 {p99 * 1e3:7.3f} ms  max {worst * 1e3:7.3f} ms"
    )


def baseline(rounds: int, wait: float) -> list[float]:
    """Lateness of a bare timed queue wait aimed at a deadline (nothing else running)."""
    q: queue.SimpleQueue[object] = queue.SimpleQueue()
    out = []
    for _ in range(rounds):
        deadline = time.monotonic() + wait
        with contextlib.suppress(queue.Empty):
            q.get(timeout=max(0.0, deadline - time.monotonic()))
        out.append(time.monotonic() - deadline)
    return out


class TimeoutWatch:
    """The unit's Recorder: stamps MoveTimedOut as the loop hands it over."""

    def __init__(self) -> None:
        self.unit: TableUnit | None = None
        self.late: list[float] = []
        self.fired = threading.Event()

    def record(self, events: Sequence[AnyClockEvent], state: bytes) -> None:
        now = time.monotonic()
        if self.unit is not None and any(isinstance(e, MoveTimedOut) for e in events):
            self.late.append(now - self.unit.clock.state.expired_at)
            self.fired.set()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--move-seconds", type=float, default=0.2)
    parser.add_argument("--no-busy", action="store_true", help="leave the other core idle")
    args = parser.parse_args()

    config = parse_config(
        f"[clock]\nmove_seconds = {args.move_seconds}\nlockout = 0.02\n"
        "[buzzer]\nlong_tone = 0.05\n",
        "bench",
    )
    hog = None
    if not args.no_busy:
        hog = multiprocessing.Process(target=busy, daemon=True)
        hog.start()
        time.sleep(0.2)
    try:
        base = baseline(args.moves, min(args.move_seconds, 0.05))

        factory = MockFactory(pin_class=WatchedPin)
        outputs = GpioOutputs(config, factory)
        watch = TimeoutWatch()
        unit = TableUnit(
            MoveClock(config.clock_rules()),
            outputs=[outputs],
            recorder=watch,
            fps=config.display.fps,
            judge_hold=config.clock.judge_hold,
            call_hold=config.clock.call_hold,
        )
        watch.unit = unit
        inputs = GpioInputs(config, unit.put, factory)
        assert config.pins.pass_button is not None and config.pins.buzzer is not None
        pass_pin = factory.pin(config.pins.pass_button)
        buzzer = factory.pin(config.pins.buzzer)
        tone_late: list[float] = []
        tone_on = threading.Event()

        def on_buzzer(at: float, value: float) -> None:
            if value and not tone_on.is_set():
                tone_late.append(at - unit.clock.state.expired_at)
                tone_on.set()

        buzzer.watch = on_buzzer
        loop = threading.Thread(target=unit.run, name="unit-loop", daemon=True)
        loop.start()
        for _ in range(args.moves):
            watch.fired.clear()
            tone_on.clear()
            pass_pin.drive_low()  # starts the game, or the late press after a timeout
            pass_pin.drive_high()
            if not (watch.fired.wait(args.move_seconds + 2) and tone_on.wait(2)):
                raise SystemExit("no timeout or no tone within 2 s of the deadline")
            time.sleep(0.06)  # the penalty: past the lockout and the long tone
        unit.put(Quit())
        loop.join(2.0)
        inputs.close()
        outputs.close()
    finally:
        if hog is not None:
            hog.kill()
            hog.join()

    load = "idle" if args.no_busy else "busy (busy-loop process)"
    print(f"moves: {len(watch.late)} of {args.move_seconds} s; other core: {load}")
    print(row("bare SimpleQueue.get(timeout) wake-up", base))
    print(row("MoveTimedOut handed to the journal", watch.late))
    print(row("buzzer pin high (long tone)", tone_late))


if __name__ == "__main__":
    main()
