"""The protocol's messages: every payload between table units, the hub and its screens.

Each message is a typed, versioned msgspec struct (its JSON object carries the protocol
version ``v``); its fields carry their own limits (:mod:`tablekit.core.fields`), so a
message that decodes is in range. Unit messages refuse unknown fields, hub messages ignore
them (the versioning rule of ``docs/protocol.md``). Which topic carries which message is
:mod:`tablekit.core.topics`; encoding and strict decoding are :mod:`tablekit.core.codec`.
"""

from __future__ import annotations

import enum
import string
from collections.abc import Mapping
from typing import Annotated, Any, Final

import msgspec

from tablekit.core.clock import ClockState, Phase, time_left
from tablekit.core.clock_events import AnyClockEvent, PauseReason
from tablekit.core.errors import KitError, Phrase
from tablekit.core.fields import (
    MAX_GAME,
    MAX_SECONDS,
    MAX_TABLE,
    PRINTABLE,
    Count,
    Epoch,
    GameNo,
    KitVersion,
    Label,
    LanguageCode,
    MoveNo,
    MoveSeconds,
    MovesLeft,
    Name,
    Points,
    RoundNo,
    SeatCount,
    Seconds,
    Seq,
    SeqOrZero,
    TableNo,
    Text,
    TopicLevel,
    UnitId,
    Wall,
    WebAddress,
)
from tablekit.core.gender import Gender
from tablekit.core.hallcheck import HallChecked
from tablekit.core.result import ResultSubmitted
from tablekit.core.roundgames import RecordedGames, RoundGameCount, RoundGames
from tablekit.core.rulesets import Ruleset
from tablekit.core.seats import MAX_SEATS, MIN_SEATS, Seat
from tablekit.core.words import N_


class AssignmentError(KitError, ValueError):
    """An assignment whose seats, game or starter do not fit together (msgspec refuses it
    on decoding with this message)."""


PROTOCOL_VERSION: Final = 1
MAX_PAYLOAD: Final = 4096
"""Bytes; larger payloads are refused before parsing (and by the broker's max_packet_size)."""
MAX_BOARD_PAYLOAD: Final = 256 * 1024
"""Bytes of a standings or seating board (hub → screens): a few hundred players' rows
exceed :data:`MAX_PAYLOAD`; every other message keeps that limit."""
MAX_BOARD_ROWS: Final = 1000
WINDOW: Final = 200
"""Events a unit may have published beyond the hub's last ack; the hub refuses (and
does not store) a seq beyond its acknowledged mark plus this window."""

Version = Annotated[int, msgspec.Meta(ge=1, le=PROTOCOL_VERSION)]


def unit_id_of(table: int) -> str:
    """The identity of table ``table``'s unit: ``table-07``, the username of the table's
    broker account (``hub.credentials``). The hub takes a unit's identity from the topic
    its message came on, which the broker's access list lets only that account write."""
    return f"table-{table:02d}"


AnyUnitEvent = AnyClockEvent | ResultSubmitted | HallChecked
"""Everything a unit reports through its journal: the clock's events, its results and its
hall check."""


class _Message(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A message a table unit publishes: decoded strictly (unknown fields refused)."""

    v: Version


class _HubMessage(msgspec.Struct, frozen=True):
    """A message the hub publishes. Versioning rule: a receiver ignores fields it does
    not know, so a newer hub's messages may gain fields (with defaults) that an older unit
    or screen skips instead of refusing the message."""

    v: Version


# --- unit → hub --------------------------------------------------------------------------


class EventEnvelope(_Message, frozen=True, omit_defaults=True):
    """One journalled domain event: ``(unit, epoch, seq)`` is unique and never reused."""

    unit: UnitId
    """The unit: ``table-NN`` of the topic's table (see "Identity")."""
    table: TableNo
    """The topic's table."""
    seq: Seq
    """The unit's journal number of the event: 1, 2, 3, … never reused, surviving restarts."""
    ts: Wall
    """Unit's wall time when the event was journalled."""
    event: AnyUnitEvent
    """One of the events below, tagged by ``type``."""
    epoch: Epoch = ""
    """The journal's epoch, made when its file was created: a unit replaced or whose journal
    was wiped starts a new epoch, its seqs again at 1 (empty: a journal of a release before
    epochs; left out then)."""


class TableSnapshot(_Message, frozen=True):
    """Retained state of one table, republished on every change (never every tick)."""

    table: TableNo
    unit: UnitId
    game: GameNo
    move: MoveNo
    """The move in progress (0 before the first game)."""
    phase: Phase
    """``ready`` (waiting for the first press of ``game``), ``running``, ``time_up`` (the
    active seat ran out; waiting for its late press), ``game_over``."""
    active: Seat | None
    """The seat whose move it is."""
    remaining: Seconds
    """Seconds left for the active seat, measured at ``measured_at``."""
    measured_at: Wall
    """Unit's wall time at which ``remaining`` was measured."""
    paused: PauseReason | None
    """Why the clock stands still, or null while it runs."""
    last_lap_left: MovesLeft | None
    """Moves left in the last lap, the one in progress included (seats + 1 at its start)."""
    timeouts: Annotated[tuple[Count, ...], msgspec.Meta(max_length=MAX_SEATS)]
    """Timeouts in the current game, per seat in seat order."""
    seats: SeatCount
    """Seats at the table."""
    move_seconds: MoveSeconds
    """Seconds each move may take."""

    @property
    def running(self) -> bool:
        """The active seat's time is running down."""
        return self.phase is Phase.RUNNING and self.paused is None

    def remaining_at(self, wall_now: float) -> float:
        """Extrapolated seconds left at ``wall_now`` (on the receiver's wall clock)."""
        return time_left(self.phase, self.paused, self.remaining, self.measured_at, wall_now)


class StatusReason(enum.StrEnum):
    CONNECTED = "connected"
    SHUTDOWN = "shutdown"
    """The unit (or hub) disconnected cleanly."""
    LOST = "lost"
    """The Last Will: the broker lost the connection."""


class UnitStatus(_Message, frozen=True, omit_defaults=True):
    """Retained online/offline status of a table unit; the offline form is its Last Will."""

    unit: UnitId
    table: TableNo
    online: bool
    reason: StatusReason
    """``connected``, ``shutdown`` (a clean stop), ``lost`` (the Last Will)."""
    ts: Wall
    """Unit's wall time when composed (for a Last Will: when the unit connected)."""
    kit: KitVersion = ""
    """The kit's version the unit runs (empty: a unit of a release before it said so;
    left out then). The hall board names every table whose version is not the hub's."""


class HubStatus(_HubMessage, frozen=True, omit_defaults=True):
    """Retained online/offline status of the hub; the offline form is its Last Will."""

    online: bool
    reason: StatusReason
    """``connected``, ``shutdown`` (a clean stop), ``lost`` (the Last Will)."""
    ts: Wall
    """Hub's wall time when composed."""
    closed: bool = False
    """The event is over (its last round closed): a unit may delete the events the hub
    acknowledged, which it otherwise keeps for a hub that loses them."""


# --- hub → unit ----------------------------------------------------------------------------


class SeatAssignment(msgspec.Struct, frozen=True):
    """One seat of an :class:`Assignment`."""

    seat: Seat
    name: Name
    """The player's name as the table shows it."""
    player: Annotated[str, msgspec.Meta(max_length=40, pattern=PRINTABLE)] = ""
    """The organizer's player id, when there is one."""


class AssignedRules(msgspec.Struct, frozen=True):
    """The ruleset parameters a unit needs; new ones are added with defaults."""

    move_seconds: MoveSeconds = 40.0
    """Seconds each move may take."""
    ruleset: Annotated[str, msgspec.Meta(max_length=40)] = ""
    """Name of the tournament's ruleset (tablekit.core.rulesets), for result entry."""
    scoring: Ruleset | None = None
    """The ruleset itself, so a unit scores a custom ruleset exactly as the hub does."""


class Assignment(_HubMessage, frozen=True):
    """Retained: who sits where at a table and which game they play next."""

    table: TableNo
    game: GameNo | None
    """The game the table plays next (game numbers run on through the day); null only in
    an ``idle`` assignment."""
    seats: Annotated[tuple[SeatAssignment, ...], msgspec.Meta(max_length=MAX_SEATS)]
    """3 or 4 seats, exactly A, B, C[, D] in order; none in an ``idle`` assignment."""
    starter: Seat | None = None
    """Seat that starts the game; None = by rotation (game 1: A, game 2: B, …)."""
    rules: AssignedRules = AssignedRules()
    round: RoundNo = 0
    issued: Wall = 0.0
    """Hub's wall time of the draw (or command) that seated the table; 0 = not known."""
    idle: bool = False
    """No game at this table (it has nobody in the round being played, or no round is in
    play): the unit clears its seating. Then ``seats`` is empty and ``game`` null."""
    games: RoundGameCount = 0
    """The round's number of games at this table (0: not said, a hub of an earlier
    release: the unit then starts any game)."""
    recorded: RecordedGames = ()
    """The games of this round whose result the hub holds (the table's, or a judge's
    entered at the hub), ascending: the unit never reopens or starts one, and says so when
    a judge entered the game it is playing. Applied at once, not only between games."""

    def __post_init__(self) -> None:
        if self.idle:
            if self.seats or self.game is not None or self.starter is not None:
                raise AssignmentError(
                    N_("an idle assignment has no seats, no game and no starter")
                )
            if self.games or self.recorded:
                raise AssignmentError(N_("an idle assignment has no games"))
            return
        if list(self.recorded) != sorted(set(self.recorded)):
            raise AssignmentError(
                N_("recorded games must be ascending, each once, got {got}"),
                got=",".join(map(str, self.recorded)),
            )
        if self.games and any(g > self.games for g in self.recorded):
            raise AssignmentError(
                N_("recorded games must be among the round's {games}, got {got}"),
                games=self.games, got=",".join(map(str, self.recorded)),
            )
        if self.game is None:
            raise AssignmentError(N_("an assignment names the game the table plays next"))
        if len(self.seats) < MIN_SEATS:
            raise AssignmentError(
                N_("a table seats {fewest} or {most}, got {count}"),
                fewest=MIN_SEATS, most=MAX_SEATS, count=len(self.seats),
            )
        letters = [s.seat for s in self.seats]
        expected = [Seat(letter) for letter in "ABCD"[: len(letters)]]
        if letters != expected:
            got = ",".join(str(x) for x in letters)
            raise AssignmentError(
                N_("seats must be {expected} in order, got {got}"),
                expected=",".join(expected), got=got,
            )
        if self.starter is not None and self.starter not in letters:
            raise AssignmentError(
                N_("starter {seat} is not a seat of this table"), seat=self.starter
            )

    def names(self) -> dict[Seat, str]:
        return {s.seat: s.name for s in self.seats}

    def round_games(self) -> RoundGames:
        """The round's games at this table and which results the hub holds."""
        return RoundGames(self.games, self.recorded)


class BroadcastKind(enum.StrEnum):
    LAST_LAP = "last_lap"
    """The round's time is over: every running game plays its last lap."""
    START_ROUND = "start_round"
    MESSAGE = "message"
    """A line of text for every table display."""


class Broadcast(_HubMessage, frozen=True):
    """Retained hub → all tables message; apply each ``id`` at most once."""

    id: Seq
    """Distinct per broadcast: a unit applies each id at most once."""
    kind: BroadcastKind
    """``last_lap`` (the round's time is over: every running game plays its last lap),
    ``start_round``, ``message`` (``text`` for every display)."""
    round: RoundNo = 0
    text: Text = ""
    ts: Wall = 0.0
    """Hub's wall time when sent."""


class HallLanguage(_HubMessage, frozen=True):
    """Retained on ``…/hub/language``: the one language the whole hall speaks, the event's
    (every table's display and the hub screen show their words in it). A setting of its
    own, not part of an assignment: a unit shows it at once, in the middle of a game too.
    Before the hub has sent one, a unit speaks its config's language."""

    language: LanguageCode
    """``pl`` (Polish) or ``en`` (English). A receiver that does not speak the language named
    (one a newer hub speaks) keeps the one it speaks."""


class ConsoleLink(_HubMessage, frozen=True):
    """Retained on ``…/hub/console``: where phones open the web console on the venue
    network (the hub config's ``[web] public_url``). The hub screen shows it as a QR code,
    and a table's display the code of the table's own page (``{url}/tables/{N}``) where
    it has room. Cleared when the hub has no address set. Added within version 1: a unit
    of an earlier release does not subscribe to it."""

    url: WebAddress
    """The console's address, e.g. ``http://rummikub.local:8080`` (no trailing ``/``)."""


class CurrentEvent(_HubMessage, frozen=True):
    """Retained on ``rummikub/v1/{venue}/hub/event``, above every event's topics: the event
    the venue's hub serves now. A table unit belongs to the venue, not to an event: it
    follows this one, publishing under ``rummikub/v1/{venue}/{event}/`` and keeping one
    journal per event, so a new event reaches every table with nothing done on the units.
    Only the hub's account may write it."""

    event: TopicLevel
    """The event's topic level (1–32 letters, digits, ``_`` or ``-``; never ``hub`` or
    ``league``, the venue's own topics)."""
    ts: Wall = 0.0
    """Hub's wall time when it announced the event (it does so at every connect)."""


class Ack(_HubMessage, frozen=True, omit_defaults=True):
    """The hub settled every event of ``unit`` up to and including ``upto``: stored, or
    refused and listed in ``refused``.

    ``resend_from`` asks the unit to republish its journal from that seq (a gap).
    ``refused``: the seqs in ``upto - WINDOW + 1 … upto`` the hub refused or holds in
    conflict; the unit sets those aside for the judge instead of deleting them.
    Fields at their defaults are left out, so units of the release before ``refused``
    (which refuse unknown fields) still take every ack without a refusal.
    """

    unit: UnitId
    upto: SeqOrZero
    """Every seq 1…upto is settled: stored, or refused and listed in ``refused`` (0: none)."""
    resend_from: Seq | None = None
    """Republish from this seq (the hub saw a gap)."""
    refused: Annotated[tuple[Seq, ...], msgspec.Meta(max_length=WINDOW)] = ()
    """The seqs from upto − 199 to upto that the hub refused or holds in conflict: set
    them aside, do not delete them."""
    epoch: Epoch = ""
    """The journal epoch the ack is for (the events' ``epoch``): a unit ignores an ack for
    another epoch (left out when empty)."""


class RefusalCode(enum.StrEnum):
    """Why the hub refused one of a unit's events (:class:`Refusal`)."""

    INVALID = "invalid"
    """The event does not decode: unknown type or field, wrong type."""
    RANGE = "range"
    """A number of the event is out of range."""
    VERSION = "version"
    """A protocol version the hub does not speak."""
    CONFLICT = "conflict"
    """The hub already stores another event under this seq: both are kept for the judge."""


class Refusal(_HubMessage, frozen=True, omit_defaults=True):
    """The hub refused event ``seq`` of ``unit``, for ``reason``: the unit sets it aside for
    the judge and its queue moves on (the next :class:`Ack` lists it in ``refused``)."""

    unit: UnitId
    seq: Seq
    code: RefusalCode
    """``invalid`` (unknown type or field, wrong type), ``range`` (a number out of range),
    ``version``, ``conflict`` (another event is stored under this seq)."""
    reason: Text
    """What is wrong, in words."""
    epoch: Epoch = ""
    """The journal epoch of the refused event (the event's ``epoch``): a unit ignores a
    refusal for another epoch."""


MAX_WORDING_VALUES: Final = 8
MAX_WORDING_DEPTH: Final = 3
FieldName = Annotated[str, msgspec.Meta(pattern=r"^[A-Za-z_][A-Za-z0-9_]{0,31}$")]


class Wording(msgspec.Struct, frozen=True, omit_defaults=True):
    """Words for a person, to show in the reader's language: the English ``template`` (a
    message of the kit's catalogs; one unknown to the receiver's catalog is shown in
    English) and the values of its ``{fields}``, each a string, a number or a wording of
    its own."""

    template: Text
    """The English message with ``{field}`` (or ``{field!r}``) where a value goes."""
    values: Annotated[
        dict[FieldName, Annotated[str, msgspec.Meta(max_length=200)] | int | float | Wording],
        msgspec.Meta(max_length=MAX_WORDING_VALUES),
    ] = msgspec.field(default_factory=dict)
    """The values of the template's fields, by name (at most 8)."""
    context: Annotated[str, msgspec.Meta(max_length=40)] | None = None
    """The template's gettext context, where the same English words are translated apart
    (``stage``: a stage's name); a receiver of an earlier release ignores it."""

    def __post_init__(self) -> None:
        check_wording(self, MAX_WORDING_DEPTH)

    def phrase(self) -> Phrase:
        """The words as a :class:`~tablekit.core.errors.Phrase`, said in the reader's
        language by ``.message(gettext)``."""
        phrase = Phrase(
            self.template,
            **{k: v.phrase() if isinstance(v, Wording) else v for k, v in self.values.items()},
        )
        phrase.context = self.context
        return phrase

    @classmethod
    def of(cls, said: KitError | Phrase) -> Wording:
        """What an error or a phrase says, to send: its template and its values (a value
        that is itself an error or a phrase as a wording of its own; any other value that
        is not a number as its English text, cut at 200 characters)."""
        return _wording_of(said, MAX_WORDING_DEPTH)


class WordingError(KitError, ValueError):
    """A wording whose template its values cannot fill."""


def check_wording(wording: Wording, depth: int) -> None:
    """Refuse a wording a receiver could not fill: a field other than ``{name}``,
    ``{name!r}`` or ``{name!s}``, a field without its value, words nested deeper than
    ``depth``."""
    if depth < 1:
        raise WordingError(N_("words nested more than {most} deep"), most=MAX_WORDING_DEPTH)
    try:
        parts = list(string.Formatter().parse(wording.template))
    except ValueError:
        raise WordingError(
            N_("not a template: {template!r}"), template=wording.template
        ) from None
    for _, name, spec, conversion in parts:
        if name is None:
            continue
        if name not in wording.values or spec or conversion not in (None, "r", "s"):
            raise WordingError(
                N_("template field {field!r} is not one of the named values"), field=name
            )
    for value in wording.values.values():
        if isinstance(value, Wording):
            check_wording(value, depth - 1)


def _wording_of(said: KitError | Phrase, depth: int) -> Wording:
    as_text = Wording("{text}", {"text": str(said)[:200]})
    if not said.template or len(said.template) > 200 or len(said.values) > MAX_WORDING_VALUES:
        return as_text
    values: dict[str, str | int | float | Wording] = {}
    for name, value in said.values.items():
        if isinstance(value, KitError | Phrase):
            values[name] = _wording_of(value, depth - 1) if depth > 1 else str(value)[:200]
        elif isinstance(value, int | float) and not isinstance(value, bool):
            values[name] = value
        else:
            values[name] = str(value)[:200]
    try:
        return Wording(
            said.template, values, context=said.context if isinstance(said, Phrase) else None
        )
    except WordingError:  # a template with a format spec: its English text
        return as_text


class ResultAck(_HubMessage, frozen=True):
    """The hub accepted or rejected a table's submitted result for ``game``."""

    unit: UnitId
    game: GameNo
    accepted: bool
    reason: Text = ""
    """Why it was rejected (empty when accepted), in English."""
    round: Annotated[int, msgspec.Meta(ge=0, le=MAX_GAME)] = 0
    """The round of the submission answered (the assignment's ``round``)."""
    why: Wording | None = None
    """Why it was rejected, as words to show in the reader's language (``reason`` is the
    same in English, for units of a release before it); null when accepted."""
    final: bool = False
    """Sending the result again cannot change the refusal (the game's result is at the
    hub already, the result names another round or a game the round does not have): the
    table stops entering it and plays on; a judge corrects at the hub. A unit of an
    earlier release ignores it and offers to send again, as before."""


# --- hub → screens and dashboards -----------------------------------------------------------


class RoundInfo(_HubMessage, frozen=True):
    """Retained on ``…/hub/round``: the round in play (or just closed)."""

    stage: Label
    """Stage name as shown, e.g. "Eliminations", "Final"."""
    round: RoundNo
    games: Annotated[int, msgspec.Meta(ge=0, le=MAX_GAME)] = 0
    """Games per table in this round (0: unknown, shown as "G2")."""
    first_game: GameNo = 1
    """The units' game number of the round's first game (game numbers may run on)."""
    deadline: Wall | None = None
    """Wall time at which the round's time is over; None: no round clock."""
    last_lap: bool = False
    """The hub has called the last lap (round time over)."""
    closed: bool = False
    """Every result of the round is in; the standings are final for this round."""
    hide_standings: bool = False
    """Keep the standings off the screen until the round is closed."""


class StandingLine(msgspec.Struct, frozen=True, omit_defaults=True):
    place: Annotated[int, msgspec.Meta(ge=1, le=MAX_GAME)]
    """Shared by players who are level (competition ranking 1, 2, 2, 4)."""
    name: Name
    big: Points
    """Big points, after any the judge deducted (a sanction)."""
    small: Points
    """Small points, the winner plus: one convention for every ruleset, 002 included."""
    games: Annotated[int, msgspec.Meta(ge=0, le=MAX_GAME)]
    title: Label = ""
    """The title the final ranking gives this place, as the event's format names it
    ("champion", "vice-champion", "winner"; screens show it in their language); only in
    final standings, omitted when there is none; "tie — the head judge decides" for
    players sharing a place whose places carry different titles or league points while
    the head judge has not decided (never two holders of one title). Added in version 1:
    a screen that does not know it ignores it."""
    gender: Gender | None = None
    """The player's grammatical gender, which the title agrees with (``f``: *MISTRZYNI*,
    ``m``: *MISTRZ*, ``n``: words without gender); only with a title, omitted otherwise.
    Added within version 1: a screen that does not know it ignores it."""


class StandingsBoard(_HubMessage, frozen=True):
    """Retained on ``…/hub/standings``: the standings as of ``after_round``."""

    stage: Label
    after_round: RoundNo
    """The last round whose games all count (0: none closed yet)."""
    rows: Annotated[tuple[StandingLine, ...], msgspec.Meta(max_length=MAX_BOARD_ROWS)]
    final: bool = False


class SeatingLine(msgspec.Struct, frozen=True, omit_defaults=True):
    name: Name
    table: TableNo
    seat: Annotated[str, msgspec.Meta(pattern=r"^[ABCD]$")]
    surname: Annotated[str, msgspec.Meta(max_length=40, pattern=PRINTABLE)] = ""
    """The part of ``name`` that is the surname, sent only when it is not the last word
    (omitted: the last word)."""


class SeatingBoard(_HubMessage, frozen=True):
    """Retained on ``…/hub/seating``: the next round's seating ("find your table")."""

    stage: Label
    round: RoundNo
    rows: Annotated[tuple[SeatingLine, ...], msgspec.Meta(max_length=MAX_BOARD_ROWS)]


class RoundProgress(_HubMessage, frozen=True):
    """Retained on ``…/hub/progress``: the tables of the round in play (or just closed)
    that have every game's result in at the hub."""

    stage: Label
    round: RoundNo
    finished: Annotated[tuple[TableNo, ...], msgspec.Meta(max_length=MAX_TABLE)] = ()
    """Table numbers, ascending."""


ScreenMessage = RoundInfo | StandingsBoard | SeatingBoard | RoundProgress
"""The hub → screen messages."""

AnyMessage = (
    EventEnvelope
    | TableSnapshot
    | UnitStatus
    | HubStatus
    | Assignment
    | Broadcast
    | HallLanguage
    | ConsoleLink
    | CurrentEvent
    | Ack
    | Refusal
    | ResultAck
    | RoundInfo
    | StandingsBoard
    | SeatingBoard
    | RoundProgress
)

MAX_PAYLOAD_OF: Final[Mapping[type[Any], int]] = {
    StandingsBoard: MAX_BOARD_PAYLOAD,
    SeatingBoard: MAX_BOARD_PAYLOAD,
}
"""Payload limits other than :data:`MAX_PAYLOAD`."""


# --- helpers for both ends ------------------------------------------------------------------


def envelope(
    unit: str, table: int, seq: int, ts: float, event: AnyUnitEvent, *, epoch: str = ""
) -> EventEnvelope:
    return EventEnvelope(
        v=PROTOCOL_VERSION, unit=unit, table=table, seq=seq, ts=ts, event=event, epoch=epoch
    )


def idle_assignment(table: int, round_no: int = 0, issued: float = 0.0) -> Assignment:
    """The retained assignment of a table with no game: nobody sits there in round
    ``round_no`` (0: no round in play)."""
    return Assignment(
        v=PROTOCOL_VERSION, table=table, game=None, seats=(), round=round_no, issued=issued,
        idle=True,
    )


def snapshot_of(
    state: ClockState, mono_now: float, wall_now: float, table: int, unit_id: str
) -> TableSnapshot:
    """The retained snapshot of a clock state at ``mono_now`` (pure)."""
    if state.stats:
        timeouts = tuple(s.timeouts for s in state.stats)
    else:
        timeouts = tuple(0 for _ in state.seats)
    return TableSnapshot(
        v=PROTOCOL_VERSION,
        table=table,
        unit=unit_id,
        game=state.game,
        move=state.move,
        phase=state.phase,
        active=state.active,
        remaining=round(min(max(state.remaining_at(mono_now), 0.0), MAX_SECONDS), 3),
        measured_at=wall_now,
        paused=state.paused,
        last_lap_left=state.last_lap_left,
        timeouts=timeouts,
        seats=state.rules.seats,
        move_seconds=state.rules.move_seconds,
    )
