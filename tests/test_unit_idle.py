"""A unit that was off while its table left the event (a smaller next round) comes back
idle: the hub's retained assignment says "no game at this table", so the unit, restarted
from its journal with the old round's seating, clears it. Real Mosquitto, the real hub
service, the real unit loop with its journal and link (``tablekit.app.build``).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from hub.broker import MosquittoBroker
from hub.organizer import Organizer
from hub.service import HubService
from hub.store import EventStore
from hub.tournament import Player
from tablekit.app import build
from tablekit.config import LinkSettings, UnitConfig, UnitSettings
from tablekit.controls import Button, ButtonEdge
from tablekit.core.clock import Phase
from tablekit.core.codec import DecodeError, decode
from tablekit.core.messages import Assignment
from tablekit.core.scoring import GameEnding, GameReport, RackReport
from tablekit.core.seats import seats_for
from tablekit.core.topics import Topics
from tablekit.unit import Quit, TableUnit

pytestmark = pytest.mark.mqtt

VENUE, EVENT = "hall", "idle"
TOPICS = Topics(VENUE, EVENT)


def report(game: int, seats: int, tiles: int) -> GameReport:
    racks = tuple(
        RackReport(s, tiles=0 if i == 0 else tiles + i) for i, s in enumerate(seats_for(seats))
    )
    return GameReport(game=game, ending=GameEnding.WENT_OUT, racks=racks)


def start_unit(config: UnitConfig, journal: Path) -> tuple[TableUnit, threading.Thread]:
    unit = build(config, journal)
    loop = threading.Thread(target=unit.run, name="table-3", daemon=True)
    loop.start()
    return unit, loop


def stop_unit(unit: TableUnit, loop: threading.Thread) -> None:
    unit.put(Quit())
    loop.join(10)
    assert not loop.is_alive()


def test_a_unit_off_during_a_stage_change_comes_back_idle(
    tmp_path: Path, mosquitto: Callable[..., MosquittoBroker], wait_until: Any
) -> None:
    broker = mosquitto()
    db = tmp_path / "hub.sqlite3"
    organizer = Organizer(EventStore(db), by="organizer")
    organizer.create_event("Konkurs", "school")
    organizer.register(
        [Player(organizer.next_player_id(i), f"Gracz {i}") for i in range(11)], check_in=True
    )
    organizer.draw(seed=3)  # round 1: tables of 4, 4 and 3
    organizer.start_round()
    service = HubService(broker.client_settings(), db, TOPICS)
    service.start()
    assert service.wait_online(10)
    retained: dict[int, bytes] = {}
    probe = mqtt.Client(CallbackAPIVersion.VERSION2)
    probe.on_message = lambda c, u, m: retained.__setitem__(int(m.topic.split("/")[-2]), m.payload)
    probe.connect(broker.host, broker.port)
    probe.subscribe(f"{TOPICS.base}/hub/table/+/assign", 1)
    probe.loop_start()
    config = UnitConfig(
        unit=UnitSettings(table=3),
        link=LinkSettings(host=broker.host, port=broker.port, venue=VENUE, event=EVENT),
    )
    journal = tmp_path / "table-03.sqlite3"
    try:
        unit, loop = start_unit(config, journal)
        wait_until(lambda: len(unit.view.names) == 3, 15, "round 1's seating at table 3")
        seated = dict(unit.view.names)
        now = time.monotonic()  # the table starts its game: the journal holds its seating
        unit.put(ButtonEdge(Button.PASS, True, now))
        unit.put(ButtonEdge(Button.PASS, False, now + 0.05))
        wait_until(lambda: unit.view.clock.phase is Phase.RUNNING, 10, "game 1 running")
        stop_unit(unit, loop)  # the unit is switched off ...

        # ... while round 1 ends and round 2 needs only two tables
        for player in ("P001", "P002", "P003"):
            organizer.withdraw(player, "ill")
        for table in organizer.competition.tables():
            for game in (1, 2):  # from the score sheets: table 3's unit is off
                organizer.enter_result(
                    table.table, report(game, len(table.players), game + 2),
                    why="score sheet", not_ended=True,
                )
        organizer.close_round()
        organizer.draw(seed=4)
        organizer.start_round()
        assert {t.table for t in organizer.competition.tables()} == {1, 2}

        def idle_retained() -> bool:
            try:
                message = decode(Assignment, retained.get(3, b""))
            except DecodeError:
                return False
            return message.idle and message.round == 2

        wait_until(idle_retained, 15, "table 3's retained idle assignment")

        # Switched on again: the journal still has round 1's seating ...
        unit, loop = start_unit(config, journal)
        assert unit.seating is not None and dict(unit.seating.names) == seated
        # ... and the hub's idle assignment clears it: no game at this table.
        wait_until(lambda: unit.view.online, 15, "the unit back online")
        wait_until(lambda: unit.view.names == {}, 15, "the seating cleared")
        assert "No game at this table" in unit.view.message
        # The two tables still playing keep their seating.
        for table in (1, 2):
            assignment = decode(Assignment, retained[table])
            assert not assignment.idle and assignment.round == 2 and len(assignment.seats) == 4
        stop_unit(unit, loop)
    finally:
        probe.loop_stop()
        probe.disconnect()
        service.stop()
