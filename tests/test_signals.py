"""LEDs and buzzer as a pure function of (view, now)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from tablekit.config import BuzzerSettings
from tablekit.core.clock import ClockRules, MoveClock
from tablekit.core.clock_events import PauseReason
from tablekit.signals import (
    BAR_LEVELS,
    BLUE,
    DIM_WHITE,
    OFF,
    RED,
    TICK_LENGTH,
    TICK_PITCH,
    TURQUOISE,
    YELLOW,
    Signals,
    beep_windows,
    render_signals,
)
from tablekit.view import TableView

T0 = 100.0
MOVE = 40.0
BEEPS = BuzzerSettings()
QUIET = BuzzerSettings(mode="quiet")


def running(move_seconds: float = MOVE) -> MoveClock:
    clock = MoveClock(ClockRules(move_seconds=move_seconds))
    clock.press(T0)
    return clock


def at(clock: MoveClock, now: float, buzzer: BuzzerSettings = BEEPS, bar: int = 10) -> Signals:
    return render_signals(TableView(clock.state), now, buzzer, bar)


def at_remaining(clock: MoveClock, remaining: float, **kw: object) -> Signals:
    return at(clock, T0 + MOVE - remaining, **kw)  # type: ignore[arg-type]


def test_bar_runs_down_with_the_remaining_time() -> None:
    clock = running()
    assert at(clock, T0).bar == 1.0
    assert at(clock, T0 + 20).bar == 0.5
    assert at(clock, T0 + 30).bar == 0.25
    previous = 1.0
    for tenth in range(1, 400):
        bar = at(clock, T0 + tenth / 10).bar
        assert bar <= previous
        previous = bar
    # The last LED glows until the time is really up.
    assert 0 < at(clock, T0 + MOVE - 0.01).bar <= 1 / (10 * BAR_LEVELS)


@given(st.floats(0, MOVE, exclude_max=True))
def test_bar_rounds_up_to_a_brightness_step(elapsed: float) -> None:
    clock = running()
    now = T0 + elapsed
    assume(now < T0 + MOVE)  # at the deadline itself it is time up
    fraction = clock.state.remaining_at(now) / MOVE
    bar = at(clock, now).bar
    steps = 10 * BAR_LEVELS
    assert fraction - 1e-9 <= bar < fraction + 1 / steps + 1e-9
    assert abs(bar * steps - round(bar * steps)) < 1e-9
    assert at(clock, now, bar=0).bar == pytest.approx(fraction)


def test_status_turquoise_then_yellow_then_flashing_red() -> None:
    clock = running()
    assert at_remaining(clock, 30).status == TURQUOISE
    assert at_remaining(clock, 10.01).status == TURQUOISE
    assert at_remaining(clock, 10).status == YELLOW
    assert at_remaining(clock, 5.01).status == YELLOW
    # The last 5 s: red flashes in step with the seconds (on at each mark).
    samples = [at_remaining(clock, 5 - k / 20).status for k in range(100)]
    assert set(samples) == {RED, OFF}
    assert at_remaining(clock, 4.0).status == RED
    assert at_remaining(clock, 3.7).status == OFF
    assert at_remaining(clock, 3.5).status == RED


def test_beeps_exactly_in_the_configured_windows() -> None:
    clock = running()
    windows = beep_windows(MOVE, BEEPS)
    assert windows == [(m - 0.15, m) for m in (1.0, 2.0, 3.0, 4.0, 5.0, 10.0)]
    beeping = 0
    for ms in range(int(MOVE * 1000)):
        now = T0 + ms / 1000
        remaining = clock.state.remaining_at(now)
        expected = any(low < remaining <= high for low, high in windows)
        ticked = ms < TICK_LENGTH * 1000  # the press that started the move
        assert at(clock, now).buzzer is (expected or ticked), remaining
        beeping += expected
    assert beeping == pytest.approx(6 * 150, abs=6)  # six beeps of 0.15 s, in ms
    assert at_remaining(clock, 10.0).buzzer
    assert at_remaining(clock, 9.86).buzzer
    assert not at_remaining(clock, 9.84).buzzer
    assert not at_remaining(clock, 7.0).buzzer


def test_beep_pattern_is_configurable() -> None:
    clock = running()
    buzzer = BuzzerSettings(beeps_at=(20.0,), beep_length=0.5)
    assert at_remaining(clock, 19.6, buzzer=buzzer).buzzer
    assert not at_remaining(clock, 19.4, buzzer=buzzer).buzzer
    assert not at_remaining(clock, 5.0, buzzer=buzzer).buzzer


def test_a_mark_at_full_time_does_not_beep_at_the_start_of_a_move() -> None:
    clock = running(move_seconds=10)
    assert not render_signals(TableView(clock.state), T0 + TICK_LENGTH, BEEPS, 10).buzzer
    assert render_signals(TableView(clock.state), T0 + 5, BEEPS, 10).buzzer


def test_an_accepted_press_ticks_once_and_an_ignored_one_not_at_all() -> None:
    clock = running()
    tick = at(clock, T0)
    assert tick.buzzer and tick.bar == 1.0 and tick.status == TURQUOISE  # the next seat's move
    assert not at(clock, T0 + TICK_LENGTH).buzzer
    clock.press(T0 + 5.0)  # B's turn: ticks
    assert at(clock, T0 + 5.01).buzzer and not at(clock, T0 + 5.06).buzzer
    assert clock.press(T0 + 5.1) == []  # a double slam: ignored, and silent
    assert not at(clock, T0 + 5.1).buzzer
    tonal = BuzzerSettings(tone=2000.0)
    assert at(clock, T0 + 5.01, buzzer=tonal).tone == 2000.0 * TICK_PITCH  # higher than beeps
    assert not at(clock, T0 + 5.01, buzzer=QUIET).buzzer  # quiet: lights only


def test_tonal_buzzer_gets_its_tone_only_while_sounding() -> None:
    clock = running()
    tonal = BuzzerSettings(tone=2700.0)
    assert at_remaining(clock, 5.0, buzzer=tonal).tone == 2700.0
    assert at_remaining(clock, 6.0, buzzer=tonal).tone is None


@given(st.floats(0, 60))
def test_quiet_mode_never_sounds(elapsed: float) -> None:
    clock = running()
    assert not at(clock, T0 + elapsed, buzzer=QUIET).buzzer
    clock.tick(T0 + elapsed)
    assert not at(clock, T0 + elapsed, buzzer=QUIET).buzzer


def test_quiet_mode_keeps_the_lights() -> None:
    clock = running()
    assert at_remaining(clock, 8, buzzer=QUIET).status == YELLOW


def test_long_tone_after_expiry_then_silence() -> None:
    clock = running()
    deadline = T0 + MOVE
    assert clock.tick(deadline + 0.05)  # the loop saw the expiry a little late
    assert clock.state.expired_at == deadline
    assert at(clock, deadline).buzzer
    assert at(clock, deadline + 1.99).buzzer
    assert not at(clock, deadline + 2.0).buzzer
    assert not at(clock, deadline + 30).buzzer
    assert not at(clock, deadline + 1, buzzer=BuzzerSettings(long_tone=0)).buzzer


def test_expiry_shows_even_before_the_loop_ticks() -> None:
    clock = running()
    deadline = T0 + MOVE
    signals = at(clock, deadline + 0.01)
    assert signals.buzzer
    assert signals.status == RED


def test_time_up_bar_flashes_fast_status_solid_red() -> None:
    clock = running()
    clock.tick(T0 + MOVE)
    samples = [at(clock, T0 + MOVE + k / 40) for k in range(80)]
    assert {s.status for s in samples} == {RED}
    bars = [s.bar for s in samples]
    assert set(bars) == {0.0, 1.0}
    changes = sum(1 for a, b in itertools.pairwise(bars) if a != b)
    assert changes >= 14  # 4 Hz over 2 s: about 16 changes


def test_judge_pause_freezes_the_bar_and_blinks_it_slowly() -> None:
    clock = running()
    clock.pause(T0 + 10)
    frozen = at(clock, T0 + 10).bar
    assert frozen == 0.75
    samples = [at(clock, T0 + 10 + k / 20) for k in range(200)]
    assert {s.bar for s in samples} == {0.0, 0.75}
    assert {s.status for s in samples} == {BLUE}
    assert not any(s.buzzer for s in samples)
    # Slow: on for half a second at a time.
    assert all(s.bar == 0.75 for s in samples[:10])
    assert all(s.bar == 0.0 for s in samples[10:20])


def test_player_call_flashes_blue() -> None:
    clock = running()
    clock.call_judge(T0 + 5)
    assert clock.state.paused is PauseReason.PLAYER_CALL
    samples = [at(clock, T0 + 5 + k / 20) for k in range(40)]
    assert {s.status for s in samples} == {BLUE, OFF}
    assert {s.bar for s in samples} == {0.0, at(clock, T0 + 5).bar}


def test_pause_in_the_beep_window_is_silent() -> None:
    clock = running()
    clock.pause(T0 + MOVE - 5)
    assert not at(clock, T0 + MOVE - 5 + 0.01).buzzer
    assert not at(clock, T0 + MOVE + 60).buzzer


def test_ready_and_game_over() -> None:
    clock = MoveClock(ClockRules())
    ready = at(clock, 0.0)
    assert (ready.bar, ready.status, ready.buzzer) == (1.0, DIM_WHITE, False)
    clock.press(T0)
    clock.end_game(T0 + 3)
    over = at(clock, T0 + 4)
    assert (over.bar, over.status, over.buzzer) == (0.0, OFF, False)


@given(st.floats(-100, 1000), st.sampled_from(["run", "pause", "call", "timeup"]))
def test_signals_are_pure_and_in_range(offset: float, how: str) -> None:
    clock = running()
    if how == "pause":
        clock.pause(T0 + 3)
    elif how == "call":
        clock.call_judge(T0 + 3)
    elif how == "timeup":
        clock.tick(T0 + MOVE)
    now = T0 + offset
    first = at(clock, now)
    assert first == at(clock, now)
    assert 0.0 <= first.bar <= 1.0
    assert all(0.0 <= channel <= 1.0 for channel in first.status)


def test_the_last_lap_doubles_every_beep() -> None:
    plain = beep_windows(MOVE, BEEPS)
    doubled = beep_windows(MOVE, BEEPS, doubled=True)
    length = BEEPS.beep_length
    assert len(doubled) == 2 * len(plain)
    for low, high in plain:  # each beep, then another a beep's length after it
        assert (low, high) in doubled
        second = (low - 2 * length, high - 2 * length)
        assert any(abs(a - second[0]) < 1e-9 and abs(b - second[1]) < 1e-9 for a, b in doubled)
    assert beep_windows(MOVE, BuzzerSettings(mode="quiet"), doubled=True) == []
