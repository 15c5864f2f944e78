"""The protocol on MQTT 3.1.1: the embedded amqtt broker, hub and unit link."""

from __future__ import annotations

import queue
import time
from pathlib import Path

from retained import assignment, press_and_send, publish_retained

from hub.broker import EmbeddedBroker
from hub.service import HubService
from tablekit.config import LinkSettings
from tablekit.core.clock import ClockRules, MoveClock
from tablekit.core.codec import encode
from tablekit.core.messages import Assignment, snapshot_of
from tablekit.core.seats import Seat
from tablekit.core.topics import Topics
from tablekit.journal import Journal
from tablekit.link import TableLink


def test_round_trip_through_the_embedded_broker(tmp_path: Path, wait_until) -> None:  # type: ignore[no-untyped-def]
    broker = EmbeddedBroker()
    broker.start()
    service = HubService(broker.client_settings(), tmp_path / "hub.db", Topics("hall", "demo"))
    inbox: queue.SimpleQueue[object] = queue.SimpleQueue()
    journal = Journal(tmp_path / "unit.db", "table-02")
    settings = LinkSettings(
        host=broker.host, port=broker.port, venue="hall", event="demo", mqtt_version=3
    )
    link = TableLink(settings, journal, 2, "table-02", inbox.put)
    try:
        service.start()
        assert service.wait_online(10)
        seated = assignment(2, {Seat.A: "Ann", Seat.B: "Bob", Seat.C: "Cy"}, 1)
        publish_retained(broker.client_settings(), [(service.topics.assign(2), encode(seated))])
        link.start()
        clock = MoveClock(ClockRules(seats=3, move_seconds=30.0, lockout=0.0))
        sent = press_and_send(clock, journal, link, 40, 7.0)
        link.publish_state(snapshot_of(clock.state, 280.0, time.time(), 2, "table-02"))
        wait_until(lambda: journal.pending_count() == 0, 15, "hub acks over MQTT 3.1.1")
        assert [e.event() for e in service.store.events(source="table-02")] == sent
        wait_until(lambda: service.live.table(2).snapshot is not None, 10, "the snapshot")
        assert service.live.table(2).snapshot.move == clock.state.move  # type: ignore[union-attr]
        got: list[object] = []

        def assigned() -> bool:
            while not inbox.empty():
                got.append(inbox.get())
            return any(isinstance(m, Assignment) and m.table == 2 for m in got)

        wait_until(assigned, 10, "the retained assignment")
    finally:
        link.stop()
        service.stop()
        broker.stop()
