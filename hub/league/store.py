"""The central's league store: every venue's records, once, in SQLite.

Why SQLite is enough: a league is 5–12 tournaments a season of at most 32 players, each
a few thousand records (a few MB); three venues of 60 tables send a few hundred records
a minute at their busiest, and one writer commits them in batches (WAL,
``synchronous=FULL``: a committed record survives a crash, so the central may ack it).
The central's web pages read the same file from the same process. Its limits: one
writer (one central service per file), one machine (no replication: back the file up
as the hub's is), and reads of the whole season folded in memory — fine for thousands
of players, not for a national ranking of every club game, which would want a server
database behind the same ingest (docs/league.md, "Growing").

``records`` holds each ``(venue, event, seq)`` once (a copy with the same payload is a
duplicate; with another payload a conflict, kept aside in ``conflicts`` and counted);
``marks`` each event's contiguous mark — every seq up to it is stored, what the central
acks; ``decisions`` the league organizer's answers on who is who
(:mod:`hub.league.identity`). The one rewrite: a tournament's ``personal-data-erased``
record rewrites its stored payloads as the hub rewrote its own (:mod:`hub.erasure`).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

import msgspec

from hub.competition import Competition, PersonalDataErased, Record, decode_record
from hub.erasure import Erasure
from hub.league.identity import Decision
from hub.league.wire import UpRecord
from hub.organizer_base import RECORD_KINDS, record_kind_of
from tablekit.core.errors import KitError
from tablekit.core.words import N_
from tablekit.shared.durable import DurableFile

SCHEMA_VERSION: Final = 1
MAX_CONFLICT_COPIES: Final = 3
ERASED_KIND: Final = record_kind_of(PersonalDataErased)

SCHEMA: Final = [
    """CREATE TABLE IF NOT EXISTS records (
        id INTEGER PRIMARY KEY,
        venue TEXT NOT NULL,
        event TEXT NOT NULL,
        seq INTEGER NOT NULL,
        kind TEXT NOT NULL,
        at REAL NOT NULL,
        received REAL NOT NULL,
        payload BLOB NOT NULL,
        UNIQUE (venue, event, seq)
    )""",
    """CREATE TABLE IF NOT EXISTS marks (
        venue TEXT NOT NULL,
        event TEXT NOT NULL,
        contiguous INTEGER NOT NULL,
        max_seq INTEGER NOT NULL,
        first_received REAL NOT NULL,
        last_received REAL NOT NULL,
        PRIMARY KEY (venue, event)
    ) WITHOUT ROWID""",
    """CREATE TABLE IF NOT EXISTS conflicts (
        id INTEGER PRIMARY KEY,
        venue TEXT NOT NULL,
        event TEXT NOT NULL,
        seq INTEGER NOT NULL,
        received REAL NOT NULL,
        payload BLOB NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS decisions (
        entry TEXT PRIMARY KEY,
        same_as TEXT NOT NULL,
        by TEXT NOT NULL,
        at REAL NOT NULL
    ) WITHOUT ROWID""",
]


class LeagueStoreError(KitError, RuntimeError):
    """The league store file cannot be used."""


@dataclass(frozen=True)
class Mark:
    venue: str
    event: str
    contiguous: int
    max_seq: int

    @property
    def gap(self) -> int | None:
        return self.contiguous + 1 if self.max_seq > self.contiguous else None


@dataclass
class Ingested:
    """What one batch did."""

    inserted: int = 0
    duplicates: int = 0
    conflicts: int = 0
    erased: bool = False
    mark: Mark | None = None


@dataclass
class _Folded:
    seen: int = 0
    competition: Competition = field(default_factory=Competition)
    created: bytes = b""
    unreadable: list[tuple[int, str]] = field(default_factory=list)


class LeagueStore:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._folds: dict[tuple[str, str], _Folded] = {}
        try:
            version = (SCHEMA_VERSION, self._wrong_version)
            self._file = DurableFile(self.path, timeout=30.0, schema=SCHEMA, version=version)
        except sqlite3.DatabaseError as err:
            raise LeagueStoreError(
                N_("league store {file}: {error}"), file=self.path, error=str(err)
            ) from err
        self._db = self._file.db
        self._lock = self._file.lock

    def _wrong_version(self, stored: int) -> LeagueStoreError:
        return LeagueStoreError(
            N_("league store {file} has schema {schema}, this service uses {version}"),
            file=self.path, schema=stored, version=SCHEMA_VERSION,
        )

    # -- writing -------------------------------------------------------------------------

    def ingest(
        self, venue: str, event: str, records: Sequence[UpRecord], now: float | None = None
    ) -> Ingested:
        """Store a batch of one event's records (duplicates ignored), in one commit; the
        event's mark after it. A ``personal-data-erased`` record that joins the contiguous
        records rewrites the tournament's stored payloads in the same commit."""
        received = time.time() if now is None else now
        out = Ingested()
        with self._file.transaction():
            for record in records:
                payload = bytes(record.payload)
                cur = self._db.execute(
                    "INSERT OR IGNORE INTO records"
                    " (venue, event, seq, kind, at, received, payload)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (venue, event, record.seq, record.kind, record.at, received, payload),
                )
                if cur.rowcount == 1:
                    out.inserted += 1
                    out.erased = out.erased or record.kind == ERASED_KIND
                    continue
                stored = self._db.execute(
                    "SELECT payload FROM records WHERE venue = ? AND event = ? AND seq = ?",
                    (venue, event, record.seq),
                ).fetchone()
                if bytes(stored[0]) == payload:
                    out.duplicates += 1
                    continue
                out.conflicts += 1
                copies = self._db.execute(
                    "SELECT count(*) FROM conflicts WHERE venue = ? AND event = ? AND seq = ?",
                    (venue, event, record.seq),
                ).fetchone()[0]
                if copies < MAX_CONFLICT_COPIES:
                    self._db.execute(
                        "INSERT INTO conflicts (venue, event, seq, received, payload)"
                        " VALUES (?, ?, ?, ?, ?)",
                        (venue, event, record.seq, received, payload),
                    )
            out.mark = self._advance(venue, event, records, received)
            if out.erased:
                self._erase(venue, event, out.mark.contiguous)
        if out.erased:
            with self._lock:
                self._folds.pop((venue, event), None)
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                self._db.execute("VACUUM")
        return out

    def _advance(
        self, venue: str, event: str, records: Sequence[UpRecord], received: float
    ) -> Mark:
        row = self._db.execute(
            "SELECT contiguous, max_seq FROM marks WHERE venue = ? AND event = ?", (venue, event)
        ).fetchone()
        contiguous, max_seq = (0, 0) if row is None else (int(row[0]), int(row[1]))
        max_seq = max([max_seq, *(r.seq for r in records)])
        while self._db.execute(
            "SELECT 1 FROM records WHERE venue = ? AND event = ? AND seq = ?",
            (venue, event, contiguous + 1),
        ).fetchone():
            contiguous += 1
        self._db.execute(
            "INSERT INTO marks VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (venue, event) DO UPDATE"
            " SET contiguous = excluded.contiguous, max_seq = excluded.max_seq,"
            " last_received = excluded.last_received",
            (venue, event, contiguous, max_seq, received, received),
        )
        return Mark(venue, event, contiguous, max_seq)

    def _erase(self, venue: str, event: str, upto: int) -> None:
        """Rewrite the tournament's payloads without its players' personal data, when its
        erasure record is among the contiguous records (else once it is)."""
        rows = self._db.execute(
            "SELECT seq, kind, payload FROM records WHERE venue = ? AND event = ? AND seq <= ?"
            " ORDER BY seq",
            (venue, event, upto),
        ).fetchall()
        before: list[Record] = []
        for _seq, kind, payload in rows:
            if kind == ERASED_KIND:
                break
            if kind in RECORD_KINDS:
                try:
                    before.append(decode_record(bytes(payload)))
                except (msgspec.DecodeError, ValueError):
                    continue
        else:
            return
        comp = Competition().apply_all(before, stored=True)
        if comp.state is None:
            return
        every = [*comp.event.players.values(), *(c.before for c in comp.player_changes)]
        erasure = Erasure.of(every)
        self._db.execute("PRAGMA secure_delete=ON")
        try:
            for table in ("records", "conflicts"):
                for row_id, payload in self._db.execute(
                    f"SELECT id, payload FROM {table} WHERE venue = ? AND event = ?",
                    (venue, event),
                ).fetchall():
                    new = erasure.payload(bytes(payload))
                    if new is not None:
                        self._db.execute(
                            f"UPDATE {table} SET payload = ? WHERE id = ?", (new, row_id)
                        )
        finally:
            self._db.execute("PRAGMA secure_delete=OFF")

    def decide(self, decision: Decision) -> None:
        with self._file.transaction():
            self._db.execute(
                "INSERT INTO decisions VALUES (?, ?, ?, ?) ON CONFLICT (entry) DO UPDATE SET"
                " same_as = excluded.same_as, by = excluded.by, at = excluded.at",
                (decision.entry, decision.same_as, decision.by, decision.at),
            )

    # -- reading -------------------------------------------------------------------------

    def decisions(self) -> list[Decision]:
        with self._lock:
            rows = self._db.execute(
                "SELECT entry, same_as, by, at FROM decisions ORDER BY at, entry"
            ).fetchall()
        return [Decision(r[0], r[1], r[2], r[3]) for r in rows]

    def marks(self) -> list[Mark]:
        with self._lock:
            rows = self._db.execute(
                "SELECT venue, event, contiguous, max_seq FROM marks"
                " ORDER BY first_received, venue, event"
            ).fetchall()
        return [Mark(*r) for r in rows]

    def mark(self, venue: str, event: str) -> Mark | None:
        return next((m for m in self.marks() if (m.venue, m.event) == (venue, event)), None)

    def seqs(self, venue: str, event: str) -> list[int]:
        """Every stored seq of the event, in order (for audits and tests)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT seq FROM records WHERE venue = ? AND event = ? ORDER BY seq",
                (venue, event),
            ).fetchall()
        return [int(r[0]) for r in rows]

    def records(self, venue: str, event: str) -> list[dict[str, object]]:
        """Every stored record of the event in seq order, as received (for an audit)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, kind, at, received, payload FROM records WHERE venue = ? AND"
                " event = ? ORDER BY seq",
                (venue, event),
            ).fetchall()
        return [
            {"seq": r[0], "kind": r[1], "at": r[2], "received": r[3],
             "payload": msgspec.Raw(bytes(r[4]))}
            for r in rows
        ]

    def conflict_count(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT count(*) FROM conflicts").fetchone()[0])

    def competition(self, venue: str, event: str) -> tuple[Competition, bytes]:
        """The tournament folded from its contiguous records with the hub's own fold, and
        the payload of the record that created it (b"" before it arrived)."""
        with self._lock:
            folded = self._folds.setdefault((venue, event), _Folded())
            mark = self.mark(venue, event)
            upto = 0 if mark is None else mark.contiguous
            if upto > folded.seen:
                rows = self._db.execute(
                    "SELECT seq, kind, payload FROM records WHERE venue = ? AND event = ?"
                    " AND seq > ? AND seq <= ? ORDER BY seq",
                    (venue, event, folded.seen, upto),
                ).fetchall()
                records: list[Record] = []
                for seq, kind, payload in rows:
                    if kind not in RECORD_KINDS:
                        continue
                    try:
                        record = decode_record(bytes(payload))
                    except (msgspec.DecodeError, ValueError) as err:
                        folded.unreadable.append((int(seq), str(err)))
                        continue
                    if not folded.created and kind == "event-created":
                        folded.created = bytes(payload)
                    records.append(record)
                folded.competition = folded.competition.apply_all(records, stored=True)
                folded.seen = upto
            return folded.competition, folded.created

    def version(self) -> int:
        """Grows with every record stored (for pages kept in memory)."""
        with self._lock:
            row = self._db.execute("SELECT max(id) FROM records").fetchone()
        return int(row[0] or 0)

    def close(self) -> None:
        self._file.close()
