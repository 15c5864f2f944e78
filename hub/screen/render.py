"""The hub screen's renderer: :class:`HallScreen` draws a :class:`~hub.hall.HallView` page
by page, and :func:`render_pngs` writes every page to PNG files.

Drawing keeps up with 60 live tables at a modest CPU share: the screen is split into
regions (the header, one per wall cell, the judge panel, the list body); each frame
every region computes its content (a small hashable value: the texts and states it
shows at ``now``) and is redrawn only when that value changed — a countdown changes
once per second — and only the changed rectangles go to ``display.update``. Rendered
texts are cached. Text sizes: :mod:`hub.screen.geometry`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pygame

from hub.hall import (
    JUDGE_FLASH_AFTER,
    HallView,
    Page,
    PageKind,
    Pager,
    link_lost_text,
    page_sequence,
    shown_at,
    slow_tables,
)
from hub.screen import DEFAULT_CYCLE
from hub.screen.canvas import Canvas, Placed, Texts
from hub.screen.geometry import (
    CELL_GAP_FRAC,
    CellGeometry,
    ScreenLayout,
    WallGrid,
    cell_geometry,
    plan_wall,
    screen_layout,
)
from hub.screen.header import draw_header, first_start_text, header_content
from hub.screen.lists import (
    draw_seating,
    draw_standings,
    list_body,
    list_pages,
    seating_content,
    standings_content,
)
from hub.screen.names import PageNames
from hub.screen.qr import draw_qr, qr_column, qr_content
from hub.screen.sidebar import draw_sidebar, sidebar_content
from hub.screen.theme import BG
from hub.screen.wall import CellContent, cell_content, draw_blank, draw_cell, draw_empty
from tablekit.shared import i18n


@dataclass
class _Frame:
    page: Page | None = None
    language: str = ""
    console: str = ""
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
        self.canvas = Canvas(surface, self.layout, self.texts)
        self.placed: dict[str, list[Placed]] = self.canvas.placed
        self.pager = Pager(cycle)
        self.paused_rotation = False
        self.flash_after = flash_after
        self.incremental = incremental
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

    def sequence(self, hall: HallView) -> list[Page]:
        self.canvas.console = hall.console_url  # the lists leave its QR code a column
        wall = self.grid(len(hall.tables)).pages
        standings = 0
        if hall.standings is not None and hall.standings.rows and not hall.standings_hidden:
            standings = len(list_pages(self.canvas, hall.standings))
        seating = 0
        if hall.seating is not None and hall.seating.rows:
            seating = len(list_pages(self.canvas, hall.seating))
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

    def page_names(self, hall: HallView, page: Page) -> frozenset[str]:
        """The players' names on ``page``: none is shortened to a form another could take."""
        if page.kind is PageKind.WALL:
            tables = [hall.tables[i] for i in self.grid(len(hall.tables)).page_slots(page.index)]
            return frozenset(name for t in tables for name in t.seats if name)
        board = hall.standings if page.kind is PageKind.STANDINGS else hall.seating
        if board is None or not board.rows:
            return frozenset()
        ranges = list_pages(self.canvas, board)
        return frozenset(board.rows[i].name for i in ranges[min(page.index, len(ranges) - 1)])

    def _draw(self, hall: HallView, page: Page, now: float) -> list[pygame.Rect]:
        # The hall's language: a change of it redraws the whole screen in the new one;
        # so does a change of the names on the page (each may be shortened anew).
        language = hall.language
        self.canvas.console = hall.console_url
        names = self.page_names(hall, page)
        full = (
            not self.incremental
            or page != self._frame.page
            or language != self._frame.language
            or hall.console_url != self._frame.console
            or names != self.canvas.names.names
        )
        if full:
            if names != self.canvas.names.names:
                self.canvas.names = PageNames(names)
            self.canvas.words = i18n.words(language)
            self.surface.fill(BG)
            self._frame = _Frame(page=page, language=language, console=hall.console_url)
            self.placed.clear()
            self.cells.clear()
        dirty: list[pygame.Rect] = []
        if hall.link_lost is not None:
            header: object = ("lost", *link_lost_text(hall.link_lost, now, self.canvas.words))
        elif hall.first_start:
            said = first_start_text(hall.first_start, hall.console_url, self.canvas.words)
            header = ("first", *said)
        else:
            wall = self.grid(len(hall.tables)) if page.kind is PageKind.WALL else None
            header = header_content(self.canvas.words, hall, page, now, wall)
        self._region("header", self.layout.header, header, self._draw_header, dirty)
        if page.kind is PageKind.WALL:
            self._draw_wall(hall, page, shown_at(hall, now), dirty)
        elif page.kind is PageKind.STANDINGS:
            self._region(
                "body",
                list_body(self.canvas),
                standings_content(self.canvas, hall, page),
                self._draw_standings,
                dirty,
            )
            self._draw_code(PageKind.STANDINGS, dirty)
        else:
            self._region(
                "body",
                list_body(self.canvas),
                seating_content(self.canvas, hall, page),
                self._draw_seating,
                dirty,
            )
            self._draw_code(PageKind.SEATING, dirty)
        if full:
            return [self.surface.get_rect()]
        return dirty

    def _draw_code(self, kind: PageKind, dirty: list[pygame.Rect]) -> None:
        """The console's QR code beside a list: the standings' page of the console, or
        its find your table."""
        if not self.canvas.console:
            return
        _ = self.canvas.words.gettext
        if kind is PageKind.STANDINGS:
            content = qr_content(self.canvas, "/standings", _("Standings"))
        else:
            content = qr_content(self.canvas, "/find", _("Find your table"))
        self._region("qr", qr_column(self.canvas), content, self._draw_qr, dirty)

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
            content = cell_content(t, now, t.number in slow, self.flash_after, self.canvas.words)
            self._region(f"cell:{slot}", rect, content, self._draw_cell, dirty)
        for slot in range(len(slots), len(grid.cells)):
            self._region(f"cell:{slot}", grid.cells[slot], None, self._draw_blank, dirty)
        sidebar = sidebar_content(self.canvas.words, hall, now, self.flash_after, slow.values())
        self._region("sidebar", self.layout.sidebar, sidebar, self._draw_sidebar, dirty)

    def _geometry_of(self, rect: pygame.Rect) -> CellGeometry:
        key = (rect.x, rect.y, rect.w, rect.h)
        geometry = self._geometry.get(key)
        if geometry is None:
            assert self._grid is not None
            geometry = cell_geometry(rect, self._grid.unit)
            self._geometry[key] = geometry
        return geometry

    # -- what each region draws (the functions of hub.screen's modules, on this canvas) ----

    def _draw_header(self, region: str, rect: pygame.Rect, content: object) -> None:
        draw_header(self.canvas, region, rect, content)

    def _draw_empty(self, region: str, rect: pygame.Rect, content: object) -> None:
        draw_empty(self.canvas, region, rect)

    def _draw_blank(self, region: str, rect: pygame.Rect, content: object) -> None:
        draw_blank(self.canvas, rect)

    def _draw_cell(self, region: str, rect: pygame.Rect, content: object) -> None:
        assert isinstance(content, CellContent)
        draw_cell(self.canvas, region, rect, content, self._geometry_of(rect))

    def _draw_sidebar(self, region: str, rect: pygame.Rect, content: object) -> None:
        draw_sidebar(self.canvas, region, rect, content, self.flash_after)

    def _draw_standings(self, region: str, rect: pygame.Rect, content: object) -> None:
        draw_standings(self.canvas, region, rect, content)

    def _draw_seating(self, region: str, rect: pygame.Rect, content: object) -> None:
        draw_seating(self.canvas, region, rect, content)

    def _draw_qr(self, region: str, rect: pygame.Rect, content: object) -> None:
        draw_qr(self.canvas, region, rect, content)

    # -- introspection for tests ---------------------------------------------------------

    def all_placed(self) -> list[Placed]:
        return [p for items in self.placed.values() for p in items]


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
