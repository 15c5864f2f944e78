"""Corrections of any game at any time, shown before they are stored when they change
who qualified, a seating drawn, places, titles or league points; undoing a draw no table
has started (issue 13)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_cli_support import Cli, Clock, checked_in, play_round, play_rounds

from hub.competition import Competition, CompetitionError
from hub.conductor import Conductor
from hub.effects import ChangeKind, UnconfirmedChangeError
from hub.organizer import Organizer
from hub.store import EventStore
from hub.tournament import Player
from tablekit.core.clock_events import GameStarted
from tablekit.core.codec import decode
from tablekit.core.messages import Assignment, EventEnvelope
from tablekit.core.racks import format_racks, parse_racks
from tablekit.core.scoring import GameEnding, GameReport, Opening, RackReport
from tablekit.core.seats import Seat
from tablekit.core.topics import Topics


def championship_at_the_semifinal(tmp_path: Path) -> Cli:
    """002 with 16 players: three eliminations played and closed, the semifinal drawn."""
    c = checked_in(tmp_path, "championship", 16)
    play_rounds(c, random.Random(7), range(3))
    c.ok("round", "draw", "--seed", "9")
    return c


def lift(comp: Competition, pid: str, stage: str) -> tuple[int, int, str]:
    """(table, game, racks): a game ``pid`` lost in ``stage``, rewritten so that they
    went out and every other player never opened."""
    for (name, table, game), versions in sorted(comp.results.items()):
        version = versions[-1]
        seat = {p: s for s, p in version.players.items()}.get(pid)
        if name != stage or seat is None:
            continue
        if any(s.winner for s in version.score.scores if s.seat == seat):
            continue
        racks = format_racks(
            [
                RackReport(s) if s == seat else RackReport(s, 90, opening=Opening.NOT_OPENED)
                for s in sorted(version.players)
            ]
        )
        return table, game, racks
    raise AssertionError(f"{pid} won every game of {stage}")


def test_a_correction_two_rounds_back_shows_who_would_qualify_before_it_is_stored(
    tmp_path: Path,
) -> None:
    c = championship_at_the_semifinal(tmp_path)
    comp = c.competition()
    ranking = comp.event.standings("elimination-3")
    ninth = ranking.rows[8].player_id  # the first one out of the semifinal of 8
    semifinal = comp.event.seating("semifinal")
    assert ninth not in {p for t in semifinal for p in t.players}
    table, game, racks = lift(comp, ninth, "elimination-1")
    assert comp.history("elimination-1", table, game)  # a result is there to correct
    argv = (
        "result", "enter", "--stage", "elimination-1", "--table", str(table), "--game",
        str(game), "--racks", racks, "--why", "the sheet was misread",
    )

    refused = c.run(*argv)  # not a terminal, no --yes: shown, not stored
    assert refused.code == 2 and "run again with --yes" in refused.err
    assert "would now qualify" in refused.out and ninth in refused.out
    assert "would no longer qualify" in refused.out and "seating already drawn" in refused.out
    assert c.competition().history("elimination-1", table, game) == comp.history(
        "elimination-1", table, game
    )

    out = c.ok(*argv, "--yes", by="sędzia główny")
    assert "would now qualify" in out and "Version 2 (correction, judge)" in out
    after = c.competition()
    versions = after.history("elimination-1", table, game)
    assert len(versions) == 2 and versions[-1].record.by == "sędzia główny"
    assert versions[-1].record.why == "the sheet was misread"
    assert after.event.standings("elimination-3").place_of(ninth) <= 8
    assert after.event.seating("semifinal") == semifinal  # the tables played stay
    assert "Version 2" in c.ok(
        "result", "history", "--stage", "elimination-1", "--table", str(table), "--game",
        str(game),
    )


def test_the_effects_name_each_change_and_the_same_result_again_is_refused(
    tmp_path: Path,
) -> None:
    c = championship_at_the_semifinal(tmp_path)
    org = Organizer(EventStore(c.db), by="judge")
    comp = org.competition
    ninth = comp.event.standings("elimination-3").rows[8].player_id
    table, game, racks = lift(comp, ninth, "elimination-1")
    report = GameReport(game, GameEnding.WENT_OUT, parse_racks(racks, len(
        comp.event.seating("elimination-1")[table - 1].players)))
    with pytest.raises(UnconfirmedChangeError, match="changes drops, qualifies, seating") as err:
        org.enter_result(table, report, why="misread", stage="elimination-1")
    kinds = {(ch.kind, ch.player_id) for ch in err.value.changes}
    assert (ChangeKind.QUALIFIES, ninth) in kinds
    assert any(k is ChangeKind.DROPS for k, _ in kinds)
    assert len(org.competition.history("elimination-1", table, game)) == 1
    with pytest.raises(CompetitionError, match="needs a reason"):
        org.enter_result(table, report, stage="elimination-1", confirmed=True)

    # The same result typed again changes nothing: refused, nothing stored.
    same = org.competition.history("elimination-1", table, game)[-1].record.report
    with pytest.raises(CompetitionError, match="version 1 already says this; nothing to"):
        org.enter_result(table, same, why="re-typed", stage="elimination-1")
    assert len(org.competition.history("elimination-1", table, game)) == 1


def test_a_correction_in_a_terminal_asks_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    c = championship_at_the_semifinal(tmp_path)
    comp = c.competition()
    ninth = comp.event.standings("elimination-3").rows[8].player_id
    table, game, racks = lift(comp, ninth, "elimination-1")
    argv = (
        "result", "enter", "--stage", "elimination-1", "--table", str(table), "--game",
        str(game), "--racks", racks, "--why", "misread",
    )
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    answers = iter(["n", "tak"])
    monkeypatch.setattr("builtins.input", lambda prompt: next(answers))
    declined = c.run(*argv)
    assert declined.code == 1 and "Nothing recorded" in declined.out
    assert len(c.competition().history("elimination-1", table, game)) == 1
    accepted = c.run(*argv)
    assert accepted.code == 0 and "Version 2" in accepted.out
    assert len(c.competition().history("elimination-1", table, game)) == 2


def test_a_late_result_for_an_earlier_round_needs_a_reason(tmp_path: Path) -> None:
    c = checked_in(tmp_path, "school", 8)
    c.ok("round", "draw", "--seed", "1")
    play_round(c, random.Random(1), skip={(2, 2)})
    c.ok("round", "close", "--force", "--why", "table 2 left")
    c.ok("round", "draw", "--seed", "2")
    args = ("result", "enter", "--stage", "round-1", "--table", "2", "--game", "2",
            "--racks", "A=0 B=5 C=6 D=7")
    assert "a late result needs a reason" in c.fails(*args)
    c.ok(*args, "--why", "the sheet turned up")
    assert c.competition().history("round-1", 2, 2)[-1].record.why == "the sheet turned up"


TOPICS = Topics("hall", "cup")


def test_an_undone_draw_clears_the_tables_and_is_drawn_again(tmp_path: Path) -> None:
    clock = Clock()
    org = Organizer(EventStore(tmp_path / "hub.sqlite3"), by="Ola", clock=clock)
    org.create_event("Konkurs", "school")
    org.register([Player(org.next_player_id(i), f"Gracz {i}") for i in range(8)], check_in=True)
    conductor = Conductor(org, TOPICS, clock=clock)
    first = org.draw(seed=3)
    org.start_round()
    sent = {m.topic: m.payload for m in conductor.messages()}
    assert decode(Assignment, sent[TOPICS.assign(1)]).round == 1

    undone = org.undo_draw("wrong players checked in")
    assert undone.stage == "round-1"
    comp = org.competition
    assert comp.event.stages_played == () and comp.open_stage() is None
    assert comp.undone[0][0].why == "wrong players checked in" and comp.undone[0][0].by == "Ola"
    cleared = {m.topic: m.payload for m in conductor.messages()}
    for topic in (TOPICS.assign(1), TOPICS.assign(2), TOPICS.round, TOPICS.seating,
                  TOPICS.standings):
        assert cleared[topic] == b"", topic  # the units and screens are told
    org.register([Player(org.next_player_id(), "Spóźniony")], check_in=True)  # check-in again

    again = org.draw(seed=3)
    assert again.stage == "round-1" and again.tables != first.tables  # nine players now
    org.start_round()  # the round can start again
    resent = {m.topic: m.payload for m in conductor.messages()}
    assert decode(Assignment, resent[TOPICS.assign(1)]).round == 1

    # A table has started a game of this draw: it can no longer be undone.
    started = EventEnvelope(
        v=1, unit="table-02", table=2, seq=1, ts=1.0,
        event=GameStarted(game=1, move=0, starter=Seat.A, seats=3, move_seconds=40.0),
    )
    org.store.ingest([started])
    with pytest.raises(CompetitionError, match=r"table\(s\) 2 have started a game since the draw"):
        org.undo_draw("too late")
    assert len(org.competition.undone) == 1


def test_round_undo_on_the_command_line(tmp_path: Path) -> None:
    c = checked_in(tmp_path, "school", 8)
    c.ok("round", "draw", "--seed", "1")
    assert "--why" in c.fails("round", "undo")
    c.ok("result", "enter", "--table", "1", "--game", "1", "--racks", "A=0 B=5 C=6 D=7")
    assert "results are recorded (table 1 game 1)" in c.fails("round", "undo", "--why", "x")
    play_round(c, random.Random(2))
    c.ok("round", "close")
    assert "no round is drawn and open" in c.fails("round", "undo", "--why", "x")
    c.ok("round", "draw", "--seed", "2")
    out = c.ok("round", "undo", "--why", "drawn by mistake")
    assert "Draw of round-2 undone" in out
    comp = c.competition()
    assert comp.event.stages_played == ("round-1",)
    redrawn = c.ok("round", "draw", "--seed", "2")
    assert "Round 2: " in redrawn



def test_a_deduction_in_an_earlier_round_is_shown_before_it_is_stored(tmp_path: Path) -> None:
    c = championship_at_the_semifinal(tmp_path)
    rows = c.competition().event.standings("elimination-3").rows
    eighth, ninth = rows[7], rows[8]  # the last one in the semifinal, the first one out
    big = eighth.big - ninth.big + 1
    argv = ("sanction", "deduct", eighth.player_id, "--big", str(big), "--stage",
            "elimination-1", "--why", "przeszkadzanie")
    refused = c.run(*argv)
    assert refused.code == 2 and "run again with --yes" in refused.err
    assert "would no longer qualify" in refused.out and eighth.player_id in refused.out
    assert not c.competition().sanctions
    c.ok(*argv, "--yes")
    comp = c.competition()
    assert comp.event.standings("elimination-3").place_of(eighth.player_id) > 8
    assert [r.why for r in comp.sanctions] == ["przeszkadzanie"]
    # A warning changes nothing weighty: recorded at once.
    c.ok("sanction", "warn", ninth.player_id, "--why", "uwaga")


def test_every_correction_and_undone_draw_is_listed_for_the_judge(tmp_path: Path) -> None:
    c = checked_in(tmp_path, "school", 8)
    assert "No corrections recorded" in c.ok("result", "corrections")
    c.ok("round", "draw", "--seed", "1")
    c.ok("round", "undo", "--why", "drawn too early", by="Ola")
    c.ok("round", "draw", "--seed", "1")
    play_round(c, random.Random(3))
    racks = ("--racks", "A=0 B=1 C=2 D=3")
    c.ok("result", "enter", "--table", "2", "--game", "1", *racks, "--why", "B miscounted",
         by="sędzia Jan")
    listed = c.ok("result", "corrections")
    row = next(ln for ln in listed.splitlines() if ln.startswith("round-1"))
    assert row.split()[:4] == ["round-1", "2", "1", "2"]
    assert "sędzia Jan" in row and "B miscounted" in row
    assert "Draw of round-1 undone" in listed and "by Ola" in listed
    assert "drawn too early" in listed
    assert "1 correction(s), 0 sanction(s), 1 draw(s) undone" in c.ok("event", "show")
