"""SQLite opened for durability, shared by the unit's journal, the hub's event store, the
league's store and the uplink registry.

WAL with ``synchronous=FULL``: a commit that returned survives a crash or a power
cut (``NORMAL`` may lose the last commits on an SD card). :class:`DurableFile` is what
each of them is built on: one connection for every thread under one lock, its tables
and the ``meta`` rows made in one transaction when the file is opened, writes in
``BEGIN IMMEDIATE`` transactions, the integrity check.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tablekit.core.errors import KitError
from tablekit.core.words import N_


class FolderMissingError(KitError, FileNotFoundError):
    """The file's folder does not exist: the kit creates no folder for a store or a journal
    (a typo in a path would otherwise make an empty event, or lose a unit's journal)."""


def open_durable(path: Path, timeout: float) -> sqlite3.Connection:
    """A connection for any thread (callers lock), autocommit outside :func:`transaction`.
    :class:`FolderMissingError` when ``path``'s folder does not exist (the services'
    documented folders are made by systemd's ``StateDirectory``)."""
    if not path.parent.is_dir():
        raise FolderMissingError(
            N_("{path}: the folder {folder} does not exist — a typo in the path? Name a "
               "file in an existing folder, or create the folder first"),
            path=str(path), folder=str(path.parent),
        )
    db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=timeout)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
    except sqlite3.DatabaseError:
        db.close()
        raise
    return db


@contextmanager
def transaction(db: sqlite3.Connection) -> Iterator[None]:
    """BEGIN IMMEDIATE … COMMIT; rolled back on any exception."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


META = "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value) WITHOUT ROWID"
"""The key/value rows every durable file keeps about itself (its schema, its owner)."""


class DurableFile:
    """An SQLite file opened with :func:`open_durable` for every thread of a program.

    ``schema``'s statements (after the ``meta`` table), the schema ``version`` check and
    ``setup`` run in one transaction when the file is opened: a new file gets ``version``
    in its ``meta`` rows, a file made with another version is refused with
    ``wrong_version(its version)``; ``setup`` checks or writes the owner's own ``meta``
    rows and raises when the file is not one its owner can use. The connection is closed
    when anything fails. Its owner reads under :attr:`lock` and writes in
    :meth:`transaction`; the lock is reentrant, so a transaction may be opened under it.
    """

    def __init__(
        self,
        path: Path,
        *,
        timeout: float,
        schema: Sequence[str],
        version: tuple[int, Callable[[int], KitError]] | None = None,
        setup: Callable[[DurableFile], None] | None = None,
    ) -> None:
        """``version``: the schema version this program uses, and the error that refuses a
        file of another version (given that version)."""
        self.path = path
        self.lock = threading.RLock()
        self.db = open_durable(path, timeout)
        try:
            with self.transaction():
                for statement in (META, *schema):
                    self.db.execute(statement)
                if version is not None:
                    self._check_version(*version)
                if setup is not None:
                    setup(self)
        except BaseException:
            self.db.close()
            raise

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """A write transaction under the lock (:func:`transaction`)."""
        with self.lock, transaction(self.db):
            yield

    def meta(self, key: str) -> Any:
        """The ``meta`` row ``key`` (None when there is none); under the lock."""
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else row[0]

    def set_meta(self, key: str, value: object) -> None:
        """Write the ``meta`` row ``key``; inside a transaction."""
        self.db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    def _check_version(self, version: int, wrong_version: Callable[[int], KitError]) -> None:
        stored = self.meta("schema")
        if stored is None:
            self.set_meta("schema", version)
        elif int(stored) != version:
            raise wrong_version(int(stored))

    def integrity_check(self) -> str:
        """SQLite's ``PRAGMA integrity_check``: ``"ok"``, or what is wrong."""
        with self.lock:
            return str(self.db.execute("PRAGMA integrity_check").fetchone()[0])

    def close(self) -> None:
        with self.lock:
            self.db.close()
