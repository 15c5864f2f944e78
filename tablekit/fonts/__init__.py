"""The fonts the screens draw with and the hub prints with, shipped inside the package.

DejaVu Sans Bold (the table display, the hub screen and the printouts), DejaVu Sans
Condensed Bold (the hub screen's names, labels and lists) and DejaVu Sans (the hub's PDF
printouts, :mod:`hub.printing`), copied unchanged from Debian bookworm's
``fonts-dejavu-core`` and ``fonts-dejavu-extra`` 2.37; ``LICENSE`` is those packages'
copyright file (the Bitstream Vera licence, which allows redistribution with the fonts).
Shipped here, every machine draws with exactly the glyphs the layouts were measured with:
a missing font is an error at start, never pygame's smaller fallback font.
"""

from __future__ import annotations

from pathlib import Path

from tablekit.core.errors import KitError

BOLD = "DejaVuSans-Bold.ttf"
CONDENSED_BOLD = "DejaVuSansCondensed-Bold.ttf"
REGULAR = "DejaVuSans.ttf"
FONTS = (BOLD, CONDENSED_BOLD, REGULAR)


class FontMissingError(KitError, RuntimeError):
    """A font the screens or the printouts need is not where the package keeps it."""


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
