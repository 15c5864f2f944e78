"""The rack syntax of ``result enter --racks``: one seat's rack, a table's racks, the game's
ending."""

from __future__ import annotations

import re
from collections.abc import Sequence

from hub.cli.common import CliError
from tablekit.core.scoring import GameEnding, Opening, RackReport
from tablekit.core.seats import Seat, seats_for

ENDINGS = {"went-out": GameEnding.WENT_OUT, "nobody-out": GameEnding.NOBODY_OUT}
_FLAGS = {
    "": Opening.OPENED,
    "np": Opening.NOT_OPENED,
    "cho": Opening.COULD_HAVE_OPENED,
    "waived": Opening.WAIVED,
}
_RACK = re.compile(r"(?P<tiles>\d{1,4})?(?P<jokers>j{0,2})(?P<flag>np|cho|waived)?")
_RACK_HELP = "tiles, then j per joker, then np/cho/waived: e.g. 0, 23, 12j, jj, 85np"


RACK_SYNTAX = """\
rack syntax (result enter --racks): "A=0 B=23 C=12j D=85np", or the values alone in
seat order. A value is the sum of the tiles left, then j per joker left, then np
(never opened: 100), cho (could have opened: 200) or waived (announced: 100).
0 = went out. The ending is "went out" if a rack is 0, else "nobody out".
"""


def parse_rack(value: str, seat: Seat) -> RackReport:
    """One seat's rack in the rack syntax (RACK_SYNTAX)."""
    text = value.strip().lower()
    match = _RACK.fullmatch(text)
    if text and text in _FLAGS:
        raise CliError(
            f"seat {seat}: {value.strip()!r} needs the tiles left too, e.g. "
            f"85{text} (the penalty replaces them, but they are recorded and checked)"
        )
    if not text or match is None or (match["tiles"] is None and not match["jokers"]):
        raise CliError(f"seat {seat}: {value.strip()!r} is not a rack ({_RACK_HELP})")
    tiles = int(match["tiles"] or 0)
    return RackReport(
        seat=seat, tiles=tiles, jokers=len(match["jokers"]), opening=_FLAGS[match["flag"] or ""]
    )


def parse_racks(text: str, count: int) -> tuple[RackReport, ...]:
    """Every seat of a table of ``count`` players from ``--racks``."""
    seats = seats_for(count)
    tokens = [t for t in re.split(r"[\s,]+", text.strip()) if t]
    named = [t for t in tokens if "=" in t]
    if named and len(named) != len(tokens):
        raise CliError("--racks: give every seat as SEAT=VALUE, or only the values in seat order")
    values: dict[Seat, str] = {}
    if named:
        for token in tokens:
            letter, _, value = token.partition("=")
            try:
                seat = Seat(letter.strip().upper())
            except ValueError:
                raise CliError(f"--racks: {letter!r} is not a seat (A, B, C or D)") from None
            if seat not in seats:
                raise CliError(
                    f"--racks: seat {seat} is not at this table ({count} players: "
                    f"{', '.join(seats)})"
                )
            if seat in values:
                raise CliError(f"--racks: seat {seat} is given twice")
            values[seat] = value
    else:
        if len(tokens) != count:
            raise CliError(
                f"--racks: {count} players sit at this table (seats {', '.join(seats)}), "
                f"got {len(tokens)} values"
            )
        values = dict(zip(seats, tokens, strict=True))
    missing = [s for s in seats if s not in values]
    if missing:
        raise CliError(f"--racks: no value for seat {', '.join(missing)}")
    try:
        return tuple(parse_rack(values[s], s) for s in seats)
    except CliError as err:
        raise CliError(f"--racks: {err}") from None


def ending_for(racks: Sequence[RackReport], ending: str | None) -> GameEnding:
    if ending is not None:
        return ENDINGS[ending]
    return GameEnding.WENT_OUT if any(r.empty for r in racks) else GameEnding.NOBODY_OUT
