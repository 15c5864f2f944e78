"""Benchmark: the hub screen with 60 live tables at 1920x1080 (prints, never asserts).

Every countdown runs; a few tables change state every second (a move passed, a judge
pause, a resume). Two renderers run in the same process, one after the other, for the
same wall time at the screen's frame rate (10 fps):

* **incremental** — the real screen: per-region dirty tracking, cached text, only the
  changed rectangles passed to ``display.update``;
* **naive** — the whole screen drawn every frame, no text cache, ``display.flip``.

Figures: CPU seconds per second of wall time (the process's share of one core) and the
frame time p50/p99 (drawing plus display update).

    python bench/bench_hub_screen.py [--seconds 8] [--tables 60]

SDL's dummy video driver stands in for the TV (set SDL_VIDEODRIVER to use a real one);
on the dummy driver ``display.update`` copies nothing, so the figures are the drawing.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from dataclasses import replace

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame

from hub.hall import HallView, ResultState, TableCell
from hub.samples import sample_hall
from hub.screen import FRAME_RATE
from hub.screen.render import HallScreen
from tablekit.core.clock import Phase
from tablekit.core.clock_events import PauseReason
from tablekit.core.seats import Seat, next_seat

CHANGES_PER_SECOND = 4.0


def all_running(hall: HallView, now: float) -> HallView:
    tables = tuple(
        replace(
            t,
            phase=Phase.RUNNING,
            paused=None,
            online=True,
            result=ResultState.NONE,
            active=t.active or Seat.A,
            measured_at=now,
            remaining=5.0 + (t.number * 7) % 35,
        )
        for t in hall.tables
    )
    return replace(hall, tables=tables)


def change(t: TableCell, now: float, rng: random.Random) -> TableCell:
    roll = rng.random()
    if t.paused is not None:
        return replace(t, paused=None, paused_since=None, measured_at=now)
    if roll < 0.1:
        return replace(
            t,
            paused=PauseReason.JUDGE,
            paused_since=now,
            remaining=max(0.0, t.remaining - (now - t.measured_at)),
            measured_at=now,
        )
    active = next_seat(t.active or Seat.A, t.seat_count)
    return replace(t, active=active, move=t.move + 1, remaining=40.0, measured_at=now)


def run(tables: int, seconds: float, incremental: bool) -> dict[str, float]:
    window = pygame.display.set_mode((1920, 1080))
    rng = random.Random(1)
    start = time.time()
    hall = all_running(sample_hall(tables, start), start)
    screen = HallScreen(window, cycle=0, incremental=incremental)
    frame_times: list[float] = []
    next_change = start
    cpu0, wall0 = time.process_time(), time.perf_counter()
    clock = pygame.time.Clock()
    changes = 0
    while time.perf_counter() - wall0 < seconds:
        now = time.time()
        while now >= next_change:
            i = rng.randrange(len(hall.tables))
            new = list(hall.tables)
            new[i] = change(new[i], now, rng)
            hall = replace(hall, tables=tuple(new))
            next_change += 1.0 / CHANGES_PER_SECOND
            changes += 1
        pygame.event.pump()
        t0 = time.perf_counter()
        dirty = screen.frame(hall, now)
        if incremental:
            if dirty:
                pygame.display.update(dirty)
        else:
            pygame.display.flip()
        frame_times.append(time.perf_counter() - t0)
        clock.tick(FRAME_RATE)
    cpu = time.process_time() - cpu0
    wall = time.perf_counter() - wall0
    frame_times.sort()
    return {
        "cpu_per_s": cpu / wall,
        "p50_ms": 1000 * statistics.median(frame_times),
        "p99_ms": 1000 * frame_times[min(len(frame_times) - 1, int(len(frame_times) * 0.99))],
        "frames": len(frame_times),
        "changes": changes,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--tables", type=int, default=60)
    args = parser.parse_args()
    pygame.init()
    print(
        f"hub screen, {args.tables} live tables at 1920x1080, {FRAME_RATE} fps, "
        f"{CHANGES_PER_SECOND:g} state changes/s, {args.seconds:g} s each "
        f"(SDL video driver: {os.environ['SDL_VIDEODRIVER']})"
    )
    print(f"{'renderer':<12} {'CPU s/s':>8} {'frame p50':>10} {'frame p99':>10} {'frames':>7}")
    for name, incremental in (("incremental", True), ("naive", False)):
        r = run(args.tables, args.seconds, incremental)
        print(
            f"{name:<12} {r['cpu_per_s']:>8.3f} {r['p50_ms']:>8.2f}ms {r['p99_ms']:>8.2f}ms "
            f"{r['frames']:>7.0f}"
        )
    pygame.quit()


if __name__ == "__main__":
    main()
