"""The central league service: every venue's records in, acks and the season out.

paho's thread only decodes and queues; one writer thread commits each batch to the
league store (:class:`hub.league.store.LeagueStore`), acks the MQTT message to the
broker only after its commit (``manual_ack`` on a persistent session: a central killed
before its commit gets the batch again), then publishes the event's contiguous mark
(retained, :class:`~hub.league.wire.RecordAck`, asking for a resend at a gap) and, when a
tournament changed, the season table (retained, :class:`~hub.league.wire.SeasonBoard`).
The venue is the topic's (the central broker's ACL lets only that venue's bridge write
it), never a payload's.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import Any, Final

import msgspec
import paho.mqtt.client as mqtt

from hub.league.central import Central
from hub.league.wire import (
    LEAGUE_VERSION,
    CentralTopics,
    RecordAck,
    RecordBatch,
    batch_decoder,
)
from tablekit.shared.broker import BrokerSettings, connect, disconnect, make_client, no_delay

log = logging.getLogger("hub.league")

SESSION_EXPIRY: Final = 14 * 24 * 3600
BATCH_MAX: Final = 200

Received = tuple[str, str, RecordBatch, int, int]
"""(venue, event, batch, MQTT message id, QoS)."""


class LeagueService:
    def __init__(
        self,
        broker: BrokerSettings,
        central: Central,
        *,
        changed: Callable[[], None] = lambda: None,
    ) -> None:
        """``changed`` runs on the writer thread after a batch changed a tournament (the
        static site made anew, say)."""
        self.broker = broker
        self.central = central
        self.topics = CentralTopics(central.league)
        self._changed = changed
        self.client = make_client(
            broker, f"league-{central.league}", persistent=True, manual_ack=True
        )
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self._inbox: queue.SimpleQueue[Received | None] = queue.SimpleQueue()
        self._online = threading.Event()
        self._republish = threading.Event()
        self.counts: dict[str, int] = {}
        self._writer = threading.Thread(target=self._write_loop, name="league-writer",
                                        daemon=True)

    def start(self) -> None:
        connect(self.client, self.broker, session_expiry=SESSION_EXPIRY)
        self._writer.start()
        self.client.loop_start()

    def stop(self) -> None:
        self._inbox.put(None)
        if self._writer.is_alive():
            self._writer.join(5.0)
        disconnect(self.client)

    def republish(self) -> None:
        """The season changed outside a batch (the league organizer answered a name
        question): the writer sends the table to the venues again and calls ``changed``."""
        self._republish.set()

    def wait_online(self, timeout: float) -> bool:
        return self._online.wait(timeout)

    # -- paho's thread ---------------------------------------------------------------------

    def _on_connect(
        self, client: mqtt.Client, userdata: object, flags: Any, reason: Any, props: Any
    ) -> None:
        if reason.is_failure:
            log.warning("league: broker refused the connection: %s", reason)
            return
        no_delay(client)
        client.subscribe([(self.topics.up_filter, 1)])
        self._online.set()
        self._republish.set()
        log.info("league: online at %s", self.broker.where)

    def _on_disconnect(
        self, client: mqtt.Client, userdata: object, flags: Any, reason: Any, props: Any
    ) -> None:
        self._online.clear()

    def _on_message(self, client: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        try:
            where = self.topics.parse_up(msg.topic)
            batch = None if where is None else batch_decoder.decode(msg.payload)
        except (msgspec.DecodeError, ValueError) as err:
            log.warning("league: refused a message on %s: %s", msg.topic, err)
            batch = None
        if where is None or batch is None or not batch.records:
            self._count("refused")
            if msg.qos:
                client.ack(msg.mid, msg.qos)
            return
        self._inbox.put((where[0], where[1], batch, msg.mid, msg.qos))

    # -- the writer ---------------------------------------------------------------------------

    def _write_loop(self) -> None:
        while True:
            try:
                item = self._inbox.get(timeout=1.0)
            except queue.Empty:
                item = ()  # type: ignore[assignment]
            if item is None:
                return
            batch = [item] if item else []
            while len(batch) < BATCH_MAX:
                try:
                    more = self._inbox.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    self._inbox.put(None)
                    break
                batch.append(more)
            try:
                self._commit(batch)
            except Exception:
                log.exception("league: could not store %d batches; the broker redelivers",
                              len(batch))
                time.sleep(1.0)

    def _commit(self, batch: list[Received]) -> None:
        changed: set[tuple[str, str]] = set()
        for venue, event, records, _, _ in batch:
            done = self.central.store.ingest(venue, event, records.records)
            self._count("stored", done.inserted)
            self._count("duplicates", done.duplicates)
            self._count("conflicts", done.conflicts)
            if done.inserted:
                changed.add((venue, event))
        for _, _, _, mid, qos in batch:
            if qos:
                self.client.ack(mid, qos)
        if not self._online.is_set():
            return
        republish = self._republish.is_set()
        self._republish.clear()
        acks = (
            [(m.venue, m.event) for m in self.central.store.marks()] if republish
            else sorted({(v, e) for v, e, _, _, _ in batch})
        )
        for venue, event in acks:
            mark = self.central.store.mark(venue, event)
            if mark is None:
                continue
            ack = RecordAck(LEAGUE_VERSION, mark.contiguous, mark.gap)
            self.client.publish(
                self.topics.ack(venue, event), msgspec.json.encode(ack), 1, retain=True
            )
        if changed or republish:
            board = self.central.board()
            self.client.publish(self.topics.season, msgspec.json.encode(board), 1, retain=True)
            self._changed()

    def _count(self, name: str, n: int = 1) -> None:
        self.counts[name] = self.counts.get(name, 0) + n

