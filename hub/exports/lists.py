"""The event's lists: the seating, the players and their name and club changes, the
sanctions, the head judge's tie decisions and the organizer's consolation seatings, in
the reader's language."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from hub.competition import Competition, JudgeCallResolved, OrganizerFact
from hub.exports.grid import Grid, Sheet, latest_stage, player_of, when
from hub.exports.notes import consolation_decision, fact_of, scope_label, tie_fact, tie_how
from hub.exports.standings import points_headers
from hub.exports.words import (
    SANCTIONS,
    csv_value,
    gender_word,
    stage_label,
    status_word,
    word,
)
from hub.hall import wait_text
from hub.tournament import (
    ConsolationDecided,
    EventState,
    Player,
    PlayerSanctioned,
    SanctionKind,
    SeatedTable,
    TieDecided,
    player_order,
)
from hub.tournament.progress import SANCTION_WORDS
from tablekit.core.gender import LETTERS
from tablekit.core.seats import Seat, seats_for
from tablekit.core.status import paused_state
from tablekit.core.status import word as state_word
from tablekit.shared import forms
from tablekit.shared.i18n import Words


@dataclass(frozen=True)
class SeatLine:
    """One seat of a drawn stage, as the seating lists show it."""

    stage: str
    table: SeatedTable
    seat: Seat
    player_id: str
    player: Player

    @property
    def code(self) -> str:
        """The seat code (``3B``)."""
        return f"{self.table.number}{self.seat}"


def seat_lines(comp: Competition, stage: str) -> list[SeatLine]:
    """Every seat of ``stage`` in table order, then seat order."""
    return [
        SeatLine(stage, seated, seat, pid, player_of(comp, pid))
        for seated in comp.event.seating(stage)
        for seat, pid in zip(seats_for(len(seated.players)), seated.players, strict=True)
    ]


def find_table_lines(comp: Competition, stage: str) -> list[SeatLine]:
    """Every seat of ``stage`` in the order of every list of people ("find your table"):
    by surname, then given name, in Polish order (:func:`~hub.tournament.player_order`)."""
    return sorted(seat_lines(comp, stage), key=lambda s: player_order(s.player))


def seating_grid(comp: Competition, stage: str | None = None, *, words: Words) -> Grid:
    """Every seat of ``stage`` (default: the latest) in table order."""
    stage = stage or latest_stage(comp)
    rows = [
        (str(s.table.number), s.code, s.player.name, s.player.club or "", s.player_id)
        for s in seat_lines(comp, stage)
    ]
    return Grid(
        words.gettext("Seating, {stage}").format(stage=stage_label(stage, words)),
        (
            words.pgettext("column", "Table"),
            words.pgettext("column", "Seat"),
            words.pgettext("column", "Player"),
            words.pgettext("column", "Club"),
            words.pgettext("column", "ID"),
        ),
        rows,
        numeric=frozenset({0}),
        club=3,
    )


def seating_csv(comp: Competition, sheet: Sheet) -> str:
    """Every stage drawn so far: stage, table, seat code, player."""
    w = sheet.words
    rows = [
        (
            stage_label(s.stage, w),
            str(comp.round_number(s.stage)),
            str(s.table.number),
            stage_label(s.table.group, w),
            s.code,
            s.player_id,
            s.player.name,
            s.player.club or "",
        )
        for stage in comp.event.stages_played
        for s in seat_lines(comp, stage)
    ]
    headers = (
        w.pgettext("CSV column", "stage"),
        w.pgettext("CSV column", "round"),
        w.pgettext("CSV column", "table"),
        w.pgettext("CSV column", "group"),
        w.pgettext("CSV column", "code"),
        w.pgettext("CSV column", "player_id"),
        w.pgettext("CSV column", "name"),
        w.pgettext("CSV column", "club"),
    )
    return sheet.text(headers, rows)


def _stamp(words: Words, sheet: Sheet | None) -> Callable[[float], str]:
    """How a grid writes a moment: for a person (``18 stycznia 2026, 14:05``), or for a
    CSV file's spreadsheet (``sheet``)."""
    return sheet.time if sheet is not None else lambda at: when(at, words)


def status_of(event: EventState, player_id: str) -> str:
    """The player's status, a key of :data:`~hub.exports.words.STATUSES`: disqualified,
    withdrawn, present (checked in or arrived late) or registered."""
    if player_id in event.disqualified:
        return "disqualified"
    if player_id in event.withdrawn:
        return "withdrawn"
    return "present" if player_id in event.present else "registered"


def players_grid(comp: Competition, words: Words) -> Grid:
    """Every player by surname: id, name, surname, club, league number, rating, gender (the
    one the words about them agree with: given, or proposed from the given name) and
    status (the columns a players file is read back from)."""
    event = comp.event
    present = event.present
    rows = []
    for pid, player in sorted(event.players.items(), key=lambda item: player_order(item[1])):
        status = status_of(event, pid)
        # Ungrouped: a spreadsheet reads 1520,5 as a number (and an import reads it back).
        rating = "" if player.rating is None else forms.number(player.rating, words, group=False)
        gender = player.grammatical_gender
        minor = comp.minors.get(pid)
        # Translators: a players file's cells: marked minor, a guardian's consent received
        yes, no = words.pgettext("in a cell", "yes"), words.pgettext("in a cell", "no")
        marked = yes if minor is not None and minor.minor else ""
        consent = "" if not marked or minor is None else yes if minor.consent else no
        rows.append(
            (
                pid,
                player.name,
                player.family_name,
                player.club or "",
                player.league_number,
                rating,
                words.pgettext(*LETTERS[gender]),
                status_word(status, words, gender),
                marked,
                consent,
            )
        )
    return Grid(
        words.gettext("Players ({n} registered, {present} present)").format(
            n=len(rows), present=len(present)
        ),
        (
            words.pgettext("column", "ID"),
            words.pgettext("column", "Name"),
            words.pgettext("column", "Surname"),
            words.pgettext("column", "Club"),
            # Translators: the number the league gives a player (a players file's column)
            words.pgettext("column", "League number"),
            words.pgettext("column", "Rating"),
            words.pgettext("column", "Gender"),
            words.pgettext("column", "Status"),
            # Translators: a players file's column (003 §8: players under 18)
            words.pgettext("column", "Minor"),
            # Translators: a players file's column: a guardian's written consent (003 §8)
            words.pgettext("column", "Guardian's consent"),
        ),
        rows,
        numeric=frozenset({5}),
        note=words.gettext(
            "By surname (the last word of the name unless set: rummikub players rename). "
            "Gender: F female, M male, N words without gender; the words about each "
            "player agree with it (proposed from the given name unless given)."
        ),
    )


def player_details(player: Player) -> str:
    """Name (surname marked when it is not the last word), club."""
    given, surname = player.given_name, player.family_name
    shown = player.name if not player.surname or " " not in surname else f"{given} [{surname}]"
    return shown + (f", {player.club}" if player.club else "")


def change_details(before: Player, after: Player, words: Words) -> tuple[str, str]:
    """A player's details before and after a change (:func:`player_details`), with the
    gender beside each when the change is of it."""
    if before.grammatical_gender is after.grammatical_gender:
        return player_details(before), player_details(after)

    def with_gender(player: Player) -> str:
        return f"{player_details(player)} ({gender_word(words, player.grammatical_gender)})"

    return with_gender(before), with_gender(after)



def _when_by_why(words: Words) -> tuple[str, str, str]:
    return (
        words.pgettext("column", "When"),
        words.pgettext("column", "By"),
        words.pgettext("column", "Why"),
    )


def player_changes_grid(comp: Competition, player_id: str | None = None, *, words: Words) -> Grid:
    """Every change of a player's name or club (or one player's), with who, when and why."""
    changes = comp.player_changes if player_id is None else comp.changes_of(player_id)
    rows = [
        (
            str(number),
            when(change.record.at, words),
            change.record.by,
            change.after.id,
            *change_details(change.before, change.after, words),
            change.record.why,
        )
        for number, change in enumerate(changes, start=1)
    ]
    when_, by, why = _when_by_why(words)
    return Grid(
        words.gettext("Name and club changes")
        if player_id is None
        else words.gettext("Name and club changes of {id}").format(id=player_id),
        (
            "#",
            when_,
            by,
            words.pgettext("column", "ID"),
            words.pgettext("column", "Before"),
            words.pgettext("column", "After"),
            why,
        ),
        rows,
        numeric=frozenset({0}),
    )


@dataclass(frozen=True)
class SanctionLine:
    """One sanction as the lists show it: its number (what ``sanction lift`` takes), the
    record (who, when, why), the sanction, the player and the record lifting it, if any."""

    number: int
    record: OrganizerFact
    fact: PlayerSanctioned
    player: Player
    lift: OrganizerFact | None


def sanction_lines(comp: Competition, player_id: str | None = None) -> list[SanctionLine]:
    """Every sanction (or one player's), oldest first."""
    lines = []
    for number, record, lift in comp.numbered_sanctions(player_id):
        fact = fact_of(record, PlayerSanctioned)
        lines.append(SanctionLine(number, record, fact, player_of(comp, fact.player_id), lift))
    return lines


def _who_and_when(line: SanctionLine, stamp: Callable[[float], str]) -> tuple[str, ...]:
    """The first cells of a sanction's row in every list: its number, when (``stamp``),
    the judge, the player's id and name."""
    return (
        str(line.number),
        stamp(line.record.at),
        line.record.by,
        line.fact.player_id,
        line.player.name,
    )


def sanctions_grid(comp: Competition, player_id: str | None = None, *, words: Words) -> Grid:
    """Every sanction (or one player's), oldest first, with who, when and why, and who
    lifted it, when and why."""
    stamp = _stamp(words, None)
    rows = [
        (
            *_who_and_when(s, stamp),
            word(SANCTIONS, s.fact.kind, words),
            str(s.fact.big) if s.fact.kind is SanctionKind.DEDUCTION else "",
            stage_label(s.fact.stage, words),
            s.record.why,
            ""
            if s.lift is None
            else words.gettext("{when} by {by}: {why}").format(
                when=stamp(s.lift.at), by=s.lift.by, why=s.lift.why
            ),
        )
        for s in sanction_lines(comp, player_id)
    ]
    when_, _, why = _when_by_why(words)
    return Grid(
        words.gettext("Sanctions")
        if player_id is None
        else words.gettext("Sanctions of {id}").format(id=player_id),
        (
            "#",
            when_,
            words.pgettext("column", "Judge"),
            words.pgettext("column", "ID"),
            words.pgettext("column", "Player"),
            words.pgettext("column", "Sanction"),
            points_headers(words)[0],
            words.pgettext("column", "Stage"),
            why,
            words.pgettext("column", "Lifted"),
        ),
        rows,
        numeric=frozenset({0, 6}),
    )


def call_word(call: JudgeCallResolved, words: Words) -> str:
    """Why the table waited, in the status model's words (``WEZWANO SĘDZIEGO``); "" when
    the judge recorded the resolution without the waiting table."""
    return "" if call.called is None else words.gettext(state_word(paused_state(call.called)))


def waited_text(call: JudgeCallResolved, words: Words) -> str:
    """How long the table waited until the resolution was recorded (``4 min 5 s``,
    ``45 s``)."""
    return "" if call.since is None else wait_text(call.at - call.since, words)


def judge_calls_grid(
    comp: Competition, stage: str | None = None, table: int | None = None, *, words: Words
) -> Grid:
    """Every judge call resolved (or those at one table of one stage), oldest first:
    the table, why it waited and how long, who resolved it, when, and the note."""
    calls = [
        c
        for c in comp.judge_calls
        if (stage is None or c.stage == stage) and (table is None or c.table == table)
    ]
    rows = [
        (
            stage_label(c.stage, words),
            str(c.table),
            str(c.game) if c.game else "",
            call_word(c, words),
            waited_text(c, words),
            when(c.at, words),
            c.by,
            c.note,
        )
        for c in calls
    ]
    title = (
        words.gettext("Judge calls resolved")
        if table is None
        else words.gettext("Judge calls resolved at table {table}").format(table=table)
    )
    return Grid(
        title,
        (
            words.pgettext("column", "Stage"),
            words.pgettext("column", "Table"),
            words.pgettext("column", "Game"),
            words.pgettext("column", "Call"),
            words.pgettext("column", "Waited"),
            words.pgettext("column", "When"),
            words.pgettext("column", "Judge"),
            words.pgettext("column", "Note"),
        ),
        rows,
        numeric=frozenset({1, 2, 4}),
    )


def sanction_given_text(
    comp: Competition, record: OrganizerFact, words: Words, stamp: Callable[[float], str]
) -> str:
    """A sanction just given, in a line: the player, what, in which stage, when (``stamp``)
    and by whom."""
    _ = words.gettext
    fact = fact_of(record, PlayerSanctioned)
    if fact.kind is SanctionKind.WARNING:
        what = _("warned")
    elif fact.kind is SanctionKind.DEDUCTION:
        what = words.ngettext(
            "{n} big point deducted", "{n} big points deducted", fact.big
        ).format(n=fact.big)
    else:
        what = _("disqualified: not seated in any later round")
    if fact.stage:
        what += _(" in {stage}").format(stage=stage_label(fact.stage, words))
    return _("{id} {name}: {what}; recorded {at} by {by}").format(
        id=fact.player_id, name=player_of(comp, fact.player_id).name, what=what,
        at=stamp(record.at), by=record.by or "-",
    )


def sanction_lifted_text(
    comp: Competition, number: int, record: OrganizerFact, words: Words,
    stamp: Callable[[float], str],
) -> str:
    """Sanction ``number`` just lifted, in a line: what it was, whose, when and by whom."""
    _ = words.gettext
    _number, given, _lifted = comp.numbered_sanctions()[number - 1]
    fact = fact_of(given, PlayerSanctioned)
    return _("Sanction {number} lifted ({kind} of {id} {name}); recorded {at} by {by}").format(
        number=number,
        kind=_(SANCTION_WORDS[fact.kind]),
        id=fact.player_id,
        name=player_of(comp, fact.player_id).name,
        at=stamp(record.at),
        by=record.by or "-",
    )


def sanctions_csv(comp: Competition, sheet: Sheet) -> str:
    """Every sanction: when, who (the judge), the player, what, in which stage, why."""
    w = sheet.words
    rows = [
        (
            *_who_and_when(s, sheet.time),
            s.player.club or "",
            csv_value(s.fact.kind, w),
            str(s.fact.big),
            stage_label(s.fact.stage, w),
            s.record.why,
            "" if s.lift is None else sheet.time(s.lift.at),
            "" if s.lift is None else s.lift.by,
            "" if s.lift is None else s.lift.why,
        )
        for s in sanction_lines(comp)
    ]
    headers = (
        w.pgettext("CSV column", "number"),
        w.pgettext("CSV column", "at"),
        w.pgettext("CSV column", "by"),
        w.pgettext("CSV column", "player_id"),
        w.pgettext("CSV column", "name"),
        w.pgettext("CSV column", "club"),
        w.pgettext("CSV column", "sanction"),
        w.pgettext("CSV column", "bp"),
        w.pgettext("CSV column", "stage"),
        w.pgettext("CSV column", "why"),
        w.pgettext("CSV column", "lifted_at"),
        w.pgettext("CSV column", "lifted_by"),
        w.pgettext("CSV column", "lifted_why"),
    )
    return sheet.text(headers, rows)


def _tie_code(fact: TieDecided, words: Words) -> str:
    """How a tie was decided, as a CSV file writes it (``lot (seed 7)``)."""
    how = csv_value(fact.how, words)
    if fact.seed is None:
        return how
    return words.pgettext("CSV value", "{how} (seed {seed})").format(how=how, seed=fact.seed)


def ties_grid(comp: Competition, words: Words, sheet: Sheet | None = None) -> Grid:
    """Every tie decision of the head judge, in the order recorded (``sheet``: its times
    for a CSV file)."""
    stamp = _stamp(words, sheet)
    rows = []
    for record in comp.ties:
        fact = tie_fact(record)
        rows.append(
            (
                scope_label(fact.scope, words),
                ", ".join(f"{player_of(comp, pid).name} ({pid})" for pid in fact.order),
                tie_how(fact, words) if sheet is None else _tie_code(fact, words),
                record.by,
                stamp(record.at),
                record.why,
            )
        )
    when_, by, why = _when_by_why(words)
    return Grid(
        words.gettext("Ties decided by the head judge (best first)"),
        (
            # Translators: where a tie was: a stage's standings, a table, the final ranking
            words.pgettext("column", "Scope"),
            words.pgettext("column", "Players"),
            words.pgettext("column", "How"),
            by,
            when_,
            why,
        ),
        rows,
    )


def consolation_grid(comp: Competition, words: Words, sheet: Sheet | None = None) -> Grid:
    """Every seating of consolation players the organizer decided (003 §10e; ``sheet``:
    its times for a CSV file)."""
    stamp = _stamp(words, sheet)
    rows = []
    for record in comp.consolations:
        fact = fact_of(record, ConsolationDecided)
        rows.append(
            (
                stage_label(fact.stage, words),
                consolation_decision(fact, words),
                record.by,
                stamp(record.at),
                record.why,
            )
        )
    when_, by, why = _when_by_why(words)
    return Grid(
        words.gettext("Consolation players seated by the organizer"),
        (
            words.pgettext("column", "Stage"),
            words.pgettext("column", "Decision"),
            by,
            when_,
            why,
        ),
        rows,
    )
