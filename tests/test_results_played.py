"""A result belongs to a game that was played (RULES.md §5): a judge's result for a game the
table has not ended is refused with what to do, on the command line and the web, unless the
judge confirms it on purpose with the reason; a table's refused result shows on the judges'
pages; a refusal the table cannot change by sending again says so to the table. The
organizer's command line, the hub's conductor and the web console on one real store (the
unit's side, with the real hub service: ``test_table_game.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_cli_support import Cli
from test_conductor import TOPICS, Clock, submission
from test_web import client_for, text_of
from test_web_judge import field_error, post_result
from web_console import school_hall, signed_in

from hub.conductor import Conductor
from hub.organizer import Organizer
from hub.store import EventStore
from hub.web.auth import WebRole
from tablekit.core.codec import decode
from tablekit.core.messages import Assignment, ResultAck

RACKS = "A=0 B=23 C=12 D=85"


@pytest.fixture
def hall(tmp_path: Path) -> Cli:
    """A school event of eight, drawn and started: two tables of four, no units."""
    return school_hall(tmp_path / "event.sqlite3")


def test_a_hub_entry_for_a_game_after_the_one_the_table_plays_is_refused(hall: Cli) -> None:
    # round 1 closed with table 2's game 2 missing, round 2 drawn: game 2 of table 2
    # without --stage would be round 2's, before its game 1 was played
    for table in (1, 2):
        hall.ok("result", "enter", "--table", str(table), "--game", "1", "--racks", RACKS)
    hall.ok("result", "enter", "--table", "1", "--game", "2", "--racks", RACKS)
    hall.ok("round", "close", "--force", "--why", "table 2 ran out of time")
    hall.ok("round", "draw", "--seed", "9")
    refused = hall.fails("result", "enter", "--table", "2", "--game", "2", "--racks", "0 4 4 4")
    assert refused == (
        "rummikub: result enter: table 2 has no result for game 1 of round 2: the games are "
        "played in order, so game 2 has not been played yet. Nothing recorded: enter the game "
        "the table has ended (--game, --stage), or, on purpose, give --force and --why"
    )
    assert hall.fails(
        "result", "enter", "--table", "2", "--game", "2", "--racks", "0 4 4 4", "--force"
    ) == (
        "rummikub: result enter: --force goes with --why: say why a game the table has not "
        "ended is entered"
    )
    # what the organizer meant: round 1's game 2, a late result with its reason
    hall.ok("result", "enter", "--table", "2", "--game", "2", "--racks", "0 4 4 4",
            "--stage", "round-1", "--why", "from the score sheet")
    assert [v.record.stage for v in hall.competition().history("round-1", 2, 2)] == ["round-1"]
    assert not hall.competition().history("round-2", 2, 2)
    # on purpose, with the reason: stored, the reason kept
    hall.ok("result", "enter", "--table", "2", "--game", "2", "--racks", "0 4 4 4",
            "--force", "--why", "played on paper while the unit was repaired")
    [version] = hall.competition().history("round-2", 2, 2)
    assert version.record.why == "played on paper while the unit was repaired"


def test_the_judges_form_refuses_a_game_not_played_until_confirmed_with_a_reason(
    hall: Cli,
) -> None:
    with client_for(hall.db) as judge:
        signed_in(judge, WebRole.JUDGE)
        before = hall.records()
        refused = post_result(judge, 2, 2, RACKS)
        assert refused.status_code == 400
        said = field_error(refused.text, "not_ended")
        assert said == (
            "stolik 2 nie ma wyniku gry 1 rundy 1: gry rozgrywa się po kolei, więc gra 2 nie "
            "została jeszcze rozegrana"
        )
        assert 'name="not_ended" type="checkbox"' in refused.text
        assert "--" not in text_of(refused.text)  # no command-line flags on a web page
        no_reason = post_result(judge, 2, 2, RACKS, not_ended="on")
        assert no_reason.status_code == 400
        assert "wymaga powodu" in field_error(no_reason.text, "why")
        assert hall.records() == before
        stored = post_result(judge, 2, 2, RACKS, not_ended="on", why="karta stolika z gry 2")
        assert stored.status_code == 303
        [version] = hall.competition().history("round-1", 2, 2)
        assert (version.record.by, version.record.why) == ("judge-1", "karta stolika z gry 2")
        # the table's assignment tells its unit at once
        sent = Conductor(Organizer(EventStore(hall.db)), TOPICS).messages()
        assign = next(m for m in sent if m.topic == TOPICS.assign(2))
        told = decode(Assignment, assign.payload)
        assert (told.game, told.games, told.recorded) == (1, 2, (2,))


def test_a_refused_table_result_shows_on_the_judges_pages_and_the_table_is_told_it_is_final(
    tmp_path: Path,
) -> None:
    hall = school_hall(tmp_path / "event.sqlite3")
    hall.ok("result", "enter", "--table", "1", "--game", "1", "--racks", RACKS)
    organizer = Organizer(EventStore(hall.db), by="hub", clock=Clock())
    conductor = Conductor(organizer, TOPICS, clock=Clock())
    # table 1's unit sends game 1 again with other values: the game is closed
    answer = conductor.judge(submission(1, 1, 4, seq=7, tiles=5))
    organizer.record(*(record for _, record in answer))
    sent = {m.topic: m.payload for m in conductor.messages()}
    verdict = decode(ResultAck, sent[TOPICS.result(1)])
    assert not verdict.accepted and verdict.final
    # a score the table can correct is not final
    answer = conductor.judge(submission(2, 1, 4, seq=3, tiles=800))
    organizer.record(*(record for _, record in answer))
    sent = {m.topic: m.payload for m in conductor.messages()}
    verdict = decode(ResultAck, sent[TOPICS.result(2)])
    assert not verdict.accepted and not verdict.final
    with client_for(hall.db) as judge:
        signed_in(judge, WebRole.JUDGE)
        queue = text_of(judge.get("/judge").text)
        assert "Wyniki ze stolików odrzucone przez centralę" in queue
        refusals = queue[queue.index("odrzucone przez centralę"):]
        assert "Stolik 2 , gra 1" in refusals and "Wprowadź wynik" in refusals
        assert "Stolik 1" not in refusals.split("Wszystkie stoliki")[0]  # recorded: done
        table = text_of(judge.get("/judge/tables/1").text)
        assert "Wyniki z tego stolika odrzucone przez centralę" in table
        assert "gra 1" in table and "Jej wynik jest już zapisany." in table
        table_2 = judge.get("/judge/tables/2").text
        assert 'href="/judge/result?table=2&amp;game=1"' in table_2
