"""The organizer's event and players pages of the web console (hub.web.players), asked
through the real application with Starlette's test client and signed in as the test
bundle's organizer: every change goes through the organizer's functions the command line
calls, on a real SQLite file, and a refused one stores nothing."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from test_cli_support import Cli
from web_console import form_token, signed_in, text_of

from hub.competition import NameShown
from hub.store import EventStore
from hub.web.app import make_app
from hub.web.auth import WebRole
from hub.web.live import LiveTables
from hub.web.pages import Console, EventReader
from tablekit.core.topics import Topics

TOPICS = Topics("hall", "organizer")
GOOD_FILE = (
    "Imię i nazwisko;Szkoła;Uwagi\r\n"
    "Anna Kowalska;SP 3 Łódź;\r\n"
    "Łukasz Żółć;SP 1 Kraków;okulary\r\n"
    "Jan Nowak;SP 3 Łódź;\r\n"
    "Ewa Wiśniewska;SP 1 Kraków;\r\n"
).encode("utf-8-sig")
BAD_FILE = (
    "Imię i nazwisko;Szkoła;Punkty\r\n"
    "Anna Kowalska;SP 3 Łódź;12\r\n"
    ";SP 1 Kraków;3\r\n"
    "Jan Nowak;SP 3 Łódź;dużo\r\n"
    "Anna Kowalska;SP 3 Łódź;5\r\n"
).encode()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "event.sqlite3"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    reader = EventReader(db)
    app = make_app(Console(reader, LiveTables(None, TOPICS, reader.version)))
    with TestClient(app) as client:
        signed_in(client, WebRole.ORGANIZER)
        yield client
    reader.close()


def post(client: TestClient, path: str, data: dict[str, object], page: str = "",
         **kwargs: object) -> tuple[int, str]:
    """Posts a form of ``page`` (default: ``path``'s page) with its CSRF token; (status,
    the page shown after the redirect, or the form shown again)."""
    token = form_token(client.get(page or "/organizer/players").text)
    answer = client.post(path, data={"csrf": token, **data}, follow_redirects=False,
                         **kwargs)  # type: ignore[arg-type]
    if answer.status_code == 303:
        target = answer.headers["location"]
        shown = client.get(target)
        return 303, text_of(shown.text)
    return answer.status_code, text_of(answer.text)


def records(db: Path) -> int:
    store = EventStore(db)
    try:
        return store.counts()["total"]
    finally:
        store.close()


def created(client: TestClient, db: Path, **form: str) -> None:
    status, page = post(client, "/organizer/event",
                        {"name": "Konkurs klas 4", "preset": "school", "language": "pl",
                         "privacy": "full", **form}, "/organizer/event")
    assert status == 303, page


# --- the event -------------------------------------------------------------------------------


def test_the_event_is_created_from_a_preset_and_its_settings_shown(
    client: TestClient, db: Path
) -> None:
    page = text_of(client.get("/organizer/event").text)
    assert "Utwórz turniej" in page
    status, page = post(client, "/organizer/event", {"name": "  ", "preset": "school",
                        "language": "pl", "privacy": "full"}, "/organizer/event")
    assert (status == 400 and not db.exists()) or records(db) == 0
    created(client, db, privacy="initial", minutes="50")
    comp = Cli(db).competition()
    assert comp.created is not None and comp.created.name == "Konkurs klas 4"
    assert comp.created.by == "organizer" and comp.names_shown is NameShown.INITIAL
    assert comp.created.round_minutes == 50
    page = text_of(client.get("/organizer/event").text)
    assert "Konkurs klas 4" in page and "Międzyszkolny konkurs" in page
    assert "50 min" in page and "wszyscy jako imię i inicjał nazwiska" in page
    english = text_of(client.get("/organizer/event?lang=en").text)
    assert "Inter-school contest (004)" in english and "Names on public pages" in english


def test_the_privacy_setting_is_changed_and_said(client: TestClient, db: Path) -> None:
    created(client, db)
    status, page = post(client, "/organizer/event/privacy",
                        {"names": "initial", "why": "dzieci"}, "/organizer/event")
    assert status == 303 and "Nazwiska na stronach publicznych" in page
    comp = Cli(db).competition()
    assert comp.names_shown is NameShown.INITIAL and comp.privacy is not None
    assert comp.privacy.why == "dzieci" and comp.privacy.by == "organizer"


# --- players ---------------------------------------------------------------------------------


def upload(client: TestClient, data: bytes, name: str = "gracze.csv",
           **form: str) -> tuple[int, str]:
    return post(client, "/organizer/players/upload", dict(form),
                files={"file": (name, data, "text/csv")})


def test_an_upload_with_wrong_rows_says_each_beside_its_row_and_stores_nothing(
    client: TestClient, db: Path
) -> None:
    created(client, db)
    before = records(db)
    status, page = upload(client, BAD_FILE)
    assert status == 400
    assert "3 wiersze są błędne; nic nie zapisano" in page
    # each row with what it says and what is wrong with it
    assert "3 — | SP 1 Kraków | 3 gracze.csv, wiersz 3: puste imię i nazwisko" in page
    assert "4 Jan Nowak | SP 3 Łódź | dużo gracze.csv, wiersz 4: ranking „dużo” to nie liczba" \
        in page
    assert re.search(r"5 Anna Kowalska \| SP 3 Łódź \| 5 .*wiersz 5: powtórzony .*wierszu 2", page)
    assert records(db) == before
    status, page = upload(client, b"PK\x03\x04 a workbook")
    assert status == 400 and "zapisz arkusz jako CSV" in page
    assert records(db) == before


def test_a_good_upload_is_stored_as_the_command_line_stores_it(
    client: TestClient, db: Path, tmp_path: Path
) -> None:
    created(client, db)
    status, page = upload(client, GOOD_FILE, check_in="on")
    assert status == 303, page
    assert "Zaimportowano 4 graczy z pliku gracze.csv (P001–P004), obecność potwierdzona" in page
    assert "Pominięte kolumny: Uwagi" in page
    web = Cli(db).competition().event
    cli_db = tmp_path / "cli.sqlite3"
    cli = Cli(cli_db)
    cli.ok("event", "create", "--preset", "school", "--name", "Konkurs klas 4")
    (tmp_path / "gracze.csv").write_bytes(GOOD_FILE)
    cli.ok("players", "import", str(tmp_path / "gracze.csv"), "--check-in")
    by_cli = cli.competition().event
    assert web.players == by_cli.players and web.present == by_cli.present
    # the same file again: every row is already registered, beside its row
    status, page = upload(client, GOOD_FILE)
    assert status == 400 and "4 wiersze są błędne" in page
    assert "gracze.csv, wiersz 2: powtórzony gracz „Anna Kowalska” (SP 3 Łódź)" in page


def test_one_player_is_added_and_a_wrong_field_said_beside_it(
    client: TestClient, db: Path
) -> None:
    created(client, db)
    before = records(db)
    status, page = post(client, "/organizer/players/add", {"name": "Ola Kot", "rating": "x"})
    assert status == 400 and "ranking „x” to nie liczba" in page
    assert 'value="Ola Kot"' in client.post(
        "/organizer/players/add", data={"csrf": form_token(client.get(
            "/organizer/players").text), "name": "Ola Kot", "rating": "x"}).text
    assert records(db) == before
    status, page = post(client, "/organizer/players/add",
                        {"name": "Ola Kot", "club": "SP 3", "rating": "12,5",
                         "league_number": "krk-7"})
    assert status == 303 and "P001 Ola Kot (SP 3), numer ligowy KRK-7" in page
    status, page = post(client, "/organizer/players/add", {"name": "ola  kot", "club": "sp 3"})
    assert status == 400 and "P001" in page and "powtórzony" in page
    status, page = post(client, "/organizer/players/add", {"name": "Jan", "league_number": "KRK-7"})
    assert status == 400 and "numer ligowy KRK-7 ma już P001" in page
    assert 'aria-describedby="league_number-problem"' in client.post(
        "/organizer/players/add", data={"csrf": form_token(client.get(
            "/organizer/players").text), "name": "Jan", "league_number": "KRK-7"}).text
    player = Cli(db).competition().event.players["P001"]
    assert (player.name, player.club, player.rating, player.league_number) == (
        "Ola Kot", "SP 3", 12.5, "KRK-7")
    status, page = post(client, "/organizer/players/P001/rename",
                        {"name": "Ola Kot", "club": "SP 3", "league_number": "",
                         "why": "numer był innej Oli"}, "/organizer/players/P001")
    assert status == 303 and "Numer ligowy: KRK-7 → brak" in page
    assert Cli(db).competition().event.players["P001"].league_number == ""


def test_check_in_many_late_arrival_rename_and_withdraw(client: TestClient, db: Path) -> None:
    created(client, db)
    upload(client, GOOD_FILE)
    status, page = post(client, "/organizer/players/arrive", {"player": ["P001", "P002", "P003"]})
    assert status == 303 and "Potwierdzono obecność (3): P001, P002, P003; obecni: 3" in page
    status, page = post(client, "/organizer/players/P004/rename",
                        {"name": "Ewa Wiśniewska-Nowak", "surname": "", "club": "SP 1 Kraków",
                         "why": ""}, "/organizer/players/P004")
    assert status == 400 and "podaj powód" in page
    status, page = post(client, "/organizer/players/P004/rename",
                        {"name": "Ewa Wiśniewska-Nowak", "surname": "", "club": "SP 1 Kraków",
                         "why": "nazwisko po ślubie"}, "/organizer/players/P004")
    assert status == 303 and "Ewa Wiśniewska, SP 1 Kraków → Ewa Wiśniewska-Nowak" in page
    Cli(db).ok("round", "draw", "--seed", "1")
    status, page = post(client, "/organizer/players/arrive", {"player": ["P004"]})
    assert status == 303 and "Spóźnieni: P004" in page
    status, page = post(client, "/organizer/players/P003/withdraw", {"reason": " "},
                        "/organizer/players/P003")
    assert status == 400
    status, page = post(client, "/organizer/players/P003/withdraw", {"reason": "choroba"},
                        "/organizer/players/P003")
    assert status == 303 and "P003 wycofany z turnieju (choroba)" in page
    event = Cli(db).competition().event
    assert event.present == {"P001", "P002", "P004"} and "P003" in event.withdrawn


def test_a_minor_without_consent_is_asked_about_and_the_decision_recorded(
    client: TestClient, db: Path
) -> None:
    created(client, db)
    upload(client, GOOD_FILE)
    status, page = post(client, "/organizer/players/P001/minor", {"minor": "minor"},
                        "/organizer/players/P001")
    assert status == 303 and "Osoba niepełnoletnia, jeszcze bez pisemnej zgody" in page
    before = records(db)
    status, page = post(client, "/organizer/players/arrive", {"player": ["P001", "P002"]})
    assert status == 400 and "P001 Anna Kowalska: osoby niepełnoletnie bez zapisanej" in page
    assert "Dopuść mimo to" in page and records(db) == before
    status, page = post(client, "/organizer/players/arrive",
                        {"player": ["P001", "P002"], "admit": "on"})
    assert status == 303 and "Dopuszczono bez zapisanej pisemnej zgody" in page
    comp = Cli(db).competition()
    assert comp.admitted["P001"].by == "organizer" and comp.event.present == {"P001", "P002"}


# --- privacy on the public pages and erasure -------------------------------------------------


def test_the_public_pages_follow_the_setting_chosen_here(client: TestClient, db: Path) -> None:
    created(client, db)
    upload(client, GOOD_FILE, check_in="on")
    post(client, "/organizer/players/P002/minor", {"minor": "consent"}, "/organizer/players/P002")
    Cli(db).ok("round", "draw", "--seed", "2")
    standings = client.get("/standings").text
    assert "Łukasz Ż." in standings and "Żółć" not in standings
    assert "Anna Kowalska" in standings
    post(client, "/organizer/event/privacy", {"names": "initial", "why": ""}, "/organizer/event")
    standings = client.get("/standings").text
    assert "Anna K." in standings and "Kowalska" not in standings
    # the organizer's own pages keep the full names
    assert "Anna Kowalska" in client.get("/organizer/players").text


def test_erasure_needs_the_typed_name_and_leaves_no_name_in_the_file(
    client: TestClient, db: Path
) -> None:
    created(client, db)
    upload(client, GOOD_FILE, check_in="on")
    before = records(db)
    erase = "/organizer/event/erase"
    status, page = post(client, erase, {"confirm": "Konkurs"}, "/organizer/event")
    assert status == 400 and "wpisz nazwę turnieju „Konkurs klas 4”" in page
    assert records(db) == before
    status, page = post(client, erase, {"confirm": "Konkurs klas 4"}, "/organizer/event")
    assert status == 303 and "Usunięto dane osobowe 4 graczy" in page
    names = {p.name for p in Cli(db).competition().event.players.values()}
    assert names == {"P001", "P002", "P003", "P004"}
    assert "P001" in client.get("/organizer/players").text
    data = b"".join(p.read_bytes() for p in db.parent.glob("event.sqlite3*"))
    for text in ("Kowalska", "Żółć", "Nowak", "Wiśniewska", "Łódź", "Kraków"):
        assert text.encode() not in data, text


# --- who may ---------------------------------------------------------------------------------


def test_a_judge_and_a_stranger_cannot_use_the_organizers_pages(db: Path) -> None:
    reader = EventReader(db)
    app = make_app(Console(reader, LiveTables(None, TOPICS, reader.version)))
    with TestClient(app) as stranger:
        assert stranger.get("/organizer/players", follow_redirects=False).status_code == 303
        assert stranger.post("/organizer/event", data={"name": "X"}).status_code == 403
    with TestClient(app) as judge:
        signed_in(judge, WebRole.JUDGE)
        assert judge.get("/organizer/event").status_code == 403
    reader.close()
    assert not db.exists() or records(db) == 0


def test_the_exports_for_publication_follow_the_setting(client: TestClient, db: Path) -> None:
    created(client, db, privacy="initial")
    upload(client, GOOD_FILE, check_in="on")
    Cli(db).ok("round", "draw", "--seed", "2")
    page = client.get("/organizer/exports", params={"public": "1"}).text
    names = sorted(set(re.findall(r"/organizer/exports/csv/([^?\"]+)\?language=pl&amp;public=1",
                                  page)))
    assert names, page
    public = "".join(client.get(f"/organizer/exports/csv/{name}",
                                params={"public": "1"}).text for name in names)
    full = "".join(client.get(f"/organizer/exports/csv/{name}").text for name in names)
    assert "Anna K." in public and "Łukasz Ż." in public
    for surname in ("Kowalska", "Żółć", "Nowak", "Wiśniewska"):
        assert surname not in public and surname in full
    printed = client.get("/organizer/exports/print/seating.html",
                         params={"public": "1"}).text
    assert "Anna K." in printed and "Kowalska" not in printed


class _Inputs(HTMLParser):
    """The attributes of every input of a page, as a browser parses them."""

    def __init__(self) -> None:
        super().__init__()
        self.inputs: dict[str, dict[str, str | None]] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "input":
            found = dict(attrs)
            self.inputs[str(found.get("id") or found.get("name"))] = found


def inputs_of(html: str) -> dict[str, dict[str, str | None]]:
    parser = _Inputs()
    parser.feed(html)
    return parser.inputs


def test_form_fields_keep_their_settings_as_attributes(client: TestClient, db: Path) -> None:
    """A phone shows a numeric keypad and keeps the length limit only when the settings
    are attributes, not text escaped into the tag."""
    fields = inputs_of(client.get("/organizer/event").text)
    assert fields["name"]["maxlength"] == "80" and fields["name"]["autocomplete"] == "off"
    assert fields["minutes"]["inputmode"] == "decimal"
    created(client, db)
    fields = inputs_of(client.get("/organizer/players").text)
    assert fields["rating"]["inputmode"] == "decimal" and fields["rating"]["maxlength"] == "12"
    assert fields["name"]["autocapitalize"] == "words"
    for attrs in fields.values():
        assert not any('"' in name or "&" in name for name in attrs), attrs


PUPILS_FILE = (
    "Imię i nazwisko;Szkoła;Niepełnoletni;Zgoda opiekuna\r\n"
    "Magda Mazur;SP 12 Kraków;tak;tak\r\n"
    "Olek Nowak;SP 12 Kraków;tak;\r\n"
    "Ewa Lis;SP 12 Kraków;;\r\n"
    "Jan Kot;SP 12 Kraków;;\r\n"
).encode("utf-8-sig")


def test_many_pupils_at_once_minors_from_the_file_and_every_one_checked_in(
    client: TestClient, db: Path
) -> None:
    """A teacher with a class: the file says who is a minor and whose consent came, many
    are marked at once, and everyone registered is checked in with one button."""
    created(client, db)
    status, page = upload(client, PUPILS_FILE)
    assert status == 303 and "Oznaczono jako niepełnoletnich: 2 graczy" in page
    status, page = post(client, "/organizer/players/minors",
                        {"player": ["P003", "P004"], "minor": "consent"})
    assert status == 303 and "P003, P004" in page
    status, page = post(client, "/organizer/players/minors", {"minor": "consent"})
    assert status == 400 and "Najpierw zaznacz graczy" in page
    comp = Cli(db).competition()
    assert {pid for pid in comp.event.players if comp.is_minor(pid)} == {"P001", "P002", "P003",
                                                                          "P004"}
    assert comp.without_consent(sorted(comp.event.players)) == ["P002"]
    status, page = post(client, "/organizer/players/arrive", {"which": "all"})
    assert status == 400 and "P002 Olek Nowak" in page  # asked about the one without consent
    status, page = post(client, "/organizer/players/arrive", {"which": "all", "admit": "on"})
    assert status == 303 and "Potwierdzono obecność (4)" in page
    assert Cli(db).competition().event.present == {"P001", "P002", "P003", "P004"}
    # a pupil shown as "Magda M." who types her surname is told why nothing is found
    Cli(db).ok("round", "draw", "--seed", "1")
    found = text_of(client.get("/find", params={"q": "mazur"}).text)
    assert "Gracze poniżej 18 lat są pokazani imieniem i inicjałem nazwiska" in found
    assert "Sprawdź pisownię" not in found
