"""Chaos soak: many simulated tables on real Mosquitto while a seeded script breaks things.

Run by hand (not in the suite; tests/test_chaos_soak.py runs a one-minute version):

    .venv/bin/python bench/chaos_soak.py --tables 60 --minutes 30

Every table is a unit process (tests/unit_process.py: MoveClock + Journal + TableLink +
a bot pressing the pass button at ``--pace``) connected through a fault proxy
(tests/fault_proxy.py) to a private Mosquitto on loopback; the hub service runs as its
own process straight on the broker. After a fault-free baseline of ``--baseline``
seconds, a script seeded with ``--seed`` makes one fault at a time, every kind once
in a seeded order and then drawn at random, until ``--minutes`` or ``--faults``:

- broker ``kill -9`` then restart;  broker frozen (SIGSTOP) for a while, then SIGCONT;
- hub ``kill -9`` then restart on the same store;
- a random unit ``kill -9`` then restart from its journal;
- a random unit ``kill -9`` and replaced by a spare with a fresh journal (a new journal
  epoch); the dead unit's journal, with what it never sent, is drained at the end (as
  the deployment guide says: the old card in a working Pi once the table is idle);
- the proxy resets every connection / refuses reconnects / stalls / adds latency.

A fault's recovery time runs from its start until the hub has acked, at every table,
the first move made after the fault ended and everything before it (so it includes the
outage itself); the next fault comes a quiet gap after that. At the end the units stop
pressing and drain, and the soak prints: lost and duplicated events (each journal
against the hub's store); whether the moves the hub derived equal a fault-free replay
of the same stored events (a fresh store fed them in seq order, per table: moves, time
used and timeouts per seat); hub RSS at start and end of each hub process; the event
rates of the baseline and the faulty stretch; and every fault with its recovery time.
Exit status 1 if anything was lost, duplicated or differs.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from fault_proxy import FaultProxy  # noqa: E402
from fault_rig import Procs, finish, journal_seqs, stored_count, tally  # noqa: E402

from hub.broker import MosquittoBroker  # noqa: E402
from hub.store import EventStore  # noqa: E402

FAULTS = (
    "broker killed",
    "broker frozen",
    "hub killed",
    "unit killed",
    "journal replaced",
    "links cut",
    "reconnects refused",
    "links stalled",
    "latency",
)


@dataclass
class Done:
    kind: str
    detail: str
    at: float
    recovered: float | None
    """Seconds from the fault's start until every table's first move after it was stored."""


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def assigned(journal: Path) -> int:
    """The last seq ``journal`` assigned (0 while it is not there or still being made)."""
    try:
        with contextlib.closing(sqlite3.connect(journal, timeout=30)) as conn:
            row = conn.execute("SELECT value FROM meta WHERE key='last_seq'").fetchone()
    except sqlite3.DatabaseError:
        return 0
    return 0 if row is None else int(row[0])


def unacked_up_to(journal: Path, seq: int) -> int | None:
    """Entries up to ``seq`` not yet acked (None while the journal is being made); acked
    ones stay in the journal until the event is closed."""
    try:
        with contextlib.closing(sqlite3.connect(journal, timeout=30)) as conn:
            row = conn.execute("SELECT value FROM meta WHERE key='acked_upto'").fetchone()
            acked = 0 if row is None else int(row[0])
            sql = "SELECT count(*) FROM entries WHERE seq > ? AND seq <= ?"
            return int(conn.execute(sql, (acked, seq)).fetchone()[0])
    except sqlite3.DatabaseError:
        return None


def replay_equal(
    db: Path, work: Path
) -> tuple[bool, int, dict[tuple[int, str], tuple[int, float, int]], list[int]]:
    """Feed the stored unit events, each unit's in seq order, to a fresh store and compare
    the derived moves; returns (equal, moves, per (table, seat): (moves, used, timeouts),
    the tables whose unit the store says was replaced)."""
    fresh_path = work / "replay.db"
    fresh_path.unlink(missing_ok=True)
    EventStore(fresh_path).close()
    with sqlite3.connect(fresh_path) as conn:
        conn.execute("ATTACH DATABASE ? AS soak", (str(db),))
        conn.execute(
            "INSERT INTO events (source, seq, table_no, kind, game, ts, received, payload)"
            " SELECT source, seq, table_no, kind, game, ts, received, payload FROM soak.events"
            " ORDER BY source, seq"
        )
        conn.execute("INSERT INTO epochs SELECT * FROM soak.epochs")
        conn.commit()
        conn.execute("DETACH DATABASE soak")
    fresh = EventStore(fresh_path)
    fresh.rebuild()
    soak = EventStore(db)

    def key(store: EventStore) -> list[tuple[object, ...]]:
        return sorted(
            (m.source, m.seq, m.table, m.game, m.move, m.seat, m.used, m.timed_out, m.overtime)
            for m in store.moves()
        )

    ours, theirs = key(soak), key(fresh)
    replaced = sorted(r.table or 0 for r in soak.replacements())
    totals: dict[tuple[int, str], tuple[int, float, int]] = {}
    for m in soak.moves():
        n, used, out = totals.get((m.table or 0, m.seat), (0, 0.0, 0))
        totals[(m.table or 0, m.seat)] = (n + 1, used + m.used, out + int(m.timed_out))
    soak.close()
    fresh.close()
    return ours == theirs, len(ours), totals, replaced


class Soak:
    def __init__(self, args: argparse.Namespace, work: Path) -> None:
        self.args = args
        self.work = work
        self.rng = random.Random(args.seed)
        self.broker = MosquittoBroker(work / "mosquitto")
        self.broker.start()
        self.proxy = FaultProxy(self.broker.port).start()
        self.procs = Procs(work, self.broker, unit_port=self.proxy.port)
        self.db = work / "hub.db"
        self.stop_file = work / "stop"
        self.tables = list(range(1, args.tables + 1))
        self.units: dict[int, subprocess.Popen[str]] = {}
        self.hub = self.procs.hub(self.db)
        self.hub_rss: list[tuple[int, int, int]] = []
        """(pid, RSS at start in KiB, RSS at end)"""
        self.done: list[Done] = []
        self.order = self.rng.sample(FAULTS, len(FAULTS))
        self.retired: list[tuple[int, Path]] = []
        """(table, journal) of units replaced by a spare."""

    def unit(self, table: int, journal: Path | None = None) -> subprocess.Popen[str]:
        return self.procs.unit(
            table,
            events=10**9,
            journal=journal,
            pace=self.args.pace,
            keepalive=5,
            stop_file=self.stop_file,
            drain_timeout=300,
        )

    def start_units(self) -> None:
        for t in self.tables:
            self.units[t] = self.unit(t)

    def hub_up(self) -> None:
        self.hub = self.procs.hub(self.db)

    def note_hub_start(self) -> None:
        time.sleep(2.0)
        self.hub_rss.append((self.hub.pid, rss_kib(self.hub.pid), 0))

    def note_hub_end(self) -> None:
        pid, start, _ = self.hub_rss[-1]
        self.hub_rss[-1] = (pid, start, rss_kib(pid))

    def caught_up(self, marks: dict[int, int]) -> bool:
        return all(
            assigned(self.procs.journal(t)) >= seq
            and unacked_up_to(self.procs.journal(t), seq) == 0
            for t, seq in marks.items()
        )

    def one_fault(self) -> None:
        # Every kind once (in a seeded order) before drawing at random.
        kind = self.order.pop() if self.order else self.rng.choice(FAULTS)
        start = time.monotonic()
        detail = ""
        hold = self.rng.uniform(0.5, self.args.longest)
        if kind == "broker killed":
            self.broker.kill()
            time.sleep(hold)
            self.broker.restart()
            detail = f"down {hold:.1f} s"
        elif kind == "broker frozen":
            pid = self.broker.pid
            assert pid is not None
            os.kill(pid, signal.SIGSTOP)
            time.sleep(hold)
            os.kill(pid, signal.SIGCONT)
            detail = f"frozen {hold:.1f} s"
        elif kind == "hub killed":
            self.note_hub_end()
            self.hub.send_signal(signal.SIGKILL)
            self.hub.wait()
            time.sleep(hold)
            self.hub_up()
            detail = f"down {hold:.1f} s"
        elif kind == "unit killed":
            table = self.rng.choice(self.tables)
            self.units[table].send_signal(signal.SIGKILL)
            self.units[table].wait()
            time.sleep(hold)
            self.units[table] = self.unit(table)
            detail = f"table {table}, down {hold:.1f} s"
        elif kind == "journal replaced":
            table = self.rng.choice(self.tables)
            # The links down for a moment first, so the dead card holds events never sent.
            self.proxy.refuse(1.5)
            self.proxy.cut()
            time.sleep(1.0)
            self.units[table].send_signal(signal.SIGKILL)
            self.units[table].wait()
            journal = self.procs.journal(table)
            old = journal.with_name(f"{journal.stem}-old{len(self.retired)}.db")
            for suffix in ("", "-wal", "-shm"):
                if Path(f"{journal}{suffix}").exists():
                    Path(f"{journal}{suffix}").rename(f"{old}{suffix}")
            self.retired.append((table, old))
            time.sleep(hold)
            self.units[table] = self.unit(table)
            detail = f"table {table}, {journal_seqs(old)[1]} unsent on the old card"
        elif kind == "links cut":
            detail = f"{self.proxy.cut()} connections reset"
        elif kind == "reconnects refused":
            self.proxy.refuse(hold)
            detail = f"{self.proxy.cut()} connections reset, refused for {hold:.1f} s"
            time.sleep(hold)
        elif kind == "links stalled":
            self.proxy.stall(hold)
            detail = f"{hold:.1f} s"
        else:
            latency = self.rng.uniform(0.05, 0.5)
            self.proxy.slow(latency, latency / 2, hold)
            detail = f"{latency * 1000:.0f} ms ± {latency * 500:.0f} ms for {hold:.1f} s"
        # Recovered: every table's first move after the fault is at the hub, and all before it.
        marks = {t: assigned(self.procs.journal(t)) + 1 for t in self.tables}
        recovered = wait(lambda: self.caught_up(marks), self.args.recovery_timeout)
        self.done.append(Done(kind, detail, start, time.monotonic() - start if recovered else None))
        if kind == "hub killed":
            self.note_hub_start()

    def run(self) -> int:
        a = self.args
        self.start_units()
        self.note_hub_start()
        t0, n0 = time.monotonic(), stored_count(self.db)
        time.sleep(a.baseline)
        base_rate = (stored_count(self.db) - n0) / (time.monotonic() - t0)
        print(f"baseline: {len(self.tables)} tables, no faults, {base_rate:.0f} events/s stored")
        t1, n1 = time.monotonic(), stored_count(self.db)
        end = t1 + a.minutes * 60
        while time.monotonic() < end and len(self.done) < a.faults:
            self.one_fault()
            time.sleep(self.rng.uniform(*a.gap))
        faulty_rate = (stored_count(self.db) - n1) / (time.monotonic() - t1)
        self.stop_file.touch()
        finish(list(self.units.values()), timeout=600)
        # The replaced units' old cards, one at a time with their table idle.
        for table, journal in self.retired:
            finish([self.unit(table, journal)], timeout=600)
        self.note_hub_end()
        self.hub.send_signal(signal.SIGTERM)
        self.hub.wait(30)
        self.proxy.stop()
        self.broker.stop()
        return self.report(base_rate, faulty_rate)

    def report(self, base_rate: float, faulty_rate: float) -> int:
        journals = {f"table-{t:02d}": self.procs.journal(t) for t in self.tables}
        retired = [(f"table-{t:02d}", j) for t, j in self.retired]
        lost, duplicated = tally(self.db, journals, events=1, retired=retired)
        equal, moves, totals, replaced = replay_equal(self.db, self.work)
        events = stored_count(self.db)
        print(f"stored {events} events, {moves} moves from {len(self.tables)} tables")
        print(f"faulty stretch: {faulty_rate:.0f} events/s stored (baseline {base_rate:.0f})")
        print(f"lost {lost}, duplicated {duplicated}")
        print(f"derived moves equal to a fault-free replay of the stored events: {equal}")
        told = sorted(t for t, _ in self.retired)
        print(f"units replaced: tables {told}; the hub's store tells the organizer: {replaced}")
        worst = sorted(totals.items(), key=lambda kv: -kv[1][2])[:3]
        for (table, seat), (n, used, out) in worst:
            print(f"  table {table} seat {seat}: {n} moves, {used:.0f} s used, {out} timeouts")
        for pid, start, stop in self.hub_rss:
            print(
                f"hub pid {pid}: RSS {start / 1024:.1f} MiB at start, {stop / 1024:.1f} MiB at end"
            )
        print(f"{len(self.done)} faults ({self.proxy.refused} reconnects refused by the proxy):")
        for d in self.done:
            rec = "NOT recovered" if d.recovered is None else f"recovered in {d.recovered:.1f} s"
            print(f"  +{d.at - self.done[0].at:7.1f} s  {d.kind:<19} {d.detail:<44} {rec}")
        recs = sorted(d.recovered for d in self.done if d.recovered is not None)
        if recs:
            print(f"recovery: median {recs[len(recs) // 2]:.1f} s, worst {recs[-1]:.1f} s")
        bad = lost or duplicated or not equal or len(recs) != len(self.done) or told != replaced
        return 1 if bad else 0

    def close(self) -> None:
        self.proxy.stop()
        self.procs.kill_all()
        self.broker.kill()


def wait(predicate: Callable[[], bool], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return False


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=60)
    p.add_argument("--minutes", type=float, default=30.0)
    p.add_argument("--seed", type=int, default=15)
    p.add_argument("--pace", type=float, default=0.2, help="real seconds between a table's presses")
    p.add_argument("--baseline", type=float, default=15.0, help="fault-free seconds first")
    p.add_argument("--longest", type=float, default=6.0, help="longest outage, seconds")
    p.add_argument("--gap", type=float, nargs=2, default=(1.0, 5.0), help="quiet seconds between")
    p.add_argument("--faults", type=int, default=10**9, help="stop after this many faults")
    p.add_argument("--recovery-timeout", type=float, default=180.0)
    p.add_argument("--keep", action="store_true", help="keep the working folder")
    args = p.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="chaos-soak-"))
    soak = Soak(args, work)
    try:
        return soak.run()
    finally:
        soak.close()
        if args.keep:
            print(f"kept {work}")
        else:
            subprocess.run(["rm", "-rf", str(work)], check=False)


if __name__ == "__main__":
    sys.exit(main())
