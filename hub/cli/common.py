"""What every command shares: the error a user sees, the context (event file, who, output,
clock), plain-text tables, times, and the look-ups of players, rounds and tables."""

from __future__ import annotations

import datetime as dt
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from hub.competition import Competition
from hub.exports.grid import Grid
from hub.organizer import Organizer
from hub.store import EventStore
from tablekit.core.errors import KitError

PROG = "rummikub"
DEFAULT_DB = "rummikub-event.sqlite3"


class CliError(KitError):
    """Bad input on the command line: the message is the one line the user sees."""


_COLOUR_CODE = re.compile(r"\x1b\[[0-9;]*m")
"""A terminal's colour escape (``paint``): no width on screen."""


def paint(text: str, fg: tuple[int, int, int], bg: tuple[int, int, int]) -> str:
    """``text`` in 24-bit terminal colours, then the terminal's own again."""
    return (
        f"\x1b[38;2;{fg[0]};{fg[1]};{fg[2]}m\x1b[48;2;{bg[0]};{bg[1]};{bg[2]}m{text}\x1b[0m"
    )


def wants_colour(out: TextIO, environ: Mapping[str, str]) -> bool:
    """Colours for a terminal that shows them: ``out`` is one, and neither ``NO_COLOR``
    (https://no-color.org) nor ``TERM=dumb`` says otherwise."""
    isatty = getattr(out, "isatty", None)
    return (
        callable(isatty) and bool(isatty())
        and "NO_COLOR" not in environ and environ.get("TERM") != "dumb"
    )  # fmt: skip


def render(grid: Grid) -> str:
    """An aligned plain-text table with its title (and note); a cell may be painted."""
    rows = [grid.headers, *grid.rows]

    def width(cell: str) -> int:
        return len(_COLOUR_CODE.sub("", cell))

    widths = [max(width(r[i]) for r in rows) for i in range(len(grid.headers))]

    def line(cells: Sequence[str]) -> str:
        padded = (
            " " * (w - width(c)) + c if i in grid.numeric else c + " " * (w - width(c))
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        )
        return "  ".join(padded).rstrip()

    out = [grid.title, line(grid.headers), "  ".join("-" * w for w in widths)]
    out += [line(r) for r in grid.rows]
    if not grid.rows:
        out.append("(none)")
    if grid.note:
        out.append(grid.note)
    return "\n".join(out)


def when(at: float) -> str:
    return dt.datetime.fromtimestamp(at).strftime("%Y-%m-%d %H:%M:%S")


@dataclass
class Ctx:
    db: Path
    by: str
    out: TextIO
    clock: Callable[[], float] = time.time
    _organizer: Organizer | None = None

    def organizer(self, *, create: bool = False) -> Organizer:
        if self._organizer is None:
            if not create and not self.db.is_file():
                raise CliError(
                    f"no event file {self.db}: create the event first (rummikub event create) "
                    "or give --db / RUMMIKUB_DB"
                )
            self._organizer = Organizer(EventStore(self.db), by=self.by, clock=self.clock)
        return self._organizer

    def competition(self) -> Competition:
        return self.organizer().competition

    def print(self, *lines: str) -> None:
        for line in lines:
            print(line, file=self.out)

    def close(self) -> None:
        if self._organizer is not None:
            self._organizer.store.close()


def resolve_player(comp: Competition, text: str) -> str:
    """A player id from ``P007``, ``p7`` or ``7``."""
    players = comp.event.players
    key = text.strip()
    if key in players:
        return key
    digits = key[1:] if key[:1] in "pP" else key
    if digits.isdigit() and f"P{int(digits):03d}" in players:
        return f"P{int(digits):03d}"
    raise CliError(f"unknown player {text!r} (see rummikub players list)")


def table_seats(comp: Competition, stage: str, table: int) -> tuple[str, ...]:
    seating = comp.event.seating(stage)
    if not 1 <= table <= len(seating):
        raise CliError(f"table {table}: {stage} has tables 1–{len(seating)}")
    return seating[table - 1].players


def stage_arg(comp: Competition, stage: str | None) -> str:
    played = comp.event.stages_played
    if not played:
        raise CliError("nothing is drawn yet: rummikub round draw")
    if stage is None:
        return played[-1]
    if stage not in played:
        raise CliError(f"--stage: {stage!r} is not drawn (drawn: {', '.join(played)})")
    return stage
