"""A whole game at the table, from the first press to the hub's acceptance, with no judge.

The real hub service and a real Mosquitto; the unit is the real loop with its journal and
link (``tablekit.app.build``), driven only by the pass button and the keypad.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from test_app import LOCKOUT_PAUSE, HeadlessSim
from test_cli_support import Cli

from hub.broker import MosquittoBroker
from hub.organizer import Organizer
from hub.service import HubService
from hub.store import EventStore
from hub.tournament import Player
from tablekit.app import build
from tablekit.config import LinkSettings, UnitConfig, UnitSettings
from tablekit.controls import Button, ButtonEdge, JudgeAction, TableAsk
from tablekit.core.clock import Phase
from tablekit.core.clock_events import (
    GameEndReason,
    GameOver,
    GameStarted,
    LastLapSource,
    LastLapStarted,
    StarterSource,
)
from tablekit.core.hallcheck import CheckStep, HallChecked
from tablekit.core.result import ResultSubmitted
from tablekit.core.seats import Seat
from tablekit.core.topics import Topics
from tablekit.result_entry import Step
from tablekit.unit import KeyPress, MenuChoice, Quit, TableUnit

pytestmark = pytest.mark.mqtt

VENUE, EVENT = "hall", "table-game"
NAMES = ("Anna Kowalska", "Bartek Nowak", "Celina Żak", "Darek Lis")


@dataclass
class Hall:
    unit: TableUnit
    organizer: Organizer
    store: EventStore
    inputs: list[object]

    def put(self, item: object) -> None:
        self.inputs.append(item)
        self.unit.put(item)

    def press_pass(self, wait_until: Any) -> None:
        """One press that the clock takes (a move passed, or the game started)."""
        before = self.unit.view.clock.move
        now = time.monotonic()
        self.put(ButtonEdge(Button.PASS, True, now))
        self.put(ButtonEdge(Button.PASS, False, now + 0.05))
        wait_until(lambda: self.unit.view.clock.move != before, what="the press taken")
        time.sleep(self.unit.clock.rules.lockout)  # the next press is a new one, not a slam

    def keys(self, keys: str) -> None:
        for word in keys.split():
            for key in [word] if word in ("enter", "backspace") else list(word):
                self.put(KeyPress(key, time.monotonic()))


@pytest.fixture
def hall(
    tmp_path: Path, mosquitto: Callable[..., MosquittoBroker], wait_until: Any
) -> Iterator[Hall]:
    broker = mosquitto()
    db = tmp_path / "hub.sqlite3"
    organizer = Organizer(EventStore(db), by="organizer")
    organizer.create_event("Turniej", "school")
    organizer.register([Player(organizer.next_player_id(i), n) for i, n in enumerate(NAMES)],
                       check_in=True)
    organizer.draw(seed=1)
    organizer.start_round()
    service = HubService(broker.client_settings(), db, Topics(VENUE, EVENT))
    service.start()
    assert service.wait_online(10)
    config = UnitConfig(
        unit=UnitSettings(table=1),
        link=LinkSettings(host=broker.host, port=broker.port, venue=VENUE, event=EVENT),
    )
    unit = build(config, tmp_path / "table-01.sqlite3")
    loop = threading.Thread(target=unit.run, name="table-1", daemon=True)
    loop.start()
    try:
        wait_until(lambda: len(unit.view.names) == 4, what="the hub's seating at the table")
        yield Hall(unit, organizer, EventStore(db), [])
    finally:
        unit.put(Quit())
        loop.join(5)
        service.stop()


def test_a_whole_game_ends_and_is_scored_at_the_table_without_the_judge(
    hall: Hall, wait_until: Any
) -> None:
    unit = hall.unit
    assert unit.view.clock.phase is Phase.READY
    for _ in range(6):
        hall.press_pass(wait_until)
    wait_until(lambda: unit.view.clock.move == 6, what="the first six moves")
    mover = unit.view.clock.active
    # the bank runs out: the table starts its last lap itself (asked once more)
    hall.keys("-")
    wait_until(lambda: unit.view.ask is TableAsk.LAST_LAP, what="the question on the display")
    hall.keys("enter")
    wait_until(lambda: unit.view.clock.last_lap_left == 5, what="the last lap at the table")
    hall.press_pass(wait_until)
    # before the lap is over a player shows an empty rack: "*" asks, ENTER ends the game
    hall.keys("*")
    wait_until(lambda: unit.view.ask is TableAsk.END_GAME, what="the empty-rack question")
    hall.keys("enter")
    wait_until(lambda: unit.view.entry is not None, what="result entry after the game")
    assert unit.view.clock.ended_by is GameEndReason.WENT_OUT
    # one step per seat, as a newcomer types it; C holds a joker
    hall.keys("0 enter 23 enter 12+ enter 45 enter")
    wait_until(
        lambda: unit.view.entry is not None and unit.view.entry.step is Step.CONFIRM,
        what="the score screen",
    )
    hall.keys("enter enter enter enter")
    # the hub accepts it and seats the round's next game: the table is ready for it
    wait_until(
        lambda: (unit.view.clock.game, unit.view.clock.phase) == (2, Phase.READY),
        what="the hub's acceptance and the next game",
    )
    assert not any(
        isinstance(i, ButtonEdge) and i.button is not Button.PASS for i in hall.inputs
    ), "no judge key, no call button"
    # the hub stored the table's own ending and last lap, and scored the result itself
    [lap] = [e.event() for e in hall.store.events(table=1, kind="last_lap_started")]
    assert isinstance(lap, LastLapStarted) and lap.source is LastLapSource.TABLE
    [over] = [e.event() for e in hall.store.events(table=1, kind="game_over")]
    assert isinstance(over, GameOver) and over.reason is GameEndReason.WENT_OUT
    assert over.seat == next_after(mover)
    comp = hall.organizer.competition
    stage = comp.event.stages_played[-1]
    assert [(t.table, t.games_done) for t in comp.tables()] == [(1, 1)]
    [version] = comp.history(stage, 1, 1)
    assert [(s.seat, s.rack_value) for s in version.score.scores] == [
        (Seat.A, 0),
        (Seat.B, 23),
        (Seat.C, 12 + 50),  # school scoring: a joker left counts 50
        (Seat.D, 45),
    ]
    assert version.score.winners == (Seat.A,)
    [sent] = [e.event() for e in hall.store.events(table=1, kind="result_submitted")]
    assert isinstance(sent, ResultSubmitted) and not sent.judge_override  # every seat confirmed


def next_after(seat: Seat | None) -> Seat:
    assert seat is not None
    return Seat("ABCD"[(seat.position + 1) % 4])


def test_the_starting_seat_is_chosen_by_the_organizer_or_the_table_and_stored(
    hall: Hall, wait_until: Any
) -> None:
    unit = hall.unit
    assert unit.view.clock.upcoming_starter is Seat.A  # game 1: rotation
    # the organizer's choice (an app, the youngest player) reaches the table before the game
    hall.organizer.choose_starter(1, Seat.D, why="the youngest player")
    wait_until(lambda: unit.view.clock.upcoming_starter is Seat.D, what="the organizer's seat")
    assert unit.view.clock.starter_from is StarterSource.HUB
    # the table draws tiles after all: the highest tile is C's (key 3), then the first press
    hall.keys("3")
    wait_until(lambda: unit.view.clock.upcoming_starter is Seat.C, what="the table's seat")
    hall.press_pass(wait_until)
    assert unit.view.clock.active is Seat.C
    wait_until(
        lambda: hall.store.events(table=1, kind="game_started"), what="game_started at the hub"
    )
    [started] = [e.event() for e in hall.store.events(table=1, kind="game_started")]
    assert isinstance(started, GameStarted)
    assert (started.starter, started.starter_from) == (Seat.C, StarterSource.TABLE)


def test_the_hall_check_at_the_tables_and_the_board_before_the_first_draw(
    tmp_path: Path, mosquitto: Callable[..., MosquittoBroker], wait_until: Any
) -> None:
    broker = mosquitto()
    db = tmp_path / "hub.sqlite3"
    cli = Cli(db)
    cli.ok("event", "create", "--preset", "school", "--name", "Turniej")
    for name in (*NAMES, "Ewa Ryś", "Franek Lis", "Gosia Wąs"):  # 7: tables of 4 and 3
        cli.ok("players", "add", name, "--check-in")
    service = HubService(broker.client_settings(), db, Topics(VENUE, EVENT))
    service.start()
    assert service.wait_online(10)
    units: list[TableUnit] = []
    loops: list[threading.Thread] = []
    try:
        for number in (1, 2):
            config = UnitConfig(
                unit=UnitSettings(table=number),
                link=LinkSettings(host=broker.host, port=broker.port, venue=VENUE, event=EVENT),
            )
            unit = build(config, tmp_path / f"table-{number:02d}.sqlite3")
            loops.append(threading.Thread(target=unit.run, daemon=True))
            loops[-1].start()
            units.append(unit)
        one, two = units
        # no seating yet: every unit shows its table number and the hall check
        wait_until(lambda: one.view.check is not None and two.view.check is not None)
        assert two.view.check is not None and two.view.check.table == 2
        # a person at table 1 goes through it; the buzzer stays silent
        now = time.monotonic
        for button in (Button.PASS, Button.JUDGE, Button.PASS, Button.JUDGE):
            one.put(ButtonEdge(button, True, now()))
            one.put(ButtonEdge(button, False, now()))
        for key in ("1", "enter"):
            one.put(KeyPress(key, now()))
        wait_until(lambda: one.view.check is not None and one.view.check.step is CheckStep.DONE)
        store = EventStore(db)
        wait_until(lambda: store.events(kind="hall_checked"), what="the check at the hub")
        [checked] = [e.event() for e in store.events(table=1, kind="hall_checked")]
        assert isinstance(checked, HallChecked) and checked.faults == (CheckStep.BUZZER,)
        board = cli.ok("event", "hall", "--broker", f"{broker.host}:{broker.port}",
                       "--venue", VENUE, "--event", EVENT)
        assert re.search(r"^\s*1\s+yes\s+FAULT: buzzer", board, re.M), board
        assert re.search(r"^\s*2\s+yes\s+not checked", board, re.M), board
        assert "0 of 2 tables checked and ready" in board
        assert (
            "Hall:     0 of 2 tables checked and ready; not checked: table 2; fault at table 1 "
            "(buzzer)" in cli.ok("event", "show")
        )
        # the buzzer is replaced and checked again from the judge menu: ready
        one.put(ButtonEdge(Button.PASS, True, now()))  # leaves the results screen
        one.put(ButtonEdge(Button.PASS, False, now()))
        wait_until(lambda: one.view.check is None, what="the table's own screen again")
        one.put(ButtonEdge(Button.JUDGE, True, now()))  # held: the judge menu
        wait_until(lambda: one.view.menu is not None, what="the judge menu")
        one.put(ButtonEdge(Button.JUDGE, False, now()))
        one.put(MenuChoice(JudgeAction.HALL_CHECK, now()))
        wait_until(lambda: one.view.check is not None and one.view.check.step is CheckStep.PASS)
        for button in (Button.PASS, Button.JUDGE, Button.PASS, Button.PASS):
            one.put(ButtonEdge(button, True, now()))
            one.put(ButtonEdge(button, False, now()))
        for key in ("1", "enter"):
            one.put(KeyPress(key, now()))
        wait_until(lambda: len(store.events(kind="hall_checked")) == 2, what="the second check")
        board = cli.ok("event", "hall")
        assert re.search(r"^\s*1\s+\?\s+ready", board, re.M), board
        # the organizer draws anyway: the first draw names the table not checked
        out = cli.ok("round", "draw", "--seed", "1")
        assert "Hall check: not checked: table 2 (rummikub event hall)" in out
        wait_until(lambda: two.view.check is None and len(two.view.names) == 3,
                   what="the seating in place of the check")
    finally:
        for unit in units:
            unit.put(Quit())
        for loop in loops:
            loop.join(5)
        service.stop()


def test_a_game_the_table_has_not_ended_is_entered_at_the_hub_only_on_purpose_and_the_table_is_told(
    hall: Hall, wait_until: Any
) -> None:
    unit = hall.unit
    cli = Cli(hall.store.path)
    hall.press_pass(wait_until)  # game 1 begins at the table
    hall.press_pass(wait_until)
    racks = "A=0 B=23 C=12 D=45"
    refused = cli.fails("result", "enter", "--table", "1", "--game", "2", "--racks", racks)
    assert "table 1 is playing game 1 of round 1: game 2 has not been played there yet" in refused
    assert unit.view.clock.phase is Phase.RUNNING and not unit.view.message
    # the judge enters game 2 on purpose: the table is told at once, and plays on
    cli.ok("result", "enter", "--table", "1", "--game", "2", "--racks", racks,
           "--force", "--why", "played on the paper score sheet")
    wait_until(
        lambda: unit.view.message == "The judge entered the result of game 2 at the hub",
        what="the table told that game 2 is recorded",
    )
    assert unit.view.clock.phase is Phase.RUNNING and unit.view.clock.game == 1
    # the game in play needs no confirmation: entered at the hub, it ends at the table
    cli.ok("result", "enter", "--table", "1", "--game", "1", "--racks", racks)
    wait_until(lambda: unit.view.clock.phase is Phase.GAME_OVER, what="game 1 over at the table")
    assert unit.view.message == (
        "The judge entered the result of game 1 at the hub: this game is over"
    )
    assert unit.view.entry is None and unit.view.games.done  # nothing to type, no game left
    menu_opened = time.monotonic()
    hall.put(ButtonEdge(Button.JUDGE, True, menu_opened))
    wait_until(lambda: unit.view.menu is not None, what="the judge menu")
    hall.put(ButtonEdge(Button.JUDGE, False, time.monotonic()))
    menu = unit.view.menu
    assert menu is not None and JudgeAction.START_GAME not in menu.actions
    assert JudgeAction.UNDO_PASS not in menu.actions
    assert not hall.store.events(table=1, kind="result_submitted")


def test_a_whole_game_played_on_the_simulator_by_keys_is_accepted_at_the_hub(
    tmp_path: Path, mosquitto: Callable[..., MosquittoBroker], wait_until: Any
) -> None:
    """``tablekit-sim`` joined to the hub in one command, the game played on its keys."""
    broker = mosquitto()
    db = tmp_path / "hub.sqlite3"
    organizer = Organizer(EventStore(db), by="organizer")
    organizer.create_event("Turniej", "school", language="en")
    organizer.register([Player(organizer.next_player_id(i), n) for i, n in enumerate(NAMES)],
                       check_in=True)
    organizer.draw(seed=1)
    service = HubService(broker.client_settings(), db, Topics(VENUE, EVENT))
    service.start()
    assert service.wait_online(10)
    sim = HeadlessSim(tmp_path, "--hub", f"{broker.host}:{broker.port}", "--table", "1",
                      "--venue", VENUE)
    try:
        sim.wait_for("READY  seat A starts", 60)  # seated by the hub: past the hall check
        seated = organizer.competition.assignments()[0].names()
        for seat in "ABCD":  # the first press starts the game: the names the hub sent
            sim.keys(" ", after=LOCKOUT_PAUSE)
            sim.wait_for(f"PLAYING  seat {seat} {seated[Seat(seat)]}", 30)
        sim.keys("*")
        sim.wait_for("asks: Empty rack: end the game?", 30)
        sim.keys("\n")
        sim.wait_for("ENTERING RESULT", 30)
        sim.keys("0\n23\n12\n45\n")
        sim.wait_for("CONFIRM RESULT", 30)
        sim.keys("\n\n\n\n")
        sim.wait_for("RESULT IN", 60)
        comp = Organizer(EventStore(db)).competition
        [version] = comp.history(comp.event.stages_played[-1], 1, 1)
        assert version.record.unit == "table-01" and not version.record.why  # the table's own
    finally:
        sim.quit()
        service.stop()
