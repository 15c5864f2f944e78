"""What the tables and screens must be told, derived from the event's records.

The hub service asks the conductor two things: the verdict on a table's submitted
result (stored in the same transaction as the submission, see
:meth:`Conductor.judge`), and — after every commit and once a second — the
retained messages whose content changed (:meth:`Conductor.messages`): the
language the whole hall speaks, each table's assignment and latest result verdict,
the round, standings and seating boards for the screens, and the last-lap
broadcast when the round's time is over. Everything comes from the store, so a
restarted hub tells the tables and screens exactly what it told them before.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import msgspec

from hub.competition import (
    Competition,
    CompetitionError,
    ResultRecorded,
    ResultRejected,
    RoundTimeOver,
    record_kind,
)
from hub.exports.lists import find_table_lines
from hub.judging import rejected_result
from hub.organizer import Organizer
from hub.privacy import published
from hub.tournament import (
    EventPhase,
    Player,
    RankingRow,
    StandingRow,
    TournamentError,
    ties_by_name,
)
from tablekit.core.codec import DecodeError, encode
from tablekit.core.messages import (
    MAX_PAYLOAD,
    PROTOCOL_VERSION,
    Broadcast,
    BroadcastKind,
    ConsoleLink,
    EventEnvelope,
    HallLanguage,
    ResultAck,
    RoundInfo,
    RoundProgress,
    SeatingBoard,
    SeatingLine,
    StandingLine,
    StandingsBoard,
    Wording,
    idle_assignment,
)
from tablekit.core.names import SENT_NAME, sent_name
from tablekit.core.result import ResultSubmitted
from tablekit.core.topics import Topics, decode_retained

log = logging.getLogger("hub.conductor")

CLEARED = b""
"""An empty retained payload deletes the topic's retained message."""
"""Characters of a player's name in screen messages (the protocol's limit)."""


@dataclass(frozen=True)
class Outgoing:
    topic: str
    payload: bytes
    retain: bool = True
    clear_first: bool = False
    """Delete the retained message before publishing this one: receivers of a release that
    cannot read it (an idle assignment) still see the old one go."""


class Conductor:
    def __init__(
        self,
        organizer: Organizer,
        topics: Topics,
        *,
        clock: Callable[[], float] = time.time,
        console_url: str = "",
    ) -> None:
        """``console_url``: where phones open the web console (the config's ``[web]
        public_url``), retained on ``hub/console`` for the QR codes; "": none (cleared)."""
        self.organizer = organizer
        self.topics = topics
        self.clock = clock
        self.console_url = console_url
        self._sent: dict[str, bytes] = {}
        self._derived_from: Competition | None = None
        """The fold every message sent was derived from: while the organizer's fold is
        still this one, nothing has been recorded since and every message is as sent."""

    def reset(self) -> None:
        """Forget what was sent (after a reconnect the broker may have lost it)."""
        self._sent.clear()
        self._derived_from = None

    # -- results from the tables ---------------------------------------------------------------

    def judge(self, envelope: EventEnvelope) -> list[tuple[str, msgspec.Struct]]:
        """The records answering a newly stored unit event (a result submission)."""
        event = envelope.event
        if not isinstance(event, ResultSubmitted):
            return []
        if self._already_recorded(envelope.table, event):
            # The same result sent again (re-typed while the hub was out of reach): the
            # verdict stands; send it again so a table still waiting gets it.
            self._sent.pop(self.topics.result(envelope.table), None)
            self._derived_from = None
            return []
        try:
            verdict = self.organizer.judge_table_result(
                envelope.table, event.report, unit=envelope.unit, seq=envelope.seq,
                round_no=event.round, epoch=envelope.epoch,
            )
        except (CompetitionError, TournamentError) as err:
            rejected = rejected_result(
                err, at=self.clock(), unit=envelope.unit, table=envelope.table,
                game=event.game, seq=envelope.seq, round_no=event.round, epoch=envelope.epoch,
            )
            return [(record_kind(rejected), rejected)]
        log.info(
            "table %d game %d: result %s%s", envelope.table, event.game,
            "accepted" if verdict.accepted else "rejected: ", verdict.reason,
        )
        return [(record_kind(verdict.record), verdict.record)]

    def _already_recorded(self, table: int, event: ResultSubmitted) -> bool:
        competition = self.organizer.competition
        stage = competition.open_stage()
        if stage is None or competition.round_number(stage.name) != event.round:
            return False
        history = competition.history(stage.name, table, event.game)
        return bool(history) and history[-1].record.report == event.report

    def event_closed(self) -> bool:
        """Whether the event is over (its last round closed): what ``HubStatus.closed`` says."""
        competition = self.organizer.competition
        return competition.created is not None and competition.event.phase is EventPhase.FINISHED

    # -- retained messages ----------------------------------------------------------------------

    def messages(self) -> list[Outgoing]:
        """Messages whose content changed since they were last sent (or since reset)."""
        due = self.organizer.time_over_due(self.clock())
        folded = self.organizer.competition
        if folded is self._derived_from:  # a big event's messages take a tenth of a second
            return []
        out: list[Outgoing] = []
        # the tables and the hub screen are read by the hall: names as the public reads them
        competition = published(folded)
        for message in self._all(competition):
            if self._sent.get(message.topic) == message.payload:
                continue
            try:  # what every receiver will do with it, before it is retained for them
                decode_retained(self.topics, message.topic, message.payload)
            except DecodeError as err:
                log.error("not published, receivers would refuse it: %s", err.reason)
                continue
            self._sent[message.topic] = message.payload
            out.append(message)
        if due is not None:
            log.info("round %s: time is over, last lap at every table", due.stage)
        self._derived_from = folded
        return out

    def _all(self, competition: Competition) -> Iterator[Outgoing]:
        if self.console_url:  # with or without an event: phones may open the console
            link = ConsoleLink(v=PROTOCOL_VERSION, url=self.console_url)
            yield Outgoing(self.topics.console, encode(link))
        if competition.created is None:
            return
        # the hall's language first: a unit (re)connecting shows its seating in it
        language = HallLanguage(v=PROTOCOL_VERSION, language=competition.language)
        yield Outgoing(self.topics.language, encode(language))
        if not self.console_url:  # an address set before is no longer the console's
            yield Outgoing(self.topics.console, CLEARED)
        assignments = competition.assignments()
        for assignment in assignments:
            yield Outgoing(self.topics.assign(assignment.table), encode(assignment))
        seated = {a.table for a in assignments}
        stage = competition.open_stage()
        round_no = 0 if stage is None else competition.round_number(stage.name)
        for table in sorted(_tables_ever(competition) - seated):
            if competition.event.stages_played:
                # no game there now: an explicit retained "idle", so a unit that was off
                # meanwhile clears its seating when it comes back
                idle = idle_assignment(table, round_no, competition.seated_at)
                yield Outgoing(self.topics.assign(table), encode(idle), clear_first=True)
            else:  # the first draw was undone: nothing of the event is retained
                yield Outgoing(self.topics.assign(table), CLEARED)
        # The round and its progress (which tables have finished) before the answers: a
        # screen that sees a table's last result accepted knows whether it finished.
        yield from self._boards(competition)
        yield from self._verdicts(competition)
        yield from self._time_over(competition)

    def _verdicts(self, competition: Competition) -> Iterator[Outgoing]:
        """Each table's latest answer in the latest round, retained: a unit that restarted
        while waiting for it gets it on reconnect (answers of earlier rounds are stale)."""
        state = competition.event
        if not state.stages_played:
            return
        stage = state.stages_played[-1]
        round_no = competition.round_number(stage)
        latest: dict[int, ResultRecorded | ResultRejected] = {}
        for (result_stage, _, _), versions in competition.results.items():
            if result_stage != stage:
                continue
            for version in versions:
                record = version.record
                if record.unit and _newer(record, latest.get(record.table)):
                    latest[record.table] = record
        for rejected in competition.rejected:
            if rejected.round == round_no and _newer(rejected, latest.get(rejected.table)):
                latest[rejected.table] = rejected
        for table in sorted(_tables_ever(competition) - set(latest)):
            yield Outgoing(self.topics.result(table), CLEARED)  # no answer of this round
        for table, answer in sorted(latest.items()):
            if isinstance(answer, ResultRecorded):
                ack = ResultAck(
                    v=PROTOCOL_VERSION, unit=answer.unit, game=answer.report.game, accepted=True,
                    round=round_no,
                )
            else:
                ack = ResultAck(
                    v=PROTOCOL_VERSION, unit=answer.unit, game=answer.game, accepted=False,
                    reason=answer.reason[:200], round=round_no,
                    why=answer.why or Wording.of(answer.why_words()), final=answer.final,
                )
                if len(encode(ack)) > MAX_PAYLOAD:  # words too long: the English alone
                    ack = msgspec.structs.replace(ack, why=None)
            yield Outgoing(self.topics.result(table), encode(ack))

    def _boards(self, competition: Competition) -> Iterator[Outgoing]:
        state = competition.event
        if not state.stages_played:
            if competition.undone:  # the first draw was taken back: nothing to show
                for topic in (
                    self.topics.round, self.topics.progress, self.topics.standings,
                    self.topics.seating,
                ):
                    yield Outgoing(topic, CLEARED)
            return
        stage_name = state.stages_played[-1]
        fmt = competition.format
        stage = fmt.stages[fmt.stage_index(stage_name)]
        closed = state.phase is not EventPhase.PLAYING
        deadline = competition.round_deadline()
        info = RoundInfo(
            v=PROTOCOL_VERSION,
            stage=_label(stage_name),
            round=competition.round_number(stage_name),
            games=stage.games,
            deadline=deadline[1] if deadline else None,
            last_lap=stage_name in competition.time_over,
            closed=closed,
        )
        yield Outgoing(self.topics.round, encode(info))
        progress = RoundProgress(
            v=PROTOCOL_VERSION,
            stage=_label(stage_name),
            round=info.round,
            finished=tuple(t.table for t in competition.tables() if t.finished),
        )
        yield Outgoing(self.topics.progress, encode(progress))
        players = state.players
        finished = state.phase is EventPhase.FINISHED
        board_rows: Sequence[RankingRow | StandingRow] = (
            state.final_ranking() if finished else state.standings(stage_name).rows
        )
        ranked = ties_by_name(board_rows, players)
        rows = tuple(_standing_line(r, players[r.player_id]) for r in ranked)
        round_no = competition.round_number(stage_name)
        board = StandingsBoard(
            v=PROTOCOL_VERSION,
            stage=_label(stage_name),
            after_round=round_no if closed else round_no - 1,
            rows=rows,
            final=finished,
        )
        yield Outgoing(self.topics.standings, encode(board))
        seating = SeatingBoard(
            v=PROTOCOL_VERSION,
            stage=_label(stage_name),
            round=competition.round_number(stage_name),
            rows=tuple(  # in the printed "find your table" order: screens keep it
                SeatingLine(
                    name=sent_name(line.player.name),
                    table=line.table.number,
                    seat=str(line.seat),
                    surname=_surname(line.player),
                )
                for line in find_table_lines(competition, stage_name)
            ),
        )
        yield Outgoing(self.topics.seating, encode(seating))

    def _time_over(self, competition: Competition) -> Iterator[Outgoing]:
        stage = competition.open_stage()
        if stage is None or stage.name not in competition.time_over:
            return
        record: RoundTimeOver = competition.time_over[stage.name]
        round_no = competition.round_number(stage.name)
        broadcast = Broadcast(
            v=PROTOCOL_VERSION,
            id=record.broadcast or round_no,
            kind=BroadcastKind.LAST_LAP,
            round=round_no,
            text=f"Round {round_no}: time is over — last lap",
            ts=record.at,
        )
        yield Outgoing(self.topics.broadcast, encode(broadcast))


def _tables_ever(competition: Competition) -> set[int]:
    """Every table number used by a round of the event so far, undone draws included."""
    state = competition.event
    used = {t.number for stage in state.stages_played for t in state.seating(stage)}
    return used | {t.number for _, tables in competition.undone for t in tables}


def _newer(
    record: ResultRecorded | ResultRejected, than: ResultRecorded | ResultRejected | None
) -> bool:
    return than is None or record.at >= than.at


def _surname(player: Player) -> str:
    """The surname for the screens when it is not the last word of the name, else ""."""
    surname = player.family_name
    return "" if " " not in surname else sent_name(surname)


def _label(text: str) -> str:
    return text[:SENT_NAME]


def _standing_line(row: RankingRow | StandingRow, player: Player) -> StandingLine:
    """One row of the standings board; a final place's title with the gender it agrees with."""
    title = _label(row.shown_title or "") if isinstance(row, RankingRow) else ""
    held = isinstance(row, RankingRow) and row.title is not None  # not an undecided tie
    return StandingLine(
        place=row.place, name=sent_name(player.name), big=row.big, small=row.small,
        games=row.games, title=title, gender=player.grammatical_gender if held else None,
    )
