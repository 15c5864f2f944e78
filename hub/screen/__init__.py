"""The hub screen (``rummikub-screen``): every table of the hall at a glance, judge calls,
standings, seating.

pygame-ce, full screen on a TV (KMSDRM on a Pi without a desktop), a window elsewhere.
Pages: the **wall** of tables (paged when they do not fit at a readable size), the
**standings** and the next round's **seating** ("find your table"), rotating every
``--cycle`` seconds; keys ``1`` wall, ``2`` standings, ``3`` seating (again: its next
sub-page), space / → next page, ← previous, ``p`` pause/resume the rotation, ``q`` or
Esc quit.

This module is the program: its options, the window and its loop. What it draws:
:mod:`hub.screen.render` (:class:`~hub.screen.render.HallScreen`, by regions, and the
PNG export) with :mod:`~hub.screen.header`, :mod:`~hub.screen.wall`,
:mod:`~hub.screen.sidebar` and :mod:`~hub.screen.lists`, on a
:class:`~hub.screen.canvas.Canvas`, in the colours of :mod:`~hub.screen.theme`, cut into
regions by :mod:`~hub.screen.geometry`. What it
shows: :mod:`hub.hall` (the model), fed by :mod:`hub.screen.feed` (the broker).

Every word on it is in the hall's language (:mod:`tablekit.shared.i18n`): Polish unless
``--lang en`` (or ``LANG``) says English, and switched at run time by the hall's language
setting through the model (:attr:`hub.hall.HallView.language`, set by
:meth:`hub.screen.feed.HallTracker.set_language`).

``rummikub-screen --demo 24 --png artifacts/hub-screen`` renders every page of a
sample hall (:mod:`hub.samples`) to PNG files and exits (no broker needed); see
:func:`main`.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Final

from hub.hall import JUDGE_FLASH_AFTER, HallView
from hub.samples import final_hall, sample_hall
from tablekit.core.errors import quoted
from tablekit.shared import i18n
from tablekit.shared.commandline import parse_in_language
from tablekit.shared.i18n import Words
from tablekit.shared.stopping import keep_signals_from_sdl, stop_on_signals

log = logging.getLogger("hub.screen")

FRAME_RATE: Final = 10
DEFAULT_CYCLE: Final = 15.0
"""Seconds each page is shown before the rotation moves on."""
DEMO_PERIOD: Final = 40.0
"""The sample hall (``--demo``) restarts its moves every this many seconds."""


def parse_size(text: str, words: Words | None = None) -> tuple[int, int]:
    """``WIDTHxHEIGHT``, refused in ``words``' language (default English)."""
    _ = (words or i18n.words("en")).gettext
    w, sep, h = text.lower().partition("x")
    if not sep or not w.isdigit() or not h.isdigit():
        raise argparse.ArgumentTypeError(
            _("expected WIDTHxHEIGHT such as 1920x1080, got {text}").format(
                text=quoted(text).message(_)
            )
        )
    width, height = int(w), int(h)
    if width < 640 or height < 360 or width > 7680 or height > 4320:
        raise argparse.ArgumentTypeError(
            _("size must be from 640x360 up to 7680x4320, got {size}").format(
                size=f"{width}x{height}"
            )
        )
    return width, height


def _types(words: Words) -> tuple[Callable[[str], float], Callable[[str], int]]:
    """argparse's types of the seconds and the number of tables, refused in ``words``'
    language."""
    _ = words.gettext

    def seconds(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                _("expected seconds, got {text}").format(text=quoted(text).message(_))
            ) from None
        if not 0 <= value <= 3600:
            raise argparse.ArgumentTypeError(
                _("seconds must be 0-3600, got {text}").format(text=quoted(text).message(_))
            )
        return value

    def tables(text: str) -> int:
        if not text.isdigit() or not 1 <= int(text) <= 200:
            raise argparse.ArgumentTypeError(
                _("expected a number of tables 1-200, got {text}").format(
                    text=quoted(text).message(_)
                )
            )
        return int(text)

    return seconds, tables


def _language(text: str) -> str:
    try:
        return i18n.language(text)
    except i18n.LanguageError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def build_parser(words: Words | None = None) -> argparse.ArgumentParser:
    """The screen's options, their help in ``words``' language (default: the
    environment's, :func:`tablekit.shared.i18n.choose`)."""
    from hub.config import add_config_options

    w = words if words is not None else i18n.words(i18n.choose(None, os.environ))
    _ = w.gettext
    seconds, tables = _types(w)
    p = argparse.ArgumentParser(
        prog="rummikub-screen",
        description=_("The hub screen: the wall of tables, judge calls, standings, seating."),
        epilog=_("See every page without a broker: {command}").format(
            command="rummikub-screen --demo 24 --png artifacts/hub-screen"
        ),
    )
    add_config_options(
        p,
        account=_("a read-only one, at a venue: screen, the file's [screen] username; the "
                  "client id is rummikub-screen-USERNAME"),
        words=w,
    )
    p.add_argument("--title", default="", help=_("title in the top left (default: the event)"))
    p.add_argument(
        "--size",
        type=lambda text: parse_size(text, w),
        default=(1920, 1080),
        metavar="WxH",
        help=_("window or PNG size (default 1920x1080)"),
    )
    p.add_argument(
        "--fullscreen",
        action="store_true",
        help=_("full screen at the display's own resolution (a TV on the hub Pi)"),
    )
    p.add_argument(
        "--cycle",
        type=seconds,
        default=DEFAULT_CYCLE,
        help=_("seconds per page of the rotation, 0 = no rotation (default {seconds})").format(
            seconds=f"{DEFAULT_CYCLE:g}"
        ),
    )
    p.add_argument(
        "--hide-standings",
        action="store_true",
        help=_("keep the standings off the screen until the round is closed"),
    )
    p.add_argument(
        "--flash-after",
        type=seconds,
        default=JUDGE_FLASH_AFTER,
        help=_("seconds a table waits for the judge before it flashes (default {seconds})").format(
            seconds=f"{JUDGE_FLASH_AFTER:g}"
        ),
    )
    p.add_argument(
        "--png",
        type=Path,
        metavar="DIR",
        help=_("render each page once to PNG files in DIR and exit"),
    )
    p.add_argument(
        "--demo",
        type=tables,
        metavar="N",
        help=_("show a sample hall of N tables instead of listening to a broker"),
    )
    p.add_argument(
        "--lang",
        type=_language,
        metavar="LANG",
        help=_("the screen's language until the event's own reaches it: pl or en (default: "
               "Polish, or English when LANG names it)"),
    )
    p.add_argument(
        "--all-languages",
        action="store_true",
        help=_("with --png: every page in every language the kit speaks, in DIR/pl and DIR/en"),
    )
    p.add_argument(
        "--wait",
        type=seconds,
        default=2.0,
        help=_("with --png and a broker: seconds to collect retained messages (default 2)"),
    )
    return p


def main(argv: Sequence[str] | None = None, stop: threading.Event | None = None) -> int:
    """The program; it ends on ``q``/Esc, a closed window, SIGTERM or SIGINT, or when
    ``stop`` is set (a caller that handles the signals itself, the demo)."""
    _, _, args = parse_in_language(list(sys.argv[1:] if argv is None else argv), build_parser)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    keep_signals_from_sdl()  # SDL's handlers would swallow SIGTERM while nobody polls
    if stop is not None:
        return _main(args, stop)
    own = threading.Event()
    with stop_on_signals(lambda signum: own.set()):
        return _main(args, own)


def _main(args: argparse.Namespace, stop: threading.Event) -> int:
    if args.png is not None:
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    # pygame is loaded here, not with the package: the package's feed (hub.screen.feed)
    # serves the web console too, which draws nothing.
    import pygame

    language = i18n.choose(args.lang, os.environ)
    feed = None
    if args.demo is None:
        from hub.config import HubConfigError, resolve
        from hub.screen.feed import ScreenFeed

        try:
            settings = resolve("screen", args, os.environ)
        except HubConfigError as err:
            _ = i18n.words(language).gettext
            error = _("error: {error}").format(error=err.message(_))
            print(f"rummikub-screen: {error}", file=sys.stderr)
            return 2
        feed = ScreenFeed(
            settings.broker,
            settings.topics,
            title=args.title or settings.topics.event,
            hide_standings=args.hide_standings,
            language=language,
        )
        feed.start()

    from hub.first_start import FirstStartCode

    accounts = None if feed is None else settings.config.web.accounts
    first_start = FirstStartCode(Path(accounts)) if accounts else None

    def hall_at(now: float) -> HallView:
        if feed is not None:
            hall = feed.hall(now)
            code = first_start.at(now) if first_start is not None else ""
            return replace(hall, first_start=code) if code else hall
        # The sample hall restarts its moves every DEMO_PERIOD seconds: live countdowns.
        anchor = start + (now - start) // DEMO_PERIOD * DEMO_PERIOD
        hall = sample_hall(args.demo, anchor, seed=7)
        return replace(
            hall,
            hide_standings=args.hide_standings,
            title=args.title or hall.title,
            language=language,
        )

    start = time.time()
    pygame.display.init()
    pygame.font.init()
    try:
        if args.png is not None:
            if feed is not None:
                stop.wait(args.wait)
                if stop.is_set():
                    return 0
            now = time.time()
            for path in _pngs(args, hall_at(now), now, language):
                print(path.absolute())
            return 0
        return _run(args, hall_at, stop)
    finally:
        if feed is not None:
            feed.stop()
        pygame.quit()


def _pngs(args: argparse.Namespace, hall: HallView, now: float, language: str) -> list[Path]:
    """Every page of ``hall`` as PNG files in ``--png``'s folder (with ``--demo``, the
    pages of the finished event too, named ``final-…``); with ``--all-languages`` in a
    folder per language."""
    from hub.screen.render import render_pngs

    languages = i18n.LANGUAGES if args.all_languages else (language,)
    written = []
    for code in languages:
        out = args.png / code if args.all_languages else args.png
        written += render_pngs(replace(hall, language=code), args.size, out, now)
        if args.demo is not None:
            final = replace(
                final_hall(args.demo, now), title=hall.title, language=code
            )
            written += render_pngs(final, args.size, out, now, prefix="final-")
    return written


def _run(
    args: argparse.Namespace, hall_at: Callable[[float], HallView], stop: threading.Event
) -> int:
    import pygame

    from hub.screen.render import HallScreen

    flags = pygame.FULLSCREEN if args.fullscreen else 0
    size = (0, 0) if args.fullscreen else args.size
    words = i18n.words(i18n.choose(args.lang, os.environ))
    try:
        window = pygame.display.set_mode(size, flags)
    except pygame.error as err:
        cannot = words.gettext("cannot open the display: {error}").format(error=err)
        print(f"rummikub-screen: {cannot}", file=sys.stderr)
        return 1
    pygame.display.set_caption(words.gettext("Rummikub hub screen"))
    pygame.mouse.set_visible(False)
    screen = HallScreen(window, cycle=args.cycle, flash_after=args.flash_after)
    clock = pygame.time.Clock()
    running = True
    while running and not stop.is_set():
        now = time.time()
        hall = hall_at(now)
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                running = False
            elif event.type == pygame.KEYDOWN:
                running = screen.key(event.key, hall, now) and running
        dirty = screen.frame(hall, now)
        if dirty:
            pygame.display.update(dirty)
        clock.tick(FRAME_RATE)
    return 0

