"""Seat letters A–D, clockwise around a table (RULES.md §1)."""

from __future__ import annotations

import enum

from tablekit.core.errors import KitError
from tablekit.core.words import N_


class Seat(enum.StrEnum):
    """A seat at a table; play passes clockwise A → B → C → D → A."""

    A = "A"
    B = "B"
    C = "C"
    D = "D"

    @property
    def position(self) -> int:
        """0 for A, 1 for B, … (clockwise order)."""
        return SEATS.index(self)


SEATS: tuple[Seat, ...] = (Seat.A, Seat.B, Seat.C, Seat.D)
MIN_SEATS = 3
MAX_SEATS = 4


class SeatCountError(KitError, ValueError):
    """A table was given a number of seats other than 3 or 4."""


class GameNumberOrderError(KitError, ValueError):
    """A game number below 1 (games are numbered from 1)."""


def seats_for(count: int) -> tuple[Seat, ...]:
    """The seats in play at a table of ``count`` players."""
    if not MIN_SEATS <= count <= MAX_SEATS:
        raise SeatCountError(N_("seats: a table seats 3 or 4 players, got {count}"), count=count)
    return SEATS[:count]


def next_seat(seat: Seat, count: int) -> Seat:
    """The seat after ``seat`` clockwise at a table of ``count`` players."""
    return SEATS[(seat.position + 1) % count]


def starting_seat(game_number: int, count: int) -> Seat:
    """Game 1 is started by seat A, game 2 by B, … wrapping around (RULES.md §1)."""
    if game_number < 1:
        raise GameNumberOrderError(
            N_("game number: games are numbered from 1, got {game}"), game=game_number
        )
    return SEATS[(game_number - 1) % count]
