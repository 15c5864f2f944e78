"""A table unit's journals, one per event: the unit belongs to its venue and follows the
event the venue's hub announces (docs/protocol.md, "The venue's current event").

The journal of the event the unit follows is always the configured file (``[unit]
journal``; on a Pi ``/var/lib/tablekit/tablekit-journal.sqlite3``), so a unit restarted out
of the hub's reach resumes the event it was playing. When the hub announces another event,
that journal is closed and kept beside it under its event's name
(``tablekit-journal.cup2026.sqlite3``), and the new event's journal takes its place: the
one kept when the unit last followed that event, else a new one (with a new epoch). So no
journal ever holds two events' entries, and none is deleted unless nothing was ever
journalled in it. A journal of a release before units followed the hub has no event: it
is the journal of the config's ``[link] event``, the one that release published under.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from tablekit.journal import Journal

log = logging.getLogger(__name__)

_SQLITE_FILES = ("", "-wal", "-shm")
"""A database file and the write-ahead log and index SQLite keeps beside it."""


class EventJournals:
    """The journals of one unit: the current one at ``path``, the others kept beside it."""

    def __init__(self, path: Path, unit_id: str) -> None:
        self.path = path
        self.unit_id = unit_id

    def kept(self, event: str) -> Path:
        """Where the journal of ``event`` is kept while the unit follows another."""
        return self.path.with_name(f"{self.path.stem}.{event}{self.path.suffix}")

    def open(self, event: str = "") -> Journal:
        """The current journal. One without an event (a journal of an earlier release, or a
        new one) becomes ``event``'s when ``event`` is given: the config's ``[link] event``.
        When a switch was cut short between keeping one journal and restoring the other,
        ``event``'s kept journal is restored."""
        if event and not self.path.exists() and self.kept(event).exists():
            _move(self.kept(event), self.path)
        journal = Journal(self.path, self.unit_id, event)
        if event and not journal.event:
            journal.belong_to(event)
        return journal

    def switch(self, current: Journal, event: str) -> Journal:
        """``event``'s journal in the place of ``current``, which is closed and kept (or,
        when nothing was journalled in it, deleted); a journal of no event with nothing in
        it simply becomes ``event``'s."""
        if current.event == event:
            return current
        kept = self.kept(event)
        if not current.event and current.empty and not kept.exists():
            current.belong_to(event)
            return current
        self._put_aside(current)
        if kept.exists():
            _move(kept, self.path)
            log.info("journal: %s is %s's again (kept since the unit left it)", self.path, event)
        journal = Journal(self.path, self.unit_id, event)
        journal.belong_to(event)
        return journal

    def renew(self, current: Journal) -> Journal:
        """A new journal (a new epoch, its seqs from 1) for ``current``'s event in its
        place: ``current`` was put back from an older copy and the hub holds more of its
        epoch than it does, so its seqs must not be numbered again. It is closed and kept
        beside it under its event's name and epoch (``….older-copy.EPOCH…``), never used
        again."""
        event, epoch = current.event, current.epoch
        current.close()
        target = self.kept(f"{event or 'no-event'}.older-copy.{epoch or 'none'}")
        _move(self.path, target)
        log.warning("journal: %s was an older copy; kept in %s, a new epoch begins", self.path,
                    target)
        journal = Journal(self.path, self.unit_id, event)
        if event and not journal.event:
            journal.belong_to(event)
        return journal

    def _put_aside(self, journal: Journal) -> None:
        empty = journal.empty
        name = journal.event or f"no-event.{journal.epoch}"
        pending = journal.pending_count()
        journal.close()
        if empty:
            for suffix in _SQLITE_FILES:
                Path(f"{self.path}{suffix}").unlink(missing_ok=True)
            _sync_directory(self.path.parent)
            return
        target = self.kept(name)
        if target.exists():  # a journal kept under this name before (a switch cut short)
            target = self.kept(f"{name}.{journal.epoch}")
        _move(self.path, target)
        if pending:
            log.warning(
                "journal: %d events of %s never reached its hub; kept in %s",
                pending, name, target,
            )
        else:
            log.info("journal: %s kept in %s", name, target)


def _move(source: Path, target: Path) -> None:
    """Rename a closed SQLite file (with its write-ahead log, if any) and make it last."""
    for suffix in _SQLITE_FILES:
        if Path(f"{source}{suffix}").exists():
            os.replace(f"{source}{suffix}", f"{target}{suffix}")
    _sync_directory(target.parent)


def _sync_directory(folder: Path) -> None:
    """A rename survives a power cut only once its directory is on the card."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
