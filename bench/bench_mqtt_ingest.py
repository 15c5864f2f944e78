"""Hub ingest: events/s sustained from 200 simulated units through Mosquitto into SQLite.

Each simulated unit is its own MQTT connection publishing journal-style envelopes
(QoS 1, consecutive seqs) as fast as the broker takes them; the hub validates,
commits (WAL, synchronous=FULL) and acks. Checked afterwards: every (unit, epoch, seq)
stored exactly once. Beside it, in the same run: the same publishers into a bare
paho subscriber that only counts (MQTT 5 and no Nagle, as the hub). The units publish
from a process of their own, as the tables are machines of their own: what is timed is
the subscribing process alone.

Two figures per trial: the rate (events over the wall time from the first publish to the
last event received or stored), and the rate per CPU second of the subscribing process
(all its threads, SQLite included). On a machine busy with other work the wall time
says how much of the machine the run got; the CPU seconds say what each event cost. The
bare subscriber and the hub alternate ``--trials`` times (each trial an event of its own,
so no session of an earlier one queues anything) and the medians are compared. Prints
each trial, the ratios and the load average; asserts nothing.

    .venv/bin/python bench/bench_mqtt_ingest.py [--units 200] [--events 100] [--trials 3]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path
from typing import NamedTuple

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from hub.broker import MosquittoBroker
from hub.service import HubService
from tablekit.core.clock_events import MovePassed
from tablekit.core.codec import encode
from tablekit.core.messages import envelope, unit_id_of
from tablekit.core.seats import SEATS
from tablekit.core.topics import Kind, Topics
from tablekit.journal import new_epoch
from tablekit.shared.broker import no_delay

POLL = 0.01
"""Seconds between two looks at the subscriber's count (the same for both)."""


class Measured(NamedTuple):
    events: int
    wall: float
    cpu: float

    @property
    def rate(self) -> float:
        return self.events / self.wall

    @property
    def cpu_rate(self) -> float:
        return self.events / self.cpu


def payloads(topics: Topics, units: int, events: int) -> list[list[tuple[str, bytes]]]:
    out = []
    for u in range(1, units + 1):
        unit, epoch = unit_id_of(u), new_epoch()  # a table's identity, its journal's epoch
        out.append(
            [
                (
                    topics.events(u),
                    encode(
                        envelope(
                            unit,
                            u,
                            seq,
                            time.time(),
                            MovePassed(game=1, move=seq, seat=SEATS[seq % 4], used=12.5),
                            epoch=epoch,
                        )
                    ),
                )
                for seq in range(1, events + 1)
            ]
        )
    return out


def disconnect(clients: list[mqtt.Client]) -> None:
    """All at once: a network thread stops at once after its disconnect, but only at its
    next wake-up (up to 1 s) before."""
    for c in clients:
        c.disconnect()
    for c in clients:
        c.loop_stop()


def units(host: str, port: int, event: str, count: int, events: int, pipe: Connection) -> None:
    """The tables (in a process of their own): connect, say "ready", publish everything on
    "go", say how long it took."""
    work = payloads(Topics("bench", event), count, events)
    clients = []
    for i in range(count):
        c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"bench-{event}-{i}")
        c.max_inflight_messages_set(50)
        c.on_connect = lambda client, *_: no_delay(client)
        c.connect(host, port)
        c.loop_start()
        clients.append(c)
    time.sleep(0.5)
    pipe.send("ready")
    pipe.recv()
    start = time.perf_counter()

    def run(client: mqtt.Client, items: list[tuple[str, bytes]]) -> None:
        infos = [client.publish(topic, payload, 1) for topic, payload in items]
        for info in infos:
            info.wait_for_publish(120)

    threads = [threading.Thread(target=run, args=pair) for pair in zip(clients, work, strict=True)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    pipe.send(time.perf_counter() - start)
    disconnect(clients)


def timed(broker: MosquittoBroker, event: str, args: argparse.Namespace,
          done: Callable[[], bool]) -> Measured:
    """Start the tables of ``event``, time until ``done()`` (wall and this process's CPU)."""
    ours, theirs = multiprocessing.Pipe()
    tables = multiprocessing.get_context("spawn").Process(
        target=units, args=(broker.host, broker.port, event, args.units, args.events, theirs)
    )
    tables.start()
    assert ours.poll(120) and ours.recv() == "ready", "the tables did not connect"
    wall, cpu = time.perf_counter(), time.process_time()
    ours.send("go")
    deadline = time.monotonic() + 300
    while not done() and time.monotonic() < deadline:
        time.sleep(POLL)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    published = ours.recv() if ours.poll(60) else float("nan")
    tables.join(60)
    print(f"    (the tables published everything in {published:.2f} s)", flush=True)
    return Measured(args.units * args.events, wall, cpu)


def bare(broker: MosquittoBroker, event: str, args: argparse.Namespace) -> Measured:
    count = [0]
    sub = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)

    def on_message(c: mqtt.Client, u: object, m: mqtt.MQTTMessage) -> None:
        count[0] += 1

    sub.on_message = on_message
    sub.on_connect = lambda client, *_: no_delay(client)
    sub.connect(broker.host, broker.port)
    sub.subscribe(f"{Topics('bench', event).base}/table/+/{Kind.EVENTS}", 1)
    sub.loop_start()
    total = args.units * args.events
    measured = timed(broker, event, args, lambda: count[0] >= total)
    disconnect([sub])
    print(f"  bare paho subscriber: {count[0]}/{total} received in {measured.wall:.2f} s, "
          f"{measured.cpu:.2f} s of CPU", flush=True)
    return measured


def hub_ingest(broker: MosquittoBroker, event: str, db: Path,
               args: argparse.Namespace) -> Measured:
    total = args.units * args.events
    hub = HubService(broker.client_settings(), db, Topics("bench", event))
    hub.start()
    hub.wait_online(10)
    measured = timed(broker, event, args, lambda: hub.counters().get("stored", 0) >= total)
    marks = hub.store.marks()
    complete = sum(1 for m in marks.values() if m.contiguous == args.events == m.events)
    stored = hub.store.counts().get("total", 0)
    counters = hub.counters()
    hub.stop()
    print(
        f"  hub: {stored}/{total} stored in {measured.wall:.2f} s, {measured.cpu:.2f} s of CPU;"
        f" units complete {complete}/{args.units}; lost {total - stored}, duplicates ignored "
        f"{counters.get('duplicates', 0)}, rejected {counters.get('rejected', 0)}, "
        f"acks sent {counters.get('acks_sent', 0)}",
        flush=True,
    )
    return measured._replace(events=stored)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--units", type=int, default=200)
    p.add_argument("--events", type=int, default=100)
    p.add_argument("--trials", type=int, default=3)
    args = p.parse_args()
    load_before = os.getloadavg()
    bases: list[Measured] = []
    hubs: list[Measured] = []
    with tempfile.TemporaryDirectory() as tmp:
        broker = MosquittoBroker(Path(tmp) / "broker", max_inflight_messages=1000)
        broker.start()
        try:
            for trial in range(1, args.trials + 1):
                print(f"trial {trial}:", flush=True)
                bases.append(bare(broker, f"bare{trial}", args))
                hubs.append(hub_ingest(broker, f"hub{trial}", Path(tmp) / f"{trial}.db", args))
        finally:
            broker.stop()
    load_after = os.getloadavg()
    base = statistics.median(m.rate for m in bases)
    rate = statistics.median(m.rate for m in hubs)
    base_cpu = statistics.median(m.cpu_rate for m in bases)
    rate_cpu = statistics.median(m.cpu_rate for m in hubs)
    print(f"{args.units} units × {args.events} events, median of {args.trials} trials:")
    print(f"  bare paho subscriber   {base:8,.0f} msg/s     {base_cpu:8,.0f} msg per CPU second")
    print(f"  hub into SQLite        {rate:8,.0f} events/s  {rate_cpu:8,.0f} events per CPU second")
    print(f"  ratio                  {rate / base:8.2f}           {rate_cpu / base_cpu:8.2f}")
    print(f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f} "
          f"({os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
