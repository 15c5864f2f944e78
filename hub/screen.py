"""The hub screen: every table of the hall at a glance, judge calls, standings, seating.

pygame-ce, full screen on a TV (KMSDRM on a Pi without a desktop), a window elsewhere.
Pages: the **wall** of tables (paged when they do not fit at a readable size), the
**standings** and the next round's **seating** ("find your table"), rotating every
``--cycle`` seconds; keys ``1`` wall, ``2`` standings, ``3`` seating (again: its next
sub-page), space / → next page, ← previous, ``p`` pause/resume the rotation, ``q`` or
Esc quit.

Drawing keeps up with 60 live tables at a modest CPU share: the screen is split into
regions (the header, one per wall cell, the judge panel, the list body); each frame
every region computes its content (a small hashable value: the texts and states it
shows at ``now``) and is redrawn only when that value changed — a countdown changes
once per second — and only the changed rectangles go to ``display.update``. Rendered
texts are cached. Text sizes: :mod:`hub.screen_layout`.

``rummikub-screen --demo 24 --png artifacts/hub-screen`` renders every page of a
sample hall to PNG files and exits (no broker needed); see :func:`main`.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Final

import pygame

from hub.hall import (
    JUDGE_FLASH_AFTER,
    JUDGE_STATES,
    SEAT_LETTERS,
    HallView,
    Page,
    PageKind,
    Pager,
    State,
    TableCell,
    clock_text,
    countdown_text,
    finished_tables,
    flash_on,
    judge_queue,
    link_lost_text,
    missing_text,
    page_ranges,
    page_sequence,
    place_labels,
    remaining_at,
    round_left,
    round_over,
    sample_hall,
    seating_sorted,
    shown_at,
    signed,
    slow_tables,
    state_of,
    state_text,
    wait_text,
)
from hub.screen_layout import (
    CELL_GAP_FRAC,
    CellGeometry,
    ListGrid,
    ScreenLayout,
    WallGrid,
    cell_geometry,
    list_capacity,
    plan_list,
    plan_wall,
    screen_layout,
)
from tablekit import fonts
from tablekit.core.clock import Phase
from tablekit.core.messages import RoundInfo, StandingsBoard
from tablekit.shared.stopping import keep_signals_from_sdl, stop_on_signals

log = logging.getLogger("hub.screen")

Colour = tuple[int, int, int]

# --- theme: high contrast on a dark background; every state also has its word -------------

BG: Final[Colour] = (9, 11, 15)
HEADER_BG: Final[Colour] = (24, 28, 36)
CELL_BG: Final[Colour] = (33, 39, 49)
CELL_OFFLINE: Final[Colour] = (22, 22, 24)
PANEL_BG: Final[Colour] = (22, 26, 33)
ZEBRA: Final[Colour] = (28, 33, 42)
TEXT: Final[Colour] = (246, 246, 246)
MUTED: Final[Colour] = (160, 168, 180)
DIM: Final[Colour] = (105, 108, 114)
ACTIVE_BG: Final[Colour] = (255, 214, 10)
ACTIVE_FG: Final[Colour] = (0, 0, 0)
URGENT: Final[Colour] = (255, 82, 82)
JUDGE: Final[Colour] = (255, 149, 0)
SLOW: Final[Colour] = (255, 214, 10)
LAST_LAP_BG: Final[Colour] = (150, 40, 170)
GOLD: Final[Colour] = (255, 200, 40)

STATE_COLOURS: Final[dict[State, tuple[Colour, Colour]]] = {
    State.PLAYING: ((20, 128, 62), TEXT),
    State.LAST_LAP: (LAST_LAP_BG, TEXT),
    State.TIME: ((215, 28, 44), TEXT),
    State.PAUSED_JUDGE: (JUDGE, ACTIVE_FG),
    State.JUDGE_CALLED: (JUDGE, ACTIVE_FG),
    State.PAUSED_RESTART: (JUDGE, ACTIVE_FG),
    State.ENTERING_RESULT: ((36, 104, 230), TEXT),
    State.RESULT_IN: ((210, 214, 222), ACTIVE_FG),
    State.RESULT_REFUSED: (URGENT, ACTIVE_FG),
    State.RESULT_MISSING: (URGENT, ACTIVE_FG),
    State.ROUND_FINISHED: ((0, 118, 100), TEXT),
    State.GAME_OVER: ((92, 78, 150), TEXT),
    State.READY: ((72, 82, 98), TEXT),
    State.OFFLINE: ((70, 70, 72), TEXT),
    State.NO_DATA: ((52, 54, 58), MUTED),
}

URGENT_SECONDS: Final = 10.0
FRAME_RATE: Final = 10
DEFAULT_CYCLE: Final = 15.0
DEMO_PERIOD: Final = 40.0

_FONT_FILES: Final = {
    "bold": fonts.BOLD,
    "cond": fonts.CONDENSED_BOLD,
}


# --- fonts and text ------------------------------------------------------------------------


class Texts:
    """Fonts by (kind, size), rendered text and fitted strings, cached.

    Kinds: ``bold`` (DejaVu Sans Bold) and ``cond`` (DejaVu Sans Condensed Bold), both
    shipped in the package (:mod:`tablekit.fonts`); a missing one raises
    :class:`~tablekit.fonts.FontMissingError` here, when the screen starts.
    """

    def __init__(self, cache: bool = True) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self.cache = cache
        self.paths = {kind: fonts.font_path(name) for kind, name in _FONT_FILES.items()}
        self._fonts: dict[tuple[str, int], pygame.font.Font] = {}
        self._surfaces: dict[tuple[str, int, str, Colour], pygame.Surface] = {}
        self._fits: dict[tuple[str, int, str, int], str] = {}

    def font(self, kind: str, size: int) -> pygame.font.Font:
        key = (kind, size)
        font = self._fonts.get(key)
        if font is None:
            font = pygame.font.Font(self.paths[kind], size)
            self._fonts[key] = font
        return font

    def size_for(self, kind: str, size: int, height: int) -> int:
        """``size``, or smaller until a line is at most ``height`` pixels tall."""
        while size > 6 and self.font(kind, size).get_height() > height:
            size -= 1
        return size

    def render(self, kind: str, size: int, text: str, colour: Colour) -> pygame.Surface:
        key = (kind, size, text, colour)
        surface = self._surfaces.get(key) if self.cache else None
        if surface is None:
            surface = self.font(kind, size).render(text, True, colour)
            if self.cache:
                if len(self._surfaces) > 4000:
                    self._surfaces.clear()
                self._surfaces[key] = surface
        return surface

    def width(self, kind: str, size: int, text: str) -> int:
        return int(self.font(kind, size).size(text)[0])

    def fit(self, kind: str, size: int, text: str, width: int, name: bool = False) -> str:
        """``text`` if it fits ``width``; else a shorter form ("Nowak A.", then "Nowa…")."""
        key = (kind, size, text, width)
        fitted = self._fits.get(key)
        if fitted is None:
            fitted = self._fit(kind, size, text, width, name)
            if len(self._fits) > 4000:
                self._fits.clear()
            self._fits[key] = fitted
        return fitted

    def _fit(self, kind: str, size: int, text: str, width: int, name: bool) -> str:
        if self.width(kind, size, text) <= width:
            return text
        words = text.split()
        if name and len(words) >= 2:
            short = f"{words[0]} {words[1][0]}."
            if self.width(kind, size, short) <= width:
                return short
            text = words[0]
        lo, hi = 0, len(text)
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.width(kind, size, text[:mid].rstrip() + "…") <= width:
                lo = mid
            else:
                hi = mid - 1
        if lo == 0:
            return "" if self.width(kind, size, "…") > width else "…"
        return text[:lo].rstrip() + "…"


@dataclass(frozen=True)
class Placed:
    """A text drawn on screen: its rectangle and the box it had to fit in."""

    region: str
    text: str
    rect: pygame.Rect
    box: pygame.Rect
    size: int


# --- what a cell shows (pure) -----------------------------------------------------------------


@dataclass(frozen=True)
class SeatLine:
    letter: str
    name: str
    active: bool
    timeouts: int


@dataclass(frozen=True)
class CellContent:
    """Everything a wall cell shows at one instant; equal contents need no redraw."""

    number: int
    label: str
    slow: bool
    countdown: str
    urgent: bool
    frozen: bool
    seats: tuple[SeatLine, ...]
    state: State
    state_text: str
    flashing: bool
    flash_phase: bool


def cell_content(
    t: TableCell, now: float, slow: bool, flash_after: float = JUDGE_FLASH_AFTER
) -> CellContent:
    state = state_of(t)
    countdown, urgent, frozen = "", False, False
    playing = state is State.RESULT_MISSING and t.phase is Phase.RUNNING
    if state in (State.PLAYING, State.LAST_LAP) or playing:
        left = remaining_at(t, now)
        countdown, urgent = countdown_text(left), left <= URGENT_SECONDS
    elif state in JUDGE_STATES and t.active is not None:
        countdown, frozen = countdown_text(remaining_at(t, now)), True
    elif state is State.TIME:
        countdown, urgent = "0", True
    flashing = False
    if state in JUDGE_STATES:
        since = t.paused_since if t.paused_since is not None else t.measured_at
        flashing = now - since >= flash_after
    active = t.active if state not in (State.OFFLINE, State.READY, State.GAME_OVER) else None
    if state in (
        State.ENTERING_RESULT, State.RESULT_IN, State.RESULT_REFUSED, State.ROUND_FINISHED
    ):
        active = None
    seats = tuple(
        SeatLine(
            SEAT_LETTERS[i],
            name or "—",
            i == active,
            t.timeouts[i] if i < len(t.timeouts) else 0,
        )
        for i, name in enumerate(t.seats)
    )
    label = " ".join(x for x in (t.stage, t.game_label) if x)
    return CellContent(
        number=t.number,
        label=label,
        slow=slow,
        countdown=countdown,
        urgent=urgent,
        frozen=frozen,
        seats=seats,
        state=state,
        state_text=state_text(t, now),
        flashing=flashing,
        flash_phase=flashing and flash_on(now),
    )


# --- the renderer ------------------------------------------------------------------------------


@dataclass
class _Frame:
    page: Page | None = None
    keys: dict[str, object] = field(default_factory=dict)


class HallScreen:
    """Draws a :class:`HallView` on ``surface``; :meth:`frame` redraws only what changed.

    ``incremental=False`` is the naive baseline (everything redrawn each frame, no text
    cache), kept for the benchmark.
    """

    def __init__(
        self,
        surface: pygame.Surface,
        *,
        cycle: float = DEFAULT_CYCLE,
        flash_after: float = JUDGE_FLASH_AFTER,
        incremental: bool = True,
    ) -> None:
        self.surface = surface
        width, height = surface.get_size()
        self.layout: ScreenLayout = screen_layout(width, height)
        self.texts = Texts(cache=incremental)
        self.pager = Pager(cycle)
        self.paused_rotation = False
        self.flash_after = flash_after
        self.incremental = incremental
        self.placed: dict[str, list[Placed]] = {}
        self.cells: dict[int, pygame.Rect] = {}
        """Table number → its cell on the page drawn last."""
        self._frame = _Frame()
        self._grid: WallGrid | None = None
        self._geometry: dict[pygame.Rect | tuple[int, int, int, int], CellGeometry] = {}

    # -- pages ----------------------------------------------------------------------------

    def grid(self, tables: int) -> WallGrid:
        if self._grid is None or self._grid.tables != tables:
            gap = max(4, round(self.layout.size[1] * CELL_GAP_FRAC))
            self._grid = plan_wall(tables, self.layout.wall, self.layout.min_unit, gap)
            self._geometry.clear()
        return self._grid

    def _list_area(self, min_chars: int) -> tuple[pygame.Rect, int, int]:
        size = self.list_size
        row_h = round(size * 1.5)
        area = self.layout.body.copy()
        area.top += row_h
        area.height -= 2 * row_h  # a row for the column heads, one for a footnote
        min_w = self.texts.width("cond", size, "n" * min_chars)
        return area, row_h, min_w

    def list_grid(self, items: int, min_chars: int) -> ListGrid:
        """The grid of one list page of ``items`` rows."""
        area, row_h, min_w = self._list_area(min_chars)
        return plan_list(area, items, row_h, min_w, max_cols=4)

    def list_pages(self, items: int, min_chars: int) -> list[range]:
        area, row_h, min_w = self._list_area(min_chars)
        return page_ranges(items, list_capacity(area, row_h, min_w, max_cols=4))

    @property
    def list_size(self) -> int:
        return round(self.layout.text * 1.2)

    def sequence(self, hall: HallView) -> list[Page]:
        wall = self.grid(len(hall.tables)).pages
        standings = 0
        if hall.standings is not None and hall.standings.rows and not hall.standings_hidden:
            standings = len(self.list_pages(len(hall.standings.rows), STANDINGS_CHARS))
        seating = 0
        if hall.seating is not None and hall.seating.rows:
            seating = len(self.list_pages(len(hall.seating.rows), SEATING_CHARS))
        return page_sequence(wall, standings, seating)

    def current_page(self, hall: HallView, now: float) -> Page:
        seq = self.sequence(hall)
        if self.paused_rotation:
            self.pager.started = now
        return self.pager.update(seq, now)

    def key(self, key: int, hall: HallView, now: float) -> bool:
        """Handle a key press; False means quit."""
        seq = self.sequence(hall)
        if key in (pygame.K_q, pygame.K_ESCAPE):
            return False
        if key in (pygame.K_1, pygame.K_KP1):
            self.pager.select(seq, PageKind.WALL, now)
        elif key in (pygame.K_2, pygame.K_KP2):
            self.pager.select(seq, PageKind.STANDINGS, now)
        elif key in (pygame.K_3, pygame.K_KP3):
            self.pager.select(seq, PageKind.SEATING, now)
        elif key in (pygame.K_SPACE, pygame.K_RIGHT, pygame.K_PAGEDOWN):
            self.pager.next(seq, now)
        elif key in (pygame.K_LEFT, pygame.K_PAGEUP):
            self.pager.next(seq, now, -1)
        elif key == pygame.K_p:
            self.paused_rotation = not self.paused_rotation
        return True

    # -- drawing --------------------------------------------------------------------------

    def frame(self, hall: HallView, now: float) -> list[pygame.Rect]:
        """Bring the screen up to date at ``now``; the rectangles that changed."""
        page = self.current_page(hall, now)
        return self._draw(hall, page, now)

    def draw_page(self, hall: HallView, page: Page, now: float) -> None:
        """Draw ``page`` completely (for a PNG)."""
        self._frame = _Frame()
        self._draw(hall, page, now)

    def _draw(self, hall: HallView, page: Page, now: float) -> list[pygame.Rect]:
        full = not self.incremental or page != self._frame.page
        if full:
            self.surface.fill(BG)
            self._frame = _Frame(page=page)
            self.placed.clear()
            self.cells.clear()
        dirty: list[pygame.Rect] = []
        if hall.link_lost is not None:
            header: object = ("lost", *link_lost_text(hall.link_lost, now))
        else:
            header = self._header_content(hall, page, now)
        self._region("header", self.layout.header, header, self._draw_header, dirty)
        if page.kind is PageKind.WALL:
            self._draw_wall(hall, page, shown_at(hall, now), dirty)
        elif page.kind is PageKind.STANDINGS:
            self._region(
                "body",
                self.layout.body,
                self._standings_content(hall, page),
                self._draw_standings,
                dirty,
            )
        else:
            self._region(
                "body",
                self.layout.body,
                self._seating_content(hall, page),
                self._draw_seating,
                dirty,
            )
        if full:
            return [self.surface.get_rect()]
        return dirty

    def _region(
        self,
        name: str,
        rect: pygame.Rect,
        content: object,
        draw: Callable[[str, pygame.Rect, object], None],
        dirty: list[pygame.Rect],
    ) -> None:
        if self.incremental and self._frame.keys.get(name) == content:
            return
        self._frame.keys[name] = content
        self.placed[name] = []
        draw(name, rect, content)
        dirty.append(rect.copy())

    def _text(  # noqa: PLR0917 - one call per text on screen; positional reads best
        self,
        region: str,
        text: str,
        kind: str,
        size: int,
        colour: Colour,
        box: pygame.Rect,
        align: str = "left",
        name: bool = False,
    ) -> pygame.Rect | None:
        size = self.texts.size_for(kind, size, box.height)
        fitted = self.texts.fit(kind, size, text, box.width, name=name)
        if not fitted:
            return None
        surface = self.texts.render(kind, size, fitted, colour)
        rect = surface.get_rect()
        rect.centery = box.centery
        if align == "center":
            rect.centerx = box.centerx
        elif align == "right":
            rect.right = box.right
        else:
            rect.left = box.left
        self.surface.blit(surface, rect)
        self.placed.setdefault(region, []).append(Placed(region, fitted, rect, box.copy(), size))
        return rect

    # header

    def _header_content(self, hall: HallView, page: Page, now: float) -> object:
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
            clock = "LAST LAP"
        elif left is not None:
            clock = clock_text(left)
        else:
            clock = ""
        return (hall.title, stage, self._page_title(hall, page), clock, over)

    def _page_title(self, hall: HallView, page: Page) -> str:
        of = f"  ({page.index + 1}/{page.count})" if page.count > 1 else ""
        if page.kind is PageKind.WALL:
            grid = self.grid(len(hall.tables))
            slots = grid.page_slots(page.index)
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

    def _draw_header(self, region: str, rect: pygame.Rect, content: object) -> None:
        assert isinstance(content, tuple)
        if content[0] == "lost":
            self._draw_lost_banner(region, rect, content[1], content[2])
            return
        title, stage, page_title, clock, over = content
        lay = self.layout
        self.surface.fill(LAST_LAP_BG if over else HEADER_BG, rect)
        m = lay.margin
        third = rect.width // 3
        line = self.texts.font("bold", lay.text).get_height()
        top = rect.inflate(0, -2 * max(2, (rect.height - 2 * line) // 3))
        left = pygame.Rect(m, top.top, third - m, line)
        self._text(region, title or "Rummikub", "bold", lay.text, TEXT, left)
        left2 = pygame.Rect(m, top.bottom - line, third - m, line)
        self._text(region, stage, "cond", lay.text, TEXT if over else MUTED, left2)
        centre = pygame.Rect(third, rect.top, third, rect.height)
        self._text(region, page_title, "bold", round(lay.text * 1.3), TEXT, centre, "center")
        right = pygame.Rect(2 * third, rect.top, third - m, rect.height)
        if clock:
            size = lay.clock if clock[0].isdigit() else round(lay.clock * 0.8)
            drawn = self._text(region, clock, "bold", size, TEXT, right, "right")
            if drawn is not None and clock[0].isdigit():
                label = pygame.Rect(right.left, rect.top, drawn.left - right.left - m, rect.height)
                self._text(region, "ROUND ENDS IN", "cond", lay.text, MUTED, label, "right")
            elif drawn is not None and over:
                label = pygame.Rect(right.left, rect.top, drawn.left - right.left - m, rect.height)
                self._text(region, "ROUND TIME OVER", "cond", lay.text, TEXT, label, "right")

    def _draw_lost_banner(self, region: str, rect: pygame.Rect, headline: str, detail: str) -> None:
        """No broker: the whole header turns into a red banner saying so (every page)."""
        lay = self.layout
        self.surface.fill(URGENT, rect)
        line = self.texts.font("bold", lay.text).get_height()
        inner = rect.inflate(-2 * lay.margin, -2 * max(2, (rect.height - 2 * line) // 3))
        top = pygame.Rect(inner.left, inner.top, inner.width, line)
        self._text(region, headline, "bold", lay.text, ACTIVE_FG, top, "center")
        bottom = pygame.Rect(inner.left, inner.bottom - line, inner.width, line)
        self._text(region, detail, "cond", lay.text, ACTIVE_FG, bottom, "center")

    # wall

    def _draw_wall(self, hall: HallView, page: Page, now: float, dirty: list[pygame.Rect]) -> None:
        grid = self.grid(len(hall.tables))
        slow = {s.table: s for s in slow_tables(hall, now)}
        slots = grid.page_slots(page.index)
        if not hall.tables:
            self._region("empty", self.layout.wall, ("empty",), self._draw_empty, dirty)
        for slot, index in enumerate(slots):
            t = hall.tables[index]
            rect = grid.cells[slot]
            self.cells[t.number] = rect
            content = cell_content(t, now, t.number in slow, self.flash_after)
            self._region(f"cell:{slot}", rect, content, self._draw_cell, dirty)
        for slot in range(len(slots), len(grid.cells)):
            self._region(f"cell:{slot}", grid.cells[slot], None, self._draw_blank, dirty)
        queue = judge_queue(hall, now, self.flash_after)
        calls = tuple(
            (c.table, c.state, wait_text(c.waiting), c.flashing and flash_on(now)) for c in queue
        )
        slow_rows = tuple((s.table, s.reason) for s in slow.values())
        sections = tuple(
            (title, colour, rows)
            for title, colour, rows in (
                ("RESULTS", URGENT, result_rows(hall)), ("SLOW", SLOW, slow_rows)
            )
            if rows
        )
        self._region("sidebar", self.layout.sidebar, (calls, sections), self._draw_sidebar, dirty)

    def _draw_empty(self, region: str, rect: pygame.Rect, content: object) -> None:
        self.surface.fill(BG, rect)
        self._text(
            region, "Waiting for the tables…", "bold", self.layout.big, MUTED, rect, "center"
        )

    def _draw_blank(self, region: str, rect: pygame.Rect, content: object) -> None:
        self.surface.fill(BG, rect)

    def _geometry_of(self, rect: pygame.Rect) -> CellGeometry:
        key = (rect.x, rect.y, rect.w, rect.h)
        geometry = self._geometry.get(key)
        if geometry is None:
            assert self._grid is not None
            geometry = cell_geometry(rect, self._grid.unit)
            self._geometry[key] = geometry
        return geometry

    def _draw_cell(self, region: str, rect: pygame.Rect, content: object) -> None:
        assert isinstance(content, CellContent)
        c = content
        g = self._geometry_of(rect)
        s = self.surface
        radius = max(3, g.rect.height // 28)
        offline = c.state is State.OFFLINE
        s.fill(BG, rect)
        pygame.draw.rect(s, CELL_OFFLINE if offline else CELL_BG, rect, border_radius=radius)
        fg = DIM if offline else TEXT
        self._text(region, str(c.number), "bold", g.big_size, fg, g.number)
        label_box = g.label.inflate(-g.name_size // 2, 0)
        if c.slow:
            tag = self._text(region, "SLOW", "bold", g.name_size, ACTIVE_FG, label_box, "center")
            if tag is not None:
                box = tag.inflate(g.name_size // 2, 2)
                box.clamp_ip(g.label)
                pygame.draw.rect(s, SLOW, box, border_radius=3)
                self.placed[region].pop()
                self._text(region, "SLOW", "bold", g.name_size, ACTIVE_FG, box, "center")
        else:
            self._text(region, c.label, "cond", g.name_size, MUTED, label_box, "center")
        if c.countdown:
            colour = URGENT if c.urgent else (MUTED if c.frozen else TEXT)
            self._text(region, c.countdown, "bold", g.big_size, colour, g.countdown, "right")
        for seat, row in zip(c.seats, g.seats, strict=False):
            self._draw_seat(region, seat, row, g, offline)
        self._draw_band(region, c, g, radius)
        if c.flashing:
            colour = JUDGE if c.flash_phase else TEXT
            pygame.draw.rect(s, colour, rect, width=max(3, g.name_size // 6), border_radius=radius)
        elif c.slow:
            pygame.draw.rect(s, SLOW, rect, width=max(2, g.name_size // 8), border_radius=radius)

    def _draw_seat(
        self, region: str, seat: SeatLine, row: pygame.Rect, g: CellGeometry, offline: bool
    ) -> None:
        fg = DIM if offline else TEXT
        if seat.active:
            pygame.draw.rect(self.surface, ACTIVE_BG, row, border_radius=max(2, row.height // 6))
            fg = ACTIVE_FG
        unit = row.height
        marker = pygame.Rect(row.left + unit // 8, row.top, unit, row.height)
        if seat.active:
            self._text(region, "▶", "bold", g.name_size, fg, marker, "center")
        letter = pygame.Rect(marker.right, row.top, round(unit * 0.95), row.height)
        self._text(region, seat.letter, "bold", g.name_size, fg if seat.active else MUTED, letter)
        name_right = row.right - unit // 6
        if seat.timeouts:
            to_text = f"TO {seat.timeouts}"
            width = self.texts.width("cond", g.name_size, to_text)
            box = pygame.Rect(name_right - width, row.top, width, row.height)
            colour = ACTIVE_FG if seat.active else (DIM if offline else URGENT)
            self._text(region, to_text, "cond", g.name_size, colour, box, "right")
            name_right = box.left - unit // 3
        name_box = pygame.Rect(letter.right, row.top, name_right - letter.right, row.height)
        self._text(region, seat.name, "cond", g.name_size, fg, name_box, name=True)

    def _draw_band(self, region: str, c: CellContent, g: CellGeometry, radius: int) -> None:
        bg, fg = STATE_COLOURS[c.state]
        if c.flashing and c.flash_phase:
            bg, fg = ACTIVE_FG, JUDGE
        band = g.band
        pygame.draw.rect(
            self.surface,
            bg,
            band,
            border_bottom_left_radius=radius,
            border_bottom_right_radius=radius,
        )
        box = band.inflate(-g.name_size // 2, 0)
        self._text(region, c.state_text, "cond", g.name_size, fg, box, "center")

    def _draw_sidebar(self, region: str, rect: pygame.Rect, content: object) -> None:
        assert isinstance(content, tuple)
        calls, sections = content
        lay = self.layout
        s = self.surface
        s.fill(BG, rect)
        pygame.draw.rect(s, PANEL_BG, rect, border_radius=6)
        size = lay.text
        line = round(self.texts.font("cond", size).get_height() * 1.3)
        pad = max(6, size // 2)
        inner = rect.inflate(-2 * pad, -2 * pad)
        legend_lines = (
            "▶ / inverse = to move",
            "TO n = timeouts this game",
            f"flashing = waiting ≥ {wait_text(self.flash_after)}",
        )
        legend_top = inner.bottom - len(legend_lines) * line
        y = inner.top
        title = pygame.Rect(inner.left, y, inner.width, round(line * 1.2))
        heading = f"JUDGE · {len(calls)}" if calls else "JUDGE"
        self._text(region, heading, "bold", round(size * 1.2), JUDGE, title)
        y = title.bottom + pad // 2
        pygame.draw.line(s, JUDGE, (inner.left, y - pad // 4), (inner.right, y - pad // 4), 2)
        sections_h = sum((2 + min(len(rows), 4)) * line + pad for _, _, rows in sections)
        room = max(1, (legend_top - sections_h - y) // line)
        if not calls:
            self._text(
                region,
                "no calls",
                "cond",
                size,
                MUTED,
                pygame.Rect(inner.left, y, inner.width, line),
            )
            y += line
        shown = calls if len(calls) <= room else calls[: room - 1]
        for table, state, waiting, flash in shown:
            row = pygame.Rect(inner.left, y, inner.width, line)
            fg = TEXT
            if flash:
                pygame.draw.rect(s, JUDGE, row, border_radius=4)
                fg = ACTIVE_FG
            number_w = self.texts.width("bold", size, "T000")
            self._text(
                region,
                f"T{table}",
                "bold",
                size,
                fg,
                pygame.Rect(row.left + 4, row.top, number_w, row.height),
            )
            wait_w = self.texts.width("bold", size, "00:00")
            wait_box = pygame.Rect(row.right - wait_w - 4, row.top, wait_w, row.height)
            self._text(region, waiting, "bold", size, fg, wait_box, "right")
            word = (
                "CALLED"
                if state is State.JUDGE_CALLED
                else ("PAUSED" if state is State.PAUSED_JUDGE else "RESTART")
            )
            word_box = pygame.Rect(
                row.left + 8 + number_w,
                row.top,
                wait_box.left - row.left - 12 - number_w,
                row.height,
            )
            self._text(region, word, "cond", size, fg, word_box)
            y += line
        if len(shown) < len(calls):
            more = pygame.Rect(inner.left, y, inner.width, line)
            self._text(region, f"+ {len(calls) - len(shown)} more", "cond", size, JUDGE, more)
            y += line
        y = max(y + pad, legend_top - sections_h)
        for heading, colour, rows in sections:
            y = self._draw_section(region, inner, y, (heading, colour, rows), line) + pad
        for i, text in enumerate(legend_lines):
            box = pygame.Rect(inner.left, legend_top + i * line, inner.width, line)
            self._text(region, text, "cond", size, DIM, box)

    def _draw_section(
        self, region: str, inner: pygame.Rect, y: int, section: object, line: int
    ) -> int:
        """A titled list of tables (results missing or refused, slow tables) from ``y``:
        four rows at most (else three and the rest by number); the ``y`` below it."""
        assert isinstance(section, tuple)
        heading, colour, rows = section
        size = self.layout.text
        pad = max(6, size // 2)
        title = pygame.Rect(inner.left, y, inner.width, line)
        self._text(region, f"{heading} · {len(rows)}", "bold", round(size * 1.2), colour, title)
        y += line
        pygame.draw.line(self.surface, colour, (inner.left, y), (inner.right, y), 2)
        y += pad // 3
        listed = rows if len(rows) <= 4 else rows[:3]
        number_w = self.texts.width("bold", size, "T000")
        for table, text in listed:
            row = pygame.Rect(inner.left, y, inner.width, line)
            number = pygame.Rect(row.left + 4, row.top, number_w, row.height)
            self._text(region, f"T{table}", "bold", size, TEXT, number)
            words = pygame.Rect(
                row.left + 8 + number_w, row.top, row.width - 12 - number_w, row.height
            )
            self._text(region, text, "cond", size, MUTED, words)
            y += line
        if len(listed) < len(rows):
            more = pygame.Rect(inner.left, y, inner.width, line)
            rest = ", ".join(f"T{t}" for t, _ in rows[3:])
            self._text(region, f"also {rest}", "cond", size, MUTED, more)
            y += line
        return y

    # standings and seating

    def _standings_content(self, hall: HallView, page: Page) -> object:
        board = hall.standings
        if board is None or hall.standings_hidden or page.count == 0:
            closed = hall.round.round if hall.round is not None else 0
            if hall.standings_hidden:
                return (
                    "message",
                    f"Standings are shown when round {closed} is closed"
                    if closed
                    else "Standings are shown when the round is closed",
                )
            return ("message", "No standings yet")
        ranges = self.list_pages(len(board.rows), STANDINGS_CHARS)
        part = ranges[min(page.index, len(ranges) - 1)]
        grid = self.list_grid(len(part), STANDINGS_CHARS)
        labels = place_labels(board.rows)
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
            notes.append(SHARED_NOTE)
        return ("standings", grid, rows, "  ·  ".join(notes), board.final)

    def _seating_content(self, hall: HallView, page: Page) -> object:
        board = hall.seating
        if board is None or not board.rows or page.count == 0:
            return ("message", "The next round's seating is not drawn yet")
        rows_all = seating_sorted(board)
        ranges = self.list_pages(len(rows_all), SEATING_CHARS)
        part = ranges[min(page.index, len(ranges) - 1)]
        grid = self.list_grid(len(part), SEATING_CHARS)
        rows = tuple((rows_all[i].name, str(rows_all[i].table), rows_all[i].seat) for i in part)
        return ("seating", grid, rows)

    def _draw_message(self, region: str, rect: pygame.Rect, text: str) -> None:
        self._text(region, text, "bold", self.layout.big, MUTED, rect, "center")

    def _draw_standings(self, region: str, rect: pygame.Rect, content: object) -> None:
        assert isinstance(content, tuple)
        self.surface.fill(BG, rect)
        if content[0] == "message":
            self._draw_message(region, rect, content[1])
            return
        _, grid, rows, note, _final = content
        assert isinstance(grid, ListGrid)
        size = self.list_size
        w = self.texts.width
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
                ("#", "NAME", "BP", "SP", "G"),
                ("right", "left", "right", "right", "right"),
                strict=True,
            ):
                self._text(region, text, "cond", size, MUTED, box, align)
        for i, (place, name, big, small, games, number) in enumerate(rows):
            row = grid.slot(i)
            if i % 2 == 0:
                self.surface.fill(ZEBRA, row)
            fg = GOLD if number <= 3 else TEXT
            boxes = columns(row)
            self._text(region, place, "bold", size, fg, boxes[0], "right")
            self._text(region, name, "cond", size, TEXT, boxes[1], name=True)
            self._text(region, big, "bold", size, TEXT, boxes[2], "right")
            self._text(region, small, "cond", size, TEXT, boxes[3], "right")
            self._text(region, games, "cond", size, MUTED, boxes[4], "right")
        if note:
            box = pygame.Rect(rect.left, rect.bottom - grid.row_h, rect.width, grid.row_h)
            self._text(region, note, "cond", size, DIM, box, "right")

    def _draw_seating(self, region: str, rect: pygame.Rect, content: object) -> None:
        assert isinstance(content, tuple)
        self.surface.fill(BG, rect)
        if content[0] == "message":
            self._draw_message(region, rect, content[1])
            return
        _, grid, rows = content
        assert isinstance(grid, ListGrid)
        size = self.list_size
        table_w = self.texts.width("bold", size, "T000") + size // 2
        seat_w = self.texts.width("cond", size, "SEAT") + size // 2

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
                columns(head), ("NAME", "TABLE", "SEAT"), ("left", "right", "right"), strict=True
            ):
                self._text(region, text, "cond", size, MUTED, box, align)
        for i, (name, table, seat) in enumerate(rows):
            row = grid.slot(i)
            if i % 2 == 0:
                self.surface.fill(ZEBRA, row)
            boxes = columns(row)
            self._text(region, name, "cond", size, TEXT, boxes[0], name=True)
            self._text(region, table, "bold", size, GOLD, boxes[1], "right")
            self._text(region, seat, "bold", size, TEXT, boxes[2], "right")

    # -- introspection for tests ---------------------------------------------------------

    def all_placed(self) -> list[Placed]:
        return [p for items in self.placed.values() for p in items]


STANDINGS_CHARS: Final = 30
"""Width of a standings column, in characters of the list font."""
SHARED_NOTE: Final = "2= shared place (level on BP and SP)"


def result_rows(hall: HallView) -> tuple[tuple[int, str], ...]:
    """The judge panel's RESULTS list: tables whose result the hub refused or lacks (on
    every page of the wall, so a table on another page is not forgotten)."""
    rows = []
    for t in hall.tables:
        state = state_of(t)
        if state is State.RESULT_REFUSED:
            rows.append((t.number, f"refused: {t.refused}" if t.refused else "refused"))
        elif state is State.RESULT_MISSING:
            rows.append((t.number, missing_text(t).lower()))
    return tuple(rows)


def standings_title(board: StandingsBoard | None, info: RoundInfo | None) -> str:
    """The standings page's title: final, with a round in play, or after the last
    closed round (``after_round``; 0: none closed yet)."""
    if board is None:
        return "STANDINGS"
    if board.final:
        return "FINAL STANDINGS"
    if info is not None and not info.closed and info.round > board.after_round:
        return f"STANDINGS · ROUND {info.round} IN PLAY"
    if board.after_round:
        return f"STANDINGS AFTER ROUND {board.after_round}"
    return "STANDINGS"
SEATING_CHARS: Final = 24


# --- PNG export --------------------------------------------------------------------------------


def render_pngs(
    hall: HallView, size: tuple[int, int], out_dir: Path, now: float, prefix: str = ""
) -> list[Path]:
    """Render every page of ``hall`` at ``size`` into ``out_dir``; the files written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    surface = pygame.Surface(size)
    screen = HallScreen(surface)
    pages = screen.sequence(hall)
    if not any(p.kind is PageKind.STANDINGS for p in pages):
        pages.append(Page(PageKind.STANDINGS, 0, 0))  # the placeholder (hidden or none yet)
    written = []
    for page in pages:
        screen.draw_page(hall, page, now)
        path = out_dir / f"{prefix}{page.kind.value}-{page.index + 1}.png"
        pygame.image.save(surface, str(path))
        written.append(path)
    return written


# --- the program ------------------------------------------------------------------------------


def parse_size(text: str) -> tuple[int, int]:
    w, sep, h = text.lower().partition("x")
    if not sep or not w.isdigit() or not h.isdigit():
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT such as 1920x1080, got {text!r}")
    width, height = int(w), int(h)
    if width < 640 or height < 360 or width > 7680 or height > 4320:
        raise argparse.ArgumentTypeError(
            f"size must be from 640x360 up to 7680x4320, got {width}x{height}"
        )
    return width, height


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, got {text!r}") from None
    if not 0 <= value <= 3600:
        raise argparse.ArgumentTypeError(f"seconds must be 0-3600, got {text!r}")
    return value


def _tables(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 200:
        raise argparse.ArgumentTypeError(f"expected a number of tables 1-200, got {text!r}")
    return int(text)


def build_parser() -> argparse.ArgumentParser:
    from hub.service import parse_broker

    p = argparse.ArgumentParser(
        prog="rummikub-screen",
        description="The hub screen: the wall of tables, judge calls, standings, seating.",
        epilog="See every page without a broker: rummikub-screen --demo 24 --png "
        "artifacts/hub-screen",
    )
    p.add_argument(
        "--broker",
        type=parse_broker,
        default=("127.0.0.1", 1883),
        metavar="HOST:PORT",
        help="MQTT broker (default 127.0.0.1:1883)",
    )
    p.add_argument(
        "--username",
        help="broker account, a read-only one (at a venue: screen); the client id is "
        "rummikub-screen-USERNAME",
    )
    p.add_argument(
        "--password-file",
        type=Path,
        metavar="FILE",
        help="file holding the account's password (needs --username)",
    )
    p.add_argument("--venue", default="hall", help="venue topic level (default hall)")
    p.add_argument("--event", default="demo", help="event topic level (default demo)")
    p.add_argument("--title", default="", help="title in the top left (default: the event)")
    p.add_argument(
        "--size",
        type=parse_size,
        default=(1920, 1080),
        metavar="WxH",
        help="window or PNG size (default 1920x1080)",
    )
    p.add_argument(
        "--fullscreen",
        action="store_true",
        help="full screen at the display's own resolution (a TV on the hub Pi)",
    )
    p.add_argument(
        "--cycle",
        type=_seconds,
        default=DEFAULT_CYCLE,
        help=f"seconds per page of the rotation, 0 = no rotation (default {DEFAULT_CYCLE:g})",
    )
    p.add_argument(
        "--hide-standings",
        action="store_true",
        help="keep the standings off the screen until the round is closed",
    )
    p.add_argument(
        "--flash-after",
        type=_seconds,
        default=JUDGE_FLASH_AFTER,
        help="seconds a table waits for the judge before it flashes "
        f"(default {JUDGE_FLASH_AFTER:g})",
    )
    p.add_argument(
        "--png", type=Path, metavar="DIR", help="render each page once to PNG files in DIR and exit"
    )
    p.add_argument(
        "--demo",
        type=_tables,
        metavar="N",
        help="show a sample hall of N tables instead of listening to a broker",
    )
    p.add_argument(
        "--wait",
        type=_seconds,
        default=2.0,
        help="with --png and a broker: seconds to collect retained messages (default 2)",
    )
    return p


def main(argv: Sequence[str] | None = None, stop: threading.Event | None = None) -> int:
    """The program; it ends on ``q``/Esc, a closed window, SIGTERM or SIGINT, or when
    ``stop`` is set (a caller that handles the signals itself, the demo)."""
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    keep_signals_from_sdl()  # SDL's handlers would swallow SIGTERM while nobody polls
    if stop is not None:
        return _main(args, stop)
    own = threading.Event()
    with stop_on_signals(lambda signum: own.set()):
        return _main(args, own)


def _main(args: argparse.Namespace, stop: threading.Event) -> int:
    if args.png is not None:
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    feed = None
    if args.demo is None:
        from hub.screen_feed import ScreenFeed
        from tablekit.core.topics import Topics

        try:
            topics = Topics(args.venue, args.event)
        except ValueError as err:
            print(f"rummikub-screen: error: {err}", file=sys.stderr)
            return 2
        host, port = args.broker
        try:
            password = _password(args)
        except ValueError as err:
            print(f"rummikub-screen: error: {err}", file=sys.stderr)
            return 2
        feed = ScreenFeed(
            host,
            port,
            topics,
            title=args.title or args.event,
            hide_standings=args.hide_standings,
            username=args.username,
            password=password,
        )
        feed.start()

    def hall_at(now: float) -> HallView:
        if feed is not None:
            return feed.hall(now)
        # The sample hall restarts its moves every DEMO_PERIOD seconds: live countdowns.
        anchor = start + (now - start) // DEMO_PERIOD * DEMO_PERIOD
        hall = sample_hall(args.demo, anchor, seed=7)
        return replace(hall, hide_standings=args.hide_standings, title=args.title or hall.title)

    start = time.time()
    pygame.display.init()
    pygame.font.init()
    try:
        if args.png is not None:
            if feed is not None:
                stop.wait(args.wait)
                if stop.is_set():
                    return 0
            now = time.time()
            paths = render_pngs(hall_at(now), args.size, args.png, now)
            for path in paths:
                print(path.absolute())
            return 0
        return _run(args, hall_at, stop)
    finally:
        if feed is not None:
            feed.stop()
        pygame.quit()


def _password(args: argparse.Namespace) -> str | None:
    """The secret of ``--password-file`` (read like a table unit's, tablekit.link);
    ValueError with a one-line reason when it is missing, unreadable or empty."""
    from tablekit.link import read_secret

    if args.password_file is None:
        return None
    if args.username is None:
        raise ValueError("--password-file needs --username")
    return read_secret(args.password_file, "--password-file")


def _run(
    args: argparse.Namespace, hall_at: Callable[[float], HallView], stop: threading.Event
) -> int:
    flags = pygame.FULLSCREEN if args.fullscreen else 0
    size = (0, 0) if args.fullscreen else args.size
    try:
        window = pygame.display.set_mode(size, flags)
    except pygame.error as err:
        print(f"rummikub-screen: cannot open the display: {err}", file=sys.stderr)
        return 1
    pygame.display.set_caption("Rummikub hub screen")
    pygame.mouse.set_visible(False)
    screen = HallScreen(window, cycle=args.cycle, flash_after=args.flash_after)
    clock = pygame.time.Clock()
    running = True
    while running and not stop.is_set():
        now = time.time()
        hall = hall_at(now)
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                running = False
            elif event.type == pygame.KEYDOWN:
                running = screen.key(event.key, hall, now) and running
        dirty = screen.frame(hall, now)
        if dirty:
            pygame.display.update(dirty)
        clock.tick(FRAME_RATE)
    return 0


if __name__ == "__main__":
    sys.exit(main())
