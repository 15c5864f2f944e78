"""How a colour looks to eyes that tell red from green poorly, and how far apart two
colours look: the measures of tests/test_palette.py.

* Protanopia and deuteranopia (severity 1) by Machado, Oliveira and Fernandes, "A
  physiologically-based model for simulation of color vision deficiency" (IEEE TVCG 15(6),
  2009): a 3×3 matrix on linear RGB.
* Distance: CIEDE2000 (Sharma, Wu and Dalal, Color Research and Application 30(1), 2005)
  between CIELAB values (sRGB, D65); about 2 is the least difference one notices side by
  side, 10 and more is plainly another colour.
* Contrast: WCAG 2's ratio of relative luminances.
"""

from __future__ import annotations

import math
from collections.abc import Callable

Colour = tuple[int, int, int]
Linear = tuple[float, float, float]
Lab = tuple[float, float, float]
Matrix = tuple[tuple[float, float, float], ...]

PROTANOPIA: Matrix = (
    (0.152286, 1.052583, -0.204868),
    (0.114503, 0.786281, 0.099216),
    (-0.003882, -0.048116, 1.051998),
)
DEUTERANOPIA: Matrix = (
    (0.367322, 0.860646, -0.227968),
    (0.280085, 0.672501, 0.047413),
    (-0.011820, 0.042940, 0.968881),
)


def linear(colour: Colour) -> Linear:
    """sRGB 0–255 → linear RGB 0–1."""

    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in colour)
    return r, g, b


def seen_with(matrix: Matrix | None) -> Callable[[Colour], Linear]:
    """The colour as eyes with that deficiency see it (None: normal vision), linear RGB."""

    def see(colour: Colour) -> Linear:
        rgb = linear(colour)
        if matrix is None:
            return rgb
        r, g, b = (min(1.0, max(0.0, sum(m * c for m, c in zip(row, rgb, strict=True))))
                   for row in matrix)
        return r, g, b

    return see


VISIONS: dict[str, Callable[[Colour], Linear]] = {
    "normal": seen_with(None),
    "protanopia": seen_with(PROTANOPIA),
    "deuteranopia": seen_with(DEUTERANOPIA),
}


def back_to_srgb(rgb: Linear) -> Colour:
    """Linear RGB → sRGB 0–255 (to draw what a simulation sees)."""

    def channel(c: float) -> int:
        v = c * 12.92 if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055
        return round(min(1.0, max(0.0, v)) * 255)

    r, g, b = (channel(c) for c in rgb)
    return r, g, b


def lab(rgb: Linear) -> Lab:
    """Linear RGB → CIELAB (D65)."""
    r, g, b = rgb
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def ciede2000(one: Lab, other: Lab) -> float:
    """The CIEDE2000 colour difference (kL = kC = kH = 1)."""
    l1, a1, b1 = one
    l2, a2, b2 = other
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean**7 / (c_mean**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dh = 0.0
    if c1p * c2p:
        dh = h2p - h1p
        if dh > 180:
            dh -= 360
        elif dh < -180:
            dh += 360
    d_l, d_c = l2 - l1, c2p - c1p
    d_h = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_mean, cp_mean = (l1 + l2) / 2, (c1p + c2p) / 2
    h_mean = h1p + h2p
    if c1p * c2p:
        h_mean = (h1p + h2p) / 2 if abs(h1p - h2p) <= 180 else (h1p + h2p + 360) / 2 % 360
    t = (1 - 0.17 * math.cos(math.radians(h_mean - 30)) + 0.24 * math.cos(math.radians(2 * h_mean))
         + 0.32 * math.cos(math.radians(3 * h_mean + 6))
         - 0.20 * math.cos(math.radians(4 * h_mean - 63)))
    rotation = 30 * math.exp(-(((h_mean - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_mean**7 / (cp_mean**7 + 25**7))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c = 1 + 0.045 * cp_mean
    s_h = 1 + 0.015 * cp_mean * t
    r_t = -math.sin(math.radians(2 * rotation)) * r_c
    return math.sqrt(
        (d_l / s_l) ** 2 + (d_c / s_c) ** 2 + (d_h / s_h) ** 2 + r_t * (d_c / s_c) * (d_h / s_h)
    )


def distance(one: Colour, other: Colour, see: Callable[[Colour], Linear]) -> float:
    """How far apart two colours look to ``see``'s eyes (CIEDE2000)."""
    return ciede2000(lab(see(one)), lab(see(other)))


def contrast(one: Colour, other: Colour) -> float:
    """WCAG 2's contrast ratio (1–21)."""

    def luminance(colour: Colour) -> float:
        r, g, b = linear(colour)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)
