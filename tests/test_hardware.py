"""The gpiozero shell on MockFactory pins, with the real clock and controls behind it."""

from __future__ import annotations

import queue
import time
from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from tablekit.config import PinSettings, UnitConfig, parse_config
from tablekit.controls import Button, ButtonEdge, JudgeAction, TableControls
from tablekit.core.clock import ClockState, MoveClock, Phase
from tablekit.core.clock_events import (
    AnyClockEvent,
    ClockPaused,
    ClockResumed,
    GameStarted,
    MovePassed,
    MoveRestarted,
    MoveTimedOut,
    PauseReason,
)
from tablekit.hardware import GpioInputs, GpioOutputs, walk_test
from tablekit.signals import BLUE, OFF, RED, TICK_LENGTH, TURQUOISE, YELLOW
from tablekit.unit import TableUnit
from tablekit.view import TableView

CONFIG = UnitConfig()
PINS = CONFIG.pins
assert PINS.pass_button is not None and PINS.judge_key is not None and PINS.buzzer is not None
PASS, JUDGE, BUZZER = PINS.pass_button, PINS.judge_key, PINS.buzzer
assert PINS.status_led is not None
RED_PIN, GREEN_PIN, BLUE_PIN = PINS.status_led


class FakeTime:
    """A monotonic clock the test moves by hand, stamped onto every edge."""

    def __init__(self, start: float = 1000.0) -> None:
        self.t = start

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = MockFactory(pin_class=MockPWMPin)
    yield f
    f.reset()


class Table:
    """Pins → GpioInputs → queue → TableControls + MoveClock → GpioOutputs, like the unit."""

    def __init__(self, factory: MockFactory, config: UnitConfig = CONFIG) -> None:
        self.factory = factory
        self.config = config
        self.time = FakeTime()
        self.queue: queue.SimpleQueue[object] = queue.SimpleQueue()
        self.inputs = GpioInputs(config, self.queue.put, factory, clock=self.time)
        self.outputs = GpioOutputs(config, factory)
        self.controls = TableControls(
            MoveClock(config.clock_rules()),
            judge_hold=config.clock.judge_hold,
            call_hold=config.clock.call_hold,
        )
        self.events: list[AnyClockEvent] = []

    def pin(self, number: int) -> MockPWMPin:
        return self.factory.pin(number)

    def drain(self) -> list[ButtonEdge]:
        edges = []
        while True:
            try:
                edge = self.queue.get_nowait()
            except queue.Empty:
                break
            assert isinstance(edge, ButtonEdge)
            edges.append(edge)
            self.events += self.controls.edge(edge)
        self.events += self.controls.tick(self.time.t)
        self.outputs.show(
            TableView(self.controls.clock.state, menu=self.controls.menu), self.time.t
        )
        return edges

    def press(self, pin: int, hold: float = 0.05) -> None:
        self.pin(pin).drive_low()
        self.drain()
        self.advance(hold)
        self.pin(pin).drive_high()
        self.drain()

    def advance(self, seconds: float) -> None:
        self.time.t += seconds
        self.drain()

    @property
    def state(self) -> ClockState:
        return self.controls.clock.state

    def passes(self) -> list[MovePassed]:
        return [e for e in self.events if isinstance(e, MovePassed)]


def edges_in(items: list[object]) -> list[ButtonEdge]:
    assert all(isinstance(e, ButtonEdge) for e in items)
    return [e for e in items if isinstance(e, ButtonEdge)]


def test_pass_pin_edges_go_on_the_queue(factory: MockFactory) -> None:
    got: list[object] = []
    inputs = GpioInputs(CONFIG, got.append, factory)
    before = time.monotonic()
    factory.pin(PASS).drive_low()
    factory.pin(PASS).drive_high()
    factory.pin(JUDGE).drive_low()
    after = time.monotonic()
    edges = edges_in(got)
    assert [(e.button, e.pressed) for e in edges] == [
        (Button.PASS, True),
        (Button.PASS, False),
        (Button.JUDGE, True),
    ]
    stamps = [e.at for e in edges]
    assert before <= stamps[0] <= stamps[1] <= stamps[2] <= after
    inputs.close()


def test_buttons_have_no_gpiozero_debounce(factory: MockFactory) -> None:
    inputs = GpioInputs(CONFIG, lambda _: None, factory)
    assert all(b.pull_up for b in inputs.buttons.values())
    assert set(inputs.buttons) == {Button.PASS, Button.JUDGE}
    inputs.close()
    assert inputs.buttons == {}


def test_call_button_and_pull_down_wiring(factory: MockFactory) -> None:
    config = parse_config("[pins]\ncall_button = 4\npull_up = false", "u")
    got: list[object] = []
    inputs = GpioInputs(config, got.append, factory)
    factory.pin(4).drive_high()  # wired to 3V3: high is pressed
    factory.pin(4).drive_low()
    assert [(e.button, e.pressed) for e in edges_in(got)] == [
        (Button.CALL, True),
        (Button.CALL, False),
    ]
    inputs.close()


def test_presses_start_the_game_and_pass_clockwise(factory: MockFactory) -> None:
    table = Table(factory)
    table.press(PASS)
    assert table.state.phase is Phase.RUNNING
    assert any(isinstance(e, GameStarted) for e in table.events)
    assert table.state.active == "A"
    table.advance(5.0)
    table.press(PASS)
    assert table.state.active == "B"
    table.advance(3.0)
    table.press(PASS)
    assert [p.seat for p in table.passes()] == ["A", "B"]
    assert table.passes()[0].used == pytest.approx(5.05)
    assert table.state.active == "C"


def test_judge_key_pauses_and_only_the_judge_resumes(factory: MockFactory) -> None:
    table = Table(factory)
    table.press(PASS)
    table.advance(10)
    table.press(JUDGE, hold=0.2)
    assert table.state.paused is PauseReason.JUDGE
    assert any(isinstance(e, ClockPaused) for e in table.events)
    table.advance(30)
    table.press(PASS)  # players cannot resume or pass while paused
    assert table.state.paused is PauseReason.JUDGE
    assert table.passes() == []
    table.press(JUDGE, hold=0.2)
    assert table.state.paused is None
    assert any(isinstance(e, ClockResumed) for e in table.events)
    # Paused at 10.05 s into the move; the paused time never counts.
    assert table.state.remaining_at(table.time.t) == pytest.approx(40 - 10.05)


def test_judge_key_held_opens_the_menu_and_restarts_the_move(factory: MockFactory) -> None:
    table = Table(factory)
    table.press(PASS)
    table.advance(12)
    table.pin(JUDGE).drive_low()
    table.drain()
    table.advance(1.0)
    assert table.controls.menu is None
    table.advance(0.6)  # judge_hold 1.5 s reached: the loop's tick opens the menu
    menu = table.controls.menu
    assert menu is not None
    assert menu.current is JudgeAction.RESUME
    table.pin(JUDGE).drive_high()  # the release that ends the hold chooses nothing
    table.drain()
    assert table.controls.menu is not None
    table.press(PASS)  # the pass button steps through the menu
    assert table.controls.menu.current is JudgeAction.RESTART_MOVE
    assert table.passes() == []
    table.press(JUDGE)  # a judge-key press carries it out
    assert any(isinstance(e, MoveRestarted) for e in table.events)
    assert table.controls.menu is None
    assert table.state.remaining == 40.0


def test_chatter_burst_gives_exactly_one_pass(factory: MockFactory) -> None:
    table = Table(factory)
    table.press(PASS)
    table.advance(8)
    pin = table.pin(PASS)
    for k in range(20):  # 1 kHz chatter: 20 toggles 0.5 ms apart
        if k % 2 == 0:
            pin.drive_low()
        else:
            pin.drive_high()
        table.time.t += 0.0005
    edges = table.drain()
    assert len(edges) == 20  # MockPin ignores bounce: every toggle is an edge
    assert len(table.passes()) == 1
    assert table.state.active == "B"


def test_chatter_with_real_timestamps_gives_one_pass(factory: MockFactory) -> None:
    q: queue.SimpleQueue[object] = queue.SimpleQueue()
    inputs = GpioInputs(CONFIG, q.put, factory)
    clock = MoveClock(CONFIG.clock_rules())
    controls = TableControls(clock)
    clock.press(time.monotonic() - 5)  # a move has been running for 5 s
    pin = factory.pin(PASS)
    for k in range(20):
        pin.drive_high() if k % 2 else pin.drive_low()
        time.sleep(0.0005)
    events: list[AnyClockEvent] = []
    while not q.empty():
        edge = q.get()
        assert isinstance(edge, ButtonEdge)
        events += controls.edge(edge)
    assert sum(isinstance(e, MovePassed) for e in events) == 1
    inputs.close()


def test_held_down_pass_button_passes_once(factory: MockFactory) -> None:
    table = Table(factory)
    table.press(PASS)
    table.advance(6)
    table.pin(PASS).drive_low()
    for _ in range(20):
        table.advance(0.1)
    assert len(table.passes()) == 1
    table.pin(PASS).drive_high()
    table.drain()
    assert len(table.passes()) == 1


def bar_states(table: Table) -> list[float]:
    return [float(table.pin(p).state) for p in PINS.led_bar]


def rgb(table: Table) -> tuple[float, float, float]:
    return tuple(float(table.pin(p).state) for p in (RED_PIN, GREEN_PIN, BLUE_PIN))  # type: ignore[return-value]


def test_led_bar_and_status_follow_the_remaining_time(factory: MockFactory) -> None:
    table = Table(factory)
    table.press(PASS, hold=0.0)
    assert bar_states(table) == [1.0] * 10
    assert rgb(table) == TURQUOISE
    table.advance(20)  # 20 s left: half the bar
    assert bar_states(table) == [1.0] * 5 + [0.0] * 5
    table.advance(5)  # 15 s left
    assert bar_states(table)[:3] == [1.0] * 3
    assert bar_states(table)[3] == pytest.approx(0.75)
    assert bar_states(table)[4:] == [0.0] * 6
    table.advance(7)  # 8 s left
    assert rgb(table) == YELLOW
    table.advance(4)  # 4 s left: a flash and a beep
    assert rgb(table) == RED
    assert bar_states(table)[0] == pytest.approx(1.0)
    assert bar_states(table)[1] == 0.0


def test_buzzer_follows_the_remaining_time_and_the_expiry(factory: MockFactory) -> None:
    table = Table(factory)
    table.press(PASS, hold=0.0)
    start = table.time.t
    buzzer = table.pin(BUZZER)
    heard: list[tuple[float, bool]] = []
    while table.time.t < start + 45:
        table.advance(0.05)
        heard.append((round(table.time.t - start, 2), bool(buzzer.state)))
    on = [t for t, state in heard if state]
    assert buzzer.states[1].state  # the press that started the game ticked
    assert not [t for t in on if TICK_LENGTH + 0.01 < t < 29.9]  # silent until 10 s are left
    for mark in (10, 5, 4, 3, 2, 1):
        assert any(40 - mark <= t < 40 - mark + 0.15 for t in on), mark
        assert not any(40 - mark + 0.2 <= t < 40 - mark + 0.8 for t in on), mark
    assert any(isinstance(e, MoveTimedOut) for e in table.events)
    tone = [t for t in on if t >= 40]
    assert tone[0] == pytest.approx(40.0, abs=0.051)
    assert tone[-1] == pytest.approx(42.0, abs=0.051)
    assert len(tone) >= 39  # continuous for the 2 s long tone
    assert rgb(table) == RED
    assert not buzzer.state


def test_time_up_waits_for_the_late_press(factory: MockFactory) -> None:
    table = Table(factory)
    table.press(PASS, hold=0.0)
    table.advance(41)
    assert table.state.phase is Phase.TIME_UP
    table.advance(20)  # the penalty takes a while; nobody's clock runs
    assert table.state.phase is Phase.TIME_UP
    table.press(PASS)
    assert table.state.active == "B"
    assert table.passes()[0].timed_out
    assert bar_states(table) == [1.0] * 10


def test_paused_shows_blue_and_no_sound(factory: MockFactory) -> None:
    table = Table(factory)
    table.press(PASS, hold=0.0)
    table.advance(35)  # into the beeps
    table.press(JUDGE, hold=0.0)
    for _ in range(20):
        table.advance(0.1)
        assert rgb(table) == BLUE
        assert not table.pin(BUZZER).state


def test_quiet_mode_never_drives_the_buzzer(factory: MockFactory) -> None:
    config = parse_config('[buzzer]\nmode = "quiet"', "u")
    table = Table(factory, config)
    table.press(PASS, hold=0.0)
    for _ in range(900):
        table.advance(0.05)
    assert table.state.phase is Phase.TIME_UP
    assert not any(state for _, state in table.pin(BUZZER).states)


def test_devices_are_written_only_when_their_value_changes(factory: MockFactory) -> None:
    table = Table(factory)
    table.press(PASS, hold=0.0)
    bar_pin = table.pin(PINS.led_bar[0])
    red = table.pin(RED_PIN)
    bar_writes, red_writes = len(bar_pin.states), len(red.states)
    for _ in range(20):
        table.drain()  # same time, same view
    table.advance(1.0)  # the bar's top LED dims a little; the status stays green
    assert len(bar_pin.states) == bar_writes
    assert len(red.states) == red_writes


def test_common_anode_rgb_inverts_the_pins(factory: MockFactory) -> None:
    config = parse_config("[pins]\nactive_high = false", "u")
    table = Table(factory, config)
    table.press(PASS, hold=0.0)
    # turquoise (green, blue at 0.8): red stays high, green low, blue mostly low
    assert rgb(table) == pytest.approx((1.0, 0.0, 0.2))


def test_tonal_buzzer_plays_the_configured_tone(factory: MockFactory) -> None:
    config = parse_config("[buzzer]\ntone = 2700", "u")
    table = Table(factory, config)
    table.press(PASS, hold=0.0)
    table.advance(40 - 5 - 0.05)
    table.advance(0.06)
    pin = table.pin(BUZZER)
    assert pin.frequency == pytest.approx(2700.0)
    assert pin.state == 0.5
    table.advance(0.5)
    assert pin.frequency is None


def test_devices_can_be_left_out(factory: MockFactory) -> None:
    config = UnitConfig(pins=PinSettings(status_led=None, led_bar=(), buzzer=None, judge_key=None))
    table = Table(factory, config)
    assert table.outputs.bar_length == 0
    assert set(table.inputs.buttons) == {Button.PASS}
    table.press(PASS)
    table.advance(41)
    assert table.state.phase is Phase.TIME_UP


def test_close_releases_the_pins(factory: MockFactory) -> None:
    table = Table(factory)
    table.outputs.off()
    assert bar_states(table) == [0.0] * 10
    table.inputs.close()
    table.outputs.close()
    with GpioInputs(CONFIG, lambda _: None, factory), GpioOutputs(CONFIG, factory) as outputs:
        assert outputs.bar_length == 10


def test_gpio_devices_in_the_unit_loop(factory: MockFactory) -> None:
    now = FakeTime()
    outputs = GpioOutputs(CONFIG, factory)
    unit = TableUnit(MoveClock(CONFIG.clock_rules()), outputs=[outputs], monotonic=now)
    inputs = GpioInputs(CONFIG, unit.put, factory, clock=now)
    factory.pin(PASS).drive_low()
    unit.step()
    assert unit.clock.state.phase is Phase.RUNNING
    assert [float(factory.pin(p).state) for p in PINS.led_bar] == [1.0] * 10
    now.t += 35.9  # 4.1 s left: the loop's frame shows the flashing red and a beep
    factory.pin(PASS).drive_high()
    unit.step()
    assert outputs.last is not None
    assert outputs.last.status == OFF
    now.t += 0.1
    unit.step()
    assert outputs.last.status == RED
    assert factory.pin(BUZZER).state
    inputs.close()
    outputs.close()


def test_walk_test_lights_each_output_and_reports_the_buttons(factory: MockFactory) -> None:
    said: list[str] = []

    def say(line: str) -> None:
        said.append(line)
        if line.startswith("press the buttons"):
            factory.pin(JUDGE).drive_low()
            factory.pin(JUDGE).drive_high()

    edges = walk_test(CONFIG, factory, listen=0.05, say=say, sleep=lambda _: None)
    assert [(e.button, e.pressed) for e in edges] == [(Button.JUDGE, True), (Button.JUDGE, False)]
    assert said[:10] == [f"bar LED {i} of 10 (GPIO{p})" for i, p in enumerate(PINS.led_bar, 1)]
    assert "status LED green (GPIO6)" in said
    assert said[-2:] == ["judge pressed", "judge released"]
    # Every bar LED was lit once: the last write lit them all before going dark.
    assert all(any(s == 1.0 for _, s in factory.pin(p).states) for p in PINS.led_bar)
    assert any(s for _, s in factory.pin(BUZZER).states)
