"""The hub service: ingest the tables' events durably, ack them, keep the live view.

Threads: paho's network thread decodes every message (bad ones are counted,
logged and acknowledged to the broker at once, so they never block good
traffic); valid events go to one writer thread, which commits them in batches
(:meth:`hub.store.EventStore.ingest`), then acks each MQTT message to the broker
(``manual_ack``: a hub killed before its commit gets the messages again from its
persistent session) and publishes one :class:`~tablekit.core.messages.Ack` per unit
with its highest contiguous seq, asking for a resend when it sees a gap. The same thread
publishes what the tables and screens must be told (:class:`~hub.conductor.Conductor`)
after each batch, as soon as another program (the organizer's command line or web
console) has changed the store, and once a second.

The hub serves one event of its venue and announces it (retained, on the venue's
``hub/event``): the venue's table units follow it. At a venue the broker names the hub's
session after its account, so a hub started for a new event resumes the session of the
one before; it drops that event's subscriptions when it reads the announcement it
replaces.

The command that runs it, ``rummikub-hub serve``, is :mod:`hub.serve`.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

from hub.backup import DEFAULT_INTERVAL, StoreBackup
from hub.conductor import Conductor
from hub.live import LiveView
from hub.organizer import Organizer
from hub.store import MAX_SET_ASIDE, MAX_SET_ASIDE_TABLE, EventStore
from hub.store_rows import IngestResult, Refused
from hub.uplink import Uplink, UplinkSettings
from tablekit.core.codec import DecodeError, check_identity, decode, encode, peek_envelope
from tablekit.core.messages import (
    PROTOCOL_VERSION,
    Ack,
    CurrentEvent,
    EventEnvelope,
    HubStatus,
    Refusal,
    RefusalCode,
    StatusReason,
    TableSnapshot,
    UnitStatus,
    unit_id_of,
)
from tablekit.core.topics import (
    MESSAGE_OF_KIND,
    NOT_FOR_THE_HUB,
    NOT_PROVISIONED,
    Kind,
    TopicRef,
    Topics,
)
from tablekit.shared.broker import (
    BrokerSettings,
    Will,
    connect,
    disconnect,
    make_client,
    no_delay,
)

log = logging.getLogger("hub.service")

SESSION_EXPIRY = 7 * 24 * 3600
"""Seconds the broker keeps the hub's session (and queues its messages) while it is away."""
BATCH_MAX = 500
RESEND_INTERVAL = 1.0
"""Seconds between two resend requests to the same unit for the same gap."""
TICK_INTERVAL = 1.0
"""Seconds between the writer's looks at the event with nothing new (the round's clock)."""
WATCH_INTERVAL = 0.05
"""Seconds between the writer's looks at whether another program (the organizer's command
line or web console) has changed the store: SQLite's ``data_version``, one cheap query."""
Received = tuple[EventEnvelope, int, int]
"""An event as it arrived: the envelope, its MQTT message id and QoS (for the broker ack)."""
_ANSWERED = frozenset(code.value for code in RefusalCode)
"""Decode errors of an event that the unit is told about (the event is set aside)."""


class _Tick:
    """Wakes the writer to publish without a new event."""


_TICK = _Tick()
_IDLE = _Tick()
"""Nothing arrived: the writer publishes only if the store changed or the clock is due."""
WRITER_STALL = 10.0
"""Seconds without a turn of the writer's loop after which the watchdog is not fed."""
BAD_LOG_BURST = 20
"""Bad-message log lines per 10 s; the rest are only counted."""
MAX_KEPT_TOPICS = 4096
"""Topics whose parse is remembered (a hall has a few per table); beyond, parsed again."""


class HubService:
    def __init__(
        self,
        broker: BrokerSettings,
        db: str | Path,
        topics: Topics,
        *,
        session_expiry: int = SESSION_EXPIRY,
        tables: int | None = None,
        backup: Path | None = None,
        backup_interval: float = DEFAULT_INTERVAL,
        console_url: str = "",
        league: UplinkSettings | None = None,
    ) -> None:
        """``broker``: where and how to log in (:mod:`tablekit.shared.broker`); the
        client id is ``hub-{venue}-{event}`` unless it names one. BrokerSettingsError
        when its password or TLS files cannot be used.

        ``tables``: the event's tables are 1…tables (the broker accounts provisioned);
        messages of other tables are refused and only logged. None: tables 1-999.

        ``backup``: keep a copy of the store there (:class:`hub.backup.StoreBackup`),
        at most every ``backup_interval`` seconds and once more on stop.

        ``console_url``: the web console's public address, retained for the QR codes of
        the hub screen and the tables' displays (:class:`~hub.conductor.Conductor`).

        ``league``: the venue's events go up to the central league service
        (:class:`hub.uplink.Uplink`, this event's and every one a hub of the venue sent
        before) through the venue broker's bridge; None: no league."""
        self.broker = broker
        self.tables = tables
        self.topics = topics
        self._closed = False
        self.client = make_client(
            broker,
            f"hub-{topics.venue}-{topics.event}",
            persistent=True,
            manual_ack=True,
            will=Will(topics.hub_status, encode(self._hub_status(False, StatusReason.LOST))),
        )
        self.store = EventStore(db)
        self.backup = (
            None if backup is None
            else StoreBackup(Path(db), backup, interval=backup_interval)
        )
        self.organizer = Organizer(self.store, by="hub")
        self.conductor = Conductor(self.organizer, topics, console_url=console_url)
        self._closed = self.conductor.event_closed()
        """What the hub's status says: the event is closed (units may drop acked events)."""
        self._republish = threading.Event()
        self._republish.set()
        self.heartbeat = time.monotonic()
        """When the writer last went round its loop (the watchdog checks it is alive)."""
        self._counts: Counter[str] = Counter()
        self._count_lock = threading.Lock()
        self._live = LiveView()
        self._live_lock = threading.Lock()
        self._inbox: queue.SimpleQueue[Received | Refused | _Tick | None] = queue.SimpleQueue()
        self._online = threading.Event()
        self._stopping = threading.Event()
        self._resent: dict[str, tuple[int, float]] = {}
        self._topic_refs: dict[str, TopicRef] = {}
        self._bad_window = (0.0, 0)
        self._session_expiry = session_expiry
        self.uplink = (
            None if league is None
            else Uplink(league.registry_for(Path(db)), topics.venue, topics.event, db,
                        self._publish_up, bridge=league.bridge)
        )
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self._writer = threading.Thread(target=self._write_loop, name="hub-writer", daemon=True)

    # -- lifecycle ----------------------------------------------------------------------------

    def start(self) -> None:
        connect(self.client, self.broker, session_expiry=self._session_expiry)
        self._writer.start()
        self.client.loop_start()
        if self.backup is not None:
            self.backup.start()
        if self.uplink is not None:
            self.uplink.start()

    def stop(self, timeout: float = 3.0) -> None:
        self._stopping.set()
        self._inbox.put(None)
        if self._writer.is_alive():
            self._writer.join(timeout)
        if self._online.is_set():
            info = self.client.publish(
                self.topics.hub_status,
                encode(self._hub_status(False, StatusReason.SHUTDOWN)),
                1,
                retain=True,
            )
            deadline = time.monotonic() + timeout
            while not info.is_published() and time.monotonic() < deadline:
                time.sleep(0.01)
        if self.uplink is not None:
            self.uplink.stop()
        disconnect(self.client)
        if self.backup is not None:
            self.backup.stop()
        self.store.close()

    def wait_online(self, timeout: float) -> bool:
        return self._online.wait(timeout)

    @property
    def online(self) -> bool:
        return self._online.is_set()

    # -- what others read -----------------------------------------------------------------------

    def counters(self) -> dict[str, int]:
        """received, stored, duplicates, conflicts, rejected, rejected_<code>, acks_sent, …"""
        with self._count_lock:
            return dict(self._counts)

    @property
    def live(self) -> LiveView:
        with self._live_lock:
            return self._live

    # -- paho callbacks (network thread) ------------------------------------------------------

    def _on_connect(
        self, client: mqtt.Client, userdata: object, flags: Any, reason: Any, props: Any
    ) -> None:
        try:
            if reason.is_failure:
                log.warning("hub: broker refused the connection: %s", reason)
                return
            no_delay(client)
            league = [] if self.uplink is None else self.uplink.filters()
            client.subscribe([(f, 1) for f in [*self.topics.hub_filters(), *league]])
            if self.uplink is not None:
                self.uplink.connected(True)
            client.publish(
                self.topics.hub_status,
                encode(self._hub_status(True, StatusReason.CONNECTED)),
                1,
                retain=True,
            )
            announced = CurrentEvent(v=PROTOCOL_VERSION, event=self.topics.event, ts=time.time())
            client.publish(self.topics.current_event, encode(announced), 1, retain=True)
            self._online.set()
            self._republish.set()  # the writer re-sends every retained message
            self._inbox.put(_TICK)
            log.info(
                "hub: online at %s (session present: %s)",
                self.broker.where,
                getattr(flags, "session_present", "?"),
            )
        except Exception:
            self._count("callback_errors")
            log.exception("hub: error in on_connect")

    def _on_disconnect(
        self, client: mqtt.Client, userdata: object, flags: Any, reason: Any, props: Any
    ) -> None:
        self._online.clear()
        if self.uplink is not None:
            self.uplink.connected(False)
        if not self._stopping.is_set():
            log.warning("hub: lost the broker (%s); reconnecting", reason)

    def _on_message(self, client: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        handed_over = False
        try:
            self._count("received")
            topic = msg.topic  # decoded from bytes at every read
            if self.uplink is not None and self.uplink.handles(topic):
                self.uplink.on_message(topic, bytes(msg.payload))
                return
            if topic not in self._topic_refs and self.topics.of_another_event(topic):
                # The session of the venue's hub before this one (the broker names it after
                # the hub's account) was subscribed to its event: not this event's business.
                self._count("another_event")
                return
            ref: TopicRef | None = None
            try:
                ref = self._parse(topic)
                if ref.kind is Kind.CURRENT_EVENT:
                    self._on_current_event(msg.payload)
                    return
                if ref.table is not None and self.tables is not None and ref.table > self.tables:
                    raise DecodeError(
                        NOT_PROVISIONED, code="unprovisioned", table=ref.table, tables=self.tables
                    )
                message = decode(MESSAGE_OF_KIND[ref.kind], msg.payload)
                if ref.table is not None:
                    check_identity(message, ref.table)
            except DecodeError as err:
                self._reject(topic, err, ref, msg.payload)
                return
            now = time.time()
            if isinstance(message, EventEnvelope):
                self._inbox.put((message, msg.mid, msg.qos))
                handed_over = True
            elif isinstance(message, TableSnapshot):
                self._count("snapshots")
                with self._live_lock:
                    self._live = self._live.with_snapshot(message, now, retained=msg.retain)
            elif isinstance(message, UnitStatus):
                self._count("statuses")
                with self._live_lock:
                    self._live = self._live.with_status(message, now)
            else:
                self._reject(topic, DecodeError(NOT_FOR_THE_HUB, code="topic", kind=ref.kind))
        except Exception:
            self._count("callback_errors")
            log.exception("hub: error handling a message on %s", msg.topic)
        finally:
            if not handed_over:
                self._ack_broker(msg.mid, msg.qos)

    def _on_current_event(self, payload: bytes | bytearray) -> None:
        """The venue's announcement: this hub's own, or the event served before it, whose
        subscriptions a session resumed from that hub still holds (they are dropped)."""
        if not payload:
            return
        try:
            announced = decode(CurrentEvent, payload)
            before = Topics(self.topics.venue, announced.event)
        except (DecodeError, ValueError) as err:
            log.warning("hub: ignored the venue's current event: %s", err)
            return
        if before != self.topics:
            log.info("hub: serving %s (the venue's hub served %s before)", self.topics.event,
                     before.event)
            self.client.unsubscribe(before.table_filters())

    def _parse(self, topic: str) -> TopicRef:
        """The kind and table of ``topic``, remembered: the same few topics per table come
        again with every message, and parsing one costs as much as decoding its payload
        (a topic remembered is this event's, not another's)."""
        ref = self._topic_refs.get(topic)
        if ref is None:
            ref = self.topics.parse(topic)
            if len(self._topic_refs) >= MAX_KEPT_TOPICS:
                self._topic_refs.clear()
            self._topic_refs[topic] = ref
        return ref

    # -- the writer thread ----------------------------------------------------------------------

    def _write_loop(self) -> None:
        """The single owner of the store's writes and of what the hub publishes: it
        publishes what changed after each batch it stores, as soon as another program
        changed the store (:data:`WATCH_INTERVAL`), and every :data:`TICK_INTERVAL`."""
        seen = self.store.version()
        due = time.monotonic() + TICK_INTERVAL
        while True:
            try:
                item = self._inbox.get(timeout=WATCH_INTERVAL)
            except queue.Empty:
                item = _IDLE
            self.heartbeat = time.monotonic()
            if item is None:
                return
            publish = item is _TICK
            batch: list[Received | Refused] = [] if isinstance(item, _Tick) else [item]
            while len(batch) < BATCH_MAX:
                try:
                    more = self._inbox.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    self._inbox.put(None)
                    break
                if isinstance(more, _Tick):
                    publish = publish or more is _TICK
                else:
                    batch.append(more)
            try:
                version = self.store.version()
                elsewhere = version != seen
                if batch:
                    self._commit(batch)
                if (batch or elsewhere) and self.uplink is not None:
                    self.uplink.notify()
                if publish or batch or elsewhere or self.heartbeat >= due:
                    seen, due = version, self.heartbeat + TICK_INTERVAL
                    self._conduct()
            except Exception:
                self._count("store_errors")
                self.organizer.forget()
                log.exception(
                    "hub: could not store %d events; the broker will redeliver", len(batch)
                )
                if self._stopping.wait(1.0):
                    return

    def _conduct(self) -> None:
        """Publish what the tables and screens must be told and has changed."""
        if not self._online.is_set():
            return
        if self._republish.is_set():
            self._republish.clear()
            self.conductor.reset()
        for out in self.conductor.messages():
            if out.clear_first:
                self.client.publish(out.topic, b"", 1, retain=True)
            self.client.publish(out.topic, out.payload, 1, retain=out.retain)
            self._count("conducted")
        closed = self.conductor.event_closed()
        if closed != self._closed:
            self._closed = closed
            log.info("hub: the event is %s", "closed" if closed else "open again")
            self.client.publish(
                self.topics.hub_status,
                encode(self._hub_status(True, StatusReason.CONNECTED)),
                1,
                retain=True,
            )

    def _commit(self, batch: Sequence[Received | Refused]) -> None:
        received = [item for item in batch if not isinstance(item, Refused)]
        envelopes = [env for env, _, _ in received]
        refused = [item for item in batch if isinstance(item, Refused)]
        now = time.time()
        result = self.store.ingest(
            envelopes, received=now, derive=self.conductor.judge, refused=refused
        )
        for _, mid, qos in received:
            self._ack_broker(mid, qos)
        self._count_result(result)
        with self._live_lock:
            live = self._live
            for table in {env.table for env in envelopes}:
                live = live.heard(table, now)
            self._live = live
        for item in result.answered:
            assert item.unit is not None and item.seq is not None and item.table is not None
            refusal = Refusal(
                v=PROTOCOL_VERSION,
                unit=item.unit,
                seq=item.seq,
                code=RefusalCode(item.code),
                reason=_text(item.reason),
                epoch=item.epoch,
            )
            self.client.publish(self.topics.refused(item.table), encode(refusal), 1)
            self._count("refusals_sent")
        for swap in result.replaced:
            log.warning(
                "hub: table %s's unit %s started a new journal (epoch %s): replaced or wiped; "
                "its events are kept as %s beside the earlier ones",
                swap.table, swap.unit, swap.epoch, swap.source,
            )
            self._count("replaced_units")
        for source, mark in result.marks.items():
            if mark.table is None:
                continue
            resend = None
            if mark.gap is not None and self._should_request(source, mark.gap, now):
                resend = mark.gap
                self._count("resend_requests")
                log.info("hub: unit %s is missing seq %d; asking for a resend", source, mark.gap)
            held = result.held.get(source, [])
            ack = Ack(
                v=PROTOCOL_VERSION,
                unit=mark.unit,
                upto=mark.contiguous,
                resend_from=resend,
                refused=tuple(held),
                epoch=mark.epoch,
            )
            self.client.publish(self.topics.ack(mark.table), encode(ack), 1)
            self._count("acks_sent")

    def _publish_up(self, topic: str, payload: bytes) -> None:
        """The uplink's batches: QoS 1 on the hub's own client (queued by paho while the
        broker is away; the uplink sends again from the central's mark anyway)."""
        self.client.publish(topic, payload, 1)

    def _should_request(self, unit: str, gap: int, now: float) -> bool:
        last = self._resent.get(unit)
        if last is not None and last[0] == gap and now - last[1] < RESEND_INTERVAL:
            return False
        self._resent[unit] = (gap, now)
        return True

    # -- internals ----------------------------------------------------------------------------

    def _ack_broker(self, mid: int, qos: int) -> None:
        if qos > 0:
            self.client.ack(mid, qos)

    def _reject(
        self,
        topic: str,
        err: DecodeError,
        ref: TopicRef | None = None,
        payload: bytes | bytearray = b"",
    ) -> None:
        """Count, log (rate limited) and hand to the writer, which sets a unit's own event
        aside and answers it, or logs the refusal in the store's bounded refusal log."""
        self._count("rejected", f"rejected_{err.code}")
        now = time.monotonic()
        start, logged = self._bad_window
        if now - start > 10.0:
            start, logged = now, 0
        if logged < BAD_LOG_BURST:
            log.warning("hub: rejected a message on %s: %s", topic, err.reason)
        self._bad_window = (start, logged + 1)
        table = None if ref is None else ref.table
        item = Refused(err.code, err.reason, table, topic=topic)
        if ref is not None and ref.kind is Kind.EVENTS and table is not None:
            peek = peek_envelope(payload) if err.code in _ANSWERED else None
            if peek is not None and peek[0] == unit_id_of(table):
                item = Refused(
                    err.code, err.reason, table, topic=topic, unit=peek[0], seq=peek[1],
                    payload=bytes(payload), epoch=peek[2],
                )
        self._inbox.put(item)

    def _count(self, *names: str, n: int = 1) -> None:
        with self._count_lock:
            for name in names:
                self._counts[name] += n

    def _count_result(self, result: IngestResult) -> None:
        with self._count_lock:
            self._counts["stored"] += result.inserted
            self._counts["duplicates"] += result.duplicates
            self._counts["conflicts"] += result.conflicts
            self._counts["set_aside"] += len(result.answered)
            self._counts["logged"] += result.logged
            self._counts["dropped"] += result.dropped
            if result.beyond_window:
                self._counts["rejected"] += result.beyond_window
                self._counts["rejected_window"] += result.beyond_window
        if result.dropped:
            log.warning(
                "hub: %d refused events answered but not kept: over the store's limit of %d "
                "per table, %d in all (rummikub event refusals)",
                result.dropped, MAX_SET_ASIDE_TABLE, MAX_SET_ASIDE,
            )
        if result.conflicts:
            log.warning(
                "hub: %d events reused a known (unit, seq) with other content; both copies "
                "are kept for the judge (rummikub refusals)",
                result.conflicts,
            )

    def _hub_status(self, online: bool, reason: StatusReason) -> HubStatus:
        return HubStatus(
            v=PROTOCOL_VERSION, online=online, reason=reason, ts=time.time(), closed=self._closed
        )


def _text(reason: str) -> str:
    """A reason as a protocol Text: at most 200 printable characters."""
    clean = "".join(ch if ch.isprintable() else "?" for ch in reason)
    return clean if len(clean) <= 200 else clean[:199] + "…"
