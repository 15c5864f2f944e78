"""A player's own page at the end of a tournament day, beside plain baselines.

A school event of ``--players`` (default 240: 60 tables) over ``--rounds`` rounds of 2
games (default 5), every game with ``--moves`` moves (default 60) journalled by its
table's unit as the hub stores them (a game start, the passes, the result submission):
``players / 4 × rounds × 2 × (moves + 2)`` unit events in the store. Timed, ``--requests``
times each:

1. the whole page, ``GET /players/P0001`` through the web console's application
   (Starlette's test client, no network);
2. its parts: reading the player's tables' events from the store (``table_events``),
   the pure fold of their moves (``played_moves``), the page's values (``player_page``);
3. baseline: the same tables' rows read by one bare SQLite SELECT, not decoded.

Prints p50 and p99 of each, and the events the page reads; asserts nothing.

    .venv/bin/python bench/bench_web_player.py [--players 240] [--rounds 5] [--moves 60]
        [--requests 50]
"""

from __future__ import annotations

import argparse
import sqlite3
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from bench_standings import fill
from measure import percentiles
from starlette.testclient import TestClient

from hub.organizer import Organizer
from hub.store import EventStore
from hub.time_use import played_moves
from hub.web.app import make_app
from hub.web.live import LiveTables
from hub.web.pages import Console, EventReader
from hub.web.player import table_events
from hub.web.player_views import drawn_stages, player_page, player_tables
from tablekit.core.clock_events import GameStarted, MovePassed
from tablekit.core.messages import AnyUnitEvent, envelope
from tablekit.core.result import ResultSubmitted
from tablekit.core.scoring import GameEnding, GameReport, RackReport
from tablekit.core.seats import seats_for
from tablekit.core.topics import Topics

T = TypeVar("T")
PLAYER = "P0001"


def journal_moves(path: Path, moves: int) -> int:
    """Every game of the event played by its table's unit: its events stored as the hub
    stores them; the events stored."""
    store = EventStore(path)
    comp = Organizer(store).competition
    seqs: dict[int, int] = {}
    stored = 0
    for stage in comp.event.stages_played:
        round_no = comp.round_number(stage)
        begun = comp.drawn_at[stage] + 0.5
        for seated in comp.event.seating(stage):
            seats = seats_for(len(seated.players))
            table = seated.number
            events: list[AnyUnitEvent] = []
            for game in (1, 2):
                events.append(GameStarted(game=game, move=1, starter=seats[0],
                                          seats=len(seats), move_seconds=40.0))
                for move in range(1, moves + 1):
                    seat = seats[(move - 1) % len(seats)]
                    used = 3.0 + (move * 7 + table) % 35
                    events.append(MovePassed(game=game, move=move, seat=seat, used=used))
                racks = tuple(RackReport(s, 0 if i == 0 else 10 * i) for i, s in enumerate(seats))
                report = GameReport(game=game, ending=GameEnding.WENT_OUT, racks=racks)
                events.append(ResultSubmitted(game=game, move=moves, report=report,
                                              round=round_no))
            first = seqs.get(table, 0)
            unit = f"table-{table:02d}"
            store.ingest(
                envelope(unit, table, first + i + 1, begun + i * 0.01, event)
                for i, event in enumerate(events)
            )
            seqs[table] = first + len(events)
            stored += len(events)
    store.close()
    return stored


def timed(run: Callable[[], T], times: int) -> tuple[list[float], T]:
    samples, result = [], None
    for _ in range(times):
        start = time.perf_counter()
        result = run()
        samples.append((time.perf_counter() - start) * 1000)
    assert result is not None
    return samples, result


def line(label: str, samples: list[float]) -> str:
    p50, p99 = percentiles(samples)
    return f"  {label:<46} p50 {p50:7.2f} ms   p99 {p99:7.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=240)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--requests", type=int, default=50)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "event.sqlite3"
        fill(path, args.players, args.rounds, play_last=True, seed=1).store.close()
        stored = journal_moves(path, args.moves)
        reader = EventReader(path)
        comp = reader.competition()
        assert comp is not None
        tables = player_tables(comp, PLAYER)
        app = make_app(Console(reader, LiveTables(None, Topics("bench", "player"), reader.version)))
        with TestClient(app) as client:
            assert client.get(f"/players/{PLAYER}").status_code == 200
            page, _ = timed(lambda: client.get(f"/players/{PLAYER}"), args.requests)
        read, events = timed(lambda: reader.read(lambda s: table_events(s, tables.values())),
                             args.requests)
        assert events is not None
        fold, moves = timed(lambda: played_moves(events, drawn_stages(comp)), args.requests)
        values, _ = timed(lambda: player_page(comp, PLAYER, moves), args.requests)
        marks = ",".join("?" * len(tables))
        numbers = sorted(set(tables.values()))

        def bare() -> list[tuple[bytes]]:
            with sqlite3.connect(path) as db:
                return db.execute(
                    f"SELECT payload FROM events WHERE table_no IN ({marks}) AND source != 'hub'",
                    numbers,
                ).fetchall()

        baseline, rows = timed(bare, args.requests)
        reader.close()
    read_events = sum(len(e) for e in events.values())
    print(f"web player page: {args.players} players, {args.rounds} rounds × 2 games × "
          f"{args.moves} moves; {stored} unit events stored")
    print(f"  the page reads {len(numbers)} tables: {read_events} of their "
          f"{len(rows)} events (time use's kinds)")
    print(line(f"GET /players/{PLAYER} (whole page)", page))
    print(line("  read the tables' events (table_events)", read))
    print(line("  fold their moves (played_moves, pure)", fold))
    print(line("  the page's values (player_page, pure)", values))
    print(line("baseline: the same rows, one bare SELECT", baseline))


if __name__ == "__main__":
    main()
