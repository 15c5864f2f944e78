"""Press on a unit -> event committed at the hub, over loopback Mosquitto.

Beside it, in the same run: a bare paho QoS 1 publish -> subscriber callback round
trip through the same broker. Prints p50/p99 of both and their ratio; asserts nothing.

    .venv/bin/python bench/bench_mqtt_latency.py [--n 500] [--pace 0.01]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import threading
import time
from pathlib import Path

import msgspec
import paho.mqtt.client as mqtt
from measure import percentiles
from paho.mqtt.enums import CallbackAPIVersion

from hub.broker import MosquittoBroker
from hub.service import HubService
from tablekit.config import LinkSettings
from tablekit.core.clock import ClockRules, MoveClock
from tablekit.core.messages import unit_id_of
from tablekit.core.topics import Topics
from tablekit.journal import Journal
from tablekit.link import TableLink

RECORDS: list[float] = []
COMMITS: list[float] = []


def bare_paho(broker: MosquittoBroker, n: int, pace: float) -> list[float]:
    got: dict[int, float] = {}
    done = threading.Event()
    sub = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)

    def on_message(c: mqtt.Client, u: object, m: mqtt.MQTTMessage) -> None:
        got[int(m.payload)] = time.perf_counter()
        if len(got) == n:
            done.set()

    sub.on_message = on_message
    sub.connect(broker.host, broker.port)
    sub.subscribe("bench/rt", 1)
    sub.loop_start()
    pub = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
    pub.connect(broker.host, broker.port)
    pub.loop_start()
    time.sleep(0.3)
    sent: dict[int, float] = {}
    for i in range(n):
        sent[i] = time.perf_counter()
        pub.publish("bench/rt", str(i).encode(), 1)
        time.sleep(pace)
    done.wait(30)
    for c in (sub, pub):
        c.loop_stop()
        c.disconnect()
    return [(got[i] - sent[i]) * 1000 for i in sent if i in got]


def press_to_commit(broker: MosquittoBroker, tmp: Path, n: int, pace: float) -> list[float]:
    topics = Topics("bench", "latency")
    hub = HubService(broker.client_settings(), tmp / "hub.db", topics)
    committed: dict[int, float] = {}
    ingest = hub.store.ingest

    def timed_ingest(envelopes, received=None, **options):  # type: ignore[no-untyped-def]
        batch = list(envelopes)
        started = time.perf_counter()
        result = ingest(batch, received, **options)
        t = time.perf_counter()
        COMMITS.append((t - started) * 1000)
        for env in batch:
            committed.setdefault(env.seq, t)
        return result

    hub.store.ingest = timed_ingest  # type: ignore[method-assign]
    hub.start()
    hub.wait_online(10)
    journal = Journal(tmp / "unit.db", unit_id_of(1))
    settings = LinkSettings(host=broker.host, port=broker.port, venue="bench", event="latency")
    link = TableLink(settings, journal, 1, unit_id_of(1), lambda _: None)
    link.start()
    while not link.online:
        time.sleep(0.01)
    clock = MoveClock(ClockRules(seats=4, move_seconds=40.0, lockout=0.0))
    pressed: dict[int, float] = {}
    for i in range(n):
        t0 = time.perf_counter()
        events = clock.press(i * 2.0)
        seqs = journal.record(events, state=msgspec.json.encode(clock.state))
        RECORDS.append((time.perf_counter() - t0) * 1000)
        link.notify()
        for s in seqs:
            pressed[s] = t0
        time.sleep(pace)
    deadline = time.monotonic() + 30
    while len(committed) < len(pressed) and time.monotonic() < deadline:
        time.sleep(0.01)
    link.stop()
    hub.stop()
    return [(committed[s] - pressed[s]) * 1000 for s in pressed if s in committed]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--n", type=int, default=500)
    p.add_argument("--pace", type=float, default=0.01)
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        broker = MosquittoBroker(Path(tmp) / "broker")
        broker.start()
        try:
            base = bare_paho(broker, args.n, args.pace)
            full = press_to_commit(broker, Path(tmp), args.n, args.pace)
        finally:
            broker.stop()
    b50, b99 = percentiles(base)
    f50, f99 = percentiles(full)
    print(f"bare paho QoS 1 publish->receive   n={len(base)}  p50 {b50:.2f} ms  p99 {b99:.2f} ms")
    print(f"press->journal->hub commit (FULL)  n={len(full)}  p50 {f50:.2f} ms  p99 {f99:.2f} ms")
    print(f"ratio: p50 {f50 / b50:.1f}x  p99 {f99 / b99:.1f}x")
    print(
        f"  of which: unit journal commit p50 {statistics.median(RECORDS):.2f} ms,"
        f" hub store commit p50 {statistics.median(COMMITS):.2f} ms (fsync, synchronous=FULL)"
    )


if __name__ == "__main__":
    main()
