"""One event's store as the organizer's commands read and write it.

:class:`OrganizerBase` folds what is stored (by any process) into the event as it stands
and stores a command's records in one transaction, after checking them by applying them
to the event: a refused command leaves nothing behind. The commands themselves are
:mod:`hub.judging` (the judges') and :mod:`hub.organizer` (the organizer's).

A fresh fold starts from the snapshot of the fold kept in the store when it can be
trusted, and a process that folded many records keeps one for the next
(:mod:`hub.fold_snapshot`).
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable, Sequence
from typing import TypeVar

import msgspec

from hub import fold_snapshot
from hub.competition import (
    Competition,
    EventCreated,
    FormatFixed,
    JudgeCallResolved,
    LanguageChosen,
    MinorAdmitted,
    MinorRecorded,
    OrganizerFact,
    PersonalDataErased,
    PrivacyChosen,
    Record,
    ResultRecorded,
    ResultRejected,
    RoundStarted,
    RoundTimeOver,
    StarterChosen,
    decode_record,
    record_kind,
)
from hub.store import HUB_SOURCE, EventStore, HubFact
from hub.store_rows import FoldSnapshot
from hub.tournament import Fact, RoundSeated

log = logging.getLogger("hub.organizer")

R = TypeVar("R", bound=Record)
"""A record a command makes."""


def record_kind_of(kind: type[Record]) -> str:
    return str(kind.__struct_config__.tag)


RECORD_KINDS = frozenset(
    str(t.__struct_config__.tag)
    for t in (
        EventCreated,
        FormatFixed,
        OrganizerFact,
        RoundStarted,
        RoundTimeOver,
        ResultRecorded,
        ResultRejected,
        StarterChosen,
        LanguageChosen,
        PrivacyChosen,
        MinorRecorded,
        MinorAdmitted,
        PersonalDataErased,
        JudgeCallResolved,
    )
)


SNAPSHOT_AFTER = 200
"""Records a fresh fold reads beyond the store's snapshot (or without one) before it keeps
a snapshot of the fold for the next process."""


class OrganizerBase:
    """Reads and writes one event's store: the event as stored now, and a command's
    records stored in one transaction once they apply."""

    def __init__(
        self,
        store: EventStore,
        *,
        by: str = "",
        clock: Callable[[], float] = time.time,
        snapshots: bool = True,
    ) -> None:
        """``snapshots``: start from the snapshot of the fold kept in the store and keep
        one (:mod:`hub.fold_snapshot`); False: fold every record."""
        self.store = store
        self.by = by
        self.clock = clock
        self.snapshots = snapshots
        self._competition = Competition()
        self._seen = 0
        """Highest hub seq folded into ``_competition``."""
        self._digest = hashlib.sha256()
        """The digest of the hub's records folded (:func:`hub.fold_snapshot.add_records`)."""
        self.unreadable: list[tuple[int, str]] = []
        """Stored records that could not be decoded: (seq, reason)."""

    @property
    def competition(self) -> Competition:
        """The event as stored now (folds in what other processes recorded)."""
        mark = self.store.mark(HUB_SOURCE)
        if mark is not None and mark.max_seq > self._seen:
            fresh = self.snapshots and self._seen == 0
            if fresh:
                self._resume()
            stored = self.store.events(source=HUB_SOURCE, after_seq=self._seen)
            fold_snapshot.add_records(self._digest, ((e.seq, e.kind, e.payload) for e in stored))
            records = []
            for event in stored:
                if event.kind not in RECORD_KINDS:
                    continue
                try:
                    records.append(decode_record(event.payload))
                except (msgspec.DecodeError, ValueError) as err:
                    # Written by another version of the hub, say: set aside, never a stop.
                    log.error("stored record %d cannot be read: %s", event.seq, err)
                    self.unreadable.append((event.seq, str(err)))
            self._competition = self._competition.apply_all(records, stored=True)
            self._seen = max((e.seq for e in stored), default=self._seen)
            if fresh and len(stored) >= SNAPSHOT_AFTER:
                self._keep_snapshot()
        return self._competition

    def drawn_event(self, stage: str) -> int:
        """The store's row id of the latest draw of ``stage`` (0: not drawn): the units'
        events after it belong to that draw."""
        drawn = 0
        for event in self.store.events(source=HUB_SOURCE, kind=record_kind_of(OrganizerFact)):
            record = decode_record(event.payload)
            if (
                isinstance(record, OrganizerFact)
                and isinstance(record.fact, RoundSeated)
                and record.fact.stage == stage
            ):
                drawn = event.id
        return drawn

    def forget(self) -> None:
        """Fold the whole store again on the next read (after a rolled-back write)."""
        self._competition = Competition()
        self._seen = 0
        self._digest = hashlib.sha256()
        self.unreadable = []

    def _resume(self) -> None:
        """Start from the store's snapshot of the fold if it can be trusted (see
        :mod:`hub.fold_snapshot`)."""
        snapshot = self.store.fold()
        code = fold_snapshot.code_digest()
        if snapshot is None or code is None or snapshot.code != code:
            return
        rows = self.store.hub_records(snapshot.seq)
        digest = hashlib.sha256()
        fold_snapshot.add_records(digest, rows)
        if not rows or rows[-1][0] != snapshot.seq or digest.digest() != snapshot.digest:
            log.info("the snapshot of the fold is not of this store's records: folding them")
            return
        decoded = fold_snapshot.decode(snapshot.payload)
        if decoded is None:
            log.info("the snapshot of the fold does not decode: folding every record")
            return
        self._competition, self.unreadable = decoded
        self._seen = snapshot.seq
        self._digest = digest

    def _keep_snapshot(self) -> None:
        code = fold_snapshot.code_digest()
        payload = fold_snapshot.encode(self._competition, self.unreadable)
        if code is not None and payload is not None:
            self.store.keep_fold(FoldSnapshot(self._seen, code, self._digest.digest(), payload))

    def record_facts(self, facts: Sequence[Fact], *, why: str = "") -> Competition:
        now = self.clock()
        return self.record(
            *(OrganizerFact(at=now, by=self.by, fact=fact, why=why) for fact in facts)
        )

    def record(
        self,
        *records: Record | Callable[[int], Record],
        check: Callable[[Competition], None] | None = None,
    ) -> Competition:
        """Check ``records`` against the event and store them, in one transaction (see
        :meth:`command`); ``check`` is asked too, with the event as stored. A record may
        be a function of its own seq in the store (a broadcast id, say)."""

        def made(competition: Competition) -> Sequence[Record | Callable[[int], Record]]:
            if check is not None:
                check(competition)
            return records

        return self.command(made)[0]

    def command(
        self, make: Callable[[Competition], Sequence[R | Callable[[int], R]]]
    ) -> tuple[Competition, list[R]]:
        """Make a command's records from the event as stored and store them, in one
        transaction: the event folded anew, ``make(event)`` (which raises to refuse),
        then its records applied to it (they must fit), then stored.

        All of it runs inside the store's write transaction, on everything stored until
        then by any process: every check that decides whether a record may be stored is
        in ``make`` or in applying the records, so two terminals (or a terminal and the
        web console) can never both pass it with conflicting commands. The event as
        stored afterwards, and the records stored (a record made from its seq as it was
        checked)."""
        drafts: list[R] = []

        def facts() -> list[HubFact]:
            competition = self.competition
            records = list(make(competition))
            drafts[:] = [r(0) if callable(r) else r for r in records]
            competition.apply_all(drafts)
            return [(record_kind(d), r) for d, r in zip(drafts, records, strict=True)]

        self.store.append_facts(facts)
        return self.competition, drafts  # folds what was stored, with anything meanwhile
