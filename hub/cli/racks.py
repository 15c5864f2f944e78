"""The command line's use of the rack notation (:mod:`tablekit.core.racks`): ``--racks``
with the flag's name in its errors, and the game's ending (``--ending``)."""

from __future__ import annotations

from collections.abc import Sequence

from hub.cli.common import CliError
from tablekit.core.racks import RackNotationError, parse_racks
from tablekit.core.scoring import GameEnding, RackReport, usual_ending
from tablekit.core.words import N_

ENDINGS = {"went-out": GameEnding.WENT_OUT, "nobody-out": GameEnding.NOBODY_OUT}


def racks_arg(text: str, count: int) -> tuple[RackReport, ...]:
    """Every seat of a table of ``count`` players from ``--racks``."""
    try:
        return parse_racks(text, count)
    except RackNotationError as err:
        raise CliError(N_("--racks: {error}"), error=err) from None


def ending_for(racks: Sequence[RackReport], ending: str | None) -> GameEnding:
    if ending is not None:
        return ENDINGS[ending]
    return usual_ending(racks)
