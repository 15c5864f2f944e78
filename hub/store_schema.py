"""The hub's event store file: its SQLite tables, the schema version, and opening a file
as an event store (the tables created in a new file; a file of another schema, or not an
SQLite database at all, refused with a clear error).

``events`` holds every accepted event once (:mod:`hub.store`). Derived from it, updated
in the same transaction as the insert and rebuilt from it at any time:

* ``sources``: per source, the highest contiguous seq committed (what the hub acks),
  the highest seq seen (a gap when larger), counts and the table last reported;
* ``moves``: one row per passed move with its duration, for queries and exports.

Outside the event records, for the judge and the organizer (docs/protocol.md,
"Identity and refusals"):

* ``set_aside``: a unit's events the hub refused or holds in conflict with a stored
  event under the same seq, with the reason: the seq counts as settled (the ack moves
  past it, listing it in ``refused``) and the unit keeps its copy for the judge; at most
  :data:`~hub.store.MAX_COPIES` copies per seq;
* ``refusal_log`` and ``refusal_counts``: everything else refused (bad topics, unknown
  tables, other identities, seqs beyond the window, undecodable payloads), the last
  :data:`~hub.store.MAX_REFUSAL_LOG` of them and a count per reason and table; never events.

``epochs``: which store source each journal epoch of a unit is (see :mod:`hub.store`).

``fold_snapshot``: at most one snapshot of the folded event, for a fresh process to start
from (:mod:`hub.fold_snapshot`); never the truth, and trusted only as that module says.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tablekit.core.errors import KitError
from tablekit.core.words import N_
from tablekit.shared.durable import DurableFile

SCHEMA_VERSION = 1


SCHEMA = [
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
    """CREATE TABLE IF NOT EXISTS set_aside (
        id INTEGER PRIMARY KEY,
        source TEXT NOT NULL,
        seq INTEGER NOT NULL,
        table_no INTEGER,
        code TEXT NOT NULL,
        reason TEXT NOT NULL,
        received REAL NOT NULL,
        payload BLOB NOT NULL,
        UNIQUE (source, seq, payload)
    )""",
    """CREATE TABLE IF NOT EXISTS refusal_log (
        id INTEGER PRIMARY KEY,
        at REAL NOT NULL,
        table_no INTEGER,
        code TEXT NOT NULL,
        topic TEXT NOT NULL,
        reason TEXT NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS epochs (
        unit TEXT NOT NULL,
        epoch TEXT NOT NULL,
        source TEXT NOT NULL UNIQUE,
        table_no INTEGER,
        first_received REAL NOT NULL,
        PRIMARY KEY (unit, epoch)
    ) WITHOUT ROWID""",
    """CREATE TABLE IF NOT EXISTS fold_snapshot (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        seq INTEGER NOT NULL,
        code BLOB NOT NULL,
        digest BLOB NOT NULL,
        made REAL NOT NULL,
        payload BLOB NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS refusal_counts (
        code TEXT NOT NULL,
        table_no INTEGER NOT NULL,
        count INTEGER NOT NULL,
        first REAL NOT NULL,
        last REAL NOT NULL,
        PRIMARY KEY (code, table_no)
    ) WITHOUT ROWID""",
]


class StoreError(KitError, RuntimeError):
    """The store file cannot be used (wrong schema, corrupt)."""


def open_error(path: Path, err: sqlite3.DatabaseError) -> StoreError:
    """Why ``path`` cannot be opened as an event file: another kind of file, said so."""
    if getattr(err, "sqlite_errorname", "") == "SQLITE_NOTADB":
        return StoreError(
            N_("{file} is not a rummikub event file (not an SQLite database)"), file=path
        )
    return StoreError(N_("store {file}: {error}"), file=path, error=str(err))


def open_store(path: Path) -> DurableFile:
    """``path`` opened as an event store (WAL, ``synchronous=FULL``), its tables created
    when new; :class:`StoreError` when it is not one this hub can use."""

    def wrong_version(stored: int) -> StoreError:
        return StoreError(
            N_("store {file} has schema {schema}, this hub uses {version}"),
            file=path, schema=stored, version=SCHEMA_VERSION,
        )

    try:
        return DurableFile(
            path, timeout=30.0, schema=SCHEMA, version=(SCHEMA_VERSION, wrong_version)
        )
    except sqlite3.DatabaseError as err:
        raise open_error(path, err) from err
