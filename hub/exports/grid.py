"""The :class:`Grid` every table of the exports is, and the cells they share.

One grid (title, headers, rows) feeds the terminal, the CSV and the HTML, so they always
agree. The cells are formatted here once: shared places (``2=``), signed small points,
seat codes, racks in the CLI's syntax, times as people read them and as CSV carries them.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from hub.competition import Competition
from hub.tournament import (
    Player,
)
from tablekit.core.seats import seats_for


@dataclass(frozen=True)
class Grid:
    """A titled table of text cells."""

    title: str
    headers: tuple[str, ...]
    rows: Sequence[tuple[str, ...]] = ()
    note: str = ""
    numeric: frozenset[int] = frozenset()
    """Column indexes to right-align."""


def seat_code(table: int, index: int) -> str:
    return f"{table}{seats_for(4)[index]}"


def player_of(comp: Competition, pid: str) -> Player:
    return comp.event.players.get(pid) or Player(pid, pid)


def latest_stage(comp: Competition) -> str:
    played = comp.event.stages_played
    if not played:
        raise ValueError("nothing is drawn yet: draw the first round (rummikub round draw)")
    return played[-1]


def event_name(comp: Competition) -> str:
    return comp.created.name if comp.created is not None else "Rummikub"


def iso_time(at: float) -> str:
    return dt.datetime.fromtimestamp(at, dt.UTC).astimezone().isoformat(timespec="seconds")


def when(at: float) -> str:
    """Local date and time as people read it (``2026-01-18 14:05:09``); CSV files carry
    the ISO form with the UTC offset."""
    return dt.datetime.fromtimestamp(at, dt.UTC).astimezone().strftime("%Y-%m-%d %H:%M:%S")


def csv_text(headers: Sequence[str], rows: Iterable[Sequence[str]], delimiter: str = ",") -> str:
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\r\n")
    writer.writerow(headers)
    writer.writerows(rows)
    return out.getvalue()


def grid_csv(grid: Grid, delimiter: str = ",") -> str:
    """A grid as CSV, its headers as they are."""
    return csv_text(grid.headers, grid.rows, delimiter)
