"""The rack notation: what each seat had left, as the organizer types and reads it (pure).

One seat's rack is the sum of the tile numbers left, then one ``j`` per joker left, then
optionally ``np`` (never opened: the flat 100), ``cho`` (the judge finds the player could
have opened: 200) or ``waived`` (could have opened, but had announced it: 100):
``0`` (went out), ``23``, ``12j``, ``jj`` (two jokers only), ``85np``. A table's racks are
one ``SEAT=VALUE`` per player separated by spaces or commas, or the values alone in seat
order: ``"A=0 B=23 C=12j D=85np"``.

:func:`parse_racks` and :func:`format_racks` are the one parser and the one formatter of
it: the organizer's ``result enter --racks``, the result history and the exports all use
them, and ``format_racks(parse_racks(text))`` gives back what was typed in its canonical
form (``tests/test_racks.py``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Final

from tablekit.core.errors import KitError
from tablekit.core.scoring import Opening, RackReport
from tablekit.core.seats import Seat, seats_for
from tablekit.core.words import N_

FLAGS: Final[Mapping[Opening, str]] = {
    Opening.OPENED: "",
    Opening.NOT_OPENED: "np",
    Opening.COULD_HAVE_OPENED: "cho",
    Opening.WAIVED: "waived",
}
"""The suffix of each opening (none for a player who opened)."""
_OPENING_OF: Final = {flag: opening for opening, flag in FLAGS.items()}
_RACK: Final = re.compile(r"(?P<tiles>\d{1,4})?(?P<jokers>j{0,2})(?P<flag>np|cho|waived)?")
RACK_SYNTAX: Final = N_("""\
rack syntax (result enter --racks): "A=0 B=23 C=12j D=85np", or the values alone in
seat order. A value is the sum of the tiles left, then j per joker left, then np
(never opened: 100), cho (could have opened: 200) or waived (announced: 100).
0 = went out. The ending is "went out" if a rack is 0, else "nobody out".
""")
"""The notation for the command line's help, marked for the catalogs (the shell shows
it in the reader's language)."""


class RackNotationError(KitError, ValueError):
    """Text that is not in the rack notation; the message says what is wrong."""


def parse_rack(value: str, seat: Seat) -> RackReport:
    """One seat's rack (``12j``, ``85np``, …)."""
    text = value.strip().lower()
    if text and text in _OPENING_OF:
        raise RackNotationError(
            N_("seat {seat}: {value!r} needs the tiles left too, e.g. 85{flag} "
               "(the penalty replaces them, but they are recorded and checked)"),
            seat=seat, value=value.strip(), flag=text,
        )
    match = _RACK.fullmatch(text)
    if not text or match is None or (match["tiles"] is None and not match["jokers"]):
        raise RackNotationError(
            N_("seat {seat}: {value!r} is not a rack (tiles, then j per joker, then "
               "np/cho/waived: e.g. 0, 23, 12j, jj, 85np)"),
            seat=seat, value=value.strip(),
        )
    return RackReport(
        seat=seat,
        tiles=int(match["tiles"] or 0),
        jokers=len(match["jokers"]),
        opening=_OPENING_OF[match["flag"] or ""],
    )


def parse_racks(text: str, count: int) -> tuple[RackReport, ...]:
    """Every seat of a table of ``count`` players, in seat order."""
    seats = seats_for(count)
    tokens = [t for t in re.split(r"[\s,]+", text.strip()) if t]
    named = [t for t in tokens if "=" in t]
    if named and len(named) != len(tokens):
        raise RackNotationError(
            N_("give every seat as SEAT=VALUE, or only the values in seat order")
        )
    values: dict[Seat, str] = {}
    if named:
        for token in tokens:
            letter, _, value = token.partition("=")
            try:
                seat = Seat(letter.strip().upper())
            except ValueError:
                raise RackNotationError(
                    N_("{letter!r} is not a seat (A, B, C or D)"), letter=letter
                ) from None
            if seat not in seats:
                raise RackNotationError(
                    N_("seat {seat} is not at this table ({count} players: {seats})"),
                    seat=seat, count=count, seats=", ".join(seats),
                )
            if seat in values:
                raise RackNotationError(N_("seat {seat} is given twice"), seat=seat)
            values[seat] = value
    else:
        if len(tokens) != count:
            raise RackNotationError(
                N_("{count} players sit at this table (seats {seats}), got {got} values"),
                count=count, seats=", ".join(seats), got=len(tokens),
            )
        values = dict(zip(seats, tokens, strict=True))
    missing = [s for s in seats if s not in values]
    if missing:
        one = len(missing) == 1
        template = N_("no value for seat {seats}") if one else N_("no value for seats {seats}")
        raise RackNotationError(template, seats=", ".join(missing))
    return tuple(parse_rack(values[s], s) for s in seats)


def format_rack(rack: RackReport) -> str:
    """One seat's rack as :func:`parse_rack` reads it (``23``, ``12j``, ``85np``)."""
    return f"{rack.tiles}{'j' * rack.jokers}{FLAGS[Opening(rack.opening)]}"


def format_racks(racks: Sequence[RackReport]) -> str:
    """A table's racks as :func:`parse_racks` reads them: ``A=0 B=23 C=12j D=85np``."""
    return " ".join(f"{rack.seat}={format_rack(rack)}" for rack in racks)
