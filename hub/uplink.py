"""The venue's records up to the central league service (docs/protocol.md, "The league
stream").

Every event a hub of the venue served with the league uplink goes up, not only the one it
serves now: the venue's **uplink registry** (:class:`UplinkRegistry`, a small SQLite file
beside the event stores) lists each event with its store and the central's last mark,
and the uplink keeps sending each one from that mark. An event whose records had not all
reached the central when the hub moved on to the next event (a gym without internet
until the evening, the next tournament a week later) goes up as soon as any hub of the
venue runs with the uplink again; a correction the organizer types into an earlier
event's file afterwards goes up too. An event's store that is no longer where it was
(moved to an archive) is skipped and said in the log until it is back.

An event's store is its queue: its records are numbered (the hub's seq) and kept, so the
uplink keeps only the central's acknowledged mark. A sender thread of its own reads the
records after what it has sent and publishes them in batches of consecutive seqs on the
venue broker's league topic of that event, which the venue's Mosquitto bridges to the
central; at most ``window`` records of an event are outstanding, so hours without the
uplink leave nothing but the stores growing, and the day at the venue never waits for
it (publishing to the local broker is all the hub does). The event the hub serves goes
first.

The central acks each event with its contiguous mark (retained, so a hub that restarts
learns every event's mark at once when the bridge is up): the sender moves on from
there, and the registry keeps the mark, so a restart does not send the earlier events
again. It sends again from the mark after a connect, when the bridge to the central
comes back (the venue broker's ``$SYS/broker/connection/…/state``), when the central
asks (a gap), and when acks stop coming for ``retransmit_after`` seconds (doubling while
nothing answers, up to ``MAX_RETRANSMIT``): a venue broker killed with the batches in its
bridge queue loses nothing the stores hold. The central stores each seq once, so a batch
sent twice is stored once.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

import msgspec

from hub.league.wire import (
    LEAGUE_VERSION,
    MAX_BATCH_BYTES,
    RecordAck,
    RecordBatch,
    UpRecord,
    VenueLeagueTopics,
    ack_decoder,
)
from hub.store import HUB_SOURCE, EventStore
from tablekit.core.errors import KitError
from tablekit.core.words import N_
from tablekit.shared.durable import DurableFile

log = logging.getLogger("hub.uplink")

WINDOW: Final = 400
"""Records of one event outstanding (sent, not acked) at most."""
BATCH: Final = 100
"""Records per message at most."""
MAX_RETRANSMIT: Final = 60.0
"""Seconds between two resends at most while the central does not answer."""
MARK_EVERY: Final = 5.0
"""Seconds between two writes of an event's mark to the registry while it moves (the
mark is a hint that saves resending: the central's retained ack is the truth)."""
REGISTRY_NAME: Final = "league-uplink.sqlite3"
"""The registry's file name beside the event stores (``[league] registry`` names
another)."""

Publish = Callable[[str, bytes], None]


def bridge_state_topic(connection: str) -> str:
    """Where the venue's Mosquitto says whether its bridge ``connection`` is up."""
    return f"$SYS/broker/connection/{connection}/state"


@dataclass(frozen=True)
class UplinkSettings:
    """A venue of a league: the hub's ``[league]`` section."""

    bridge: str = ""
    """The venue broker's bridge to the central ("": not named; the uplink then does not
    follow its state and sends again only when acks stop coming)."""
    registry: Path | None = None
    """The uplink registry; None: :data:`REGISTRY_NAME` beside the event's store."""

    def registry_for(self, db: Path) -> Path:
        return self.registry if self.registry is not None else db.absolute().parent / REGISTRY_NAME


_REGISTRY: Final = (
    "CREATE TABLE IF NOT EXISTS events (venue TEXT NOT NULL, event TEXT NOT NULL,"
    " db TEXT NOT NULL, registered REAL NOT NULL, acked INTEGER NOT NULL DEFAULT 0,"
    " PRIMARY KEY (venue, event)) WITHOUT ROWID"
)


class UplinkRegistryError(KitError, RuntimeError):
    """The uplink registry cannot be used, or names another store for the event."""


@dataclass(frozen=True)
class Registered:
    """An event of the venue that goes up, its store and the central's last mark known."""

    event: str
    db: Path
    acked: int


class UplinkRegistry:
    """The venue's events that go up to the central (see the module)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self._file = DurableFile(self.path, timeout=10.0, schema=[_REGISTRY])
        except sqlite3.DatabaseError as err:
            raise UplinkRegistryError(
                N_("league uplink registry {file}: {error}"), file=self.path, error=str(err)
            ) from err
        self._db = self._file.db
        self._lock = self._file.lock

    def register(self, venue: str, event: str, db: Path, now: float | None = None) -> None:
        """``event``'s records go up from ``db`` from now on; UplinkRegistryError when the
        venue's event of that name went up from another store (two stores of one event
        would be two tournaments under one name at the central)."""
        db = db.absolute()
        with self._file.transaction():
            row = self._db.execute(
                "SELECT db FROM events WHERE venue = ? AND event = ?", (venue, event)
            ).fetchone()
            if row is None:
                self._db.execute(
                    "INSERT INTO events (venue, event, db, registered) VALUES (?, ?, ?, ?)",
                    (venue, event, str(db), time.time() if now is None else now),
                )
            elif Path(row[0]) != db:
                raise UplinkRegistryError(
                    N_("the league uplink sent event {event} from {registered}, not from "
                       "{db}: give this event another name, or move its store back"),
                    event=event, registered=row[0], db=db,
                )

    def events(self, venue: str) -> list[Registered]:
        """The venue's events, first registered first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT event, db, acked FROM events WHERE venue = ? ORDER BY registered, event",
                (venue,),
            ).fetchall()
        return [Registered(r[0], Path(r[1]), int(r[2])) for r in rows]

    def save_mark(self, venue: str, event: str, acked: int) -> None:
        with self._lock:
            self._db.execute(
                "UPDATE events SET acked = ? WHERE venue = ? AND event = ?", (acked, venue, event)
            )

    def close(self) -> None:
        self._file.close()


@dataclass
class _Lane:
    """One event on its way up: the central's mark and what has been sent after it."""

    event: str
    db: Path
    topic: str
    acked: int
    retransmit_after: float
    sent: int = 0
    resend: bool = True
    last_progress: float = field(default_factory=time.monotonic)
    backoff: float = 0.0
    saved: int = 0
    saved_at: float = 0.0
    store: EventStore | None = None
    missing: bool = False
    resends: int = 0

    def __post_init__(self) -> None:
        self.sent = self.saved = self.acked
        self.backoff = self.retransmit_after

    def on_ack(self, ack: RecordAck) -> None:
        if ack.upto != self.acked:
            if ack.upto < self.acked:
                log.warning("uplink: the central has %s up to seq %d of the %d it acked; "
                            "sending the rest again", self.event, ack.upto, self.acked)
                self.sent = min(self.sent, ack.upto)
            self.acked = ack.upto
            self.last_progress = time.monotonic()
            self.backoff = self.retransmit_after
        self.sent = max(self.sent, self.acked)
        if ack.resend_from is not None:
            self.sent = min(self.sent, ack.resend_from - 1)
            self.resends += 1

    def due(self, now: float) -> int:
        """The seq to send after now: from the mark again after a connect, when the
        bridge came back or when acks stopped coming; else after what was sent."""
        if self.resend:
            self.resend = False
            self.sent = self.acked
            self.last_progress = now
        elif self.sent > self.acked and now - self.last_progress > self.backoff:
            log.info("uplink: no ack from the central for %s in %.0f s; sending again from "
                     "seq %d", self.event, now - self.last_progress, self.acked + 1)
            self.sent = self.acked
            self.last_progress = now
            self.backoff = min(self.backoff * 2, MAX_RETRANSMIT)
            self.resends += 1
        return self.sent


class Uplink:
    """Sends every registered event of the venue to the central; fed by the hub service's
    MQTT client (:meth:`connected`, :meth:`on_message`), publishing through ``publish``.
    ``event`` and ``db`` are the event the hub serves and its store, registered at
    :meth:`start` (an event whose name went up from another store is not sent: the log
    says so, and the venue's day goes on)."""

    def __init__(
        self,
        registry: str | Path,
        venue: str,
        event: str,
        db: str | Path,
        publish: Publish,
        *,
        bridge: str = "",
        window: int = WINDOW,
        batch: int = BATCH,
        retransmit_after: float = 10.0,
    ) -> None:
        self.topics = VenueLeagueTopics(venue)
        self.topics.up(event)  # a name that can be a topic level, or TopicNameError now
        self.venue = venue
        self.event = event
        self.db = Path(db)
        self.registry_path = Path(registry)
        self.bridge_topic = bridge_state_topic(bridge) if bridge else ""
        self._registry: UplinkRegistry | None = None
        self._publish = publish
        self.window = window
        self.batch = batch
        self.retransmit_after = retransmit_after
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._online = False
        self._lanes: dict[str, _Lane] = {}
        self.batches = 0
        self._thread = threading.Thread(target=self._run, name="hub-uplink", daemon=True)

    def filters(self) -> list[str]:
        """What the hub service subscribes to for the uplink: every event's acks."""
        return [self.topics.ack_filter, *([self.bridge_topic] if self.bridge_topic else [])]

    def handles(self, topic: str) -> bool:
        return topic == self.bridge_topic or self.topics.parse_ack(topic) is not None

    def start(self) -> None:
        """Register the event served and start sending (UplinkRegistryError when the
        registry's file cannot be used)."""
        registry = UplinkRegistry(self.registry_path)
        try:
            registry.register(self.venue, self.event, self.db)
        except UplinkRegistryError as err:
            log.error("uplink: %s", err)
        self._registry = registry
        with self._lock:
            for known in registry.events(self.venue):
                self._lanes[known.event] = _Lane(known.event, known.db,
                                                 self.topics.up(known.event), known.acked,
                                                 self.retransmit_after)
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(3.0)
        with self._lock:
            lanes = list(self._lanes.values())
        for lane in lanes:
            self._save_mark(lane, force=True)
            if lane.store is not None:
                lane.store.close()
        if self._registry is not None:
            self._registry.close()

    def notify(self) -> None:
        """New records may be stored (cheap, any thread)."""
        self._wake.set()

    @property
    def resends(self) -> int:
        """How often an event was sent again from its mark (not after a connect)."""
        with self._lock:
            return sum(lane.resends for lane in self._lanes.values())

    def marks(self) -> dict[str, int]:
        """Each event's mark at the central as last acked (for the organizer's tools and
        tests)."""
        with self._lock:
            return {event: lane.acked for event, lane in self._lanes.items()}

    # -- fed by the hub service's client (paho's thread) -----------------------------------

    def connected(self, online: bool) -> None:
        with self._lock:
            self._online = online
            if online:
                for lane in self._lanes.values():
                    lane.resend = True
        self._wake.set()

    def on_message(self, topic: str, payload: bytes) -> None:
        if topic == self.bridge_topic:
            if payload.strip() == b"1":
                log.info("uplink: the bridge to the central is up; sending from each mark")
                with self._lock:
                    for lane in self._lanes.values():
                        lane.resend = True
                self._wake.set()
            return
        event = self.topics.parse_ack(topic)
        try:
            ack = ack_decoder.decode(payload)
        except (msgspec.DecodeError, ValueError) as err:
            log.warning("uplink: ignored an ack on %s: %s", topic, err)
            return
        with self._lock:
            acked = self._lanes.get(event or "")
            if acked is None:
                return  # an event this venue's registry does not list (another store's)
            acked.on_ack(ack)
        self._wake.set()

    # -- the sender thread -------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stopping.is_set():
            self._wake.wait(timeout=0.5)
            self._wake.clear()
            try:
                with self._lock:
                    lanes = sorted(self._lanes.values(), key=lambda lane: lane.event != self.event)
                for lane in lanes:
                    self._pump(lane)
                    self._save_mark(lane)
            except Exception:
                log.exception("uplink: sender error (retrying)")
                self._stopping.wait(1.0)

    def _pump(self, lane: _Lane) -> None:
        while not self._stopping.is_set():
            with self._lock:
                if not self._online:
                    return
                after = lane.due(time.monotonic())
                room = self.window - (after - lane.acked)
            if room <= 0:
                return
            store = self._store_of(lane)
            if store is None:
                return
            stored = store.events(source=HUB_SOURCE, after_seq=after, limit=min(room, self.batch))
            if not stored:
                return
            records: list[UpRecord] = []
            size = 0
            for event in stored:
                if records and (event.seq != records[-1].seq + 1 or size > MAX_BATCH_BYTES):
                    break
                raw = msgspec.Raw(event.payload)
                records.append(UpRecord(event.seq, event.kind, event.ts, raw))
                size += len(event.payload)
            batch = RecordBatch(LEAGUE_VERSION, tuple(records))
            self._publish(lane.topic, msgspec.json.encode(batch))
            self.batches += 1
            with self._lock:
                if lane.sent == after:
                    lane.sent = records[-1].seq

    def _store_of(self, lane: _Lane) -> EventStore | None:
        """The lane's store, opened once; None while its file is not there (never made)."""
        if lane.store is not None:
            return lane.store
        if not lane.db.is_file():
            if not lane.missing:
                log.warning("uplink: event %s's store %s is not there; its records go up "
                            "once it is back", lane.event, lane.db)
            lane.missing = True
            return None
        lane.missing = False
        lane.store = EventStore(lane.db)
        return lane.store

    def _save_mark(self, lane: _Lane, *, force: bool = False) -> None:
        """Keep the lane's mark in the registry: when it is caught up, else at most every
        :data:`MARK_EVERY` seconds."""
        registry = self._registry
        if registry is None or lane.acked == lane.saved:
            return
        now = time.monotonic()
        if force or lane.sent == lane.acked or now - lane.saved_at > MARK_EVERY:
            registry.save_mark(self.venue, lane.event, lane.acked)
            lane.saved, lane.saved_at = lane.acked, now
