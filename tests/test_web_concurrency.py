"""The command line and the web console change the same event at the same moment, each
from a process of its own: nothing is lost or corrupted.

The organizer's command line (``rummikub``'s ``main``, as the terminal runs it) enters
the results of two tables while a judge signed in to the web console enters the other
two tables' through its result form (the console's application on the same store,
answered in-process by Starlette's test client) — and both enter one game that neither
has yet. Both start at the
same instant and go as fast as they can. Afterwards every command that succeeded has
its record, exactly one of the two entries of the shared game (each side's first
command) is stored (the other is refused: a correction must say why), the records are
numbered without a gap, and the event as folded from the store equals the same records
stored again one at a time into a fresh store, each checked against the event as it
stood.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from test_cli_support import school_round_playing

from hub.competition import ResultRecorded, decode_record
from hub.organizer import Organizer
from hub.organizer_base import RECORD_KINDS
from hub.store import HUB_SOURCE, EventStore

ROOT = Path(__file__).resolve().parents[1]
RACKS = "A=0 B=12 C=30 D=7"

CLI_SIDE = """
import io, json, sys, time
from hub import cli
db, start, games = sys.argv[1], float(sys.argv[2]), json.loads(sys.argv[3])
while time.time() < start:
    time.sleep(0.0005)
codes = []
for table, game in games:
    codes.append(cli.main(["--db", db, "--by", "organizer Ola", "--lang", "en", "result",
                           "enter", "--table", str(table), "--game", str(game),
                           "--racks", sys.argv[4]], out=io.StringIO()))
print(json.dumps(codes))
"""

WEB_SIDE = """
import json, sys, time
from pathlib import Path
sys.path.insert(0, "tests")
from starlette.testclient import TestClient
from test_web_judge import post_result
from web_console import signed_in
from hub.web.app import make_app
from hub.web.live import LiveTables
from hub.web.pages import Console, EventReader
from tablekit.core.topics import Topics
db, start, games = sys.argv[1], float(sys.argv[2]), json.loads(sys.argv[3])
reader = EventReader(Path(db))
with TestClient(make_app(Console(reader, LiveTables(None, Topics("hall", "web"))))) as judge:
    signed_in(judge)
    judge.get("/judge")  # the console has the event folded before anyone asks
    while time.time() < start:
        time.sleep(0.0005)
    codes = []
    for table, game in games:
        answer = post_result(judge, table, game, sys.argv[4])
        codes.append(0 if answer.status_code == 303 else 2)
        if answer.status_code != 303:
            print(answer.status_code, file=sys.stderr)
print(json.dumps(codes))
"""


def side(
    program: str, db: Path, start: float, games: list[tuple[int, int]]
) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", program, str(db), str(start), json.dumps(games), RACKS],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )


def stored_records(db: Path) -> list[tuple[int, object]]:
    store = EventStore(db)
    try:
        return [
            (e.seq, decode_record(e.payload))
            for e in store.events(source=HUB_SOURCE)
            if e.kind in RECORD_KINDS
        ]
    finally:
        store.close()


def test_the_command_line_and_the_web_console_at_the_same_moment(tmp_path: Path) -> None:
    db = tmp_path / "event.sqlite3"
    c = school_round_playing(db)  # 16 players at 4 tables, one game entered
    missing = [(m.table, m.game) for m in c.competition().event.missing_results()]
    shared = min(g for g in missing if g[0] == 4)  # the last table's next game to enter
    # The shared game first: both ask for it at the same instant.
    cli_games = [shared] + [g for g in missing if g[0] in (1, 2)]
    web_games = [shared] + [g for g in missing if g[0] in (3, 4) and g != shared]
    before = len(stored_records(db))

    start = time.time() + 3.0  # both have started Python and folded the event by then
    sides = [side(CLI_SIDE, db, start, cli_games), side(WEB_SIDE, db, start, web_games)]
    outcomes = []
    for process in sides:
        out, err = process.communicate(timeout=120)
        assert process.returncode == 0, err
        outcomes.append(json.loads(out.strip().splitlines()[-1]))
    cli_codes, web_codes = outcomes

    # Every entry of its own games succeeded; of the shared game exactly one was first.
    assert cli_codes[1:] == [0] * (len(cli_games) - 1)
    assert web_codes[1:] == [0] * (len(web_games) - 1)
    assert sorted([cli_codes[0], web_codes[0]]) == [0, 2]

    records = stored_records(db)
    seqs = [seq for seq, _ in records]
    assert seqs == sorted(set(seqs))  # no seq twice
    store = EventStore(db)
    mark = store.mark(HUB_SOURCE)
    store.close()
    assert mark is not None and mark.contiguous == mark.max_seq  # no gap
    results = [r for _, r in records[before:] if isinstance(r, ResultRecorded)]
    by_cli = [(r.table, r.report.game) for r in results if r.by == "organizer Ola"]
    by_web = [(r.table, r.report.game) for r in results if r.by != "organizer Ola"]
    assert sorted(by_cli + by_web) == sorted(missing)  # every game once, none lost
    assert set(by_cli) >= set(cli_games[1:]) and set(by_web) >= set(web_games[1:])

    # The fold equals the same records stored again one at a time, each checked.
    again = Organizer(EventStore(tmp_path / "serial.sqlite3"), by="replay")
    for _, record in records:
        again.record(record)  # type: ignore[arg-type]
    concurrent = Organizer(EventStore(db), by="reader").competition
    serial = again.competition
    assert concurrent.event.standings("round-1").rows == serial.event.standings("round-1").rows
    for table, game in missing:
        assert concurrent.history("round-1", table, game) == serial.history(
            "round-1", table, game
        )
    assert concurrent.event.missing_results() == serial.event.missing_results() == ()
