"""The judges' work: a judge call resolved with a note (recorded as the organizer's
command line records it, shown in the table's history), results entered and corrected.

The event is made by the organizer's command line (:mod:`test_cli_support`); what the
judges' pages do is read back through the command line, and what the command line does
through the pages: one logic, one store.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from httpx2 import Response
from starlette.testclient import TestClient
from test_cli_support import Cli
from test_cli_ties import league_top8_with_a_tie_at_table_1
from test_corrections import championship_at_the_semifinal, lift
from test_web import TOPICS, client_for, text_of
from web_console import (
    EventStream,
    TableLink,
    form_token,
    form_tokens,
    school_hall,
    serve_console,
    signed_in,
)

from hub.broker import MosquittoBroker
from hub.competition import JudgeCallResolved, ResultSource
from hub.organizer import Organizer
from hub.store import EventStore
from hub.web.app import make_app
from hub.web.auth import WebRole
from hub.web.live import LiveTables
from hub.web.pages import Console, EventReader
from tablekit.core.clock_events import PauseReason
from tablekit.core.racks import parse_racks
from tablekit.core.scoring import GameEnding, GameReport, Opening
from tablekit.core.seats import Seat


@pytest.fixture
def hall(tmp_path: Path) -> Cli:
    """A school event of eight, drawn and started: two tables of four."""
    return school_hall(tmp_path / "event.sqlite3")


# --- judge calls through the command line -------------------------------------------------


def test_a_judge_call_resolved_is_recorded_with_who_when_and_the_note(hall: Cli) -> None:
    out = hall.ok("call", "resolve", "--table", "2", "--game", "1", "--note",
                  "B took back a tile; warned", by="judge Ala")
    assert "Judge call at table 2 (round-1) resolved" in out and "by judge Ala" in out
    (call,) = hall.competition().judge_calls
    assert (call.stage, call.table, call.game, call.by) == ("round-1", 2, 1, "judge Ala")
    assert call.note == "B took back a tile; warned" and call.called is None
    listed = hall.ok("call", "list", "--table", "2")
    assert "Judge calls resolved at table 2" in listed
    assert "B took back a tile; warned" in listed and "judge Ala" in listed
    assert "No judge call resolved yet" in hall.ok("call", "list", "--table", "1")
    hall.lang = "pl"  # the stage by its name, never the format's id
    out = hall.ok("call", "resolve", "--table", "1", "--game", "1", "--note", "upomnienie",
                  by="judge Ala")
    assert "Wezwanie sędziego przy stoliku 1 (runda 1) rozstrzygnięte" in out


def test_a_refused_resolution_says_why_and_stores_nothing(hall: Cli) -> None:
    before = hall.records()
    assert "table 9: round-1 has tables 1–2" in hall.fails(
        "call", "resolve", "--table", "9", "--note", "x"
    )
    assert "say what the judge decided" in hall.fails("call", "resolve", "--table", "1",
                                                      "--game", "1", "--note", "   ")
    assert "has games 1–2, got game 5" in hall.fails(
        "call", "resolve", "--table", "1", "--game", "5", "--note", "x"
    )
    assert hall.records() == before


def test_the_call_the_judge_saw_is_kept_with_its_waiting_time(hall: Cli) -> None:
    """The web console resolves a call from the waiting table: why it waited and since
    when are recorded with the note, and the command line lists them in Polish."""
    organizer = Organizer(EventStore(hall.db), by="sędzia Ala", clock=lambda: 1_700_000_125.0)
    try:
        record = organizer.resolve_call(
            1, "Zasada potwierdzona, gra toczy się dalej", game=2,
            called=PauseReason.PLAYER_CALL, since=1_700_000_000.0,
        )
    finally:
        organizer.store.close()
    assert isinstance(record, JudgeCallResolved)
    polish = Cli(hall.db, lang="pl")
    listed = polish.ok("call", "list")
    assert "WEZWANO SĘDZIEGO" in listed and "2 min 5 s" in listed
    assert "Zasada potwierdzona, gra toczy się dalej" in listed and "sędzia Ala" in listed


# --- the judges' pages ----------------------------------------------------------------------


@pytest.fixture
def judge(hall: Cli) -> Iterator[TestClient]:
    """The console on ``hall``'s event, signed in as the test bundle's first judge."""
    with client_for(hall.db) as client:
        signed_in(client, WebRole.JUDGE)
        yield client


def fields(racks: str, seats: int = 4) -> dict[str, str]:
    """The result form's fields for racks in the command line's notation."""
    out = {}
    for rack in parse_racks(racks, seats):
        out[f"{rack.seat}-tiles"] = str(rack.tiles)
        out[f"{rack.seat}-jokers"] = str(rack.jokers)
        out[f"{rack.seat}-opening"] = Opening(rack.opening).value
    return out


def post_result(
    client: TestClient, table: int, game: int, racks: str, stage: str = "", **more: str
) -> Response:
    """The result form as a judge fills it in and sends it (the form's own token)."""
    query = {"table": str(table), "game": str(game), **({"stage": stage} if stage else {})}
    page = client.get("/judge/result", params=query)
    assert page.status_code == 200, page.text
    data = {**form_tokens(page.text), **query, **fields(racks), **more}
    return client.post("/judge/result", data=data, follow_redirects=False)


def field_error(html: str, key: str) -> str:
    """The words shown next to a field (``<p id="KEY-error">``)."""
    found = re.search(rf'<p class="field-error" id="{key}-error">(.*?)</p>', html, re.S)
    assert found is not None, f"no error next to {key}"
    return text_of(found.group(1))


def test_the_judges_pages_are_for_a_signed_in_judge(hall: Cli) -> None:
    before = hall.records()
    with client_for(hall.db) as client:
        page = client.get("/judge/result?table=1&game=1", follow_redirects=False)
        assert page.status_code == 303
        assert page.headers["location"].startswith("/login?next=")
        refused = client.post("/judge/result", data={"table": "1", "game": "1",
                                                     **fields("A=0 B=1 C=2 D=3")})
        assert refused.status_code == 403
        signed_in(client, WebRole.JUDGE)
        forged = client.post("/judge/result", data={"table": "1", "game": "1",
                                                    **fields("A=0 B=1 C=2 D=3")})
        assert forged.status_code == 403 and "nic nie zmieniono" in text_of(forged.text)
    assert hall.records() == before


def test_a_result_from_the_web_is_the_command_lines_result(hall: Cli, judge: TestClient) -> None:
    answer = post_result(judge, 1, 1, "A=0 B=23 C=12j D=85np")
    assert answer.status_code == 303
    assert answer.headers["location"].startswith("/judge/result/stored?")
    page = text_of(judge.get(answer.headers["location"]).text)
    assert "Wynik zapisany: stolik 1, gra 1" in page
    assert "Wersja 1 (wynik, sędzia)" in page and "judge-1" in page
    assert "Co zmieniło się w klasyfikacji" in page and "miejsce w klasyfikacji" in page
    (version,) = hall.competition().history("round-1", 1, 1)
    record = version.record
    assert (record.by, record.source, record.why) == ("judge-1", ResultSource.JUDGE, "")
    assert record.report == GameReport(1, GameEnding.WENT_OUT,
                                       parse_racks("A=0 B=23 C=12j D=85np", 4))
    history = hall.ok("result", "history", "--table", "1", "--game", "1")
    assert "Version 1 (result, judge)" in history and "by judge-1" in history
    assert "85, never opened" in history and "12 + joker" in history


@pytest.mark.parametrize(
    ("typed", "key", "says"),
    [
        ({"C-tiles": "dwanaście"}, "C-tiles",
         "miejsce C: suma kostek na tabliczce, liczba całkowita"),
        ({"B-tiles": "0"}, "B-tiles", "tylko jeden gracz może"),
        ({"B-jokers": "2", "C-jokers": "1"}, "C-jokers", "przy stoliku są tylko 2 jokery"),
        ({"A-tiles": "9999"}, "A-tiles", "od 0 do 728"),
    ],
)
def test_a_bad_rack_is_said_next_to_its_field_and_nothing_is_stored(
    hall: Cli, judge: TestClient, typed: dict[str, str], key: str, says: str
) -> None:
    before = hall.records()
    answer = post_result(judge, 2, 1, "A=0 B=23 C=12 D=85", **typed)
    assert answer.status_code == 400
    assert says in field_error(answer.text, key)
    assert f'aria-describedby="{key}-error"' in answer.text
    assert "Nic nie zostało zapisane" in text_of(answer.text)
    for name, value in typed.items():  # the form as it was typed
        if name.endswith("tiles"):
            assert f'name="{name}" type="text" inputmode="numeric" maxlength="4" ' \
                   f'value="{value}"' in answer.text
    assert hall.records() == before


def test_a_correction_needs_its_reason_and_every_version_is_kept(
    hall: Cli, judge: TestClient
) -> None:
    hall.ok("result", "enter", "--table", "2", "--game", "1", "--racks", "A=0 B=23 C=12 D=85")
    form = judge.get("/judge/result?table=2&game=1").text
    assert 'name="B-tiles" type="text" inputmode="numeric" maxlength="4" value="23"' in form
    assert "Popraw wynik" in text_of(form)
    before = hall.records()
    refused = post_result(judge, 2, 1, "A=0 B=20 C=12 D=85")
    assert refused.status_code == 400
    assert "poprawka wymaga powodu" in field_error(refused.text, "why")
    assert hall.records() == before
    answer = post_result(judge, 2, 1, "A=0 B=20 C=12 D=85", why="B policzył źle")
    assert answer.status_code == 303
    versions = hall.competition().history("round-1", 2, 1)
    assert [v.record.by for v in versions] == ["organizer Ola", "judge-1"]
    assert versions[-1].record.why == "B policzył źle"
    shown = text_of(judge.get("/judge/result/history?table=2&game=1").text)
    assert "Wersja 1 (wynik, sędzia)" in shown and "organizer Ola" in shown
    assert "Wersja 2 (poprawka, sędzia)" in shown and "powód: B policzył źle" in shown
    assert "B policzył źle" in hall.ok("result", "corrections")
    listed = text_of(judge.get("/judge/corrections").text)
    assert "B policzył źle" in listed and "judge-1" in listed


def test_a_form_sent_three_times_is_stored_once(hall: Cli, judge: TestClient) -> None:
    """A second click, or the browser's back and send again: the form's one-time token
    is spent, and the hub says so; a correction typed anew that changes nothing is refused
    by the command itself (the command line's too)."""
    hall.ok("result", "enter", "--table", "2", "--game", "1", "--racks", "A=0 B=23 C=12 D=85")
    query = {"table": "2", "game": "1"}
    page = judge.get("/judge/result", params=query).text
    data = {**form_tokens(page), **query, **fields("A=0 B=20 C=12 D=85"), "why": "B źle"}
    answers = [judge.post("/judge/result", data=data, follow_redirects=False) for _ in "123"]
    assert [a.status_code for a in answers] == [303, 409, 409]
    assert "Ten formularz został już wysłany" in text_of(answers[1].text)
    assert len(hall.competition().history("round-1", 2, 1)) == 2
    again = post_result(judge, 2, 1, "A=0 B=20 C=12 D=85", why="B źle")
    assert again.status_code == 400 and "nie ma czego poprawiać" in text_of(again.text)
    assert "nothing to correct" in hall.fails(
        "result", "enter", "--table", "2", "--game", "1", "--racks", "A=0 B=20 C=12 D=85",
        "--why", "again",
    )
    assert len(hall.competition().history("round-1", 2, 1)) == 2


def test_a_correction_that_moves_who_qualified_is_confirmed_first(tmp_path: Path) -> None:
    c = championship_at_the_semifinal(tmp_path)
    comp = c.competition()
    ninth = comp.event.standings("elimination-3").rows[8].player_id
    table, game, racks = lift(comp, ninth, "elimination-1")
    with client_for(c.db) as client:
        signed_in(client, WebRole.JUDGE)
        before = c.records()
        shown = post_result(client, table, game, racks, stage="elimination-1",
                            why="źle odczytana tabela")
        assert shown.status_code == 409
        words = text_of(shown.text)
        assert "Nic nie zostanie zapisane, dopóki tego nie potwierdzisz" in words
        assert ninth in words and "Potwierdź i zapisz" in words
        assert c.records() == before
        key = re.search(r'name="confirmed" value="([0-9a-f]+)"', shown.text)
        assert key is not None
        data = {**form_tokens(shown.text), "stage": "elimination-1", "table": str(table),
                "game": str(game), **fields(racks), "why": "źle odczytana tabela",
                "confirmed": key.group(1)}
        stale = dict(data, why="inny powód")  # confirmed, but not what was shown
        answer = client.post("/judge/result", data=stale, follow_redirects=False)
        assert answer.status_code == 409
        data.update(form_tokens(answer.text))  # the page shown again: a form of its own
        assert c.records() == before
        stored = client.post("/judge/result", data=data, follow_redirects=False)
        assert stored.status_code == 303
    versions = c.competition().history("elimination-1", table, game)
    assert len(versions) == 2 and versions[-1].record.by == "judge-1"


def test_the_pages_speak_english_when_asked(hall: Cli, judge: TestClient) -> None:
    words = text_of(judge.get("/judge/result?table=1&game=1&lang=en").text)
    assert "Points of the tiles left" in words and "Jokers left" in words
    assert "never opened (np): 100" in words
    queue = text_of(judge.get("/judge?lang=en").text)
    assert "No table is waiting for the judge." in queue


# --- the judge-call queue, live -------------------------------------------------------------


def live_client(db: Path, broker: MosquittoBroker) -> TestClient:
    """The console hearing the tables through ``broker`` (its lifespan starts the feed)."""
    reader = EventReader(db)
    live = LiveTables(broker.client_settings(), TOPICS, reader.version)
    return TestClient(make_app(Console(reader, live)))


@pytest.mark.mqtt
def test_a_judge_call_reaches_the_queue_live_and_is_resolved_with_a_note(
    hall: Cli, mosquitto: Callable[..., MosquittoBroker], wait_until: Callable[..., object]
) -> None:
    broker = mosquitto()
    tables = TableLink(broker, TOPICS)
    comp = hall.competition()
    seated = comp.event.seating("round-1")[0]
    names = [comp.event.players[p].name for p in seated.players]
    tables.seat(1, names)
    tables.state(1, move=3, active=Seat.B)
    try:
        with serve_console(hall.db, broker.client_settings(), TOPICS) as served, \
                live_client(hall.db, broker) as client:
            signed_in(client, WebRole.JUDGE)
            stream = EventStream(f"{served.url}/live?tables=0")
            try:
                stream.next("link", lambda d: d["live"])
                wait_until(lambda: "Stolik 1 · GRA TRWA" in text_of(client.get("/judge").text),
                           what="the console hears table 1")
                assert "Żaden stolik nie czeka na sędziego." in text_of(client.get("/judge").text)

                tables.state(1, move=3, active=Seat.B, paused=PauseReason.PLAYER_CALL)
                stream.next("judge")  # the open queue page fetches its list again
                wait_until(lambda: "Otwórz wezwanie" in client.get("/judge").text,
                           what="the call in the queue")
                queue = client.get("/judge").text
                words = text_of(queue)
                assert "Stolik 1 WEZWANO SĘDZIEGO" in words and "Czeka" in words
                assert all(name in words for name in names)
                assert 'data-waited="' in queue  # the page counts the waiting time on

                page = text_of(client.get("/judge/tables/1").text)
                assert "WEZWANO SĘDZIEGO · Czeka" in page
                assert "Zegar wznawia się przy stoliku, kluczykiem sędziego" in page
                assert all(name in page for name in names)
                token = form_token(client.get("/judge/tables/1").text)
                empty = client.post("/judge/tables/1/calls", data={"csrf": token, "note": " "})
                assert empty.status_code == 400
                assert "napisz, co postanowił sędzia" in field_error(empty.text, "note")
                note = "B cofnął kostkę; ostrzeżenie ustne"
                done = client.post("/judge/tables/1/calls", data={"csrf": token, "note": note},
                                   follow_redirects=False)
                assert done.status_code == 303
                shown = text_of(client.get(done.headers["location"]).text)
                assert "Decyzja sędziego jest zapisana" in shown and note in shown
                assert "Wezwania sędziego rozstrzygnięte przy tym stoliku" in shown

                tables.state(1, move=3, active=Seat.B)  # the judge key resumed the clock
                stream.next("judge")
                wait_until(lambda: "Żaden stolik nie czeka" in text_of(client.get("/judge").text),
                           what="the queue empty again")
            finally:
                stream.close()
    finally:
        tables.close()
    (call,) = hall.competition().judge_calls
    assert (call.table, call.game, call.by, call.note) == (1, 1, "judge-1", note)
    assert call.called is PauseReason.PLAYER_CALL and call.since is not None
    listed = Cli(hall.db, lang="pl").ok("call", "list", "--table", "1")
    assert "WEZWANO SĘDZIEGO" in listed and note in listed and "judge-1" in listed


# --- sanctions and ties at a cut --------------------------------------------------------------


def post_form(client: TestClient, page: str, action: str, **data: str) -> Response:
    """A form of ``page`` sent as a judge sends it (the page's own token)."""
    token = form_token(client.get(page).text)
    return client.post(action, data={"csrf": token, **data}, follow_redirects=False)


def test_a_sanction_from_the_web_is_the_command_lines_and_can_be_lifted(
    hall: Cli, judge: TestClient
) -> None:
    before = hall.records()
    missing = post_form(judge, "/judge/sanctions", "/judge/sanctions", player="P002",
                        kind="warning", why="  ")
    assert missing.status_code == 400 and "podaj powód" in field_error(missing.text, "why")
    bad = post_form(judge, "/judge/sanctions", "/judge/sanctions", player="P002",
                    kind="deduction", big="dużo", why="wulgaryzmy")
    assert bad.status_code == 400 and "liczba, 1 lub więcej" in field_error(bad.text, "big")
    assert 'value="dużo"' in bad.text and hall.records() == before

    given = post_form(judge, "/judge/sanctions", "/judge/sanctions", player="P002",
                      kind="deduction", big="2", why="wulgaryzmy")
    assert given.status_code == 303
    page = text_of(judge.get(given.headers["location"]).text)
    assert "P002 Anna Nowak: odjęto 2 duże punkty" in page and "judge-1" in page
    listed = hall.ok("sanction", "list")
    assert "P002" in listed and "wulgaryzmy" in listed and "judge-1" in listed

    lifted = post_form(judge, "/judge/sanctions", "/judge/sanctions/lift", number="1",
                       why="pomyłka: to był inny gracz")
    assert lifted.status_code == 303
    page = text_of(judge.get(lifted.headers["location"]).text)
    assert "Sankcja 1 uchylona" in page
    assert "pomyłka: to był inny gracz" in hall.ok("sanction", "list")


def test_the_head_judge_decides_a_tie_at_a_cut_on_the_web(tmp_path: Path) -> None:
    c, b, d = league_top8_with_a_tie_at_table_1(tmp_path)
    with client_for(c.db) as client:
        signed_in(client, WebRole.JUDGE)
        html = client.get("/judge/ties").text
        # a judge sees the tie, only the head judge records its decision
        refused = post_form(client, "/judge/ties", "/judge/ties", scope="tables/table-1",
                            how="lot")  # fmt: skip
        assert refused.status_code == 403 and "tylko sędzia główny" in refused.text
        signed_in(client, WebRole.HEAD_JUDGE)
        page = text_of(html)
        names = {pid: c.competition().event.players[pid].name for pid in (b, d)}
        # the cut, the players and what is at stake are named; no order is proposed
        assert "Remis na granicy awansu do etapu „finały”: miejsca 2–3 — stolik 1" in page
        assert "Wszyscy (2) grają w etapie „finały”, ale przy stolikach grających o różne" in page
        assert f"Gracze ex aequo: {names[b]}, {names[d]}" in page
        assert "Miejsce 2 — stolik 1, gry przy stolikach" in page
        assert "Miejsce 1" not in page
        assert not re.search(r'<option value="[^"]+" selected', html), "a preselected order"
        before = c.records()
        no_reason = post_form(client, "/judge/ties", "/judge/ties", scope="tables/table-1",
                              how="judge", **{"place-1": d, "place-2": b})
        assert no_reason.status_code == 400
        asked = field_error(no_reason.text, "tie-1-why")
        # In the page's words: where the tie is, and no command-line option.
        assert "sędzia tak zdecydował" in asked and "przy stoliku 1" in asked
        assert "--why" not in asked and "table-1" not in asked
        twice = post_form(client, "/judge/ties", "/judge/ties", scope="tables/table-1",
                          how="judge", why="mniej kar", **{"place-1": d, "place-2": d})
        assert "każdego" in field_error(twice.text, "tie-1-order")
        assert c.records() == before
        done = post_form(client, "/judge/ties", "/judge/ties", scope="tables/table-1",
                         how="judge", why="mniej kar", **{"place-1": d, "place-2": b})
        assert done.status_code == 303
        shown = text_of(client.get(done.headers["location"]).text)
        assert f"{names[d]} ({d})" in shown and "head-judge" in shown and "mniej kar" in shown
    (record,) = c.competition().ties
    assert record.by == "head-judge" and record.why == "mniej kar"
    listed = c.ok("tie", "list")
    assert "recorded by head-judge" in listed and "why: mniej kar" in listed
