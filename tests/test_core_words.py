"""The pure core's errors and phrases in the reader's language.

Each family of the core raises its real error here (a bad ruleset, a score that cannot
be, a rack typed wrong, a clock asked the impossible, a message off the protocol, a
surname that is not the name's end) and the message is read through the Polish catalog,
as a front end shows it (``err.message(words.gettext)``), while ``str(err)`` keeps the
English the logs and the older tests read. The status phrases with a number take the
Polish plural for it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hub.config import HubConfigError, parse_hub_config
from tablekit.core.clock import ClockRules, MoveClock
from tablekit.core.codec import DecodeError, decode
from tablekit.core.errors import KitError
from tablekit.core.fields import MAX_TABLE
from tablekit.core.hallcheck import STEP_WORDS, STEPS, CheckStep, HallCheck
from tablekit.core.messages import Assignment
from tablekit.core.names import SurnameError, check_surname
from tablekit.core.racks import RackNotationError, parse_racks
from tablekit.core.rulesets import RulesetError, parse_rulesets
from tablekit.core.scoring import EndingError, GameReport, RackReport, validate_report
from tablekit.core.seats import GameNumberOrderError, Seat, SeatCountError, seats_for, starting_seat
from tablekit.core.status import (
    TableState,
    last_lap_text,
    lasting_text,
    lost_text,
    missing_text,
    time_text,
)
from tablekit.core.topics import TopicNameError, Topics, decode_topic, reason_words
from tablekit.core.words import ENGLISH, N_plural, Plural
from tablekit.journal import Journal, JournalError
from tablekit.shared.broker import BrokerSettings, BrokerSettingsError, read_secret
from tablekit.shared.i18n import words

PL = words("pl")
EN = words("en")


def said(err: KitError) -> tuple[str, str]:
    """The error's message in Polish and in English, through the catalogs."""
    return err.message(PL.gettext), err.message(EN.gettext)


def test_a_bad_ruleset_file_is_told_in_polish() -> None:
    doc = {"rulesets": {"klub": {"based_on": "002", "joker_penalty": "30"}}}
    with pytest.raises(RulesetError) as caught:
        parse_rulesets(doc, source="klub.toml")
    polish, english = said(caught.value)
    assert polish == "klub.toml: rulesets.klub.joker_penalty musi być liczbą całkowitą, podano 30"
    assert english == str(caught.value)
    assert english == "klub.toml: rulesets.klub.joker_penalty must be an integer, got '30'"


def test_a_ruleset_error_inside_another_is_translated_with_it() -> None:
    doc = {"rulesets": {"klub": {"based_on": "nie-ma-takich"}}}
    with pytest.raises(RulesetError) as caught:
        parse_rulesets(doc, source="klub.toml")
    polish, english = said(caught.value)
    assert polish.startswith(
        "klub.toml: rulesets.klub.based_on: zasady: nieznana nazwa „nie-ma-takich”; znane nazwy: "
    )
    assert english.startswith(
        "klub.toml: rulesets.klub.based_on: ruleset: unknown name 'nie-ma-takich'; known names: "
    )
    doc = {"rulesets": {"klub": {"move_seconds": 0}}}
    with pytest.raises(RulesetError) as caught:
        parse_rulesets(doc, source="klub.toml")
    assert said(caught.value)[0] == (
        "klub.toml: rulesets.klub: zasady „klub”: move_seconds musi być liczbą większą od 0 "
        "i nie większą niż 600, podano 0.0"
    )


def report(*racks: tuple[str, int, int], ending: str = "went_out") -> GameReport:
    racks_reported = tuple(RackReport(seat=s, tiles=t, jokers=j) for s, t, j in racks)
    return GameReport(game=1, ending=ending, racks=racks_reported)


def test_a_score_that_cannot_be_names_its_seats_in_polish() -> None:
    with pytest.raises(EndingError) as caught:
        validate_report(report(("A", 0, 0), ("B", 0, 0), ("C", 12, 0)))
    err = caught.value
    assert err.seats == ("A", "B") and err.field == "tiles"
    polish, english = said(err)
    assert polish == (
        "miejsca A, B: kostki: tylko jeden gracz może opróżnić tabliczkę, a pustych tabliczek "
        "(kostki 0, jokery 0) jest 2"
    )
    assert english == str(err) == (
        "seats A, B: tiles: only one player can empty the rack, got 2 empty racks "
        "(tiles 0, jokers 0)"
    )
    with pytest.raises(EndingError) as caught:
        validate_report(report(("A", 5, 0), ("B", 7, 0), ("C", 12, 0)))
    assert said(caught.value)[0].startswith(
        "miejsca A, B, C: kostki: gra zakończyła się wyłożeniem wszystkich kostek, ale żadna "
        "tabliczka nie jest pusta"
    )


def test_one_seat_is_miejsce_and_no_seat_has_no_prefix() -> None:
    with pytest.raises(KitError) as caught:
        validate_report(report(("A", 0, 3), ("B", 5, 0), ("C", 12, 0)))
    assert said(caught.value)[0] == (
        "miejsce A: liczba jokerów musi być liczbą całkowitą od 0 do 2, podano 3"
    )
    bad = GameReport(game=0, ending="went_out", racks=())
    with pytest.raises(KitError) as caught:
        validate_report(bad)
    assert said(caught.value) == (
        "numer gry musi być liczbą całkowitą od 1 wzwyż, podano 0",
        "game must be an integer of at least 1, got 0",
    )


def test_a_rack_typed_wrong_is_told_in_polish() -> None:
    with pytest.raises(RackNotationError) as caught:
        parse_racks("A=0 B=12x C=5", 3)
    polish, english = said(caught.value)
    assert polish == (
        "miejsce B: „12x” to nie jest zapis tabliczki (suma kostek, potem j za każdy joker, "
        "potem np/cho/waived, np. 0, 23, 12j, jj, 85np)"
    )
    assert english.startswith("seat B: '12x' is not a rack (tiles, then j per joker")
    with pytest.raises(RackNotationError) as caught:
        parse_racks("0 12 5", 4)
    assert said(caught.value)[0] == (
        "stolik jest 4-osobowy (miejsca A, B, C, D), a liczba podanych wartości to 3"
    )
    with pytest.raises(RackNotationError) as caught:
        parse_racks("A=0 B=np C=5", 3)
    assert said(caught.value)[0] == (
        "miejsce B: przy „np” podaj też sumę kostek na tabliczce, np. 85np (kara je zastępuje, "
        "ale są zapisywane i sprawdzane)"
    )


def test_seats_left_out_of_the_racks_are_one_miejsce_or_several_miejsca() -> None:
    with pytest.raises(RackNotationError) as caught:
        parse_racks("A=0 B=1 C=2", 4)
    assert said(caught.value)[0] == "brak wartości dla miejsca D"
    with pytest.raises(RackNotationError) as caught:
        parse_racks("A=0 B=1", 4)
    assert said(caught.value) == ("brak wartości dla miejsc C, D", "no value for seats C, D")


def test_seats_and_games_out_of_range_are_told_in_polish() -> None:
    with pytest.raises(SeatCountError) as caught:
        seats_for(5)
    assert said(caught.value) == (
        "seats: przy stoliku grają 3 lub 4 osoby, podano 5",
        "seats: a table seats 3 or 4 players, got 5",
    )
    with pytest.raises(GameNumberOrderError) as caught:
        starting_seat(0, 4)
    assert isinstance(caught.value, ValueError)
    assert said(caught.value)[0] == "numer gry: gry numeruje się od 1, podano 0"


def test_a_clock_asked_the_impossible_says_so_in_polish() -> None:
    clock = MoveClock()
    clock.prepare(ClockRules(seats=4), 3)
    with pytest.raises(KitError) as caught:
        clock.end_game(0.0)
    assert said(caught.value) == (
        "koniec gry: żadna gra nie trwa",
        "end game: no game is in progress",
    )
    clock.start_game(0.0)
    with pytest.raises(KitError) as caught:
        clock.start_game(1.0)
    assert said(caught.value)[0] == "rozpoczęcie gry: gra 3 jeszcze trwa"


def test_a_message_off_the_protocol_is_told_in_polish() -> None:
    with pytest.raises(DecodeError) as caught:
        Topics("klub", "liga").parse("rummikub/v1/klub/liga/table/0/events")
    err = caught.value
    assert err.code == "topic" and err.reason == str(err)
    assert said(err)[0] == (
        f"temat „rummikub/v1/klub/liga/table/0/events”: numer stolika musi wynosić od 1 do "
        f"{MAX_TABLE}, podano 0"
    )
    with pytest.raises(DecodeError) as caught:
        decode(Assignment, b'{"v": 7}')
    assert caught.value.code == "version"
    assert said(caught.value)[0] == (
        "Assignment: nieobsługiwana wersja protokołu 7 (tu obsługiwana jest 1)"
    )
    with pytest.raises(TopicNameError) as caught:
        Topics("klub zimowy", "liga")
    assert said(caught.value)[0] == (
        "venue: od 1 do 32 liter, cyfr, „_” lub „-” (na początku litera lub cyfra), "
        "podano „klub zimowy”"
    )


def test_a_surname_not_at_the_end_of_the_name_is_told_in_polish() -> None:
    with pytest.raises(SurnameError) as caught:
        check_surname("Anna Nowak", "Kowalska")
    assert isinstance(caught.value, ValueError)
    assert said(caught.value) == (
        "nazwisko „Kowalska” nie jest końcem imienia i nazwiska „Anna Nowak”",
        "surname 'Kowalska' is not the end of the name 'Anna Nowak'",
    )


def test_the_moves_left_take_the_polish_plural() -> None:
    polish = [last_lap_text(n, PL) for n in (1, 2, 4, 5)]
    assert polish == [
        "OSTATNIA KOLEJKA — ZOSTAŁ 1 RUCH",
        "OSTATNIA KOLEJKA — ZOSTAŁY 2 RUCHY",
        "OSTATNIA KOLEJKA — ZOSTAŁY 4 RUCHY",
        "OSTATNIA KOLEJKA — ZOSTAŁO 5 RUCHÓW",
    ]
    assert [last_lap_text(n, EN) for n in (1, 5)] == [
        "LAST LAP — 1 MOVE LEFT", "LAST LAP — 5 MOVES LEFT",
    ]
    assert last_lap_text(3) == last_lap_text(3, ENGLISH) == "LAST LAP — 3 MOVES LEFT"


def test_the_missing_results_take_the_polish_plural() -> None:
    assert [missing_text(n, PL) for n in (1, 2, 5, 22)] == [
        "BRAK 1 WYNIKU", "BRAK 2 WYNIKÓW", "BRAK 5 WYNIKÓW", "BRAK 22 WYNIKÓW",
    ]
    assert [missing_text(n) for n in (1, 2)] == ["1 RESULT MISSING", "2 RESULTS MISSING"]


def test_the_phrases_with_a_word_are_polish_through_the_catalog() -> None:
    assert lasting_text(TableState.OFFLINE, "42 s", PL) == "BRAK POŁĄCZENIA od 42 s"
    assert lasting_text(TableState.OFFLINE, "42 s") == "OFFLINE for 42 s"
    assert time_text(Seat.B, "Anna", PL) == "CZAS MINĄŁ — MIEJSCE B Anna"
    assert time_text(None, "", PL) == "CZAS MINĄŁ"
    assert time_text(Seat.B, "Anna") == "TIME — SEAT B Anna"
    assert lost_text("3 min", PL) == (
        "BRAK POŁĄCZENIA (utracono połączenie; ostatni sygnał 3 min temu)"
    )


def test_the_plural_marker_is_the_message_itself() -> None:
    marked = N_plural("{n} table", "{n} tables")
    assert marked == Plural("{n} table", "{n} tables")
    assert PL.ngettext(*marked, 5).format(n=5) == "5 stolików"


def test_the_hall_check_tells_the_person_in_polish() -> None:
    check = HallCheck(table=12, game=1, since=0.0)
    check.judge_key(1.0)
    assert check.view.said.message(PL.gettext) == (
        "To był kluczyk sędziego: najpierw przycisk ruchu"
    )
    assert check.view.message == "That was the judge key: first the pass button"
    check.pass_button(2.0)
    check.judge_key(3.0)
    check.key("5", 3.5)
    assert check.view.said.message(PL.gettext) == (
        "Klawiatura będzie na końcu; teraz: diody — przycisk ruchu: tak, kluczyk sędziego: nie"
    )
    check.pass_button(4.0)
    check.pass_button(5.0)
    assert check.step is CheckStep.KEYPAD
    check.key("enter", 6.0)
    assert check.view.said.message(PL.gettext) == "Nic nie wpisano: wpisz 12, potem ENTER"
    check.key("1", 6.5)
    check.key("3", 6.6)
    check.key("enter", 7.0)
    assert check.view.said.message(PL.gettext) == "Wpisano 13: wpisz 12, potem ENTER"
    assert check.view.message == "Typed 13: type 12, then ENTER"
    check.key("1", 7.5)
    assert not check.view.said and check.view.message == ""
    assert [PL.gettext(STEP_WORDS[s]) for s in STEPS] == [
        "przycisk ruchu", "kluczyk sędziego", "diody", "brzęczyk", "klawiatura",
    ]


@pytest.mark.parametrize(
    ("topic", "payload", "polish"),
    [
        ("rummikub/v1/klub/liga/table/3/events", b'{"v": 9}',
         "EventEnvelope: nieobsługiwana wersja protokołu 9 (tu obsługiwana jest 1)"),
        ("rummikub/v1/klub/liga/table/3/events", b"x" * 5000,
         "EventEnvelope: treść ma 5000 B, więcej niż dopuszczalne 4096 B"),
        ("rummikub/v1/klub/liga/table/3/nonsense", b"{}",
         "temat „rummikub/v1/klub/liga/table/3/nonsense”: nieznany rodzaj komunikatu "
         "„nonsense”"),
        ("rummikub/v1/inny/liga/table/3/events", b"{}",
         "temat „rummikub/v1/inny/liga/table/3/events” nie leży pod rummikub/v1/klub/liga"),
    ],
)
def test_a_refusal_stored_in_english_is_shown_in_polish(
    topic: str, payload: bytes, polish: str
) -> None:
    """The refusal log keeps the reason in English (what the unit is answered, what an
    older hub wrote); the organizer's command line reads it back in the reader's words."""
    with pytest.raises(DecodeError) as caught:
        decode_topic(Topics("klub", "liga"), topic, payload)
    stored = caught.value.reason
    assert reason_words(stored).message(PL.gettext) == polish
    assert reason_words(stored).message(EN.gettext) == stored == str(caught.value)


def test_a_reason_no_template_fits_is_shown_as_written() -> None:
    assert reason_words("odd: from a later version").message(PL.gettext) == (
        "odd: from a later version"
    )


def test_a_bad_hub_config_is_told_in_polish() -> None:
    with pytest.raises(HubConfigError) as caught:
        parse_hub_config("[hub]\ntables = 0\n", "hub.toml")
    assert said(caught.value) == (
        "hub.toml: hub.tables: turniej ma 1–999 stolików (tematy protokołu), podano 0",
        "hub.toml: hub.tables: an event has 1–999 tables (the protocol's topics), got 0",
    )
    with pytest.raises(HubConfigError) as caught:
        parse_hub_config("[broker]\nport = 0\n", "hub.toml")
    assert said(caught.value)[0] == "hub.toml: broker.port: musi wynosić od 1 do 65535, podano 0"
    with pytest.raises(HubConfigError) as caught:
        parse_hub_config("[broker]\nprot = 1\n", "hub.toml")
    assert said(caught.value)[0].startswith(
        "hub.toml: broker.prot: nieznane pole; [broker] zawiera: host, port, "
    )


def test_a_journal_of_another_unit_is_told_in_polish(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    Journal(path, "table-03").close()
    with pytest.raises(JournalError) as caught:
        Journal(path, "table-04")
    assert said(caught.value) == (
        f"dziennik {path} należy do modułu „table-03”, nie „table-04”",
        f"journal {path} belongs to unit 'table-03', not 'table-04'",
    )


def test_a_password_file_that_cannot_be_read_is_told_in_polish(tmp_path: Path) -> None:
    empty = tmp_path / "secret"
    empty.write_text("\n")
    with pytest.raises(BrokerSettingsError) as caught:
        read_secret(empty, "--password-file")
    assert said(caught.value) == (
        f"--password-file {empty}: plik jest pusty",
        f"--password-file {empty}: the file is empty",
    )
    with pytest.raises(KitError) as caught:
        BrokerSettings(host="hub.local", port=70000)
    assert said(caught.value)[0] == "port: musi wynosić od 1 do 65535, podano 70000"
