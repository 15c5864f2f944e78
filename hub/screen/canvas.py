"""Text on the hub screen: fonts and rendered text cached (:class:`Texts`), and the
:class:`Canvas` every part of the screen draws on — it places each text in its box
(smaller or shortened until it fits) and remembers where (:class:`Placed`, for tests)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import pygame

from hub.screen.geometry import ScreenLayout
from hub.screen.names import PageNames
from hub.screen.theme import Colour
from tablekit import fonts
from tablekit.shared import i18n
from tablekit.shared.i18n import Words

_FONT_FILES: Final = {
    "bold": fonts.BOLD,
    "cond": fonts.CONDENSED_BOLD,
}


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
        self._fits: dict[tuple[str, int, str, int, PageNames | None], str] = {}

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

    def fit(
        self, kind: str, size: int, text: str, width: int, names: PageNames | None = None
    ) -> str:
        """``text`` if it fits ``width``; else a shorter form: a player's name (``names``:
        those on the page) its most telling form unique on the page ("Nowak A.",
        "Nowa… An.", see :mod:`hub.screen.names`), other text cut, "Runda…"."""
        key = (kind, size, text, width, names)
        fitted = self._fits.get(key)
        if fitted is None:
            if names is not None:
                fitted = names.shortened(text, lambda form: self.width(kind, size, form) <= width)
            else:
                fitted = self._fit(kind, size, text, width)
            if len(self._fits) > 4000:
                self._fits.clear()
            self._fits[key] = fitted
        return fitted

    def _fit(self, kind: str, size: int, text: str, width: int) -> str:
        if self.width(kind, size, text) <= width:
            return text
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
    """As drawn: shortened when ``wanted`` did not fit its box."""
    rect: pygame.Rect
    box: pygame.Rect
    size: int
    wanted: str
    """The text before it was fitted to the box."""
    name: bool
    """A player's name (shortened, where it must be, to a form unique on the page)."""


class Canvas:
    """The surface being drawn on, its layout and fonts, the language of its words
    (``words``, the catalog every part draws its words from: the hall's language, set by
    :class:`~hub.screen.render.HallScreen` for each frame), and every text placed on it
    by region (a region's list is emptied when the region is redrawn)."""

    def __init__(
        self,
        surface: pygame.Surface,
        layout: ScreenLayout,
        texts: Texts,
        words: Words | None = None,
    ) -> None:
        self.surface = surface
        self.layout = layout
        self.texts = texts
        self.words = words if words is not None else i18n.words()
        self.names = PageNames()
        """The players' names on the page being drawn: a name is never shortened to a form
        another of them could take."""
        self.placed: dict[str, list[Placed]] = {}
        self.console = ""
        """The web console's address while the list pages are drawn (its QR code takes a
        column on their right); "": none, the lists have the whole body."""
        self.measured: dict[tuple[int, str], tuple[object, int]] = {}
        """What a list measured once per board and language (the width of its columns)."""

    def text(  # noqa: PLR0917 - one call per text on screen; positional reads best
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
        """Draw ``text`` in ``box`` (its size cut to the box's height, the text shortened
        to its width); the rectangle drawn, None when not even "…" fits."""
        size = self.texts.size_for(kind, size, box.height)
        fitted = self.texts.fit(kind, size, text, box.width, self.names if name else None)
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
        placed = Placed(region, fitted, rect, box.copy(), size, text, name)
        self.placed.setdefault(region, []).append(placed)
        return rect
