"""The durable SQLite file every store of the kit is built on (tablekit.shared.durable)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from hub.league.store import LeagueStore, LeagueStoreError
from hub.store import EventStore
from hub.store_schema import StoreError
from tablekit.core.errors import KitError
from tablekit.shared.durable import DurableFile, FolderMissingError

TABLE = "CREATE TABLE IF NOT EXISTS things (id INTEGER PRIMARY KEY)"


class WrongVersionError(KitError):
    pass


def wrong(stored: int) -> WrongVersionError:
    return WrongVersionError(f"made with version {stored}")


def test_a_new_file_keeps_its_version_and_its_owner_rows(tmp_path: Path) -> None:
    path = tmp_path / "file.sqlite3"
    made = DurableFile(
        path, timeout=5, schema=[TABLE], version=(3, wrong),
        setup=lambda f: f.set_meta("owner", "u1"),
    )
    with made.transaction():
        made.db.execute("INSERT INTO things VALUES (1)")
    made.close()
    again = DurableFile(path, timeout=5, schema=[TABLE], version=(3, wrong))
    assert (again.meta("schema"), again.meta("owner")) == (3, "u1")
    assert again.db.execute("SELECT id FROM things").fetchall() == [(1,)]
    assert again.integrity_check() == "ok"
    again.close()


def test_another_version_is_refused_and_the_file_closed(tmp_path: Path) -> None:
    path = tmp_path / "file.sqlite3"
    DurableFile(path, timeout=5, schema=[TABLE], version=(3, wrong)).close()
    with pytest.raises(WrongVersionError) as refused:
        DurableFile(path, timeout=5, schema=[TABLE], version=(4, wrong))
    assert str(refused.value) == "made with version 3"
    # Nothing holds the file: a writer gets its lock at once.
    writer = sqlite3.connect(path, timeout=0)
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("ROLLBACK")
    writer.close()


def test_a_rolled_back_transaction_leaves_nothing(tmp_path: Path) -> None:
    made = DurableFile(tmp_path / "file.sqlite3", timeout=5, schema=[TABLE])
    with pytest.raises(ZeroDivisionError), made.transaction():
        made.db.execute("INSERT INTO things VALUES (1)")
        _ = 1 / 0
    assert made.db.execute("SELECT count(*) FROM things").fetchone() == (0,)
    made.close()


def test_no_folder_is_made(tmp_path: Path) -> None:
    with pytest.raises(FolderMissingError):
        DurableFile(tmp_path / "missing" / "file.sqlite3", timeout=5, schema=[])


@pytest.mark.parametrize(
    ("store", "error"), [(EventStore, StoreError), (LeagueStore, LeagueStoreError)]
)
def test_a_store_of_another_schema_is_refused(
    tmp_path: Path, store: type[EventStore | LeagueStore], error: type[KitError]
) -> None:
    path = tmp_path / "store.sqlite3"
    store(path).close()
    db = sqlite3.connect(path)
    db.execute("UPDATE meta SET value = 99 WHERE key = 'schema'")
    db.commit()
    db.close()
    with pytest.raises(error, match="schema 99"):
        store(path)
