"""Hub cold start: time to rebuild the hub's state from a store of 100,000 events.

Builds a store of 100,000 unit events (200 units, 500 each, mostly passed moves),
closes it, then times: (a) a normal restart — open the store and load every unit's
high-water mark (derived tables are persistent); (b) a full rebuild of every derived
table from the append-only events (after a schema change or a suspected
inconsistency). Beside them, the time to merely count the rows. Asserts nothing.

    .venv/bin/python bench/bench_hub_cold_start.py [--events 100000]
"""

from __future__ import annotations

import argparse
import sqlite3
import tempfile
import time
from pathlib import Path

from hub.store import EventStore
from tablekit.core.clock_events import ClockPaused, MovePassed, PauseReason
from tablekit.core.messages import envelope, unit_id_of
from tablekit.core.seats import SEATS


def build(path: Path, total: int, units: int = 200) -> float:
    per_unit = total // units
    store = EventStore(path)
    t0 = time.perf_counter()
    for u in range(1, units + 1):
        batch = []
        for seq in range(1, per_unit + 1):
            if seq % 50 == 0:
                event: object = ClockPaused(
                    game=1, move=seq, seat=SEATS[seq % 4], reason=PauseReason.JUDGE, remaining=9.0
                )
            else:
                event = MovePassed(
                    game=1 + seq // 100, move=seq, seat=SEATS[seq % 4], used=seq % 40
                )
            batch.append(envelope(unit_id_of(u), u, seq, 1.7e9 + seq, event))  # type: ignore[arg-type]
        store.ingest(batch)
    store.close()
    return time.perf_counter() - t0


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--events", type=int, default=100_000)
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "hub.db"
        built = build(path, args.events)
        print(
            f"built a store of {args.events:,} events in {built:.2f} s "
            f"({path.stat().st_size / 1e6:.1f} MB)"
        )

        t0 = time.perf_counter()
        with sqlite3.connect(path) as db:
            rows = db.execute("SELECT count(*) FROM events").fetchone()[0]
        count = time.perf_counter() - t0

        t0 = time.perf_counter()
        store = EventStore(path)
        marks = store.marks()
        restart = time.perf_counter() - t0

        t0 = time.perf_counter()
        read = store.rebuild()
        marks_after = store.marks()
        rebuild = time.perf_counter() - t0
        same = marks_after == marks
        store.close()
    print(f"baseline: count {rows:,} rows                 {count * 1000:8.1f} ms")
    print(f"normal restart: open + {len(marks)} unit marks    {restart * 1000:8.1f} ms")
    print(
        f"full rebuild from {read:,} events          {rebuild * 1000:8.1f} ms"
        f"  ({read / rebuild:,.0f} events/s; same marks: {same})"
    )


if __name__ == "__main__":
    main()
