"""What the organizer's round pages show, as plain values (pure: no I/O, no words).

The round as ``rummikub round status`` reads it from the store's fold
(:class:`~hub.competition.Competition`): the stage open (or the last one drawn), its
clock, every table's progress and the games whose result is missing; and what the next
draw seats. Nothing here decides a rule: the organizer's commands do.
"""

from __future__ import annotations

from dataclasses import dataclass

from hub.competition import Competition
from hub.tournament import EventPhase, RoundClosed, RoundSeated
from tablekit.core.seats import seats_for


@dataclass(frozen=True)
class TableLine:
    """One table of the round: who sits where and how far it is."""

    number: int
    seats: tuple[tuple[str, str], ...]
    """(seat, name) in seat order."""
    games_done: int
    games: int
    next_game: int
    starter: str | None
    """The seat the organizer chose to start the table's next game (None: rotation, or
    the table's own choice)."""

    @property
    def finished(self) -> bool:
        return self.games_done >= self.games


@dataclass(frozen=True)
class RoundView:
    phase: EventPhase
    stage: str | None
    """The round open now, else the last one drawn (None: nothing drawn yet)."""
    number: int
    """``stage``'s number in the event (0: nothing drawn)."""
    open: bool
    """``stage`` is drawn and not closed."""
    next_stage: str | None
    """What the next draw seats (None while a round is open, or once the event is over)."""
    next_number: int
    started_at: float | None
    started_by: str
    minutes: float | None
    """The open round's time (its start's, else the event's; None: no limit)."""
    deadline: float | None
    time_over: bool
    """The hub has broadcast the last lap (the round's time ran out)."""
    tables: tuple[TableLine, ...]
    missing: tuple[tuple[int, int], ...]
    """(table, game) of the open round without a result."""
    stages: tuple[str, ...]
    """Every stage drawn so far."""
    event_minutes: float | None
    """The event's round time (the default of a start)."""
    present: int
    """Players checked in (before the first draw: who is drawn)."""

    @property
    def done(self) -> int:
        return sum(t.finished for t in self.tables)

    @property
    def started(self) -> bool:
        return self.started_at is not None


def round_view(comp: Competition) -> RoundView:
    event = comp.event
    played = event.stages_played
    open_stage = comp.open_stage()
    stage = open_stage.name if open_stage is not None else (played[-1] if played else None)
    upcoming = event.current_stage if open_stage is None else None
    started = comp.started.get(stage) if open_stage is not None and stage else None
    deadline = comp.round_deadline()
    event_minutes = comp.created.round_minutes if comp.created is not None else None
    minutes = None
    if started is not None:
        minutes = started.minutes if started.minutes is not None else event_minutes
    players = event.players
    tables = []
    for t in comp.tables():
        names = tuple(
            (seat.value, players[pid].name if pid in players else pid)
            for seat, pid in zip(seats_for(len(t.players)), t.players, strict=True)
        )
        chosen = comp.starter(stage, t.table, t.next_game) if stage else None
        tables.append(
            TableLine(t.table, names, t.games_done, t.games, t.next_game,
                      None if chosen is None else chosen.value)
        )
    return RoundView(
        phase=event.phase,
        stage=stage,
        number=comp.round_number(stage) if stage else 0,
        open=open_stage is not None,
        next_stage=upcoming.name if upcoming is not None else None,
        next_number=comp.round_number(upcoming.name) if upcoming is not None else 0,
        started_at=None if started is None else started.at,
        started_by="" if started is None else started.by,
        minutes=minutes,
        deadline=None if deadline is None else deadline[1],
        time_over=stage is not None and stage in comp.time_over and open_stage is not None,
        tables=tuple(tables),
        missing=tuple((m.table, m.game) for m in event.missing_results()),
        stages=played,
        event_minutes=event_minutes,
        present=len(event.present),
    )


def seated_fact(comp: Competition, stage: str) -> RoundSeated | None:
    """The draw that seated ``stage`` as it stands (the latest: an undone one was drawn
    again)."""
    return next(
        (f for f in reversed(comp.facts) if isinstance(f, RoundSeated) and f.stage == stage),
        None,
    )


def closed_fact(comp: Competition, stage: str) -> RoundClosed | None:
    """How ``stage`` was closed (None: it is not)."""
    return next(
        (f for f in reversed(comp.facts) if isinstance(f, RoundClosed) and f.stage == stage),
        None,
    )
