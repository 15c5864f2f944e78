"""The hub's event store: everything the hub knows, append-only, in SQLite.

``events`` holds every accepted event once: ``(source, seq)`` is unique, where the
source is a table unit's id (its journal seq) or ``"hub"`` for facts the hub itself
records (assignments, broadcasts, and later organizer facts and judge corrections,
numbered by the store). An event is never updated or deleted; a correction is a new
event. Derived tables are updated in the same transaction as the insert and can be
rebuilt from ``events`` at any time (:meth:`EventStore.rebuild`):

* ``sources``: per source, the highest contiguous seq committed (what the hub acks),
  the highest seq seen (a gap when larger), counts and the table last reported;
* ``moves``: one row per passed move with its duration, for queries and exports.

WAL with ``synchronous=FULL``: once :meth:`EventStore.ingest` returns, the events
survive a crash or power loss, so the hub may ack them.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from tablekit.clock import MovePassed
from tablekit.durable import open_durable, transaction
from tablekit.protocol import AnyUnitEvent, EventEnvelope

HUB_SOURCE = "hub"
SCHEMA_VERSION = 1

_SCHEMA = [
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value) WITHOUT ROWID",
    """CREATE TABLE IF NOT EXISTS events (
        id INTEGER PRIMARY KEY,
        source TEXT NOT NULL,
        seq INTEGER NOT NULL,
        table_no INTEGER,
        kind TEXT NOT NULL,
        game INTEGER,
        ts REAL NOT NULL,
        received REAL NOT NULL,
        payload BLOB NOT NULL,
        UNIQUE (source, seq)
    )""",
    "CREATE INDEX IF NOT EXISTS events_by_table ON events (table_no, game)",
    "CREATE INDEX IF NOT EXISTS events_by_kind ON events (kind)",
    """CREATE TABLE IF NOT EXISTS sources (
        source TEXT PRIMARY KEY,
        table_no INTEGER,
        contiguous INTEGER NOT NULL,
        max_seq INTEGER NOT NULL,
        events INTEGER NOT NULL,
        first_received REAL NOT NULL,
        last_received REAL NOT NULL
    ) WITHOUT ROWID""",
    """CREATE TABLE IF NOT EXISTS moves (
        source TEXT NOT NULL,
        seq INTEGER NOT NULL,
        table_no INTEGER,
        game INTEGER NOT NULL,
        move INTEGER NOT NULL,
        seat TEXT NOT NULL,
        used REAL NOT NULL,
        timed_out INTEGER NOT NULL,
        overtime REAL NOT NULL,
        ts REAL NOT NULL,
        PRIMARY KEY (source, seq)
    ) WITHOUT ROWID""",
    "CREATE INDEX IF NOT EXISTS moves_by_table ON moves (table_no, game)",
]

_event_decoder: msgspec.json.Decoder[AnyUnitEvent] = msgspec.json.Decoder(AnyUnitEvent)
_encoder = msgspec.json.Encoder()


class StoreError(RuntimeError):
    """The store file cannot be used (wrong schema, corrupt)."""


@dataclass(frozen=True)
class StoredEvent:
    id: int
    source: str
    seq: int
    table: int | None
    kind: str
    game: int | None
    ts: float
    received: float
    payload: bytes

    def event(self) -> AnyUnitEvent:
        """The unit event (only for events from a table unit)."""
        return _event_decoder.decode(self.payload)


@dataclass(frozen=True)
class MoveRow:
    source: str
    seq: int
    table: int | None
    game: int
    move: int
    seat: str
    used: float
    timed_out: bool
    overtime: float
    ts: float


@dataclass(frozen=True)
class SourceMark:
    source: str
    table: int | None
    contiguous: int
    """Every seq from 1 up to this one is committed: the ack."""
    max_seq: int
    events: int

    @property
    def gap(self) -> int | None:
        """The first missing seq, when a later one has arrived."""
        return self.contiguous + 1 if self.max_seq > self.contiguous else None


@dataclass
class IngestResult:
    inserted: int = 0
    duplicates: int = 0
    """Exact replays of an event already stored (ignored)."""
    facts: int = 0
    """Hub facts derived from the new events (verdicts on results) in the same commit."""
    conflicts: int = 0
    """A known (source, seq) with a different content (ignored, worth a look)."""
    marks: dict[str, SourceMark] = field(default_factory=dict)
    """Each source of the batch after the commit."""


class EventStore:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.RLock()
        try:
            self._db = open_durable(self.path, timeout=30.0)
        except sqlite3.DatabaseError as err:
            raise StoreError(f"store {self.path}: {err}") from err
        try:
            with self._tx():
                for statement in _SCHEMA:
                    self._db.execute(statement)
                row = self._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
                if row is None:
                    self._db.execute("INSERT INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,))
                elif int(row[0]) != SCHEMA_VERSION:
                    raise StoreError(
                        f"store {self.path} has schema {row[0]}, this hub uses {SCHEMA_VERSION}"
                    )
        except sqlite3.DatabaseError as err:
            self._db.close()
            raise StoreError(f"store {self.path}: {err}") from err
        except StoreError:
            self._db.close()
            raise

    # -- writing -----------------------------------------------------------------------------

    def ingest(
        self,
        envelopes: Iterable[EventEnvelope],
        received: float | None = None,
        *,
        derive: Callable[[EventEnvelope], Sequence[tuple[str, msgspec.Struct]]] | None = None,
    ) -> IngestResult:
        """Store unit events (duplicates ignored) and the derived rows, in one commit.

        ``derive`` answers each newly stored event with hub facts (e.g. the verdict on a
        submitted result), stored in the same commit: an event and its answer are kept
        together or not at all, and a replayed event is never answered twice.
        """
        now = time.time() if received is None else received
        result = IngestResult()
        touched: set[str] = set()
        with self._lock, self._tx():
            for env in envelopes:
                payload = _encoder.encode(env.event)
                kind = _kind(env.event)
                row = (env.unit, env.seq, env.table, kind, env.event.game, env.ts, now, payload)
                inserted = self._insert(row)
                if inserted:
                    result.inserted += 1
                    self._derive(
                        env.unit, env.seq, table=env.table, ts=env.ts, received=now, event=env.event
                    )
                    for fact_kind, fact in derive(env) if derive is not None else ():
                        self._append_hub(fact_kind, fact, table=env.table, game=None, now=now)
                        result.facts += 1
                elif self._same(env.unit, env.seq, payload):
                    result.duplicates += 1
                else:
                    result.conflicts += 1
                touched.add(env.unit)
            for source in touched:
                mark = self._mark(source)
                if mark is not None:
                    result.marks[source] = mark
        return result

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
        facts: Sequence[tuple[str, msgspec.Struct | bytes | Callable[[int], msgspec.Struct]]],
        *,
        table: int | None = None,
        game: int | None = None,
        ts: float | None = None,
        check: Callable[[], object] | None = None,
    ) -> list[int]:
        """Record several hub facts in one transaction: all of them or none; their seqs.

        ``check`` runs first inside the transaction, which holds the database's write
        lock: what it reads is everything stored so far, by any process, and nothing can
        be stored between it and the facts. If it raises, nothing is stored.
        """
        now = time.time() if ts is None else ts
        seqs: list[int] = []
        with self._lock, self._tx():
            if check is not None:
                check()
            for kind, payload in facts:
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

    def rebuild(self) -> int:
        """Recompute every derived table from ``events``; returns the events read."""
        with self._lock, self._tx():
            self._db.execute("DELETE FROM sources")
            self._db.execute("DELETE FROM moves")
            count = 0
            rows = self._db.execute(
                "SELECT source, seq, table_no, ts, received, payload FROM events ORDER BY id"
            )
            for source, seq, table, ts, received, payload in rows.fetchall():
                count += 1
                if source == HUB_SOURCE:
                    self._bump_source(source, seq, table=table, ts=ts, received=received)
                else:
                    event = _event_decoder.decode(payload)
                    self._derive(source, seq, table=table, ts=ts, received=received, event=event)
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
    ) -> list[StoredEvent]:
        """Matching events: each source's in seq order, sources in order of first arrival.

        ``after_seq`` (with ``source``) reads only what that source added since.
        """
        where, args = _filters(table=table, game=game, source=source, kind=kind)
        if after_seq is not None:
            where = f"{where} AND e.seq > ?" if where else " WHERE e.seq > ?"
            args = [*args, after_seq]
        sql = (
            "SELECT e.id, e.source, e.seq, e.table_no, e.kind, e.game, e.ts, e.received, e.payload "
            "FROM events e JOIN sources s ON s.source = e.source"
            f"{where} ORDER BY s.first_received, e.source, e.seq"
        )
        with self._lock:
            rows = self._db.execute(sql, args).fetchall()
        return [
            StoredEvent(
                id=r[0],
                source=r[1],
                seq=r[2],
                table=r[3],
                kind=r[4],
                game=r[5],
                ts=r[6],
                received=r[7],
                payload=bytes(r[8]),
            )
            for r in rows
        ]

    def moves(self, *, table: int | None = None, game: int | None = None) -> list[MoveRow]:
        where, args = _filters(table=table, game=game, source=None, kind=None, alias="m")
        sql = (
            "SELECT m.source, m.seq, m.table_no, m.game, m.move, m.seat, m.used, m.timed_out, "
            "m.overtime, m.ts FROM moves m JOIN sources s ON s.source = m.source"
            f"{where} ORDER BY s.first_received, m.source, m.seq"
        )
        with self._lock:
            rows = self._db.execute(sql, args).fetchall()
        return [
            MoveRow(
                source=r[0],
                seq=r[1],
                table=r[2],
                game=r[3],
                move=r[4],
                seat=r[5],
                used=r[6],
                timed_out=bool(r[7]),
                overtime=r[8],
                ts=r[9],
            )
            for r in rows
        ]

    def mark(self, source: str) -> SourceMark | None:
        with self._lock:
            return self._mark(source)

    def marks(self) -> dict[str, SourceMark]:
        """Every source's high-water marks (what a restarted hub acks from)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT source, table_no, contiguous, max_seq, events FROM sources"
            ).fetchall()
        return {r[0]: SourceMark(*r) for r in rows}

    def counts(self) -> dict[str, int]:
        """Events per kind, plus ``total``."""
        with self._lock:
            rows = self._db.execute("SELECT kind, count(*) FROM events GROUP BY kind").fetchall()
        counts = {str(k): int(n) for k, n in rows}
        counts["total"] = sum(counts.values())
        return counts

    def integrity_check(self) -> str:
        with self._lock:
            return str(self._db.execute("PRAGMA integrity_check").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # -- internals ----------------------------------------------------------------------------

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

    def _same(self, source: str, seq: int, payload: bytes) -> bool:
        row = self._db.execute(
            "SELECT payload FROM events WHERE source = ? AND seq = ?", (source, seq)
        ).fetchone()
        return row is not None and bytes(row[0]) == payload

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
            self._db.execute(
                "INSERT OR IGNORE INTO moves VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    source,
                    seq,
                    table,
                    event.game,
                    event.move,
                    str(event.seat),
                    event.used,
                    int(event.timed_out),
                    event.overtime,
                    ts,
                ),
            )

    def _bump_source(
        self, source: str, seq: int, *, table: int | None, ts: float, received: float
    ) -> None:
        row = self._db.execute(
            "SELECT contiguous, max_seq FROM sources WHERE source = ?", (source,)
        ).fetchone()
        if row is None:
            contiguous, max_seq = 0, 0
            self._db.execute(
                "INSERT INTO sources VALUES (?, ?, 0, 0, 0, ?, ?)",
                (source, table, received, received),
            )
        else:
            contiguous, max_seq = int(row[0]), int(row[1])
        if seq == contiguous + 1:
            contiguous = seq
            if max_seq > seq:
                while self._db.execute(
                    "SELECT 1 FROM events WHERE source = ? AND seq = ?", (source, contiguous + 1)
                ).fetchone():
                    contiguous += 1
        self._db.execute(
            "UPDATE sources SET table_no = ?, contiguous = ?, max_seq = ?, events = events + 1,"
            " last_received = ? WHERE source = ?",
            (table, contiguous, max(max_seq, seq), received, source),
        )

    def _mark(self, source: str) -> SourceMark | None:
        row = self._db.execute(
            "SELECT source, table_no, contiguous, max_seq, events FROM sources WHERE source = ?",
            (source,),
        ).fetchone()
        return None if row is None else SourceMark(*row)

    def _tx(self) -> AbstractContextManager[None]:
        return transaction(self._db)


def _kind(event: msgspec.Struct) -> str:
    tag = type(event).__struct_config__.tag
    return str(tag) if tag is not None else type(event).__name__


def _filters(alias: str = "e", **values: Any) -> tuple[str, Sequence[Any]]:
    columns = {"table": "table_no", "game": "game", "source": "source", "kind": "kind"}
    clauses, args = [], []
    for name, value in values.items():
        if value is not None:
            clauses.append(f"{alias}.{columns[name]} = ?")
            args.append(value)
    return (" WHERE " + " AND ".join(clauses) if clauses else ""), args
