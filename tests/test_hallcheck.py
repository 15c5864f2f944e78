"""The hall check at a table: the steps, the controls, the LEDs and buzzer, the display."""

from __future__ import annotations

from tablekit.config import BuzzerSettings
from tablekit.controls import Button, ButtonEdge, JudgeAction, TableControls
from tablekit.core.clock import ClockRules, MoveClock, Phase
from tablekit.core.hallcheck import CheckResult, CheckStep, HallCheck, HallChecked
from tablekit.layout.compose import compose
from tablekit.layout.scene import Icon, IconKind, layout_for
from tablekit.samples import sample_views
from tablekit.signals import BLUE, GREEN, RED, TURQUOISE, render_signals
from tablekit.view import TableView

QUIET = BuzzerSettings(mode="quiet")


def test_a_person_walks_the_steps_and_the_outcome_names_each() -> None:
    check = HallCheck(table=12, game=1, since=0.0)
    assert check.judge_key(1.0) is None and check.step is CheckStep.PASS
    assert check.message == "That was the judge key: first the pass button"
    assert check.pass_button(2.0) is None and check.step is CheckStep.JUDGE
    assert check.pass_button(3.0) is None and check.message.startswith("That was the pass")
    assert check.judge_key(4.0) is None and check.step is CheckStep.LEDS
    assert check.key("5", 4.5) is None
    assert check.message == "The keypad comes last; now: lights: pass button yes, judge key no"
    assert check.judge_key(5.0) is None  # no light: a fault
    assert check.pass_button(6.0) is None and check.step is CheckStep.KEYPAD
    for key in "13":
        check.key(key, 7.0)
    assert check.key("enter", 7.5) is None
    assert check.message == "Typed 13: type 12, then ENTER" and check.typed == ""
    for key in "12":
        check.key(key, 8.0)
    done = check.key("enter", 9.0)
    assert done == HallChecked(
        game=1,
        pass_button=CheckResult.OK,
        judge_key=CheckResult.OK,
        leds=CheckResult.FAILED,
        buzzer=CheckResult.OK,
        keypad=CheckResult.OK,
    )
    assert done is not None and done.faults == (CheckStep.LEDS,)
    assert check.done and check.view.since == 9.0


def test_a_unit_without_a_keypad_skips_that_step_with_the_judge_key() -> None:
    check = HallCheck(table=3, game=1, since=0.0)
    for press in (check.pass_button, check.judge_key, check.pass_button, check.pass_button):
        assert press(1.0) is None
    done = check.judge_key(2.0)
    assert done is not None and done.keypad is CheckResult.SKIPPED and done.faults == ()


def test_the_controls_send_every_press_to_the_check_and_give_its_outcome() -> None:
    c = TableControls(MoveClock(ClockRules(seats=4)), table=5)
    c.start_check(1.0)
    assert c.check is not None and c.check.table == 5
    events: list[object] = []
    for i, button in enumerate((Button.PASS, Button.JUDGE, Button.PASS, Button.PASS)):
        events += c.edge(ButtonEdge(button, True, 2.0 + i))
        events += c.edge(ButtonEdge(button, False, 2.1 + i))
    assert events == [] and c.clock.state.phase is Phase.READY  # no game started, no pause
    events += c.key("5", 7.0)
    events += c.key("enter", 7.5)
    [done] = events
    assert isinstance(done, HallChecked) and done.faults == ()
    assert c.check is not None and c.check.done  # the results stay on the display
    assert c.edge(ButtonEdge(Button.PASS, True, 9.0)) == []  # a press goes back, no game
    assert c.check is None and c.clock.state.phase is Phase.READY


def test_the_judge_menu_starts_it_between_games_only() -> None:
    c = TableControls(MoveClock())
    c.edge(ButtonEdge(Button.JUDGE, True, 1.0))
    c.tick(2.6)
    c.edge(ButtonEdge(Button.JUDGE, False, 2.7))
    assert c.menu is not None and JudgeAction.HALL_CHECK in c.menu.actions
    c.choose(JudgeAction.HALL_CHECK, 3.0)
    assert c.check is not None and c.check.step is CheckStep.PASS
    playing = TableControls(MoveClock())
    playing.edge(ButtonEdge(Button.PASS, True, 1.0))  # game 1 starts
    playing.start_check(2.0)
    assert playing.check is None and playing.message == "Hall check: only before a game starts"


def test_the_leds_sweep_and_the_buzzer_beeps_even_in_quiet_mode() -> None:
    views = sample_views(100.0, "en")
    leds = views["check-leds"]
    assert leds.check is not None
    since = leds.check.since
    seen = [render_signals(leds, since + t, QUIET, 10) for t in (0.1, 0.8, 1.5)]
    assert [s.status for s in seen] == [RED, GREEN, BLUE]
    assert seen[0].bar < seen[1].bar < seen[2].bar
    buzzer = TableView(leds.clock, table=7, check=HallCheck(7, 1, 50.0, CheckStep.BUZZER).view)
    assert render_signals(buzzer, 50.2, QUIET, 10).buzzer
    assert not render_signals(buzzer, 50.7, QUIET, 10).buzzer
    done = views["check-done"]
    assert render_signals(done, 101.0, QUIET, 10).status == TURQUOISE


def test_the_display_shows_the_table_number_the_step_and_the_answers() -> None:
    views = sample_views(100.0, "en")
    scene = compose(views["check-keypad"], 100.0, layout_for(480, 320))
    words = {p.name: [i.text for i in p.items if hasattr(i, "text")] for p in scene}
    assert words["band"] == ["HALL CHECK", "TABLE 7"]
    assert words["check-table"] == ["TABLE 7"]
    assert " ".join(words["check-ask"]) == "Typed 7 — ENTER when it says 7"
    assert words["check-steps"] == ["pass button", "judge key", "lights", "buzzer", "keypad"]
    [steps] = [p for p in scene if p.name == "check-steps"]
    marks = [i.kind for i in steps.items if isinstance(i, Icon)]
    assert marks == [IconKind.CHECK, IconKind.CHECK, IconKind.CHECK, IconKind.ALERT]
    done = compose(views["check-done"], 100.0, layout_for(800, 480))
    assert next(i.text for i in done[0].items if hasattr(i, "text")) == "HALL CHECK: READY"
