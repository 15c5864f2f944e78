"""Standings from the event store, and a repeat-avoiding draw, beside plain baselines.

1. **Standings, 1,000 players × 10 games.** A real SQLite event file is filled through
   the organizer commands (a 5-round × 2-game school contest, 250 tables, 2,500 judged
   results). Timed: a fresh process's view as the command line reads it — open the
   store, start from the snapshot of the fold kept in it once its digests check out
   (:mod:`hub.fold_snapshot`), standings after the last round — beside the same view
   replaying every record (the truth, and the path without a snapshot), and the
   standings alone on the folded event. Baselines in the same run: the same games'
   points read straight from SQLite (one SELECT, JSON decode, score, sum per player,
   sort by BP then SP), and a plain dict-sum-and-sort of the same points already in
   memory. Each timed in CPU seconds (what it costs, whatever else the machine runs)
   and wall seconds, the median of ``--repeat`` runs; the load average is printed.
2. **Draw for 200 players in round 6** (after 5 played rounds): the event's
   repeat-avoiding draw (``EventState.draw_next``) beside a plain balanced shuffle of the
   same 200 players; the repeated pairs of both are printed too.

Prints, never asserts::

    python bench/bench_standings.py [--players 1000] [--repeat 5] [--keep FILE]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple, TypeVar

import msgspec

from hub.competition import EventCreated, ResultRecorded, ResultSource, decode_record
from hub.organizer import Organizer
from hub.store import HUB_SOURCE, EventStore
from hub.tournament import Player, met_pairs
from hub.tournament.presets import school
from hub.tournament.seating import count_repeats, fill_tables, table_sizes
from hub.tournament.standings import Standings
from tablekit.core.rulesets import get_ruleset
from tablekit.core.scoring import GameEnding, GameReport, RackReport, score_game
from tablekit.core.seats import seats_for

T = TypeVar("T")


class Timed(NamedTuple):
    cpu: float
    """Median CPU time in ms."""
    wall: float
    """Median wall time in ms."""


def timed(fn: Callable[[], T], repeat: int) -> tuple[Timed, T]:
    """Median CPU and wall times in ms over ``repeat`` runs, and the last result."""
    cpu, wall = [], []
    for _ in range(repeat):
        start, started = time.process_time(), time.perf_counter()
        result = fn()
        cpu.append((time.process_time() - start) * 1000)
        wall.append((time.perf_counter() - started) * 1000)
    return Timed(statistics.median(cpu), statistics.median(wall)), result


def report_for(game: int, seats: int, rng: random.Random) -> GameReport:
    winner = rng.randrange(seats)
    racks = tuple(
        RackReport(seat=s, tiles=0 if i == winner else rng.randint(1, 90))
        for i, s in enumerate(seats_for(seats))
    )
    return GameReport(game=game, ending=GameEnding.WENT_OUT, racks=racks)


def fill(path: Path, players: int, rounds: int, *, play_last: bool, seed: int) -> Organizer:
    """An event file with ``players`` and ``rounds`` rounds of 2 games (the last one
    drawn but not played unless ``play_last``)."""
    rng = random.Random(seed)
    clock = iter(range(1_700_000_000, 1_800_000_000))
    org = Organizer(EventStore(path), by="bench", clock=lambda: float(next(clock)))
    # The preset caps open formats at 400 players (100 tables); the bench goes beyond.
    fmt = msgspec.structs.replace(school(rounds=rounds, games=2), max_players=players)
    org.record(EventCreated(at=org.clock(), by="bench", name="bench", preset="school", format=fmt))
    org.register([Player(f"P{i:04d}", f"Gracz {i}") for i in range(1, players + 1)], check_in=True)
    for number in range(1, rounds + 1):
        if number == rounds and not play_last:
            break
        org.draw(seed=rng.randrange(2**31))
        org.start_round()
        comp = org.competition
        stage = comp.event.stages_played[-1]
        records = [
            ResultRecorded(
                at=org.clock(),
                by="bench",
                stage=stage,
                table=t.table,
                report=report_for(g, len(t.players), rng),
                source=ResultSource.JUDGE,
            )
            for t in comp.tables()
            for g in range(1, t.games + 1)
        ]
        org.record(*records)
        org.close_round()
    return org


def standings_from_store(path: Path, *, snapshots: bool = True) -> Standings:
    store = EventStore(path)
    try:
        return Organizer(store, snapshots=snapshots).competition.event.standings()
    finally:
        store.close()


def baseline_from_store(path: Path) -> list[tuple[int, int, str]]:
    """The same points straight from SQLite: one SELECT per kind, decode, score each
    report once (points are the hub's to compute), sum per player, sort."""
    store = EventStore(path)
    try:
        seatings = store.events(source=HUB_SOURCE, kind="organizer")
        results = store.events(source=HUB_SOURCE, kind="result-recorded")
    finally:
        store.close()
    rules = get_ruleset("004")
    seats_of: dict[tuple[str, int], list[str]] = {}
    for stored in seatings:
        fact = msgspec.json.decode(stored.payload)["fact"]
        if fact["fact"] == "round-seated":
            for t in fact["tables"]:
                seats_of[(fact["stage"], t["number"])] = t["players"]
    latest: dict[tuple[str, int, int], ResultRecorded] = {}
    for stored in results:
        record = decode_record(stored.payload)
        if isinstance(record, ResultRecorded):
            latest[(record.stage, record.table, record.report.game)] = record
    acc: dict[str, list[int]] = {}
    for record in latest.values():
        players = seats_of[(record.stage, record.table)]
        for score, pid in zip(score_game(record.report, rules).scores, players, strict=True):
            entry = acc.setdefault(pid, [0, 0])
            entry[0] += score.big
            entry[1] += score.small
    return sorted((-b, -s, pid) for pid, (b, s) in acc.items())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--draw-players", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--keep", type=Path, help="keep the filled event file here")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        path = args.keep or Path(tmp) / "bench.sqlite3"
        start = time.perf_counter()
        org = fill(path, args.players, 5, play_last=True, seed=1)
        fill_ms = (time.perf_counter() - start) * 1000
        comp = org.competition
        org.store.close()
        size = path.stat().st_size + sum(
            p.stat().st_size for p in path.parent.glob(path.name + "-*")
        )
        print(
            f"Event file: {args.players} players, 5 rounds × 2 games, "
            f"{len(comp.results)} results, {comp.records} records, {size / 1e6:.1f} MB "
            f"(filled in {fill_ms / 1000:.1f} s through the organizer commands)"
        )

        games = [
            (
                dict(
                    zip(
                        v[-1].players.values(),
                        [(s.big, s.small) for s in v[-1].score.scores],
                        strict=True,
                    )
                )
            )
            for v in comp.results.values()
        ]

        def plain_sort() -> list[tuple[int, int, str]]:
            acc: dict[str, list[int]] = {}
            for game in games:
                for pid, (big, small) in game.items():
                    entry = acc.setdefault(pid, [0, 0])
                    entry[0] += big
                    entry[1] += small
            return sorted((-b, -s, pid) for pid, (b, s) in acc.items())

        rep = args.repeat
        load_before = os.getloadavg()
        replay, truth = timed(lambda: standings_from_store(path, snapshots=False), rep)
        standings_from_store(path)  # the first fresh read keeps a snapshot of the fold
        command, standings = timed(lambda: standings_from_store(path), rep)
        fold, _ = timed(comp.event.standings, rep)
        base_store, base = timed(lambda: baseline_from_store(path), rep)
        base_mem, _ = timed(plain_sort, rep)
        ours = [(-r.big, -r.small, r.player_id) for r in standings.rows]
        print(f"\nStandings, {args.players} players × 10 games (median of {rep}; CPU, wall):")
        for what, took in (
            ("from the store as the command line reads it", command),
            ("from the store replaying every record", replay),
            ("baseline: SELECT + decode + score + sum + sort", base_store),
            ("standings on the folded event", fold),
            ("baseline: dict sum + sort in memory", base_mem),
        ):
            print(f"  {what:48s} {took.cpu:8.1f} ms {took.wall:8.1f} ms")
        for what, took in (("the command line's", command), ("replaying every record", replay)):
            print(f"  {what} ÷ baseline: {took.cpu / base_store.cpu:.2f}× CPU, "
                  f"{took.wall / base_store.wall:.2f}× wall")
        print(f"  same order as the baseline: {ours == base}; as the replay: {standings == truth}")
        load_after = os.getloadavg()
        print(f"  load average before {load_before[0]:.2f}, after {load_after[0]:.2f} "
              f"({os.cpu_count()} cores)")

        draw_path = Path(tmp) / "draw.sqlite3"
        org = fill(draw_path, args.draw_players, 6, play_last=False, seed=2)
        event = org.competition.event
        org.store.close()
        ids = sorted(event.present)
        met = met_pairs(t.players for s in event.stages_played for t in event.seating(s))
        seeds = list(range(rep))

        def draw_all() -> list[int]:
            return [event.draw_next(seed).repeats for seed in seeds]

        def shuffle_all() -> list[int]:
            out = []
            for seed in seeds:
                pool = list(ids)
                random.Random(seed).shuffle(pool)
                out.append(count_repeats(fill_tables(pool, table_sizes(len(pool))), met))
            return out

        draw_took, draw_repeats = timed(draw_all, 1)
        shuffle_took, shuffle_repeats = timed(shuffle_all, 1)
        draw_ms, shuffle_ms = draw_took.cpu, shuffle_took.cpu
        print(
            f"\nDraw for round 6, {args.draw_players} players after 5 rounds "
            f"(mean over {rep} seeds, CPU):"
        )
        print(
            f"  repeat-avoiding draw (draw_next)   {draw_ms / rep:8.2f} ms   "
            f"repeated pairs {statistics.mean(draw_repeats):.1f}"
        )
        print(
            f"  baseline: shuffle + chunk          {shuffle_ms / rep:8.2f} ms   "
            f"repeated pairs {statistics.mean(shuffle_repeats):.1f}"
        )


if __name__ == "__main__":
    main()
