"""The table unit's MQTT link to the hub: durable delivery of the journal, hub messages in.

Threads: paho's network thread (``loop_start``) runs the callbacks; one sender
thread of ours moves journal entries to paho. The unit loop only calls
:meth:`TableLink.notify` and :meth:`TableLink.publish_state`, both cheap and
thread-safe; everything the hub sends is decoded and handed to the loop through
``put`` (never applied here), together with :class:`~tablekit.unit.LinkStatus`
on every connect and disconnect.

Delivery (docs/protocol.md, "Durable delivery"): entries leave the queue only
when the hub's :class:`~tablekit.core.messages.Ack` names them. After every connect,
after the hub comes back online, on a resend request and when acks stop coming
for ``retransmit_after`` seconds, the sender republishes from the first unacked
seq, in order. At most ``window`` entries are outstanding at a time, so a long
outage drains steadily instead of flooding paho's in-memory queue.

The event: the venue's hub announces the event it serves (retained,
:class:`~tablekit.core.messages.CurrentEvent`); every link subscribes to it and hands it
to the loop, which follows it with another journal and another link
(:class:`tablekit.app.EventFollower`). A link is for one event, whose topics it publishes
under; a link of no event (a new unit before the hub said one) only listens for it.

A hub that lost events (a spare started from a backup copy; docs/protocol.md, "A hub
that lost events"): acked entries stay in the journal until the hub's status says the
event is closed. When the hub comes online and the unit has nothing unacked, it sends
its newest acked entry once, so a hub that lacks it says so; an ack whose ``upto`` is
below the journal's acked mark means the hub lost what it had acked, and the sender
republishes from ``upto + 1`` out of the kept entries, as for a gap.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from functools import wraps
from typing import Any, ParamSpec

import msgspec
import paho.mqtt.client as mqtt

from tablekit.config import LinkSettings
from tablekit.core.clock import ClockState
from tablekit.core.codec import DecodeError, decode, encode
from tablekit.core.messages import (
    PROTOCOL_VERSION,
    WINDOW,
    Ack,
    Assignment,
    CurrentEvent,
    HubStatus,
    Refusal,
    ResultAck,
    StatusReason,
    TableSnapshot,
    UnitStatus,
    snapshot_of,
)
from tablekit.core.topics import Cleared, Kind, Topics, current_event_topic, decode_retained
from tablekit.journal import Journal, JournalEntry, JournalError
from tablekit.shared.broker import RECONNECT_DELAY, connect, disconnect, make_client, no_delay
from tablekit.shared.version import kit_version
from tablekit.unit import LinkStatus, OlderCopy, Unassigned
from tablekit.view import TableView

log = logging.getLogger(__name__)

P = ParamSpec("P")


def guarded(fn: Callable[P, None]) -> Callable[P, None]:
    """Log, never raise: an exception in a paho callback would kill its network thread."""

    @wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> None:
        try:
            fn(*args, **kwargs)
        except Exception:
            log.exception("link: error in %s (ignored)", fn.__name__)

    return wrapper


class _OutEnvelope(msgspec.Struct, omit_defaults=True):
    """EventEnvelope with the journalled event bytes spliced in unchanged."""

    v: int
    unit: str
    table: int
    seq: int
    ts: float
    event: msgspec.Raw
    epoch: str = ""


def envelope_payload(unit_id: str, table: int, entry: JournalEntry, epoch: str = "") -> bytes:
    return msgspec.json.encode(
        _OutEnvelope(
            PROTOCOL_VERSION, unit_id, table, entry.seq, entry.ts, msgspec.Raw(entry.event),
            epoch,
        )
    )


class TableLink:
    def __init__(
        self,
        settings: LinkSettings,
        journal: Journal,
        table: int,
        unit_id: str,
        put: Callable[[object], None],
        *,
        window: int = WINDOW,
        retransmit_after: float = 5.0,
        reconnect_delay: tuple[int, int] = RECONNECT_DELAY,
        keepalive: int | None = None,
        event: str | None = None,
    ) -> None:
        """The broker, login, TLS and MQTT version come from ``settings``
        (:func:`tablekit.shared.broker.make_client`); BrokerSettingsError when its
        password or TLS files cannot be used.

        ``event``: the event whose topics the link publishes under (default: the
        settings', ``[link] event``); "" for none yet: the link only listens for the
        venue's current event.

        ``keepalive`` overrides ``settings.keepalive`` and ``reconnect_delay`` the
        kit's reconnect delays (tests use short ones).
        """
        self.settings = settings
        self.journal = journal
        self.table = table
        self.unit_id = unit_id
        self.put = put
        self.event = settings.event if event is None else event
        self.topics: Topics | None = Topics(settings.venue, self.event) if self.event else None
        self.current_event_topic = current_event_topic(settings.venue)
        self.keepalive = settings.keepalive if keepalive is None else keepalive
        self.window = window
        self.retransmit_after = retransmit_after
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._connected = False
        self._resend = True
        self._probe = False
        """Show the hub the newest acked entry (it came online; it may have lost it)."""
        self._behind: int | None = None
        """The hub's mark when its acks say it is behind the journal's acked mark."""
        self._closed = False
        """The hub said the event is closed: acked entries are deleted."""
        self._older_copy = False
        """The hub's acks say the journal is an older copy (told to the loop once)."""
        self._sent_upto = 0
        self._last_progress = time.monotonic()
        self._snapshot: bytes | None = None
        self._clock: ClockState | None = None
        """The clock state of the latest snapshot made from a view."""
        self._state_mids: dict[int, bytes] = {}
        """State snapshots published and not yet acknowledged, by MQTT message id."""
        self._handing: list[bytes] = []
        """Snapshots being handed to paho: on their way, their message ids not known yet."""
        self._unknown_acks: deque[int] = deque(maxlen=64)
        """Recent acks of message ids not (yet) recorded: a snapshot's ack can arrive
        before its id is recorded, and must not leave the id waiting forever."""
        self.published = 0
        self.retransmits = 0
        self._v5 = settings.mqtt_version == 5
        self.client = make_client(
            settings,
            # unique on a broker shared by several venues
            f"unit-{settings.venue}-{unit_id}",
            section="link",
            reconnect_delay=reconnect_delay,
        )
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self.client.on_publish = self._on_publish
        self._sender = threading.Thread(target=self._send_loop, name="link-sender", daemon=True)

    # -- the unit loop's side -------------------------------------------------------------

    def start(self) -> None:
        self._set_will()
        connect(self.client, self.settings, keepalive=self.keepalive)
        self.client.loop_start()
        self._sender.start()

    def stop(self, timeout: float = 2.0) -> None:
        """Say offline (clean shutdown), disconnect and stop both threads."""
        self._stopping.set()
        self._wake.set()
        if self._connected and self.topics is not None:
            info = self.client.publish(
                self.topics.status(self.table),
                encode(self._status(online=False, reason=StatusReason.SHUTDOWN)),
                qos=1,
                retain=True,
            )
            deadline = time.monotonic() + timeout
            while not info.is_published() and time.monotonic() < deadline and self._connected:
                time.sleep(0.01)
        disconnect(self.client)
        if self._sender.is_alive():
            self._sender.join(timeout)

    def notify(self) -> None:
        """There are new journal entries (thread-safe, cheap)."""
        self._wake.set()

    def publish_state(self, snapshot: TableSnapshot | TableView, now: float | None = None) -> None:
        """Publish the table's retained snapshot (a TableView is converted at ``now``).

        A view whose clock is the one sent last is not sent again: the display changes
        many times (every key typed for a result) where the table's clock does not, and
        each would be a message to the broker, the hub and every screen. A connect sends
        the latest snapshot anyway.
        """
        if isinstance(snapshot, TableView):
            with self._lock:
                if snapshot.clock == self._clock:
                    return
                self._clock = snapshot.clock
            mono = time.monotonic() if now is None else now
            snapshot = snapshot_of(snapshot.clock, mono, time.time(), self.table, self.unit_id)
        if self.topics is None:
            return  # no event yet: there is nobody to tell
        payload = encode(snapshot)
        with self._lock:
            self._snapshot = payload
            connected = self._connected
        if connected:
            self._publish_state(payload)

    def _publish_state(self, payload: bytes) -> None:
        assert self.topics is not None, "a link of no event publishes nothing"
        with self._lock:
            self._handing.append(payload)
        info = self.client.publish(self.topics.state(self.table), payload, qos=1, retain=True)
        with self._lock:
            self._handing.remove(payload)
            if info.mid in self._unknown_acks:
                self._unknown_acks.remove(info.mid)  # acked already
            else:
                self._state_mids[info.mid] = payload

    @property
    def online(self) -> bool:
        return self._connected

    # -- paho callbacks (network thread) --------------------------------------------------

    @guarded
    def _on_connect(
        self, client: mqtt.Client, userdata: object, flags: Any, reason: Any, props: Any
    ) -> None:
        if reason.is_failure:
            log.warning("link: broker refused the connection: %s", reason)
            return
        no_delay(client)
        if self.topics is None:
            client.subscribe(self.current_event_topic, 1)
        else:
            client.subscribe([(f, 1) for f in self.topics.unit_filters(self.table)])
            client.publish(
                self.topics.status(self.table),
                encode(self._status(online=True, reason=StatusReason.CONNECTED)),
                qos=1,
                retain=True,
            )
        with self._lock:
            self._connected = True
            self._resend = True
            snapshot = self._snapshot
        if snapshot is not None:
            self._publish_state(snapshot)
        log.info("link: online (%s), event %s", self.settings.where, self.event or "not known yet")
        self.put(LinkStatus(online=True, at=time.monotonic()))
        self._wake.set()

    @guarded
    def _on_disconnect(
        self, client: mqtt.Client, userdata: object, flags: Any, reason: Any, props: Any
    ) -> None:
        with self._lock:
            was = self._connected
            self._connected = False
        if was:
            level = logging.INFO if self._stopping.is_set() else logging.WARNING
            log.log(level, "link: offline (%s)", reason)
            self.put(LinkStatus(online=False, at=time.monotonic()))
        self._set_will()

    @guarded
    def _on_publish(
        self, client: mqtt.Client, userdata: object, mid: int, reason: Any, props: Any
    ) -> None:
        if self._v5 and reason.is_failure:
            log.error("link: broker refused a publish (mid %d): %s", mid, reason)
        with self._lock:
            acked = self._state_mids.pop(mid, None)
            if acked is None:
                self._unknown_acks.append(mid)
            latest = self._snapshot
            connected = self._connected
            stale = acked is not None and acked != latest and latest is not None and connected
            coming = latest in self._handing or latest in self._state_mids.values()
        if stale and not coming:
            # An older snapshot, re-sent by paho after a reconnect, was stored after the
            # newest: the broker's retained state must end on the newest. (Not while the
            # newest is on its way: it is stored after this one anyway, and every ack of
            # a table changing fast would send one more copy.)
            assert latest is not None
            self._publish_state(latest)

    @guarded
    def _on_message(self, client: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        if msg.topic == self.current_event_topic:
            self._on_current_event(msg.payload)
            return
        if self.topics is None:
            return
        try:
            ref, message = decode_retained(self.topics, msg.topic, msg.payload)
        except DecodeError as err:
            log.warning("link: ignored a message on %s: %s", msg.topic, err.reason)
            return
        if ref.table is not None and ref.table != self.table:
            return
        if isinstance(message, Cleared) or (isinstance(message, Assignment) and message.idle):
            if isinstance(message, Assignment) or message.kind is Kind.ASSIGN:
                self.put(Unassigned(at=time.monotonic()))
            elif message.kind is Kind.CONSOLE:
                self.put(message)  # the hub has no console address any more
            return
        if isinstance(message, Ack | ResultAck | Refusal) and message.unit != self.unit_id:
            return
        if isinstance(message, Ack | Refusal) and message.epoch != self.journal.epoch:
            return  # about another journal of this table (the unit this one replaced)
        if isinstance(message, Ack):
            self._on_ack(message)
        elif isinstance(message, Refusal):
            if not self.journal.set_aside(message.seq, message.code, message.reason):
                log.info("link: the hub refused event %d, which this journal no longer holds "
                         "(another copy of it)", message.seq)
                return
            log.error(
                "link: the hub refused event %d (%s): %s; set aside for the judge",
                message.seq,
                message.code,
                message.reason,
            )
            self._wake.set()
        elif isinstance(message, HubStatus):
            self._on_hub_status(message)
        self.put(message)

    def _on_current_event(self, payload: bytes | bytearray) -> None:
        """The venue's hub serves this event: the loop follows it (an empty payload, a
        hub that withdrew its announcement, changes nothing)."""
        if not payload:
            return
        try:
            announced = decode(CurrentEvent, payload)
            Topics(self.settings.venue, announced.event)
        except (DecodeError, ValueError) as err:
            log.warning("link: ignored the venue's current event: %s", err)
            return
        if announced.event != self.event:
            log.info("link: the hub serves the event %s; following it", announced.event)
        self.put(announced)

    def _on_hub_status(self, status: HubStatus) -> None:
        if status.closed and not self._closed:
            pruned = self.journal.prune_acked()
            log.info("link: the hub closed the event; %d acknowledged entries deleted", pruned)
        if status.online:
            self._closed = status.closed
            with self._lock:
                self._resend = True
                self._probe = True
            self._wake.set()

    def _on_ack(self, ack: Ack) -> None:
        if ack.upto > self.journal.last_seq:
            # The hub holds more of this epoch than the journal ever numbered: the journal
            # was put back from an older copy. Its seqs must not be numbered again.
            if not self._older_copy:
                self._older_copy = True
                log.warning(
                    "link: the hub holds seq %d of this journal, which only numbered up to %d: "
                    "an older copy; a new journal epoch begins", ack.upto, self.journal.last_seq,
                )
                self.put(OlderCopy(held=ack.upto, had=self.journal.last_seq))
            return
        try:
            marked = self.journal.acked_upto
            removed = self.journal.acked(ack.upto, ack.refused)
        except JournalError as err:
            log.error("link: ignored an ack for unit %s: %s", self.unit_id, err)
            return
        if self._closed:
            self.journal.prune_acked()
        with self._lock:
            if removed:
                self._last_progress = time.monotonic()
            if ack.upto >= marked:
                self._behind = None
            elif self._behind is None or ack.upto < self._behind:
                log.warning(
                    "link: the hub has only up to seq %d of the %d it acknowledged (a hub "
                    "started from a backup?); sending it the rest again",
                    ack.upto,
                    marked,
                )
                self._behind = ack.upto
                self._sent_upto = min(self._sent_upto, ack.upto)
                self._last_progress = time.monotonic()
                self.retransmits += 1
            elif ack.upto > self._behind:
                self._behind = ack.upto
                self._last_progress = time.monotonic()
            if ack.resend_from is not None:
                self._sent_upto = min(self._sent_upto, ack.resend_from - 1)
                self.retransmits += 1
                log.info("link: hub asked for a resend from seq %d", ack.resend_from)
        self._wake.set()

    # -- the sender thread -----------------------------------------------------------------

    def _send_loop(self) -> None:
        while not self._stopping.is_set():
            self._wake.wait(timeout=0.25)
            self._wake.clear()
            try:
                self._pump()
            except Exception:
                log.exception("link: sender error (retrying)")
                self._stopping.wait(0.5)

    def _pump(self) -> None:
        if self.topics is None:
            return  # no event yet: nothing is sent
        while not self._stopping.is_set():
            marked = self.journal.acked_upto
            now = time.monotonic()
            with self._lock:
                if not self._connected:
                    return
                # what the hub has: the journal's acked mark, or less after a hub lost events
                acked = marked if self._behind is None else min(self._behind, marked)
                probe, self._probe = self._probe, False
                if self._resend:
                    self._resend = False
                    self._sent_upto = acked
                    self._last_progress = now
                elif self._sent_upto > acked and now - self._last_progress > self.retransmit_after:
                    log.info(
                        "link: no ack for %.1f s, republishing from seq %d",
                        now - self._last_progress,
                        acked + 1,
                    )
                    self._sent_upto = acked
                    self._last_progress = now
                    self.retransmits += 1
                self._sent_upto = max(self._sent_upto, acked)
                after = self._sent_upto
                room = self.window - (after - acked)
            topic = self.topics.events(self.table)
            epoch = self.journal.epoch
            if probe and after >= self.journal.last_seq:
                newest = self.journal.last_acked()
                if newest is not None:
                    payload = envelope_payload(self.unit_id, self.table, newest, epoch)
                    self.client.publish(topic, payload, qos=1)
                    self.published += 1
            if room <= 0:
                return
            entries = self.journal.pending(after=after, limit=room)
            if not entries:
                return
            for entry in entries:
                payload = envelope_payload(self.unit_id, self.table, entry, epoch)
                self.client.publish(topic, payload, qos=1)
                self.published += 1
            with self._lock:
                if self._sent_upto == after:
                    self._sent_upto = entries[-1].seq
                    if after == acked:
                        self._last_progress = max(self._last_progress, now)

    # -- internals -------------------------------------------------------------------------

    def _status(self, online: bool, reason: StatusReason) -> UnitStatus:
        return UnitStatus(
            v=PROTOCOL_VERSION,
            unit=self.unit_id,
            table=self.table,
            online=online,
            reason=reason,
            ts=time.time(),
            kit=kit_version(),
        )

    def _set_will(self) -> None:
        if self.topics is None:
            return
        self.client.will_set(
            self.topics.status(self.table),
            encode(self._status(online=False, reason=StatusReason.LOST)),
            qos=1,
            retain=True,
        )
