"""The judge panel beside the wall: the tables waiting for the judge (longest first, the
ones waiting too long flashing), then the tables whose result the hub refused or lacks
and the slow tables, and a legend of the wall's marks."""

from __future__ import annotations

from collections.abc import Iterable

import pygame

from hub.hall import (
    HallView,
    SlowTable,
    flash_on,
    judge_queue,
    state_of,
    wait_text,
)
from hub.screen.canvas import Canvas
from hub.screen.theme import ACTIVE_FG, BG, DIM, JUDGE, MUTED, PANEL_BG, SLOW, TEXT, URGENT
from tablekit.core.status import TableState, duration_text, missing_text, short_word
from tablekit.shared.i18n import Words


def result_rows(words: Words, hall: HallView) -> tuple[tuple[int, str], ...]:
    """The judge panel's RESULTS list in ``words``' language: tables whose result the hub
    refused or lacks (on every page of the wall, so a table on another page is not
    forgotten). The hub's reason for a refusal is said in ``words``' language too."""
    rows = []
    for t in hall.tables:
        state = state_of(t)
        if state is TableState.RESULT_REFUSED:
            refused = (
                words.gettext("refused: {reason}").format(
                    reason=t.refused.message(words.gettext)
                )
                if t.refused
                else words.gettext("refused")
            )
            rows.append((t.number, refused))
        elif state is TableState.RESULT_MISSING:
            rows.append((t.number, missing_text(t.missing, words).lower()))
    return tuple(rows)


def table_label(words: Words, table: int) -> str:
    """A table's number in a list: ``T12``."""
    # Translators: a table's number in the judge panel's lists (T = table), kept short.
    return words.gettext("T{number}").format(number=table)


def number_width(canvas: Canvas, size: int) -> int:
    """The width of the widest table number (three digits) in a list at ``size``."""
    return canvas.texts.width("bold", size, table_label(canvas.words, 888))


def sidebar_content(
    words: Words, hall: HallView, now: float, flash_after: float, slow: Iterable[SlowTable]
) -> tuple[object, ...]:
    """What the judge panel shows at ``now`` in ``words``' language (equal contents need
    no redraw): the judge calls, then the RESULTS and SLOW lists that have rows."""
    queue = judge_queue(hall, now, flash_after)
    calls = tuple(
        (
            table_label(words, c.table),
            words.gettext(short_word(c.state)),
            wait_text(c.waiting, words),
            c.flashing and flash_on(now),
        )
        for c in queue
    )
    slow_rows = tuple((table_label(words, s.table), s.reason(words)) for s in slow)
    results = tuple((table_label(words, n), text) for n, text in result_rows(words, hall))
    sections = tuple(
        (title, colour, rows)
        for title, colour, rows in (
            (words.gettext("RESULTS"), URGENT, results),
            (words.pgettext("judge panel's list of slow tables", "SLOW"), SLOW, slow_rows),
        )
        if rows
    )
    return (calls, sections)


def draw_sidebar(
    canvas: Canvas, region: str, rect: pygame.Rect, content: object, flash_after: float
) -> None:
    """The judge panel in ``rect``: ``content`` from :func:`sidebar_content`; the legend
    names ``flash_after``."""
    assert isinstance(content, tuple)
    calls, sections = content
    lay = canvas.layout
    s = canvas.surface
    s.fill(BG, rect)
    pygame.draw.rect(s, PANEL_BG, rect, border_radius=6)
    size = lay.text
    line = round(canvas.texts.font("cond", size).get_height() * 1.3)
    pad = max(6, size // 2)
    inner = rect.inflate(-2 * pad, -2 * pad)
    _ = canvas.words.gettext
    legend_lines = (
        _("▶ / inverse = to move"),
        _("big number = move time left"),
        _("grey time = no data for"),
        _("TO n = timeouts this game"),
        _("flashing = waiting ≥ {time}").format(time=duration_text(flash_after, canvas.words)),
    )
    legend_top = inner.bottom - len(legend_lines) * line
    y = inner.top
    title = pygame.Rect(inner.left, y, inner.width, round(line * 1.2))
    heading = _("JUDGE · {n}").format(n=len(calls)) if calls else _("JUDGE")
    canvas.text(region, heading, "bold", round(size * 1.2), JUDGE, title)
    y = title.bottom + pad // 2
    pygame.draw.line(s, JUDGE, (inner.left, y - pad // 4), (inner.right, y - pad // 4), 2)
    sections_h = sum((2 + min(len(rows), 4)) * line + pad for _, _, rows in sections)
    room = max(1, (legend_top - sections_h - y) // line)
    if not calls:
        canvas.text(
            region,
            _("no calls"),
            "cond",
            size,
            MUTED,
            pygame.Rect(inner.left, y, inner.width, line),
        )
        y += line
    shown = calls if len(calls) <= room else calls[: room - 1]
    number_w = number_width(canvas, size)
    for table, word, waiting, flash in shown:
        row = pygame.Rect(inner.left, y, inner.width, line)
        fg = TEXT
        if flash:
            pygame.draw.rect(s, JUDGE, row, border_radius=4)
            fg = ACTIVE_FG
        canvas.text(
            region,
            table,
            "bold",
            size,
            fg,
            pygame.Rect(row.left + 4, row.top, number_w, row.height),
        )
        wait_w = canvas.texts.width("bold", size, waiting)
        wait_box = pygame.Rect(row.right - wait_w - 4, row.top, wait_w, row.height)
        canvas.text(region, waiting, "bold", size, fg, wait_box, "right")
        word_box = pygame.Rect(
            row.left + 8 + number_w,
            row.top,
            wait_box.left - row.left - 12 - number_w,
            row.height,
        )
        canvas.text(region, word, "cond", size, fg, word_box)
        y += line
    if len(shown) < len(calls):
        more = pygame.Rect(inner.left, y, inner.width, line)
        rest = _("+ {n} more").format(n=len(calls) - len(shown))
        canvas.text(region, rest, "cond", size, JUDGE, more)
        y += line
    y = max(y + pad, legend_top - sections_h)
    for heading, colour, rows in sections:
        y = draw_section(canvas, region, inner, y, (heading, colour, rows), line=line) + pad
    for i, text in enumerate(legend_lines):
        box = pygame.Rect(inner.left, legend_top + i * line, inner.width, line)
        canvas.text(region, text, "cond", size, DIM, box)


def draw_section(
    canvas: Canvas, region: str, inner: pygame.Rect, y: int, section: object, *, line: int
) -> int:
    """A titled list of tables (results missing or refused, slow tables) from ``y``:
    four rows at most (else three and the rest by number); the ``y`` below it."""
    assert isinstance(section, tuple)
    heading, colour, rows = section
    size = canvas.layout.text
    pad = max(6, size // 2)
    title = pygame.Rect(inner.left, y, inner.width, line)
    canvas.text(region, f"{heading} · {len(rows)}", "bold", round(size * 1.2), colour, title)
    y += line
    pygame.draw.line(canvas.surface, colour, (inner.left, y), (inner.right, y), 2)
    y += pad // 3
    listed = rows if len(rows) <= 4 else rows[:3]
    number_w = number_width(canvas, size)
    for table, text in listed:
        row = pygame.Rect(inner.left, y, inner.width, line)
        number = pygame.Rect(row.left + 4, row.top, number_w, row.height)
        canvas.text(region, table, "bold", size, TEXT, number)
        words = pygame.Rect(
            row.left + 8 + number_w, row.top, row.width - 12 - number_w, row.height
        )
        canvas.text(region, text, "cond", size, MUTED, words)
        y += line
    if len(listed) < len(rows):
        more = pygame.Rect(inner.left, y, inner.width, line)
        rest = ", ".join(table for table, _text in rows[3:])
        also = canvas.words.gettext("also {tables}").format(tables=rest)
        canvas.text(region, also, "cond", size, MUTED, more)
        y += line
    return y
