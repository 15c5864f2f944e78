"""Helpers of the MQTT tests: retained messages published the way another client would (a
hub account, a tool), and a unit's presses journalled and handed to its link."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence

import msgspec

from tablekit.core.clock import MoveClock
from tablekit.core.clock_events import AnyClockEvent
from tablekit.core.codec import checked
from tablekit.core.messages import PROTOCOL_VERSION, AssignedRules, Assignment, SeatAssignment
from tablekit.core.seats import Seat
from tablekit.journal import Journal
from tablekit.link import TableLink
from tablekit.shared.broker import BrokerSettings, connect, disconnect, make_client


def publish_retained(
    broker: BrokerSettings, messages: Sequence[tuple[str, bytes]], timeout: float = 10.0
) -> None:
    """Connect, publish each ``(topic, payload)`` retained at QoS 1, wait for the broker's
    acknowledgements, disconnect."""
    client = make_client(broker, "")
    connect(client, broker, blocking=True)
    client.loop_start()
    try:
        infos = [client.publish(topic, payload, 1, retain=True) for topic, payload in messages]
        for info in infos:
            info.wait_for_publish(timeout)
            assert info.is_published(), f"{broker.where} did not confirm in {timeout} s"
    finally:
        disconnect(client)


def assignment(
    table: int, names: Mapping[Seat, str], game: int, *, starter: Seat | None = None
) -> Assignment:
    """A table's seating as the hub's conductor publishes it (40 s moves)."""
    seats = tuple(SeatAssignment(seat, names[seat]) for seat in sorted(names, key=str))
    return checked(Assignment(
        v=PROTOCOL_VERSION, table=table, game=game, seats=seats, starter=starter,
        rules=AssignedRules(move_seconds=40.0), issued=time.time(),
    ))


def press_and_send(
    clock: MoveClock, journal: Journal, link: TableLink, presses: int, every: float
) -> list[AnyClockEvent]:
    """``presses`` presses of the pass button ``every`` seconds apart, each journalled with
    the clock's state and the link told; the events, in order."""
    sent: list[AnyClockEvent] = []
    for i in range(presses):
        events = clock.press(i * every)
        journal.record(events, state=msgspec.json.encode(clock.state))
        sent += events
        link.notify()
    return sent
