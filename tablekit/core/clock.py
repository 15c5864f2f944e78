"""The move clock of one table: a pure state machine (RULES.md §2).

No I/O and no clock of its own: every method takes ``now``, a monotonic time in
seconds supplied by the caller, and returns the domain events it produced
(:mod:`tablekit.core.clock_events`). The MQTT link publishes exactly these events;
the displays, LEDs and buzzer are views computed from :class:`ClockState` and ``now``.

Interpretations (documented in docs/organizers-guide.md):

* A press of the pass button within ``lockout`` seconds after the last accepted
  press is ignored, so a double slam or a chattering contact never skips a seat.
* When the time runs out the seat is in TIME_UP: nothing runs until that
  player, having carried out the penalty, presses. Their move is then recorded
  once, as a timed-out move, with the penalty time as ``overtime``.
* Last lap: the move in progress finishes normally; then every seat, starting
  with the next one, makes exactly one more move and the game ends. Its
  ``moves_left`` counts the move in progress too (seats + 1 when it starts).
* Undo restores the whole state from before the last accepted pass (seat,
  remaining time, statistics, last-lap count); the current pause is kept.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

import msgspec

from tablekit.core.clock_events import (
    AnyClockEvent,
    ClockPaused,
    ClockResumed,
    GameEndReason,
    GameOver,
    GameStarted,
    LastLapSource,
    LastLapStarted,
    MovePassed,
    MoveRestarted,
    MoveTimedOut,
    PassUndone,
    PauseReason,
    StarterSource,
)
from tablekit.core.errors import KitError
from tablekit.core.seats import MAX_SEATS, Seat, next_seat, seats_for, starting_seat
from tablekit.core.words import N_

DEFAULT_MOVE_SECONDS = 40.0
DEFAULT_LOCKOUT_SECONDS = 0.4
UNDO_DEPTH = 20
"""Passes that can be undone in a row; bounds the state a unit persists."""


class ClockError(KitError, ValueError):
    """A clock command that the current state does not allow."""


class Phase(enum.StrEnum):
    READY = "ready"
    """No game running: waiting for a press to start the next game."""
    RUNNING = "running"
    TIME_UP = "time_up"
    """The active seat ran out of time; waiting for its late press."""
    GAME_OVER = "game_over"


# --- state -------------------------------------------------------------------


class SeatStats(msgspec.Struct, frozen=True):
    moves: int = 0
    total: float = 0.0
    """Seconds of clock used over the counted moves."""
    timeouts: int = 0

    @property
    def average(self) -> float:
        return self.total / self.moves if self.moves else 0.0


class ClockRules(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    seats: int = MAX_SEATS
    move_seconds: float = DEFAULT_MOVE_SECONDS
    lockout: float = DEFAULT_LOCKOUT_SECONDS

    def __post_init__(self) -> None:
        seats_for(self.seats)
        if not 0 < self.move_seconds <= 3600:
            raise ClockError(
                N_("move_seconds: must be above 0 and at most 3600, got {got}"),
                got=self.move_seconds,
            )
        if not 0 <= self.lockout < self.move_seconds:
            raise ClockError(
                N_("lockout: must be at least 0 and below move_seconds, got {got}"),
                got=self.lockout,
            )


def time_left(
    phase: Phase,
    paused: PauseReason | None,
    remaining: float,
    since: float,
    now: float,
    *,
    live: bool = True,
) -> float:
    """Seconds left for the seat to move at ``now``, from ``remaining`` measured at
    ``since`` (the one computation of the time left: the unit's clock, the wire snapshot
    and the hub screen all use it). The time runs down only in a running, unpaused move
    that is ``live`` (a table the hub has lost stands still at its last value); in TIME
    none is left."""
    if phase is Phase.TIME_UP:
        return 0.0
    if phase is not Phase.RUNNING or paused is not None or not live:
        return max(0.0, remaining)
    return max(0.0, remaining - max(0.0, now - since))


class ClockState(msgspec.Struct, frozen=True):
    """Everything the clock knows; immutable, so undo is a restored snapshot."""

    rules: ClockRules = ClockRules()
    phase: Phase = Phase.READY
    game: int = 1
    """The game in progress, or in READY the game the next press starts."""
    move: int = 0
    starter: Seat | None = None
    """Seat that starts (or started) the game; None = by rotation (RULES.md §1)."""
    starter_from: StarterSource = StarterSource.ROTATION
    active: Seat | None = None
    remaining: float = 0.0
    """Seconds left for the active seat, as of ``since``."""
    since: float = 0.0
    paused: PauseReason | None = None
    paused_at: float = 0.0
    last_press: float | None = None
    """Time of the last accepted pass-button press, for the lockout."""
    expired_at: float = 0.0
    last_lap_left: int | None = None
    ended_by: GameEndReason | None = None
    stats: tuple[SeatStats, ...] = ()
    undo: tuple[ClockState, ...] = ()

    @property
    def seats(self) -> tuple[Seat, ...]:
        return seats_for(self.rules.seats)

    @property
    def on_deck(self) -> Seat | None:
        """The seat that moves after the active one (None in the last lap's final move:
        nobody moves after it)."""
        if self.active is None or self.phase not in (Phase.RUNNING, Phase.TIME_UP):
            return None
        if self.final_move:
            return None
        return next_seat(self.active, self.rules.seats)

    @property
    def final_move(self) -> bool:
        """The move in progress is the last lap's last: the game ends with it."""
        return self.last_lap_left is not None and self.last_lap_left <= 1

    @property
    def upcoming_starter(self) -> Seat:
        """Who starts the game in progress, or the next game from READY."""
        if self.starter is not None:
            return self.starter
        return starting_seat(self.game, self.rules.seats)

    def seat_stats(self, seat: Seat) -> SeatStats:
        return self.stats[seat.position] if self.stats else SeatStats()

    def remaining_at(self, now: float) -> float:
        """Seconds left for the active seat at ``now``; paused time never counts."""
        return time_left(self.phase, self.paused, self.remaining, self.since, now)

    def deadline(self) -> float | None:
        """Monotonic time at which the active move expires, if the clock is running."""
        if self.phase is Phase.RUNNING and self.paused is None:
            return self.since + self.remaining
        return None


class MoveClock:
    """The single owner of a table's clock state; commands return events."""

    def __init__(self, rules: ClockRules | None = None, state: ClockState | None = None) -> None:
        self.state = state if state is not None else ClockState(rules=rules or ClockRules())

    @property
    def rules(self) -> ClockRules:
        return self.state.rules

    # -- commands from the table's buttons ------------------------------------

    def press(self, now: float) -> list[AnyClockEvent]:
        """The pass button went down at ``now``."""
        s = self.state
        if s.paused is not None:
            return []
        if s.last_press is not None and 0 <= now - s.last_press < s.rules.lockout:
            return []
        if s.phase is Phase.READY:
            return self.start_game(now)
        events: list[AnyClockEvent] = []
        if s.phase is Phase.RUNNING:
            events = self.tick(now)
            if self.state.phase is Phase.RUNNING:
                return self._pass(now)
        if self.state.phase is Phase.TIME_UP:
            # A press hard on the expiry was made before the player knew; the late
            # press that releases the next seat comes after the penalty.
            if now - self.state.expired_at < s.rules.lockout:
                return events
            return [*events, *self._pass(now)]
        return events

    def tick(self, now: float) -> list[AnyClockEvent]:
        """Advance time: the running move expires at its deadline."""
        s = self.state
        deadline = s.deadline()
        if deadline is None or now < deadline:
            return []
        assert s.active is not None
        stats = _add_timeout(s.stats, s.active)
        self.state = msgspec.structs.replace(
            s, phase=Phase.TIME_UP, remaining=0.0, since=deadline, expired_at=deadline, stats=stats
        )
        return [MoveTimedOut(game=s.game, move=s.move, seat=s.active)]

    def call_judge(self, now: float, since: float | None = None) -> list[AnyClockEvent]:
        """A player stops the clock and calls the judge.

        ``since`` (the press that began a long hold of the pass button) rewinds the
        active seat's time to that instant: the hold is not charged to anybody.
        """
        s = self.state
        if s.phase not in (Phase.RUNNING, Phase.TIME_UP) or s.paused is not None:
            return []
        events = self.tick(now)
        s = self.state
        remaining = s.remaining_at(now)
        if since is not None and s.phase is Phase.RUNNING and s.since <= since <= now:
            remaining = s.remaining_at(since)
        return self._pause(now, PauseReason.PLAYER_CALL, remaining, events)

    # -- judge commands -----------------------------------------------------------

    def pause(self, now: float, reason: PauseReason = PauseReason.JUDGE) -> list[AnyClockEvent]:
        s = self.state
        if s.paused is not None or s.phase not in (Phase.RUNNING, Phase.TIME_UP):
            return []
        events = self.tick(now)
        return self._pause(now, reason, self.state.remaining_at(now), events)

    def resume(self, now: float) -> list[AnyClockEvent]:
        s = self.state
        if s.paused is None:
            return []
        paused_for = max(0.0, now - s.paused_at)
        # A pause during TIME is not penalty time: the late press's overtime leaves it out.
        expired_at = s.expired_at + paused_for if s.phase is Phase.TIME_UP else s.expired_at
        self.state = msgspec.structs.replace(s, paused=None, since=now, expired_at=expired_at)
        return [
            ClockResumed(
                game=s.game,
                move=s.move,
                seat=s.active,
                remaining=s.remaining,
                paused_for=paused_for,
            )
        ]

    def restart_move(self, now: float) -> list[AnyClockEvent]:
        """The active seat gets its move again with full time (the early-press claim)."""
        s = self.state
        if s.phase not in (Phase.RUNNING, Phase.TIME_UP) or s.active is None:
            raise ClockError(N_("restart move: no move is in progress"))
        discarded = s.rules.move_seconds - s.remaining_at(now)
        stats = s.stats
        if s.phase is Phase.TIME_UP:
            stats = _add_timeout(stats, s.active, -1)
        self.state = msgspec.structs.replace(
            s, phase=Phase.RUNNING, remaining=s.rules.move_seconds, since=now, stats=stats
        )
        return [
            MoveRestarted(game=s.game, move=s.move, seat=s.active, discarded=round(discarded, 3))
        ]

    def undo_pass(self, now: float) -> list[AnyClockEvent]:
        """Give the previous seat back its move with the time it had."""
        s = self.state
        if not s.undo or s.phase is Phase.READY:
            raise ClockError(N_("undo pass: there is no pass to undo in this game"))
        before = s.undo[-1]
        last_lap = before.last_lap_left
        if last_lap is None and s.last_lap_left is not None:
            last_lap = s.rules.seats + 1  # started after that pass: keep it, counting afresh
        restored = msgspec.structs.replace(
            before,
            undo=s.undo[:-1],
            since=now,
            paused=s.paused,
            paused_at=s.paused_at if s.paused is not None else now,
            last_press=None,
            expired_at=now,
            last_lap_left=last_lap,
        )
        self.state = restored
        assert restored.active is not None
        return [
            PassUndone(
                game=restored.game,
                move=restored.move,
                seat=restored.active,
                remaining=round(restored.remaining, 3),
            )
        ]

    def start_last_lap(self, now: float, source: LastLapSource) -> list[AnyClockEvent]:
        """Bank empty or round time over: every seat makes one more move."""
        s = self.state
        if s.phase not in (Phase.RUNNING, Phase.TIME_UP) or s.last_lap_left is not None:
            return []
        left = s.rules.seats + 1
        self.state = msgspec.structs.replace(s, last_lap_left=left)
        return [LastLapStarted(game=s.game, move=s.move, source=source, moves_left=left)]

    def end_game(self, now: float) -> list[AnyClockEvent]:
        """A player showed an empty rack: the game is over."""
        s = self.state
        if s.phase not in (Phase.RUNNING, Phase.TIME_UP):
            raise ClockError(N_("end game: no game is in progress"))
        return self._finish(now, GameEndReason.WENT_OUT, s.active)

    def close(self, now: float) -> list[AnyClockEvent]:
        """The game's result was entered at the hub (a judge): the game ends here, with
        nothing to undo and no result to type (no event: the hub holds its result)."""
        s = self.state
        self.state = msgspec.structs.replace(
            s, phase=Phase.GAME_OVER, active=None, remaining=0.0, paused=None, ended_by=None,
            last_press=now, undo=(), last_lap_left=None,
        )
        return []

    def start_game(self, now: float, game: int | None = None) -> list[AnyClockEvent]:
        """Start the upcoming game (from READY) or, after GAME OVER, game ``game`` (default:
        the next one)."""
        s = self.state
        if s.phase in (Phase.RUNNING, Phase.TIME_UP):
            raise ClockError(N_("start game: game {game} is still in progress"), game=s.game)
        if s.phase is Phase.GAME_OVER:
            self.prepare(s.rules, s.game + 1 if game is None else game)
            s = self.state
        first = s.upcoming_starter
        self.state = ClockState(
            rules=s.rules,
            phase=Phase.RUNNING,
            game=s.game,
            move=1,
            starter=first,
            starter_from=s.starter_from,
            active=first,
            remaining=s.rules.move_seconds,
            since=now,
            last_press=now,
            stats=tuple(SeatStats() for _ in s.seats),
        )
        return [
            GameStarted(
                game=s.game,
                move=1,
                starter=first,
                seats=s.rules.seats,
                move_seconds=s.rules.move_seconds,
                starter_from=s.starter_from,
            )
        ]

    def prepare(self, rules: ClockRules, game: int, starter: Seat | None = None) -> None:
        """Set up game ``game`` (e.g. from the hub's assignment) without starting it.

        Without an explicit starter, game 1 is started by seat A, game 2 by B, …
        """
        if self.state.phase in (Phase.RUNNING, Phase.TIME_UP):
            raise ClockError(
                N_("assignment: game {game} is still in progress"), game=self.state.game
            )
        if game < 1:
            raise ClockError(N_("game: games are numbered from 1, got {game}"), game=game)
        if starter is not None and starter not in seats_for(rules.seats):
            raise ClockError(
                N_("starter: seat {seat} is not at a {count}-seat table"),
                seat=starter, count=rules.seats,
            )
        source = StarterSource.ROTATION if starter is None else StarterSource.HUB
        self.state = ClockState(rules=rules, game=game, starter=starter, starter_from=source)

    def choose_starter(self, seat: Seat) -> None:
        """The table chooses who starts the upcoming game (before its first press)."""
        s = self.state
        if s.phase is not Phase.READY:
            raise ClockError(N_("starting seat: choose it before the game starts"))
        if seat not in s.seats:
            raise ClockError(
                N_("starting seat: seat {seat} is not at a {count}-seat table"),
                seat=seat, count=s.rules.seats,
            )
        self.state = msgspec.structs.replace(s, starter=seat, starter_from=StarterSource.TABLE)

    def recover(self, now: float) -> list[AnyClockEvent]:
        """After a restart: keep the game but hold the clock for the judge.

        The state is the one last saved before the restart, its ``remaining`` charged ahead
        to the next save (:meth:`saved_at`; the unit saves at least every second while a
        move runs): a running move is paused (``recovered``) with that remaining time, so a
        crash never gives time back — the player resumes with at most what they really had,
        and the time the unit was down is not charged. Returns the pause, or nothing when
        the clock was not running.
        """
        s = self.state
        running = s.phase in (Phase.RUNNING, Phase.TIME_UP) and s.paused is None
        self.state = msgspec.structs.replace(
            s, since=now, paused_at=now, last_press=None, expired_at=now
        )
        if not running:
            return []
        remaining = s.remaining if s.phase is Phase.RUNNING else 0.0
        return self._pause(now, PauseReason.RECOVERED, remaining, [])

    def saved_at(self, now: float, charge: float = 0.0) -> ClockState:
        """The state to save at ``now``: a running move's remaining time as of ``now`` less
        ``charge`` (the time until the next save, charged ahead), so that :meth:`recover`
        after a crash before that save never gives time back."""
        s = self.state
        if s.phase is not Phase.RUNNING or s.paused is not None:
            return s
        remaining = max(0.0, s.remaining_at(now) - charge)
        return msgspec.structs.replace(s, remaining=remaining, since=now)

    # -- internals ------------------------------------------------------------------

    def _pass(self, now: float) -> list[AnyClockEvent]:
        s = self.state
        assert s.active is not None
        timed_out = s.phase is Phase.TIME_UP
        used = s.rules.move_seconds - s.remaining_at(now)
        overtime = max(0.0, now - s.expired_at) if timed_out else 0.0
        passed = MovePassed(
            game=s.game,
            move=s.move,
            seat=s.active,
            used=round(used, 3),
            timed_out=timed_out,
            overtime=round(overtime, 3),
        )
        before = msgspec.structs.replace(s, undo=(), remaining=s.remaining_at(now), since=now)
        undo = (*s.undo, before)[-UNDO_DEPTH:]
        stats = _add_move(s.stats, s.active, used)
        last_lap = None if s.last_lap_left is None else s.last_lap_left - 1
        self.state = msgspec.structs.replace(
            s,
            phase=Phase.RUNNING,
            move=s.move + 1,
            active=next_seat(s.active, s.rules.seats),
            remaining=s.rules.move_seconds,
            since=now,
            last_press=now,
            last_lap_left=last_lap,
            stats=stats,
            undo=undo,
        )
        if last_lap == 0:
            return [passed, *self._finish(now, GameEndReason.LAST_LAP_DONE, s.active, counted=True)]
        return [passed]

    def _finish(
        self, now: float, reason: GameEndReason, seat: Seat | None, counted: bool = False
    ) -> list[AnyClockEvent]:
        s = self.state
        move = s.move - 1 if counted else s.move
        self.state = msgspec.structs.replace(
            s,
            phase=Phase.GAME_OVER,
            move=move,
            active=None,
            remaining=0.0,
            paused=None,
            ended_by=reason,
            last_press=now,
        )
        return [GameOver(game=s.game, move=move, reason=reason, seat=seat)]

    def _pause(
        self, now: float, reason: PauseReason, remaining: float, events: Sequence[AnyClockEvent]
    ) -> list[AnyClockEvent]:
        s = self.state
        self.state = msgspec.structs.replace(
            s, paused=reason, paused_at=now, remaining=remaining, since=now
        )
        used = max(0.0, s.rules.move_seconds - remaining) if s.active is not None else 0.0
        paused = ClockPaused(
            game=s.game,
            move=s.move,
            seat=s.active,
            reason=reason,
            remaining=round(remaining, 3),
            used=round(used, 3),
        )
        return [*events, paused]


def _add_move(stats: tuple[SeatStats, ...], seat: Seat, used: float) -> tuple[SeatStats, ...]:
    old = stats[seat.position]
    new = SeatStats(moves=old.moves + 1, total=old.total + used, timeouts=old.timeouts)
    return (*stats[: seat.position], new, *stats[seat.position + 1 :])


def _add_timeout(stats: tuple[SeatStats, ...], seat: Seat, count: int = 1) -> tuple[SeatStats, ...]:
    old = stats[seat.position]
    new = SeatStats(moves=old.moves, total=old.total, timeouts=old.timeouts + count)
    return (*stats[: seat.position], new, *stats[seat.position + 1 :])
