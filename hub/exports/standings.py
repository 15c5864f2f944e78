"""Standings (of a round, a table, overall), the final ranking and a player's places by
stage: as grids and as CSV files."""

from __future__ import annotations

from hub.competition import Competition
from hub.exports.grid import Grid, csv_text, latest_stage, player_of
from hub.exports.notes import (
    disqualified_by,
    in_play,
    league_cells,
    sanction_text,
    sanctions_note,
    standings_heading,
    ties_notes,
    undecided_ranking_note,
)
from hub.tournament import (
    Standings,
    ties_by_name,
)
from hub.tournament.standings import place_labels, signed


def _placed(comp: Competition, label: str, player_id: str) -> tuple[str, str, str, str]:
    """The first cells of a standings or ranking row: place, player, club, id."""
    player = player_of(comp, player_id)
    return (label, player.name, player.club or "", player_id)


def standings_grid(
    comp: Competition,
    stage: str | None = None,
    table: int | None = None,
    *,
    overall: bool = False,
) -> Grid:
    """The standings of ``stage`` (default: the latest), of one of its tables, or overall."""
    event = comp.event
    stage = stage or latest_stage(comp)
    standings: Standings
    if overall:
        standings, title = event.overall_standings(), "Overall standings (every game so far)"
    elif table is not None:
        standings = event.table_standings(stage, table)
        title = f"Standings of table {table}, {stage}"
        if in_play(comp, stage) is not None:
            title += " (in play)"
    else:
        standings, title = event.standings(stage), standings_heading(comp, stage)
    listed = ties_by_name(standings.rows, event.players)
    labels = place_labels([r.place for r in listed])
    sanctions = bool(comp.sanctions)
    rows = []
    for label, row in zip(labels, listed, strict=True):
        cells: tuple[str, ...] = (
            *_placed(comp, label, row.player_id),
            str(row.big),
            signed(row.small),
            str(row.games),
        )
        if sanctions:
            cells = (
                *cells,
                sanction_text(comp, row.player_id, row.deducted, None if overall else stage),
            )
        rows.append(cells)
    headers: tuple[str, ...] = ("Place", "Player", "Club", "ID", "BP", "SP", "Games")
    notes = [sanctions_note(comp)] if sanctions else []
    if not overall:
        notes += ties_notes(comp, stage, table)
    return Grid(
        title,
        (*headers, "Sanctions") if sanctions else headers,
        rows,
        note=" ".join(notes),
        numeric=frozenset({4, 5, 6}),
    )


def ranking_grid(comp: Competition) -> Grid:
    """The final ranking with titles (and league tournament points for a league event)."""
    event = comp.event
    ranking = ties_by_name(event.final_ranking(), event.players)
    league = league_cells(comp)
    labels = place_labels([r.place for r in ranking])
    headers: tuple[str, ...] = ("Place", "Player", "Club", "ID", "Title", "Stage", "BP", "SP")
    if league:
        headers = (*headers, "League pts")
    sanctions = bool(comp.sanctions)
    if sanctions:
        headers = (*headers, "Sanctions")
    deducted = event.deducted()
    rows = []
    for label, row in zip(labels, ranking, strict=True):
        cells: tuple[str, ...] = (
            *_placed(comp, label, row.player_id),
            row.title or "",
            row.stage,
            str(row.big),
            signed(row.small),
        )
        if league:
            cells = (*cells, league[row.player_id])
        if sanctions:
            cells = (*cells, sanction_text(comp, row.player_id, deducted.get(row.player_id, 0)))
        rows.append(cells)
    name = comp.created.name if comp.created else ""
    notes = [undecided_ranking_note(comp), *ties_notes(comp, None)]
    return Grid(
        f"Final ranking — {name}" if name else "Final ranking",
        headers,
        rows,
        note=" ".join(n for n in notes if n),
        numeric=frozenset({6, 7, 8}),
    )


def player_stages_grid(comp: Competition, player_id: str) -> Grid:
    """The player's place, points and deductions in each stage they played."""
    event = comp.event
    rows = []
    for stage in event.stages_played:
        standings = event.standings(stage)
        if player_id not in standings.ids():
            continue
        row = standings.row(player_id)
        labels = place_labels([r.place for r in standings.rows])
        rows.append(
            (
                stage,
                labels[standings.ids().index(player_id)],
                str(row.big),
                signed(row.small),
                str(row.games),
                f"−{row.deducted}" if row.deducted else "",
            )
        )
    return Grid(
        "Standings by stage",
        ("Stage", "Place", "BP", "SP", "Games", "BP deducted"),
        rows,
        numeric=frozenset({2, 3, 4, 5}),
    )


def standings_csv(comp: Competition, delimiter: str = ",") -> str:
    """The standings of every stage drawn so far, one block of rows per stage (stage and
    round on each row): place, player, BP (after deductions), SP, games, sanctions, and
    whether the round is closed or still in play ("in play: 3 of 4 tables done")."""
    headers = [
        "stage", "round", "place", "player_id", "name", "club", "bp", "sp", "games",
        "bp_deducted", "warnings", "disqualified", "round_state",
    ]  # fmt: skip
    rows = []
    for stage in comp.event.stages_played:
        standings = comp.event.standings(stage)
        progress = in_play(comp, stage)
        state = "closed" if progress is None else f"in play: {progress}"
        for row in ties_by_name(standings.rows, comp.event.players):
            player = player_of(comp, row.player_id)
            rows.append(
                (
                    stage,
                    str(comp.round_number(stage)),
                    str(row.place),
                    row.player_id,
                    player.name,
                    player.club or "",
                    str(row.big),
                    str(row.small),
                    str(row.games),
                    str(row.deducted),
                    str(comp.warnings_of(row.player_id, stage)),
                    "1" if disqualified_by(comp, row.player_id, stage) else "0",
                    state,
                )
            )
    return csv_text(headers, rows, delimiter)


def ranking_csv(comp: Competition, delimiter: str = ",") -> str:
    """The final ranking: place, player, title, BP, SP (stored, like every CSV), and the
    league points of a league event."""
    event = comp.event
    league = league_cells(comp)
    headers = ["place", "player_id", "name", "club", "title", "stage", "bp", "sp", "disqualified"]
    if league:
        headers.append("league_points")
    rows = []
    for row in ties_by_name(event.final_ranking(), event.players):
        player = player_of(comp, row.player_id)
        cells = [
            str(row.place),
            row.player_id,
            player.name,
            player.club or "",
            row.title or "",
            row.stage,
            str(row.big),
            str(row.small),
            "1" if row.player_id in event.disqualified else "0",
        ]
        if league:
            cells.append(league[row.player_id])
        rows.append(cells)
    return csv_text(headers, rows, delimiter)
