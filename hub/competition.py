"""The event as the hub knows it: a pure fold over the records in its store.

Every organizer command, every accepted table result and every judge correction
is a :data:`Record` appended to the store (``hub.store``); :class:`Competition`
is rebuilt from them after a restart and updated record by record while the hub
runs. Nothing here does I/O, and nothing is ever overwritten: a correction is a
newer :class:`ResultRecorded` for the same game, and :meth:`Competition.history`
shows every version with who, when and why.

The hub never trusts points computed by a table: each game's points are scored
here from the reported racks with the stage's ruleset.
"""

from __future__ import annotations

import copy
import enum
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Final

import msgspec

from hub.tournament import (
    ConsolationDecided,
    EventPhase,
    EventState,
    Fact,
    GameRecorded,
    Player,
    PlayerDetailsChanged,
    PlayerSanctioned,
    PlayerScore,
    RoundSeated,
    RoundUndone,
    SanctionKind,
    SanctionLifted,
    SeatedTable,
    Stage,
    TieDecided,
    TournamentError,
    TournamentFormat,
    preset,
)
from hub.tournament.presets import LEAGUE_MAX_PLAYERS, LEAGUE_MIN_PLAYERS
from hub.tournament.stage_words import stage_phrase
from tablekit.core.clock_events import PauseReason
from tablekit.core.errors import KitError, Phrase, phrase_of, quoted
from tablekit.core.messages import AssignedRules, Assignment, SeatAssignment, Wording
from tablekit.core.names import sent_name
from tablekit.core.roundgames import RoundGames
from tablekit.core.rulesets import Ruleset, decode_with_retired_keys, get_ruleset
from tablekit.core.scoring import GameReport, GameScore, ScoreError, score_game
from tablekit.core.seats import Seat, seats_for
from tablekit.core.topics import reason_words
from tablekit.core.words import N_
from tablekit.shared.i18n import DEFAULT_LANGUAGE, LANGUAGES

PROVISIONAL_LEAGUE = "league-top32"
"""Accepts 8–32 players: the automatic league scheme registers under it."""


log = logging.getLogger("hub.competition")


# Why the hub refuses a table's result besides the scoring's and the competition's own
# errors: templates, so a reason stored in English before ``ResultRejected.why`` is shown
# in the reader's language too.
NO_ROUND_PLAYED: Final = N_("no round is being played")
OTHER_ROUND: Final = N_(
    "table {table}: a result for round {round}, but round {playing} is being played; a "
    "judge enters it at the hub if it still counts"
)
NO_ROUND_NAMED: Final = N_(
    "table {table}: the result names no round (the unit has no assignment from the hub)"
)

class CompetitionError(KitError, ValueError):
    """A record or command that does not fit the event as it stands."""


class ResultSource(enum.StrEnum):
    TABLE = "table"
    """Entered and confirmed by the players at the table unit."""
    JUDGE = "judge"
    """Entered or corrected by a judge at the hub."""


# --- records (stored in the hub's event store, tag field "record") -----------------------


class _Record(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="record", forbid_unknown_fields=True
):
    at: float
    """Wall time the hub recorded it."""
    by: str = ""
    """Who did it: an organizer's or judge's name, or a table unit's id."""


class EventCreated(_Record, frozen=True, tag="event-created"):
    name: str = ""
    preset: str = ""
    format: TournamentFormat | None = None
    """Fixed at creation; for the automatic league scheme at the first draw."""
    semifinal: int = 8
    ruleset: str | None = None
    """Overrides every stage's ruleset (e.g. a custom one)."""
    rulesets: dict[str, Ruleset] = {}
    """Custom rulesets the event uses, stored so the event can be replayed anywhere."""
    round_minutes: float | None = None


class FormatFixed(_Record, frozen=True, tag="format-fixed"):
    format: TournamentFormat


class OrganizerFact(_Record, frozen=True, tag="organizer"):
    """A tournament fact (players, draws, closing a round) and why, when it matters."""

    fact: Fact
    why: str = ""


class RoundStarted(_Record, frozen=True, tag="round-started"):
    stage: str
    minutes: float | None = None


class RoundTimeOver(_Record, frozen=True, tag="round-time-over"):
    stage: str
    broadcast: int = 0
    """Id of the last-lap broadcast it causes: the record's own seq in the store, so it
    never equals another broadcast's id (units apply each id once)."""


class ResultRecorded(_Record, frozen=True, tag="result-recorded"):
    stage: str
    table: int
    report: GameReport
    source: ResultSource = ResultSource.TABLE
    why: str = ""
    unit: str = ""
    seq: int = 0
    """The table unit's journal seq of the submission, when it came from a table."""
    epoch: str = ""
    """The unit's journal epoch of the submission: ``(unit, epoch, seq)`` names the one
    stored event it came from, also after a card swap numbered a new journal from 1."""


class ResultRejected(_Record, frozen=True, tag="result-rejected"):
    """A table's submission the hub refused, kept for the audit trail."""

    table: int
    game: int
    reason: str
    """Why, in English (what a record of a release before ``why`` has alone)."""
    unit: str = ""
    seq: int = 0
    epoch: str = ""
    """The unit's journal epoch of the submission (with ``unit`` and ``seq``, the stored
    event it came from)."""
    round: int = 0
    """The round the table said the result is for."""
    why: Wording | None = None
    """Why, as words to show in the reader's language (the same as ``reason``)."""
    final: bool = False
    """Sending it again cannot change the refusal (the game's result is recorded, the
    round or game is not the table's): the table is told to play on."""

    def why_words(self) -> Phrase:
        """Why, to say in the reader's language: ``why``, else the English ``reason``
        read back into one of the protocol's templates where one fits."""
        if self.why is not None:
            return self.why.phrase()
        read = phrase_of(self.reason, (NO_ROUND_PLAYED, OTHER_ROUND, NO_ROUND_NAMED))
        return read or reason_words(self.reason)


class LanguageChosen(_Record, frozen=True, tag="language-chosen"):
    """The one language the whole hall speaks (the tables, the hub screen, the printouts and
    the command line): chosen when the event is created, changed by the organizer mid-event.
    An event without one (a store of a release before it) speaks Polish."""

    language: str
    """The kit's code of the language (:data:`tablekit.shared.i18n.LANGUAGES`)."""
    why: str = ""


class StarterChosen(_Record, frozen=True, tag="starter-chosen"):
    """The organizer's starting seat for one game of a table (002/003/004 choose the first
    player by the highest tile, an app or the youngest player); sent in the assignment.
    Without it the seats rotate (game 1: A, game 2: B, …) unless the table chooses."""

    stage: str
    table: int
    game: int
    seat: Seat
    why: str = ""


class NameShown(enum.StrEnum):
    """How the public pages, the hub screen and the exports for publication name players
    (the event's privacy setting)."""

    FULL = "full"
    """Full names; players marked minor as given name and initial ("Anna K.")."""
    INITIAL = "initial"
    """Everyone as given name and initial."""


class PrivacyChosen(_Record, frozen=True, tag="privacy-chosen"):
    """The organizer's privacy setting: how players are named where the public reads
    them. An event without one names them as :attr:`NameShown.FULL` does."""

    names: NameShown
    why: str = ""


class MinorRecorded(_Record, frozen=True, tag="minor-recorded"):
    """The organizer's record of a player's age and a guardian's written consent (003 §8:
    a minor plays only with a guardian's written consent); the latest one counts."""

    player: str
    minor: bool
    consent: bool = False
    """A guardian's written consent is received (meaningful for a minor only)."""
    why: str = ""


class MinorAdmitted(_Record, frozen=True, tag="minor-admitted"):
    """The organizer's decision to let minors play whose guardian's written consent is
    not recorded, taken when the kit warned (at their check-in or at a draw)."""

    players: tuple[str, ...]
    why: str = ""


class PersonalDataErased(_Record, frozen=True, tag="personal-data-erased"):
    """Every player's name and club replaced by an anonymous label (the player's id) after
    the event: the records that held them are rewritten in the store in the same
    transaction (:meth:`hub.organizer.Organizer.erase_personal_data`); results and
    standings stay, by id."""

    players: int
    """How many players' data was erased."""


class JudgeCallResolved(_Record, frozen=True, tag="judge-call-resolved"):
    """A judge's resolution of a table's call: what the judge decided there (the note),
    at which table of which stage, recorded with who and when. The table's clock itself
    is resumed at the table, with the judge key; this is the record of the decision."""

    stage: str
    table: int
    note: str
    game: int = 0
    """The game the table was playing, as the hall saw it (0: not known)."""
    called: PauseReason | None = None
    """Why the table waited (a player's call, the judge key, a restarted unit), when the
    judge resolved it from the waiting table; None when recorded without it."""
    since: float | None = None
    """Wall time the table began waiting, when known."""


Record = (
    EventCreated
    | FormatFixed
    | OrganizerFact
    | RoundStarted
    | RoundTimeOver
    | ResultRecorded
    | ResultRejected
    | StarterChosen
    | LanguageChosen
    | PrivacyChosen
    | MinorRecorded
    | MinorAdmitted
    | PersonalDataErased
    | JudgeCallResolved
)

_record_decoder: msgspec.json.Decoder[Record] = msgspec.json.Decoder(Record)


def decode_record(payload: bytes) -> Record:
    return decode_with_retired_keys(_record_decoder, payload)


def record_kind(record: Record) -> str:
    return str(type(record).__struct_config__.tag)


# --- derived views ---------------------------------------------------------------------


@dataclass(frozen=True)
class ResultVersion:
    """One version of a game's result, as scored by the hub."""

    record: ResultRecorded
    score: GameScore
    players: dict[Seat, str]

    @property
    def game(self) -> int:
        return self.record.report.game


@dataclass(frozen=True)
class TableProgress:
    table: int
    players: tuple[str, ...]
    recorded: tuple[int, ...]
    """The games of the round whose result is recorded, ascending."""
    games: int

    @property
    def games_done(self) -> int:
        return len(self.recorded)

    @property
    def finished(self) -> bool:
        return self.games_done >= self.games

    @property
    def round_games(self) -> RoundGames:
        """The round's games at the table and which results the hub holds (what its unit
        is told in the assignment)."""
        return RoundGames(self.games, self.recorded)

    @property
    def next_game(self) -> int:
        """The lowest game without a result (the last game once every one has its result:
        the assignment always names a game)."""
        return self.round_games.first_open() or self.games


@dataclass(frozen=True)
class PlayerChange:
    """A player's name, club or gender changed: the record (who, when, why), before and
    after."""

    record: OrganizerFact
    before: Player
    after: Player


@dataclass
class Competition:
    """The whole event, derived from its records."""

    created: EventCreated | None = None
    state: EventState | None = None
    results: dict[tuple[str, int, int], list[ResultVersion]] = field(default_factory=dict)
    started: dict[str, RoundStarted] = field(default_factory=dict)
    time_over: dict[str, RoundTimeOver] = field(default_factory=dict)
    rejected: list[ResultRejected] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)
    """The tournament facts so far, results included, in order: to replay when the league
    format is fixed, and to see what a correction would change (:meth:`effects`)."""
    sanctions: list[OrganizerFact] = field(default_factory=list)
    """Every judge's sanction (a :class:`PlayerSanctioned` fact) with who, when and why."""
    lifts: dict[int, OrganizerFact] = field(default_factory=dict)
    """Sanctions taken back (a :class:`SanctionLifted` fact), by sanction number (from 1)."""
    undone: list[tuple[OrganizerFact, tuple[SeatedTable, ...]]] = field(default_factory=list)
    """Every draw taken back (a :class:`RoundUndone` fact) with the tables it had seated."""
    player_changes: list[PlayerChange] = field(default_factory=list)
    """Every change of a player's name or club, with who, when, why and what it was."""
    starters: dict[tuple[str, int, int], StarterChosen] = field(default_factory=dict)
    """The organizer's starting seats by (stage, table, game); the latest choice counts."""
    ties: list[OrganizerFact] = field(default_factory=list)
    """Every head judge's decision on a tie at a cut (a :class:`TieDecided` fact) with
    who, when and why."""
    consolations: list[OrganizerFact] = field(default_factory=list)
    """The organizer's seating of consolation players who cannot sit at tables of 3 or 4
    (a :class:`ConsolationDecided` fact) with who, when and why."""
    fixed: bool = False
    """The format is final (always, except an automatic league before its first draw)."""
    judge_calls: list[JudgeCallResolved] = field(default_factory=list)
    """Every judge call resolved, in the order recorded."""
    skipped: list[tuple[Record, str]] = field(default_factory=list)
    """Stored records that did not apply, with the reason (see :meth:`apply_all`)."""
    language_chosen: LanguageChosen | None = None
    """The organizer's latest choice of the event's language (None: never chosen)."""
    privacy: PrivacyChosen | None = None
    """The organizer's latest privacy setting (None: never chosen, full names)."""
    minors: dict[str, MinorRecorded] = field(default_factory=dict)
    """The latest record of each player marked minor or of age, by player id."""
    admitted: dict[str, MinorAdmitted] = field(default_factory=dict)
    """Minors the organizer let play without a recorded consent, by player id."""
    erased: PersonalDataErased | None = None
    """The players' personal data was erased (names and clubs are their ids now)."""
    records: int = 0
    seated_at: float = 0.0
    """When the latest draw seated the tables (the assignments' ``issued``)."""
    drawn_at: dict[str, float] = field(default_factory=dict)
    """When each drawn stage was seated (its latest draw)."""

    @property
    def language(self) -> str:
        """The language the whole hall speaks: the organizer's latest choice, else Polish
        (an event of a release before the choice existed)."""
        chosen = self.language_chosen
        return DEFAULT_LANGUAGE if chosen is None else chosen.language

    @property
    def names_shown(self) -> NameShown:
        """How the public reads players' names (:class:`NameShown`; full by default)."""
        return NameShown.FULL if self.privacy is None else self.privacy.names

    def is_minor(self, player_id: str) -> bool:
        record = self.minors.get(player_id)
        return record is not None and record.minor

    def without_consent(self, player_ids: Iterable[str]) -> list[str]:
        """Those of ``player_ids`` marked minor whose guardian's written consent is not
        recorded and whom the organizer has not admitted anyway (003 §8)."""
        return [
            pid
            for pid in player_ids
            if self.is_minor(pid) and not self.minors[pid].consent and pid not in self.admitted
        ]

    @classmethod
    def replay(cls, records: Iterable[Record]) -> Competition:
        competition = cls()
        for record in records:
            competition._apply(record)
        return competition

    def apply(self, record: Record) -> Competition:
        """A new competition with ``record`` applied; this one is left unchanged.

        Raises :class:`CompetitionError` (or a tournament error) when the record does
        not fit, so a command is checked by applying it before it is stored.
        """
        return self.apply_all((record,))

    def apply_all(self, records: Iterable[Record], *, stored: bool = False) -> Competition:
        """A new competition with ``records`` applied in order; this one is left unchanged.

        One copy for the whole batch (replaying a long event stays linear). A command's
        records raise like :meth:`apply`, and then nothing of the batch is applied. Records
        already ``stored`` never stop the fold: one that no longer applies (written by
        another version of the hub, say) is set aside in :attr:`skipped` with the reason.
        """
        new = copy.copy(self)
        new.results = {k: list(v) for k, v in self.results.items()}
        new.started = dict(self.started)
        new.time_over = dict(self.time_over)
        new.rejected = list(self.rejected)
        new.facts = list(self.facts)
        new.sanctions = list(self.sanctions)
        new.lifts = dict(self.lifts)
        new.undone = list(self.undone)
        new.player_changes = list(self.player_changes)
        new.starters = dict(self.starters)
        new.drawn_at = dict(self.drawn_at)
        new.ties = list(self.ties)
        new.consolations = list(self.consolations)
        new.judge_calls = list(self.judge_calls)
        new.skipped = list(self.skipped)
        new.minors = dict(self.minors)
        new.admitted = dict(self.admitted)
        for record in records:
            if not stored:
                new._apply(record)
                continue
            try:
                new._apply(record)
            except (CompetitionError, TournamentError, ScoreError) as err:
                log.error("stored record %s does not apply: %s", record_kind(record), err)
                new.skipped.append((record, str(err)))
        return new

    # -- what the organizer and the screen ask -----------------------------------------------

    @property
    def event(self) -> EventState:
        if self.state is None:
            raise CompetitionError(N_("no event yet: create one first (rummikub event create)"))
        return self.state

    @property
    def format(self) -> TournamentFormat:
        return self.event.format

    def ruleset(self, stage: Stage | str) -> Ruleset:
        name = stage if isinstance(stage, str) else stage.ruleset
        if isinstance(stage, str) and self.state is not None:
            name = next((s.ruleset for s in self.format.stages if s.name == stage), stage)
        created = self.created
        custom = created.rulesets if created is not None else {}
        if created is not None and created.ruleset:
            name = created.ruleset
        return get_ruleset(name, custom)

    def player_range(self) -> tuple[int, int]:
        """How many players the event takes: its format's range, or the league's whole
        range (every scheme's) while its scheme waits for the first draw."""
        if not self.fixed:
            return LEAGUE_MIN_PLAYERS, LEAGUE_MAX_PLAYERS
        return self.format.min_players, self.format.max_players

    def open_stage(self) -> Stage | None:
        if self.state is None or self.state.phase is not EventPhase.PLAYING:
            return None
        return self.state.current_stage

    def round_number(self, stage: str) -> int:
        return self.format.stage_index(stage) + 1

    def tables(self) -> list[TableProgress]:
        """Progress of every table of the open (or last) round."""
        if self.state is None or not self.state.stages_played:
            return []
        stage_name = self.state.stages_played[-1]
        stage = self.format.stages[self.format.stage_index(stage_name)]
        done: dict[int, set[int]] = {}
        for table, game in self.state.results(stage_name):
            done.setdefault(table, set()).add(game)
        return [
            TableProgress(t.number, t.players, tuple(sorted(done.get(t.number, ()))), stage.games)
            for t in self.state.seating(stage_name)
        ]

    def numbered_sanctions(
        self, player_id: str | None = None
    ) -> list[tuple[int, OrganizerFact, OrganizerFact | None]]:
        """Every sanction (or one player's): its number (from 1, in the order given, the
        number ``sanction lift`` takes), its record and the record lifting it, if any."""
        return [
            (number, record, self.lifts.get(number))
            for number, record in enumerate(self.sanctions, start=1)
            if player_id is None or _sanctioned(record) == player_id
        ]

    def standing_sanctions(
        self, player_id: str, stage: str | None = None
    ) -> list[PlayerSanctioned]:
        """Sanctions of ``player_id`` that stand (not lifted), given in ``stage`` or an
        earlier one (None: in any; one given before the first draw counts everywhere)."""
        limit = None if stage is None else self.format.stage_index(stage)
        return [
            fact
            for _, record, lift in self.numbered_sanctions(player_id)
            if lift is None
            and isinstance(fact := record.fact, PlayerSanctioned)
            and (limit is None or not fact.stage or self.format.stage_index(fact.stage) <= limit)
        ]

    def warnings_of(self, player_id: str, stage: str | None = None) -> int:
        """Warnings of ``player_id`` that stand (not lifted), given in ``stage`` or an
        earlier one (None: in any)."""
        return sum(
            1
            for fact in self.standing_sanctions(player_id, stage)
            if fact.kind is SanctionKind.WARNING
        )

    def changes_of(self, player_id: str) -> list[PlayerChange]:
        return [c for c in self.player_changes if c.after.id == player_id]

    def starter(self, stage: str, table: int, game: int) -> Seat | None:
        """The organizer's starting seat for a game, or None (rotation or the table's)."""
        chosen = self.starters.get((stage, table, game))
        return None if chosen is None else chosen.seat

    def history(self, stage: str, table: int, game: int) -> list[ResultVersion]:
        return list(self.results.get((stage, table, game), []))

    def table_playing(self, stage_name: str, table: int, game: int) -> SeatedTable:
        """Table ``table`` of a drawn round; CompetitionError unless the round has that
        table and a game ``game``."""
        seating = self.event.seating(stage_name)
        if not 1 <= table <= len(seating):
            raise CompetitionError(
                N_("table {table}: not in round {stage}"),
                table=table,
                stage=stage_phrase(stage_name),
            )
        games = self.format.stages[self.format.stage_index(stage_name)].games
        if not 1 <= game <= games:
            raise CompetitionError(
                N_("table {table}: round {stage} has games 1–{games}, got game {game}"),
                table=table,
                stage=stage_phrase(stage_name),
                games=games,
                game=game,
            )
        return seating[table - 1]

    def assignments(self) -> list[Assignment]:
        """What every table of the open round should show: seats, names, next game."""
        stage = self.open_stage()
        if stage is None:
            return []
        assert self.state is not None
        players = self.state.players
        rules = self.ruleset(stage)
        assigned = AssignedRules(move_seconds=rules.move_seconds, ruleset=rules.name, scoring=rules)
        out = []
        for progress in self.tables():
            seats = tuple(
                SeatAssignment(seat=seat, name=sent_name(players[pid].name), player=pid)
                for seat, pid in zip(
                    seats_for(len(progress.players)), progress.players, strict=True
                )
            )
            out.append(
                Assignment(
                    v=1,
                    table=progress.table,
                    game=progress.next_game,
                    seats=seats,
                    starter=self.starter(stage.name, progress.table, progress.next_game),
                    rules=assigned,
                    round=self.round_number(stage.name),
                    issued=self.seated_at,
                    games=progress.games,
                    recorded=progress.recorded,
                )
            )
        return out

    def round_deadline(self) -> tuple[str, float] | None:
        """(stage, wall time) at which the open round's time runs out, if it has a limit."""
        stage = self.open_stage()
        if stage is None or stage.name not in self.started:
            return None
        started = self.started[stage.name]
        minutes = started.minutes
        if minutes is None and self.created is not None:
            minutes = self.created.round_minutes
        if minutes is None:
            return None
        return stage.name, started.at + minutes * 60.0

    def check_result(self, table: int, report: GameReport) -> KitError | Phrase | None:
        """Why a table's submitted result cannot be accepted (``str()`` of it in English,
        ``.message(gettext)`` in the reader's language), or None if it can."""
        stage = self.open_stage()
        if stage is None:
            return Phrase(NO_ROUND_PLAYED)
        try:
            self._scored(stage.name, table, report, allow_replace=False)
        except (CompetitionError, ScoreError, TournamentError) as err:
            return err
        return None

    # -- the fold ---------------------------------------------------------------------------

    def _apply(self, record: Record) -> None:
        match record:
            case EventCreated():
                if self.created is not None:
                    raise CompetitionError(
                        N_("the event {name} already exists"), name=quoted(self.created.name)
                    )
                self.created = record
                # The automatic league scheme depends on the entry count: players register
                # under the widest scheme until the first draw fixes the real one.
                fmt = record.format or preset(PROVISIONAL_LEAGUE)
                self.state = EventState(fmt.validate())
                self.fixed = record.format is not None
            case FormatFixed(format=fmt):
                if self.fixed:
                    raise CompetitionError(N_("the format is already fixed"))
                self.state = EventState.replay(fmt.validate(), self.facts)
                self.fixed = True
            case OrganizerFact(fact=RoundUndone(stage=stage) as fact):
                tables = self.event.seating(stage) if stage in self.event.stages_played else ()
                self._apply_fact(fact)
                self.undone.append((record, tables))
                self.started.pop(stage, None)
                self.time_over.pop(stage, None)
                # the starting seats were chosen for the seating taken back
                self.starters = {k: v for k, v in self.starters.items() if k[0] != stage}
            case OrganizerFact(fact=fact):
                before = (
                    self.event.players.get(fact.player_id)
                    if isinstance(fact, PlayerDetailsChanged)
                    else None
                )
                self._apply_fact(fact)
                if isinstance(fact, RoundSeated):
                    self.seated_at = record.at
                    self.drawn_at[fact.stage] = record.at
                if isinstance(fact, PlayerSanctioned):
                    self.sanctions.append(record)
                elif isinstance(fact, SanctionLifted):
                    self.lifts[fact.number] = record
                if isinstance(fact, PlayerDetailsChanged) and before is not None:
                    after = self.event.players[fact.player_id]
                    self.player_changes.append(PlayerChange(record, before, after))
                if isinstance(fact, TieDecided):
                    self.ties.append(record)
                if isinstance(fact, ConsolationDecided):
                    self.consolations.append(record)
            case RoundStarted(stage=stage):
                open_stage = self.open_stage()
                if open_stage is None or open_stage.name != stage:
                    raise CompetitionError(
                        N_("start {stage}: it is not the round being played"),
                        stage=stage_phrase(stage),
                    )
                if stage in self.started:
                    raise CompetitionError(
                        N_("start {stage}: the round has already started"),
                        stage=stage_phrase(stage),
                    )
                self.started[stage] = record
            case RoundTimeOver(stage=stage):
                self.time_over.setdefault(stage, record)
            case ResultRecorded():
                self._record_result(record)
            case ResultRejected():
                self.rejected.append(record)
            case StarterChosen():
                self._choose_starter(record)
            case JudgeCallResolved():
                self._resolve_call(record)
            case LanguageChosen(language=code):
                if self.created is None:
                    raise CompetitionError(
                        N_("no event yet: create one first (rummikub event create)")
                    )
                if code not in LANGUAGES:
                    raise CompetitionError(
                        N_("language {language}: the kit speaks {languages}"),
                        language=code,
                        languages=", ".join(LANGUAGES),
                    )
                self.language_chosen = record
            case PrivacyChosen():
                if self.created is None:
                    raise CompetitionError(
                        N_("no event yet: create one first (rummikub event create)")
                    )
                self.privacy = record
            case MinorRecorded(player=player):
                self._known_player(player)
                self.minors[player] = record
            case MinorAdmitted(players=players):
                for player in players:
                    self._known_player(player)
                    self.admitted[player] = record
            case PersonalDataErased():
                self._erase(record)
        self.records += 1

    def _known_player(self, player_id: str) -> None:
        if player_id not in self.event.players:
            raise CompetitionError(N_("unknown player {player}"), player=quoted(player_id))

    def _erase(self, record: PersonalDataErased) -> None:
        """Every player named by their id from now on, no club; the name changes too."""
        if self.erased is not None:
            raise CompetitionError(N_("the players' personal data is already erased"))
        if self.open_stage() is not None:
            raise CompetitionError(
                N_("erasing personal data: a round is being played; erase after the event")
            )
        state = self.event
        self.state = state.renamed({pid: anonymous(p) for pid, p in state.players.items()})
        self.player_changes = [
            PlayerChange(c.record, anonymous(c.before), anonymous(c.after))
            for c in self.player_changes
        ]
        self.erased = record

    def _choose_starter(self, record: StarterChosen) -> None:
        stage_name, table, game = record.stage, record.table, record.game
        seats = seats_for(len(self.table_playing(stage_name, table, game).players))
        if record.seat not in seats:
            raise CompetitionError(
                N_("table {table}: seat {seat} is not at a {players}-player table (seats "
                   "{seats})"),
                table=table,
                seat=record.seat,
                players=len(seats),
                seats=", ".join(seats),
            )
        if self.event.has_result(stage_name, table, game):
            raise CompetitionError(
                N_("table {table} game {game}: its result is in; the game has been played"),
                table=table,
                game=game,
            )
        self.starters[(stage_name, table, game)] = record

    def _resolve_call(self, record: JudgeCallResolved) -> None:
        if record.stage not in self.event.stages_played:
            raise CompetitionError(
                N_("table {table}: {stage} is not drawn"),
                table=record.table,
                stage=stage_phrase(record.stage),
            )
        tables = len(self.event.seating(record.stage))
        if record.game:
            self.table_playing(record.stage, record.table, record.game)
        elif not 1 <= record.table <= tables:
            raise CompetitionError(
                N_("table {table}: {stage} has tables 1–{last}"),
                table=record.table,
                stage=stage_phrase(record.stage),
                last=tables,
            )
        if not record.note.strip():
            raise CompetitionError(
                N_("table {table}: say what the judge decided (the note)"), table=record.table
            )
        self.judge_calls.append(record)

    def calls_at(self, stage: str, table: int) -> list[JudgeCallResolved]:
        """The judge calls resolved at ``table`` of ``stage``, oldest first."""
        return [c for c in self.judge_calls if c.stage == stage and c.table == table]

    def _apply_fact(self, fact: Fact) -> None:
        if self.state is None:
            raise CompetitionError(N_("no event yet: create one first (rummikub event create)"))
        self.state = self.state.apply(fact)
        self.facts.append(fact)

    def _record_result(self, record: ResultRecorded) -> None:
        version = self._scored(
            record.stage,
            record.table,
            record.report,
            allow_replace=record.source is ResultSource.JUDGE,
        )
        version = ResultVersion(record, version.score, version.players)
        assert self.state is not None
        scores = tuple(
            PlayerScore(version.players[s.seat], s.big, s.small) for s in version.score.scores
        )
        fact = GameRecorded(record.stage, record.table, record.report.game, scores)
        self.state = self.state.apply(fact)
        self.facts.append(fact)
        self.results.setdefault((record.stage, record.table, record.report.game), []).append(
            version
        )

    def _scored(
        self, stage_name: str, table: int, report: GameReport, *, allow_replace: bool
    ) -> ResultVersion:
        state = self.event
        seated = self.table_playing(stage_name, table, report.game)
        if state.has_result(stage_name, table, report.game) and not allow_replace:
            raise CompetitionError(
                N_("table {table} game {game}: a result is already recorded (the game is "
                   "closed); a judge corrects it at the hub"),
                table=table,
                game=report.game,
            )
        if len(report.racks) != len(seated.players):
            raise CompetitionError(
                N_("table {table}: {players} players sit there, the result has {seats} seats"),
                table=table,
                players=len(seated.players),
                seats=len(report.racks),
            )
        score = score_game(report, self.ruleset(stage_name))
        players = dict(zip(seats_for(len(seated.players)), seated.players, strict=True))
        placeholder = ResultRecorded(at=0.0, stage=stage_name, table=table, report=report)
        return ResultVersion(placeholder, score, players)


def anonymous(player: Player) -> Player:
    """``player`` after the erasure of personal data: named by their id, no club, no
    league number or gender (the rating, which seeded the draws, stays)."""
    return msgspec.structs.replace(player, name=player.id, surname="", club=None,
                                   league_number="", gender=None)


def _sanctioned(record: OrganizerFact) -> str:
    fact = record.fact
    return fact.player_id if isinstance(fact, PlayerSanctioned) else ""


def new_event(
    name: str,
    preset_name: str,
    *,
    at: float,
    by: str = "",
    semifinal: int = 8,
    ruleset: str | None = None,
    rulesets: Mapping[str, Ruleset] | None = None,
    round_minutes: float | None = None,
) -> EventCreated:
    """The record that creates an event from a preset (the format fixed now, except
    the automatic league scheme, which needs the number of players)."""
    fmt = None if preset_name == "league" else preset(preset_name, semifinal=semifinal)
    custom = dict(rulesets or {})
    if ruleset is not None:
        get_ruleset(ruleset, custom)  # unknown name -> a clear error now, not mid-event
    if fmt is not None:
        for stage in fmt.stages:
            get_ruleset(ruleset or stage.ruleset, custom)
    return EventCreated(
        at=at,
        by=by,
        name=name,
        preset=preset_name,
        format=fmt,
        semifinal=semifinal,
        ruleset=ruleset,
        rulesets=custom,
        round_minutes=round_minutes,
    )
