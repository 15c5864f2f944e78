"""The header across the top of every page: the event's title and the round (with how
many tables have finished), the page's title, and the round's clock (or that the round
is closed, or the event finished) — or, when the screen has lost the broker, a red
banner saying so. Every word in the hall's language (the canvas's ``words``)."""

from __future__ import annotations

from typing import Final

import pygame

from hub.exports.words import stage_label
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
from hub.screen.theme import ACTIVE_BG, ACTIVE_FG, HEADER_BG, MUTED, TEXT, URGENT
from tablekit.core.status import TableState, look, word
from tablekit.shared.i18n import Words


def event_finished(hall: HallView) -> bool:
    """The event is over: the hub sent the final standings and the last round is closed."""
    return (
        hall.standings is not None
        and hall.standings.final
        and (hall.round is None or hall.round.closed)
    )


def header_content(
    words: Words, hall: HallView, page: Page, now: float, wall: WallGrid | None
) -> object:
    """What the header shows at ``now`` in ``words``' language (equal contents need no
    redraw); ``wall``: the wall's grid on a wall page."""
    _ = words.gettext
    info = hall.round
    parts = []
    if info is not None:
        parts.append(_("Round {round}").format(round=info.round))
        if info.stage and info.stage != f"round-{info.round}":  # not "Round 2 · round-2"
            parts.append(stage_label(info.stage, words))
        if info.games:
            parts.append(words.ngettext("{n} game", "{n} games", info.games).format(n=info.games))
        done, seated = finished_tables(hall)
        if seated and not info.closed:
            parts.append(_("{done}/{seated} tables finished").format(done=done, seated=seated))
    stage = " · ".join(parts)
    left = round_left(info, now)
    over = round_over(info, now) and not (info is not None and info.closed)
    if event_finished(hall):
        clock = _("EVENT FINISHED")
    elif info is not None and info.closed:
        clock = _("ROUND CLOSED")
    elif over:
        clock = _(word(TableState.LAST_LAP))
    elif left is not None:
        clock = clock_text(left)
    else:
        clock = ""
    return (hall.title, stage, page_title(words, hall, page, wall), clock, over)


def page_title(words: Words, hall: HallView, page: Page, wall: WallGrid | None) -> str:
    """The page's title in ``words``' language: which tables, the standings' heading, or
    FIND YOUR TABLE."""
    _ = words.gettext
    if page.kind is PageKind.WALL:
        assert wall is not None
        slots = wall.page_slots(page.index)
        if not hall.tables:
            title = _("TABLES")
        else:
            first = hall.tables[slots.start].number
            last = hall.tables[slots.stop - 1].number
            title = (
                _("TABLE {number}").format(number=first)
                if first == last
                else _("TABLES {first}–{last}").format(first=first, last=last)
            )
    elif page.kind is PageKind.STANDINGS:
        title = standings_title(words, hall.standings, hall.round)
    elif hall.seating is not None and hall.seating.round:
        title = _("FIND YOUR TABLE · ROUND {round}").format(round=hall.seating.round)
    else:
        title = _("FIND YOUR TABLE")
    if page.count > 1:
        return f"{title}  ({page.index + 1}/{page.count})"
    return title


def first_start_text(code: str, console: str, words: Words) -> tuple[str, str]:
    """The header of a hall whose web console has no organizer's account yet: its first
    start's ``code`` and where to type it (``console``: the console's address, "": not
    known)."""
    _ = words.gettext
    headline = _("FIRST START — CODE {code}").format(code=code)
    if not console:
        return headline, _("Open the web console in a browser and make the organizer's "
                           "and the judges' accounts with this code")  # fmt: skip
    address = f"{console.rstrip('/')}/setup".split("://", 1)[-1]
    detail = _("Open {address} in a browser and make the organizer's and the judges' "
               "accounts with this code").format(address=address)  # fmt: skip
    return headline, detail


def draw_header(canvas: Canvas, region: str, rect: pygame.Rect, content: object) -> None:
    """The header in ``rect``: ``content`` from :func:`header_content`, or a banner
    ``("lost" | "first", headline, detail)``."""
    assert isinstance(content, tuple)
    if content[0] in BANNERS:
        draw_banner(canvas, region, rect, content[1], content[2], colour=BANNERS[content[0]])
        return
    title, stage, page_title, clock, over = content
    lay = canvas.layout
    canvas.surface.fill(look(TableState.LAST_LAP).bg if over else HEADER_BG, rect)
    m = lay.margin
    third = rect.width // 3
    line = canvas.texts.font("bold", lay.text).get_height()
    top = rect.inflate(0, -2 * max(2, (rect.height - 2 * line) // 3))
    left = pygame.Rect(m, top.top, third - m, line)
    canvas.text(region, title or "Rummikub", "bold", lay.text, TEXT, left)  # the game's name
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
            ends = canvas.words.gettext("ROUND ENDS IN")
            canvas.text(region, ends, "cond", lay.text, MUTED, label, "right")
        elif drawn is not None and over:
            label = pygame.Rect(right.left, rect.top, drawn.left - right.left - m, rect.height)
            time_over = canvas.words.gettext("ROUND TIME OVER")
            canvas.text(region, time_over, "cond", lay.text, TEXT, label, "right")


BANNERS: Final = {"lost": URGENT, "first": ACTIVE_BG}
"""The banners the header turns into on every page: no broker (red), the web console's
first start (yellow)."""


def draw_banner(
    canvas: Canvas, region: str, rect: pygame.Rect, headline: str, detail: str, *,
    colour: tuple[int, int, int],
) -> None:
    """The whole header turned into a banner: a headline and a line below it."""
    lay = canvas.layout
    canvas.surface.fill(colour, rect)
    line = canvas.texts.font("bold", lay.text).get_height()
    inner = rect.inflate(-2 * lay.margin, -2 * max(2, (rect.height - 2 * line) // 3))
    top = pygame.Rect(inner.left, inner.top, inner.width, line)
    canvas.text(region, headline, "bold", lay.text, ACTIVE_FG, top, "center")
    bottom = pygame.Rect(inner.left, inner.bottom - line, inner.width, line)
    canvas.text(region, detail, "cond", lay.text, ACTIVE_FG, bottom, "center")
