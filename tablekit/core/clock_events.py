"""The move clock's domain events: what happened at a table, as the clock produces them,
the unit journals them and the protocol carries them unchanged (each a tagged msgspec
Struct whose fields carry their own limits, :mod:`tablekit.core.fields`), and the reasons
and sources they name. :mod:`tablekit.core.clock` makes them.
"""

from __future__ import annotations

import enum

import msgspec

from tablekit.core.fields import GameNo, MoveNo, MoveSeconds, MovesLeft, SeatCount, Seconds
from tablekit.core.seats import Seat


class PauseReason(enum.StrEnum):
    JUDGE = "judge"
    PLAYER_CALL = "player_call"
    """A player stopped the clock after a move and called the judge."""
    RECOVERED = "recovered"
    """The unit restarted mid-game; the judge resumes when the table is ready."""


class LastLapSource(enum.StrEnum):
    TABLE = "table"
    """Started at the table (the players' keypad or the judge menu): the bank is empty."""
    HUB = "hub"
    """The hub started it for every table: the round's time is over."""


class StarterSource(enum.StrEnum):
    """Who set the seat that starts a game."""

    ROTATION = "rotation"
    """Nobody: game 1 is started by seat A, game 2 by B, … (RULES.md §1)."""
    HUB = "hub"
    """The organizer, through the hub's assignment."""
    TABLE = "table"
    """The table, before the game (highest tile drawn, the youngest player, …)."""


class GameEndReason(enum.StrEnum):
    WENT_OUT = "went_out"
    """A player showed an empty rack (ended at the table: keypad or judge menu)."""
    LAST_LAP_DONE = "last_lap_done"
    """Every seat made its last-lap move; nobody went out."""


class ClockEvent(msgspec.Struct, frozen=True, tag_field="type", forbid_unknown_fields=True):
    """A domain event of the move clock; ``type`` names it."""

    game: GameNo
    """The unit's game number (1, 2, … through the day; the hub's assignment sets it)."""
    move: MoveNo
    """A move of the game, counting every seat's moves (1 = the first): which one, the
    event says."""


class GameStarted(ClockEvent, frozen=True, tag="game_started"):
    """A game began: ``starter`` has the first move (``move`` 1) and its time runs."""

    starter: Seat
    seats: SeatCount
    move_seconds: MoveSeconds
    """Seconds each move may take."""
    starter_from: StarterSource = StarterSource.ROTATION
    """Who chose ``starter``: ``rotation`` (nobody: game 1 seat A, game 2 B, …), ``hub``
    (the organizer, the assignment's ``starter``), ``table`` (the table before its first
    press); absent in events of units before the choice existed (= ``rotation``)."""


class MovePassed(ClockEvent, frozen=True, tag="move_passed"):
    """``seat`` pressed its pass button: move ``move`` is over and move ``move`` + 1,
    the next seat's, begins."""

    seat: Seat
    used: Seconds
    """Seconds of clock the move consumed (the full move time when it timed out)."""
    timed_out: bool = False
    overtime: Seconds = 0.0
    """Seconds from the expiry to the late press (the penalty), when timed out."""


class MoveTimedOut(ClockEvent, frozen=True, tag="move_timed_out"):
    """The time of move ``move`` ran out; the clock waits for ``seat``'s late press."""

    seat: Seat


class ClockPaused(ClockEvent, frozen=True, tag="clock_paused"):
    """The clock stopped during move ``move``: ``judge`` (the judge key), ``player_call``
    (a player called the judge), ``recovered`` (the unit restarted mid-game)."""

    seat: Seat | None
    """The seat whose move it is (null: no move running)."""
    reason: PauseReason
    remaining: Seconds
    """Seconds left for that move."""
    used: Seconds = 0.0
    """Seconds of its move the active seat had used when the clock stopped (the move time
    minus ``remaining``; 0 with no active seat). After a restart (``recovered``): the time
    used up to the unit's last save before the crash and charged ahead to its next save
    (1.5 s), so never less than the player really used."""


class ClockResumed(ClockEvent, frozen=True, tag="clock_resumed"):
    """The judge resumed the clock; move ``move`` runs on."""

    seat: Seat | None
    """The seat whose move it is (null: no move running)."""
    remaining: Seconds
    """Seconds left for that move."""
    paused_for: Seconds
    """Seconds the clock stood still."""


class MoveRestarted(ClockEvent, frozen=True, tag="move_restarted"):
    """The judge gave ``seat`` move ``move`` again with the full move time."""

    seat: Seat
    discarded: Seconds
    """Seconds the seat had used before the judge restarted its move."""


class PassUndone(ClockEvent, frozen=True, tag="pass_undone"):
    """The judge undid the last pass: ``seat`` plays move ``move`` again (the one it had
    passed) with the time it had left."""

    seat: Seat
    remaining: Seconds
    """Seconds left for that move."""


class LastLapStarted(ClockEvent, frozen=True, tag="last_lap_started"):
    """The last lap began during move ``move``: ``table`` (the bank is empty: the players'
    keypad or the judge menu), ``hub`` (the round's time is over)."""

    source: LastLapSource
    moves_left: MovesLeft
    """Moves left in the game, the one in progress included (seats + 1)."""


class GameOver(ClockEvent, frozen=True, tag="game_over"):
    """The game ended: ``went_out`` (a player showed the empty rack: the players' keypad or
    the judge menu), ``last_lap_done``; ``move`` is the number of moves played."""

    reason: GameEndReason
    seat: Seat | None
    """The seat whose move ended the game."""


AnyClockEvent = (
    GameStarted
    | MovePassed
    | MoveTimedOut
    | ClockPaused
    | ClockResumed
    | MoveRestarted
    | PassUndone
    | LastLapStarted
    | GameOver
)
