"""A judge's result entered through the web console, beside the same entry through the
organizer's command line, on the same event in the same run.

A school event of ``--players`` (default 240) with its first round drawn and started and
every table's first game already in; then ``--games`` results of game 2 entered one at a
time, alternately through the judges' result form (a signed-in Starlette test client:
the form page, the post, the page that says what was stored) and through
``rummikub result enter --racks`` run in-process (what a judge at the hub's terminal
does). Both store through the same commands on the same file; the figures are each
entry's wall time, p50/p99, and their ratio. While the web entries run, a second client
asks for the standings page over and over: its slowest answer says how long a judge's
action holds the pages back (the console reads and writes the event one at a time).
Prints the figures; asserts nothing.

    .venv/bin/python bench/bench_web_judge.py [--players 240] [--games 20]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import re
import tempfile
import threading
import time
from pathlib import Path

from measure import percentiles
from starlette.testclient import TestClient

from hub import cli
from hub.organizer import Organizer
from hub.store import EventStore
from hub.tournament import Player
from hub.web.accounts import WebRole, accounts_text
from hub.web.app import make_app
from hub.web.live import LiveTables
from hub.web.pages import Console, EventReader
from tablekit.core.racks import format_racks
from tablekit.core.scoring import RackReport
from tablekit.core.seats import seats_for
from tablekit.core.topics import Topics

PASSWORD = "bench-judge-password"


def make_event(db: Path, players: int) -> int:
    """A school event of ``players``, round 1 started, every table's game 1 in; its tables."""
    org = Organizer(EventStore(db), by="bench")
    org.create_event("Bench", "school")
    org.register([Player(f"P{i:03d}", f"Gracz Numer{i:03d}", "SP 1")
                  for i in range(1, players + 1)], check_in=True)
    org.draw(seed=1)
    org.start_round()
    tables = org.competition.tables()
    org.store.close()
    for progress in tables:
        run_cli(db, "result", "enter", "--table", str(progress.table), "--game", "1",
                "--racks", racks(len(progress.players), progress.table))
    return len(tables)


def racks(seats: int, salt: int) -> str:
    return format_racks([
        RackReport(seat, 0 if i == 0 else 5 + (salt * 7 + i * 11) % 60)
        for i, seat in enumerate(seats_for(seats))
    ])


def run_cli(db: Path, *argv: str) -> None:
    out = io.StringIO()
    with contextlib.redirect_stderr(io.StringIO()):
        code = cli.main(["--db", str(db), "--by", "sędzia", "--lang", "pl", *argv], out=out)
    if code != 0:
        raise SystemExit(f"rummikub {' '.join(argv)}: exit {code}")


def sign_in(client: TestClient) -> None:
    page = client.get("/login").text
    token = re.search(r'name="csrf" value="([^"]+)"', page)
    assert token is not None
    client.post("/login", data={"csrf": token.group(1), "name": "judge", "password": PASSWORD,
                                "next": "/judge"})


def web_entry(client: TestClient, table: int, seats: int) -> None:
    page = client.get("/judge/result", params={"table": table, "game": 2}).text
    token = re.search(r'name="csrf" value="([^"]+)"', page)
    assert token is not None
    data = {"csrf": token.group(1), "table": str(table), "game": "2"}
    for i, seat in enumerate(seats_for(seats)):
        data[f"{seat}-tiles"] = "0" if i == 0 else str(5 + (table * 7 + i * 11) % 60)
    answer = client.post("/judge/result", data=data)
    if "Wynik zapisany" not in answer.text:
        raise SystemExit(f"table {table}: the web console did not store the result")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=240)
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "event.sqlite3"
        start = time.perf_counter()
        tables = make_event(db, args.players)
        print(f"event: {args.players} players, {tables} tables, game 1 in "
              f"({time.perf_counter() - start:.1f} s to make)")
        accounts = Path(tmp) / "web-accounts.toml"
        accounts.write_text(accounts_text([("judge", WebRole.JUDGE, PASSWORD)]))
        reader = EventReader(db)
        console = Console(reader, LiveTables(None, Topics("bench", "judge"), reader.version))
        console.gate.accounts = accounts
        seats = {t.table: len(t.players) for t in Organizer(EventStore(db)).competition.tables()}
        web, terminal, standings = [], [], []
        with TestClient(make_app(console)) as client, TestClient(make_app(console)) as phone:
            sign_in(client)
            phone.get("/standings")
            done = threading.Event()

            def read_standings() -> None:
                while not done.is_set():
                    begin = time.perf_counter()
                    phone.get("/standings", headers={"cache-control": "no-cache"})
                    standings.append(time.perf_counter() - begin)

            reading = threading.Thread(target=read_standings)
            reading.start()
            for n in range(min(args.games, tables)):
                table = n + 1
                begin = time.perf_counter()
                if n % 2 == 0:
                    web_entry(client, table, seats[table])
                    web.append(time.perf_counter() - begin)
                else:
                    run_cli(db, "result", "enter", "--table", str(table), "--game", "2",
                            "--racks", racks(seats[table], table))
                    terminal.append(time.perf_counter() - begin)
            done.set()
            reading.join()
        reader.close()
    web50, web99 = percentiles(web)
    cli50, cli99 = percentiles(terminal)
    read50, read99 = percentiles(standings)
    print(f"result entered on the web (form, post, stored page): p50 {web50 * 1000:.0f} ms, "
          f"p99 {web99 * 1000:.0f} ms ({len(web)} results)")
    print(f"rummikub result enter (in-process, same file):      p50 {cli50 * 1000:.0f} ms, "
          f"p99 {cli99 * 1000:.0f} ms ({len(terminal)} results)")
    print(f"web / command line: p50 x{web50 / cli50:.2f}, p99 x{web99 / cli99:.2f}")
    print(f"standings page meanwhile: p50 {read50 * 1000:.0f} ms, p99 {read99 * 1000:.0f} ms, "
          f"slowest {max(standings) * 1000:.0f} ms ({len(standings)} answers)")


if __name__ == "__main__":
    main()
