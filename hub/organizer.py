"""Organizer commands on one event's store (the CLI, the hub service and the demo).

Each command is checked by applying its records to the event as it stands
(:class:`~hub.competition.Competition` is a pure fold) and only then stored, all of
a command's records in one transaction: a refused command leaves nothing behind.
Everything the hub knows is in the store, so a restarted hub resumes the event
exactly where it was.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import msgspec

from hub.competition import (
    Change,
    Competition,
    CompetitionError,
    EventCreated,
    FormatFixed,
    OrganizerFact,
    PlayerChange,
    Record,
    ResultRecorded,
    ResultRejected,
    ResultSource,
    ResultVersion,
    RoundStarted,
    RoundTimeOver,
    StarterChosen,
    UnconfirmedChangeError,
    decode_record,
    new_event,
    record_kind,
)
from hub.players_csv import MAX_NAME, clean, player_key
from hub.store import HUB_SOURCE, EventStore
from hub.tournament import (
    ConsolationDecided,
    EventState,
    Fact,
    Player,
    PlayerCheckedIn,
    PlayerCountError,
    PlayerDetailsChanged,
    PlayerLateArrived,
    PlayerRegistered,
    PlayerSanctioned,
    PlayerWithdrawn,
    Rest,
    RoundClosed,
    RoundSeated,
    RoundUndone,
    SanctionKind,
    SanctionLifted,
    SeedsDeclared,
    TieDecided,
    TieHow,
    lot_order,
    preset,
)
from tablekit.core.clock import GameStarted
from tablekit.core.names import check_surname, full_name, split_name
from tablekit.core.rulesets import Ruleset
from tablekit.core.scoring import GameReport
from tablekit.core.seats import Seat

log = logging.getLogger("hub.organizer")

GAME_STARTED = str(GameStarted.__struct_config__.tag)
"""The kind a table unit's "game started" event is stored under."""


def record_kind_of(kind: type[Record]) -> str:
    return str(kind.__struct_config__.tag)


def _check_fresh_seed(competition: Competition, seed: int) -> None:
    """A seed given for a draw must not be one an earlier round was drawn with: the same
    players drawn with the same seed sit at the same tables again."""
    event = competition.event
    for stage in event.stages_played:
        if event.seed_of(stage) == seed:
            raise CompetitionError(
                f"draw: seed {seed} already drew {stage}, and the same seed seats the same "
                "players together again; leave --seed out (a new seed is drawn and recorded)"
            )


def check_in_hint(event: EventState) -> str:
    """How to get players into the first draw when too few are present ("" if the
    registration list itself is the problem)."""
    if event.stages_played:
        return ""
    if not event.players:
        return (
            "; nobody is registered yet: rummikub players import FILE "
            "(or rummikub players add NAME)"
        )
    waiting = (
        len(event.players) - len(event.present) - len(event.withdrawn) - len(event.disqualified)
    )
    if waiting <= 0:
        return ""
    return (
        f"; {len(event.present)} of {len(event.players)} registered players are checked in "
        "and only they are drawn: check the others in with rummikub players check-in --all "
        "(or rummikub players check-in ID …)"
    )


RECORD_KINDS = frozenset(
    str(t.__struct_config__.tag)
    for t in (
        EventCreated,
        FormatFixed,
        OrganizerFact,
        RoundStarted,
        RoundTimeOver,
        ResultRecorded,
        ResultRejected,
        StarterChosen,
    )
)


@dataclass(frozen=True)
class Verdict:
    """The hub's answer to a table's submitted result."""

    accepted: bool
    reason: str
    record: ResultRecorded | ResultRejected


class Organizer:
    def __init__(
        self, store: EventStore, *, by: str = "", clock: Callable[[], float] = time.time
    ) -> None:
        self.store = store
        self.by = by
        self.clock = clock
        self._competition = Competition()
        self._seen = 0
        """Highest hub seq folded into ``_competition``."""
        self.unreadable: list[tuple[int, str]] = []
        """Stored records that could not be decoded: (seq, reason)."""

    # -- reading -------------------------------------------------------------------------

    @property
    def competition(self) -> Competition:
        """The event as stored now (folds in what other processes recorded)."""
        mark = self.store.mark(HUB_SOURCE)
        if mark is not None and mark.max_seq > self._seen:
            stored = self.store.events(source=HUB_SOURCE, after_seq=self._seen)
            records = []
            for event in stored:
                if event.kind not in RECORD_KINDS:
                    continue
                try:
                    records.append(decode_record(event.payload))
                except (msgspec.DecodeError, ValueError) as err:
                    # Written by another version of the hub, say: set aside, never a stop.
                    log.error("stored record %d cannot be read: %s", event.seq, err)
                    self.unreadable.append((event.seq, str(err)))
            self._competition = self._competition.apply_all(records, stored=True)
            self._seen = max(e.seq for e in stored)
        return self._competition

    def forget(self) -> None:
        """Fold the whole store again on the next read (after a rolled-back write)."""
        self._competition = Competition()
        self._seen = 0
        self.unreadable = []

    # -- commands -------------------------------------------------------------------------

    def create_event(
        self,
        name: str,
        preset_name: str,
        *,
        semifinal: int = 8,
        ruleset: str | None = None,
        rulesets: dict[str, Ruleset] | None = None,
        round_minutes: float | None = None,
    ) -> EventCreated:
        record = new_event(
            name,
            preset_name,
            at=self.clock(),
            by=self.by,
            semifinal=semifinal,
            ruleset=ruleset,
            rulesets=rulesets,
            round_minutes=round_minutes,
        )
        self.record(record)
        return record

    def register(self, players: Sequence[Player], *, check_in: bool = False) -> bool:
        """Register ``players``; with ``check_in`` they are present: checked in before the
        first draw, late arrivals after it (they play from the next draw). True when they
        were recorded as late arrivals."""
        late = check_in and bool(self.competition.event.stages_played)
        facts: list[Fact] = []
        for player in players:
            facts.append(PlayerRegistered(player))
            if late:
                facts.append(PlayerLateArrived(player.id))
            elif check_in:
                facts.append(PlayerCheckedIn(player.id))
        self.record_facts(facts)
        return late

    def next_player_id(self, offset: int = 0) -> str:
        """A fresh id for a new player: P001, P002, …; ``offset`` skips that many fresh
        ids, so a batch gets distinct ids (``next_player_id(i)`` for its i-th player)."""
        taken = set(self.competition.event.players)
        n = len(taken)
        while True:
            n += 1
            if f"P{n:03d}" not in taken:
                if offset == 0:
                    return f"P{n:03d}"
                offset -= 1

    def check_in(self, player_ids: Iterable[str]) -> None:
        self.record_facts([PlayerCheckedIn(pid) for pid in player_ids])

    def late_arrival(self, player_id: str) -> None:
        self.record_facts([PlayerLateArrived(player_id)])

    def withdraw(self, player_id: str, reason: str = "") -> None:
        self.record_facts([PlayerWithdrawn(player_id, reason)], why=reason)

    def sanction(self, record: OrganizerFact, *, confirmed: bool = False) -> OrganizerFact:
        """Store a judge's sanction (002 §3) or its lifting (the record from
        :meth:`sanction_record` or :meth:`lift_record`). One that changes who qualified,
        a seating drawn, final places, titles or league points (a deduction in an
        earlier round, say) raises :class:`UnconfirmedChangeError` unless ``confirmed``."""
        fact = record.fact
        what = (
            f"{fact.kind} for {fact.player_id}"
            if isinstance(fact, PlayerSanctioned)
            else f"lifting sanction {getattr(fact, 'number', '?')}"
        )
        self._check_confirmed(record, confirmed, what)
        self.record(record)
        return record

    def lift_record(self, number: int, *, why: str) -> OrganizerFact:
        """The record taking back sanction ``number`` (not stored; see :meth:`sanction`)."""
        if not why.strip():
            raise CompetitionError(f"lift sanction {number}: say why (--why)")
        fact = SanctionLifted(number)
        return OrganizerFact(at=self.clock(), by=self.by, fact=fact, why=why.strip())

    def change_player(
        self,
        player_id: str,
        *,
        why: str,
        name: str | None = None,
        given: str | None = None,
        surname: str | None = None,
        club: str | None = None,
        clear_club: bool = False,
    ) -> PlayerChange:
        """Correct a player's name or club, saying why; recorded with who and when.

        ``name`` is the whole name (its last word the surname unless ``surname`` says
        otherwise); or ``given`` and/or ``surname`` replace those parts of the current
        name — a ``surname`` alone that already ends the name only marks where the
        surname starts ("Jan Maria Kowalski", surname "Maria Kowalski").
        """
        what = f"change of {player_id}"
        if not why.strip():
            raise CompetitionError(f"{what}: say why (--why)")
        event = self.competition.event
        if player_id not in event.players:
            raise CompetitionError(f"{what}: unknown player {player_id!r}")
        old = event.players[player_id]
        try:
            new_name, new_surname = _new_name(old, name, given, surname)
            new_club = None if clear_club else old.club if club is None else clean(club, "club")
        except ValueError as err:
            raise CompetitionError(f"{what}: {err}") from None
        new_club = new_club or None
        if len(new_name) > MAX_NAME:
            raise CompetitionError(f"{what}: the name is longer than {MAX_NAME} characters")
        now = split_name(new_name, new_surname)
        if (new_name, now, new_club) == (old.name, split_name(old.name, old.surname), old.club):
            raise CompetitionError(f"{what}: nothing to change (give a name, surname or club)")
        key = player_key(new_name, new_club)
        for other in event.players.values():
            if other.id != player_id and player_key(other.name, other.club) == key:
                club_text = f" ({new_club})" if new_club else ""
                raise CompetitionError(
                    f"{what}: {new_name!r}{club_text} is already registered as {other.id}"
                )
        fact = PlayerDetailsChanged(player_id, new_name, new_surname, new_club)
        record = OrganizerFact(at=self.clock(), by=self.by, fact=fact, why=" ".join(why.split()))
        competition = self.record(record)
        return competition.player_changes[-1]

    def choose_starter(
        self, table: int, seat: Seat, *, game: int | None = None, why: str = ""
    ) -> StarterChosen:
        """The seat that starts ``game`` (default: the table's next game) at ``table`` of
        the round being played; the table's display shows it before the first press."""
        competition = self.competition
        stage = competition.open_stage()
        if stage is None:
            raise CompetitionError("starter: no round is drawn and open; draw one first")
        if game is None:
            progress = {t.table: t for t in competition.tables()}.get(table)
            if progress is None:
                raise CompetitionError(f"table {table}: not in round {stage.name!r}")
            game = progress.next_game
        record = StarterChosen(
            at=self.clock(), by=self.by, stage=stage.name, table=table, game=game,
            seat=Seat(seat), why=why,
        )
        self.record(record)
        return record

    def sanction_record(
        self,
        player_id: str,
        kind: SanctionKind,
        *,
        why: str,
        big: int = 0,
        stage: str | None = None,
    ) -> OrganizerFact:
        """The record of a judge's sanction (not stored): a warning, big points deducted
        or a disqualification, given in ``stage`` (default: the latest the player plays
        in); always with the reason, recorded with who and when."""
        if not why.strip():
            raise CompetitionError(f"{kind} for {player_id}: say why (--why)")
        event = self.competition.event
        if stage is None:  # the latest stage the player plays in
            stage = next(
                (
                    name
                    for name in reversed(event.stages_played)
                    if any(player_id in t.players for t in event.seating(name))
                ),
                "",
            )
        fact = PlayerSanctioned(player_id, kind, stage, big)
        return OrganizerFact(at=self.clock(), by=self.by, fact=fact, why=why.strip())

    def _check_confirmed(
        self, record: ResultRecorded | OrganizerFact, confirmed: bool, what: str
    ) -> None:
        if confirmed:
            return
        weighty = [c for c in self.effects(record) if c.weighty]
        if weighty:
            raise UnconfirmedChangeError(what, weighty)


    def decide_consolation(
        self, *, promote: int = 0, none: bool = False, why: str
    ) -> OrganizerFact:
        """The organizer's seating of the players left for consolation games who cannot
        sit at tables of 3 or 4 (003 §10e): the best ``promote`` of them join the
        qualifiers, or ``none`` of them plays more games; always with the reason."""
        what = "consolation games"
        if not why.strip():
            raise CompetitionError(f"{what}: say why (--why)")
        if promote < 0 or (promote == 0) == (not none):
            raise CompetitionError(f"{what}: give --promote N (1 or more) or --none")
        competition = self.competition
        if not competition.fixed:
            raise CompetitionError(
                f"{what}: the league scheme is chosen at the first draw; decide after it"
            )
        event = competition.event
        stage = next(
            (
                s
                for s in event.format.stages
                if s.name not in event.stages_played
                and any(isinstance(g.entry, Rest) for g in s.groups)
            ),
            None,
        )
        if stage is None:
            raise CompetitionError(f"{what}: no stage still to draw has consolation games")
        fact = ConsolationDecided(stage.name, promote, none)
        record = OrganizerFact(at=self.clock(), by=self.by, fact=fact, why=why.strip())
        self.record(record)
        return record

    def decide_tie(
        self,
        scope: str,
        players: Sequence[str],
        how: TieHow = TieHow.JUDGE,
        *,
        why: str = "",
        seed: int | None = None,
    ) -> OrganizerFact:
        """The head judge's decision on players level at a cut in ``scope``: their order
        (best first, with the reason), a lot the judge orders (drawn now from ``seed``,
        default random, and recorded), or for final places that they share the place."""
        if how is TieHow.LOT:
            seed = secrets.randbelow(2**31) if seed is None else seed
            order = lot_order(players, seed)
        else:
            if not why.strip():
                raise CompetitionError(f"tie in {scope}: say why the judge decided so (--why)")
            order, seed = tuple(players), None
        self.competition.event.check_tie(scope, order)
        fact = TieDecided(scope, order, how, seed)
        record = OrganizerFact(at=self.clock(), by=self.by, fact=fact, why=why.strip())
        self.record(record)
        return record

    def declare_seeds(self, player_ids: Sequence[str]) -> None:
        self.record_facts([SeedsDeclared(tuple(player_ids))])

    def draw(self, seed: int | None = None) -> RoundSeated:
        """Seat the next round (fixing the automatic league scheme at the first draw)."""
        competition = self.competition
        if seed is not None:
            _check_fresh_seed(competition, seed)
        seed = secrets.randbelow(2**31) if seed is None else seed
        records: list[Record] = []
        created = competition.created
        try:
            if created is not None and not competition.fixed:
                fmt = preset(created.preset, players=len(competition.event.present))
                records.append(FormatFixed(at=self.clock(), by=self.by, format=fmt))
                competition = competition.apply(records[0])
            seated = competition.event.draw_next(seed)
        except PlayerCountError as err:
            raise PlayerCountError(f"draw: {err}{check_in_hint(competition.event)}") from None
        records.append(OrganizerFact(at=self.clock(), by=self.by, fact=seated))
        self.record(*records)
        return seated

    def start_round(self, minutes: float | None = None) -> RoundStarted:
        stage = self.competition.open_stage()
        if stage is None:
            raise CompetitionError("start: no round is drawn and open; draw one first")
        record = RoundStarted(at=self.clock(), by=self.by, stage=stage.name, minutes=minutes)
        self.record(record)
        return record

    def result_record(
        self, table: int, report: GameReport, *, why: str = "", stage: str | None = None
    ) -> ResultRecorded:
        """The record of a judge's result or correction for any game of the event (not
        stored); a correction, or a result for a round that is not the one being
        played, needs the reason."""
        competition = self.competition
        stage_name = stage or _latest_stage(competition)
        open_stage = competition.open_stage()
        if not why.strip():
            if competition.history(stage_name, table, report.game):
                raise CompetitionError(
                    f"table {table} game {report.game}: a result is recorded; a correction "
                    "needs a reason (--why)"
                )
            if open_stage is None or open_stage.name != stage_name:
                raise CompetitionError(
                    f"table {table} game {report.game}: {stage_name} is not the round being "
                    "played; a late result needs a reason (--why)"
                )
        return ResultRecorded(
            at=self.clock(),
            by=self.by,
            stage=stage_name,
            table=table,
            report=report,
            source=ResultSource.JUDGE,
            why=why.strip(),
        )

    def effects(self, record: ResultRecorded | OrganizerFact) -> list[Change]:
        """What storing ``record`` would change (see :meth:`Competition.effects`)."""
        return self.competition.effects(record)

    def enter_result(
        self,
        table: int,
        report: GameReport,
        *,
        why: str = "",
        stage: str | None = None,
        confirmed: bool = False,
    ) -> ResultVersion:
        """A judge enters (or corrects, saying why) a game's result at the hub, for any
        game of the event at any time. One that changes who qualified, a seating drawn,
        final places, titles or league points raises :class:`UnconfirmedChangeError`
        (with the changes) unless ``confirmed``: show them first, then confirm."""
        record = self.result_record(table, report, why=why, stage=stage)
        what = f"table {table} game {report.game} of {record.stage}"
        self._check_confirmed(record, confirmed, what)
        competition = self.record(record)
        return competition.history(record.stage, table, report.game)[-1]

    def judge_table_result(
        self, table: int, report: GameReport, *, unit: str, seq: int, round_no: int
    ) -> Verdict:
        """The record answering a table's submitted result for round ``round_no`` (not
        stored: the hub service stores it in the same transaction as the unit's event)."""
        competition = self.competition
        reason = competition.check_result(table, report)
        stage = competition.open_stage()
        if reason is None and stage is not None:
            playing = competition.round_number(stage.name)
            if round_no != playing:
                reason = (
                    f"table {table}: a result for round {round_no}, but round {playing} is "
                    "being played; a judge enters it at the hub if it still counts"
                    if round_no
                    else f"table {table}: the result names no round (the unit has no "
                    "assignment from the hub)"
                )
        if reason is None and stage is not None:
            accepted = ResultRecorded(
                at=self.clock(), by=unit, stage=stage.name, table=table, report=report,
                unit=unit, seq=seq,
            )
            return Verdict(True, "", accepted)
        reason = reason or "no round is being played"
        rejected = ResultRejected(
            at=self.clock(), by=unit, table=table, game=report.game, reason=reason,
            unit=unit, seq=seq, round=round_no,
        )
        return Verdict(False, reason, rejected)

    def undo_draw(self, why: str) -> RoundUndone:
        """Take back the latest draw while no table has started it: no result of the
        round, no game started at any of its tables since the draw (the units' own
        reports in the store), its time not over. The tables are then told they have
        no assignment, and the round is drawn again with ``round draw``."""
        if not why.strip():
            raise CompetitionError("undo the draw: say why (--why)")
        stage = self.competition.open_stage()
        if stage is None:
            raise CompetitionError("undo the draw: no round is drawn and open")
        fact = RoundUndone(stage.name)
        record = OrganizerFact(at=self.clock(), by=self.by, fact=fact, why=why.strip())

        def no_table_started(competition: Competition) -> None:
            if stage.name in competition.time_over:
                raise CompetitionError(
                    f"undo the draw of {stage.name}: the round's time is already over"
                )
            started = self._tables_started(competition, stage.name)
            if started:
                raise CompetitionError(
                    f"undo the draw of {stage.name}: table(s) {', '.join(map(str, started))} "
                    "have started a game since the draw; a judge corrects results instead"
                )

        self.record(record, check=no_table_started)
        return fact

    def _tables_started(self, competition: Competition, stage: str) -> list[int]:
        """Tables of ``stage`` whose unit reported a game started after it was drawn."""
        drawn_at = 0
        for event in self.store.events(source=HUB_SOURCE, kind=record_kind_of(OrganizerFact)):
            record = decode_record(event.payload)
            if (
                isinstance(record, OrganizerFact)
                and isinstance(record.fact, RoundSeated)
                and record.fact.stage == stage
            ):
                drawn_at = event.id
        tables = {t.number for t in competition.event.seating(stage)}
        return sorted(
            {
                event.table
                for event in self.store.events(kind=GAME_STARTED)
                if event.id > drawn_at and event.table in tables
            }
        )

    def close_round(self, *, force: bool = False, why: str = "") -> RoundClosed:
        stage = self.competition.open_stage()
        if stage is None:
            raise CompetitionError("close: no round is open")
        if force and not why.strip():
            raise CompetitionError("close --force: say why the missing games are not played")
        fact = RoundClosed(stage.name, forced=force)
        self.record_facts([fact], why=why)
        return fact

    def time_over_due(self, now: float) -> RoundTimeOver | None:
        """Record that the open round's time has run out, once, when it has."""
        competition = self.competition
        deadline = competition.round_deadline()
        if deadline is None:
            return None
        stage, at = deadline
        if now < at or stage in competition.time_over:
            return None
        record = RoundTimeOver(at=now, by=self.by or "hub", stage=stage)
        self.record(lambda seq: msgspec.structs.replace(record, broadcast=seq))
        return self.competition.time_over.get(stage, record)

    # -- storing ----------------------------------------------------------------------------

    def record_facts(self, facts: Sequence[Fact], *, why: str = "") -> Competition:
        now = self.clock()
        return self.record(
            *(OrganizerFact(at=now, by=self.by, fact=fact, why=why) for fact in facts)
        )

    def record(
        self,
        *records: Record | Callable[[int], Record],
        check: Callable[[Competition], None] | None = None,
    ) -> Competition:
        """Check ``records`` against the event and store them, in one transaction.

        The check runs inside the store's write transaction against everything stored
        until then, so two terminals can never both pass it with conflicting commands. A
        record may be a function of its own seq in the store (a broadcast id, say).
        ``check`` is asked too, with the event as stored.
        """
        drafts = [r(0) if callable(r) else r for r in records]

        def check_all() -> None:
            competition = self.competition
            if check is not None:
                check(competition)
            competition.apply_all(drafts)

        self.store.append_facts(
            [(record_kind(d), r) for d, r in zip(drafts, records, strict=True)], check=check_all
        )
        return self.competition  # folds what was stored, with anything stored meanwhile


def _new_name(
    old: Player, name: str | None, given: str | None, surname: str | None
) -> tuple[str, str]:
    """(name, surname) after a change (see :meth:`Organizer.change_player`)."""
    if name is not None:
        if given is not None:
            raise ValueError("give the whole name or the given name, not both")
        new_name = clean(name)
        new_surname = clean(surname) if surname is not None else ""
        if not new_name:
            raise ValueError("the name is empty")
        check_surname(new_name, new_surname)
        return new_name, new_surname
    old_given, old_surname = split_name(old.name, old.surname)
    new_given = old_given if given is None else clean(given)
    if surname is None:
        new_surname = old_surname
    else:
        new_surname = clean(surname)
        if not new_surname:
            raise ValueError("the surname is empty")
        if given is None and (old.name == new_surname or old.name.endswith(" " + new_surname)):
            return old.name, new_surname
    return full_name(new_given, new_surname), new_surname


def _latest_stage(competition: Competition) -> str:
    played = competition.event.stages_played
    if not played:
        raise CompetitionError("no round has been drawn yet")
    return played[-1]
