"""The hub's event store: everything the hub knows, append-only, in SQLite.

``events`` holds every accepted event once: ``(source, seq)`` is unique, where the
source is a table unit's id (its journal seq) or ``"hub"`` for facts the hub itself
records (assignments, broadcasts, and later organizer facts and judge corrections,
numbered by the store). An event is never updated or deleted; a correction is a new
event. Derived tables (``sources``, ``moves``) are updated in the same transaction as the
insert and can be rebuilt from ``events`` at any time (:meth:`EventStore.rebuild`); what
the hub refused is kept outside the event records. The tables are
:mod:`hub.store_schema`'s, what the store answers :mod:`hub.store_rows`'.

Journal epochs: a unit's journal carries an epoch made when its file was created, and
the identity of a unit's event is ``(unit, epoch, seq)``. Each ``(unit, epoch)`` is a
source of its own: the first epoch the store sees of a unit (and the epoch-less events of
a release before epochs) is the source named by the unit id itself, every later one
``unit@epoch``. ``epochs`` records which source each epoch is, its table and when it first
arrived: a later epoch is the table's unit replaced (or its journal wiped), shown to the
organizer (:meth:`EventStore.replacements`). Stores of a release before epochs gain the
``epochs`` table when opened; their rows need no change.

WAL with ``synchronous=FULL``: once :meth:`EventStore.ingest` returns, the events
survive a crash or power loss, so the hub may ack them.

Each source's marks and each journal epoch's source are kept in memory between writes
(an event then costs its own rows, not look-ups of its source's), and trusted only while
no other connection has written the file since (SQLite's ``data_version``, read in every
write transaction) and no write of this one was rolled back. Inside a transaction the
changed marks and the new ``moves`` rows wait in memory and are written together before
the commit (or before anything reads those tables).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from hub.store_rows import (
    FoldSnapshot,
    IngestResult,
    LoggedRefusal,
    MoveRow,
    RefusalCount,
    Refused,
    Replacement,
    SetAside,
    SourceMark,
    StoredEvent,
    unit_events,
)
from hub.store_schema import open_store
from tablekit.core.clock_events import MovePassed
from tablekit.core.messages import WINDOW, AnyUnitEvent, EventEnvelope
from tablekit.core.topics import BEYOND_WINDOW, CONFLICT, NEW_JOURNALS

HUB_SOURCE = "hub"
MAX_COPIES = 3
"""Copies of one (unit, seq) kept in ``set_aside``; further ones are only counted."""
MAX_SET_ASIDE_TABLE = 50
"""Refused events of one table kept in ``set_aside`` for the judge; further ones are
answered and counted (``dropped``), not kept: what one account can make the store keep
of what the hub refuses."""
MAX_SET_ASIDE = 500
"""Refused events kept in ``set_aside`` for the whole event (at most
:data:`~tablekit.core.messages.MAX_PAYLOAD` bytes each)."""
DROPPED = "dropped"
"""The refusal counts' code of refused events answered but not kept (over the limits)."""
NEW_JOURNALS_LIMIT = 3
"""Later journal epochs of one table the store takes within :data:`JOURNAL_PERIOD`: a
card swapped, a wiped or restored unit; more is a fault or a misused account."""
JOURNAL_PERIOD = 3600.0
"""Seconds over which :data:`NEW_JOURNALS_LIMIT` counts; a journal refused for it is
taken once older ones have left the period (its unit keeps sending it)."""
JOURNALS = "journals"
"""The refusal counts' code of events of a new journal refused for the limit."""
MAX_REFUSAL_LOG = 1000
"""Rows kept in ``refusal_log`` (the newest); ``refusal_counts`` keeps the totals."""
MAX_LOGGED_TEXT = 300
"""Characters of a topic or reason kept in the refusal log."""
MAX_KEPT_MARKS = 10_000
"""Sources whose marks are kept in memory between writes; beyond, they are read again."""

_encoder = msgspec.json.Encoder()

HubFact = tuple[str, msgspec.Struct | bytes | Callable[[int], msgspec.Struct]]
"""A hub fact to store: its kind and its payload (or a function of its seq)."""


@dataclass(slots=True)
class _Kept:
    """A source's row of ``sources`` as the store keeps it between writes."""

    table: int | None
    contiguous: int
    max_seq: int
    events: int
    last_received: float


class EventStore:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._file = open_store(self.path)
        self._db = self._file.db
        self._lock = self._file.lock
        self._kept: dict[str, _Kept] = {}
        """Rows of ``sources`` read or written by this connection, as they are in the file
        (see above)."""
        self._epoch_sources: dict[tuple[str, str], str] = {}
        self._aside: set[str] | None = None
        """The sources with anything set aside, once read."""
        self._changed: set[str] = set()
        """Sources whose kept marks the transaction changed and has not written yet."""
        self._new_moves: list[tuple[Any, ...]] = []
        """``moves`` rows the transaction derived and has not written yet."""
        self._version = -1
        """The file's ``data_version`` when the kept marks were last known true."""

    # -- writing -----------------------------------------------------------------------------

    def ingest(
        self,
        envelopes: Iterable[EventEnvelope],
        received: float | None = None,
        *,
        derive: Callable[[EventEnvelope], Sequence[tuple[str, msgspec.Struct]]] | None = None,
        refused: Iterable[Refused] = (),
    ) -> IngestResult:
        """Store unit events (duplicates ignored) and the derived rows, in one commit.

        ``derive`` answers each newly stored event with hub facts (e.g. the verdict on a
        submitted result), stored in the same commit: an event and its answer are kept
        together or not at all, and a replayed event is never answered twice.

        The envelopes' identity is already checked (``tablekit.core.codec.check_identity``).
        A seq beyond the unit's contiguous mark plus :data:`~tablekit.core.messages.WINDOW` is
        refused and only logged; one already stored with other content is set aside as a
        conflict (both copies kept, the unit told). ``refused`` are messages the caller
        refused: with a unit and seq within the window they are set aside and answered,
        the others logged.
        """
        now = time.time() if received is None else received
        result = IngestResult()
        touched: dict[str, tuple[str, str]] = {}
        with self._lock, self._tx():
            for env in envelopes:
                source = self._source_of(env.unit, env.epoch, env.table, now, result)
                if source is None:
                    self._log(result, _new_journal(env.unit, env.epoch, env.table), now)
                    continue
                if not self._in_window(source, env.seq):
                    self._log(result, _beyond_window(env.unit, env.seq, env.table), now)
                    result.beyond_window += 1
                    # answered with the hub's mark: a unit ahead of it (a hub started
                    # from a backup copy) sends again from there
                    known = self._mark(source) or SourceMark(source, env.table, 0, 0, 0)
                    result.marks[source] = _of_unit(known, env.unit, env.epoch)
                    continue
                payload = _encoder.encode(env.event)
                kind = _kind(env.event)
                row = (source, env.seq, env.table, kind, env.event.game, env.ts, now, payload)
                inserted = self._insert(row)
                if inserted:
                    result.inserted += 1
                    self._derive(
                        source, env.seq, table=env.table, ts=env.ts, received=now, event=env.event
                    )
                    for fact_kind, fact in derive(env) if derive is not None else ():
                        self._append_hub(fact_kind, fact, table=env.table, game=None, now=now)
                        result.facts += 1
                elif self._same(source, env.seq, env.event):
                    result.duplicates += 1
                else:
                    result.conflicts += 1
                    conflict = Refused(
                        "conflict",
                        CONFLICT.format(seq=env.seq),
                        env.table,
                        unit=env.unit,
                        seq=env.seq,
                        payload=payload,
                        epoch=env.epoch,
                    )
                    self._set_aside(result, source, conflict, now)
                touched[source] = (env.unit, env.epoch)
            for item in refused:
                if item.unit is None or item.seq is None:
                    self._log(result, item, now)
                    continue
                source = self._source_of(item.unit, item.epoch, item.table, now, result)
                if source is None:
                    self._log(result, _new_journal(item.unit, item.epoch, item.table), now)
                elif not self._in_window(source, item.seq):
                    self._log(result, _beyond_window(item.unit, item.seq, item.table), now)
                else:
                    self._set_aside(result, source, item, now)
                    touched[source] = (item.unit, item.epoch)
            if result.logged:
                self._db.execute(
                    "DELETE FROM refusal_log WHERE id <= (SELECT max(id) FROM refusal_log) - ?",
                    (MAX_REFUSAL_LOG,),
                )
            for source, (unit, epoch) in touched.items():
                mark = self._mark(source)
                if mark is not None:
                    result.marks[source] = _of_unit(mark, unit, epoch)
            for source, mark in result.marks.items():
                low = max(1, mark.contiguous - WINDOW + 1)
                result.held[source] = self._held(source, low, mark.contiguous)
        return result

    def _source_of(
        self, unit: str, epoch: str, table: int | None, now: float, result: IngestResult
    ) -> str | None:
        """The source of journal epoch ``epoch`` of ``unit``, registering a new epoch: the
        unit's own id for the first epoch the store sees of it (and for the events of a
        journal before epochs, which may already be stored under it), ``unit@epoch`` for
        every later one (a replaced unit or a wiped journal). None for a later epoch over
        :data:`NEW_JOURNALS_LIMIT` within :data:`JOURNAL_PERIOD` at its table."""
        kept = self._epoch_sources.get((unit, epoch))
        if kept is not None:
            return kept
        row = self._db.execute(
            "SELECT source FROM epochs WHERE unit = ? AND epoch = ?", (unit, epoch)
        ).fetchone()
        if row is not None:
            return self._keep_epoch(unit, epoch, str(row[0]))
        registered = self._db.execute(
            "SELECT 1 FROM epochs WHERE unit = ? LIMIT 1", (unit,)
        ).fetchone()
        legacy = self._mark(unit) is not None and registered is None
        # the unit's id: its first epoch, or the epoch-less journal whose events it holds
        if (registered is None and not legacy) or (epoch == "" and legacy):
            source = unit
        elif self._later_journals(table, now) >= NEW_JOURNALS_LIMIT:
            return None
        else:
            source = f"{unit}@{epoch}"
            result.replaced.append(Replacement(table, unit, epoch, source, now))
        self._db.execute(
            "INSERT INTO epochs (unit, epoch, source, table_no, first_received)"
            " VALUES (?, ?, ?, ?, ?)",
            (unit, epoch, source, table, now),
        )
        return self._keep_epoch(unit, epoch, source)

    def _keep_epoch(self, unit: str, epoch: str, source: str) -> str:
        if len(self._epoch_sources) >= MAX_KEPT_MARKS:
            self._epoch_sources.clear()
        self._epoch_sources[(unit, epoch)] = source
        return source

    def _later_journals(self, table: int | None, now: float) -> int:
        """Later journal epochs of ``table`` registered within :data:`JOURNAL_PERIOD`."""
        return int(
            self._db.execute(
                "SELECT count(*) FROM epochs WHERE table_no IS ? AND source != unit"
                " AND first_received > ?",
                (table, now - JOURNAL_PERIOD),
            ).fetchone()[0]
        )

    def _in_window(self, source: str, seq: int) -> bool:
        kept = self._row(source)
        return seq <= (0 if kept is None else kept.contiguous) + WINDOW

    def _set_aside(self, result: IngestResult, source: str, item: Refused, now: float) -> None:
        assert item.unit is not None and item.seq is not None
        result.answered.append(item)
        self._count_refusal(item.code, item.table, now)
        copies = self._db.execute(
            "SELECT count(*) FROM set_aside WHERE source = ? AND seq = ?", (source, item.seq)
        ).fetchone()[0]
        if copies >= MAX_COPIES:
            return
        settled = self._stored(source, item.seq)
        if self._room_set_aside(item.table):
            if self._aside is not None:
                self._aside.add(source)
            self._db.execute(
                "INSERT OR IGNORE INTO set_aside"
                " (source, seq, table_no, code, reason, received, payload)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (source, item.seq, item.table, item.code, item.reason, now, item.payload),
            )
        else:  # answered and counted; its unit keeps its copy
            self._count_refusal(DROPPED, item.table, now)
            result.dropped += 1
        if not settled:
            self._bump_source(source, item.seq, table=item.table, ts=now, received=now, count=0)

    def _room_set_aside(self, table: int | None) -> bool:
        """Whether one more refused event of ``table`` may be kept: under
        :data:`MAX_SET_ASIDE_TABLE` of its own and :data:`MAX_SET_ASIDE` in all."""
        total, own = self._db.execute(
            "SELECT count(*), count(*) FILTER (WHERE table_no IS ?) FROM set_aside", (table,)
        ).fetchone()
        return bool(total < MAX_SET_ASIDE and own < MAX_SET_ASIDE_TABLE)

    def _log(self, result: IngestResult, item: Refused, now: float) -> None:
        result.logged += 1
        self._count_refusal(item.code, item.table, now)
        self._db.execute(
            "INSERT INTO refusal_log (at, table_no, code, topic, reason) VALUES (?, ?, ?, ?, ?)",
            (now, item.table, item.code, item.topic[:MAX_LOGGED_TEXT],
             item.reason[:MAX_LOGGED_TEXT]),
        )

    def _count_refusal(self, code: str, table: int | None, now: float) -> None:
        self._db.execute(
            "INSERT INTO refusal_counts VALUES (?, ?, 1, ?, ?) ON CONFLICT (code, table_no)"
            " DO UPDATE SET count = count + 1, last = excluded.last",
            (code, table or 0, now, now),
        )

    def append_fact(
        self,
        kind: str,
        payload: msgspec.Struct | bytes | Callable[[int], msgspec.Struct],
        *,
        table: int | None = None,
        game: int | None = None,
        ts: float | None = None,
    ) -> int:
        """Record a fact the hub itself knows (an assignment, a broadcast, …); its seq.

        ``payload`` may be a function of the fact's seq (e.g. a broadcast whose id it is).
        """
        [seq] = self.append_facts([(kind, payload)], table=table, game=game, ts=ts)
        return seq

    def append_facts(
        self,
        facts: Sequence[HubFact] | Callable[[], Sequence[HubFact]],
        *,
        table: int | None = None,
        game: int | None = None,
        ts: float | None = None,
        check: Callable[[], object] | None = None,
    ) -> list[int]:
        """Record several hub facts in one transaction: all of them or none; their seqs.

        ``check`` runs first inside the transaction, which holds the database's write
        lock: what it reads is everything stored so far, by any process, and nothing can
        be stored between it and the facts. If it raises, nothing is stored. ``facts``
        may be a function, called inside the transaction after ``check``: facts made from
        what is stored then.
        """
        now = time.time() if ts is None else ts
        seqs: list[int] = []
        with self._lock, self._tx():
            if check is not None:
                check()
            for kind, payload in facts() if callable(facts) else facts:
                seqs.append(self._append_hub(kind, payload, table=table, game=game, now=now))
        return seqs

    def _append_hub(
        self,
        kind: str,
        payload: msgspec.Struct | bytes | Callable[[int], msgspec.Struct],
        *,
        table: int | None,
        game: int | None,
        now: float,
    ) -> int:
        mark = self._mark(HUB_SOURCE)
        seq = 1 if mark is None else mark.max_seq + 1
        if isinstance(payload, bytes):
            body = payload
        elif isinstance(payload, msgspec.Struct):
            body = _encoder.encode(payload)
        else:
            body = _encoder.encode(payload(seq))
        self._insert((HUB_SOURCE, seq, table, kind, game, now, now, body))
        self._bump_source(HUB_SOURCE, seq, table=table, ts=now, received=now)
        return seq

    def rewrite(
        self,
        rewrite: Callable[[bytes], bytes | None],
        facts: Sequence[tuple[str, msgspec.Struct]],
        *,
        check: Callable[[], object] | None = None,
    ) -> int:
        """The one exception to append-only: every stored payload (the events and those set
        aside) replaced by ``rewrite(payload)`` where it answers one, ``facts`` recorded and
        the snapshot of the fold deleted, in one transaction (``check`` first, as
        :meth:`append_facts` does); :meth:`compact` afterwards leaves no page keeping what
        was replaced. For erasing personal data after the event (:mod:`hub.erasure`); the
        seqs and kinds stay, so the units' marks and the derived tables stay true. The
        payloads rewritten."""
        changed = 0
        now = time.time()
        with self._lock:
            self._db.execute("PRAGMA secure_delete=ON")
            try:
                with self._tx():
                    if check is not None:
                        check()
                    for table in ("events", "set_aside"):
                        rows = self._db.execute(f"SELECT id, payload FROM {table}").fetchall()
                        for row_id, payload in rows:
                            new = rewrite(bytes(payload))
                            if new is not None and new != bytes(payload):
                                self._db.execute(
                                    f"UPDATE {table} SET payload = ? WHERE id = ?", (new, row_id)
                                )
                                changed += 1
                    for kind, fact in facts:
                        self._append_hub(kind, fact, table=None, game=None, now=now)
                    # a snapshot of the fold holds what was replaced
                    self._db.execute("DELETE FROM fold_snapshot")
            finally:
                self._db.execute("PRAGMA secure_delete=OFF")
        return changed

    def keep_fold(self, snapshot: FoldSnapshot) -> bool:
        """Keep ``snapshot`` of the folded event (:mod:`hub.fold_snapshot`) in place of any
        other, unless the hub has recorded anything after what it folded (it would be out
        of date already, or made before an erasure), or a transaction is open (it is kept by
        the next read outside one), or the file cannot be written now: whether it was kept."""
        if self._db.in_transaction:
            return False
        try:
            return self._keep_fold(snapshot)
        except sqlite3.OperationalError:  # locked for too long, or a read-only file
            return False

    def _keep_fold(self, snapshot: FoldSnapshot) -> bool:
        with self._lock, self._tx():
            mark = self._mark(HUB_SOURCE)
            if mark is None or mark.max_seq != snapshot.seq:
                return False
            self._db.execute(
                "INSERT OR REPLACE INTO fold_snapshot (id, seq, code, digest, made, payload)"
                " VALUES (1, ?, ?, ?, ?, ?)",
                (snapshot.seq, snapshot.code, snapshot.digest, time.time(), snapshot.payload),
            )
        return True

    def fold(self) -> FoldSnapshot | None:
        """The snapshot of the folded event kept in the store, if any (not checked)."""
        with self._lock:
            row = self._db.execute(
                "SELECT seq, code, digest, payload FROM fold_snapshot WHERE id = 1"
            ).fetchone()
        return None if row is None else FoldSnapshot(row[0], bytes(row[1]), bytes(row[2]),
                                                     bytes(row[3]))

    def hub_records(self, upto: int) -> list[tuple[int, str, bytes]]:
        """The hub's records up to seq ``upto``: (seq, kind, payload), in seq order."""
        with self._lock:
            self._write_changes()
            rows = self._db.execute(
                "SELECT seq, kind, payload FROM events WHERE source = ? AND seq <= ?"
                " ORDER BY seq",
                (HUB_SOURCE, upto),
            ).fetchall()
        return [(int(seq), str(kind), bytes(payload)) for seq, kind, payload in rows]

    def compact(self) -> bool:
        """Copy the file anew (SQLite's VACUUM) and empty its write-ahead log, so no free
        page or old log frame keeps a replaced record; False when another connection was
        reading and the log could not be emptied (run it again once it has closed)."""
        with self._lock:
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            self._db.execute("VACUUM")
            busy = self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
        return not busy

    def rebuild(self) -> int:
        """Recompute every derived table from ``events``; returns the events read."""
        with self._lock, self._tx():
            self._db.execute("DELETE FROM sources")
            self._db.execute("DELETE FROM moves")
            self._kept.clear()
            count = 0
            rows = self._db.execute(
                "SELECT source, seq, table_no, ts, received, payload FROM events ORDER BY id"
            )
            for source, seq, table, ts, received, payload in rows.fetchall():
                count += 1
                if source == HUB_SOURCE:
                    self._bump_source(source, seq, table=table, ts=ts, received=received)
                else:
                    event = unit_events.decode(payload)
                    self._derive(source, seq, table=table, ts=ts, received=received, event=event)
            aside = self._db.execute(
                "SELECT source, seq, table_no, min(received) FROM set_aside a WHERE NOT EXISTS"
                " (SELECT 1 FROM events e WHERE e.source = a.source AND e.seq = a.seq)"
                " GROUP BY source, seq ORDER BY source, seq"
            )
            for source, seq, table, received in aside.fetchall():
                self._bump_source(source, seq, table=table, ts=received, received=received, count=0)
        return count

    # -- queries -----------------------------------------------------------------------------

    def events(
        self,
        *,
        table: int | None = None,
        game: int | None = None,
        source: str | None = None,
        kind: str | None = None,
        after_seq: int | None = None,
        limit: int | None = None,
    ) -> list[StoredEvent]:
        """Matching events: each source's in seq order, sources in order of first arrival.

        ``after_seq`` (with ``source``) reads only what that source added since, and
        ``limit`` at most that many.
        """
        where, args = _filters(table=table, game=game, source=source, kind=kind)
        if after_seq is not None:
            where = f"{where} AND e.seq > ?" if where else " WHERE e.seq > ?"
            args = [*args, after_seq]
        rows = self._by_arrival(
            "e.id, e.source, e.seq, e.table_no, e.kind, e.game, e.ts, e.received, e.payload",
            "events e",
            where,
            args,
            limit,
        )
        return [
            StoredEvent(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], bytes(r[8])) for r in rows
        ]

    def moves(self, *, table: int | None = None, game: int | None = None) -> list[MoveRow]:
        where, args = _filters(table=table, game=game, source=None, kind=None, alias="m")
        rows = self._by_arrival(
            "m.source, m.seq, m.table_no, m.game, m.move, m.seat, m.used, m.timed_out, "
            "m.overtime, m.ts",
            "moves m",
            where,
            args,
        )
        return [
            MoveRow(r[0], r[1], r[2], r[3], r[4], r[5], r[6], bool(r[7]), r[8], r[9]) for r in rows
        ]

    def mark(self, source: str) -> SourceMark | None:
        with self._lock:
            self._write_changes()
            return self._read_mark(source)

    def marks(self) -> dict[str, SourceMark]:
        """Every source's high-water marks (what a restarted hub acks from)."""
        with self._lock:
            self._write_changes()
            rows = self._db.execute(
                "SELECT source, table_no, contiguous, max_seq, events FROM sources"
            ).fetchall()
        return {r[0]: SourceMark(*r) for r in rows}

    def held(self, source: str, low: int, high: int) -> list[int]:
        """The seqs of ``source`` from ``low`` to ``high`` the unit must keep: in conflict,
        or refused with no valid copy stored since (a later valid copy settles it)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT DISTINCT seq FROM set_aside a WHERE source = ? AND seq BETWEEN ? AND ?"
                " AND (code = 'conflict' OR NOT EXISTS (SELECT 1 FROM events e"
                " WHERE e.source = a.source AND e.seq = a.seq)) ORDER BY seq",
                (source, low, high),
            ).fetchall()
        return [int(r[0]) for r in rows]

    def _held(self, source: str, low: int, high: int) -> list[int]:
        """:meth:`held` inside a write transaction: none without a look at the file for a
        source with nothing set aside (most of them)."""
        if self._aside is None:
            rows = self._db.execute("SELECT DISTINCT source FROM set_aside").fetchall()
            self._aside = {str(r[0]) for r in rows}
        return self.held(source, low, high) if source in self._aside else []

    def set_aside(self, *, table: int | None = None) -> list[SetAside]:
        """Every event set aside (oldest first), with the stored event of the same seq."""
        where, args = ("WHERE a.table_no = ?", [table]) if table is not None else ("", [])
        sql = (
            "SELECT a.source, a.seq, a.table_no, a.code, a.reason, a.received, a.payload,"
            " e.payload FROM set_aside a LEFT JOIN events e"
            f" ON e.source = a.source AND e.seq = a.seq {where} ORDER BY a.id"
        )
        with self._lock:
            rows = self._db.execute(sql, args).fetchall()
        return [
            SetAside(
                source=r[0], seq=r[1], table=r[2], code=r[3], reason=r[4], received=r[5],
                payload=bytes(r[6]), stored=None if r[7] is None else bytes(r[7]),
            )
            for r in rows
        ]

    def replacements(self, *, table: int | None = None) -> list[Replacement]:
        """Every later journal epoch of a unit (a unit replaced or its journal wiped),
        in the order the hub first heard from them."""
        where, args = ("AND table_no = ?", [table]) if table is not None else ("", [])
        with self._lock:
            rows = self._db.execute(
                "SELECT table_no, unit, epoch, source, first_received FROM epochs"
                f" WHERE source != unit {where} ORDER BY first_received, source",
                args,
            ).fetchall()
        return [Replacement(r[0], r[1], r[2], r[3], r[4]) for r in rows]

    def refusal_counts(self) -> list[RefusalCount]:
        """How often the hub refused what, per table (None: no table known), by table."""
        with self._lock:
            rows = self._db.execute(
                "SELECT code, table_no, count, first, last FROM refusal_counts"
                " ORDER BY table_no, code"
            ).fetchall()
        return [RefusalCount(r[0], r[1] or None, r[2], r[3], r[4]) for r in rows]

    def refusal_log(self, limit: int = 50) -> list[LoggedRefusal]:
        """The newest refusals only logged (not events), newest last."""
        with self._lock:
            rows = self._db.execute(
                "SELECT at, table_no, code, topic, reason FROM refusal_log"
                " ORDER BY id DESC LIMIT ?",
                (limit,),
            ).fetchall()
        return [LoggedRefusal(*r) for r in reversed(rows)]

    def counts(self) -> dict[str, int]:
        """Events per kind, plus ``total``."""
        with self._lock:
            rows = self._db.execute("SELECT kind, count(*) FROM events GROUP BY kind").fetchall()
        counts = {str(k): int(n) for k, n in rows}
        counts["total"] = sum(counts.values())
        return counts

    def version(self) -> int:
        """SQLite's ``data_version`` of the file: it changes when another connection (another
        program) commits to it, never with this store's own commits."""
        with self._lock:
            return int(self._db.execute("PRAGMA data_version").fetchone()[0])

    def integrity_check(self) -> str:
        return self._file.integrity_check()

    def close(self) -> None:
        self._file.close()

    # -- internals ----------------------------------------------------------------------------

    def _by_arrival(
        self, columns: str, table: str, where: str, args: Sequence[Any], limit: int | None = None
    ) -> list[tuple[Any, ...]]:
        """``columns`` of ``table`` (``"events e"``: its name and alias) matching
        ``where``: each source's rows in seq order, sources in order of first arrival."""
        alias = table.split()[1]
        sql = (
            f"SELECT {columns} FROM {table} JOIN sources s ON s.source = {alias}.source"
            f"{where} ORDER BY s.first_received, {alias}.source, {alias}.seq"
            + ("" if limit is None else f" LIMIT {int(limit)}")
        )
        with self._lock:
            self._write_changes()
            return list(self._db.execute(sql, args).fetchall())

    def _insert(
        self, row: tuple[str, int, int | None, str, int | None, float, float, bytes]
    ) -> bool:
        """Insert ``(source, seq, table, kind, game, ts, received, payload)`` unless known."""
        cur = self._db.execute(
            "INSERT OR IGNORE INTO events"
            " (source, seq, table_no, kind, game, ts, received, payload)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            row,
        )
        return cur.rowcount == 1

    def _stored(self, source: str, seq: int) -> bool:
        """Whether (source, seq) is settled: an event or something set aside."""
        return bool(
            self._db.execute(
                "SELECT 1 FROM events WHERE source = ? AND seq = ? UNION ALL"
                " SELECT 1 FROM set_aside WHERE source = ? AND seq = ? LIMIT 1",
                (source, seq, source, seq),
            ).fetchone()
        )

    def _same(self, source: str, seq: int, event: AnyUnitEvent) -> bool:
        """Whether the event stored under (source, seq) is ``event``: compared decoded, so
        an event stored by an older version (whose encoding lacked a field added since,
        say) is still recognised when its unit sends it again."""
        row = self._db.execute(
            "SELECT payload FROM events WHERE source = ? AND seq = ?", (source, seq)
        ).fetchone()
        if row is None:
            return False
        try:
            return bool(unit_events.decode(bytes(row[0])) == event)
        except (msgspec.DecodeError, ValueError):
            return False

    def _derive(
        self,
        source: str,
        seq: int,
        *,
        table: int | None,
        ts: float,
        received: float,
        event: AnyUnitEvent,
    ) -> None:
        self._bump_source(source, seq, table=table, ts=ts, received=received)
        if isinstance(event, MovePassed):
            self._new_moves.append((
                source, seq, table, event.game, event.move, str(event.seat), event.used,
                int(event.timed_out), event.overtime, ts,
            ))

    def _bump_source(
        self,
        source: str,
        seq: int,
        *,
        table: int | None,
        ts: float,
        received: float,
        count: int = 1,
    ) -> None:
        kept = self._row(source)
        if kept is None:
            kept = self._keep(source, _Kept(table, 0, 0, 0, received))
            self._db.execute(
                "INSERT INTO sources VALUES (?, ?, 0, 0, 0, ?, ?)",
                (source, table, received, received),
            )
        if seq == kept.contiguous + 1:
            kept.contiguous = seq
            if kept.max_seq > seq:
                while self._stored(source, kept.contiguous + 1):
                    kept.contiguous += 1
        kept.table = table
        kept.max_seq = max(kept.max_seq, seq)
        kept.events += count
        kept.last_received = received
        self._changed.add(source)

    def _mark(self, source: str) -> SourceMark | None:
        """The marks of ``source`` inside a write transaction."""
        kept = self._row(source)
        if kept is None:
            return None
        return SourceMark(source, kept.table, kept.contiguous, kept.max_seq, kept.events)

    def _row(self, source: str) -> _Kept | None:
        """The row of ``source`` inside a write transaction: kept, or read and kept."""
        kept = self._kept.get(source)
        if kept is None:
            row = self._db.execute(
                "SELECT table_no, contiguous, max_seq, events, last_received FROM sources"
                " WHERE source = ?",
                (source,),
            ).fetchone()
            if row is not None:
                kept = self._keep(source, _Kept(*row))
        return kept

    def _keep(self, source: str, kept: _Kept) -> _Kept:
        if len(self._kept) >= MAX_KEPT_MARKS:
            self._write_changes()
            self._kept.clear()
        self._kept[source] = kept
        return kept

    def _read_mark(self, source: str) -> SourceMark | None:
        row = self._db.execute(
            "SELECT source, table_no, contiguous, max_seq, events FROM sources WHERE source = ?",
            (source,),
        ).fetchone()
        return None if row is None else SourceMark(*row)

    @contextmanager
    def _tx(self) -> Iterator[None]:
        """A write transaction (:meth:`~tablekit.shared.durable.DurableFile.transaction`) in
        which the kept marks are true: forgotten when another connection wrote the file
        since they were kept, and when the transaction is rolled back."""
        try:
            with self._file.transaction():
                version = self._db.execute("PRAGMA data_version").fetchone()[0]
                if version != self._version:
                    self._forget_marks()
                    self._version = version
                yield
                self._write_changes()
        except BaseException:
            self._forget_marks()
            raise

    def _write_changes(self) -> None:
        """Write the changed marks and the new moves of the transaction."""
        if self._changed:
            self._db.executemany(
                "UPDATE sources SET table_no = ?, contiguous = ?, max_seq = ?, events = ?,"
                " last_received = ? WHERE source = ?",
                [
                    (k.table, k.contiguous, k.max_seq, k.events, k.last_received, source)
                    for source in self._changed
                    for k in (self._kept[source],)
                ],
            )
            self._changed.clear()
        if self._new_moves:
            self._db.executemany(
                "INSERT OR IGNORE INTO moves VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                self._new_moves,
            )
            self._new_moves.clear()

    def _forget_marks(self) -> None:
        self._changed.clear()
        self._new_moves.clear()
        self._kept.clear()
        self._epoch_sources.clear()
        self._aside = None


def _beyond_window(unit: str, seq: int, table: int | None) -> Refused:
    return Refused("window", BEYOND_WINDOW.format(unit=unit, seq=seq, window=WINDOW), table)


def _of_unit(mark: SourceMark, unit: str, epoch: str) -> SourceMark:
    """``mark`` naming the unit and journal epoch it is of (``dataclasses.replace`` costs
    as much as storing an event)."""
    return SourceMark(mark.source, mark.table, mark.contiguous, mark.max_seq, mark.events,
                      unit, epoch)


def _new_journal(unit: str, epoch: str, table: int | None) -> Refused:
    reason = NEW_JOURNALS.format(
        unit=unit, epoch=epoch, count=NEW_JOURNALS_LIMIT + 1, minutes=int(JOURNAL_PERIOD // 60)
    )
    return Refused(JOURNALS, reason, table)


def _kind(event: msgspec.Struct) -> str:
    kind = _KINDS.get(type(event))
    if kind is None:
        tag = type(event).__struct_config__.tag
        kind = _KINDS[type(event)] = str(tag) if tag is not None else type(event).__name__
    return kind


_KINDS: dict[type[msgspec.Struct], str] = {}
"""The store's kind of each event type (its tag), once worked out."""


def _filters(alias: str = "e", **values: Any) -> tuple[str, Sequence[Any]]:
    columns = {"table": "table_no", "game": "game", "source": "source", "kind": "kind"}
    clauses, args = [], []
    for name, value in values.items():
        if value is not None:
            clauses.append(f"{alias}.{columns[name]} = ?")
            args.append(value)
    return (" WHERE " + " AND ".join(clauses) if clauses else ""), args
