"""How far a table has played the round being played, as the hub knows it (pure: the shell
reads the store and passes the facts in).

A result belongs to a game that was played (RULES.md §5): a judge's entry for a game the
table has not ended — a game beyond the one it is playing, or any game of a round whose
seating it has not begun (tables play from the draw; ``round start`` only starts the
round's time) — is refused with what to do, unless the judge confirms it on purpose with
a reason. What the table is playing comes from its unit's own reports: the games it
started since the round was drawn. A table without a unit (results from score sheets) is
taken to play its games in order: the lowest game without a result.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from hub.competition import CompetitionError
from tablekit.core.words import N_

NOT_BEGUN: Final = N_(
    "table {table} has not begun round {round}: its unit has started no game since the "
    "draw, so game {game} was not played there"
)
PLAYING_EARLIER: Final = N_(
    "table {table} is playing game {playing} of round {round}: game {game} has not been "
    "played there yet"
)
EARLIER_MISSING: Final = N_(
    "table {table} has no result for game {first} of round {round}: the games are played in "
    "order, so game {game} has not been played yet"
)


class GameNotEndedError(CompetitionError):
    """A judge's result for a game the table has not ended: stored only when the judge
    confirms it on purpose, with the reason (the command line's ``--force --why``, the
    web form's box)."""


@dataclass(frozen=True)
class TablePlay:
    """A table of the round being played: the games whose result the hub holds and, when
    the table has a unit, the games it started since the round was drawn."""

    table: int
    round: int
    recorded: frozenset[int]
    reported: bool
    """The table's unit has reported to the hub: where it is comes from its reports."""
    started: tuple[int, ...] = ()
    """The games its unit started since the round was drawn, in the order reported."""

    @property
    def playing(self) -> int | None:
        """The game the table is at: the one its unit started last (None: none since the
        draw); without a unit, the lowest game without a result."""
        if self.reported:
            return self.started[-1] if self.started else None
        return next(g for g in range(1, len(self.recorded) + 2) if g not in self.recorded)

    def not_ended(self, game: int) -> GameNotEndedError | None:
        """Why game ``game`` is one the table has not ended (None: it has, or is playing it,
        or its result is at the hub already: a correction)."""
        if game in self.recorded:
            return None
        values = {"table": self.table, "round": self.round, "game": game}
        playing = self.playing
        if playing is None:
            return GameNotEndedError(NOT_BEGUN, **values)
        if game <= playing:
            return None
        if self.reported:
            return GameNotEndedError(PLAYING_EARLIER, playing=playing, **values)
        return GameNotEndedError(EARLIER_MISSING, first=playing, **values)

