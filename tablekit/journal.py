"""The table unit's durable journal: every event with its ``seq``, plus the latest state.

SQLite in WAL mode with ``synchronous=FULL``: :meth:`Journal.record` appends the
events with the next sequence numbers and replaces the stored clock state in one
transaction, so after a crash the state and the events always agree. An entry the
hub acknowledges (:meth:`Journal.acked`) is marked acked — every seq up to the
``acked_upto`` meta row is — and **kept** until the hub says the event is closed
(:meth:`Journal.prune_acked`): a spare hub started from a backup copy that misses the
newest events asks the unit for them again (docs/protocol.md, "A hub that lost events"),
and the unit still has them. A day keeps a few thousand entries (docs/deployment.md,
"The hub Pi died"). An entry the hub refused (or holds in conflict with another copy)
is never deleted: it moves to ``set_aside`` with the hub's reason, for the judge, and
the queue moves on. The last assigned ``seq`` is kept in a meta row, so sequence
numbers are never reused even when every entry has been deleted.

Each journal file has an **epoch**, a random id made when the file is created and sent
with every event: a spare unit with a fresh journal (or a unit whose card was wiped)
numbers its events from 1 again under the same unit id, and the hub tells the two
journals apart by their epochs instead of taking the new events for conflicts. A
journal created by a release before epochs has the empty epoch and keeps it.

A journal belongs to one **event** (a meta row): a unit follows the event its venue's hub
announces and keeps one journal per event (:mod:`tablekit.journals`), so no journal ever
holds two events' entries.

Thread-safe: the unit loop records, the link thread reads and marks; one
connection is shared under a lock.
"""

from __future__ import annotations

import secrets
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import msgspec

from tablekit.core.errors import KitError
from tablekit.core.words import N_
from tablekit.shared.durable import DurableFile, FolderMissingError

_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS entries (
        seq INTEGER PRIMARY KEY,
        ts REAL NOT NULL,
        event BLOB NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS set_aside (
        seq INTEGER PRIMARY KEY,
        ts REAL NOT NULL,
        event BLOB NOT NULL,
        code TEXT NOT NULL,
        reason TEXT NOT NULL,
        at REAL NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS state (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        blob BLOB NOT NULL,
        ts REAL NOT NULL
    )""",
)

_encoder = msgspec.json.Encoder()


class JournalError(KitError, RuntimeError):
    """The journal file belongs to another unit or cannot be used."""


@dataclass(frozen=True)
class JournalEntry:
    seq: int
    ts: float
    """Wall time at which the event was recorded."""
    event: bytes
    """The event as JSON (a tagged struct, e.g. ``{"type":"move_passed",…}``)."""


@dataclass(frozen=True)
class SetAsideEntry:
    """An entry the hub refused, kept for the judge."""

    seq: int
    ts: float
    event: bytes
    code: str
    """The hub's refusal code (``tablekit.core.messages.RefusalCode``); empty until it arrives."""
    reason: str


def new_epoch() -> str:
    """A fresh journal epoch: 12 random lowercase hex digits
    (``tablekit.core.fields.EPOCH_PATTERN``)."""
    return secrets.token_hex(6)


class Journal:
    def __init__(self, path: str | Path, unit_id: str, event: str = "") -> None:
        """Open the journal file of ``unit_id``, creating it (for ``event``, if given) when
        it does not exist; JournalError when it is another unit's or not a journal."""
        self.path = Path(path)
        self.unit_id = unit_id
        try:
            self._file = DurableFile(
                self.path, timeout=10.0, schema=_SCHEMA, setup=lambda f: _own(f, unit_id, event)
            )
        except (sqlite3.DatabaseError, FolderMissingError) as err:
            raise JournalError(N_("journal {file}: {error}"), file=self.path, error=err) from err
        self._db = self._file.db
        self._lock = self._file.lock
        self.epoch: str = str(self._file.meta("epoch") or "")
        """This journal file's epoch (empty: a journal of a release before epochs)."""
        self.event: str = str(self._file.meta("event") or "")
        """The event whose entries this journal holds ("": none yet, or a journal of a
        release before units followed the hub's event)."""

    def belong_to(self, event: str) -> None:
        """Make a journal of no event the journal of ``event``; JournalError when it
        already belongs to another event."""
        if self.event == event:
            return
        if self.event:
            raise JournalError(
                N_("journal {file} holds the event {held!r}, not {event!r}"),
                file=self.path, held=self.event, event=event,
            )
        with self._file.transaction():
            self._file.set_meta("event", event)
        self.event = event

    @property
    def empty(self) -> bool:
        """Nothing was ever journalled here (no seq assigned)."""
        return self.last_seq == 0

    # -- writing (the unit loop) -----------------------------------------------------------

    def record(
        self,
        events: Sequence[msgspec.Struct],
        state: bytes | None = None,
        wall: float | None = None,
    ) -> list[int]:
        """Append ``events`` with the next seqs and store ``state``, in one commit."""
        ts = time.time() if wall is None else wall
        with self._file.transaction():
            last = int(self._file.meta("last_seq") or 0)
            seqs = list(range(last + 1, last + 1 + len(events)))
            if events:
                self._db.executemany(
                    "INSERT INTO entries (seq, ts, event) VALUES (?, ?, ?)",
                    [(seq, ts, _encoder.encode(e)) for seq, e in zip(seqs, events, strict=True)],
                )
                self._file.set_meta("last_seq", seqs[-1])
            if state is not None:
                self._db.execute(
                    "INSERT OR REPLACE INTO state (id, blob, ts) VALUES (1, ?, ?)", (state, ts)
                )
        return seqs

    def acked(self, upto_seq: int, refused: Sequence[int] = ()) -> int:
        """The hub settled everything up to ``upto_seq``: mark those entries acked (kept
        for a hub that loses them, until :meth:`prune_acked`), except the ``refused``
        ones, which are set aside for the judge.

        Returns how many entries left the queue. An ack beyond the last seq this
        journal ever assigned is refused (it cannot be about this journal).
        """
        with self._file.transaction():
            last = int(self._file.meta("last_seq") or 0)
            if upto_seq > last:
                raise JournalError(
                    N_("ack up to seq {seq} but this journal has only assigned up to {last}"),
                    seq=upto_seq, last=last,
                )
            before = int(self._file.meta("acked_upto") or 0)
            if upto_seq <= before:
                return 0
            for seq in refused:
                if seq <= upto_seq:
                    self._set_aside(seq, "", "")
            left = int(
                self._db.execute(
                    "SELECT count(*) FROM entries WHERE seq > ? AND seq <= ?", (before, upto_seq)
                ).fetchone()[0]
            )
            self._file.set_meta("acked_upto", upto_seq)
            return left

    def prune_acked(self) -> int:
        """The event is closed: delete the acked entries (the unacked ones stay queued);
        how many went."""
        with self._file.transaction():
            acked = int(self._file.meta("acked_upto") or 0)
            return self._db.execute("DELETE FROM entries WHERE seq <= ?", (acked,)).rowcount

    def set_aside(self, seq: int, code: str, reason: str) -> bool:
        """The hub refused entry ``seq`` for ``reason``: keep it for the judge, out of the
        queue (or note the reason on one already set aside). False if it is not here."""
        with self._file.transaction():
            return self._set_aside(seq, code, reason)

    def set_aside_entries(self) -> list[SetAsideEntry]:
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, ts, event, code, reason FROM set_aside ORDER BY seq"
            ).fetchall()
        return [SetAsideEntry(int(r[0]), float(r[1]), bytes(r[2]), r[3], r[4]) for r in rows]

    # -- reading (the link thread, the restart) ------------------------------------------

    def pending(self, after: int | None = None, limit: int | None = None) -> list[JournalEntry]:
        """Entries with ``seq > after``, in seq order (at most ``limit``). Without ``after``:
        the unacked ones; with an ``after`` below the acked mark, the acked entries still
        kept after it too (what a hub that lost them asks for again)."""
        with self._lock:
            start = int(self._file.meta("acked_upto") or 0) if after is None else after
            rows = self._db.execute(
                "SELECT seq, ts, event FROM entries WHERE seq > ? ORDER BY seq LIMIT ?",
                (start, -1 if limit is None else limit),
            ).fetchall()
        return [JournalEntry(int(s), float(t), bytes(e)) for s, t, e in rows]

    def last_acked(self) -> JournalEntry | None:
        """The newest acked entry still kept (what the unit shows a new hub it had)."""
        with self._lock:
            row = self._db.execute(
                "SELECT seq, ts, event FROM entries WHERE seq <= ? ORDER BY seq DESC LIMIT 1",
                (int(self._file.meta("acked_upto") or 0),),
            ).fetchone()
        return None if row is None else JournalEntry(int(row[0]), float(row[1]), bytes(row[2]))

    def load_state(self) -> bytes | None:
        with self._lock:
            row = self._db.execute("SELECT blob FROM state WHERE id = 1").fetchone()
        return None if row is None else bytes(row[0])

    @property
    def last_seq(self) -> int:
        with self._lock:
            return int(self._file.meta("last_seq") or 0)

    @property
    def acked_upto(self) -> int:
        with self._lock:
            return int(self._file.meta("acked_upto") or 0)

    def pending_count(self) -> int:
        """Unacked entries."""
        return self._count("seq > ?")

    def kept_count(self) -> int:
        """Acked entries still kept (until the event is closed)."""
        return self._count("seq <= ?")

    def _count(self, where: str) -> int:
        """Entries matching ``where``, whose one parameter is the acked mark."""
        with self._lock:
            acked = int(self._file.meta("acked_upto") or 0)
            sql = f"SELECT count(*) FROM entries WHERE {where}"
            return int(self._db.execute(sql, (acked,)).fetchone()[0])

    def integrity_check(self) -> str:
        return self._file.integrity_check()

    def close(self) -> None:
        self._file.close()

    # -- internals ------------------------------------------------------------------------

    def _set_aside(self, seq: int, code: str, reason: str) -> bool:
        if code and self._db.execute(
            "UPDATE set_aside SET code = ?, reason = ? WHERE seq = ?", (code, reason, seq)
        ).rowcount:
            return True
        if seq <= int(self._file.meta("acked_upto") or 0):
            return False  # acknowledged as stored: kept as such, not the refused copy
        moved = self._db.execute(
            "INSERT OR IGNORE INTO set_aside (seq, ts, event, code, reason, at)"
            " SELECT seq, ts, event, ?, ?, ? FROM entries WHERE seq = ?",
            (code, reason, time.time(), seq),
        ).rowcount
        self._db.execute("DELETE FROM entries WHERE seq = ?", (seq,))
        return bool(moved)


def _own(file: DurableFile, unit_id: str, event: str) -> None:
    """A new journal file made ``unit_id``'s (for ``event``); JournalError when the file is
    another unit's."""
    stored = file.meta("unit_id")
    if stored is None:
        file.set_meta("unit_id", unit_id)
        file.set_meta("last_seq", 0)
        file.set_meta("acked_upto", 0)
        file.set_meta("epoch", new_epoch())
        file.set_meta("event", event)
    elif stored != unit_id:
        raise JournalError(
            N_("journal {file} belongs to unit {stored!r}, not {unit!r}"),
            file=file.path, stored=stored, unit=unit_id,
        )
