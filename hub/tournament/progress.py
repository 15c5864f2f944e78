"""The event as a fold over plain facts (pure: no I/O, no clock).

The hub stores :data:`Fact` values as events and rebuilds :class:`EventState` from them
after a restart with :meth:`EventState.replay`. Fact types (msgspec Structs, tagged by
the ``fact`` field in JSON):

* :class:`PlayerRegistered` — a player joins the registration list (any time before the
  end; a walk-in during the event is registered, then :class:`PlayerLateArrived`).
* :class:`PlayerCheckedIn` — a registered player is present before the first draw.
  Only present players are drawn; registered players who never check in are ignored.
* :class:`PlayerLateArrived` — a registered player turns up after the first draw; they
  join the next stage whose entry is "everyone" (later selections by earlier results
  cannot include someone who did not play those results).
* :class:`PlayerWithdrawn` — leaves the event; takes effect at the next draw (results
  of the round being played are still expected). Withdrawn players are never selected
  again; in the final ranking they stay in the block of the last stage they played.
* :class:`SeedsDeclared` — players to keep at different first-stage tables (league
  seeding, best first); without it the highest-rated present players (``Player.rating``)
  are seeded; with no ratings at all the draw is unseeded.
* :class:`RoundSeated` — the next stage was drawn with ``seed``. The recorded tables are
  what was played, so replay trusts them (a later hub version with a different draw
  still loads the event); :meth:`EventState.audit_draw` recomputes the draw from the
  seed to audit it (:class:`SeatingMismatchError` when the tables differ).
* :class:`GameRecorded` — one game's result at one table, per player ``(big, small)``.
  Recording the same game again replaces it (a correction; who/why is the hub's record).
  A result may be recorded or corrected for any drawn stage at any time: an earlier
  stage's standings change, the stages drawn since keep their recorded tables (the hub
  shows what a correction changes before it is stored).
* :class:`RoundClosed` — the stage's results are complete; the next stage may be drawn.
* :class:`RoundUndone` — the latest draw is taken back (before any of its results): the
  stage is drawn again later, as if it had never been.
* :class:`PlayerSanctioned` — a judge's sanction (002 §3, RULES.md §3.5): a warning
  (recorded, no points), a deduction of big points (taken off the player's total in the
  stage it was given in, wherever that stage's games count) or a disqualification (the
  player is never seated again and is ranked after everyone, without a title or league
  points). Who, when and why are the hub's record.
* :class:`SanctionLifted` — a judge takes back sanction ``number`` (counted from 1 in the
  order given): its points come back, a disqualified player is active again (and
  present again if the disqualification took them off the list of those present).
* :class:`PlayerDetailsChanged` — a player's name (with its surname part) or club is
  corrected: a typo in the registration list, a school written two ways, a surname of two
  words. The id stays, so every result, seating and sanction stays the player's; every
  list shows the new name. Allowed at any time, a finished event too. Who, when and why
  are the hub's record.
* :class:`~hub.tournament.cuts.TieDecided` — the head judge's decision on players level
  at a cut (:mod:`hub.tournament.cuts`): their order, a lot the judge ordered, or (final
  places only) a shared place. A draw that meets an undecided tie at a cut raises
  :class:`~hub.tournament.cuts.TieAtCutError` naming the players.

Each stage is one round. Within a draw, the generator ``random.Random(seed)`` first
draws one lot number per registered player (in id order) used to order level players
where it changes nothing they can reach (a seeded order, seat A), then seats the groups
in order. Level players whose order decides what they reach are never ordered by it.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterable, Mapping, Sequence, Set

import msgspec

from hub.tournament.cuts import (
    RANKING_SCOPE,
    Tie,
    TieAtCutError,
    TieDecided,
    TieHow,
    lot_order,
    resolve,
    split_scope,
    table_scope,
)
from hub.tournament.draw import draw_avoiding_repeats, met_pairs
from hub.tournament.errors import (
    DuplicatePlayerError,
    MissingResultsError,
    PlayerCountError,
    PlayerNameError,
    PlayerStatusError,
    ResultError,
    RoundStateError,
    SeatingMismatchError,
    TournamentError,
    UnknownPlayerError,
)
from hub.tournament.formats import (
    Everyone,
    Group,
    RankRule,
    Rest,
    Selector,
    Stage,
    TablePlaces,
    TopAcrossTables,
    TopOverall,
    TournamentFormat,
)
from hub.tournament.league import award_points, tournament_points
from hub.tournament.players import Player, by_rating
from hub.tournament.ranking import RankingRow, stack_blocks, title_for
from hub.tournament.seating import (
    Seating,
    SeatingMethod,
    TablePlacing,
    by_standings,
    by_table_placement,
    league_seeded,
    random_draw,
    seeded_snake,
    table_sizes,
)
from hub.tournament.standings import (
    GameScores,
    StandingRow,
    Standings,
    compute_standings,
    lot_keys,
    standings_from_totals,
    totals,
)
from tablekit.core.names import check_surname

LEAGUE_SEEDS = 4


# --------------------------------------------------------------------------- facts


class PlayerScore(msgspec.Struct, frozen=True):
    player_id: str
    big: int
    small: int


class SeatedTable(msgspec.Struct, frozen=True):
    """Table ``number`` (from 1, across the stage) of group ``group``, seat order A…D."""

    number: int
    group: str
    players: tuple[str, ...]


class PlayerRegistered(msgspec.Struct, frozen=True, tag="player-registered", tag_field="fact"):
    player: Player


class PlayerCheckedIn(msgspec.Struct, frozen=True, tag="player-checked-in", tag_field="fact"):
    player_id: str


class PlayerLateArrived(msgspec.Struct, frozen=True, tag="player-late-arrived", tag_field="fact"):
    player_id: str


class PlayerWithdrawn(msgspec.Struct, frozen=True, tag="player-withdrawn", tag_field="fact"):
    player_id: str
    reason: str = ""


class SeedsDeclared(msgspec.Struct, frozen=True, tag="seeds-declared", tag_field="fact"):
    player_ids: tuple[str, ...]


class RoundSeated(msgspec.Struct, frozen=True, tag="round-seated", tag_field="fact"):
    stage: str
    seed: int
    tables: tuple[SeatedTable, ...]
    #: Pairs seated together who already sat together earlier in the event.
    repeats: int = 0


class GameRecorded(msgspec.Struct, frozen=True, tag="game-recorded", tag_field="fact"):
    stage: str
    table: int
    game: int
    scores: tuple[PlayerScore, ...]


class RoundClosed(msgspec.Struct, frozen=True, tag="round-closed", tag_field="fact"):
    stage: str
    #: The judge closed it with games missing: those games count as not played.
    forced: bool = False


class ConsolationDecided(
    msgspec.Struct, frozen=True, tag="consolation-decided", tag_field="fact"
):
    """The organizer's seating of the players who do not qualify for ``stage`` when they
    cannot sit at consolation tables of 3 or 4 (003 §10e: the organizer adjusts the
    tables): the best ``promote`` of them join the qualifiers' group, or (``none``) they
    play no more games."""

    stage: str
    promote: int = 0
    none: bool = False


class ConsolationError(RoundStateError):
    """Players left for consolation games who cannot sit at tables of 3 or 4, and no
    decision of the organizer for them yet; ``options`` are the ``promote`` counts that
    seat everyone."""

    def __init__(self, stage: str, main: str, players: Sequence[str], options: Sequence[int]):
        self.stage = stage
        self.players = tuple(players)
        self.options = tuple(options)
        n = len(players)
        choices = "; ".join(
            f"promote {k} (the best {k} join {main}, "
            + (f"{n - k} play the consolation games)" if k < n else "everyone plays on)")
            for k in options
        )
        super().__init__(
            f"draw {stage!r}: {n} player(s) do not reach {main} ({', '.join(players)}, best "
            f"first) and "
            f"cannot sit at consolation tables of 3 or 4; 003 §7 wants at least 4 games each "
            f"and §10e lets the organizer adjust the tables — the organizer decides: "
            f"{choices}; or none (they play no more games)"
        )


class RoundUndone(msgspec.Struct, frozen=True, tag="round-undone", tag_field="fact"):
    stage: str


class SanctionKind(enum.StrEnum):
    WARNING = "warning"
    """Ostrzeżenie: recorded and shown, no points."""
    DEDUCTION = "deduction"
    """Odjęcie dużych punktów (002 §3)."""
    DISQUALIFICATION = "disqualification"
    """Dyskwalifikacja: never seated again, ranked after everyone."""


class SanctionLifted(msgspec.Struct, frozen=True, tag="sanction-lifted", tag_field="fact"):
    number: int
    """The sanction taken back, counted from 1 in the order the sanctions were given."""


class PlayerSanctioned(msgspec.Struct, frozen=True, tag="player-sanctioned", tag_field="fact"):
    player_id: str
    kind: SanctionKind
    stage: str = ""
    """The stage it was given in ("" before the first draw); a deduction counts there."""
    big: int = 0
    """Big points deducted (a deduction only)."""


class PlayerDetailsChanged(
    msgspec.Struct, frozen=True, tag="player-details-changed", tag_field="fact"
):
    """The player's name, surname and club from now on (the rating stays)."""

    player_id: str
    name: str
    surname: str = ""
    """The end of ``name`` that is the surname; "" = the last word."""
    club: str | None = None


Fact = (
    PlayerRegistered
    | PlayerCheckedIn
    | PlayerLateArrived
    | PlayerWithdrawn
    | SeedsDeclared
    | RoundSeated
    | GameRecorded
    | RoundClosed
    | PlayerSanctioned
    | RoundUndone
    | PlayerDetailsChanged
    | TieDecided
    | SanctionLifted
    | ConsolationDecided
)


def encode_fact(fact: Fact) -> bytes:
    return msgspec.json.encode(fact)


def decode_fact(data: bytes | str) -> Fact:
    fact: Fact = msgspec.json.decode(data, type=Fact)
    return fact


def check_in_all(players: Iterable[Player]) -> list[Fact]:
    """Facts registering and checking in ``players`` (the usual start of an event)."""
    facts: list[Fact] = []
    for player in players:
        facts.append(PlayerRegistered(player))
        facts.append(PlayerCheckedIn(player.id))
    return facts


def _check_name(what: str, name: str, surname: str) -> None:
    if not name.strip():
        raise PlayerNameError(f"{what}: the name is empty")
    try:
        check_surname(name, surname)
    except ValueError as err:
        raise PlayerNameError(f"{what}: {err}") from None


# --------------------------------------------------------------------------- state


class Phase(enum.StrEnum):
    REGISTRATION = "registration"  # nothing drawn yet
    PLAYING = "playing"  # a stage is seated and open
    BETWEEN_ROUNDS = "between-rounds"  # the last stage is closed, more to come
    FINISHED = "finished"


class MissingGame(msgspec.Struct, frozen=True):
    table: int
    game: int


class _Round:
    __slots__ = ("closed", "results", "seed", "stage", "tables")

    def __init__(self, stage: Stage, seed: int, tables: tuple[SeatedTable, ...]) -> None:
        self.stage = stage
        self.seed = seed
        self.tables = tables
        self.results: dict[tuple[int, int], dict[str, tuple[int, int]]] = {}
        self.closed = False

    def copy(self) -> _Round:
        other = _Round(self.stage, self.seed, self.tables)
        other.results = dict(self.results)
        other.closed = self.closed
        return other

    def games(self) -> list[GameScores]:
        return list(self.results.values())

    def table_games(self, number: int) -> list[GameScores]:
        return [g for (t, _), g in self.results.items() if t == number]

    def player_ids(self) -> list[str]:
        return [pid for t in self.tables for pid in t.players]


class EventState:
    """The tournament so far; immutable from outside: :meth:`apply` returns a new state."""

    def __init__(self, fmt: TournamentFormat) -> None:
        self.format = fmt.validate()
        self._players: dict[str, Player] = {}
        self._present: set[str] = set()
        self._withdrawn: dict[str, str] = {}
        self._late: dict[str, int] = {}
        self._seeds: tuple[str, ...] = ()
        self._rounds: list[_Round] = []
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

    # ---- building

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

    def _player(self, player_id: str, what: str) -> Player:
        try:
            return self._players[player_id]
        except KeyError:
            raise UnknownPlayerError(f"{what}: unknown player {player_id!r}") from None

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
        self._rounds.append(_Round(stage, fact.seed, fact.tables))

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

    def check_tie(self, scope: str, players: Sequence[str]) -> None:
        """Refuse a decision naming players who are not level in ``scope`` now.

        Checked when the judge records it, not when stored decisions are folded: a later
        correction of an earlier game may part the players, and then the decision simply
        orders nobody (big and small points decide first)."""
        what = f"tie decision in {scope!r}"
        keys = self._level_keys(scope)
        unknown = [pid for pid in players if pid not in keys]
        if unknown:
            raise UnknownPlayerError(f"{what}: {', '.join(unknown)} not ranked there")
        if len({keys[pid] for pid in players}) != 1:
            shown = ", ".join(f"{pid} {keys[pid][1]} BP {keys[pid][2]:+d} SP" for pid in players)
            raise TournamentError(f"{what}: the players are not level there ({shown})")
        level = {pid for pid, key in keys.items() if key == keys[players[0]]}
        if scope != RANKING_SCOPE:  # a draw leaves withdrawn players out
            level = {pid for pid in level if self._active(pid)}
        missing = sorted(level - set(players))
        if missing:
            raise TournamentError(
                f"{what}: name every player level there, best first: also {', '.join(missing)}"
            )

    def _level_keys(self, scope: str) -> dict[str, tuple[int, int, int]]:
        """``(place, big, small)`` of every player ranked in ``scope``, for checking that
        a decision names level players; the scope's ranking must be final."""
        if scope == RANKING_SCOPE:
            if self.phase is not Phase.FINISHED:
                raise RoundStateError(
                    f"tie decision in {scope!r}: the event is not finished ({self.phase})"
                )
            return {r.player_id: (r.place, r.big, r.small) for r in self._raw_ranking()}
        stage, table = split_scope(scope)
        rnd = self._round(stage)
        if not rnd.closed:
            raise RoundStateError(
                f"tie decision in {scope!r}: stage {stage!r} is still being played"
            )
        if table is not None:
            standings = self.table_standings(stage, table)
            return {r.player_id: (r.place, r.big, r.small) for r in standings.rows}
        keys = {r.player_id: (r.place, r.big, r.small) for r in self._stage_ranking(rnd).rows}
        if rnd.stage.ranking is RankRule.TOTALS:
            return keys
        placings, _ = self._active_placings(rnd, {})
        return {p.player_id: (p.place, p.big, p.small) for p in placings}

    def audit_draw(self, fact: RoundSeated) -> None:
        """Check that ``fact`` is exactly the draw of its seed from this state (the one
        before it was applied); :class:`SeatingMismatchError` if not."""
        expected = self.draw_next(fact.seed)
        if fact.stage != expected.stage or fact.tables != expected.tables:
            raise SeatingMismatchError(
                f"seat {fact.stage!r}: the recorded tables differ from the draw of seed {fact.seed}"
            )

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

    # ---- status

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

    def deducted(self, stage: str | None = None) -> dict[str, int]:
        """Big points deducted per player, in ``stage`` or (None) in the whole event."""
        if stage is None:
            return self._deductions(s for s, _ in self._deducted)
        return self._deductions((stage,))

    @property
    def phase(self) -> Phase:
        if not self._rounds:
            return Phase.REGISTRATION
        if not self._rounds[-1].closed:
            return Phase.PLAYING
        if len(self._rounds) == len(self.format.stages):
            return Phase.FINISHED
        return Phase.BETWEEN_ROUNDS

    def _open_round(self) -> _Round | None:
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

    def _round(self, stage: str) -> _Round:
        for rnd in self._rounds:
            if rnd.stage.name == stage:
                return rnd
        self.format.stage_index(stage)  # unknown name -> FormatError
        raise RoundStateError(f"stage {stage!r} has not been drawn yet")

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

    # ---- rankings

    def _games(self, stages: Iterable[str]) -> list[GameScores]:
        wanted = set(stages)
        return [g for rnd in self._rounds if rnd.stage.name in wanted for g in rnd.games()]

    def overall_standings(self) -> Standings:
        """BP then SP over every game played so far, every player who played or is present."""
        played = [pid for rnd in self._rounds for pid in rnd.player_ids()]
        return compute_standings(
            (g for rnd in self._rounds for g in rnd.games()),
            [*played, *sorted(self._present)],
            self.deducted(),
        )

    def table_standings(self, stage: str, table: int) -> Standings:
        """Standings of one table over that stage's games (for top-k per table)."""
        rnd = self._round(stage)
        if not 1 <= table <= len(rnd.tables):
            raise RoundStateError(f"stage {stage!r}: no table {table}")
        return compute_standings(
            rnd.table_games(table), rnd.tables[table - 1].players, self._deductions((stage,))
        )

    def standings(self, stage: str | None = None) -> Standings:
        """The ranking of ``stage``'s players by its rule (default: the latest stage).

        For a TOTALS stage this is the standings after that round; groups of a stage rank
        one under another (an earlier group plays for better places).
        """
        if stage is None:
            if not self._rounds:
                raise RoundStateError("standings: nothing is drawn yet")
            stage = self._rounds[-1].stage.name
        return self._stage_ranking(self._round(stage))

    def _stage_ranking(self, rnd: _Round) -> Standings:
        rows: list[StandingRow] = []
        for group in rnd.stage.groups:
            tables = [t for t in rnd.tables if t.group == group.name]
            chunks: list[Standings]
            if rnd.stage.ranking is RankRule.TOTALS:
                ids = [pid for t in tables for pid in t.players]
                counted = rnd.stage.counted()
                acc = totals(self._games(counted), ids, self._deductions(counted))
                chunks = [standings_from_totals(acc[pid] for pid in ids)]
            elif rnd.stage.ranking is RankRule.TABLE_BLOCKS:
                chunks = [self.table_standings(rnd.stage.name, t.number) for t in tables]
            else:
                chunks = [self._table_place_ranking(rnd, tables)]
            for chunk in chunks:
                offset = len(rows)
                rows.extend(msgspec.structs.replace(r, place=r.place + offset) for r in chunk.rows)
        return Standings(tuple(rows))

    def _placings(self, rnd: _Round, tables: Sequence[SeatedTable]) -> list[TablePlacing]:
        out: list[TablePlacing] = []
        for t in tables:
            for row in self.table_standings(rnd.stage.name, t.number).rows:
                out.append(TablePlacing(row.player_id, t.number, row.place, row.big, row.small))
        return out

    def _table_place_ranking(self, rnd: _Round, tables: Sequence[SeatedTable]) -> Standings:
        placings = sorted(
            self._placings(rnd, tables), key=lambda p: (p.place, -p.big, -p.small, p.player_id)
        )
        games = {pid: sum(1 for g in rnd.games() if pid in g) for pid in rnd.player_ids()}
        deducted = self._deductions((rnd.stage.name,))
        rows: list[StandingRow] = []
        for i, p in enumerate(placings):
            prev = placings[i - 1] if i else None
            same = prev is not None and (prev.place, prev.big, prev.small) == (
                p.place,
                p.big,
                p.small,
            )
            place = rows[-1].place if same else i + 1
            rows.append(
                StandingRow(
                    place, p.player_id, p.big, p.small, games[p.player_id],
                    deducted.get(p.player_id, 0),
                )
            )
        return Standings(tuple(rows))

    def _raw_ranking(self) -> tuple[RankingRow, ...]:
        """Final places before the head judge's tie decisions (shared places kept)."""
        blocks = [(rnd.stage.name, self._stage_ranking(rnd)) for rnd in reversed(self._rounds)]
        if not self._disqualified:
            return stack_blocks(blocks, self.format.titles)
        # Disqualified players are ranked after everyone, in the order of their last stage.
        kept = [(name, _without(ranking, self._disqualified)) for name, ranking in blocks]
        out = list(stack_blocks(kept, self.format.titles))
        placed = {row.player_id for row in out}
        last = len(out)
        for name, ranking in blocks:
            for row in ranking.rows:
                if row.player_id in self._disqualified and row.player_id not in placed:
                    placed.add(row.player_id)
                    last += 1
                    out.append(
                        RankingRow(last, row.player_id, name, row.big, row.small, row.games)
                    )
        return tuple(out)

    def final_ranking(self) -> tuple[RankingRow, ...]:
        """Final places with titles (RULES.md §4); only when the event is finished.

        Players level on a place share it, unless the head judge ordered them (a
        :class:`TieDecided` in scope ``"ranking"``): then they take consecutive places.
        """
        if self.phase is not Phase.FINISHED:
            raise RoundStateError(f"final ranking: the event is not finished ({self.phase})")
        decisions = self._decisions.get(RANKING_SCOPE, [])
        rows: list[RankingRow] = []
        for block in _place_blocks(self._raw_ranking()):
            ids = [r.player_id for r in block]
            order, met = resolve([(ids, 0, 0)], RANKING_SCOPE, decisions, {})
            if not (met and met[0].decision):  # alone, undecided, or shared by decision
                rows.extend(block)
                continue
            by_id = {r.player_id: r for r in block}
            first = block[0].place
            for i, pid in enumerate(order):
                place = first + i
                rows.append(
                    msgspec.structs.replace(
                        by_id[pid], place=place, title=title_for(place, self.format.titles)
                    )
                )
        return tuple(rows)

    def ranking_ties(self) -> tuple[Tie, ...]:
        """Shared final places the head judge has not decided and that are a cut: the
        places they span carry different titles or different league points."""
        if self.phase is not Phase.FINISHED:
            return ()
        decisions = self._decisions.get(RANKING_SCOPE, [])
        n = len(self._raw_ranking())
        out: list[Tie] = []
        for block in _place_blocks(self.final_ranking()):
            if len(block) < 2:
                continue
            ids = [r.player_id for r in block]
            first = block[0].place
            if any(d.how is TieHow.SHARED for d in decisions if set(ids) <= set(d.order)):
                continue
            span = range(first, first + len(block))
            titles = {title_for(p, self.format.titles) for p in span}
            points = {tournament_points(p, n) for p in span} if self.format.league else set()
            if len(titles) > 1 or len(points) > 1:
                out.append(Tie(RANKING_SCOPE, tuple(ids), block[0].big, block[0].small))
        return tuple(out)

    def league_points(self) -> dict[str, int]:
        """League tournament points per participant (003), from the final ranking.

        Raises :class:`TieAtCutError` while players share a place whose points differ
        and the head judge has not decided (their order, or that they share it: then
        each gets the better place's points)."""
        if not self.format.league:
            raise TournamentError(f"league points: format {self.format.name!r} is not a league")
        undecided = self.ranking_ties()
        if undecided:
            raise TieAtCutError("league points", undecided)
        return {pid: n or 0 for pid, n in self.league_points_so_far().items()}

    def league_points_so_far(self) -> dict[str, int | None]:
        """League points as :meth:`league_points`, but ``None`` for the players of a
        shared place the head judge has not decided yet (to show, not to count)."""
        if not self.format.league:
            raise TournamentError(f"league points: format {self.format.name!r} is not a league")
        undecided = {pid for tie in self.ranking_ties() for pid in tie.players}
        ranking = self.final_ranking()
        points = award_points({row.player_id: row.place for row in ranking})
        return {
            pid: None if pid in undecided else 0 if pid in self._disqualified else n
            for pid, n in points.items()
        }

    def decisions(self) -> tuple[TieDecided, ...]:
        """Every tie decision recorded, in order."""
        return tuple(d for ds in self._decisions.values() for d in ds)

    def pending_consolation(self) -> ConsolationError | None:
        """Why the next draw would stop for the organizer's seating of consolation
        players (2 or 5 of them), or None."""
        if self.phase is not Phase.BETWEEN_ROUNDS:
            return None
        try:
            self.draw_next(0)
        except ConsolationError as err:
            return err
        except TournamentError:
            return None
        return None

    def pending_ties(self) -> tuple[Tie, ...]:
        """Ties at a cut the head judge must decide before the event can go on: at the
        next draw, or (when finished) at final places with titles or league points."""
        if self.phase is Phase.FINISHED:
            return self.ranking_ties()
        if self.phase is not Phase.BETWEEN_ROUNDS:
            return ()
        try:
            self.draw_next(0)
        except TieAtCutError as err:
            return err.ties
        except TournamentError:
            return ()
        return ()

    # ---- drawing

    def draw_next(self, seed: int) -> RoundSeated:
        """The seating of the next stage drawn with ``seed`` (a fact to record; not applied)."""
        phase = self.phase
        if phase is Phase.PLAYING:
            raise RoundStateError(
                f"draw: stage {self._rounds[-1].stage.name!r} is still open, close it first"
            )
        if phase is Phase.FINISHED:
            raise RoundStateError("draw: the event is finished")
        stage = self.format.stages[len(self._rounds)]
        if not self._rounds:
            self.format.check_player_count(len(self._present))
        rng = random.Random(seed)
        lots = lot_keys(self._players, rng)
        met_before = met_pairs(t.players for rnd in self._rounds for t in rnd.tables)
        tables: list[SeatedTable] = []
        repeats = 0
        taken: set[str] = set()
        ties: list[Tie] = []
        selected: list[list[str]] = []
        for group in stage.groups:
            entrants, met = self._select(group.entry, lots, taken)
            ties += met
            if not entrants and not isinstance(group.entry, Rest):
                raise RoundStateError(
                    f"draw {stage.name!r} group {group.name!r}: no players are selected"
                )
            clash = taken.intersection(entrants)
            if clash:
                raise DuplicatePlayerError(
                    f"draw {stage.name!r}: {sorted(clash)} selected by two groups"
                )
            taken.update(entrants)
            selected.append(entrants)
        self._seat_consolation(stage, selected)
        for group, entrants in zip(stage.groups, selected, strict=True):
            if not entrants:
                continue
            seating = self._seat_group(group, entrants=entrants, rng=rng, seed=seed, met=met_before)
            repeats += seating.repeats
            for players in seating.tables:
                tables.append(SeatedTable(len(tables) + 1, group.name, players))
        _check_cuts(stage, tables, ties)
        return RoundSeated(stage.name, seed, tuple(tables), repeats)

    def _seat_consolation(self, stage: Stage, selected: list[list[str]]) -> None:
        """Apply the organizer's decision on players left for consolation games (in
        ``selected``, in place), or raise :class:`ConsolationError` when they cannot sit
        at tables of 3 or 4 and nothing is decided."""
        for i, group in enumerate(stage.groups):
            if not isinstance(group.entry, Rest) or not selected[i]:
                continue
            main = selected[0]
            rest = selected[i]
            decision = self._consolation.get(stage.name)
            if decision is not None and decision.none:
                selected[i] = []
                continue
            if decision is not None and decision.promote:
                k = min(decision.promote, len(rest))
                main.extend(rest[:k])
                selected[i] = rest = rest[k:]
            if (rest and not _seatable(len(rest))) or not _seatable(len(main), stage.groups[0]):
                options = [
                    k
                    for k in range(1, len(rest) + 1)
                    if (k == len(rest) or _seatable(len(rest) - k))
                    and _seatable(len(main) + k, stage.groups[0])
                ]
                raise ConsolationError(stage.name, stage.groups[0].name, rest, options)

    def _active(self, pid: str) -> bool:
        return pid not in self._withdrawn and pid not in self._disqualified

    def _strict(
        self, standings: Standings, scope: str, lots: Mapping[str, float], keep: Set[str] | None
    ) -> tuple[list[str], list[Tie]]:
        """``standings`` in a strict order (kept players only): level players by the
        judge's decision in ``scope``, else by lot; with the ties met."""
        groups: list[tuple[list[str], int, int]] = []
        for row in standings.rows:
            if keep is not None and row.player_id not in keep:
                continue
            if groups and groups[-1][0] and standings.row(groups[-1][0][-1]).place == row.place:
                groups[-1][0].append(row.player_id)
            else:
                groups.append(([row.player_id], row.big, row.small))
        return resolve(groups, scope, self._decisions.get(scope, []), lots)

    def _select(
        self, entry: Selector, lots: Mapping[str, float], taken: Set[str] = frozenset()
    ) -> tuple[list[str], list[Tie]]:
        """The players ``entry`` selects, best first, and the ties met on the way
        (``taken``: those the stage's earlier groups selected)."""
        if isinstance(entry, Everyone):
            return self._strict(self.overall_standings(), "overall", lots, self._present)
        rnd = self._round(entry.of)
        active = {pid for pid in rnd.player_ids() if self._active(pid)}
        if isinstance(entry, TopOverall):
            ranking = self._stage_ranking(rnd)
            order, ties = self._strict(ranking, rnd.stage.name, lots, active)
            return order[: entry.k], ties
        placings, ties = self._active_placings(rnd, lots)
        if isinstance(entry, TopAcrossTables) and entry.group is not None:
            own = {t.number for t in rnd.tables if t.group == entry.group}
            placings = [p for p in placings if p.table in own]
        order, across = self._across_tables(rnd, placings, lots)
        ties += across
        if isinstance(entry, Rest):
            return [pid for pid in order if pid not in taken], ties
        if isinstance(entry, TopAcrossTables):
            return (order if entry.k is None else order[: entry.k]), ties
        assert isinstance(entry, TablePlaces)
        chosen = {p.player_id for p in placings if entry.first <= p.place <= entry.last}
        return [pid for pid in order if pid in chosen], ties

    def _active_placings(
        self, rnd: _Round, lots: Mapping[str, float]
    ) -> tuple[list[TablePlacing], list[Tie]]:
        """Active players of ``rnd`` with their strict place at their table (level
        players by the judge's decision for that table, else by lot) and the ties met."""
        out: list[TablePlacing] = []
        ties: list[Tie] = []
        active = {pid for pid in rnd.player_ids() if self._active(pid)}
        for t in rnd.tables:
            table = self.table_standings(rnd.stage.name, t.number)
            order, met = self._strict(table, table_scope(rnd.stage.name, t.number), lots, active)
            ties += met
            for place, pid in enumerate(order, start=1):
                row = table.row(pid)
                out.append(TablePlacing(pid, t.number, place, row.big, row.small))
        return out, ties

    def _across_tables(
        self, rnd: _Round, placings: Sequence[TablePlacing], lots: Mapping[str, float]
    ) -> tuple[list[str], list[Tie]]:
        """Players ranked across ``rnd``'s tables by table place, then BP, then SP; level
        players by the judge's decision in the stage's scope, else by lot."""
        ranked = sorted(placings, key=lambda p: (p.place, -p.big, -p.small, p.player_id))
        groups: list[tuple[list[str], int, int]] = []
        last: tuple[int, int, int] | None = None
        for p in ranked:
            key = (p.place, p.big, p.small)
            if key == last:
                groups[-1][0].append(p.player_id)
            else:
                groups.append(([p.player_id], p.big, p.small))
            last = key
        name = rnd.stage.name
        return resolve(groups, name, self._decisions.get(name, []), lots)

    def _seat_group(
        self,
        group: Group,
        *,
        entrants: list[str],
        rng: random.Random,
        seed: int,
        met: dict[str, set[str]],
    ) -> Seating:
        method = group.seating
        if method is SeatingMethod.RANDOM:
            return random_draw(sorted(entrants), rng, seed=seed, tables=group.tables, met=met)
        if method is SeatingMethod.RANDOM_AVOIDING_REPEATS:
            return draw_avoiding_repeats(sorted(entrants), met, rng, seed=seed, tables=group.tables)
        if method is SeatingMethod.BY_STANDINGS:
            return by_standings(entrants, tables=group.tables, met=met)
        if method is SeatingMethod.SEEDED_SNAKE:
            return seeded_snake(entrants, tables=group.tables, met=met)
        if method is SeatingMethod.BY_TABLE_PLACEMENT:
            # The entrants come in their decided order: it breaks every remaining tie.
            order = {pid: float(i) for i, pid in enumerate(entrants)}
            entry = group.entry
            if isinstance(entry, Everyone):
                raise RoundStateError(
                    f"group {group.name!r}: seating by table placement needs an earlier stage"
                )
            wanted = set(entrants)
            source, _ = self._active_placings(self._round(entry.of), order)
            placings = [p for p in source if p.player_id in wanted]
            return by_table_placement(
                placings, rng, seed=seed, tables=group.tables, met=met, lots=order
            )
        seeds = self._league_seeds(entrants, rng)
        return league_seeded(sorted(entrants), seeds, rng, seed=seed, tables=group.tables, met=met)

    def _league_seeds(self, entrants: Sequence[str], rng: random.Random) -> list[str]:
        pool = set(entrants)
        if self._seeds:
            return [pid for pid in self._seeds if pid in pool][:LEAGUE_SEEDS]
        rated = [p for pid in sorted(pool) if (p := self._players[pid]).rating is not None]
        return [p.id for p in by_rating(rated, rng)][:LEAGUE_SEEDS]


def _without(standings: Standings, players: frozenset[str] | set[str]) -> Standings:
    """``standings`` without ``players``; the others keep their order and shared places,
    renumbered (competition ranking)."""
    rows = [r for r in standings.rows if r.player_id not in players]
    out: list[StandingRow] = []
    for i, row in enumerate(rows):
        same = i > 0 and rows[i - 1].place == row.place
        out.append(msgspec.structs.replace(row, place=out[-1].place if same else i + 1))
    return Standings(tuple(out))


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


def _seatable(count: int, group: Group | None = None) -> bool:
    """Whether ``count`` players sit at tables of 3 or 4 (the group's fixed number of
    tables, if it has one)."""
    try:
        table_sizes(count, group.tables if group else None)
    except PlayerCountError:
        return False
    return True


def _place_blocks(rows: Sequence[RankingRow]) -> list[list[RankingRow]]:
    """Consecutive rows sharing a place."""
    blocks: list[list[RankingRow]] = []
    for row in rows:
        if blocks and blocks[-1][0].place == row.place:
            blocks[-1].append(row)
        else:
            blocks.append([row])
    return blocks


def _check_cuts(stage: Stage, tables: Sequence[SeatedTable], ties: Sequence[Tie]) -> None:
    """Raise :class:`TieAtCutError` for every undecided tie whose players reach different
    things in ``stage``: a group, or a table when its tables play for different places."""
    blocks = stage.ranking is RankRule.TABLE_BLOCKS
    outcome = {
        pid: (t.group, t.number if blocks else 0) for t in tables for pid in t.players
    }
    unique = {(tie.scope, tie.players): tie for tie in ties}  # groups select from one ranking
    at_cut = [
        tie
        for tie in unique.values()
        if tie.decision is None and len({outcome.get(pid, ("", 0)) for pid in tie.players}) > 1
    ]
    if at_cut:  # named in id order: the lot's order must not look like a proposal
        named = [msgspec.structs.replace(t, players=tuple(sorted(t.players))) for t in at_cut]
        raise TieAtCutError(f"draw {stage.name!r}", named)


def seat_next(state: EventState, seed: int) -> tuple[EventState, RoundSeated]:
    """Draw the next stage with ``seed`` and apply it: the new state and the fact to store."""
    fact = state.draw_next(seed)
    return state.apply(fact), fact

