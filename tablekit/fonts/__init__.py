"""The fonts the screens draw with, shipped inside the package.

DejaVu Sans Bold (the table display and the hub screen) and DejaVu Sans Condensed Bold
(the hub screen's names, labels and lists), copied unchanged from Debian bookworm's
``fonts-dejavu-core`` and ``fonts-dejavu-extra`` 2.37; ``LICENSE`` is those packages'
copyright file (the Bitstream Vera licence, which allows redistribution with the fonts).
Shipped here, every machine draws with exactly the glyphs the layouts were measured with:
a missing font is an error at start, never pygame's smaller fallback font.
"""

from __future__ import annotations

from pathlib import Path

BOLD = "DejaVuSans-Bold.ttf"
CONDENSED_BOLD = "DejaVuSansCondensed-Bold.ttf"
FONTS = (BOLD, CONDENSED_BOLD)


class FontMissingError(RuntimeError):
    """A font the screens need is not where the package keeps it."""


def font_path(name: str) -> str:
    """The path of the packaged font file ``name`` (one of :data:`FONTS`)."""
    if name not in FONTS:
        raise FontMissingError(f"no font {name!r} in the kit (it ships {', '.join(FONTS)})")
    path = Path(__file__).resolve().parent / name
    if not path.is_file():
        raise FontMissingError(
            f"font {path} is missing: the kit is installed incompletely, reinstall it"
        )
    return str(path)
