"""What an event state holds, and the plain questions about it (pure).

:class:`StateBase` keeps the players, who is present, withdrawn or disqualified, the
sanctions, the rounds drawn with their results, and the head judge's and organizer's
decisions; it answers the phase, the stages drawn, their seating and results and what is
missing. Its subclasses rank (:mod:`hub.tournament.state_rankings`), draw
(:mod:`hub.tournament.state_draws`) and fold the facts
(:class:`hub.tournament.progress.EventState`, the one class the hub uses).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping

import msgspec

from hub.tournament.cuts import (
    TieDecided,
)
from hub.tournament.errors import (
    RoundStateError,
    UnknownPlayerError,
)
from hub.tournament.facts import ConsolationDecided, PlayerSanctioned, SeatedTable
from hub.tournament.formats import (
    Stage,
    TournamentFormat,
)
from hub.tournament.players import Player
from hub.tournament.stage_words import stage_phrase
from hub.tournament.standings import (
    GameScores,
)
from tablekit.core.errors import Phrase
from tablekit.core.words import N_


class EventPhase(enum.StrEnum):
    REGISTRATION = "registration"  # nothing drawn yet
    PLAYING = "playing"  # a stage is seated and open
    BETWEEN_ROUNDS = "between-rounds"  # the last stage is closed, more to come
    FINISHED = "finished"


class MissingGame(msgspec.Struct, frozen=True):
    table: int
    game: int


class DrawnRound:
    __slots__ = ("closed", "results", "seed", "stage", "tables")

    def __init__(self, stage: Stage, seed: int, tables: tuple[SeatedTable, ...]) -> None:
        self.stage = stage
        self.seed = seed
        self.tables = tables
        self.results: dict[tuple[int, int], dict[str, tuple[int, int]]] = {}
        self.closed = False

    def copy(self) -> DrawnRound:
        other = DrawnRound(self.stage, self.seed, self.tables)
        other.results = dict(self.results)
        other.closed = self.closed
        return other

    def games(self) -> list[GameScores]:
        return list(self.results.values())

    def table_games(self, number: int) -> list[GameScores]:
        return [g for (t, _), g in self.results.items() if t == number]

    def player_ids(self) -> list[str]:
        return [pid for t in self.tables for pid in t.players]


class StateBase:
    """What an event holds; the plain questions about it."""

    def __init__(self, fmt: TournamentFormat) -> None:
        self.format = fmt.validate()
        self._players: dict[str, Player] = {}
        self._present: set[str] = set()
        self._withdrawn: dict[str, str] = {}
        self._late: dict[str, int] = {}
        self._seeds: tuple[str, ...] = ()
        self._rounds: list[DrawnRound] = []
        self._disqualified: set[str] = set()
        self._dq_present: set[str] = set()
        """Disqualified players the disqualification took off the list of those present."""
        self._sanctions: tuple[PlayerSanctioned, ...] = ()
        self._lifted: frozenset[int] = frozenset()
        self._deducted: dict[tuple[str, str], int] = {}
        """(stage, player) -> big points deducted in that stage."""
        self._decisions: dict[str, list[TieDecided]] = {}
        self._consolation: dict[str, ConsolationDecided] = {}
        self._facts = 0

    def _player(self, player_id: str, what: Phrase) -> Player:
        try:
            return self._players[player_id]
        except KeyError:
            raise UnknownPlayerError(
                N_("{what}: unknown player {player!r}"), what=what, player=player_id
            ) from None

    @property
    def facts_applied(self) -> int:
        return self._facts

    @property
    def players(self) -> Mapping[str, Player]:
        return dict(self._players)

    @property
    def present(self) -> frozenset[str]:
        """Players who would be drawn now (checked in or arrived late, not withdrawn)."""
        return frozenset(self._present)

    @property
    def withdrawn(self) -> frozenset[str]:
        return frozenset(self._withdrawn)

    @property
    def disqualified(self) -> frozenset[str]:
        return frozenset(self._disqualified)

    def _active(self, pid: str) -> bool:
        return pid not in self._withdrawn and pid not in self._disqualified

    @property
    def sanctions(self) -> tuple[tuple[PlayerSanctioned, bool], ...]:
        """Every sanction in the order given, with whether it was lifted."""
        return tuple(
            (fact, number in self._lifted) for number, fact in enumerate(self._sanctions, 1)
        )

    def _deductions(self, stages: Iterable[str]) -> dict[str, int]:
        """Big points deducted per player in ``stages``."""
        wanted = set(stages)
        out: dict[str, int] = {}
        for (stage, pid), big in self._deducted.items():
            if stage in wanted:
                out[pid] = out.get(pid, 0) + big
        return out

    def deducted(self, stage: str | None = None) -> dict[str, int]:
        """Big points deducted per player, in ``stage`` or (None) in the whole event."""
        if stage is None:
            return self._deductions(s for s, _ in self._deducted)
        return self._deductions((stage,))

    @property
    def seeds(self) -> tuple[str, ...]:
        """The seeds declared (003 §10a), best first."""
        return self._seeds

    @property
    def phase(self) -> EventPhase:
        if not self._rounds:
            return EventPhase.REGISTRATION
        if not self._rounds[-1].closed:
            return EventPhase.PLAYING
        if len(self._rounds) == len(self.format.stages):
            return EventPhase.FINISHED
        return EventPhase.BETWEEN_ROUNDS

    def _open_round(self) -> DrawnRound | None:
        if self._rounds and not self._rounds[-1].closed:
            return self._rounds[-1]
        return None

    @property
    def current_stage(self) -> Stage | None:
        """The open stage, else the next one to draw; ``None`` when finished."""
        open_round = self._open_round()
        if open_round:
            return open_round.stage
        if len(self._rounds) < len(self.format.stages):
            return self.format.stages[len(self._rounds)]
        return None

    @property
    def stages_played(self) -> tuple[str, ...]:
        """Names of the stages drawn so far (the last may still be open)."""
        return tuple(r.stage.name for r in self._rounds)

    def _round(self, stage: str) -> DrawnRound:
        for rnd in self._rounds:
            if rnd.stage.name == stage:
                return rnd
        self.format.stage_index(stage)  # unknown name -> FormatError
        raise RoundStateError(N_("stage {stage} has not been drawn yet"), stage=stage_phrase(stage))

    def seating(self, stage: str) -> tuple[SeatedTable, ...]:
        return self._round(stage).tables

    def seed_of(self, stage: str) -> int:
        return self._round(stage).seed

    def results(self, stage: str) -> dict[tuple[int, int], dict[str, tuple[int, int]]]:
        """Recorded games of ``stage``: ``(table, game) -> {player: (big, small)}``."""
        return {k: dict(v) for k, v in self._round(stage).results.items()}

    def has_result(self, stage: str, table: int, game: int) -> bool:
        """Whether ``stage``'s table ``table`` has a recorded result for ``game`` (no copy)."""
        return (table, game) in self._round(stage).results

    def missing_results(self) -> tuple[MissingGame, ...]:
        """Games of the open stage that have no result yet (table, game)."""
        rnd = self._open_round()
        if rnd is None:
            return ()
        return tuple(
            MissingGame(t.number, g)
            for t in rnd.tables
            for g in range(1, rnd.stage.games + 1)
            if (t.number, g) not in rnd.results
        )

    def can_close(self) -> bool:
        return self._open_round() is not None and not self.missing_results()

    def _games(self, stages: Iterable[str]) -> list[GameScores]:
        wanted = set(stages)
        return [g for rnd in self._rounds if rnd.stage.name in wanted for g in rnd.games()]

    def decisions(self) -> tuple[TieDecided, ...]:
        """Every tie decision recorded, in order."""
        return tuple(d for ds in self._decisions.values() for d in ds)
