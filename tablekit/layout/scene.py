"""The values a table display's scene is made of, and the regions of a screen.

A *scene* is a tuple of :class:`Panel` values that tile the screen without overlap. Each
panel names its rectangle, its background and what is drawn in it: :class:`Text` in a
box, :class:`Fill` rectangles, :class:`Icon` shapes. :func:`layout_for` cuts a screen of
any size into the regions the panels go in. Plain values, no pygame: the pygame shell in
:mod:`tablekit.display` draws them.

Text items give a *box*; the renderer picks the largest font that fits it, so a long name
gets smaller instead of running over its neighbour. Every state has a word and an icon
shape as well as a colour (never colour alone).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

Colour = tuple[int, int, int]

BACKGROUND: Colour = (14, 16, 20)
PANEL_EDGE: Colour = (44, 48, 56)
WHITE: Colour = (244, 244, 240)
BLACK: Colour = (0, 0, 0)
DIM: Colour = (150, 154, 162)
GREY: Colour = (120, 124, 132)
AMBER: Colour = (255, 184, 0)
RED_TEXT: Colour = (255, 72, 60)
GREEN: Colour = (0, 120, 60)
SLATE: Colour = (48, 64, 92)
BAR_TRACK: Colour = (40, 43, 50)
BRIGHT_GREEN: Colour = (70, 210, 120)
KEYCAP: Colour = (206, 210, 216)
DARK_AMBER: Colour = (150, 90, 0)
ROW_LINE: Colour = (34, 37, 44)

WARN_SECONDS = 10
"""At or below this many whole seconds the digits turn amber (the buzzer's first beep)."""
CRITICAL_SECONDS = 5
"""At or below this many whole seconds the digits turn red (one beep per second)."""


class Align(enum.StrEnum):
    LEFT = "left"
    CENTER = "center"
    RIGHT = "right"


class IconKind(enum.StrEnum):
    PLAY = "play"
    PAUSE = "pause"
    ALERT = "alert"
    STOP = "stop"
    LAP = "lap"
    FLAG = "flag"
    READY = "ready"
    OFFLINE = "offline"
    POINTER = "pointer"
    """The ▶ that marks the selected judge-menu item."""
    KEYPAD = "keypad"
    """A grid of keys: a result is being typed on the keypad."""
    CHECK = "check"
    """✓: a seat's values are in, a seat confirmed, the hub accepted the result."""
    STAR = "star"
    """★: the winner of the game (the game's top place)."""
    HOURGLASS = "hourglass"
    """Waiting for the hub's answer."""


@dataclass(frozen=True, slots=True)
class Box:
    x: int
    y: int
    w: int
    h: int

    @property
    def right(self) -> int:
        return self.x + self.w

    @property
    def bottom(self) -> int:
        return self.y + self.h

    @property
    def area(self) -> int:
        return self.w * self.h

    def inset(self, dx: int, dy: int | None = None) -> Box:
        dy = dx if dy is None else dy
        return Box(self.x + dx, self.y + dy, max(0, self.w - 2 * dx), max(0, self.h - 2 * dy))

    def contains(self, other: Box) -> bool:
        return (
            self.x <= other.x
            and self.y <= other.y
            and other.right <= self.right
            and other.bottom <= self.bottom
        )

    def overlaps(self, other: Box) -> bool:
        return (
            self.x < other.right
            and other.x < self.right
            and self.y < other.bottom
            and other.y < self.bottom
        )

    def as_tuple(self) -> tuple[int, int, int, int]:
        return (self.x, self.y, self.w, self.h)


@dataclass(frozen=True, slots=True)
class Text:
    text: str
    box: Box
    colour: Colour
    align: Align = Align.CENTER
    tight: bool = False
    """Fit the glyphs' ink (digits, capital words) rather than the font's line height."""
    template: str = ""
    """Size the font for this text instead, so that e.g. 9 and 10 get the same digit size."""
    shrink: float = 0.7
    """Too wide text gets smaller down to this fraction of the box height, then is cut (…)."""


@dataclass(frozen=True, slots=True)
class Fill:
    box: Box
    colour: Colour
    radius: int = 0
    width: int = 0
    """0 = filled; otherwise the outline's thickness."""


@dataclass(frozen=True, slots=True)
class Icon:
    kind: IconKind
    box: Box
    colour: Colour


@dataclass(frozen=True, slots=True)
class QrCode:
    """A QR code as large as fits ``box`` (its quiet zone included), dark on white."""

    modules: tuple[tuple[bool, ...], ...]
    """Rows of modules, True for dark (:func:`tablekit.shared.qr.qr_modules`)."""
    box: Box


Item = Text | Fill | Icon | QrCode


@dataclass(frozen=True, slots=True)
class Panel:
    name: str
    box: Box
    bg: Colour
    items: tuple[Item, ...] = ()


Scene = tuple[Panel, ...]


@dataclass(frozen=True, slots=True)
class Layout:
    """The regions of one screen size; ``portrait`` when taller than wide."""

    width: int
    height: int
    portrait: bool
    pad: int
    band: Box
    seat: Box
    clock: Box
    footer: Box
    message: Box

    @property
    def screen(self) -> Box:
        return Box(0, 0, self.width, self.height)

    @property
    def min_text(self) -> int:
        """The smallest font (px) a player reads from the chair in (a name, a hint, a
        message, an error): 4 % of the screen's shorter side, 13 px at least."""
        return max(13, round(min(self.width, self.height) * 0.04))

    @property
    def min_line(self) -> float:
        """The line height a text needs to be drawn at :attr:`min_text` (DejaVu Sans Bold:
        a line is 1.17 to 1.24 of the font's size)."""
        return self.min_text * 1.24

    @property
    def footer_and_message(self) -> Box:
        """The footer and the message line together: a message too long for its line."""
        return union(self.footer, self.message)

    @property
    def main(self) -> Box:
        """Seat and clock together (GAME OVER uses the whole of it)."""
        return union(self.seat, self.clock)

    @property
    def below_band(self) -> Box:
        """Everything under the status band (the judge menu covers it)."""
        return Box(0, self.band.bottom, self.width, self.height - self.band.bottom)

    def offline_split(self) -> tuple[Box, Box]:
        """The band with the OFFLINE marker cut from its right end."""
        ow = round(self.width * (0.5 if self.portrait else 0.4))
        b = self.band
        return Box(b.x, b.y, b.w - ow, b.h), Box(b.right - ow, b.y, ow, b.h)


def layout_for(width: int, height: int) -> Layout:
    """Cut a ``width`` × ``height`` screen into regions (any size from 160×120 up)."""
    if width < 160 or height < 120:
        raise ValueError(f"display size: at least 160x120 is needed, got {width}x{height}")
    if width >= height:
        pad = max(2, round(height * 0.0125))
        band_h = round(height * 0.14)
        footer_h = round(height * 0.125)
        message_h = round(height * 0.125)
        main_h = height - band_h - footer_h - message_h
        seat_w = round(min(width * 0.30, height * 0.5))
        band = Box(0, 0, width, band_h)
        seat = Box(0, band_h, seat_w, main_h)
        clock = Box(seat_w, band_h, width - seat_w, main_h)
        footer = Box(0, band_h + main_h, width, footer_h)
        message = Box(0, height - message_h, width, message_h)
        return Layout(width, height, False, pad, band, seat, clock, footer, message)
    pad = max(2, round(width * 0.0125))
    band_h = round(height * 0.09)
    seat_h = round(height * 0.16)
    footer_h = round(height * 0.15)
    message_h = round(height * 0.08)
    clock_h = height - band_h - seat_h - footer_h - message_h
    band = Box(0, 0, width, band_h)
    seat = Box(0, band_h, width, seat_h)
    clock = Box(0, band_h + seat_h, width, clock_h)
    footer = Box(0, clock.bottom, width, footer_h)
    message = Box(0, height - message_h, width, message_h)
    return Layout(width, height, True, pad, band, seat, clock, footer, message)


@dataclass(frozen=True, slots=True)
class BandStyle:
    """The status band across the top: its word, icon and colours."""

    word: str
    icon: IconKind
    bg: Colour
    fg: Colour


def union(a: Box, b: Box) -> Box:
    x, y = min(a.x, b.x), min(a.y, b.y)
    return Box(x, y, max(a.right, b.right) - x, max(a.bottom, b.bottom) - y)
