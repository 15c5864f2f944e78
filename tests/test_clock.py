"""The move clock: every rule of RULES.md §2, table-driven, plus properties."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablekit.core.clock import ClockError, ClockRules, ClockState, MoveClock, Phase
from tablekit.core.clock_events import (
    ClockPaused,
    ClockResumed,
    GameEndReason,
    GameOver,
    GameStarted,
    LastLapSource,
    LastLapStarted,
    MovePassed,
    MoveRestarted,
    MoveTimedOut,
    PassUndone,
    PauseReason,
)
from tablekit.core.seats import Seat


def started(seats: int = 4, move_seconds: float = 40.0, at: float = 0.0) -> MoveClock:
    clock = MoveClock(ClockRules(seats=seats, move_seconds=move_seconds))
    clock.press(at)
    return clock


# --- starting a game ------------------------------------------------------------


@pytest.mark.parametrize(
    ("seats", "game", "starter"),
    [(4, 1, Seat.A), (4, 2, Seat.B), (4, 3, Seat.C), (4, 4, Seat.D), (4, 5, Seat.A),
     (3, 1, Seat.A), (3, 3, Seat.C), (3, 4, Seat.A), (3, 5, Seat.B)],
)
def test_starting_seat_rotates_per_game(seats: int, game: int, starter: Seat) -> None:
    clock = MoveClock(ClockRules(seats=seats))
    clock.prepare(clock.rules, game)
    [event] = clock.press(0.0)
    assert event == GameStarted(game=game, move=1, starter=starter, seats=seats, move_seconds=40.0)
    assert clock.state.active is starter


def test_explicit_starting_seat() -> None:
    clock = MoveClock()
    clock.prepare(ClockRules(seats=3, move_seconds=60), game=2, starter=Seat.C)
    [event] = clock.press(1.0)
    assert isinstance(event, GameStarted) and event.starter is Seat.C and event.move_seconds == 60


def test_starter_must_sit_at_the_table() -> None:
    clock = MoveClock()
    with pytest.raises(ClockError, match="starter: seat D is not at a 3-seat table"):
        clock.prepare(ClockRules(seats=3), game=1, starter=Seat.D)


def test_next_game_after_game_over_rotates_starter() -> None:
    clock = started()
    clock.end_game(5.0)
    assert clock.press(10.0) == []  # a slam after the game never starts the next one
    [event] = clock.start_game(10.0)
    assert isinstance(event, GameStarted) and event.game == 2 and event.starter is Seat.B


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"move_seconds": 0}, "move_seconds: must be above 0"),
     ({"move_seconds": -5}, "move_seconds: must be above 0"),
     ({"seats": 2}, "seats: a table seats 3 or 4 players, got 2"),
     ({"seats": 5}, "seats: a table seats 3 or 4 players, got 5"),
     ({"lockout": 50}, "lockout: must be at least 0 and below move_seconds")],
)
def test_bad_rules_are_named(kwargs: dict[str, float], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ClockRules(**kwargs)  # type: ignore[arg-type]


# --- passing ----------------------------------------------------------------------


def test_pass_moves_clockwise_with_time_used() -> None:
    clock = started()
    assert clock.press(12.5) == [MovePassed(game=1, move=1, seat=Seat.A, used=12.5)]
    assert clock.state.active is Seat.B
    assert clock.state.remaining_at(12.5) == 40.0
    assert clock.state.remaining_at(20.5) == 32.0
    for t, seat in [(20.0, Seat.B), (30.0, Seat.C), (40.0, Seat.D)]:
        [event] = clock.press(t)
        assert isinstance(event, MovePassed) and event.seat is seat
    assert clock.state.active is Seat.A
    assert clock.state.move == 5


def test_three_seat_table_wraps_after_c() -> None:
    clock = started(seats=3)
    for t in (1.0, 2.0, 3.0):
        clock.press(t)
    assert clock.state.active is Seat.A


def test_press_within_lockout_is_ignored() -> None:
    clock = started()
    clock.press(10.0)
    assert clock.press(10.39) == []
    assert clock.state.active is Seat.B
    [event] = clock.press(10.41)
    assert isinstance(event, MovePassed) and event.seat is Seat.B


def test_press_right_after_start_is_a_double_slam() -> None:
    clock = MoveClock()
    clock.press(0.0)
    assert clock.press(0.1) == []
    assert clock.state.active is Seat.A


def test_chatter_burst_gives_one_pass() -> None:
    clock = started()
    events = [e for i in range(40) for e in clock.press(10.0 + i * 0.001)]
    assert [type(e) for e in events] == [MovePassed]


# --- timeouts ---------------------------------------------------------------------


def test_expiry_records_timeout_and_waits_for_late_press() -> None:
    clock = started()
    assert clock.tick(39.99) == []
    assert clock.tick(40.0) == [MoveTimedOut(game=1, move=1, seat=Seat.A)]
    assert clock.state.phase is Phase.TIME_UP
    assert clock.state.remaining_at(50.0) == 0.0
    assert clock.tick(60.0) == []  # the next seat's clock does not start by itself
    assert clock.state.active is Seat.A
    [passed] = clock.press(70.0)
    assert passed == MovePassed(
        game=1, move=1, seat=Seat.A, used=40.0, timed_out=True, overtime=30.0
    )
    assert clock.state.active is Seat.B and clock.state.remaining_at(70.0) == 40.0
    stats = clock.state.seat_stats(Seat.A)
    assert (stats.moves, stats.total, stats.timeouts) == (1, 40.0, 1)


def test_press_hard_on_the_expiry_is_not_the_late_press() -> None:
    clock = started()
    events = clock.press(40.1)
    assert events == [MoveTimedOut(game=1, move=1, seat=Seat.A)]
    assert clock.state.phase is Phase.TIME_UP


def test_late_press_after_a_stalled_loop_still_counts() -> None:
    clock = started()
    events = clock.press(45.0)
    assert [type(e) for e in events] == [MoveTimedOut, MovePassed]


# --- judge pause -------------------------------------------------------------------


def test_pause_stops_time_and_only_resume_restarts_it() -> None:
    clock = started()
    [paused] = clock.pause(10.0)
    assert paused == ClockPaused(
        game=1, move=1, seat=Seat.A, reason=PauseReason.JUDGE, remaining=30.0, used=10.0
    )
    assert clock.press(20.0) == []  # the pass button does nothing while paused
    assert clock.tick(100.0) == []
    assert clock.state.remaining_at(100.0) == 30.0
    [resumed] = clock.resume(100.0)
    assert resumed == ClockResumed(game=1, move=1, seat=Seat.A, remaining=30.0, paused_for=90.0)
    assert clock.state.remaining_at(110.0) == 20.0


def test_pause_during_time_up_keeps_time_up() -> None:
    clock = started()
    clock.tick(40.0)
    clock.pause(45.0)
    clock.resume(50.0)
    assert clock.state.phase is Phase.TIME_UP


def test_player_judge_call_rewinds_the_hold() -> None:
    clock = started()
    clock.press(10.0)  # A passes and keeps the button down
    [paused] = clock.call_judge(13.0, since=10.0)
    assert paused.reason is PauseReason.PLAYER_CALL and paused.seat is Seat.B
    assert paused.remaining == 40.0


def test_pause_not_possible_without_a_game() -> None:
    assert MoveClock().pause(1.0) == []


# --- judge actions -------------------------------------------------------------------


def test_restart_move_gives_full_time() -> None:
    clock = started()
    clock.press(10.0)
    clock.pause(15.0)
    assert clock.restart_move(16.0) == [
        MoveRestarted(game=1, move=2, seat=Seat.B, discarded=5.0)
    ]
    clock.resume(20.0)
    assert clock.state.remaining_at(21.0) == 39.0


def test_restart_from_time_up_removes_the_timeout() -> None:
    clock = started()
    clock.tick(40.0)
    clock.restart_move(41.0)
    assert clock.state.phase is Phase.RUNNING
    assert clock.state.seat_stats(Seat.A).timeouts == 0


def test_undo_pass_restores_seat_and_time() -> None:
    clock = started()
    clock.press(12.0)
    clock.press(20.0)  # B used 8 s
    [undone] = clock.undo_pass(25.0)
    assert undone == PassUndone(game=1, move=2, seat=Seat.B, remaining=32.0)
    assert clock.state.active is Seat.B
    assert clock.state.seat_stats(Seat.B).moves == 0
    [undone] = clock.undo_pass(26.0)
    assert undone.seat is Seat.A and undone.remaining == 28.0


def test_undo_with_nothing_to_undo_is_an_error() -> None:
    clock = started()
    with pytest.raises(ClockError, match="undo pass: there is no pass to undo"):
        clock.undo_pass(1.0)


def test_undo_keeps_the_current_pause() -> None:
    clock = started()
    clock.press(10.0)
    clock.pause(12.0)
    clock.undo_pass(13.0)
    assert clock.state.paused is PauseReason.JUDGE
    assert clock.state.remaining_at(99.0) == 30.0


def test_last_lap_gives_every_seat_one_more_move() -> None:
    clock = started()
    clock.press(5.0)  # B to move
    [lap] = clock.start_last_lap(6.0, LastLapSource.TABLE)
    assert lap == LastLapStarted(game=1, move=2, source=LastLapSource.TABLE, moves_left=5)
    t = 6.0
    for left in (4, 3, 2, 1):  # B finishes the move in progress; then C, D, A
        t += 2.0
        [passed] = clock.press(t)
        assert isinstance(passed, MovePassed)
        assert clock.state.last_lap_left == left
    events = clock.press(t + 2.0)  # and B's one more move ends the game
    assert [type(e) for e in events] == [MovePassed, GameOver]
    over = events[1]
    assert isinstance(over, GameOver) and over.reason is GameEndReason.LAST_LAP_DONE
    assert over.seat is Seat.B and over.move == 6
    assert clock.state.phase is Phase.GAME_OVER


def test_last_lap_starts_once() -> None:
    clock = started(seats=3)
    assert len(clock.start_last_lap(1.0, LastLapSource.HUB)) == 1
    assert clock.start_last_lap(2.0, LastLapSource.TABLE) == []
    assert clock.state.last_lap_left == 4


def test_last_lap_timeout_late_press_counts_as_the_move() -> None:
    clock = started(seats=3)
    clock.start_last_lap(1.0, LastLapSource.HUB)
    for t in (2.0, 3.0, 4.0):
        clock.press(t)
    clock.tick(44.0)
    events = clock.press(50.0)
    assert [type(e) for e in events] == [MovePassed, GameOver]


def test_end_game_by_empty_rack() -> None:
    clock = started()
    clock.press(3.0)
    [over] = clock.end_game(4.0)
    assert over == GameOver(game=1, move=2, reason=GameEndReason.WENT_OUT, seat=Seat.B)
    assert clock.start_game(10.0)[0] == GameStarted(
        game=2, move=1, starter=Seat.B, seats=4, move_seconds=40.0
    )


def test_end_game_without_a_game_is_an_error() -> None:
    with pytest.raises(ClockError, match="end game: no game is in progress"):
        MoveClock().end_game(0.0)


def test_statistics_per_seat() -> None:
    clock = started(seats=3)
    for t in (10.0, 30.0, 31.0, 41.0, 71.0):
        clock.press(t)
    a = clock.state.seat_stats(Seat.A)
    b = clock.state.seat_stats(Seat.B)
    assert (a.moves, a.total, a.average) == (2, 20.0, 10.0)
    assert (b.moves, b.total, b.average) == (2, 50.0, 25.0)


# --- persistence and recovery --------------------------------------------------------


def test_state_round_trips_through_json_and_recovers_paused() -> None:
    clock = started()
    clock.press(5.0)
    clock.press(8.0)
    blob = msgspec.json.encode(clock.state)
    restored = MoveClock(state=msgspec.json.decode(blob, type=ClockState))
    restored.recover(1000.0)
    assert restored.state.paused is PauseReason.RECOVERED
    assert restored.state.active is Seat.C
    assert restored.state.remaining_at(2000.0) == 40.0
    restored.resume(2000.0)
    assert restored.state.remaining_at(2010.0) == 30.0
    [undone] = restored.undo_pass(2011.0)
    assert undone.seat is Seat.B


def test_undo_depth_is_bounded() -> None:
    clock = started()
    for i in range(1, 60):
        clock.press(float(i))
    assert len(clock.state.undo) == 20
    assert all(s.undo == () for s in clock.state.undo)


# --- properties ----------------------------------------------------------------------

actions = st.lists(
    st.tuples(
        st.sampled_from(["press", "press", "press", "tick", "pause", "resume", "call",
                         "restart", "undo", "last_lap", "end"]),
        st.floats(min_value=0.0, max_value=50.0),
    ),
    max_size=60,
)


@settings(max_examples=300, deadline=None)
@given(seats=st.sampled_from([3, 4]), script=actions)
def test_random_sequences_keep_the_invariants(seats: int, script: list[tuple[str, float]]) -> None:
    clock = MoveClock(ClockRules(seats=seats))
    now = 0.0
    for action, step in script:
        now += step
        before = clock.state
        try:
            events = apply(clock, action, now)
        except ClockError:
            assert clock.state == before
            continue
        s = clock.state
        # exactly one active seat while running; none otherwise
        if s.phase in (Phase.RUNNING, Phase.TIME_UP):
            assert s.active in s.seats
        else:
            assert s.active is None
        # remaining time never negative, never above the move time
        assert 0.0 <= s.remaining_at(now) <= s.rules.move_seconds
        assert 0.0 <= s.remaining_at(now + 1000.0) <= s.rules.move_seconds
        # paused time never counts
        if s.paused is not None:
            assert s.remaining_at(now + 1000.0) == s.remaining_at(now)
        for event in events:
            if isinstance(event, MovePassed):
                # every accepted pass moves clockwise from the seat that was active
                assert event.seat is before.active
                assert before.active is not None
                nxt = s.seats[(before.active.position + 1) % seats]
                assert s.active in (nxt, None)
                assert 0.0 <= event.used <= s.rules.move_seconds + 1e-9
        if action == "undo":
            [undone] = events
            assert isinstance(undone, PassUndone)
            prior = before.undo[-1]
            assert s.active is prior.active
            assert s.remaining_at(now) == pytest.approx(prior.remaining)
            assert s.stats == prior.stats


def apply(clock: MoveClock, action: str, now: float) -> list[object]:
    match action:
        case "press":
            return list(clock.press(now))
        case "tick":
            return list(clock.tick(now))
        case "pause":
            return list(clock.pause(now))
        case "resume":
            return list(clock.resume(now))
        case "call":
            return list(clock.call_judge(now))
        case "restart":
            return list(clock.restart_move(now))
        case "undo":
            return list(clock.undo_pass(now))
        case "last_lap":
            return list(clock.start_last_lap(now, LastLapSource.TABLE))
        case _:
            return list(clock.end_game(now))


@settings(max_examples=200, deadline=None)
@given(gaps=st.lists(st.floats(min_value=0.0, max_value=0.39), min_size=1, max_size=30))
def test_double_press_within_lockout_never_skips_a_seat(gaps: list[float]) -> None:
    clock = started()
    now = 10.0
    clock.press(now)
    assert clock.state.active is Seat.B
    for gap in gaps:
        # each press follows the previous *accepted* press within the lockout
        assert clock.press(now + gap) == []
    assert clock.state.active is Seat.B


def test_a_judge_pause_during_time_is_not_counted_as_penalty_time() -> None:
    clock = started()
    clock.tick(40.0)  # A's time is up
    clock.pause(45.0)
    clock.resume(105.0)  # the judge took a minute
    [passed] = clock.press(110.0)
    assert isinstance(passed, MovePassed) and passed.overtime == 10.0  # 5 s + 5 s


def test_a_restart_records_the_pause_and_the_time_used_until_the_last_save() -> None:
    """A crash never gives time back: the state saved 13 s into seat C's move resumes with
    27 s left, and the recovered pause says so in the stream."""
    clock = started()
    clock.press(5.0)
    clock.press(8.0)  # seat C moves from 8.0
    blob = msgspec.json.encode(clock.saved_at(21.0))  # the unit's last save before a crash
    restored = MoveClock(state=msgspec.json.decode(blob, type=ClockState))
    [paused] = restored.recover(1000.0)
    assert paused == ClockPaused(
        game=1, move=3, seat=Seat.C, reason=PauseReason.RECOVERED, remaining=27.0, used=13.0
    )
    assert restored.state.remaining_at(5000.0) == 27.0  # paused until the judge resumes
    restored.resume(5000.0)
    assert restored.state.remaining_at(5010.0) == 17.0


def test_a_restart_while_paused_or_between_games_records_nothing() -> None:
    clock = started()
    clock.pause(3.0)
    assert MoveClock(state=clock.state).recover(100.0) == []
    assert MoveClock(ClockRules()).recover(100.0) == []
