"""Importing players from CSV: columns, delimiters, encodings and clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_cli_support import Cli

from hub.organizer import Organizer
from hub.players_csv import MAX_PLAYERS, PlayersCsvError, new_players, parse_players_csv
from hub.store import EventStore
from hub.tournament import Player
from tablekit.shared.i18n import words


def parse(text: str, *, bom: bool = False) -> list[tuple[str, str | None, float | None]]:
    data = (b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8")
    return [(p.name, p.club, p.rating) for p in parse_players_csv(data, "p.csv").players]


def error(data: bytes | str) -> str:
    raw = data.encode("utf-8") if isinstance(data, str) else data
    with pytest.raises(PlayersCsvError) as err:
        parse_players_csv(raw, "p.csv")
    return str(err.value)


def test_polish_semicolon_export_with_bom_and_decimal_comma() -> None:
    text = "Zawodnik;Klub;Punkty\r\nŁukasz Żółć;KS Łódź;12,5\r\n\r\nAnna  Nowak ;;\r\n"
    assert parse(text, bom=True) == [("Łukasz Żółć", "KS Łódź", 12.5), ("Anna Nowak", None, None)]


def test_english_comma_file_with_quotes_and_any_column_order() -> None:
    text = 'Rating,Player,School\n1500,"Jan Kowalski",SP 3\n,Ewa,\n'
    assert parse(text) == [("Jan Kowalski", "SP 3", 1500.0), ("Ewa", None, None)]


def test_a_name_written_surname_comma_given_is_read_surname_first() -> None:
    text = 'Player,School\n"Kowalski, Jan",SP 3\n"Nowak-Żak ,  Anna Maria",\nEwa Kot,\n'
    parsed = parse_players_csv(text.encode("utf-8"), "p.csv")
    assert [(p.name, p.surname) for p in parsed.players] == [
        ("Jan Kowalski", "Kowalski"), ("Anna Maria Nowak-Żak", "Nowak-Żak"), ("Ewa Kot", ""),
    ]
    assert parsed.surname_comma == (2, 3)
    semicolons = parse_players_csv("Nazwisko i imię;Klub\nŁoś, Żaneta;A\n".encode(), "p.csv")
    assert [(p.name, p.surname) for p in semicolons.players] == [("Żaneta Łoś", "Łoś")]


def test_lines_with_more_cells_than_the_header_are_reported() -> None:
    parsed = parse_players_csv(b"name,club\nKowalski, Jan,SP 3\nEwa,A\nOla,B,,\n", "p.csv")
    assert parsed.long_rows == (2,) and parsed.columns == 2
    assert [p.name for p in parsed.players] == ["Kowalski", "Ewa", "Ola"]


def test_header_names_ignore_case_and_accents() -> None:
    assert parse("IMIE I NAZWISKO\tSZKOLA\nOla\tSP 1\n") == [("Ola", "SP 1", None)]
    assert parse("imię i nazwisko,szkoła,ranking\nOla,SP 1,3\n") == [("Ola", "SP 1", 3.0)]


def test_first_and_last_name_columns_are_joined() -> None:
    assert parse("Imię;Nazwisko;Klub\nJan;Kowalski;X\n") == [("Jan Kowalski", "X", None)]


def test_a_row_without_a_surname_or_a_given_name_is_refused_with_its_line() -> None:
    """``;Jan;SP 2`` under given-name and surname columns is not "Jan" with surname "Jan"."""
    assert error("Nazwisko;Imię;Klub\nKowalski;Jan;SP 2\n;Jan;SP 2\n") == (
        "p.csv line 3: the surname of 'Jan' is empty: fill in the surname column (or leave "
        "the row out)"
    )
    assert "line 2: the given name of 'Nowak' is empty" in error("Imię;Nazwisko\n;Nowak\n")
    with pytest.raises(PlayersCsvError) as caught:
        parse_players_csv("Imię;Nazwisko\n;Nowak\nJan;\nAla;Kot\n".encode(), "p.csv")
    assert [row.line for row in caught.value.rows] == [2, 3]


def test_unknown_columns_are_reported() -> None:
    result = parse_players_csv(b"name;email;club\nOla;o@x.pl;A\n", "p.csv")
    assert result.ignored_columns == ("email",) and result.delimiter == ";"


def test_missing_name_column() -> None:
    assert error("Nazwa;Klub\nOla;A\n") == (
        "p.csv line 1 (header): no name column (found 'Nazwa', 'Klub'); name the column "
        "'name' or 'imię i nazwisko' (or use two columns 'imię' and 'nazwisko')"
    )


def test_two_name_columns() -> None:
    assert "two name columns ('name' and 'Zawodnik')" in error("name;Zawodnik\nA;B\n")


def test_empty_name_names_the_line() -> None:
    assert error("name;club\nOla;A\n ;B\n") == "p.csv line 3: name is empty"


def test_duplicate_in_the_file_names_both_lines() -> None:
    assert error("name;club\nOla Kot;SP 1\nJan;SP 1\nola  kot;sp 1\n") == (
        "p.csv line 4: duplicate player 'ola kot' (sp 1) (already on line 2)"
    )


def test_same_name_in_another_club_is_another_player() -> None:
    assert len(parse("name;club\nOla Kot;SP 1\nOla Kot;SP 2\n")) == 2


def test_bad_rating() -> None:
    assert error("name;rating\nOla;12x\n") == "p.csv line 2: rating '12x' is not a number"


@pytest.mark.parametrize(
    ("rating", "why"),
    [
        ("nan", "'nan' is not a number"),
        ("inf", "'inf' is not a number"),
        ("1e308", "'1e308' is written with an exponent; write the number in full"),
        ("12,5E3", "is written with an exponent"),
        ("9" * 400, "is too large: at most 1 000 000"),
        ("-1000000.5", "'-1000000.5' is too large: at most 1 000 000"),
    ],
)
def test_every_refused_rating_says_why(rating: str, why: str) -> None:
    assert why in error(f"name;rating\nOla;{rating}\n")
    assert error(f"name;rating\nOla;{rating}\n").startswith("p.csv line 2: rating")


def test_an_unbalanced_quote_is_refused_not_merged_into_one_player() -> None:
    message = error('name,club\nJan,A\n"Unclosed,A\nEwa,B\nOla,C\n')
    assert message == (
        'p.csv line 3: a quote (") opened on this line is not closed before the line ends, '
        "so lines 3-5 would run together into one name; close or remove the quote"
    )


def test_a_line_break_inside_a_quoted_name_is_refused_with_its_line() -> None:
    message = error('name;club\nJan;A\n\n"Anna\nNowak";B\nOla;C\n')
    assert message.startswith("p.csv line 4: a quote")
    assert parse('name;club\n"Nowak; Anna";B\n') == [("Nowak; Anna", "B", None)]  # quotes work


def test_files_over_the_limits_are_refused_quickly_saying_where() -> None:
    rows = "\n".join(f"Gracz {i} Nowak,Klub {i % 50},{i % 2000}" for i in range(100_000))
    message = error("name,club,rating\n" + rows)
    assert message.startswith("p.csv: the file has ") and "at most 1 000 000" in message
    too_many = "name\n" + "\n".join(f"P{i}" for i in range(MAX_PLAYERS + 1))
    assert error(too_many) == (
        f"p.csv line {MAX_PLAYERS + 2}: more than 2 000 players; a players file holds at "
        "most 2 000"
    )
    assert len(parse("name\n" + "\n".join(f"P{i}" for i in range(MAX_PLAYERS)))) == MAX_PLAYERS


POLISH_ROWS = (
    "Imię;Nazwisko;Szkoła\r\n"
    "Łukasz;Żółć;SP 3 Łódź\r\n"
    "Anna;Wiśniewska;SP 1 Kraków\r\n"
    "Jan;Gęś;LO 2 Gdańsk\r\n"
    "Zofia;Ćwik;SP 5 Świdnik\r\n"
    "Źdźisław;Ąbek;ZS Ząbki\r\n"
)
POLISH_PLAYERS = [
    ("Łukasz Żółć", "SP 3 Łódź"),
    ("Anna Wiśniewska", "SP 1 Kraków"),
    ("Jan Gęś", "LO 2 Gdańsk"),
    ("Zofia Ćwik", "SP 5 Świdnik"),
    ("Źdźisław Ąbek", "ZS Ząbki"),
]


@pytest.mark.parametrize(
    ("data", "codec", "label"),
    [
        (POLISH_ROWS.encode("cp1250"), "cp1250", "Windows-1250"),
        (POLISH_ROWS.encode("iso8859_2"), "iso8859-2", "ISO-8859-2"),
        (POLISH_ROWS.encode("utf-8"), "utf-8", "UTF-8"),
        (b"\xef\xbb\xbf" + POLISH_ROWS.encode("utf-8"), "utf-8-sig", "UTF-8 with BOM"),
        (POLISH_ROWS.replace(";", "\t").encode("utf-16"), "utf-16", "UTF-16"),
    ],
)
def test_polish_names_in_every_encoding_a_spreadsheet_saves(
    data: bytes, codec: str, label: str
) -> None:
    parsed = parse_players_csv(data, "p.csv")
    assert [(p.name, p.club) for p in parsed.players] == POLISH_PLAYERS
    assert (parsed.encoding, parsed.encoding_label) == (codec, label)


@pytest.mark.parametrize("codec", ["cp1250", "iso8859_2"])
def test_one_short_line_in_a_polish_encoding(codec: str) -> None:
    # Too short for a detector alone (it guesses Big5 or Windows-1252 for these).
    for text, name in (("name\nŻaneta\n", "Żaneta"), ("name\nŚwiątek\n", "Świątek")):
        parsed = parse_players_csv(text.encode(codec), "p.csv")
        assert [p.name for p in parsed.players] == [name]


def test_both_polish_encodings_read_the_letters_they_share_alike() -> None:
    # ł, ó, ż, ę, ć, ń are the same bytes in Windows-1250 and ISO-8859-2.
    data = "nazwisko i imię\nŁoś Żaneta\n".encode("cp1250")
    assert data == "nazwisko i imię\nŁoś Żaneta\n".encode("iso8859_2").replace(b"\xb6", b"\x9c")
    parsed = parse_players_csv(data, "p.csv")
    assert [(p.name, p.surname) for p in parsed.players] == [("Żaneta Łoś", "Łoś")]
    assert parsed.encoding_label == "Windows-1250"


def test_a_forced_encoding_names_the_line_and_byte_it_cannot_read() -> None:
    data = "name;club\nOla;A\nŁukasz;Łódź\n".encode("cp1250")
    with pytest.raises(PlayersCsvError) as err:
        parse_players_csv(data, "p.csv", encoding="utf-8")
    message = str(err.value)
    assert message.startswith("p.csv line 3: not UTF-8 text (byte 0xA3 at column 1)")
    assert "re-save the file as UTF-8" in message and "--encoding" in message
    forced = parse_players_csv(data, "p.csv", encoding="windows-1250")
    assert [p.name for p in forced.players] == ["Ola", "Łukasz"]
    with pytest.raises(PlayersCsvError, match="unknown encoding 'klingon'"):
        parse_players_csv(data, "p.csv", encoding="klingon")


def test_bytes_no_encoding_reads_as_text_are_refused() -> None:
    message = error(b"name;club\nOla;A\n\x81\x8d\x90\x9d\x81\x8d\x90\x9d;B\n")
    assert message.startswith("p.csv line 3: not UTF-8 text (byte 0x81 at column 1)")


def test_a_workbook_instead_of_csv_is_named() -> None:
    message = error(b"PK\x03\x04\x14\x00\x06\x00\x08\x00\x00\x00!\x00" + bytes(range(256)))
    assert message == (
        "p.csv: this is a spreadsheet workbook (.xlsx or .ods), not CSV text; save the sheet "
        "as CSV (File → Save as → CSV) and import that file"
    )
    assert "an old Excel workbook (.xls)" in error(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" * 8)


def test_empty_file_and_header_only() -> None:
    assert error("") == "p.csv: the file is empty (a header row is required)"
    assert error("name;club\n") == "p.csv: no players below the header row"


def test_duplicate_of_a_registered_player() -> None:
    rows = parse_players_csv(b"name;club\nJan;A\nOla Kot;SP 1\n", "p.csv").players
    registered = {"P001": Player("P001", "Ola  KOT", "sp 1")}
    with pytest.raises(PlayersCsvError) as err:
        new_players(rows, registered, lambda i: f"P{i + 2:03d}", "p.csv")
    assert str(err.value) == (
        "p.csv line 3: duplicate player 'Ola Kot' (SP 1) (already registered as P001)"
    )


def test_a_league_number_column_is_read_and_checked() -> None:
    text = "Imię i nazwisko;Numer ligowy\nOla Kot; krk-042 \nJan Nowak;\n"
    players = parse_players_csv(text.encode("utf-8"), "p.csv").players
    numbers = [(p.name, p.league_number) for p in players]
    assert numbers == [("Ola Kot", "KRK-042"), ("Jan Nowak", "")]
    assert error("name;league number\nOla;A1\nJan;a1\n") == (
        "p.csv line 3: league number A1 is already on line 2"
    )
    assert error("name;nr ligowy\nOla;Ł 7\n") == (
        "p.csv line 2: league number 'Ł 7': at most 20 letters, digits, '-', '/' or '.', "
        "starting with a letter or digit"
    )
    registered = {"P001": Player("P001", "Ewa Lis", league_number="KRK-042")}
    with pytest.raises(PlayersCsvError) as err:
        new_players(players, registered, lambda i: f"P{i + 2:03d}", "p.csv")
    assert str(err.value) == "p.csv line 2: league number KRK-042 is already registered as P001"


def test_import_is_all_or_nothing(tmp_path: Path) -> None:
    c = Cli(tmp_path / "e.sqlite3")
    c.ok("event", "create", "--preset", "winter", "--name", "Zima")
    c.ok("players", "add", "Ola Kot", "--club", "SP 1")
    bad = tmp_path / "bad.csv"
    bad.write_text("name;club\nJan;A\nOla Kot;SP 1\n", encoding="utf-8")
    err = c.fails("players", "import", str(bad))
    assert "line 3: duplicate player 'Ola Kot' (SP 1) (already registered as P001)" in err
    assert list(c.competition().event.players) == ["P001"]
    cp = tmp_path / "cp1250.csv"
    cp.write_bytes("name\nŻaneta\n".encode("cp1250"))
    assert "line 2: not UTF-8 text" in c.fails("players", "import", str(cp), "--encoding", "utf8")
    assert "no name column" in c.fails("players", "import", str(_write(tmp_path, "x;y\n1;2\n")))
    assert "cannot read the file" in c.fails("players", "import", str(tmp_path / "none.csv"))
    good = _write(tmp_path, "name;club;rating\nJan;A;3\nEwa;B;\n")
    out = c.ok("players", "import", str(good), "--check-in")
    assert "Imported 2 players from" in out and "(P002–P003), checked in" in out
    assert c.competition().event.present == {"P002", "P003"}


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / f"f{abs(hash(text))}.csv"
    path.write_text(text, encoding="utf-8")
    return path


def test_batch_ids_stay_distinct_when_ids_have_gaps(tmp_path: Path) -> None:
    c = Cli(tmp_path / "e.sqlite3")
    c.ok("event", "create", "--preset", "winter", "--name", "Zima")
    store = EventStore(c.db)
    org = Organizer(store, by="test")
    org.register([Player("P001", "Ola"), Player("P003", "Jan")])
    assert [org.next_player_id(i) for i in range(3)] == ["P004", "P005", "P006"]
    store.close()
    path = _write(tmp_path, "name\nA\nB\nC\n")
    assert "(P004–P006)" in c.ok("players", "import", str(path))


def test_a_polish_excel_file_is_imported_saying_how_it_was_read(tmp_path: Path) -> None:
    c = Cli(tmp_path / "e.sqlite3")
    c.ok("event", "create", "--preset", "winter", "--name", "Zima")
    path = tmp_path / "zapisy.csv"
    path.write_bytes(POLISH_ROWS.encode("cp1250"))
    out = c.ok("players", "import", str(path))
    assert "Imported 5 players" in out
    assert "Read as Windows-1250 (detected; --encoding ENCODING to read it otherwise)" in out
    players = c.competition().event.players.values()
    assert [(p.name, p.club) for p in players] == POLISH_PLAYERS
    again = tmp_path / "dopisani.csv"
    again.write_bytes("name\nOla Kot\n".encode("iso8859_2"))
    out = c.ok("players", "import", str(again), "--encoding", "iso-8859-2")
    assert "Read as ISO-8859-2 (as given)" in out


def test_import_names_its_file_in_full_and_says_how_names_were_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    c = Cli(tmp_path / "e.sqlite3")
    c.ok("event", "create", "--preset", "winter", "--name", "Zima")
    monkeypatch.chdir(tmp_path)
    Path("bad.csv").write_text("name\nJan\nJan\n", encoding="utf-8")
    err = c.fails("players", "import", "bad.csv")
    assert err.startswith(f"rummikub: {tmp_path / 'bad.csv'} line 3")
    Path("zapisy.csv").write_text(
        'Zawodnik,Klub\n"Kowalski, Jan",SP 3\nNowak, Anna,SP 1\nEwa Kot,A\n', encoding="utf-8"
    )
    out = c.ok("players", "import", "zapisy.csv")
    assert f"from {tmp_path / 'zapisy.csv'}" in out
    assert "read surname first ('Kowalski, Jan' is Jan Kowalski): line 2\n" in out
    assert "More cells than the header's 2, the extra ones left out: line 3;" in out
    players = c.competition().event.players.values()
    assert [(p.name, p.family_name) for p in players][:1] == [("Jan Kowalski", "Kowalski")]


def test_a_forced_encoding_that_garbles_the_header_says_to_check_it() -> None:
    data = "Imię;Nazwisko;Szkoła\nŻaneta;Łoś;SP 3\n".encode("cp1250")
    with pytest.raises(PlayersCsvError) as err:
        parse_players_csv(data, "p.csv", encoding="cp1251")
    assert str(err.value).endswith(
        "; or the file is not cp1251 text: check --encoding, or leave it out to have the "
        "encoding detected"
    )
    assert "check --encoding" not in error("Nazwa;Klub\nOla;A\n")  # detected: the column
    one = "Imię i nazwisko;Szkoła\nŻaneta Łoś;SP 3\n".encode("cp1250")
    with pytest.raises(PlayersCsvError, match="check --encoding"):
        parse_players_csv(one, "p.csv", encoding="cp1251")
    with pytest.raises(PlayersCsvError) as err:
        parse_players_csv(b"Nazwa;Klub\nOla;A\n", "p.csv", encoding="utf-8")
    assert "check --encoding" not in str(err.value)  # read right: the column is what is wrong


PUPILS = (
    "Imię i nazwisko;Szkoła;Niepełnoletni;Zgoda opiekuna\r\n"
    "Magda Mazur;SP 12 Kraków;tak;tak\r\n"
    "Olek Nowak;SP 12 Kraków;x;\r\n"
    "Ewa Lis;SP 12 Kraków;;\r\n"
    "Jan Kot;SP 12 Kraków;nie;tak\r\n"
)


def test_the_players_file_marks_minors_and_their_consent_and_reads_back(tmp_path: Path) -> None:
    parsed = parse_players_csv(PUPILS.encode(), "uczniowie.csv")
    assert [(p.name, p.minor, p.consent) for p in parsed.players] == [
        ("Magda Mazur", True, True), ("Olek Nowak", True, False),
        ("Ewa Lis", False, False), ("Jan Kot", False, False),
    ]
    wrong = PUPILS.replace("Ewa Lis;SP 12 Kraków;;", "Ewa Lis;SP 12 Kraków;może;")
    with pytest.raises(PlayersCsvError) as refused:
        parse_players_csv(wrong.encode(), "uczniowie.csv")
    assert "wiersz 4" in refused.value.message(words("pl").gettext)

    c = Cli(tmp_path / "szkola.sqlite3")
    c.ok("event", "create", "--preset", "school", "--name", "Konkurs")
    (tmp_path / "uczniowie.csv").write_text(PUPILS, encoding="utf-8")
    out = c.ok("players", "import", str(tmp_path / "uczniowie.csv"), "--check-in")
    assert "Marked minor: 2 players" in out and "Not checked in" in out and "P002" in out
    comp = c.competition()
    assert comp.is_minor("P001") and comp.minors["P001"].consent
    assert comp.is_minor("P002") and not comp.minors["P002"].consent
    assert comp.event.present == {"P001", "P003", "P004"}
    c.ok("round", "draw", "--seed", "1")
    c.ok("export", "csv", str(tmp_path / "out"))
    again = Cli(tmp_path / "znowu.sqlite3")
    again.ok("event", "create", "--preset", "school", "--name", "Znowu")
    again.ok("players", "import", str(tmp_path / "out" / "players.csv"))
    back = again.competition()
    ids = {p.name: pid for pid, p in back.event.players.items()}
    assert {pid for pid in back.event.players if back.is_minor(pid)} == {
        ids["Magda Mazur"], ids["Olek Nowak"]}
    assert back.minors[ids["Magda Mazur"]].consent
    assert not back.minors[ids["Olek Nowak"]].consent
