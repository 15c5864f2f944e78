"""Display cost: CPU seconds per minute of a running countdown, next to a naive redraw.

Both contenders draw the same 40-second countdown at 480×320 with the dummy video
driver, frame for frame at ``--fps`` frames per simulated second:

* ``TableScreen.show``: the real display (skips unchanged frames, redraws only the
  changed panels, cached text);
* naive: every frame clears the screen, renders every text of the scene afresh
  (no cache) and calls ``pygame.display.flip()``.

Frames are run back to back (not paced) at fixed simulated ``now`` steps and the
process CPU time (``time.process_time``) is scaled to one minute of countdown:
``cpu / simulated_seconds * 60``. A paced run would add only idle time. The dummy
driver does no real blitting to a panel, so the flip/update cost of a real screen
(larger for the naive full-screen flip) is not in these figures.

Run: ``.venv/bin/python bench/bench_display.py [--seconds 120] [--fps 15]``.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import argparse
import resource
import sys
import time

import msgspec
import pygame

from tablekit.display import Renderer, TableScreen
from tablekit.layout.compose import compose
from tablekit.layout.scene import Text, layout_for
from tablekit.samples import sample_views
from tablekit.view import TableView


def countdown_views(
    start: float, seconds: float, move: float = 40.0
) -> list[tuple[float, TableView]]:
    """One view per move of ``move`` seconds, passing at each move's end."""
    base = sample_views(start)["playing"]
    views = []
    t = start
    while t < start + seconds:
        clock = msgspec.structs.replace(
            base.clock, remaining=move, since=t, move=base.clock.move + len(views)
        )
        views.append((t, TableView(clock, table=base.table, names=base.names, online=True)))
        t += move
    return views


def frames(start: float, seconds: float, fps: int) -> list[tuple[float, TableView]]:
    moves = countdown_views(start, seconds)
    out = []
    n = int(seconds * fps)
    i = 0
    for f in range(n):
        now = start + f / fps
        while i + 1 < len(moves) and moves[i + 1][0] <= now:
            i += 1
        out.append((now, moves[i][1]))
    return out


def run_table_screen(plan: list[tuple[float, TableView]]) -> tuple[float, int]:
    screen = TableScreen(480, 320)
    screen.show(plan[0][1], plan[0][0])  # the first full draw is not part of the countdown
    updates = 0
    t0 = time.process_time()
    for now, view in plan:
        screen.show(view, now)
        updates += bool(screen.last_update_rects)
    cpu = time.process_time() - t0
    screen.close()
    return cpu, updates


def run_naive(plan: list[tuple[float, TableView]]) -> float:
    pygame.display.init()
    screen = pygame.display.set_mode((480, 320))
    layout = layout_for(480, 320)
    renderer = Renderer(cache_bytes=0)  # no text cache: every text rendered every frame
    t0 = time.process_time()
    for now, view in plan:
        screen.fill((0, 0, 0))
        renderer.invalidate()
        for panel in compose(view, now, layout):
            renderer.draw_panel(screen, panel)
        pygame.display.flip()
    cpu = time.process_time() - t0
    pygame.display.quit()
    return cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=120.0, help="simulated countdown seconds")
    parser.add_argument(
        "--fps", type=int, default=15, help="frames per second (config display.fps)"
    )
    args = parser.parse_args(argv)
    pygame.font.init()
    plan = frames(1000.0, args.seconds, args.fps)
    scene = compose(plan[0][1], 1000.0, layout_for(480, 320))
    texts = sum(isinstance(i, Text) for p in scene for i in p.items)
    smart, updates = run_table_screen(plan)
    naive = run_naive(plan)
    per_minute = 60.0 / args.seconds
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"display 480x320, {args.fps} fps, {args.seconds:.0f} s of countdown "
        f"({len(plan)} frames, {texts} texts per scene), dummy video driver"
    )
    print(
        f"  TableScreen.show : {smart * per_minute:7.3f} CPU s per minute "
        f"({smart / len(plan) * 1e6:7.1f} µs per frame; {updates} frames drew something)"
    )
    print(
        f"  naive full redraw: {naive * per_minute:7.3f} CPU s per minute "
        f"({naive / len(plan) * 1e6:7.1f} µs per frame)"
    )
    print(f"  ratio naive / TableScreen: {naive / max(smart, 1e-9):.0f}x")
    print(f"  peak RSS of this process: {rss:.1f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
