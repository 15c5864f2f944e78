"""Hub ingest: events/s sustained from 200 simulated units through Mosquitto into SQLite.

Each simulated unit is its own MQTT connection publishing journal-style envelopes
(QoS 1, consecutive seqs) as fast as the broker takes them; the hub validates,
commits (WAL, synchronous=FULL) and acks. Checked afterwards: every (unit, epoch, seq)
stored exactly once. Beside it, in the same run: the same publishers into a bare
paho subscriber that only counts. Prints both rates; asserts nothing.

    .venv/bin/python bench/bench_mqtt_ingest.py [--units 200] [--events 100]
"""

from __future__ import annotations

import argparse
import tempfile
import threading
import time
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from hub.broker import MosquittoBroker
from hub.service import HubService
from tablekit.core.clock_events import MovePassed
from tablekit.core.codec import encode
from tablekit.core.messages import envelope, unit_id_of
from tablekit.core.seats import SEATS
from tablekit.core.topics import Topics
from tablekit.journal import new_epoch
from tablekit.shared.broker import no_delay

TOPICS = Topics("bench", "ingest")


def payloads(units: int, events: int) -> list[list[tuple[str, bytes]]]:
    out = []
    for u in range(1, units + 1):
        unit, epoch = unit_id_of(u), new_epoch()  # a table's identity, its journal's epoch
        out.append(
            [
                (
                    TOPICS.events(u),
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


def connect_publishers(broker: MosquittoBroker, n: int) -> list[mqtt.Client]:
    clients = []
    for i in range(n):
        c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"bench-unit-{i}")
        c.max_inflight_messages_set(50)
        c.on_connect = lambda client, *_: no_delay(client)
        c.connect(broker.host, broker.port)
        c.loop_start()
        clients.append(c)
    return clients


def publish_all(clients: list[mqtt.Client], work: list[list[tuple[str, bytes]]]) -> None:
    def run(client: mqtt.Client, items: list[tuple[str, bytes]]) -> None:
        infos = [client.publish(topic, payload, 1) for topic, payload in items]
        for info in infos:
            info.wait_for_publish(120)

    threads = [threading.Thread(target=run, args=pair) for pair in zip(clients, work, strict=True)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def bare(broker: MosquittoBroker, work: list[list[tuple[str, bytes]]]) -> float:
    total = sum(len(w) for w in work)
    count = [0]
    done = threading.Event()
    sub = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)

    def on_message(c: mqtt.Client, u: object, m: mqtt.MQTTMessage) -> None:
        count[0] += 1
        if count[0] == total:
            done.set()

    sub.on_message = on_message
    sub.connect(broker.host, broker.port)
    sub.subscribe(f"{TOPICS.base}/table/+/events", 1)
    sub.loop_start()
    clients = connect_publishers(broker, len(work))
    time.sleep(0.5)
    t0 = time.perf_counter()
    publish_all(clients, work)
    done.wait(120)
    elapsed = time.perf_counter() - t0
    for c in [*clients, sub]:
        c.loop_stop()
        c.disconnect()
    print(f"bare paho subscriber: {count[0]}/{total} received in {elapsed:.2f} s")
    return count[0] / elapsed


def hub_ingest(broker: MosquittoBroker, tmp: Path, work: list[list[tuple[str, bytes]]]) -> float:
    total = sum(len(w) for w in work)
    hub = HubService(broker.client_settings(), tmp / "hub.db", TOPICS)
    hub.start()
    hub.wait_online(10)
    clients = connect_publishers(broker, len(work))
    time.sleep(0.5)
    t0 = time.perf_counter()
    publish_all(clients, work)
    deadline = time.monotonic() + 120
    while hub.counters().get("stored", 0) < total and time.monotonic() < deadline:
        time.sleep(0.005)
    elapsed = time.perf_counter() - t0
    for c in clients:
        c.loop_stop()
        c.disconnect()
    marks = hub.store.marks()
    events = len(work[0])
    complete = sum(1 for m in marks.values() if m.contiguous == events == m.events)
    stored = hub.store.counts().get("total", 0)
    counters = hub.counters()
    hub.stop()
    print(
        f"hub: {stored}/{total} stored in {elapsed:.2f} s; units complete {complete}/{len(work)};"
        f" lost {total - stored}, duplicates ignored {counters.get('duplicates', 0)},"
        f" rejected {counters.get('rejected', 0)}"
    )
    return stored / elapsed


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--units", type=int, default=200)
    p.add_argument("--events", type=int, default=100)
    args = p.parse_args()
    work = payloads(args.units, args.events)
    with tempfile.TemporaryDirectory() as tmp:
        broker = MosquittoBroker(Path(tmp) / "broker", max_inflight_messages=1000)
        broker.start()
        try:
            base = bare(broker, work)
            rate = hub_ingest(broker, Path(tmp), work)
        finally:
            broker.stop()
    print(
        f"bare paho: {base:,.0f} msg/s   hub into SQLite: {rate:,.0f} events/s"
        f"   ratio {rate / base:.2f}"
    )


if __name__ == "__main__":
    main()
