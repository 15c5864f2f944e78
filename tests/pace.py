"""How much slower than a developer's x86 core this machine runs the kit's Python, measured
once per test process: the tests' waits are scaled by it, so that a wait written for a
laptop still waits long enough on an 8–11× slower CPU (arm64 under qemu's emulation, a Pi
Zero 2 W) or on two cores shared by several suites. It never makes a test assert a speed,
and a factor below 1 is taken as 1: a fast machine keeps the waits as written."""

from __future__ import annotations

import functools
import time
from typing import Final

REFERENCE_SECONDS: Final = 0.03
"""The workload's time on one core of a current x86 laptop (CPython 3.11)."""


def _workload() -> float:
    started = time.perf_counter()
    total = 0
    for i in range(300_000):
        total += i * i
    return time.perf_counter() - started


@functools.cache
def cpu_factor() -> float:
    """This machine's slowness against the reference: the best of three runs."""
    return max(1.0, min(_workload() for _ in range(3)) / REFERENCE_SECONDS)


def scaled(seconds: float) -> float:
    """``seconds`` as long as it needs to be here."""
    return seconds * cpu_factor()
