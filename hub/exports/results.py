"""Games' results: every game of a round as it counts, one player's games, every version
of a corrected game (who, when, why), as grids and as CSV files."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Final

from hub.competition import Competition, ResultSource, ResultVersion
from hub.effects import Change, ChangeKind
from hub.exports.grid import Grid, Sheet, player_of, when
from hub.exports.standings import points_headers
from hub.exports.words import (
    csv_value,
    rack_words,
    stage_label,
    stage_title,
    title_label,
)
from hub.tournament import RoundUndone
from hub.tournament.standings import signed
from tablekit.core.scoring import GameEnding, Opening
from tablekit.core.words import N_
from tablekit.shared.i18n import Words

CHANGE_WORDS: Final[Mapping[ChangeKind, str]] = {
    ChangeKind.QUALIFIES: N_("would now qualify"),
    ChangeKind.DROPS: N_("would no longer qualify"),
    ChangeKind.SEATING: N_("seating already drawn"),
    ChangeKind.DRAW: N_("draw already made"),
    ChangeKind.PLACE: N_("final place"),
    ChangeKind.TITLE: N_("title"),
    ChangeKind.LEAGUE: N_("league points"),
    ChangeKind.STANDINGS: N_("place in the standings"),
}
ENDING_WORDS: Final[Mapping[GameEnding, str]] = {
    GameEnding.WENT_OUT: N_("went out"),
    GameEnding.NOBODY_OUT: N_("nobody out"),
}
SOURCE_WORDS: Final[Mapping[ResultSource, str]] = {
    ResultSource.TABLE: N_("table"),
    ResultSource.JUDGE: N_("judge"),
}


def result_headers(words: Words) -> tuple[str, ...]:
    """The columns of ``results.csv`` and ``corrections.csv``."""
    return (
        words.pgettext("CSV column", "stage"),
        words.pgettext("CSV column", "round"),
        words.pgettext("CSV column", "table"),
        words.pgettext("CSV column", "game"),
        words.pgettext("CSV column", "seat"),
        words.pgettext("CSV column", "code"),
        words.pgettext("CSV column", "player_id"),
        words.pgettext("CSV column", "name"),
        words.pgettext("CSV column", "club"),
        words.pgettext("CSV column", "ending"),
        words.pgettext("CSV column", "tiles"),
        words.pgettext("CSV column", "jokers"),
        words.pgettext("CSV column", "opening"),
        words.pgettext("CSV column", "rack_value"),
        words.pgettext("CSV column", "sp"),
        words.pgettext("CSV column", "bp"),
        words.pgettext("CSV column", "place"),
        words.pgettext("CSV column", "winner"),
        words.pgettext("CSV column", "version"),
        words.pgettext("CSV column", "source"),
        words.pgettext("CSV column", "recorded_by"),
        words.pgettext("CSV column", "recorded_at"),
        words.pgettext("CSV column", "why"),
    )


def games_in_order(comp: Competition) -> list[tuple[tuple[str, int, int], list[ResultVersion]]]:
    """Every game with a result, in stage, table and game order."""
    return sorted(
        comp.results.items(), key=lambda kv: (comp.format.stage_index(kv[0][0]), kv[0][1:])
    )


def _result_rows(
    comp: Competition,
    key: tuple[str, int, int],
    version: ResultVersion,
    number: int,
    sheet: Sheet,
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
                stage_label(stage, sheet.words),
                str(comp.round_number(stage)),
                str(table),
                str(game),
                str(score.seat),
                f"{table}{score.seat}",
                pid,
                player.name,
                player.club or "",
                csv_value(GameEnding(record.report.ending), sheet.words),
                str(rack.tiles),
                str(rack.jokers),
                csv_value(Opening(rack.opening), sheet.words),
                str(score.rack_value),
                str(score.small),
                str(score.big),
                str(score.place),
                "1" if score.winner else "0",
                str(number),
                csv_value(record.source, sheet.words),
                record.by,
                sheet.time(record.at),
                record.why,
            )
        )
    return rows


def _seat_cells(
    comp: Competition, table: int, version: ResultVersion, words: Words
) -> list[tuple[str, ...]]:
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
                rack_words(rack, words),
                str(score.rack_value),
                signed(score.small),
                str(score.big),
                str(score.place),
            )
        )
    return cells


def _seat_headers(words: Words) -> tuple[str, ...]:
    """The headers of :func:`_seat_cells`."""
    return (
        words.pgettext("column", "Seat"),
        words.pgettext("column", "Player"),
        words.pgettext("column", "Rack"),
        # Translators: the points left on a rack (docs/glossary.md: suma kostek)
        words.pgettext("column", "Value"),
        *reversed(points_headers(words)),  # SP, then BP: as the cells
        # Translators: the place a player took in one game, in a grid with a seat column
        words.pgettext("place in a game", "Place"),
    )


def _version_header(words: Words) -> str:
    # Translators: the number of a result's version (1, then each correction), short
    return words.pgettext("column", "Ver")


def results_grid(comp: Competition, stage: str, words: Words) -> Grid:
    """Every game of ``stage`` as it counts (the latest version), one row per seat."""
    rows = [
        (str(table), str(game), *cells, str(len(versions)))
        for (game_stage, table, game), versions in games_in_order(comp)
        if game_stage == stage
        for cells in _seat_cells(comp, table, versions[-1], words)
    ]
    return Grid(
        words.gettext("Games of {stage}").format(
            stage=stage_title(stage, comp.round_number(stage), words)
        ),
        (
            words.pgettext("column", "Table"),
            words.pgettext("column", "Game"),
            *_seat_headers(words),
            _version_header(words),
        ),
        rows,
        numeric=frozenset({0, 1, 5, 6, 7, 8, 9}),
    )


def version_grid(
    comp: Competition,
    stage: str,
    table: int,
    versions: Sequence[ResultVersion],
    first: int = 1,
    *,
    words: Words,
) -> Grid:
    """The seats of one game's result versions (the latest last), numbered from ``first``."""
    rows = [
        (str(number), *cells)
        for number, version in enumerate(versions, start=first)
        for cells in _seat_cells(comp, table, version, words)
    ]
    game = versions[-1].game if versions else 0
    return Grid(
        words.gettext("Table {table}, game {game}, {stage}").format(
            table=table, game=game, stage=stage_label(stage, words)
        ),
        (_version_header(words), *_seat_headers(words)),
        rows,
        numeric=frozenset({4, 5, 6, 7}),
    )


def corrections_grid(comp: Competition, words: Words) -> Grid:
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
            stage_label(record.stage, words),
            str(record.table),
            str(record.report.game),
            str(number),
            when(record.at, words),
            record.by,
            record.why,
        )
        for record, number in entries
    ]
    return Grid(
        words.gettext("Corrections"),
        (
            words.pgettext("column", "Stage"),
            words.pgettext("column", "Table"),
            words.pgettext("column", "Game"),
            _version_header(words),
            words.pgettext("column", "When"),
            words.pgettext("column", "By"),
            words.pgettext("column", "Why"),
        ),
        rows,
        numeric=frozenset({1, 2, 3}),
    )


def player_games_grid(comp: Competition, player_id: str, words: Words) -> Grid:
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
                    stage_label(stage, words),
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
        words.gettext("Games of {player} ({id})").format(player=player.name, id=player_id),
        (
            words.pgettext("column", "Stage"),
            words.pgettext("column", "Round"),
            words.pgettext("column", "Seat"),
            words.pgettext("column", "Game"),
            words.pgettext("column", "Value"),
            *reversed(points_headers(words)),  # SP, then BP: as the cells
            words.pgettext("place in a game", "Place"),
            words.pgettext("column", "Corrected"),
        ),
        rows,
        note=words.gettext(
            "Corrected: the number of versions of a result a judge corrected "
            "(rummikub result history)."
        ),
        numeric=frozenset({1, 3, 4, 5, 6, 7, 8}),
    )


def results_csv(comp: Competition, sheet: Sheet) -> str:
    """One row per player per game: the result as it counts (the latest version)."""
    rows = [
        row
        for key, versions in games_in_order(comp)
        for row in _result_rows(comp, key, versions[-1], len(versions), sheet)
    ]
    return sheet.text(result_headers(sheet.words), rows)


def corrections_csv(comp: Competition, sheet: Sheet) -> str:
    """Every version of every corrected game, the first one included (what was
    corrected), one row per player, with who, when and why: the columns of
    ``results.csv``."""
    rows = [
        row
        for key, versions in games_in_order(comp)
        if len(versions) > 1
        for number, version in enumerate(versions, start=1)
        for row in _result_rows(comp, key, version, number, sheet)
    ]
    return sheet.text(result_headers(sheet.words), rows)


def changes_grid(comp: Competition, changes: Sequence[Change], words: Words) -> Grid:
    """What a correction changes, for whom: the weighty first, then the standings."""
    _ = words.gettext
    ordered = sorted(changes, key=lambda c: not c.weighty)

    def value(change: Change, text: str) -> str:
        """A title in the reader's words, agreeing with its holder; other values as they are."""
        if change.kind is not ChangeKind.TITLE or text == "-":
            return text
        return title_label(text, words, comp.event.players[change.player_id].grammatical_gender)

    rows = [
        (
            stage_label(c.stage, words) if c.stage else "-",
            _(CHANGE_WORDS[c.kind]),
            c.player_id,
            comp.event.players[c.player_id].name if c.player_id else "",
            value(c, c.before),
            value(c, c.after),
        )
        for c in ordered
    ]
    drawn = {ChangeKind.QUALIFIES, ChangeKind.DROPS, ChangeKind.SEATING, ChangeKind.DRAW}
    undoable = comp.open_stage() is not None and any(c.kind in drawn for c in changes)
    return Grid(
        _("What changes"),
        (_("Stage"), _("Change"), _("ID"), _("Player"), _("Before"), _("After")),
        rows,
        note=_("The rounds already drawn keep their tables: the latest draw can be undone "
               "while no table has started it (then drawn again), or the judges decide at "
               "the tables.") if undoable else "",
    )


def version_header(
    number: int, version: ResultVersion, words: Words, stamp: Callable[[float], str]
) -> str:
    """One version of a game's result in a line: its number, a result or a correction,
    from the table or a judge, when (``stamp``), by whom, the ending, and why."""
    _ = words.gettext
    record = version.record
    values = {
        "number": number,
        "source": _(SOURCE_WORDS[record.source]),
        "at": stamp(record.at),
        "by": record.by or "-",
        "ending": _(ENDING_WORDS[record.report.ending]),
    }
    if number > 1:
        text = _("Version {number} (correction, {source}) recorded {at} by {by}, "
                 "ending: {ending}").format(**values)
    else:
        text = _("Version {number} (result, {source}) recorded {at} by {by}, "
                 "ending: {ending}").format(**values)
    return text + (_("; why: {why}").format(why=record.why) if record.why else "")


def undone_lines(comp: Competition, words: Words, stamp: Callable[[float], str]) -> list[str]:
    """Every draw taken back, in a line each: which stage, when (``stamp``), by whom, how
    many tables it had seated, and why."""
    lines = []
    for record, tables in comp.undone:
        stage = record.fact.stage if isinstance(record.fact, RoundUndone) else "?"
        lines.append(
            words.ngettext(
                "Draw of {stage} undone {at} by {by} ({n} table); why: {why}",
                "Draw of {stage} undone {at} by {by} ({n} tables); why: {why}",
                len(tables),
            ).format(stage=stage_label(stage, words), at=stamp(record.at), by=record.by or "-",
                     n=len(tables), why=record.why)
        )
    return lines
