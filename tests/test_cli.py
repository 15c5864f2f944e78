"""The organizer CLI running whole events through ``hub.cli.main`` on real SQLite files."""

from __future__ import annotations

import csv
import html
import io
import os
import random
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest
from pdf_pages import A4_POINTS, ink_in_margins, read_pdf
from test_cli_support import REPEATS, Cli, play_round, seat_counts

from hub.tournament import EventPhase, award_points

POLISH_NAMES = [
    "Łukasz Żółkiewski",
    "Anna Nowak",
    "Zofia Ćwik",
    "Jan Kowalski",
    "Ewa Ślęzak",
    "Ola Kot",
    "Piotr Zięba",
    "Marta Źdźbło",
    "Grzegorz Brzęczyszczykiewicz",
    "Ignacy Łoś",
    "Kasia Wąs",
    "Bartek Ąłow",
    "Jerzy Nóżka",
    "Hanna Ęwa",
]


def write_players(path: Path, names: list[str]) -> None:
    clubs = ["SP 3 Łódź", "SP 1 Kraków", "LO 2 Gdańsk"]
    lines = ["Imię i nazwisko;Szkoła;Uwagi"]
    lines += [f"{name};{clubs[i % 3]};" for i, name in enumerate(names)]
    path.write_bytes(b"\xef\xbb\xbf" + "\r\n".join(lines).encode("utf-8") + b"\r\n")


def test_school_contest_end_to_end(tmp_path: Path) -> None:
    c = Cli(tmp_path / "school.sqlite3")
    rng = random.Random(4)
    out = c.ok(
        "event",
        "create",
        "--preset",
        "school",
        "--name",
        "Konkurs szkolny",
        "--round-minutes",
        "50",
    )
    assert "round-4" in out and "004" in out
    write_players(tmp_path / "players.csv", POLISH_NAMES)
    out = c.ok("players", "import", str(tmp_path / "players.csv"))
    assert "Imported 14 players" in out and "Ignored columns: Uwagi" in out
    c.ok("players", "check-in", "--all")
    listing = c.ok("players", "list")
    assert "Łukasz Żółkiewski" in listing and "14 present" in listing

    for round_no in range(1, 5):
        out = c.ok("round", "draw", "--seed", str(100 + round_no))
        assert f"Round {round_no}: 4 tables (2 of 3 players)" in out
        assert REPEATS.search(out)
        assert "1A" in out and "4C" in out and "4D" not in out
        c.ok("round", "start")
        if round_no == 3:
            # Half the round, then a new process (and a new Organizer) on the same file.
            first = play_round(c, rng, skip={(t, 2) for t in range(1, 5)})
            status = c.ok("round", "status")
            assert "round-3: 0 of 4 tables done" in status
            assert (
                "Missing: table 1 game 2, table 2 game 2, table 3 game 2, table 4 game 2" in status
            )
            proc = subprocess.run(
                [sys.executable, "-m", "hub.cli", "--lang", "en", "round", "status"],
                capture_output=True,
                text=True,
                encoding="utf-8",
                check=False,
                env={**os.environ, "RUMMIKUB_DB": str(c.db), "PYTHONIOENCODING": "utf-8"},
            )
            assert proc.returncode == 0, proc.stderr
            assert proc.stdout.split("\n", 1)[1] == status.split("\n", 1)[1]  # clock line aside
            assert len(first) == 4
            assert {m.game for m in c.competition().event.missing_results()} == {2}
        play_round(c, rng)
        if round_no == 2:
            racks = "A=0 B=10 C=20j D=30" if seat_counts(c.competition())[1] == 4 else "0 10 20j"
            before = c.competition().history("round-2", 1, 1)[-1].score
            out = c.ok(
                "result",
                "enter",
                "--table",
                "1",
                "--game",
                "1",
                "--racks",
                racks,
                "--why",
                "sheet misread",
                by="judge Ala",
            )
            assert "Version 2 (correction, judge)" in out and "sheet misread" in out
            rows = [line.split() for line in out.splitlines() if line.strip()[:1].isdigit()]
            assert rows and all(row[0] == "2" for row in rows)  # the grid numbers it 2 too
            hist = c.ok("result", "history", "--table", "1", "--game", "1")
            assert "Version 1 (result, judge)" in hist and "by organizer Ola" in hist
            assert "Version 2 (correction, judge)" in hist and "by judge Ala" in hist
            assert c.competition().history("round-2", 1, 1)[0].score == before
        out = c.ok("round", "close")
        assert f"Closed round-{round_no}" in out
        assert ("Next: round-" in out) == (round_no < 4)

    comp = c.competition()
    assert comp.event.phase is EventPhase.FINISHED
    standings = c.ok("standings")
    assert "Standings after round-4" in standings
    ranking = c.ok("ranking")
    assert "winner" in ranking
    winner = comp.event.final_ranking()[0]
    assert comp.event.players[winner.player_id].name in ranking.split("winner")[0].splitlines()[-1]

    # CSV: UTF-8 with BOM; results add up to the standings.
    c.ok("export", "csv", str(tmp_path / "csv"))
    raw = (tmp_path / "csv" / "results.csv").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    results = list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"))))
    assert len(results) == 4 * 2 * 14
    sums: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for row in results:
        sums[row["player_id"]][0] += int(row["bp"])
        sums[row["player_id"]][1] += int(row["sp"])
        sums[row["player_id"]][2] += 1
    corrected = [r for r in results if (r["stage"], r["table"], r["game"]) == ("round-2", "1", "1")]
    assert {r["version"] for r in corrected} == {"2"} and corrected[0]["why"] == "sheet misread"
    text = (tmp_path / "csv" / "standings.csv").read_text(encoding="utf-8-sig")
    every = list(csv.DictReader(io.StringIO(text)))  # a block of rows per stage
    assert [r["stage"] for r in every] == [s for s in comp.event.stages_played for _ in range(14)]
    table = [r for r in every if r["stage"] == comp.event.stages_played[-1]]
    assert len(table) == 14
    for row in table:
        assert sums[row["player_id"]] == [int(row["bp"]), int(row["sp"]), int(row["games"])]
    assert {r["name"] for r in table} == set(POLISH_NAMES)
    assert [int(r["place"]) for r in table] == [r.place for r in comp.event.standings().rows]
    seating = list(
        csv.DictReader(
            io.StringIO((tmp_path / "csv" / "seating.csv").read_text(encoding="utf-8-sig"))
        )
    )
    assert len(seating) == 4 * 14
    assert (tmp_path / "csv" / "ranking.csv").exists()

    # HTML: every player and every table of the last round.
    c.ok("export", "html", str(tmp_path / "html"))
    for name in (
        "seating.html",
        "find-your-table.html",
        "scoresheets.html",
        "standings.html",
        "ranking.html",
    ):
        doc = (tmp_path / "html" / name).read_text(encoding="utf-8")
        assert doc.startswith("<!DOCTYPE html>") and "size: A4" in doc
        for player in POLISH_NAMES:
            given, _, surname = player.rpartition(" ")
            if name == "find-your-table.html":  # written surname first, as it is sorted
                assert html.escape(f"{surname} {given}") in doc, (name, player)
            else:
                assert html.escape(player) in doc, (name, player)
    sheets = (tmp_path / "html" / "scoresheets.html").read_text(encoding="utf-8")
    seating_doc = (tmp_path / "html" / "seating.html").read_text(encoding="utf-8")
    for number in range(1, 5):
        assert f"table {number}</h1>" in sheets
        assert f"<h2>Table {number}</h2>" in seating_doc
    assert sheets.count("<h2>Game ") == 4 * 2


def test_championship_of_18_to_the_final_ranking(tmp_path: Path) -> None:
    c = Cli(tmp_path / "mp.sqlite3")
    rng = random.Random(18)
    c.ok("event", "create", "--preset", "championship", "--name", "Mistrzostwa")
    for i in range(18):
        c.ok("players", "add", f"Gracz {i + 1}", "--club", f"Klub {i % 5}")
    c.ok("players", "check-in", "--all")
    stages = ["elimination-1", "elimination-2", "elimination-3", "semifinal", "final"]
    for stage in stages:
        out = c.ok("round", "draw")
        assert f"({stage})" in out
        c.ok("round", "start", "--minutes", "45")
        play_round(c, rng)
        c.ok("round", "close")
    comp = c.competition()
    assert [len(t.players) for t in comp.event.seating("elimination-1")] == [4, 4, 4, 3, 3]
    assert [len(t.players) for t in comp.event.seating("semifinal")] == [4, 4]
    ranking = c.ok("ranking")
    lines = ranking.splitlines()
    assert "champion" in lines[3] and "vice-champion" in lines[4]
    assert "second vice-champion" in lines[5]
    assert "minus" not in ranking  # one convention everywhere: the winner plus
    champion = comp.event.final_ranking()[0]
    assert f"+{champion.small}" in lines[3]
    standings = c.ok("standings", "--stage", "elimination-3")
    assert len([ln for ln in standings.splitlines() if "Gracz" in ln]) == 18
    table = c.ok("standings", "--stage", "final", "--table", "1")
    assert "Standings of table 1, final" in table


def test_league_top8_awards_league_points_and_a_season_table(tmp_path: Path) -> None:
    rng = random.Random(8)
    first = Cli(tmp_path / "liga-1.sqlite3")
    first.ok("event", "create", "--preset", "league", "--name", "Liga 1")
    names = [f"Zawodnik {chr(65 + i)}" for i in range(8)]
    school = ("--club", "SP 12 Kraków")  # Zawodnik B's, marked minor in the first event
    for name in names:
        first.ok("players", "add", name, "--check-in", *(school if name == names[1] else ()))
    out = first.ok("event", "show")
    assert "8 present: now league-top8" in out
    for _ in range(2):
        first.ok("round", "draw")
        first.ok("round", "start")
        play_round(first, rng)
        first.ok("round", "close")
    ranking = first.ok("ranking")
    assert "League pts" in ranking
    comp = first.competition()
    expected = award_points({r.player_id: r.place for r in comp.event.final_ranking()})
    assert comp.event.league_points() == expected
    assert sorted(expected.values(), reverse=True)[0] == 9

    second = Cli(tmp_path / "liga-2.sqlite3")
    second.ok("event", "create", "--preset", "league", "--name", "Liga 2")
    newcomers = [f"Nowy {i}" for i in range(7)]
    for name in [*names[:6], *newcomers]:  # 13 players: TOP 16 scheme, 4 tables
        second.ok("players", "add", name.upper() if name in names else name, "--check-in",
                  *(school if name == names[1] else ()))
    out = second.ok("season", "seeds", str(first.db), "--declare", "--same-names")
    seeds = [ln.split()[1] for ln in out.splitlines() if ln[:2] in ("1.", "2.", "3.", "4.")]
    assert len(seeds) == 4 and "Declared as seeds" in out
    assert "all 4 seeds play at different first-stage tables (4 tables)" in out
    polish = Cli(second.db, lang="pl").ok("season", "seeds", str(first.db), "--same-names")
    assert (
        "każdy z 4 rozstawionych gra przy innym stoliku pierwszego etapu (stoliki: 4)" in polish
    )
    second.ok("round", "draw")
    comp2 = second.competition()
    tables_of = {pid: t.number for t in comp2.event.seating("tables") for pid in t.players}
    assert len({tables_of[pid] for pid in seeds}) == 4
    second.ok("round", "start")
    play_round(second, rng)
    second.ok("round", "close")
    second.ok("round", "draw")
    second.ok("round", "start")
    play_round(second, rng)
    second.ok("round", "close")

    # The same names in both files are the organizer's question, not a silent match.
    apart = second.ok("season", "table", str(first.db), str(second.db))
    assert apart.count("counted apart until the organizer says") == 6
    ids = tmp_path / "identities.json"
    table = second.ok(
        "season", "table", str(first.db), str(second.db), "--identities", str(ids),
        "--same-names",
    )
    assert "counted apart" not in table and ids.is_file()
    pts1 = {comp.event.players[p].name.casefold(): v for p, v in comp.event.league_points().items()}
    comp2 = second.competition()
    pts2 = {
        comp2.event.players[p].name.casefold(): v for p, v in comp2.event.league_points().items()
    }
    rows = [ln.split("  ") for ln in table.splitlines()[3:] if ln.strip() and ln[0].isdigit()]
    assert len(rows) == 8 + 7
    for cells in (list(filter(None, (c.strip() for c in r))) for r in rows):
        name = cells[1].casefold()
        total = pts1.get(name, 0) + pts2.get(name, 0)
        starts = (name in pts1) + (name in pts2)
        assert cells[-4:-2] == [str(total), str(starts)], cells
    assert "Tournament 1: Liga 1 (liga-1.sqlite3)" in table
    assert "Tournament 2: Liga 2 (liga-2.sqlite3)" in table

    # The season table exported for publication: CSV for the website's spreadsheet, HTML
    # and A4 PDF, a minor named as the public pages name them, without their school.
    first.ok("players", "minor", "P002", "--consent")
    out = tmp_path / "sezon"
    written = second.ok(
        "season", "export", str(out), str(first.db), str(second.db), "--identities", str(ids)
    )
    assert written.split() == [str(out / f"season.{ext}") for ext in ("csv", "html", "pdf")]
    text = (out / "season.csv").read_text(encoding="utf-8-sig")
    season = list(csv.DictReader(io.StringIO(text)))
    assert list(season[0])[-2:] == ["Tournament 1: Liga 1", "Tournament 2: Liga 2"]
    assert len(season) == 8 + 7
    assert "ZAWODNIK B." in text and "ZAWODNIK B," not in text and "SP 12" not in text
    full_name = {"zawodnik b.": "zawodnik b"}  # the minor's public name
    for row in season:
        name = full_name.get(row["name"].casefold(), row["name"].casefold())
        assert int(row["points"]) == pts1.get(name, 0) + pts2.get(name, 0), row
        assert row["Tournament 1: Liga 1"] == ("" if name not in pts1 else str(pts1[name])), row
    pdf = read_pdf(out / "season.pdf")
    assert pdf.pages == 1 and pdf.sizes[0] == pytest.approx(A4_POINTS, abs=0.5)
    assert ink_in_margins(pdf.pngs[0]) == []
    printed = " ".join(pdf.text.split())
    assert all(row["name"] in printed for row in season)
    assert "Tournament 1: Liga 1 (liga-1.sqlite3)" in printed
    assert "Season table (2 tournaments)" in printed
    assert "ZAWODNIK B " not in f"{printed} " and "SP 12" not in printed
    assert "SP 12" not in (out / "season.html").read_text(encoding="utf-8")
    polish = Cli(second.db, lang="pl")  # a Polish spreadsheet's season table
    polish.ok(
        "season", "export", str(tmp_path / "sezon-pl"), str(first.db), str(second.db),
        "--identities", str(ids),
    )
    text = (tmp_path / "sezon-pl" / "season.csv").read_text(encoding="utf-8-sig")
    assert text.splitlines()[0] == (
        "Zajęte miejsce;Imię i nazwisko;Klub;Punkty ligowe;Liczba startów;"
        "Turniej 1: Liga 1;Turniej 2: Liga 2"
    )
    page = (tmp_path / "sezon-pl" / "season.html").read_text(encoding="utf-8")
    assert '<html lang="pl">' in page and "Klasyfikacja generalna (2 turnieje)" in page
    # The organizer's full list is an explicit choice, with its own files, saying so.
    internal = polish.ok(
        "season", "export", str(tmp_path / "sezon-pl"), str(first.db), str(second.db),
        "--identities", str(ids), "--internal",
    )
    assert internal.split() == [
        str(tmp_path / "sezon-pl" / f"season-internal.{ext}") for ext in ("csv", "html", "pdf")
    ]
    full = (tmp_path / "sezon-pl" / "season-internal.csv").read_text(encoding="utf-8-sig")
    assert "ZAWODNIK B;SP 12 Kraków;" in full
    page = (tmp_path / "sezon-pl" / "season-internal.html").read_text(encoding="utf-8")
    assert "Lista wewnętrzna organizatora" in page and "nie do publikacji" in page


def test_league_seeds_at_three_tables_say_what_cannot_hold(tmp_path: Path) -> None:
    """003 §10a: the season's top 4 at different first-stage tables; TOP 12 has 3."""
    c = Cli(tmp_path / "liga.sqlite3")
    c.ok("event", "create", "--preset", "league", "--name", "Liga 3")
    for i in range(10):
        c.ok("players", "add", f"Zawodnik {i}", "--check-in")
    out = c.ok("players", "seeds", "P001", "P002", "P003", "P004")
    assert (
        "003 §10a cannot hold: 3 first-stage tables for 4 seeds; seeds 1, 2, 3 play at "
        "different tables, seeds 1 and 4 share table 1" in " ".join(out.split())
    )
    c.ok("round", "draw", "--seed", "3")
    tables = {pid: t.number for t in c.competition().event.seating("tables") for pid in t.players}
    assert [tables[p] for p in ("P001", "P002", "P003", "P004")] == [1, 2, 3, 1]


def test_seeds_in_an_event_that_does_not_seed_say_so(tmp_path: Path) -> None:
    c = Cli(tmp_path / "szkola.sqlite3")
    c.ok("event", "create", "--preset", "school", "--name", "Konkurs")
    for i in range(8):
        c.ok("players", "add", f"Uczeń {i}", "--check-in")
    out = " ".join(c.ok("players", "seeds", "P001", "P002").split())
    assert "the first round of 'school' is not a seeded draw" in out



def test_a_league_before_its_first_draw_takes_what_every_scheme_takes(tmp_path: Path) -> None:
    """The scheme waits for the players present: event show says 8–32 in both lines,
    never the widest scheme's own range."""
    c = Cli(tmp_path / "liga.sqlite3", lang="pl")
    c.ok("event", "create", "--preset", "league", "--name", "Liga")
    for count in (12, 17):
        while len(c.competition().event.present) < count:
            c.ok("players", "add", f"Zawodnik {len(c.competition().event.players) + 1}",
                 "--check-in")
        show = " ".join(c.ok("event", "show").split())
        assert f"obecni: {count}" in show and "(format przyjmuje 8–32)" in show
        assert "24–32" not in show
