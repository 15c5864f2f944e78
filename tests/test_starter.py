"""The organizer's starting seat: a hub record, sent in the assignment, on the score sheets."""

from __future__ import annotations

import html
from pathlib import Path

from test_cli_support import Cli

from hub.exports.printouts import scoresheets_html
from hub.organizer import Organizer
from hub.store import EventStore
from tablekit.core.seats import Seat
from tablekit.shared.i18n import words


def school_event(tmp_path: Path, players: int = 7) -> Cli:
    c = Cli(tmp_path / "event.sqlite3")
    c.ok("event", "create", "--preset", "school", "--name", "Konkurs")
    for i in range(players):
        c.ok("players", "add", f"Gracz {i}", "--check-in")
    c.ok("round", "draw", "--seed", "5")
    return c


def test_the_organizer_sets_who_starts_and_the_table_is_told(tmp_path: Path) -> None:
    c = school_event(tmp_path)  # 7 players: a table of 4 and one of 3
    before = {a.table: a.starter for a in organizer(c).competition.assignments()}
    assert before == {1: None, 2: None}  # nobody chose: the seats rotate
    out = c.ok("round", "starter", "--table", "2", "--seat", "C", "--why", "najwyższy klocek")
    assert "Table 2, game 1 of round-1: seat C starts" in out
    c.ok("round", "starter", "--table", "1", "--seat", "d", "--game", "2")  # any letter case
    comp = organizer(c).competition
    assert {a.table: a.starter for a in comp.assignments()} == {1: None, 2: Seat.C}
    assert comp.starter("round-1", 1, 2) is Seat.D
    chosen = comp.starters[("round-1", 2, 1)]
    assert (chosen.by, chosen.why) == ("organizer Ola", "najwyższy klocek")
    sheets = html.unescape(scoresheets_html(comp, words("en")))
    assert "Game 1 — seat C starts (the organizer's choice)" in sheets
    assert "Game 2 — seat D starts (the organizer's choice)" in sheets
    assert "Game 2 — seat B starts</h2>" in sheets  # table 2's game 2: the rotation


def test_a_starting_seat_that_cannot_be_is_refused_naming_why(tmp_path: Path) -> None:
    c = school_event(tmp_path)
    assert "seat D is not at a 3-player table (seats A, B, C)" in c.fails(
        "round", "starter", "--table", "2", "--seat", "D"
    )
    assert "a seat is A, B, C or D, got 'E'" in c.fails(
        "round", "starter", "--table", "1", "--seat", "E"
    )
    assert "table 9: not in round round-1" in c.fails(
        "round", "starter", "--table", "9", "--seat", "A"
    )
    assert "round round-1 has games 1–2, got game 3" in c.fails(
        "round", "starter", "--table", "1", "--seat", "A", "--game", "3"
    )
    c.ok("result", "enter", "--table", "1", "--game", "1", "--racks", "0 5 6 7")
    assert "table 1 game 1: its result is in" in c.fails(
        "round", "starter", "--table", "1", "--seat", "B", "--game", "1"
    )
    out = c.ok("round", "starter", "--table", "1", "--seat", "B")  # the next game: 2
    assert "Table 1, game 2" in out


def organizer(c: Cli) -> Organizer:
    return Organizer(EventStore(c.db))


def test_an_undone_draw_takes_its_starting_seats_with_it(tmp_path: Path) -> None:
    c = school_event(tmp_path)
    c.ok("round", "starter", "--table", "1", "--seat", "B")
    c.ok("round", "undo", "--why", "wrong players checked in")
    c.ok("round", "draw", "--seed", "6")
    comp = organizer(c).competition
    assert comp.starters == {}
    assert {a.starter for a in comp.assignments()} == {None}
