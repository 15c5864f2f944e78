"""The hub screen's pure model: countdowns, state words, judge queue, slow tables, paging."""

from __future__ import annotations

from dataclasses import replace

import msgspec
import pytest

from hub.hall import (
    HallView,
    Page,
    PageKind,
    Pager,
    ResultState,
    TableCell,
    clock_text,
    countdown_text,
    finished_tables,
    judge_queue,
    pace,
    page_ranges,
    page_sequence,
    remaining_at,
    round_left,
    round_over,
    slow_tables,
    state_of,
    state_text,
)
from hub.samples import sample_hall
from hub.screen.feed import HallTracker
from hub.tournament.standings import place_labels
from hub.web.rounds import other_kits_text
from tablekit.core.clock import Phase
from tablekit.core.clock_events import PauseReason
from tablekit.core.messages import (
    Assignment,
    ResultAck,
    RoundInfo,
    RoundProgress,
    SeatAssignment,
    SeatingBoard,
    SeatingLine,
    StandingLine,
    StandingsBoard,
    StatusReason,
    TableSnapshot,
    UnitStatus,
    idle_assignment,
)
from tablekit.core.seats import Seat
from tablekit.core.status import TableState
from tablekit.core.topics import Cleared, Kind
from tablekit.shared.i18n import words

NOW = 1_800_000_000.0
NAMES = ("Ann", "Bob", "Cy", "Di")


def table(number: int = 1, **kw: object) -> TableCell:
    base = TableCell(
        number=number,
        seats=NAMES,
        game=1,
        games=2,
        phase=Phase.RUNNING,
        active=Seat.A,
        remaining=30.0,
        measured_at=NOW,
        timeouts=(0, 0, 0, 0),
    )
    return replace(base, **kw)  # type: ignore[arg-type]


def info(**kw: object) -> RoundInfo:
    fields: dict[str, object] = {"v": 1, "stage": "Eliminations", "round": 1, **kw}
    return RoundInfo(**fields)  # type: ignore[arg-type]


# --- countdowns -------------------------------------------------------------------------


def test_countdown_is_extrapolated_from_the_measurement_and_clamped():
    t = table(remaining=30.0, measured_at=NOW)
    assert remaining_at(t, NOW) == 30.0
    assert remaining_at(t, NOW + 12.25) == pytest.approx(17.75)
    assert countdown_text(remaining_at(t, NOW + 12.25)) == "18"  # whole seconds, rounded up
    assert remaining_at(t, NOW + 45) == 0.0
    assert countdown_text(remaining_at(t, NOW + 45)) == "0"
    # A measurement "from the future" (clock skew) never adds time.
    assert remaining_at(t, NOW - 5) == 30.0


@pytest.mark.parametrize(
    "frozen",
    [
        {"paused": PauseReason.JUDGE},
        {"online": False},
        {"phase": Phase.READY},
    ],
)
def test_countdown_is_frozen_while_paused_offline_or_between_games(frozen):
    t = table(remaining=30.0, **frozen)
    assert remaining_at(t, NOW + 20) == 30.0


def test_time_up_shows_zero():
    assert remaining_at(table(phase=Phase.TIME_UP, remaining=0.0), NOW + 3) == 0.0


def test_countdown_and_clock_formats():
    assert countdown_text(40.0) == "40"
    assert countdown_text(39.001) == "40"
    assert countdown_text(99.5) == "1:40"
    assert countdown_text(0.0) == "0"
    assert clock_text(42 * 60 + 12.2) == "42:13"
    assert clock_text(3600 + 5) == "1:00:05"


def test_round_clock():
    r = info(deadline=NOW + 600)
    assert round_left(r, NOW) == 600
    assert not round_over(r, NOW + 599)
    assert round_over(r, NOW + 600)
    assert round_left(r, NOW + 700) == 0
    assert round_over(info(last_lap=True), NOW)
    assert round_left(info(), NOW) is None


# --- state words ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "state"),
    [
        ({}, TableState.PLAYING),
        ({"phase": Phase.TIME_UP}, TableState.TIME),
        ({"paused": PauseReason.JUDGE}, TableState.PAUSED_JUDGE),
        ({"paused": PauseReason.PLAYER_CALL}, TableState.JUDGE_CALLED),
        ({"paused": PauseReason.RECOVERED}, TableState.PAUSED_RESTART),
        ({"last_lap_left": 3}, TableState.LAST_LAP),
        ({"phase": Phase.GAME_OVER, "result": ResultState.ENTERING}, TableState.ENTERING_RESULT),
        ({"phase": Phase.GAME_OVER, "result": ResultState.IN}, TableState.RESULT_IN),
        ({"phase": Phase.GAME_OVER}, TableState.GAME_OVER),
        ({"phase": Phase.READY}, TableState.READY),
        ({"online": False}, TableState.OFFLINE),
        ({"known": False}, TableState.NO_DATA),
    ],
)
def test_state_words(changes, state):
    assert state_of(table(**changes)) is state


def test_offline_says_for_how_long():
    t = table(online=False, offline_since=NOW - 42.4)
    assert state_text(t, NOW) == "OFFLINE for 42 s"
    assert state_text(t, NOW + 100) == "OFFLINE for 2 min 22 s"  # not like a time of day
    assert state_text(t, NOW + 100, words=words("pl")) == "BRAK POŁĄCZENIA od 2 min 22 s"
    assert state_text(t, NOW - 42.4 + 3605) == "OFFLINE for 1 h 0 min"


# --- judge queue ----------------------------------------------------------------------------


def test_judge_queue_oldest_first_with_waiting_time_and_flashing():
    hall = HallView(
        tables=(
            table(1),
            table(2, paused=PauseReason.PLAYER_CALL, paused_since=NOW - 30),
            table(3, paused=PauseReason.JUDGE, paused_since=NOW - 200),
            table(4, paused=PauseReason.RECOVERED, paused_since=NOW - 30),
            table(5, online=False, paused=PauseReason.JUDGE, paused_since=NOW - 500),
            table(6, phase=Phase.GAME_OVER, paused=PauseReason.JUDGE, paused_since=NOW - 900),
        )
    )
    queue = judge_queue(hall, NOW, flash_after=120)
    assert [c.table for c in queue] == [3, 2, 4]  # oldest first; ties by table number
    assert [c.state for c in queue] == [
        TableState.PAUSED_JUDGE,
        TableState.JUDGE_CALLED,
        TableState.PAUSED_RESTART,
    ]
    assert queue[0].waiting == 200
    assert [c.flashing for c in queue] == [True, False, False]
    assert judge_queue(hall, NOW + 100, flash_after=120)[1].flashing


# --- slow tables --------------------------------------------------------------------------


def hall_of(*tables: TableCell, round_info: RoundInfo | None = None) -> HallView:
    return HallView(tables=tables, round=round_info if round_info else info(deadline=NOW + 900))


def paced(number: int, moves_per_min: float, game: int = 2, observed: float = 300.0) -> TableCell:
    moves = round(moves_per_min * observed / 60)
    return table(number, game=game, move=moves + 5, pace_since=NOW - observed, pace_moves=5)


def test_pace_needs_enough_observation():
    assert pace(paced(1, 12), NOW) == pytest.approx(12)
    assert pace(paced(1, 12, observed=100), NOW) is None
    assert pace(replace(paced(1, 12), phase=Phase.GAME_OVER), NOW) is None


def test_slow_by_pace_below_sixty_percent_of_the_median():
    hall = hall_of(paced(1, 12), paced(2, 11), paced(3, 13), paced(4, 7.5), paced(5, 6.5))
    slow = slow_tables(hall, NOW)
    assert [s.table for s in slow] == [5]  # 6.5 < 0.6 × 11 = 6.6; 7.5 is not
    assert slow[0].reason() == "pace 6 vs 11/min"
    assert slow[0].reason(words("pl")) == "tempo 6, sala 11/min"


def test_slow_by_games_needs_the_bottom_quarter_and_a_whole_game_behind():
    # Half the hall on game 2, half still on game 1: nobody is far behind.
    even = [paced(n, 12, game=1 if n <= 4 else 2) for n in range(1, 9)]
    assert slow_tables(hall_of(*even), NOW) == []
    # Seven of eight tables finished a game, one did not: it is a game behind.
    behind = [paced(n, 12, game=2) for n in range(1, 8)] + [paced(8, 12, game=1)]
    slow = slow_tables(hall_of(*behind), NOW)
    assert [(s.table, s.reason()) for s in slow] == [(8, "1 game behind")]
    assert [s.reason(words("pl")) for s in slow] == ["o 1 grę w tyle"]
    assert replace(slow[0], behind=2).reason(words("pl")) == "o 2 gry w tyle"
    assert replace(slow[0], behind=5).reason(words("pl")) == "o 5 gier w tyle"


def test_slow_tables_not_flagged_after_the_round_time_or_with_few_tables():
    tables = [paced(1, 12), paced(2, 12), paced(3, 12), paced(4, 3)]
    assert [s.table for s in slow_tables(hall_of(*tables), NOW)] == [4]
    assert slow_tables(hall_of(*tables, round_info=info(deadline=NOW - 1)), NOW) == []
    assert slow_tables(hall_of(*tables, round_info=info(last_lap=True)), NOW) == []
    assert slow_tables(hall_of(*tables[2:]), NOW) == []
    offline = [tables[0], *(replace(t, online=False) for t in tables[1:3]), tables[3]]
    assert slow_tables(hall_of(*offline), NOW) == []  # two tables in play: no median


def test_a_table_ahead_on_games_is_not_slow_by_pace():
    tables = [paced(1, 12), paced(2, 12), paced(3, 12), paced(4, 3, game=3)]
    assert slow_tables(hall_of(*tables), NOW) == []


# --- standings, seating, pages ------------------------------------------------------------


def test_shared_places_are_marked_on_every_sharing_row():
    rows = [
        StandingLine(place=p, name=n, big=0, small=0, games=1)
        for p, n in ((1, "a"), (2, "b"), (2, "c"), (4, "d"), (5, "e"), (5, "f"), (5, "g"))
    ]
    assert place_labels([r.place for r in rows]) == ["1", "2=", "2=", "4", "5=", "5=", "5="]


def test_page_ranges_are_balanced():
    assert page_ranges(60, 30) == [range(30), range(30, 60)]
    assert page_ranges(31, 30) == [range(16), range(16, 31)]
    assert page_ranges(0, 30) == [range(0)]


def test_pager_rotates_on_a_timer_and_jumps_by_key():
    seq = page_sequence(2, 1, 1)
    assert [(p.kind, p.index) for p in seq] == [
        (PageKind.WALL, 0),
        (PageKind.WALL, 1),
        (PageKind.STANDINGS, 0),
        (PageKind.SEATING, 0),
    ]
    pager = Pager(cycle=10, started=0)
    assert pager.update(seq, 5) == seq[0]
    assert pager.update(seq, 10) == seq[1]
    assert pager.update(seq, 35) == seq[3]
    assert pager.update(seq, 40) == seq[0]
    assert pager.select(seq, PageKind.STANDINGS, 41) == seq[2]
    assert pager.update(seq, 50) == seq[2]  # the jump restarted the page's timer
    assert pager.update(seq, 51) == seq[3]
    assert pager.select(seq, PageKind.WALL, 52) == seq[0]
    assert pager.select(seq, PageKind.WALL, 53) == seq[1]  # again: the next wall page
    assert pager.next(seq, 54) == seq[2]
    assert pager.next(seq, 55, -1) == seq[1]
    # The sequence shrinks (standings hidden): the pager stays valid.
    small = page_sequence(1, 0, 0)
    assert pager.update(small, 56) == Page(PageKind.WALL, 0, 1)
    assert Pager(cycle=0, started=0).update(seq, 1e6) == seq[0]  # no rotation


def test_standings_hidden_until_the_round_is_closed():
    board = StandingsBoard(v=1, stage="x", after_round=1, rows=())
    hall = HallView(standings=board, round=info(), hide_standings=True)
    assert hall.standings_hidden
    assert not replace(hall, round=info(closed=True)).standings_hidden
    assert replace(hall, hide_standings=False, round=info(hide_standings=True)).standings_hidden
    assert not replace(hall, hide_standings=False).standings_hidden


def test_sample_hall_has_every_state():
    hall = sample_hall(14, NOW)
    states = {state_of(t) for t in hall.tables}
    assert {
        TableState.RESULT_REFUSED,
        TableState.RESULT_MISSING,
        TableState.ROUND_FINISHED,
        TableState.PLAYING,
        TableState.PAUSED_JUDGE,
        TableState.JUDGE_CALLED,
        TableState.OFFLINE,
        TableState.TIME,
        TableState.LAST_LAP,
        TableState.ENTERING_RESULT,
        TableState.RESULT_IN,
        TableState.READY,
        TableState.GAME_OVER,
    } <= states
    assert [t.seat_count for t in sample_hall(9, NOW).tables].count(3) == 0
    assert [t.seat_count for t in sample_hall(10, NOW).tables].count(
        3
    ) == 2  # the last two tables seat three


# --- the tracker (messages → hall) ------------------------------------------------------------


def snapshot(tbl: int, at: float, **kw: object) -> TableSnapshot:
    fields: dict[str, object] = {
        "v": 1,
        "table": tbl,
        "unit": f"u{tbl}",
        "game": 1,
        "move": 0,
        "phase": Phase.RUNNING,
        "active": Seat.A,
        "remaining": 40.0,
        "measured_at": at,
        "paused": None,
        "last_lap_left": None,
        "timeouts": (0, 0, 0, 0),
        "seats": 4,
        "move_seconds": 40.0,
    }
    fields.update(kw)
    return TableSnapshot(**fields)  # type: ignore[arg-type]


def assignment(tbl: int) -> Assignment:
    seats = tuple(SeatAssignment(seat=Seat(s), name=n) for s, n in zip("ABCD", NAMES, strict=True))
    return Assignment(v=1, table=tbl, game=1, seats=seats, round=2)


def test_tracker_folds_snapshots_assignments_statuses_and_results():
    tr = HallTracker(title="Open")
    tr.apply(info(round=2, games=2, deadline=NOW + 900), NOW)
    tr.apply(assignment(3), NOW)
    view = tr.view()
    assert [t.number for t in view.tables] == [3]
    assert state_of(view.table(3)) is TableState.NO_DATA
    assert view.table(3).seats == NAMES

    tr.apply(snapshot(3, NOW, move=4, active=Seat.B, remaining=25.0), NOW + 0.05)
    t = tr.view().table(3)
    assert (t.active, t.remaining, t.measured_at, t.stage, t.game_label) == (
        Seat.B,
        25.0,
        NOW,
        "R2",
        "G1/2",
    )
    assert countdown_text(remaining_at(t, NOW + 10.5)) == "15"

    # Pause: the time it started is kept across later snapshots of the same pause.
    tr.apply(snapshot(3, NOW + 20, move=4, active=Seat.B, paused=PauseReason.JUDGE), NOW + 20)
    tr.apply(snapshot(3, NOW + 50, move=4, active=Seat.B, paused=PauseReason.JUDGE), NOW + 50)
    t = tr.view().table(3)
    assert t.paused_since == NOW + 20
    assert [c.table for c in judge_queue(tr.view(), NOW + 60)] == [3]

    # Game over → entering the result; the hub's accepting ack → RESULT IN.
    tr.apply(snapshot(3, NOW + 70, move=40, active=None, phase=Phase.GAME_OVER), NOW + 70)
    assert state_of(tr.view().table(3)) is TableState.ENTERING_RESULT
    tr.apply(ResultAck(v=1, unit="u3", game=1, accepted=False, reason="no"), NOW + 71, table=3)
    assert state_of(tr.view().table(3)) is TableState.RESULT_REFUSED
    assert str(tr.view().table(3).refused) == "no"
    tr.apply(ResultAck(v=1, unit="u3", game=1, accepted=True), NOW + 72, table=3)
    assert state_of(tr.view().table(3)) is TableState.RESULT_IN
    tr.apply(msgspec.structs.replace(assignment(3), game=2), NOW + 73)  # the hub's next game
    tr.apply(snapshot(3, NOW + 80, game=2, move=0, phase=Phase.READY, active=None), NOW + 80)
    assert state_of(tr.view().table(3)) is TableState.READY
    assert tr.view().table(3).game_label == "G2/2"

    # The Last Will: offline since the status arrived.
    tr.apply(
        UnitStatus(v=1, unit="u3", table=3, online=False, reason=StatusReason.LOST, ts=NOW),
        NOW + 90,
    )
    assert state_text(tr.view().table(3), NOW + 100) == "OFFLINE for 10 s"


def test_tracker_corrects_a_unit_clock_that_is_far_off():
    tr = HallTracker()
    skewed = NOW - 3600  # a Pi without RTC before NTP
    tr.apply(snapshot(1, skewed, remaining=30.0), NOW)
    t = tr.view().table(1)
    assert t.measured_at == pytest.approx(NOW)
    assert countdown_text(remaining_at(t, NOW + 10)) == "20"


def test_tracker_observes_the_pace_of_the_current_game():
    tr = HallTracker()
    tr.apply(snapshot(1, NOW, move=10), NOW)
    tr.apply(snapshot(1, NOW + 240, move=58), NOW + 240)
    t = tr.view().table(1)
    assert pace(t, NOW + 240) == pytest.approx(12.0)
    tr.apply(snapshot(1, NOW + 300, game=2, move=1), NOW + 300)
    assert tr.view().table(1).pace_since == NOW + 300


def test_tracker_shows_only_the_tables_seated_this_round():
    tr = HallTracker()
    tr.apply(info(round=3, games=2), NOW)
    for number in (1, 2, 3):
        tr.apply(assignment(number), NOW)
        tr.apply(snapshot(number, NOW, phase=Phase.GAME_OVER), NOW)
    tr.apply(Cleared(Kind.ASSIGN, 3), NOW)  # the hub: nobody plays at table 3 now
    assert [t.number for t in tr.view().tables] == [1, 2]
    tr.apply(assignment(3), NOW)
    tr.apply(idle_assignment(2, 3), NOW)  # the hub's explicit "no game at table 2"
    assert [t.number for t in tr.view().tables] == [1, 3]


def test_tracker_ignores_a_verdict_of_an_earlier_round():
    tr = HallTracker()
    tr.apply(info(round=3, games=2), NOW)
    tr.apply(assignment(1), NOW)
    tr.apply(snapshot(1, NOW, phase=Phase.GAME_OVER), NOW)
    old = ResultAck(v=1, unit="table-01", game=1, accepted=True, round=2)
    tr.apply(old, NOW, 1)
    assert state_of(tr.view().table(1)) is TableState.ENTERING_RESULT
    tr.apply(ResultAck(v=1, unit="table-01", game=1, accepted=True, round=3), NOW, 1)
    assert state_of(tr.view().table(1)) is TableState.RESULT_IN
    tr.apply(Cleared(Kind.RESULT, 1), NOW)
    assert state_of(tr.view().table(1)) is TableState.ENTERING_RESULT


def test_a_table_still_at_the_last_rounds_game_misses_no_result_of_the_new_round() -> None:
    """A table misses a result only when a game of its round has ended: seated for round
    3, its clock shows round 2's last game until the unit moves on to round 3."""
    tr = HallTracker()
    over: dict[str, object] = {"phase": Phase.GAME_OVER, "active": None}
    for number in (1, 2):
        tr.apply(msgspec.structs.replace(assignment(number), game=2, round=2), NOW)
        tr.apply(snapshot(number, NOW, game=2, **over), NOW)
        tr.apply(ResultAck(v=1, unit=f"u{number}", game=2, accepted=True, round=2), NOW, number)
    tr.apply(info(round=3, games=2), NOW + 1)
    for number in (1, 2):  # round 3 drawn: the hub expects game 1 there
        tr.apply(msgspec.structs.replace(assignment(number), game=1, round=3), NOW + 1)
    hall = tr.view()
    assert [(state_of(hall.table(n)), hall.table(n).missing) for n in (1, 2)] == [
        (TableState.RESULT_IN, 0), (TableState.RESULT_IN, 0)
    ]
    # table 1 moves on to round 3 and plays game 2 while the hub lacks game 1: missing
    tr.apply(snapshot(1, NOW + 2, game=1, phase=Phase.READY), NOW + 2)
    tr.apply(snapshot(1, NOW + 3, game=2), NOW + 3)
    assert tr.view().table(1).missing == 1
    assert state_of(tr.view().table(2)) is TableState.RESULT_IN


def test_tracker_forgets_the_boards_of_a_draw_taken_back():
    tr = HallTracker()
    tr.apply(info(round=1, games=2), NOW)
    tr.apply(StandingsBoard(v=1, stage="round-1", after_round=0, rows=()), NOW)
    tr.apply(
        SeatingBoard(v=1, stage="round-1", round=1,
                     rows=(SeatingLine(name="Ala", table=1, seat="A"),)),
        NOW,
    )
    assert tr.view().round is not None and tr.view().seating is not None
    for kind in (Kind.ROUND, Kind.STANDINGS, Kind.SEATING):
        tr.apply(Cleared(kind, None), NOW)  # the hub: the first draw was undone
    view = tr.view()
    assert (view.round, view.standings, view.seating) == (None, None, None)


def test_the_wall_knows_each_tables_result_in_refused_or_missing_and_who_finished() -> None:
    """Round 1 of 2 games; what the hub publishes: the round (with the tables that have
    every result in), each table's assignment (the next game it expects) and its latest
    answer; the units publish their clocks."""
    tr = HallTracker()
    tr.apply(info(round=1, games=2), NOW)
    tr.apply(RoundProgress(v=1, stage="round-1", round=1, finished=(4,)), NOW)

    def table_at(number: int, next_game: int, game: int, **snap: object) -> None:
        tr.apply(msgspec.structs.replace(assignment(number), game=next_game, round=1), NOW)
        tr.apply(snapshot(number, NOW, game=game, **snap), NOW)

    over: dict[str, object] = {"phase": Phase.GAME_OVER, "active": None}
    table_at(1, 2, 1, **over)
    tr.apply(ResultAck(v=1, unit="u1", game=1, accepted=True, round=1), NOW, 1)
    table_at(2, 1, 1, **over)
    tr.apply(ResultAck(v=1, unit="u2", game=1, accepted=False, round=1,
                       reason="seat B: a table has only 2 jokers"), NOW, 2)
    table_at(3, 1, 2)  # playing game 2; the hub has no result of game 1
    table_at(4, 2, 2, **over)
    tr.apply(ResultAck(v=1, unit="u4", game=2, accepted=True, round=1), NOW, 4)
    table_at(5, 2, 2, **over)  # game 2 is in, but game 1 never was
    tr.apply(ResultAck(v=1, unit="u5", game=2, accepted=True, round=1), NOW, 5)
    table_at(6, 2, 2, **over)  # game 2 just over, game 1 in: being typed
    hall = tr.view()
    seen = {t.number: (state_of(t), t.result, t.missing, t.finished) for t in hall.tables}
    assert seen == {
        1: (TableState.RESULT_IN, ResultState.IN, 0, False),
        2: (TableState.RESULT_REFUSED, ResultState.REFUSED, 0, False),
        3: (TableState.RESULT_MISSING, ResultState.NONE, 1, False),
        4: (TableState.ROUND_FINISHED, ResultState.IN, 0, True),
        5: (TableState.RESULT_MISSING, ResultState.IN, 1, False),
        6: (TableState.ENTERING_RESULT, ResultState.ENTERING, 0, False),
    }
    assert str(hall.table(2).refused) == "seat B: a table has only 2 jokers"
    assert [hall.table(n).missing for n in (3, 4)] == [1, 0]
    assert state_text(hall.table(3), NOW) == "1 RESULT MISSING"
    assert state_text(replace(hall.table(3), missing=2), NOW) == "2 RESULTS MISSING"
    assert finished_tables(hall) == (1, 6)
    # Another round's progress says nothing about this one.
    tr.apply(RoundProgress(v=1, stage="round-0", round=0, finished=(4,)), NOW)
    assert state_of(tr.view().table(4)) is TableState.RESULT_MISSING  # last game in, not finished
    tr.apply(RoundProgress(v=1, stage="round-1", round=1, finished=(4,)), NOW)
    # The answer for game 1 arrives at table 3: nothing is missing any more.
    tr.apply(msgspec.structs.replace(assignment(3), game=2, round=1), NOW + 1)
    assert tr.view().table(3).missing == 0
    # A refused result entered again and accepted.
    tr.apply(ResultAck(v=1, unit="u2", game=1, accepted=True, round=1), NOW + 2, 2)
    assert state_of(tr.view().table(2)) is TableState.RESULT_IN


def test_the_tables_running_another_kit_than_the_hubs_are_named() -> None:
    tr = HallTracker()
    for table, kit in ((1, "0.2.0"), (2, "0.1.0"), (3, "")):
        tr.apply(UnitStatus(v=1, unit=f"table-0{table}", table=table, online=True,
                            reason=StatusReason.CONNECTED, ts=NOW, kit=kit), NOW)
    tr.apply(snapshot(4, NOW), NOW)  # no status yet: nothing known of its kit
    hall = tr.view()
    assert hall.other_kits("0.2.0") == [(2, "0.1.0"), (3, "")]
    assert other_kits_text(hall, "0.2.0", words("pl")) == (
        "Inna wersja zestawu niż w centrali (0.2.0) przy stolikach: 2 (0.1.0), "
        "3 (zbyt stara, by ją podać). Zaktualizuj je między partiami."
    )
    assert hall.other_kits("0.1.0") == [(1, "0.2.0"), (3, "")]
    assert other_kits_text(hall, "0.1.0", words("pl")).count("(") == 3
    assert other_kits_text(None, "0.2.0", words("pl")) == ""  # the console hears no table
