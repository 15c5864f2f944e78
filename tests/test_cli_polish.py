"""The organizer's command line speaks Polish by default and English on request: the whole
day (import, draw, result, correction, standings, export), its help and its errors, through
``hub.cli.main`` on a real event file.

The language is ``--lang`` (before or after the command), else the environment's (``LANG``
and gettext's other variables), else Polish; the help is written before any event file is
read, so it follows ``--lang`` or ``LANG``.
"""

from __future__ import annotations

import contextlib
import io
import random
import re
from pathlib import Path

import pytest
from test_cli import POLISH_NAMES, write_players
from test_cli_support import Cli, play_round, seat_counts

from hub import cli

ENVIRONMENT = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

DAY: dict[str, dict[str, str]] = {
    "pl": {
        "created": "Utworzono turniej „Konkurs szkolny” w pliku",
        "phase": "Faza:    zapisy",
        "format": "Międzyszkolny konkurs: liczba rund: 4",
        "round time": "Czas rundy: 50 min",
        "imported": "Zaimportowano 14 graczy z pliku",
        "encoding": "Odczytano jako UTF-8",
        "ignored": "Pominięte kolumny: Uwagi",
        "checked in": "Potwierdzono obecność (14):",
        "present": "obecni: 14",
        "drawn": "Runda 1: 4 stoliki (3-osobowe: 2), ziarno losowania 11",
        "rotation": "Zaczyna kolejno — gra 1: miejsce A, gra 2: miejsce B",
        "hall": "Test sali: nie sprawdzono: stoliki 1, 2, 3, 4 (rummikub event hall)",
        "started": "Rozpoczęto: runda 1, ",
        "deadline": "wtedy każdy stolik, który jeszcze gra, rozgrywa ostatnią kolejkę",
        "status": "runda 1: zakończone stoliki: 0 z 4",
        "missing": "Brakuje: stolik 1 (gra 2), stolik 2 (gra 2)",
        "live hint": "Stany zegarów na żywo (gra, pauza, wezwania sędziego, brak połączenia)",
        "first version": "Wersja 1 (wynik, sędzia) zapisana",
        "correction": "Wersja 2 (poprawka, sędzia) zapisana",
        "why": "; powód: źle odczytana karta",
        "ending": "zakończenie: ktoś wyłożył wszystkie kostki",
        "no result": "Stolik 1, gra 2, runda 1: jeszcze bez wyniku",
        "closed": "Zamknięto: runda 1",
        "next": "Następny etap: runda 2 — losowanie: rummikub round draw",
        "corrections": "Nie zapisano żadnej poprawki wyniku",
        "no sanctions": "Nie zapisano żadnej sankcji",
        "no ties": "Brak remisów na granicy awansu do rozstrzygnięcia i rozstrzygniętych",
        "warned": "upomnienie, etap: runda 2; zapisano",
        "deducted": "odjęto 2 duże punkty, etap: runda 2",
        "archive": "plików,",
        "closed late": "rummikub: round close: --why podaje się razem z --force",
        "unknown player": "rummikub: nieznany gracz „P999”: rummikub players list pokazuje "
        "imię, nazwisko i numer każdego gracza",
        "bad table": "rummikub: stolik 9: runda 2 ma stoliki 1–4",
        "stage typed": "1|runda 1|Runda  1",
        "stage not drawn": "rummikub: --stage: etap „runda 3” nie jest rozlosowany "
        "(rozlosowane: runda 1, runda 2)",
        "bad racks": "rummikub: --racks:",
        "refused file": "rummikub: {path} to plik; podaj folder, w którym zapisać pliki",
    },
    "en": {
        "created": "Created event 'Konkurs szkolny' in",
        "phase": "Phase:    registration",
        "format": "Inter-school contest (004): 4 rounds",
        "round time": "Round time: 50 min",
        "imported": "Imported 14 players from",
        "encoding": "Read as UTF-8",
        "ignored": "Ignored columns: Uwagi",
        "checked in": "Checked in 14:",
        "present": "14 present",
        "drawn": "Round 1: 4 tables (2 of 3 players), seed 11",
        "rotation": "Starting seat by rotation — game 1: seat A, game 2: seat B",
        "hall": "Hall check: not checked: tables 1, 2, 3, 4 (rummikub event hall)",
        "started": "Started round-1 at",
        "deadline": "every table still playing gets the last lap",
        "status": "round-1: 0 of 4 tables done",
        "missing": "Missing: table 1 game 2, table 2 game 2",
        "live hint": "Live clock states (playing, paused, judge calls, offline)",
        "first version": "Version 1 (result, judge) recorded",
        "correction": "Version 2 (correction, judge) recorded",
        "why": "; why: źle odczytana karta",
        "ending": "ending: went out",
        "no result": "Table 1 game 2 of round-1: no result yet",
        "closed": "Closed round-1",
        "next": "Next: round-2 (rummikub round draw)",
        "corrections": "No corrections recorded",
        "no sanctions": "No sanctions recorded",
        "no ties": "No tie at a cut to decide, none decided",
        "warned": "warned in round-2; recorded",
        "deducted": "2 big points deducted in round-2",
        "archive": "files,",
        "closed late": "rummikub: round close: --why goes with --force",
        "unknown player": "rummikub: unknown player 'P999': rummikub players list shows every "
        "player's name and ID",
        "bad table": "rummikub: table 9: round-2 has tables 1–4",
        "stage typed": "1|Round 1",
        "stage not drawn": "rummikub: --stage: 'round 3' is not drawn (drawn: round-1, round-2)",
        "bad racks": "rummikub: --racks:",
        "refused file": "rummikub: {path} is a file; give a folder to write the files in",
    },
}
"""What the organizer reads on the day, in each language (the same facts)."""


@pytest.fixture(autouse=True)
def no_language_in_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test says which language it runs in: none comes from the machine's locale."""
    for variable in ENVIRONMENT:
        monkeypatch.delenv(variable, raising=False)


@pytest.mark.parametrize("lang", ["pl", "en"])
def test_the_whole_organizer_day_in_each_language(tmp_path: Path, lang: str) -> None:
    said = DAY[lang]
    c = Cli(tmp_path / "szkoła.sqlite3", lang=lang)
    out = c.ok(
        "event", "create", "--preset", "school", "--name", "Konkurs szkolny",
        "--round-minutes", "50",
    )
    assert said["created"] in out and said["phase"] in out and said["round time"] in out
    assert said["format"] in out  # the preset's description, in the reader's language
    write_players(tmp_path / "zapisy.csv", POLISH_NAMES)
    out = c.ok("players", "import", str(tmp_path / "zapisy.csv"))
    assert said["imported"] in out and said["encoding"] in out and said["ignored"] in out
    out = c.ok("players", "check-in", "--all")
    assert said["checked in"] in out and said["present"] in out

    out = c.ok("round", "draw", "--seed", "11")
    assert said["drawn"] in out and said["rotation"] in out and said["hall"] in out
    out = c.ok("round", "start")
    assert said["started"] in out and said["deadline"] in out

    rng = random.Random(3)
    play_round(c, rng, skip={(t, 2) for t in range(1, 5)})
    status = c.ok("round", "status")
    assert said["status"] in status and said["missing"] in status
    assert status.rstrip().splitlines()[-1].startswith(said["live hint"])
    assert said["no result"] in c.ok("result", "history", "--table", "1", "--game", "2")

    racks = "A=0 B=10 C=20j D=30" if seat_counts(c.competition())[1] == 4 else "0 10 20j"
    out = c.ok(
        "result", "enter", "--table", "1", "--game", "1", "--racks", racks,
        "--why", "źle odczytana karta", by="sędzia Ala",
    )
    assert said["correction"] in out and said["why"] in out and said["ending"] in out
    history = c.ok("result", "history", "--table", "1", "--game", "1")
    assert said["first version"] in history and said["correction"] in history
    play_round(c, rng)
    out = c.ok("round", "close")
    assert said["closed"] in out and said["next"] in out
    assert said["no sanctions"] in c.ok("sanction", "list")
    assert said["no ties"] in c.ok("tie", "list")

    c.ok("round", "draw", "--seed", "12")
    c.ok("round", "start")
    player = c.competition().event.seating("round-2")[0].players[0]
    assert said["warned"] in c.ok("sanction", "warn", player, "--why", "telefon")
    out = c.ok("sanction", "deduct", player, "--big", "2", "--why", "znowu telefon")
    assert said["deducted"] in out
    standings = c.ok("standings", "--stage", "round-1")  # the format's name, for scripts
    assert "Łukasz Żółkiewski" in standings
    for typed in said["stage typed"].split("|"):  # or as the organizer reads it
        assert c.ok("standings", "--stage", typed) == standings
    typed = "runda 3" if lang == "pl" else "round 3"
    assert c.fails("standings", "--stage", typed) == said["stage not drawn"]

    written = c.ok("export", "csv", str(tmp_path / "wyniki")).split()
    assert written and all(Path(path).is_file() for path in written)
    assert said["archive"] in c.ok("export", "archive", str(tmp_path))

    # Refused commands: one line, in the same language, nothing stored.
    assert c.fails("round", "close", "--why", "za późno") == said["closed late"]
    assert c.fails("players", "late", "P999").startswith(said["unknown player"])
    assert c.fails("result", "enter", "--table", "9", "--game", "1", "--racks", "0") == (
        said["bad table"]
    )
    assert c.fails("result", "enter", "--table", "1", "--game", "1", "--racks", "A=x").startswith(
        said["bad racks"]
    )
    (tmp_path / "plik").write_text("")
    assert c.fails("export", "csv", str(tmp_path / "plik" / "wyniki")) == said[
        "refused file"
    ].format(path=tmp_path / "plik")


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        code = cli.main(argv, out=out)
    return code, out.getvalue(), err.getvalue()


def test_polish_is_the_default_and_lang_goes_before_or_after_the_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = str(tmp_path / "e.sqlite3")
    code, _, err = run(["--db", db, "players", "list"])
    assert code == 2 and err.startswith("rummikub: nie ma pliku turnieju")
    assert run(["--db", db, "--lang", "en", "players", "list"])[2].startswith(
        "rummikub: no event file"
    )
    assert run(["--db", db, "players", "list", "--lang", "en"])[2].startswith(
        "rummikub: no event file"
    )
    monkeypatch.setenv("LANG", "en_GB.UTF-8")  # Raspberry Pi OS's own
    assert run(["--db", db, "players", "list"])[2].startswith("rummikub: no event file")
    assert run(["--db", db, "players", "list", "--lang", "pl"])[2].startswith(
        "rummikub: nie ma pliku turnieju"
    )
    code, _, err = run(["--lang", "de", "players", "list"])
    assert code == 2
    assert "nie ma języka 'de'" not in err and "no language 'de'" in err  # LANG=en_GB


def test_the_help_is_in_the_language_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = run(["--help"])
    assert code == 0
    assert out.startswith("użycie: rummikub")
    assert "Organizator turnieju Rummikub: cały dzień turnieju." in out
    assert "pokaż tę pomoc i zakończ" in out and "polecenia:" in out
    assert "zapis tabliczek (result enter --racks)" in out  # the rack notation
    sub = run(["round", "draw", "--help"])[1]
    assert "rozlosuj następną rundę" in sub and "ziarno losowania" in sub
    assert not re.search(r"\b(the|show|usage|options)\b", sub), sub
    english = run(["round", "draw", "--help", "--lang", "en"])[1]
    assert english.startswith("usage: rummikub round draw")
    assert "seat the next round" in english and "the draw's seed" in english
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    assert run(["--help"])[1].startswith("usage: rummikub")
    assert run(["--help", "--lang", "pl"])[1].startswith("użycie: rummikub")


def test_the_parsers_refusals_are_in_the_readers_language(tmp_path: Path) -> None:
    db = str(tmp_path / "e.sqlite3")
    code, _, err = run(["--db", db, "round", "draw", "--seed", "x"])
    assert code == 2
    assert err == (
        "rummikub round draw: argument --seed: nieprawidłowa wartość: „x” (typ int) "
        "(zob. rummikub round draw --help)\n"
    )
    err = run(["--db", db, "result", "enter", "--table", "0", "--game", "1"])[2]
    assert "argument --table: oczekiwano liczby całkowitej od 1, podano 0" in err
    err = run(["--db", db, "sanction", "deduct", "P001", "--why", "x"])[2]
    assert "wymagane są argumenty: --big" in err
    err = run(["--db", db, "--lang", "en", "sanction", "deduct", "P001", "--why", "x"])[2]
    assert "the following arguments are required: --big" in err


def test_the_events_language_wins_over_lang(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hall's Pi has LANG=en_GB: once the event file holds a Polish event, the commands
    speak Polish; an English event speaks English on a Polish machine; --lang before the
    command is that command's own."""
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    polish = Cli(tmp_path / "pl.sqlite3", lang=None)
    out = polish.ok("event", "create", "--preset", "school", "--name", "Konkurs")
    assert "Utworzono turniej „Konkurs”" in out and "Język: polski (pl)" in out
    assert polish.fails("players", "late", "P999").startswith("rummikub: nieznany gracz")
    assert "Nie zapisano żadnej sankcji" in polish.ok("sanction", "list")
    assert "No sanctions recorded" in polish.ok("--lang", "en", "sanction", "list")
    out = polish.ok("event", "language", "en", "--why", "goście z Anglii")
    assert out.startswith("Language: English (en) (was Polish (pl))")
    assert "No sanctions recorded" in polish.ok("sanction", "list")

    monkeypatch.setenv("LANG", "pl_PL.UTF-8")
    english = Cli(tmp_path / "en.sqlite3", lang=None)
    out = english.ok("event", "create", "--preset", "school", "--name", "Cup", "--lang", "en")
    assert "Created event 'Cup'" in out and "Language: English (en)" in out
    assert "No sanctions recorded" in english.ok("sanction", "list")
    out = Cli(tmp_path / "en2.sqlite3", lang="en").ok(
        "event", "create", "--preset", "school", "--name", "Puchar"
    )
    assert "Created event 'Puchar'" in out and "Language: Polish (pl)" in out


def test_the_hubs_refusals_reach_the_organizer_in_polish(tmp_path: Path) -> None:
    """The errors of the hub's modules behind the commands (the players file, the
    organizer's records, the event file itself) are in the catalogs too."""
    c = Cli(tmp_path / "e.sqlite3", lang="pl")
    c.ok("event", "create", "--preset", "school", "--name", "Konkurs")
    book = tmp_path / "zapisy.xlsx"
    book.write_bytes(b"PK\x03\x04 a workbook")
    assert c.fails("players", "import", str(book)) == (
        f"rummikub: {book}: to skoroszyt arkusza kalkulacyjnego (.xlsx lub .ods), a nie tekst "
        "CSV; zapisz arkusz jako CSV (Plik → Zapisz jako → CSV) i zaimportuj ten plik"
    )
    twice = tmp_path / "dwa.csv"
    twice.write_text("imię i nazwisko;klub\nAnna Nowak;SP 1\nAnna Nowak;SP 1\n", encoding="utf-8")
    assert c.fails("players", "import", str(twice)) == (
        f"rummikub: {twice}, wiersz 3: powtórzony gracz „Anna Nowak” (SP 1) (już w wierszu 2)"
    )
    bad = tmp_path / "bez.csv"
    bad.write_text("klub;uwagi\nSP 1;x\n", encoding="utf-8")
    assert c.fails("players", "import", str(bad)).startswith(
        f"rummikub: {bad}, wiersz 1 (nagłówek): brak kolumny z imieniem i nazwiskiem "
        "(znaleziono: „klub”, „uwagi”)"
    )
    assert c.fails("players", "add", "Ola", "--rating", "1e9").endswith(
        "argument --rating: ranking „1e9” zapisano z wykładnikiem; wpisz całą liczbę "
        "(najwyżej 1 000 000) (zob. rummikub players add --help)"
    )
    for i in range(1, 5):
        c.ok("players", "add", f"Gracz {i}", "--check-in")
    c.ok("round", "draw", "--seed", "3")
    assert c.fails("round", "undo", "--why", " ") == (
        "rummikub: cofnięcie losowania: podaj powód (--why)"
    )
    assert c.fails("result", "enter", "--table", "1", "--game", "9", "--racks", "0 1 2 3") == (
        "rummikub: stolik 1: runda 1 ma gry 1–2, podano grę 9"
    )
    text = tmp_path / "notatki.txt"
    text.write_text("to nie jest turniej\n" * 100)
    refused = Cli(text, lang="pl").run("players", "list")
    assert refused.code == 2 and refused.err == (
        f"rummikub: {text} nie jest plikiem turnieju rummikub (to nie baza SQLite)\n"
    )


def test_the_hub_service_speaks_polish_too(monkeypatch: pytest.MonkeyPatch) -> None:
    from hub import serve

    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        serve.main(["serve", "--help"])
    assert out.getvalue().startswith("użycie: rummikub-hub serve")
    assert "uruchom wbudowany broker amqtt" in out.getvalue()
    err = io.StringIO()
    with contextlib.redirect_stderr(err), pytest.raises(SystemExit):
        serve.main(["serve", "--tables", "0"])
    assert "rummikub-hub serve: błąd: argument --tables: oczekiwano liczby całkowitej od 1, " \
        "podano 0" in err.getvalue()
    err = io.StringIO()
    with contextlib.redirect_stderr(err), pytest.raises(SystemExit):
        serve.main(["serve", "--tables", "0", "--lang", "en"])
    assert "error: argument --tables: expected a whole number from 1, got '0'" in err.getvalue()


def test_the_central_league_service_speaks_polish_too() -> None:
    from hub.league import cli

    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        cli.main(["--help"])
    said = out.getvalue()
    assert said.startswith("użycie: rummikub-league") and "opcje:" in said, said
    assert "uruchom centralną usługę ligi" in said
    assert not re.search(r"\b(usage|options|positional|show this)\b", said), said
    err = io.StringIO()
    with contextlib.redirect_stderr(err), pytest.raises(SystemExit):
        cli.main(["site", "--lang", "pl"])
    assert "rummikub-league site: błąd: wymagane są argumenty: --league, --db, --out" in (
        err.getvalue()
    )
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        cli.main(["serve", "--help", "--lang", "en"])
    assert out.getvalue().startswith("usage: rummikub-league serve")
