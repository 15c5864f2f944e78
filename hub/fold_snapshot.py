"""A snapshot of the folded event, kept in its store: a fresh process starts from it.

Folding every record of a long event (scoring each result, applying each fact) costs a
command several times what reading the records does. So a process that folded many
records from scratch keeps what it folded in the store (:meth:`hub.store.EventStore.keep_fold`),
and the next one starts from it and folds only the records stored since.

The replay stays the truth; a snapshot is trusted only when all of these hold:

* it was made by this very code: its ``code`` is the digest of the source of every
  module that decodes and folds records (:func:`code_digest`), so another release, or
  a changed fold, never reads a snapshot it did not make;
* the records it folded are the store's: its ``digest`` is the SHA-256 of the hub's
  records up to its ``seq`` (each record's seq, kind and payload, in seq order), read
  again from the store; a snapshot of another store, or of records rewritten since
  (the erasure of personal data), does not match;
* it decodes as a snapshot of this code's types.

Otherwise the whole event is folded from its records, as without a snapshot. An event
whose players' personal data was erased keeps none (the erasure deletes the snapshot in
its transaction, and none is made after it), so no name survives in one.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.resources
import zlib
from collections.abc import Iterable
from functools import cache

import msgspec

from hub.competition import Competition
from hub.tournament import EventState, TournamentFormat

FOLDED_PACKAGES = ("hub.tournament", "tablekit.core")
"""Packages whose every module takes part in decoding and folding the records."""
FOLDED_MODULES = ("hub.competition", "hub.organizer_base", "hub.fold_snapshot")
"""Modules outside those packages that do."""


class _Snapshot(msgspec.Struct, frozen=True):
    competition: Competition
    """The fold, without its :class:`EventState` (made again from its facts)."""
    format: TournamentFormat | None
    """The format the event state folds with (provisional until the league's is fixed)."""
    unreadable: list[tuple[int, str]]
    """Stored records that could not be decoded: (seq, reason)."""


_decoder = msgspec.msgpack.Decoder(_Snapshot)


@cache
def code_digest() -> bytes | None:
    """The SHA-256 of the source of every module that decodes and folds records (and of
    msgspec's version, which encodes the snapshot); None when a source cannot be read (an
    installation without it): then no snapshot is trusted or kept."""
    digest = hashlib.sha256(msgspec.__version__.encode())
    try:
        sources = [
            file
            for package in FOLDED_PACKAGES
            for file in importlib.resources.files(package).iterdir()
            if file.name.endswith(".py")
        ]
        for module in FOLDED_MODULES:
            package, _, name = module.rpartition(".")
            sources.append(importlib.resources.files(package) / f"{name}.py")
        for source in sorted(sources, key=str):
            digest.update(source.name.encode())
            digest.update(source.read_bytes())
    except OSError:
        return None
    return digest.digest()


def add_records(digest: hashlib._Hash, rows: Iterable[tuple[int, str, bytes]]) -> None:
    """Add the hub's records ``rows`` ((seq, kind, payload), in seq order) to ``digest``."""
    for seq, kind, payload in rows:
        digest.update(b"%d %d %s %d " % (seq, len(kind), kind.encode(), len(payload)))
        digest.update(payload)


def encode(competition: Competition, unreadable: list[tuple[int, str]]) -> bytes | None:
    """The snapshot of ``competition``; None for an event whose personal data was erased
    (it keeps none)."""
    if competition.erased is not None:
        return None
    state = competition.state
    snapshot = _Snapshot(
        dataclasses.replace(competition, state=None),
        None if state is None else state.format,
        list(unreadable),
    )
    return zlib.compress(msgspec.msgpack.encode(snapshot), 1)


def decode(payload: bytes) -> tuple[Competition, list[tuple[int, str]]] | None:
    """The fold a snapshot holds and its unreadable records; None when it does not
    decode as one of this code's."""
    try:
        snapshot = _decoder.decode(zlib.decompress(payload))
    except (zlib.error, msgspec.DecodeError):
        return None
    competition = snapshot.competition
    if snapshot.format is not None:
        # the facts fold again without a copy per fact and with the points already scored
        state = EventState.replay(snapshot.format, competition.facts)
        competition = dataclasses.replace(competition, state=state)
    return competition, snapshot.unreadable
