"""Names as people write them: given name and surname kept apart, corrected by the
organizer with an audited rename, and one order (surname, then given name, Polish) in
every list: the printed find-your-table, the hub screen, the players list, the season."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from test_cli_support import Cli

from hub.competition import Competition, decode_record
from hub.conductor import Conductor
from hub.exports.grid import Sheet
from hub.exports.lists import find_table_lines, players_grid
from hub.exports.printouts import find_table_html
from hub.exports.standings import standings_csv, standings_grid
from hub.league.season import Counted, fold_season
from hub.organizer import Organizer
from hub.players_csv import parse_players_csv
from hub.season import entry_of
from hub.store import EventStore
from hub.tournament import Player, player_order
from tablekit.core.codec import decode
from tablekit.core.messages import SeatingBoard, StandingsBoard
from tablekit.core.topics import Topics
from tablekit.shared.i18n import words

EN = words("en")

TOPICS = Topics("hall", "cup")


def sent_by_topic(db: Path) -> dict[str, bytes]:
    """What the hub publishes for the tables and screens."""
    store = EventStore(db)
    try:
        return {m.topic: m.payload for m in Conductor(Organizer(store), TOPICS).messages()}
    finally:
        store.close()


def seating_board(db: Path) -> SeatingBoard:
    return decode(SeatingBoard, sent_by_topic(db)[TOPICS.seating])


def rows(text: str) -> list[tuple[str, str, str | None]]:
    parsed = parse_players_csv(text.encode("utf-8"), "p.csv").players
    players = [Player(f"P{i}", p.name, p.club, p.rating, p.surname) for i, p in enumerate(parsed)]
    return [(p.name, p.given_name, p.family_name) for p in players]


def test_a_file_with_given_name_and_surname_columns_keeps_them_apart() -> None:
    text = "Imię;Nazwisko;Klub\nAnna Maria;Nowak-Kowalska;X\nJan;de Lange;Y\n"
    assert rows(text) == [
        ("Anna Maria Nowak-Kowalska", "Anna Maria", "Nowak-Kowalska"),
        ("Jan de Lange", "Jan", "de Lange"),
    ]  # a row with one of the two empty is refused (test_players_csv)
    english = "Given name,Surname,School\nJan Maria,van der Berg,SP 1\n"
    assert rows(english) == [("Jan Maria van der Berg", "Jan Maria", "van der Berg")]
    both = "Zawodnik;Imię;Nazwisko\nJan de Lange;Jan;de Lange\n"  # the parts win
    assert rows(both) == [("Jan de Lange", "Jan", "de Lange")]


def test_a_surname_first_column_and_a_plain_name_column() -> None:
    assert rows("Nazwisko i imię\nNowak-Kowalska Anna Maria\nŁoś Ida\n") == [
        ("Anna Maria Nowak-Kowalska", "Anna Maria", "Nowak-Kowalska"),
        ("Ida Łoś", "Ida", "Łoś"),
    ]
    # One name column: the last word is the surname, until the organizer says otherwise.
    assert rows("Imię i nazwisko\nJan de Lange\n") == [("Jan de Lange", "Jan de", "Lange")]


def test_records_stored_before_surnames_existed_still_load() -> None:
    old = [
        b'{"record":"event-created","at":1.0,"by":"Ola","name":"Zima","preset":"school",'
        b'"semifinal":8}',
        b'{"record":"organizer","at":2.0,"by":"Ola","fact":{"fact":"player-registered",'
        b'"player":{"id":"P001","name":"Jan Maria Kowalski","club":"SP 1","rating":null}},'
        b'"why":""}',
        b'{"record":"organizer","at":3.0,"by":"Ola","fact":{"fact":"player-checked-in",'
        b'"player_id":"P001"},"why":""}',
    ]
    comp = Competition.replay(decode_record(r) for r in old)
    assert comp.skipped == []
    player = comp.event.players["P001"]
    assert (player.surname, player.given_name, player.family_name) == (
        "",
        "Jan Maria",
        "Kowalski",
    )
    assert comp.event.present == {"P001"}


def test_renaming_a_player_is_audited_and_shows_everywhere(tmp_path: Path) -> None:
    c = Cli(tmp_path / "e.sqlite3")
    c.ok("event", "create", "--preset", "school", "--name", "Konkurs")
    for name in ("Jan Kowalsky", "Anna Nowak", "Ewa Zięba", "Piotr Lis", "Ida Łoś", "Ola Kot"):
        c.ok("players", "add", name, "--club", "SP 1", "--check-in")
    c.ok("round", "draw", "--seed", "5")

    out = c.ok(
        "players", "rename", "P001", "Jan Kowalski", "--club", "SP 3 Łódź",
        "--why", "literówka w zapisach", by="sędzia Ala",
    )
    assert "P001: Jan Kowalsky, SP 1 → Jan Kowalski, SP 3 Łódź" in out
    assert "Surname 'Kowalski', given name 'Jan'" in out
    assert "by sędzia Ala: literówka w zapisach" in out
    # A surname of two words: mark where it starts; the name stays.
    out = c.ok("players", "rename", "4", "--surname", "Lis", "--given", "Piotr Maria",
               "--why", "drugie imię")
    assert "Piotr Lis, SP 1 → Piotr Maria Lis, SP 1" in out
    out = c.ok("players", "rename", "P003", "--surname", "Zięba", "--no-club", "--why", "x")
    assert "Ewa Zięba, SP 1 → Ewa Zięba" in out

    history = c.ok("players", "history", "P001")
    assert "Name and club changes of P001" in history
    assert "sędzia Ala" in history and "literówka w zapisach" in history
    assert "Jan Kowalsky, SP 1" in history and "Jan Kowalski, SP 3 Łódź" in history

    listing = c.ok("players", "list")
    assert "Jan Kowalski" in listing and "Kowalsky" not in listing
    comp = c.competition()  # a new fold of the stored records
    assert comp.event.players["P001"] == Player("P001", "Jan Kowalski", "SP 3 Łódź")
    assert comp.event.players["P004"].surname == "Lis"
    assert comp.event.players["P003"].club is None
    names = {s.name for a in comp.assignments() for s in a.seats}
    assert "Jan Kowalski" in names and "Piotr Maria Lis" in names
    c.ok("export", "html", str(tmp_path / "html"))
    c.ok("export", "csv", str(tmp_path / "csv"))
    for path in (
        tmp_path / "html" / "find-your-table.html",
        tmp_path / "html" / "seating.html",
        tmp_path / "csv" / "seating.csv",
    ):
        text = path.read_text(encoding="utf-8-sig")
        written = "Kowalski Jan" if path.name == "find-your-table.html" else "Jan Kowalski"
        assert written in text and "Kowalsky" not in text, path
    board = seating_board(c.db)
    assert {r.name for r in board.rows} >= {"Jan Kowalski", "Piotr Maria Lis"}


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("P002", "Jan Kowalski", "--why", "x"), "'Jan Kowalski' (SP 1) is already registered"),
        (("P002", "Anna Nowak", "--why", "x"), "nothing to change"),
        (("P002", "--surname", "Nowak", "--why", "x"), "nothing to change"),
        (("P002", "Anna Nowak", "--why", "  "), "say why (--why)"),
        (("P002", "Anna Nowak", "--surname", "Kowal", "--why", "x"), "is not the end of"),
        (("P002", "--club", "A", "--no-club", "--why", "x"), "--club or --no-club, not both"),
        (("P002", " ", "--why", "x"), "the name is empty"),
        (("P009", "Ola", "--why", "x"), "unknown player 'P009'"),
        (("P002", "--league-number", "x1", "--why", "x"), "league number X1 is P001's already"),
        (("P001", "--league-number", "x1", "--why", "x"), "nothing to change"),
        (("P002", "--league-number", "A 1", "--why", "x"), "league number 'A 1': at most 20"),
    ],
)
def test_a_rename_that_does_not_fit_is_refused(
    tmp_path: Path, argv: tuple[str, ...], message: str
) -> None:
    c = Cli(tmp_path / "e.sqlite3")
    c.ok("event", "create", "--preset", "school", "--name", "Konkurs")
    c.ok("players", "add", "Jan Kowalski", "--club", "SP 1", "--league-number", "X1")
    c.ok("players", "add", "Anna Nowak", "--club", "SP 1")
    assert message in c.fails("players", "rename", *argv)
    refused = c.fails("players", "add", "Ewa Lis", "--league-number", "x1")
    assert "players add: league number X1 is P001's already" in refused


ORDERED = [  # surname, then given name, Polish order
    "Zofia Ćwik",
    "Jan de Lange",
    "Jan Gęś",
    "Barbara Lis",
    "Ida Łoś",
    "Adam Nowak",
    "Anna Nowak",
    "Anna Maria Nowak-Kowalska",
    "Ewa Wiśniewska",
    "Łukasz Żółć",
]


def test_every_list_of_people_has_the_same_order(tmp_path: Path) -> None:
    c = Cli(tmp_path / "e.sqlite3")
    c.ok("event", "create", "--preset", "school", "--name", "Konkurs")
    players = tmp_path / "zapisy.csv"
    shuffled = [ORDERED[i] for i in (9, 4, 0, 7, 2, 5, 8, 1, 3, 6)]
    lines = ["Imię;Nazwisko;Szkoła"]
    for name in shuffled:
        given, _, surname = name.rpartition(" ")
        if surname == "Lange":
            given, surname = "Jan", "de Lange"
        lines.append(f"{given};{surname};SP {len(lines)}")
    players.write_bytes("\r\n".join(lines).encode("cp1250"))
    c.ok("players", "import", str(players), "--check-in")
    c.ok("round", "draw", "--seed", "8")
    comp = c.competition()

    printed = find_table_html(comp, EN)
    body = printed[printed.index("<tbody>") :]
    surname_first = [html.unescape(n) for n in re.findall(r'<td class="name">([^<]*)<', body)]
    assert surname_first == [
        "Ćwik Zofia",
        "de Lange Jan",
        "Gęś Jan",
        "Lis Barbara",
        "Łoś Ida",
        "Nowak Adam",
        "Nowak Anna",
        "Nowak-Kowalska Anna Maria",
        "Wiśniewska Ewa",
        "Żółć Łukasz",
    ]

    board = seating_board(c.db)
    assert [r.name for r in board.rows] == ORDERED  # the hub screen shows them as sent
    assert {r.surname for r in board.rows} == {"", "de Lange"}  # sent when not the last word

    assert [r[1] for r in players_grid(comp, EN).rows] == ORDERED
    # Nobody has played yet: everyone shares place 1, listed by name on paper and screen.
    assert [r[1] for r in standings_grid(comp, words=EN).rows] == ORDERED
    csv_lines = standings_csv(comp, Sheet(EN, ";")).splitlines()[1:]
    assert [line.split(";")[4] for line in csv_lines] == ORDERED
    standings = decode(StandingsBoard, sent_by_topic(c.db)[TOPICS.standings])
    assert {r.place for r in standings.rows} == {1}
    assert [r.name for r in standings.rows] == ORDERED
    players = comp.event.players
    entries = tuple(entry_of("t1", p) for p in players.values())
    level = Counted("t1", "Liga", 0.0, entries, dict.fromkeys(players, 10))
    lines_ = fold_season([level]).lines
    assert {line.place for line in lines_} == {1}
    assert [line.name for line in lines_] == ORDERED
    assert sorted(comp.event.players.values(), key=player_order) == [
        next(p for p in comp.event.players.values() if p.name == n) for n in ORDERED
    ]


LONG = "Aleksandra Magdalena Brzęczyszczykiewicz-Kowal"  # cut to 40 characters on screens


def test_equal_and_long_names_keep_one_order_on_paper_on_screens_and_in_the_season(
    tmp_path: Path,
) -> None:
    c = Cli(tmp_path / "e.sqlite3")
    c.ok("event", "create", "--preset", "school", "--name", "Konkurs")
    for name, club in [
        ("Łucja Żak", "SP 1"),
        (LONG, "SP 1"),
        ("Anna Nowak", "SP 2"),  # P003
        ("Jan Brzęczyszczykiewicz", "SP 1"),
        ("Anna Nowak", "SP 1"),  # P005: the same name, another school
        ("Ewa Nowak-Kowalska", "SP 3"),
        ("ewa Zyta", "SP 3"),
        ("Ádám Ádler", "SP 2"),
    ]:
        c.ok("players", "add", name, "--club", club, "--check-in")
    c.ok("players", "add", "Jan de Lange", "--surname", "de Lange", "--check-in")
    c.ok("round", "draw", "--seed", "4")
    comp = c.competition()
    stage = comp.event.stages_played[-1]

    printed = find_table_lines(comp, stage)
    assert [(line.player.name, line.player_id) for line in printed] == [
        ("Ádám Ádler", "P008"),
        ("Jan Brzęczyszczykiewicz", "P004"),
        (LONG, "P002"),
        ("Jan de Lange", "P009"),
        ("Anna Nowak", "P003"),
        ("Anna Nowak", "P005"),
        ("Ewa Nowak-Kowalska", "P006"),
        ("ewa Zyta", "P007"),
        ("Łucja Żak", "P001"),
    ]
    page = find_table_html(comp, EN)
    codes = re.findall(r'<td class="code">([^<]*)<', page)
    assert codes == [line.code for line in printed]  # the printed page, seat by seat

    board = seating_board(c.db)  # the hub screen's "find your table", as sent
    assert [f"{r.table}{r.seat}" for r in board.rows] == codes
    assert board.rows[2].name == LONG[:39] + "…"

    standings = decode(StandingsBoard, sent_by_topic(c.db)[TOPICS.standings])
    listed = [r[1] for r in standings_grid(comp, words=EN).rows]  # everyone shares place 1
    assert listed == [line.player.name for line in printed]
    assert [r.name for r in standings.rows] == [n if len(n) <= 40 else n[:39] + "…" for n in listed]

    players = {pid: p for pid, p in comp.event.players.items() if pid != "P005"}
    entries = tuple(entry_of("t1", p) for p in players.values())
    season = fold_season([Counted("t1", "Liga", 0.0, entries, dict.fromkeys(players, 10))]).lines
    assert [line.name for line in season] == [
        line.player.name for line in printed if line.player_id != "P005"
    ]


def test_the_hub_sends_find_your_table_by_surname_in_polish_order(tmp_path: Path) -> None:
    c = Cli(tmp_path / "e.sqlite3")
    c.ok("event", "create", "--preset", "school", "--name", "Konkurs")
    for name in ("Zenon Łoś", "anna łukasiewicz", "Piotr Lech", "Ádám Ádler", "ewa Zyta", "Marek"):
        c.ok("players", "add", name, "--check-in")
    c.ok("players", "add", "Jan de Lange", "--surname", "de Lange", "--check-in")
    c.ok("round", "draw", "--seed", "2")
    assert [r.name for r in seating_board(c.db).rows] == [
        "Ádám Ádler",
        "Jan de Lange",
        "Piotr Lech",
        "Zenon Łoś",
        "anna łukasiewicz",
        "Marek",
        "ewa Zyta",
    ]
