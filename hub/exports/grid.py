"""The :class:`Grid` every table of the exports is, and the cells they share.

One grid (title, headers, rows) feeds the terminal, the CSV and the HTML, so they always
agree. The cells are formatted here once: shared places (``2=``), signed small points,
seat codes, racks in the CLI's syntax, times as people read them and as CSV carries them.

Every export is made in one language, the :class:`~tablekit.shared.i18n.Words` it is
given (the CLI passes the reader's, the event's by default): its titles, headers and the
cells that are words.

A CSV file is written for the reader's spreadsheet (:class:`Sheet`). In Polish: ``;``
between fields (a Polish Excel's list separator, its decimal mark being the comma), a
decimal comma (``1520,5``), times as ``2026-01-18 14:05:09`` in the hub's local time (what
a Polish Excel and LibreOffice read as a date and time), Polish column names and words.
In English (``--lang en``, for scripts): ``,``, a decimal point, ISO 8601 times with the UTC
offset, and the column names the kit has always written (``player_id``, ``bp``, ``sp``).
In every CSV file a text cell that a spreadsheet would run as a formula (starting with
``=``, ``+``, ``-``, ``@``, a tab or a carriage return: a player named
``=HYPERLINK(…)``) starts with ``'``, which the spreadsheet shows as text; numbers
(``-7``, ``+12``, ``-3,5``) stay numbers (:func:`tablekit.shared.forms.spreadsheet_cell`).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from hub.competition import Competition
from hub.tournament import (
    Player,
)
from tablekit.core.errors import KitError
from tablekit.core.seats import seats_for
from tablekit.core.words import N_
from tablekit.shared import forms
from tablekit.shared.i18n import Words


@dataclass(frozen=True)
class Grid:
    """A titled table of text cells."""

    title: str
    headers: tuple[str, ...]
    rows: Sequence[tuple[str, ...]] = ()
    note: str = ""
    numeric: frozenset[int] = frozenset()
    """Column indexes to right-align."""
    club: int | None = None
    """The index of a club column that a printout shows in small type under the player's
    name, in the column before it (the page keeps its width for the figures)."""


class ExportError(KitError, ValueError):
    """An export asked for what the event does not have yet."""


def seat_code(table: int, index: int) -> str:
    return f"{table}{seats_for(4)[index]}"


def player_of(comp: Competition, pid: str) -> Player:
    return comp.event.players.get(pid) or Player(pid, pid)


def latest_stage(comp: Competition) -> str:
    played = comp.event.stages_played
    if not played:
        raise ExportError(N_("nothing is drawn yet: draw the first round (rummikub round draw)"))
    return played[-1]


def event_name(comp: Competition) -> str:
    return comp.created.name if comp.created is not None else "Rummikub"


def iso_time(at: float) -> str:
    return forms.local(at).isoformat(timespec="seconds")


def when(at: float, words: Words) -> str:
    """Local date and time as people read it: ``18 stycznia 2026, 14:05``."""
    return forms.date_and_time(forms.local(at), words)


def csv_text(headers: Sequence[str], rows: Iterable[Sequence[str]], delimiter: str = ",") -> str:
    """A CSV file of ``rows`` under ``headers``; every cell made safe to open in a
    spreadsheet (:func:`tablekit.shared.forms.spreadsheet_cell`)."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\r\n")
    writer.writerow([forms.spreadsheet_cell(h) for h in headers])
    writer.writerows(
        [forms.spreadsheet_cell(c) if isinstance(c, str) else c for c in row] for row in rows
    )
    return out.getvalue()


@dataclass(frozen=True)
class Sheet:
    """How a CSV file is written for its reader: the language of its column names and
    words, its field separator (None: the language's, :func:`tablekit.shared.forms.csv_separator`),
    and its numbers and times in the form the reader's spreadsheet reads (module doc)."""

    words: Words
    separator: str | None = None

    @property
    def delimiter(self) -> str:
        return self.separator or forms.csv_separator(self.words)

    def time(self, at: float) -> str:
        """A moment: ``2026-01-18 14:05:09`` (local) in Polish, ISO 8601 in English."""
        if self.words.language == "en":
            return iso_time(at)
        return forms.local(at).strftime("%Y-%m-%d %H:%M:%S")

    def number(self, value: float) -> str:
        """A number a spreadsheet reads as one: ``1520,5`` in Polish, ``1520.5``."""
        return forms.number(value, self.words, group=False)

    def text(self, headers: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
        return csv_text(headers, rows, self.delimiter)

    def grid(self, grid: Grid) -> str:
        """A grid as CSV, its headers as they are."""
        return self.text(grid.headers, grid.rows)
