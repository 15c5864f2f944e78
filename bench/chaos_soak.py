"""Chaos soak: a tournament played by many table units on real Mosquitto while a seeded
script breaks things.

Run by hand (not in the suite; tests/test_chaos_soak.py runs a one-minute version):

    .venv/bin/python bench/chaos_soak.py --tables 60 --minutes 30

The soak creates a school event with ``4 × --tables`` players and many short rounds, and
an organizer (in the soak's process, on the hub's store, as ``rummikub`` would) closes
each round once every result is in and draws and starts the next. Every table is a whole
unit process (tests/table_process.py: the unit's loop, journal and hub link as on a Pi,
simulated players pressing its buttons at ``--pace`` and typing each game's result on
its keypad) connected through a fault proxy (tests/fault_proxy.py) to a private Mosquitto
on loopback; the hub service runs as its own process straight on the broker. Before the
tables start, the bare-paho baseline of bench/bench_mqtt_ingest.py is measured on the same
broker (``--bare-events`` per table, 0: skipped). After a fault-free stretch of
``--baseline`` seconds, a script seeded with ``--seed`` makes one fault at a time, every
kind once in a seeded order and then drawn at random, until ``--minutes`` or ``--faults``:

- broker ``kill -9`` then restart;  broker frozen (SIGSTOP) for a while, then SIGCONT;
- hub ``kill -9`` then restart on the same store;
- a random unit ``kill -9`` then restart from its journal;
- a random unit ``kill -9`` and replaced by a spare with a fresh journal (a new journal
  epoch); the dead unit's journal, with what it never sent, is drained at the end (as
  the deployment guide says: the old card in a working Pi once the table is idle);
- the proxy resets every connection / refuses reconnects / stalls / adds latency.

``--kinds`` limits the faults to some kinds (e.g. without "hub killed", to watch one hub
process's memory for the whole run).

A fault's recovery time runs from its start until, at every table, the hub has acked
everything the unit had journalled when the fault ended and, at a table still playing the
round, the first event it journalled after that (so it includes the outage itself); the
next fault comes a quiet gap after that. At the end the organizer stops, the players stop
and the units drain, and the soak prints: lost and duplicated events (each journal against
the hub's store); whether the moves the hub derived equal a fault-free replay of the
stored events (a fresh store fed them in seq order, per table: moves, time used and
timeouts per seat); whether the standings and every game's result equal a fault-free
replay of the same moves and results (a fresh store given the organizer's records and each
journal's events once, in the order the hub first stored them, the results judged as the
hub judges them); hub RSS at start, end and peak of each hub process, and every
``--rss-every`` seconds (each new hub starts larger by the rounds played since: the
organizer's records are held in memory, about 4 KiB a result, the moves are not; see
``bench/bench_hub_memory.py``); the event rates of the baseline and the faulty stretch beside the
bare-paho rate; and every fault with its recovery time.
Exit status 1 if anything was lost, duplicated or differs.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import msgspec

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

from bench_mqtt_ingest import bare, payloads  # noqa: E402
from fault_proxy import FaultProxy  # noqa: E402
from fault_rig import EVENT, VENUE, Procs, finish, journal_seqs, source_of, stored_count, tally  # noqa: E402

from hub.broker import MosquittoBroker  # noqa: E402
from hub.competition import CompetitionError, ResultRecorded, ResultRejected, new_event  # noqa: E402
from hub.conductor import Conductor  # noqa: E402
from hub.organizer import Organizer  # noqa: E402
from hub.store import HUB_SOURCE, EventStore  # noqa: E402
from hub.store_schema import StoreError  # noqa: E402
from hub.tournament import (  # noqa: E402
    EventPhase,
    Player,
    TournamentError,
)
from hub.tournament.presets import school  # noqa: E402
from tablekit.core.messages import EventEnvelope  # noqa: E402
from tablekit.core.rulesets import get_ruleset  # noqa: E402
from tablekit.core.topics import Topics  # noqa: E402
from tablekit.journal import JournalEntry  # noqa: E402
from tablekit.link import envelope_payload  # noqa: E402

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
ORGANIZER = "organizer (soak)"
JUDGED = frozenset(str(r.__struct_config__.tag) for r in (ResultRecorded, ResultRejected))
"""Record kinds the hub stores answering a table's submitted result."""


@dataclass
class Done:
    kind: str
    detail: str
    at: float
    recovered: float | None
    """Seconds from the fault's start until the hub acked, at every table, everything
    journalled before the fault ended and (at a table still playing) the next event."""


@dataclass
class HubRss:
    """One hub process's resident memory, KiB."""

    pid: int
    start: int
    end: int = 0
    peak: int = 0
    """The kernel's high-water mark (VmHWM) just before the process ended."""


def proc_kib(pid: int, field: str = "VmRSS") -> int:
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(f"{field}:"):
                return int(line.split()[1])
    return 0


def journal_marks(journal: Path) -> tuple[int, int] | None:
    """(last seq assigned, acked mark) of ``journal``; None while it is being made."""
    try:
        with contextlib.closing(sqlite3.connect(journal, timeout=30)) as conn:
            rows = dict(conn.execute("SELECT key, value FROM meta").fetchall())
    except sqlite3.DatabaseError:
        return None
    return int(rows.get("last_seq") or 0), int(rows.get("acked_upto") or 0)


def create_event(db: Path, tables: int, rounds: int, games: int, move_seconds: float) -> None:
    """A school event with four players at each of ``tables`` tables and ``rounds`` rounds
    of ``games`` games, every move ``move_seconds``; the first round drawn and started."""
    org = Organizer(EventStore(db), by=ORGANIZER)
    base = get_ruleset("004")
    rules = msgspec.structs.replace(
        base,
        name="soak",
        title=f"{base.title}, {move_seconds:g} s a move",
        move_seconds=move_seconds,
    )
    created = new_event(
        "Chaos soak",
        "school",
        at=time.time(),
        by=ORGANIZER,
        ruleset="soak",
        rulesets={"soak": rules},
    )
    org.record(msgspec.structs.replace(created, format=school(rounds=rounds, games=games)))
    org.register(
        [Player(org.next_player_id(i), f"Gracz {i + 1}") for i in range(4 * tables)], check_in=True
    )
    org.draw(seed=1)
    org.start_round()
    org.store.close()


class Director:
    """The organizer: closes each round once every result is in, then draws and starts the
    next (on the hub's store, as ``rummikub round close/draw/start`` would)."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.stopping = threading.Event()
        self.closed = 0
        self.errors: list[str] = []
        self.thread = threading.Thread(target=self._run, name="organizer", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(60)

    def _run(self) -> None:
        org = Organizer(EventStore(self.db), by=ORGANIZER)
        try:
            while not self.stopping.wait(0.5):
                try:
                    if not org.competition.event.can_close():
                        continue
                    org.close_round()
                    self.closed += 1
                    if org.competition.event.phase is EventPhase.FINISHED:
                        return
                    org.draw(seed=1 + len(org.competition.event.stages_played))
                    org.start_round()
                except (CompetitionError, TournamentError, StoreError, sqlite3.Error) as err:
                    org.forget()
                    self.errors.append(f"{type(err).__name__}: {err}")
        finally:
            org.store.close()


def replay_moves(
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
            " WHERE source != ? ORDER BY source, seq",
            (HUB_SOURCE,),
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


@dataclass
class JournalCopy:
    """What a table's journal holds, for the replay."""

    unit: str
    table: int
    epoch: str
    entries: dict[int, JournalEntry]


def read_journal(unit: str, table: int, path: Path) -> JournalCopy:
    """Every event ``path`` journalled (kept or set aside by the hub's refusal)."""
    with contextlib.closing(sqlite3.connect(path, timeout=30)) as conn:
        row = conn.execute("SELECT value FROM meta WHERE key='epoch'").fetchone()
        rows = conn.execute(
            "SELECT seq, ts, event FROM entries UNION ALL SELECT seq, ts, event FROM set_aside"
        ).fetchall()
    entries = {int(s): JournalEntry(int(s), float(t), bytes(e)) for s, t, e in rows}
    return JournalCopy(unit, table, "" if row is None else str(row[0]), entries)


def replay_standings(
    db: Path, journals: Sequence[tuple[int, Path]], work: Path
) -> tuple[bool, int, int, int]:
    """Play the event again into a fresh store without faults: the organizer's records and
    each journal's events once, in the order the hub first stored them (events the hub
    never stored last), the results judged as the hub judges them; then compare every
    round's results and standings and the overall standings with the hub's.

    Returns (equal, rounds compared, results compared, journal events never stored)."""
    path = work / "reference.db"
    path.unlink(missing_ok=True)
    reference = Organizer(EventStore(path), by=ORGANIZER)
    judge = Conductor(reference, Topics(VENUE, EVENT)).judge
    copies: dict[str, JournalCopy] = {}
    with contextlib.closing(sqlite3.connect(db, timeout=30)) as conn:
        for table, journal in journals:
            unit = f"table-{table:02d}"
            copies[source_of(conn, unit, journal)] = read_journal(unit, table, journal)
        stored = conn.execute(
            "SELECT source, seq, kind, table_no, game, ts, payload FROM events ORDER BY id"
        ).fetchall()
    batch: list[EventEnvelope] = []

    def envelope(copy: JournalCopy, entry: JournalEntry) -> EventEnvelope:
        raw = envelope_payload(copy.unit, copy.table, entry, copy.epoch)
        return msgspec.json.decode(raw, type=EventEnvelope)

    def flush() -> None:
        if batch:
            reference.store.ingest(batch, derive=judge)
            batch.clear()

    for source, seq, kind, table, game, ts, payload in stored:
        if source == HUB_SOURCE:
            if kind in JUDGED and json.loads(payload).get("unit"):
                continue  # the hub's answer to a table's result: the replay judges it again
            flush()
            reference.store.append_fact(kind, bytes(payload), table=table, game=game, ts=ts)
        elif source in copies and seq in copies[source].entries:
            batch.append(envelope(copies[source], copies[source].entries.pop(seq)))
    never = [envelope(c, e) for c in copies.values() for e in c.entries.values()]
    batch.extend(never)
    flush()
    hub = Organizer(EventStore(db), by=ORGANIZER)
    ours, theirs = hub.competition.event, reference.competition.event
    equal = ours.stages_played == theirs.stages_played and (
        ours.overall_standings().rows == theirs.overall_standings().rows
    )
    for stage in ours.stages_played if equal else ():
        equal = equal and ours.results(stage) == theirs.results(stage)
        equal = equal and ours.standings(stage).rows == theirs.standings(stage).rows
    results = sum(len(ours.results(stage)) for stage in ours.stages_played)
    rounds = len(ours.stages_played)
    hub.store.close()
    reference.store.close()
    return equal, rounds, results, len(never)


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
        create_event(self.db, args.tables, args.rounds, args.games, args.move_seconds)
        self.director = Director(self.db)
        self.reader = Organizer(EventStore(self.db), by=ORGANIZER)
        """The soak's own view of the event (which tables still play the round)."""
        self.hub = self.procs.hub(self.db)
        self.hub_rss: list[HubRss] = []
        self.done: list[Done] = []
        self.order = self.rng.sample(args.kinds, len(args.kinds))
        self.retired: list[tuple[int, Path]] = []
        """(table, journal) of units replaced by a spare."""
        self.t0 = time.monotonic()
        self.watching = threading.Event()
        self.watcher = threading.Thread(target=self.watch_rss, name="rss", daemon=True)

    def unit(self, table: int, journal: Path | None = None) -> subprocess.Popen[str]:
        a = self.args
        return self.procs.table(
            table,
            journal,
            pace=a.pace,
            lockout=a.lockout,
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
        self.hub_rss.append(HubRss(self.hub.pid, proc_kib(self.hub.pid)))

    def note_hub_end(self) -> None:
        rss = self.hub_rss[-1]
        rss.end, rss.peak = proc_kib(rss.pid), proc_kib(rss.pid, "VmHWM")

    def watch_rss(self) -> None:
        """Every ``--rss-every`` seconds: the hub's RSS beside the events it has stored."""
        while not self.watching.wait(self.args.rss_every):
            pid = self.hub.pid
            print(
                f"  +{time.monotonic() - self.t0:6.0f} s: hub pid {pid} RSS"
                f" {proc_kib(pid) / 1024:.1f} MiB, {stored_count(self.db)} events stored",
                flush=True,
            )

    def caught_up(self, marks: dict[int, int]) -> bool:
        """Every table's journal acked up to its mark at the fault's end, and past it at
        every table still playing the round (one that has every result in waits for the
        next round and makes no events)."""
        playing = {m.table for m in self.reader.competition.event.missing_results()}
        for t, mark in marks.items():
            now = journal_marks(self.procs.journal(t))
            if now is None:
                return False
            last, acked = now
            if acked < mark or (acked == mark and (last > mark or t in playing)):
                return False
        return True

    def one_fault(self) -> None:
        # Every kind once (in a seeded order) before drawing at random.
        kind = self.order.pop() if self.order else self.rng.choice(self.args.kinds)
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
        marks = {t: (journal_marks(self.procs.journal(t)) or (0, 0))[0] for t in self.tables}
        recovered = wait(lambda: self.caught_up(marks), self.args.recovery_timeout)
        self.done.append(Done(kind, detail, start, time.monotonic() - start if recovered else None))
        if kind == "hub killed":
            self.note_hub_start()

    def run(self) -> int:
        a = self.args
        bare_rate = 0.0
        if a.bare_events:
            bare_rate = bare(self.broker, payloads(len(self.tables), a.bare_events))
        self.start_units()
        self.director.start()
        self.note_hub_start()
        self.watcher.start()
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
        self.director.stop()
        self.stop_file.touch()
        finish(list(self.units.values()), timeout=600)
        # The replaced units' old cards, one at a time with their table idle.
        for table, journal in self.retired:
            try:
                finish([self.unit(table, journal)], timeout=600)
            except AssertionError as err:  # counted below: its events are not all at the hub
                print(f"the old card of table {table} ({journal.name}): {err}")
        self.watching.set()
        self.note_hub_end()
        self.hub.send_signal(signal.SIGTERM)
        self.hub.wait(30)
        self.proxy.stop()
        self.broker.stop()
        return self.report(bare_rate, base_rate, faulty_rate)

    def report(self, bare_rate: float, base_rate: float, faulty_rate: float) -> int:
        journals = {f"table-{t:02d}": self.procs.journal(t) for t in self.tables}
        retired = [(f"table-{t:02d}", j) for t, j in self.retired]
        # events=0: a spare put in late in a short soak may not have made an event yet.
        lost, duplicated = tally(self.db, journals, events=0, retired=retired, drained=False)
        equal, moves, totals, replaced = replay_moves(self.db, self.work)
        every = [*((t, self.procs.journal(t)) for t in self.tables), *self.retired]
        same, rounds, results, never = replay_standings(self.db, every, self.work)
        events = stored_count(self.db)
        print(f"stored {events} events, {moves} moves from {len(self.tables)} tables")
        print(
            f"organizer: {self.director.closed} rounds closed, {rounds} drawn, {results} results"
            f" recorded; {len(self.director.errors)} errors"
        )
        for err in self.director.errors[:5]:
            print(f"  {err}")
        bare_text = f", bare paho {bare_rate:.0f} msg/s" if bare_rate else ""
        print(
            f"events stored: {base_rate:.0f}/s without faults, {faulty_rate:.0f}/s in the faulty"
            f" stretch{bare_text} (same broker, same run)"
        )
        print(f"lost {lost}, duplicated {duplicated}")
        print(f"derived moves equal to a fault-free replay of the stored events: {equal}")
        print(
            "standings and results equal to a fault-free replay of the same moves and results:"
            f" {same} ({rounds} rounds, {results} results, {never} journal events never stored)"
        )
        told = sorted(t for t, _ in self.retired)
        print(f"units replaced: tables {told}; the hub's store tells the organizer: {replaced}")
        worst = sorted(totals.items(), key=lambda kv: -kv[1][2])[:3]
        for (table, seat), (n, used, out) in worst:
            print(f"  table {table} seat {seat}: {n} moves, {used:.0f} s used, {out} timeouts")
        for r in self.hub_rss:
            print(
                f"hub pid {r.pid}: RSS {r.start / 1024:.1f} MiB at start, {r.end / 1024:.1f} MiB"
                f" at end, peak {r.peak / 1024:.1f} MiB"
            )
        print(f"{len(self.done)} faults ({self.proxy.refused} reconnects refused by the proxy):")
        for d in self.done:
            rec = "NOT recovered" if d.recovered is None else f"recovered in {d.recovered:.1f} s"
            print(f"  +{d.at - self.done[0].at:7.1f} s  {d.kind:<19} {d.detail:<44} {rec}")
        recs = sorted(d.recovered for d in self.done if d.recovered is not None)
        if recs:
            print(f"recovery: median {recs[len(recs) // 2]:.1f} s, worst {recs[-1]:.1f} s")
        for kind in FAULTS:
            mine = sorted(d.recovered for d in self.done if d.kind == kind and d.recovered)
            if mine:
                print(
                    f"  {kind:<19} {len(mine):3d}×  median {mine[len(mine) // 2]:.1f} s,"
                    f" worst {mine[-1]:.1f} s"
                )
        bad = (
            lost
            or duplicated
            or not equal
            or not same
            or never
            or len(recs) != len(self.done)
            or told != replaced
            or self.director.errors
        )
        return 1 if bad else 0

    def close(self) -> None:
        self.watching.set()
        self.director.stop()
        self.reader.store.close()
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
    p.add_argument("--pace", type=float, default=0.02, help="the players' speed (1 = people's)")
    p.add_argument("--lockout", type=float, default=0.05, help="the pass button's lockout, s")
    p.add_argument("--move-seconds", type=float, default=3.0, help="the event's move time")
    p.add_argument("--rounds", type=int, default=300, help="rounds of the event")
    p.add_argument("--games", type=int, default=2, help="games a round")
    p.add_argument("--baseline", type=float, default=15.0, help="fault-free seconds first")
    p.add_argument("--longest", type=float, default=6.0, help="longest outage, seconds")
    p.add_argument("--gap", type=float, nargs=2, default=(1.0, 5.0), help="quiet seconds between")
    p.add_argument("--faults", type=int, default=10**9, help="stop after this many faults")
    p.add_argument(
        "--kinds",
        nargs="+",
        choices=FAULTS,
        default=FAULTS,
        metavar="KIND",
        help=f"the faults to make (default: every kind: {', '.join(FAULTS)})",
    )
    p.add_argument("--recovery-timeout", type=float, default=180.0)
    p.add_argument("--rss-every", type=float, default=60.0, help="print the hub's RSS, seconds")
    p.add_argument("--bare-events", type=int, default=200, help="per table, 0: no bare baseline")
    p.add_argument("--keep", action="store_true", help="keep the working folder")
    args = p.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="chaos-soak-"))
    # A SIGTERM (a run stopped by hand) ends it like Ctrl-C: every process it started goes.
    signal.signal(signal.SIGTERM, lambda _signum, _frame: sys.exit(1))
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
