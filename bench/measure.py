"""What the benchmarks share: percentiles, and mock PWM pins that report their writes."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from gpiozero.pins.mock import MockPWMPin


def percentiles(samples: list[float]) -> tuple[float, float]:
    """(p50, p99) of ``samples``."""
    cuts = statistics.quantiles(samples, n=100, method="inclusive")
    return statistics.median(samples), cuts[98]


class WatchedPin(MockPWMPin):  # type: ignore[misc]
    """A mock PWM pin that reports each write to ``watch`` with a ``time.monotonic`` stamp
    (the unit's own clock, so deadlines and writes compare directly)."""

    watch: Callable[[float, float], None] | None = None

    def _set_state(self, value: float) -> None:
        super()._set_state(value)
        if self.watch is not None:
            self.watch(time.monotonic(), value)
