"""Presses on simulated units reach the hub's store in order with their durations."""

from __future__ import annotations

import queue
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from retained import assignment, publish_retained

from hub.broker import MosquittoBroker
from hub.organizer import Organizer
from hub.service import HubService
from hub.store import EventStore
from hub.tournament import Player
from tablekit.config import LinkSettings
from tablekit.core.clock import ClockRules, MoveClock
from tablekit.core.clock_events import AnyClockEvent, MovePassed, PauseReason
from tablekit.core.codec import encode
from tablekit.core.messages import (
    Ack,
    Assignment,
    Broadcast,
    BroadcastKind,
    HubStatus,
    Refusal,
    snapshot_of,
)
from tablekit.core.seats import Seat
from tablekit.core.topics import Topics
from tablekit.journal import Journal
from tablekit.link import TableLink
from tablekit.unit import LinkStatus, TableUnit, Unassigned

pytestmark = pytest.mark.mqtt

VENUE, EVENT = "hall", "test"


class SimUnit:
    """What the unit loop does, in-process: clock → journal → link.notify."""

    def __init__(self, tmp: Path, broker: MosquittoBroker, table: int, **link_options: Any) -> None:
        self.table = table
        self.unit_id = f"table-{table:02d}"
        self.inbox: queue.SimpleQueue[object] = queue.SimpleQueue()
        self.clock = MoveClock(ClockRules(seats=4, move_seconds=40.0, lockout=0.0))
        self.journal = Journal(tmp / f"{self.unit_id}.db", self.unit_id)
        settings = LinkSettings(host=broker.host, port=broker.port, venue=VENUE, event=EVENT)
        self.link = TableLink(
            settings, self.journal, table, self.unit_id, self.inbox.put, **link_options
        )
        self.sent: list[AnyClockEvent] = []
        self.got: list[object] = []

    def apply(self, events: list[AnyClockEvent], now: float) -> None:
        if events:
            self.journal.record(events, state=msgspec.json.encode(self.clock.state))
            self.sent += events
            self.link.notify()
            self.link.publish_state(
                snapshot_of(self.clock.state, now, time.time(), self.table, self.unit_id)
            )

    def has(self, kind: type) -> bool:
        """Whether the link has handed the unit a ``kind`` message yet (kept in ``got``)."""
        self.got.extend(self.received())
        return any(isinstance(m, kind) for m in self.got)

    def received(self) -> list[object]:
        items = []
        while True:
            try:
                items.append(self.inbox.get_nowait())
            except queue.Empty:
                return items


@pytest.fixture
def hub(tmp_path: Path, mosquitto: Callable[..., MosquittoBroker]):  # type: ignore[no-untyped-def]
    broker = mosquitto()
    service = HubService(broker.client_settings(), tmp_path / "hub.db", Topics(VENUE, EVENT))
    service.start()
    assert service.wait_online(10)
    yield broker, service
    service.stop()


def test_presses_on_four_units_arrive_in_order_with_durations(
    tmp_path: Path, hub, wait_until
) -> None:  # type: ignore[no-untyped-def]
    broker, service = hub
    units = [SimUnit(tmp_path, broker, table) for table in (1, 2, 3, 4)]
    for unit in units:
        unit.link.start()
    wait_until(lambda: all(u.link.online for u in units), what="units online")
    now = 0.0
    for step in range(60):
        for i, unit in enumerate(units):
            unit.apply(unit.clock.press(now + i + (step % 7) * 1.5), now)
        now += 12.0
    units[2].apply(units[2].clock.pause(now, PauseReason.PLAYER_CALL), now)
    total = sum(len(u.sent) for u in units)
    wait_until(lambda: service.store.counts().get("total") == total, 20, "all events stored")
    wait_until(lambda: all(u.journal.pending_count() == 0 for u in units), 10, "journals acked")
    for unit in units:
        stored = service.store.events(table=unit.table)
        assert [e.seq for e in stored] == list(range(1, len(unit.sent) + 1))
        assert [e.event() for e in stored] == unit.sent
        expected = [(str(e.seat), e.used) for e in unit.sent if isinstance(e, MovePassed)]
        assert [(m.seat, m.used) for m in service.store.moves(table=unit.table)] == expected
        assert expected[0] == ("A", 13.5)  # started at t, passed at t + 12 + 1.5
        assert service.store.mark(unit.unit_id).contiguous == len(unit.sent)  # type: ignore[union-attr]
        # The link updates the journal before it hands the unit the ack: wait for the ack.
        wait_until(lambda u=unit: u.has(Ack), 10, "an ack handed to the unit")
    counters = service.counters()
    assert counters["stored"] == total and counters.get("rejected", 0) == 0
    live = service.live
    wait_until(lambda: service.live.table(3).judge_called, 5, "judge call on the live view")
    assert set(live.tables) == {1, 2, 3, 4} and live.table(1).online is True
    assert service.store.integrity_check() == "ok"
    for unit in units:
        unit.link.stop()


def test_assignment_and_broadcast_reach_the_units(tmp_path: Path, hub, wait_until) -> None:  # type: ignore[no-untyped-def]
    broker, service = hub
    unit = SimUnit(tmp_path, broker, 5)
    seated = assignment(5, {Seat.A: "Ann", Seat.B: "Bob", Seat.C: "Cy"}, 2, starter=Seat.C)
    publish_retained(broker.client_settings(), [(service.topics.assign(5), encode(seated))])
    unit.link.start()
    got: list[object] = []

    def has(kind: type) -> bool:
        got.extend(unit.received())
        return any(isinstance(m, kind) for m in got)

    wait_until(lambda: has(Assignment), what="the retained assignment")
    sent = Broadcast(v=1, id=1, kind=BroadcastKind.LAST_LAP, round=3, ts=time.time())
    publish_retained(broker.client_settings(), [(service.topics.broadcast, encode(sent))])
    wait_until(lambda: has(Broadcast), what="the broadcast")
    received = next(m for m in got if isinstance(m, Assignment))
    assert received.names() == {Seat.A: "Ann", Seat.B: "Bob", Seat.C: "Cy"}
    assert (received.game, received.starter) == (2, Seat.C)
    assert next(m for m in got if isinstance(m, Broadcast)) == sent
    assert any(isinstance(m, HubStatus) and m.online for m in got)
    assert isinstance(got[0], LinkStatus) and got[0].online
    unit.link.stop()
    wait_until(lambda: service.live.table(5).online is False, what="clean offline status")


def test_bare_paho_can_read_what_the_hub_publishes(tmp_path: Path, hub, wait_until) -> None:  # type: ignore[no-untyped-def]
    """A third-party dashboard needs nothing but an MQTT client and the documented topics."""
    broker, _ = hub
    seen: dict[str, bytes] = {}
    client = mqtt.Client(CallbackAPIVersion.VERSION2)
    client.on_message = lambda c, u, m: seen.__setitem__(m.topic, m.payload)
    client.connect(broker.host, broker.port)
    client.subscribe(f"rummikub/v1/{VENUE}/{EVENT}/#", 1)
    client.loop_start()
    wait_until(lambda: f"rummikub/v1/{VENUE}/{EVENT}/hub/status" in seen)
    assert seen[f"rummikub/v1/{VENUE}/{EVENT}/hub/status"].startswith(b'{"v":1,"online":true')
    client.loop_stop()
    client.disconnect()


def test_a_refused_event_is_set_aside_and_the_unit_delivers_everything_after_it(
    tmp_path: Path, hub, wait_until
) -> None:  # type: ignore[no-untyped-def]
    """One event the hub cannot take (a move of 100,000 s) does not wedge the unit: the hub
    answers with a Refusal, the unit sets it aside for the judge (and shows it), the queue
    moves on, and the organizer sees the event with its reason."""
    broker, service = hub
    unit = SimUnit(tmp_path, broker, 6)
    unit.link.start()
    wait_until(lambda: unit.link.online, what="the unit online")
    unit.apply(unit.clock.press(0.0), 0.0)
    bad = MovePassed(game=1, move=1, seat=Seat.A, used=100_000.0)
    unit.journal.record([bad])
    refused_seq = unit.journal.last_seq
    for i in range(1, 30):
        unit.apply(unit.clock.press(i * 3.0), i * 3.0)
    wait_until(lambda: unit.journal.pending_count() == 0, 20, "the queue drained past it")
    [aside] = unit.journal.set_aside_entries()
    assert aside.seq == refused_seq and aside.code == "range"
    # the reason names the limit, the value and the field (the event's own limits)
    reason = "Expected `float` <= 86400.0, got 100000.0 - at `$.event.used`"
    assert aside.reason.endswith(reason) and msgspec.json.decode(aside.event)["used"] == 100_000.0
    stored = service.store.events(source="table-06")
    assert [e.seq for e in stored] == [s for s in range(1, unit.journal.last_seq + 1)
                                       if s != refused_seq]
    assert [e.event() for e in stored] == unit.sent
    assert service.store.mark("table-06").contiguous == unit.journal.last_seq  # type: ignore[union-attr]
    [held] = service.store.set_aside()
    assert (held.source, held.seq, held.code) == ("table-06", refused_seq, "range")
    assert held.stored is None and b"100000" in held.payload and held.reason == aside.reason
    got = unit.received()
    refusals = [m for m in got if isinstance(m, Refusal)]
    assert [r.seq for r in refusals] == [refused_seq]
    assert any(isinstance(m, Ack) and refused_seq in m.refused for m in got)
    # The judge sees it on the unit's display: the unit loop shows the refusal.
    table = TableUnit(MoveClock(ClockRules()), table=6)
    table.handle(refusals[0])
    assert f"refused event #{refused_seq}" in table.view.message
    assert "kept for the judge" in table.view.message
    assert service.counters().get("resend_requests", 0) == 0
    unit.link.stop()


def test_an_undone_draw_reaches_the_units_and_the_broker(tmp_path: Path, hub, wait_until) -> None:  # type: ignore[no-untyped-def]
    """The organizer undoes a draw in another process (the CLI): the running hub clears
    the tables' retained assignments and the screens' boards."""
    broker, _service = hub
    org = Organizer(EventStore(tmp_path / "hub.db"), by="Ola")
    org.create_event("Konkurs", "school")
    org.register([Player(org.next_player_id(i), f"Gracz {i}") for i in range(8)], check_in=True)
    org.draw(seed=3)
    unit = SimUnit(tmp_path, broker, 1)
    unit.link.start()
    wait_until(lambda: unit.has(Assignment), what="the round's assignment")
    assignment = next(m for m in unit.got if isinstance(m, Assignment))
    assert (assignment.round, len(assignment.seats)) == (1, 4)

    org.undo_draw("two players were not checked in")
    wait_until(lambda: unit.has(Unassigned), what="the assignment taken back")

    retained: dict[str, bytes] = {}
    client = mqtt.Client(CallbackAPIVersion.VERSION2)
    client.on_message = lambda c, u, m: retained.__setitem__(m.topic, m.payload)
    client.connect(broker.host, broker.port)
    base = f"rummikub/v1/{VENUE}/{EVENT}"
    client.loop_start()
    # The broker sends a subscription's retained messages before it forwards anything
    # published on the same connection after it: the probe comes last.
    client.subscribe([(f"{base}/hub/#", 1), ("probe/undo", 1)])
    client.publish("probe/undo", b"done", qos=1)
    wait_until(lambda: "probe/undo" in retained, what="every retained message, then the probe")
    assert f"{base}/hub/status" in retained
    client.loop_stop()
    client.disconnect()
    for topic in ("table/1/assign", "table/2/assign", "round", "seating", "standings"):
        assert f"{base}/hub/{topic}" not in retained, topic  # nothing left on the broker
    unit.link.stop()
