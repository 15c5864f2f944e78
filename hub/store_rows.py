"""What the hub's event store answers: stored events, passed moves, each source's marks,
what it refused or set aside, replaced units, and what one ingest did."""

from __future__ import annotations

from dataclasses import dataclass, field

import msgspec

from tablekit.core.messages import AnyUnitEvent

unit_events: msgspec.json.Decoder[AnyUnitEvent] = msgspec.json.Decoder(AnyUnitEvent)


@dataclass(frozen=True)
class StoredEvent:
    id: int
    source: str
    seq: int
    table: int | None
    kind: str
    game: int | None
    ts: float
    received: float
    payload: bytes

    def event(self) -> AnyUnitEvent:
        """The unit event (only for events from a table unit)."""
        return unit_events.decode(self.payload)


@dataclass(frozen=True)
class MoveRow:
    source: str
    seq: int
    table: int | None
    game: int
    move: int
    seat: str
    used: float
    timed_out: bool
    overtime: float
    ts: float


@dataclass(frozen=True)
class SourceMark:
    source: str
    table: int | None
    contiguous: int
    """Every seq from 1 up to this one is committed: the ack."""
    max_seq: int
    events: int
    unit: str = ""
    """The unit whose journal epoch this source is (empty: not looked up, or the hub)."""
    epoch: str = ""
    """That journal's epoch (empty: a journal of a release before epochs)."""

    @property
    def gap(self) -> int | None:
        """The first missing seq, when a later one has arrived."""
        return self.contiguous + 1 if self.max_seq > self.contiguous else None


@dataclass(frozen=True)
class Refused:
    """Something the hub refused: answered (``unit`` and ``seq`` set: the event is set
    aside and the unit told) or only logged and counted."""

    code: str
    reason: str
    table: int | None = None
    topic: str = ""
    unit: str | None = None
    seq: int | None = None
    payload: bytes = b""
    epoch: str = ""
    """The journal epoch of the unit's event (empty: a journal before epochs)."""


@dataclass(frozen=True)
class SetAside:
    """An event the hub refused or holds in conflict; ``stored`` is what the store holds
    under the same seq (the first copy), if anything."""

    source: str
    seq: int
    table: int | None
    code: str
    reason: str
    received: float
    payload: bytes
    stored: bytes | None


@dataclass(frozen=True)
class Replacement:
    """A table's unit started a new journal epoch: the unit was replaced, or its journal
    wiped, at ``at`` (when the hub first heard from the new epoch)."""

    table: int | None
    unit: str
    epoch: str
    source: str
    """The store's source of the new epoch's events (``unit@epoch``)."""
    at: float


@dataclass(frozen=True)
class RefusalCount:
    code: str
    table: int | None
    count: int
    first: float
    last: float


@dataclass(frozen=True)
class LoggedRefusal:
    at: float
    table: int | None
    code: str
    topic: str
    reason: str


@dataclass
class IngestResult:
    inserted: int = 0
    duplicates: int = 0
    """Exact replays of an event already stored (ignored)."""
    facts: int = 0
    """Hub facts derived from the new events (verdicts on results) in the same commit."""
    conflicts: int = 0
    """A known (source, seq) with a different content (ignored, worth a look)."""
    answered: list[Refused] = field(default_factory=list)
    """Events of units set aside (refused or in conflict): each unit is told."""
    beyond_window: int = 0
    """Events refused because their seq is beyond the unit's mark plus the window."""
    logged: int = 0
    """Refusals only logged and counted (nobody to answer, beyond the window, or a new
    journal over the limit)."""
    dropped: int = 0
    """Refused events answered but not kept: over the limits of what the store keeps."""
    marks: dict[str, SourceMark] = field(default_factory=dict)
    """Each source of the batch (events, set aside or beyond the window) after the
    commit, with its unit and epoch; a source the store does not know has a mark of 0."""
    replaced: list[Replacement] = field(default_factory=list)
    """New journal epochs of units the store already knew (a unit replaced or wiped)."""
    held: dict[str, list[int]] = field(default_factory=dict)
    """Each source of ``marks``: the seqs of the window below its contiguous mark that its
    unit must keep (:meth:`hub.store.EventStore.held`)."""


@dataclass(frozen=True)
class FoldSnapshot:
    """The snapshot of the folded event kept in the store (:mod:`hub.fold_snapshot`)."""

    seq: int
    """The hub's records up to this seq are folded in it."""
    code: bytes
    """The digest of the code that made it."""
    digest: bytes
    """The digest of the records it folded."""
    payload: bytes
