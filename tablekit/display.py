"""The table display: pygame-ce drawing of the scenes from :mod:`tablekit.layout`.

``TableScreen(width, height, fullscreen, rotate).show(view, now)`` is called by the
unit's loop on every iteration. It is cheap when nothing visible changed:

* the only things that depend on ``now`` are the whole seconds shown and the
  offline duration (:func:`~tablekit.layout.compose.time_key`); with an equal view and
  an equal key the call returns at once and updates nothing;
* otherwise the scene is composed and only the panels that differ from the ones on
  screen are drawn and passed to ``pygame.display.update(rects)`` — while the clock
  runs that is the clock panel once per second;
* rendered text is cached (LRU, bounded in bytes) as opaque, display-format
  surfaces, so a countdown that repeats every move renders its digits once.

The seconds are shown whole and rounded up (no tenths: the last seconds are
marked by colour, the shrinking bar and one buzzer beep per second instead, and
the display stays at one update per second).

``rotate`` (0/90/180/270, clockwise) turns the picture for a panel mounted on its
side: ``width`` × ``height`` is the panel's own mode, the picture is laid out for
the turned size and each changed region is rotated in software (KMSDRM ignores the
system's rotation setting).

Video drivers: ``SDL_VIDEODRIVER=dummy`` (tests), ``x11``/``wayland`` (a desktop
window), ``kmsdrm`` (a Pi without a desktop; use ``fullscreen``). Run
``python -m tablekit.display --png out/ --size 480x320`` to draw every state to PNGs
(``out/pl/``, ``out/en/``: each language in its folder).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from pathlib import Path

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame

from tablekit import fonts
from tablekit.core.errors import KitError
from tablekit.core.words import N_
from tablekit.layout.compose import compose, time_key
from tablekit.layout.scene import (
    Align,
    Box,
    Colour,
    Fill,
    Icon,
    IconKind,
    Layout,
    Panel,
    QrCode,
    Scene,
    Text,
    layout_for,
)
from tablekit.samples import sample_views
from tablekit.shared.i18n import LANGUAGES, choose, language, words
from tablekit.shared.qr import DARK, LIGHT, place
from tablekit.view import TableView

ROTATIONS = (0, 90, 180, 270)
DEFAULT_CACHE_BYTES = 16 * 1024 * 1024


def find_font() -> str:
    """Path of the display font: DejaVu Sans Bold, shipped in the package (:mod:`tablekit.fonts`).

    Raises :class:`~tablekit.fonts.FontMissingError` when it is not there: the display's
    layouts are measured with it, and pygame's bundled default font draws smaller.
    """
    return fonts.font_path(fonts.BOLD)


class Renderer:
    """Draws scenes on a surface, only the panels that changed since the last draw."""

    def __init__(self, font_path: str | None = None, cache_bytes: int = DEFAULT_CACHE_BYTES):
        if not pygame.font.get_init():
            pygame.font.init()
        self.font_path = font_path if font_path is not None else find_font()
        self.cache_bytes = cache_bytes
        self._fonts: OrderedDict[int, pygame.font.Font] = OrderedDict()
        self._sizes: dict[tuple[str, int, int, bool], int] = {}
        self._texts: OrderedDict[tuple[object, ...], pygame.Surface] = OrderedDict()
        self._text_bytes = 0
        self._drawn: dict[Box, Panel] = {}
        self.renders = 0
        """Text surfaces rendered so far (cache misses), for tests and the benchmark."""

    # -- fonts and text ----------------------------------------------------------------

    def font(self, size: int) -> pygame.font.Font:
        font = self._fonts.get(size)
        if font is None:
            font = pygame.font.Font(self.font_path, size)
            self._fonts[size] = font
            if len(self._fonts) > 48:
                self._fonts.popitem(last=False)
        else:
            self._fonts.move_to_end(size)
        return font

    def _measure(self, font: pygame.font.Font, text: str, tight: bool) -> tuple[int, int]:
        width, height = font.size(text)
        if not tight:
            return width, height
        ink = [m for m in font.metrics(text) if m is not None]
        if not ink:
            return width, height
        return width, max(m[3] for m in ink) - min(m[2] for m in ink)

    def fit_size(self, text: str, w: int, h: int, tight: bool) -> int:
        """The largest font size at which ``text`` fits a ``w`` × ``h`` box."""
        key = (text, w, h, tight)
        size = self._sizes.get(key)
        if size is not None:
            return size
        size = max(4, int(h * (1.4 if tight else 0.86)))
        for _ in range(40):
            tw, th = self._measure(self.font(size), text, tight)
            if (tw <= w and th <= h) or size <= 4:
                break
            scale = min(w / max(1, tw), h / max(1, th))
            size = max(4, min(size - 1, int(size * scale)))
        if len(self._sizes) > 4096:
            self._sizes.clear()
        self._sizes[key] = size
        return size

    def text_surface(self, item: Text, bg: Colour) -> pygame.Surface:
        """``item`` rendered at the largest size that fits its box, on ``bg`` (cached)."""
        key = (
            item.text,
            item.template,
            item.box.w,
            item.box.h,
            item.tight,
            item.shrink,
            item.colour,
            bg,
        )
        surf = self._texts.get(key)
        if surf is not None:
            self._texts.move_to_end(key)
            return surf
        surf = self._render(item, bg)
        self._texts[key] = surf
        self._text_bytes += surf.get_width() * surf.get_height() * 4
        while self._text_bytes > self.cache_bytes and len(self._texts) > 1:
            _, old = self._texts.popitem(last=False)
            self._text_bytes -= old.get_width() * old.get_height() * 4
        return surf

    def fitted(self, item: Text) -> tuple[int, str]:
        """The font size ``item`` is drawn at and the text drawn: the largest size at which
        the text (and its template) fits the box; a text that would get smaller than its
        ``shrink`` floor is drawn at the floor, cut with an ellipsis (a tight one is not)."""
        w, h = item.box.w, item.box.h
        size = self.fit_size(item.text, w, h, item.tight)
        if item.template:  # the template's size, unless the text itself is wider still
            size = min(size, self.fit_size(item.template, w, h, item.tight))
        text = item.text
        if not item.tight:
            floor = self.fit_size("Mg", 10**6, round(h * item.shrink), False)
            if size < floor:
                size = floor
                text = _ellipsize(self.font(size), text, w)
        return size, text

    def _render(self, item: Text, bg: Colour) -> pygame.Surface:
        self.renders += 1
        size, text = self.fitted(item)
        font = self.font(size)
        ink = font.render(text, True, item.colour)
        if item.tight:
            bounds = ink.get_bounding_rect()
            if bounds.w and bounds.h:
                ink = ink.subsurface(bounds)
        out = pygame.Surface(ink.get_size())
        out.fill(bg)
        out.blit(ink, (0, 0))
        if pygame.display.get_init() and pygame.display.get_surface() is not None:
            out = out.convert()
        return out

    def place(self, item: Text, bg: Colour) -> tuple[pygame.Surface, pygame.Rect]:
        """The surface for ``item`` and where it goes (inside ``item.box``)."""
        surf = self.text_surface(item, bg)
        b = item.box
        sw, sh = surf.get_size()
        if item.align is Align.LEFT:
            x = b.x
        elif item.align is Align.RIGHT:
            x = b.right - sw
        else:
            x = b.x + (b.w - sw) // 2
        return surf, pygame.Rect(x, b.y + (b.h - sh) // 2, sw, sh)

    # -- panels -------------------------------------------------------------------------

    def invalidate(self) -> None:
        """Forget what is on screen: the next draw redraws every panel."""
        self._drawn.clear()

    def draw(self, surface: pygame.Surface, scene: Scene) -> list[Box]:
        """Draw the panels of ``scene`` that changed; return their boxes."""
        changed: list[Box] = []
        drawn: dict[Box, Panel] = {}
        for panel in scene:
            drawn[panel.box] = panel
            if self._drawn.get(panel.box) == panel:
                continue
            self.draw_panel(surface, panel)
            changed.append(panel.box)
        self._drawn = drawn
        return changed

    def draw_panel(self, surface: pygame.Surface, panel: Panel) -> None:
        clip = surface.get_clip()
        surface.set_clip(_rect(panel.box))
        surface.fill(panel.bg, _rect(panel.box))
        for item in panel.items:
            if isinstance(item, Text):
                if item.text and item.box.w > 0 and item.box.h > 0:
                    surf, dest = self.place(item, colour_under(panel, item.box))
                    surface.blit(surf, dest)
            elif isinstance(item, Fill):
                pygame.draw.rect(
                    surface, item.colour, _rect(item.box), item.width, border_radius=item.radius
                )
            elif isinstance(item, QrCode):
                _draw_code(surface, item)
            else:
                _draw_icon(surface, item, colour_under(panel, item.box))
        surface.set_clip(clip)


def _draw_code(surface: pygame.Surface, item: QrCode) -> None:
    """The code in whole pixels per module, dark on white with its quiet zone."""
    box = item.box
    placed = place(item.modules, box.x, box.y, box.w, box.h)
    if placed is None:
        return
    surface.fill(LIGHT, placed.square)
    for square in placed.dark:
        surface.fill(DARK, square)


def colour_under(panel: Panel, box: Box) -> Colour:
    """The colour under ``box``: the last filled rectangle holding it, else the panel's."""
    under = panel.bg
    for item in panel.items:
        if isinstance(item, Fill) and item.width == 0 and item.box.contains(box):
            under = item.colour
    return under


def _ellipsize(font: pygame.font.Font, text: str, width: int) -> str:
    for cut in range(len(text) - 1, 0, -1):
        candidate = text[:cut].rstrip() + "…"
        if font.size(candidate)[0] <= width:
            return candidate
    return "…"


def _rect(box: Box) -> pygame.Rect:
    return pygame.Rect(box.x, box.y, box.w, box.h)


def _draw_icon(surface: pygame.Surface, icon: Icon, under: Colour) -> None:
    b, c = icon.box, icon.colour
    x, y, w, h = b.x, b.y, b.w, b.h
    if w <= 0 or h <= 0:
        return

    def pt(fx: float, fy: float) -> tuple[float, float]:
        return (x + fx * w, y + fy * h)

    match icon.kind:
        case IconKind.PLAY:
            pygame.draw.polygon(surface, c, [pt(0.22, 0.12), pt(0.22, 0.88), pt(0.88, 0.5)])
        case IconKind.POINTER:
            pygame.draw.polygon(surface, c, [pt(0.05, 0.0), pt(0.05, 1.0), pt(0.95, 0.5)])
        case IconKind.PAUSE:
            bar_w = round(w * 0.26)
            pygame.draw.rect(
                surface, c, (round(x + w * 0.16), round(y + h * 0.12), bar_w, round(h * 0.76))
            )
            pygame.draw.rect(
                surface, c, (round(x + w * 0.58), round(y + h * 0.12), bar_w, round(h * 0.76))
            )
        case IconKind.STOP:
            side = round(min(w, h) * 0.72)
            pygame.draw.rect(surface, c, (x + (w - side) // 2, y + (h - side) // 2, side, side))
        case IconKind.ALERT:
            pygame.draw.polygon(surface, c, [pt(0.5, 0.04), pt(0.98, 0.94), pt(0.02, 0.94)])
            stem_w = max(2, round(w * 0.12))
            cx = round(x + w * 0.5 - stem_w / 2)
            pygame.draw.rect(surface, under, (cx, round(y + h * 0.34), stem_w, round(h * 0.32)))
            pygame.draw.rect(
                surface, under, (cx, round(y + h * 0.72), stem_w, max(2, round(h * 0.12)))
            )
        case IconKind.LAP:
            for ox in (0.0, 0.42):
                pygame.draw.polygon(
                    surface,
                    c,
                    [
                        pt(0.06 + ox, 0.12),
                        pt(0.24 + ox, 0.12),
                        pt(0.52 + ox, 0.5),
                        pt(0.24 + ox, 0.88),
                        pt(0.06 + ox, 0.88),
                        pt(0.34 + ox, 0.5),
                    ],
                )
        case IconKind.FLAG:
            cells = 4
            flag = min(w, h) * 0.8
            cell = flag / cells
            fx, fy = x + (w - flag) / 2, y + (h - flag) / 2
            pygame.draw.rect(
                surface,
                c,
                (round(fx), round(fy), round(flag), round(flag)),
                max(1, round(cell / 3)),
            )
            for row in range(cells):
                for col in range(cells):
                    if (row + col) % 2 == 0:
                        pygame.draw.rect(
                            surface,
                            c,
                            (
                                round(fx + col * cell),
                                round(fy + row * cell),
                                round(cell) + 1,
                                round(cell) + 1,
                            ),
                        )
        case IconKind.READY:
            r = round(min(w, h) * 0.42)
            center = (round(x + w / 2), round(y + h / 2))
            pygame.draw.circle(surface, c, center, r, max(2, round(r * 0.3)))
        case IconKind.CHECK:
            thick = max(3, round(min(w, h) * 0.2))
            pygame.draw.lines(
                surface, c, False, [pt(0.1, 0.52), pt(0.4, 0.82), pt(0.92, 0.18)], thick
            )
            for fx, fy in ((0.1, 0.52), (0.4, 0.82), (0.92, 0.18)):
                jx, jy = pt(fx, fy)
                pygame.draw.circle(surface, c, (round(jx), round(jy)), thick // 2)
        case IconKind.STAR:
            points = []
            for i in range(10):
                reach = 0.5 if i % 2 == 0 else 0.21
                angle = math.pi * (i / 5 - 0.5)
                points.append(pt(0.5 + reach * math.cos(angle), 0.54 + reach * math.sin(angle)))
            pygame.draw.polygon(surface, c, points)
        case IconKind.HOURGLASS:
            pygame.draw.polygon(surface, c, [pt(0.18, 0.06), pt(0.82, 0.06), pt(0.5, 0.5)])
            pygame.draw.polygon(surface, c, [pt(0.5, 0.5), pt(0.82, 0.94), pt(0.18, 0.94)])
            bar = max(2, round(h * 0.07))
            pygame.draw.rect(surface, c, (round(x + w * 0.1), y, round(w * 0.8), bar))
            pygame.draw.rect(surface, c, (round(x + w * 0.1), y + h - bar, round(w * 0.8), bar))
        case IconKind.KEYPAD:
            gap = max(1, round(min(w, h) * 0.08))
            cell = (min(w, h) - gap * 2) / 3
            ox, oy = x + (w - min(w, h)) / 2, y + (h - min(w, h)) / 2
            for row in range(3):
                for col in range(3):
                    pygame.draw.rect(
                        surface,
                        c,
                        (
                            round(ox + col * (cell + gap)),
                            round(oy + row * (cell + gap)),
                            max(1, round(cell)),
                            max(1, round(cell)),
                        ),
                        border_radius=max(1, round(cell / 5)),
                    )
        case IconKind.OFFLINE:
            r = round(min(w, h) * 0.44)
            cx, cy = round(x + w / 2), round(y + h / 2)
            thick = max(2, round(r * 0.26))
            pygame.draw.circle(surface, c, (cx, cy), r, thick)
            d = round(r * 0.7)
            pygame.draw.line(surface, c, (cx - d, cy + d), (cx + d, cy - d), thick)


# --- off-screen rendering --------------------------------------------------------------


def render_surface(
    view: TableView,
    now: float,
    size: tuple[int, int] = (480, 320),
    renderer: Renderer | None = None,
) -> pygame.Surface:
    """``view`` at ``now`` drawn on a new off-screen surface of ``size`` (no window needed)."""
    surface = pygame.Surface(size)
    renderer = renderer or Renderer()
    renderer.invalidate()
    renderer.draw(surface, compose(view, now, layout_for(*size)))
    return surface


def save_png(
    view: TableView, now: float, path: str | os.PathLike[str], size: tuple[int, int] = (480, 320)
) -> Path:
    """Draw ``view`` at ``now`` to a PNG file at ``path``; returns the path."""
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(render_surface(view, now, size), str(out))
    return out


# --- the screen ----------------------------------------------------------------------


class TableScreen:
    """The unit's display: a window, or the whole screen of a Pi without a desktop."""

    def __init__(
        self,
        width: int = 480,
        height: int = 320,
        fullscreen: bool = False,
        rotate: int = 0,
        *,
        font_path: str | None = None,
        caption: str | None = None,
        side: int = 0,
    ) -> None:
        """``side``: pixels of window to the right of the display, left for its owner (the
        simulator draws the LEDs there); the display keeps ``width`` × ``height``."""
        if rotate not in ROTATIONS:
            raise DisplayError(
                N_("display.rotate: must be one of 0, 90, 180, 270, got {rotate}"), rotate=rotate
            )
        font = font_path if font_path is not None else find_font()
        pygame.display.init()
        pygame.font.init()
        self._caption = caption
        """The window's title; None: the kit's, in the language of the view shown."""
        self._captioned: str | None = None
        pygame.display.set_caption(caption or words().gettext("Rummikub table"))
        flags = pygame.FULLSCREEN if fullscreen else 0
        self.window = pygame.display.set_mode((width + side, height), flags)
        """The whole window: the display, and ``side`` pixels to its right."""
        if fullscreen:
            pygame.mouse.set_visible(False)
        ww, ph = self.window.get_size()
        pw = ww - side
        self._screen = self.window.subsurface((0, 0, pw, ph)) if side else self.window
        self.rotate = rotate
        logical = (pw, ph) if rotate in (0, 180) else (ph, pw)
        self.layout: Layout = layout_for(*logical)
        self.canvas = self._screen if rotate == 0 else pygame.Surface(logical).convert()
        self.renderer = Renderer(font)
        self.last_update_rects: list[pygame.Rect] = []
        """The rectangles passed to ``pygame.display.update`` by the last ``show``."""
        self.updates = 0
        """Calls of ``show`` that updated the screen."""
        self._last_view: TableView | None = None
        self._last_key: tuple[int, int | None] | None = None

    @property
    def size(self) -> tuple[int, int]:
        """The size the picture is laid out for (turned when rotated by 90/270)."""
        return self.layout.width, self.layout.height

    def show(self, view: TableView, now: float) -> None:
        key = time_key(view, now)
        last = self._last_view
        if key == self._last_key and last is not None and (view is last or view == last):
            self.last_update_rects = []
            return
        if self._caption is None and view.language != self._captioned:
            pygame.display.set_caption(words(view.language).gettext("Rummikub table"))
            self._captioned = view.language
        boxes = self.renderer.draw(self.canvas, compose(view, now, self.layout))
        self._last_view, self._last_key = view, key
        rects = [self._present(box) for box in boxes]
        self.last_update_rects = rects
        if rects:
            pygame.display.update(rects)
            self.updates += 1

    def invalidate(self) -> None:
        """Redraw everything on the next ``show`` (after the window was exposed)."""
        self.renderer.invalidate()
        self._last_view = None
        self._last_key = None

    def snapshot(self) -> pygame.Surface:
        """A copy of what the panel shows (physical orientation)."""
        return self._screen.copy()

    def close(self) -> None:
        pygame.display.quit()

    def _present(self, box: Box) -> pygame.Rect:
        """Copy ``box`` of the canvas to the screen, turned; return the screen rectangle."""
        rect = _rect(box)
        if self.rotate == 0:
            return rect
        return blit_rotated(self._screen, self.canvas, rect, self.rotate)


def rotated_rect(rect: pygame.Rect, canvas_size: tuple[int, int], rotate: int) -> pygame.Rect:
    """Where ``rect`` of a ``canvas_size`` picture lands when turned ``rotate``° clockwise."""
    lw, lh = canvas_size
    x, y, w, h = rect.x, rect.y, rect.w, rect.h
    if rotate == 90:
        return pygame.Rect(lh - y - h, x, h, w)
    if rotate == 180:
        return pygame.Rect(lw - x - w, lh - y - h, w, h)
    if rotate == 270:
        return pygame.Rect(y, lw - x - w, h, w)
    return pygame.Rect(rect)


def blit_rotated(
    screen: pygame.Surface, canvas: pygame.Surface, rect: pygame.Rect, rotate: int
) -> pygame.Rect:
    dest = rotated_rect(rect, canvas.get_size(), rotate)
    screen.blit(pygame.transform.rotate(canvas.subsurface(rect), -rotate), dest)
    return dest


# --- command line ----------------------------------------------------------------------


DEFAULT_SIZES = ((480, 320), (640, 400), (800, 480))
"""The sizes ``--png`` draws without ``--size``: the panels the unit is built with."""


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(part) for part in text.lower().split("x"))
    except ValueError:
        said = words(choose(None, os.environ)).gettext(
            "size: expected WIDTHxHEIGHT like 480x320, got {text!r}"
        )
        raise argparse.ArgumentTypeError(said.format(text=text)) from None
    layout_for(w, h)
    return w, h


def render_all(
    out_dir: str | os.PathLike[str],
    sizes: Iterable[tuple[int, int]],
    states: Sequence[str] = (),
    languages: Sequence[str] = LANGUAGES,
) -> list[Path]:
    """Every sample state at every size in every language, as
    ``out_dir/LANG/WxH-NN-state.png`` (``pl/480x320-04-time.png``).

    Raises :class:`~tablekit.core.errors.KitError` (:class:`SampleError`,
    :class:`~tablekit.shared.i18n.LanguageError`) naming an unknown state or language.
    """
    now = 1000.0
    codes = [language(code) for code in languages]
    names = list(sample_views(now))
    unknown = [s for s in states if s not in names]
    if unknown:
        raise SampleError(
            N_("state: unknown {states}; known: {known}"),
            states=", ".join(unknown),
            known=", ".join(names),
        )
    paths = []
    for code in codes:
        views = sample_views(now, code)
        for w, h in sizes:
            renderer = Renderer()
            for i, (name, view) in enumerate(views.items()):
                if states and name not in states:
                    continue
                path = Path(out_dir) / code / f"{w}x{h}-{i:02d}-{name}.png"
                path.parent.mkdir(parents=True, exist_ok=True)
                pygame.image.save(render_surface(view, now, (w, h), renderer), str(path))
                paths.append(path)
    return paths


class SampleError(KitError, ValueError):
    """A state the samples do not have."""


class DisplayError(KitError, ValueError):
    """A display setting the screen cannot take."""


def main(argv: Sequence[str] | None = None) -> int:
    chosen = choose(None, os.environ)
    w = words(chosen)
    parser = argparse.ArgumentParser(
        prog="python -m tablekit.display",
        description=w.gettext(
            "Draw every state of the table display to PNG files, in Polish and in English."
        ),
    )
    parser.add_argument(
        "--png",
        metavar=w.gettext("DIR"),
        default="artifacts/display",
        help=w.gettext("output folder; each language in a folder of its own (pl/, en/)"),
    )
    parser.add_argument(
        "--size",
        metavar=w.gettext("WxH"),
        type=_size,
        action="append",
        help=w.gettext(
            "screen size (repeatable; default 480x320, 640x400 and 800x480; portrait e.g. 320x480)"
        ),
    )
    parser.add_argument(
        "--state",
        action="append",
        default=[],
        help=w.gettext("only this state (repeatable)"),
    )
    parser.add_argument(
        "--lang",
        action="append",
        default=[],
        help=w.gettext("only this language, pl or en (repeatable; default both)"),
    )
    args = parser.parse_args(argv)
    try:
        paths = render_all(
            args.png, args.size or list(DEFAULT_SIZES), args.state, args.lang or LANGUAGES
        )
    except KitError as err:
        print(f"tablekit.display: {err.message(w.gettext)}", file=sys.stderr)
        return 2
    for path in paths:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
