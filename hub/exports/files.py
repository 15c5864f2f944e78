"""Every file of ``export csv`` and of the event archive, by file name."""

from __future__ import annotations

from hub.competition import Competition
from hub.exports.grid import Sheet
from hub.exports.lists import (
    consolation_grid,
    players_grid,
    sanctions_csv,
    sanctions_grid,
    seating_csv,
    seating_grid,
    ties_grid,
)
from hub.exports.pages import grids_html
from hub.exports.printouts import ranking_html
from hub.exports.results import (
    corrections_csv,
    corrections_grid,
    games_in_order,
    results_csv,
    results_grid,
    version_grid,
)
from hub.exports.standings import ranking_csv, standings_csv, standings_grid
from hub.tournament import (
    EventPhase,
)
from tablekit.shared.i18n import Words


def csv_files(comp: Competition, sheet: Sheet) -> dict[str, str]:
    """The CSV files of ``export csv`` (and of the event archive) by file name, for
    ``sheet``'s reader (its language, separator and forms)."""
    w = sheet.words
    files = {
        "standings.csv": standings_csv(comp, sheet),
        "results.csv": results_csv(comp, sheet),
        "corrections.csv": corrections_csv(comp, sheet),
        "seating.csv": seating_csv(comp, sheet),
        "sanctions.csv": sanctions_csv(comp, sheet),
        "players.csv": sheet.grid(players_grid(comp, w)),
    }
    if comp.ties:
        files["ties.csv"] = sheet.grid(ties_grid(comp, w, sheet))
    if comp.consolations:
        files["consolation.csv"] = sheet.grid(consolation_grid(comp, w, sheet))
    if comp.event.phase is EventPhase.FINISHED:
        files["ranking.csv"] = ranking_csv(comp, sheet)
    return files


def corrections_html(comp: Competition, words: Words) -> str:
    """Every correction (who, when, why), then every version of each corrected game."""
    corrected = [(key, versions) for key, versions in games_in_order(comp) if len(versions) > 1]
    grids = [corrections_grid(comp, words)] if corrected else []
    grids += [
        version_grid(comp, st, table, versions, words=words)
        for (st, table, _), versions in corrected
    ]
    return grids_html(
        comp,
        words.gettext("corrections"),
        grids,
        words,
        words.gettext("No result was corrected."),
    )


def archive_documents(comp: Competition, words: Words) -> dict[str, str]:
    """The printable documents of the event archive, by file name without the extension:
    every stage's standings, seating and games, the corrections, the sanctions, the
    head judge's tie decisions and the final ranking."""
    stages = comp.event.stages_played
    docs = {
        "standings": grids_html(
            comp,
            words.gettext("standings"),
            (standings_grid(comp, s, words=words) for s in stages),
            words,
        ),
        "seating": grids_html(
            comp,
            words.gettext("seating"),
            (seating_grid(comp, s, words=words) for s in stages),
            words,
        ),
        "results": grids_html(
            comp, words.gettext("games"), (results_grid(comp, s, words) for s in stages), words
        ),
        "corrections": corrections_html(comp, words),
        "sanctions": grids_html(
            comp,
            words.gettext("sanctions"),
            [sanctions_grid(comp, words=words)] if comp.sanctions else [],
            words,
            words.gettext("No sanction was given."),
        ),
    }
    if comp.ties:
        docs["ties"] = grids_html(
            comp, words.gettext("tie decisions"), [ties_grid(comp, words)], words
        )
    if comp.consolations:
        docs["consolation"] = grids_html(
            comp, words.gettext("consolation seating"), [consolation_grid(comp, words)], words
        )
    if comp.event.phase is EventPhase.FINISHED:
        docs["ranking"] = ranking_html(comp, words)
    return docs
