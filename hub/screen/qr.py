"""The QR code of the web console on the hub screen's list pages: a column on the right of
the standings and of the seating ("find your table"), the code of that page's address on
the console (``{url}/standings``, ``{url}/find``) above a line saying what it opens and
the address to type. Drawn from segno's modules (:mod:`tablekit.shared.qr`), each a whole
number of pixels, dark on white with the quiet zone a phone's reader needs."""

from __future__ import annotations

from functools import cache

import pygame

from hub.screen.canvas import Canvas
from hub.screen.theme import BG, MUTED, TEXT
from tablekit.shared.qr import DARK, LIGHT, Modules, place, qr_modules

COLUMN_FRAC = 0.2
"""The QR column's share of the screen's width."""


def qr_column(canvas: Canvas) -> pygame.Rect:
    """The column on the right of the body that holds the code and its lines."""
    body = canvas.layout.body
    width = round(canvas.layout.size[0] * COLUMN_FRAC)
    return pygame.Rect(body.right - width, body.top, width, body.height)


@cache
def _modules(text: str) -> Modules:
    return qr_modules(text)


def qr_content(canvas: Canvas, path: str, caption: str) -> tuple[str, str, str]:
    """What the column shows: the address coded, the caption, the address as typed."""
    url = canvas.console + path
    shown = url.split("://", 1)[-1]
    return (url, caption, shown)


def draw_qr(canvas: Canvas, region: str, rect: pygame.Rect, content: object) -> None:
    assert isinstance(content, tuple)
    url, caption, shown = content
    canvas.surface.fill(BG, rect)
    size = canvas.layout.text
    line = round(size * 1.4)
    code_box = pygame.Rect(rect.left, rect.top, rect.width, min(rect.width, rect.height - 3 * line))
    placed = place(_modules(url), code_box.left, code_box.top, code_box.width, code_box.height)
    if placed is None:
        return
    square = pygame.Rect(placed.square)
    canvas.surface.fill(LIGHT, square)
    for x, y, w, h in placed.dark:
        canvas.surface.fill(DARK, (x, y, w, h))
    below = pygame.Rect(rect.left, square.bottom + line // 3, rect.width, line)
    canvas.text(region, caption, "bold", size, TEXT, below, "center")
    canvas.text(region, shown, "cond", size, MUTED, below.move(0, line), "center")
