"""What every command shares: the error a user sees, the context (event file, who, output,
clock, the reader's language), plain-text tables, times, and the look-ups of players, rounds
and tables."""

from __future__ import annotations

import datetime as dt
import re
import sqlite3
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, TextIO

from hub.competition import Competition
from hub.exports.grid import Grid
from hub.exports.words import phase_label, stage_label, stage_title
from hub.organizer import Organizer
from hub.store import EventStore
from hub.tournament import EventPhase, SeatingMethod
from hub.tournament.stage_words import stage_phrase
from tablekit.core.errors import KitError, quoted
from tablekit.core.words import N_
from tablekit.shared import i18n
from tablekit.shared.i18n import Words, choose

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
    )


def render(grid: Grid, words: Words) -> str:
    """An aligned plain-text table with its title (and note); a cell may be painted;
    ``words``: the language of what it adds (an empty table's "(none)")."""
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
        out.append(words.gettext("(none)"))
    if grid.note:
        out.append(grid.note)
    return "\n".join(out)


SEATING_WORDS: Final = {
    SeatingMethod.RANDOM: N_("random draw"),
    SeatingMethod.RANDOM_AVOIDING_REPEATS: N_("random draw avoiding repeated pairs"),
    SeatingMethod.BY_STANDINGS: N_("seated by the standings"),
    SeatingMethod.SEEDED_SNAKE: N_("snake seeding"),
    SeatingMethod.BY_TABLE_PLACEMENT: N_("seated by table places"),
    SeatingMethod.LEAGUE_SEEDED: N_("random draw, seeds apart (league)"),
}


def phase_word(phase: EventPhase, words: Words) -> str:
    """The event's phase in ``words``' language (the exports' word for it)."""
    return phase_label(phase, words)


def seating_word(method: SeatingMethod, words: Words) -> str:
    """How a stage is seated, in ``words``' language."""
    return words.gettext(SEATING_WORDS[method])


def when(at: float) -> str:
    """A moment as the command line prints it (ISO date and 24-hour time: read the same in
    Polish and English)."""
    return dt.datetime.fromtimestamp(at).strftime("%Y-%m-%d %H:%M:%S")


@dataclass
class Ctx:
    db: Path
    by: str
    out: TextIO
    clock: Callable[[], float] = time.time
    lang: str | None = None
    """The language asked for (``--lang``), None: the event's, else the environment's."""
    environ: Mapping[str, str] = field(default_factory=dict)
    console_url: str = ""
    """The web console's address (``[web] public_url``), for the printouts' QR code."""
    _organizer: Organizer | None = None

    @property
    def words(self) -> Words:
        """The catalog of the reader's language: ``--lang``; else the event's language
        (the whole hall's, once the event file holds an event: it wins over a Pi's
        ``LANG=en_GB``); else ``LANG`` and gettext's other variables; else Polish
        (:func:`tablekit.shared.i18n.choose`)."""
        if self.lang is not None:
            return i18n.words(self.lang)
        event = self._event_language()
        return i18n.words(event if event is not None else choose(None, self.environ))

    def _event_language(self) -> str | None:
        """The event's language when the event file holds an event (opened here if no
        command has opened it yet); None without one, or when it cannot be read (the
        command says why)."""
        if self._organizer is None:
            if not self.db.is_file():
                return None
            try:
                self.organizer()
            except (KitError, OSError, sqlite3.Error):
                return None
        assert self._organizer is not None
        competition = self._organizer.competition
        return competition.language if competition.created is not None else None

    def organizer(self, *, create: bool = False) -> Organizer:
        if self._organizer is None:
            if not create and not self.db.is_file():
                raise CliError(
                    N_("no event file {file}: create the event first (rummikub event create) "
                       "or give --db / RUMMIKUB_DB"),
                    file=self.db,
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
    """A player id from ``P007``, ``p7`` or ``7``, or the player's whole name as written
    (any letter case and spacing) when one player has it."""
    players = comp.event.players
    key = text.strip()
    if key in players:
        return key
    digits = key[1:] if key[:1] in "pP" else key
    if digits.isdigit() and f"P{int(digits):03d}" in players:
        return f"P{int(digits):03d}"
    wanted = " ".join(key.split()).casefold()
    named = [p for p in players.values() if " ".join(p.name.split()).casefold() == wanted]
    if len(named) == 1:
        return named[0].id
    if named:
        raise CliError(
            N_("{text} is the name of {count} players: {players}; give the ID"),
            text=quoted(text),
            count=len(named),
            players=", ".join(f"{p.id} ({p.club})" if p.club else p.id for p in named),
        )
    raise CliError(
        N_("unknown player {text}: rummikub players list shows every player's name and ID; "
           "a player who came late and is not registered yet: rummikub players add "
           "\"NAME\" --check-in"),
        text=quoted(text),
    )


def table_seats(comp: Competition, stage: str, table: int) -> tuple[str, ...]:
    seating = comp.event.seating(stage)
    if not 1 <= table <= len(seating):
        raise CliError(
            N_("table {table}: {stage} has tables 1–{last}"),
            table=table,
            stage=stage_phrase(stage),
            last=len(seating),
        )
    return seating[table - 1].players


def stage_arg(comp: Competition, stage: str | None, words: Words) -> str:
    """The drawn stage ``--stage`` names (default: the latest): by its name as a person
    reads it (*runda 2*, *półfinał*), by its number (*2*), or by its name in the format
    (``round-2``, what scripts pass)."""
    played = comp.event.stages_played
    if not played:
        raise CliError(N_("nothing is drawn yet: rummikub round draw"))
    if stage is None:
        return played[-1]
    wanted = " ".join(stage.split()).casefold()
    for name in played:
        number = comp.round_number(name)
        said = (name, str(number), stage_label(name, words), stage_title(name, number, words))
        if wanted in (s.casefold() for s in said):
            return name
    raise CliError(
        N_("--stage: {stage} is not drawn (drawn: {drawn})"),
        stage=quoted(stage),
        drawn=", ".join(stage_label(name, words) for name in played),
    )
