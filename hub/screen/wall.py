"""The wall of tables: what one table's cell shows at an instant (:func:`cell_content`,
pure), and drawing it — the number, stage and countdown, a line per seat (the one to
move lit, its timeouts), and the state band at the bottom (word and colour)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import pygame

from hub.hall import (
    JUDGE_FLASH_AFTER,
    TableCell,
    countdown_text,
    flash_on,
    game_label,
    remaining_at,
    state_of,
    state_text,
)
from hub.screen.canvas import Canvas
from hub.screen.geometry import CellGeometry
from hub.screen.theme import (
    ACTIVE_BG,
    ACTIVE_FG,
    BG,
    CELL_BG,
    CELL_OFFLINE,
    DIM,
    JUDGE,
    MUTED,
    SLOW,
    TEXT,
    URGENT,
)
from tablekit.core.clock import Phase
from tablekit.core.seats import SEATS, Seat
from tablekit.core.status import JUDGE_STATES, TableState, duration_text, look
from tablekit.shared import i18n
from tablekit.shared.i18n import Words

URGENT_SECONDS: Final = 10.0
"""A countdown at or below this many seconds is drawn in the urgent colour."""
_NO_SEAT_TO_MOVE: Final = frozenset(
    {
        TableState.OFFLINE,
        TableState.READY,
        TableState.GAME_OVER,
        TableState.ENTERING_RESULT,
        TableState.RESULT_IN,
        TableState.RESULT_REFUSED,
        TableState.ROUND_FINISHED,
    }
)
"""States in which no seat's line is lit as the one to move."""


@dataclass(frozen=True)
class SeatLine:
    seat: Seat
    name: str
    active: bool
    timeouts: int


@dataclass(frozen=True)
class CellContent:
    """Everything a wall cell shows at one instant; equal contents need no redraw."""

    number: int
    label: str
    slow: str
    """The SLOW tag in the hall's language ("": the table is not slow)."""
    countdown: str
    urgent: bool
    frozen: bool
    seats: tuple[SeatLine, ...]
    timeouts: str
    """The template of a seat's timeouts (``TO {n}``) in the hall's language."""
    state: TableState
    state_text: str
    short_text: str
    """The state's short word, drawn when ``state_text`` does not fit the band."""
    lasting: str
    """How long an offline table has been so (``42 s``; "" otherwise): drawn where the
    countdown would be when the band has room only for the short word."""
    flashing: bool
    flash_phase: bool


def cell_content(
    t: TableCell,
    now: float,
    slow: bool,
    flash_after: float = JUDGE_FLASH_AFTER,
    words: Words | None = None,
) -> CellContent:
    """What the cell of ``t`` shows at ``now``, in ``words``' language (default English)."""
    w = words if words is not None else i18n.words("en")
    state = state_of(t)
    countdown, urgent, frozen = "", False, False
    playing = (
        state in (TableState.RESULT_MISSING, TableState.BEHIND) and t.phase is Phase.RUNNING
    )
    if state in (TableState.PLAYING, TableState.LAST_LAP) or playing:
        left = remaining_at(t, now)
        countdown, urgent = countdown_text(left), left <= URGENT_SECONDS
    elif state in JUDGE_STATES and t.active is not None:
        countdown, frozen = countdown_text(remaining_at(t, now)), True
    elif state is TableState.TIME:
        countdown, urgent = "0", True
    flashing = False
    if state in JUDGE_STATES:
        since = t.paused_since if t.paused_since is not None else t.measured_at
        flashing = now - since >= flash_after
    active = t.active if state not in _NO_SEAT_TO_MOVE else None
    seats = tuple(
        SeatLine(
            seat,
            name or "—",
            seat is active,
            t.timeouts[seat.position] if seat.position < len(t.timeouts) else 0,
        )
        for seat, name in zip(SEATS, t.seats, strict=False)
    )
    # The game within the round (the round itself is in the header, the same for every
    # table): "gra 2/3", the rule books' word.
    label = game_label(t, w)
    return CellContent(
        number=t.number,
        label=label,
        # Translators: a short tag (it must fit a narrow cell) on a table whose games run
        # far behind the hall's.
        slow=w.pgettext("tag on a table's cell", "SLOW") if slow else "",
        countdown=countdown,
        urgent=urgent,
        frozen=frozen,
        seats=seats,
        # Translators: a seat's timeouts in this game (TO = time out), on a table's cell.
        timeouts=w.gettext("TO {n}"),
        state=state,
        state_text=state_text(t, now, words=w),
        short_text=state_text(t, now, short=True, words=w),
        lasting=(
            # "2 min", not "2:15" (a time of day): the band says the rest
            duration_text(now - t.offline_since, w, short=True)
            if state is TableState.OFFLINE and t.offline_since is not None
            else ""
        ),
        flashing=flashing,
        flash_phase=flashing and flash_on(now),
    )



def draw_empty(canvas: Canvas, region: str, rect: pygame.Rect) -> None:
    """No tables yet: the wall says what it waits for."""
    canvas.surface.fill(BG, rect)
    waiting = canvas.words.gettext("Waiting for the tables…")
    canvas.text(region, waiting, "bold", canvas.layout.big, MUTED, rect, "center")


def draw_blank(canvas: Canvas, rect: pygame.Rect) -> None:
    """An unused cell of the last page."""
    canvas.surface.fill(BG, rect)


def draw_cell(
    canvas: Canvas, region: str, rect: pygame.Rect, c: CellContent, g: CellGeometry
) -> None:
    """One table's cell in ``rect``, laid out by ``g``."""
    s = canvas.surface
    radius = max(3, g.rect.height // 28)
    offline = c.state is TableState.OFFLINE
    s.fill(BG, rect)
    pygame.draw.rect(s, CELL_OFFLINE if offline else CELL_BG, rect, border_radius=radius)
    fg = DIM if offline else TEXT
    canvas.text(region, str(c.number), "bold", g.big_size, fg, g.number)
    label_box = g.label.inflate(-g.name_size // 2, 0)
    if c.slow:
        tag = canvas.text(region, c.slow, "bold", g.name_size, ACTIVE_FG, label_box, "center")
        if tag is not None:
            box = tag.inflate(g.name_size // 2, 2)
            box.clamp_ip(g.label)
            pygame.draw.rect(s, SLOW, box, border_radius=3)
            canvas.placed[region].pop()
            canvas.text(region, c.slow, "bold", g.name_size, ACTIVE_FG, box, "center")
    else:
        canvas.text(region, c.label, "cond", g.name_size, MUTED, label_box, "center")
    if c.countdown:
        colour = URGENT if c.urgent else (MUTED if c.frozen else TEXT)
        canvas.text(region, c.countdown, "bold", g.big_size, colour, g.countdown, "right")
    elif c.lasting and band_text(canvas, c, g) != c.state_text:
        canvas.text(region, c.lasting, "cond", g.name_size, DIM, g.countdown, "right")
    for seat, row in zip(c.seats, g.seats, strict=False):
        draw_seat(canvas, region, seat, row, g, offline=offline, timeouts=c.timeouts)
    draw_band(canvas, region, c, g, radius)
    if c.flashing:
        colour = JUDGE if c.flash_phase else TEXT
        pygame.draw.rect(s, colour, rect, width=max(3, g.name_size // 6), border_radius=radius)
    elif c.slow:
        pygame.draw.rect(s, SLOW, rect, width=max(2, g.name_size // 8), border_radius=radius)


def draw_seat(
    canvas: Canvas,
    region: str,
    seat: SeatLine,
    row: pygame.Rect,
    g: CellGeometry,
    *,
    offline: bool,
    timeouts: str,
) -> None:
    """One seat's line: the marker of the seat to move, its letter, the player's name
    and the seat's timeouts (``timeouts``: their template, ``TO {n}``)."""
    fg = DIM if offline else TEXT
    if seat.active:
        pygame.draw.rect(canvas.surface, ACTIVE_BG, row, border_radius=max(2, row.height // 6))
        fg = ACTIVE_FG
    unit = row.height
    marker = pygame.Rect(row.left + unit // 8, row.top, unit, row.height)
    if seat.active:
        canvas.text(region, "▶", "bold", g.name_size, fg, marker, "center")
    letter = pygame.Rect(marker.right, row.top, round(unit * 0.95), row.height)
    canvas.text(region, str(seat.seat), "bold", g.name_size, fg if seat.active else MUTED, letter)
    name_right = row.right - unit // 6
    if seat.timeouts:
        to_text = timeouts.format(n=seat.timeouts)
        width = canvas.texts.width("cond", g.name_size, to_text)
        box = pygame.Rect(name_right - width, row.top, width, row.height)
        colour = ACTIVE_FG if seat.active else (DIM if offline else URGENT)
        canvas.text(region, to_text, "cond", g.name_size, colour, box, "right")
        name_right = box.left - unit // 3
    name_box = pygame.Rect(letter.right, row.top, name_right - letter.right, row.height)
    canvas.text(region, seat.name, "cond", g.name_size, fg, name_box, name=True)


def draw_band(canvas: Canvas, region: str, c: CellContent, g: CellGeometry, radius: int) -> None:
    bg, fg = look(c.state).bg, look(c.state).fg
    if c.flashing and c.flash_phase:
        bg, fg = ACTIVE_FG, JUDGE
    band = g.band
    pygame.draw.rect(
        canvas.surface,
        bg,
        band,
        border_bottom_left_radius=radius,
        border_bottom_right_radius=radius,
    )
    box = band.inflate(-g.name_size // 2, 0)
    canvas.text(region, band_text(canvas, c, g), "cond", g.name_size, fg, box, "center")


def band_text(canvas: Canvas, c: CellContent, g: CellGeometry) -> str:
    """The state band's words: the whole of them, or the short word where they do not
    fit the band."""
    box = g.band.inflate(-g.name_size // 2, 0)
    size = canvas.texts.size_for("cond", g.name_size, box.height)
    if canvas.texts.width("cond", size, c.state_text) > box.width:
        return c.short_text
    return c.state_text
