"""The hub's copy of its store off the card (hub/backup.py): consistent, atomic, current,
and a failing copy never stops the hub."""

from __future__ import annotations

import sqlite3
import time
from dataclasses import replace
from pathlib import Path

from hub.backup import BackupStatus, StoreBackup, read_status, status_lines, status_path
from hub.store import EventStore
from tablekit.core.clock_events import MovePassed
from tablekit.core.messages import PROTOCOL_VERSION, EventEnvelope
from tablekit.core.seats import Seat
from tablekit.shared.i18n import words


def envelope(seq: int) -> EventEnvelope:
    event = MovePassed(game=1, move=seq, seat=Seat.A, used=1.0, timed_out=False, overtime=0.0)
    return EventEnvelope(
        v=PROTOCOL_VERSION, unit="table-01", table=1, seq=seq, ts=1000.0 + seq, event=event
    )


def wait_until(cond: object, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if callable(cond) and cond():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def stored_seqs(path: Path) -> list[int]:
    with sqlite3.connect(path) as db:
        return [r[0] for r in db.execute("SELECT seq FROM events ORDER BY seq")]


def test_copies_follow_the_store_and_the_last_one_is_made_on_stop(tmp_path: Path) -> None:
    db, target = tmp_path / "hub.sqlite3", tmp_path / "stick" / "copy.sqlite3"
    target.parent.mkdir()
    store = EventStore(db)
    backup = StoreBackup(db, target, interval=0.2)
    backup.start()
    store.ingest([envelope(1), envelope(2)])
    wait_until(lambda: target.exists() and stored_seqs(target) == [1, 2], 10, "the first copy")
    store.ingest([envelope(3)])
    wait_until(lambda: stored_seqs(target) == [1, 2, 3], 10, "a copy after the next commit")
    store.ingest([envelope(4)])
    backup.stop()  # the final copy, whatever the interval
    assert stored_seqs(target) == [1, 2, 3, 4]
    copy = EventStore(target)  # a spare hub opens it as it is
    assert copy.integrity_check() == "ok" and copy.mark("table-01").contiguous == 4  # type: ignore[union-attr]
    copy.close()
    store.close()
    status = read_status(db)
    assert status is not None and status.copies >= 2 and status.error == "" and status.stopped
    assert [p.name for p in target.parent.iterdir()] == ["copy.sqlite3"]  # no temp left
    assert "Backup copy: " + str(target) in status_lines(status, time.time(), words("en"))[0]


def test_an_unmounted_stick_is_shown_and_retried_and_never_stops_the_hub(tmp_path: Path) -> None:
    db, stick = tmp_path / "hub.sqlite3", tmp_path / "stick"
    target = stick / "copy.sqlite3"
    store = EventStore(db)
    store.ingest([envelope(1)])
    backup = StoreBackup(db, target, interval=0.2)
    backup.start()
    def failure_shown() -> BackupStatus | None:
        shown = read_status(db)  # what the organizer's commands read
        return shown if shown is not None and shown.failures >= 1 else None

    wait_until(failure_shown, 10, "the failure shown in the status file")
    status = failure_shown()
    assert status is not None and "does not exist (is the stick mounted?)" in status.error
    lines = status_lines(status, time.time(), words("en"))
    assert "no copy made yet" in lines[0] and lines[1].startswith("BACKUP FAILING")
    assert f"the directory {stick} does not exist (is the stick mounted?)" in lines[1]
    polish = status_lines(status, time.time(), words("pl"))  # the stored words, in Polish
    assert f"folder {stick} nie istnieje (czy pendrive jest zamontowany?)" in polish[1]
    earlier = replace(status, error_words=None)  # a status file of an earlier release
    assert status.error in status_lines(earlier, time.time(), words("pl"))[1]
    assert not stick.exists()  # never created on the hub's own disk
    store.ingest([envelope(2)])  # the hub goes on storing
    stick.mkdir()  # the stick comes back
    wait_until(lambda: backup.status().copies >= 1, 10, "copying again")
    assert backup.status().error == "" and stored_seqs(target) == [1, 2]
    backup.stop()
    store.close()
    assert status_path(db).name == "hub.sqlite3.backup.json"


def test_no_status_file_means_no_copies(tmp_path: Path) -> None:
    assert read_status(tmp_path / "hub.sqlite3") is None
    none = ["Backup copy: none (the hub runs without --backup)"]
    assert status_lines(None, 0.0, words("en")) == none
    assert status_lines(None, 0.0, words("pl")) == [
        "Kopia zapasowa: brak (centrala działa bez --backup)"
    ]
