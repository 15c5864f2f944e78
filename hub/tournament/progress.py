"""The event as a fold over plain facts (pure: no I/O, no clock).

:class:`EventState` applies each fact (:mod:`hub.tournament.facts`) after checking
that it fits: a fact that does not raises a :class:`~hub.tournament.errors.TournamentError`
and leaves the state as it was. :meth:`EventState.replay` rebuilds the state from the
stored facts after a restart.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import msgspec

from hub.tournament.cuts import (
    RANKING_SCOPE,
    TieDecided,
    TieHow,
    lot_order,
)
from hub.tournament.errors import (
    DuplicatePlayerError,
    MissingResultsError,
    PlayerNameError,
    PlayerStatusError,
    ResultError,
    RoundStateError,
    SeatingMismatchError,
    TournamentError,
)
from hub.tournament.facts import (
    ConsolationDecided,
    Fact,
    GameRecorded,
    PlayerCheckedIn,
    PlayerDetailsChanged,
    PlayerLateArrived,
    PlayerRegistered,
    PlayerSanctioned,
    PlayerWithdrawn,
    RoundSeated,
    RoundUndone,
    SanctionKind,
    SanctionLifted,
    SeedsDeclared,
)
from hub.tournament.formats import (
    Rest,
    TournamentFormat,
)
from hub.tournament.players import Player
from hub.tournament.state import DrawnRound, Phase
from hub.tournament.state_draws import DrawingState
from tablekit.core.names import check_surname


def _check_name(what: str, name: str, surname: str) -> None:
    if not name.strip():
        raise PlayerNameError(f"{what}: the name is empty")
    try:
        check_surname(name, surname)
    except ValueError as err:
        raise PlayerNameError(f"{what}: {err}") from None


class EventState(DrawingState):
    """The tournament so far; immutable from outside: :meth:`apply` returns a new state."""

    @classmethod
    def replay(cls, fmt: TournamentFormat, facts: Iterable[Fact]) -> EventState:
        """Fold ``facts`` (in order) onto a new event of format ``fmt``."""
        state = cls(fmt)
        for fact in facts:
            state._apply_in_place(fact)
        return state

    def apply(self, fact: Fact) -> EventState:
        """The state after ``fact``; raises a :class:`TournamentError` if it does not fit."""
        other = self._clone()
        other._apply_in_place(fact)
        return other

    def _clone(self) -> EventState:
        other = EventState.__new__(EventState)
        other.format = self.format
        other._players = dict(self._players)
        other._present = set(self._present)
        other._withdrawn = dict(self._withdrawn)
        other._late = dict(self._late)
        other._seeds = self._seeds
        other._rounds = [*self._rounds[:-1], self._rounds[-1].copy()] if self._rounds else []
        other._disqualified = set(self._disqualified)
        other._dq_present = set(self._dq_present)
        other._sanctions = self._sanctions
        other._lifted = self._lifted
        other._deducted = dict(self._deducted)
        other._decisions = {scope: list(d) for scope, d in self._decisions.items()}
        other._consolation = dict(self._consolation)
        other._facts = self._facts
        return other

    def _apply_in_place(self, fact: Fact) -> None:
        if isinstance(fact, PlayerRegistered):
            self._register(fact.player)
        elif isinstance(fact, PlayerCheckedIn):
            self._arrive(fact.player_id, late=False)
        elif isinstance(fact, PlayerLateArrived):
            self._arrive(fact.player_id, late=True)
        elif isinstance(fact, PlayerWithdrawn):
            self._withdraw(fact.player_id, fact.reason)
        elif isinstance(fact, SeedsDeclared):
            self._declare_seeds(fact.player_ids)
        elif isinstance(fact, RoundSeated):
            self._seat(fact)
        elif isinstance(fact, GameRecorded):
            self._record(fact)
        elif isinstance(fact, PlayerSanctioned):
            self._sanction(fact)
        elif isinstance(fact, RoundUndone):
            self._undo(fact.stage)
        elif isinstance(fact, SanctionLifted):
            self._lift(fact.number)
        elif isinstance(fact, PlayerDetailsChanged):
            self._change_details(fact)
        elif isinstance(fact, TieDecided):
            self._decide(fact)
        elif isinstance(fact, ConsolationDecided):
            self._decide_consolation(fact)
        else:
            self._close(fact.stage, forced=fact.forced)
        self._facts += 1

    def _register(self, player: Player) -> None:
        if self.phase is Phase.FINISHED:
            raise RoundStateError(f"register {player.id!r}: the event is finished")
        if not player.id:
            raise DuplicatePlayerError(f"register: empty player id for {player.name!r}")
        if player.id in self._players:
            raise DuplicatePlayerError(f"register: player id {player.id!r} is already registered")
        _check_name(f"register {player.id!r}", player.name, player.surname)
        self._players[player.id] = player

    def _change_details(self, fact: PlayerDetailsChanged) -> None:
        what = f"change of {fact.player_id!r}"
        player = self._player(fact.player_id, what)
        _check_name(what, fact.name, fact.surname)
        self._players[player.id] = msgspec.structs.replace(
            player, name=fact.name, surname=fact.surname, club=fact.club
        )

    def _arrive(self, player_id: str, *, late: bool) -> None:
        what = "late arrival" if late else "check-in"
        self._player(player_id, what)
        if player_id in self._withdrawn:
            raise PlayerStatusError(f"{what}: player {player_id!r} has withdrawn")
        if player_id in self._disqualified:
            raise PlayerStatusError(f"{what}: player {player_id!r} is disqualified")
        if player_id in self._present:
            raise PlayerStatusError(f"{what}: player {player_id!r} is already present")
        if self.phase is Phase.FINISHED:
            raise RoundStateError(f"{what} of {player_id!r}: the event is finished")
        if late and not self._rounds:
            raise RoundStateError(
                f"late arrival of {player_id!r}: nothing is drawn yet, check the player in "
                f"instead (rummikub players check-in {player_id})"
            )
        if not late and self._rounds:
            raise RoundStateError(
                f"check-in of {player_id!r}: stage {self._rounds[0].stage.name!r} is already "
                f"drawn, record a late arrival instead (rummikub players late {player_id})"
            )
        self._present.add(player_id)
        if late:
            self._late[player_id] = len(self._rounds)

    def _withdraw(self, player_id: str, reason: str) -> None:
        self._player(player_id, "withdraw")
        if player_id in self._withdrawn:
            raise PlayerStatusError(f"withdraw: player {player_id!r} has already withdrawn")
        self._withdrawn[player_id] = reason
        self._present.discard(player_id)

    def _sanction(self, fact: PlayerSanctioned) -> None:
        pid = fact.player_id
        self._player(pid, f"{fact.kind}")
        if pid in self._disqualified:
            raise PlayerStatusError(f"{fact.kind}: player {pid!r} is already disqualified")
        if fact.stage:
            rnd = self._round(fact.stage)
            if pid not in rnd.player_ids():
                raise PlayerStatusError(
                    f"{fact.kind}: player {pid!r} does not play in stage {fact.stage!r}"
                )
        if fact.kind is SanctionKind.DEDUCTION:
            if not fact.stage:
                raise RoundStateError(
                    f"deduction for {pid!r}: the player has played no stage yet, no big points "
                    "to deduct"
                )
            if fact.big < 1:
                raise PlayerStatusError(
                    f"deduction for {pid!r}: deduct at least 1 big point, got {fact.big}"
                )
            key = (fact.stage, pid)
            self._deducted[key] = self._deducted.get(key, 0) + fact.big
        elif fact.big:
            raise PlayerStatusError(f"{fact.kind} for {pid!r}: only a deduction takes big points")
        if fact.kind is SanctionKind.DISQUALIFICATION:
            self._disqualified.add(pid)
            if pid in self._present:
                self._dq_present.add(pid)
                self._present.discard(pid)
        self._sanctions = (*self._sanctions, fact)

    def _lift(self, number: int) -> None:
        if not 1 <= number <= len(self._sanctions):
            raise PlayerStatusError(
                f"lift sanction {number}: there are sanctions 1–{len(self._sanctions)}"
                if self._sanctions
                else f"lift sanction {number}: no sanction is recorded"
            )
        if number in self._lifted:
            raise PlayerStatusError(f"lift sanction {number}: it is already lifted")
        fact = self._sanctions[number - 1]
        pid = fact.player_id
        if fact.kind is SanctionKind.DEDUCTION:
            key = (fact.stage, pid)
            self._deducted[key] -= fact.big
            if not self._deducted[key]:
                del self._deducted[key]
        elif fact.kind is SanctionKind.DISQUALIFICATION:
            self._disqualified.discard(pid)
            if pid in self._dq_present and pid not in self._withdrawn:
                self._present.add(pid)
            self._dq_present.discard(pid)
        self._lifted = self._lifted | {number}

    def _declare_seeds(self, player_ids: Sequence[str]) -> None:
        for pid in player_ids:
            self._player(pid, "seeds")
        if len(set(player_ids)) != len(player_ids):
            raise DuplicatePlayerError(f"seeds: a player is listed twice in {list(player_ids)}")
        if self._rounds:
            raise RoundStateError("seeds: the first stage is already drawn")
        self._seeds = tuple(player_ids)

    def _seat(self, fact: RoundSeated) -> None:
        if self.phase is Phase.PLAYING:
            raise RoundStateError(
                f"seat {fact.stage!r}: stage {self._rounds[-1].stage.name!r} is still open"
            )
        if len(self._rounds) == len(self.format.stages):
            raise RoundStateError(f"seat {fact.stage!r}: the event is finished")
        stage = self.format.stages[len(self._rounds)]
        if fact.stage != stage.name:
            raise RoundStateError(f"seat {fact.stage!r}: the next stage to draw is {stage.name!r}")
        seated = [pid for table in fact.tables for pid in table.players]
        for pid in seated:
            self._player(pid, f"seat {fact.stage!r}")
        if len(set(seated)) != len(seated):
            raise DuplicatePlayerError(f"seat {fact.stage!r}: a player sits at two tables")
        for table in fact.tables:
            if not 3 <= len(table.players) <= 4:
                raise RoundStateError(
                    f"seat {fact.stage!r}: table {table.number} has {len(table.players)} "
                    "players, a table seats 3 or 4"
                )
        self._rounds.append(DrawnRound(stage, fact.seed, fact.tables))

    def _decide(self, fact: TieDecided) -> None:
        what = f"tie decision in {fact.scope!r}"
        for pid in fact.order:
            self._player(pid, what)
        if len(fact.order) < 2 or len(set(fact.order)) != len(fact.order):
            raise DuplicatePlayerError(
                f"{what}: name two or more different players, got {list(fact.order)}"
            )
        if fact.how is TieHow.LOT:
            if fact.seed is None:
                raise TournamentError(f"{what}: a lot needs its seed")
            if lot_order(fact.order, fact.seed) != fact.order:
                raise SeatingMismatchError(
                    f"{what}: the order is not the lot of seed {fact.seed}"
                )
        if fact.how is TieHow.SHARED and fact.scope != RANKING_SCOPE:
            raise TournamentError(
                f"{what}: only final places can stay shared; a cut needs an order"
            )
        self._level_keys(fact.scope)  # the scope exists and its ranking is final
        self._decisions.setdefault(fact.scope, []).append(fact)

    def _decide_consolation(self, fact: ConsolationDecided) -> None:
        what = f"consolation of {fact.stage!r}"
        stage = self.format.stages[self.format.stage_index(fact.stage)]
        if fact.stage in self.stages_played:
            raise RoundStateError(f"{what}: stage {fact.stage!r} is already drawn")
        if not any(isinstance(g.entry, Rest) for g in stage.groups):
            raise RoundStateError(f"{what}: stage {fact.stage!r} has no consolation games")
        if fact.promote < 0 or (fact.none and fact.promote):
            raise TournamentError(f"{what}: promote some players, or none play, not both")
        self._consolation[fact.stage] = fact

    def _undo(self, stage: str) -> None:
        rnd = self._open_round()
        if rnd is None or rnd.stage.name != stage:
            latest = self._rounds[-1].stage.name if self._rounds else None
            raise RoundStateError(
                f"undo the draw of {stage!r}: only the latest draw, while its round is open, "
                f"can be undone (latest: {latest!r}"
                + (", closed)" if latest and rnd is None else ")")
            )
        if rnd.results:
            games = ", ".join(f"table {t} game {g}" for t, g in sorted(rnd.results))
            raise RoundStateError(
                f"undo the draw of {stage!r}: results are recorded ({games}); the round "
                "has been played"
            )
        self._rounds.pop()

    def _record(self, fact: GameRecorded) -> None:
        if not self._rounds:
            raise ResultError(f"result for {fact.stage!r}: nothing is drawn yet")
        index = next(
            (i for i, r in enumerate(self._rounds) if r.stage.name == fact.stage), None
        )
        if index is None:
            drawn = ", ".join(r.stage.name for r in self._rounds)
            raise ResultError(f"result for {fact.stage!r}: not drawn (drawn: {drawn})")
        if index < len(self._rounds) - 1:
            # Earlier rounds are shared between states (see _clone): copy before writing.
            self._rounds[index] = self._rounds[index].copy()
        rnd = self._rounds[index]
        if not 1 <= fact.table <= len(rnd.tables):
            raise ResultError(
                f"result for {fact.stage!r}: no table {fact.table} (tables 1–{len(rnd.tables)})"
            )
        if not 1 <= fact.game <= rnd.stage.games:
            raise ResultError(
                f"result for {fact.stage!r} table {fact.table}: no game {fact.game} "
                f"(games 1–{rnd.stage.games})"
            )
        seated = rnd.tables[fact.table - 1].players
        given = [s.player_id for s in fact.scores]
        if sorted(given) != sorted(seated):
            raise ResultError(
                f"result for {fact.stage!r} table {fact.table} game {fact.game}: players "
                f"{sorted(given)} do not match the table's {sorted(seated)}"
            )
        rnd.results[(fact.table, fact.game)] = {s.player_id: (s.big, s.small) for s in fact.scores}

    def _close(self, stage: str, *, forced: bool = False) -> None:
        open_round = self._open_round()
        if open_round is None or open_round.stage.name != stage:
            open_name = open_round.stage.name if open_round else None
            raise RoundStateError(
                f"close {stage!r}: it is not the open stage (open: {open_name!r})"
            )
        missing = self.missing_results()
        if missing and not forced:
            listed = ", ".join(f"table {m.table} game {m.game}" for m in missing)
            raise MissingResultsError(f"close {stage!r}: no result for {listed}")
        self._rounds[-1].closed = True


def replay_draws(
    fmt: TournamentFormat, facts: Iterable[Fact]
) -> tuple[EventState, dict[str, RoundSeated | TournamentError]]:
    """Fold ``facts`` and, at each recorded draw, the draw the kit would make from the
    state just before it with the same seed (or why it could not draw): what a
    correction of an earlier result would change is the difference between two such
    folds. The recorded tables are applied, so later results still fit."""
    state = EventState(fmt)
    draws: dict[str, RoundSeated | TournamentError] = {}
    for fact in facts:
        if isinstance(fact, RoundSeated):
            try:
                draws[fact.stage] = state.draw_next(fact.seed)
            except TournamentError as err:
                draws[fact.stage] = err
        state._apply_in_place(fact)
    return state, draws


def seat_next(state: EventState, seed: int) -> tuple[EventState, RoundSeated]:
    """Draw the next stage with ``seed`` and apply it: the new state and the fact to store."""
    fact = state.draw_next(seed)
    return state.apply(fact), fact
