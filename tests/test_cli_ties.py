"""Ties at a cut from the organizer's seat: the draw stops and names the players, the
head judge's decision or lot is recorded and shown (``rummikub`` on a real SQLite file)."""

from __future__ import annotations

import csv
import io
import random
import zipfile
from pathlib import Path

from test_cli_support import Cli, play_round

NAMES = ["Anna Nowak", "Jan Kowalski", "Ewa Ślęzak", "Ola Kot",
         "Piotr Zięba", "Marta Wąs", "Ignacy Łoś", "Hanna Ryś"]


def enter_both_games(c: Cli, table1: str, table2: str) -> None:
    for game in (1, 2):
        c.ok("result", "enter", "--table", "1", "--game", str(game), "--racks", table1)
        c.ok("result", "enter", "--table", "2", "--game", str(game), "--racks", table2)


def league_top8_with_a_tie_at_table_1(tmp_path: Path) -> tuple[Cli, str, str]:
    """TOP 8, first stage: at table 1 seats B and C are level for 2nd place (the last
    place into the final; 3rd plays the consolation final). Returns their ids."""
    c = Cli(tmp_path / "liga.sqlite3")
    c.ok("event", "create", "--preset", "league-top8", "--name", "Liga")
    for name in NAMES:
        c.ok("players", "add", name, "--check-in")
    c.ok("round", "draw", "--seed", "5")
    c.ok("round", "start")
    enter_both_games(c, "A=0 B=10 C=10 D=20", "A=0 B=10 C=20 D=30")
    c.ok("round", "close")
    table1 = c.competition().event.seating("tables")[0].players
    return c, table1[1], table1[2]


def test_the_draw_stops_at_a_cut_and_the_judge_decides(tmp_path: Path) -> None:
    c, b, d = league_top8_with_a_tie_at_table_1(tmp_path)
    run = c.run("round", "draw", "--seed", "6")
    assert run.code == 2 and "1 tie at a cut for the head judge; nothing drawn" in run.err
    text = " ".join(run.out.split())
    assert "Level at table 1 of tables (0 BP, -20 SP)" in text
    names = {pid: NAMES[int(pid[1:]) - 1] for pid in (b, d)}
    assert f"{b} {names[b]}" in text and f"{d} {names[d]}" in text
    assert f"rummikub tie decide --scope tables/table-1 {b} {d} --why" in text
    assert f"rummikub tie lot --scope tables/table-1 {b} {d}" in text
    assert len(c.competition().event.stages_played) == 1  # nothing drawn
    c.lang = "pl"  # Polish names the place in words; only the command keeps the scope's code
    polish = " ".join(c.run("round", "draw", "--seed", "6").out.split())
    assert "Remis przy stoliku 1, etap: gry przy stolikach (0 DP, -20 MP)" in polish
    assert polish.count("tables/table-1") == 2
    c.lang = "en"
    assert "Ties at a cut to decide (1)" in c.ok("event", "show")

    # a judge's order needs a reason, and must name level players
    err = c.fails("tie", "decide", d, b)
    assert "say why the judge decided so" in err
    table1 = c.competition().event.seating("tables")[0].players
    err = c.fails("tie", "decide", "--scope", "tables/table-1", table1[0], b, "--why", "x")
    assert "not level there" in err

    out = c.ok("tie", "decide", d, b, "--why", "head judge: fewer penalties", by="judge Ewa")
    assert f"{names[d]} ({d}) ahead of {names[b]} ({b})" in out and "judge Ewa" in out
    seated = c.competition().event
    c.ok("round", "draw", "--seed", "6")
    final = c.competition().event.seating("finals")[0].players
    assert d in final and b not in final and seated.pending_ties() == ()
    show = " ".join(c.ok("event", "show").split())
    assert "Tie in tables/table-1" in show and "why: head judge: fewer penalties" in show
    standings = " ".join(c.ok("standings", "--stage", "tables", "--table", "1").split())
    assert f"{names[d]} ({d}) ahead of {names[b]} ({b}) — the head judge's decision" in standings


def test_a_lot_the_judge_orders_is_recorded_with_its_seed(tmp_path: Path) -> None:
    c, b, d = league_top8_with_a_tie_at_table_1(tmp_path)
    out = c.ok("tie", "lot", "--seed", "11")  # the one tie to decide
    assert "a lot the head judge ordered, seed 11" in out
    (record,) = c.competition().ties
    assert set(record.fact.order) == {b, d} and record.by == "organizer Ola"
    c.ok("round", "draw", "--seed", "6")
    final = c.competition().event.seating("finals")[0].players
    assert record.fact.order[0] in final and record.fact.order[1] not in final
    listing = c.ok("tie", "list")
    assert "seed 11" in listing and "to decide" not in listing


def test_shared_final_places_with_different_league_points_wait_for_the_judge(
    tmp_path: Path,
) -> None:
    c, _, _ = league_top8_with_a_tie_at_table_1(tmp_path)
    c.ok("tie", "lot", "--seed", "3")
    c.ok("round", "draw", "--seed", "6")
    c.ok("round", "start")
    # the consolation final: B and C level for 6th
    enter_both_games(c, "A=0 B=10 C=20 D=30", "A=0 B=10 C=10 D=20")
    c.ok("round", "close")
    consolation = c.competition().event.seating("finals")[1].players
    b, d = sorted(consolation[1:3])
    ranking = c.ok("ranking")
    rows = {line.split()[0]: line for line in ranking.splitlines() if line[:3].strip()}
    assert "6=" in rows and rows["6="].rstrip().endswith("?")
    assert "Not decided yet" in ranking and "rummikub tie list" in ranking
    said = " ".join(ranking.split())  # the printed ranking states the points' formula
    assert "S + 1 − p" in said and "Here 8 participants: 1st 9 points, 2nd 7" in said
    listed = " ".join(c.ok("tie", "list").split())
    assert f"Level in the final ranking (0 BP, -20 SP): {b}" in listed
    c.ok("tie", "decide", b, d, "--shared", "--why", "players agreed to share 6th")
    ranking = c.ok("ranking")
    assert "Not decided yet" not in ranking
    points = c.competition().event.league_points()
    assert points[b] == points[d] == 3  # the better place's points, as decided


def draw_deciding_ties_by_lot(c: Cli, seed: str) -> None:
    """``round draw``; ties at a cut that random results made are settled by the judge's lot."""
    for tie in c.competition().event.pending_ties():
        c.ok("tie", "lot", "--scope", tie.scope, *tie.players)
    c.ok("round", "draw", "--seed", seed)


def test_league_top20_with_17_asks_the_organizer_how_to_seat_the_two_left(
    tmp_path: Path,
) -> None:
    c = Cli(tmp_path / "liga.sqlite3")
    c.ok("event", "create", "--preset", "league", "--name", "Liga 17")
    for i in range(17):
        c.ok("players", "add", f"Zawodnik {i:02d}", "--check-in")
    rng = random.Random(17)
    c.ok("round", "draw", "--seed", "1")
    c.ok("round", "start")
    play_round(c, rng)
    c.ok("round", "close")
    run = c.run("round", "draw", "--seed", "2")
    assert run.code == 2 and "cannot sit at tables of 3 or 4; the organizer decides" in run.err
    text = " ".join(run.out.split())
    assert "2 player(s) do not reach top-15" in text and "003 §7" in text
    assert "rummikub round consolation --promote 2 | --none --why" in text
    assert "--promote 1 " not in text  # 1 up would leave 1: not an option
    assert "To decide: draw top-15: 2 player(s)" in c.ok("event", "show")
    assert "--why" in c.fails("round", "consolation", "--promote", "2")
    out = c.ok("round", "consolation", "--promote", "2", "--why", "17 players: all play on")
    assert "the best 2 of them play on in top-15" in out
    draw_deciding_ties_by_lot(c, "2")
    comp = c.competition()
    assert sum(len(t.players) for t in comp.event.seating("top-15")) == 17
    assert "the organizer's decision" in " ".join(c.ok("event", "show").split())
    c.ok("export", "csv", str(tmp_path / "out"))
    text = (tmp_path / "out" / "consolation.csv").read_bytes().decode("utf-8-sig")
    (row,) = csv.DictReader(io.StringIO(text))
    assert (row["Stage"], row["Decision"], row["Why"]) == (
        "top-15", "the best 2 play on", "17 players: all play on",
    )
    c.ok("export", "archive", str(tmp_path / "liga.zip"))
    with zipfile.ZipFile(tmp_path / "liga.zip") as made:
        names = {n.split("/", 1)[1] for n in made.namelist()}
        index = made.read(next(n for n in made.namelist() if n.endswith("/index.html")))
    assert {"csv/consolation.csv", "html/consolation.html", "pdf/consolation.pdf"} <= names
    assert "the organizer&#x27;s seating of the consolation games" in index.decode()
    c.ok("round", "start")
    play_round(c, rng)
    c.ok("round", "close")
    draw_deciding_ties_by_lot(c, "3")
    c.ok("round", "start")
    play_round(c, rng)
    c.ok("round", "close")
    history = c.competition().event
    played: dict[str, int] = {}
    for stage in history.stages_played:
        for game in history.results(stage).values():
            for pid in game:
                played[pid] = played.get(pid, 0) + 1
    assert len(played) == 17 and min(played.values()) >= 4


def test_decisions_are_exported_with_who_when_and_why(tmp_path: Path) -> None:
    c, b, d = league_top8_with_a_tie_at_table_1(tmp_path)
    c.ok("tie", "decide", d, b, "--why", "fewer penalties", by="judge Ewa")
    c.ok("export", "csv", str(tmp_path / "out"))
    text = (tmp_path / "out" / "ties.csv").read_bytes().decode("utf-8-sig")
    (row,) = csv.DictReader(io.StringIO(text))
    assert (row["Scope"], row["How"], row["By"], row["Why"]) == (
        "tables/table-1", "judge", "judge Ewa", "fewer penalties",
    )
    assert row["Players"].index(f"({d})") < row["Players"].index(f"({b})") and row["When"]
    assert not (tmp_path / "out" / "consolation.csv").exists()
