"""The hub is not a single point of loss: its card dies mid-round, a spare hub starts
from the backup copy, the units send it what the copy lacks.

Real Mosquitto, the hub as a process (``rummikub-hub serve --backup``), two table units
playing round 1 of a school event (moves and results). The hub is killed (-9) after it
acknowledged events its backup copy does not hold; its store is deleted; a fresh hub
starts from the copy on the stick. At the end: every seq of every unit stored once (0
lost, 0 duplicated) and the standings equal those of an uninterrupted reference run of
the same events.

Units keep what the hub acknowledged until the event is closed: the running hub says
``closed`` in its status once the organizer closes the last round (and again after a
restart), and a unit then drops its acknowledged events.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import msgspec
import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from hub.backup import status_path
from hub.broker import MosquittoBroker
from hub.competition import new_event
from hub.conductor import Conductor
from hub.organizer import Organizer
from hub.store import EventStore
from hub.tournament import Player
from hub.tournament.presets import school
from tablekit.config import LinkSettings
from tablekit.core.clock_events import MovePassed
from tablekit.core.messages import PROTOCOL_VERSION, WINDOW, EventEnvelope, HubStatus
from tablekit.core.result import ResultSubmitted
from tablekit.core.scoring import GameEnding, GameReport, RackReport
from tablekit.core.seats import seats_for
from tablekit.core.topics import Topics
from tablekit.journal import Journal
from tablekit.link import TableLink

pytestmark = [pytest.mark.mqtt, pytest.mark.slow]

ROOT = Path(__file__).resolve().parent.parent
TOPICS = Topics("hall", "standby")
SEATS = {1: 4, 2: 3}
"""School event, 7 players, draw seed 3: table 1 seats 4, table 2 seats 3."""
MOVES = 40


def create_event(db: Path) -> None:
    org = Organizer(EventStore(db), by="Ala")
    org.create_event("Konkurs", "school")
    org.register([Player(org.next_player_id(i), f"Gracz {i}") for i in range(7)], check_in=True)
    org.draw(seed=3)
    org.store.close()


def moves(table: int, game: int, first: int, last: int) -> list[msgspec.Struct]:
    seats = seats_for(SEATS[table])
    return [
        MovePassed(game=game, move=m, seat=seats[(m - 1) % len(seats)], used=1.0 + m % 7)
        for m in range(first, last + 1)
    ]


def result(table: int, game: int) -> ResultSubmitted:
    racks = tuple(
        RackReport(seat, tiles=0 if i == 0 else 3 * i + table + game)
        for i, seat in enumerate(seats_for(SEATS[table]))
    )
    report = GameReport(game=game, ending=GameEnding.WENT_OUT, racks=racks)
    return ResultSubmitted(game=game, move=1, report=report, round=1)


class Unit:
    def __init__(self, tmp: Path, broker: MosquittoBroker, table: int) -> None:
        self.table = table
        self.journal = Journal(tmp / f"unit-{table}.db", f"table-{table:02d}")
        settings = LinkSettings(
            host=broker.host, port=broker.port, venue=TOPICS.venue, event=TOPICS.event
        )
        self.link = TableLink(
            settings, self.journal, table, f"table-{table:02d}", lambda _: None,
            retransmit_after=2.0,
        )
        self.link.start()

    def play(self, events: Sequence[msgspec.Struct]) -> None:
        self.journal.record(events)
        self.link.notify()

    def all_acked(self) -> bool:
        return self.journal.acked_upto == self.journal.last_seq

    def close(self) -> None:
        self.link.stop()
        self.journal.close()


class Hub:
    def __init__(self, tmp: Path, broker: MosquittoBroker, db: Path, backup: Path) -> None:
        self.log = tmp / f"hub-{time.monotonic_ns()}.log"
        with open(self.log, "w") as out:
            self.proc = subprocess.Popen(
                [
                    sys.executable, "-m", "hub.serve", "serve",
                    "--broker", f"{broker.host}:{broker.port}", "--db", str(db),
                    "--venue", TOPICS.venue, "--event", TOPICS.event,
                    "--backup", str(backup), "--backup-every", "0.3",
                ],
                cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
                env={**os.environ, "RUMMIKUB_BACKUP": ""},
            )


@pytest.fixture
def hall(
    tmp_path: Path, mosquitto: Callable[..., MosquittoBroker]
) -> Iterator[tuple[MosquittoBroker, list[Any]]]:
    broker = mosquitto()
    started: list[Any] = []
    yield broker, started
    for thing in started:
        if isinstance(thing, Unit):
            thing.close()
        elif thing.proc.poll() is None:
            thing.proc.kill()
            thing.proc.wait()


def stored(db: Path, unit: str) -> list[int]:
    with sqlite3.connect(db, timeout=30) as conn:
        return [r[0] for r in conn.execute(
            "SELECT seq FROM events WHERE source = ? ORDER BY seq", (unit,)
        )]


@pytest.mark.parametrize(
    ("long_game", "play_on"),
    [(MOVES, True), (MOVES + 2 * WINDOW, False)],
    ids=[
        "the tables play on (their new events show the spare its gap)",
        "quiet tables, the copy more than a window behind (the units show it)",
    ],
)
def test_a_spare_hub_from_the_backup_copy_loses_nothing(  # type: ignore[no-untyped-def]
    tmp_path: Path, hall, wait_until, long_game: int, play_on: bool
) -> None:
    broker, started = hall
    db, stick = tmp_path / "hub" / "hub.sqlite3", tmp_path / "stick"
    db.parent.mkdir()
    stick.mkdir()
    backup = stick / "hub.sqlite3"
    create_event(db)
    reference_db = tmp_path / "reference.sqlite3"
    shutil.copy(db, reference_db)  # the same event, for the uninterrupted run

    hub = Hub(tmp_path, broker, db, backup)
    started.append(hub)
    units = {t: Unit(tmp_path, broker, t) for t in SEATS}
    started.extend(units.values())

    # Game 1 at both tables, and half of game 2: stored, acked, and in the backup copy.
    for t, unit in units.items():
        unit.play([*moves(t, 1, 1, MOVES), result(t, 1), *moves(t, 2, 1, MOVES // 2)])
    wait_until(lambda: all(u.all_acked() for u in units.values()), 20, "the first half acked")
    marks = {t: u.journal.acked_upto for t, u in units.items()}
    wait_until(
        lambda: backup.exists() and all(
            stored(backup, f"table-{t:02d}")[-1:] == [marks[t]] for t in units
        ),
        20,
        "the backup copy holding the first half",
    )
    # The copy the spare will get is this one: the newest events are not in it.
    spare_copy = tmp_path / "copy-on-the-stick.sqlite3"
    shutil.copy(backup, spare_copy)

    # More of game 2, acknowledged by the hub (so no unit will send it unasked) ...
    for t, unit in units.items():
        unit.play(moves(t, 2, MOVES // 2 + 1, long_game - 5))
    wait_until(lambda: all(u.all_acked() for u in units.values()), 20, "the second part acked")
    acked_before = {t: u.journal.acked_upto for t, u in units.items()}
    assert all(acked_before[t] > marks[t] for t in units)
    # ... then the hub's card dies: the process killed, its store gone.
    hub.proc.send_signal(signal.SIGKILL)
    hub.proc.wait()
    for leftover in db.parent.iterdir():
        leftover.unlink()
    if play_on:  # the tables play on while there is no hub
        for t, unit in units.items():
            unit.play(moves(t, 2, long_game - 4, long_game - 2))

    # The spare hub: the copy from the stick becomes its store (docs/deployment.md).
    shutil.copy(spare_copy, db)
    assert all(stored(db, f"table-{t:02d}")[-1] < acked_before[t] for t in units)
    spare = Hub(tmp_path, broker, db, backup)
    started.append(spare)
    if not play_on:  # nothing new from the tables: the units alone fill the spare in
        wait_until(
            lambda: all(stored(db, f"table-{t:02d}")[-1:] == [acked_before[t]] for t in units),
            30,
            "the spare holding what the old hub had acknowledged",
        )
        for t, unit in units.items():
            unit.play(moves(t, 2, long_game - 4, long_game - 2))
    for t, unit in units.items():
        unit.play([*moves(t, 2, long_game - 1, long_game), result(t, 2)])
    wait_until(
        lambda: all(
            u.all_acked() and stored(db, f"table-{t:02d}")[-1:] == [u.journal.last_seq]
            for t, u in units.items()
        ),
        30,
        "every event at the spare hub",
    )
    spare.proc.send_signal(signal.SIGTERM)
    assert spare.proc.wait(15) == 0

    # 0 lost, 0 duplicated.
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        for t, unit in units.items():
            source = f"table-{t:02d}"
            assert stored(db, source) == list(range(1, unit.journal.last_seq + 1)), source
            per_move = Counter(conn.execute(
                "SELECT game, move FROM moves WHERE source = ?", (source,)
            ).fetchall())
            assert sorted(per_move) == [
                (g, m) for g, n in ((1, MOVES), (2, long_game)) for m in range(1, n + 1)
            ]
            assert set(per_move.values()) == {1}, source
    # The spare hub's records equal an uninterrupted run of the same events.
    reference = Organizer(EventStore(reference_db), by="Ala")
    judge = Conductor(reference, TOPICS).judge
    for t, unit in units.items():
        for entry in unit.journal.pending(after=0):  # every entry: acked ones are kept
            envelope = msgspec.json.decode(
                json.dumps({
                    "v": PROTOCOL_VERSION, "unit": f"table-{t:02d}", "table": t,
                    "seq": entry.seq, "ts": entry.ts, "event": json.loads(entry.event),
                }),
                type=EventEnvelope,
            )
            reference.store.ingest([envelope], derive=judge)
    after_spare = Organizer(EventStore(db), by="Ala")
    want = reference.competition.event.standings("round-1").rows
    got = after_spare.competition.event.standings("round-1").rows
    assert got == want and {r.games for r in got} == {2}
    assert not after_spare.competition.event.missing_results()
    status = json.loads(status_path(db).read_text())
    assert status["error"] == "" and status["stopped"], status


def test_a_running_hub_closes_the_event_and_the_units_drop_acknowledged_events(  # type: ignore[no-untyped-def]
    tmp_path: Path, hall, wait_until
) -> None:
    broker, started = hall
    db = tmp_path / "hub.sqlite3"
    org = Organizer(EventStore(db), by="Ala")
    created = new_event("Konkurs", "school", at=time.time(), by="Ala")
    org.record(msgspec.structs.replace(created, format=school(rounds=1, games=2)))
    org.register([Player(org.next_player_id(i), f"Gracz {i}") for i in range(4)], check_in=True)
    org.draw(seed=3)  # one table of four (SEATS[1])
    statuses: list[HubStatus] = []
    watcher = mqtt.Client(CallbackAPIVersion.VERSION2)
    watcher.on_message = lambda _c, _u, m: statuses.append(
        msgspec.json.decode(m.payload, type=HubStatus)
    )
    watcher.connect(broker.host, broker.port)
    watcher.subscribe(TOPICS.hub_status, 1)
    watcher.loop_start()
    try:
        started.append(Hub(tmp_path, broker, db, tmp_path / "copy.sqlite3"))
        unit = Unit(tmp_path, broker, 1)
        started.append(unit)
        unit.play([*moves(1, 1, 1, 10), result(1, 1), *moves(1, 2, 1, 10), result(1, 2)])
        wait_until(unit.all_acked, 20, "every event acked")
        wait_until(lambda: not org.competition.event.missing_results(), 20, "both results in")
        # The event is open: the unit keeps what the hub acked, for a hub that loses it.
        assert unit.journal.kept_count() == 22 and unit.journal.pending_count() == 0
        assert statuses[-1].online and not statuses[-1].closed
        org.close_round()  # the event's only round: the event is over
        wait_until(lambda: statuses[-1].closed, 15, "the hub's status saying closed")
        assert statuses[-1].online
        wait_until(lambda: unit.journal.kept_count() == 0, 15, "the acked entries dropped")
        # Anything a table still sends is dropped as soon as the hub acks it.
        unit.play(moves(1, 3, 1, 3))
        wait_until(unit.all_acked, 15, "acked after the close")
        wait_until(lambda: unit.journal.kept_count() == 0, 10, "dropped on the ack")
        # A hub started again on the closed event says so at once.
        started[0].proc.send_signal(signal.SIGTERM)
        assert started[0].proc.wait(15) == 0
        wait_until(lambda: not statuses[-1].online, 15, "the hub offline")
        assert statuses[-1].closed
        started.append(Hub(tmp_path, broker, db, tmp_path / "copy.sqlite3"))
        wait_until(lambda: statuses[-1].online, 15, "the hub online again")
        assert statuses[-1].closed
    finally:
        watcher.loop_stop()
        watcher.disconnect()
        org.store.close()
