"""The hub's records up to the central league service (docs/protocol.md, "The league
stream").

The hub's store is the queue: its records are numbered (the hub's seq) and kept, so the
uplink keeps only the central's acknowledged mark, in memory. A sender thread of its own
reads the records after what it has sent and publishes them in batches of consecutive
seqs on the venue broker's league topic, which the venue's Mosquitto bridges to the
central; at most ``window`` records are outstanding, so hours without the uplink leave
nothing but the store growing, and the day at the venue never waits for it (publishing
to the local broker is all the hub does).

The central acks with its contiguous mark (retained, so a hub that restarts learns it
at once when the bridge is up): the sender moves on from there. It sends again from the
mark after a connect, when the bridge to the central comes back (the venue broker's
``$SYS/broker/connection/…/state``), when the central asks (a gap), and when acks stop
coming for ``retransmit_after`` seconds (doubling while nothing answers, up to
``MAX_RETRANSMIT``): a venue broker killed with the batches in its bridge queue loses
nothing the store holds. The central stores each seq once, so a batch sent twice is
stored once.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
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

log = logging.getLogger("hub.uplink")

WINDOW: Final = 400
"""Records outstanding (sent, not acked) at most."""
BATCH: Final = 100
"""Records per message at most."""
MAX_RETRANSMIT: Final = 60.0
"""Seconds between two resends at most while the central does not answer."""

Publish = Callable[[str, bytes], None]


def bridge_state_topic(connection: str) -> str:
    """Where the venue's Mosquitto says whether its bridge ``connection`` is up."""
    return f"$SYS/broker/connection/{connection}/state"


class Uplink:
    """Sends one event's records to the central; fed by the hub service's MQTT client
    (:meth:`connected`, :meth:`on_message`), publishing through ``publish``."""

    def __init__(
        self,
        db: str | Path,
        venue: str,
        event: str,
        publish: Publish,
        *,
        bridge: str = "",
        window: int = WINDOW,
        batch: int = BATCH,
        retransmit_after: float = 10.0,
    ) -> None:
        self.topics = VenueLeagueTopics(venue)
        self.event = event
        self.up_topic = self.topics.up(event)
        self.ack_topic = self.topics.ack(event)
        self.bridge_topic = bridge_state_topic(bridge) if bridge else ""
        self._store = EventStore(db)
        self._publish = publish
        self.window = window
        self.batch = batch
        self.retransmit_after = retransmit_after
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._online = False
        self.acked = 0
        """The central's mark: every record up to it is stored there."""
        self._sent = 0
        self._resend = True
        self._last_progress = time.monotonic()
        self._backoff = retransmit_after
        self.batches = 0
        self.resends = 0
        self._thread = threading.Thread(target=self._run, name="hub-uplink", daemon=True)

    def filters(self) -> list[str]:
        """What the hub service subscribes to for the uplink."""
        return [self.ack_topic, *([self.bridge_topic] if self.bridge_topic else [])]

    def handles(self, topic: str) -> bool:
        return topic in (self.ack_topic, self.bridge_topic)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(3.0)
        self._store.close()

    def notify(self) -> None:
        """New records may be stored (cheap, any thread)."""
        self._wake.set()

    # -- fed by the hub service's client (paho's thread) -----------------------------------

    def connected(self, online: bool) -> None:
        with self._lock:
            self._online = online
            self._resend = self._resend or online
        self._wake.set()

    def on_message(self, topic: str, payload: bytes) -> None:
        if topic == self.bridge_topic:
            if payload.strip() == b"1":
                log.info("uplink: the bridge to the central is up; sending from seq %d",
                         self.acked + 1)  # fmt: skip
                with self._lock:
                    self._resend = True
                self._wake.set()
            return
        try:
            ack = ack_decoder.decode(payload)
        except (msgspec.DecodeError, ValueError) as err:
            log.warning("uplink: ignored an ack on %s: %s", topic, err)
            return
        self._on_ack(ack)

    def _on_ack(self, ack: RecordAck) -> None:
        with self._lock:
            if ack.upto > self.acked or ack.upto < self.acked:
                if ack.upto < self.acked:
                    log.warning("uplink: the central has up to seq %d of the %d it acked; "
                                "sending the rest again", ack.upto, self.acked)  # fmt: skip
                    self._sent = min(self._sent, ack.upto)
                self.acked = ack.upto
                self._last_progress = time.monotonic()
                self._backoff = self.retransmit_after
            self._sent = max(self._sent, self.acked)
            if ack.resend_from is not None:
                self._sent = min(self._sent, ack.resend_from - 1)
                self.resends += 1
        self._wake.set()

    # -- the sender thread -------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stopping.is_set():
            self._wake.wait(timeout=0.5)
            self._wake.clear()
            try:
                self._pump()
            except Exception:
                log.exception("uplink: sender error (retrying)")
                self._stopping.wait(1.0)

    def _pump(self) -> None:
        while not self._stopping.is_set():
            now = time.monotonic()
            with self._lock:
                if not self._online:
                    return
                if self._resend:
                    self._resend = False
                    self._sent = self.acked
                    self._last_progress = now
                elif self._sent > self.acked and now - self._last_progress > self._backoff:
                    log.info("uplink: no ack from the central for %.0f s; sending again from "
                             "seq %d", now - self._last_progress, self.acked + 1)  # fmt: skip
                    self._sent = self.acked
                    self._last_progress = now
                    self._backoff = min(self._backoff * 2, MAX_RETRANSMIT)
                    self.resends += 1
                after, room = self._sent, self.window - (self._sent - self.acked)
            if room <= 0:
                return
            stored = self._store.events(
                source=HUB_SOURCE, after_seq=after, limit=min(room, self.batch)
            )
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
            self._publish(
                self.up_topic, msgspec.json.encode(RecordBatch(LEAGUE_VERSION, tuple(records)))
            )
            self.batches += 1
            with self._lock:
                if self._sent == after:
                    self._sent = records[-1].seq
