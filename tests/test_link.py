"""The unit's link: works with no broker, drains when one appears, guards its callbacks."""

from __future__ import annotations

import dataclasses
import logging
import os
import queue
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from hub.broker import MosquittoBroker, free_port
from tablekit.config import LinkSettings
from tablekit.core.clock import ClockRules, ClockState, MoveClock
from tablekit.core.codec import decode, encode
from tablekit.core.messages import Ack, EventEnvelope, TableSnapshot
from tablekit.core.topics import Topics
from tablekit.journal import Journal
from tablekit.link import TableLink, envelope_payload, guarded
from tablekit.unit import LinkStatus
from tablekit.view import TableView

pytestmark = pytest.mark.mqtt
TOPICS = Topics("hall", "link")


def record_presses(journal: Journal, n: int) -> None:
    clock = MoveClock(ClockRules(seats=4, move_seconds=40.0, lockout=0.0))
    for i in range(n):
        journal.record(clock.press(i * 3.0), state=msgspec.json.encode(clock.state))


def test_the_envelope_splices_the_journalled_event(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.db", "table-01")
    record_presses(journal, 2)
    entry = journal.pending()[1]
    env = decode(EventEnvelope, envelope_payload("table-01", 1, entry))
    assert (env.unit, env.table, env.seq, env.ts) == ("table-01", 1, 2, entry.ts)
    assert msgspec.json.encode(env.event) == entry.event


def test_guarded_callbacks_log_instead_of_raising(caplog: pytest.LogCaptureFixture) -> None:
    @guarded
    def boom() -> None:
        raise RuntimeError("kaput")

    with caplog.at_level(logging.ERROR):
        boom()
    assert "error in boom" in caplog.text and "kaput" in caplog.text


def test_no_broker_then_a_broker_the_journal_drains(  # type: ignore[no-untyped-def]
    tmp_path: Path, mosquitto: Callable[..., MosquittoBroker], wait_until
) -> None:
    port = free_port()
    inbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
    journal = Journal(tmp_path / "j.db", "table-01")
    settings = LinkSettings(host="127.0.0.1", port=port, venue="hall", event="link")
    link = TableLink(settings, journal, 1, "table-01", inbox.put)
    link.start()
    record_presses(journal, 30)
    link.notify()
    assert not link.online and journal.pending_count() == 30  # no broker: nothing lost

    broker = mosquitto(port=port)
    got: list[EventEnvelope] = []
    hub = mqtt.Client(CallbackAPIVersion.VERSION2)

    def on_message(client: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        env = decode(EventEnvelope, msg.payload)
        got.append(env)
        ack = Ack(v=1, unit="table-01", upto=env.seq, epoch=env.epoch)
        client.publish(TOPICS.ack(1), encode(ack), 1)

    hub.on_message = on_message
    hub.connect(broker.host, broker.port)
    hub.subscribe(TOPICS.events(1), 1)
    hub.loop_start()
    # The link flips `online` and the journal before it hands the unit the message, so
    # wait for the messages themselves (on a slow Pi the gap is long enough to read).
    seen: list[Any] = []

    def received(wanted: Callable[[Any], bool]) -> bool:
        while not inbox.empty():
            seen.append(inbox.get())
        return any(wanted(m) for m in seen)

    wait_until(
        lambda: received(lambda m: isinstance(m, LinkStatus) and m.online),
        15,
        "the online status after reconnecting with backoff",
    )
    wait_until(lambda: journal.pending_count() == 0, 15, "the journal draining")
    assert sorted({e.seq for e in got}) == list(range(1, 31))
    wait_until(lambda: received(lambda m: isinstance(m, Ack) and m.upto == 30), 10, "the ack")

    # An ack from another journal (seq beyond the last one assigned) is ignored.
    hub.publish(TOPICS.ack(1), encode(Ack(v=1, unit="table-01", upto=999, epoch=journal.epoch)), 1)
    record_presses_more = MoveClock(ClockRules(seats=4, lockout=0.0))
    journal.record(record_presses_more.press(0.0))
    link.notify()
    wait_until(lambda: journal.acked_upto == 31, 10, "the next event acked")
    broker.kill()
    wait_until(
        lambda: received(lambda m: isinstance(m, LinkStatus) and not m.online),
        10,
        "the offline status",
    )
    assert not link.online
    hub.loop_stop()
    link.stop()


def test_a_silent_hub_gets_a_retransmission(  # type: ignore[no-untyped-def]
    tmp_path: Path, mosquitto: Callable[..., MosquittoBroker], wait_until
) -> None:
    """Events published while nobody subscribed are sent again when no ack comes."""
    broker = mosquitto()
    journal = Journal(tmp_path / "j.db", "table-01")
    settings = LinkSettings(host=broker.host, port=broker.port, venue="hall", event="link")
    link = TableLink(settings, journal, 1, "table-01", lambda _: None, retransmit_after=0.5)
    link.start()
    wait_until(lambda: link.online, 10)
    record_presses(journal, 5)
    link.notify()
    wait_until(lambda: link.published >= 5, 10, "first publish (lost: no subscriber)")
    seqs: list[int] = []
    hub = mqtt.Client(CallbackAPIVersion.VERSION2)
    hub.connect(broker.host, broker.port)
    hub.loop_start()
    # An ack about another journal of this table (the unit this one replaced: another
    # epoch) is ignored; the next one, about this journal, is taken.
    hub.publish(TOPICS.ack(1), encode(Ack(v=1, unit="table-01", upto=5, epoch="0ther1")), 1)
    hub.publish(TOPICS.ack(1), encode(Ack(v=1, unit="table-01", upto=2, epoch=journal.epoch)), 1)
    wait_until(lambda: journal.acked_upto == 2, 10, "the ack of this journal's epoch")
    assert journal.pending_count() == 3

    def on_message(client: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        env = decode(EventEnvelope, msg.payload)
        seqs.append(env.seq)
        ack = Ack(v=1, unit="table-01", upto=max(seqs), epoch=env.epoch)
        client.publish(TOPICS.ack(1), encode(ack), 1)

    hub.on_message = on_message
    hub.subscribe(TOPICS.events(1), 1)
    wait_until(lambda: journal.pending_count() == 0, 10, "retransmitted and acked")
    assert link.retransmits >= 1 and sorted(set(seqs)) == [3, 4, 5]
    hub.loop_stop()
    link.stop()


def retained_state(broker: MosquittoBroker, table: int) -> TableSnapshot:
    got: list[bytes] = []
    reader = mqtt.Client(CallbackAPIVersion.VERSION2)
    reader.on_message = lambda client, userdata, msg: got.append(msg.payload)
    reader.connect(broker.host, broker.port)
    reader.subscribe(TOPICS.state(table), 1)
    deadline = time.monotonic() + 3
    while not got and time.monotonic() < deadline:
        reader.loop(0.05)
    reader.disconnect()
    assert got, "no retained state"
    return decode(TableSnapshot, got[-1])


def test_after_a_stall_the_broker_keeps_the_latest_table_state(  # type: ignore[no-untyped-def]
    tmp_path: Path, mosquitto, wait_until
) -> None:
    broker = mosquitto(persistence=False)
    settings = LinkSettings(host=broker.host, port=broker.port, venue="hall", event="link")
    link = TableLink(
        settings, Journal(tmp_path / "j.db", "table-01"), 1, "table-01", lambda _: None,
        reconnect_delay=(1, 1),
    )
    link.start()
    wait_until(lambda: link.online, 10)

    def state(game: int) -> TableView:
        return TableView(clock=ClockState(rules=ClockRules(), game=game), table=1)

    link.publish_state(state(1), 0.0)
    time.sleep(0.3)
    os.kill(broker.pid, signal.SIGSTOP)  # the Wi-Fi stalls: nothing is acked …
    link.publish_state(state(2), 0.0)  # … so paho keeps this one to send again
    time.sleep(0.3)
    broker.kill()  # the connection breaks
    wait_until(lambda: not link.online, 10, "offline")
    link.publish_state(state(3), 0.0)  # the table moves on while offline
    broker.restart()
    wait_until(lambda: link.online, 15, "reconnected")
    wait_until(lambda: retained_state(broker, 1).game == 3, 10, "the latest state retained")
    link.stop()


def test_units_of_two_venues_on_one_broker_have_distinct_client_ids(tmp_path: Path) -> None:
    """A unit belongs to its venue: its client id is the venue's table, whatever event it
    follows, and another venue's table 1 has another."""

    def client_id(venue: str, event: str) -> bytes:
        settings = LinkSettings(host="127.0.0.1", venue=venue)
        journal = Journal(tmp_path / f"{venue}-{event}.db", "table-01")
        link = TableLink(settings, journal, 1, "table-01", lambda _: None, event=event)
        return bytes(link.client._client_id)

    assert client_id("hall", "cup") == b"unit-hall-table-01" == client_id("hall", "league-1")
    assert client_id("gym", "cup") == b"unit-gym-table-01"


def test_a_table_changing_fast_sends_each_state_once(  # type: ignore[no-untyped-def]
    tmp_path: Path, mosquitto, wait_until
) -> None:
    """One snapshot per clock change, however fast the table changes (acks of older ones
    send no extra copies), and none for what changes on the display only (keys typed)."""
    broker = mosquitto()
    settings = LinkSettings(host=broker.host, port=broker.port, venue="hall", event="link")
    link = TableLink(
        settings, Journal(tmp_path / "j.db", "table-01"), 1, "table-01", lambda _: None
    )
    seen: list[TableSnapshot] = []
    watcher = mqtt.Client(CallbackAPIVersion.VERSION2)
    watcher.on_message = lambda client, userdata, msg: seen.append(
        decode(TableSnapshot, msg.payload)
    )
    watcher.connect(broker.host, broker.port)
    watcher.subscribe(TOPICS.state(1), 1)
    watcher.loop_start()
    link.start()
    wait_until(lambda: link.online, 10)
    for game in range(1, 301):
        view = TableView(clock=ClockState(rules=ClockRules(), game=game), table=1)
        link.publish_state(view, 0.0)
        for typed in range(3):  # the display changes, the clock does not
            link.publish_state(dataclasses.replace(view, message=f"typed {typed}"), 0.0)
    wait_until(lambda: seen and seen[-1].game == 300, 15, "the last state")
    time.sleep(0.5)  # anything sent late would have arrived
    watcher.loop_stop()
    link.stop()
    assert len(seen) <= 300 + 2, len(seen)  # (a retransmission or two at most)
    assert [s.game for s in seen][:5] == [1, 2, 3, 4, 5]
