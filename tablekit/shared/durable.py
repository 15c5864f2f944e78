"""SQLite opened for durability, shared by the unit's journal and the hub's store.

WAL with ``synchronous=FULL``: a commit that returned survives a crash or a power
cut (``NORMAL`` may lose the last commits on an SD card).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

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
        )  # fmt: skip
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
