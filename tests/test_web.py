"""The web console's public pages: find your table, the standings, the tables live.

Pages are asked through the real application (Starlette's test client, or uvicorn on a
loopback port for the live stream), on an event made by the organizer's command line;
the live updates come from real Mosquitto.
"""

from __future__ import annotations

import argparse
import logging
import random
import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from starlette.testclient import TestClient
from test_cli_support import Cli, play_round, school_round_playing
from web_console import EventStream, school_hall, serve_console, snapshot, text_of

from hub.config import HubConfigError, resolve
from hub.exports.words import ABOUT_ONE
from hub.hall import HallView, TableCell
from hub.web.app import make_app
from hub.web.live import LiveTables
from hub.web.pages import Console, EventReader
from hub.web.serve import ConsoleThread, WebConsoleError, build_parser, web_settings
from hub.web.views import MAX_FOUND, find_players, matches
from tablekit.core.clock import Phase
from tablekit.core.clock_events import PauseReason
from tablekit.core.codec import encode
from tablekit.core.messages import Assignment, ResultAck, SeatAssignment
from tablekit.core.seats import Seat
from tablekit.core.status import TableState, look
from tablekit.core.topics import Topics
from tablekit.shared.i18n import words

TOPICS = Topics("hall", "web")
PAGES = ("/", "/find?q=nowak", "/standings", "/tables", "/live")


def client_for(db: Path) -> TestClient:
    reader = EventReader(db)
    return TestClient(make_app(Console(reader, LiveTables(None, TOPICS, reader.version))))


@pytest.fixture
def hall(tmp_path: Path) -> Cli:
    """A school event of eight, drawn and started: two tables of four."""
    return school_hall(tmp_path / "event.sqlite3")


# --- find your table -------------------------------------------------------------------------


def test_a_name_is_found_whatever_its_polish_letters_and_case() -> None:
    for query in ("lukasz zolc", "ŻÓŁĆ", "zolc lukasz", "Łuk", "żółć"):
        assert matches(query, "Łukasz Żółć"), query
    assert not matches("lukasz nowak", "Łukasz Żółć")
    assert not matches("   ", "Łukasz Żółć")


def test_find_your_table_shows_the_table_seat_and_opponents(hall: Cli) -> None:
    comp = hall.competition()
    (table,) = [t for t in comp.event.seating("round-1") if "P001" in t.players]
    seat = "ABCD"[table.players.index("P001")]
    others = {comp.event.players[p].name for p in table.players if p != "P001"}
    with client_for(hall.db) as client:
        page = client.get("/find", params={"q": "lukasz zolc"})
    assert page.status_code == 200
    words = text_of(page.text)
    assert "Łukasz Żółć" in words
    assert f"Stolik {table.number}, miejsce {seat}" in words
    assert f"{table.number}{seat}" in words
    assert "Przeciwnicy:" in words
    for name in others:
        assert name in words
    assert page.text.count('class="player"') == 1


def test_a_search_lists_every_match_in_surname_order(hall: Cli) -> None:
    with client_for(hall.db) as client:
        page = client.get("/find", params={"q": "nowak"}).text
    found = re.findall(r'<h2><a href="/players/P\d+">([^<]+?)</a> <span', page)
    assert found == ["Anna Nowak", "Jan Nowakowski"]


def test_a_search_says_what_is_wrong(hall: Cli) -> None:
    with client_for(hall.db) as client:
        short = text_of(client.get("/find", params={"q": "ż"}).text)
        nobody = text_of(client.get("/find", params={"q": "Kwiatkowski"}).text)
        english = text_of(client.get("/find", params={"q": "Kwiatkowski", "lang": "en"}).text)
    assert "Wpisz co najmniej 2 litery imienia lub nazwiska." in short
    assert "Żadne imię ani nazwisko nie zawiera „Kwiatkowski”." in nobody
    assert "Nobody's name contains “Kwiatkowski”." in english


def test_a_search_that_matches_too_many_says_so(tmp_path: Path) -> None:
    c = Cli(tmp_path / "many.sqlite3")
    c.ok("event", "create", "--preset", "school", "--name", "Duży")
    for i in range(MAX_FOUND + 5):
        c.ok("players", "add", f"Gracz Numer{i:02d}")
    search = find_players(c.competition(), "numer")
    assert len(search.found) == MAX_FOUND and search.more == 5
    assert search.stage is None and all(f.seat is None for f in search.found)
    with client_for(c.db) as client:
        words = text_of(client.get("/find", params={"q": "numer"}).text)
    assert "Pasuje jeszcze 5 graczy: wpisz więcej liter." in words
    assert "Pierwsza runda nie jest jeszcze rozlosowana" in words


# --- standings ----------------------------------------------------------------------------------


def test_standings_show_points_shared_places_and_each_stage(tmp_path: Path) -> None:
    c = school_round_playing(tmp_path / "school.sqlite3")
    with client_for(c.db) as client:
        during = client.get("/standings")
        assert during.status_code == 200
        words = text_of(during.text)
        assert "Klasyfikacja — Runda 1 w trakcie" in words
        assert "Zakończone stoliki: 0 z 4" in words
        assert re.search(r"\b2= Uczeń \d\d SP 1 0 0 0\b", words), words  # level: shared place
        play_round(c, random.Random(5))
        c.ok("round", "close")
        c.ok("round", "draw", "--seed", "9")
        first = text_of(client.get("/standings", params={"stage": "round-1"}).text)
        second = text_of(client.get("/standings").text)
        english = text_of(client.get("/standings", params={"stage": "round-1", "lang": "en"}).text)
        wrong = client.get("/standings", params={"stage": "final-9"})
    comp = c.competition()
    best = comp.event.standings("round-1").rows[0]
    name = comp.event.players[best.player_id].name
    small = f"+{best.small}" if best.small > 0 else str(best.small)
    assert "Klasyfikacja po etapie: Runda 1" in first
    assert f"{name} SP 1 {best.big} {small} 2" in first
    assert "Klasyfikacja — Runda 2 w trakcie" in second
    assert "Runda 1 Runda 2" in second  # the stages, each a link
    assert "Standings after Round 1" in english and "BP SP Games" in english
    assert wrong.status_code == 404
    assert "W tym turnieju nie rozlosowano etapu final-9." in text_of(wrong.text)


def test_a_kept_page_changes_with_every_stored_result(tmp_path: Path) -> None:
    """Pages are kept while the store has not changed; a result entered from the command
    line (another process's write) changes the page at the next request, never later."""
    c = school_round_playing(tmp_path / "school.sqlite3")
    reader = EventReader(c.db)
    app = make_app(Console(reader, LiveTables(None, TOPICS, reader.version)))
    with TestClient(app) as client:
        before = client.get("/standings").text
        assert client.get("/standings").text == before  # the same bytes, kept
        (missing, *_) = c.competition().event.missing_results()
        c.ok("result", "enter", "--table", str(missing.table), "--game", str(missing.game),
             "--racks", "A=0 B=20 C=5 D=9")
        after = client.get("/standings").text
        assert after != before
        best = c.competition().event.standings("round-1").rows[0]
        line = text_of(after)
        assert f"{c.competition().event.players[best.player_id].name} SP 1 {best.big}" in line
        english = client.get("/standings", params={"lang": "en"}).text
        assert "Standings" in english and english != after  # each language kept apart
        found = client.get("/find", params={"q": "uczeń 01"}).text
        assert "Uczeń 01" in text_of(found)
    reader.close()


def test_a_kept_tables_page_changes_with_the_live_state(hall: Cli) -> None:
    reader = EventReader(hall.db)
    live = LiveTables(None, TOPICS, reader.version)
    with TestClient(make_app(Console(reader, live))) as client:
        before = client.get("/tables").text
        assert client.get("/tables").text == before
        live.refresh(HallView(tables=(TableCell(1, move=7, known=True),)), reader.version())
        after = text_of(client.get("/tables").text)
    assert "7 ruchów" in after and after != text_of(before)
    reader.close()


def test_pages_before_the_event_exists(tmp_path: Path) -> None:
    with client_for(tmp_path / "none.sqlite3") as client:
        for path in ("/", "/find?q=anna", "/standings", "/tables"):
            page = client.get(path)
            assert page.status_code == 200, path
        home = text_of(client.get("/").text)
        standings = text_of(client.get("/standings").text)
    assert "Turniej nie został jeszcze utworzony." in home
    assert "Nic jeszcze nie rozlosowano" in standings
    assert not (tmp_path / "none.sqlite3").exists()  # reading never makes the event file


# --- language, and what a public page refuses ---------------------------------------------


def test_polish_first_english_on_request(hall: Cli) -> None:
    with client_for(hall.db) as client:
        polish = client.get("/")
        english = client.get("/", params={"lang": "en"})
        german = client.get("/", params={"lang": "de"})
    assert '<html lang="pl">' in polish.text and "Znajdź swój stolik" in polish.text
    assert '<html lang="en">' in english.text and "Find your table" in english.text
    assert 'href="/find?lang=en"' in english.text  # the links keep the language
    assert german.status_code == 400
    assert "Nie ma języka de: konsola mówi w językach pl, en." in text_of(german.text)


def test_an_event_in_english_speaks_english_unless_asked_for_polish(hall: Cli) -> None:
    hall.ok("event", "language", "en")
    with client_for(hall.db) as client:
        english = client.get("/")
        polish = client.get("/", params={"lang": "pl"})
    assert '<html lang="en">' in english.text and 'href="/find"' in english.text
    assert 'href="/?lang=pl"' in english.text  # the other language, named
    assert '<html lang="pl">' in polish.text and 'href="/find?lang=pl"' in polish.text


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH", "DELETE"])
def test_a_public_page_refuses_every_change(hall: Cli, method: str) -> None:
    before = hall.records()
    with client_for(hall.db) as client:
        for path in (*PAGES, "/tables/1", "/static/console.css"):
            answer = client.request(method, path, data={"q": "x", "result": "A=0"})
            assert answer.status_code == 405, (method, path, answer.status_code)
    assert hall.records() == before


def test_every_answer_says_scripts_come_from_the_console_alone(hall: Cli) -> None:
    with client_for(hall.db) as client:
        page = client.get("/")
        style = client.get("/static/console.css")
        script = client.get("/static/live.js")
    assert page.headers["content-security-policy"].startswith("default-src 'self'")
    assert "<script>" not in page.text  # no inline script: the policy forbids it
    assert "style=" not in page.text  # nor an inline style
    assert style.status_code == 200 and "text/css" in style.headers["content-type"]
    assert script.status_code == 200 and "EventSource" in script.text


def test_the_state_colours_are_the_status_models(hall: Cli) -> None:
    with client_for(hall.db) as client:
        sheet = client.get("/states.css")
    assert sheet.status_code == 200 and sheet.headers["content-type"].startswith("text/css")
    for state in TableState:
        bg, fg = look(state).bg, look(state).fg
        rule = f".state-{state.value} {{ background: #{bg[0]:02x}{bg[1]:02x}{bg[2]:02x}; "
        assert rule + f"color: #{fg[0]:02x}{fg[1]:02x}{fg[2]:02x}; }}" in sheet.text


def test_names_are_escaped(tmp_path: Path) -> None:
    c = Cli(tmp_path / "x.sqlite3")
    c.ok("event", "create", "--preset", "school", "--name", "Turniej <b>")
    c.ok("players", "add", "Ola <script>alert(1)</script>")
    with client_for(c.db) as client:
        page = client.get("/find", params={"q": "ola"}).text
    assert "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "Turniej &lt;b&gt;" in page


TEMPLATES = Path(__file__).resolve().parent.parent / "hub" / "web" / "templates"
AS_IS = {"Polski": "the name of the language, in itself"}
"""Words a template shows outside the catalog's lookups, and why."""


def test_every_word_of_a_template_goes_through_the_catalogs() -> None:
    unmarked = {}
    for path in sorted(TEMPLATES.glob("*.html")):
        text = path.read_text(encoding="utf-8")
        for marked in re.finditer(r"\{\{(.*?)\}\}|\{%(.*?)%\}", text, re.S):
            inside = marked.group(1) or marked.group(2)
            for literal in re.findall(r'"([^"]*)"', inside):
                if re.search(r"[^\W\d_]{2,}", literal) and literal not in AS_IS:
                    called = rf'(_|gettext|ngettext|pgettext)\([^)]*"{re.escape(literal)}"'
                    lookup = re.search(called, inside)
                    if literal in ABOUT_ONE:  # said(key, player): a gendered message's key
                        lookup = re.search(rf'said\([^)]*"{re.escape(literal)}"', inside)
                    # names of templates, attributes and values are no words
                    if lookup is None and not re.fullmatch(r"[\w./-]+", literal):
                        unmarked[path.name] = literal
        outside = re.sub(r"\{\{.*?\}\}", " ", text, flags=re.S)
        outside = re.sub(r'[\w-]+="[^"]*"', " ", outside)  # attributes: no words shown
        outside = re.sub(r"\{%.*?%\}|<[^>]*>", " ", outside, flags=re.S)
        words = re.findall(r"[^\W\d_]{2,}", outside)
        if words:
            unmarked[path.name] = " ".join(words)
    assert unmarked == {}


# --- settings -----------------------------------------------------------------------------


def settings_of(argv: list[str], env: dict[str, str]) -> tuple[str, int, Path]:
    args: argparse.Namespace = build_parser().parse_args(argv)
    web = web_settings(args, resolve("web", args, env))
    return web.host, web.port, web.db


def test_bind_address_and_port_file_then_environment_then_flags(tmp_path: Path) -> None:
    config = tmp_path / "hub.toml"
    config.write_text('db = "/srv/e.sqlite3"\n[web]\nhost = "10.0.9.1"\nport = 8081\n')
    env = {"RUMMIKUB_CONFIG": str(config)}
    assert settings_of([], env) == ("10.0.9.1", 8081, Path("/srv/e.sqlite3"))
    env |= {"RUMMIKUB_WEB_HOST": "0.0.0.0", "RUMMIKUB_WEB_PORT": "8082"}
    assert settings_of([], env) == ("0.0.0.0", 8082, Path("/srv/e.sqlite3"))
    flags = ["--host", "127.0.0.1", "--port", "8083", "--db", "e.db"]
    assert settings_of(flags, env) == ("127.0.0.1", 8083, Path("e.db"))
    assert settings_of(["--db", "e.db"], {})[:2] == ("127.0.0.1", 8080)  # the defaults


def test_bad_web_settings_name_where_they_came_from(tmp_path: Path) -> None:
    config = tmp_path / "hub.toml"
    config.write_text("[web]\nport = 70000\n")
    with pytest.raises(HubConfigError, match=r"hub\.toml.*port: must be 1 to 65535, got 70000"):
        settings_of(["--db", "e.db"], {"RUMMIKUB_CONFIG": str(config)})
    with pytest.raises(HubConfigError, match=r"RUMMIKUB_WEB_PORT='x'"):
        settings_of(["--db", "e.db"], {"RUMMIKUB_WEB_PORT": "x"})
    with pytest.raises(HubConfigError, match="no event store: give --db FILE"):
        settings_of([], {})


# --- live ---------------------------------------------------------------------------------


@pytest.fixture
def unit_link(mosquitto) -> Iterator[tuple[mqtt.Client, object]]:  # type: ignore[no-untyped-def]
    broker = mosquitto()
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="tables")
    client.connect(broker.host, broker.port)
    client.loop_start()
    yield client, broker
    client.loop_stop()
    client.disconnect()


@pytest.mark.mqtt
def test_a_table_event_reaches_an_open_page(hall: Cli, unit_link) -> None:  # type: ignore[no-untyped-def]
    client, broker = unit_link
    comp = hall.competition()
    table = comp.event.seating("round-1")[0]
    names = [comp.event.players[p].name for p in table.players]

    def publish(topic: str, message: object, retain: bool = True) -> None:
        client.publish(topic, encode(message), qos=1, retain=retain).wait_for_publish(5)

    seats = tuple(SeatAssignment(seat=Seat("ABCD"[i]), name=n) for i, n in enumerate(names))
    publish(TOPICS.assign(table.number), Assignment(v=1, table=table.number, game=1, seats=seats,
                                                    round=1))
    publish(TOPICS.state(table.number), snapshot(table.number))
    with serve_console(hall.db, broker.client_settings(), TOPICS) as served:
        stream = EventStream(f"{served.url}/live?tables={table.number}")
        try:
            def card(*words: str) -> object:
                return lambda data: all(word in str(data["html"]) for word in words)

            # every card first (a page that was away catches up), then what changes
            first = stream.next("table", card("GRA TRWA", names[0], names[3]))
            assert first["table"] == table.number

            def state(**fields: object) -> None:
                publish(TOPICS.state(table.number), snapshot(table.number, **fields))

            state(move=1, active=Seat.B)  # a pass
            passed = stream.next("table", card("1 ruch"))
            assert 'class="active"' in str(passed["html"]) and names[1] in str(passed["html"])
            state(move=1, active=Seat.B, paused=PauseReason.PLAYER_CALL)  # a judge call
            stream.next("table", card("WEZWANO SĘDZIEGO"))
            state(move=2, active=Seat.C, phase=Phase.TIME_UP, remaining=0.0, timeouts=(0, 0, 1, 0))
            timed_out = stream.next("table", card("CZAS MINĄŁ"))  # a timeout
            assert "1 przekroczenie czasu" in str(timed_out["html"])
            state(move=30, active=None, phase=Phase.GAME_OVER)  # a result
            unit = f"table-{table.number:02d}"
            ack = ResultAck(v=1, unit=unit, game=1, accepted=True, round=1)
            publish(TOPICS.result(table.number), ack)
            stream.next("table", card("WYNIK PRZYJĘTY"))

            hall.ok("result", "enter", "--table", str(table.number), "--game", "1",
                    "--racks", "A=0 B=10 C=20 D=30")
            stream.next("standings")  # the store changed: an open standings page reloads it
        finally:
            stream.close()


@pytest.mark.mqtt
def test_an_english_page_gets_its_updates_in_english(hall: Cli, unit_link) -> None:  # type: ignore[no-untyped-def]
    client, broker = unit_link
    client.publish(TOPICS.state(5), encode(snapshot(5, paused=PauseReason.JUDGE)), qos=1,
                   retain=True).wait_for_publish(5)
    with serve_console(hall.db, broker.client_settings(), TOPICS) as served:
        stream = EventStream(f"{served.url}/live?lang=en")
        try:
            assert stream.next("link", lambda d: d["live"])
            assert "content-type: text/event-stream" in stream.head.lower()
            card = stream.next("table", lambda d: d["table"] == 5)
            assert "PAUSED — JUDGE" in str(card["html"]) and "Table 5" in str(card["html"])
        finally:
            stream.close()
        deadline = time.monotonic() + 10
        while served.console.live.pages and time.monotonic() < deadline:
            time.sleep(0.05)
        assert served.console.live.pages == 0  # a page that went is forgotten


@pytest.mark.mqtt
def test_a_page_that_was_away_catches_up(hall: Cli, unit_link) -> None:  # type: ignore[no-untyped-def]
    """A phone that lost the Wi-Fi: its browser opens the stream again, and the first
    thing it gets is every table as it is now, with what changed meanwhile."""
    client, broker = unit_link

    def state(**fields: object) -> None:
        client.publish(TOPICS.state(2), encode(snapshot(2, **fields)), qos=1,
                       retain=True).wait_for_publish(5)

    state(move=3)
    with serve_console(hall.db, broker.client_settings(), TOPICS) as served:
        away = EventStream(f"{served.url}/live?tables=2")
        try:
            away.next("table", lambda d: "3 ruchy" in str(d["html"]))
        finally:
            away.close()
        state(move=7, phase=Phase.TIME_UP, remaining=0.0, timeouts=(1, 0, 0, 0))
        deadline = time.monotonic() + 20
        while "7" not in str([c.move for c in served.console.live.cards]):
            assert time.monotonic() < deadline, "the console never heard the new state"
            time.sleep(0.05)
        back = EventStream(f"{served.url}/live?tables=2")
        try:
            first = back.next("table")
            assert "CZAS MINĄŁ" in str(first["html"]) and "7 ruchów" in str(first["html"])
        finally:
            back.close()


def test_a_taken_port_is_said_in_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        reader = EventReader(tmp_path / "none.sqlite3")
        server = ConsoleThread(Console(reader, LiveTables(None, TOPICS)), "127.0.0.1", port)
        with pytest.raises(WebConsoleError) as refused:
            server.start()
        server.stop()
    assert refused.value.message(words("pl").gettext) == (
        f"konsola WWW nie może nasłuchiwać na 127.0.0.1:{port}"
    )


def test_stopping_ends_the_open_pages_streams(
    hall: Cli, caplog: pytest.LogCaptureFixture
) -> None:
    """uvicorn waits for open connections before it stops: the console ends its pages'
    streams first, so a stop with phones watching is quick and quiet."""
    uvicorn_log = logging.getLogger("uvicorn.error")  # it does not pass its lines up
    uvicorn_log.addHandler(caplog.handler)
    with serve_console(hall.db, None, TOPICS) as served:
        stream = EventStream(f"{served.url}/live")
        stream.next("link")
        assert served.console.live.pages == 1
    stream.close_when_ended(10)
    uvicorn_log.removeHandler(caplog.handler)
    problems = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert problems == []


def test_the_consoles_command_line_speaks_the_readers_language(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """rummikub-web's help and refusals in Polish by default (argparse's own words too),
    in English with --lang en or LANG=en_GB."""
    from hub.web.serve import main

    monkeypatch.delenv("LANGUAGE", raising=False)
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    with pytest.raises(SystemExit):
        main(["--help"])
    polish = capsys.readouterr().out
    assert "Konsola WWW centrali" in polish and "użycie:" in polish
    assert "port, na którym konsola czeka" in polish and "usage:" not in polish
    with pytest.raises(SystemExit):
        main(["--port", "70000"])
    assert "--port: oczekiwano portu 1–65535, podano 70000" in capsys.readouterr().err
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "the port to listen on" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["--lang", "pl", "--port", "0"])
    assert "podano 0" in capsys.readouterr().err
