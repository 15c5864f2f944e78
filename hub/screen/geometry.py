"""Geometry of the hub screen: regions, the wall's grid and paging, cells, list columns.

Pure arithmetic on :class:`pygame.Rect` (no display needed). Text sizes are pygame font
sizes in pixels; a DejaVu glyph line is about 1.2 × the size tall.

**Minimum text sizes** (readable across a hall; physical size on a given TV is the same
at 1080p and 720p because they scale with the screen height):

* every text on screen — names, state words, labels, list rows: at least
  :data:`MIN_TEXT_FRAC` of the screen height (20 px at 1080p, 13 px at 720p);
* table numbers and countdowns: at least :data:`BIG_TEXT_FRAC` (33 px at 1080p, 23 px at
  720p); the round clock :data:`CLOCK_TEXT_FRAC` (54 px at 1080p, 36 px at 720p).

The wall uses the fewest pages at which a cell can hold its text at these sizes, then
the largest cells that fit (up to :data:`MAX_UNIT_SCALE` × the minimum).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

from pygame import Rect

MIN_TEXT_FRAC: Final = 0.0185
BIG_TEXT_FRAC: Final = 0.031
CLOCK_TEXT_FRAC: Final = 0.05

# A wall cell is measured in units ``u`` (one seat line):
NAME_SIZE: Final = 0.8
"""Font size of names, labels and the state word, in u."""
BIG_SIZE: Final = 1.35
"""Font size of the table number and the countdown, in u."""
PAD: Final = 0.15
HEAD_H: Final = 1.65
GAP: Final = 0.08
SEAT_H: Final = 1.0
BAND_H: Final = 1.15
CELL_H_UNITS: Final = PAD + HEAD_H + GAP + 4 * SEAT_H + GAP + BAND_H + PAD
CELL_W_UNITS: Final = 9.5
MAX_UNIT_SCALE: Final = 2.6
"""A lone table gets a big cell, but not a wall-sized one."""
CELL_GAP_FRAC: Final = 0.011
"""Gap between cells, as a fraction of the screen height."""


def min_text(height: int) -> int:
    return max(13, round(MIN_TEXT_FRAC * height))


def big_text(height: int) -> int:
    return max(23, round(BIG_TEXT_FRAC * height))


@dataclass(frozen=True)
class ScreenLayout:
    """The fixed regions of a screen of ``size``."""

    size: tuple[int, int]
    header: Rect
    """Title, page name and the round clock (or the LAST LAP banner)."""
    body: Rect
    """Everything below the header (standings and seating pages)."""
    wall: Rect
    """The table cells (wall page)."""
    sidebar: Rect
    """Judge queue and slow tables (wall page)."""
    text: int
    """Minimum font size (px)."""
    big: int
    clock: int
    margin: int

    @property
    def min_unit(self) -> float:
        """The smallest cell unit at which names are still at the minimum size."""
        return self.text / NAME_SIZE


def screen_layout(width: int, height: int) -> ScreenLayout:
    if width < 640 or height < 360:
        raise ValueError(f"screen size: at least 640x360, got {width}x{height}")
    margin = max(8, round(height * 0.013))
    header_h = round(height * 0.075)
    sidebar_w = round(width * 0.17)
    header = Rect(0, 0, width, header_h)
    body = Rect(margin, header_h + margin, width - 2 * margin, height - header_h - 2 * margin)
    sidebar = Rect(width - margin - sidebar_w, body.top, sidebar_w, body.height)
    wall = Rect(body.left, body.top, sidebar.left - margin - body.left, body.height)
    return ScreenLayout(
        size=(width, height),
        header=header,
        body=body,
        wall=wall,
        sidebar=sidebar,
        text=min_text(height),
        big=big_text(height),
        clock=max(30, round(CLOCK_TEXT_FRAC * height)),
        margin=margin,
    )


@dataclass(frozen=True)
class WallGrid:
    """How the wall's tables are split into pages and laid out in a grid."""

    tables: int
    cols: int
    rows: int
    per_page: int
    pages: int
    unit: float
    cells: tuple[Rect, ...]
    """Cell rectangles of one page, in reading order (slot i of every page)."""

    def page_slots(self, page: int) -> range:
        """Indices (into the sorted tables) shown on ``page``."""
        start = page * self.per_page
        return range(start, min(self.tables, start + self.per_page))


def _unit_for(area: Rect, cols: int, rows: int, gap: int) -> float:
    cell_w = (area.width - gap * (cols - 1)) / cols
    cell_h = (area.height - gap * (rows - 1)) / rows
    return min(cell_w / CELL_W_UNITS, cell_h / CELL_H_UNITS)


def plan_wall(tables: int, area: Rect, min_unit: float, gap: int) -> WallGrid:
    """The fewest pages whose cells reach ``min_unit``; then the biggest grid for a page."""
    count = max(1, tables)
    best: tuple[float, int, int] | None = None
    pages = 1
    for pages in range(1, count + 1):
        per_page = math.ceil(count / pages)
        best = None
        for cols in range(1, per_page + 1):
            rows = math.ceil(per_page / cols)
            if cols > 1 and (cols - 1) * rows >= per_page:
                continue  # a column fewer holds the page as well
            unit = _unit_for(area, cols, rows, gap)
            if best is None or unit > best[0]:
                best = (unit, cols, rows)
        if best is not None and best[0] >= min_unit:
            break
    assert best is not None
    unit, cols, rows = best
    per_page = math.ceil(count / pages)
    unit = min(unit, min_unit * MAX_UNIT_SCALE)
    cell_w = math.floor(unit * CELL_W_UNITS)
    cell_h = math.floor(unit * CELL_H_UNITS)
    # Spread the cells over the area when capped; centre the grid.
    gap_x = gap if cols == 1 else max(gap, min(3 * gap, (area.width - cols * cell_w) // (cols - 1)))
    gap_y = (
        gap if rows == 1 else max(gap, min(3 * gap, (area.height - rows * cell_h) // (rows - 1)))
    )
    grid_w = cols * cell_w + (cols - 1) * gap_x
    grid_h = rows * cell_h + (rows - 1) * gap_y
    left = area.left + (area.width - grid_w) // 2
    top = area.top + (area.height - grid_h) // 2
    cells = tuple(
        Rect(left + c * (cell_w + gap_x), top + r * (cell_h + gap_y), cell_w, cell_h)
        for r in range(rows)
        for c in range(cols)
    )[:per_page]
    return WallGrid(tables, cols, rows, per_page, pages, unit, cells)


@dataclass(frozen=True)
class CellGeometry:
    """The parts of one table cell (absolute rectangles)."""

    rect: Rect
    number: Rect
    label: Rect
    countdown: Rect
    seats: tuple[Rect, ...]
    band: Rect
    name_size: int
    big_size: int


def cell_geometry(rect: Rect, unit: float, seats: int = 4) -> CellGeometry:
    """Parts of a cell laid out top to bottom; a 3-seat table leaves its 4th line empty."""
    u = rect.height / CELL_H_UNITS  # the cell may be a pixel off ``unit`` by rounding
    pad = max(2, round(PAD * u))
    inner = rect.inflate(-2 * pad, -2 * pad)
    head_h = round(HEAD_H * u)
    big_size = max(1, round(BIG_SIZE * u))
    name_size = max(1, round(NAME_SIZE * u))
    number_w = round(2.3 * u)
    countdown_w = round(2.9 * u)
    number = Rect(inner.left, inner.top, number_w, head_h)
    countdown = Rect(inner.right - countdown_w, inner.top, countdown_w, head_h)
    label = Rect(number.right, inner.top, countdown.left - number.right, head_h)
    seat_h = round(SEAT_H * u)
    top = inner.top + head_h + round(GAP * u)
    seat_rects = tuple(Rect(inner.left, top + i * seat_h, inner.width, seat_h) for i in range(4))
    band_h = round(BAND_H * u)
    band = Rect(rect.left, rect.bottom - band_h, rect.width, band_h)
    del seats
    return CellGeometry(rect, number, label, countdown, seat_rects, band, name_size, big_size)


@dataclass(frozen=True)
class ListGrid:
    """A list (standings, seating) in columns of rows, paged."""

    rows_per_col: int
    cols: int
    row_h: int
    col_w: int
    area: Rect

    @property
    def per_page(self) -> int:
        return self.rows_per_col * self.cols

    def slot(self, i: int) -> Rect:
        """Rectangle of the i-th row on a page (down the first column, then the next)."""
        col, row = divmod(i, self.rows_per_col)
        return Rect(
            self.area.left + col * (self.col_w + self.gap),
            self.area.top + row * self.row_h,
            self.col_w,
            self.row_h,
        )

    @property
    def gap(self) -> int:
        if self.cols == 1:
            return 0
        return (self.area.width - self.cols * self.col_w) // (self.cols - 1)


def list_capacity(area: Rect, row_h: int, min_col_w: int, max_cols: int) -> int:
    """Rows that fit on one page of a list."""
    return max(1, area.height // row_h) * max(1, min(max_cols, area.width // min_col_w))


def plan_list(area: Rect, items: int, row_h: int, min_col_w: int, max_cols: int) -> ListGrid:
    """One page of ``items`` rows: as few columns as they need, rows balanced over them.

    Columns are as wide as when the page is full, so every page looks alike.
    """
    max_rows = max(1, area.height // row_h)
    fit_cols = max(1, min(max_cols, area.width // min_col_w))
    cols = max(1, min(fit_cols, math.ceil(max(1, items) / max_rows)))
    rows_per_col = min(max_rows, math.ceil(max(1, items) / cols))
    gap = round(row_h * 0.8)
    col_w = (area.width - (fit_cols - 1) * gap) // fit_cols if fit_cols > 1 else area.width
    width = cols * col_w + (cols - 1) * gap
    left = area.left + (area.width - width) // 2
    return ListGrid(rows_per_col, cols, row_h, col_w, Rect(left, area.top, width, area.height))
