"""Files written by an earlier version of the kit open and replay unchanged.

``tests/data/`` holds a hub event store and a unit journal written by version 0.1 (see
``tests/data/README.md``) and what that version read from them. A change to the stored
formats must keep these files working (or migrate them): a venue upgrades the kit between
tournaments, and a season's events and a unit's unsent journal must survive it.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import msgspec
import pytest

from hub.organizer import Organizer
from hub.store import EventStore
from tablekit.core.clock import ClockRules, MoveClock, Phase
from tablekit.core.messages import EventEnvelope
from tablekit.core.rulesets import decode_with_retired_keys
from tablekit.core.topics import Topics, decode_topic
from tablekit.journal import Journal
from tablekit.link import JournalEntry, envelope_payload
from tablekit.unit import SavedUnit, TableUnit

DATA = Path(__file__).parent / "data"
EXPECTED: dict[str, Any] = json.loads((DATA / "golden-v0.1.json").read_text(encoding="utf-8"))
TOPICS = Topics("demo-hall", "demo-cup")


@pytest.fixture
def store(tmp_path: Path) -> EventStore:
    path = tmp_path / "hub.sqlite3"
    shutil.copyfile(DATA / "hub-store-v0.1.sqlite3", path)
    return EventStore(path)


@pytest.fixture
def journal(tmp_path: Path) -> Journal:
    path = tmp_path / "table-01.sqlite3"
    shutil.copyfile(DATA / "unit-journal-v0.1.sqlite3", path)
    return Journal(path, "table-01")


def rows(standings: Any) -> list[list[Any]]:
    return [[r.place, r.player_id, r.big, r.small, r.games] for r in standings.rows]


def test_the_store_folds_into_the_same_event(store: EventStore) -> None:
    want = EXPECTED["store"]
    organizer = Organizer(store)
    competition = organizer.competition
    assert organizer.unreadable == []
    assert competition.skipped == []
    state = competition.event
    assert list(state.stages_played) == want["stages_played"]
    for stage, expected in want["standings"].items():
        assert rows(state.standings(stage)) == expected, stage
    assert rows(state.overall_standings()) == want["overall"]
    history = competition.history("round-2", 2, 1)
    assert [(v.record.by, v.record.why) for v in history] == [
        (by, why) for by, why, _ in want["history_round2_table2_game1"]
    ]
    assert [json.loads(msgspec.json.encode(v.record.report.racks)) for v in history] == [
        racks for _, _, racks in want["history_round2_table2_game1"]
    ]


def test_the_store_keeps_its_counts_marks_and_moves(store: EventStore) -> None:
    want = EXPECTED["store"]
    counts = store.counts()
    for kind, count in want["counts"].items():
        assert counts.get(kind) == count, kind
    marks = {s: [m.contiguous, m.max_seq, m.events] for s, m in store.marks().items()}
    assert marks == want["marks"]
    assert len(store.moves()) == want["moves"]
    assert store.integrity_check() == "ok"


def test_stored_unit_events_sent_again_are_duplicates_not_conflicts(store: EventStore) -> None:
    """A unit that resends what an older hub stored (after a hub upgrade mid-event) must
    meet the store's byte comparison as a replay: re-encoding may not change the bytes."""
    stored = [e for e in store.events() if e.source.startswith("table-")]
    assert len(stored) == sum(want for src, (_, _, want) in EXPECTED["store"]["marks"].items()
                              if src.startswith("table-"))
    envelopes = []
    for event in stored:
        entry = JournalEntry(event.seq, event.ts, event.payload)
        payload = envelope_payload(event.source, event.table or 0, entry)
        _, message = decode_topic(TOPICS, TOPICS.events(event.table or 0), payload)
        assert isinstance(message, EventEnvelope)
        envelopes.append(message)
    result = store.ingest(envelopes)
    assert (result.inserted, result.duplicates, result.conflicts) == (0, len(stored), 0)


def test_the_journal_resumes_with_its_unsent_events(journal: Journal) -> None:
    want = EXPECTED["journal"]
    assert (journal.acked_upto, journal.last_seq) == (want["acked_upto"], want["last_seq"])
    pending = journal.pending()
    assert [[e.seq, json.loads(e.event)["type"]] for e in pending] == want["pending"]
    for entry in pending:  # what the hub makes of each when the unit sends it again
        payload = envelope_payload(want["unit"], 1, entry)
        _, message = decode_topic(TOPICS, TOPICS.events(1), payload)
        assert isinstance(message, EventEnvelope) and message.seq == entry.seq
    state = journal.load_state()
    assert state is not None
    saved = decode_with_retired_keys(msgspec.json.Decoder(SavedUnit), state)
    clock = want["clock"]
    assert (str(saved.clock.phase), saved.clock.game, saved.clock.move) == (
        clock["phase"], clock["game"], clock["move"],
    )
    assert saved.clock.rules.seats == clock["seats"]
    assert (saved.seating is not None) == want["seating"]

    unit = TableUnit(MoveClock(ClockRules(seats=clock["seats"])), monotonic=lambda: 500.0)
    unit.restore(state, 500.0)
    assert unit.clock.state.phase is Phase.RUNNING and unit.clock.state.paused is not None
    assert unit.seating is not None and len(unit.seating.names) == clock["seats"]
