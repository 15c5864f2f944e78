"""The documents printed for a round: the seating by table for the wall, "find your
table" by surname, the score sheets for the judges, the standings, and the final
ranking once the event is finished."""

from __future__ import annotations

from hub.competition import Competition
from hub.exports.grid import event_name, latest_stage, player_of, seat_code
from hub.exports.lists import find_table_lines, sanctions_grid
from hub.exports.pages import MINUS, document, esc, grid_html
from hub.exports.standings import points_headers, ranking_grid, standings_grid
from hub.exports.words import stage_label, stage_title
from hub.tournament import (
    EventPhase,
    Player,
)
from tablekit.core.seats import seats_for, starting_seat
from tablekit.shared import forms
from tablekit.shared.i18n import Words
from tablekit.shared.qr import svg_data_uri


def _name_cell(player: Player, *, surname_first: bool = False) -> str:
    """A player's name (``Nowak Anna`` with ``surname_first``, for a list sorted by
    surname) with the club in small type under it."""
    name = player.name
    if surname_first:
        name = f"{player.family_name} {player.given_name}".strip()
    club = f'<span class="club">{esc(player.club)}</span>' if player.club else ""
    return f'<td class="name">{esc(name)}{club}</td>'


def console_code(console_url: str, words: Words) -> str:
    """The web console's QR code for a sheet on the wall (its find your table page), with
    the address to type; "" without an address (``[web] public_url``)."""
    if not console_url:
        return ""
    target = f"{console_url}/find"
    caption = words.gettext(
        "Your table, the standings and your games on your phone: scan the code or open "
        "{address}"
    ).format(address=target.split("://", 1)[-1])
    image = f'<img src="{esc(svg_data_uri(target))}" alt="{esc(target)}">'
    return f'<div class="qr">{image}<p>{esc(caption)}</p></div>\n'


def seating_html(
    comp: Competition, words: Words, stage: str | None = None, console_url: str = ""
) -> str:
    """The seating by table, for the wall: big table numbers, seat codes and names (and
    the console's QR code when its address is known)."""
    stage = stage or latest_stage(comp)
    blocks = []
    for seated in comp.event.seating(stage):
        rows = "".join(
            f'<tr><td class="code">{esc(seat_code(seated.number, i))}</td>'
            f"{_name_cell(player_of(comp, pid))}</tr>\n"
            for i, pid in enumerate(seated.players)
        )
        table = words.gettext("Table {table}").format(table=seated.number)
        blocks.append(f'<div class="block"><h2>{esc(table)}</h2>\n<table>\n{rows}</table></div>\n')
    name = stage_label(stage, words)
    title = words.gettext("{event} — seating, {stage}").format(event=event_name(comp), stage=name)
    widest = max(len(t.players) for t in comp.event.seating(stage))
    others = ", ".join(str(seat) for seat in seats_for(widest)[1:])
    legend = words.gettext(
        "Round {round}. Seat A sits first; the others follow clockwise {seats}."
    ).format(round=comp.round_number(stage), seats=others)
    body = (
        f"{console_code(console_url, words)}<h1>{esc(title)}</h1>\n"
        f'<p class="meta">{esc(legend)}</p>\n'
        f'<div class="tables">\n{"".join(blocks)}</div>\n'
    )
    return document(title, body, words, "wall")


def find_table_html(
    comp: Competition, words: Words, stage: str | None = None, console_url: str = ""
) -> str:
    """Every player by surname, then given name, with their table and seat ("find your
    table"; and the console's QR code when its address is known)."""
    stage = stage or latest_stage(comp)
    rows = "".join(
        f'<tr>{_name_cell(s.player, surname_first=True)}<td class="num">{s.table.number}</td>'
        f'<td class="code">{esc(s.code)}</td></tr>\n'
        for s in find_table_lines(comp, stage)
    )
    title = words.gettext("{event} — find your table, {stage}").format(
        event=event_name(comp), stage=stage_label(stage, words)
    )
    player = words.pgettext("column", "Player")
    table = words.pgettext("column", "Table")
    seat = words.pgettext("column", "Seat")
    heads = f'<th>{esc(player)}</th><th class="num">{esc(table)}</th><th>{esc(seat)}</th>'
    body = (
        f"{console_code(console_url, words)}<h1>{esc(title)}</h1>\n<table>\n"
        f"<thead><tr>{heads}</tr></thead>\n"
        f"<tbody>\n{rows}</tbody>\n</table>\n"
    )
    return document(title, body, words, "wall")


def sums(words: Words) -> tuple[str, str]:
    """The totals rows of the paper score sheet: the rule books' words and abbreviations
    (the sum of big points, then of small points)."""
    big, small = points_headers(words)
    return (
        words.gettext("Sum of big points ({abbreviation})").format(abbreviation=big),
        words.gettext("Sum of small points ({abbreviation})").format(abbreviation=small),
    )


def _sheet_head(words: Words) -> str:
    """The header row of one game's table on a score sheet."""
    big, small = points_headers(words)
    cells = (
        ("w1", words.pgettext("column", "Seat")),
        ("", words.pgettext("column", "Player")),
        ("w2", words.pgettext("score sheet", "Tiles left")),
        ("w2", words.pgettext("score sheet", "Jokers")),
        ("w2", words.pgettext("score sheet", "Not opened")),
        ("w2", small),
        ("w2", big),
        ("w2", words.pgettext("score sheet", "Initials")),
    )
    return "".join(
        f'<th class="{width}">{esc(text)}</th>' if width else f"<th>{esc(text)}</th>"
        for width, text in cells
    )


def scoresheets_html(comp: Competition, words: Words, stage: str | None = None) -> str:
    """One page per table: per game, empty boxes to write each seat's result; under them
    the totals rows of the paper table ("Suma dużych / małych punktów") per player, in
    seat order."""
    stage = stage or latest_stage(comp)
    index = comp.format.stage_index(stage)
    games = comp.format.stages[index].games
    rules = comp.ruleset(stage)
    name = stage_label(stage, words)
    stage_heading = stage_title(stage, comp.round_number(stage), words)
    sum_big, sum_small = sums(words)
    ended = esc(words.gettext("☐ somebody went out    ☐ nobody went out (last lap)")).replace(
        "    ", " &nbsp; "
    )
    penalties = (
        f"☐&nbsp;{MINUS}{rules.not_opened_penalty}<br>☐&nbsp;{MINUS}{rules.could_have_opened_penalty}"
    )
    pages = []
    for seated in comp.event.seating(stage):
        count = len(seated.players)
        players = [player_of(comp, pid) for pid in seated.players]
        codes = [seat_code(seated.number, i) for i in range(count)]
        sheets = []
        for game in range(1, games + 1):
            chosen = comp.starter(stage, seated.number, game)
            starter = chosen or starting_seat(game, count)
            heading = (
                words.gettext("Game {game} — seat {seat} starts (the organizer's choice)")
                if chosen is not None
                else words.gettext("Game {game} — seat {seat} starts")
            ).format(game=game, seat=starter)
            rows = "".join(
                f'<tr><td class="code">{esc(code)}</td><td>{esc(player.name)}</td>'
                '<td class="box"></td><td class="box"></td>'
                f'<td class="box tick">{penalties}</td>'
                '<td class="box"></td><td class="box"></td><td class="box"></td></tr>\n'
                for code, player in zip(codes, players, strict=True)
            )
            sheets.append(
                f'<div class="block"><h2>{esc(heading)}</h2>\n'
                f'<p class="meta">{ended}</p>\n'
                f'<table class="sheet">\n<thead><tr>{_sheet_head(words)}</tr></thead>\n'
                f"<tbody>\n{rows}</tbody>\n</table></div>\n"
            )
        heads = "".join(
            f'<th><span class="code">{esc(code)}</span> {esc(player.name)}</th>'
            for code, player in zip(codes, players, strict=True)
        )
        empty = "<td></td>" * count
        together = words.ngettext(
            "Table {table}, {stage}: the {n} game together",
            "Table {table}, {stage}: the {n} games together",
            games,
        ).format(table=seated.number, stage=stage_heading, n=games)
        totals = (
            f'<div class="block"><h2>{esc(together)}</h2>\n'
            f'<table class="sheet totals">\n<thead><tr><td class="w3"></td>{heads}'
            "</tr></thead>\n<tbody>\n"
            f'<tr class="total"><th>{esc(sum_big)}</th>{empty}</tr>\n'
            f'<tr class="total"><th>{esc(sum_small)}</th>{empty}</tr>\n'
            "</tbody>\n</table></div>\n"
        )
        table = words.gettext("{event} — table {table}").format(
            event=event_name(comp), table=seated.number
        )
        meta = words.ngettext(
            "{stage}, {n} game: {seconds} s per move; a joker left counts {joker}; not opened: "
            "{never}, or {could} for a player who could have opened.",
            "{stage}, {n} games: {seconds} s per move; a joker left counts {joker}; not opened: "
            "{never}, or {could} for a player who could have opened.",
            games,
        ).format(
            stage=stage_heading,
            n=games,
            seconds=forms.number(rules.move_seconds, words),
            joker=rules.joker_penalty,
            never=rules.not_opened_penalty,
            could=rules.could_have_opened_penalty,
        )
        sign = esc(words.gettext("Judge: ______________________    Time: ________")).replace(
            "    ", " &nbsp; "
        )
        pages.append(
            f'<section class="page">\n<h1>{esc(table)}</h1>\n'
            f'<p class="meta">{esc(meta)}</p>\n'
            f"{''.join(sheets)}{totals}"
            f'<p class="sign">{sign}</p>\n'
            "</section>\n"
        )
    title = words.gettext("{event} — score sheets, {stage}").format(
        event=event_name(comp), stage=name
    )
    return document(title, "".join(pages), words)


def standings_html(comp: Competition, words: Words, stage: str | None = None) -> str:
    grid = standings_grid(comp, stage, words=words)
    title = f"{event_name(comp)} — {grid.title}"
    sanctions = grid_html(sanctions_grid(comp, words=words)) if comp.sanctions else ""
    return document(title, f"<h1>{esc(event_name(comp))}</h1>\n{grid_html(grid)}{sanctions}", words)


def ranking_html(comp: Competition, words: Words) -> str:
    grid = ranking_grid(comp, words)
    sanctions = grid_html(sanctions_grid(comp, words=words)) if comp.sanctions else ""
    return document(grid.title, grid_html(grid, "h1") + sanctions, words)


def printouts(
    comp: Competition, words: Words, stage: str | None = None, console_url: str = ""
) -> dict[str, str]:
    """The documents to print for ``stage`` (default: the latest), by file name without
    the extension: seating, find-your-table, score sheets, standings, and the final
    ranking once the event is finished. ``console_url``: the web console's address, for
    the QR code on the two sheets for the wall."""
    stage = stage or latest_stage(comp)
    docs = {
        "seating": seating_html(comp, words, stage, console_url),
        "find-your-table": find_table_html(comp, words, stage, console_url),
        "scoresheets": scoresheets_html(comp, words, stage),
        "standings": standings_html(comp, words, stage),
    }
    if comp.event.phase is EventPhase.FINISHED:
        docs["ranking"] = ranking_html(comp, words)
    return docs
