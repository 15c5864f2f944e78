"""What flows between a venue's hub and the central league service, and on which topics
(pure: no I/O; docs/protocol.md, "The league stream").

On the venue's broker the league's topics sit beside the venue's own, under
``rummikub/v1/{venue}/league/``; the venue's Mosquitto bridges exactly these to the
central broker, where each venue's are under ``rummikub/league/{league}/venue/{venue}/``:

=========================  ===========  ==================================================
venue topic (``…/league/``)  direction    message
=========================  ===========  ==================================================
``up/{event}``             hub → central  :class:`RecordBatch`: the event's records in seq order
``ack/{event}``            central → hub  :class:`RecordAck` (retained): what the central holds
``season``                 central → hub  :class:`SeasonBoard` (retained): the season table
=========================  ===========  ==================================================

Identity comes from the topic: the central takes the venue from the topic level its
broker lets only that venue's bridge write (the central's ACL), never from a payload.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import msgspec

from tablekit.core.topics import SEGMENT_RE, TOPIC_PREFIX, check_level

LEAGUE_VERSION: Final = 1
CENTRAL_PREFIX: Final = "rummikub/league"
MAX_BATCH_BYTES: Final = 96 * 1024
"""A batch's records at most (a record alone may be larger: it goes alone)."""


class UpRecord(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One record of the hub's store as stored: its seq (the hub's own numbering), kind,
    when it was stored and its payload, unchanged."""

    seq: int
    kind: str
    at: float
    payload: msgspec.Raw


class RecordBatch(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Consecutive records of one event, first seq first."""

    v: int
    records: tuple[UpRecord, ...]


class RecordAck(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The central holds every record of the event up to ``upto`` (committed); a
    ``resend_from`` asks for the records from there again (a gap)."""

    v: int
    upto: int
    resend_from: int | None = None


class BoardLine(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    place: int
    person: str
    name: str
    points: int
    starts: int
    club: str | None = None
    number: str = ""


class SeasonBoard(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The season table as the central has it, for the venues' seeds: every venue
    receives the same one, so each person is named as the public reads them (a minor by
    given name and initial, without their club); a venue finds its own players in it by
    league number (else by a name the public reads in full)."""

    v: int
    league: str
    updated: float
    tournaments: tuple[str, ...]
    """The tournaments counted, in the season's order (their names)."""
    lines: tuple[BoardLine, ...]
    open_questions: int = 0
    """Name matches the league organizer has not answered: the table counts such players
    apart until then."""


batch_decoder: msgspec.json.Decoder[RecordBatch] = msgspec.json.Decoder(RecordBatch)
ack_decoder: msgspec.json.Decoder[RecordAck] = msgspec.json.Decoder(RecordAck)
board_decoder: msgspec.json.Decoder[SeasonBoard] = msgspec.json.Decoder(SeasonBoard)


@dataclass(frozen=True)
class VenueLeagueTopics:
    """The league's topics on a venue's broker."""

    venue: str

    def __post_init__(self) -> None:
        check_level("venue", self.venue)

    @property
    def base(self) -> str:
        return f"{TOPIC_PREFIX}/{self.venue}/league"

    def up(self, event: str) -> str:
        return f"{self.base}/up/{check_level('event', event)}"

    def ack(self, event: str) -> str:
        return f"{self.base}/ack/{check_level('event', event)}"

    @property
    def ack_filter(self) -> str:
        """Every event's acks (the hub sends every event of the venue that went up)."""
        return f"{self.base}/ack/+"

    def parse_ack(self, topic: str) -> str | None:
        """The event of an ack's topic, None when ``topic`` is not one."""
        head, _, event = topic.rpartition("/")
        return event if head == f"{self.base}/ack" and SEGMENT_RE.match(event) else None

    @property
    def season(self) -> str:
        return f"{self.base}/season"


@dataclass(frozen=True)
class CentralTopics:
    """The league's topics on the central broker."""

    league: str

    def __post_init__(self) -> None:
        check_level("league", self.league)

    @property
    def base(self) -> str:
        return f"{CENTRAL_PREFIX}/{self.league}"

    def venue_base(self, venue: str) -> str:
        return f"{self.base}/venue/{check_level('venue', venue)}"

    def ack(self, venue: str, event: str) -> str:
        return f"{self.venue_base(venue)}/ack/{check_level('event', event)}"

    @property
    def season(self) -> str:
        return f"{self.base}/season"

    @property
    def up_filter(self) -> str:
        """What the central service subscribes to: every venue's records."""
        return f"{self.base}/venue/+/up/+"

    def parse_up(self, topic: str) -> tuple[str, str] | None:
        """(venue, event) of a records topic, None when ``topic`` is not one."""
        parts = topic.split("/")
        base = self.base.split("/")
        if len(parts) != len(base) + 4 or parts[: len(base)] != base:
            return None
        venue, up, event = parts[len(base) + 1], parts[len(base) + 2], parts[len(base) + 3]
        if parts[len(base)] != "venue" or up != "up":
            return None
        if not (SEGMENT_RE.match(venue) and SEGMENT_RE.match(event)):
            return None
        return venue, event
