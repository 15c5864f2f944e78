"""Organizer commands on one event's store (the CLI, the hub service and the demo).

Each command is checked by applying its records to the event as it stands
(:class:`~hub.competition.Competition` is a pure fold) and only then stored, all of
a command's records in one transaction: a refused command leaves nothing behind.
Everything the hub knows is in the store, so a restarted hub resumes the event
exactly where it was.

:class:`Organizer` has the organizer's commands (the event, players, starting seats,
rounds: draw, start, undo, close, time over); the judges' commands come from
:class:`~hub.judging.JudgeCommands`, reading and storing from
:class:`~hub.organizer_base.OrganizerBase`.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import msgspec

from hub.competition import (
    Competition,
    CompetitionError,
    EventCreated,
    FormatFixed,
    LanguageChosen,
    MinorAdmitted,
    MinorRecorded,
    NameShown,
    OrganizerFact,
    PersonalDataErased,
    PlayerChange,
    PrivacyChosen,
    Record,
    RoundStarted,
    RoundTimeOver,
    StarterChosen,
    new_event,
)
from hub.effects import ReasonNeededError
from hub.erasure import Erasure
from hub.judging import GAME_STARTED, JudgeCommands
from hub.organizer_base import record_kind_of
from hub.players_csv import MAX_NAME, clean, player_key, who_of
from hub.tournament import (
    EventState,
    Fact,
    LeagueNumberError,
    Player,
    PlayerCheckedIn,
    PlayerCountError,
    PlayerDetailsChanged,
    PlayerLateArrived,
    PlayerRegistered,
    PlayerWithdrawn,
    RoundClosed,
    RoundSeated,
    RoundUndone,
    SeedsDeclared,
    league_number,
    preset,
)
from hub.tournament.stage_words import stage_phrase
from tablekit.core.errors import KitError, Phrase, quoted
from tablekit.core.gender import Gender
from tablekit.core.names import check_surname, full_name, split_name
from tablekit.core.rulesets import Ruleset
from tablekit.core.seats import Seat
from tablekit.core.words import N_
from tablekit.shared.i18n import DEFAULT_LANGUAGE
from tablekit.shared.i18n import language as i18n_language


def _check_fresh_seed(competition: Competition, seed: int) -> None:
    """A seed given for a draw must not be one an earlier round was drawn with: the same
    players drawn with the same seed sit at the same tables again."""
    event = competition.event
    for stage in event.stages_played:
        if event.seed_of(stage) == seed:
            raise CompetitionError(
                N_("draw: seed {seed} already drew {stage}, and the same seed seats the same "
                   "players together again; leave --seed out (a new seed is drawn and "
                   "recorded)"),
                seed=seed,
                stage=stage,
            )


def check_in_hint(event: EventState) -> Phrase | str:
    """How to get players into the first draw when too few are present ("" if the
    registration list itself is the problem)."""
    if event.stages_played:
        return ""
    if not event.players:
        return Phrase(
            N_("; nobody is registered yet: rummikub players import FILE "
               "(or rummikub players add NAME)")
        )
    waiting = (
        len(event.players) - len(event.present) - len(event.withdrawn) - len(event.disqualified)
    )
    if waiting <= 0:
        return ""
    return Phrase(
        N_("; {present} of {registered} registered players are checked in and only they are "
           "drawn: check the others in with rummikub players check-in --all (or rummikub "
           "players check-in ID …)"),
        present=len(event.present),
        registered=len(event.players),
    )


class ConsentMissingError(CompetitionError):
    """Players marked minor without a guardian's written consent recorded (003 §8) would be
    checked in or drawn: the organizer decides (``admit_minors``), and the decision is
    recorded. ``missing``: their ids."""

    def __init__(self, template: str, missing: Sequence[str], **values: object) -> None:
        super().__init__(template, **values)
        self.missing = tuple(missing)


def _check_consent(competition: Competition, player_ids: Iterable[str], what: Phrase) -> None:
    missing = competition.without_consent(player_ids)
    if missing:
        players = competition.event.players
        raise ConsentMissingError(
            N_("{what}: {players}: marked minor, and no guardian's written consent is "
               "recorded (003 §8); record the consent, or admit them anyway as the "
               "organizer's decision (recorded)"),
            missing,
            what=what,
            players=", ".join(f"{pid} {players[pid].name}" for pid in missing),
        )


class PlayerEntryError(CompetitionError):
    """A player's details refused; ``field`` names what is wrong: ``name``, ``surname``,
    ``club`` or ``league_number`` (a form shows the message beside it)."""

    def __init__(self, template: str, /, *, field: str, **values: object) -> None:
        super().__init__(template, **values)
        self.field = field


def _reason(err: ValueError) -> KitError | str:
    """A refused value's reason, translated where it is a kit error."""
    return err if isinstance(err, KitError) else str(err)


@dataclass(frozen=True)
class ErasureDone:
    """What :meth:`Organizer.erase_personal_data` did."""

    record: PersonalDataErased
    rewritten: int
    """Stored payloads rewritten."""
    compacted: bool
    """The file was copied anew and its log emptied (False: another program was reading
    it; the old pages go when the log is next emptied)."""


class Organizer(JudgeCommands):
    """The organizer's and the judges' commands on one event's store."""

    def create_event(
        self,
        name: str,
        preset_name: str,
        *,
        semifinal: int = 8,
        ruleset: str | None = None,
        rulesets: dict[str, Ruleset] | None = None,
        round_minutes: float | None = None,
        language: str = DEFAULT_LANGUAGE,
        privacy: NameShown | None = None,
    ) -> EventCreated:
        """Create the event from a preset, speaking ``language`` (a code or locale name of
        :data:`~tablekit.shared.i18n.LANGUAGES`; every preset follows a Polish rule book,
        so Polish unless asked), and naming players as ``privacy`` says (None: full names,
        minors as given name and initial). The choices are recorded with the event, in
        one commit."""
        try:
            name = clean(name, "name")
        except ValueError as err:
            raise CompetitionError(N_("event create: {error}"), error=_reason(err)) from None
        if not name:
            raise CompetitionError(N_("event create: the event's name is empty"))
        if round_minutes is not None and not 0 < round_minutes <= 24 * 60:
            raise CompetitionError(
                N_("event create: a round's time is above 0 and at most 1440 minutes, not "
                   "{minutes}"),
                minutes=f"{round_minutes:g}",
            )
        chosen = LanguageChosen(at=self.clock(), by=self.by, language=i18n_language(language))
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
        if privacy is None:
            self.record(record, chosen)
        else:
            self.record(record, chosen, PrivacyChosen(at=self.clock(), by=self.by, names=privacy))
        return record

    def choose_privacy(self, names: NameShown | str, *, why: str = "") -> PrivacyChosen:
        """How the public pages, the hub screen and the exports for publication name the
        players (:mod:`hub.privacy`); recorded with who, when and why. Choosing the
        setting in force records nothing and returns the choice that stands."""
        try:
            shown = NameShown(names)
        except ValueError:
            raise CompetitionError(
                N_("privacy: no setting {setting}; the settings are {settings}"),
                setting=quoted(names),
                settings=", ".join(NameShown),
            ) from None
        current = self.competition
        if current.privacy is not None and current.privacy.names is shown:
            return current.privacy
        record = PrivacyChosen(at=self.clock(), by=self.by, names=shown, why=why)
        self.record(record)
        return record

    def record_minor(
        self,
        player_ids: Sequence[str],
        *,
        minor: bool = True,
        consent: bool = False,
        why: str = "",
    ) -> list[MinorRecorded]:
        """Record that ``player_ids`` are minors (or not), and whether a guardian's written
        consent is received (003 §8), in one commit."""
        if not player_ids:
            raise CompetitionError(N_("minor: give the players"))
        if consent and not minor:
            raise CompetitionError(N_("minor: a guardian's consent is for a minor"))
        records = [
            MinorRecorded(at=self.clock(), by=self.by, player=pid, minor=minor,
                          consent=consent, why=why)
            for pid in player_ids
        ]
        self.record(*records)
        return records

    @property
    def language(self) -> str:
        """The language the whole hall speaks (:attr:`Competition.language`): what the
        tables, the hub screen, the printouts and the command line show."""
        return self.competition.language

    def choose_language(self, language: str, *, why: str = "") -> LanguageChosen:
        """Change the event's language mid-event (a code or locale name of
        :data:`~tablekit.shared.i18n.LANGUAGES`): the hub tells every table and screen at
        once. Recorded with who, when and why; choosing the language the event already
        speaks records nothing and returns the choice that stands."""
        code = i18n_language(language)
        current = self.competition
        if current.created is not None and current.language == code:
            standing = current.language_chosen
            if standing is not None:
                return standing
        record = LanguageChosen(at=self.clock(), by=self.by, language=code, why=why)
        self.record(record)
        return record

    def register(
        self,
        players: Sequence[Player],
        *,
        check_in: bool = False,
        minors: Mapping[str, bool] | None = None,
    ) -> bool:
        """Register ``players``, in one commit; ``minors``: those marked minor, by id, with
        whether a guardian's written consent is received (003 §8). With ``check_in`` they
        are present: checked in before the first draw, late arrivals after it (they play
        from the next draw) — except a minor without consent, who waits for the consent or
        the organizer's decision. True when they were recorded as late arrivals."""
        at = self.clock()
        late: list[bool] = []

        def registered(competition: Competition) -> list[Record]:
            drawn = bool(competition.event.stages_played)
            late[:] = [check_in and drawn]
            return registration(players, at=at, by=self.by, check_in=check_in, late=drawn,
                                minors=minors or {})

        self.command(registered)
        return late[0]

    def add_player(
        self,
        name: str,
        *,
        surname: str = "",
        club: str | None = None,
        rating: float | None = None,
        league_number: str = "",
        gender: Gender | None = None,
        check_in: bool = False,
    ) -> tuple[Player, bool]:
        """Register one player (the next free id), checking the name, surname, club and
        league number as a players file's are (:class:`PlayerEntryError` naming the
        field); ``gender`` as given (None: proposed from the given name); with
        ``check_in`` present at once (a late arrival after the first draw). The player,
        and whether they were recorded as a late arrival."""
        entered: dict[str, str] = {}
        for part, text, what in (("name", name, "name"), ("surname", surname, "name"),
                                 ("club", club or "", "club")):
            try:
                entered[part] = clean(text, what)
            except ValueError as err:
                raise PlayerEntryError(
                    N_("players add: {error}"), field=part, error=_reason(err)
                ) from None
        name, surname = entered["name"], entered["surname"]
        try:
            check_surname(name, surname)
        except ValueError as err:
            raise PlayerEntryError(
                N_("players add: {error}"), field="surname", error=_reason(err)
            ) from None
        if not name:
            raise PlayerEntryError(N_("players add: the name is empty"), field="name")
        if len(name) > MAX_NAME:
            raise PlayerEntryError(
                N_("players add: the name is longer than {most} characters"), field="name",
                most=MAX_NAME,
            )
        club_name = entered["club"] or None
        key = player_key(name, club_name)
        at = self.clock()
        added: list[tuple[Player, bool]] = []

        def registered(competition: Competition) -> list[Record]:
            event = competition.event
            for player in event.players.values():
                if player_key(player.name, player.club) == key:
                    raise PlayerEntryError(
                        N_("players add: duplicate player {who}: already registered as {id}"),
                        field="name", who=who_of(name, club_name), id=player.id,
                    )
            number = checked_league_number(event, league_number, N_("players add: {error}"))
            player = Player(fresh_id(event), name, club_name, rating, surname=surname,
                            league_number=number, gender=gender)
            drawn = bool(event.stages_played)
            added[:] = [(player, check_in and drawn)]
            return registration([player], at=at, by=self.by, check_in=check_in, late=drawn,
                                minors={})

        self.command(registered)
        return added[0]

    def next_player_id(self, offset: int = 0) -> str:
        """A fresh id for a new player: P001, P002, …; ``offset`` skips that many fresh
        ids, so a batch gets distinct ids (``next_player_id(i)`` for its i-th player)."""
        return fresh_id(self.competition.event, offset)

    def check_in(self, player_ids: Iterable[str], *, admit_minors: bool = False) -> None:
        """Check players in; a minor without a guardian's written consent recorded is
        refused (:class:`ConsentMissingError`) unless the organizer ``admit_minors``,
        which is recorded with the check-in."""
        ids = list(player_ids)
        self._arrivals([PlayerCheckedIn(pid) for pid in ids], ids, admit_minors,
                       Phrase(N_("check-in")))

    def late_arrival(self, player_id: str, *, admit_minors: bool = False) -> None:
        self.late_arrivals([player_id], admit_minors=admit_minors)

    def late_arrivals(self, player_ids: Iterable[str], *, admit_minors: bool = False) -> None:
        """Players who arrived after the first draw, in one commit (they play from the
        next draw for everyone present); minors as at a check-in."""
        ids = list(player_ids)
        self._arrivals([PlayerLateArrived(pid) for pid in ids], ids, admit_minors,
                       Phrase(N_("late arrival")))

    def _arrivals(
        self, facts: Sequence[Fact], ids: Sequence[str], admit: bool, what: Phrase
    ) -> None:
        now = self.clock()

        def arrived(competition: Competition) -> list[Record]:
            records: list[Record] = [OrganizerFact(at=now, by=self.by, fact=f) for f in facts]
            missing = competition.without_consent(ids)
            if not admit:
                _check_consent(competition, ids, what)
            elif missing:
                records.append(MinorAdmitted(at=now, by=self.by, players=tuple(missing)))
            return records

        self.command(arrived)

    def withdraw(self, player_id: str, reason: str) -> None:
        """The player leaves the event, for ``reason`` (required; recorded)."""
        reason = " ".join(reason.split())
        if not reason:
            raise CompetitionError(N_("players withdraw: --reason is empty"))
        self.record_facts([PlayerWithdrawn(player_id, reason)], why=reason)

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
        league_number: str | None = None,
        gender: Gender | None = None,
    ) -> PlayerChange:
        """Correct a player's name, club, league number (``""`` takes it away) or
        grammatical gender (None: as it is), saying why; recorded with who and when.

        ``name`` is the whole name (its last word the surname unless ``surname`` says
        otherwise); or ``given`` and/or ``surname`` replace those parts of the current
        name — a ``surname`` alone that already ends the name only marks where the
        surname starts ("Jan Maria Kowalski", surname "Maria Kowalski").
        """
        what = Phrase(N_("change of {player}"), player=player_id)
        if not why.strip():
            raise ReasonNeededError(N_("{what}: say why"), what=what)
        at = self.clock()

        def changed(competition: Competition) -> list[OrganizerFact]:
            fact = details_changed(
                competition.event, player_id, what, name=name, given=given, surname=surname,
                club=club, clear_club=clear_club, league_number=league_number, gender=gender,
            )
            return [OrganizerFact(at=at, by=self.by, fact=fact, why=" ".join(why.split()))]

        competition, _ = self.command(changed)
        return competition.player_changes[-1]

    def declare_seeds(self, player_ids: Sequence[str]) -> None:
        self.record_facts([SeedsDeclared(tuple(player_ids))])

    def choose_starter(
        self, table: int, seat: Seat, *, game: int | None = None, why: str = ""
    ) -> StarterChosen:
        """The seat that starts ``game`` (default: the table's next game) at ``table`` of
        the round being played; the table's display shows it before the first press."""
        at = self.clock()

        def chosen(competition: Competition) -> list[StarterChosen]:
            stage = competition.open_stage()
            if stage is None:
                raise CompetitionError(N_("starter: no round is drawn and open; draw one first"))
            number = game
            if number is None:
                progress = {t.table: t for t in competition.tables()}.get(table)
                if progress is None:
                    raise CompetitionError(
                        N_("table {table}: not in round {stage}"), table=table,
                        stage=stage_phrase(stage.name),
                    )
                number = progress.next_game
            return [StarterChosen(
                at=at, by=self.by, stage=stage.name, table=table, game=number, seat=Seat(seat),
                why=why,
            )]

        _, [record] = self.command(chosen)
        return record

    def draw(self, seed: int | None = None, *, admit_minors: bool = False) -> RoundSeated:
        """Seat the next round (fixing the automatic league scheme at the first draw). A
        minor present without a guardian's written consent recorded, whom the organizer
        has not admitted, is refused (:class:`ConsentMissingError`) unless the organizer
        ``admit_minors`` now (recorded with the draw)."""
        chosen = seed
        seed = secrets.randbelow(2**31) if seed is None else seed
        at = self.clock()

        def drawn(competition: Competition) -> list[Record]:
            missing = competition.without_consent(sorted(competition.event.present))
            if missing and not admit_minors:
                _check_consent(competition, missing, Phrase(N_("draw")))
            if chosen is not None:
                _check_fresh_seed(competition, chosen)
            records: list[Record] = []
            created = competition.created
            try:
                if created is not None and not competition.fixed:
                    fmt = preset(created.preset, players=len(competition.event.present))
                    records.append(FormatFixed(at=at, by=self.by, format=fmt))
                    competition = competition.apply(records[0])
                seated = competition.event.draw_next(seed)
            except PlayerCountError as err:
                raise PlayerCountError(
                    N_("draw: {error}{hint}"), error=err, hint=check_in_hint(competition.event)
                ) from None
            records.append(OrganizerFact(at=at, by=self.by, fact=seated))
            if missing:
                records.append(MinorAdmitted(at=at, by=self.by, players=tuple(missing)))
            return records

        _, records = self.command(drawn)
        [seated] = [r.fact for r in records if isinstance(r, OrganizerFact)
                    and isinstance(r.fact, RoundSeated)]
        return seated

    def start_round(self, minutes: float | None = None) -> RoundStarted:
        at = self.clock()

        def started(competition: Competition) -> list[RoundStarted]:
            stage = competition.open_stage()
            if stage is None:
                raise CompetitionError(N_("start: no round is drawn and open; draw one first"))
            return [RoundStarted(at=at, by=self.by, stage=stage.name, minutes=minutes)]

        _, [record] = self.command(started)
        return record

    def undo_draw(self, why: str) -> RoundUndone:
        """Take back the latest draw while no table has started it: no result of the
        round, no game started at any of its tables since the draw (the units' own
        reports in the store), its time not over. The tables are then told they have
        no assignment, and the round is drawn again with ``round draw``."""
        if not why.strip():
            raise ReasonNeededError(N_("undo the draw: say why"))
        at = self.clock()

        def undone(competition: Competition) -> list[OrganizerFact]:
            stage = competition.open_stage()
            if stage is None:
                raise CompetitionError(N_("undo the draw: no round is drawn and open"))
            if stage.name in competition.time_over:
                raise CompetitionError(
                    N_("undo the draw of {stage}: the round's time is already over"),
                    stage=stage.name,
                )
            started = self._tables_started(competition, stage.name)
            if started:
                raise CompetitionError(
                    N_("undo the draw of {stage}: table(s) {tables} have started a game since "
                       "the draw; a judge corrects results instead"),
                    stage=stage.name,
                    tables=", ".join(map(str, started)),
                )
            return [OrganizerFact(at=at, by=self.by, fact=RoundUndone(stage.name), why=why.strip())]

        _, [record] = self.command(undone)
        assert isinstance(record.fact, RoundUndone)
        return record.fact

    def _tables_started(self, competition: Competition, stage: str) -> list[int]:
        """Tables of ``stage`` whose unit reported a game started after it was drawn."""
        drawn_at = self.drawn_event(stage)
        tables = {t.number for t in competition.event.seating(stage)}
        return sorted(
            {
                event.table
                for event in self.store.events(kind=GAME_STARTED)
                if event.id > drawn_at and event.table in tables
            }
        )

    def close_round(self, *, force: bool = False, why: str = "") -> RoundClosed:
        if force and not why.strip():
            raise CompetitionError(
                N_("close --force: say why the missing games are not played")
            )
        at = self.clock()

        def closed(competition: Competition) -> list[OrganizerFact]:
            stage = competition.open_stage()
            if stage is None:
                raise CompetitionError(N_("close: no round is open"))
            fact = RoundClosed(stage.name, forced=force)
            return [OrganizerFact(at=at, by=self.by, fact=fact, why=why)]

        _, [record] = self.command(closed)
        assert isinstance(record.fact, RoundClosed)
        return record.fact

    def erase_personal_data(self, *, confirm: str) -> ErasureDone:
        """After the event: every player's name and club replaced by their id in the whole
        store (:mod:`hub.erasure`), in one transaction with the record saying who erased
        and when; then the file is copied anew so no page keeps the names. ``confirm``
        must be the event's name, typed: this cannot be undone. Results and standings
        stay, by id. Once erased, it only copies the file anew (another program reading
        the file may have kept its log from being emptied)."""
        competition = self.competition
        created = competition.created
        if created is None:
            raise CompetitionError(N_("no event yet: create one first (rummikub event create)"))
        if " ".join(confirm.split()) != created.name:
            raise CompetitionError(
                N_("erasing personal data: type the event's name {name} to confirm"),
                name=quoted(created.name),
            )
        if competition.erased is not None:  # erased already: the file copied anew again
            return ErasureDone(competition.erased, 0, self.store.compact())
        players = competition.event.players
        record = PersonalDataErased(at=self.clock(), by=self.by, players=len(players))
        every = [*players.values(), *(c.before for c in competition.player_changes)]
        erasure = Erasure.of(every)

        def check() -> None:
            self.competition.apply(record)

        rewritten = self.store.rewrite(
            erasure.payload, [(record_kind_of(PersonalDataErased), record)], check=check
        )
        self.forget()
        compacted = self.store.compact()
        return ErasureDone(record, rewritten, compacted)

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


def details_changed(
    event: EventState,
    player_id: str,
    what: Phrase,
    *,
    name: str | None,
    given: str | None,
    surname: str | None,
    club: str | None,
    clear_club: bool,
    league_number: str | None,
    gender: Gender | None,
) -> PlayerDetailsChanged:
    """The change of a player's details (see :meth:`Organizer.change_player`), checked
    against ``event``: a known player, a name within bounds, a league number nobody else
    has, something changed (a gender the player has on record already is no change), and
    no other player with the new name and club."""
    if player_id not in event.players:
        raise CompetitionError(
            N_("{what}: unknown player {player}"), what=what, player=quoted(player_id)
        )
    old = event.players[player_id]
    try:
        new_name, new_surname = _new_name(old, name, given, surname)
        new_club = None if clear_club else old.club if club is None else clean(club, "club")
    except ValueError as err:
        raise CompetitionError(
            N_("{what}: {error}"),
            what=what,
            error=err if isinstance(err, KitError) else str(err),
        ) from None
    new_club = new_club or None
    if len(new_name) > MAX_NAME:
        raise CompetitionError(
            N_("{what}: the name is longer than {most} characters"), what=what, most=MAX_NAME
        )
    number = (
        None if league_number is None
        else checked_league_number(event, league_number, N_("{what}: {error}"), player_id,
                                   what=what)
    )
    now = split_name(new_name, new_surname)
    kept = old.league_number if number is None else number
    if gender == old.grammatical_gender and old.gender is not None:
        gender = None
    if gender is None and (new_name, now, new_club, kept) == (
        old.name, split_name(old.name, old.surname), old.club, old.league_number
    ):
        raise CompetitionError(
            N_("{what}: nothing to change (give a name, surname, club, league number or "
               "gender)"),
            what=what,
        )
    key = player_key(new_name, new_club)
    for other in event.players.values():
        if other.id != player_id and player_key(other.name, other.club) == key:
            raise CompetitionError(
                N_("{what}: {who} is already registered as {id}"),
                what=what,
                who=who_of(new_name, new_club),
                id=other.id,
            )
    return PlayerDetailsChanged(player_id, new_name, new_surname, new_club,
                                league_number=number, gender=gender)


def _new_name(
    old: Player, name: str | None, given: str | None, surname: str | None
) -> tuple[str, str]:
    """(name, surname) after a change (see :meth:`Organizer.change_player`)."""
    if name is not None:
        if given is not None:
            raise CompetitionError(N_("give the whole name or the given name, not both"))
        new_name = clean(name)
        new_surname = clean(surname) if surname is not None else ""
        if not new_name:
            raise CompetitionError(N_("the name is empty"))
        check_surname(new_name, new_surname)
        return new_name, new_surname
    old_given, old_surname = split_name(old.name, old.surname)
    new_given = old_given if given is None else clean(given)
    if surname is None:
        new_surname = old_surname
    else:
        new_surname = clean(surname)
        if not new_surname:
            raise CompetitionError(N_("the surname is empty"))
        if given is None and (old.name == new_surname or old.name.endswith(" " + new_surname)):
            return old.name, new_surname
    return full_name(new_given, new_surname), new_surname


MAX_ROUND_MINUTES = 24 * 60
"""A round's time at most (a whole day)."""


def minutes_of(text: str) -> float:
    """A round's time in minutes as a person types it (``40``, ``37,5``): above 0 and at
    most :data:`MAX_ROUND_MINUTES`; CompetitionError naming what is wrong."""
    try:
        value = float(text.strip().replace(",", "."))
    except ValueError:
        raise CompetitionError(N_("{text} is not a number of minutes"), text=quoted(text)) from None
    if not 0 < value <= MAX_ROUND_MINUTES:
        raise CompetitionError(
            N_("must be above 0 and at most 1440, got {text}"), text=text.strip()
        )
    return value


def fresh_id(event: EventState, offset: int = 0) -> str:
    """A fresh id for a new player of ``event``: P001, P002, …; ``offset`` skips that
    many fresh ids, so a batch gets distinct ids."""
    taken = set(event.players)
    n = len(taken)
    while True:
        n += 1
        if f"P{n:03d}" not in taken:
            if offset == 0:
                return f"P{n:03d}"
            offset -= 1


def registration(
    players: Sequence[Player],
    *,
    at: float,
    by: str,
    check_in: bool,
    late: bool,
    minors: Mapping[str, bool],
) -> list[Record]:
    """The records registering ``players`` (``minors``: those marked minor, with whether a
    guardian's consent is received); with ``check_in`` present: checked in before the
    first draw, late arrivals once a round is ``late`` drawn — except a minor without
    consent."""
    records: list[Record] = []
    for player in players:
        records.append(OrganizerFact(at=at, by=by, fact=PlayerRegistered(player)))
        if player.id in minors:
            records.append(MinorRecorded(at=at, by=by, player=player.id, minor=True,
                                         consent=minors[player.id]))
        if not check_in or minors.get(player.id) is False:
            continue
        arrived: Fact = PlayerLateArrived(player.id) if late else PlayerCheckedIn(player.id)
        records.append(OrganizerFact(at=at, by=by, fact=arrived))
    return records


def checked_league_number(
    event: EventState, text: str, template: str, player_id: str = "", **values: object
) -> str:
    """``text`` as a league number no other player of ``event`` has
    (:class:`PlayerEntryError` naming the field ``league_number``; ``template`` says where
    with ``values`` and ``{error}``)."""
    try:
        number = league_number(text)
    except LeagueNumberError as err:
        raise PlayerEntryError(template, field="league_number", error=err,
                               **values) from None
    for other in event.players.values():
        if number and other.league_number == number and other.id != player_id:
            raise PlayerEntryError(
                template, field="league_number", **values,
                error=Phrase(N_("league number {number} is {other}'s already"),
                             number=number, other=other.id),
            )
    return number
