"""Text that fits a box before any font is loaded: a width estimate, line wrapping, and
rows of keycaps with what each key does (``[ENTER] next  [−] back``)."""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Mapping

from tablekit.core.seats import Seat
from tablekit.layout.scene import BLACK, KEYCAP, WHITE, Align, Box, Colour, Fill, Item, Text
from tablekit.shared.i18n import Words
from tablekit.view import TableView


def text_width(text: str, h: int) -> int:
    """About how wide ``text`` comes out in a box ``h`` high (bold DejaVu Sans, line
    height 1.17 em), a little generous; the layout shares rows with it. The renderer
    still fits every text to its own box, so an estimate off by a little only costs a
    little size."""
    em = 0.0
    for ch in text:
        if ch == " ":
            em += 0.36
        elif ch.isdigit():
            em += 0.72
        elif ch.isupper():
            em += 0.80
        elif ch.islower():
            em += 0.66
        elif ch in ".,:;·|!()'":
            em += 0.45
        elif ch == "⌫":
            em += 1.4
        else:
            em += 0.88
    return math.ceil(em * h / 1.17)


@functools.lru_cache(maxsize=512)
def _split(text: str, lines: int) -> tuple[str, ...]:
    """``text`` broken at spaces into at most ``lines`` lines with the narrowest widest
    line (fewer when more would not make it narrower): the smallest width at which the
    words, packed line by line, take no more lines (a binary search)."""
    words = text.split()
    if lines <= 1 or len(words) < lines:
        return (" ".join(words),)
    widths = [text_width(word, 100) for word in words]
    space = text_width(" ", 100)

    def packed(limit: int) -> list[list[str]]:
        rows: list[list[str]] = [[]]
        used = 0
        for word, width in zip(words, widths, strict=True):
            if rows[-1] and used + space + width > limit:
                rows.append([])
                used = 0
            used += (space if rows[-1] else 0) + width
            rows[-1].append(word)
        return rows

    low, high = max(widths), sum(widths) + space * (len(words) - 1)
    while low < high:
        middle = (low + high) // 2
        if len(packed(middle)) <= lines:
            high = middle
        else:
            low = middle + 1
    return tuple(" ".join(row) for row in packed(low))


def wrap(
    text: str,
    box: Box,
    colour: Colour,
    align: Align = Align.CENTER,
    *,
    max_lines: int = 3,
    line_cap: int | None = None,
) -> list[Text]:
    """``text`` as up to ``max_lines`` lines filling ``box`` as large as they fit
    (a line more only when it makes the text clearly larger), centred vertically."""
    if not text or box.w <= 0 or box.h <= 0:
        return []
    size, lines = _fit_lines(text, box, max_lines, line_cap)
    h = max(1, min(box.h // len(lines), round(size)))
    top = box.y + (box.h - h * len(lines)) // 2
    return [
        Text(line, Box(box.x, top + i * h, box.w, h), colour, align, shrink=0.6)
        for i, line in enumerate(lines)
    ]


def line_height(text: str, box: Box, max_lines: int = 3) -> float:
    """About how high a line of ``text`` comes out when :func:`wrap` fits it in ``box``
    (0 for no text): whether it is still legible from the chairs, say."""
    if not text or box.w <= 0 or box.h <= 0:
        return 0.0
    return _fit_lines(text, box, max_lines, None)[0]


def _fit_lines(
    text: str, box: Box, max_lines: int, line_cap: int | None
) -> tuple[float, tuple[str, ...]]:
    """The line height and the lines at which ``text`` fills ``box`` in at most
    ``max_lines`` lines (a line more only when it makes the text clearly larger)."""
    size = 0.0
    lines: tuple[str, ...] = (text,)
    for n in range(1, max_lines + 1):
        candidate = _split(text, n)
        if len(candidate) < n:
            break
        line_h = box.h // n if line_cap is None else min(box.h // n, line_cap)
        widest = max(text_width(line, line_h) for line in candidate)
        fitted = line_h * min(1.0, box.w / max(1, widest))
        if fitted > size * 1.12:
            size, lines = fitted, candidate
    return size, lines


def key_hints(box: Box, hints: tuple[tuple[str, str], ...], cap: int) -> list[Item]:
    """Keycaps with what they do — ``[ENTER] next  [−] back`` — in one row (two if one
    would be too small), as large as fits ``box`` up to ``cap`` high, centred."""
    rows_options = [hints] if len(hints) < 2 else [hints, hints[: (len(hints) + 1) // 2]]
    best: tuple[int, list[tuple[tuple[str, str], ...]]] = (0, [hints])
    for first in rows_options:
        rows = [first, hints[len(first) :]] if len(first) < len(hints) else [first]
        h = min(cap, box.h // len(rows))
        widest = max(_hints_width(row, h) for row in rows)
        if widest > box.w:
            h = int(h * box.w / widest)
            while h > 4 and max(_hints_width(row, h) for row in rows) > box.w:
                h -= 1
        if h > best[0] * 1.15:
            best = (h, rows)
    h, rows = best
    items: list[Item] = []
    top = box.y + (box.h - h * len(rows)) // 2
    for r, row in enumerate(rows):
        x = box.x + (box.w - _hints_width(row, h)) // 2
        y = top + r * h
        for i, (key, label) in enumerate(row):
            kh, lh = round(h * 0.56), round(h * 0.62)
            chip = Box(
                x, y + max(1, h // 12), text_width(key, kh) + h // 2, h - 2 * max(1, h // 12)
            )
            items.append(Fill(chip, KEYCAP, radius=max(2, h // 6)))
            items.append(
                Text(key, Box(chip.x + h // 4, y + (h - kh) // 2, chip.w - h // 2, kh), BLACK)
            )
            x = chip.right + round(h * 0.2)
            if label:
                lw = text_width(label, lh)
                items.append(Text(label, Box(x, y + (h - lh) // 2, lw, lh), WHITE, Align.LEFT))
                x += lw
            if i < len(row) - 1:
                x += round(h * 0.55)
    return items


def _hints_width(row: tuple[tuple[str, str], ...], h: int) -> int:
    kh, lh = round(h * 0.56), round(h * 0.62)
    width = 0
    for key, label in row:
        width += text_width(key, kh) + h // 2 + round(h * 0.2)
        width += text_width(label, lh) if label else 0
    return width + round(h * 0.55) * (len(row) - 1)


def short_names(names: Mapping[Seat, str]) -> dict[Seat, str]:
    """Each player's name short for a narrow column, never the same for two players: the
    first name alone where it is the table's only one, else with the initials of the rest
    (Anna K., Anna N.; Dariusz L.-G., Dariusz L.-N.), else with as much of the rest as
    tells them apart, cut with a dot (Anna Kowals., Anna Kowalc.)."""
    return dict(_short_names(tuple(names.items())))


_PARTS = re.compile(r"([ -]+)")


def _initials(rest: str) -> str:
    """``Lewandowski-Grabowski`` as ``L.-G.``, ``de la Cruz`` as ``d. l. C.``."""
    parts = _PARTS.split(rest)
    return "".join(p if _PARTS.fullmatch(p) else p[:1] + "." for p in parts if p)


@functools.lru_cache(maxsize=64)
def _short_names(names: tuple[tuple[Seat, str], ...]) -> tuple[tuple[Seat, str], ...]:
    def first(name: str) -> str:
        return name.split(" ", 1)[0]

    def with_initials(name: str) -> str:
        head, _, rest = name.partition(" ")
        return f"{head} {_initials(rest)}" if rest else head

    def prefix(name: str, others: list[str]) -> str:
        cut = len(first(name))
        while cut < len(name) and any(o.startswith(name[:cut]) for o in others):
            cut += 1
        while cut < len(name) and name[cut - 1] == " ":
            cut += 1  # never end on a space
        return name if cut >= len(name) else name[:cut] + "."

    shorts = []
    for seat, name in names:
        others = [other for s, other in names if s != seat and other != name]
        if first(name) not in {first(o) for o in others}:
            shorts.append((seat, first(name)))
        elif with_initials(name) not in {with_initials(o) for o in others}:
            shorts.append((seat, with_initials(name)))
        else:
            shorts.append((seat, prefix(name, others)))
    return tuple(shorts)


def name_fitting(name: str, short: str, box: Box, shrink: float) -> str:
    """``name``, or ``short`` where the whole name would be cut in ``box`` even at its
    smallest size (``shrink`` of the box's height): a cut name could read as another's."""
    return name if text_width(name, round(box.h * shrink)) <= box.w else short


def said_with_name(
    make: Callable[[str], str], view: TableView, seat: Seat | None, box: Box, shrink: float
) -> str:
    """``make(name)`` with the whole name of the player at ``seat`` (cut where it is too
    long), or with their short name (:func:`short_names`) where the whole would be cut and
    another player at the table has the same first name: cut, the two could read the same."""
    full = view.name(seat)
    if seat is None or seat not in view.names:
        return make(full)
    short = short_names(view.names)[seat]
    if short == full.split(" ", 1)[0]:
        return make(full)  # the table's only player of that first name
    return name_fitting(make(full), make(short), box, shrink)


def said_by(view: TableView, w: Words) -> str:
    """What the unit tells the table (:attr:`TableView.said`) in ``w``'s language."""
    return view.said.say(w.gettext) if view.said else view.message
