"""Round turnaround from the organizer's seat: the last result of a round in -> every
table unit shows its next seat, and how many organizer actions it took.

A school event of ``--players`` (default 48: 12 tables) on loopback Mosquitto, the hub
service (``hub.service.HubService``, as ``rummikub-hub serve`` runs it) and one real table
unit per table (``tablekit.app.build``: the unit's loop, its journal and its MQTT link, no
hardware), all in this process. Round 1 is drawn and started and reaches every unit; its
results but one are entered, then the last one — the clock starts — and the organizer
closes the round, draws the next and starts it: three actions, each a button of the web
console's round page (``/organizer/round``: close, draw, start) posted as the signed-in
organizer's browser posts it, to the console's application on the same store (answered
in-process by Starlette's test client). The clock stops when every unit's display shows
the names of its new table. Repeated ``--rounds`` times (the event has that many rounds
and one more); prints each turnaround, its p50 and p99, and beside it, from the same
run, the part no hub can shorten: the three actions themselves. Also the load average.
Asserts nothing.

    .venv/bin/python bench/bench_round_turnaround.py [--players 48] [--rounds 10]
"""

from __future__ import annotations

import argparse
import os
import re
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from measure import percentiles
from starlette.testclient import TestClient

from hub.broker import MosquittoBroker
from hub.cli.racks import ending_for, racks_arg
from hub.competition import EventCreated
from hub.organizer import Organizer
from hub.service import WATCH_INTERVAL, HubService
from hub.store import EventStore
from hub.tournament import Player
from hub.tournament.presets import school
from hub.web.accounts import WebRole, accounts_text, new_password
from hub.web.app import make_app
from hub.web.live import LiveTables
from hub.web.pages import Console, EventReader
from hub.web.sessions import Gate
from tablekit.app import build
from tablekit.config import LinkSettings, UnitConfig, UnitSettings
from tablekit.core.scoring import GameReport
from tablekit.core.seats import Seat
from tablekit.core.topics import Topics
from tablekit.unit import Quit, TableUnit

TOPICS = Topics("bench", "turnaround")
ACTIONS = ("close the round", "draw the next", "start it")


def seating(org: Organizer) -> dict[int, dict[Seat, str]]:
    """What each table's display should show: the names of the open round's seats."""
    comp = org.competition
    stage = comp.open_stage()
    assert stage is not None
    players = comp.event.players
    return {
        table.number: {Seat("ABCD"[i]): players[p].name for i, p in enumerate(table.players)}
        for table in comp.event.seating(stage.name)
    }


def every_unit_shows(units: dict[int, TableUnit], wanted: dict[int, dict[Seat, str]]) -> bool:
    return all(units[t].view.names == names for t, names in wanted.items())


def wait_for(what: Callable[[], bool], timeout: float) -> float | None:
    start = time.perf_counter()
    while not what():
        if time.perf_counter() - start > timeout:
            return None
        time.sleep(0.005)
    return time.perf_counter()


def enter(org: Organizer, table: int, game: int) -> None:
    racks = racks_arg("A=0 B=12 C=30 D=7", 4)
    org.enter_result(table, GameReport(game=game, ending=ending_for(racks, None), racks=racks))


class OrganizerDesk:
    """The web console's round page, signed in as the organizer."""

    def __init__(self, db: Path, work: Path) -> None:
        password = new_password()
        accounts = work / "web-accounts.toml"
        accounts.write_text(accounts_text([("organizer", WebRole.ORGANIZER, password)]))
        self.reader = EventReader(db)
        console = Console(self.reader, LiveTables(None, TOPICS, self.reader.version),
                          gate=Gate(accounts))
        self.client = TestClient(make_app(console))
        self.client.__enter__()
        signed = self.client.post("/login", follow_redirects=False, data={
            "csrf": token_of(self.client.get("/login").text), "name": "organizer",
            "password": password, "next": "/organizer/round",
        })
        assert signed.status_code == 303, signed.text
        self.token = token_of(self.client.get("/organizer/round").text)

    def press(self, button: str, **fields: str) -> None:
        """One of the round page's buttons: close, draw, start."""
        done = self.client.post(f"/organizer/round/{button}", follow_redirects=False,
                                data={"csrf": self.token, **fields})
        assert done.status_code == 303, f"{button}: {done.status_code}"

    def close(self) -> None:
        self.client.__exit__(None, None, None)
        self.reader.close()


def token_of(html: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found is not None, "no form"
    return found.group(1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=48)
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        db = work / "event.sqlite3"
        org = Organizer(EventStore(db), by="organizer (bench)")
        fmt = school(rounds=args.rounds + 1)
        org.record(EventCreated(at=org.clock(), by=org.by, name="Turnaround", preset="school",
                                format=fmt))
        org.register([Player(f"P{i:03d}", f"Gracz Numer{i:03d}", "SP 1")
                      for i in range(1, args.players + 1)], check_in=True)
        org.draw(seed=1)
        org.start_round()
        tables = len(org.competition.tables())
        broker = MosquittoBroker(work / "broker")
        broker.start()
        settings = broker.client_settings()
        hub = HubService(settings, db, TOPICS, tables=tables)
        hub.start()
        units: dict[int, TableUnit] = {}
        for n in range(1, tables + 1):
            config = UnitConfig(
                unit=UnitSettings(table=n),
                link=LinkSettings(host=broker.host, port=broker.port, venue=TOPICS.venue,
                                  event=TOPICS.event, mqtt_version=settings.mqtt_version),
            )
            units[n] = build(config, work / f"table-{n:02d}.sqlite3")
            threading.Thread(target=units[n].run, daemon=True).start()
        desk = OrganizerDesk(db, work)
        first = wait_for(lambda: every_unit_shows(units, seating(org)), 60)
        assert first is not None, "round 1 did not reach every unit"
        turnarounds: list[float] = []
        actions_took: list[float] = []
        after_start: list[float] = []
        for _ in range(args.rounds):
            missing = list(org.competition.event.missing_results())
            for result in missing[:-1]:
                enter(org, result.table, result.game)
            start = time.perf_counter()
            enter(org, missing[-1].table, missing[-1].game)  # the last result in
            desk.press("close")
            desk.press("draw", seed=str(len(turnarounds) + 2))
            desk.press("start")
            acted = time.perf_counter()
            wanted = seating(org)
            shown = wait_for(lambda: every_unit_shows(units, wanted), 60)  # noqa: B023
            assert shown is not None, "the next round did not reach every unit"
            turnarounds.append(shown - start)
            actions_took.append(acted - start)
            after_start.append(shown - acted)
        for unit in units.values():
            unit.put(Quit())
        desk.close()
        hub.stop()
        broker.stop()
        org.store.close()
    load_after = os.getloadavg()
    p50, p99 = percentiles(turnarounds)
    print(f"{args.players} players, {tables} tables (real units, real Mosquitto, the hub "
          f"service), {args.rounds} rounds")
    print(f"organizer actions per round: {len(ACTIONS)} ({', '.join(ACTIONS)}): the web "
          f"console's round page's buttons")
    each = ", ".join(f"{t:.2f} s" for t in turnarounds)
    print(f"last result in -> every unit shows its next seat: {each}")
    print(f"  p50 {p50:.2f} s, p99 {p99:.2f} s, max {max(turnarounds):.2f} s")
    a50, a99 = percentiles(actions_took)
    print(f"baseline, the three actions themselves: p50 {a50:.2f} s, p99 {a99:.2f} s; "
          f"start -> every unit: {', '.join(f'{t:.2f} s' for t in after_start)}")
    print(f"the hub looks at the store's data_version every {WATCH_INTERVAL:.2f} s "
          f"(hub.service.WATCH_INTERVAL); the units' link delivers at once")
    print(f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f} "
          f"({os.cpu_count()} cores)")

if __name__ == "__main__":
    main()
