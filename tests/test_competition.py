"""The hub's event fold and organizer commands on a real SQLite store."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import msgspec
import pytest

from hub.competition import (
    Competition,
    CompetitionError,
    EventCreated,
    ResultSource,
    decode_record,
    new_event,
)
from hub.effects import ReasonNeededError
from hub.organizer import Organizer, PlayerEntryError
from hub.store import EventStore
from hub.tournament import EventPhase, MissingResultsError, Player, RoundStateError
from tablekit.core.rulesets import Ruleset
from tablekit.core.scoring import GameEnding, GameReport, Opening, RackReport
from tablekit.core.seats import Seat, seats_for


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


def organizer(path: Path, clock: Clock | None = None) -> Organizer:
    return Organizer(EventStore(path), by="judge Ala", clock=clock or Clock())


def report(game: int, seats: int, rng: random.Random, winner: int = 0) -> GameReport:
    racks = tuple(
        RackReport(seat=s, tiles=0 if i == winner else rng.randint(1, 60))
        for i, s in enumerate(seats_for(seats))
    )
    return GameReport(game=game, ending=GameEnding.WENT_OUT, racks=racks)


def school(tmp_path: Path, players: int = 8, clock: Clock | None = None) -> Organizer:
    org = organizer(tmp_path / "event.sqlite3", clock)
    org.create_event("Szkolny konkurs", "school", round_minutes=50)
    org.register(
        [Player(org.next_player_id(i), f"Gracz {i + 1}") for i in range(players)], check_in=True
    )
    org.draw(seed=11)
    return org


def test_table_results_are_scored_by_the_hub_and_advance_the_assignment(tmp_path: Path) -> None:
    org = school(tmp_path)
    [a1, _] = org.competition.assignments()
    assert (a1.table, a1.game, a1.round) == (1, 1, 1)
    assert a1.issued == 1_700_000_000.0  # when the draw seated the table, never 0
    assert [s.seat for s in a1.seats] == [Seat.A, Seat.B, Seat.C, Seat.D]
    assert a1.rules.move_seconds == 40.0 and a1.rules.ruleset == "004"

    racks = GameReport(
        game=1,
        ending=GameEnding.WENT_OUT,
        racks=(
            RackReport(Seat.A, tiles=10),
            RackReport(Seat.B, tiles=0),
            RackReport(Seat.C, tiles=5, jokers=1),
            RackReport(Seat.D, tiles=40, opening=Opening.NOT_OPENED),
        ),
    )
    verdict = org.judge_table_result(1, racks, unit="table-01", seq=42, round_no=1)
    assert verdict.accepted, verdict.reason
    org.record(verdict.record)
    [version] = org.competition.history("round-1", 1, 1)
    # B went out: A -10, C -(5 + 50), D -100, B +165 (RULES.md §3.1)
    assert [s.small for s in version.score.scores] == [-10, 165, -55, -100]
    assert version.players[Seat.B] == a1.seats[1].player
    assert version.record.source is ResultSource.TABLE and version.record.seq == 42
    assert org.competition.assignments()[0].game == 2

    again = org.judge_table_result(1, racks, unit="table-01", seq=43, round_no=1)
    assert not again.accepted
    assert "table 1 game 1: a result is already recorded" in again.reason


@pytest.mark.parametrize(
    ("table", "game", "seats", "reason"),
    [
        (3, 1, 4, "table 3: not in round round-1"),
        (1, 3, 4, "round round-1 has games 1–2, got game 3"),
        (1, 1, 3, "table 1: 4 players sit there, the result has 3 seats"),
    ],
)
def test_bad_table_results_are_rejected_with_a_reason(
    tmp_path: Path, table: int, game: int, seats: int, reason: str
) -> None:
    org = school(tmp_path)
    verdict = org.judge_table_result(
        table, report(game, seats, random.Random(1)), unit="u", seq=1, round_no=1
    )
    assert not verdict.accepted and reason in verdict.reason


def test_score_errors_reject_with_the_seat_named(tmp_path: Path) -> None:
    org = school(tmp_path)
    bad = GameReport(
        game=1,
        ending=GameEnding.WENT_OUT,
        racks=tuple(RackReport(s, tiles=3) for s in seats_for(4)),
    )
    verdict = org.judge_table_result(1, bad, unit="u", seq=1, round_no=1)
    assert not verdict.accepted
    assert "seats A, B, C, D: tiles: the game ended with a player going out" in verdict.reason


def test_judge_correction_needs_a_reason_and_keeps_every_version(tmp_path: Path) -> None:
    clock = Clock()
    org = school(tmp_path, clock=clock)
    rng = random.Random(5)
    org.enter_result(2, report(1, 4, rng, winner=0))
    with pytest.raises(CompetitionError, match="a correction needs a reason"):
        org.enter_result(2, report(1, 4, rng, winner=1))
    clock.now += 60
    org.enter_result(2, report(1, 4, rng, winner=1), why="C misread her rack")
    versions = org.competition.history("round-1", 2, 1)
    assert [v.record.why for v in versions] == ["", "C misread her rack"]
    assert [v.score.winners for v in versions] == [(Seat.A,), (Seat.B,)]
    assert all(v.record.by == "judge Ala" for v in versions)
    standings = org.competition.event.standings("round-1")
    winner = versions[-1].players[Seat.B]
    assert next(r for r in standings.rows if r.player_id == winner).big == 1


def test_close_needs_every_result_or_a_forced_reason(tmp_path: Path) -> None:
    org = school(tmp_path)
    rng = random.Random(2)
    org.enter_result(1, report(1, 4, rng))
    with pytest.raises(MissingResultsError, match="table 1 game 2, table 2 game 1"):
        org.close_round()
    with pytest.raises(CompetitionError, match="say why"):
        org.close_round(force=True)
    org.close_round(force=True, why="table 2 left for the bus")
    assert org.competition.event.phase is EventPhase.BETWEEN_ROUNDS


def test_restarted_hub_resumes_exactly_where_it_was(tmp_path: Path) -> None:
    org = school(tmp_path, players=11)
    rng = random.Random(3)
    for table in org.competition.tables():
        org.enter_result(table.table, report(1, len(table.players), rng))
    org.start_round(minutes=45)
    again = organizer(tmp_path / "event.sqlite3")
    before, after = org.competition, again.competition
    assert after.event.standings("round-1") == before.event.standings("round-1")
    assert after.assignments() == before.assignments()
    assert after.round_deadline() == before.round_deadline()
    replayed = Competition.replay([])
    assert replayed.records == 0


def test_round_time_over_is_recorded_once(tmp_path: Path) -> None:
    clock = Clock()
    org = school(tmp_path, clock=clock)
    assert org.time_over_due(clock.now) is None  # not started
    org.start_round()  # the event's 50 minutes
    assert org.time_over_due(clock.now + 49 * 60) is None
    record = org.time_over_due(clock.now + 50 * 60)
    assert record is not None and record.stage == "round-1"
    assert org.time_over_due(clock.now + 51 * 60) is None


def test_automatic_league_scheme_is_fixed_at_the_first_draw(tmp_path: Path) -> None:
    org = organizer(tmp_path / "league.sqlite3")
    org.create_event("Liga — Szczecin", "league")
    org.register([Player(org.next_player_id(i), f"P{i}") for i in range(10)], check_in=True)
    assert not org.competition.fixed
    seated = org.draw(seed=4)
    assert org.competition.fixed
    assert org.competition.format.name.endswith("top12")
    assert sorted(len(t.players) for t in seated.tables) == [3, 3, 4]
    assert organizer(tmp_path / "league.sqlite3").competition.format == org.competition.format


def test_refused_command_leaves_nothing_behind(tmp_path: Path) -> None:
    org = organizer(tmp_path / "e.sqlite3")
    org.create_event("Mistrzostwa", "championship")
    org.register([Player(org.next_player_id(i), f"P{i}") for i in range(15)], check_in=True)
    before = org.store.counts()["total"]
    with pytest.raises(ValueError, match="15 players, it needs 16–36"):
        org.draw(seed=1)
    assert org.store.counts()["total"] == before


def test_unknown_ruleset_is_refused_at_creation(tmp_path: Path) -> None:
    org = organizer(tmp_path / "e.sqlite3")
    with pytest.raises(ValueError, match=r"ruleset: unknown name .999."):
        org.create_event("X", "school", ruleset="999")


def test_two_terminals_cannot_both_land_conflicting_commands(tmp_path: Path) -> None:
    org = school(tmp_path)
    rng = random.Random(4)
    for table in org.competition.tables():
        for game in (1, 2):
            org.enter_result(table.table, report(game, len(table.players), rng))
    org.close_round()
    other = organizer(tmp_path / "event.sqlite3")  # a second terminal on the same event
    append = org.store.append_facts

    def second_terminal_first(*args: Any, **kwargs: Any) -> list[int]:
        other.draw(seed=99)  # lands between terminal 1's draw and its store
        return append(*args, **kwargs)

    org.store.append_facts = second_terminal_first  # type: ignore[method-assign]
    with pytest.raises(RoundStateError, match="still open"):
        org.draw(seed=1)
    org.store.append_facts = append  # type: ignore[method-assign]
    fresh = organizer(tmp_path / "event.sqlite3").competition
    assert fresh.event.seed_of("round-2") == 99 and fresh.skipped == []


def test_a_result_stored_meanwhile_makes_the_second_entry_a_correction(tmp_path: Path) -> None:
    """The check that a correction needs a reason runs inside the transaction that stores
    the entry: a terminal that entered the same game a moment earlier turns this one into
    a correction, refused without its reason — never two first entries."""
    org = school(tmp_path)
    other = organizer(tmp_path / "event.sqlite3")  # a second terminal on the same event
    rng = random.Random(5)
    append = org.store.append_facts

    def other_terminal_first(*args: Any, **kwargs: Any) -> list[int]:
        other.enter_result(1, report(1, 4, rng))  # lands after terminal 1 looked
        return append(*args, **kwargs)

    org.store.append_facts = other_terminal_first  # type: ignore[method-assign]
    with pytest.raises(ReasonNeededError, match="a correction needs a reason"):
        org.enter_result(1, report(1, 4, rng))
    org.store.append_facts = append  # type: ignore[method-assign]
    assert len(organizer(tmp_path / "event.sqlite3").competition.history("round-1", 1, 1)) == 1


def test_a_player_added_meanwhile_is_a_duplicate(tmp_path: Path) -> None:
    org = organizer(tmp_path / "event.sqlite3")
    org.create_event("Szkolny konkurs", "school")
    other = organizer(tmp_path / "event.sqlite3")
    append = org.store.append_facts

    def other_terminal_first(*args: Any, **kwargs: Any) -> list[int]:
        other.add_player("Jan Kos", club="SP 2")
        return append(*args, **kwargs)

    org.store.append_facts = other_terminal_first  # type: ignore[method-assign]
    with pytest.raises(PlayerEntryError, match="duplicate player"):
        org.add_player("Jan Kos", club="SP 2")
    org.store.append_facts = append  # type: ignore[method-assign]
    assert len(organizer(tmp_path / "event.sqlite3").competition.event.players) == 1


def test_a_stored_record_that_cannot_be_read_is_set_aside(tmp_path: Path) -> None:
    org = school(tmp_path)
    org.store.append_fact("result-recorded", b'{"record":"result-recorded","at":"soon"}')
    again = organizer(tmp_path / "event.sqlite3")
    assert again.competition.event.stages_played == ("round-1",)  # the rest still folds
    [(seq, reason)] = again.unreadable
    assert seq > 1 and "at" in reason


def test_an_event_stored_with_a_retired_ruleset_key_still_replays(tmp_path: Path) -> None:
    """Older hubs stored custom rulesets with ``invert_small_display``; the key is gone
    (small points are shown winner plus everywhere), the event must still load."""
    club = Ruleset(name="club", title="Club", move_seconds=45.0)
    created = new_event("Klub", "winter", at=1.0, ruleset="club", rulesets={"club": club})
    raw = msgspec.json.decode(msgspec.json.encode(created))
    raw["rulesets"]["club"]["invert_small_display"] = True
    payload = msgspec.json.encode(raw)
    with pytest.raises(msgspec.ValidationError, match="invert_small_display"):
        msgspec.json.decode(payload, type=EventCreated)
    assert decode_record(payload) == created
    broken = payload.replace(b'"move_seconds":45.0', b'"move_seconds":"slow"')
    with pytest.raises(msgspec.ValidationError, match="move_seconds"):
        decode_record(broken)
