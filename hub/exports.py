"""Tables, CSV files and printable HTML documents from a :class:`~hub.competition.Competition`.

Pure: every function returns text; the CLI writes the files, and :mod:`hub.printing`
turns the HTML documents into PDF. One :class:`Grid` (title, headers, rows) feeds the
terminal, the CSV and the HTML, so they always agree. The HTML documents are A4 pages
(``@page``) whose tables fit the page's width: long names and clubs wrap, figures do not.

CSV files are written by the CLI as UTF-8 **with** a byte-order mark: Excel opens a
double-clicked CSV without one in the Windows code page (cp1250 in Poland) and turns
"Łódź" into "ĹĂłdĹş"; with the mark it reads UTF-8. Google Sheets and LibreOffice read
both and drop the mark. The delimiter is ``,`` (what Google Sheets and most tools
expect); ``export csv --semicolon`` writes ``;`` for a Polish Excel, whose list
separator is ``;``.

Small points are stored and shown one way everywhere, 002 included: the winner plus,
higher is better (RULES.md §3.3).
"""

from __future__ import annotations

import csv
import datetime as dt
import html
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from hub.competition import Competition, OrganizerFact, ResultVersion
from hub.tournament import (
    RANKING_SCOPE,
    ConsolationDecided,
    Phase,
    Player,
    PlayerSanctioned,
    SanctionKind,
    Standings,
    TieDecided,
    TieHow,
    player_order,
    split_scope,
    ties_by_name,
)
from tablekit.core.scoring import Opening
from tablekit.core.seats import seats_for, starting_seat


@dataclass(frozen=True)
class Grid:
    """A titled table of text cells."""

    title: str
    headers: tuple[str, ...]
    rows: Sequence[tuple[str, ...]] = ()
    note: str = ""
    numeric: frozenset[int] = frozenset()
    """Column indexes to right-align."""


# --- names, places, points --------------------------------------------------------------

def place_labels(places: Sequence[int]) -> list[str]:
    """``1, 2=, 2=, 4``: a shared place is marked ``=`` on every row sharing it."""
    counts: dict[int, int] = {}
    for place in places:
        counts[place] = counts.get(place, 0) + 1
    return [f"{p}=" if counts[p] > 1 else str(p) for p in places]


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def seat_code(table: int, index: int) -> str:
    return f"{table}{seats_for(4)[index]}"


def _player(comp: Competition, pid: str) -> Player:
    return comp.event.players.get(pid) or Player(pid, pid)


SANCTION_WORDS: dict[SanctionKind, str] = {
    SanctionKind.WARNING: "warning (ostrzeżenie)",
    SanctionKind.DEDUCTION: "big points deducted (odjęcie dużych punktów)",
    SanctionKind.DISQUALIFICATION: "disqualified (dyskwalifikacja)",
}


_F = TypeVar("_F")


def _fact_of(record: OrganizerFact, kind: type[_F]) -> _F:
    """The fact of a record kept for its kind (the competition sorts them on folding)."""
    fact = record.fact
    assert isinstance(fact, kind)
    return fact


def _sanction(record: OrganizerFact) -> PlayerSanctioned:
    return _fact_of(record, PlayerSanctioned)


def sanction_text(comp: Competition, pid: str, deducted: int, stage: str | None = None) -> str:
    """A standings cell: the big points deducted that count there, warnings, DQ — of
    ``stage`` and the stages before it (None: of every stage)."""
    parts = [f"−{deducted} BP"] if deducted else []
    warnings = comp.warnings_of(pid, stage)
    if warnings:
        parts.append(f"{warnings} warning{'s' if warnings > 1 else ''}")
    if disqualified_by(comp, pid, stage):
        parts.append("DQ")
    return ", ".join(parts)


def disqualified_by(comp: Competition, pid: str, stage: str | None = None) -> bool:
    """Whether ``pid`` is disqualified, in ``stage`` or before it (None: at all)."""
    if pid not in comp.event.disqualified:
        return False
    return stage is None or any(
        f.kind is SanctionKind.DISQUALIFICATION for f in comp.standing_sanctions(pid, stage)
    )


def in_play(comp: Competition, stage: str) -> str | None:
    """How far ``stage`` is when it is the round in play ("3 of 4 tables done"), or None
    once it is closed: the hub screen's rule, the latest round until it is closed."""
    event = comp.event
    if event.phase is not Phase.PLAYING or not event.stages_played:
        return None
    if stage != event.stages_played[-1]:
        return None
    tables = comp.tables()
    done = sum(1 for t in tables if t.finished)
    return f"{done} of {len(tables)} table{'s' if len(tables) != 1 else ''} done"


def last_closed(comp: Competition) -> str | None:
    """The last closed round: the latest once closed, else the one before it."""
    closed = [s for s in comp.event.stages_played if in_play(comp, s) is None]
    return closed[-1] if closed else None


def standings_heading(comp: Competition, stage: str) -> str:
    """A stage's standings heading: after a closed round, or the round still in play."""
    progress = in_play(comp, stage)
    if progress is None:
        return f"Standings after {stage}"
    return f"Standings — {stage} in play, {progress}"


def _latest_stage(comp: Competition) -> str:
    played = comp.event.stages_played
    if not played:
        raise ValueError("nothing is drawn yet: draw the first round (rummikub round draw)")
    return played[-1]


# --- grids --------------------------------------------------------------------------------


def standings_grid(
    comp: Competition,
    stage: str | None = None,
    table: int | None = None,
    *,
    overall: bool = False,
) -> Grid:
    """The standings of ``stage`` (default: the latest), of one of its tables, or overall."""
    event = comp.event
    stage = stage or _latest_stage(comp)
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
        player = _player(comp, row.player_id)
        cells: tuple[str, ...] = (
            label,
            player.name,
            player.club or "",
            row.player_id,
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
    notes = [_sanctions_note(comp)] if sanctions else []
    if not overall:
        notes += ties_notes(comp, stage, table)
    return Grid(
        title,
        (*headers, "Sanctions") if sanctions else headers,
        rows,
        note=" ".join(notes),
        numeric=frozenset({4, 5, 6}),
    )


TIE_WORDS = {
    TieHow.JUDGE: "the head judge's decision",
    TieHow.LOT: "a lot the head judge ordered",
    TieHow.SHARED: "the head judge let them share the place",
}


def _tie(record: OrganizerFact) -> TieDecided:
    return _fact_of(record, TieDecided)


def tie_decision_text(comp: Competition, record: OrganizerFact) -> str:
    """One decided tie: who is ahead of whom, how, by whom, when, why."""
    fact = _tie(record)
    names = [f"{_player(comp, pid).name} ({pid})" for pid in fact.order]
    joined = ", ".join(names) if fact.how is TieHow.SHARED else " ahead of ".join(names)
    how = TIE_WORDS[fact.how] + (f", seed {fact.seed}" if fact.seed is not None else "")
    why = f"; why: {record.why}" if record.why else ""
    return (
        f"Tie in {fact.scope}: {joined} — {how}, recorded by {record.by or '-'} at "
        f"{when(record.at)}{why}."
    )


def consolation_text(record: OrganizerFact) -> str:
    """The organizer's decision on consolation players who cannot sit at tables of 3–4."""
    fact = _fact_of(record, ConsolationDecided)
    what = (
        "they play no more games (fewer than 003 §7's 4)"
        if fact.none
        else f"the best {fact.promote} of them play on in {fact.stage}"
    )
    why = f"; why: {record.why}" if record.why else ""
    return (
        f"Consolation games before {fact.stage}: {what} — the organizer's decision, "
        f"recorded by {record.by or '-'} at {when(record.at)}{why}."
    )


def ties_notes(comp: Competition, stage: str | None, table: int | None = None) -> list[str]:
    """The decided ties in ``stage``'s ranking and at its tables (or only ``table``);
    ``stage`` None: the final ranking."""
    out = []
    for record in comp.ties:
        scope_stage, scope_table = split_scope(_tie(record).scope)
        if stage is None:
            wanted = scope_stage == RANKING_SCOPE
        else:
            wanted = scope_stage == stage and (table is None or scope_table in (None, table))
        if wanted:
            out.append(tie_decision_text(comp, record))
    return out


def ties_grid(comp: Competition) -> Grid:
    """Every tie decision of the head judge, in the order recorded."""
    rows = []
    for record in comp.ties:
        fact = _tie(record)
        rows.append(
            (
                fact.scope,
                ", ".join(f"{_player(comp, pid).name} ({pid})" for pid in fact.order),
                fact.how.value + (f" (seed {fact.seed})" if fact.seed is not None else ""),
                record.by,
                _iso(record.at),
                record.why,
            )
        )
    return Grid(
        "Ties decided by the head judge (best first)",
        ("Scope", "Players", "How", "By", "When", "Why"),
        rows,
    )


def consolation_grid(comp: Competition) -> Grid:
    """Every seating of consolation players the organizer decided (003 §10e)."""
    rows = []
    for record in comp.consolations:
        fact = _fact_of(record, ConsolationDecided)
        how = "none play more games" if fact.none else f"the best {fact.promote} play on"
        rows.append((fact.stage, how, record.by, _iso(record.at), record.why))
    return Grid(
        "Consolation players seated by the organizer",
        ("Stage", "Decision", "By", "When", "Why"),
        rows,
    )


def league_cells(comp: Competition) -> dict[str, str]:
    """League points per player as shown; a shared place not decided yet is ``?``."""
    event = comp.event
    if not event.format.league:
        return {}
    return {
        pid: "?" if n is None else str(n) for pid, n in event.league_points_so_far().items()
    }


def undecided_ranking_note(comp: Competition) -> str:
    ties = comp.event.ranking_ties()
    if not ties:
        return ""
    listed = "; ".join(
        ", ".join(f"{_player(comp, pid).name} ({pid})" for pid in tie.players) for tie in ties
    )
    return (
        f"Not decided yet — level on a place that carries a title or league points: "
        f"{listed}. The head judge decides (rummikub tie list)."
    )


def _sanctions_note(comp: Competition) -> str:
    return (
        f"BP after the judge's deductions; {len(comp.sanctions)} sanction(s) recorded "
        "(rummikub sanction list)."
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
        player = _player(comp, row.player_id)
        cells: tuple[str, ...] = (
            label,
            player.name,
            player.club or "",
            row.player_id,
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


def seating_grid(comp: Competition, stage: str | None = None) -> Grid:
    """Every seat of ``stage`` (default: the latest) in table order."""
    stage = stage or _latest_stage(comp)
    rows = []
    for seated in comp.event.seating(stage):
        for index, pid in enumerate(seated.players):
            player = _player(comp, pid)
            rows.append(
                (
                    str(seated.number),
                    seat_code(seated.number, index),
                    player.name,
                    player.club or "",
                    pid,
                )
            )
    return Grid(
        f"Seating, {stage}",
        ("Table", "Seat", "Player", "Club", "ID"),
        rows,
        numeric=frozenset({0}),
    )


def players_grid(comp: Competition) -> Grid:
    event = comp.event
    present, withdrawn, disqualified = event.present, event.withdrawn, event.disqualified
    rows = []
    for pid, player in sorted(event.players.items(), key=lambda item: player_order(item[1])):
        status = (
            "disqualified"
            if pid in disqualified
            else "withdrawn"
            if pid in withdrawn
            else "present"
            if pid in present
            else "registered"
        )
        rating = "" if player.rating is None else f"{player.rating:g}"
        rows.append((pid, player.name, player.family_name, player.club or "", rating, status))
    return Grid(
        f"Players ({len(rows)} registered, {len(present)} present)",
        ("ID", "Name", "Surname", "Club", "Rating", "Status"),
        rows,
        numeric=frozenset({4}),
        note="By surname (the last word of the name unless set: rummikub players rename).",
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
            _iso(record.at),
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


def version_grid(
    comp: Competition,
    stage: str,
    table: int,
    versions: Sequence[ResultVersion],
    first: int = 1,
) -> Grid:
    """The seats of one game's result versions (the latest last), numbered from ``first``."""
    rows = []
    for number, version in enumerate(versions, start=first):
        racks = {r.seat: r for r in version.record.report.racks}
        for score in version.score.scores:
            rack = racks[score.seat]
            player = _player(comp, version.players[score.seat])
            rows.append(
                (
                    str(number),
                    f"{table}{score.seat}",
                    player.name,
                    rack_text(rack.tiles, rack.jokers, Opening(rack.opening)),
                    str(score.rack_value),
                    signed(score.small),
                    str(score.big),
                    str(score.place),
                )
            )
    game = versions[-1].game if versions else 0
    return Grid(
        f"Table {table}, game {game}, {stage}",
        ("Ver", "Seat", "Player", "Rack", "Value", "SP", "BP", "Place"),
        rows,
        numeric=frozenset({4, 5, 6, 7}),
    )


def results_grid(comp: Competition, stage: str) -> Grid:
    """Every game of ``stage`` as it counts (the latest version), one row per seat."""
    rows = []
    for (game_stage, table, game), versions in _games(comp):
        if game_stage != stage:
            continue
        version = versions[-1]
        racks = {r.seat: r for r in version.record.report.racks}
        for score in version.score.scores:
            rack = racks[score.seat]
            rows.append(
                (
                    str(table),
                    str(game),
                    f"{table}{score.seat}",
                    _player(comp, version.players[score.seat]).name,
                    rack_text(rack.tiles, rack.jokers, Opening(rack.opening)),
                    str(score.rack_value),
                    signed(score.small),
                    str(score.big),
                    str(score.place),
                    str(len(versions)),
                )
            )
    return Grid(
        f"Games of {stage} (round {comp.round_number(stage)})",
        ("Table", "Game", "Seat", "Player", "Rack", "Value", "SP", "BP", "Place", "Ver"),
        rows,
        numeric=frozenset({0, 1, 5, 6, 7, 8, 9}),
    )


def player_changes_grid(comp: Competition, player_id: str | None = None) -> Grid:
    """Every change of a player's name or club (or one player's), with who, when and why."""
    changes = comp.player_changes if player_id is None else comp.changes_of(player_id)
    rows = [
        (
            str(number),
            _iso(change.record.at),
            change.record.by,
            change.after.id,
            player_details(change.before),
            player_details(change.after),
            change.record.why,
        )
        for number, change in enumerate(changes, start=1)
    ]
    return Grid(
        "Name and club changes" if player_id is None else f"Name and club changes of {player_id}",
        ("#", "When", "By", "ID", "Before", "After", "Why"),
        rows,
        numeric=frozenset({0}),
    )


def player_details(player: Player) -> str:
    """Name (surname marked when it is not the last word), club."""
    given, surname = player.given_name, player.family_name
    shown = player.name if not player.surname or " " not in surname else f"{given} [{surname}]"
    return shown + (f", {player.club}" if player.club else "")


def sanctions_grid(comp: Competition, player_id: str | None = None) -> Grid:
    """Every sanction (or one player's), oldest first, with who, when and why, and who
    lifted it, when and why."""
    rows = []
    for number, record, lift in comp.numbered_sanctions(player_id):
        fact = _sanction(record)
        player = _player(comp, fact.player_id)
        rows.append(
            (
                str(number),
                when(record.at),
                record.by,
                fact.player_id,
                player.name,
                SANCTION_WORDS[fact.kind],
                str(fact.big) if fact.kind is SanctionKind.DEDUCTION else "",
                fact.stage,
                record.why,
                "" if lift is None else f"{when(lift.at)} by {lift.by}: {lift.why}",
            )
        )
    return Grid(
        "Sanctions (kary)" if player_id is None else f"Sanctions of {player_id}",
        ("#", "When", "Judge", "ID", "Player", "Sanction", "BP", "Stage", "Why", "Lifted"),
        rows,
        numeric=frozenset({0, 6}),
    )


def player_games_grid(comp: Competition, player_id: str) -> Grid:
    """Every game ``player_id`` played, as it counts (the latest version), in order."""
    player = _player(comp, player_id)
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


def rack_text(tiles: int, jokers: int, opening: Opening) -> str:
    """A rack in the CLI's rack syntax (``23``, ``12j``, ``85np``)."""
    flag = {
        Opening.OPENED: "",
        Opening.NOT_OPENED: "np",
        Opening.COULD_HAVE_OPENED: "cho",
        Opening.WAIVED: "waived",
    }[opening]
    return f"{tiles}{'j' * jokers}{flag}"


# --- CSV ------------------------------------------------------------------------------------


def csv_text(headers: Sequence[str], rows: Iterable[Sequence[str]], delimiter: str = ",") -> str:
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\r\n")
    writer.writerow(headers)
    writer.writerows(rows)
    return out.getvalue()


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
            player = _player(comp, row.player_id)
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


def sanctions_csv(comp: Competition, delimiter: str = ",") -> str:
    """Every sanction: when, who (the judge), the player, what, in which stage, why."""
    rows = []
    for number, record, lift in comp.numbered_sanctions():
        fact = _sanction(record)
        player = _player(comp, fact.player_id)
        rows.append(
            (
                str(number),
                _iso(record.at),
                record.by,
                fact.player_id,
                player.name,
                player.club or "",
                str(fact.kind),
                str(fact.big),
                fact.stage,
                record.why,
                "" if lift is None else _iso(lift.at),
                "" if lift is None else lift.by,
                "" if lift is None else lift.why,
            )
        )
    return csv_text(
        (
            "number", "at", "by", "player_id", "name", "club", "sanction", "bp", "stage", "why",
            "lifted_at", "lifted_by", "lifted_why",
        ),
        rows,
        delimiter,
    )


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
        player = _player(comp, pid)
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
                _iso(record.at),
                record.why,
            )
        )
    return rows


def _games(comp: Competition) -> list[tuple[tuple[str, int, int], list[ResultVersion]]]:
    """Every game with a result, in stage, table and game order."""
    return sorted(
        comp.results.items(), key=lambda kv: (comp.format.stage_index(kv[0][0]), kv[0][1:])
    )


def results_csv(comp: Competition, delimiter: str = ",") -> str:
    """One row per player per game: the result as it counts (the latest version)."""
    rows = [
        row
        for key, versions in _games(comp)
        for row in _result_rows(comp, key, versions[-1], len(versions))
    ]
    return csv_text(RESULT_HEADERS, rows, delimiter)


def corrections_csv(comp: Competition, delimiter: str = ",") -> str:
    """Every version of every corrected game, the first one included (what was
    corrected), one row per player, with who, when and why: the columns of
    ``results.csv``."""
    rows = [
        row
        for key, versions in _games(comp)
        if len(versions) > 1
        for number, version in enumerate(versions, start=1)
        for row in _result_rows(comp, key, version, number)
    ]
    return csv_text(RESULT_HEADERS, rows, delimiter)


def grid_csv(grid: Grid, delimiter: str = ",") -> str:
    """A grid as CSV, its headers as they are."""
    return csv_text(grid.headers, grid.rows, delimiter)


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


def seating_csv(comp: Competition, delimiter: str = ",") -> str:
    """Every stage drawn so far: stage, table, seat code, player."""
    rows = []
    for stage in comp.event.stages_played:
        for seated in comp.event.seating(stage):
            for index, pid in enumerate(seated.players):
                player = _player(comp, pid)
                rows.append(
                    (
                        stage,
                        str(comp.round_number(stage)),
                        str(seated.number),
                        seated.group,
                        seat_code(seated.number, index),
                        pid,
                        player.name,
                        player.club or "",
                    )
                )
    return csv_text(
        ("stage", "round", "table", "group", "code", "player_id", "name", "club"),
        rows,
        delimiter,
    )


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
        player = _player(comp, row.player_id)
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


def _iso(at: float) -> str:
    return dt.datetime.fromtimestamp(at, dt.UTC).astimezone().isoformat(timespec="seconds")


def when(at: float) -> str:
    """Local date and time as people read it (``2026-01-18 14:05:09``); CSV files carry
    the ISO form with the UTC offset."""
    return dt.datetime.fromtimestamp(at, dt.UTC).astimezone().strftime("%Y-%m-%d %H:%M:%S")


# --- HTML -----------------------------------------------------------------------------------

_CSS = """
@page { size: A4; margin: 12mm 12mm 15mm;
        @bottom-center { content: counter(page) " / " counter(pages);
                         font: 9pt "DejaVu Sans", Arial, sans-serif; } }
* { box-sizing: border-box; }
html { font-family: "DejaVu Sans", "Segoe UI", Arial, sans-serif; font-size: 11pt; color: #000; }
body { margin: 0; }
h1 { font-size: 18pt; margin: 0 0 3mm; }
h2 { font-size: 14pt; margin: 5mm 0 2mm; }
p.meta, p.note { font-size: 10pt; margin: 0 0 3mm; }
table { border-collapse: collapse; width: 100%; }
th, td { border: 0.3mm solid #000; padding: 1mm 1.5mm; text-align: left; vertical-align: top;
         overflow-wrap: break-word; }
th { background: #e6e6e6; }
table.dense { font-size: 9pt; }
.num { text-align: right; }
.code, .num { white-space: nowrap; overflow-wrap: normal; }
td.code { font-weight: bold; }
.club { display: block; font-size: 0.72em; }
.block { break-inside: avoid; }
.page { break-after: page; }
.page:last-child { break-after: auto; }
.wall { font-size: 14pt; }
.wall h1 { font-size: 22pt; }
.tables .block { display: inline-block; width: 49%; margin: 0 0 4mm; vertical-align: top; }
.page h1 { font-size: 16pt; }
.page h2 { font-size: 12pt; margin: 3mm 0 1mm; }
.page p.meta { font-size: 9pt; margin: 0 0 1.5mm; }
.sheet td.box { height: 8mm; }
.sheet th.w1 { width: 11mm; }
.sheet th.w2 { width: 16mm; }
.sheet th.w3 { width: 42mm; }
.totals { table-layout: fixed; }
.sheet td.tick { text-align: center; }
tr.total th, tr.total td { height: 11mm; font-weight: bold; }
.sign { margin-top: 6mm; font-size: 10pt; }
@media screen { body { margin: 10mm auto; max-width: 190mm; } }
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def document(title: str, body: str, css_class: str = "") -> str:
    body_tag = f'<body class="{css_class}">' if css_class else "<body>"
    return (
        '<!DOCTYPE html>\n<html lang="pl">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{_e(title)}</title>\n<style>{_CSS}</style>\n</head>\n{body_tag}\n{body}</body>\n"
        "</html>\n"
    )


def _num(numeric: bool) -> str:
    return ' class="num"' if numeric else ""


DENSE_COLUMNS = 8
"""A table of this many columns or more prints in smaller type to fit the page's width."""


def grid_html(grid: Grid, heading: str = "h2") -> str:
    """A grid as an HTML table; a "Club" column right after "Player" is printed in small
    type under the name (the page keeps its width for the figures)."""
    headers = list(grid.headers)
    club = headers.index("Club") if "Club" in headers else -1
    fold = club > 0 and headers[club - 1] == "Player"

    def cells(row: Sequence[str], tag: str) -> str:
        out = []
        for i, cell in enumerate(row):
            if fold and i == club:
                continue
            text = _e(cell)
            if fold and i == club - 1 and tag == "td" and row[club]:
                text += f'<span class="club">{_e(row[club])}</span>'
            out.append(f"<{tag}{_num(i in grid.numeric)}>{text}</{tag}>")
        return "".join(out)

    head = cells(grid.headers, "th")
    body = "".join(f"<tr>{cells(row, 'td')}</tr>\n" for row in grid.rows)
    note = f'<p class="note">{_e(grid.note)}</p>\n' if grid.note else ""
    dense = ' class="dense"' if len(headers) - fold >= DENSE_COLUMNS else ""
    return (
        f"<{heading}>{_e(grid.title)}</{heading}>\n{note}<table{dense}>\n"
        f"<thead><tr>{head}</tr></thead>\n"
        f"<tbody>\n{body}</tbody>\n</table>\n"
    )


def event_name(comp: Competition) -> str:
    return comp.created.name if comp.created is not None else "Rummikub"


def _name_cell(player: Player, *, surname_first: bool = False) -> str:
    """A player's name (``Nowak Anna`` with ``surname_first``, for a list sorted by
    surname) with the club in small type under it."""
    name = player.name
    if surname_first:
        name = f"{player.family_name} {player.given_name}".strip()
    club = f'<span class="club">{_e(player.club)}</span>' if player.club else ""
    return f'<td class="name">{_e(name)}{club}</td>'


def seating_html(comp: Competition, stage: str | None = None) -> str:
    """The seating by table, for the wall: big table numbers, seat codes and names."""
    stage = stage or _latest_stage(comp)
    blocks = []
    for seated in comp.event.seating(stage):
        rows = "".join(
            f'<tr><td class="code">{_e(seat_code(seated.number, i))}</td>'
            f"{_name_cell(_player(comp, pid))}</tr>\n"
            for i, pid in enumerate(seated.players)
        )
        blocks.append(
            f'<div class="block"><h2>Table {seated.number}</h2>\n<table>\n{rows}</table></div>\n'
        )
    title = f"{event_name(comp)} — seating, {stage}"
    widest = max(len(t.players) for t in comp.event.seating(stage))
    others = ", ".join(str(seat) for seat in seats_for(widest)[1:])
    body = (
        f'<h1>{_e(title)}</h1>\n<p class="meta">Round {comp.round_number(stage)}. '
        f"Seat A sits first; the others follow clockwise {others}.</p>\n"
        f'<div class="tables">\n{"".join(blocks)}</div>\n'
    )
    return document(title, body, "wall")


def find_table_html(comp: Competition, stage: str | None = None) -> str:
    """Every player by surname, then given name, with their table and seat ("find your
    table")."""
    stage = stage or _latest_stage(comp)
    entries = [
        (_player(comp, pid), seated.number, seat_code(seated.number, i))
        for seated in comp.event.seating(stage)
        for i, pid in enumerate(seated.players)
    ]
    entries.sort(key=lambda e: player_order(e[0]))
    rows = "".join(
        f'<tr>{_name_cell(p, surname_first=True)}<td class="num">{number}</td>'
        f'<td class="code">{_e(code)}</td></tr>\n'
        for p, number, code in entries
    )
    title = f"{event_name(comp)} — find your table, {stage}"
    body = (
        f'<h1>{_e(title)}</h1>\n<table>\n<thead><tr><th>Player</th><th class="num">Table</th>'
        f"<th>Seat</th></tr></thead>\n<tbody>\n{rows}</tbody>\n</table>\n"
    )
    return document(title, body, "wall")


SUM_BIG = "Suma dużych punktów (BP)"
SUM_SMALL = "Suma małych punktów (SP)"


def scoresheets_html(comp: Competition, stage: str | None = None) -> str:
    """One page per table: per game, empty boxes to write each seat's result; under them
    the totals rows of the paper table ("Suma dużych / małych punktów") per player, in
    seat order."""
    stage = stage or _latest_stage(comp)
    index = comp.format.stage_index(stage)
    games = comp.format.stages[index].games
    rules = comp.ruleset(stage)
    pages = []
    for seated in comp.event.seating(stage):
        count = len(seated.players)
        players = [_player(comp, pid) for pid in seated.players]
        codes = [seat_code(seated.number, i) for i in range(count)]
        sheets = []
        for game in range(1, games + 1):
            chosen = comp.starter(stage, seated.number, game)
            starter = chosen or starting_seat(game, count)
            how = " (the organizer's choice)" if chosen is not None else ""
            rows = "".join(
                f'<tr><td class="code">{_e(code)}</td><td>{_e(player.name)}</td>'
                '<td class="box"></td><td class="box"></td><td class="box tick">☐</td>'
                '<td class="box"></td><td class="box"></td><td class="box"></td></tr>\n'
                for code, player in zip(codes, players, strict=True)
            )
            sheets.append(
                f'<div class="block"><h2>Game {game} — seat {starter} starts{how}</h2>\n'
                '<p class="meta">☐ somebody went out &nbsp; ☐ nobody went out (last lap)</p>\n'
                '<table class="sheet">\n<thead><tr><th class="w1">Seat</th>'
                '<th>Player</th><th class="w2">Tiles left</th><th class="w2">Jokers</th>'
                '<th class="w2">Never opened</th><th class="w2">SP</th><th class="w2">BP</th>'
                f'<th class="w2">Initials</th></tr></thead>\n<tbody>\n{rows}</tbody>\n'
                "</table></div>\n"
            )
        heads = "".join(
            f'<th><span class="code">{_e(code)}</span> {_e(player.name)}</th>'
            for code, player in zip(codes, players, strict=True)
        )
        empty = "<td></td>" * count
        totals = (
            f'<div class="block"><h2>Round {comp.round_number(stage)}: the {games} games '
            f'together</h2>\n<table class="sheet totals">\n<thead><tr><th class="w3"></th>{heads}'
            "</tr></thead>\n<tbody>\n"
            f'<tr class="total"><th>{_e(SUM_BIG)}</th>{empty}</tr>\n'
            f'<tr class="total"><th>{_e(SUM_SMALL)}</th>{empty}</tr>\n'
            "</tbody>\n</table></div>\n"
        )
        pages.append(
            f'<section class="page">\n<h1>{_e(event_name(comp))} — table {seated.number}</h1>\n'
            f'<p class="meta">{_e(stage)} (round {comp.round_number(stage)}), {games} games, '
            f"ruleset {_e(rules.name)}: {rules.move_seconds:g} s per move, joker "
            f"{rules.joker_penalty}, never opened {rules.not_opened_penalty} "
            f"(could have opened {rules.could_have_opened_penalty}).</p>\n"
            f"{''.join(sheets)}{totals}"
            '<p class="sign">Judge: ______________________ &nbsp; Time: ________</p>\n'
            "</section>\n"
        )
    title = f"{event_name(comp)} — score sheets, {stage}"
    return document(title, "".join(pages))


def standings_html(comp: Competition, stage: str | None = None) -> str:
    grid = standings_grid(comp, stage)
    title = f"{event_name(comp)} — {grid.title}"
    sanctions = grid_html(sanctions_grid(comp)) if comp.sanctions else ""
    return document(title, f"<h1>{_e(event_name(comp))}</h1>\n{grid_html(grid)}{sanctions}")


def ranking_html(comp: Competition) -> str:
    grid = ranking_grid(comp)
    sanctions = grid_html(sanctions_grid(comp)) if comp.sanctions else ""
    return document(grid.title, grid_html(grid, "h1") + sanctions)


def printouts(comp: Competition, stage: str | None = None) -> dict[str, str]:
    """The documents to print for ``stage`` (default: the latest), by file name without
    the extension: seating, find-your-table, score sheets, standings, and the final
    ranking once the event is finished."""
    stage = stage or _latest_stage(comp)
    docs = {
        "seating": seating_html(comp, stage),
        "find-your-table": find_table_html(comp, stage),
        "scoresheets": scoresheets_html(comp, stage),
        "standings": standings_html(comp, stage),
    }
    if comp.event.phase is Phase.FINISHED:
        docs["ranking"] = ranking_html(comp)
    return docs


def grids_html(comp: Competition, title: str, grids: Iterable[Grid], empty: str = "") -> str:
    """One printable document of ``grids`` under the event's name and ``title``
    (``empty``: what it says when there is no grid)."""
    body = "".join(grid_html(grid) for grid in grids) or f'<p class="note">{_e(empty)}</p>\n'
    heading = f"{event_name(comp)} — {title}"
    return document(heading, f"<h1>{_e(heading)}</h1>\n{body}")


def corrections_html(comp: Competition) -> str:
    """Every correction (who, when, why), then every version of each corrected game."""
    corrected = [(key, versions) for key, versions in _games(comp) if len(versions) > 1]
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
