"""Reading a PDF the way a printer would (poppler-utils): pages, sizes, text, fonts, and
each page as a PNG to check that nothing runs past the paper's margins."""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

A4_POINTS = (595.276, 841.89)
DPI = 40
MM = DPI / 25.4
"""PNG pixels per millimetre."""


def _tool(name: str) -> str:
    binary = shutil.which(name)
    assert binary, f"{name} is needed (./kit test installs it: apt-get install poppler-utils)"
    return binary


def _run(*argv: str) -> str:
    return subprocess.run(
        [_tool(argv[0]), *argv[1:]], check=True, capture_output=True, text=True
    ).stdout


@dataclass(frozen=True)
class Pdf:
    path: Path
    sizes: list[tuple[float, float]]
    """Each page's size in points."""
    text: str
    fonts: list[str]
    pngs: list[Path]

    @property
    def pages(self) -> int:
        return len(self.sizes)

    def page_text(self, page: int) -> str:
        return _run("pdftotext", "-raw", "-f", str(page), "-l", str(page), str(self.path), "-")


def read_pdf(path: Path) -> Pdf:
    info = _run("pdfinfo", "-f", "1", "-l", "9999", str(path))
    sizes = [
        (float(w), float(h))
        for w, h in re.findall(r"^Page +\d+ size: +([\d.]+) x ([\d.]+) pts", info, re.M)
    ]
    fonts = [line.split()[0] for line in _run("pdffonts", str(path)).splitlines()[2:]]
    prefix = path.with_suffix("")
    _run("pdftoppm", "-png", "-r", str(DPI), str(path), str(prefix))
    pngs = sorted(path.parent.glob(f"{prefix.name}-*.png"))
    assert len(pngs) == len(sizes), (pngs, sizes)
    return Pdf(path, sizes, _run("pdftotext", "-raw", str(path), "-"), fonts, pngs)


def ink_in_margins(png: Path, side_mm: float = 10.0, top_mm: float = 10.0) -> list[str]:
    """The margins of one page image that have ink on them (empty: the page's content
    stays inside the paper's printable area). The bottom margin holds the page number."""
    image = Image.open(png).convert("L")
    width, height = image.size
    side, top = round(side_mm * MM), round(top_mm * MM)
    strips = {
        "left": (0, 0, side, height),
        "right": (width - side, 0, width, height),
        "top": (0, 0, width, top),
    }
    return [name for name, box in strips.items() if image.crop(box).getextrema()[0] < 200]
