"""Helpers for driving ``hub.cli.main`` in-process (shared by the CLI tests)."""

from __future__ import annotations

import contextlib
import io
import random
import re
from dataclasses import dataclass
from pathlib import Path

from hub import cli
from hub.competition import Competition
from hub.organizer import Organizer
from hub.store import EventStore
from tablekit.core.racks import format_racks
from tablekit.core.scoring import Opening, RackReport
from tablekit.core.seats import seats_for


@dataclass
class Run:
    code: int
    out: str
    err: str


class Clock:
    """A wall clock the test moves by hand (one second per reading)."""

    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


class Cli:
    """``rummikub`` run in-process on one event file, in one language (``--lang``: the
    tests that check English wording ask for English; ``lang=None`` gives none, so the
    environment's or the event's language is spoken)."""

    def __init__(self, db: Path, by: str = "organizer Ola", lang: str | None = "en") -> None:
        self.db = db
        self.by = by
        self.lang = lang
        self.clock = Clock()

    def run(self, *argv: str, by: str | None = None) -> Run:
        out, err = io.StringIO(), io.StringIO()
        lang = [] if self.lang is None else ["--lang", self.lang]
        with contextlib.redirect_stderr(err):
            code = cli.main(
                ["--db", str(self.db), "--by", by or self.by, *lang, *argv],
                out=out,
                clock=self.clock,
            )
        return Run(code, out.getvalue(), err.getvalue())

    def ok(self, *argv: str, by: str | None = None) -> str:
        result = self.run(*argv, by=by)
        assert result.code == 0, f"{argv}: {result.err}"
        assert result.err == ""
        return result.out

    def fails(self, *argv: str) -> str:
        """Run a command that must be refused: exit 2, one line on stderr, nothing stored."""
        before = self.records()
        result = self.run(*argv)
        assert result.code == 2, f"{argv} succeeded: {result.out}"
        assert result.err.endswith("\n") and result.err.count("\n") == 1, result.err
        assert "Traceback" not in result.err
        assert self.records() == before
        return result.err.strip()

    def records(self) -> int:
        if not self.db.exists():
            return 0
        store = EventStore(self.db)
        try:
            return store.counts()["total"]
        finally:
            store.close()

    def competition(self) -> Competition:
        store = EventStore(self.db)
        try:
            return Organizer(store).competition
        finally:
            store.close()


def checked_in(
    tmp_path: Path, preset: str, players: int, name: str = "Turniej"
) -> Cli:
    """A new event of ``preset`` with ``players`` ("Gracz 1" …) registered and present."""
    c = Cli(tmp_path / "e.sqlite3")
    c.ok("event", "create", "--preset", preset, "--name", name)
    for i in range(1, players + 1):
        c.ok("players", "add", f"Gracz {i}", "--check-in")
    return c


def random_racks(seats: int, rng: random.Random) -> str:
    """A valid ``--racks`` value for a table of ``seats``: mostly someone went out,
    sometimes nobody did; jokers and never-opened racks now and then."""
    went_out = rng.random() < 0.8
    winner = rng.randrange(seats)
    jokers_left = 2
    racks = []
    for i, seat in enumerate(seats_for(seats)):
        if went_out and i == winner:
            racks.append(RackReport(seat))
            continue
        tiles = rng.randint(1, 90)
        jokers = rng.choice([0, 0, 0, 1]) if jokers_left else 0
        jokers_left -= jokers
        opening = Opening.NOT_OPENED if rng.random() < 0.1 else Opening.OPENED
        racks.append(RackReport(seat, tiles, jokers, opening))
    return format_racks(racks)


def seat_counts(comp: Competition) -> dict[int, int]:
    return {t.table: len(t.players) for t in comp.tables()}


def play_round(
    c: Cli, rng: random.Random, *, skip: set[tuple[int, int]] | None = None
) -> list[tuple[int, int]]:
    """Enter every missing game of the open round with ``result enter``; returns them."""
    comp = c.competition()
    seats = seat_counts(comp)
    entered = []
    for missing in comp.event.missing_results():
        if skip and (missing.table, missing.game) in skip:
            continue
        c.ok(
            "result",
            "enter",
            "--table",
            str(missing.table),
            "--game",
            str(missing.game),
            "--racks",
            random_racks(seats[missing.table], rng),
        )
        entered.append((missing.table, missing.game))
    return entered


def play_rounds(c: Cli, rng: random.Random, seeds: range) -> None:
    """Draw (with each seed), start, play and close one round per seed."""
    for seed in seeds:
        c.ok("round", "draw", "--seed", str(seed))
        c.ok("round", "start")
        play_round(c, rng)
        c.ok("round", "close")


REPEATS = re.compile(r"repeated pairs: (\d+)")


def school_round_playing(db: Path) -> Cli:
    """A school contest of 16 players: round 1 drawn (4 tables of 4) and started, table
    1's game 1 entered."""
    c = Cli(db)
    c.ok("event", "create", "--preset", "school", "--name", "Szkoła")
    for i in range(16):
        c.ok("players", "add", f"Uczeń {i + 1:02d}", "--club", "SP 1", "--check-in")
    c.ok("round", "draw", "--seed", "1")
    c.ok("round", "start")
    c.ok("result", "enter", "--table", "1", "--game", "1", "--racks", "A=0 B=12 C=30 D=7")
    return c
