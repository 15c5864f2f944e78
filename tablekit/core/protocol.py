"""The table ↔ hub ↔ screen protocol: topics, typed and versioned messages, strict decoding.

One module used by every end (table units, the hub, the hub screen and dashboards) and
documented for third parties in ``docs/protocol.md``. Every payload is a JSON object with a version
field ``v``; every topic carries exactly one message type, so the topic says what
to decode and adding a message type means adding a topic kind and a struct.

Decoding is strict: oversize payloads are refused before they are parsed, unknown
fields, wrong types and out-of-range numbers are refused with a :class:`DecodeError`
whose ``reason`` names what is wrong. A message that decodes is safe to use.
"""

from __future__ import annotations

import enum
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Final, TypeVar

import msgspec

from tablekit.core.clock import AnyClockEvent, ClockState, PauseReason, Phase
from tablekit.core.errors import KitError
from tablekit.core.hallcheck import HallChecked
from tablekit.core.result import ResultSubmitted
from tablekit.core.rulesets import Ruleset
from tablekit.core.scoring import JOKERS_PER_TABLE, MAX_TILE_VALUE
from tablekit.core.seats import MAX_SEATS, MIN_SEATS, Seat

PROTOCOL_VERSION: Final = 1
TOPIC_PREFIX: Final = "rummikub/v1"
MAX_PAYLOAD: Final = 4096
"""Bytes; larger payloads are refused before parsing (and by the broker's max_packet_size)."""
MAX_BOARD_PAYLOAD: Final = 256 * 1024
"""Bytes of a standings or seating board (hub → screens): a few hundred players' rows
exceed :data:`MAX_PAYLOAD`; every other message keeps that limit."""
MAX_BOARD_ROWS: Final = 1000
MAX_TABLE: Final = 999
MAX_GAME: Final = 9999
MAX_MOVE: Final = 100_000
MAX_SEQ: Final = 2**53
MAX_SECONDS: Final = 86_400.0
"""Upper bound of any duration field (one day)."""
MAX_WALL: Final = 1e11
"""Upper bound of a wall timestamp (Unix seconds, year ~5138)."""

WINDOW: Final = 200
"""Events a unit may have published beyond the hub's last ack; the hub refuses (and
does not store) a seq beyond its acknowledged mark plus this window."""

SEGMENT_RE: Final = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$")
UNIT_ID_PATTERN: Final = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"
EPOCH_PATTERN: Final = r"^[0-9a-z]{0,32}$"
"""A journal's epoch: made when the journal file is created (``tablekit.journal``); empty
for a journal of a release before epochs."""


def unit_id_of(table: int) -> str:
    """The identity of table ``table``'s unit: ``table-07``, the username of the table's
    broker account (``hub.credentials``). The hub takes a unit's identity from the topic
    its message came on, which the broker's access list lets only that account write."""
    return f"table-{table:02d}"


class DecodeError(KitError, ValueError):
    """A payload or topic that does not conform to the protocol; ``reason`` says why."""

    def __init__(self, reason: str, code: str = "invalid") -> None:
        super().__init__(reason)
        self.reason = reason
        self.code = code
        """A category for counters: topic, oversize, json, version, invalid, range, table,
        identity (a payload claiming another unit than its topic's)."""


# --- field types -----------------------------------------------------------------------

Version = Annotated[int, msgspec.Meta(ge=1, le=PROTOCOL_VERSION)]
TableNo = Annotated[int, msgspec.Meta(ge=1, le=MAX_TABLE)]
GameNo = Annotated[int, msgspec.Meta(ge=1, le=MAX_GAME)]
MoveNo = Annotated[int, msgspec.Meta(ge=0, le=MAX_MOVE)]
Seq = Annotated[int, msgspec.Meta(ge=1, le=MAX_SEQ)]
SeqOrZero = Annotated[int, msgspec.Meta(ge=0, le=MAX_SEQ)]
Wall = Annotated[float, msgspec.Meta(ge=0.0, le=MAX_WALL, description="wall-clock Unix seconds")]
Seconds = Annotated[float, msgspec.Meta(ge=0.0, le=MAX_SECONDS, description="seconds")]
MoveSeconds = Annotated[float, msgspec.Meta(gt=0.0, le=3600.0, description="seconds")]
SeatCount = Annotated[int, msgspec.Meta(ge=MIN_SEATS, le=MAX_SEATS)]
UnitId = Annotated[str, msgspec.Meta(pattern=UNIT_ID_PATTERN)]
Epoch = Annotated[str, msgspec.Meta(max_length=32, pattern=EPOCH_PATTERN)]
Text = Annotated[str, msgspec.Meta(max_length=200, pattern=r"^[^\x00-\x1f\x7f]*$")]
Name = Annotated[str, msgspec.Meta(min_length=1, max_length=40, pattern=r"^[^\x00-\x1f\x7f]+$")]
Count = Annotated[int, msgspec.Meta(ge=0, le=MAX_MOVE)]
RoundNo = Annotated[int, msgspec.Meta(ge=0, le=MAX_GAME)]
"""A round number; 0 = not part of a round."""
Label = Annotated[str, msgspec.Meta(max_length=40, pattern=r"^[^\x00-\x1f\x7f]*$")]
Points = Annotated[int, msgspec.Meta(ge=-1_000_000, le=1_000_000)]

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
    last_lap_left: Annotated[int, msgspec.Meta(ge=0, le=MAX_SEATS + 1)] | None
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
        if not self.running:
            return self.remaining
        return max(0.0, self.remaining - max(0.0, wall_now - self.measured_at))


class StatusReason(enum.StrEnum):
    CONNECTED = "connected"
    SHUTDOWN = "shutdown"
    """The unit (or hub) disconnected cleanly."""
    LOST = "lost"
    """The Last Will: the broker lost the connection."""


class UnitStatus(_Message, frozen=True):
    """Retained online/offline status of a table unit; the offline form is its Last Will."""

    unit: UnitId
    table: TableNo
    online: bool
    reason: StatusReason
    """``connected``, ``shutdown`` (a clean stop), ``lost`` (the Last Will)."""
    ts: Wall
    """Unit's wall time when composed (for a Last Will: when the unit connected)."""


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
    player: Annotated[str, msgspec.Meta(max_length=40, pattern=r"^[^\x00-\x1f\x7f]*$")] = ""
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

    def __post_init__(self) -> None:
        if self.idle:
            if self.seats or self.game is not None or self.starter is not None:
                raise ValueError("an idle assignment has no seats, no game and no starter")
            return
        if self.game is None:
            raise ValueError("an assignment names the game the table plays next")
        if len(self.seats) < MIN_SEATS:
            raise ValueError(f"a table seats {MIN_SEATS} or {MAX_SEATS}, got {len(self.seats)}")
        letters = [s.seat for s in self.seats]
        expected = [Seat(letter) for letter in "ABCD"[: len(letters)]]
        if letters != expected:
            got = ",".join(str(x) for x in letters)
            raise ValueError(f"seats must be {','.join(expected)} in order, got {got}")
        if self.starter is not None and self.starter not in letters:
            raise ValueError(f"starter {self.starter} is not a seat of this table")

    def names(self) -> dict[Seat, str]:
        return {s.seat: s.name for s in self.seats}


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


class ResultAck(_HubMessage, frozen=True):
    """The hub accepted or rejected a table's submitted result for ``game``."""

    unit: UnitId
    game: GameNo
    accepted: bool
    reason: Text = ""
    """Why it was rejected (empty when accepted)."""
    round: Annotated[int, msgspec.Meta(ge=0, le=MAX_GAME)] = 0
    """The round of the submission answered (the assignment's ``round``)."""


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


class StandingLine(msgspec.Struct, frozen=True):
    place: Annotated[int, msgspec.Meta(ge=1, le=MAX_GAME)]
    """Shared by players who are level (competition ranking 1, 2, 2, 4)."""
    name: Name
    big: Points
    """Big points, after any the judge deducted (a sanction)."""
    small: Points
    """Small points, the winner plus: one convention for every ruleset, 002 included."""
    games: Annotated[int, msgspec.Meta(ge=0, le=MAX_GAME)]


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
    surname: Annotated[str, msgspec.Meta(max_length=40, pattern=r"^[^\x00-\x1f\x7f]*$")] = ""
    """The part of ``name`` that is the surname, sent only when it is not the last word
    (omitted: the last word); screens sort the rows by surname, then given name."""


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


# --- topics --------------------------------------------------------------------------------


class Kind(enum.StrEnum):
    """What a topic carries; the value is the topic's last level."""

    EVENTS = "events"
    STATE = "state"
    STATUS = "status"
    ASSIGN = "assign"
    ACK = "ack"
    REFUSED = "refused"
    RESULT = "result"
    BROADCAST = "broadcast"
    HUB_STATUS = "hub_status"
    ROUND = "round"
    STANDINGS = "standings"
    SEATING = "seating"
    PROGRESS = "progress"


MESSAGE_OF_KIND: Final[Mapping[Kind, type[Any]]] = {
    Kind.EVENTS: EventEnvelope,
    Kind.STATE: TableSnapshot,
    Kind.STATUS: UnitStatus,
    Kind.ASSIGN: Assignment,
    Kind.ACK: Ack,
    Kind.REFUSED: Refusal,
    Kind.RESULT: ResultAck,
    Kind.BROADCAST: Broadcast,
    Kind.HUB_STATUS: HubStatus,
    Kind.ROUND: RoundInfo,
    Kind.STANDINGS: StandingsBoard,
    Kind.SEATING: SeatingBoard,
    Kind.PROGRESS: RoundProgress,
}
_UNIT_KINDS: Final[tuple[Kind, ...]] = (Kind.EVENTS, Kind.STATE, Kind.STATUS)
_HUB_TABLE_KINDS: Final[tuple[Kind, ...]] = (Kind.ASSIGN, Kind.ACK, Kind.REFUSED, Kind.RESULT)
SCREEN_KINDS: Final = (Kind.ROUND, Kind.STANDINGS, Kind.SEATING, Kind.PROGRESS)
"""The hub → screen messages, each on ``{base}/hub/{kind}``."""


@dataclass(frozen=True)
class TopicRef:
    kind: Kind
    table: int | None = None


@dataclass(frozen=True)
class Topics:
    """The topic tree of one event at one venue: ``rummikub/v1/{venue}/{event}/…``."""

    venue: str
    event: str

    def __post_init__(self) -> None:
        for field, value in (("venue", self.venue), ("event", self.event)):
            if not SEGMENT_RE.match(value):
                raise ValueError(
                    f"{field}: 1-32 letters, digits, '_' or '-' (starting with a letter or "
                    f"digit), got {value!r}"
                )

    @property
    def base(self) -> str:
        return f"{TOPIC_PREFIX}/{self.venue}/{self.event}"

    def events(self, table: int) -> str:
        return f"{self.base}/table/{table}/events"

    def state(self, table: int) -> str:
        return f"{self.base}/table/{table}/state"

    def status(self, table: int) -> str:
        return f"{self.base}/table/{table}/status"

    def assign(self, table: int) -> str:
        return f"{self.base}/hub/table/{table}/assign"

    def ack(self, table: int) -> str:
        return f"{self.base}/hub/table/{table}/ack"

    def result(self, table: int) -> str:
        return f"{self.base}/hub/table/{table}/result"

    def refused(self, table: int) -> str:
        return f"{self.base}/hub/table/{table}/refused"

    @property
    def broadcast(self) -> str:
        return f"{self.base}/hub/broadcast"

    @property
    def hub_status(self) -> str:
        return f"{self.base}/hub/status"

    @property
    def round(self) -> str:
        return f"{self.base}/hub/round"

    @property
    def standings(self) -> str:
        return f"{self.base}/hub/standings"

    @property
    def seating(self) -> str:
        return f"{self.base}/hub/seating"

    @property
    def progress(self) -> str:
        return f"{self.base}/hub/progress"

    def screen(self, kind: Kind) -> str:
        """The topic of a hub → screen message kind (:data:`SCREEN_KINDS`)."""
        if kind not in SCREEN_KINDS:
            raise ValueError(f"not a screen message kind: {kind!r}")
        return f"{self.base}/hub/{kind}"

    def unit_filters(self, table: int) -> list[str]:
        """What a table unit subscribes to."""
        return [f"{self.base}/hub/table/{table}/+", self.broadcast, self.hub_status]

    def hub_filters(self) -> list[str]:
        """What the hub subscribes to."""
        return [f"{self.base}/table/+/{kind}" for kind in _UNIT_KINDS]

    def screen_filters(self) -> list[str]:
        """What the hub screen subscribes to (a dashboard may take the same)."""
        base = self.base
        return [
            f"{base}/table/+/{Kind.STATE}",
            f"{base}/table/+/{Kind.STATUS}",
            f"{base}/hub/table/+/{Kind.ASSIGN}",
            f"{base}/hub/table/+/{Kind.RESULT}",
            *(self.screen(kind) for kind in SCREEN_KINDS),
        ]

    def parse(self, topic: str) -> TopicRef:
        """The kind (and table) of a topic in this tree; DecodeError if it is not one."""
        base = self.base + "/"
        if not topic.startswith(base):
            raise DecodeError(f"topic {topic!r} is not under {self.base}", "topic")
        parts = topic[len(base) :].split("/")
        if parts == ["hub", "broadcast"]:
            return TopicRef(Kind.BROADCAST)
        if parts == ["hub", "status"]:
            return TopicRef(Kind.HUB_STATUS)
        if len(parts) == 2 and parts[0] == "hub" and parts[1] in SCREEN_KINDS:
            return TopicRef(Kind(parts[1]))
        if len(parts) == 3 and parts[0] == "table":
            kinds, number = _UNIT_KINDS, parts[1]
        elif len(parts) == 4 and parts[:2] == ["hub", "table"]:
            kinds, number = _HUB_TABLE_KINDS, parts[2]
        else:
            raise DecodeError(f"topic {topic!r} is not a protocol topic", "topic")
        if parts[-1] not in kinds:
            raise DecodeError(f"topic {topic!r}: unknown message kind {parts[-1]!r}", "topic")
        if not number.isdigit() or not 1 <= int(number) <= MAX_TABLE or number != str(int(number)):
            raise DecodeError(
                f"topic {topic!r}: table must be 1-{MAX_TABLE}, got {number!r}", "topic"
            )
        return TopicRef(Kind(parts[-1]), int(number))


# --- encoding and decoding ----------------------------------------------------------------

T = TypeVar("T")


class _Peek(msgspec.Struct):
    v: Any = None


_peek_decoder: Final = msgspec.json.Decoder(_Peek)
_decoders: dict[type[Any], msgspec.json.Decoder[Any]] = {}
_encoder: Final = msgspec.json.Encoder()

# Fields of the clock's events (tablekit.core.clock, not constrained there) and their ranges.
_EVENT_INT_RANGES: Final[Mapping[str, tuple[int, int]]] = {
    "game": (1, MAX_GAME),
    "move": (0, MAX_MOVE),
    "seats": (MIN_SEATS, MAX_SEATS),
    "moves_left": (0, MAX_SEATS + 1),
    "tiles": (0, MAX_TILE_VALUE),
    "jokers": (0, JOKERS_PER_TABLE),
}
_EVENT_FLOAT_RANGES: Final[Mapping[str, tuple[float, float]]] = {
    "move_seconds": (1e-9, 3600.0),
}


def encode(message: msgspec.Struct) -> bytes:
    """The JSON payload of a message (compact, UTF-8)."""
    return _encoder.encode(message)


def decode(kind: type[T], payload: bytes | bytearray | memoryview) -> T:
    """Decode ``payload`` as message type ``kind``, strictly; DecodeError with a reason."""
    name = kind.__name__
    limit = MAX_PAYLOAD_OF.get(kind, MAX_PAYLOAD)
    if len(payload) > limit:
        raise DecodeError(f"{name}: payload of {len(payload)} bytes exceeds {limit}", "oversize")
    try:
        version = _peek_decoder.decode(payload).v
    except msgspec.DecodeError as err:
        raise DecodeError(f"{name}: {_reason(err)}", "json") from None
    if version is None:
        raise DecodeError(f"{name}: missing the protocol version field `v`", "version")
    if type(version) is not int or version != PROTOCOL_VERSION:
        raise DecodeError(
            f"{name}: unsupported protocol version {version!r} "
            f"(this end speaks {PROTOCOL_VERSION})",
            "version",
        )
    decoder = _decoders.get(kind)
    if decoder is None:
        decoder = _decoders[kind] = msgspec.json.Decoder(kind)
    try:
        message: T = decoder.decode(payload)
    except msgspec.DecodeError as err:
        raise DecodeError(f"{name}: {_reason(err)}") from None
    if isinstance(message, EventEnvelope):
        try:
            check_event(message.event)
        except DecodeError as err:
            raise DecodeError(f"{name}: {err.reason} - at `$.event`", err.code) from None
    return message


class _EnvelopePeek(msgspec.Struct):
    unit: Any = None
    seq: Any = None
    epoch: Any = ""


_envelope_peek: Final = msgspec.json.Decoder(_EnvelopePeek)


def peek_envelope(payload: bytes | bytearray | memoryview) -> tuple[str, int, str] | None:
    """``(unit, seq, epoch)`` of an event payload that did not decode, when they are well
    formed (a missing epoch is the empty one): the hub answers such an event with a
    :class:`Refusal` naming its seq."""
    if len(payload) > MAX_PAYLOAD:
        return None
    try:
        peek = _envelope_peek.decode(payload)
    except msgspec.DecodeError:
        return None
    unit, seq = peek.unit, peek.seq
    if not isinstance(unit, str) or not re.match(UNIT_ID_PATTERN, unit):
        return None
    if type(seq) is not int or not 1 <= seq <= MAX_SEQ:
        return None
    epoch = peek.epoch
    if not isinstance(epoch, str) or not re.match(EPOCH_PATTERN, epoch):
        return None
    return unit, seq, epoch


def checked(message: T) -> T:
    """``message`` itself if a receiver would accept it, else :class:`DecodeError` with the
    reason: msgspec constructors do not enforce field limits, decoding does."""
    return decode(type(message), encode(message))  # type: ignore[arg-type]


def decode_topic(
    topics: Topics, topic: str, payload: bytes | bytearray | memoryview
) -> tuple[TopicRef, AnyMessage]:
    """Decode a message by its topic, checking that a table-scoped payload names that
    table and that unit: identity comes from the topic (:func:`unit_id_of`)."""
    ref = topics.parse(topic)
    message: AnyMessage = decode(MESSAGE_OF_KIND[ref.kind], payload)
    if ref.table is not None:
        check_identity(message, ref.table)
    return ref, message


def check_identity(message: object, table: int) -> None:
    """DecodeError unless a message on table ``table``'s topic names that table and unit."""
    name = type(message).__name__
    claimed = getattr(message, "table", None)
    if claimed is not None and claimed != table:
        raise DecodeError(
            f"{name}: payload is for table {claimed} but was published on the topic of "
            f"table {table}",
            "table",
        )
    unit = getattr(message, "unit", None)
    if unit is not None and unit != unit_id_of(table):
        raise DecodeError(
            f"{name}: payload claims unit {unit!r} but the topic of table {table} belongs "
            f"to unit {unit_id_of(table)!r}",
            "identity",
        )


@dataclass(frozen=True)
class Cleared:
    """An empty payload on a retained topic: its publisher deleted the retained message
    (MQTT's way). The hub clears a table's ``assign`` when the table has no players in
    the round being played, and its ``result`` when no verdict of that round exists."""

    kind: Kind
    table: int | None


def decode_retained(
    topics: Topics, topic: str, payload: bytes | bytearray | memoryview
) -> tuple[TopicRef, AnyMessage | Cleared]:
    """:func:`decode_topic` for a subscriber of retained topics: an empty payload is a
    :class:`Cleared` message, not an error."""
    if not payload:
        ref = topics.parse(topic)
        return ref, Cleared(ref.kind, ref.table)
    return decode_topic(topics, topic, payload)


def check_event(event: msgspec.Struct) -> None:
    """Range checks on a domain event's numbers (the clock's structs carry no limits),
    down into nested values such as a submitted result's racks."""
    for field in event.__struct_fields__:
        value = getattr(event, field)
        where = f"{type(event).__name__}.{field}"
        if isinstance(value, bool):
            continue
        if isinstance(value, msgspec.Struct):
            check_event(value)
            continue
        if isinstance(value, tuple):
            for item in value:
                if isinstance(item, msgspec.Struct):
                    check_event(item)
            continue
        if isinstance(value, int):
            low, high = _EVENT_INT_RANGES.get(field, (0, MAX_MOVE))
            if not low <= value <= high:
                raise DecodeError(f"event {where}: {value} is outside {low}..{high}", "range")
        elif isinstance(value, float):
            flow, fhigh = _EVENT_FLOAT_RANGES.get(field, (0.0, MAX_SECONDS))
            if not (math.isfinite(value) and flow <= value <= fhigh):
                raise DecodeError(f"event {where}: {value} is outside {flow:g}..{fhigh:g}", "range")


def _reason(err: msgspec.DecodeError) -> str:
    text = str(err)
    if "malformed" in text or "truncated" in text:
        return f"not valid JSON ({text})"
    return text


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
