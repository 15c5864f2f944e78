"""Shared by the fault tests and the chaos soak: unit processes (tests/unit_process.py)
and the hub service as subprocesses, and the tally of lost and duplicated events
(each unit's journal against the hub's store)."""

from __future__ import annotations

import bisect
import sqlite3
import subprocess
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pace import scaled

from hub.broker import MosquittoBroker

ROOT = Path(__file__).resolve().parent.parent
VENUE, EVENT = "hall", "test"
EVENTS = 300


class Procs:
    """Subprocesses started by a test, all killed at teardown."""

    def __init__(self, tmp: Path, broker: MosquittoBroker, unit_port: int | None = None) -> None:
        self.tmp = tmp
        self.broker = broker
        self.unit_port = unit_port
        """Where units connect when not straight to the broker (a fault proxy's port)."""
        self.all: list[subprocess.Popen[str]] = []

    def unit(
        self, table: int, events: int = EVENTS, journal: Path | None = None, **options: Any
    ) -> subprocess.Popen[str]:
        """A unit's clock, journal and link with a bot pressing (tests/unit_process.py)."""
        args = self._table_args("unit_process.py", table, journal, options)
        args += ["--unit", f"table-{table:02d}", "--events", str(events)]
        return self._start(args, "ready")

    def table(
        self, table: int, journal: Path | None = None, **options: Any
    ) -> subprocess.Popen[str]:
        """A whole table unit with simulated players typing results (tests/table_process.py)."""
        return self._start(self._table_args("table_process.py", table, journal, options), "ready")

    def _table_args(
        self, script: str, table: int, journal: Path | None, options: dict[str, Any]
    ) -> list[str]:
        args = [
            sys.executable,
            str(ROOT / "tests" / script),
            "--broker",
            f"{self.broker.host}:{self.unit_port or self.broker.port}",
            "--venue",
            VENUE,
            "--event",
            EVENT,
            "--table",
            str(table),
            "--journal",
            str(journal or self.journal(table)),
            "--seed",
            str(table),
        ]
        for key, value in options.items():
            args += [f"--{key.replace('_', '-')}", str(value)]
        return args

    def hub(self, db: Path) -> subprocess.Popen[str]:
        args = [
            sys.executable,
            "-m",
            "hub.serve",
            "serve",
            "--broker",
            f"{self.broker.host}:{self.broker.port}",
            "--db",
            str(db),
            "--venue",
            VENUE,
            "--event",
            EVENT,
        ]
        return self._start(args, None)

    def journal(self, table: int) -> Path:
        return self.tmp / f"unit-{table}.db"

    def _start(self, args: list[str], ready: str | None) -> subprocess.Popen[str]:
        log = open(self.tmp / f"proc-{len(self.all)}.log", "w")  # noqa: SIM115
        proc = subprocess.Popen(
            args, cwd=ROOT, stdout=subprocess.PIPE if ready else log, stderr=log, text=True
        )
        self.all.append(proc)
        if ready is not None:
            assert proc.stdout is not None
            line = proc.stdout.readline().strip()
            assert line == ready, f"unit process said {line!r}; see {log.name}"
        return proc

    def kill_all(self) -> None:
        for proc in self.all:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


def stored_count(db: Path) -> int:
    if not db.exists():
        return 0
    with sqlite3.connect(db, timeout=30) as conn:
        try:
            return int(conn.execute("SELECT count(*) FROM events").fetchone()[0])
        except sqlite3.OperationalError:
            return 0


def journal_seqs(path: Path) -> tuple[int, int]:
    """(last seq assigned, entries still unacked)."""
    with sqlite3.connect(path, timeout=30) as conn:
        last = int(conn.execute("SELECT value FROM meta WHERE key='last_seq'").fetchone()[0])
        acked = int(conn.execute("SELECT value FROM meta WHERE key='acked_upto'").fetchone()[0])
        pending = int(  # acked entries stay until the event is closed
            conn.execute("SELECT count(*) FROM entries WHERE seq > ?", (acked,)).fetchone()[0]
        )
    return last, pending


def source_of(conn: sqlite3.Connection, unit: str, journal: Path) -> str:
    """The hub store's source of ``journal``'s events: the unit id for the unit's first
    journal epoch, ``unit@epoch`` for a later one (a replaced journal)."""
    with sqlite3.connect(journal, timeout=30) as jconn:
        row = jconn.execute("SELECT value FROM meta WHERE key='epoch'").fetchone()
    epoch = "" if row is None else str(row[0])
    found = conn.execute(
        "SELECT source FROM epochs WHERE unit = ? AND epoch = ?", (unit, epoch)
    ).fetchone()
    return unit if found is None else str(found[0])


def games_played(conn: sqlite3.Connection, source: str) -> list[tuple[tuple[int, int], int]]:
    """((game played, game), move) of every move ``source`` passed. A game is played
    again under the same number in every round of a tournament: the count of the
    game's ``game_started`` events before the move tells one playing from the next."""
    started: dict[int, list[int]] = {}
    for seq, game in conn.execute(
        "SELECT seq, game FROM events WHERE source = ? AND kind = 'game_started'", (source,)
    ):
        started.setdefault(game, []).append(seq)
    for seqs in started.values():
        seqs.sort()
    rows = conn.execute("SELECT seq, game, move FROM moves WHERE source = ?", (source,))
    return [
        ((bisect.bisect(started.get(game, []), seq), game), move)
        for seq, game, move in rows.fetchall()
    ]


def tally(
    db: Path,
    journals: dict[str, Path],
    events: int = EVENTS,
    retired: Sequence[tuple[str, Path]] = (),
    drained: bool = True,
) -> tuple[int, int]:
    """(lost, duplicated) over every unit: against the seqs each journal assigned,
    and moves that would have been recorded twice. ``retired`` are (unit, journal) of
    journals replaced earlier (each a journal epoch of its own at the hub). ``drained``:
    every entry must have been acked (else an entry the hub lacks counts as lost)."""
    lost = duplicated = 0
    with sqlite3.connect(db, timeout=30) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        for unit, path in [*journals.items(), *retired]:
            last, pending = journal_seqs(path)
            assert pending == 0 or not drained, f"{unit}: {pending} entries never acked"
            source = source_of(conn, unit, path)
            seqs = [
                r[0] for r in conn.execute("SELECT seq FROM events WHERE source = ?", (source,))
            ]
            if (unit, path) not in retired:
                assert last >= events
            lost += last - len({s for s in seqs if 1 <= s <= last})
            duplicated += len(seqs) - len(set(seqs)) + sum(1 for s in seqs if s > last)
            moves = Counter(games_played(conn, source))
            duplicated += sum(n - 1 for n in moves.values())
            for game in {g for g, _ in moves}:
                numbers = sorted(m for g, m in moves if g == game)
                assert numbers == list(range(1, len(numbers) + 1)), f"{source} game {game}"
    with sqlite3.connect(journals[next(iter(journals))]) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    return lost, duplicated


def finish(procs: list[subprocess.Popen[str]], timeout: float = 60.0) -> None:
    """Every unit process ends, having drained its journal, within ``timeout`` as long as
    this machine needs (tests/pace.py)."""
    for proc in procs:
        proc.wait(timeout=scaled(timeout))
        # Read through the text stream, not communicate(): _start's readline may already
        # hold "drained" in the stream's buffer (a unit with nothing to send says it right
        # after "ready"), and communicate with a timeout reads only the pipe's rest.
        out = proc.stdout.read() if proc.stdout is not None else ""
        assert proc.returncode == 0, f"unit exited {proc.returncode}: {out}"
        assert out.strip().endswith("drained"), f"unit said {out!r}"
