"""Bad input at the CLI: one clear line on stderr, exit code 2, nothing stored."""

from __future__ import annotations

import random
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any, NoReturn

import pytest
from test_cli_support import Cli, play_round

from hub.cli import main, reports
from hub.cli.racks import ending_for
from tablekit.core.errors import KitError
from tablekit.core.racks import parse_racks
from tablekit.core.scoring import GameEnding, GameReport, Opening, RackReport
from tablekit.core.seats import Seat


@pytest.fixture
def school(tmp_path: Path) -> Cli:
    c = Cli(tmp_path / "event.sqlite3")
    c.ok("event", "create", "--preset", "school", "--name", "Szkoła")
    for i in range(8):
        c.ok("players", "add", f"Uczeń {i + 1}", "--club", "SP 1", "--check-in")
    return c


@pytest.fixture
def playing(school: Cli) -> Cli:
    school.ok("round", "draw", "--seed", "1")
    school.ok("round", "start")
    return school


def test_no_event_file_is_named_and_not_created(tmp_path: Path) -> None:
    c = Cli(tmp_path / "missing.sqlite3")
    err = c.fails("players", "list")
    assert "no event file" in err and "missing.sqlite3" in err
    assert not c.db.exists()


def test_usage_errors_are_one_line(school: Cli) -> None:
    err = school.fails("result", "enter", "--game", "1")
    assert "the following arguments are required: --table" in err
    err = school.fails("result", "enter", "--table", "0", "--game", "1", "--racks", "0 1 2 3")
    assert "--table: expected a whole number from 1, got '0'" in err
    err = school.fails("event", "create", "--preset", "chess", "--name", "x")
    assert "unknown preset 'chess', expected one of winter, school, championship" in err
    assert "or a rule book's number: 000 = winter, 002 = championship" in err
    assert school.fails("frobnicate").startswith("rummikub: argument COMMAND")


def test_presets_by_rule_book_number_or_in_any_case(tmp_path: Path) -> None:
    for i, given in enumerate(("002", "Championship", " SCHOOL ", "004")):
        c = Cli(tmp_path / f"e{i}.sqlite3")
        c.ok("event", "create", "--preset", given, "--name", "Turniej")
        want = "school" if given.strip().lower() in ("school", "004") else "championship"
        assert f"Preset:   {want}" in c.ok("event", "show")


def test_event_cannot_be_created_twice(school: Cli) -> None:
    err = school.fails("event", "create", "--preset", "winter", "--name", "Again")
    assert err == (
        f"rummikub: {school.db} already holds the event 'Szkoła'; for a new event give "
        "another file: --db FILE (or RUMMIKUB_DB)"
    )


def test_unknown_ruleset_and_bad_ruleset_file(tmp_path: Path) -> None:
    c = Cli(tmp_path / "e.sqlite3")
    assert "unknown name 'blitz'" in c.fails(
        "event", "create", "--preset", "winter", "--name", "W", "--ruleset", "blitz"
    )
    bad = tmp_path / "rules.toml"
    bad.write_text("[ruleset]\nname = 'club'\nbased_on = '000'\njoker_penalty = -5\n")
    err = c.fails("event", "create", "--preset", "winter", "--name", "W", "--rulesets", str(bad))
    assert "joker_penalty" in err
    good = tmp_path / "good.toml"
    good.write_text("[ruleset]\nname = 'club'\nbased_on = '000'\nmove_seconds = 45\n")
    out = c.ok(
        "event",
        "create",
        "--preset",
        "winter",
        "--name",
        "W",
        "--rulesets",
        str(good),
        "--ruleset",
        "club",
    )
    assert "club (45 s, big points to the winner only)" in out


def test_championship_with_15_players_is_refused_at_the_draw(tmp_path: Path) -> None:
    c = Cli(tmp_path / "mp.sqlite3")
    c.ok("event", "create", "--preset", "championship", "--name", "MP")
    for i in range(15):
        c.ok("players", "add", f"Gracz {i}", "--check-in")
    err = c.fails("round", "draw")
    assert "15 players, it needs 16–36" in err


def test_a_draw_with_nobody_checked_in_says_how_to_check_players_in(tmp_path: Path) -> None:
    c = Cli(tmp_path / "s.sqlite3")
    c.ok("event", "create", "--preset", "school", "--name", "S")
    err = c.fails("round", "draw")
    assert "0 players, it needs 3–400; nobody is registered yet: rummikub players import" in err
    for i in range(6):
        c.ok("players", "add", f"Uczeń {i}")
    err = c.fails("round", "draw")
    assert err.startswith(
        "rummikub: draw: format 'Inter-school contest (004): 4 rounds × 2 games, new draw each "
        "round': 0 players, it needs 3–400; "
    )
    assert "0 of 6 registered players are checked in and only they are drawn" in err
    assert "rummikub players check-in --all" in err
    c.ok("players", "check-in", "P001", "P002")
    assert "2 of 6 registered players are checked in" in c.fails("round", "draw")
    league = Cli(tmp_path / "l.sqlite3")
    league.ok("event", "create", "--preset", "league", "--name", "L")
    league.ok("players", "add", "Ola Kot")
    err = league.fails("round", "draw")
    assert "a league tournament takes 8–32; 0 of 1 registered players are checked in" in err
    c.ok("players", "check-in", "--all")
    assert "Round 1" in c.ok("round", "draw")


def test_duplicate_player_added_by_hand(school: Cli) -> None:
    err = school.fails("players", "add", "  uczeń   1 ", "--club", "sp 1")
    assert "duplicate player 'uczeń 1' (sp 1): already registered as P001" in err


def test_check_in_after_the_draw_and_unknown_player(playing: Cli) -> None:
    playing.ok("players", "add", "Spóźniony")
    err = playing.fails("players", "check-in", "P009")
    assert "record a late arrival instead (rummikub players late P009)" in err
    assert "unknown player 'P077'" in playing.fails("players", "late", "P077")
    out = playing.ok("players", "late", "9")
    assert "P009 arrived late" in out
    assert "--reason" in playing.fails("players", "withdraw", "P002")


def test_a_player_added_and_checked_in_after_the_draw_arrives_late(playing: Cli) -> None:
    out = playing.ok("players", "add", "Nowy Gracz", "--check-in")
    assert "P009  Nowy Gracz registered, a late arrival: plays from the next draw" in out
    assert "(rummikub players late P009)" not in out
    assert "already present" in playing.fails("players", "late", "P009")


def test_close_with_missing_results_lists_them(playing: Cli) -> None:
    play_round(playing, random.Random(1), skip={(2, 2)})
    err = playing.fails("round", "close")
    assert err == (
        "rummikub: close round-1: no result for table 2 game 2: enter them (rummikub result "
        "enter), or close without them: rummikub round close --force --why \"…\" (they count "
        "as not played)"
    )
    assert "say why" in playing.fails("round", "close", "--force")
    assert "--why goes with --force" in playing.fails("round", "close", "--why", "late")
    out = playing.ok("round", "close", "--force", "--why", "table 2 left early")
    assert "forced" in out


def test_correction_needs_a_reason(playing: Cli) -> None:
    playing.ok("result", "enter", "--table", "1", "--game", "1", "--racks", "0 5 6 7")
    err = playing.fails("result", "enter", "--table", "1", "--game", "1", "--racks", "0 5 6 8")
    assert err == (
        "rummikub: table 1 game 1: a result is recorded; a correction needs a reason (--why)"
    )
    history = playing.ok("result", "history", "--table", "1", "--game", "1")
    assert "Version 2" not in history


@pytest.mark.parametrize(
    ("racks", "message"),
    [
        ("A=0 B=23 C=x7 D=1", "seat C: 'x7' is not a rack"),
        ("A=0 B=23 C=12jjj D=1", "seat C: '12jjj' is not a rack"),
        ("A=0 B=23 C=12", "no value for seat D"),
        ("A=0 B=23 C=12 E=4", "'E' is not a seat"),
        ("A=0 A=23 C=12 D=4", "seat A is given twice"),
        ("0 23 12", "4 players sit at this table (seats A, B, C, D), got 3 values"),
        ("A=0 23 12 4", "give every seat as SEAT=VALUE"),
        ("A=0 B=23 C=12 D=np", "seat D: 'np' needs the tiles left too, e.g. 85np"),
        ("A=0 B=0 C=12 D=4", "only one player can empty the rack"),
        ("A=0 B=800 C=12 D=4", "seat B: tiles must be an integer between 0 and 728"),
        ("A=0 B=2jj C=1j D=4", "a table has only 2 jokers, got 3"),
    ],
)
def test_bad_racks_are_refused(playing: Cli, racks: str, message: str) -> None:
    err = playing.fails("result", "enter", "--table", "1", "--game", "1", "--racks", racks)
    assert message in err


def test_went_out_without_an_empty_rack(playing: Cli) -> None:
    err = playing.fails(
        "result",
        "enter",
        "--table",
        "1",
        "--game",
        "1",
        "--racks",
        "3 5 6 7",
        "--ending",
        "went-out",
    )
    assert "no rack is empty" in err


def test_unknown_table_and_game(playing: Cli) -> None:
    err = playing.fails("result", "enter", "--table", "7", "--game", "1", "--racks", "0 1 2 3")
    assert err == "rummikub: table 7: round-1 has tables 1–2"
    err = playing.fails("result", "enter", "--table", "1", "--game", "3", "--racks", "0 1 2 3")
    assert "games 1–2, got game 3" in err
    err = playing.fails("result", "history", "--table", "3", "--game", "1")
    assert "table 3: round-1 has tables 1–2" in err
    err = playing.fails("result", "history", "--table", "1", "--game", "5")
    assert "round round-1 has games 1–2, got game 5" in err


def test_no_racks_without_a_terminal(playing: Cli) -> None:
    err = playing.fails("result", "enter", "--table", "1", "--game", "1")
    assert "give --racks (stdin is not a terminal" in err


def test_interactive_entry_asks_per_seat_until_valid(
    playing: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    answers = iter(["0", "oops", "12j", "85np", "7"])
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("builtins.input", lambda prompt: next(answers))
    run = playing.run("result", "enter", "--table", "2", "--game", "1")
    assert run.code == 0 and "Version 1 (result, judge)" in run.out
    assert run.err.startswith("seat B: 'oops' is not a rack")
    racks = playing.competition().history("round-1", 2, 1)[0].record.report.racks
    assert [(r.tiles, r.jokers, r.opening) for r in racks] == [
        (0, 0, Opening.OPENED),
        (12, 1, Opening.OPENED),
        (85, 0, Opening.NOT_OPENED),
        (7, 0, Opening.OPENED),
    ]


def test_rack_syntax() -> None:
    assert parse_racks("a=0, b=23 c=12J d=40jcho", 4)[3].opening is Opening.COULD_HAVE_OPENED
    racks = parse_racks("5 jj 9waived", 3)
    assert [(r.seat, r.tiles, r.jokers) for r in racks] == [
        (Seat.A, 5, 0),
        (Seat.B, 0, 2),
        (Seat.C, 9, 0),
    ]
    assert racks[2].opening is Opening.WAIVED
    assert ending_for(racks, None) is GameEnding.NOBODY_OUT
    assert ending_for(parse_racks("0 1 2", 3), None) is GameEnding.WENT_OUT


def test_season_needs_finished_league_events(school: Cli, tmp_path: Path) -> None:
    err = school.fails("season", "table", str(school.db))
    assert "'Szkoła' is not a league event (Inter-school contest (004): " in err
    err = school.fails("season", "table", str(tmp_path / "nope.sqlite3"))
    assert "nope.sqlite3: no such event file" in err
    assert not (tmp_path / "nope.sqlite3").exists()


def test_a_file_that_is_not_an_event_store(tmp_path: Path) -> None:
    path = tmp_path / "notes.sqlite3"
    path.write_text("this is not a database\n" * 100)
    c = Cli(path)
    err = c.run("players", "list")
    assert err.code == 2 and err.err.count("\n") == 1
    assert err.err == f"rummikub: {path} is not a rummikub event file (not an SQLite database)\n"
    create = c.run("event", "create", "--preset", "school", "--name", "X")
    assert create.code == 2 and "not a rummikub event file" in create.err


def test_exports_into_a_file_say_a_folder_is_needed(playing: Cli, tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("keep me\n", encoding="utf-8")
    want = f"rummikub: {notes} is a file; give a folder to write the files in"
    for what in ("csv", "html", "pdf"):
        assert playing.fails("export", what, str(notes)) == want
    assert playing.fails("export", "html", str(notes / "sub")) == want
    assert playing.fails("export", "archive", str(notes / "event.zip")) == want
    assert notes.read_text(encoding="utf-8") == "keep me\n"


def test_a_table_submission_for_table_0_is_refused_by_number(playing: Cli) -> None:
    comp = playing.competition()
    report = GameReport(
        game=1,
        ending=GameEnding.WENT_OUT,
        racks=(
            RackReport(Seat.A, 0),
            RackReport(Seat.B, 3),
            RackReport(Seat.C, 4),
            RackReport(Seat.D, 5),
        ),
    )
    assert str(comp.check_result(0, report)) == "table 0: not in round round-1"
    assert str(comp.check_result(-1, report)) == "table -1: not in round round-1"
    assert comp.check_result(2, report) is None


@pytest.mark.parametrize(
    ("rating", "why"),
    [
        ("nan", "is not a number"),
        ("inf", "is not a number"),
        ("-inf", "is not a number"),
        ("12x", "is not a number"),
        ("1e400", "is written with an exponent; write the number in full (at most 1 000 000)"),
        ("9" * 400, "is too large: at most 1 000 000"),
    ],
)
def test_a_rating_that_is_not_a_finite_number_is_refused_saying_why(
    school: Cli, rating: str, why: str
) -> None:
    err = school.fails("players", "add", "Nowy", f"--rating={rating}")
    assert err == (
        f"rummikub players add: argument --rating: rating {rating!r} {why} "
        "(see rummikub players add --help)"
    )
    assert "Nowy" not in school.ok("players", "list")


def test_a_rating_is_read_as_in_a_players_csv(school: Cli) -> None:
    school.ok("players", "add", "Nowy", "--rating", "1 502,5")
    school.ok("players", "add", "Bez oceny", "--rating", " ")
    players = {p.name: p.rating for p in school.competition().event.players.values()}
    assert (players["Nowy"], players["Bez oceny"]) == (1502.5, None)


def test_control_characters_in_names_are_refused(tmp_path: Path, capsys: Any) -> None:
    db = str(tmp_path / "e.sqlite3")
    assert main(["--db", db, "event", "create", "--preset", "school", "--name", "Cup"]) == 0
    code = main(["--db", db, "--lang", "en", "players", "add", "Zofia\x7fCwik"])
    assert code == 2 and "control character U+007F" in capsys.readouterr().err
    csv_file = tmp_path / "players.csv"
    csv_file.write_bytes(b"name;club\nAnna Nowak;SP 1\nMarta Ko\x1a;SP 2\n")
    assert main(["--db", db, "--lang", "en", "players", "import", str(csv_file)]) == 2
    err = capsys.readouterr().err
    assert "line 3" in err and "control character U+001A" in err
    assert main(["--db", db, "players", "list"]) == 0
    assert "Anna" not in capsys.readouterr().out  # nothing half-written


def test_a_csv_the_reader_cannot_parse_is_a_clear_error(tmp_path: Path, capsys: Any) -> None:
    db = str(tmp_path / "e.sqlite3")
    main(["--db", db, "event", "create", "--preset", "school", "--name", "Cup"])
    csv_file = tmp_path / "players.csv"
    csv_file.write_text('name,club\n"Anna' + "x" * 200_000 + "\n")  # a quote never closed
    assert main(["--db", db, "--lang", "en", "players", "import", str(csv_file)]) == 2
    assert "not valid CSV" in capsys.readouterr().err


def test_a_rack_with_absurdly_many_digits_is_a_clear_error(tmp_path: Path, capsys: Any) -> None:
    db = str(tmp_path / "e.sqlite3")
    main(["--db", db, "event", "create", "--preset", "school", "--name", "Cup"])
    for i in range(8):
        main(["--db", db, "players", "add", f"Gracz {i}", "--check-in"])
    assert main(["--db", db, "round", "draw", "--seed", "1"]) == 0
    capsys.readouterr()
    code = main(["--db", db, "--lang", "en", "result", "enter", "--table", "1", "--game", "1",
                 "--racks", "A=" + "9" * 5000 + " B=0 C=3 D=4"])
    assert code == 2 and "is not a rack" in capsys.readouterr().err


def test_a_semifinal_of_neither_six_nor_eight_is_refused(tmp_path: Path, capsys: Any) -> None:
    db = str(tmp_path / "e.sqlite3")
    code = main(["--db", db, "--lang", "en", "event", "create", "--preset", "championship",
                 "--name", "M", "--semifinal", "7"])
    assert code == 2
    assert "invalid choice: 7" in capsys.readouterr().err


def test_output_cut_short_by_its_reader_is_no_error(school: Cli) -> None:
    """``rummikub players list | head``: the reader leaves (here at once, before the kit
    writes anything), the command ends quietly."""
    command = (
        f"{shlex.quote(sys.executable)} -m hub.cli --db {shlex.quote(str(school.db))} "
        "players list | true"
    )
    proc = subprocess.run(
        ["bash", "-o", "pipefail", "-c", command],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert (proc.returncode, proc.stderr) == (0, "")


def test_a_seed_that_drew_a_round_is_not_taken_for_the_next(playing: Cli) -> None:
    play_round(playing, random.Random(3))
    playing.ok("round", "close")
    err = playing.fails("round", "draw", "--seed", "1")
    assert "seed 1 already drew round-1" in err and "leave --seed out" in err
    assert "Round 2" in playing.ok("round", "draw", "--seed", "2")


class _NewModuleError(KitError):
    """An error of the kit the command line has never heard of."""


def test_any_error_of_the_kit_is_one_line_and_anything_else_a_traceback(
    school: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    """main catches the kit's root error, not a list of modules' errors: a new module's
    error is one line like the rest, while an exception that is no error of the kit is a
    bug and is not hidden."""

    def refused(*_: object, **__: object) -> NoReturn:
        raise _NewModuleError("the ranking cannot be made:\n  the reason, said plainly")

    monkeypatch.setattr(reports, "ranking_grid", refused)
    want = "rummikub: the ranking cannot be made: the reason, said plainly"
    assert school.fails("ranking") == want

    def bug(*_: object, **__: object) -> NoReturn:
        raise ValueError("a bug in the ranking")

    monkeypatch.setattr(reports, "ranking_grid", bug)
    with pytest.raises(ValueError, match="a bug in the ranking"):
        school.run("ranking")


def test_a_folder_the_system_refuses_is_one_line_naming_it(playing: Cli, tmp_path: Path) -> None:
    target = tmp_path / ("x" * 300)  # longer than any file system takes
    err = playing.fails("export", "csv", str(target))
    assert err == f"rummikub: cannot use {target}: file name too long"
