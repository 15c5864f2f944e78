"""Hub memory: what the hub holds in RAM for the moves it stored and the rounds it ran.

The chaos soak shows each new hub process starting a little larger than the last
(39.6 MiB at the start of a 30-minute soak, 56.9 MiB at its end, after 39 rounds of 60
tables). This tells the two possible causes apart. Four event files are built: an event
with its players only (the baseline), the same with 100,000 moves stored from 200 units,
and events of 240 players (60 tables, 2 games a round) with 5 and with 20 rounds played
and judged through the organizer commands. For each, a fresh process imports the hub,
then opens the store and folds the event as the hub does on start
(:class:`hub.organizer.Organizer`); printed: its RSS before and after, and what the
records take on disk. Asserts nothing.

    .venv/bin/python bench/bench_hub_memory.py [--moves 100000] [--rounds 5 20]
"""

from __future__ import annotations

import argparse
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_hub_cold_start import build
from bench_standings import fill

from hub.organizer import Organizer
from hub.store import EventStore


def rss_mib() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def open_event(path: Path) -> None:
    """In the child: the hub's state of ``path``, and the RSS it cost."""
    before = rss_mib()
    organizer = Organizer(EventStore(path), by="bench")
    results = len(organizer.competition.results)
    print(f"{before:.1f} {rss_mib():.1f} {results}")


def measured(path: Path) -> tuple[float, float, int]:
    out = subprocess.run(
        [sys.executable, __file__, "--open", str(path)],
        check=True, capture_output=True, text=True,
    ).stdout.split()
    return float(out[0]), float(out[1]), int(out[2])


def on_disk(path: Path) -> tuple[int, int]:
    """Rows and payload bytes: the unit events, and the organizer's records."""
    with sqlite3.connect(path) as db:
        events = db.execute("SELECT count(*), coalesce(sum(length(payload)), 0) FROM events")
        return tuple(events.fetchone())  # type: ignore[return-value]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--moves", type=int, default=100_000)
    p.add_argument("--rounds", type=int, nargs="+", default=[5, 20])
    p.add_argument("--open", type=Path, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.open:
        open_event(args.open)
        return
    with tempfile.TemporaryDirectory() as tmp:
        files = {"players only (baseline)": Path(tmp) / "empty.db"}
        fill(files["players only (baseline)"], 240, 1, play_last=False, seed=1)
        moves = Path(tmp) / "moves.db"
        fill(moves, 240, 1, play_last=False, seed=1)
        build(moves, args.moves)
        files[f"{args.moves:,} moves stored"] = moves
        for rounds in args.rounds:
            path = Path(tmp) / f"rounds{rounds}.db"
            fill(path, 240, rounds, play_last=True, seed=1)
            files[f"{rounds} rounds of 60 tables played"] = path
        base = None
        for label, path in files.items():
            before, after, results = measured(path)
            rows, size = on_disk(path)
            held = after - before
            base = held if base is None else base
            print(
                f"{label:<32} RSS {before:5.1f} → {after:5.1f} MiB (+{held:4.1f}, "
                f"{held - base:+5.1f} over the baseline); {results:5,} results; "
                f"{rows:7,} rows, {size / 2**20:5.1f} MiB in the store"
            )


if __name__ == "__main__":
    main()
