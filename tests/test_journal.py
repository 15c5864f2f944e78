"""The unit's journal: seqs, one-commit state, acks, restarts, threads."""

from __future__ import annotations

import re
import shutil
import sqlite3
import threading
from pathlib import Path

import msgspec
import pytest

from tablekit.core.clock import ClockRules, ClockState, MoveClock
from tablekit.core.clock_events import MovePassed
from tablekit.core.fields import EPOCH_PATTERN
from tablekit.core.seats import Seat
from tablekit.journal import Journal, JournalError
from tablekit.journals import EventJournals
from tablekit.link import envelope_payload


def passed(move: int) -> MovePassed:
    return MovePassed(game=1, move=move, seat=Seat.A, used=1.5)


def test_seqs_are_consecutive_and_survive_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    j = Journal(path, "u1")
    assert j.record([passed(1), passed(2)], state=b"s1", wall=10.0) == [1, 2]
    assert j.record([], state=b"s2") == []
    j.close()
    j = Journal(path, "u1")
    assert j.load_state() == b"s2"
    assert j.record([passed(3)], wall=11.0) == [3]
    entries = j.pending()
    assert [e.seq for e in entries] == [1, 2, 3]
    assert entries[0].ts == 10.0
    assert msgspec.json.decode(entries[2].event, type=MovePassed) == passed(3)


def test_acked_entries_leave_the_queue_and_seqs_are_never_reused(tmp_path: Path) -> None:
    j = Journal(tmp_path / "j.db", "u1")
    j.record([passed(m) for m in range(1, 6)])
    assert j.acked(3) == 3
    assert [e.seq for e in j.pending()] == [4, 5]
    assert j.acked(2) == 0  # an old ack changes nothing
    assert j.acked(5) == 2
    assert j.pending() == [] and j.pending_count() == 0
    assert j.record([passed(6)]) == [6]
    assert (j.last_seq, j.acked_upto) == (6, 5)


def test_pending_pages_after_a_seq(tmp_path: Path) -> None:
    j = Journal(tmp_path / "j.db", "u1")
    j.record([passed(m) for m in range(1, 11)])
    assert [e.seq for e in j.pending(after=3, limit=4)] == [4, 5, 6, 7]


def test_an_ack_beyond_the_last_seq_is_refused(tmp_path: Path) -> None:
    j = Journal(tmp_path / "j.db", "u1")
    j.record([passed(1)])
    with pytest.raises(
        JournalError, match="ack up to seq 9 but this journal has only assigned up to 1"
    ):
        j.acked(9)
    assert j.pending_count() == 1


def test_a_journal_of_another_unit_is_refused(tmp_path: Path) -> None:
    Journal(tmp_path / "j.db", "u1").close()
    with pytest.raises(JournalError, match="belongs to unit 'u1', not 'u2'"):
        Journal(tmp_path / "j.db", "u2")


def test_a_corrupt_file_is_refused_with_its_name(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(JournalError, match=r"j\.db"):
        Journal(path, "u1")


def test_the_journal_file_is_in_wal_mode(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    Journal(path, "u1").close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_events_and_state_commit_together(tmp_path: Path) -> None:
    """A failing record leaves neither its events nor its state behind."""
    j = Journal(tmp_path / "j.db", "u1")
    j.record([passed(1)], state=b"good")

    class Unencodable(msgspec.Struct):
        x: object

    with pytest.raises(TypeError):
        j.record([passed(2), Unencodable(x=object())], state=b"bad")  # type: ignore[list-item]
    assert j.load_state() == b"good"
    assert j.last_seq == 1 and j.pending_count() == 1


def test_the_clock_state_restores_from_the_journal(tmp_path: Path) -> None:
    clock = MoveClock(ClockRules(seats=3, move_seconds=30.0))
    j = Journal(tmp_path / "j.db", "u1")
    for t in (0.0, 5.0, 12.0):
        j.record(clock.press(t), state=msgspec.json.encode(clock.state))
    state = msgspec.json.decode(j.load_state() or b"", type=ClockState)
    assert state == clock.state


def test_threads_record_and_ack_concurrently(tmp_path: Path) -> None:
    j = Journal(tmp_path / "j.db", "u1")
    done = threading.Event()

    def writer() -> None:
        for m in range(1, 201):
            j.record([passed(m)])
        done.set()

    def acker() -> None:
        while not done.is_set() or j.pending_count():
            entries = j.pending(limit=7)
            if entries:
                j.acked(entries[-1].seq)

    threads = [threading.Thread(target=writer), threading.Thread(target=acker)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert j.last_seq == 200 and j.acked_upto == 200 and j.pending_count() == 0
    assert j.integrity_check() == "ok"


def test_refused_entries_are_set_aside_not_deleted(tmp_path: Path) -> None:
    j = Journal(tmp_path / "j.db", "table-01")
    j.record([passed(i) for i in range(1, 6)])
    assert j.set_aside(2, "range", "used out of range")  # the Refusal came first
    assert j.acked(4, refused=[2, 3]) == 2  # 1 and 4 deleted; 3 set aside by the ack
    assert [e.seq for e in j.pending()] == [5]
    aside = j.set_aside_entries()
    assert [(e.seq, e.code, e.reason) for e in aside] == [
        (2, "range", "used out of range"), (3, "", "")
    ]
    assert j.set_aside(3, "conflict", "another copy is stored")  # its Refusal, late
    assert j.set_aside_entries()[1].code == "conflict"
    assert not j.set_aside(1, "range", "x")  # no longer held: nothing to set aside


def test_each_journal_file_has_its_own_epoch_kept_across_restarts(tmp_path: Path) -> None:
    first = Journal(tmp_path / "a.db", "table-01")
    epoch = first.epoch
    assert re.match(EPOCH_PATTERN, epoch) and epoch
    first.close()
    assert Journal(tmp_path / "a.db", "table-01").epoch == epoch
    # a spare unit's (or a wiped card's) fresh journal: another epoch, seqs from 1 again
    spare = Journal(tmp_path / "b.db", "table-01")
    assert spare.epoch != epoch and spare.record([passed(1)]) == [1]


def test_a_journal_before_epochs_keeps_the_empty_epoch(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    shutil.copyfile(Path(__file__).parent / "data" / "unit-journal-v0.1.sqlite3", path)
    journal = Journal(path, "table-01")
    assert journal.epoch == ""
    entry = journal.pending(limit=1)[0]
    # so what it sends is what that release sent: no epoch field
    assert b"epoch" not in envelope_payload("table-01", 1, entry, journal.epoch)


def test_acked_entries_are_kept_until_the_event_is_closed(tmp_path: Path) -> None:
    j = Journal(tmp_path / "j.db", "u1")
    j.record([passed(m) for m in range(1, 6)])
    assert j.acked(3) == 3
    assert (j.pending_count(), j.kept_count()) == (2, 3)
    assert [e.seq for e in j.pending(after=1)] == [2, 3, 4, 5]  # what a hub that lost 2-3 gets
    assert j.last_acked() == j.pending(after=2, limit=1)[0]
    assert j.prune_acked() == 3
    assert (j.pending_count(), j.kept_count(), j.last_acked()) == (2, 0, None)
    assert [e.seq for e in j.pending(after=0)] == [4, 5]


# --- one journal per event (tablekit.journals) ---------------------------------------------


def test_a_unit_keeps_one_journal_per_event_and_finds_each_again(tmp_path: Path) -> None:
    journals = EventJournals(tmp_path / "tablekit-journal.sqlite3", "table-01")
    cup = journals.open("cup")
    assert cup.event == "cup" and cup.record([passed(1), passed(2)], state=b"cup-state") == [1, 2]
    cup_epoch = cup.epoch
    league = journals.switch(cup, "league")  # the hub serves another event
    assert (league.event, league.path, league.last_seq) == ("league", journals.path, 0)
    assert league.epoch != cup_epoch and league.load_state() is None
    assert league.record([passed(1)]) == [1]  # its own seqs, from 1
    kept = Journal(journals.kept("cup"), "table-01")
    assert (kept.event, kept.epoch, [e.seq for e in kept.pending()]) == ("cup", cup_epoch, [1, 2])
    kept.close()
    again = journals.switch(league, "cup")  # back to the first event: its own journal
    assert (again.event, again.epoch, again.last_seq) == ("cup", cup_epoch, 2)
    assert again.load_state() == b"cup-state"
    assert sorted(p.name for p in tmp_path.glob("*.sqlite3")) == [
        "tablekit-journal.league.sqlite3", "tablekit-journal.sqlite3",
    ]
    again.close()
    assert journals.open().event == "cup"  # after a restart: the event it played last


def test_a_journal_of_an_earlier_release_belongs_to_the_configs_event(tmp_path: Path) -> None:
    path = tmp_path / "tablekit-journal.sqlite3"
    shutil.copyfile(Path(__file__).parent / "data" / "unit-journal-v0.1.sqlite3", path)
    journals = EventJournals(path, "table-01")
    journal = journals.open("cup2026")  # its config's [link] event, which it published under
    assert (journal.event, journal.epoch) == ("cup2026", "")
    held = journal.last_seq
    assert held > 0
    fresh = journals.switch(journal, "cup2027")
    assert fresh.event == "cup2027" and fresh.empty
    kept = Journal(journals.kept("cup2026"), "table-01")
    assert (kept.event, kept.last_seq) == ("cup2026", held)  # nothing mixed, nothing lost
    with pytest.raises(JournalError, match="holds the event 'cup2026', not 'cup2027'"):
        kept.belong_to("cup2027")


def test_a_new_units_journal_becomes_the_first_events_and_empty_ones_leave_no_file(
    tmp_path: Path,
) -> None:
    journals = EventJournals(tmp_path / "j.sqlite3", "table-01")
    new = journals.open()  # a unit whose config names no event, before the hub said one
    assert new.event == "" and new.empty
    first = journals.switch(new, "cup")
    assert first is new and first.event == "cup"
    second = journals.switch(first, "league")  # nothing was journalled in "cup": no file kept
    assert second.event == "league" and list(tmp_path.glob("j.cup*")) == []
    second.record([passed(1)])
    second.close()
    # A unit that ran before any event journalled a hall check: kept aside, never sent.
    before = Journal(tmp_path / "k.sqlite3", "table-01")
    before.record([passed(1)])
    journals = EventJournals(tmp_path / "k.sqlite3", "table-01")
    cup = journals.switch(before, "cup")
    assert cup.event == "cup" and cup.empty
    assert [p.name for p in tmp_path.glob("k.no-event.*")] == [
        f"k.no-event.{before.epoch}.sqlite3"
    ]


def test_a_switch_cut_short_by_a_power_cut_finds_the_kept_journal(tmp_path: Path) -> None:
    journals = EventJournals(tmp_path / "j.sqlite3", "table-01")
    cup = journals.open("cup")
    cup.record([passed(1)])
    epoch = cup.epoch
    cup.close()
    journals.path.rename(journals.kept("cup"))  # kept aside, the next one not yet in place
    reopened = journals.open("cup")  # a config naming the event
    assert (reopened.event, reopened.epoch, reopened.last_seq) == ("cup", epoch, 1)
    reopened.close()
    journals.path.rename(journals.kept("cup"))
    new = journals.open()  # a config naming none: a new journal, until the hub says "cup"
    assert new.event == "" and new.empty
    followed = journals.switch(new, "cup")
    assert (followed.event, followed.epoch, followed.last_seq) == ("cup", epoch, 1)
