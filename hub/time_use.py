"""How long each player's moves took, from the move events the tables journal (pure: no
I/O; the shell reads the events from the store and passes them in).

A unit journals its clock's events (:mod:`tablekit.core.clock_events`) and the hub stores
them as they are. Every pass (:class:`MovePassed`) carries the seconds of clock the move
used (pauses not counted), whether its time ran out and the late press's overtime; the
judge's undo of a pass (:class:`PassUndone`) gives the seat that move again, so only the
move's last pass counts; a timeout (:class:`MoveTimedOut`) whose move the game ended
before the late press still counts as a timeout (with no duration).

The units number their games within a round (1, 2, … as the hub's assignment says), so a
table's "game 1" comes back every round: a unit's events are cut into games (a new one at
each :class:`GameStarted` or change of game number, each unit's journal in its own order)
and each game is put in its round by the round its result submission names, or else — a
game whose result the judge entered at the hub, or one still being played — by the unit's
clock: the latest stage drawn before the game began (so the hub and the units keep the
same time, as the organizer's guide asks).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from tablekit.core.clock_events import GameStarted, MovePassed, MoveTimedOut, PassUndone
from tablekit.core.messages import AnyUnitEvent
from tablekit.core.result import ResultSubmitted
from tablekit.core.seats import Seat

KINDS = frozenset(
    str(kind.__struct_config__.tag)
    for kind in (GameStarted, MovePassed, MoveTimedOut, PassUndone, ResultSubmitted)
)
"""The stored kinds of event this module reads (the shell decodes only these)."""


@dataclass(frozen=True)
class TableEvent:
    """One event a table's unit journalled, as the store keeps it."""

    source: str
    """The unit's journal (its id, or ``unit@epoch`` for a later one)."""
    seq: int
    ts: float
    """The unit's wall time when it journalled the event."""
    event: AnyUnitEvent


@dataclass(frozen=True)
class DrawnStage:
    """A stage as the event drew it: its name, its round number (the assignment's
    ``round``, which a unit's result submission repeats) and when it was drawn."""

    name: str
    round: int
    drawn_at: float


@dataclass(frozen=True)
class Move:
    """One move as it was played (its last pass)."""

    move: int
    seat: Seat
    used: float | None
    """Seconds of clock the move used; None: its time ran out and the game ended before
    the late press."""
    timed_out: bool
    overtime: float = 0.0


GameKey = tuple[str, int, int]
"""(stage, table, game)."""


@dataclass
class _Game:
    game: int
    begun: float
    started: bool
    """It began with the unit's :class:`GameStarted` (not continued from another journal)."""
    round: int = 0
    moves: dict[int, Move] = field(default_factory=dict)
    late: dict[int, Seat] = field(default_factory=dict)
    """Moves whose time ran out, waiting for the late press."""

    def take(self, event: AnyUnitEvent) -> None:
        match event:
            case MovePassed():
                self.late.pop(event.move, None)
                self.moves[event.move] = Move(
                    event.move, event.seat, event.used, event.timed_out, event.overtime
                )
            case MoveTimedOut():
                self.late[event.move] = event.seat
            case PassUndone():
                self.moves.pop(event.move, None)  # the seat plays that move again
            case ResultSubmitted() if event.round > 0:
                self.round = event.round

    def played(self) -> dict[int, Move]:
        moves = dict(self.moves)
        for move, seat in self.late.items():
            moves.setdefault(move, Move(move, seat, None, True))
        return moves


def _games(events: Iterable[TableEvent]) -> list[_Game]:
    """One table's ``events`` cut into games: each unit journal in seq order, the
    journals in the order they first came (a replaced unit's after the first's)."""
    journals: dict[str, list[TableEvent]] = {}
    for item in events:
        journals.setdefault(item.source, []).append(item)
    games: list[_Game] = []
    for journal in journals.values():
        current: _Game | None = None
        for item in sorted(journal, key=lambda e: e.seq):
            event = item.event
            if current is None or isinstance(event, GameStarted) or event.game != current.game:
                current = _Game(event.game, item.ts, isinstance(event, GameStarted))
                games.append(current)
            current.take(event)
    return games


def stage_of(game_round: int, begun: float, stages: Sequence[DrawnStage]) -> str | None:
    """The stage a game belongs to: the one whose round its result names, else the latest
    drawn before it began; None: before any draw."""
    if game_round:
        for stage in stages:
            if stage.round == game_round:
                return stage.name
        return None
    before = [stage for stage in stages if stage.drawn_at <= begun]
    return max(before, key=lambda s: s.drawn_at).name if before else None


def played_moves(
    events_by_table: Mapping[int, Iterable[TableEvent]], stages: Sequence[DrawnStage]
) -> dict[GameKey, dict[int, Move]]:
    """Every game's moves by move number, keyed by (stage, table, game). A game played
    again from its start (a new :class:`GameStarted`) replaces what was played before;
    one continued in another journal (a unit replaced mid-game) adds to it."""
    out: dict[GameKey, dict[int, Move]] = {}
    for table, events in events_by_table.items():
        for game in _games(events):
            stage = stage_of(game.round, game.begun, stages)
            if stage is None:
                continue
            key = (stage, table, game.game)
            if game.started or key not in out:
                out[key] = game.played()
            else:
                out[key] |= game.played()
    return out


@dataclass(frozen=True)
class TimeUse:
    """One player's moves in some games: how many, how long, how many ran out of time."""

    moves: int = 0
    """Moves with a known duration."""
    total: float = 0.0
    longest: float = 0.0
    timeouts: int = 0

    @property
    def average(self) -> float:
        return self.total / self.moves if self.moves else 0.0

    def __add__(self, other: TimeUse) -> TimeUse:
        return TimeUse(
            self.moves + other.moves,
            self.total + other.total,
            max(self.longest, other.longest),
            self.timeouts + other.timeouts,
        )


def time_use(moves: Iterable[Move], seat: Seat) -> TimeUse:
    """The time use of ``seat`` in ``moves`` (one game's, or several's)."""
    used = []
    timeouts = 0
    for move in moves:
        if move.seat != seat:
            continue
        timeouts += move.timed_out
        if move.used is not None:
            used.append(move.used)
    return TimeUse(len(used), sum(used), max(used, default=0.0), timeouts)
