"""The list pages: the standings and the next round's seating ("find your table"), each
in as many columns as fit the screen at a readable size and paged when they do not."""

from __future__ import annotations

from typing import Final

import pygame

from hub.hall import HallView, Page, page_ranges
from hub.screen.canvas import Canvas
from hub.screen.geometry import ListGrid, list_capacity, plan_list
from hub.screen.theme import BG, DIM, GOLD, MUTED, TEXT, ZEBRA
from hub.tournament.standings import place_labels, signed
from tablekit.core.messages import RoundInfo, StandingsBoard
from tablekit.shared.i18n import Words

STANDINGS_CHARS: Final = 30
"""Width of a standings column, in characters of the list font."""
SEATING_CHARS: Final = 24
"""Width of a seating column, in characters of the list font."""


def list_size(canvas: Canvas) -> int:
    """The list pages' text size."""
    return round(canvas.layout.text * 1.2)


def _list_area(canvas: Canvas, min_chars: int) -> tuple[pygame.Rect, int, int]:
    size = list_size(canvas)
    row_h = round(size * 1.5)
    area = canvas.layout.body.copy()
    area.top += row_h
    area.height -= 2 * row_h  # a row for the column heads, one for a footnote
    min_w = canvas.texts.width("cond", size, "n" * min_chars)
    return area, row_h, min_w


def list_grid(canvas: Canvas, items: int, min_chars: int) -> ListGrid:
    """The grid of one list page of ``items`` rows."""
    area, row_h, min_w = _list_area(canvas, min_chars)
    return plan_list(area, items, row_h, min_w, max_cols=4)


def list_pages(canvas: Canvas, items: int, min_chars: int) -> list[range]:
    """The rows on each page of a list of ``items`` rows."""
    area, row_h, min_w = _list_area(canvas, min_chars)
    return page_ranges(items, list_capacity(area, row_h, min_w, max_cols=4))


def standings_title(words: Words, board: StandingsBoard | None, info: RoundInfo | None) -> str:
    """The standings page's title in ``words``' language: final, with a round in play,
    or after the last closed round (``after_round``; 0: none closed yet)."""
    _ = words.gettext
    if board is None:
        return _("STANDINGS")
    if board.final:
        return _("FINAL STANDINGS")
    if info is not None and not info.closed and info.round > board.after_round:
        return _("STANDINGS · ROUND {round} IN PLAY").format(round=info.round)
    if board.after_round:
        return _("STANDINGS AFTER ROUND {round}").format(round=board.after_round)
    return _("STANDINGS")


def standings_content(canvas: Canvas, hall: HallView, page: Page) -> object:
    """What a standings page shows (equal contents need no redraw): its rows, or why
    there are none."""
    _ = canvas.words.gettext
    board = hall.standings
    if board is None or hall.standings_hidden or page.count == 0:
        closed = hall.round.round if hall.round is not None else 0
        if hall.standings_hidden:
            return (
                "message",
                _("Standings are shown when round {round} is closed").format(round=closed)
                if closed
                else _("Standings are shown when the round is closed"),
            )
        return ("message", _("No standings yet"))
    ranges = list_pages(canvas, len(board.rows), STANDINGS_CHARS)
    part = ranges[min(page.index, len(ranges) - 1)]
    grid = list_grid(canvas, len(part), STANDINGS_CHARS)
    labels = place_labels([r.place for r in board.rows])
    rows = tuple(
        (
            labels[i],
            board.rows[i].name,
            str(board.rows[i].big),
            signed(board.rows[i].small),
            str(board.rows[i].games),
            board.rows[i].place,
        )
        for i in part
    )
    notes = []
    if any(label.endswith("=") for label in labels):
        notes.append(_("2= shared place (level on BP and SP)"))
    return ("standings", grid, rows, "  ·  ".join(notes), board.final)


def seating_content(canvas: Canvas, hall: HallView, page: Page) -> object:
    """What a seating page shows: players by name with their table and seat."""
    board = hall.seating
    if board is None or not board.rows or page.count == 0:
        return ("message", canvas.words.gettext("The next round's seating is not drawn yet"))
    rows_all = board.rows  # in the hub's order, the printed list's
    ranges = list_pages(canvas, len(rows_all), SEATING_CHARS)
    part = ranges[min(page.index, len(ranges) - 1)]
    grid = list_grid(canvas, len(part), SEATING_CHARS)
    rows = tuple((rows_all[i].name, str(rows_all[i].table), rows_all[i].seat) for i in part)
    return ("seating", grid, rows)


def draw_message(canvas: Canvas, region: str, rect: pygame.Rect, text: str) -> None:
    """A list page without rows says why, large."""
    canvas.text(region, text, "bold", canvas.layout.big, MUTED, rect, "center")


def draw_standings(canvas: Canvas, region: str, rect: pygame.Rect, content: object) -> None:
    assert isinstance(content, tuple)
    canvas.surface.fill(BG, rect)
    if content[0] == "message":
        draw_message(canvas, region, rect, content[1])
        return
    _kind, grid, rows, note, _final = content
    assert isinstance(grid, ListGrid)
    _ = canvas.words.gettext
    size = list_size(canvas)
    w = canvas.texts.width
    place_w = w("bold", size, "000=") + size // 2
    num_w = w("bold", size, "-0000") + size // 2
    games_w = w("bold", size, "00") + size // 2

    def columns(row: pygame.Rect) -> tuple[pygame.Rect, ...]:
        place = pygame.Rect(row.left + size // 3, row.top, place_w, row.height)
        games = pygame.Rect(row.right - games_w - size // 3, row.top, games_w, row.height)
        sp = pygame.Rect(games.left - num_w, row.top, num_w, row.height)
        bp = pygame.Rect(sp.left - num_w, row.top, num_w, row.height)
        name = pygame.Rect(
            place.right + size // 3, row.top, bp.left - place.right - size // 2, row.height
        )
        return place, name, bp, sp, games

    for col in range(grid.cols):
        head = grid.slot(col * grid.rows_per_col).move(0, -grid.row_h)
        for box, text, align in zip(
            columns(head),
            (
                "#",
                _("NAME"),
                canvas.words.pgettext("abbreviation of big points", "BP"),
                canvas.words.pgettext("abbreviation of small points", "SP"),
                # Translators: the standings' column of games played (one letter).
                _("G"),
            ),
            ("right", "left", "right", "right", "right"),
            strict=True,
        ):
            canvas.text(region, text, "cond", size, MUTED, box, align)
    for i, (place, name, big, small, games, number) in enumerate(rows):
        row = grid.slot(i)
        if i % 2 == 0:
            canvas.surface.fill(ZEBRA, row)
        fg = GOLD if number <= 3 else TEXT
        boxes = columns(row)
        canvas.text(region, place, "bold", size, fg, boxes[0], "right")
        canvas.text(region, name, "cond", size, TEXT, boxes[1], name=True)
        canvas.text(region, big, "bold", size, TEXT, boxes[2], "right")
        canvas.text(region, small, "cond", size, TEXT, boxes[3], "right")
        canvas.text(region, games, "cond", size, MUTED, boxes[4], "right")
    if note:
        box = pygame.Rect(rect.left, rect.bottom - grid.row_h, rect.width, grid.row_h)
        canvas.text(region, note, "cond", size, DIM, box, "right")


def draw_seating(canvas: Canvas, region: str, rect: pygame.Rect, content: object) -> None:
    assert isinstance(content, tuple)
    canvas.surface.fill(BG, rect)
    if content[0] == "message":
        draw_message(canvas, region, rect, content[1])
        return
    _kind, grid, rows = content
    assert isinstance(grid, ListGrid)
    _ = canvas.words.gettext
    heads = (_("NAME"), _("TABLE"), _("SEAT"))
    size = list_size(canvas)
    width = canvas.texts.width
    table_w = max(width("cond", size, heads[1]), width("bold", size, "000")) + size // 2
    seat_w = canvas.texts.width("cond", size, heads[2]) + size // 2

    def columns(row: pygame.Rect) -> tuple[pygame.Rect, ...]:
        seat = pygame.Rect(row.right - seat_w - size // 3, row.top, seat_w, row.height)
        table = pygame.Rect(seat.left - table_w, row.top, table_w, row.height)
        name = pygame.Rect(
            row.left + size // 3, row.top, table.left - row.left - size // 2, row.height
        )
        return name, table, seat

    for col in range(grid.cols):
        head = grid.slot(col * grid.rows_per_col).move(0, -grid.row_h)
        for box, text, align in zip(
            columns(head), heads, ("left", "right", "right"), strict=True
        ):
            canvas.text(region, text, "cond", size, MUTED, box, align)
    for i, (name, table, seat) in enumerate(rows):
        row = grid.slot(i)
        if i % 2 == 0:
            canvas.surface.fill(ZEBRA, row)
        boxes = columns(row)
        canvas.text(region, name, "cond", size, TEXT, boxes[0], name=True)
        canvas.text(region, table, "bold", size, GOLD, boxes[1], "right")
        canvas.text(region, seat, "bold", size, TEXT, boxes[2], "right")
