"""The event as a fold over plain facts (pure: no I/O, no clock).

:class:`EventState` applies each fact (:mod:`hub.tournament.facts`) after checking
that it fits: a fact that does not raises a :class:`~hub.tournament.errors.TournamentError`
and leaves the state as it was. :meth:`EventState.replay` rebuilds the state from the
stored facts after a restart.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Final

import msgspec

from hub.tournament.cuts import (
    RANKING_SCOPE,
    TieDecided,
    TieHow,
    lot_order,
    scope_phrase,
)
from hub.tournament.errors import (
    DuplicatePlayerError,
    LeagueNumberError,
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
from hub.tournament.players import Player, league_number
from hub.tournament.stage_words import stage_phrase
from hub.tournament.state import DrawnRound, EventPhase
from hub.tournament.state_draws import DrawingState
from tablekit.core.errors import Phrase, joined
from tablekit.core.names import SurnameError, check_surname
from tablekit.core.words import N_

SANCTION_WORDS: Final[Mapping[SanctionKind, str]] = {
    SanctionKind.WARNING: N_("warning"),
    SanctionKind.DEDUCTION: N_("deduction"),
    SanctionKind.DISQUALIFICATION: N_("disqualification"),
}
"""A sanction's name in a message (002's words: upomnienie, odjęcie dużych punktów,
wykluczenie)."""


def _check_name(what: Phrase, name: str, surname: str) -> None:
    if not name.strip():
        raise PlayerNameError(N_("{what}: the name is empty"), what=what)
    try:
        check_surname(name, surname)
    except SurnameError as err:
        raise PlayerNameError(N_("{what}: {error}"), what=what, error=err) from None


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

    def renamed(self, players: Mapping[str, Player]) -> EventState:
        """The same event with some players' details shown otherwise (``players`` by id:
        another name, no club): for a publication, or after personal data is erased. The
        ids stay, so every result, seating and sanction stays the player's."""
        other = self._clone()
        for pid, player in players.items():
            if pid in other._players:
                other._players[pid] = player
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
        if self.phase is EventPhase.FINISHED:
            raise RoundStateError(
                N_("register {player!r}: the event is finished"), player=player.id
            )
        if not player.id:
            raise DuplicatePlayerError(
                N_("register: empty player id for {name!r}"), name=player.name
            )
        if player.id in self._players:
            raise DuplicatePlayerError(
                N_("register: player id {player!r} is already registered"), player=player.id
            )
        what = Phrase(N_("register {player!r}"), player=player.id)
        _check_name(what, player.name, player.surname)
        self._check_league_number(what, player.id, player.league_number)
        self._players[player.id] = player

    def _change_details(self, fact: PlayerDetailsChanged) -> None:
        what = Phrase(N_("change of {player!r}"), player=fact.player_id)
        player = self._player(fact.player_id, what)
        _check_name(what, fact.name, fact.surname)
        number = player.league_number if fact.league_number is None else fact.league_number
        self._check_league_number(what, player.id, number)
        gender = player.gender if fact.gender is None else fact.gender
        self._players[player.id] = msgspec.structs.replace(
            player, name=fact.name, surname=fact.surname, club=fact.club, league_number=number,
            gender=gender,
        )

    def _check_league_number(self, what: Phrase, player_id: str, number: str) -> None:
        """A league number is one person's: well formed, and no other player's here."""
        if not number:
            return
        try:
            stored = league_number(number)
        except LeagueNumberError:
            stored = ""
        if stored != number:
            raise LeagueNumberError(
                N_("{what}: league number {number!r} is not written as stored (upper case, "
                   "letters, digits, '-', '/' or '.')"),
                what=what, number=number,
            )
        for other in self._players.values():
            if other.league_number == number and other.id != player_id:
                raise LeagueNumberError(
                    N_("{what}: league number {number} is {other}'s already"),
                    what=what, number=number, other=other.id,
                )

    def _arrive(self, player_id: str, *, late: bool) -> None:
        what = Phrase(N_("late arrival") if late else N_("check-in"))
        self._player(player_id, what)
        if player_id in self._withdrawn:
            raise PlayerStatusError(
                N_("{what}: player {player!r} has withdrawn"), what=what, player=player_id
            )
        if player_id in self._disqualified:
            raise PlayerStatusError(
                N_("{what}: player {player!r} is disqualified"), what=what, player=player_id
            )
        if player_id in self._present:
            raise PlayerStatusError(
                N_("{what}: player {player!r} is already present"), what=what, player=player_id
            )
        if self.phase is EventPhase.FINISHED:
            raise RoundStateError(
                N_("late arrival of {player!r}: the event is finished")
                if late else N_("check-in of {player!r}: the event is finished"),
                player=player_id,
            )
        if late and not self._rounds:
            raise RoundStateError(
                N_("late arrival of {player!r}: nothing is drawn yet, check the player in "
                   "instead (rummikub players check-in {player})"),
                player=player_id,
            )
        if not late and self._rounds:
            raise RoundStateError(
                N_("check-in of {player!r}: stage {stage} is already drawn, record a late "
                   "arrival instead (rummikub players late {player})"),
                player=player_id, stage=stage_phrase(self._rounds[0].stage.name),
            )
        self._present.add(player_id)
        if late:
            self._late[player_id] = len(self._rounds)

    def _withdraw(self, player_id: str, reason: str) -> None:
        self._player(player_id, Phrase(N_("withdraw")))
        if player_id in self._withdrawn:
            raise PlayerStatusError(
                N_("withdraw: player {player!r} has already withdrawn"), player=player_id
            )
        self._withdrawn[player_id] = reason
        self._present.discard(player_id)

    def _sanction(self, fact: PlayerSanctioned) -> None:
        pid = fact.player_id
        kind = Phrase(SANCTION_WORDS[fact.kind])
        self._player(pid, kind)
        if pid in self._disqualified:
            raise PlayerStatusError(
                N_("{what}: player {player!r} is already disqualified"), what=kind, player=pid
            )
        if fact.stage:
            rnd = self._round(fact.stage)
            if pid not in rnd.player_ids():
                raise PlayerStatusError(
                    N_("{what}: player {player!r} does not play in stage {stage}"),
                    what=kind, player=pid, stage=stage_phrase(fact.stage),
                )
        if fact.kind is SanctionKind.DEDUCTION:
            if not fact.stage:
                raise RoundStateError(
                    N_("deduction for {player!r}: the player has played no stage yet, no big "
                       "points to deduct"),
                    player=pid,
                )
            if fact.big < 1:
                raise PlayerStatusError(
                    N_("deduction for {player!r}: deduct at least 1 big point, got {big}"),
                    player=pid, big=fact.big,
                )
            key = (fact.stage, pid)
            self._deducted[key] = self._deducted.get(key, 0) + fact.big
        elif fact.big:
            raise PlayerStatusError(
                N_("{what} for {player!r}: only a deduction takes big points"),
                what=kind, player=pid,
            )
        if fact.kind is SanctionKind.DISQUALIFICATION:
            self._disqualified.add(pid)
            if pid in self._present:
                self._dq_present.add(pid)
                self._present.discard(pid)
        self._sanctions = (*self._sanctions, fact)

    def _lift(self, number: int) -> None:
        if not 1 <= number <= len(self._sanctions):
            raise PlayerStatusError(
                N_("lift sanction {number}: there are sanctions 1–{last}")
                if self._sanctions
                else N_("lift sanction {number}: no sanction is recorded"),
                number=number, last=len(self._sanctions),
            )
        if number in self._lifted:
            raise PlayerStatusError(
                N_("lift sanction {number}: it is already lifted"), number=number
            )
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
            self._player(pid, Phrase(N_("seeds")))
        if len(set(player_ids)) != len(player_ids):
            raise DuplicatePlayerError(
                N_("seeds: a player is listed twice in {players}"), players=list(player_ids)
            )
        if self._rounds:
            raise RoundStateError(N_("seeds: the first stage is already drawn"))
        self._seeds = tuple(player_ids)

    def _seat(self, fact: RoundSeated) -> None:
        if self.phase is EventPhase.PLAYING:
            raise RoundStateError(
                N_("seat {stage}: stage {open} is still open"),
                stage=stage_phrase(fact.stage), open=stage_phrase(self._rounds[-1].stage.name),
            )
        if len(self._rounds) == len(self.format.stages):
            raise RoundStateError(
                N_("seat {stage}: the event is finished"), stage=stage_phrase(fact.stage)
            )
        stage = self.format.stages[len(self._rounds)]
        if fact.stage != stage.name:
            raise RoundStateError(
                N_("seat {stage}: the next stage to draw is {next}"),
                stage=stage_phrase(fact.stage), next=stage_phrase(stage.name),
            )
        seated = [pid for table in fact.tables for pid in table.players]
        for pid in seated:
            self._player(pid, Phrase(N_("seat {stage}"), stage=stage_phrase(fact.stage)))
        if len(set(seated)) != len(seated):
            raise DuplicatePlayerError(
                N_("seat {stage}: a player sits at two tables"), stage=stage_phrase(fact.stage)
            )
        for table in fact.tables:
            if not 3 <= len(table.players) <= 4:
                raise RoundStateError(
                    N_("seat {stage}: table {table} has {count} players, a table seats 3 "
                       "or 4"),
                    stage=stage_phrase(fact.stage), table=table.number, count=len(table.players),
                )
        self._rounds.append(DrawnRound(stage, fact.seed, fact.tables))

    def _decide(self, fact: TieDecided) -> None:
        what = Phrase(N_("tie decision ({where})"), where=scope_phrase(fact.scope))
        for pid in fact.order:
            self._player(pid, what)
        if len(fact.order) < 2 or len(set(fact.order)) != len(fact.order):
            raise DuplicatePlayerError(
                N_("{what}: name two or more different players, got {players}"),
                what=what, players=list(fact.order),
            )
        if fact.how is TieHow.LOT:
            if fact.seed is None:
                raise TournamentError(N_("{what}: a lot needs its seed"), what=what)
            if lot_order(fact.order, fact.seed) != fact.order:
                raise SeatingMismatchError(
                    N_("{what}: the order is not the lot of seed {seed}"),
                    what=what, seed=fact.seed,
                )
        if fact.how is TieHow.SHARED and fact.scope != RANKING_SCOPE:
            raise TournamentError(
                N_("{what}: only final places can stay shared; a cut needs an order"),
                what=what,
            )
        self._level_keys(fact.scope)  # the scope exists and its ranking is final
        self._decisions.setdefault(fact.scope, []).append(fact)

    def _decide_consolation(self, fact: ConsolationDecided) -> None:
        stage = self.format.stages[self.format.stage_index(fact.stage)]
        if fact.stage in self.stages_played:
            raise RoundStateError(
                N_("consolation of {stage}: stage {stage} is already drawn"),
                stage=stage_phrase(fact.stage),
            )
        if not any(isinstance(g.entry, Rest) for g in stage.groups):
            raise RoundStateError(
                N_("consolation of {stage}: stage {stage} has no consolation games"),
                stage=stage_phrase(fact.stage),
            )
        if fact.promote < 0 or (fact.none and fact.promote):
            raise TournamentError(
                N_("consolation of {stage}: promote some players, or none play, not both"),
                stage=stage_phrase(fact.stage),
            )
        self._consolation[fact.stage] = fact

    def _undo(self, stage: str) -> None:
        rnd = self._open_round()
        if rnd is None or rnd.stage.name != stage:
            latest = self._rounds[-1].stage.name if self._rounds else None
            raise RoundStateError(
                N_("undo the draw of {stage}: only the latest draw, while its round is open, "
                   "can be undone (latest: {latest}, closed)")
                if latest and rnd is None
                else N_("undo the draw of {stage}: only the latest draw, while its round is "
                        "open, can be undone (latest: {latest})"),
                stage=stage_phrase(stage), latest=stage_phrase(latest) if latest else "—",
            )
        if rnd.results:
            games = _games_listed(sorted(rnd.results))
            raise RoundStateError(
                N_("undo the draw of {stage}: results are recorded ({games}); the round "
                   "has been played"),
                stage=stage_phrase(stage), games=games,
            )
        self._rounds.pop()

    def _record(self, fact: GameRecorded) -> None:
        if not self._rounds:
            raise ResultError(
                N_("result for {stage}: nothing is drawn yet"), stage=stage_phrase(fact.stage)
            )
        index = next(
            (i for i, r in enumerate(self._rounds) if r.stage.name == fact.stage), None
        )
        if index is None:
            drawn = ", ".join(r.stage.name for r in self._rounds)
            raise ResultError(
                N_("result for {stage}: not drawn (drawn: {drawn})"),
                stage=stage_phrase(fact.stage), drawn=drawn,
            )
        if index < len(self._rounds) - 1:
            # Earlier rounds are shared between states (see _clone): copy before writing.
            self._rounds[index] = self._rounds[index].copy()
        rnd = self._rounds[index]
        if not 1 <= fact.table <= len(rnd.tables):
            raise ResultError(
                N_("result for {stage}: no table {table} (tables 1–{last})"),
                stage=stage_phrase(fact.stage), table=fact.table, last=len(rnd.tables),
            )
        if not 1 <= fact.game <= rnd.stage.games:
            raise ResultError(
                N_("result for {stage} table {table}: no game {game} (games 1–{last})"),
                stage=stage_phrase(fact.stage), table=fact.table, game=fact.game,
                last=rnd.stage.games,
            )
        seated = rnd.tables[fact.table - 1].players
        given = [s.player_id for s in fact.scores]
        if sorted(given) != sorted(seated):
            raise ResultError(
                N_("result for {stage} table {table} game {game}: players {given} do not "
                   "match the table's {seated}"),
                stage=stage_phrase(fact.stage), table=fact.table, game=fact.game,
                given=sorted(given), seated=sorted(seated),
            )
        rnd.results[(fact.table, fact.game)] = {s.player_id: (s.big, s.small) for s in fact.scores}

    def _close(self, stage: str, *, forced: bool = False) -> None:
        open_round = self._open_round()
        if open_round is None or open_round.stage.name != stage:
            open_name = stage_phrase(open_round.stage.name) if open_round else None
            raise RoundStateError(
                N_("close {stage}: it is not the open stage (open: {open})"),
                stage=stage_phrase(stage), open=open_name,
            )
        missing = self.missing_results()
        if missing and not forced:
            listed = _games_listed((m.table, m.game) for m in missing)
            raise MissingResultsError(
                N_("close {stage}: no result for {games}"), stage=stage_phrase(stage), games=listed
            )
        self._rounds[-1].closed = True


def _games_listed(games: Iterable[tuple[int, int]]) -> Phrase:
    """``table 1 game 2, table 3 game 1``, in the reader's language."""
    listed = [Phrase(N_("table {table} game {game}"), table=t, game=g) for t, g in games]
    return joined(listed, ", ")


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
