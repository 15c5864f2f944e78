"""A simulated table unit for the fault tests: MoveClock + Journal + TableLink + a bot.

Run as ``python tests/unit_process.py --broker 127.0.0.1:PORT --table 3 --unit u3
--journal j.db --events 400``. The bot presses the pass button at random synthetic
intervals (some beyond the move time, so some moves time out), starts a last lap
now and then and the next game after it. Every batch of events is journalled before
the link is told. The process can be ``kill -9``-ed at any moment and started again
with the same arguments: it restores the clock from its journal (paused, as after a
reboot; the bot then resumes it as the judge would) and carries on until the journal
has assigned ``--events`` seqs (or until ``--stop-file`` exists), then waits until the
hub has acked all of them and exits 0. It prints ``ready`` once the link is started.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tablekit.config import LinkSettings
from tablekit.core.clock import ClockRules, ClockState, MoveClock, Phase
from tablekit.core.clock_events import LastLapSource
from tablekit.core.messages import snapshot_of
from tablekit.journal import Journal
from tablekit.link import TableLink


def common_arguments(p: argparse.ArgumentParser) -> None:
    """What every simulated unit process takes (this one and tests/table_process.py)."""
    p.add_argument("--broker", required=True)
    p.add_argument("--venue", default="hall")
    p.add_argument("--event", default="test")
    p.add_argument("--table", type=int, required=True)
    p.add_argument("--journal", type=Path, required=True)
    p.add_argument("--keepalive", type=int, default=15)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--drain-timeout", type=float, default=60.0)
    p.add_argument("--stop-file", type=Path, help="stop pressing once this file exists")


def main() -> int:
    p = argparse.ArgumentParser()
    common_arguments(p)
    p.add_argument("--unit", required=True)
    p.add_argument("--events", type=int, default=300)
    p.add_argument("--pace", type=float, default=0.005, help="real seconds between presses")
    p.add_argument("--mqtt", type=int, default=4)
    args = p.parse_args()
    host, port = args.broker.rsplit(":", 1)

    settings = LinkSettings(host=host, port=int(port), venue=args.venue, event=args.event)
    journal = Journal(args.journal, args.unit)
    link = TableLink(
        settings,
        journal,
        args.table,
        args.unit,
        lambda _item: None,
        retransmit_after=2.0,
        keepalive=args.keepalive,
    )
    rng = random.Random(args.seed * 1000 + journal.last_seq)
    stored = journal.load_state()
    recovered: list = []  # type: ignore[type-arg]
    if stored is None:
        clock = MoveClock(ClockRules(seats=4, move_seconds=40.0, lockout=0.0))
        now = 0.0
    else:
        clock = MoveClock(state=msgspec.json.decode(stored, type=ClockState))
        now = max(clock.state.since, clock.state.last_press or 0.0, clock.state.paused_at) + 1.0
        recovered = clock.recover(now)

    def record(events: list) -> None:  # type: ignore[type-arg]
        if events:
            journal.record(events, state=msgspec.json.encode(clock.state))
            link.notify()
            link.publish_state(snapshot_of(clock.state, now, time.time(), args.table, args.unit))

    link.start()
    print("ready", flush=True)
    record(recovered)
    now += 1.0
    record(clock.resume(now))
    while journal.last_seq < args.events and not (args.stop_file and args.stop_file.exists()):
        now += rng.choice([rng.uniform(0.5, 30.0)] * 9 + [rng.uniform(41.0, 60.0)])
        s = clock.state
        if s.phase is Phase.GAME_OVER:
            events = clock.start_game(now)
        elif s.phase is not Phase.READY and s.last_lap_left is None and rng.random() < 0.03:
            events = clock.start_last_lap(now, LastLapSource.TABLE)
        else:
            events = clock.press(now)
        record(events)
        time.sleep(args.pace)
    deadline = time.monotonic() + args.drain_timeout
    while journal.pending_count() and time.monotonic() < deadline:
        time.sleep(0.05)
    drained = journal.pending_count() == 0
    link.stop()
    print("drained" if drained else "not drained", flush=True)
    return 0 if drained else 1


if __name__ == "__main__":
    sys.exit(main())
