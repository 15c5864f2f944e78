"""Games' results: every game of a round as it counts, one player's games, every version
of a corrected game (who, when, why), as grids and as CSV files."""

from __future__ import annotations

from collections.abc import Sequence

from hub.competition import Competition, ResultVersion
from hub.exports.grid import Grid, csv_text, iso_time, player_of
from hub.tournament.standings import signed
from tablekit.core.racks import format_rack

RESULT_HEADERS = (
    "stage",
    "round",
    "table",
    "game",
    "seat",
    "code",
    "player_id",
    "name",
    "club",
    "ending",
    "tiles",
    "jokers",
    "opening",
    "rack_value",
    "sp",
    "bp",
    "place",
    "winner",
    "version",
    "source",
    "recorded_by",
    "recorded_at",
    "why",
)


def games_in_order(comp: Competition) -> list[tuple[tuple[str, int, int], list[ResultVersion]]]:
    """Every game with a result, in stage, table and game order."""
    return sorted(
        comp.results.items(), key=lambda kv: (comp.format.stage_index(kv[0][0]), kv[0][1:])
    )


def _result_rows(
    comp: Competition, key: tuple[str, int, int], version: ResultVersion, number: int
) -> list[tuple[str, ...]]:
    """One row per seat of one version (numbered ``number``) of a game's result."""
    stage, table, game = key
    record = version.record
    racks = {r.seat: r for r in record.report.racks}
    rows: list[tuple[str, ...]] = []
    for score in version.score.scores:
        rack = racks[score.seat]
        pid = version.players[score.seat]
        player = player_of(comp, pid)
        rows.append(
            (
                stage,
                str(comp.round_number(stage)),
                str(table),
                str(game),
                str(score.seat),
                f"{table}{score.seat}",
                pid,
                player.name,
                player.club or "",
                str(record.report.ending),
                str(rack.tiles),
                str(rack.jokers),
                str(rack.opening),
                str(score.rack_value),
                str(score.small),
                str(score.big),
                str(score.place),
                "1" if score.winner else "0",
                str(number),
                str(record.source),
                record.by,
                iso_time(record.at),
                record.why,
            )
        )
    return rows


def _seat_cells(comp: Competition, table: int, version: ResultVersion) -> list[tuple[str, ...]]:
    """Each seat of one version of a game's result: seat, player, rack, its value, SP, BP
    and place (the cells every grid of results shows)."""
    racks = {r.seat: r for r in version.record.report.racks}
    cells: list[tuple[str, ...]] = []
    for score in version.score.scores:
        rack = racks[score.seat]
        cells.append(
            (
                f"{table}{score.seat}",
                player_of(comp, version.players[score.seat]).name,
                format_rack(rack),
                str(score.rack_value),
                signed(score.small),
                str(score.big),
                str(score.place),
            )
        )
    return cells


def results_grid(comp: Competition, stage: str) -> Grid:
    """Every game of ``stage`` as it counts (the latest version), one row per seat."""
    rows = [
        (str(table), str(game), *cells, str(len(versions)))
        for (game_stage, table, game), versions in games_in_order(comp)
        if game_stage == stage
        for cells in _seat_cells(comp, table, versions[-1])
    ]
    return Grid(
        f"Games of {stage} (round {comp.round_number(stage)})",
        ("Table", "Game", "Seat", "Player", "Rack", "Value", "SP", "BP", "Place", "Ver"),
        rows,
        numeric=frozenset({0, 1, 5, 6, 7, 8, 9}),
    )


def version_grid(
    comp: Competition,
    stage: str,
    table: int,
    versions: Sequence[ResultVersion],
    first: int = 1,
) -> Grid:
    """The seats of one game's result versions (the latest last), numbered from ``first``."""
    rows = [
        (str(number), *cells)
        for number, version in enumerate(versions, start=first)
        for cells in _seat_cells(comp, table, version)
    ]
    game = versions[-1].game if versions else 0
    return Grid(
        f"Table {table}, game {game}, {stage}",
        ("Ver", "Seat", "Player", "Rack", "Value", "SP", "BP", "Place"),
        rows,
        numeric=frozenset({4, 5, 6, 7}),
    )


def corrections_grid(comp: Competition) -> Grid:
    """Every judge's correction of the event, in the order recorded: which game, which
    version, who, when and why (each game's versions: ``rummikub result history``)."""
    entries = [
        (version.record, number)
        for versions in comp.results.values()
        for number, version in enumerate(versions, start=1)
        if number > 1
    ]
    entries.sort(key=lambda e: e[0].at)
    rows = [
        (
            record.stage,
            str(record.table),
            str(record.report.game),
            str(number),
            iso_time(record.at),
            record.by,
            record.why,
        )
        for record, number in entries
    ]
    return Grid(
        "Corrections (poprawki)",
        ("Stage", "Table", "Game", "Ver", "When", "By", "Why"),
        rows,
        numeric=frozenset({1, 2, 3}),
    )


def player_games_grid(comp: Competition, player_id: str) -> Grid:
    """Every game ``player_id`` played, as it counts (the latest version), in order."""
    player = player_of(comp, player_id)
    rows = []
    for (stage, table, game), versions in sorted(
        comp.results.items(), key=lambda kv: (comp.format.stage_index(kv[0][0]), kv[0][1:])
    ):
        version = versions[-1]
        for score in version.score.scores:
            if version.players[score.seat] != player_id:
                continue
            rows.append(
                (
                    stage,
                    str(comp.round_number(stage)),
                    f"{table}{score.seat}",
                    str(game),
                    str(score.rack_value),
                    signed(score.small),
                    str(score.big),
                    str(score.place),
                    str(len(versions)) if len(versions) > 1 else "",
                )
            )
    return Grid(
        f"Games of {player.name} ({player_id})",
        ("Stage", "Round", "Seat", "Game", "Value", "SP", "BP", "Place", "Corrected"),
        rows,
        note="Corrected: the number of versions of a result a judge corrected "
        "(rummikub result history).",
        numeric=frozenset({1, 3, 4, 5, 6, 7, 8}),
    )


def results_csv(comp: Competition, delimiter: str = ",") -> str:
    """One row per player per game: the result as it counts (the latest version)."""
    rows = [
        row
        for key, versions in games_in_order(comp)
        for row in _result_rows(comp, key, versions[-1], len(versions))
    ]
    return csv_text(RESULT_HEADERS, rows, delimiter)


def corrections_csv(comp: Competition, delimiter: str = ",") -> str:
    """Every version of every corrected game, the first one included (what was
    corrected), one row per player, with who, when and why: the columns of
    ``results.csv``."""
    rows = [
        row
        for key, versions in games_in_order(comp)
        if len(versions) > 1
        for number, version in enumerate(versions, start=1)
        for row in _result_rows(comp, key, version, number)
    ]
    return csv_text(RESULT_HEADERS, rows, delimiter)
