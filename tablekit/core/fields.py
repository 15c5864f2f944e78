"""The limits of everything on the wire, as constrained field types (pure).

The clock's events, the submitted result, the hall check and every protocol message
declare their numbers and strings with these types, so a payload that decodes is in
range: msgspec checks each limit while decoding and names the field that breaks one
(``Expected `int` <= 9999 - at `$.event.game```). Constructors do not check limits;
:func:`tablekit.core.codec.checked` does, as a receiver would.
"""

from __future__ import annotations

from typing import Annotated, Final

import msgspec

from tablekit.core.seats import MAX_SEATS, MIN_SEATS

MAX_TABLE: Final = 999
MAX_GAME: Final = 9999
MAX_MOVE: Final = 100_000
MAX_SEQ: Final = 2**53
MAX_SECONDS: Final = 86_400.0
"""Upper bound of any duration field (one day)."""
MAX_MOVE_SECONDS: Final = 3600.0
MAX_WALL: Final = 1e11
"""Upper bound of a wall timestamp (Unix seconds, year ~5138)."""
UNIT_ID_PATTERN: Final = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"
EPOCH_PATTERN: Final = r"^[0-9a-z]{0,32}$"
"""A journal's epoch: made when the journal file is created (``tablekit.journal``); empty
for a journal of a release before epochs."""
PRINTABLE: Final = r"^[^\x00-\x1f\x7f]*$"
TOPIC_LEVEL_PATTERN: Final = r"^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$"
"""A venue or an event as a level of the topic tree (``tablekit.core.topics``)."""

TableNo = Annotated[int, msgspec.Meta(ge=1, le=MAX_TABLE)]
GameNo = Annotated[int, msgspec.Meta(ge=1, le=MAX_GAME)]
MoveNo = Annotated[int, msgspec.Meta(ge=0, le=MAX_MOVE)]
Seq = Annotated[int, msgspec.Meta(ge=1, le=MAX_SEQ)]
SeqOrZero = Annotated[int, msgspec.Meta(ge=0, le=MAX_SEQ)]
Wall = Annotated[float, msgspec.Meta(ge=0.0, le=MAX_WALL, description="wall-clock Unix seconds")]
Seconds = Annotated[float, msgspec.Meta(ge=0.0, le=MAX_SECONDS, description="seconds")]
MoveSeconds = Annotated[
    float, msgspec.Meta(gt=0.0, le=MAX_MOVE_SECONDS, description="seconds")
]
SeatCount = Annotated[int, msgspec.Meta(ge=MIN_SEATS, le=MAX_SEATS)]
MovesLeft = Annotated[int, msgspec.Meta(ge=0, le=MAX_SEATS + 1)]
"""Moves left in a last lap, the one in progress included (seats + 1 at its start)."""
UnitId = Annotated[str, msgspec.Meta(pattern=UNIT_ID_PATTERN)]
Epoch = Annotated[str, msgspec.Meta(max_length=32, pattern=EPOCH_PATTERN)]
TopicLevel = Annotated[str, msgspec.Meta(max_length=32, pattern=TOPIC_LEVEL_PATTERN)]
Text = Annotated[str, msgspec.Meta(max_length=200, pattern=PRINTABLE)]
Name = Annotated[str, msgspec.Meta(min_length=1, max_length=40, pattern=r"^[^\x00-\x1f\x7f]+$")]
Count = Annotated[int, msgspec.Meta(ge=0, le=MAX_MOVE)]
RoundNo = Annotated[int, msgspec.Meta(ge=0, le=MAX_GAME)]
"""A round number; 0 = not part of a round."""
Label = Annotated[str, msgspec.Meta(max_length=40, pattern=PRINTABLE)]
LanguageCode = Annotated[str, msgspec.Meta(pattern=r"^[a-z]{2,3}$")]
URL_PATTERN: Final = r"^https?://[^\s\x00-\x1f\x7f/?#]+(/[^\s\x00-\x1f\x7f]*)?$"
"""An ``http://`` or ``https://`` address with a host, no spaces or control characters."""
WebAddress = Annotated[str, msgspec.Meta(min_length=8, max_length=200, pattern=URL_PATTERN)]
"""An address a phone opens (the web console's)."""
KitVersion = Annotated[str, msgspec.Meta(max_length=32, pattern=r"^[0-9A-Za-z.+!-]*$")]
"""The kit's version as its package names it (PEP 440: ``0.2.0``, ``0.2.0rc1``)."""
"""A language's ISO 639 code in lower case (``pl``, ``en``)."""
Points = Annotated[int, msgspec.Meta(ge=-1_000_000, le=1_000_000)]
