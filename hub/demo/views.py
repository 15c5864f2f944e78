"""What the demo shows while it runs: the hub screen in a window, or, with no display,
a live summary of every table in the terminal and numbered PNGs of the hub screen."""

from __future__ import annotations

import argparse
import os
import time

from hub.demo.event import EVENT, VENUE
from hub.demo.run import Demo


def run_screen(demo: Demo, args: argparse.Namespace) -> None:
    """The hub screen in a window (on this, the main thread) until it is closed."""
    from hub.screen import main as screen_main

    screen_main(
        [
            "--broker", f"{demo.host}:{demo.port}",
            "--venue", VENUE, "--event", EVENT,
            "--title", "Rummikub demo cup",
            "--size", args.size,
            "--cycle", str(args.cycle),
            "--lang", demo.words.language,
        ],
        stop=demo.stop_event,
    )


def run_headless(demo: Demo, args: argparse.Namespace) -> None:
    """No display: a live summary in the terminal and PNGs of the hub screen."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from hub.hall import (
        countdown_text,
        game_label,
        link_lost_text,
        remaining_at,
        shown_at,
        state_text,
    )
    from hub.screen.feed import ScreenFeed

    words = demo.words
    feed = ScreenFeed(
        demo.client_settings, demo.topics, title="Rummikub demo cup", language=words.language
    )
    feed.start()
    pygame.display.init()
    pygame.font.init()
    width, height = (int(x) for x in args.size.split("x"))
    deadline = time.monotonic() + args.duration if args.duration else None
    next_png = 0.0
    try:
        while not demo.stop_event.wait(args.every):
            now = time.time()
            hall = feed.hall(now)
            shown = shown_at(hall, now)  # the moment the broker was lost, if it was
            lines = []
            if hall.link_lost is not None:
                lines.append("  " + " — ".join(link_lost_text(hall.link_lost, now, words)))
            for t in hall.tables:
                active = t.seats[t.active.position] if t.active is not None and t.seats else ""
                clock = countdown_text(remaining_at(t, shown)) if t.active is not None else ""
                table = demo.words.gettext("table {number}").format(number=f"{t.number:>2}")
                lines.append(
                    f"  {table} {game_label(t, words):<8} {state_text(t, shown, words=words):<22} "
                    f"{active:<22} {clock:>4}"
                )
            # Translators: heading of the demo's summary of every table, as the hub sees it
            view = demo.words.gettext("hub view:")
            print(f"{time.strftime('%H:%M:%S')}  {view}\n" + "\n".join(lines), flush=True)
            if demo.director is None or not demo.director.is_alive():  # the event is finished
                demo.stop_event.wait(min(args.every, 2.0))  # the final standings arrive
                demo.save_pngs(feed.hall(time.time()), (width, height), time.time())
                break
            if time.monotonic() >= next_png:
                demo.save_pngs(hall, (width, height), now)
                next_png = time.monotonic() + args.png_every
            if deadline is not None and time.monotonic() >= deadline:
                break
    finally:
        feed.stop()
        pygame.quit()

