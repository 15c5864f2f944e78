"""Exceptions of the tournament core; every message names what is wrong."""

from __future__ import annotations

from tablekit.core.errors import KitError


class TournamentError(KitError, ValueError):
    """Base class: the tournament input or the requested step is not valid."""


class PlayerCountError(TournamentError):
    """A number of players that a seating method or a format cannot handle."""


class UnknownPlayerError(TournamentError):
    """A player id that is not registered in the event."""


class DuplicatePlayerError(TournamentError):
    """The same player id registered (or seated) twice."""


class PlayerNameError(TournamentError):
    """A player's name that cannot be stored (empty, or a surname not ending the name)."""


class LeagueNumberError(TournamentError):
    """A league number that cannot be stored (its form, or another player's number)."""


class PlayerStatusError(TournamentError):
    """A player fact that does not fit the player's current status."""


class FormatError(TournamentError):
    """A tournament format (stages, groups, selectors) that is not consistent."""


class ResultError(TournamentError):
    """A game result that does not fit the round, table or game it is entered for."""


class RoundStateError(TournamentError):
    """A step that is not allowed in the event's current state."""


class MissingResultsError(RoundStateError):
    """A round cannot be closed because some games have no result."""


class SeatingMismatchError(RoundStateError):
    """A recorded seating differs from the draw its seed reproduces."""
