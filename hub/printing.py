"""PDF from the kit's printable HTML documents, with WeasyPrint (the hub's extra).

WeasyPrint lays the HTML out with Debian's Pango (``libpango-1.0-0``,
``libpangoft2-1.0-0``; ``libharfbuzz-subset0`` makes it about 7× faster by subsetting
the fonts in C: ``deploy/lib.sh``'s ``PRINT_APT``). The text is set in the DejaVu Sans
faces shipped inside the kit (:mod:`tablekit.fonts`), given to WeasyPrint as
``@font-face`` rules, so every Polish letter prints the same on any machine, with or
without a font package. Only the hub prints: a table unit's install has no WeasyPrint,
and the module is imported on the first PDF, so the organizer's other commands start as
fast as before.
"""

from __future__ import annotations

import warnings
from functools import cache
from pathlib import Path
from typing import Any

from tablekit import fonts
from tablekit.core.errors import KitError
from tablekit.core.words import N_


class PrintError(KitError, RuntimeError):
    """PDF output is not available on this machine; the message says what to install."""


INSTALL_HINT = N_(
    "PDF needs WeasyPrint and Pango (the hub's install): pip install 'rummikub-tablekit[hub]' "
    "and apt-get install libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 ({error})"
)
FAMILY = "DejaVu Sans"
"""The family the documents' CSS asks for first (``hub.exports.pages``)."""


def font_faces() -> str:
    """``@font-face`` rules naming the kit's own DejaVu Sans files."""
    return "".join(
        f'@font-face {{ font-family: "{FAMILY}"; font-weight: {weight}; '
        f'src: url("{Path(fonts.font_path(name)).as_uri()}"); }}\n'
        for name, weight in ((fonts.REGULAR, "normal"), (fonts.BOLD, "bold"))
    )


@cache
def _printer() -> tuple[Any, Any, Any]:
    """WeasyPrint, its font configuration and the fonts' stylesheet (made once)."""
    try:
        with warnings.catch_warnings():
            # Said on a machine without a font package: the kit brings its own fonts.
            warnings.filterwarnings("ignore", "No fonts configured in FontConfig")
            import weasyprint
            from weasyprint.text.fonts import FontConfiguration
    except (ImportError, OSError) as err:  # OSError: Pango's library is missing
        raise PrintError(INSTALL_HINT, error=err) from err
    config = FontConfiguration()
    return weasyprint, config, weasyprint.CSS(string=font_faces(), font_config=config)


def pdf(html: str) -> bytes:
    """The PDF of one self-contained HTML document (its own ``@page`` size and style)."""
    weasyprint, config, faces = _printer()
    data: bytes = weasyprint.HTML(string=html).write_pdf(stylesheets=[faces], font_config=config)
    return data
