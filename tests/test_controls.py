"""Button edges → clock commands: presses, holds and the judge menu."""

from __future__ import annotations

from tablekit.controls import Button, ButtonEdge, JudgeAction, TableAsk, TableControls
from tablekit.core.clock import ClockRules, MoveClock, Phase
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
    PassUndone,
    PauseReason,
    StarterSource,
)
from tablekit.core.rulesets import get_ruleset
from tablekit.core.scoring import GameEnding, Opening
from tablekit.core.seats import Seat
from tablekit.result_entry import ResultEntry, Step


def controls() -> TableControls:
    c = TableControls(MoveClock())
    tap(c, Button.PASS, 0.0)  # start game 1: seat A to move
    return c


def tap(c: TableControls, button: Button, at: float, length: float = 0.1) -> list[object]:
    events: list[object] = list(c.edge(ButtonEdge(button, True, at)))
    events += c.tick(at + length)
    events += c.edge(ButtonEdge(button, False, at + length))
    return events


def hold_judge(c: TableControls, at: float) -> list[object]:
    events: list[object] = list(c.edge(ButtonEdge(Button.JUDGE, True, at)))
    events += c.tick(at + 1.0)
    events += c.tick(at + 1.6)
    events += c.edge(ButtonEdge(Button.JUDGE, False, at + 2.0))
    return events


def test_pass_press_passes() -> None:
    c = controls()
    [event] = tap(c, Button.PASS, 5.0)
    assert isinstance(event, MovePassed) and event.seat is Seat.A


def test_judge_press_pauses_and_next_press_resumes() -> None:
    c = controls()
    [paused] = tap(c, Button.JUDGE, 5.0)
    assert isinstance(paused, ClockPaused) and paused.reason is PauseReason.JUDGE
    assert tap(c, Button.PASS, 8.0) == []
    [resumed] = tap(c, Button.JUDGE, 10.0)
    assert isinstance(resumed, ClockResumed)
    assert c.clock.state.paused is None


def test_judge_hold_opens_menu_and_pass_steps_through_it() -> None:
    c = controls()
    tap(c, Button.PASS, 5.0)
    events = hold_judge(c, 6.0)
    assert [type(e) for e in events] == [ClockPaused]
    assert c.menu is not None
    assert c.menu.actions == (
        JudgeAction.RESUME,
        JudgeAction.RESTART_MOVE,
        JudgeAction.UNDO_PASS,
        JudgeAction.LAST_LAP,
        JudgeAction.END_GAME,
        JudgeAction.CLOSE,
    )
    assert tap(c, Button.PASS, 9.0) == []  # steps, does not pass
    assert c.menu.current is JudgeAction.RESTART_MOVE
    [restarted] = tap(c, Button.JUDGE, 10.0)
    assert isinstance(restarted, MoveRestarted) and restarted.seat is Seat.B
    assert c.menu is None
    assert c.clock.state.paused is PauseReason.JUDGE  # the judge resumes when ready
    [resumed] = tap(c, Button.JUDGE, 12.0)
    assert isinstance(resumed, ClockResumed) and resumed.remaining == 40.0


def test_menu_undo_pass() -> None:
    c = controls()
    tap(c, Button.PASS, 5.0)
    hold_judge(c, 7.0)
    [undone] = c.choose(JudgeAction.UNDO_PASS, 9.5)
    assert isinstance(undone, PassUndone) and undone.seat is Seat.A and undone.remaining == 35.0
    assert c.clock.state.paused is PauseReason.JUDGE


def test_menu_last_lap_and_end_game() -> None:
    c = controls()
    hold_judge(c, 3.0)
    [lap] = c.choose(JudgeAction.LAST_LAP, 5.0)
    assert isinstance(lap, LastLapStarted)
    hold_judge(c, 6.0)
    assert JudgeAction.LAST_LAP not in c.available_actions()
    [over] = c.choose(JudgeAction.END_GAME, 8.5)
    assert isinstance(over, GameOver)
    assert c.clock.state.phase is Phase.GAME_OVER


def test_menu_after_game_over_starts_next_game() -> None:
    c = controls()
    hold_judge(c, 3.0)
    c.choose(JudgeAction.END_GAME, 5.0)
    assert tap(c, Button.PASS, 6.0) == []
    hold_judge(c, 7.0)
    assert c.menu is not None and JudgeAction.START_GAME in c.menu.actions
    [started] = c.choose(JudgeAction.START_GAME, 9.5)
    assert c.clock.state.game == 2 and c.clock.state.active is Seat.B
    assert started.game == 2


def test_close_menu_keeps_the_pause() -> None:
    c = controls()
    hold_judge(c, 3.0)
    assert c.choose(JudgeAction.CLOSE, 5.0) == []
    assert c.menu is None and c.clock.state.paused is PauseReason.JUDGE


def test_refused_action_is_explained() -> None:
    c = controls()
    hold_judge(c, 3.0)
    c.choose(JudgeAction.END_GAME, 4.0)
    hold_judge(c, 5.0)
    assert c.menu is not None
    # undo is not offered without a pass; choosing an unavailable action does nothing
    assert c.choose(JudgeAction.RESTART_MOVE, 7.0) == []


def test_holding_pass_after_a_pass_calls_the_judge() -> None:
    c = controls()
    [passed] = c.edge(ButtonEdge(Button.PASS, True, 10.0))
    assert isinstance(passed, MovePassed)
    assert c.tick(12.0) == []
    [called] = c.tick(13.0)
    assert isinstance(called, ClockPaused) and called.reason is PauseReason.PLAYER_CALL
    assert called.seat is Seat.B and called.remaining == 40.0
    assert c.tick(20.0) == []  # fires once
    c.edge(ButtonEdge(Button.PASS, False, 21.0))
    assert tap(c, Button.PASS, 22.0) == []  # only the judge resumes
    [resumed] = tap(c, Button.JUDGE, 25.0)
    assert isinstance(resumed, ClockResumed)


def test_holding_an_ignored_press_does_not_call_the_judge() -> None:
    c = controls()
    c.edge(ButtonEdge(Button.PASS, True, 10.0))
    c.edge(ButtonEdge(Button.PASS, False, 10.05))
    c.edge(ButtonEdge(Button.PASS, True, 10.1))  # double slam, ignored
    assert c.tick(14.0) == []
    assert c.clock.state.paused is None


def test_call_button_calls_the_judge() -> None:
    c = controls()
    [called] = tap(c, Button.CALL, 5.0)
    assert isinstance(called, ClockPaused) and called.reason is PauseReason.PLAYER_CALL


def test_bouncing_release_after_a_long_press_gives_no_second_pass() -> None:
    c = controls()
    [passed] = c.edge(ButtonEdge(Button.PASS, True, 10.0))
    assert isinstance(passed, MovePassed)
    events = []
    for i, pressed in enumerate([False, True, False, True, False]):  # 0.5 ms chatter at 11 s
        events += c.edge(ButtonEdge(Button.PASS, pressed, 11.0 + i * 0.0005))
    assert events == []
    assert c.clock.state.active is Seat.B
    [passed] = tap(c, Button.PASS, 12.0)  # the next player's real press still counts
    assert isinstance(passed, MovePassed) and passed.seat is Seat.B


def test_holding_the_judge_key_again_keeps_the_menu_selection() -> None:
    c = controls()
    hold_judge(c, 3.0)
    tap(c, Button.PASS, 6.0)  # step to the second action
    assert c.menu is not None and c.menu.selected == 1
    c.edge(ButtonEdge(Button.JUDGE, True, 7.0))
    c.tick(9.0)  # held past the hold time with the menu open
    assert c.menu is not None and c.menu.selected == 1


# --- the table's own keys: empty rack, bank empty ------------------------------------------


def test_star_then_enter_ends_the_game_at_the_table() -> None:
    c = controls()
    tap(c, Button.PASS, 5.0)  # B to move
    assert c.key("*", 9.0) == [] and c.ask is TableAsk.END_GAME
    assert c.clock.state.phase is Phase.RUNNING  # asked, not done: the clock runs on
    [over] = c.key("enter", 10.0)
    assert isinstance(over, GameOver) and over.seat is Seat.B
    assert over.reason is GameEndReason.WENT_OUT
    assert c.ask is None and c.clock.state.paused is None


def test_minus_then_enter_starts_the_last_lap_at_the_table() -> None:
    c = controls()
    c.key("-", 3.0)
    assert c.ask is TableAsk.LAST_LAP
    [lap] = c.key("enter", 4.0)
    assert isinstance(lap, LastLapStarted) and lap.source is LastLapSource.TABLE
    assert c.clock.state.last_lap_left == 5 and c.clock.state.paused is None
    assert c.key("-", 5.0) == [] and c.ask is None
    assert c.message == "The last lap is already being played"
    c.key("*", 6.0)  # a player may still go out during the last lap
    assert c.ask is TableAsk.END_GAME


def test_any_other_key_or_a_button_answers_no() -> None:
    c = controls()
    c.key("*", 3.0)
    assert c.key("5", 4.0) == [] and c.ask is None
    assert c.message == "Not done: empty rack: end the game"
    assert c.clock.state.phase is Phase.RUNNING
    c.key("-", 5.0)
    [passed] = tap(c, Button.PASS, 6.0)  # the move goes on: the question is dropped
    assert isinstance(passed, MovePassed) and c.ask is None
    assert c.key("enter", 7.0) == [] and c.clock.state.last_lap_left is None


def test_a_paused_clock_or_no_game_leaves_it_to_the_judge() -> None:
    c = controls()
    tap(c, Button.JUDGE, 3.0)  # paused by the judge
    assert c.key("*", 4.0) == [] and c.ask is None
    assert c.message == "Empty rack: end the game: the clock is paused — the judge decides"
    tap(c, Button.JUDGE, 5.0)  # resumed
    c.key("*", 6.0)
    hold_judge(c, 7.0)  # the judge steps in: the menu, not the players' question
    assert c.ask is None and c.menu is not None
    idle = TableControls(MoveClock())
    assert idle.key("*", 1.0) == [] and idle.ask is None
    assert idle.message == "Empty rack: end the game: no game is in progress"


def test_the_question_goes_when_the_game_ends_meanwhile() -> None:
    c = controls()
    c.key("*", 1.0)
    c.clock.end_game(2.0)  # e.g. the hub's last lap ran out in between
    c.tick(2.5)
    assert c.ask is None


def test_other_keys_during_play_name_the_table_keys() -> None:
    c = controls()
    assert c.key("7", 1.0) == []
    assert c.message == "Keys: * empty rack (game over) · - bank empty (last lap)"


# --- who starts a game -----------------------------------------------------------------------


def test_a_digit_before_the_game_chooses_the_starting_seat() -> None:
    c = TableControls(MoveClock())
    assert c.clock.state.upcoming_starter is Seat.A  # game 1: A by rotation
    c.key("3", 1.0)
    assert c.clock.state.upcoming_starter is Seat.C
    assert c.clock.state.starter_from is StarterSource.TABLE
    c.key("5", 1.5)
    assert c.message == "Starting seat: press 1–4 for seat A–D"
    c.key("2", 2.0)  # changed again before the first press
    [started] = tap(c, Button.PASS, 3.0)
    assert isinstance(started, GameStarted)
    assert (started.starter, started.starter_from) == (Seat.B, StarterSource.TABLE)
    assert c.clock.state.active is Seat.B
    c.key("1", 4.0)  # during the game a digit chooses nothing
    assert c.clock.state.starter is Seat.B


def test_the_judge_menu_chooses_the_starting_seat_on_a_unit_without_a_keypad() -> None:
    c = TableControls(MoveClock())
    hold_judge(c, 1.0)
    assert c.menu is not None and JudgeAction.NEXT_STARTER in c.menu.actions
    c.choose(JudgeAction.NEXT_STARTER, 3.0)
    hold_judge(c, 4.0)
    c.choose(JudgeAction.NEXT_STARTER, 6.0)
    [started] = tap(c, Button.PASS, 7.0)
    assert isinstance(started, GameStarted)
    assert (started.starter, started.starter_from) == (Seat.C, StarterSource.TABLE)
    hold_judge(c, 9.0)
    assert c.menu is not None and JudgeAction.NEXT_STARTER not in c.menu.actions


def test_without_a_choice_the_rotation_starts_and_says_so() -> None:
    c = TableControls(MoveClock())
    c.clock.prepare(ClockRules(seats=3), game=2)
    [started] = tap(c, Button.PASS, 1.0)
    assert isinstance(started, GameStarted)
    assert (started.starter, started.starter_from) == (Seat.B, StarterSource.ROTATION)
    hub = TableControls(MoveClock())
    hub.clock.prepare(ClockRules(seats=3), game=2, starter=Seat.C)  # the organizer's seat
    [started] = tap(hub, Button.PASS, 1.0)
    assert isinstance(started, GameStarted)
    assert (started.starter, started.starter_from) == (Seat.C, StarterSource.HUB)


def test_the_result_being_typed_is_the_controls_own() -> None:
    """One owner: the keypad types into ``entry``, the judge's menu acts on that same
    entry, and its view is what the display and the journal read."""
    c = controls()
    hold_judge(c, 5.0)
    c.choose(JudgeAction.END_GAME, 7.5)
    assert c.clock.state.phase is Phase.GAME_OVER and c.entry_view is None
    c.entry = ResultEntry(1, c.clock.state.seats, get_ruleset("000"), GameEnding.WENT_OUT)
    for key in ["1", "2", "enter", "0", "enter"]:
        assert c.key(key, 8.0) == []  # typed, not a table action
    view = c.entry_view
    assert view is not None and [r.tiles for r in view.racks[:2]] == [12, 0]
    assert view.step is Step.TILES and view.seat is Seat.C
    hold_judge(c, 10.0)
    assert c.menu is not None and JudgeAction.COULD_HAVE_OPENED in c.menu.actions
    c.choose(JudgeAction.COULD_HAVE_OPENED, 12.5)
    view = c.entry_view
    assert view is not None and view.racks[2].opening is Opening.COULD_HAVE_OPENED
