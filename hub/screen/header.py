"""The header across the top of every page: the event's title and the round (with how
many tables have finished), the page's title, and the round's clock — or, when the
screen has lost the broker, a red banner saying so."""

from __future__ import annotations

import pygame

from hub.hall import (
    HallView,
    Page,
    PageKind,
    clock_text,
    finished_tables,
    round_left,
    round_over,
)
from hub.screen.canvas import Canvas
from hub.screen.geometry import WallGrid
from hub.screen.lists import standings_title
from hub.screen.theme import ACTIVE_FG, HEADER_BG, MUTED, TEXT, URGENT
from tablekit.core.status import TableState, look, word


def header_content(hall: HallView, page: Page, now: float, wall: WallGrid | None) -> object:
    """What the header shows at ``now`` (equal contents need no redraw); ``wall``: the
    wall's grid on a wall page."""
    info = hall.round
    stage = ""
    if info is not None:
        stage = f"Round {info.round}" + (f" · {info.stage}" if info.stage else "")
        if info.games:
            stage += f" · {info.games} games"
        done, seated = finished_tables(hall)
        if seated and not info.closed:
            stage += f" · {done}/{seated} tables finished"
    left = round_left(info, now)
    over = round_over(info, now)
    if info is not None and info.closed:
        clock = "ROUND CLOSED"
    elif over:
        clock = word(TableState.LAST_LAP)
    elif left is not None:
        clock = clock_text(left)
    else:
        clock = ""
    return (hall.title, stage, page_title(hall, page, wall), clock, over)


def page_title(hall: HallView, page: Page, wall: WallGrid | None) -> str:
    """The page's title: which tables, the standings' heading, or FIND YOUR TABLE."""
    of = f"  ({page.index + 1}/{page.count})" if page.count > 1 else ""
    if page.kind is PageKind.WALL:
        assert wall is not None
        slots = wall.page_slots(page.index)
        if not hall.tables:
            return "TABLES"
        first = hall.tables[slots.start].number
        last = hall.tables[slots.stop - 1].number
        return f"TABLE {first}{of}" if first == last else f"TABLES {first}–{last}{of}"
    if page.kind is PageKind.STANDINGS:
        return f"{standings_title(hall.standings, hall.round)}{of}"
    board_s = hall.seating
    which = f" · ROUND {board_s.round}" if board_s and board_s.round else ""
    return f"FIND YOUR TABLE{which}{of}"


def draw_header(canvas: Canvas, region: str, rect: pygame.Rect, content: object) -> None:
    """The header in ``rect``: ``content`` from :func:`header_content`, or ``("lost",
    headline, detail)``."""
    assert isinstance(content, tuple)
    if content[0] == "lost":
        draw_lost_banner(canvas, region, rect, content[1], content[2])
        return
    title, stage, page_title, clock, over = content
    lay = canvas.layout
    canvas.surface.fill(look(TableState.LAST_LAP).bg if over else HEADER_BG, rect)
    m = lay.margin
    third = rect.width // 3
    line = canvas.texts.font("bold", lay.text).get_height()
    top = rect.inflate(0, -2 * max(2, (rect.height - 2 * line) // 3))
    left = pygame.Rect(m, top.top, third - m, line)
    canvas.text(region, title or "Rummikub", "bold", lay.text, TEXT, left)
    left2 = pygame.Rect(m, top.bottom - line, third - m, line)
    canvas.text(region, stage, "cond", lay.text, TEXT if over else MUTED, left2)
    centre = pygame.Rect(third, rect.top, third, rect.height)
    canvas.text(region, page_title, "bold", round(lay.text * 1.3), TEXT, centre, "center")
    right = pygame.Rect(2 * third, rect.top, third - m, rect.height)
    if clock:
        size = lay.clock if clock[0].isdigit() else round(lay.clock * 0.8)
        drawn = canvas.text(region, clock, "bold", size, TEXT, right, "right")
        if drawn is not None and clock[0].isdigit():
            label = pygame.Rect(right.left, rect.top, drawn.left - right.left - m, rect.height)
            canvas.text(region, "ROUND ENDS IN", "cond", lay.text, MUTED, label, "right")
        elif drawn is not None and over:
            label = pygame.Rect(right.left, rect.top, drawn.left - right.left - m, rect.height)
            canvas.text(region, "ROUND TIME OVER", "cond", lay.text, TEXT, label, "right")


def draw_lost_banner(
    canvas: Canvas, region: str, rect: pygame.Rect, headline: str, detail: str
) -> None:
    """No broker: the whole header turns into a red banner saying so (every page)."""
    lay = canvas.layout
    canvas.surface.fill(URGENT, rect)
    line = canvas.texts.font("bold", lay.text).get_height()
    inner = rect.inflate(-2 * lay.margin, -2 * max(2, (rect.height - 2 * line) // 3))
    top = pygame.Rect(inner.left, inner.top, inner.width, line)
    canvas.text(region, headline, "bold", lay.text, ACTIVE_FG, top, "center")
    bottom = pygame.Rect(inner.left, inner.bottom - line, inner.width, line)
    canvas.text(region, detail, "cond", lay.text, ACTIVE_FG, bottom, "center")
