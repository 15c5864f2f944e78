"""The wiring diagrams in the docs are the drawing of the pin table in code
(tablekit/wiring.py): the SVG as written, the PNG drawn from it, the header pins the
wiring guide's table names, in English and in Polish."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pygame
import pytest

from tablekit.config import BCM_TO_BOARD, PinSettings
from tablekit.shared.i18n import words
from tablekit.wiring import FILES, diagram, png, svg

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "artifacts" / "wiring"
REGENERATE = "python -m tablekit.wiring --write"
SVG_NS = "{http://www.w3.org/2000/svg}"


def labels_by_pin(svg_text: str) -> dict[int, str]:
    """Header pin → the words beside it: on the same line as the number drawn in the pin,
    on that pin's side of the header."""
    texts = [(float(t.get("x", 0)), float(t.get("y", 0)), t.text or "")
             for t in ET.fromstring(svg_text).iter(f"{SVG_NS}text")]
    numbers = [(x, y, int(text)) for x, y, text in texts if text.isdigit()]
    found: dict[int, str] = {}
    for x, y, text in texts:
        row = [(abs(x - pin_x), n) for pin_x, pin_y, n in numbers if pin_y == y - 1]
        if row and not text.isdigit():
            found[min(row)[1]] = text
    return found


@pytest.mark.parametrize("lang", sorted(FILES))
def test_the_docs_drawing_is_the_default_pin_table(lang: str) -> None:
    stem = FILES[lang]
    drawn = svg(diagram(PinSettings(), words(lang)))
    assert stem.with_suffix(".svg").read_text(encoding="utf-8") == drawn, (
        f"{stem}.svg differs from the pin table in code: {REGENERATE}"
    )
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    made = ARTIFACTS / f"{stem.name}.png"
    png(diagram(PinSettings(), words(lang)), made)
    kept, fresh = pygame.image.load(str(stem.with_suffix(".png"))), pygame.image.load(str(made))
    assert kept.get_size() == fresh.get_size(), f"{stem}.png: {REGENERATE}"
    width, height = fresh.get_size()
    differ = sum(
        kept.get_at((x, y)) != fresh.get_at((x, y))
        for x in range(0, width, 3)
        for y in range(0, height, 3)
    )
    # Glyph edges may differ by a shade with another FreeType; a moved label does not.
    assert differ < 0.002 * (width // 3) * (height // 3), f"{stem}.png: {REGENERATE}"


def test_every_pin_the_wiring_guide_names_is_drawn_where_the_table_says() -> None:
    guide = (ROOT / "docs" / "wiring.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| (\d+) \| GPIO(\d+) \| ([^|]+) \|", guide, re.M)
    assert len(rows) == 16
    drawn = labels_by_pin(svg(diagram(PinSettings(), words("en"))))
    used = dict(PinSettings().uses())
    assert sorted(int(gpio) for _, gpio, _ in rows) == sorted(used.values())
    for board, gpio, _device in rows:
        assert int(board) == BCM_TO_BOARD[int(gpio)]
        assert f"GPIO{gpio} · " in drawn[int(board)], (board, drawn[int(board)])
    for board in (6, 9, 14, 20, 25, 30, 34, 39):
        assert "GND" in drawn[board]


def test_a_moved_pin_moves_its_label() -> None:
    moved = PinSettings(pass_button=4, call_button=17, status_led=None)
    drawn = labels_by_pin(svg(diagram(moved, words("pl"))))
    assert "GPIO4 · przycisk ruchu" in drawn[7]
    assert "GPIO17 · przycisk wezwania sędziego" in drawn[11]
    assert "GPIO5 (wolny)" in drawn[29] and "lampka stanu" not in "".join(drawn.values())


def bills(path: Path) -> list[tuple[list[tuple[int, int, int]], int]]:
    """Each bill of materials of a document: its rows (quantity, price each, together) and
    its bold total."""
    found: list[tuple[list[tuple[int, int, int]], int]] = []
    rows: list[tuple[int, int, int]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and all(re.fullmatch(r"\d+", c) for c in cells[1:]):
            rows.append((int(cells[1]), int(cells[2]), int(cells[3])))
        elif len(cells) == 4 and re.fullmatch(r"\*\*\d+\*\*", cells[3]):
            found.append((rows, int(cells[3].strip("*"))))
            rows = []
    return found


@pytest.mark.parametrize("path", [ROOT / "docs/wiring.md", ROOT / "docs/pl/okablowanie.md"],
                         ids=lambda p: p.name)
def test_every_bill_of_materials_adds_up(path: Path) -> None:
    found = bills(path)
    assert len(found) == 2, "a table unit's and the hub's"
    for rows, total in found:
        assert all(qty * each == together for qty, each, together in rows), rows
        assert sum(together for _, _, together in rows) == total
    english = [total for _, total in bills(ROOT / "docs/wiring.md")]
    assert [total for _, total in found] == english  # the Polish page prices the same
