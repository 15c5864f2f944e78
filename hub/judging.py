"""The judges' commands on one event's store (:class:`~hub.organizer_base.OrganizerBase`).

Sanctions and their lifting, the resolution of a table's judge call, results entered or
corrected at the hub, the head judge's decisions on ties and the organizer's on
consolation players, and the hub's answer to a result a table submits. A result or
sanction that changes who qualified, a seating drawn, final places, titles or league
points is shown first (:mod:`hub.effects`) and stored only once confirmed.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from hub.competition import (
    NO_ROUND_NAMED,
    NO_ROUND_PLAYED,
    OTHER_ROUND,
    Competition,
    CompetitionError,
    JudgeCallResolved,
    OrganizerFact,
    ResultRecorded,
    ResultRejected,
    ResultSource,
    ResultVersion,
)
from hub.effects import Change, ReasonNeededError, UnconfirmedChangeError, effects
from hub.organizer_base import OrganizerBase
from hub.table_play import TablePlay
from hub.tournament import (
    ConsolationDecided,
    PlayerSanctioned,
    Rest,
    SanctionKind,
    SanctionLifted,
    TieDecided,
    TieHow,
    lot_order,
)
from hub.tournament.cuts import scope_phrase
from hub.tournament.progress import SANCTION_WORDS
from hub.tournament.stage_words import stage_phrase
from tablekit.core.clock_events import ClockPaused, ClockResumed, GameStarted, PauseReason
from tablekit.core.errors import KitError, Phrase
from tablekit.core.messages import Wording
from tablekit.core.scoring import GameReport, ScoreError
from tablekit.core.words import N_

GAME_STARTED = str(GameStarted.__struct_config__.tag)
"""The kind a table unit's "game started" event is stored under."""


def rejected_result(
    why: KitError | Phrase, *, at: float, unit: str, table: int, game: int, seq: int,
    round_no: int, epoch: str = "",
) -> ResultRejected:
    """The record of a table's result the hub refused for ``why`` (kept in English and as
    words to translate). Only wrong values (a scoring error) can change when the table
    sends it again; any other refusal is final."""
    return ResultRejected(
        at=at, by=unit, table=table, game=game, reason=str(why), unit=unit, seq=seq,
        epoch=epoch, round=round_no, why=Wording.of(why), final=not isinstance(why, ScoreError),
    )


MAX_NOTE: Final = 500
"""Characters a judge's note at a table may have (the judges' form keeps to it too)."""


@dataclass(frozen=True)
class OpenCall:
    """A table waiting for the judge, as its unit reported it."""

    game: int
    """The unit's game number in the round."""
    why: PauseReason
    since: float
    """The unit's wall time of the pause."""


_PAUSED: Final = str(ClockPaused.__struct_config__.tag)
_ENDS_A_CALL: Final = frozenset(
    str(kind.__struct_config__.tag) for kind in (ClockResumed, GameStarted)
)
"""A resumed clock, or a new game (a unit that restarted starts its game anew)."""


@dataclass(frozen=True)
class Verdict:
    """The hub's answer to a table's submitted result."""

    accepted: bool
    reason: str
    record: ResultRecorded | ResultRejected


class JudgeCommands(OrganizerBase):
    """The judges' commands on one event's store."""

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
        self.record(record, check=lambda c: _check_confirmed(c, record, confirmed, what))
        return record

    def lift_record(self, number: int, *, why: str) -> OrganizerFact:
        """The record taking back sanction ``number`` (not stored; see :meth:`sanction`)."""
        if not why.strip():
            raise ReasonNeededError(N_("lift sanction {number}: say why"), number=number)
        fact = SanctionLifted(number)
        return OrganizerFact(at=self.clock(), by=self.by, fact=fact, why=why.strip())

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
            raise ReasonNeededError(
                N_("{kind} for {player}: say why"),
                kind=Phrase(SANCTION_WORDS[kind]),
                player=player_id,
            )
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

    def effects(self, record: ResultRecorded | OrganizerFact) -> list[Change]:
        """What storing ``record`` would change (see :func:`hub.effects.effects`)."""
        return effects(self.competition, record)

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
                raise ReasonNeededError(
                    N_("tie decision ({where}): say why the judge decided so"),
                    where=scope_phrase(scope),
                )
            order, seed = tuple(players), None
        fact = TieDecided(scope, order, how, seed)
        record = OrganizerFact(at=self.clock(), by=self.by, fact=fact, why=why.strip())
        self.record(record, check=lambda c: c.event.check_tie(scope, order))
        return record

    def decide_consolation(
        self, *, promote: int = 0, none: bool = False, why: str
    ) -> OrganizerFact:
        """The organizer's seating of the players left for consolation games who cannot
        sit at tables of 3 or 4 (003 §10e): the best ``promote`` of them join the
        qualifiers, or ``none`` of them plays more games; always with the reason."""
        if not why.strip():
            raise ReasonNeededError(N_("consolation games: say why"))
        if promote < 0 or (promote == 0) == (not none):
            raise CompetitionError(N_("consolation games: give --promote N (1 or more) or --none"))
        at = self.clock()

        def decided(competition: Competition) -> list[OrganizerFact]:
            stage = _consolation_stage(competition)
            fact = ConsolationDecided(stage, promote, none)
            return [OrganizerFact(at=at, by=self.by, fact=fact, why=why.strip())]

        _, [record] = self.command(decided)
        return record

    def resolve_call(
        self,
        table: int,
        note: str,
        *,
        stage: str | None = None,
        game: int = 0,
        called: PauseReason | None = None,
        since: float | None = None,
    ) -> JudgeCallResolved:
        """Record a judge's resolution of a call at ``table`` of ``stage`` (default: the
        latest drawn): what the judge decided, always with the note; ``game``, ``called``
        and ``since`` as the hall saw the waiting table, when the judge knows them. The
        clock is resumed at the table (the judge key), not here."""
        if len(note.strip()) > MAX_NOTE:
            raise CompetitionError(
                N_("table {table}: the note has {n} characters, at most {most}: shorten it"),
                table=table, n=len(note.strip()), most=MAX_NOTE,
            )
        at = self.clock()

        def resolved(competition: Competition) -> list[JudgeCallResolved]:
            return [JudgeCallResolved(
                at=at, by=self.by, stage=stage or _latest_stage(competition), table=table,
                note=note.strip(), game=game, called=called, since=since,
            )]

        _, [record] = self.command(resolved)
        return record

    def open_call(self, table: int, stage: str) -> OpenCall | None:
        """The judge call open at ``table`` since ``stage`` was drawn, as its unit
        reported it: the clock's latest pause with no resume after it; None when there
        is none."""
        drawn = self.drawn_event(stage)
        latest: OpenCall | None = None
        events = [e for e in self.store.events(table=table) if e.id > drawn]
        for stored in sorted(events, key=lambda e: (e.ts, e.id)):
            if stored.kind == _PAUSED:
                event = stored.event()
                assert isinstance(event, ClockPaused)
                latest = OpenCall(event.game, event.reason, stored.ts)
            elif stored.kind in _ENDS_A_CALL:
                latest = None
        return latest

    def result_record(
        self,
        table: int,
        report: GameReport,
        *,
        why: str = "",
        stage: str | None = None,
        not_ended: bool = False,
    ) -> ResultRecorded:
        """The record of a judge's result or correction for any game of the event (not
        stored); a correction, or a result for a round that is not the one being
        played, needs the reason (:class:`ReasonNeededError`). A result for a game the table
        has not ended (:mod:`hub.table_play`) raises :class:`GameNotEndedError` unless the
        judge confirms it on purpose (``not_ended``), with the reason."""
        competition = self.competition
        record = ResultRecorded(
            at=self.clock(),
            by=self.by,
            stage=stage or _latest_stage(competition),
            table=table,
            report=report,
            source=ResultSource.JUDGE,
            why=why.strip(),
        )
        _check_entry(competition, record)
        self._check_played(competition, record, not_ended)
        return record

    def table_play(self, competition: Competition, stage: str, table: int) -> TablePlay:
        """How far ``table`` has played ``stage`` as the hub knows it: the results it
        holds, and its unit's games started since the stage was drawn (the store's order)."""
        drawn = self.drawn_event(stage)
        started = tuple(
            event.game
            for event in self.store.events(table=table, kind=GAME_STARTED)
            if event.id > drawn and event.game is not None
        )
        reported = any(mark.table == table for mark in self.store.marks().values())
        recorded = frozenset(g for t, g in competition.event.results(stage) if t == table)
        return TablePlay(table, competition.round_number(stage), recorded, reported, started)

    def _check_played(
        self, competition: Competition, record: ResultRecorded, not_ended: bool
    ) -> None:
        """Refuse a result for a game the table has not ended, in the round being played,
        unless the judge confirms it on purpose with the reason."""
        competition.table_playing(record.stage, record.table, record.report.game)
        open_stage = competition.open_stage()
        if open_stage is None or open_stage.name != record.stage:
            return
        refusal = self.table_play(competition, record.stage, record.table).not_ended(
            record.report.game
        )
        if refusal is None:
            return
        if not not_ended:
            raise refusal
        if not record.why:
            raise ReasonNeededError(
                N_("table {table} game {game}: a result for a game the table has not ended "
                   "needs the reason"),
                table=record.table,
                game=record.report.game,
            )

    def enter_result(
        self,
        table: int,
        report: GameReport,
        *,
        why: str = "",
        stage: str | None = None,
        confirmed: bool = False,
        not_ended: bool = False,
    ) -> ResultVersion:
        """A judge enters (or corrects, saying why) a game's result at the hub, for any
        game of the event at any time. One that changes who qualified, a seating drawn,
        final places, titles or league points raises :class:`UnconfirmedChangeError`
        (with the changes) unless ``confirmed``: show them first, then confirm. One for a
        game the table has not ended is stored only when ``not_ended`` (on purpose, with
        the reason). The reason, the game played and the changes are checked again on the
        event as stored when it is stored: a result another terminal stored meanwhile makes
        this one a correction."""
        record = self.result_record(table, report, why=why, stage=stage, not_ended=not_ended)
        what = f"table {table} game {report.game} of {record.stage}"

        def checked(competition: Competition) -> None:
            _check_entry(competition, record)
            self._check_played(competition, record, not_ended)
            _check_confirmed(competition, record, confirmed, what)

        competition = self.record(record, check=checked)
        return competition.history(record.stage, table, report.game)[-1]

    def judge_table_result(
        self, table: int, report: GameReport, *, unit: str, seq: int, round_no: int,
        epoch: str = "",
    ) -> Verdict:
        """The record answering a table's submitted result for round ``round_no`` (not
        stored: the hub service stores it in the same transaction as the unit's event);
        ``unit``, ``epoch`` and ``seq`` name the submission in the unit's journal."""
        competition = self.competition
        reason = competition.check_result(table, report)
        stage = competition.open_stage()
        if reason is None and stage is not None:
            playing = competition.round_number(stage.name)
            if round_no != playing:
                reason = (
                    Phrase(OTHER_ROUND, table=table, round=round_no, playing=playing)
                    if round_no
                    else Phrase(NO_ROUND_NAMED, table=table)
                )
        if reason is None and stage is not None:
            accepted = ResultRecorded(
                at=self.clock(), by=unit, stage=stage.name, table=table, report=report,
                unit=unit, seq=seq, epoch=epoch,
            )
            return Verdict(True, "", accepted)
        reason = reason or Phrase(NO_ROUND_PLAYED)
        rejected = rejected_result(
            reason, at=self.clock(), unit=unit, table=table, game=report.game, seq=seq,
            round_no=round_no, epoch=epoch,
        )
        return Verdict(False, rejected.reason, rejected)


def _check_entry(competition: Competition, record: ResultRecorded) -> None:
    """A judge's result needs its reason when it corrects a recorded one, or when it is
    for a round that is not the one being played (:class:`ReasonNeededError`); a
    correction that changes nothing (the same form sent again, say) is refused."""
    table, game = record.table, record.report.game
    versions = competition.history(record.stage, table, game)
    if versions and versions[-1].record.report == record.report:
        raise CompetitionError(
            N_("table {table} game {game}: version {number} already says this; nothing to "
               "correct"),
            table=table,
            game=game,
            number=len(versions),
        )
    if record.why:
        return
    if versions:
        raise ReasonNeededError(
            N_("table {table} game {game}: a result is recorded; a correction needs a "
               "reason"),
            table=table,
            game=game,
        )
    open_stage = competition.open_stage()
    if open_stage is None or open_stage.name != record.stage:
        raise ReasonNeededError(
            N_("table {table} game {game}: {stage} is not the round being played; a "
               "late result needs a reason"),
            table=table,
            game=game,
            stage=stage_phrase(record.stage),
        )


def _check_confirmed(
    competition: Competition, record: ResultRecorded | OrganizerFact, confirmed: bool, what: str
) -> None:
    """Refuse a record that changes who qualified, a seating drawn, final places, titles
    or league points unless it is ``confirmed`` (:class:`UnconfirmedChangeError`)."""
    if confirmed:
        return
    weighty = [c for c in effects(competition, record) if c.weighty]
    if weighty:
        raise UnconfirmedChangeError(what, weighty)


def _consolation_stage(competition: Competition) -> str:
    """The next stage to draw that has consolation games (the organizer decides who
    plays them when they cannot sit at tables of 3 or 4)."""
    if not competition.fixed:
        raise CompetitionError(
            N_("consolation games: the league scheme is chosen at the first draw; decide "
               "after it")
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
        raise CompetitionError(
            N_("consolation games: no stage still to draw has consolation games")
        )
    return stage.name


def _latest_stage(competition: Competition) -> str:
    played = competition.event.stages_played
    if not played:
        raise CompetitionError(N_("no round has been drawn yet"))
    return played[-1]
