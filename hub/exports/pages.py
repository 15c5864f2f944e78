"""HTML documents: the A4 page and its style, and a grid as an HTML table.

The documents are A4 pages (``@page``) whose tables fit the page's width: long names
and clubs wrap, figures do not. :mod:`hub.printing` turns them into PDF.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from typing import Final

from hub.competition import Competition
from hub.exports.grid import Grid, event_name
from tablekit.shared.i18n import Words

_CSS = """
@page { size: A4; margin: 12mm 12mm 15mm;
        @bottom-center { content: counter(page) " / " counter(pages);
                         font: 9pt "DejaVu Sans", Arial, sans-serif; } }
* { box-sizing: border-box; }
html { font-family: "DejaVu Sans", "Segoe UI", Arial, sans-serif; font-size: 11pt; color: #000; }
body { margin: 0; }
h1 { font-size: 18pt; margin: 0 0 3mm; }
h2 { font-size: 14pt; margin: 5mm 0 2mm; }
p.meta, p.note { font-size: 10pt; margin: 0 0 3mm; }
table { border-collapse: collapse; width: 100%; }
th, td { border: 0.3mm solid #000; padding: 1mm 1.5mm; text-align: left; vertical-align: top;
         overflow-wrap: break-word; }
th { background: #e6e6e6; }
table.dense { font-size: 9pt; }
.num { text-align: right; }
.code, .num { white-space: nowrap; overflow-wrap: normal; }
td.code { font-weight: bold; }
.club { display: block; font-size: 0.72em; }
.block { break-inside: avoid; }
.page { break-after: page; }
.page:last-child { break-after: auto; }
.wall { font-size: 14pt; }
.wall h1 { font-size: 22pt; }
.qr { float: right; width: 34mm; margin: 0 0 2mm 4mm; text-align: center; }
.qr img { width: 34mm; height: 34mm; display: block; }
.qr p { font-size: 8pt; margin: 1mm 0 0; }
.tables .block { display: inline-block; width: 49%; margin: 0 0 4mm; vertical-align: top; }
.page h1 { font-size: 16pt; }
.page h2 { font-size: 12pt; margin: 3mm 0 1mm; }
.page p.meta { font-size: 9pt; margin: 0 0 1.5mm; }
.sheet td.box { height: 7mm; }
.sheet th.w1 { width: 11mm; }
.sheet th.w2 { width: 16mm; }
.sheet .w3 { width: 42mm; }
.totals { table-layout: fixed; }
.totals thead th { font-size: 8pt; overflow-wrap: normal; }
.sheet td.tick { text-align: center; font-size: 8pt; line-height: 1.1; padding: 0.5mm; }
tr.total th, tr.total td { height: 11mm; font-weight: bold; }
.sign { margin-top: 6mm; font-size: 10pt; }
@media screen { body { margin: 10mm auto; max-width: 190mm; } }
"""


def esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def document(title: str, body: str, words: Words, css_class: str = "") -> str:
    """An A4 HTML page in ``words``' language (its ``lang``: how a reader's browser and
    the PDF maker hyphenate and read it)."""
    body_tag = f'<body class="{css_class}">' if css_class else "<body>"
    return (
        f'<!DOCTYPE html>\n<html lang="{esc(words.language)}">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{esc(title)}</title>\n<style>{_CSS}</style>\n</head>\n{body_tag}\n<main>\n{body}</main>\n"
        "</body>\n"
        "</html>\n"
    )


def _num(numeric: bool) -> str:
    return ' class="num"' if numeric else ""


DENSE_COLUMNS = 8
"""A table of this many columns or more prints in smaller type to fit the page's width."""


MINUS: Final = "\u2212"
"""The minus sign of print (U+2212), as wide as the plus: ``−7`` beside ``+12``."""


def printed_number(cell: str) -> str:
    """A number's cell as it is printed: a negative one with the real minus sign (the
    spreadsheets keep the hyphen, which they read as a number)."""
    return MINUS + cell[1:] if cell[:1] == "-" and cell[1:2].isdigit() else cell


def grid_html(grid: Grid, heading: str = "h2") -> str:
    """A grid as an HTML table; its club column (:attr:`Grid.club`) is printed in small
    type under the name in the column before it (the page keeps its width for the
    figures)."""
    headers = list(grid.headers)
    club = -1 if grid.club is None else grid.club
    fold = club > 0

    def cells(row: Sequence[str], tag: str) -> str:
        out = []
        for i, cell in enumerate(row):
            if fold and i == club:
                continue
            number = tag == "td" and i in grid.numeric
            text = esc(printed_number(cell) if number else cell)
            if fold and i == club - 1 and tag == "td" and row[club]:
                text += f'<span class="club">{esc(row[club])}</span>'
            out.append(f"<{tag}{_num(i in grid.numeric)}>{text}</{tag}>")
        return "".join(out)

    head = cells(grid.headers, "th")
    body = "".join(f"<tr>{cells(row, 'td')}</tr>\n" for row in grid.rows)
    note = f'<p class="note">{esc(grid.note)}</p>\n' if grid.note else ""
    dense = ' class="dense"' if len(headers) - fold >= DENSE_COLUMNS else ""
    return (
        f"<{heading}>{esc(grid.title)}</{heading}>\n{note}<table{dense}>\n"
        f"<thead><tr>{head}</tr></thead>\n"
        f"<tbody>\n{body}</tbody>\n</table>\n"
    )


def grids_html(
    comp: Competition, title: str, grids: Iterable[Grid], words: Words, empty: str = ""
) -> str:
    """One printable document of ``grids`` under the event's name and ``title``
    (``empty``: what it says when there is no grid)."""
    body = "".join(grid_html(grid) for grid in grids) or f'<p class="note">{esc(empty)}</p>\n'
    heading = f"{event_name(comp)} — {title}"
    return document(heading, f"<h1>{esc(heading)}</h1>\n{body}", words)
