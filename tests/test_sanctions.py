"""A judge's sanctions (002 §3, RULES.md §3.5): warnings, big points deducted and
disqualifications, recorded with who/when/why and shown in standings, exports and a
player's history."""

from __future__ import annotations

import csv
import io
import random
from pathlib import Path

from test_cli_support import Cli, checked_in, play_round
from test_corrections import championship_at_the_semifinal
from test_web import client_for, text_of

from hub.exports.grid import when
from hub.exports.standings import standings_grid
from hub.tournament import EventState, PlayerSanctioned, SanctionKind, preset
from hub.tournament.facts import GameRecorded, PlayerScore, RoundClosed, check_in_all
from hub.tournament.players import Player
from tablekit.shared.i18n import words


def school_round_one(tmp_path: Path) -> Cli:
    """A school event, 8 players, round 1 played: seat A wins every game."""
    c = checked_in(tmp_path, "school", 8)
    c.ok("round", "draw", "--seed", "5")
    c.ok("round", "start")
    for table in (1, 2):
        for game in (1, 2):
            c.ok(
                "result", "enter", "--table", str(table), "--game", str(game),
                "--racks", "A=0 B=10 C=20 D=30" if table == 1 else "A=0 B=5 C=5 D=5",
            )
    return c


def csv_rows(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8-sig"))))


def test_a_deduction_counts_in_standings_and_exports(tmp_path: Path) -> None:
    c = school_round_one(tmp_path)
    comp = c.competition()
    leader, second = comp.event.standings().rows[:2]
    assert (leader.big, second.big) == (2, 2) and leader.small > second.small
    out = c.ok(
        "sanction", "deduct", leader.player_id, "--big", "1", "--why", "przeszkadzanie",
        by="sędzia Jan",
    )
    assert f"{leader.player_id} " in out and "1 big point deducted in round-1" in out
    comp = c.competition()
    rows = comp.event.standings().rows
    assert [r.player_id for r in rows[:2]] == [second.player_id, leader.player_id]
    assert (rows[1].big, rows[1].deducted, rows[1].small) == (1, 1, leader.small)
    assert comp.event.overall_standings().row(leader.player_id).big == 1

    standings = c.ok("standings")
    line = next(ln for ln in standings.splitlines() if leader.player_id in ln)
    assert line.split()[0] == "2" and "−1 BP" in line
    assert "Sanctions" in standings and "BP after the judge's deductions" in standings

    c.ok("export", "csv", str(tmp_path / "out"))
    by_id = {r["player_id"]: r for r in csv_rows(tmp_path / "out" / "standings.csv")}
    assert (by_id[leader.player_id]["bp"], by_id[leader.player_id]["bp_deducted"]) == ("1", "1")
    assert by_id[leader.player_id]["place"] == "2"
    assert by_id[second.player_id]["bp_deducted"] == "0"
    [sanction] = csv_rows(tmp_path / "out" / "sanctions.csv")
    assert (sanction["player_id"], sanction["sanction"], sanction["bp"]) == (
        leader.player_id, "deduction", "1")
    assert (sanction["by"], sanction["why"], sanction["stage"]) == (
        "sędzia Jan", "przeszkadzanie", "round-1")
    assert sanction["at"].startswith("2023-11-")

    c.ok("export", "html", str(tmp_path / "html"))
    page = (tmp_path / "html" / "standings.html").read_text(encoding="utf-8")
    assert "−1 BP" in page and "przeszkadzanie" in page and "sędzia Jan" in page

    history = c.ok("players", "history", leader.player_id)
    assert "Games of" in history and "przeszkadzanie" in history
    assert len([ln for ln in history.splitlines() if ln.startswith("round-1 ")]) == 3
    assert "−1" in history  # the stage line shows the deduction


def test_warnings_are_recorded_and_shown_without_points(tmp_path: Path) -> None:
    c = school_round_one(tmp_path)
    before = c.competition().event.standings()
    c.ok("sanction", "warn", "P004", "--why", "niecenzuralne słowa")
    c.ok("sanction", "warn", "4", "--why", "again")
    assert c.competition().event.standings() == before
    line = next(ln for ln in c.ok("standings").splitlines() if "P004" in ln)
    assert "2 warnings" in line
    listed = c.ok("sanction", "list")
    assert listed.count("  warning  ") == 2 and "niecenzuralne słowa" in listed


def test_a_sanction_shows_in_the_standings_of_its_stage_and_later_ones(tmp_path: Path) -> None:
    c = school_round_one(tmp_path)
    c.ok("round", "close")
    c.ok("round", "draw", "--seed", "1")
    c.ok("sanction", "warn", "P004", "--why", "hałas")
    c.ok("sanction", "disqualify", "P006", "--why", "oszustwo")

    def line(*argv: str, pid: str) -> str:
        return next(ln for ln in c.ok("standings", *argv).splitlines() if pid in ln)

    assert "warning" not in line("--stage", "round-1", pid="P004")
    assert "DQ" not in line("--stage", "round-1", pid="P006")
    assert "1 warning" in line(pid="P004") and "1 warning" in line("--overall", pid="P004")
    assert "DQ" in line("--overall", pid="P006")
    c.ok("export", "csv", str(tmp_path / "out"))
    rows = csv_rows(tmp_path / "out" / "standings.csv")
    p4 = {r["stage"]: r["warnings"] for r in rows if r["player_id"] == "P004"}
    p6 = {r["stage"]: r["disqualified"] for r in rows if r["player_id"] == "P006"}
    assert p4 == {"round-1": "0", "round-2": "1"} and p6["round-1"] == "0"


def test_sanctions_need_a_reason_a_player_and_a_stage_they_played(tmp_path: Path) -> None:
    c = school_round_one(tmp_path)
    assert "--why" in c.fails("sanction", "deduct", "P001", "--big", "1")
    assert "say why" in c.fails("sanction", "warn", "P001", "--why", "  ")
    assert "unknown player" in c.fails("sanction", "warn", "P042", "--why", "x")
    refused = c.fails("sanction", "deduct", "P001", "--big", "0", "--why", "x")
    assert "whole number from 1" in refused
    assert "'round-2' is not drawn" in c.fails(
        "sanction", "deduct", "P001", "--big", "1", "--why", "x", "--stage", "round-2"
    )


def test_a_disqualified_player_is_not_seated_again_and_ranks_last(tmp_path: Path) -> None:
    c = school_round_one(tmp_path)
    leader = c.competition().event.standings().rows[0].player_id
    out = c.ok("sanction", "disqualify", leader, "--why", "oszustwo")
    assert "not seated in any later round" in out
    assert "disqualified" in c.fails("sanction", "warn", leader, "--why", "x")
    c.ok("round", "close")
    c.ok("round", "draw", "--seed", "1")
    comp = c.competition()
    seated = {pid for t in comp.event.seating("round-2") for pid in t.players}
    assert leader not in seated and len(seated) == 7
    assert "disqualified" in c.ok("players", "list")
    assert "DQ" in next(ln for ln in c.ok("standings", "--overall").splitlines() if leader in ln)


def test_disqualified_players_rank_after_everyone_without_a_title() -> None:
    fmt = preset("school")
    players = [Player(f"P{i}", f"Gracz {i}") for i in range(1, 9)]
    state = EventState.replay(fmt, check_in_all(players))
    for number, stage in enumerate(s.name for s in fmt.stages):
        seated = state.draw_next(number)
        state = state.apply(seated)
        for table in seated.tables:
            for game in range(1, fmt.stages[number].games + 1):
                scores = tuple(
                    PlayerScore(pid, 1 if i == 0 else 0, 30 if i == 0 else -10)
                    for i, pid in enumerate(table.players)
                )
                state = state.apply(GameRecorded(stage, table.number, game, scores))
        if number == 0:
            champion = state.standings(stage).rows[0].player_id
            state = state.apply(
                PlayerSanctioned(champion, SanctionKind.DISQUALIFICATION, stage)
            )
        state = state.apply(_closed(stage))
    ranking = state.final_ranking()
    assert len(ranking) == 8 and ranking[-1].place == 8
    assert [r.place for r in ranking] == sorted(r.place for r in ranking)
    assert ranking[-1].player_id == champion and ranking[-1].title is None
    assert ranking[0].player_id != champion and ranking[0].shown_title is not None


def _closed(stage: str) -> RoundClosed:
    return RoundClosed(stage)


def test_the_standings_grid_has_no_sanctions_column_without_sanctions(tmp_path: Path) -> None:
    c = school_round_one(tmp_path)
    grid = standings_grid(c.competition(), words=words("en"))
    assert "Sanctions" not in grid.headers and grid.note == ""


def test_a_sanction_given_by_mistake_is_lifted_with_who_when_and_why(tmp_path: Path) -> None:
    c = school_round_one(tmp_path)
    before = c.competition().event.standings()
    leader = before.rows[0].player_id
    c.ok("sanction", "deduct", leader, "--big", "2", "--why", "przeszkadzanie")
    c.ok("sanction", "warn", "P003", "--why", "hałas")
    c.ok("sanction", "disqualify", "P005", "--why", "pomyłka sędziego")
    assert "there are sanctions 1–3" in c.fails("sanction", "lift", "4", "--why", "x")
    assert "--why" in c.fails("sanction", "lift", "1")

    out = c.ok("sanction", "lift", "1", "--why", "wrong player", by="sędzia główny")
    assert f"Sanction 1 lifted (deduction of {leader}" in out
    c.ok("sanction", "lift", "3", "--why", "wrong table")
    assert "already lifted" in c.fails("sanction", "lift", "1", "--why", "again")
    comp = c.competition()
    assert comp.event.standings() == before  # the points are back
    assert "P005" in comp.event.present and "P005" not in comp.event.disqualified
    listed = c.ok("sanction", "list")
    lifted = next(ln for ln in listed.splitlines() if ln.lstrip().startswith("1 "))
    assert "by sędzia główny: wrong player" in lifted
    stamp = when(c.competition().lifts[1].at, words("en"))  # the lists' time
    assert f"{stamp} by sędzia główny" in lifted and "T" not in stamp and "+" not in listed
    assert comp.warnings_of("P003") == 1
    c.ok("export", "csv", str(tmp_path / "out"))
    rows = csv_rows(tmp_path / "out" / "sanctions.csv")
    assert [(r["number"], r["lifted_by"], r["lifted_why"]) for r in rows] == [
        ("1", "sędzia główny", "wrong player"),
        ("2", "", ""),
        ("3", c.by, "wrong table"),
    ]
    c.ok("round", "close")
    c.ok("round", "draw", "--seed", "1")
    seated = {p for t in c.competition().event.seating("round-2") for p in t.players}
    assert "P005" in seated  # a lifted disqualification seats the player again


def test_a_deduction_of_an_earlier_round_shows_where_it_counts(tmp_path: Path) -> None:
    """−2 BP given in an elimination round: the semifinal's standings (which count only
    the semifinal's games) show it with its round and that they do not count it, beside
    the warning — on the command line, the printout, the CSV and the web pages."""
    c = championship_at_the_semifinal(tmp_path)
    player = c.competition().event.seating("semifinal")[0].players[0]
    c.ok("sanction", "deduct", player, "--big", "2", "--stage", "elimination-1",
         "--why", "przeszkadzanie", "--yes")
    c.ok("sanction", "warn", player, "--why", "hałas")  # in the semifinal
    line = " ".join(next(ln for ln in c.ok("standings").splitlines() if player in ln).split())
    assert "−2 BP (elimination-1; not counted here), 1 warning (semifinal)" in line
    elimination = c.ok("standings", "--stage", "elimination-3")
    said = " ".join(next(ln for ln in elimination.splitlines() if player in ln).split())
    assert "−2 BP (elimination-1)" in said and "not counted" not in said  # counts there
    polish = Cli(c.db, lang="pl").ok("standings")
    said = " ".join(next(ln for ln in polish.splitlines() if player in ln).split())
    assert "−2 DP (runda eliminacyjna 1; nie liczy się tutaj)" in said
    c.ok("export", "csv", str(tmp_path / "out"))
    rows = csv_rows(tmp_path / "out" / "standings.csv")
    semi = next(r for r in rows if r["player_id"] == player and r["stage"] == "semifinal")
    assert semi["sanctions"] == "−2 BP (elimination-1; not counted here), 1 warning (semifinal)"
    with client_for(c.db) as client:
        page = text_of(client.get("/standings?lang=en").text)
        assert "−2 BP (elimination-1; not counted here), 1 warning (semifinal)" in page
        own = text_of(client.get(f"/players/{player}?lang=en").text)
        assert "−2 BP (elimination-1; not counted here)" in own


def test_withdrawn_players_are_marked_in_the_standings_and_the_ranking(
    tmp_path: Path,
) -> None:
    c = school_round_one(tmp_path)
    c.ok("round", "close")
    c.ok("players", "withdraw", "P003", "--reason", "choroba")
    standings = c.ok("standings")
    assert "Withdrawal" in standings
    line = " ".join(next(ln for ln in standings.splitlines() if "P003" in ln).split())
    assert line.endswith("withdrawn")
    for seed in ("13", "14", "15"):
        for tie in c.competition().event.pending_ties():
            c.ok("tie", "lot", "--scope", tie.scope, *tie.players)
        c.ok("round", "draw", "--seed", seed)
        c.ok("round", "start")
        play_round(c, random.Random(3))
        c.ok("round", "close")
    ranking = c.ok("ranking")
    line = " ".join(next(ln for ln in ranking.splitlines() if "P003" in ln).split())
    assert line.endswith("withdrawn")
    c.ok("export", "csv", str(tmp_path / "out"))
    marks = {r["player_id"]: r["withdrawn"] for r in csv_rows(tmp_path / "out" / "ranking.csv")}
    assert marks["P003"] == "1" and set(marks.values()) == {"0", "1"}
    c.ok("export", "html", str(tmp_path / "html"))
    assert "withdrawn" in (tmp_path / "html" / "ranking.html").read_text(encoding="utf-8")
