"""The documents printed for a round: the seating by table for the wall, "find your
table" by surname, the score sheets for the judges, the standings, and the final
ranking once the event is finished."""

from __future__ import annotations

from hub.competition import Competition
from hub.exports.grid import event_name, latest_stage, player_of, seat_code
from hub.exports.lists import find_table_lines, sanctions_grid
from hub.exports.pages import document, esc, grid_html
from hub.exports.standings import ranking_grid, standings_grid
from hub.tournament import (
    Phase,
    Player,
)
from tablekit.core.seats import seats_for, starting_seat


def _name_cell(player: Player, *, surname_first: bool = False) -> str:
    """A player's name (``Nowak Anna`` with ``surname_first``, for a list sorted by
    surname) with the club in small type under it."""
    name = player.name
    if surname_first:
        name = f"{player.family_name} {player.given_name}".strip()
    club = f'<span class="club">{esc(player.club)}</span>' if player.club else ""
    return f'<td class="name">{esc(name)}{club}</td>'


def seating_html(comp: Competition, stage: str | None = None) -> str:
    """The seating by table, for the wall: big table numbers, seat codes and names."""
    stage = stage or latest_stage(comp)
    blocks = []
    for seated in comp.event.seating(stage):
        rows = "".join(
            f'<tr><td class="code">{esc(seat_code(seated.number, i))}</td>'
            f"{_name_cell(player_of(comp, pid))}</tr>\n"
            for i, pid in enumerate(seated.players)
        )
        blocks.append(
            f'<div class="block"><h2>Table {seated.number}</h2>\n<table>\n{rows}</table></div>\n'
        )
    title = f"{event_name(comp)} — seating, {stage}"
    widest = max(len(t.players) for t in comp.event.seating(stage))
    others = ", ".join(str(seat) for seat in seats_for(widest)[1:])
    body = (
        f'<h1>{esc(title)}</h1>\n<p class="meta">Round {comp.round_number(stage)}. '
        f"Seat A sits first; the others follow clockwise {others}.</p>\n"
        f'<div class="tables">\n{"".join(blocks)}</div>\n'
    )
    return document(title, body, "wall")


def find_table_html(comp: Competition, stage: str | None = None) -> str:
    """Every player by surname, then given name, with their table and seat ("find your
    table")."""
    stage = stage or latest_stage(comp)
    rows = "".join(
        f'<tr>{_name_cell(s.player, surname_first=True)}<td class="num">{s.table.number}</td>'
        f'<td class="code">{esc(s.code)}</td></tr>\n'
        for s in find_table_lines(comp, stage)
    )
    title = f"{event_name(comp)} — find your table, {stage}"
    body = (
        f'<h1>{esc(title)}</h1>\n<table>\n<thead><tr><th>Player</th><th class="num">Table</th>'
        f"<th>Seat</th></tr></thead>\n<tbody>\n{rows}</tbody>\n</table>\n"
    )
    return document(title, body, "wall")


SUM_BIG = "Suma dużych punktów (BP)"
SUM_SMALL = "Suma małych punktów (SP)"


def scoresheets_html(comp: Competition, stage: str | None = None) -> str:
    """One page per table: per game, empty boxes to write each seat's result; under them
    the totals rows of the paper table ("Suma dużych / małych punktów") per player, in
    seat order."""
    stage = stage or latest_stage(comp)
    index = comp.format.stage_index(stage)
    games = comp.format.stages[index].games
    rules = comp.ruleset(stage)
    pages = []
    for seated in comp.event.seating(stage):
        count = len(seated.players)
        players = [player_of(comp, pid) for pid in seated.players]
        codes = [seat_code(seated.number, i) for i in range(count)]
        sheets = []
        for game in range(1, games + 1):
            chosen = comp.starter(stage, seated.number, game)
            starter = chosen or starting_seat(game, count)
            how = " (the organizer's choice)" if chosen is not None else ""
            rows = "".join(
                f'<tr><td class="code">{esc(code)}</td><td>{esc(player.name)}</td>'
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
            f'<th><span class="code">{esc(code)}</span> {esc(player.name)}</th>'
            for code, player in zip(codes, players, strict=True)
        )
        empty = "<td></td>" * count
        totals = (
            f'<div class="block"><h2>Round {comp.round_number(stage)}: the {games} games '
            f'together</h2>\n<table class="sheet totals">\n<thead><tr><th class="w3"></th>{heads}'
            "</tr></thead>\n<tbody>\n"
            f'<tr class="total"><th>{esc(SUM_BIG)}</th>{empty}</tr>\n'
            f'<tr class="total"><th>{esc(SUM_SMALL)}</th>{empty}</tr>\n'
            "</tbody>\n</table></div>\n"
        )
        pages.append(
            f'<section class="page">\n<h1>{esc(event_name(comp))} — table {seated.number}</h1>\n'
            f'<p class="meta">{esc(stage)} (round {comp.round_number(stage)}), {games} games, '
            f"ruleset {esc(rules.name)}: {rules.move_seconds:g} s per move, joker "
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
    return document(title, f"<h1>{esc(event_name(comp))}</h1>\n{grid_html(grid)}{sanctions}")


def ranking_html(comp: Competition) -> str:
    grid = ranking_grid(comp)
    sanctions = grid_html(sanctions_grid(comp)) if comp.sanctions else ""
    return document(grid.title, grid_html(grid, "h1") + sanctions)


def printouts(comp: Competition, stage: str | None = None) -> dict[str, str]:
    """The documents to print for ``stage`` (default: the latest), by file name without
    the extension: seating, find-your-table, score sheets, standings, and the final
    ranking once the event is finished."""
    stage = stage or latest_stage(comp)
    docs = {
        "seating": seating_html(comp, stage),
        "find-your-table": find_table_html(comp, stage),
        "scoresheets": scoresheets_html(comp, stage),
        "standings": standings_html(comp, stage),
    }
    if comp.event.phase is Phase.FINISHED:
        docs["ranking"] = ranking_html(comp)
    return docs
