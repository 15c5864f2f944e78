"""The protocol's topic tree: which topic carries which message, and decoding by topic.

Every topic of one event at one venue lives under ``rummikub/v1/{venue}/{event}/``; each
carries exactly one message type (:data:`MESSAGE_OF_KIND`), so the topic says what to
decode. A table's topics carry its number, and the unit that may write them is the one
named after it (:func:`tablekit.core.messages.unit_id_of`). Above the events, the venue's
hub announces the event it serves on ``rummikub/v1/{venue}/hub/event``
(:func:`current_event_topic`), which the venue's table units follow; ``hub`` and
``league`` (the league stream, :mod:`hub.league.wire`) are therefore no event's names.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from tablekit.core.codec import (
    MSGSPEC_SAYS,
    REASONS,
    DecodeError,
    check_identity,
    decode,
    prepare,
)
from tablekit.core.errors import KitError, Phrase, phrase_of
from tablekit.core.fields import MAX_TABLE, TOPIC_LEVEL_PATTERN
from tablekit.core.messages import (
    Ack,
    AnyMessage,
    Assignment,
    Broadcast,
    ConsoleLink,
    CurrentEvent,
    EventEnvelope,
    HallLanguage,
    HubStatus,
    Refusal,
    ResultAck,
    RoundInfo,
    RoundProgress,
    SeatingBoard,
    StandingsBoard,
    TableSnapshot,
    UnitStatus,
)
from tablekit.core.words import N_

TOPIC_PREFIX: Final = "rummikub/v1"
SEGMENT_RE: Final = re.compile(TOPIC_LEVEL_PATTERN)
VENUE_LEVEL: Final = "hub"
"""The level under a venue that holds its hub's own topics (the current event)."""
RESERVED_LEVELS: Final = (VENUE_LEVEL, "league")
"""Levels under a venue that are the venue's own, no event's: its hub's topics and the
league stream's."""

# The reasons a topic is refused, and the hub's own (a table the event has not, a kind
# that is not for it): templates, so a reason stored in English is shown in the reader's
# language (:func:`reason_words`).
NOT_UNDER: Final = N_("topic {topic!r} is not under {base}")
NOT_PROTOCOL: Final = N_("topic {topic!r} is not a protocol topic")
UNKNOWN_KIND: Final = N_("topic {topic!r}: unknown message kind {kind!r}")
TABLE_NUMBER: Final = N_("topic {topic!r}: table must be 1-{most}, got {got!r}")
NOT_PROVISIONED: Final = N_("table {table} is not one of this event's tables 1-{tables}")
NOT_FOR_THE_HUB: Final = N_("{kind} is not for the hub")
# The hub's reasons for a unit's event it does not store (hub.store).
CONFLICT: Final = N_(
    "seq {seq} is already stored with other content; both copies are kept for the judge"
)
BEYOND_WINDOW: Final = N_(
    "unit {unit}: seq {seq} is beyond the hub's acknowledged mark plus its window of "
    "{window} (not stored)"
)
NEW_JOURNALS: Final = N_(
    "unit {unit}: journal {epoch} would be its table's {count}th new journal within "
    "{minutes} minutes (not stored now; taken once the time has passed)"
)


def reason_words(reason: str) -> Phrase:
    """A refusal's reason as it was stored (English: the hub's refusal log, a unit's
    set-aside event) given back as words to translate, when it is one of the protocol's;
    else as written (a reason from another version)."""
    templates = (
        NOT_UNDER, NOT_PROTOCOL, UNKNOWN_KIND, TABLE_NUMBER, NOT_PROVISIONED, *REASONS,
        CONFLICT, BEYOND_WINDOW, NEW_JOURNALS, MSGSPEC_SAYS, NOT_FOR_THE_HUB,
    )
    return phrase_of(reason, templates) or Phrase("{reason}", reason=reason)


class TopicNameError(KitError, ValueError):
    """A venue or event name that cannot be a topic segment, or a kind with no topic."""


def check_level(field: str, value: str) -> str:
    """``value`` as the topic level ``field`` (``venue``, ``event``); TopicNameError when it
    cannot be one."""
    if not SEGMENT_RE.match(value):
        raise TopicNameError(
            N_("{field}: 1-32 letters, digits, '_' or '-' (starting with a letter or "
               "digit), got {got!r}"),
            field=field, got=value,
        )
    if field == "event" and value in RESERVED_LEVELS:
        raise TopicNameError(
            N_("event: {got!r} is taken by the venue's own topics; give the event another "
               "name"),
            got=value,
        )
    return value


def current_event_topic(venue: str) -> str:
    """Where the venue's hub announces the event it serves (:class:`CurrentEvent`)."""
    return f"{TOPIC_PREFIX}/{check_level('venue', venue)}/{VENUE_LEVEL}/{Kind.CURRENT_EVENT}"


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
    LANGUAGE = "language"
    CONSOLE = "console"
    ROUND = "round"
    STANDINGS = "standings"
    SEATING = "seating"
    PROGRESS = "progress"
    CURRENT_EVENT = "event"
    """The venue's, above every event: ``rummikub/v1/{venue}/hub/event``."""


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
    Kind.LANGUAGE: HallLanguage,
    Kind.CONSOLE: ConsoleLink,
    Kind.ROUND: RoundInfo,
    Kind.STANDINGS: StandingsBoard,
    Kind.SEATING: SeatingBoard,
    Kind.PROGRESS: RoundProgress,
    Kind.CURRENT_EVENT: CurrentEvent,
}

# Every message type's decoder built now, before any thread decodes.
prepare(MESSAGE_OF_KIND.values())

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
        check_level("venue", self.venue)
        check_level("event", self.event)

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
    def current_event(self) -> str:
        """The venue's announcement of its current event (not under :attr:`base`)."""
        return current_event_topic(self.venue)

    @property
    def broadcast(self) -> str:
        return f"{self.base}/hub/broadcast"

    @property
    def hub_status(self) -> str:
        return f"{self.base}/hub/status"

    @property
    def language(self) -> str:
        return f"{self.base}/hub/language"

    @property
    def console(self) -> str:
        return f"{self.base}/hub/console"

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
            raise TopicNameError(N_("not a screen message kind: {kind!r}"), kind=kind)
        return f"{self.base}/hub/{kind}"

    def unit_filters(self, table: int) -> list[str]:
        """What a table unit subscribes to."""
        return [
            f"{self.base}/hub/table/{table}/+", self.broadcast, self.hub_status, self.language,
            self.console, self.current_event,
        ]

    def of_another_event(self, topic: str) -> bool:
        """``topic`` belongs to another event of this venue (one the venue played before),
        not to this one nor to the venue's own topics."""
        venue = f"{TOPIC_PREFIX}/{self.venue}/"
        level = topic[len(venue):].split("/", 1)[0]
        return topic.startswith(venue) and level not in (self.event, *RESERVED_LEVELS)

    def table_filters(self) -> list[str]:
        """Every message the event's units publish."""
        return [f"{self.base}/table/+/{kind}" for kind in _UNIT_KINDS]

    def hub_filters(self) -> list[str]:
        """What the hub subscribes to: its tables, and the venue's current event (to tell
        the one it serves from the one the venue served before)."""
        return [*self.table_filters(), self.current_event]

    def screen_filters(self) -> list[str]:
        """What the hub screen subscribes to (a dashboard may take the same)."""
        base = self.base
        return [
            f"{base}/table/+/{Kind.STATE}",
            f"{base}/table/+/{Kind.STATUS}",
            f"{base}/hub/table/+/{Kind.ASSIGN}",
            f"{base}/hub/table/+/{Kind.RESULT}",
            *(self.screen(kind) for kind in SCREEN_KINDS),
            self.language,
            self.console,
        ]

    def delivery_filters(self) -> list[str]:
        """The tables' events and the hub's acks: what a screen compares to tell a table
        whose events the hub has not stored (not retained: only what happens from now)."""
        base = self.base
        return [f"{base}/table/+/{Kind.EVENTS}", f"{base}/hub/table/+/{Kind.ACK}"]

    def parse(self, topic: str) -> TopicRef:
        """The kind (and table) of a topic in this tree; DecodeError if it is not one."""
        if topic == self.current_event:
            return TopicRef(Kind.CURRENT_EVENT)
        base = self.base + "/"
        if not topic.startswith(base):
            raise DecodeError(
                NOT_UNDER, code="topic", topic=topic, base=self.base
            )
        parts = topic[len(base) :].split("/")
        if parts == ["hub", "broadcast"]:
            return TopicRef(Kind.BROADCAST)
        if parts == ["hub", "status"]:
            return TopicRef(Kind.HUB_STATUS)
        if parts == ["hub", "language"]:
            return TopicRef(Kind.LANGUAGE)
        if parts == ["hub", "console"]:
            return TopicRef(Kind.CONSOLE)
        if len(parts) == 2 and parts[0] == "hub" and parts[1] in SCREEN_KINDS:
            return TopicRef(Kind(parts[1]))
        if len(parts) == 3 and parts[0] == "table":
            kinds, number = _UNIT_KINDS, parts[1]
        elif len(parts) == 4 and parts[:2] == ["hub", "table"]:
            kinds, number = _HUB_TABLE_KINDS, parts[2]
        else:
            raise DecodeError(
                NOT_PROTOCOL, code="topic", topic=topic
            )
        if parts[-1] not in kinds:
            raise DecodeError(
                UNKNOWN_KIND, code="topic",
                topic=topic, kind=parts[-1],
            )
        if not number.isdigit() or not 1 <= int(number) <= MAX_TABLE or number != str(int(number)):
            raise DecodeError(
                TABLE_NUMBER, code="topic",
                topic=topic, most=MAX_TABLE, got=number,
            )
        return TopicRef(Kind(parts[-1]), int(number))

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
