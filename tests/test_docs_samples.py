"""The organizer's guides quote what the kit really prints.

Each test runs commands on an event made for it and checks that the Polish guide
(docs/pl/przewodnik-organizatora.md) quotes their Polish output and the English guide
(docs/organizers-guide.md) their output with ``--lang en``, so that neither can drift
from the kit's words again. A guide may wrap a quoted line inside running text, so
spaces are compared as one; the event's own figures (a file's folder, the time of day)
are those of the guides' example.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from test_cli_live import NOW, snapshot, status
from test_cli_support import Cli, school_round_playing
from test_cli_ties import league_top8_with_a_tie_at_table_1

from hub.cli.common import render
from hub.cli.status import live_summary, status_grid
from hub.live import LiveView
from tablekit.core.clock import Phase
from tablekit.core.clock_events import PauseReason
from tablekit.core.messages import StatusReason, TableSnapshot, UnitStatus
from tablekit.core.seats import Seat
from tablekit.core.status import TableState, word
from tablekit.shared.i18n import words

ROOT = Path(__file__).resolve().parent.parent
GUIDES = {
    "pl": ROOT / "docs" / "pl" / "przewodnik-organizatora.md",
    "en": ROOT / "docs" / "organizers-guide.md",
}
FOLDER = "/home/ola/turniej"
"""Where the guides' organizer keeps the sign-up sheet."""


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


@pytest.fixture(params=["pl", "en"])
def lang(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def quoted(lang: str) -> Callable[[str], None]:
    """Asserts that the guide in ``lang`` quotes a line (spaces compared as one)."""
    guide = flat(GUIDES[lang].read_text(encoding="utf-8"))

    def check(line: str) -> None:
        assert flat(line.strip()) in guide, f"{GUIDES[lang].name} does not quote: {line!r}"

    return check


def school_contest(tmp_path: Path, lang: str, players: int) -> Cli:
    """A school contest in ``lang`` with ``players`` present ("Gracz 1" …)."""
    c = Cli(tmp_path / "e.sqlite3", lang=lang)
    c.ok("event", "create", "--preset", "school", "--name", "Konkurs szkolny 2025")
    for i in range(1, players + 1):
        c.ok("players", "add", f"Gracz {i}", "--check-in")
    return c


GIVEN_NAMES = (
    "Anna", "Bartłomiej", "Celina", "Dawid", "Ewa", "Filip", "Gabriela", "Henryk", "Ida", "Jan",
    "Kuba", "Lena", "Marek", "Nina", "Olga", "Piotr", "Róża", "Stefan", "Tola", "Urszula",
    "Wojciech", "Zofia", "Żaneta", "Alex",
)


def sheet(folder: Path) -> Path:
    """24 sign-ups saved by a Polish Excel (Windows-1250): girls, boys and an Alex."""
    folder.mkdir()
    rows = ["imię;nazwisko;klub"]
    rows += [f"{given};Żółć;SP {i % 3 + 1} Łódź" for i, given in enumerate(GIVEN_NAMES, 1)]
    path = folder / "zapisy.csv"
    path.write_bytes("\n".join(rows).encode("cp1250"))
    return path


def test_the_import_says_how_it_read_the_file(
    tmp_path: Path, lang: str, quoted: Callable[[str], None]
) -> None:
    c = Cli(tmp_path / "e.sqlite3", lang=lang)
    c.ok("event", "create", "--preset", "school", "--name", "Konkurs szkolny 2025")
    path = sheet(tmp_path / "turniej")
    out = c.ok("players", "import", str(path)).replace(str(path.parent), FOLDER)
    lines = out.splitlines()
    assert len(lines) == 3, out
    for line in lines:
        quoted(line)


def test_a_sheet_that_is_not_utf8_is_refused_with_its_line(
    tmp_path: Path, lang: str, quoted: Callable[[str], None]
) -> None:
    c = Cli(tmp_path / "e.sqlite3", lang=lang)
    c.ok("event", "create", "--preset", "school", "--name", "Konkurs szkolny 2025")
    folder = tmp_path / "turniej"
    folder.mkdir()
    path = folder / "zapisy.csv"
    rows = ["imię;nazwisko"] + [f"Gracz {i};Nowak" for i in range(1, 6)]
    path.write_bytes("\n".join(rows).encode() + b"\n\x81Anna;Nowak\n")
    err = c.fails("players", "import", str(path), "--encoding", "utf-8")
    err = err.replace(str(folder), FOLDER)
    # The guide shortens the advice after "UTF-8" with "…".
    quoted(err[: err.index("UTF-8", err.index("0x81")) + len("UTF-8")] + " …")


def test_round_status_and_the_hall_check_warning(
    tmp_path: Path, lang: str, quoted: Callable[[str], None]
) -> None:
    c = school_contest(tmp_path, lang, 16)
    show = c.ok("event", "show").splitlines()
    quoted(next(line for line in show if "1, 2, 3, 4" in line))
    draw = c.ok("round", "draw", "--seed", "1").splitlines()
    quoted(draw[-1])  # the hall check's warning
    c.ok("round", "start")
    out = c.ok("round", "status").splitlines()
    quoted(out[-1])  # live clocks need --broker


LIVE: list[TableSnapshot | UnitStatus] = [
    snapshot(1, NOW - 10, game=2, active=Seat.B, remaining=30.0),
    snapshot(2, NOW - 125, active=Seat.C, paused=PauseReason.JUDGE),
    snapshot(3, NOW - 900),
    status(3, False, StatusReason.SHUTDOWN, NOW - 300),
    snapshot(4, NOW - 45, active=Seat.D, remaining=12.5, paused=PauseReason.PLAYER_CALL),
]
"""Table 1 plays, the judge paused table 2, table 3 shut down, table 4 called the judge."""

MORE_LIVE: list[TableSnapshot | UnitStatus] = [
    snapshot(1, NOW - 30, phase=Phase.READY, active=None),
    snapshot(2, NOW - 30, active=Seat.C, paused=PauseReason.RECOVERED),
    snapshot(3, NOW - 5, last_lap_left=2, remaining=25.0, active=Seat.B),
    snapshot(4, NOW - 200, phase=Phase.TIME_UP, remaining=0.0, active=Seat.A),
    status(4, False, StatusReason.LOST, NOW - 200),
]
"""Between games, restarted, on the last lap, lost its connection."""


def live_view(messages: list[TableSnapshot | UnitStatus]) -> LiveView:
    live = LiveView()
    for message in messages:
        if isinstance(message, TableSnapshot):
            live = live.with_snapshot(message, NOW, retained=True)
        else:
            live = live.with_status(message, NOW)
    return live


def test_the_live_columns_and_the_judge_queue(
    tmp_path: Path, lang: str, quoted: Callable[[str], None]
) -> None:
    """``round status --broker``'s live part (the broker's side has its own tests in
    test_cli_live.py): the summary and the queue as the guide quotes them, and every
    state word of the Live column."""
    c = school_round_playing(tmp_path / "e.sqlite3")
    comp = c.competition()
    shown = words(lang)
    summary = live_summary(comp, live_view(LIVE), NOW, shown)
    assert len(summary) == 4, summary
    for line in summary:
        quoted(line)
    for messages in (LIVE, MORE_LIVE):
        grid = render(status_grid(comp, NOW, shown, live_view(messages)), shown)
        for cell in live_cells(grid).values():
            quoted(f"`{cell}`")
    for state in (TableState.RESULT_IN, TableState.ENTERING_RESULT, TableState.NO_DATA,
                  TableState.TIME):
        quoted(f"`{shown.gettext(word(state))}`")


def live_cells(grid: str) -> dict[int, str]:
    """Each table's Live cell of ``round status``'s grid."""
    cells = {}
    for line in grid.splitlines()[3:]:
        row = re.split(r"\s{2,}", line.strip())
        cells[int(row[0])] = row[4]
    assert len(cells) == 4, grid
    return cells


def test_a_tie_at_a_cut_stops_the_draw(
    tmp_path: Path, lang: str, quoted: Callable[[str], None]
) -> None:
    c, _b, _d = league_top8_with_a_tie_at_table_1(tmp_path)
    c.lang = lang
    run = c.run("round", "draw", "--seed", "6")
    assert run.code == 2, run.err
    stops, level = run.out.splitlines()
    # The guide shortens both lines after their first part with "…".
    quoted(stops[: stops.index(");") + 2] + " …")
    quoted(level[: level.index(": rummikub") + 1] + " …")


def test_the_draw_and_a_wrong_result(
    tmp_path: Path, lang: str, quoted: Callable[[str], None]
) -> None:
    """The draw's summary and its starting seats; a wrong result names the seat and the
    field, a round with results missing is not closed."""
    c = school_contest(tmp_path, lang, 24)
    drawn = c.ok("round", "draw", "--seed", "7").splitlines()
    quoted(drawn[0])  # tables, seed, repeated pairs
    quoted(drawn[-2])  # who starts each game
    c.ok("round", "start")

    def refused(table: str, racks: str) -> str:
        err = c.fails("result", "enter", "--table", table, "--game", "1", "--racks", racks)
        return err.removeprefix("rummikub: ")

    not_a_rack = refused("3", "A=0 B=23 C=12jjj D=85np").removeprefix("--racks: ")
    quoted(not_a_rack[: not_a_rack.index(" (")] + " …")
    quoted(refused("3", "A=0 B=23j C=12jj D=85np"))
    two_empty = refused("3", "A=0 B=0 C=12 D=85np")
    quoted(two_empty[: two_empty.index(", ", two_empty.index(": "))] + " …")
    quoted(refused("9", "A=0 B=23 C=12 D=85np"))
    c.ok("result", "enter", "--table", "1", "--game", "1", "--racks", "A=0 B=23 C=12j D=85np")
    missing = c.fails("round", "close").removeprefix("rummikub: ")
    quoted(missing[: missing.index(", ", missing.index(", ") + 1)] + ", …")


def test_the_sanctions_column(tmp_path: Path, lang: str, quoted: Callable[[str], None]) -> None:
    c = school_round_playing(tmp_path / "e.sqlite3")
    c.lang = lang
    players = c.competition().tables()[0].players
    c.ok("sanction", "deduct", players[0], "--big", "1", "--why", "przeszkadzanie w grze")
    for _ in range(2):
        c.ok("sanction", "warn", players[1], "--why", "niecenzuralne słowa")
    c.ok("sanction", "disqualify", players[2], "--why", "oszustwo")
    rows = c.ok("standings").splitlines()
    for pid in players[:3]:
        row = next(line for line in rows if f" {pid} " in line)
        cell = re.split(r"\s{2,}", row.strip())[-1]
        quoted(f"`{cell}`")


def test_a_correction_that_moves_things_asks_first(
    lang: str, quoted: Callable[[str], None]
) -> None:
    quoted(f"`{words(lang).gettext('Record it? [y/N] ').strip()}`")
