"""QR codes for the web console's address: the modules of a code (segno, pure Python) and
where each falls in a box, for every front end that draws one — the hub screen and the
table display with pygame, the printed seating sheet as an SVG.

A code is drawn dark on light with its quiet zone (:data:`QUIET` modules of light around
it, which a phone's reader needs), each module a whole number of pixels so no row or
column is blurred.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import segno

QUIET: Final = 4
"""Light modules around the code (the QR standard's quiet zone)."""
DARK: Final = (0, 0, 0)
LIGHT: Final = (255, 255, 255)

Modules = tuple[tuple[bool, ...], ...]
"""Rows of modules, True for dark, without the quiet zone."""


def qr_modules(text: str) -> Modules:
    """The code of ``text`` (error correction M at least: segno raises it when the same
    size allows)."""
    code = segno.make_qr(text, error="m")
    return tuple(tuple(bool(m) for m in row) for row in code.matrix)


@dataclass(frozen=True)
class Placed:
    """A code placed in a box: the light square (quiet zone included) and the dark
    modules' squares, in pixels."""

    square: tuple[int, int, int, int]
    """(x, y, width, height) of the light square."""
    module: int
    """Pixels per module."""
    dark: tuple[tuple[int, int, int, int], ...]

    @property
    def size(self) -> int:
        return self.square[2]


def place(modules: Modules, x: int, y: int, width: int, height: int) -> Placed | None:
    """``modules`` as large as fits in the box (whole pixels per module), centred in it;
    None when not even one pixel per module fits."""
    count = len(modules) + 2 * QUIET
    module = min(width, height) // count
    if module < 1:
        return None
    size = module * count
    left = x + (width - size) // 2
    top = y + (height - size) // 2
    origin_x, origin_y = left + QUIET * module, top + QUIET * module
    dark = tuple(
        (origin_x + c * module, origin_y + r * module, module, module)
        for r, row in enumerate(modules)
        for c, on in enumerate(row)
        if on
    )
    return Placed((left, top, size, size), module, dark)


def svg_data_uri(text: str) -> str:
    """The code of ``text`` as an SVG ``data:`` address (for a printed page's ``<img>``),
    with its quiet zone, dark on white."""
    code = segno.make_qr(text, error="m")
    return str(code.svg_data_uri(scale=4, border=QUIET, dark="#000", light="#fff"))
