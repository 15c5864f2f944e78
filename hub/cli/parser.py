"""The command line's grammar: every command, its options and their checks."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

from hub.cli.common import DEFAULT_DB, PROG, CliError
from hub.cli.event import (
    cmd_event_backup,
    cmd_event_create,
    cmd_event_hall,
    cmd_event_language,
    cmd_event_show,
)
from hub.cli.judges import (
    cmd_sanction_deduct,
    cmd_sanction_disqualify,
    cmd_sanction_lift,
    cmd_sanction_list,
    cmd_sanction_warn,
    cmd_tie_decide,
    cmd_tie_list,
    cmd_tie_lot,
)
from hub.cli.live import live_options
from hub.cli.players import (
    cmd_players_add,
    cmd_players_check_in,
    cmd_players_history,
    cmd_players_import,
    cmd_players_late,
    cmd_players_list,
    cmd_players_rename,
    cmd_players_seeds,
    cmd_players_withdraw,
)
from hub.cli.racks import ENDINGS
from hub.cli.refusals import cmd_event_refusals
from hub.cli.reports import (
    cmd_export_archive,
    cmd_export_csv,
    cmd_export_html,
    cmd_export_pdf,
    cmd_ranking,
    cmd_season_export,
    cmd_season_seeds,
    cmd_season_table,
    cmd_standings,
)
from hub.cli.results import cmd_result_corrections, cmd_result_enter, cmd_result_history
from hub.cli.rounds import (
    cmd_round_close,
    cmd_round_consolation,
    cmd_round_draw,
    cmd_round_start,
    cmd_round_starter,
    cmd_round_undo,
)
from hub.cli.status import cmd_round_status
from hub.config import CONFIG_HELP
from hub.players_csv import rating_of
from hub.tournament import PRESET_NAMES, TournamentError, preset_name
from tablekit.core.racks import RACK_SYNTAX
from tablekit.shared.i18n import DEFAULT_LANGUAGE, LANGUAGES, LanguageError, language


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _preset(text: str) -> str:
    try:
        return preset_name(text)
    except TournamentError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _language(text: str) -> str:
    try:
        return language(text)
    except LanguageError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _seat(text: str) -> str:
    seat = text.strip().upper()
    if seat not in ("A", "B", "C", "D"):
        raise argparse.ArgumentTypeError(f"a seat is A, B, C or D, got {text!r}")
    return seat


def _minutes(text: str) -> float:
    try:
        value = float(text.replace(",", "."))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of minutes") from None
    if not 0 < value <= 24 * 60:
        raise argparse.ArgumentTypeError(f"must be above 0 and at most 1440, got {text}")
    return value


def _rating(text: str) -> float | None:
    """--rating: what a players CSV accepts as a rating (a finite number; blank: none)."""
    try:
        return rating_of(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def yes_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--yes",
        action="store_true",
        help="record it without asking when it changes who qualified, a seating drawn, "
        "places, titles or league points (scripts); what it changes is still printed",
    )


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise CliError(f"{self.prog}: {message} (see {self.prog} --help)")


def build_parser() -> argparse.ArgumentParser:
    common = _Parser(add_help=False)
    common.add_argument(
        "--db",
        type=Path,
        default=argparse.SUPPRESS,
        help="the event file (default $RUMMIKUB_DB, the config file's db or ./" + DEFAULT_DB + ")",
    )
    common.add_argument(
        "--config", type=Path, default=argparse.SUPPRESS, metavar="FILE", help=CONFIG_HELP
    )
    common.add_argument(
        "--by",
        default=argparse.SUPPRESS,
        help="who runs the command, recorded with it (default $USER)",
    )
    parser = _Parser(
        prog=PROG,
        description="Rummikub tournament organizer: the whole day.",
        epilog=RACK_SYNTAX,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--db",
        type=Path,
        default=None,
        help=f"the event file (default $RUMMIKUB_DB, the config file's db or ./{DEFAULT_DB}); "
        "also after COMMAND",
    )
    parser.add_argument(
        "--config", type=Path, default=None, metavar="FILE",
        help=f"{CONFIG_HELP}: the event file (db) and the live views' broker; also after COMMAND",
    )  # fmt: skip
    parser.add_argument(
        "--by", default=None, help="who runs the command, recorded with it (default $USER)"
    )
    groups = parser.add_subparsers(dest="group", metavar="COMMAND", parser_class=_Parser)
    groups.required = True

    def leaf(
        sub: argparse._SubParsersAction[_Parser],
        name: str,
        func: Callable[..., int],
        help_text: str,
    ) -> _Parser:
        p = sub.add_parser(name, help=help_text, description=help_text, parents=[common])
        p.set_defaults(func=func)
        return p

    def group(name: str, help_text: str) -> argparse._SubParsersAction[_Parser]:
        p = groups.add_parser(name, help=help_text, description=help_text)
        sub = p.add_subparsers(dest="command", metavar="ACTION", parser_class=_Parser)
        sub.required = True
        return sub

    event = group("event", "create the event from a preset, show it")
    p = leaf(event, "create", cmd_event_create, "create the event from a preset")
    p.add_argument(
        "--preset", required=True, type=_preset, metavar="PRESET",
        help=f"one of {', '.join(PRESET_NAMES)}, or a rule book's number (000, 002, 003, 004)",
    )
    p.add_argument("--name", required=True)
    p.add_argument(
        "--semifinal", type=int, choices=(6, 8), default=8,
        help="championship: players in the semifinal (8, or 6)"
    )
    p.add_argument("--ruleset", help="one ruleset for every stage (built-in or custom name)")
    p.add_argument("--rulesets", type=Path, help="TOML file with custom rulesets")
    p.add_argument(
        "--round-minutes",
        type=_minutes,
        help="round time; when it runs out the tables play the last lap",
    )
    p.add_argument(
        "--lang", default=DEFAULT_LANGUAGE, type=_language, metavar="LANG",
        help="the language of the whole hall: the tables, the hub screen, the printouts "
        f"({', '.join(LANGUAGES)}; default {DEFAULT_LANGUAGE}, as the rule books)",
    )  # fmt: skip
    leaf(event, "show", cmd_event_show, "the event: preset, stages, phase, players")
    p = leaf(
        event,
        "language",
        cmd_event_language,
        "the language of the whole hall (tables, hub screen, printouts): show it, or change "
        "it mid-event",
    )
    p.add_argument(
        "language", nargs="?", type=_language, metavar="LANG",
        help=f"the new language ({', '.join(LANGUAGES)}); left out: show the one in use",
    )  # fmt: skip
    p.add_argument("--why", help="why it changes, recorded with it")
    leaf(
        event,
        "backup",
        cmd_event_backup,
        "the hub's copy of this event file (rummikub-hub serve --backup): when it was last "
        "made, whether copying fails",
    )
    p = leaf(
        event,
        "hall",
        cmd_event_hall,
        "the hall check: which tables are checked and ready (with --broker: online)",
    )
    live_options(p)
    p = leaf(
        event,
        "refusals",
        cmd_event_refusals,
        "what the hub refused from the tables: events set aside (conflicts), counts, the log",
    )
    p.add_argument("--table", type=_positive_int, help="only this table")
    p.add_argument("--last", type=_positive_int, default=20, help="log lines (default 20)")

    players = group("players", "register, import, check in, late arrivals, withdrawals")
    p = leaf(players, "add", cmd_players_add, "register one player")
    p.add_argument("name", help="given name first, e.g. 'Anna Nowak'")
    p.add_argument("--surname", help="when it is not the last word of the name ('de Lange')")
    p.add_argument("--club")
    p.add_argument("--rating", type=_rating, help="rating or league points (for seeding)")
    p.add_argument("--check-in", action="store_true")
    p = leaf(players, "import", cmd_players_import, "register every player of a CSV file")
    p.add_argument("file", type=Path)
    p.add_argument("--check-in", action="store_true")
    p.add_argument(
        "--encoding",
        help="the file's text encoding (default: detected), e.g. utf-8, cp1250, iso8859-2",
    )
    leaf(players, "list", cmd_players_list, "every registered player and their status")
    p = leaf(players, "check-in", cmd_players_check_in, "mark players present before the draw")
    p.add_argument("ids", nargs="*", metavar="ID")
    p.add_argument("--all", action="store_true", help="everyone registered")
    p = leaf(players, "late", cmd_players_late, "a player arrived after the first draw")
    p.add_argument("id", metavar="ID")
    p = leaf(players, "withdraw", cmd_players_withdraw, "a player leaves the event")
    p.add_argument("id", metavar="ID")
    p.add_argument("--reason", required=True)
    p = leaf(
        players,
        "seeds",
        cmd_players_seeds,
        "declare seeds kept at different first-stage tables (league), best first",
    )
    p.add_argument("ids", nargs="+", metavar="ID")
    p = leaf(
        players,
        "history",
        cmd_players_history,
        "one player's stages, games (as they count), sanctions and name changes",
    )
    p.add_argument("id", metavar="ID")
    p = leaf(
        players,
        "rename",
        cmd_players_rename,
        "correct a player's name, surname or club (recorded with who, when and why)",
    )
    p.add_argument("id", metavar="ID")
    p.add_argument(
        "name", nargs="?", help="the whole name, given name first (its last word the surname)"
    )
    p.add_argument("--given", help="the given name(s) only")
    p.add_argument(
        "--surname",
        help="the surname, when it is not the last word (e.g. 'de Lange', 'Maria Kowalska')",
    )
    p.add_argument("--club", help="the new club or school")
    p.add_argument("--no-club", action="store_true", help="remove the club")
    p.add_argument("--why", required=True, help="the reason, recorded with it")

    rounds = group("round", "draw, start, follow and close a round")
    p = leaf(rounds, "draw", cmd_round_draw, "seat the next round")
    p.add_argument("--seed", type=int, help="the draw's seed (default: random, recorded)")
    p = leaf(
        rounds,
        "consolation",
        cmd_round_consolation,
        "league TOP 20/32: seat 2 or 5 players left for consolation games (003 §10e)",
    )
    how = p.add_mutually_exclusive_group(required=True)
    how.add_argument(
        "--promote", type=_positive_int, metavar="N", help="the best N of them play on"
    )
    how.add_argument("--none", action="store_true", help="they play no more games")
    p.add_argument("--why", required=True, help="the reason, recorded")
    p = leaf(rounds, "start", cmd_round_start, "start the round (and its timer)")
    p.add_argument("--minutes", type=_minutes, help="this round's time (default: the event's)")
    p = leaf(
        rounds,
        "starter",
        cmd_round_starter,
        "the seat that starts a table's game (default: rotation, or the table's choice)",
    )
    p.add_argument("--table", type=_positive_int, required=True)
    p.add_argument("--seat", required=True, type=_seat, help="A, B, C or D")
    p.add_argument("--game", type=_positive_int, help="the game (default: the table's next)")
    p.add_argument("--why", default="", help="how it was chosen, e.g. 'highest tile'")
    p = leaf(
        rounds,
        "status",
        cmd_round_status,
        "progress of every table; with --broker also each table's live clock state",
    )
    live_options(p)
    p = leaf(
        rounds,
        "undo",
        cmd_round_undo,
        "take back the latest draw while no table has started it (then draw again)",
    )
    p.add_argument("--why", required=True, help="why the draw is taken back (recorded)")
    p = leaf(rounds, "close", cmd_round_close, "close the round when every result is in")
    p.add_argument("--force", action="store_true", help="close with games missing")
    p.add_argument("--why", help="why the missing games are not played (with --force)")

    results = group("result", "enter or correct a game's result, show its history")
    p = leaf(results, "enter", cmd_result_enter, "enter (or correct) a game's result")
    p.add_argument("--table", type=_positive_int, required=True)
    p.add_argument("--game", type=_positive_int, required=True)
    p.add_argument("--racks", help='e.g. "A=0 B=23 C=12j D=85np" (see rummikub --help)')
    p.add_argument("--ending", choices=sorted(ENDINGS))
    p.add_argument(
        "--why", help="reason for a correction or a late result (required for them)"
    )
    p.add_argument("--stage", help="any round drawn (default: the latest)")
    yes_option(p)
    leaf(
        results,
        "corrections",
        cmd_result_corrections,
        "every correction of the event (who, when, why) and every draw undone",
    )
    p = leaf(results, "history", cmd_result_history, "every version of a game's result")
    p.add_argument("--table", type=_positive_int, required=True)
    p.add_argument("--game", type=_positive_int, required=True)
    p.add_argument("--stage")

    sanction = group(
        "sanction", "a judge's sanctions (002 §3): warning, big points deducted, disqualification"
    )
    for name, func, help_text in (
        ("warn", cmd_sanction_warn, "record a warning (ostrzeżenie)"),
        ("deduct", cmd_sanction_deduct, "deduct big points (odjęcie dużych punktów)"),
        (
            "disqualify",
            cmd_sanction_disqualify,
            "disqualify (dyskwalifikacja): never seated again, ranked after everyone",
        ),
    ):
        p = leaf(sanction, name, func, help_text)
        p.add_argument("id", metavar="ID")
        if name == "deduct":
            p.add_argument("--big", type=_positive_int, required=True, help="big points")
        p.add_argument("--why", required=True, help="the reason, recorded with it")
        p.add_argument(
            "--stage", help="the stage it is given in (default: the latest the player plays in)"
        )
        yes_option(p)
    p = leaf(
        sanction,
        "lift",
        cmd_sanction_lift,
        "take back a sanction given by mistake (its number in sanction list)",
    )
    p.add_argument("number", type=_positive_int, metavar="N")
    p.add_argument("--why", required=True, help="the reason, recorded with it")
    yes_option(p)
    leaf(sanction, "list", cmd_sanction_list, "every sanction with who, when and why")

    p = leaf(groups, "standings", cmd_standings, "standings of a round, a table or overall")
    p.add_argument("--stage")
    p.add_argument("--table", type=_positive_int)
    p.add_argument("--overall", action="store_true", help="every game of the event so far")
    leaf(groups, "ranking", cmd_ranking, "final ranking with titles (and league points)")

    export = group("export", "CSV for spreadsheets, HTML and PDF to print")
    p = leaf(
        export,
        "csv",
        cmd_export_csv,
        "every stage's standings, results, corrections, seating, sanctions, players (ranking)",
    )
    p.add_argument("dir", type=Path)
    p.add_argument("--semicolon", action="store_true", help="';' delimiter (Polish Excel)")
    p = leaf(
        export,
        "archive",
        cmd_export_archive,
        "one zip file: every stage's standings, games, corrections, sanctions, seatings, "
        "as CSV and printable HTML/PDF (for the league's website)",
    )
    p.add_argument("file", type=Path, help="the .zip to write (a folder: EVENT-NAME.zip in it)")
    p.add_argument("--semicolon", action="store_true", help="';' in the CSV files")
    for name, func, what in (
        ("html", cmd_export_html, "seating, find-your-table, score sheets, standings, ranking"),
        ("pdf", cmd_export_pdf, "the same documents as export html, as A4 PDF files"),
    ):
        p = leaf(export, name, func, what)
        p.add_argument("dir", type=Path)
        p.add_argument("--stage", help="default: the latest round")

    tie = group(
        "tie", "ties at a cut: the head judge's decision, or a lot the judge orders (recorded)"
    )
    leaf(tie, "list", cmd_tie_list, "ties to decide now and every decision recorded")
    p = leaf(tie, "decide", cmd_tie_decide, "the head judge's order of level players")
    p.add_argument("ids", nargs="+", metavar="ID", help="the level players, best first")
    p.add_argument("--scope", help="the ranking (as rummikub tie list shows it)")
    p.add_argument("--why", help="the reason (required)")
    p.add_argument(
        "--shared", action="store_true", help="final places only: they keep the shared place"
    )
    p = leaf(tie, "lot", cmd_tie_lot, "a lot the head judge orders for level players")
    p.add_argument("ids", nargs="*", metavar="ID", help="default: the one tie to decide")
    p.add_argument("--scope", help="the ranking (as rummikub tie list shows it)")
    p.add_argument("--seed", type=int, help="the lot's seed (default: random, recorded)")
    p.add_argument("--why", help="an optional note")

    season = group("season", "league season across tournaments")
    p = leaf(season, "table", cmd_season_table, "season table over finished league events")
    p.add_argument("events", nargs="+", type=Path, metavar="EVENT.sqlite3")
    p = leaf(
        season, "export", cmd_season_export, "the season table as season.csv, .html and .pdf"
    )
    p.add_argument("dir", type=Path)
    p.add_argument("events", nargs="+", type=Path, metavar="EVENT.sqlite3")
    p.add_argument("--semicolon", action="store_true", help="';' delimiter (Polish Excel)")
    p = leaf(
        season,
        "seeds",
        cmd_season_seeds,
        "the season's top 4 among this event's players (matched by name)",
    )
    p.add_argument("events", nargs="+", type=Path, metavar="EVENT.sqlite3")
    p.add_argument("--declare", action="store_true", help="record them as this event's seeds")
    return parser
