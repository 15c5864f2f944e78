"""The snapshot of the folded event kept in the store: a fresh process starts from it, and
the replay of every record stays the truth (a stale, foreign or other code's snapshot
is never trusted)."""

from __future__ import annotations

import dataclasses
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hub import fold_snapshot, organizer_base
from hub.competition import Competition
from hub.organizer import Organizer
from hub.store import EventStore
from hub.tournament import Player, SanctionKind
from tablekit.core.scoring import GameEnding, GameReport, RackReport
from tablekit.core.seats import seats_for


@pytest.fixture(autouse=True)
def snapshot_after_few_records(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(organizer_base, "SNAPSHOT_AFTER", 5)


def report(game: int, seats: int, winner: int) -> GameReport:
    racks = tuple(
        RackReport(seat=s, tiles=0 if i == winner else 7 * (i + 1))
        for i, s in enumerate(seats_for(seats))
    )
    return GameReport(game=game, ending=GameEnding.WENT_OUT, racks=racks)


def play(org: Organizer, winner: int) -> None:
    for table in org.competition.tables():
        for game in range(1, table.games + 1):
            org.enter_result(table.table, report(game, len(table.players), winner % 3))


def rich_event(path: Path) -> Organizer:
    """An event with a bit of everything the fold keeps: players (a minor, one withdrawn,
    one renamed), the language and privacy chosen, a draw taken back, results and a
    correction, a sanction given and lifted, a judge's call, two rounds."""
    ticks = iter(range(1_700_000_000, 1_800_000_000))
    org = Organizer(EventStore(path), by="sędzia", clock=lambda: float(next(ticks)))
    org.create_event("Turniej szkolny", "school")
    org.register([Player(f"P{i:02d}", f"Gracz Numer{i:02d}", club="SP 1")
                  for i in range(1, 15)], check_in=True)
    org.record_minor(["P03"], consent=True, why="zgoda rodzica")
    org.withdraw("P14", "choroba")
    org.change_player("P05", why="literówka", name="Anna Kowalska")
    org.choose_language("en")
    org.choose_privacy("initial")
    org.draw(seed=1)
    org.undo_draw("zła lista obecności")
    org.draw(seed=2)
    org.start_round()
    play(org, winner=0)
    table = org.competition.tables()[0]
    org.enter_result(table.table, report(1, len(table.players), 1), why="pomyłka w zapisie")
    warning = org.sanction_record("P02", SanctionKind.WARNING, why="rozmowa przy stole")
    org.sanction(warning)
    org.sanction(org.lift_record(1, why="nieporozumienie"))
    org.resolve_call(2, "gracz poprosił o sędziego")
    org.close_round()
    org.draw(seed=3)
    org.start_round()
    play(org, winner=2)
    return org


@pytest.fixture
def event(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "event.sqlite3"
    rich_event(path).store.close()
    yield path


def replayed(path: Path) -> Competition:
    """The truth: every record folded."""
    store = EventStore(path)
    try:
        return Organizer(store, snapshots=False).competition
    finally:
        store.close()


def fresh(path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Competition, int]:
    """The event as a fresh process reads it, and how many records it folded."""
    folded = [0]
    apply_all = Competition.apply_all

    def counting(self: Competition, records: Any, **kwargs: Any) -> Competition:
        records = list(records)
        folded[0] += len(records)
        return apply_all(self, records, **kwargs)

    monkeypatch.setattr(Competition, "apply_all", counting)
    store = EventStore(path)
    try:
        competition = Organizer(store).competition
    finally:
        store.close()
        monkeypatch.setattr(Competition, "apply_all", apply_all)
    return competition, folded[0]


def assert_same(got: Competition, truth: Competition) -> None:
    """Every field of the fold, and every part of the event state, as the replay's."""
    for field in dataclasses.fields(Competition):
        if field.name != "state":
            assert getattr(got, field.name) == getattr(truth, field.name), field.name
    assert got.state is not None and truth.state is not None
    ours, theirs = vars(got.state), vars(truth.state)
    assert ours.keys() == theirs.keys()
    for name, value in theirs.items():
        if name == "_rounds":
            assert [_round(r) for r in ours[name]] == [_round(r) for r in value]
        else:
            assert ours[name] == value, name
    assert got.event.standings() == truth.event.standings()


def _round(drawn: Any) -> dict[str, Any]:
    return {name: getattr(drawn, name) for name in type(drawn).__slots__}


def test_a_fresh_process_starts_from_the_snapshot_and_folds_the_same_event(
    event: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    truth = replayed(event)
    first, folded = fresh(event, monkeypatch)  # no snapshot yet: every record, then one kept
    assert folded == truth.records
    assert_same(first, truth)
    second, folded = fresh(event, monkeypatch)
    assert folded == 0
    assert_same(second, truth)


def test_a_snapshot_older_than_the_records_is_folded_forward(
    event: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fresh(event, monkeypatch)  # keeps a snapshot
    org = Organizer(EventStore(event), snapshots=False)
    org.close_round()
    org.choose_language("pl")
    org.store.close()
    got, folded = fresh(event, monkeypatch)
    assert folded == 2  # only what was recorded after the snapshot
    assert_same(got, replayed(event))


def test_a_foreign_snapshot_is_never_trusted(
    event: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A snapshot copied from another event's file (say, one with the same records but
    a different last result) does not match this store's records: every record folds."""
    other = tmp_path / "other.sqlite3"
    shutil.copyfile(event, other)
    org = Organizer(EventStore(other), snapshots=False)
    table = org.competition.tables()[0]
    org.enter_result(table.table, report(1, len(table.players), 0), why="inny wynik")
    org.store.close()
    fresh(other, monkeypatch)  # the other file keeps a snapshot of its own records
    with sqlite3.connect(other) as theirs, sqlite3.connect(event) as ours:
        row = theirs.execute("SELECT * FROM fold_snapshot").fetchone()
        ours.execute("INSERT INTO fold_snapshot VALUES (?, ?, ?, ?, ?, ?)", row)
    got, folded = fresh(event, monkeypatch)
    truth = replayed(event)
    assert folded == truth.records
    assert_same(got, truth)


@pytest.mark.parametrize(
    "damage",
    [
        "UPDATE fold_snapshot SET code = x'00'",  # made by other code
        "UPDATE fold_snapshot SET digest = x'00'",  # of other records
        "UPDATE fold_snapshot SET payload = x'789c0300000000'",  # not a snapshot
        "UPDATE fold_snapshot SET payload = substr(payload, 1, 100)",  # cut short
        "UPDATE fold_snapshot SET seq = seq + 1",  # claims a record it has not folded
    ],
    ids=["other code", "other records", "not a snapshot", "cut short", "one record more"],
)
def test_a_snapshot_that_does_not_check_out_is_never_trusted(
    event: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    fresh(event, monkeypatch)
    with sqlite3.connect(event) as db:
        db.execute(damage)
    got, folded = fresh(event, monkeypatch)
    truth = replayed(event)
    assert folded == truth.records
    assert_same(got, truth)


def test_without_the_folding_codes_source_no_snapshot_is_trusted_or_kept(
    event: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fresh(event, monkeypatch)
    with sqlite3.connect(event) as db:
        made = db.execute("SELECT made FROM fold_snapshot").fetchone()
    monkeypatch.setattr(fold_snapshot, "code_digest", lambda: None)
    got, folded = fresh(event, monkeypatch)
    truth = replayed(event)
    assert folded == truth.records
    assert_same(got, truth)
    with sqlite3.connect(event) as db:
        assert db.execute("SELECT made FROM fold_snapshot").fetchone() == made


def test_a_record_rewritten_under_the_snapshot_is_seen(
    event: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stored record changed behind the snapshot's back (by another program) breaks
    its digest: the event is folded from its records."""
    fresh(event, monkeypatch)
    with sqlite3.connect(event) as db:
        db.execute(
            "UPDATE events SET payload = CAST(replace(CAST(payload AS TEXT), 'Anna Kowalska',"
            " 'Anna Nowak') AS BLOB) WHERE source = 'hub'"
        )
    got, folded = fresh(event, monkeypatch)
    truth = replayed(event)
    assert folded == truth.records and "Anna Nowak" in str(truth.event.players["P05"])
    assert_same(got, truth)


def test_the_erasure_of_personal_data_leaves_no_snapshot(
    event: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fresh(event, monkeypatch)
    org = Organizer(EventStore(event))
    org.close_round()
    org.erase_personal_data(confirm="Turniej szkolny")
    assert org.store.fold() is None
    org.store.close()
    got, _ = fresh(event, monkeypatch)
    assert got.erased is not None
    assert EventStore(event).fold() is None
    assert b"Kowalska" not in event.read_bytes()


def test_a_snapshot_is_kept_only_of_the_latest_records(
    event: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fold made before the hub recorded more is out of date: it is not kept."""
    fresh(event, monkeypatch)
    store = EventStore(event)
    kept = store.fold()
    assert kept is not None and store.keep_fold(kept) is True
    late = Organizer(EventStore(event), snapshots=False)
    late.choose_language("pl")
    late.store.close()
    assert store.keep_fold(kept) is False
