"""The wiring diagram of a table unit, drawn from the pin table in code
(:class:`tablekit.config.PinSettings`): the Raspberry Pi's 40-pin header with every pin the
unit uses named, the power and ground pins, and how each kind of part is wired.

One layout (:func:`diagram`: boxes, circles, lines and words) is written two ways: as SVG
(text) and as PNG (drawn by pygame-ce with the kit's own DejaVu fonts), in English for
``docs/`` and in Polish for ``docs/pl/``. ``tests/test_wiring.py`` fails when the files in
the docs and the drawing of the defaults disagree::

    python -m tablekit.wiring --write   # docs/wiring.svg/.png, docs/pl/okablowanie.svg/.png
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Final

from tablekit.config import BCM_TO_BOARD, PinSettings
from tablekit.core.words import N_
from tablekit.fonts import BOLD, REGULAR, font_path
from tablekit.shared.i18n import Words, words

DOCS: Final = Path(__file__).resolve().parent.parent / "docs"
FILES: Final = {"en": DOCS / "wiring", "pl": DOCS / "pl" / "okablowanie"}
"""Each language's drawing, without its suffix (.svg, .png)."""

GROUND: Final = (6, 9, 14, 20, 25, 30, 34, 39)
POWER_3V3: Final = (1, 17)
POWER_5V: Final = (2, 4)

WIDTH: Final = 1120
ROW: Final = 30
TOP: Final = 120
PIN_R: Final = 11
LEFT_PIN_X: Final = 530
RIGHT_PIN_X: Final = 590

INK = "#1a1a1a"
FREE = "#c8c8c8"
BOARD_GREEN = "#1f6b3a"
COLOURS: Final = {
    "pass_button": "#0060c0",
    "judge_key": "#7a3db8",
    "call_button": "#008080",
    "buzzer": "#b35900",
    "status_led": "#c0007a",
    "led_bar": "#2e8b22",
    "ground": INK,
    "3v3": "#e08a00",
    "5v": "#d00000",
}
"""A colour per part; the words beside every pin name it too (colours alone are not read)."""

DEVICES: Final = {
    "pass_button": N_("pass button"),
    "judge_key": N_("judge key"),
    "call_button": N_("call-judge button"),
    "buzzer": N_("buzzer"),
}
RGB: Final = (N_("status light, red"), N_("status light, green"), N_("status light, blue"))


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    w: float
    h: float
    fill: str
    stroke: str = ""
    radius: float = 0


@dataclass(frozen=True)
class Dot:
    x: float
    y: float
    r: float
    fill: str
    stroke: str = INK


@dataclass(frozen=True)
class Wire:
    x1: float
    y1: float
    x2: float
    y2: float
    colour: str
    width: float = 3


@dataclass(frozen=True)
class Label:
    """A line of text: ``anchor`` start, middle or end at ``x``; ``y`` its baseline."""

    x: float
    y: float
    text: str
    size: int = 15
    anchor: str = "start"
    bold: bool = False
    colour: str = INK


Shape = Box | Dot | Wire | Label


@dataclass(frozen=True)
class Drawing:
    width: int
    height: int
    shapes: tuple[Shape, ...]


def pin_uses(pins: PinSettings, w: Words) -> dict[int, tuple[str, str]]:
    """Header pin → (what it is for, in ``w``'s language; its part's colour key)."""
    uses: dict[int, tuple[str, str]] = {}
    for field, label in DEVICES.items():
        gpio = getattr(pins, field)
        if gpio is not None:
            uses[BCM_TO_BOARD[gpio]] = (w.gettext(label), field)
    if pins.status_led is not None:
        for gpio, label in zip(pins.status_led, RGB, strict=True):
            uses[BCM_TO_BOARD[gpio]] = (w.gettext(label), "status_led")
    for n, gpio in enumerate(pins.led_bar, 1):
        uses[BCM_TO_BOARD[gpio]] = (w.gettext(N_("LED bar, LED {n}")).format(n=n), "led_bar")
    return uses


def _pin_kind(board: int, uses: dict[int, tuple[str, str]], w: Words) -> tuple[str, str, str]:
    """(label, colour, dot fill) of a header pin."""
    gpio = next((g for g, b in BCM_TO_BOARD.items() if b == board), None)
    if board in GROUND:
        return w.gettext(N_("GND (ground)")), INK, INK
    if board in POWER_3V3:
        return w.gettext(N_("3.3 V")), COLOURS["3v3"], COLOURS["3v3"]
    if board in POWER_5V:
        return w.gettext(N_("5 V (only for the buzzer's transistor)")), COLOURS["5v"], COLOURS["5v"]
    if board in uses:
        what, key = uses[board]
        return f"GPIO{gpio} · {what}", COLOURS[key], COLOURS[key]
    return w.gettext(N_("GPIO{n} (free)")).format(n=gpio), "#8a8a8a", FREE


def _header(uses: dict[int, tuple[str, str]], w: Words) -> Iterator[Shape]:
    yield Box(LEFT_PIN_X - 28, TOP - 24, RIGHT_PIN_X - LEFT_PIN_X + 56, ROW * 20 + 18,
              BOARD_GREEN, radius=8)
    for row in range(20):
        y = TOP + row * ROW
        for board, x, side in ((2 * row + 1, LEFT_PIN_X, -1), (2 * row + 2, RIGHT_PIN_X, 1)):
            label, colour, fill = _pin_kind(board, uses, w)
            used = fill != FREE
            end = x + side * 70
            if used:
                yield Wire(x + side * PIN_R, y, end, y, colour)
            rim = "#ffffff" if fill == INK else INK
            if board == 1:  # the square pad
                yield Box(x - PIN_R, y - PIN_R, 2 * PIN_R, 2 * PIN_R, fill, rim)
            else:
                yield Dot(x, y, PIN_R, fill, rim)
            yield Label(x, y + 4, str(board), 11, "middle", True,
                         "#ffffff" if fill in (INK, COLOURS["5v"]) or used else INK)
            yield Label(end + side * 8, y + 5, label, 15, "start" if side > 0 else "end",
                         used, colour if used else "#6a6a6a")
    yield Label((LEFT_PIN_X + RIGHT_PIN_X) / 2, TOP - 34, w.gettext(N_(
        "the 40-pin header seen from above: pin 1 (square) nearest the SD card, the even "
        "pins along the board's edge")), 13, "middle")


def _circuits(pins: PinSettings, w: Words) -> list[tuple[str, str]]:
    """How each part is wired, in one line each: (colour key, words)."""
    lines: list[tuple[str, str]] = []
    buttons = [w.gettext(DEVICES[f]) for f in ("pass_button", "judge_key", "call_button")
               if getattr(pins, f) is not None]
    if buttons:
        how = (N_("{parts}: pin → switch (NO tab) → GND; the Pi's own pull-up, no resistor")
               if pins.pull_up else
               N_("{parts}: pin → switch → 3.3 V, and 10 kΩ from the pin to GND"))
        text = w.gettext(how).format(parts=", ".join(buttons))
        lines.append(("pass_button", text[:1].upper() + text[1:]))
    if pins.led_bar:
        lines.append(("led_bar", w.gettext(N_(
            "LED bar: pin → 330 Ω → LED (long leg) → GND; LED 1 at the bottom, LED {n} at "
            "the top")).format(n=len(pins.led_bar))))
    if pins.status_led is not None:
        common = (N_("common cathode to GND") if pins.active_high
                  else N_("common anode to 3.3 V"))
        lines.append(("status_led", w.gettext(N_(
            "Status light (RGB LED, {common}): red through 330 Ω, green and blue through "
            "100 Ω")).format(common=w.gettext(common))))
    if pins.buzzer is not None:
        lines.append(("buzzer", w.gettext(N_(
            "Buzzer: a small 3.3 V one straight from GPIO{n}; a loud 5 V one through an NPN "
            "transistor (1 kΩ to its base, 1N4148 across the buzzer)")).format(n=pins.buzzer)))
    lines.append(("ground", w.gettext(N_(
        "Never let 5 V reach a GPIO pin: the pins take 3.3 V only"))))
    return lines


def diagram(pins: PinSettings, w: Words) -> Drawing:
    """The whole drawing of ``pins`` in ``w``'s language."""
    uses = pin_uses(pins, w)
    title = w.gettext(N_("Wiring a table unit: the Raspberry Pi's pins"))
    subtitle = w.gettext(N_("The kit's default pins; header pin numbers in the circles, "
                            "GPIO numbers as the unit's config names them"))
    shapes: list[Shape] = [
        Box(0, 0, WIDTH, 0, "#ffffff"),  # the height is set below
        Label(WIDTH / 2, 34, title, 24, "middle", True),
        Label(WIDTH / 2, 58, subtitle, 14, "middle"),
        *_header(uses, w),
    ]
    y = TOP + 20 * ROW + 56
    for key, text in _circuits(pins, w):
        shapes.append(Box(40, y - 13, 16, 16, COLOURS[key]))
        shapes.append(Label(66, y, text, 15))
        y += 28
    height = int(y + 12)
    shapes[0] = Box(0, 0, WIDTH, height, "#ffffff")
    return Drawing(WIDTH, height, tuple(shapes))


# --- SVG ---------------------------------------------------------------------------------


def svg(drawing: Drawing) -> str:
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{drawing.width}" '
        f'height="{drawing.height}" viewBox="0 0 {drawing.width} {drawing.height}" '
        'font-family="DejaVu Sans, Verdana, sans-serif">',
    ]
    out += [_svg_shape(shape) for shape in drawing.shapes]
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _n(value: float) -> str:
    return f"{value:g}"


def _svg_shape(s: Shape) -> str:
    if isinstance(s, Box):
        stroke = f' stroke="{s.stroke}"' if s.stroke else ""
        return (f'<rect x="{_n(s.x)}" y="{_n(s.y)}" width="{_n(s.w)}" height="{_n(s.h)}" '
                f'rx="{_n(s.radius)}" fill="{s.fill}"{stroke}/>')
    if isinstance(s, Dot):
        return (f'<circle cx="{_n(s.x)}" cy="{_n(s.y)}" r="{_n(s.r)}" fill="{s.fill}" '
                f'stroke="{s.stroke}" stroke-width="1.5"/>')
    if isinstance(s, Wire):
        return (f'<line x1="{_n(s.x1)}" y1="{_n(s.y1)}" x2="{_n(s.x2)}" y2="{_n(s.y2)}" '
                f'stroke="{s.colour}" stroke-width="{_n(s.width)}"/>')
    weight = ' font-weight="bold"' if s.bold else ""
    return (f'<text x="{_n(s.x)}" y="{_n(s.y)}" font-size="{s.size}" text-anchor="{s.anchor}" '
            f'fill="{s.colour}"{weight}>{escape(s.text, quote=False)}</text>')


# --- PNG ---------------------------------------------------------------------------------


def png(drawing: Drawing, path: Path) -> None:
    """``drawing`` drawn by pygame-ce (no window: SDL's dummy driver) into ``path``."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame  # the SVG needs no pygame

    pygame.font.init()
    fonts: dict[tuple[int, bool], pygame.font.Font] = {}
    surface = pygame.Surface((drawing.width, drawing.height))
    for s in drawing.shapes:
        if isinstance(s, Box):
            box = pygame.Rect(s.x, s.y, s.w, s.h)
            pygame.draw.rect(surface, s.fill, box, border_radius=int(s.radius))
            if s.stroke:
                pygame.draw.rect(surface, s.stroke, box, 2, border_radius=int(s.radius))
        elif isinstance(s, Dot):
            pygame.draw.circle(surface, s.stroke, (s.x, s.y), s.r + 1)
            pygame.draw.circle(surface, s.fill, (s.x, s.y), s.r - 0.5)
        elif isinstance(s, Wire):
            pygame.draw.line(surface, s.colour, (s.x1, s.y1), (s.x2, s.y2), int(s.width))
        else:
            key = (s.size, s.bold)
            if key not in fonts:
                fonts[key] = pygame.font.Font(font_path(BOLD if s.bold else REGULAR), s.size)
            font = fonts[key]
            image = font.render(s.text, True, s.colour)
            x = {"start": s.x, "middle": s.x - image.get_width() / 2,
                 "end": s.x - image.get_width()}[s.anchor]
            surface.blit(image, (x, s.y - font.get_ascent()))
    pygame.image.save(surface, str(path))


def write(stem: Path, drawing: Drawing) -> list[Path]:
    svg_path, png_path = stem.with_suffix(".svg"), stem.with_suffix(".png")
    svg_path.write_text(svg(drawing), encoding="utf-8")
    png(drawing, png_path)
    return [svg_path, png_path]


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tablekit.wiring",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--write", action="store_true",
                   help="write the drawings of the default pins into docs/")
    args = p.parse_args(argv)
    if not args.write:
        print(svg(diagram(PinSettings(), words("en"))), end="")
        return 0
    for lang, stem in FILES.items():
        for path in write(stem, diagram(PinSettings(), words(lang))):
            print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
