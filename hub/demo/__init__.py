"""The kit's main demo: a whole tournament played by simulated tables.

``rummikub-demo`` (``./kit demo``) starts a broker (Mosquitto when installed, else
the embedded one), the hub service on a fresh event store, one table unit per
table — each with its own journal, its MQTT link and simulated players pressing
the buttons, calling the judge, timing out and typing each game's result on the
keypad — and an organizer who draws, starts and closes the rounds as soon as every
result is in. The hub screen shows it all: in a window when there is a display,
otherwise as a live summary in the terminal plus numbered PNG snapshots of the screen.
The lines it prints are in Polish, or in English with ``--lang en`` (or an English
``LANG``: :func:`tablekit.shared.i18n.choose`).

By default the event is short (:data:`hub.demo.options.SHORT`: the school preset's first two rounds,
short games at a quick pace, a few minutes in all); ``--full`` plays the preset's
whole event at the full-length pace (:data:`hub.demo.options.FULL`). SIGTERM and SIGINT stop it, and
everything it started, whatever the display (:mod:`tablekit.shared.stopping`).

The demo's parts: :mod:`hub.demo.options` (its command line), :mod:`hub.demo.event` (the
event and the organizer who plays it), :mod:`hub.demo.report` (what it prints about the
event), :mod:`hub.demo.run` (starting and stopping everything) and
:mod:`hub.demo.views` (the hub screen, in a window or headless).
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Sequence

from hub.demo.event import NAMES
from hub.demo.options import build_parser
from hub.demo.run import Demo
from hub.demo.views import run_headless, run_screen
from tablekit.core.errors import KitError
from tablekit.shared.commandline import parse_in_language, refused
from tablekit.shared.stopping import stop_on_signals


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    w, _, args = parse_in_language(argv, build_parser)
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(message)s")
    if not 6 <= args.players <= len(NAMES):
        wrong = w.gettext("--players must be 6 to {most}, got {players}").format(
            most=len(NAMES), players=args.players
        )
        print(f"rummikub-demo: {wrong}", file=sys.stderr)
        return 2
    from tablekit.keyboard import display_available

    demo = Demo(args)
    # SIGTERM (timeout, a closed terminal, systemd) and Ctrl-C stop the demo whatever
    # the display: SDL must not take the signals over when the hub screen starts.
    with stop_on_signals(demo.signalled):
        try:
            demo.start()
        except KitError as err:
            return refused("rummikub-demo", err, demo.words)
        try:
            if demo.stop_event.is_set():
                pass  # a signal came while it was starting
            elif args.window or (not args.headless and display_available()):
                run_screen(demo, args)
            else:
                run_headless(demo, args)
        finally:
            _ = demo.words.gettext
            why = f" ({demo.signal_name})" if demo.signal_name else ""
            print(_("demo: stopping") + why, flush=True)
            demo.stop()
            print(_("demo: stopped"), flush=True)
    return 0
