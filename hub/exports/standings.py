"""Standings (of a round, a table, overall), the final ranking and a player's places by
stage: as grids and as CSV files, in the reader's language."""

from __future__ import annotations

from hub.competition import Competition
from hub.exports.grid import Grid, Sheet, latest_stage, player_of
from hub.exports.notes import (
    disqualified_by,
    league_cells,
    league_points_note,
    progress_text,
    round_progress,
    sanction_text,
    sanctions_note,
    standings_heading,
    ties_notes,
    undecided_ranking_note,
    withdrawn_text,
)
from hub.exports.words import csv_value, stage_label, title_label
from hub.tournament import (
    OVERALL_SCOPE,
    Standings,
    ties_by_name,
)
from hub.tournament.standings import place_labels, signed
from tablekit.shared.i18n import Words


def player_headers(words: Words) -> tuple[str, str, str, str]:
    """The first headers of a standings or ranking grid: place, player, club, id."""
    return (
        words.pgettext("column", "Place"),
        words.pgettext("column", "Player"),
        words.pgettext("column", "Club"),
        words.pgettext("column", "ID"),
    )


def points_headers(words: Words) -> tuple[str, str]:
    """Big points, small points: the rule books' DP and MP in Polish."""
    return (
        words.pgettext("abbreviation of big points", "BP"),
        words.pgettext("abbreviation of small points", "SP"),
    )


def _placed(comp: Competition, label: str, player_id: str) -> tuple[str, str, str, str]:
    """The first cells of a standings or ranking row: place, player, club, id."""
    player = player_of(comp, player_id)
    return (label, player.name, player.club or "", player_id)


def _title(comp: Competition, title: str | None, player_id: str, words: Words) -> str:
    """A final place's title agreeing with its holder (*mistrzyni*); "" for none."""
    if not title:
        return ""
    return title_label(title, words, player_of(comp, player_id).grammatical_gender)


def standings_grid(
    comp: Competition,
    stage: str | None = None,
    table: int | None = None,
    *,
    overall: bool = False,
    words: Words,
) -> Grid:
    """The standings of ``stage`` (default: the latest), of one of its tables, or overall."""
    event = comp.event
    stage = stage or latest_stage(comp)
    standings: Standings
    if overall:
        standings = event.overall_standings()
        title = words.gettext("Overall standings (every game so far)")
    elif table is not None:
        standings = event.table_standings(stage, table)
        values = {"table": table, "stage": stage_label(stage, words)}
        if round_progress(comp, stage) is None:
            title = words.gettext("Standings of table {table}, {stage}").format(**values)
        else:
            title = words.gettext("Standings of table {table}, {stage} (in play)").format(**values)
    else:
        standings, title = event.standings(stage), standings_heading(comp, stage, words)
    listed = ties_by_name(standings.rows, event.players)
    labels = place_labels([r.place for r in listed])
    sanctions = bool(comp.sanctions)
    going_on = None if overall or table is not None else went_on(comp, stage)
    withdrawn = any(r.player_id in event.withdrawn for r in listed)
    counted = None if overall else (stage,) if table is not None else event.counted_in(stage)
    rows = []
    for label, row in zip(labels, listed, strict=True):
        cells: tuple[str, ...] = (
            *_placed(comp, label, row.player_id),
            str(row.big),
            signed(row.small),
            str(row.games),
        )
        if sanctions:
            given = None if overall else stage
            cells = (*cells, sanction_text(comp, row.player_id, words, given, counted))
        if going_on is not None:
            after, seated = going_on
            cells = (*cells, stage_label(after, words) if row.player_id in seated else "")
        if withdrawn:
            cells = (*cells, withdrawn_text(comp, row.player_id, words))
        rows.append(cells)
    headers: tuple[str, ...] = (
        *player_headers(words),
        *points_headers(words),
        words.pgettext("column", "Games"),
    )
    if sanctions:
        headers = (*headers, words.pgettext("column", "Sanctions"))
    if going_on is not None:
        # Translators: a column of a stage's standings: the next stage a player went on to
        headers = (*headers, words.pgettext("column", "Went on to"))
    if withdrawn:
        headers = (*headers, words.pgettext("column", "Withdrawal"))
    notes = [sanctions_note(comp, words)] if sanctions else []
    notes += ties_notes(comp, OVERALL_SCOPE if overall else stage, words, table)
    return Grid(title, headers, rows, note=" ".join(notes), numeric=frozenset({4, 5, 6}), club=2)


def went_on(comp: Competition, stage: str) -> tuple[str, frozenset[str]] | None:
    """The stage after ``stage`` and who it seats, once it is drawn and it seats only some
    of ``stage``'s players (a cut: a tie there was decided by the head judge or a lot);
    None otherwise."""
    stages = comp.format.stages
    index = comp.format.stage_index(stage)
    if index + 1 >= len(stages) or stages[index + 1].name not in comp.event.stages_played:
        return None
    after = stages[index + 1].name
    seated = frozenset(pid for t in comp.event.seating(after) for pid in t.players)
    ranked = {r.player_id for r in comp.event.standings(stage).rows}
    return (after, seated) if ranked - seated else None


def ranking_grid(comp: Competition, words: Words) -> Grid:
    """The final ranking with titles (and league tournament points for a league event)."""
    event = comp.event
    ranking = ties_by_name(event.final_ranking(), event.players)
    league = league_cells(comp)
    labels = place_labels([r.place for r in ranking])
    headers: tuple[str, ...] = (
        *player_headers(words),
        words.pgettext("column", "Title"),
        words.pgettext("column", "Stage"),
        *points_headers(words),
    )
    if league:
        # Translators: league tournament points (003), short for a column's header
        headers = (*headers, words.pgettext("column", "League pts"))
    sanctions = bool(comp.sanctions)
    if sanctions:
        headers = (*headers, words.pgettext("column", "Sanctions"))
    withdrawn = bool(event.withdrawn)
    if withdrawn:
        headers = (*headers, words.pgettext("column", "Withdrawal"))
    rows = []
    for label, row in zip(labels, ranking, strict=True):
        cells: tuple[str, ...] = (
            *_placed(comp, label, row.player_id),
            _title(comp, row.shown_title, row.player_id, words),
            stage_label(row.stage, words),
            str(row.big),
            signed(row.small),
        )
        if league:
            cells = (*cells, league[row.player_id])
        if sanctions:
            counted = event.counted_in(row.stage)
            cells = (*cells, sanction_text(comp, row.player_id, words, None, counted))
        if withdrawn:
            cells = (*cells, withdrawn_text(comp, row.player_id, words))
        rows.append(cells)
    name = comp.created.name if comp.created else ""
    notes = [
        undecided_ranking_note(comp, words),
        league_points_note(comp, words),
        sanctions_note(comp, words) if sanctions else "",
        *ties_notes(comp, None, words),
    ]
    return Grid(
        words.gettext("Final ranking — {event}").format(event=name)
        if name
        else words.gettext("Final ranking"),
        headers,
        rows,
        note=" ".join(n for n in notes if n),
        numeric=frozenset({6, 7, 8}) if league else frozenset({6, 7}),
        club=2,
    )


def player_stages_grid(comp: Competition, player_id: str, words: Words) -> Grid:
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
                stage_label(stage, words),
                labels[standings.ids().index(player_id)],
                str(row.big),
                signed(row.small),
                str(row.games),
                sanction_text(comp, player_id, words, stage, event.counted_in(stage)),
            )
        )
    return Grid(
        words.gettext("Standings by stage"),
        (
            words.pgettext("column", "Stage"),
            words.pgettext("column", "Place"),
            *points_headers(words),
            words.pgettext("column", "Games"),
            words.pgettext("column", "Sanctions"),
        ),
        rows,
        note=sanctions_note(comp, words) if comp.standing_sanctions(player_id) else "",
        numeric=frozenset({2, 3, 4}),
    )


def standings_csv(comp: Competition, sheet: Sheet) -> str:
    """The standings of every stage drawn so far, one block of rows per stage (stage and
    round on each row): place, player, BP (after deductions), SP, games, sanctions, and
    whether the round is closed or still in play ("in play: 3 of 4 tables done")."""
    w = sheet.words
    headers = [
        w.pgettext("CSV column", "stage"),
        w.pgettext("CSV column", "round"),
        w.pgettext("CSV column", "place"),
        w.pgettext("CSV column", "player_id"),
        w.pgettext("CSV column", "name"),
        w.pgettext("CSV column", "club"),
        w.pgettext("CSV column", "bp"),
        w.pgettext("CSV column", "sp"),
        w.pgettext("CSV column", "games"),
        w.pgettext("CSV column", "bp_deducted"),
        w.pgettext("CSV column", "warnings"),
        w.pgettext("CSV column", "disqualified"),
        w.pgettext("CSV column", "round_state"),
        w.pgettext("CSV column", "sanctions"),
        w.pgettext("CSV column", "withdrawn"),
    ]
    rows = []
    for stage in comp.event.stages_played:
        standings = comp.event.standings(stage)
        progress = round_progress(comp, stage)
        if progress is None:
            state = csv_value("closed", w)
        else:
            state = w.pgettext("CSV value", "in play: {progress}").format(
                progress=progress_text(progress, w)
            )
        for row in ties_by_name(standings.rows, comp.event.players):
            player = player_of(comp, row.player_id)
            rows.append(
                (
                    stage_label(stage, w),
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
                    sanction_text(comp, row.player_id, w, stage, comp.event.counted_in(stage)),
                    "1" if row.player_id in comp.event.withdrawn else "0",
                )
            )
    return sheet.text(headers, rows)


def ranking_csv(comp: Competition, sheet: Sheet) -> str:
    """The final ranking: place, player, title, BP, SP (stored, like every CSV), and the
    league points of a league event."""
    event = comp.event
    league = league_cells(comp)
    w = sheet.words
    headers = [
        w.pgettext("CSV column", "place"),
        w.pgettext("CSV column", "player_id"),
        w.pgettext("CSV column", "name"),
        w.pgettext("CSV column", "club"),
        w.pgettext("CSV column", "title"),
        w.pgettext("CSV column", "stage"),
        w.pgettext("CSV column", "bp"),
        w.pgettext("CSV column", "sp"),
        w.pgettext("CSV column", "disqualified"),
        w.pgettext("CSV column", "sanctions"),
        w.pgettext("CSV column", "withdrawn"),
    ]
    if league:
        headers.append(w.pgettext("CSV column", "league_points"))
    rows = []
    for row in ties_by_name(event.final_ranking(), event.players):
        player = player_of(comp, row.player_id)
        cells = [
            str(row.place),
            row.player_id,
            player.name,
            player.club or "",
            title_label(row.shown_title, w, player.grammatical_gender) if row.shown_title else "",
            stage_label(row.stage, w),
            str(row.big),
            str(row.small),
            "1" if row.player_id in event.disqualified else "0",
            sanction_text(comp, row.player_id, w, None, event.counted_in(row.stage)),
            "1" if row.player_id in event.withdrawn else "0",
        ]
        if league:
            cells.append(league[row.player_id])
        rows.append(cells)
    return sheet.text(headers, rows)
