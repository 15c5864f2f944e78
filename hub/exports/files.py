"""Every file of ``export csv`` and of the event archive, by file name."""

from __future__ import annotations

from hub.competition import Competition
from hub.exports.grid import grid_csv
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
    Phase,
)


def csv_files(comp: Competition, delimiter: str = ",") -> dict[str, str]:
    """The CSV files of ``export csv`` (and of the event archive) by file name."""
    files = {
        "standings.csv": standings_csv(comp, delimiter),
        "results.csv": results_csv(comp, delimiter),
        "corrections.csv": corrections_csv(comp, delimiter),
        "seating.csv": seating_csv(comp, delimiter),
        "sanctions.csv": sanctions_csv(comp, delimiter),
        "players.csv": grid_csv(players_grid(comp), delimiter),
    }
    if comp.ties:
        files["ties.csv"] = grid_csv(ties_grid(comp), delimiter)
    if comp.consolations:
        files["consolation.csv"] = grid_csv(consolation_grid(comp), delimiter)
    if comp.event.phase is Phase.FINISHED:
        files["ranking.csv"] = ranking_csv(comp, delimiter)
    return files


def corrections_html(comp: Competition) -> str:
    """Every correction (who, when, why), then every version of each corrected game."""
    corrected = [(key, versions) for key, versions in games_in_order(comp) if len(versions) > 1]
    grids = [corrections_grid(comp)] if corrected else []
    grids += [version_grid(comp, st, table, versions) for (st, table, _), versions in corrected]
    return grids_html(comp, "corrections", grids, "No result was corrected.")


def archive_documents(comp: Competition) -> dict[str, str]:
    """The printable documents of the event archive, by file name without the extension:
    every stage's standings, seating and games, the corrections, the sanctions, the
    head judge's tie decisions and the final ranking."""
    stages = comp.event.stages_played
    docs = {
        "standings": grids_html(comp, "standings", (standings_grid(comp, s) for s in stages)),
        "seating": grids_html(comp, "seating", (seating_grid(comp, s) for s in stages)),
        "results": grids_html(comp, "games", (results_grid(comp, s) for s in stages)),
        "corrections": corrections_html(comp),
        "sanctions": grids_html(
            comp,
            "sanctions",
            [sanctions_grid(comp)] if comp.sanctions else [],
            "No sanction was given.",
        ),
    }
    if comp.ties:
        docs["ties"] = grids_html(comp, "tie decisions", [ties_grid(comp)])
    if comp.consolations:
        docs["consolation"] = grids_html(comp, "consolation seating", [consolation_grid(comp)])
    if comp.event.phase is Phase.FINISHED:
        docs["ranking"] = ranking_html(comp)
    return docs
