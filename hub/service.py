"""The hub service: ingest the tables' events durably, ack them, keep the live view.

Threads: paho's network thread decodes every message (bad ones are counted,
logged and acknowledged to the broker at once, so they never block good
traffic); valid events go to one writer thread, which commits them in batches
(:meth:`hub.store.EventStore.ingest`), then acks each MQTT message to the broker
(``manual_ack``: a hub killed before its commit gets the messages again from its
persistent session) and publishes one :class:`~tablekit.core.messages.Ack` per unit
with its highest contiguous seq, asking for a resend when it sees a gap.

Command line (``rummikub-hub``)::

    rummikub-hub serve --broker 127.0.0.1:1883 --db hub.db --venue hall --event open \
        [--backup /media/usb/hub-backup.sqlite3]
    rummikub-hub assign --table 3 --names A=Ann,B=Bob,C=Cy,D=Di --game 1 [--starter B]
    rummikub-hub broadcast last-lap [--round 2]
"""

from __future__ import annotations

import argparse
import logging
import os
import queue
import signal
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from hub.backup import DEFAULT_INTERVAL, StoreBackup
from hub.conductor import Conductor
from hub.live import LiveView
from hub.organizer import Organizer
from hub.store import EventStore
from hub.store_rows import IngestResult, Refused
from hub.store_schema import StoreError
from tablekit.core.codec import DecodeError, check_identity, checked, decode, encode, peek_envelope
from tablekit.core.messages import (
    PROTOCOL_VERSION,
    WINDOW,
    Ack,
    AssignedRules,
    Assignment,
    Broadcast,
    BroadcastKind,
    EventEnvelope,
    HubStatus,
    Refusal,
    RefusalCode,
    SeatAssignment,
    StatusReason,
    TableSnapshot,
    UnitStatus,
    unit_id_of,
)
from tablekit.core.seats import Seat
from tablekit.core.topics import MESSAGE_OF_KIND, Kind, TopicRef, Topics
from tablekit.link import no_delay, read_secret
from tablekit.shared.sdnotify import Notifier

log = logging.getLogger("hub.service")

SESSION_EXPIRY = 7 * 24 * 3600
"""Seconds the broker keeps the hub's session (and queues its messages) while it is away."""
BATCH_MAX = 500
RESEND_INTERVAL = 1.0
"""Seconds between two resend requests to the same unit for the same gap."""
TICK_INTERVAL = 1.0
"""Seconds between the writer's looks at the event (round clock, organizer commands)."""
Received = tuple[EventEnvelope, int, int]
"""An event as it arrived: the envelope, its MQTT message id and QoS (for the broker ack)."""
_ANSWERED = frozenset(code.value for code in RefusalCode)
"""Decode errors of an event that the unit is told about (the event is set aside)."""


class _Tick:
    """Wakes the writer to publish without a new event."""


_TICK = _Tick()
WRITER_STALL = 10.0
"""Seconds without a turn of the writer's loop after which the watchdog is not fed."""
BAD_LOG_BURST = 20
"""Bad-message log lines per 10 s; the rest are only counted."""


class HubService:
    def __init__(
        self,
        host: str,
        port: int,
        db: str | Path,
        topics: Topics,
        *,
        mqtt_version: int = 5,
        client_id: str | None = None,
        username: str | None = None,
        password: str | None = None,
        keepalive: int = 15,
        session_expiry: int = SESSION_EXPIRY,
        tables: int | None = None,
        backup: Path | None = None,
        backup_interval: float = DEFAULT_INTERVAL,
    ) -> None:
        """``tables``: the event's tables are 1…tables (the broker accounts provisioned);
        messages of other tables are refused and only logged. None: tables 1-999.

        ``backup``: keep a copy of the store there (:class:`hub.backup.StoreBackup`),
        at most every ``backup_interval`` seconds and once more on stop."""
        self.host = host
        self.tables = tables
        self.port = port
        self.topics = topics
        self.keepalive = keepalive
        self.store = EventStore(db)
        self.backup = (
            None if backup is None
            else StoreBackup(Path(db), backup, interval=backup_interval)
        )
        self.organizer = Organizer(self.store, by="hub")
        self.conductor = Conductor(self.organizer, topics)
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
        self._bad_window = (0.0, 0)
        self._v5 = mqtt_version == 5
        self._session_expiry = session_expiry
        client_id = client_id or f"hub-{topics.venue}-{topics.event}"
        if self._v5:
            self.client = mqtt.Client(
                CallbackAPIVersion.VERSION2,
                client_id=client_id,
                protocol=mqtt.MQTTv5,
                manual_ack=True,
            )
        else:
            self.client = mqtt.Client(
                CallbackAPIVersion.VERSION2,
                client_id=client_id,
                protocol=mqtt.MQTTv311,
                clean_session=False,
                manual_ack=True,
            )
        self.client.suppress_exceptions = True
        self.client.reconnect_delay_set(1, 8)
        self.client.max_queued_messages_set(0)
        if username is not None:
            self.client.username_pw_set(username, password)
        self.client.will_set(
            topics.hub_status, encode(self._hub_status(False, StatusReason.LOST)), 1, retain=True
        )
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self._writer = threading.Thread(target=self._write_loop, name="hub-writer", daemon=True)

    # -- lifecycle ----------------------------------------------------------------------------

    def start(self) -> None:
        if self._v5:
            props = Properties(PacketTypes.CONNECT)  # type: ignore[no-untyped-call]
            props.SessionExpiryInterval = self._session_expiry
            self.client.connect_async(
                self.host, self.port, self.keepalive, clean_start=False, properties=props
            )
        else:
            self.client.connect_async(self.host, self.port, self.keepalive)
        self._writer.start()
        self.client.loop_start()
        if self.backup is not None:
            self.backup.start()

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
        self.client.disconnect()
        self.client.loop_stop()
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

    # -- organizer commands ---------------------------------------------------------------------

    def assign(self, assignment: Assignment) -> None:
        """Record the assignment and publish it, retained, to its table."""
        self.store.append_fact("assign", assignment, table=assignment.table, game=assignment.game)
        self.client.publish(
            self.topics.assign(assignment.table), encode(assignment), 1, retain=True
        )

    def broadcast(self, kind: BroadcastKind, round_no: int = 0, text: str = "") -> Broadcast:
        """Record a broadcast (its id is the fact's seq) and publish it, retained."""
        sent: list[Broadcast] = []

        def build(seq: int) -> Broadcast:
            sent.append(
                Broadcast(
                    v=PROTOCOL_VERSION, id=seq, kind=kind, round=round_no, text=text, ts=time.time()
                )
            )
            return sent[-1]

        self.store.append_fact("broadcast", build)
        message = sent[-1]
        self.client.publish(self.topics.broadcast, encode(message), 1, retain=True)
        return message

    # -- paho callbacks (network thread) ------------------------------------------------------

    def _on_connect(
        self, client: mqtt.Client, userdata: object, flags: Any, reason: Any, props: Any
    ) -> None:
        try:
            if reason.is_failure:
                log.warning("hub: broker refused the connection: %s", reason)
                return
            no_delay(client)
            client.subscribe([(f, 1) for f in self.topics.hub_filters()])
            client.publish(
                self.topics.hub_status,
                encode(self._hub_status(True, StatusReason.CONNECTED)),
                1,
                retain=True,
            )
            self._online.set()
            self._republish.set()  # the writer re-sends every retained message
            self._inbox.put(_TICK)
            log.info(
                "hub: online at %s:%d (session present: %s)",
                self.host,
                self.port,
                getattr(flags, "session_present", "?"),
            )
        except Exception:
            self._count("callback_errors")
            log.exception("hub: error in on_connect")

    def _on_disconnect(
        self, client: mqtt.Client, userdata: object, flags: Any, reason: Any, props: Any
    ) -> None:
        self._online.clear()
        if not self._stopping.is_set():
            log.warning("hub: lost the broker (%s); reconnecting", reason)

    def _on_message(self, client: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        handed_over = False
        try:
            self._count("received")
            ref: TopicRef | None = None
            try:
                ref = self.topics.parse(msg.topic)
                if ref.table is not None and self.tables is not None and ref.table > self.tables:
                    raise DecodeError(
                        f"table {ref.table} is not one of this event's tables 1-{self.tables}",
                        "unprovisioned",
                    )
                message = decode(MESSAGE_OF_KIND[ref.kind], msg.payload)
                if ref.table is not None:
                    check_identity(message, ref.table)
            except DecodeError as err:
                self._reject(msg.topic, err, ref, msg.payload)
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
                self._reject(msg.topic, DecodeError(f"{ref.kind} is not for the hub", "topic"))
        except Exception:
            self._count("callback_errors")
            log.exception("hub: error handling a message on %s", msg.topic)
        finally:
            if not handed_over:
                self._ack_broker(msg.mid, msg.qos)

    # -- the writer thread ----------------------------------------------------------------------

    def _write_loop(self) -> None:
        """The single owner of the store's writes and of what the hub publishes."""
        while True:
            try:
                item = self._inbox.get(timeout=TICK_INTERVAL)
            except queue.Empty:
                item = _TICK
            self.heartbeat = time.monotonic()
            if item is None:
                return
            batch: list[Received | Refused] = [] if isinstance(item, _Tick) else [item]
            while len(batch) < BATCH_MAX:
                try:
                    more = self._inbox.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    self._inbox.put(None)
                    break
                if not isinstance(more, _Tick):
                    batch.append(more)
            try:
                if batch:
                    self._commit(batch)
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
            held = self.store.held(source, max(1, mark.contiguous - WINDOW + 1), mark.contiguous)
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
            if result.beyond_window:
                self._counts["rejected"] += result.beyond_window
                self._counts["rejected_window"] += result.beyond_window
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


# --- one-shot publishing (the CLI and the organizer tools) ----------------------------------


def make_assignment(
    table: int,
    names: Mapping[Seat, str],
    game: int,
    *,
    starter: Seat | None = None,
    move_seconds: float = 40.0,
    ruleset: str = "",
    round_no: int = 0,
) -> Assignment:
    """A validated assignment (ValueError naming the problem)."""
    seats = tuple(SeatAssignment(seat, names[seat]) for seat in sorted(names, key=str))
    return checked(Assignment(
        v=PROTOCOL_VERSION,
        table=table,
        game=game,
        seats=seats,
        starter=starter,
        rules=AssignedRules(move_seconds=move_seconds, ruleset=ruleset),
        round=round_no,
        issued=time.time(),
    ))


def publish_once(
    host: str,
    port: int,
    messages: Sequence[tuple[str, bytes]],
    *,
    mqtt_version: int = 5,
    username: str | None = None,
    password: str | None = None,
    timeout: float = 10.0,
) -> None:
    """Connect, publish each ``(topic, payload)`` retained at QoS 1, wait, disconnect."""
    protocol = mqtt.MQTTv5 if mqtt_version == 5 else mqtt.MQTTv311
    client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=protocol)
    if username is not None:
        client.username_pw_set(username, password)
    client.connect(host, port, 30)
    client.loop_start()
    try:
        infos = [client.publish(topic, payload, 1, retain=True) for topic, payload in messages]
        for info in infos:
            info.wait_for_publish(timeout)
            if not info.is_published():
                raise TimeoutError(f"the broker at {host}:{port} did not confirm in {timeout} s")
    finally:
        client.disconnect()
        client.loop_stop()


# --- command line ------------------------------------------------------------------------------


def parse_broker(text: str) -> tuple[str, int]:
    host, sep, port_text = text.rpartition(":")
    if not sep:
        host, port_text = text, "1883"
    if not host:
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, got {text!r}")
    if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
        raise argparse.ArgumentTypeError(f"port must be 1-65535, got {port_text!r} in {text!r}")
    return host, int(port_text)


def parse_names(text: str) -> dict[Seat, str]:
    names: dict[Seat, str] = {}
    for part in text.split(","):
        letter, sep, name = part.partition("=")
        letter, name = letter.strip().upper(), name.strip()
        if not sep or not name:
            raise argparse.ArgumentTypeError(f"expected SEAT=NAME, got {part!r} in {text!r}")
        if letter not in "ABCD" or len(letter) != 1:
            raise argparse.ArgumentTypeError(f"seat must be A, B, C or D, got {letter!r}")
        if Seat(letter) in names:
            raise argparse.ArgumentTypeError(f"seat {letter} is named twice")
        names[Seat(letter)] = name
    return names


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number from 1, got {text!r}")
    return int(text)


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--broker",
        type=parse_broker,
        default=("127.0.0.1", 1883),
        metavar="HOST:PORT",
        help="MQTT broker (default 127.0.0.1:1883)",
    )
    common.add_argument("--venue", default="hall", help="topic level: the venue (default hall)")
    common.add_argument("--event", default="demo", help="topic level: the event (default demo)")
    common.add_argument(
        "--mqtt",
        type=int,
        choices=(3, 5),
        default=5,
        help="MQTT version: 5 (Mosquitto) or 3 for 3.1.1 (amqtt)",
    )
    common.add_argument("--username")
    common.add_argument("--password-file", type=Path)
    common.add_argument("-v", "--verbose", action="store_true")

    parser = argparse.ArgumentParser(prog="rummikub-hub", description="The tournament hub.")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", parents=[common], help="run the hub service")
    serve.add_argument("--db", type=Path, required=True, help="event store (SQLite file)")
    serve.add_argument(
        "--tables",
        type=_positive,
        help="the event's tables are 1..N (the provisioned units); messages of other "
        "tables are refused and logged (default: any table 1-999)",
    )
    serve.add_argument(
        "--backup",
        type=Path,
        default=Path(os.environ["RUMMIKUB_BACKUP"]) if os.environ.get("RUMMIKUB_BACKUP") else None,
        metavar="PATH",
        help="keep a copy of the store at PATH (a USB stick, a second disk, a mounted "
        "share), made after changes and on stop; its directory must exist "
        "(default $RUMMIKUB_BACKUP; none when unset or empty)",
    )
    serve.add_argument(
        "--backup-every",
        type=float,
        default=DEFAULT_INTERVAL,
        metavar="SECONDS",
        help=f"at most one copy every SECONDS (default {DEFAULT_INTERVAL:g})",
    )
    serve.add_argument(
        "--embedded-broker",
        action="store_true",
        help="start an embedded amqtt broker (MQTT 3.1.1) on --broker",
    )
    serve.add_argument(
        "--show-live",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="print the live view of all tables every SECONDS",
    )

    assign = sub.add_parser("assign", parents=[common], help="seat players at a table")
    assign.add_argument("--table", type=_positive, required=True)
    assign.add_argument("--names", type=parse_names, required=True, metavar="A=Ann,B=Bob,…")
    assign.add_argument("--game", type=_positive, default=1)
    assign.add_argument("--starter", choices=list("ABCD"))
    assign.add_argument("--move-seconds", type=float, default=40.0)
    assign.add_argument("--round", type=int, default=0)
    assign.add_argument("--db", type=Path, help="also record it in this event store")

    bcast = sub.add_parser("broadcast", parents=[common], help="tell every table")
    bcast.add_argument("kind", choices=["last-lap", "start-round", "message"])
    bcast.add_argument("--round", type=int, default=0)
    bcast.add_argument("--text", default="")
    bcast.add_argument("--db", type=Path, help="also record it in this event store")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if not args_list or (args_list[0].startswith("-") and args_list[0] not in ("-h", "--help")):
        args_list.insert(0, "serve")
    parser = build_parser()
    args = parser.parse_args(args_list)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    try:
        topics = Topics(args.venue, args.event)
    except ValueError as err:
        parser.error(str(err))
    password = None
    if args.password_file is not None:
        try:
            password = read_secret(args.password_file, "--password-file")
        except ValueError as err:
            parser.error(str(err))
    host, port = args.broker
    if args.command == "serve" and args.backup is not None:
        if args.backup.absolute() == args.db.absolute():
            parser.error(f"--backup {args.backup} is the store itself: give a path on another disk")
        if args.backup_every <= 0:
            parser.error(f"--backup-every must be more than 0 seconds, got {args.backup_every:g}")
    try:
        if args.command == "serve":
            return _serve(args, topics, host, port, password)
        if args.command == "assign":
            return _assign(args, topics, host, port, password, error=parser.error)
        return _broadcast(args, topics, host, port, password)
    except (StoreError, OSError, TimeoutError) as err:
        print(f"rummikub-hub: {err}", file=sys.stderr)
        return 1


def _serve(
    args: argparse.Namespace, topics: Topics, host: str, port: int, password: str | None
) -> int:
    from hub.broker import EmbeddedBroker

    embedded = None
    mqtt_version = args.mqtt
    if args.embedded_broker:
        embedded = EmbeddedBroker(port, host=host)
        embedded.start()
        mqtt_version = 3
        log.info("hub: embedded amqtt broker on %s:%d (MQTT 3.1.1)", host, port)
    service = HubService(
        host,
        port,
        args.db,
        topics,
        mqtt_version=mqtt_version,
        username=args.username,
        password=password,
        tables=args.tables,
        backup=args.backup,
        backup_interval=args.backup_every,
    )
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    service.start()
    notifier = Notifier()
    notifier.ready(f"hub for {topics.base}")
    last_stats = last_live = time.monotonic()
    try:
        while not stop.wait(1.0):
            now = time.monotonic()
            if now - service.heartbeat < WRITER_STALL:
                notifier.alive()  # a stalled writer stops the pings: systemd restarts the hub
            if args.show_live and now - last_live >= args.show_live:
                last_live = now
                print(service.live.render_text(time.time()), flush=True)
            if now - last_stats >= 60:
                last_stats = time.monotonic()
                log.info("hub: %s", service.counters())
    finally:
        service.stop()
        if embedded is not None:
            embedded.stop()
    return 0


def _assign(
    args: argparse.Namespace,
    topics: Topics,
    host: str,
    port: int,
    password: str | None,
    *,
    error: Callable[[str], Any],
) -> int:
    try:
        assignment = make_assignment(
            args.table,
            args.names,
            args.game,
            starter=Seat(args.starter) if args.starter else None,
            move_seconds=args.move_seconds,
            round_no=args.round,
        )
    except ValueError as err:
        error(f"assign: {err}")
        return 2
    if args.db is not None:
        store = EventStore(args.db)
        store.append_fact("assign", assignment, table=assignment.table, game=assignment.game)
        store.close()
    publish_once(
        host,
        port,
        [(topics.assign(args.table), encode(assignment))],
        mqtt_version=args.mqtt,
        username=args.username,
        password=password,
    )
    print(f"table {args.table}: game {args.game} assigned")
    return 0


def _broadcast(
    args: argparse.Namespace, topics: Topics, host: str, port: int, password: str | None
) -> int:
    kind = BroadcastKind(args.kind.replace("-", "_"))

    def build(ident: int) -> Broadcast:
        return checked(
            Broadcast(
                v=PROTOCOL_VERSION,
                id=ident,
                kind=kind,
                round=args.round,
                text=args.text,
                ts=time.time(),
            )
        )

    try:
        build(1)
    except DecodeError as err:
        print(f"rummikub-hub: broadcast: {err.reason}", file=sys.stderr)
        return 2

    if args.db is not None:
        store = EventStore(args.db)
        ident = store.append_fact("broadcast", build)
        store.close()
    else:
        ident = int(time.time() * 1000)
    message = build(ident)
    publish_once(
        host,
        port,
        [(topics.broadcast, encode(message))],
        mqtt_version=args.mqtt,
        username=args.username,
        password=password,
    )
    print(f"broadcast {kind} (id {ident}) sent")
    return 0


if __name__ == "__main__":
    sys.exit(main())
