"""A table's unit replaced mid-event (a spare with a fresh journal, seqs from 1 again under
the same unit id), and the old card's unsent events delivered later: real Mosquitto, the
real hub service, the real journal and link. Nothing lost, nothing counted twice, no
conflicts, the organizer told; the standings are those of a replay of the same moves by
one uninterrupted unit.
"""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import msgspec
import pytest
from test_cli_support import Cli

from hub.broker import MosquittoBroker
from hub.conductor import Conductor
from hub.organizer import Organizer
from hub.service import HubService
from hub.store import EventStore
from hub.tournament import Player
from tablekit.app import build
from tablekit.config import LinkSettings, UnitConfig, UnitSettings
from tablekit.controls import Button, ButtonEdge
from tablekit.core.clock_events import GameEndReason, GameOver, GameStarted, MovePassed
from tablekit.core.messages import AnyUnitEvent, envelope
from tablekit.core.result import ResultSubmitted
from tablekit.core.scoring import GameEnding, GameReport, RackReport
from tablekit.core.seats import Seat
from tablekit.core.topics import Topics
from tablekit.journal import Journal
from tablekit.link import TableLink
from tablekit.unit import RESTORED, Quit, TableUnit

pytestmark = pytest.mark.mqtt

TOPICS = Topics("hall", "swap")
UNIT = "table-01"
NAMES = ("Anna Kowalska", "Bartek Nowak", "Celina Żak", "Darek Lis")
SEATS = (Seat.A, Seat.B, Seat.C, Seat.D)


def seated(db: Path) -> Organizer:
    """One table of four, round 1 drawn and started (the same for the reference)."""
    organizer = Organizer(EventStore(db), by="organizer")
    organizer.create_event("Turniej", "school")
    organizer.register(
        [Player(organizer.next_player_id(i), n) for i, n in enumerate(NAMES)], check_in=True
    )
    organizer.draw(seed=1)
    organizer.start_round()
    return organizer


def opening(game: int, moves: int) -> list[AnyUnitEvent]:
    events: list[AnyUnitEvent] = [
        GameStarted(game=game, move=1, starter=Seat.A, seats=4, move_seconds=40.0)
    ]
    events += [
        MovePassed(game=game, move=m, seat=SEATS[(m - 1) % 4], used=5.0 + m)
        for m in range(1, moves + 1)
    ]
    return events


def ending(game: int, moves: int, tiles: Sequence[int]) -> list[AnyUnitEvent]:
    racks = tuple(RackReport(seat, tiles=t) for seat, t in zip(SEATS, tiles, strict=True))
    report = GameReport(game=game, ending=GameEnding.WENT_OUT, racks=racks)
    return [
        GameOver(game=game, move=moves, reason=GameEndReason.WENT_OUT, seat=Seat.A),
        ResultSubmitted(game=game, move=moves, report=report, round=1),
    ]


def link(broker: MosquittoBroker, journal: Journal) -> TableLink:
    settings = LinkSettings(host=broker.host, port=broker.port, venue="hall", event="swap")
    return TableLink(settings, journal, 1, UNIT, lambda _: None, keepalive=5)


def standings(organizer: Organizer) -> list[tuple[Any, ...]]:
    return [
        (r.place, r.player_id, r.big, r.small, r.games)
        for r in organizer.competition.event.overall_standings().rows
    ]


def test_a_unit_replaced_mid_round_loses_nothing_and_counts_nothing_twice(
    tmp_path: Path, mosquitto: Callable[..., MosquittoBroker], wait_until: Any
) -> None:
    broker = mosquitto()
    db = tmp_path / "hub.sqlite3"
    seated(db).store.close()
    service = HubService(broker.client_settings(), db, TOPICS, tables=1)
    service.start()
    assert service.wait_online(10)
    played: list[tuple[str, list[AnyUnitEvent]]] = []  # (journal, its events in seq order)
    try:
        # The first unit plays game 1 to its accepted result ...
        first = Journal(tmp_path / "card-1.sqlite3", UNIT)
        link_a = link(broker, first)
        link_a.start()
        game1 = opening(1, 12) + ending(1, 12, (0, 14, 30, 7))
        first.record(game1)
        wait_until(lambda: first.pending_count() == 0, 20, "game 1 acknowledged")
        # ... then loses the network and dies with game 2 started: 4 events unsent.
        link_a.stop()
        lost_with_the_card = opening(2, 3)
        first.record(lost_with_the_card)
        assert first.pending_count() == 4
        played.append((first.epoch, game1 + lost_with_the_card))
        first.close()

        # The spare: a fresh journal, same table and unit id, numbering from 1 again.
        spare = Journal(tmp_path / "card-2.sqlite3", UNIT)
        assert spare.epoch != played[0][0]
        link_b = link(broker, spare)
        link_b.start()
        game2 = opening(2, 9) + ending(2, 9, (21, 0, 4, 11))
        spare.record(game2)
        wait_until(lambda: spare.pending_count() == 0, 20, "the spare's events acknowledged")
        assert spare.set_aside_entries() == []
        link_b.stop()
        played.append((spare.epoch, game2))
        spare.close()

        # The dead unit's card, read in a working unit, delivers what it still held.
        first = Journal(tmp_path / "card-1.sqlite3", UNIT)
        link_a = link(broker, first)
        link_a.start()
        wait_until(lambda: first.pending_count() == 0, 20, "the old card's events delivered")
        assert first.set_aside_entries() == []
        link_a.stop()
        first.close()
        counters = service.counters()
    finally:
        service.stop()

    assert counters.get("conflicts", 0) == 0 and counters.get("refusals_sent", 0) == 0
    assert counters["replaced_units"] == 1
    store = EventStore(db)
    assert store.set_aside() == [] and store.refusal_counts() == []
    # 0 lost, 0 duplicated: each journal's events, each once, in seq order, per epoch
    for source, (epoch, events) in zip(("table-01", f"table-01@{played[1][0]}"), played,
                                       strict=True):
        stored = store.events(source=source)
        assert [e.seq for e in stored] == list(range(1, len(events) + 1)), epoch
        assert [e.event() for e in stored] == events
    total = sum(len(events) for _, events in played)
    assert sum(1 for e in store.events() if e.source != "hub" and e.table == 1) == total
    [replaced] = store.replacements()
    assert (replaced.table, replaced.unit, replaced.epoch) == (1, UNIT, played[1][0])

    # The organizer sees it.
    cli = Cli(db)
    assert "table 1's unit was replaced" in cli.ok("event", "refusals")
    assert "table 1's unit was replaced" in cli.ok("event", "show")
    assert "table 1's unit was replaced" in cli.ok("round", "status")

    # The reference: the same moves replayed by one unit that never failed.
    reference = seated(tmp_path / "reference.sqlite3")
    judge = Conductor(reference, TOPICS).judge
    stream = [event for _, events in played for event in events]
    reference.store.ingest(
        [envelope(UNIT, 1, seq, 1000.0 + seq, ev) for seq, ev in enumerate(stream, start=1)],
        derive=judge,
    )
    hub = Organizer(store, by="organizer")
    assert len(hub.competition.results) == len(reference.competition.results) == 2
    assert standings(hub) == standings(reference)
    assert any(row[3] != 0 for row in standings(hub))  # the results were scored
    assert msgspec.json.encode(sorted(e.kind for e in store.events() if e.source != "hub")) == (
        msgspec.json.encode(sorted(e.kind for e in reference.store.events() if e.source != "hub"))
    )


def test_a_unit_put_back_from_an_older_copy_of_its_journal_starts_a_new_epoch(
    tmp_path: Path, mosquitto: Callable[..., MosquittoBroker], wait_until: Any
) -> None:
    """The card is put back from a copy taken earlier: the hub holds more of the journal's
    epoch than the copy ever numbered. The unit numbers nothing again — a new epoch, the
    copy kept aside — shows that it was restored and waits for the judge, and takes the
    hub's seating again; the hub stores no conflict and no move twice."""
    broker = mosquitto()
    db = tmp_path / "hub.sqlite3"
    seated(db)
    service = HubService(broker.client_settings(), db, TOPICS)
    service.start()
    assert service.wait_online(10)
    config = UnitConfig(
        unit=UnitSettings(table=1),
        link=LinkSettings(host=broker.host, port=broker.port, venue="hall", event="swap"),
    )
    path = tmp_path / "journal.sqlite3"

    def switch_on() -> tuple[TableUnit, threading.Thread]:
        unit = build(config, path)
        loop = threading.Thread(target=unit.run, daemon=True)
        loop.start()
        wait_until(lambda: len(unit.view.names) == 4, what="the hub's seating")
        return unit, loop

    def switch_off(unit: TableUnit, loop: threading.Thread) -> None:
        unit.put(Quit())
        loop.join(10)
        unit.uplink.stop()  # type: ignore[union-attr]
        unit.recorder.close()  # type: ignore[union-attr]

    def play(unit: TableUnit, presses: int) -> None:
        for _ in range(presses):
            before = unit.view.clock.move
            now = time.monotonic()
            unit.put(ButtonEdge(Button.PASS, True, now))
            unit.put(ButtonEdge(Button.PASS, False, now + 0.05))
            wait_until(lambda was=before: unit.view.clock.move != was, what="the press taken")
            time.sleep(unit.clock.rules.lockout)  # the next press is a new one
        journal = unit.recorder
        assert isinstance(journal, Journal)
        wait_until(lambda: journal.pending_count() == 0, what="every event at the hub")

    try:
        unit, loop = switch_on()
        play(unit, 3)
        switch_off(unit, loop)
        shutil.copy(path, tmp_path / "copy.sqlite3")  # the card's copy, taken now
        unit, loop = switch_on()
        unit.put(ButtonEdge(Button.JUDGE, True, time.monotonic()))  # resumes after the restart
        unit.put(ButtonEdge(Button.JUDGE, False, time.monotonic()))
        play(unit, 6)
        old_epoch = Journal(tmp_path / "copy.sqlite3", UNIT).epoch
        switch_off(unit, loop)
        shutil.copy(tmp_path / "copy.sqlite3", path)  # put back from the older copy
        for suffix in ("-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)

        unit, loop = switch_on()
        wait_until(lambda: unit.view.held, 20, "the unit restored from an older copy")
        wait_until(lambda: len(unit.view.names) == 4, what="the hub's seating, taken again")
        journal = unit.recorder
        assert isinstance(journal, Journal) and journal.epoch != old_epoch  # a new epoch
        assert [p.name for p in tmp_path.glob("journal.swap.older-copy.*.sqlite3")]
        assert unit.view.state_word == "PAUSED — RESTARTED"
        assert unit.view.message == str(RESTORED)
        before = unit.view.clock
        unit.put(ButtonEdge(Button.PASS, True, time.monotonic()))  # held: the judge first
        unit.put(ButtonEdge(Button.PASS, False, time.monotonic()))
        unit.put(ButtonEdge(Button.JUDGE, True, time.monotonic()))
        unit.put(ButtonEdge(Button.JUDGE, False, time.monotonic()))
        wait_until(lambda: not unit.view.held, what="the judge's key")
        assert unit.view.clock.move == before.move
        released = time.monotonic() + unit.controls.settle  # a new press, not a bounce
        wait_until(lambda: time.monotonic() > released, what="the button let go")
        play(unit, 2)  # the table goes on, in the new epoch
        switch_off(unit, loop)
        assert not service.store.set_aside(table=1)  # no conflict: nothing numbered again
        moves = [(m.source, m.game, m.move) for m in service.store.moves(table=1)]
        old = [(g, m) for s, g, m in moves if s == UNIT]
        passes = service.store.events(source=UNIT, kind="move_passed")
        assert len(old) == len(set(old)) == len(passes) == 8  # each move once
        assert any(s.startswith(f"{UNIT}@") for s, _, _ in moves)  # the new epoch's
    finally:
        service.stop()
