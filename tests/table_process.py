"""A whole table unit for the chaos soak: the unit's own loop, journal and hub link, as
``tablekit-unit`` builds them on a Pi (:func:`tablekit.app.build`), with simulated players
(:class:`tablekit.bot.TableBot`) pressing its buttons and typing each game's result on
its keypad; the hub's assignments start the games and its verdicts answer the results.

Run as ``python tests/table_process.py --broker 127.0.0.1:PORT --table 3 --journal j.db
--stop-file stop`` (the other options: ``--help``). It prints ``ready`` once the loop and
the link run, plays until the stop file exists, then the players stop, the unit waits
until the hub has acked every journal entry and exits 0 after printing ``drained``. It can
be ``kill -9``-ed at any moment and started again with the same arguments: it resumes from
its journal (paused, as after a power cut; the players resume it as the judge would).
"""

from __future__ import annotations

import argparse
import logging
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from unit_process import common_arguments

from tablekit.app import build
from tablekit.bot import BotStyle, TableBot
from tablekit.config import (
    ClockSettings,
    DisplaySettings,
    LinkSettings,
    UnitConfig,
    UnitSettings,
)
from tablekit.journal import Journal
from tablekit.unit import Quit


def main() -> int:
    p = argparse.ArgumentParser()
    common_arguments(p)
    p.add_argument("--pace", type=float, default=0.02, help="the players' speed (1 = people's)")
    p.add_argument("--moves", type=int, nargs=2, default=(12, 30), help="moves a game lasts")
    p.add_argument("--lockout", type=float, default=0.4, help="the pass button's lockout, s")
    p.add_argument("--fps", type=int, default=4, help="the loop's frame rate (no display here)")
    args = p.parse_args()
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(message)s")
    host, port = args.broker.rsplit(":", 1)
    config = UnitConfig(
        unit=UnitSettings(table=args.table),
        clock=ClockSettings(lockout=args.lockout),
        display=DisplaySettings(fps=args.fps),
        link=LinkSettings(
            host=host,
            port=int(port),
            venue=args.venue,
            event=args.event,
            keepalive=args.keepalive,
        ),
    )
    unit = build(config, args.journal)
    journal = unit.recorder
    assert isinstance(journal, Journal)
    loop = threading.Thread(target=unit.run, name="unit-loop", daemon=True)
    loop.start()
    style = BotStyle(
        pace=args.pace,
        start_games=False,
        moves_per_game=(args.moves[0], args.moves[1]),
        judge_hold=config.clock.judge_hold,
    )
    bot = TableBot(unit.put, lambda: unit.view, style, seed=args.seed * 1000 + journal.last_seq)
    print("ready", flush=True)
    playing = args.stop_file is None or not args.stop_file.exists()
    if playing:  # (an old card drained at the end plays nothing)
        bot.start()
    while args.stop_file is None or not args.stop_file.exists():
        time.sleep(0.2)
    if playing:
        bot.stop()
    deadline = time.monotonic() + args.drain_timeout
    while journal.pending_count() and time.monotonic() < deadline:
        time.sleep(0.05)
    unit.put(Quit())
    loop.join(10)
    drained = journal.pending_count() == 0
    stop_link = getattr(unit.uplink, "stop", None)
    if stop_link is not None:
        stop_link()
    journal.close()
    print("drained" if drained else "not drained", flush=True)
    return 0 if drained else 1


if __name__ == "__main__":
    sys.exit(main())
