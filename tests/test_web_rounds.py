"""The organizer's round pages on the web console: the round's status, draw, start, close,
undo, the starting seat, the standings and the exports, on an event made by the command
line.

Every action goes through the real application (Starlette's test client) and is checked
against the store as the command line leaves it: the same records from the same
commands, the same refusals (shown next to the form, nothing stored).
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import random
import re
import time
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from html import unescape
from pathlib import Path

import msgspec
import pytest
from starlette.testclient import TestClient
from test_cli_support import Cli, play_round
from test_cli_ties import league_top8_with_a_tie_at_table_1
from web_console import PLAYERS, form_token, school_hall, signed_in, text_of

from hub.backup import BackupStatus, status_lines, status_path
from hub.competition import Competition, OrganizerFact, RoundStarted, StarterChosen
from hub.config import resolve
from hub.organizer import Organizer
from hub.store import HUB_SOURCE, EventStore
from hub.tournament import EventPhase, RoundClosed, RoundSeated, RoundUndone
from hub.web.app import make_app
from hub.web.auth import WebRole
from hub.web.live import LiveTables
from hub.web.pages import Console, EventReader
from hub.web.serve import build_parser, web_settings
from tablekit.core.hallcheck import CheckResult, HallChecked
from tablekit.core.messages import EventEnvelope
from tablekit.core.topics import Topics
from tablekit.shared.i18n import words as i18n_words

TOPICS = Topics("hall", "rounds")
WEB_USER = "organizer"
"""Who the web's records name: the organizer's web account the tests sign in with."""


@pytest.fixture
def hall(tmp_path: Path) -> Cli:
    """A school event of eight, drawn and started: two tables of four."""
    return school_hall(tmp_path / "event.sqlite3")


@pytest.fixture
def twin(tmp_path: Path) -> Cli:
    """The same school event in a second file, for the command line to do what the web
    does in the first."""
    return school_hall(tmp_path / "twin.sqlite3")


@pytest.fixture
def organizer(hall: Cli) -> Iterator[TestClient]:
    with organizer_client(hall.db) as client:
        yield client


def client_for(db: Path) -> TestClient:
    reader = EventReader(db)
    return TestClient(make_app(Console(reader, LiveTables(None, TOPICS, reader.version))))


@contextmanager
def organizer_client(db: Path) -> Iterator[TestClient]:
    """A test client signed in as the test bundle's organizer."""
    with client_for(db) as client:
        signed_in(client, WebRole.ORGANIZER)
        yield client


def post(client: TestClient, path: str, **fields: str) -> tuple[int, str, str]:
    """A form posted as the browser does, with the page's CSRF token: (status, where it
    redirects, the page after)."""
    token = form_token(client.get("/organizer").text)
    answer = client.post(path, data={"csrf": token, **fields}, follow_redirects=False)
    if answer.status_code == 303:
        where = answer.headers["location"]
        return 303, where, client.get(where).text
    return answer.status_code, "", answer.text


def facts_of(db: Path) -> list[tuple[str, bytes]]:
    """The hub's records in the store (what the organizer's commands stored): kind and
    payload, in order."""
    store = EventStore(db)
    try:
        return [(e.kind, e.payload) for e in store.events(source=HUB_SOURCE)]
    finally:
        store.close()


def competition(db: Path) -> Competition:
    store = EventStore(db)
    try:
        return Organizer(store).competition
    finally:
        store.close()


def last_record(db: Path) -> OrganizerFact | RoundStarted | StarterChosen:
    from hub.competition import decode_record

    kind, payload = facts_of(db)[-1]
    record = decode_record(payload)
    assert isinstance(record, OrganizerFact | RoundStarted | StarterChosen), kind
    return record


def same_but_who_and_when(web: object, cli: object) -> None:
    """Two records equal but for when and by whom they were made."""
    fields = {"at": 0.0, "by": ""}
    assert msgspec.structs.replace(web, **fields) == msgspec.structs.replace(cli, **fields)  # type: ignore[type-var]


def finish_round(c: Cli, seed: int = 7) -> None:
    play_round(c, random.Random(seed))


# --- the round's status ------------------------------------------------------------------


def test_the_round_page_shows_the_tables_the_clock_and_the_missing_results(
    hall: Cli, organizer: TestClient
) -> None:
    hall.ok("result", "enter", "--table", "1", "--game", "1", "--racks", "A=0 B=12 C=30 D=7")
    page = organizer.get("/organizer/round")
    assert page.status_code == 200, page.text
    words = text_of(page.text)
    assert "Runda w toku: runda 1" in words
    assert "Zakończone stoliki: 0 z 2" in words
    assert "Start:" in words and "(konto: organizer Ola)" in words
    comp = hall.competition()
    for table in comp.event.seating("round-1"):
        for seat, pid in zip("ABCD", table.players, strict=True):
            assert f"{seat} {comp.event.players[pid].name}" in words
    assert "Brak wyników: stolik 1 (gra 2), stolik 2 (gra 1), stolik 2 (gra 2)" in words
    assert "1/2" in words and "0/2" in words
    english = text_of(organizer.get("/organizer/round?lang=en").text)
    assert "Round in play: round-1" in english
    assert "Missing results: table 1 game 2, table 2 game 1, table 2 game 2" in english


def test_the_round_page_says_how_the_hubs_backup_copy_stands(
    hall: Cli, organizer: TestClient
) -> None:
    assert "Kopia zapasowa" not in text_of(organizer.get("/organizer/round").text)
    status = BackupStatus(target="/media/stick/hub.sqlite3", interval=3.0,
                          copied_at=time.time() - 4, copies=12, size=40960)
    status_path(hall.db).write_text(json.dumps(dataclasses.asdict(status)))
    words = text_of(organizer.get("/organizer/round").text)
    expected = " ".join(status_lines(status, time.time(), i18n_words("pl"))[0].split())
    assert expected.split("(")[0] in words and "12" in words


def test_every_input_of_the_round_page_has_a_label(hall: Cli, organizer: TestClient) -> None:
    for page in (organizer.get("/organizer/round").text, after_the_round(hall, organizer)):
        ids = re.findall(r'<(?:input|select)(?![^>]*type="hidden")[^>]*\bid="([^"]+)"', page)
        inputs = re.findall(r"<(?:input|select)(?![^>]*type=\"hidden\")[^>]*>", page)
        assert ids and len(ids) == len(inputs), inputs
        for name in ids:
            assert f'<label for="{name}"' in page, name


def after_the_round(hall: Cli, organizer: TestClient) -> str:
    finish_round(hall)
    status, _, page = post(organizer, "/organizer/round/close")
    assert status == 303
    return page


# --- draw, start, close: stored as the command line stores them ----------------------------


def test_close_draw_and_start_on_the_web_store_what_the_command_line_stores(
    hall: Cli, twin: Cli, organizer: TestClient
) -> None:
    finish_round(hall)
    finish_round(twin)

    status, where, page = post(organizer, "/organizer/round/close")
    twin.ok("round", "close")
    assert status == 303 and where == "/organizer/round?done=closed"
    words = text_of(page)
    assert "Zamknięto: runda 1. Jej klasyfikacja poniżej jest ostateczna." in words
    closed = last_record(hall.db)
    assert isinstance(closed, OrganizerFact) and closed.by == WEB_USER
    assert closed.fact == RoundClosed("round-1")
    same_but_who_and_when(closed, last_record(twin.db))
    standings = hall.competition().event.standings("round-1").rows
    assert words.index(PLAYERS[int(standings[0].player_id[1:]) - 1]) < words.index(
        PLAYERS[int(standings[-1].player_id[1:]) - 1]
    )

    status, where, page = post(organizer, "/organizer/round/draw", seed="11")
    twin.ok("round", "draw", "--seed", "11")
    assert status == 303 and where == "/organizer/round/seating?stage=round-2&done=drawn"
    drawn = last_record(hall.db)
    assert isinstance(drawn, OrganizerFact) and isinstance(drawn.fact, RoundSeated)
    same_but_who_and_when(drawn, last_record(twin.db))
    words = text_of(page)
    assert "Rozlosowano: runda 2 — 2 stoliki, 3-osobowe: 0; ziarno 11" in words
    comp = hall.competition()
    for table in comp.event.seating("round-2"):
        for i, pid in enumerate(table.players):
            assert f"{table.number}{'ABCD'[i]} {comp.event.players[pid].name}" in words

    status, where, page = post(organizer, "/organizer/round/start", minutes="37,5")
    twin.ok("round", "start", "--minutes", "37.5")
    assert status == 303 and where == "/organizer/round?done=started"
    started = last_record(hall.db)
    assert isinstance(started, RoundStarted) and started.minutes == 37.5
    assert started.by == WEB_USER
    same_but_who_and_when(started, last_record(twin.db))
    words = text_of(page)
    assert "Rozpoczęto: runda 2, o" in words
    assert "Czas rundy kończy się o" in words and "Klasyfikacja się nie zmienia." in words
    assert len(facts_of(hall.db)) == len(facts_of(twin.db))


def test_a_close_with_results_missing_is_refused_next_to_its_form_and_stores_nothing(
    hall: Cli, organizer: TestClient
) -> None:
    before = facts_of(hall.db)
    status, _, page = post(organizer, "/organizer/round/close")
    assert status == 400
    error = re.search(r'<p class="field-error" id="close-error" role="alert">([^<]+)</p>', page)
    assert error is not None, page
    cli_says = Cli(hall.db, lang="pl").fails("round", "close")
    assert unescape(error.group(1)) in cli_says, (error.group(1), cli_says)
    assert page.index('id="close-error"') > page.index('id="close-form"')
    assert facts_of(hall.db) == before

    status, _, page = post(organizer, "/organizer/round/close", force="yes", why="")
    assert status == 400 and 'id="close-error"' in page
    assert facts_of(hall.db) == before
    status, _, page = post(organizer, "/organizer/round/close", why="deszcz")
    assert status == 400 and "powód" in text_of(page).lower()
    assert 'value="deszcz"' in page  # what was typed is shown again
    assert facts_of(hall.db) == before

    status, _, page = post(
        organizer, "/organizer/round/close", force="yes", why="stolik 2 nie dokończył"
    )
    assert status == 303
    closed = last_record(hall.db)
    assert isinstance(closed, OrganizerFact) and closed.fact == RoundClosed("round-1", forced=True)
    assert closed.why == "stolik 2 nie dokończył"
    assert "brakujące gry liczą się jako nierozegrane" in text_of(page)


def test_a_bad_round_time_is_refused_next_to_its_field(tmp_path: Path) -> None:
    c = Cli(tmp_path / "e.sqlite3")
    c.ok("event", "create", "--preset", "school", "--name", "Szkoła", "--round-minutes", "45")
    for name in PLAYERS:
        c.ok("players", "add", name, "--check-in")
    c.ok("round", "draw", "--seed", "3")
    before = facts_of(c.db)
    with organizer_client(c.db) as client:
        page = client.get("/organizer/round").text
        assert "Czas rundy w minutach (puste: jak w turnieju, 45)" in text_of(page)
        for typed, says in (("abc", "„abc” to nie liczba minut"),
                            ("0", "musi być większe od 0 i najwyżej 1440, podano 0")):
            status, _, page = post(client, "/organizer/round/start", minutes=typed)
            assert status == 400
            assert says in text_of(page), text_of(page)
            assert f'value="{typed}"' in page and 'aria-invalid="true"' in page
        assert facts_of(c.db) == before
        status, _, page = post(client, "/organizer/round/start", minutes="")
    assert status == 303
    started = last_record(c.db)
    assert isinstance(started, RoundStarted) and started.minutes is None
    assert "Czas rundy kończy się o" in text_of(page)


def test_undo_the_draw_says_why_and_is_refused_without_a_reason(tmp_path: Path) -> None:
    c = Cli(tmp_path / "e.sqlite3")
    c.ok("event", "create", "--preset", "school", "--name", "Szkoła")
    for name in PLAYERS:
        c.ok("players", "add", name, "--check-in")
    c.ok("round", "draw", "--seed", "3")
    before = facts_of(c.db)
    with organizer_client(c.db) as client:
        status, _, page = post(client, "/organizer/round/undo", why="  ")
        assert status == 400 and 'id="undo-error"' in page
        assert facts_of(c.db) == before
        status, where, page = post(client, "/organizer/round/undo", why="zły podział sal")
    assert status == 303 and where == "/organizer/round?done=undone&stage=round-1"
    undone = last_record(c.db)
    assert isinstance(undone, OrganizerFact) and undone.fact == RoundUndone("round-1")
    assert undone.why == "zły podział sal" and undone.by == WEB_USER
    words = text_of(page)
    assert "Cofnięto losowanie" in words and "Przed pierwszą rundą" in words
    assert "Losuj: runda 1" in words


def test_the_starting_seat_is_recorded_for_the_tables_next_game(
    hall: Cli, organizer: TestClient
) -> None:
    status, _, page = post(
        organizer, "/organizer/round/starter", table="2", game="1", seat="C",
        why="najwyższy kamień",
    )
    assert status == 303
    chosen = last_record(hall.db)
    assert isinstance(chosen, StarterChosen)
    assert (chosen.table, chosen.game, chosen.seat, chosen.why) == (2, 1, "C", "najwyższy kamień")
    assert "Zapisano miejsce rozpoczynające" in text_of(page)
    assert "Miejsce C zaczyna grę 1" in text_of(page)
    before = facts_of(hall.db)
    status, _, page = post(organizer, "/organizer/round/starter", table="2", seat="E")
    assert status == 400 and 'id="starter-error"' in page
    assert "„E”" in text_of(page)
    assert facts_of(hall.db) == before


# --- only the organizer -------------------------------------------------------------------


def test_the_round_pages_are_the_organizers_alone(hall: Cli) -> None:
    finish_round(hall)
    before = facts_of(hall.db)
    with client_for(hall.db) as client:
        for path in ("/organizer", "/organizer/round", "/organizer/exports",
                     "/organizer/exports/csv/standings.csv", "/organizer/standings"):
            answer = client.get(path, follow_redirects=False)
            assert answer.status_code == 303, path
            assert answer.headers["location"].startswith("/login?next=")
        # a public client posting: refused, nothing stored
        assert client.post("/organizer/round/close", data={}).status_code == 403
        signed_in(client, WebRole.JUDGE)
        page = client.get("/organizer/round")
        assert page.status_code == 403
        assert "tylko organizator" in text_of(page.text)
        token = form_token(client.get("/").text)
        answer = client.post("/organizer/round/close", data={"csrf": token})
        assert answer.status_code == 403
        assert client.get("/organizer/exports/csv/standings.csv").status_code == 403
    assert facts_of(hall.db) == before


def test_a_forged_form_changes_nothing(hall: Cli, organizer: TestClient) -> None:
    finish_round(hall)
    before = facts_of(hall.db)
    for data in ({}, {"csrf": "not-the-token"}):
        answer = organizer.post("/organizer/round/close", data=data, follow_redirects=False)
        assert answer.status_code == 403
        assert "nic nie zmieniono" in text_of(answer.text)
    assert facts_of(hall.db) == before


# --- the judge's choices the draw asks for -------------------------------------------------


def test_a_draw_that_stops_at_a_tie_names_the_players_and_stores_nothing(
    tmp_path: Path,
) -> None:
    c, b, d = league_top8_with_a_tie_at_table_1(tmp_path)
    before = facts_of(c.db)
    with organizer_client(c.db) as client:
        status, _, page = post(client, "/organizer/round/draw", seed="6")
    assert status == 409
    words = text_of(page)
    assert b in words and d in words
    assert "sędzia główny" in words.lower()
    assert "remisują przy stoliku 1, etap: gry przy stolikach" in words and "table-1" not in words
    assert 'href="/judge/ties"' in page
    assert facts_of(c.db) == before


def test_league_players_left_over_are_the_organizers_decision(tmp_path: Path) -> None:
    c = Cli(tmp_path / "liga.sqlite3")
    c.ok("event", "create", "--preset", "league", "--name", "Liga 17")
    for i in range(17):
        c.ok("players", "add", f"Zawodnik {i:02d}", "--check-in")
    c.ok("round", "draw", "--seed", "1")
    c.ok("round", "start")
    play_round(c, random.Random(17))
    c.ok("round", "close")
    before = facts_of(c.db)
    with organizer_client(c.db) as client:
        status, _, page = post(client, "/organizer/round/draw", seed="2")
        assert status == 409 and 'id="consolation-form"' in page
        assert 'value="2"' in page and 'id="promote-1"' not in page
        assert facts_of(c.db) == before
        status, _, page = post(client, "/organizer/round/consolation", promote="2",
                               options="2", why="")
        assert status == 400 and 'id="consolation-error"' in page
        assert 'id="consolation-form"' in page  # shown again to choose
        assert facts_of(c.db) == before
        status, _, page = post(client, "/organizer/round/consolation", promote="2",
                               options="2", why="17 graczy: wszyscy grają dalej")
    assert status == 303
    (decision,) = c.competition().consolations
    assert decision.by == WEB_USER and decision.why == "17 graczy: wszyscy grają dalej"
    assert "decyzja organizatora" in text_of(page)


def test_a_minor_without_consent_stops_the_draw_until_the_organizer_admits_them(
    tmp_path: Path,
) -> None:
    c = Cli(tmp_path / "e.sqlite3")
    c.ok("event", "create", "--preset", "school", "--name", "Szkoła")
    for name in PLAYERS:
        c.ok("players", "add", name, "--check-in")
    c.ok("players", "minor", "P004")
    before = facts_of(c.db)
    with organizer_client(c.db) as client:
        status, _, page = post(client, "/organizer/round/draw", seed="3")
        assert status == 409 and "P004 Ewa Kowalska" in text_of(page)
        assert 'id="draw-admit-minors"' in page and '<label for="draw-admit-minors"' in page
        assert facts_of(c.db) == before
        status, where, _ = post(client, "/organizer/round/draw", seed="3", admit_minors="yes")
    assert status == 303 and "done=drawn" in where
    assert competition(c.db).event.stages_played == ("round-1",)


# --- the turnaround -----------------------------------------------------------------------


def test_from_the_last_result_to_every_table_seated_and_started_takes_three_actions(
    hall: Cli, organizer: TestClient
) -> None:
    """The organizer's path after the last result: close, draw, start — each one form on
    the page the previous one leads to."""
    finish_round(hall)
    actions = 0
    page = organizer.get("/organizer/round").text
    while "round-2" not in competition(hall.db).started:
        form = re.search(r'<form method="post" action="([^"]+)"(?:(?!</form>).)*'
                         r'class="primary"', page, re.S)
        assert form is not None, text_of(page)
        status, _, page = post(organizer, unescape(form.group(1)))
        assert status == 303, text_of(page)
        actions += 1
        assert actions <= 3
    comp = competition(hall.db)
    assert actions == 3
    assert comp.event.stages_played == ("round-1", "round-2")
    seated = {a.table for a in comp.assignments()}
    assert seated == {t.number for t in comp.event.seating("round-2")}


# --- standings ------------------------------------------------------------------------------


def test_the_standings_of_every_stage(hall: Cli, organizer: TestClient) -> None:
    finish_round(hall)
    hall.ok("round", "close")
    hall.ok("round", "draw", "--seed", "5")
    words = text_of(organizer.get("/organizer/standings?stage=round-1").text)
    rows = hall.competition().event.standings("round-1").rows
    first = hall.competition().event.players[rows[0].player_id].name
    assert first in words and "runda 1" in words
    assert 'aria-current="page"' in organizer.get("/organizer/standings").text
    missing = organizer.get("/organizer/standings?stage=final")
    assert missing.status_code == 404
    assert "W tym turnieju nie rozlosowano etapu final." in text_of(missing.text)


# --- exports --------------------------------------------------------------------------------


def test_the_csv_files_download_in_polish_and_in_english(
    hall: Cli, organizer: TestClient
) -> None:
    page = organizer.get("/organizer/exports")
    assert page.status_code == 200
    assert "standings.csv" in page.text and "results.csv" in page.text
    answer = organizer.get("/organizer/exports/csv/standings.csv")
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "text/csv; charset=utf-8"
    assert answer.headers["content-disposition"].startswith(
        'attachment; filename="standings.csv"'
    )
    assert answer.content.startswith(b"\xef\xbb\xbf")  # Excel reads it as UTF-8
    rows = list(csv.reader(io.StringIO(answer.content.decode("utf-8-sig")), delimiter=";"))
    assert "Zajęte miejsce" in rows[0] and "Imię i nazwisko" in rows[0]
    assert len(rows) == 1 + len(PLAYERS)
    assert any("Łukasz Żółć" in row for row in rows)
    english = organizer.get("/organizer/exports/csv/standings.csv?language=en")
    header = english.content.decode("utf-8-sig").splitlines()[0]
    assert "," in header and ";" not in header and "player_id" in header
    assert organizer.get("/organizer/exports/csv/nothing.csv").status_code == 404


def test_a_decimal_comma_in_the_polish_csv(tmp_path: Path) -> None:
    c = Cli(tmp_path / "e.sqlite3")
    c.ok("event", "create", "--preset", "school", "--name", "Szkoła")
    for i, name in enumerate(PLAYERS):
        c.ok("players", "add", name, "--rating", f"1500.{i + 1}", "--check-in")
    c.ok("round", "draw", "--seed", "3")
    with organizer_client(c.db) as client:
        polish = client.get("/organizer/exports/csv/players.csv").text
        english = client.get("/organizer/exports/csv/players.csv?language=en").text
    assert "1500,1" in polish and "1500.1" in english


def test_the_printouts_open_to_print_and_download_as_pdf(
    hall: Cli, organizer: TestClient
) -> None:
    page = organizer.get("/organizer/exports").text
    assert "/organizer/exports/print/seating.html?stage=round-1" in unescape(page)
    html = organizer.get("/organizer/exports/print/seating.html?stage=round-1")
    assert html.status_code == 200
    assert html.headers["content-type"] == "text/html; charset=utf-8"
    assert html.headers["content-disposition"].startswith('inline; filename="seating-round-1.html"')
    policy = html.headers["content-security-policy"]
    assert "script-src" not in policy and "default-src 'none'" in policy
    assert "Łukasz Żółć" in html.text and '<html lang="pl">' in html.text
    pdf = organizer.get("/organizer/exports/print/scoresheets.pdf")
    assert pdf.status_code == 200 and pdf.headers["content-type"] == "application/pdf"
    assert pdf.content.startswith(b"%PDF")
    assert 'filename="scoresheets-round-1.pdf"' in pdf.headers["content-disposition"]
    assert organizer.get("/organizer/exports/print/seating.html?stage=final").status_code == 404


def test_the_archive_downloads_as_one_zip(hall: Cli, organizer: TestClient) -> None:
    answer = organizer.get("/organizer/exports/archive.zip")
    assert answer.status_code == 200 and answer.headers["content-type"] == "application/zip"
    assert 'filename="turniej-szkolny.zip"' in answer.headers["content-disposition"]
    with zipfile.ZipFile(io.BytesIO(answer.content)) as made:
        names = made.namelist()
        assert any(n.endswith("csv/standings.csv") for n in names)
        assert any(n.endswith(".pdf") for n in names)
        index = made.read(next(n for n in names if n.endswith("index.html"))).decode()
    assert 'lang="pl"' in index


def test_exports_before_the_first_draw_say_so(tmp_path: Path) -> None:
    c = Cli(tmp_path / "e.sqlite3")
    c.ok("event", "create", "--preset", "school", "--name", "Szkoła")
    with organizer_client(c.db) as client:
        words = text_of(client.get("/organizer/exports").text)
        assert "Nic jeszcze nie rozlosowano" in words
        assert client.get("/organizer/exports/csv/standings.csv").status_code == 404


# --- the league season --------------------------------------------------------------------


def finished_league(path: Path, name: str) -> Cli:
    """A league tournament of eight played to its end (TOP 8: two stages)."""
    rng = random.Random(8)
    c = Cli(path)
    c.ok("event", "create", "--preset", "league", "--name", name)
    for i in range(8):
        c.ok("players", "add", f"Zawodnik {chr(65 + i)}", "--check-in")
    for _ in range(2):
        c.ok("round", "draw")
        c.ok("round", "start")
        play_round(c, rng)
        c.ok("round", "close")
    return c


def season_console(db: Path, season: Path | None) -> TestClient:
    reader = EventReader(db)
    live = LiveTables(None, TOPICS, reader.version)
    return TestClient(make_app(Console(reader, live, season=season)))


def test_the_season_table_over_the_season_folders_finished_league_events(
    hall: Cli, tmp_path: Path
) -> None:
    season = tmp_path / "sezon"
    season.mkdir()
    liga = finished_league(season / "liga-1.sqlite3", "Liga 1")
    liga.ok("players", "minor", "P002", "--consent")
    school_hall(season / "szkola.sqlite3", "Szkolny")  # no league event: listed, not counted
    (season / "notes.txt").write_text("not an event file")
    with season_console(hall.db, season) as client:
        signed_in(client, WebRole.ORGANIZER)
        page = client.get("/organizer/season")
        assert page.status_code == 200
        words = text_of(page.text)
        assert "Liga 1 (liga-1.sqlite3)" in words
        assert "szkola.sqlite3:" in words and "nie jest turniejem ligowym" in words
        assert "(Międzyszkolny konkurs: " in words and "school" not in words  # not its id
        assert "notes.txt" not in words
        assert 'name="event" value="liga-1.sqlite3" checked' in page.text
        points = liga.competition().event.league_points()
        players = liga.competition().event.players
        best = max(points, key=lambda pid: points[pid])
        assert f"1 {players[best].name}" in words and "Turniej 1: Liga 1 (liga-1.sqlite3)" in words

        answer = client.get("/organizer/season/season.csv?event=liga-1.sqlite3&language=pl")
        assert answer.status_code == 200
        assert answer.headers["content-type"] == "text/csv; charset=utf-8"
        assert 'filename="season.csv"' in answer.headers["content-disposition"]
        text = answer.content.decode("utf-8-sig")
        assert ";" in text.splitlines()[0] and "Turniej 1: Liga 1" in text.splitlines()[0]
        # For publication a minor is named as the public pages name them; the organizer's
        # internal list, apart, names everyone in full and says it is not for publication.
        assert ";Zawodnik B.;" in text and ";Zawodnik B;" not in text
        assert "Lista wewnętrzna organizatora (nie do publikacji)" in words
        internal = client.get(
            "/organizer/season/season-internal.csv?event=liga-1.sqlite3&language=pl"
        )
        assert 'filename="season-internal.csv"' in internal.headers["content-disposition"]
        assert ";Zawodnik B;" in internal.content.decode("utf-8-sig")
        printed = client.get("/organizer/season/season-internal.html?event=liga-1.sqlite3")
        assert "nie do publikacji" in printed.text and "Zawodnik B<" in printed.text
        pdf = client.get("/organizer/season/season.pdf?event=liga-1.sqlite3")
        assert pdf.headers["content-type"] == "application/pdf" and pdf.content[:4] == b"%PDF"
        html = client.get("/organizer/season/season.html")
        assert "default-src 'none'" in html.headers["content-security-policy"]
        assert players[best].name in html.text
        # only the folder's countable files, by name
        for name in ("szkola.sqlite3", "../event.sqlite3", "notes.txt"):
            missing = client.get("/organizer/season", params={"event": name})
            assert missing.status_code == 404, name


def test_without_a_season_folder_the_page_says_how_to_set_one(hall: Cli) -> None:
    with season_console(hall.db, None) as client:
        signed_in(client, WebRole.ORGANIZER)
        words = text_of(client.get("/organizer/season").text)
    assert "[web] season" in words


def test_the_season_folder_comes_from_the_file_the_environment_or_the_flag(
    tmp_path: Path,
) -> None:
    config = tmp_path / "hub.toml"
    config.write_text('db = "/srv/e.sqlite3"\n[web]\nseason = "/srv/sezon"\n')

    def season(argv: list[str], env: dict[str, str]) -> Path | None:
        args = build_parser().parse_args(argv)
        return web_settings(args, resolve("web", args, env)).season

    env = {"RUMMIKUB_CONFIG": str(config)}
    assert season([], env) == Path("/srv/sezon")
    assert season([], env | {"RUMMIKUB_WEB_SEASON": "/srv/liga"}) == Path("/srv/liga")
    assert season(["--season", "sezon"], env) == Path("sezon")
    assert season(["--db", "e.db"], {}) is None


# --- a whole event ------------------------------------------------------------------------


@pytest.mark.parametrize(("preset", "players"), [("winter", 8), ("championship", 16)])
def test_a_whole_event_of_a_preset_is_run_from_the_round_page(
    tmp_path: Path, preset: str, players: int
) -> None:
    """Every stage of the preset drawn, started and closed through the round page's next
    step (its primary button), the results entered as the tables would; a tie at a cut
    random results make is settled by the judge's lot. Three actions a round."""
    c = Cli(tmp_path / "e.sqlite3")
    c.ok("event", "create", "--preset", preset, "--name", "Cały dzień")
    for i in range(players):
        c.ok("players", "add", f"Gracz {i + 1:02d} Nazwisko{i + 1:02d}", "--check-in")
    rng = random.Random(players)
    actions = 0
    with organizer_client(c.db) as client:
        while competition(c.db).event.phase is not EventPhase.FINISHED:
            page = client.get("/organizer/round").text
            form = re.search(r'<form method="post" action="([^"]+)"(?:(?!</form>).)*'
                             r'class="primary"', page, re.S)
            assert form is not None, text_of(page)
            action = unescape(form.group(1))
            if action.endswith("/close"):
                play_round(c, rng)
            status, _, after = post(client, action)
            if status == 409:  # the draw stopped at a cut: the head judge orders a lot
                assert action.endswith("/draw") and "sędzia główny" in text_of(after).lower()
                for tie in competition(c.db).event.pending_ties():
                    c.ok("tie", "lot", "--scope", tie.scope, *tie.players, by="judge Ewa")
                status, _, after = post(client, action)
            assert status == 303, text_of(after)
            actions += 1
        comp = competition(c.db)
        assert actions == 3 * len(comp.format.stages)
        words = text_of(client.get("/organizer/round").text)
        assert "Turniej jest zakończony." in words
        ranking = text_of(client.get("/organizer/standings").text)
        champion = comp.event.final_ranking()[0]
        assert "Klasyfikacja końcowa" in ranking
        assert comp.event.players[champion.player_id].name in ranking
        exports = client.get("/organizer/exports").text
        assert "/organizer/exports/print/ranking.pdf" in unescape(exports)
        assert "ranking.csv" in exports


def test_the_hall_check_board_is_a_page_of_the_console(tmp_path: Path) -> None:
    """The hall check on the web: each table's check, what failed and when, without a
    command line; the seating page's warning leads to it."""
    c = Cli(tmp_path / "event.sqlite3")
    c.ok("event", "create", "--preset", "school", "--name", "Konkurs")
    for name in PLAYERS:
        c.ok("players", "add", name, "--check-in")
    store = EventStore(c.db)
    try:
        ok, failed = CheckResult.OK, CheckResult.FAILED
        store.ingest([EventEnvelope(v=1, unit="table-01", table=1, seq=1, ts=time.time(),
                                    event=HallChecked(1, ok, ok, failed, ok, ok))])
    finally:
        store.close()
    with organizer_client(c.db) as client:
        page = text_of(client.get("/organizer/hall").text)
        assert "Test sali" in page and "0 z 2 stolików sprawdzonych i gotowych" in page
        assert "USTERKA: diody" in page and "nie sprawdzono" in page
        assert "rummikub" not in page
        status, _, drawn = post(client, "/organizer/round/draw", seed="3")
        assert status == 303 and 'href="/organizer/hall"' in drawn
        assert "rummikub event hall" not in drawn
