"""A player's grammatical gender (RULES.md §5): given in the players file, the web form or
the command line, otherwise proposed from the given name; changed by the organizer as a
record with who, when and why; carried in the players export and read back by the import;
removed by the erasure. The titles, the status words and the sentences about one player
agree with it, words without gender where it is not known; English is unaffected."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from test_cli_support import Cli
from test_web_players import TOPICS, post, text_of
from web_console import signed_in

from hub.exports.files import csv_files
from hub.exports.grid import Sheet
from hub.exports.words import STATUSES, TITLES, status_word, title_label
from hub.players_csv import PlayersCsvError, new_players, parse_players_csv
from hub.web.app import make_app
from hub.web.auth import WebRole
from hub.web.live import LiveTables
from hub.web.pages import Console, EventReader
from tablekit.core.gender import Gender, GenderedError, gender_of, gendered, propose
from tablekit.core.words import NP_
from tablekit.shared.i18n import words

PL, EN = words("pl"), words("en")
F, M, N = Gender.FEMALE, Gender.MALE, Gender.NEUTRAL


def test_the_kit_proposes_the_gender_from_the_given_name() -> None:
    proposed = {
        name: propose(name)
        for name in ("Zofia", "Ola", "Anna Maria", "Anna-Maria", "Łucja", "Kuba", "Barnaba",
                     "Bonawentura", "Jan", "Bartłomiej", "Noemi", "Beatrycze", "Alex", "Sasza",
                     "J.", "", "P001")
    }
    assert proposed == {
        "Zofia": F, "Ola": F, "Anna Maria": F, "Anna-Maria": F, "Łucja": F,
        "Kuba": M, "Barnaba": M, "Bonawentura": M, "Jan": M, "Bartłomiej": M,
        "Noemi": F, "Beatrycze": F,
        "Alex": N, "Sasza": N, "J.": N, "": N, "P001": N,
    }


def test_a_gender_is_read_as_people_write_it() -> None:
    for text, gender in (("K", F), ("k.", F), ("kobieta", F), ("F", F), ("M", M),
                         ("Mężczyzna", M), ("n", N), ("", None), ("  ", None)):
        assert gender_of(text) == gender, text
    with pytest.raises(ValueError) as caught:
        gender_of("x")
    assert "płeć „x”: wpisz K (kobieta), M (mężczyzna)" in caught.value.message(PL.gettext)


def test_every_form_is_marked_in_its_own_context() -> None:
    with pytest.raises(GenderedError):
        gendered(
            NP_("said of a man", "x"), NP_("said of a man", "x"), NP_("said without gender", "x")
        )
    for forms in [*TITLES.values(), *STATUSES.values()]:
        said = {PL.gendered(forms, g) for g in Gender}
        assert len(said) == 3, forms  # three Polish forms
        assert {EN.gendered(forms, g) for g in Gender} == {forms.english}  # English unaffected


def test_the_titles_and_statuses_agree_with_the_player() -> None:
    assert [title_label("vice-champion", PL, g) for g in (F, M, N)] == [
        "wicemistrzyni", "wicemistrz", "wicemistrzostwo"]
    assert [status_word(s, PL, F) for s in ("present", "registered", "withdrawn")] == [
        "obecna", "zgłoszona", "wycofana"]
    assert status_word("present", PL, N) == "obecność potwierdzona"
    assert not any("(a)" in PL.gendered(f, g) for f in STATUSES.values() for g in Gender)


def test_a_players_file_gives_the_gender_and_the_others_are_proposed() -> None:
    data = "Imię;Nazwisko;Płeć\nAlex;Nowak;K\nKuba;Lis;\nZofia;Kot;\nJan;Wąs;m\n".encode()
    parsed = parse_players_csv(data, "gracze.csv")
    players = new_players(parsed.players, {}, lambda i: f"P{i + 1:03d}")
    assert [(p.name, p.gender, p.grammatical_gender) for p in players] == [
        ("Alex Nowak", F, F), ("Kuba Lis", None, M), ("Zofia Kot", None, F),
        ("Jan Wąs", M, M)]
    with pytest.raises(PlayersCsvError) as caught:
        parse_players_csv("Imię i nazwisko;K/M\nOla Kot;dziewczynka?\n".encode(), "gracze.csv")
    assert "gracze.csv, wiersz 2: płeć „dziewczynka?”" in caught.value.message(PL.gettext)


@pytest.fixture
def registered(tmp_path: Path) -> Cli:
    c = Cli(tmp_path / "e.sqlite3", lang="pl")
    c.ok("event", "create", "--preset", "school", "--name", "Konkurs")
    c.ok("players", "add", "Zofia Maria Kowalska", "--surname", "Maria Kowalska", "--check-in")
    c.ok("players", "add", "Kuba Lis", "--club", "SP 1")
    c.ok("players", "add", "Alex Wąs", "--gender", "K")
    return c


def test_the_command_line_adds_and_changes_a_gender_as_a_record(registered: Cli) -> None:
    c = registered
    out = c.ok("players", "add", "Sasza Lis", "--gender", "n")
    assert "P004  Sasza Lis: zgłoszenie przyjęte" in out
    assert "(kobieta: z imienia)" in c.ok("players", "add", "Ola Kot")
    assert "P001 Zofia Maria Kowalska: obecna" in c.ok("players", "history", "P001")
    refused = c.fails("players", "rename", "P003", "--gender", "x", "--why", "pomyłka")
    assert "płeć „x”: wpisz K" in refused
    out = c.ok("players", "rename", "P003", "--gender", "M", "--why", "to chłopiec", by="Ola")
    assert "P003: Alex Wąs (kobieta) → Alex Wąs (mężczyzna)" in out
    assert "płeć: mężczyzna; zapisano" in out and "kto: Ola; powód: to chłopiec" in out
    change = c.competition().changes_of("P003")[-1]
    assert (change.record.by, change.record.why, change.after.gender) == ("Ola", "to chłopiec", M)
    assert "nie ma czego zmienić" in c.fails("players", "rename", "P003", "--gender", "M",
                                             "--why", "znowu")
    assert "P003 Alex Wąs: zgłoszony" in c.ok("players", "history", "P003")
    english = c.ok("players", "history", "P003", "--lang", "en")
    assert "P003 Alex Wąs: registered" in english


def test_the_players_export_is_read_back_with_genders_and_surnames(registered: Cli) -> None:
    comp = registered.competition()
    for sheet, letters in ((Sheet(PL), ("K", "M", "K")), (Sheet(EN), ("F", "M", "F"))):
        text = csv_files(comp, sheet)["players.csv"]
        column = "Płeć" if sheet.words is PL else "Gender"
        read = {r["Nr" if sheet.words is PL else "ID"]: r[column]
                for r in csv.DictReader(io.StringIO(text), delimiter=sheet.delimiter)}
        assert (read["P001"], read["P002"], read["P003"]) == letters
        again = new_players(parse_players_csv(text.encode("utf-8-sig"), "eksport.csv").players,
                            {}, lambda i: f"X{i}")
        before = sorted(comp.event.players.values(), key=lambda p: p.name)
        after = sorted(again, key=lambda p: p.name)
        assert [(p.name, p.family_name, p.grammatical_gender, p.club) for p in after] == [
            (p.name, p.family_name, p.grammatical_gender, p.club) for p in before]


def test_the_erasure_removes_the_gender(registered: Cli, tmp_path: Path) -> None:
    c = registered
    c.ok("players", "rename", "P002", "--gender", "M", "--why", "potwierdzone")
    c.ok("event", "erase", "--confirm", "Konkurs")
    after = c.competition()
    assert all(p.gender is None and p.grammatical_gender is N for p in after.event.players.values())
    data = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith("e.sqlite3"))
    assert b'"gender":"f"' not in data and b'"gender":"m"' not in data


@pytest.fixture
def client(registered: Cli) -> Iterator[TestClient]:
    reader = EventReader(registered.db)
    app = make_app(Console(reader, LiveTables(None, TOPICS, reader.version)))
    with TestClient(app) as client:
        signed_in(client, WebRole.ORGANIZER)
        yield client
    reader.close()


def test_the_web_console_adds_shows_and_changes_the_gender(
    client: TestClient, registered: Cli
) -> None:
    page = text_of(client.get("/organizer/players").text)
    assert "Płeć" in page and "K (z imienia)" in page and "obecna" in page
    status, page = post(client, "/organizer/players/add", {"name": "Nikola Zięba",
                        "gender": "m"})
    assert status == 303 and "P004 Nikola Zięba zgłoszony" in page
    status, page = post(client, "/organizer/players/add", {"name": "Ewa Ryś", "gender": "x"})
    assert status == 400 and "Wybierz jedną z możliwości." in page
    status, page = post(client, "/organizer/players/P002/rename",
                        {"name": "Kuba Lis", "surname": "", "club": "SP 1", "gender": "n",
                         "why": "tak woli"}, "/organizer/players/P002")
    assert status == 303 and "Kuba Lis, SP 1 (mężczyzna) → Kuba Lis, SP 1 (bez rodzaju)" in page
    assert registered.competition().event.players["P002"].gender is N
    page = text_of(client.get("/organizer/players/P001").text)
    assert "obecna" in page and "pełnoletnia" in page and "niepełnoletnia, zgoda otrzymana" in page
    english = text_of(client.get("/organizer/players/P001?lang=en").text)
    assert "present" in english and "minor, consent received" in english
