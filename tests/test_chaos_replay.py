"""The chaos soak's standings check (bench/chaos_soak.py, ``replay_standings``) on a
store made by hand: the hub's standings equal a fault-free replay of the journals only
when the hub stored and judged every result the table typed."""

from __future__ import annotations

import sys
from pathlib import Path

import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from chaos_soak import create_event, replay_standings
from fault_rig import EVENT, VENUE

from hub.conductor import Conductor
from hub.organizer import Organizer
from hub.store import EventStore
from tablekit.core.clock_events import MovePassed
from tablekit.core.messages import EventEnvelope
from tablekit.core.result import ResultSubmitted
from tablekit.core.scoring import GameEnding, GameReport, RackReport
from tablekit.core.seats import seats_for
from tablekit.core.topics import Topics
from tablekit.journal import Journal
from tablekit.link import envelope_payload


def game(number: int) -> list[msgspec.Struct]:
    seats = seats_for(4)
    moves = [
        MovePassed(game=number, move=m, seat=seats[(m - 1) % 4], used=1.0 + m % 3)
        for m in range(1, 9)
    ]
    racks = tuple(RackReport(s, tiles=0 if i == 0 else 5 * i + number) for i, s in enumerate(seats))
    report = GameReport(game=number, ending=GameEnding.WENT_OUT, racks=racks)
    return [*moves, ResultSubmitted(game=number, move=8, report=report, round=1)]


def test_the_standings_check_fails_while_the_hub_lacks_a_typed_result(tmp_path: Path) -> None:
    db = tmp_path / "hub.db"
    create_event(db, tables=1, rounds=2, games=2, move_seconds=3.0)
    path = tmp_path / "unit-1.db"
    journal = Journal(path, "table-01")
    journal.record(game(1))
    journal.record(game(2))
    hub = Organizer(EventStore(db))
    judge = Conductor(hub, Topics(VENUE, EVENT)).judge
    entries = journal.pending()

    def deliver(upto: int) -> None:
        envelopes = [
            msgspec.json.decode(
                envelope_payload("table-01", 1, e, journal.epoch), type=EventEnvelope
            )
            for e in entries[:upto]
        ]
        hub.store.ingest(envelopes, derive=judge)

    deliver(9)  # game 1 and its result; game 2 never reached the hub
    assert replay_standings(db, [(1, path)], tmp_path) == (False, 1, 1, 9)
    deliver(18)
    assert replay_standings(db, [(1, path)], tmp_path) == (True, 1, 2, 0)
    hub.store.close()
    journal.close()
