"""Every word a swept module shows a person goes through the catalogs.

An AST check over the modules whose words are in the catalogs (so far the demo, the
pattern the sweep of issue 12 follows module by module): a string literal with a word in
it that reaches a person — printed, raised in an error, or written into the command
line's help — must be inside a catalog lookup (``_``, ``gettext``, ``ngettext``,
``pgettext``, ``N_``). What is no word (a separator, a format, a program's or product's
name) is allowed explicitly below, module by module, with its reason. The check sees the
literals written where they are shown; a word kept in a variable first escapes it, so
the swept modules translate where they build their lines.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LOOKUPS = {"_", "gettext", "ngettext", "pgettext", "npgettext", "N_", "N_plural"}
"""The catalog's lookups and the core's markers: their literal arguments are extracted."""
WORD = re.compile(r"[^\W\d_]{2,}")
"""Two letters in a row: a word (not a format such as %H:%M or a seat letter)."""
SHOWN = {
    "hub/demo/__init__.py": {"rummikub-demo: ": "the program's name, before its error"},
    "hub/demo/event.py": {
        "demo: ": "the program's name, before a line from a module not swept yet",
    },
    "hub/demo/options.py": {},
    "hub/demo/report.py": {},
    "hub/demo/rehearsal.py": {
        "rummikub-rehearsal: ": "the program's name, before its error",
    },
    "hub/local_venue.py": {},
    "hub/demo/run.py": {"Mosquitto": "the broker's product name"},
    "hub/demo/views.py": {},
    "hub/web/accounts.py": {},
    "hub/web/app.py": {},
    "hub/web/auth.py": {
        "the console's application (hub.web.app.make_app) sets its pages": "a programmer's "
        "error (an application not made by make_app), never a visitor's",
    },
    "hub/web/sessions.py": {},
    "hub/web/pages.py": {},
    "hub/web/public.py": {},
    "hub/web/live.py": {},
    "hub/web/views.py": {},
    "hub/web/player.py": {},
    "hub/web/player_views.py": {},
    "hub/web/players.py": {},
    "hub/time_use.py": {},
    "hub/web/judge.py": {},
    "hub/web/judge_views.py": {},
    "hub/web/organizer.py": {},
    "hub/web/rounds.py": {},
    "hub/web/rounds_exports.py": {},
    "hub/web/rounds_view.py": {},
    "hub/web/judge_decisions.py": {},
    "hub/web/rounds_season.py": {},
    "hub/web/serve.py": {},
    "hub/league/__init__.py": {},
    "hub/league/bridge.py": {},
    "hub/league/central.py": {},
    "hub/league/cli.py": {},
    "hub/league/identity.py": {},
    "hub/league/pages.py": {},
    "hub/league/rating.py": {},
    "hub/league/season.py": {},
    "hub/league/service.py": {},
    "hub/league/site.py": {},
    "hub/league/store.py": {},
    "hub/league/views.py": {},
    "hub/league/web.py": {},
    "hub/league/wire.py": {},
    "hub/uplink.py": {},
    "hub/tournament/cuts.py": {},
    "hub/tournament/errors.py": {},
    "hub/tournament/facts.py": {},
    "hub/tournament/ranking.py": {},
    "hub/tournament/standings.py": {},
    "hub/tournament/draw.py": {},
    "hub/tournament/formats.py": {},
    "hub/tournament/league.py": {},
    "hub/tournament/players.py": {},
    "hub/tournament/presets.py": {},
    "hub/tournament/progress.py": {},
    "hub/tournament/seating.py": {},
    "hub/tournament/state.py": {},
    "hub/tournament/state_draws.py": {},
    "hub/tournament/state_rankings.py": {},
    "tablekit/config.py": {},
    "tablekit/journal.py": {},
    "tablekit/shared/broker.py": {},
    "tablekit/shared/i18n.py": {},
    "tablekit/shared/tomlfile.py": {},
    "tablekit/shared/programs.py": {},
    "tablekit/core/clock.py": {},
    "tablekit/core/clock_events.py": {},
    "tablekit/core/errors.py": {},
    "tablekit/core/fields.py": {
        "wall-clock Unix seconds": "a JSON schema's description of a field, for programs",
        "seconds": "a JSON schema's description of a field, for programs",
    },
    "tablekit/core/result.py": {},
    "tablekit/core/codec.py": {},
    "tablekit/core/hallcheck.py": {},
    "tablekit/core/messages.py": {},
    "tablekit/core/names.py": {},
    "tablekit/core/racks.py": {},
    "tablekit/core/rulesets.py": {
        "title": "a ruleset's key, named in its error as written in the file",
        "move_seconds": "a ruleset's key, named in its error as written in the file",
        "big_points": "a ruleset's key, named in its error as written in the file",
    },
    "tablekit/core/scoring.py": {},
    "tablekit/core/seats.py": {},
    "tablekit/core/status.py": {},
    "tablekit/core/topics.py": {},
    "tablekit/core/words.py": {},
    "hub/hall.py": {},
    "hub/screen/__init__.py": {
        "rummikub-screen: ": "the program's name, before its error",
        "rummikub-screen --demo 24 --png artifacts/hub-screen": "a command, as it is typed",
    },
    "hub/screen/canvas.py": {},
    "hub/screen/feed.py": {},
    "hub/screen/header.py": {"Rummikub": "the game's name, the title of an event without one"},
    "hub/screen/lists.py": {},
    "hub/screen/render.py": {},
    "hub/screen/sidebar.py": {},
    "hub/screen/wall.py": {},
    "hub/cli/__init__.py": {},
    "hub/cli/common.py": {},
    "hub/cli/event.py": {},
    "hub/cli/judges.py": {},
    "hub/cli/live.py": {},
    "hub/cli/parser.py": {},
    "hub/cli/players.py": {},
    "hub/cli/racks.py": {},
    "hub/cli/refusals.py": {
        "utf-8": "an encoding's name, not a word",
        "replace": "how bytes that are not UTF-8 are decoded",
    },
    "hub/cli/reports.py": {
        "utf-8": "an encoding's name",
        "utf-8-sig": "an encoding's name",
        ".html": "a file name's suffix",
    },
    "hub/cli/results.py": {},
    "hub/cli/rounds.py": {},
    "hub/cli/status.py": {},
    "hub/config.py": {},
    "hub/hall_board.py": {},
    "hub/archive.py": {},
    "hub/season.py": {},
    "hub/printing.py": {},
    "hub/exports/__init__.py": {},
    "hub/exports/files.py": {},
    "hub/exports/grid.py": {},
    "hub/exports/lists.py": {},
    "hub/exports/notes.py": {},
    "hub/exports/pages.py": {},
    "hub/exports/printouts.py": {},
    "hub/exports/results.py": {},
    "hub/exports/standings.py": {},
    "hub/exports/words.py": {},
    "hub/backup.py": {},
    "hub/broker.py": {
        "prefer: auto, mosquitto or amqtt, got ": "a programmer's mistake (the callers pass "
        "one of the three), never a person's",
    },
    "hub/competition.py": {},
    "hub/erasure.py": {},
    "hub/judging.py": {},
    "hub/organizer.py": {},
    "hub/players_csv.py": {},
    "hub/privacy.py": {},
    "hub/players_report.py": {},
    "hub/serve.py": {},
    "hub/store_schema.py": {},
    "hub/credentials.py": {"accounts.tsv": "a file's name"},
    "hub/certificates.py": {},
    "tablekit/shared/commandline.py": {},
    "tablekit/app.py": {
        "tablekit-sim: ": "the program's name, before its line",
        "tablekit: ": "the program's name, before its error",
        "tablekit: --lang: ": "the program's name and the option, before its error",
        "tablekit-unit: ": "the program's name, before its error",
        "tablekit-sim": "a command, as it is typed",
    },
    "tablekit/printer.py": {},
    "tablekit/signals.py": {},
    "tablekit/simulator.py": {},
}
"""The swept modules, each with the literals it may show as they are (and why)."""
TABLE_DISPLAY = {
    "tablekit/display.py": {"tablekit.display: ": "the program's name, before its error"},
    "tablekit/layout/check.py": {},
    "tablekit/layout/compose.py": {},
    "tablekit/layout/entry.py": {},
    "tablekit/layout/play.py": {},
    "tablekit/layout/text.py": {},
    "tablekit/controls.py": {},
    "tablekit/result_entry.py": {},
    "tablekit/unit.py": {},
    "tablekit/notes.py": {},
}
"""The table display's modules, whose words are drawn on the screen: what reaches the
renderer (a :class:`~tablekit.layout.scene.Text`, lines to wrap, keycaps' labels, a name's
phrase, what a function returns to be drawn) must come from the catalogs too."""
DRAWING = {"Text", "wrap", "key_hints", "said_with_name", "seat_panel", "footer_panel"}
"""The calls whose arguments are drawn as they are."""
NOTED = {"Note", "of"}
"""A note the unit's parts leave for the display (:class:`tablekit.notes.Note`): its
template is drawn, translated (it must be marked)."""
LINES = (ast.Constant, ast.JoinedStr, ast.IfExp, ast.BoolOp, ast.BinOp)
"""What a function returns as a line to draw (not a panel it builds)."""
HELP_KEYWORDS = {"help", "description", "epilog"}
PLACEHOLDER = re.compile(r"\{\w*(![rsa])?(:[^}]*)?\}")
"""A ``{field}`` of a template: a value, not a word."""
RAISING_CHECKS = {"_check"}
"""Helpers that raise their message when their first argument is false:
``_check(ok, N_("port: must be 1 to 65535, got {got}"), got=port)``."""
DRAWN = {"text": 1, "render": 0, "set_caption": 0}
"""Calls that put text on a screen, and which positional argument is the text: the hub
screen's ``Canvas.text(region, text, …)``, pygame's ``font.render(text, …)`` and the
window's caption."""
STYLE = {"bold", "cond", "left", "center", "right"}
"""No words: the font kinds and alignments given to :data:`DRAWN`'s calls."""


def name_of(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def words_in(node: ast.AST) -> list[tuple[int, str]]:
    """Literals with a word in ``node``, outside the catalog's lookups."""
    found: list[tuple[int, str]] = []

    def visit(n: ast.AST) -> None:
        if isinstance(n, ast.Call) and name_of(n.func) in LOOKUPS:
            return
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and WORD.search(n.value):
            found.append((n.lineno, n.value))
            return
        for child in ast.iter_child_nodes(n):
            visit(child)

    visit(node)
    return found


SHOWING = {"print", "input", "Grid", "esc", "escape", "exit", "SystemExit"}
"""Calls whose arguments a person reads: printed (``print``, the command line's
``ctx.print``), asked (``input``'s prompt), a table's title, headers and note
(``Grid``, drawn by the command line and the exports), or text put in a printout's HTML
(``esc``, ``html.escape``), or said as a program ends (``sys.exit(text)``,
``SystemExit(text)``, ``parser.exit(status, text)``)."""
SHOWING_ARGS = {"document": {0}, "grids_html": {1, 4}}
"""Calls of which some arguments are read: a printout's title (``document``), a
document's title and what it says when empty (``grids_html``); the others are markup."""
SHOWING_KEYWORDS = {"document": {"title"}, "grids_html": {"title", "empty"}}


def shown_literals(tree: ast.AST) -> list[tuple[int, str]]:
    """Literals with a word that reach a person: printed, asked, put in a table, raised
    (or put in an error made to be raised later), or the command line's help."""
    found = []
    raised = {n.exc for n in ast.walk(tree) if isinstance(n, ast.Raise)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and name_of(node.func) in SHOWING:
            found += [w for arg in node.args for w in words_in(arg)]
            found += [w for keyword in node.keywords for w in words_in(keyword.value)]
        elif isinstance(node, ast.Call) and name_of(node.func) in SHOWING_ARGS:
            read = SHOWING_ARGS[name_of(node.func)]
            found += [w for i, arg in enumerate(node.args) if i in read for w in words_in(arg)]
            found += [
                w
                for keyword in node.keywords
                if keyword.arg in SHOWING_KEYWORDS[name_of(node.func)]
                for w in words_in(keyword.value)
            ]
        elif isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            found += [w for arg in node.exc.args for w in words_in(arg)]
        elif isinstance(node, ast.Call) and name_of(node.func) == "Phrase" and node.args:
            # words an error names among its values: a template of placeholders alone
            # ("{path}.{error}") is no word
            found += [
                (line, text) for line, text in words_in(node.args[0])
                if WORD.search(PLACEHOLDER.sub("", text))
            ]
        elif isinstance(node, ast.Call) and name_of(node.func) in RAISING_CHECKS:
            found += [w for arg in node.args[1:] for w in words_in(arg)]
        elif (
            isinstance(node, ast.Call) and name_of(node.func).endswith("Error")
            and node not in raised
        ):
            # an error made to be raised later, or returned for its caller to raise
            found += [w for arg in node.args for w in words_in(arg)]
        elif isinstance(node, ast.Call):
            for keyword in node.keywords:
                if keyword.arg in HELP_KEYWORDS:
                    found += words_in(keyword.value)
            if name_of(node.func) == "add_argument_group":
                found += [w for arg in node.args for w in words_in(arg)]
            at = DRAWN.get(name_of(node.func))
            if at is not None and len(node.args) > at:
                found += [w for w in words_in(node.args[at]) if w[1] not in STYLE]
    return found


def drawn_literals(tree: ast.AST) -> list[tuple[int, str]]:
    """Literals with a word that reach the table display's renderer: given to a drawing
    call, or returned (a function that gives a line to draw)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and name_of(node.func) in NOTED and node.args:
            found += words_in(node.args[0])
        elif isinstance(node, ast.Call) and name_of(node.func) in DRAWING:
            found += [w for arg in node.args for w in words_in(arg)]
            found += [w for keyword in node.keywords for w in words_in(keyword.value)]
        elif isinstance(node, ast.Return) and isinstance(node.value, LINES):
            found += words_in(node.value)
    return found


@pytest.mark.parametrize("module", sorted(SHOWN | TABLE_DISPLAY))
def test_every_word_shown_goes_through_the_catalogs(module: str) -> None:
    tree = ast.parse((ROOT / module).read_text(encoding="utf-8"))
    allowed = {**SHOWN.get(module, {}), **TABLE_DISPLAY.get(module, {})}
    table_display = drawn_literals(tree) if module in TABLE_DISPLAY else []
    shown = shown_literals(tree) + table_display
    unmarked = [(line, text) for line, text in shown if text not in allowed]
    assert unmarked == [], f"{module}: words shown without the catalogs (line, text)"
    assert set(allowed) <= {text for _, text in shown}, "an allowance no longer needed"


def test_the_check_finds_an_unmarked_word() -> None:
    source = '''
import argparse
p = argparse.ArgumentParser(description=_("marked"))
p.add_argument("--x", help="not marked")
print(_("ok {n}").format(n=1), f"table {n}")
print(words.ngettext("{n} game", "{n} games", n).format(n=n), ", ", "%H:%M")
raise ValueError(f"bad {x}")
problem = KitError("kept for later")
_check(port > 0, "port: must be above 0")
said = Phrase("{path}.{error}", path=p, error=e), Phrase("check-in of {player}", player=p)
raise ScoreError(N_("seat {seat}: {problem}"), seat="A", problem=problem)
canvas.text(region, "JUDGE", "bold", size, colour, box, "center")
canvas.text(region, _("JUDGE · {n}").format(n=n), "cond", size, colour, box)
font.render(f"TO {n}", True, colour)
input("Record it? ")
Grid(_("Stages"), ("#", "Stage"), rows, note="plain")
document("Seating", f"<p class='x'>{esc('Table')}</p>", words)
grids_html(comp, words.gettext("games"), grids, words, "Nothing here.")
sys.exit("tablekit: no display")
raise SystemExit(_("marked"))
parser.exit(2, "bad port")
'''
    found = sorted(text for _, text in shown_literals(ast.parse(source)))
    assert found == [
        "JUDGE", "Nothing here.", "Record it? ", "Seating", "Stage", "TO ", "Table", "bad ",
        "bad port", "check-in of {player}", "kept for later",
        "not marked", "plain", "port: must be above 0", "table ", "tablekit: no display",
    ]



EXIT_ALLOWED = {
    "tablekit: ": "the program's name, before its error",
    "tablekit: --lang: ": "the program's name and the option, before its error",
    "tablekit-unit: ": "the program's name, before its error",
    "tablekit-sim": "a command, as it is typed",
    "GPIOZERO_PIN_FACTORY=mock": "an environment setting, as it is typed",
}
"""What a program may say as it ends without the catalogs (not a word)."""


def test_no_program_ends_with_an_unmarked_word() -> None:
    """``sys.exit(text)`` and ``SystemExit(text)`` print ``text`` to the person who ran the
    program: in every module of the kit (not only the swept ones), it comes from the
    catalogs."""
    found = []
    for path in sorted([*ROOT.glob("tablekit/**/*.py"), *ROOT.glob("hub/**/*.py")]):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and name_of(node.func) in {"exit", "SystemExit"}:
                found += [
                    (str(path.relative_to(ROOT)), line, text)
                    for arg in node.args
                    for line, text in words_in(arg)
                    if text not in EXIT_ALLOWED
                ]
    assert found == [], "words a program ends with, without the catalogs"


def test_the_check_finds_an_unmarked_word_drawn() -> None:
    source = '''
items = [Text(w.gettext("marked"), box, WHITE), Text("not marked", box, WHITE)]
items += wrap(f"Seat {seat} starts", box, DIM, max_lines=2)
items += key_hints(box, (("ENTER", w.gettext("next")), ("+", "joker")), 9)
items.append(Text(f"{deck}  {name}", box, WHITE))


def hint() -> str:
    return "Keypad: * empty rack"
'''
    found = sorted(text for _, text in drawn_literals(ast.parse(source)))
    assert found == [" starts", "ENTER", "Keypad: * empty rack", "Seat ", "joker", "not marked"]
