"""The exports and printouts in each language: Polish by default (Polish column names and
words, a Polish spreadsheet's ``;`` and decimal comma, Polish dates, the rule books' words
on paper), English on request (the column names and codes scripts read).

The printouts' pages are written as PNGs a person can open:
``artifacts/printouts/<lang>/<document>-<page>.png``.
"""

from __future__ import annotations

import csv
import io
import random
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest
from pdf_pages import A4_POINTS, ink_in_margins, read_pdf
from test_cli_support import Cli, play_round, seat_counts
from test_printouts import CLUB, NAMES, WHY, flat, surname_first

from hub import archive
from hub.competition import Competition, EventCreated
from hub.exports.files import archive_documents, csv_files
from hub.exports.grid import ExportError, Sheet, latest_stage
from hub.exports.lists import players_grid
from hub.exports.printouts import printouts
from hub.exports.words import stage_label
from hub.players_csv import parse_players_csv
from hub.tournament import preset
from tablekit.shared.i18n import words

PL, EN = words("pl"), words("en")
ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "artifacts" / "printouts"
FIX = "źle odczytana karta"

ENGLISH_HEADERS = {
    "standings.csv": "stage,round,place,player_id,name,club,bp,sp,games,bp_deducted,warnings,"
    "disqualified,round_state,sanctions,withdrawn",
    "results.csv": "stage,round,table,game,seat,code,player_id,name,club,ending,tiles,jokers,"
    "opening,rack_value,sp,bp,place,winner,version,source,recorded_by,recorded_at,why",
    "seating.csv": "stage,round,table,group,code,player_id,name,club",
    "sanctions.csv": "number,at,by,player_id,name,club,sanction,bp,stage,why,lifted_at,"
    "lifted_by,lifted_why",
    "players.csv": "ID,Name,Surname,Club,League number,Rating,Gender,Status,Minor,"
    "Guardian's consent",
    "ranking.csv": "place,player_id,name,club,title,stage,bp,sp,disqualified,sanctions,withdrawn",
}
"""The column names scripts read today: ``--lang en`` keeps them."""
POLISH_HEADERS = {
    "standings.csv": "Etap;Runda;Zajęte miejsce;Nr gracza;Imię i nazwisko;Klub;DP;MP;Gry;"
    "Odjęte DP;Upomnienia;Wykluczony;Stan rundy;Sankcje;Wycofanie się",
    "results.csv": "Etap;Runda;Stolik;Gra;Miejsce;Kod miejsca;Nr gracza;Imię i nazwisko;Klub;"
    "Zakończenie gry;Kostki;Jokery;Wyłożenie;Wartość tabliczki;MP;DP;Zajęte miejsce;"
    "Zwycięzca;Wersja;Źródło;Wpisane przez;Kiedy wpisano;Powód",
    "seating.csv": "Etap;Runda;Stolik;Grupa;Kod miejsca;Nr gracza;Imię i nazwisko;Klub",
    "sanctions.csv": "Nr;Kiedy;Kto;Nr gracza;Imię i nazwisko;Klub;Sankcja;DP;Etap;Powód;"
    "Kiedy uchylono;Uchylone przez;Powód uchylenia",
    "players.csv": "Nr;Imię i nazwisko;Nazwisko;Klub;Numer ligowy;Ranking;Płeć;Status;"
    "Niepełnoletni;Zgoda opiekuna",
    "ranking.csv": "Zajęte miejsce;Nr gracza;Imię i nazwisko;Klub;Tytuł;Etap;DP;MP;Wykluczony;"
    "Sankcje;Wycofanie się",
}


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Cli:
    """The winter preset played to the end by 7 players with Polish names and clubs: a
    result corrected by a judge, a warning and a deduction of big points."""
    tmp = tmp_path_factory.mktemp("winter")
    c = Cli(tmp / "e.sqlite3")
    c.ok("event", "create", "--preset", "winter", "--name", "Turniej Zimowy — Łódź 2026")
    for i, name in enumerate(NAMES):
        number = ("--league-number", f"ldz-{i}") if i % 2 else ()
        c.ok("players", "add", name, "--club", CLUB, "--rating", f"{1500 + i}.5", *number)
    c.ok("players", "check-in", "--all")
    rng = random.Random(5)
    for r in range(2):
        c.ok("round", "draw", "--seed", str(r))
        c.ok("round", "start")
        play_round(c, rng)
        if r == 0:
            racks = "0 10 20j" if seat_counts(c.competition())[1] == 3 else "0 10 20j 30"
            c.ok(
                "result", "enter", "--table", "1", "--game", "1", "--racks", racks,
                "--why", FIX, by="sędzia Żaneta",
            )
        c.ok("round", "close")
    c.ok("sanction", "warn", "P003", "--why", "telefon", by="sędzia Żaneta")
    c.ok("sanction", "deduct", "P002", "--big", "1", "--why", WHY, "--yes", by="sędzia Żaneta")
    return c


def rows(text: str, delimiter: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text), delimiter=delimiter))


def test_polish_csv_files_open_in_a_polish_spreadsheet(finished: Cli) -> None:
    comp = finished.competition()
    files = csv_files(comp, Sheet(PL))
    for name, header in POLISH_HEADERS.items():
        assert files[name].splitlines()[0] == header, name
    standings = rows(files["standings.csv"], ";")
    assert {r["Etap"] for r in standings} == {"runda 1", "runda 2"}
    assert {r["Stan rundy"] for r in standings} == {"zakończona"}
    results = rows(files["results.csv"], ";")
    assert {r["Zakończenie gry"] for r in results} <= {
        "ktoś wyłożył wszystkie kostki",
        "nikt nie wyłożył wszystkich kostek",
    }
    assert {r["Źródło"] for r in results} == {"sędzia"}
    assert {r["Wyłożenie"] for r in results} >= {"wyłożenie"}
    corrected = rows(files["corrections.csv"], ";")
    assert {r["Wersja"] for r in corrected} == {"1", "2"} and FIX in {r["Powód"] for r in corrected}
    stamp = corrected[-1]["Kiedy wpisano"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", stamp), stamp  # a date to Excel
    sanctions = rows(files["sanctions.csv"], ";")
    assert [r["Sankcja"] for r in sanctions] == ["upomnienie", "odjęcie dużych punktów"]
    ranking = rows(files["ranking.csv"], ";")
    titled = [(r["Imię i nazwisko"].split()[0], r["Tytuł"]) for r in ranking if r["Tytuł"]]
    assert len(titled) == 3  # titles agree with the player: a girl is Mistrzyni
    for given, title in titled:
        if given.endswith("a"):
            assert title in ("szkolna mistrzyni", "wicemistrzyni"), (given, title)
        else:
            assert title in ("szkolny mistrz", "wicemistrz"), (given, title)
    players = rows(files["players.csv"], ";")
    assert {r["Ranking"] for r in players} == {f"{1500 + i},5" for i in range(len(NAMES))}
    assert {r["Status"] for r in players} == {"obecna", "obecny"}


def test_english_csv_files_keep_the_columns_and_codes_scripts_read(finished: Cli) -> None:
    files = csv_files(finished.competition(), Sheet(EN))
    for name, header in ENGLISH_HEADERS.items():
        assert files[name].splitlines()[0] == header, name
    results = rows(files["results.csv"], ",")
    assert {r["stage"] for r in results} == {"round-1", "round-2"}
    assert {r["ending"] for r in results} <= {"went_out", "nobody_out"}
    assert {r["source"] for r in results} == {"judge"}
    stamp = results[0]["recorded_at"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d", stamp), stamp
    sanctions = rows(files["sanctions.csv"], ",")
    assert [r["sanction"] for r in sanctions] == ["warning", "deduction"]
    assert {r["round_state"] for r in rows(files["standings.csv"], ",")} == {"closed"}
    assert {r["Rating"] for r in rows(files["players.csv"], ",")} >= {"1500.5"}
    assert {r["title"] for r in rows(files["ranking.csv"], ",")} >= {"school champion"}
    semicolon = csv_files(finished.competition(), Sheet(EN, ";"))  # --semicolon
    assert semicolon["seating.csv"].splitlines()[0] == ENGLISH_HEADERS["seating.csv"].replace(
        ",", ";"
    )


def test_a_polish_players_file_reads_back_as_the_same_players(finished: Cli) -> None:
    comp = finished.competition()
    text = Sheet(PL).grid(players_grid(comp, PL))
    imported = parse_players_csv(text.encode("utf-8-sig"), "gracze.csv")
    players = sorted(comp.event.players.values(), key=lambda p: p.name)
    back = sorted(imported.players, key=lambda p: p.name)
    assert [(p.name, p.club, p.rating, p.league_number) for p in back] == [
        (p.name, p.club, p.rating, p.league_number) for p in players
    ]
    assert {p.league_number for p in back} == {"", "LDZ-1", "LDZ-3", "LDZ-5"}


def test_the_command_line_exports_in_its_language(finished: Cli, tmp_path: Path) -> None:
    polish = Cli(finished.db, lang="pl")
    polish.ok("export", "csv", str(tmp_path / "pl"))
    text = (tmp_path / "pl" / "seating.csv").read_text(encoding="utf-8-sig")
    assert text.splitlines()[0] == POLISH_HEADERS["seating.csv"]
    finished.ok("export", "csv", str(tmp_path / "en"))  # the tests' harness: --lang en
    text = (tmp_path / "en" / "seating.csv").read_text(encoding="utf-8-sig")
    assert text.splitlines()[0] == ENGLISH_HEADERS["seating.csv"]
    grid = polish.ok("standings", "--stage", "round-1")
    assert "Klasyfikacja po etapie: runda 1" in grid
    assert all(word in grid for word in ("Miejsce", "Gracz", "DP", "MP", "Gry", "Sankcje"))
    assert "−1 DP" in polish.ok("standings") and "1 upomnienie" in polish.ok("standings")


POLISH_PAGES = {
    "seating": ["przydział do stolików, runda 2", "Stolik 1", "zgodnie z ruchem wskazówek"],
    "find-your-table": ["znajdź swój stolik, runda 2", "Gracz", "Stolik", "Miejsce"],
    "scoresheets": [
        "Turniej Zimowy — Łódź 2026 — stolik 1",
        "Gra 1 — zaczyna miejsce A",
        "ktoś wyłożył wszystkie kostki",
        "nikt nie wyłożył wszystkich kostek (ostatnia kolejka)",
        "Suma kostek",
        "Bez wyłożenia",
        "Podpis",
        "☐ −100",  # never opened, and the −200 of a player who could have opened
        "☐ −200",
        "Suma dużych punktów (DP)",
        "Suma małych punktów (MP)",
        "Stolik 1 — Runda 2: razem 3 gry",
        "Sędzia:",
        "Godzina:",
    ],
    "standings": [
        "Klasyfikacja po etapie: runda 2",
        "−1 DP",
        "1 upomnienie",
        "odjęcie dużych punktów",
        "listopada 2023",
    ],
    "ranking": ["Klasyfikacja końcowa — Turniej Zimowy", "mistrz", "wicemistrz", "Tytuł"],
}
ENGLISH_PAGES = {
    "seating": ["seating, round-2", "Table 1", "clockwise"],
    "find-your-table": ["find your table, round-2", "Player", "Table", "Seat"],
    "scoresheets": [
        "Turniej Zimowy — Łódź 2026 — table 1",
        "Game 1 — seat A starts",
        "somebody went out",
        "Tiles left",
        "Not opened",
        "Initials",
        "Sum of big points (BP)",
        "Sum of small points (SP)",
        "Table 1, Round 2: the 3 games together",
    ],
    "standings": ["Standings after round-2", "−1 BP", "1 warning", "November 2023"],
    "ranking": ["Final ranking — Turniej Zimowy", "champion", "vice-champion", "Title"],
}
ENGLISH_ON_POLISH_PAGES = re.compile(
    r"\b(Standings|Seating|Player|Table|Seat|Game|Round|round-\d|Sanctions|Judge|Title|"
    r"champion|warning|went out|score sheets|find your table)\b"
)
"""English words a Polish page must not show (a name or a club could contain none)."""


@pytest.mark.parametrize("lang", ["pl", "en"])
def test_every_printout_in_its_language_as_pdf_and_png(
    finished: Cli, tmp_path: Path, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the web console's address set, the sheets for the wall carry its QR code,
    inside the margins like everything else."""
    monkeypatch.setenv("RUMMIKUB_WEB_PUBLIC_URL", "http://rummikub.local:8080")
    cli = Cli(finished.db, lang=lang)
    out = tmp_path / lang
    written = cli.ok("export", "pdf", str(out), "--stage", "round-2").split()
    expected = POLISH_PAGES if lang == "pl" else ENGLISH_PAGES
    assert [Path(p).stem for p in written] == list(expected)
    shown = ARTIFACTS / lang
    shutil.rmtree(shown, ignore_errors=True)
    shown.mkdir(parents=True)
    for stem, wanted in expected.items():
        pdf = read_pdf(out / f"{stem}.pdf")
        text = flat(pdf.text)
        missing = [w for w in wanted if w not in text]
        assert missing == [], f"{lang} {stem}: missing {missing}"
        if lang == "pl":
            english = sorted(set(ENGLISH_ON_POLISH_PAGES.findall(text)))
            assert english == [], f"{stem}: English on a Polish page: {english}"
        scan = "zeskanuj kod" if lang == "pl" else "scan the code"
        assert (scan in text) == (stem in ("seating", "find-your-table")), stem
        for name in NAMES:  # every name whole (wrapped names joined again), none cut
            shown_name = surname_first(name) if stem == "find-your-table" else name
            assert shown_name in text, (stem, name)
        for number, ((width, height), png) in enumerate(zip(pdf.sizes, pdf.pngs, strict=True)):
            assert (width, height) == pytest.approx(A4_POINTS, abs=0.5), (stem, number)
            assert ink_in_margins(png) == [], f"{lang} {stem} page {number + 1} past the margin"
        subprocess.run(
            ["pdftoppm", "-png", "-r", "70", str(out / f"{stem}.pdf"), str(shown / stem)],
            check=True,
        )
    assert sorted(p.name for p in shown.glob("scoresheets-*.png"))  # written for people
    print(f"\nprintout PNGs ({lang}): {shown}/")


def test_html_pages_say_their_language(finished: Cli) -> None:
    comp = finished.competition()
    for lang in ("pl", "en"):
        docs = {**printouts(comp, words(lang)), **archive_documents(comp, words(lang))}
        for stem, doc in docs.items():
            assert f'<html lang="{lang}">' in doc, (lang, stem)


def test_the_archive_index_in_polish(finished: Cli) -> None:
    comp = finished.competition()
    made = archive.event_archive(
        comp, pdf=lambda html: html.encode(), at=1_768_000_000.0, sheet=Sheet(PL)
    )
    with zipfile.ZipFile(io.BytesIO(made)) as z:
        folder = "turniej-zimowy-lodz-2026/"
        index = z.read(f"{folder}index.html").decode()
        assert '<html lang="pl">' in index and "Zarchiwizowano" in index
        assert "stycznia 2026" in index  # 1 768 000 000 s: 10 January 2026
        assert "pola rozdzielone znakiem „;”" in index and "Do czytania i druku" in index
        assert "Runda 1, Runda 2" in index and "Format</th><td>Zimowy Turniej Rummikub" in index
        corrections = z.read(f"{folder}html/corrections.html").decode()
        assert "Poprawki wyników" in corrections and FIX in corrections
        header = z.read(f"{folder}csv/seating.csv").decode("utf-8-sig").splitlines()[0]
        assert header == POLISH_HEADERS["seating.csv"]


def test_stage_names_the_kit_makes_are_translated_and_others_kept() -> None:
    assert [stage_label(s, PL) for s in ("round-2", "elimination-3", "semifinal", "final")] == [
        "runda 2",
        "runda eliminacyjna 3",
        "półfinał",
        "finał",
    ]
    assert [stage_label(s, PL) for s in ("tables", "finals", "placement", "top-16")] == [
        "gry przy stolikach",
        "finały",
        "gry o miejsca",
        "TOP 16",
    ]
    assert stage_label("round-2", EN) == "round-2" and stage_label("top-16", EN) == "top-16"
    assert stage_label("Wielki finał", PL) == "Wielki finał"  # the organizer's own name


def test_an_export_before_the_draw_is_refused_in_the_readers_language() -> None:
    created = Competition().apply(EventCreated(at=1.0, name="Zima", format=preset("winter")))
    with pytest.raises(ExportError) as caught:
        latest_stage(created)
    assert caught.value.message(PL.gettext).startswith("nic jeszcze nie rozlosowano")
    assert str(caught.value).startswith("nothing is drawn yet")
