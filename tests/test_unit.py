"""The unit loop: inputs in, events journaled before the link hears of them."""

from __future__ import annotations

import itertools
import threading
import time
from collections import Counter
from collections.abc import Sequence

import msgspec

from tablekit.bot import BotStyle, TableBot
from tablekit.controls import Button, ButtonEdge, JudgeAction
from tablekit.core.clock import ClockRules, MoveClock, Phase
from tablekit.core.clock_events import GameStarted, LastLapSource, LastLapStarted, MovePassed
from tablekit.core.messages import (
    AssignedRules,
    Assignment,
    Broadcast,
    BroadcastKind,
    ResultAck,
    SeatAssignment,
    idle_assignment,
)
from tablekit.core.result import ResultSubmitted
from tablekit.core.seats import SEATS, Seat
from tablekit.result_entry import Step
from tablekit.unit import (
    BEAT_CHARGE,
    KeyPress,
    LinkStatus,
    MenuChoice,
    Quit,
    SavedUnit,
    TableUnit,
    Unassigned,
    UnitEvent,
)
from tablekit.view import TableView


class Journal:
    def __init__(self, log: list[str]) -> None:
        self.log = log
        self.events: list[UnitEvent] = []
        self.state: bytes = b""

    def record(self, events: Sequence[UnitEvent], state: bytes) -> None:
        self.log.append("record")
        self.events += events
        self.state = state


class Link:
    def __init__(self, log: list[str]) -> None:
        self.log = log
        self.views: list[TableView] = []

    def notify(self) -> None:
        self.log.append("notify")

    def publish_state(self, view: TableView, now: float) -> None:
        self.views.append(view)


class FakeTime:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def make_unit(seats: int = 4) -> tuple[TableUnit, Journal, Link, FakeTime]:
    log: list[str] = []
    journal, link, clock_time = Journal(log), Link(log), FakeTime()
    unit = TableUnit(
        MoveClock(ClockRules(seats=seats)), recorder=journal, uplink=link, monotonic=clock_time
    )
    return unit, journal, link, clock_time


def press(unit: TableUnit, at: float) -> None:
    unit.handle(ButtonEdge(Button.PASS, True, at))
    unit.handle(ButtonEdge(Button.PASS, False, at + 0.05))


def test_events_are_journaled_before_the_link_is_told() -> None:
    unit, journal, link, _ = make_unit()
    press(unit, 100.0)
    press(unit, 105.0)
    assert [type(e) for e in journal.events] == [GameStarted, MovePassed]
    assert journal.log == ["record", "notify", "record", "notify"]
    restored = msgspec.json.decode(journal.state, type=SavedUnit)
    assert restored.clock.active is Seat.B
    assert link.views[-1].clock.active is Seat.B


def test_state_is_published_on_change_not_every_frame() -> None:
    unit, _, link, clock_time = make_unit()
    press(unit, 100.0)
    published = len(link.views)
    for _ in range(5):
        clock_time.now += 0.05
        unit.apply(unit.controls.tick(clock_time.now), clock_time.now)
    assert len(link.views) == published


def test_seating_waits_for_the_game_to_end() -> None:
    unit, _, _, _ = make_unit()
    press(unit, 100.0)
    unit.handle(assignment(0, 2, seats=3, move_seconds=60))
    assert unit.clock.state.phase is Phase.RUNNING and unit.clock.state.rules.seats == 4
    unit.clock.end_game(101.0)
    unit.apply([], 101.0)
    assert unit.clock.state.phase is Phase.READY and unit.clock.state.game == 2
    assert unit.view.name(Seat.B) == "Bartek"
    press(unit, 102.0)
    assert unit.clock.state.active is Seat.B and unit.clock.state.rules.move_seconds == 60


def test_redelivered_seating_never_rewinds_the_clock() -> None:
    unit, _, _, _ = make_unit()
    seating = assignment(0, 1, seats=4, move_seconds=40)
    unit.handle(seating)
    press(unit, 100.0)
    unit.clock.end_game(101.0)
    unit.clock.start_game(102.0)
    unit.clock.end_game(103.0)
    unit.handle(seating)  # the retained assignment again, after a reconnect
    assert unit.clock.state.phase is Phase.GAME_OVER and unit.clock.state.game == 2


def test_the_hubs_round_time_over_starts_the_last_lap() -> None:
    unit, journal, _, _ = make_unit()
    press(unit, 100.0)
    unit.handle(Broadcast(v=1, id=1, kind=BroadcastKind.LAST_LAP))
    [lap] = [e for e in journal.events if isinstance(e, LastLapStarted)]
    assert lap.source is LastLapSource.HUB and lap.moves_left == 5


def test_link_status_marks_offline_since() -> None:
    unit, _, _, _ = make_unit()
    unit.handle(LinkStatus(online=False, at=50.0))
    unit.handle(LinkStatus(online=False, at=60.0))
    assert unit.view.online is False and unit.view.offline_since == 50.0
    unit.handle(LinkStatus(online=True, at=70.0))
    assert unit.view.online is True and unit.view.offline_since is None


def test_loop_runs_bots_and_every_pass_moves_clockwise() -> None:
    log: list[str] = []
    journal = Journal(log)
    rules = ClockRules(seats=3, move_seconds=1.0, lockout=0.1)
    unit = TableUnit(MoveClock(rules), recorder=journal, judge_hold=0.3)
    style = BotStyle(pace=0.02, timeout_chance=0.1, moves_per_game=(8, 12), judge_hold=0.3)
    bot = TableBot(unit.put, lambda: unit.view, style, seed=7)
    loop = threading.Thread(target=unit.run)
    loop.start()
    bot.start()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        counts = Counter(type(e).__name__ for e in journal.events)
        if counts["GameOver"] >= 1 and counts["MovePassed"] >= 15:
            break
        time.sleep(0.1)
    bot.stop()
    unit.put(Quit())
    loop.join(timeout=5)
    assert not loop.is_alive()
    passes = [e for e in journal.events if isinstance(e, MovePassed)]
    assert len(passes) >= 15
    for before, after in itertools.pairwise(passes):
        if after.game == before.game and after.move == before.move + 1:
            assert after.seat.position == (before.seat.position + 1) % 3


def verdict(game: int, *, accepted: bool, reason: str = "", round_: int = 0) -> ResultAck:
    """The hub's answer to the table's result for ``game`` (its ``result`` topic)."""
    return ResultAck(
        v=1, unit="table-01", game=game, accepted=accepted, reason=reason, round=round_
    )


def judge_menu(unit: TableUnit, at: float, action: JudgeAction) -> None:
    """The judge holds the key from ``at`` (the menu opens) and chooses ``action``."""
    unit.handle(ButtonEdge(Button.JUDGE, True, at))
    unit.handle(ButtonEdge(Button.JUDGE, False, at + 2.0))
    unit.handle(MenuChoice(action, at + 2.5))


def type_keys(unit: TableUnit, keys: str) -> None:
    for word in keys.split():
        for key in [word] if word in ("enter", "backspace") else list(word):
            unit.handle(KeyPress(key, 0.0))


def finished_game(seats: int = 3) -> tuple[TableUnit, Journal, Link]:
    unit, journal, link, _ = make_unit(seats)
    press(unit, 100.0)
    press(unit, 105.0)
    judge_menu(unit, 106.0, JudgeAction.END_GAME)
    return unit, journal, link


def test_game_over_opens_result_entry_and_submits_once_confirmed() -> None:
    unit, journal, _ = finished_game()
    assert unit.view.entry is not None and unit.view.entry.step is Step.TILES
    assert unit.view.state_word == "ENTERING RESULT"
    # A 12, B went out, C 33 with a joker — then each seat confirms
    type_keys(unit, "12 enter 0 enter 33+ enter")
    assert unit.view.entry is not None and unit.view.entry.step is Step.CONFIRM
    type_keys(unit, "enter enter")
    assert not any(isinstance(e, ResultSubmitted) for e in journal.events)
    type_keys(unit, "enter")
    [submitted] = [e for e in journal.events if isinstance(e, ResultSubmitted)]
    assert [r.tiles for r in submitted.report.racks] == [12, 0, 33]
    assert submitted.report.racks[2].jokers == 1
    assert unit.view.entry is not None and unit.view.entry.step is Step.SUBMITTED
    unit.handle(verdict(1, accepted=True))
    assert unit.view.state_word == "RESULT IN"


def test_rejected_result_is_corrected_and_sent_again() -> None:
    unit, journal, _ = finished_game()
    type_keys(unit, "12 enter 0 enter 33 enter enter enter enter")
    unit.handle(verdict(1, accepted=False, reason="table 1: wrong round"))
    assert unit.view.entry is not None and unit.view.entry.step is Step.REJECTED
    assert unit.view.state_word == "RESULT REFUSED"
    type_keys(unit, "1 21 enter")  # seat A: 12 → 21
    type_keys(unit, "enter enter enter")
    sent = [e for e in journal.events if isinstance(e, ResultSubmitted)]
    assert [s.report.racks[0].tiles for s in sent] == [12, 21]


def test_judge_accepts_the_result_for_the_table() -> None:
    unit, journal, _ = finished_game()
    type_keys(unit, "12 enter 0 enter 33 enter")
    judge_menu(unit, 120.0, JudgeAction.ACCEPT_RESULT)
    [submitted] = [e for e in journal.events if isinstance(e, ResultSubmitted)]
    assert submitted.judge_override


def test_result_entered_at_the_hub_closes_the_entry() -> None:
    unit, _, _ = finished_game()
    unit.handle(verdict(1, accepted=True))
    assert unit.view.entry is None
    assert "recorded at the hub" in unit.view.message


def test_without_a_hub_the_journal_is_the_record() -> None:
    log: list[str] = []
    journal = Journal(log)
    unit = TableUnit(MoveClock(ClockRules(seats=3)), recorder=journal)
    press(unit, 1.0)
    judge_menu(unit, 2.0, JudgeAction.END_GAME)
    type_keys(unit, "0 enter 5 enter 7 enter enter enter enter")
    assert unit.view.entry is not None and unit.view.entry.step is Step.ACCEPTED


def assignment(round_: int, game: int, seats: int = 3, move_seconds: float = 60.0) -> Assignment:
    names = ["Anna", "Bartek", "Celina", "Darek"][:seats]
    return Assignment(
        v=1,
        table=1,
        game=game,
        round=round_,
        seats=tuple(SeatAssignment(seat=s, name=n) for s, n in zip(SEATS, names, strict=False)),
        rules=AssignedRules(move_seconds=move_seconds, ruleset="002"),
    )


def test_hub_assignment_seats_the_table_with_its_ruleset() -> None:
    unit, _, _, _ = make_unit()
    unit.handle(assignment(1, 1))
    assert unit.clock.state.rules.seats == 3 and unit.clock.state.rules.move_seconds == 60
    assert unit.ruleset.name == "002" and unit.view.name(Seat.C) == "Celina"


def test_broadcasts_of_an_earlier_round_are_ignored() -> None:
    unit, journal, _, _ = make_unit()
    unit.handle(assignment(2, 1))
    press(unit, 100.0)
    unit.handle(Broadcast(v=1, id=7, kind=BroadcastKind.LAST_LAP, round=1))
    assert unit.clock.state.last_lap_left is None
    unit.handle(Broadcast(v=1, id=8, kind=BroadcastKind.LAST_LAP, round=2))
    assert isinstance(journal.events[-1], LastLapStarted)


def test_restart_at_the_end_of_a_round_takes_the_next_rounds_seating() -> None:
    unit, journal, _, _ = make_unit()
    unit.handle(assignment(1, 2))
    press(unit, 100.0)
    judge_menu(unit, 103.0, JudgeAction.END_GAME)  # journals GameOver and the state
    rebooted, _, _, _ = make_unit()
    rebooted.restore(journal.state, 5.0)
    assert rebooted.clock.state.game == 2 and rebooted.seating is not None
    rebooted.handle(assignment(1, 2))  # the retained one again: nothing changes
    assert rebooted.clock.state.phase is Phase.GAME_OVER
    rebooted.handle(assignment(2, 1))
    assert rebooted.clock.state.phase is Phase.READY and rebooted.clock.state.game == 1


def test_restart_mid_game_resumes_paused_for_the_judge() -> None:
    unit, journal, _, _ = make_unit()
    press(unit, 100.0)
    press(unit, 110.0)
    rebooted, _, _, _ = make_unit()
    rebooted.restore(journal.state, 3.0)
    assert rebooted.clock.state.active is Seat.B
    assert rebooted.view.state_word == "PAUSED — RESTARTED"
    # saved at the pass, charged ahead to the next save: never more than B had
    assert rebooted.clock.state.remaining_at(50.0) == 40.0 - BEAT_CHARGE


def test_a_retained_verdict_of_another_round_leaves_the_entry_alone() -> None:
    unit, _, _, _ = make_unit()
    unit.handle(assignment(2, 2))
    press(unit, 100.0)
    judge_menu(unit, 106.0, JudgeAction.END_GAME)
    type_keys(unit, "12 enter")
    unit.handle(ResultAck(v=1, unit="table-01", game=2, accepted=True, round=1))
    assert unit.view.entry is not None and unit.view.entry.racks[0].tiles == 12
    unit.handle(ResultAck(v=1, unit="table-01", game=2, accepted=True, round=2))
    assert unit.view.entry is None and "recorded at the hub" in unit.view.message


def test_undo_after_game_over_closes_the_result_entry() -> None:
    unit, journal, _ = finished_game()
    judge_menu(unit, 120.0, JudgeAction.UNDO_PASS)
    assert unit.clock.state.phase is Phase.RUNNING and unit.view.entry is None
    type_keys(unit, "12 enter 0 enter 33 enter enter enter enter")
    assert not [e for e in journal.events if isinstance(e, ResultSubmitted)]


def test_each_broadcast_applies_once_even_across_a_restart() -> None:
    unit, journal, _, _ = make_unit()
    unit.handle(assignment(1, 1))
    press(unit, 100.0)
    lap = Broadcast(v=1, id=9, kind=BroadcastKind.LAST_LAP, round=0)
    unit.handle(lap)
    for i in range(4):
        press(unit, 101.0 + i)
    assert unit.clock.state.phase is Phase.GAME_OVER
    rebooted, _, _, _ = make_unit()
    rebooted.restore(journal.state, 1.0)
    rebooted.handle(assignment(2, 1))  # the next round
    press(rebooted, 200.0)
    rebooted.handle(lap)  # retained, delivered again after the restart
    assert rebooted.clock.state.last_lap_left is None


def test_a_reboot_during_result_entry_keeps_what_was_typed() -> None:
    unit, journal, _ = finished_game()
    type_keys(unit, "12 enter 0 enter 33+")
    rebooted, rejournal, _, _ = make_unit(3)
    rebooted.restore(journal.state, 1.0)
    entry = rebooted.view.entry
    assert entry is not None and entry.step is Step.TILES and entry.racks[0].tiles == 12
    assert (entry.seat, entry.buffer, entry.jokers_typed) == (Seat.C, "33", 1)
    rebooted.handle(verdict(1, accepted=False, reason="seat C: tiles"))
    assert "the hub refused game 1: seat C: tiles" in rebooted.view.message
    type_keys(rebooted, "enter enter enter enter")
    [sent] = [e for e in rejournal.events if isinstance(e, ResultSubmitted)]
    assert [(r.tiles, r.jokers) for r in sent.report.racks] == [(12, 0), (0, 0), (33, 1)]


def test_a_reboot_after_game_over_with_nothing_typed_opens_the_entry() -> None:
    _, journal, _ = finished_game()
    rebooted, _, _, _ = make_unit(3)
    rebooted.restore(journal.state, 1.0)
    assert rebooted.view.entry is not None and rebooted.view.entry.step is Step.TILES


def test_a_very_short_assigned_clock_still_runs() -> None:
    unit, _, _, _ = make_unit()
    unit.handle(assignment(1, 1, move_seconds=0.3))  # valid on the wire, below the lockout
    assert unit.clock.state.rules.move_seconds == 0.3 and unit.clock.state.rules.lockout == 0.15


def test_a_bad_input_never_stops_the_loop() -> None:
    unit, _, _ = finished_game()
    unit.put(KeyPress("x", 1.0))  # not a keypad key: the result entry raises on it
    unit.step()  # logged and shown, and the loop goes on
    assert "could not apply KeyPress" in unit.view.message
    type_keys(unit, "12 enter")
    assert unit.view.entry is not None and unit.view.entry.racks[0].tiles == 12


def test_a_cleared_assignment_empties_the_seats() -> None:
    unit, _, _, _ = make_unit()
    unit.handle(assignment(3, 1))
    assert unit.view.name(Seat.A) == "Anna"
    unit.handle(Unassigned(at=5.0))
    assert unit.view.names == {} and "No game at this table" in unit.view.message
    unit.handle(assignment(4, 1))  # seated again in a later round
    assert unit.view.name(Seat.A) == "Anna" and unit.seating is not None
    unit.handle(idle_assignment(1, 5))  # the hub's explicit "no game at this table"
    assert unit.view.names == {} and "No game at this table" in unit.view.message


def test_a_game_started_after_the_round_time_plays_only_its_last_lap() -> None:
    unit, journal, _, _ = make_unit()
    unit.handle(assignment(2, 2))  # READY for game 2 of round 2
    unit.handle(Broadcast(v=1, id=31, kind=BroadcastKind.LAST_LAP, round=2))
    assert unit.clock.state.phase is Phase.READY  # nothing to do between games …
    press(unit, 100.0)  # … but the game started now plays one lap only
    assert unit.clock.state.last_lap_left == 4  # 3 seats + the move in progress
    assert isinstance(journal.events[-1], LastLapStarted)
    for i in range(4):
        press(unit, 101.0 + i)
    assert unit.clock.state.phase is Phase.GAME_OVER
    rebooted, _, _, _ = make_unit()
    rebooted.restore(journal.state, 1.0)
    assert rebooted.time_over == 2
    rebooted.handle(assignment(3, 1))
    press(rebooted, 200.0)  # a new round: its clock is not over
    assert rebooted.clock.state.last_lap_left is None


class FailingJournal(Journal):
    """A journal whose first writes fail, like a failing SD card."""

    def __init__(self, log: list[str], failures: int) -> None:
        super().__init__(log)
        self.failures = failures

    def record(self, events: Sequence[UnitEvent], state: bytes) -> None:
        if self.failures:
            self.failures -= 1
            raise OSError(5, "Input/output error")
        super().record(events, state)


def test_events_survive_a_journal_that_cannot_be_written_for_a_while() -> None:
    log: list[str] = []
    journal = FailingJournal(log, failures=2)
    link = Link(log)
    unit = TableUnit(MoveClock(), recorder=journal, uplink=link, monotonic=FakeTime())
    press(unit, 100.0)  # fails: GameStarted waits
    assert journal.events == [] and "Journal write failed" in unit.view.message
    assert "notify" not in log  # nothing goes to the hub before it is journalled
    press(unit, 105.0)  # fails again: GameStarted and MovePassed wait, in order
    unit.apply([], 106.0)  # the next frame: the journal takes them
    assert [type(e) for e in journal.events] == [GameStarted, MovePassed]
    assert unit.unsaved == [] and unit.view.message == "" and log[-1] == "notify"
