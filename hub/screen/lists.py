"""The list pages: the standings and the next round's seating ("find your table"), each
in as many columns as fit the screen at a readable size and paged when they do not.

A column is as wide as its longest name needs (up to :data:`NAME_CHARS` characters), so
names are shortened only where a name is longer than that, and then never so that two
players on the page look the same (:mod:`hub.screen.names`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

import pygame

from hub.exports.pages import printed_number
from hub.exports.words import title_label
from hub.hall import HallView, Page, page_ranges
from hub.screen.canvas import Canvas
from hub.screen.geometry import ListGrid, list_capacity, plan_list
from hub.screen.qr import qr_column
from hub.screen.theme import BG, DIM, GOLD, MUTED, PODIUM, TEXT, ZEBRA
from hub.tournament.standings import place_labels, signed
from tablekit.core.gender import Gender
from tablekit.core.messages import RoundInfo, SeatingBoard, StandingLine, StandingsBoard
from tablekit.shared.i18n import Words

NAME_CHARS: Final = 28
"""The widest name column of a list, in characters (``n``) of the list font: a longer
name is shortened."""
MAX_COLUMNS: Final = 4

Board = StandingsBoard | SeatingBoard


def list_size(canvas: Canvas) -> int:
    """The list pages' text size."""
    return round(canvas.layout.text * 1.2)


def list_body(canvas: Canvas) -> pygame.Rect:
    """The part of the body the list takes: all of it, or all but the QR code's column
    (:func:`hub.screen.qr.qr_column`) while the console's address is known."""
    body = canvas.layout.body.copy()
    if canvas.console:
        body.width -= qr_column(canvas).width + canvas.layout.margin
    return body


def _list_area(canvas: Canvas) -> tuple[pygame.Rect, int]:
    row_h = round(list_size(canvas) * 1.5)
    area = list_body(canvas)
    area.top += row_h
    area.height -= 2 * row_h  # a row for the column heads, one for a footnote
    return area, row_h


def column_width(canvas: Canvas, board: Board) -> int:
    """The narrowest column of ``board``'s list: its numbers, and its longest name (or
    its heading) up to :data:`NAME_CHARS` (measured once per board and language)."""
    key = (id(board), canvas.words.language)
    known = canvas.measured.get(key)
    if known is not None and known[0] is board:
        return known[1]
    size = list_size(canvas)
    width = canvas.texts.width
    probe = pygame.Rect(0, 0, 10_000, 10)
    if isinstance(board, StandingsBoard):
        name_box = standings_columns(canvas, probe)[1]
    else:
        name_box = seating_columns(canvas, probe)[0]
    widest = max((width("cond", size, name) for name in _names(board)), default=0)
    if isinstance(board, StandingsBoard):  # a title beside the name (final standings)
        titled = (
            width("cond", size, row.name)
            + width("cond", size, title_word(canvas.words, row))
            + size // 2
            for row in board.rows
            if row.title
        )
        widest = max([widest, *titled])
    head = width("cond", size, canvas.words.gettext("NAME"))
    room = max(head, min(widest, width("cond", size, "n" * NAME_CHARS)))
    column = probe.width - name_box.width + room
    if len(canvas.measured) > 16:
        canvas.measured.clear()
    canvas.measured[key] = (board, column)
    return column


def _names(board: Board) -> Iterable[str]:
    return (row.name for row in board.rows)


def title_word(words: Words, row: StandingLine) -> str:
    """A final place's title (the format's name for it, "champion") as the screen shows
    it, in ``words``' language and agreeing with the player: "MISTRZYNI"; "" for none."""
    if not row.title:
        return ""
    return title_label(row.title, words, row.gender or Gender.NEUTRAL).upper()


def list_grid(canvas: Canvas, board: Board, items: int) -> ListGrid:
    """The grid of one page of ``board``'s list with ``items`` rows."""
    area, row_h = _list_area(canvas)
    return plan_list(area, items, row_h, column_width(canvas, board), max_cols=MAX_COLUMNS)


def list_pages(canvas: Canvas, board: Board) -> list[range]:
    """The rows on each page of ``board``'s list."""
    area, row_h = _list_area(canvas)
    capacity = list_capacity(area, row_h, column_width(canvas, board), max_cols=MAX_COLUMNS)
    return page_ranges(len(board.rows), capacity)


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
    ranges = list_pages(canvas, board)
    part = ranges[min(page.index, len(ranges) - 1)]
    grid = list_grid(canvas, board, len(part))
    labels = place_labels([r.place for r in board.rows])
    rows = tuple(
        (
            labels[i],
            board.rows[i].name,
            str(board.rows[i].big),
            printed_number(signed(board.rows[i].small)),
            str(board.rows[i].games),
            board.rows[i].place,
            title_word(canvas.words, board.rows[i]),
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
    ranges = list_pages(canvas, board)
    part = ranges[min(page.index, len(ranges) - 1)]
    grid = list_grid(canvas, board, len(part))
    rows = tuple((rows_all[i].name, str(rows_all[i].table), rows_all[i].seat) for i in part)
    return ("seating", grid, rows)


def draw_message(canvas: Canvas, region: str, rect: pygame.Rect, text: str) -> None:
    """A list page without rows says why, large."""
    canvas.text(region, text, "bold", canvas.layout.big, MUTED, rect, "center")


def standings_columns(canvas: Canvas, row: pygame.Rect) -> tuple[pygame.Rect, ...]:
    """The boxes of a standings row: place, name, big points, small points, games."""
    size = list_size(canvas)
    w = canvas.texts.width
    place_w = w("bold", size, "000=") + size // 2
    num_w = w("bold", size, "-0000") + size // 2
    games_w = w("bold", size, "00") + size // 2
    place = pygame.Rect(row.left + size // 3, row.top, place_w, row.height)
    games = pygame.Rect(row.right - games_w - size // 3, row.top, games_w, row.height)
    sp = pygame.Rect(games.left - num_w, row.top, num_w, row.height)
    bp = pygame.Rect(sp.left - num_w, row.top, num_w, row.height)
    name = pygame.Rect(
        place.right + size // 3, row.top, bp.left - place.right - size // 2, row.height
    )
    return place, name, bp, sp, games


def seating_columns(canvas: Canvas, row: pygame.Rect) -> tuple[pygame.Rect, ...]:
    """The boxes of a seating row: name, table, seat (as wide as their headings)."""
    size = list_size(canvas)
    width = canvas.texts.width
    _ = canvas.words.gettext
    table_w = max(width("cond", size, _("TABLE")), width("bold", size, "000")) + size // 2
    seat_w = width("cond", size, _("SEAT")) + size // 2
    seat = pygame.Rect(row.right - seat_w - size // 3, row.top, seat_w, row.height)
    table = pygame.Rect(seat.left - table_w, row.top, table_w, row.height)
    name = pygame.Rect(row.left + size // 3, row.top, table.left - row.left - size // 2, row.height)
    return name, table, seat


def draw_standings(canvas: Canvas, region: str, rect: pygame.Rect, content: object) -> None:
    assert isinstance(content, tuple)
    canvas.surface.fill(BG, rect)
    if content[0] == "message":
        draw_message(canvas, region, rect, content[1])
        return
    _kind, grid, rows, note, final = content
    assert isinstance(grid, ListGrid)
    _ = canvas.words.gettext
    size = list_size(canvas)

    def columns(row: pygame.Rect) -> tuple[pygame.Rect, ...]:
        return standings_columns(canvas, row)

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
    for i, (place, name, big, small, games, number, title) in enumerate(rows):
        row = grid.slot(i)
        podium = final and number <= 3
        if podium:
            canvas.surface.fill(PODIUM, row)
        elif i % 2 == 0:
            canvas.surface.fill(ZEBRA, row)
        fg = GOLD if number <= 3 else TEXT
        boxes = columns(row)
        canvas.text(region, place, "bold", size, fg, boxes[0], "right")
        name_box = boxes[1]
        if title:
            title_w = canvas.texts.width("cond", size, title)  # as narrow as the names
            title_box = pygame.Rect(name_box.right - title_w, row.top, title_w, row.height)
            canvas.text(region, title, "cond", size, GOLD, title_box, "right")
            name_box = name_box.copy()
            name_box.width -= title_w + size // 2
        canvas.text(region, name, "cond", size, GOLD if title else TEXT, name_box, name=True)
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

    def columns(row: pygame.Rect) -> tuple[pygame.Rect, ...]:
        return seating_columns(canvas, row)

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
