"""A format's description as a person reads it: the presets' descriptions as words to
translate (a format keeps its description in English, among the event's stored facts),
so a message or a page that names a format says what it is — *Mistrzostwa:
eliminacje, …* — never its internal name (``championship``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from tablekit.core.errors import Phrase, phrase_of
from tablekit.core.words import N_

if TYPE_CHECKING:
    from hub.tournament.formats import TournamentFormat

WINTER: Final = N_("Winter tournament (000): Round I random draw, Round II by standings")
SCHOOL: Final = N_(
    "Inter-school contest (004): {rounds} rounds × {games} games, new draw each round"
)
CHAMPIONSHIP: Final = N_("Championship (002): eliminations, semifinal of {semifinal}, final of 4")
LEAGUE: Final = N_("League tournament (003), {scheme} scheme")
DESCRIPTIONS: Final = (WINTER, SCHOOL, CHAMPIONSHIP, LEAGUE)
"""The presets' descriptions (hub/tournament/presets.py)."""


def describe(fmt: TournamentFormat) -> Phrase:
    """The format's description as words to translate: a preset's (even one stored by
    an event long ago) is matched to its template and values; another format's own
    description (or its name) is shown as it was written."""
    return phrase_of(fmt.description, DESCRIPTIONS) or Phrase(
        "{text}", text=fmt.description or fmt.name
    )
