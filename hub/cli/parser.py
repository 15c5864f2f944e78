"""The command line's grammar: every command, its options and their checks, in the
reader's language (argparse's own words too: :func:`speaking`)."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

from hub.cli.common import DEFAULT_DB, PROG, CliError
from hub.cli.event import (
    cmd_event_backup,
    cmd_event_create,
    cmd_event_erase,
    cmd_event_hall,
    cmd_event_language,
    cmd_event_privacy,
    cmd_event_show,
)
from hub.cli.hall import cmd_hall_cards
from hub.cli.judges import (
    cmd_call_list,
    cmd_call_resolve,
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
    cmd_players_minor,
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
from hub.competition import NameShown
from hub.config import config_help
from hub.organizer import minutes_of
from hub.players_csv import rating_of
from hub.tournament import PRESET_NAMES, TournamentError, preset_name
from tablekit.core.errors import KitError, quoted
from tablekit.core.gender import Gender, gender_of
from tablekit.core.racks import RACK_SYNTAX
from tablekit.core.words import N_
from tablekit.shared import i18n
from tablekit.shared.commandline import option_type, speaking, whole_number
from tablekit.shared.i18n import DEFAULT_LANGUAGE, LANGUAGES, Words, choose


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise CliError(N_("{prog}: {message} (see {prog} --help)"), prog=self.prog, message=message)


def _types(words: Words) -> dict[str, Callable[[str], object]]:
    """The options' value checks, refusing in ``words``' language."""
    _ = words.gettext

    def preset(text: str) -> str:
        try:
            return preset_name(text)
        except TournamentError as err:
            raise argparse.ArgumentTypeError(err.message(_)) from None

    def seat(text: str) -> str:
        seat = text.strip().upper()
        if seat not in ("A", "B", "C", "D"):
            raise argparse.ArgumentTypeError(
                _("a seat is A, B, C or D, got {text}").format(text=quoted(text).message(_))
            )
        return seat

    def minutes(text: str) -> float:
        try:
            return minutes_of(text)
        except KitError as err:
            raise argparse.ArgumentTypeError(err.message(_)) from None

    def rating(text: str) -> float | None:
        """--rating: what a players CSV accepts as a rating (a finite number; blank: none)."""
        try:
            return rating_of(text)
        except KitError as err:
            raise argparse.ArgumentTypeError(err.message(_)) from None
        except ValueError as err:
            raise argparse.ArgumentTypeError(str(err)) from None

    def gender(text: str) -> Gender:
        """--gender: K, M or N, as a players file writes it (a blank is not a gender)."""
        try:
            given = gender_of(text)
        except KitError as err:
            raise argparse.ArgumentTypeError(err.message(_)) from None
        if given is None:
            raise argparse.ArgumentTypeError(_("give F, M or N"))
        return given

    def lang(text: str) -> str:
        try:
            return choose(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                _("no language {text}: the kit speaks Polish (pl), English (en)").format(
                    text=quoted(text).message(_)
                )
            ) from None

    return {
        "positive_int": option_type(whole_number, words),
        "preset": preset,
        "seat": seat,
        "minutes": minutes,
        "rating": rating,
        "gender": gender,
        "lang": lang,
    }


def yes_option(p: argparse.ArgumentParser, words: Words) -> None:
    p.add_argument(
        "--yes",
        action="store_true",
        help=words.gettext(
            "record it without asking when it changes who qualified, a seating drawn, "
            "places, titles or league points (scripts); what it changes is still printed"
        ),
    )


def build_parser(words: Words | None = None) -> argparse.ArgumentParser:
    """The whole grammar, its help in ``words``' language (default: as
    :func:`tablekit.shared.i18n.choose` finds it in the environment); build it and parse
    inside :func:`speaking` for argparse's own words in that language too."""
    w = words if words is not None else i18n.words(choose(None, os.environ))
    with speaking(w):
        return _build(w)


def _build(w: Words) -> argparse.ArgumentParser:
    _ = w.gettext
    types = _types(w)
    positive_int = types["positive_int"]
    db_help = _(
        "the event file (default $RUMMIKUB_DB, the config file's db or ./{default})"
    ).format(default=DEFAULT_DB)
    by_help = _("who runs the command, recorded with it (default $USER)")
    lang_help = _(
        "the language of what it prints: pl or en (default: the event's language, else "
        "LANG's, else Polish)"
    )
    common = _Parser(add_help=False)
    common.add_argument("--db", type=Path, default=argparse.SUPPRESS, help=db_help)
    common.add_argument(
        "--config", type=Path, default=argparse.SUPPRESS, metavar="FILE", help=config_help(w)
    )
    common.add_argument("--by", default=argparse.SUPPRESS, help=by_help)
    speaks = _Parser(add_help=False)  # every command but event create, whose --lang is the hall's
    speaks.add_argument(
        "--lang", type=types["lang"], default=argparse.SUPPRESS, metavar="pl|en", help=lang_help
    )
    parser = _Parser(
        prog=PROG,
        description=_("Rummikub tournament organizer: the whole day."),
        epilog=_(RACK_SYNTAX),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    also = _("also after COMMAND")
    parser.add_argument("--db", type=Path, default=None, help=f"{db_help}; {also}")
    parser.add_argument(
        "--config", type=Path, default=None, metavar="FILE",
        help=_("{config}: the event file (db) and the live views' broker; also after "
               "COMMAND").format(config=config_help(w)),
    )
    parser.add_argument("--by", default=None, help=by_help)
    parser.add_argument(
        "--lang", type=types["lang"], default=None, metavar="pl|en", help=f"{lang_help}; {also}"
    )
    groups = parser.add_subparsers(
        dest="group", metavar=_("COMMAND"), parser_class=_Parser, title=_("commands")
    )
    groups.required = True

    def leaf(
        sub: argparse._SubParsersAction[_Parser],
        name: str,
        func: Callable[..., int],
        help_text: str,
        *,
        lang: bool = True,
    ) -> _Parser:
        parents = [common, speaks] if lang else [common]
        p = sub.add_parser(name, help=help_text, description=help_text, parents=parents)
        p.set_defaults(func=func)
        return p

    def group(name: str, help_text: str) -> argparse._SubParsersAction[_Parser]:
        p = groups.add_parser(name, help=help_text, description=help_text)
        sub = p.add_subparsers(
            dest="command", metavar=_("ACTION"), parser_class=_Parser, title=_("actions")
        )
        sub.required = True
        return sub

    why_recorded = _("the reason, recorded with it")
    admit_help = _(
        "admit players marked minor whose guardian's written consent is not recorded (the "
        "organizer's decision, recorded)"
    )

    event = group("event", _("create the event from a preset, show it"))
    p = leaf(event, "create", cmd_event_create, _("create the event from a preset"), lang=False)
    p.add_argument(
        "--preset", required=True, type=types["preset"], metavar="PRESET",
        help=_("one of {names}, or a rule book's number (000, 002, 003, 004)").format(
            names=", ".join(PRESET_NAMES)),
    )
    p.add_argument("--name", required=True, help=_("the event's name, as printed"))
    p.add_argument(
        "--semifinal", type=int, choices=(6, 8), default=8,
        help=_("championship: players in the semifinal (8, or 6)"),
    )
    p.add_argument(
        "--ruleset", help=_("one ruleset for every stage (built-in or custom name)")
    )
    p.add_argument("--rulesets", type=Path, help=_("TOML file with custom rulesets"))
    p.add_argument(
        "--round-minutes",
        type=types["minutes"],
        help=_("round time; when it runs out the tables play the last lap"),
    )
    p.add_argument(
        "--lang", dest="event_lang", default=DEFAULT_LANGUAGE, type=types["lang"],
        metavar="pl|en",
        help=_("the language of the whole hall: the tables, the hub screen, the printouts, "
               "and what the commands print ({languages}; default {default}, as the rule "
               "books); rummikub --lang before the command is only this command's "
               "own").format(languages=", ".join(LANGUAGES), default=DEFAULT_LANGUAGE),
    )
    p.add_argument(
        "--privacy", choices=tuple(NameShown), default=None,
        help=_("how public pages, the hub screen and exports for publication name players: "
               "full (players marked minor as given name and initial; the default) or "
               "initial (everyone as given name and initial)"),
    )
    leaf(event, "show", cmd_event_show, _("the event: preset, stages, phase, players"))
    p = leaf(
        event,
        "privacy",
        cmd_event_privacy,
        _("how public pages, the hub screen and exports for publication name players: show "
          "it, or change it"),
    )
    p.add_argument(
        "names", nargs="?", choices=tuple(NameShown), metavar="full|initial",
        help=_("full: full names, players marked minor as given name and initial; initial: "
               "everyone as given name and initial; left out: show the setting"),
    )
    p.add_argument("--why", help=_("why it changes, recorded with it"))
    p = leaf(
        event,
        "erase",
        cmd_event_erase,
        _("after the event: replace every player's name and club by their id in the event "
          "file, keeping results and standings (cannot be undone)"),
    )
    p.add_argument(
        "--confirm", required=True, metavar="NAME",
        help=_("the event's name, typed to confirm"),
    )
    p = leaf(
        event,
        "language",
        cmd_event_language,
        _("the language of the whole hall (tables, hub screen, printouts): show it, or change "
          "it mid-event"),
    )
    p.add_argument(
        "language", nargs="?", type=types["lang"], metavar="pl|en",
        help=_("the new language ({languages}); left out: show the one in use").format(
            languages=", ".join(LANGUAGES)),
    )
    p.add_argument("--why", help=_("why it changes, recorded with it"))
    leaf(
        event,
        "backup",
        cmd_event_backup,
        _("the hub's copy of this event file (rummikub-hub serve --backup): when it was last "
          "made, whether copying fails"),
    )
    p = leaf(
        event,
        "hall",
        cmd_event_hall,
        _("the hall check: which tables are checked and ready (with --broker: online)"),
    )
    live_options(p, w)
    p = leaf(
        event,
        "refusals",
        cmd_event_refusals,
        _("what the hub refused from the tables: events set aside (conflicts), counts, the log"),
    )
    p.add_argument("--table", type=positive_int, help=_("only this table"))
    p.add_argument(
        "--last", type=positive_int, default=20, help=_("log lines (default 20)")
    )

    hall = group("hall", _("the hall's Raspberry Pis: their SD cards"))
    p = leaf(
        hall, "cards", cmd_hall_cards,
        _("write the SD card files of the hub and of every table (Raspberry Pi OS Lite "
          "64-bit): the Pi's name, the Wi-Fi, the broker's accounts, the kit from the hub"),
    )
    p.add_argument("--tables", type=positive_int, required=True, help=_("how many tables"))
    p.add_argument(
        "--out", type=Path, required=True,
        help=_("the folder to write them in: cards/ (one folder a card) and bundle/ (every "
               "secret; the same folder again keeps them)"),
    )
    p.add_argument("--wifi", required=True, metavar="SSID", help=_("the venue's Wi-Fi name"))
    p.add_argument(
        "--wifi-country", default="PL", metavar=_("COUNTRY"),
        help=_("the Wi-Fi's country, two letters (default PL)"),
    )
    p.add_argument(
        "--ssh-key", type=Path, metavar=_("FILE"),
        help=_("a public key file (id_ed25519.pub) that may log in over SSH; left out: no "
               "SSH at all"),
    )
    p.add_argument(
        "--user", default="rummikub", help=_("the Pi's user for SSH (default rummikub)")
    )
    p.add_argument(
        "--wheelhouse", type=Path, default=Path("wheelhouse"), metavar=_("FOLDER"),
        help=_("the kit and its packages for the Pis (./kit wheelhouse makes it; default "
               "./wheelhouse): the hub serves it to the tables"),
    )
    p.add_argument("--venue", default="hall", help=_("the venue's topic level (default hall)"))
    p.add_argument(
        "--event", default="event",
        help=_("the event the hub serves first (default event; later ones: the hub's "
               "config file)"),
    )
    p.add_argument(
        "--host", default="hub.local", help=_("the hub as the tables reach it (default hub.local)")
    )

    players = group("players", _("register, import, check in, late arrivals, withdrawals"))
    p = leaf(players, "add", cmd_players_add, _("register one player"))
    p.add_argument("name", help=_("given name first, e.g. 'Anna Nowak'"))
    p.add_argument(
        "--surname", help=_("when it is not the last word of the name ('de Lange')")
    )
    p.add_argument("--club", help=_("the player's club or school"))
    p.add_argument(
        "--rating", type=types["rating"], help=_("rating or league points (for seeding)")
    )
    league_number_help = _("the number the league gives the player: the same person in "
                           "every tournament of the season")
    p.add_argument("--league-number", default="", metavar=_("NUMBER"), help=league_number_help)
    gender_help = _(
        "F (female), M (male) or N (words without gender): the titles and the words about "
        "the player agree with it (default: proposed from the given name)"
    )
    gender_metavar = _("F|M|N")
    p.add_argument("--gender", type=types["gender"], metavar=gender_metavar, help=gender_help)
    p.add_argument("--check-in", action="store_true", help=_("check the player in at once"))
    p = leaf(players, "import", cmd_players_import, _("register every player of a CSV file"))
    p.add_argument("file", type=Path, help=_("the players' CSV file"))
    p.add_argument("--check-in", action="store_true", help=_("check them all in at once"))
    p.add_argument(
        "--encoding",
        help=_("the file's text encoding (default: detected), e.g. utf-8, cp1250, iso8859-2"),
    )
    leaf(players, "list", cmd_players_list, _("every registered player and their status"))
    p = leaf(
        players, "check-in", cmd_players_check_in, _("mark players present before the draw")
    )
    p.add_argument("ids", nargs="*", metavar="ID")
    p.add_argument("--all", action="store_true", help=_("everyone registered"))
    p.add_argument("--admit-minors", action="store_true", help=admit_help)
    p = leaf(players, "late", cmd_players_late, _("a player arrived after the first draw"))
    p.add_argument("id", metavar="ID")
    p.add_argument("--admit-minors", action="store_true", help=admit_help)
    p = leaf(
        players,
        "minor",
        cmd_players_minor,
        _("record players as minors (003 §8: they play with a guardian's written consent), "
          "the consent received, or that they are of age"),
    )
    p.add_argument("ids", nargs="+", metavar="ID")
    p.add_argument(
        "--consent", action="store_true", help=_("a guardian's written consent is received")
    )
    p.add_argument("--adult", action="store_true", help=_("the players are of age"))
    p.add_argument("--why", help=why_recorded)
    p = leaf(players, "withdraw", cmd_players_withdraw, _("a player leaves the event"))
    p.add_argument("id", metavar="ID")
    p.add_argument("--reason", required=True, help=why_recorded)
    p = leaf(
        players,
        "seeds",
        cmd_players_seeds,
        _("declare seeds kept at different first-stage tables (league), best first"),
    )
    p.add_argument("ids", nargs="+", metavar="ID")
    p = leaf(
        players,
        "history",
        cmd_players_history,
        _("one player's stages, games (as they count), sanctions and name changes"),
    )
    p.add_argument("id", metavar="ID")
    p = leaf(
        players,
        "rename",
        cmd_players_rename,
        _("correct a player's name, surname, club, league number or gender (recorded with "
          "who, when and why)"),
    )
    p.add_argument("id", metavar="ID")
    p.add_argument(
        "name", nargs="?", help=_("the whole name, given name first (its last word the surname)")
    )
    p.add_argument("--given", help=_("the given name(s) only"))
    p.add_argument(
        "--surname",
        help=_("the surname, when it is not the last word (e.g. 'de Lange', 'Maria Kowalska')"),
    )
    p.add_argument("--club", help=_("the new club or school"))
    p.add_argument("--no-club", action="store_true", help=_("remove the club"))
    p.add_argument("--league-number", metavar=_("NUMBER"),
                   help=_("the league number from now on ('' takes it away)"))
    p.add_argument("--gender", type=types["gender"], metavar=gender_metavar, help=gender_help)
    p.add_argument("--why", required=True, help=why_recorded)

    rounds = group("round", _("draw, start, follow and close a round"))
    p = leaf(rounds, "draw", cmd_round_draw, _("seat the next round"))
    p.add_argument("--seed", type=int, help=_("the draw's seed (default: random, recorded)"))
    p.add_argument("--admit-minors", action="store_true", help=admit_help)
    p = leaf(
        rounds,
        "consolation",
        cmd_round_consolation,
        _("league TOP 20/32: seat 2 or 5 players left for consolation games (003 §10e)"),
    )
    how = p.add_mutually_exclusive_group(required=True)
    how.add_argument(
        "--promote", type=positive_int, metavar="N", help=_("the best N of them play on")
    )
    how.add_argument("--none", action="store_true", help=_("they play no more games"))
    p.add_argument("--why", required=True, help=why_recorded)
    p = leaf(rounds, "start", cmd_round_start, _("start the round (and its timer)"))
    p.add_argument(
        "--minutes", type=types["minutes"], help=_("this round's time (default: the event's)")
    )
    p = leaf(
        rounds,
        "starter",
        cmd_round_starter,
        _("the seat that starts a table's game (default: rotation, or the table's choice)"),
    )
    p.add_argument("--table", type=positive_int, required=True, help=_("the table"))
    p.add_argument("--seat", required=True, type=types["seat"], help=_("A, B, C or D"))
    p.add_argument("--game", type=positive_int, help=_("the game (default: the table's next)"))
    p.add_argument("--why", default="", help=_("how it was chosen, e.g. 'highest tile'"))
    p = leaf(
        rounds,
        "status",
        cmd_round_status,
        _("progress of every table; with --broker also each table's live clock state"),
    )
    live_options(p, w)
    p = leaf(
        rounds,
        "undo",
        cmd_round_undo,
        _("take back the latest draw while no table has started it (then draw again)"),
    )
    p.add_argument("--why", required=True, help=_("why the draw is taken back (recorded)"))
    p = leaf(rounds, "close", cmd_round_close, _("close the round when every result is in"))
    p.add_argument("--force", action="store_true", help=_("close with games missing"))
    p.add_argument("--why", help=_("why the missing games are not played (with --force)"))

    results = group("result", _("enter or correct a game's result, show its history"))
    p = leaf(results, "enter", cmd_result_enter, _("enter (or correct) a game's result"))
    p.add_argument("--table", type=positive_int, required=True, help=_("the table"))
    p.add_argument("--game", type=positive_int, required=True, help=_("the game at that table"))
    p.add_argument(
        "--racks", help=_('e.g. "A=0 B=23 C=12j D=85np" (see rummikub --help)')
    )
    p.add_argument(
        "--ending", choices=sorted(ENDINGS),
        help=_("how the game ended (default: went-out when a rack is 0, else nobody-out)"),
    )
    p.add_argument(
        "--why", help=_("reason for a correction or a late result (required for them)")
    )
    p.add_argument("--stage", help=_("any round drawn (default: the latest)"))
    p.add_argument(
        "--force", action="store_true",
        help=_("enter a game the table has not ended, on purpose (with --why)"),
    )
    yes_option(p, w)
    leaf(
        results,
        "corrections",
        cmd_result_corrections,
        _("every correction of the event (who, when, why) and every draw undone"),
    )
    p = leaf(results, "history", cmd_result_history, _("every version of a game's result"))
    p.add_argument("--table", type=positive_int, required=True, help=_("the table"))
    p.add_argument("--game", type=positive_int, required=True, help=_("the game at that table"))
    p.add_argument("--stage", help=_("any round drawn (default: the latest)"))

    sanction = group(
        "sanction",
        _("a judge's sanctions (002 §3): warning, big points deducted, disqualification"),
    )
    for name, func, help_text in (
        ("warn", cmd_sanction_warn, _("record a warning")),
        ("deduct", cmd_sanction_deduct, _("deduct big points")),
        (
            "disqualify",
            cmd_sanction_disqualify,
            _("disqualify: never seated again, ranked after everyone"),
        ),
    ):
        p = leaf(sanction, name, func, help_text)
        p.add_argument("id", metavar="ID")
        if name == "deduct":
            p.add_argument("--big", type=positive_int, required=True, help=_("big points"))
        p.add_argument("--why", required=True, help=why_recorded)
        p.add_argument(
            "--stage",
            help=_("the stage it is given in (default: the latest the player plays in)"),
        )
        yes_option(p, w)
    p = leaf(
        sanction,
        "lift",
        cmd_sanction_lift,
        _("take back a sanction given by mistake (its number in sanction list)"),
    )
    p.add_argument("number", type=positive_int, metavar="N")
    p.add_argument("--why", required=True, help=why_recorded)
    yes_option(p, w)
    leaf(sanction, "list", cmd_sanction_list, _("every sanction with who, when and why"))

    call = group(
        "call",
        _("judge calls: what the judge decided at a table (the judge key resumes the clock)"),
    )
    p = leaf(
        call, "resolve", cmd_call_resolve,
        _("record what the judge decided at a table that called (recorded with who and when)"),
    )
    p.add_argument("--table", type=positive_int, required=True, help=_("the table"))
    p.add_argument("--note", required=True, help=_("what the judge decided"))
    p.add_argument("--game", type=positive_int, help=_("the game being played"))
    p.add_argument("--stage", help=_("any round drawn (default: the latest)"))
    p = leaf(call, "list", cmd_call_list, _("every judge call resolved, or one table's"))
    p.add_argument("--table", type=positive_int, help=_("only this table"))
    p.add_argument("--stage", help=_("with --table: its round (default: the latest)"))

    p = leaf(
        groups, "standings", cmd_standings, _("standings of a round, a table or overall")
    )
    p.add_argument("--stage", help=_("any round drawn (default: the latest)"))
    p.add_argument("--table", type=positive_int, help=_("only this table"))
    p.add_argument(
        "--overall", action="store_true", help=_("every game of the event so far")
    )
    leaf(groups, "ranking", cmd_ranking, _("final ranking with titles (and league points)"))

    semicolon = _("';' between fields in English too (Polish files always have it)")
    public_help = _("for publication: players named as the event's privacy setting says "
                    "(rummikub event privacy)")
    export = group("export", _("CSV for spreadsheets, HTML and PDF to print"))
    p = leaf(
        export,
        "csv",
        cmd_export_csv,
        _("every stage's standings, results, corrections, seating, sanctions, players "
          "(ranking)"),
    )
    p.add_argument("dir", type=Path, help=_("the folder to write the files in"))
    p.add_argument("--semicolon", action="store_true", help=semicolon)
    p.add_argument("--public", action="store_true", help=public_help)
    p = leaf(
        export,
        "archive",
        cmd_export_archive,
        _("one zip file: every stage's standings, games, corrections, sanctions, seatings, "
          "as CSV and printable HTML/PDF (for the league's website)"),
    )
    p.add_argument(
        "file", type=Path, help=_("the .zip to write (a folder: EVENT-NAME.zip in it)")
    )
    p.add_argument("--semicolon", action="store_true", help=_("';' in the CSV files"))
    p.add_argument("--public", action="store_true", help=public_help)
    for name, func, what in (
        (
            "html",
            cmd_export_html,
            _("seating, find-your-table, score sheets, standings, ranking"),
        ),
        ("pdf", cmd_export_pdf, _("the same documents as export html, as A4 PDF files")),
    ):
        p = leaf(export, name, func, what)
        p.add_argument("dir", type=Path, help=_("the folder to write the files in"))
        p.add_argument("--stage", help=_("default: the latest round"))
        p.add_argument("--public", action="store_true", help=public_help)

    tie = group(
        "tie",
        _("ties at a cut: the head judge's decision, or a lot the judge orders (recorded)"),
    )
    scope_help = _("the ranking (as rummikub tie list shows it)")
    leaf(tie, "list", cmd_tie_list, _("ties to decide now and every decision recorded"))
    p = leaf(tie, "decide", cmd_tie_decide, _("the head judge's order of level players"))
    p.add_argument("ids", nargs="+", metavar="ID", help=_("the level players, best first"))
    p.add_argument("--scope", help=scope_help)
    p.add_argument("--why", help=_("the reason (required)"))
    p.add_argument(
        "--shared",
        action="store_true",
        help=_("final places only: they keep the shared place"),
    )
    p = leaf(tie, "lot", cmd_tie_lot, _("a lot the head judge orders for level players"))
    p.add_argument("ids", nargs="*", metavar="ID", help=_("default: the one tie to decide"))
    p.add_argument("--scope", help=scope_help)
    p.add_argument("--seed", type=int, help=_("the lot's seed (default: random, recorded)"))
    p.add_argument("--why", help=_("an optional note"))

    season = group("season", _("league season across tournaments"))
    events_help = _("the league events' files")

    def identities(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--identities", type=Path, metavar="FILE",
            help=_("the league's answers on who is who (the central league service "
                   "exports it); --same-names adds to it"),
        )
        p.add_argument(
            "--same-names", action="store_true",
            help=_("answer every open question listed (a player with the name of an "
                   "earlier tournament's player): the same person"),
        )

    p = leaf(
        season, "table", cmd_season_table, _("season table over finished league events")
    )
    p.add_argument("events", nargs="+", type=Path, metavar="EVENT.sqlite3", help=events_help)
    identities(p)
    p = leaf(
        season, "export", cmd_season_export,
        _("the season table for publication as season.csv, .html and .pdf (players "
          "marked minor as given name and initial, without their club)"),
    )
    p.add_argument("dir", type=Path, help=_("the folder to write the files in"))
    p.add_argument("events", nargs="+", type=Path, metavar="EVENT.sqlite3", help=events_help)
    p.add_argument("--semicolon", action="store_true", help=semicolon)
    p.add_argument(
        "--internal", action="store_true",
        help=_("instead, the organizer's internal list, not for publication: full names "
               "and clubs of every player, minors too (season-internal.csv, .html, .pdf)"),
    )
    identities(p)
    p = leaf(
        season,
        "seeds",
        cmd_season_seeds,
        _("the season's top 4 among this event's players (by league number, else name)"),
    )
    p.add_argument("events", nargs="*", type=Path, metavar="EVENT.sqlite3", help=events_help)
    identities(p)
    p.add_argument(
        "--league", action="store_true",
        help=_("the season table the central league service sent to this venue's broker"),
    )
    live_options(p, w)
    p.add_argument(
        "--declare", action="store_true", help=_("record them as this event's seeds")
    )
    return parser
