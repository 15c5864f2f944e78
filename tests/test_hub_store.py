"""The hub's event store: unique (source, seq), derived rows in the same commit."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from hub.store import HUB_SOURCE, MAX_REFUSAL_LOG, EventStore
from hub.store_rows import Refused
from tablekit.core.clock import ClockRules, MoveClock
from tablekit.core.clock_events import GameStarted, MovePassed
from tablekit.core.messages import PROTOCOL_VERSION, WINDOW, Assignment, SeatAssignment, envelope
from tablekit.core.seats import Seat


def env(unit: str, seq: int, move: int = 1, used: float = 3.0, table: int = 1):  # type: ignore[no-untyped-def]
    return envelope(
        unit, table, seq, 1000.0 + seq, MovePassed(game=1, move=move, seat=Seat.A, used=used)
    )


def test_duplicates_are_ignored_and_conflicts_told_apart(tmp_path: Path) -> None:
    store = EventStore(tmp_path / "hub.db")
    first = store.ingest([env("u1", 1), env("u1", 2)])
    assert (first.inserted, first.duplicates, first.conflicts) == (2, 0, 0)
    again = store.ingest([env("u1", 2), env("u1", 1, used=9.0)])
    assert (again.inserted, again.duplicates, again.conflicts) == (0, 1, 1)
    assert store.counts() == {"move_passed": 2, "total": 2}
    assert [m.used for m in store.moves()] == [3.0, 3.0]


def test_contiguous_high_water_and_gaps(tmp_path: Path) -> None:
    store = EventStore(tmp_path / "hub.db")
    r = store.ingest([env("u1", 1), env("u1", 2), env("u1", 5), env("u2", 2)])
    assert (r.marks["u1"].contiguous, r.marks["u1"].max_seq, r.marks["u1"].gap) == (2, 5, 3)
    assert (r.marks["u2"].contiguous, r.marks["u2"].gap) == (0, 1)
    r = store.ingest([env("u1", 4), env("u1", 3)])
    assert (r.marks["u1"].contiguous, r.marks["u1"].gap) == (5, None)
    assert store.mark("u1") is not None and store.marks()["u1"].events == 5


def test_events_of_a_table_come_back_in_seq_order(tmp_path: Path) -> None:
    store = EventStore(tmp_path / "hub.db")
    store.ingest([env("u1", s, move=s, table=3) for s in (3, 1, 2)])
    store.ingest([env("u9", 1, table=4)])
    got = store.events(table=3)
    assert [e.seq for e in got] == [1, 2, 3]
    assert [e.event().move for e in got] == [1, 2, 3]
    assert store.events(table=3, game=2) == []
    assert [m.move for m in store.moves(table=3, game=1)] == [1, 2, 3]
    assert [e.source for e in store.events(kind="move_passed")] == ["u1", "u1", "u1", "u9"]


def test_moves_have_the_clock_durations(tmp_path: Path) -> None:
    clock = MoveClock(ClockRules(seats=3, move_seconds=30.0))
    events = clock.press(0.0) + clock.press(7.25) + clock.press(40.0) + clock.press(80.5)
    store = EventStore(tmp_path / "hub.db")
    store.ingest([envelope("u1", 2, i + 1, 1.0, e) for i, e in enumerate(events)])
    moves = store.moves(table=2)
    assert [(m.seat, m.used, m.timed_out) for m in moves] == [
        ("A", 7.25, False),
        ("B", 30.0, True),
        ("C", 30.0, True),
    ]
    assert moves[1].overtime == pytest.approx(2.75)
    assert isinstance(store.events(kind="game_started")[0].event(), GameStarted)


def test_hub_facts_get_their_own_seqs(tmp_path: Path) -> None:
    store = EventStore(tmp_path / "hub.db")
    seats = tuple(SeatAssignment(s, n) for s, n in zip(Seat, "ABC", strict=False))
    a = Assignment(v=PROTOCOL_VERSION, table=2, game=1, seats=seats)
    assert store.append_fact("assign", a, table=2, game=1) == 1
    assert store.append_fact("broadcast", lambda seq: a) == 2
    assert store.marks()[HUB_SOURCE].contiguous == 2
    assert [e.kind for e in store.events(source=HUB_SOURCE)] == ["assign", "broadcast"]


def test_marks_kept_between_writes_follow_what_another_connection_wrote(tmp_path: Path) -> None:
    """The store keeps each source's marks in memory between its commits: a write by
    another connection (another process on the same file) makes it read them again."""
    path = tmp_path / "hub.db"
    hub, other = EventStore(path), EventStore(path)
    hub.ingest([env("u1", s) for s in (1, 2, 3)])
    other.ingest([env("u1", s) for s in (4, 5)])
    mark = hub.ingest([env("u1", 6)]).marks["u1"]
    assert (mark.contiguous, mark.max_seq, mark.events, mark.gap) == (6, 6, 6, None)
    assert other.append_fact("assign", b"{}") == 1
    assert hub.append_fact("assign", b"{}") == 2
    assert hub.marks() == other.marks()


def test_a_rolled_back_ingest_leaves_no_kept_mark_or_epoch_behind(tmp_path: Path) -> None:
    store = EventStore(tmp_path / "hub.db")
    store.ingest([_env(1, _move(1), "aaaa")])

    def disk_full(_: object) -> list[tuple[str, Assignment]]:
        raise sqlite3.OperationalError("database or disk is full")

    spare = [_env(1, _move(1, 7.0), "bbbb"), _env(2, _move(2), "aaaa")]
    with pytest.raises(sqlite3.OperationalError):
        store.ingest(spare, derive=disk_full)
    assert store.counts()["total"] == 1 and store.replacements() == []
    r = store.ingest(spare)
    assert r.inserted == 2 and [x.source for x in r.replaced] == ["table-01@bbbb"]
    assert (r.marks["table-01"].contiguous, r.marks["table-01"].events) == (2, 2)
    assert store.marks()["table-01@bbbb"].contiguous == 1
    assert [x.source for x in store.replacements()] == ["table-01@bbbb"]


def test_rebuild_recomputes_the_derived_tables(tmp_path: Path) -> None:
    path = tmp_path / "hub.db"
    store = EventStore(path)
    store.ingest([env("u1", s, move=s) for s in (1, 2, 4)] + [env("u2", 1)])
    store.append_fact("assign", b"{}")
    before = (store.marks(), store.moves())
    db = sqlite3.connect(path)
    db.execute("DELETE FROM moves")
    db.execute("UPDATE sources SET contiguous = 0")
    db.commit()
    assert store.rebuild() == 5
    assert (store.marks(), store.moves()) == before
    assert store.integrity_check() == "ok"


def test_a_seq_beyond_the_window_is_refused_and_only_logged(tmp_path: Path) -> None:
    store = EventStore(tmp_path / "hub.db")
    store.ingest([env("table-01", 1)])
    r = store.ingest([env("table-01", 1 + WINDOW + 1), env("table-01", 2**53)])
    assert (r.inserted, r.beyond_window, r.logged) == (0, 2, 2)
    assert store.mark("table-01").max_seq == 1  # type: ignore[union-attr]
    # answered with the hub's mark: a unit ahead of a hub started from a backup copy
    # sends again from there
    assert r.marks["table-01"].contiguous == 1
    ok = store.ingest([env("table-01", 1 + WINDOW)])  # the edge of the window is in
    assert ok.inserted == 1 and ok.marks["table-01"].gap == 2
    [count] = store.refusal_counts()
    assert (count.code, count.table, count.count) == ("window", 1, 2)
    assert all("beyond the hub's acknowledged mark" in r.reason for r in store.refusal_log())
    unknown = store.ingest([env("table-09", 1 + WINDOW + 5)]).marks["table-09"]
    assert (unknown.contiguous, unknown.max_seq) == (0, 0)  # a unit it knows nothing of


def test_a_conflict_keeps_both_copies_and_is_never_acked_as_stored(tmp_path: Path) -> None:
    store = EventStore(tmp_path / "hub.db")
    store.ingest([env("table-01", 1), env("table-01", 2)])
    r = store.ingest([env("table-01", 2, used=9.0)] * 5)  # copies beyond 3 only counted
    assert r.conflicts == 5 and [a.seq for a in r.answered] == [2] * 5
    [aside] = store.set_aside()
    assert (aside.seq, aside.code) == (2, "conflict") and b"9.0" in aside.payload
    assert aside.stored is not None and b"3.0" in aside.stored
    assert store.held("table-01", 1, 2) == [2]
    assert [m.used for m in store.moves()] == [3.0, 3.0]


def test_a_refused_event_settles_its_seq_and_survives_a_rebuild(tmp_path: Path) -> None:
    store = EventStore(tmp_path / "hub.db")
    store.ingest([env("table-01", 1), env("table-01", 3)])
    bad = Refused("range", "used out of range", 1, unit="table-01", seq=2, payload=b"{}")
    r = store.ingest([], refused=[bad, Refused("json", "not JSON", 1, topic="t")])
    assert r.marks["table-01"].contiguous == 3 and r.logged == 1
    assert store.held("table-01", 1, 3) == [2]
    store.rebuild()
    assert store.mark("table-01").contiguous == 3  # type: ignore[union-attr]
    assert store.counts()["total"] == 2
    # a valid copy arriving later is stored, and the unit need no longer keep its own
    assert store.ingest([env("table-01", 2)]).inserted == 1
    assert store.held("table-01", 1, 3) == [] and store.counts()["total"] == 3


def test_the_refusal_log_is_bounded(tmp_path: Path) -> None:
    store = EventStore(tmp_path / "hub.db")
    junk = [Refused("json", f"junk {i}", None, topic="x") for i in range(MAX_REFUSAL_LOG + 50)]
    store.ingest([], refused=junk)
    rows = store.refusal_log(10**6)
    assert len(rows) == MAX_REFUSAL_LOG and rows[-1].reason == f"junk {MAX_REFUSAL_LOG + 49}"
    assert [(c.code, c.table, c.count) for c in store.refusal_counts()] == [
        ("json", None, MAX_REFUSAL_LOG + 50)
    ]


def test_a_new_journal_epoch_is_a_source_of_its_own_beside_the_first(tmp_path: Path) -> None:
    store = EventStore(tmp_path / "hub.db")
    first = [_env(seq, _move(seq), "aaaa") for seq in (1, 2, 3)]
    store.ingest(first, received=10.0)
    # the unit is replaced: a fresh journal numbers from 1 again, with other moves
    spare = [_env(seq, _move(seq, 7.0), "bbbb") for seq in (1, 2)]
    r = store.ingest(spare, received=20.0)
    assert (r.inserted, r.duplicates, r.conflicts, r.answered) == (2, 0, 0, [])
    mark = r.marks["table-01@bbbb"]
    assert (mark.unit, mark.epoch, mark.contiguous) == ("table-01", "bbbb", 2)
    assert [(x.table, x.unit, x.epoch, x.at) for x in r.replaced] == [(1, "table-01", "bbbb", 20.0)]
    # the first epoch goes on under the unit's own id; replays of either are duplicates
    r = store.ingest([*first[1:], _env(4, _move(4), "aaaa"), spare[0]])
    assert (r.inserted, r.duplicates, r.conflicts, r.replaced) == (1, 3, 0, [])
    assert r.marks["table-01"].contiguous == 4 and r.marks["table-01"].epoch == "aaaa"
    assert [(e.source, e.seq) for e in store.events(table=1)] == [
        ("table-01", 1), ("table-01", 2), ("table-01", 3), ("table-01", 4),
        ("table-01@bbbb", 1), ("table-01@bbbb", 2),
    ]
    assert [(x.table, x.source, x.at) for x in store.replacements()] == [(1, "table-01@bbbb", 20.0)]
    assert store.replacements(table=2) == []
    assert store.set_aside() == []


def test_a_store_before_epochs_takes_a_new_journal_as_a_replacement(tmp_path: Path) -> None:
    path = tmp_path / "hub.sqlite3"
    shutil.copyfile(Path(__file__).parent / "data" / "hub-store-v0.1.sqlite3", path)
    store = EventStore(path)
    legacy = store.mark("table-01")
    assert legacy is not None and legacy.contiguous > 1
    # the journal of a release before epochs goes on under the unit id
    older = envelope("table-01", 1, legacy.contiguous + 1, 9.0, _move(1))
    r = store.ingest([older])
    assert r.inserted == 1 and r.marks["table-01"].contiguous == legacy.contiguous + 1
    # a fresh journal from seq 1: no conflict with the stored seqs, told as a replacement
    r = store.ingest([envelope("table-01", 1, 1, 10.0, _move(1), epoch="cafe01")])
    assert (r.inserted, r.conflicts, r.answered) == (1, 0, [])
    assert [x.source for x in store.replacements(table=1)] == ["table-01@cafe01"]
    assert store.integrity_check() == "ok"


def _move(move: int, used: float = 3.0) -> MovePassed:
    return MovePassed(game=1, move=move, seat=Seat.A, used=used)


def _env(seq: int, event: MovePassed, epoch: str):  # type: ignore[no-untyped-def]
    return envelope("table-01", 1, seq, 1.0 + seq, event, epoch=epoch)
