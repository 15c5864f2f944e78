"""What a table knows of its round's games (pure): how many the round has and which of
their results the hub holds.

The hub says both in every assignment (``Assignment.games``, ``Assignment.recorded``);
a unit reads them at once, not only between games, so that

* its judge menu never reopens a game whose result the hub holds (a correction is made
  at the hub) and never starts a game the round does not have or one already recorded;
* a game the judge entered at the hub is over at the table too, and the table is told.

A hub of an earlier release says neither: ``games`` 0 means "not known", and then any
game may be started, as before.
"""

from __future__ import annotations

from typing import Annotated, Final

import msgspec

from tablekit.core.fields import GameNo

MAX_ROUND_GAMES: Final = 99
"""Games a round may have at a table (the formats' limit; an assignment lists at most this
many recorded games)."""

RoundGameCount = Annotated[int, msgspec.Meta(ge=0, le=MAX_ROUND_GAMES)]
"""A round's number of games at a table; 0 = not known."""
RecordedGames = Annotated[tuple[GameNo, ...], msgspec.Meta(max_length=MAX_ROUND_GAMES)]
"""Games whose result the hub holds, ascending."""


class RoundGames(msgspec.Struct, frozen=True):
    """A round's games at one table: ``games`` of them (0: not known), ``recorded`` the
    ones whose result the hub holds (entered at the table or by a judge at the hub)."""

    games: RoundGameCount = 0
    recorded: RecordedGames = ()

    @property
    def known(self) -> bool:
        """The hub said how many games the round has."""
        return self.games > 0

    def holds(self, game: int) -> bool:
        """The hub holds game ``game``'s result: the game is closed at the table."""
        return game in self.recorded

    def playable(self, game: int) -> bool:
        """Game ``game`` may be started at the table: the round has it and its result is
        not at the hub yet (any game, when the round's games are not known)."""
        if not self.known:
            return True
        return 1 <= game <= self.games and not self.holds(game)

    def next_after(self, game: int) -> int | None:
        """The game to start after game ``game`` (``game`` + 1 when not known); None when
        the round has no game left to play."""
        if not self.known:
            return game + 1
        return next((g for g in range(game + 1, self.games + 1) if not self.holds(g)), None)

    def first_open(self) -> int | None:
        """The lowest game without a result at the hub (None: every game is recorded, or
        the games are not known)."""
        if not self.known:
            return None
        return next((g for g in range(1, self.games + 1) if not self.holds(g)), None)

    @property
    def done(self) -> bool:
        """Every game of the round has its result at the hub."""
        return self.known and self.first_open() is None

    def newly_recorded(self, before: RoundGames) -> tuple[int, ...]:
        """The games recorded here that ``before`` did not hold."""
        return tuple(g for g in self.recorded if g not in before.recorded)
