"""A copy of the event store off the hub's card, kept current while the hub runs.

The hub's SQLite store is the only copy of the organizer's records (players, draws,
results, judges' decisions). :class:`StoreBackup` copies it, with SQLite's online
backup API, to a second path — a USB stick, a second disk, a mounted share — every
time it changed, at most every ``interval`` seconds, and once more when the hub stops.
Each copy is atomic: written to a temporary file beside the target, checked
(``PRAGMA quick_check``), flushed to disk (fsync), renamed over the previous copy and the
directory flushed, so the target is always a whole, consistent store: a spare hub
starts from it as it is (docs/deployment.md, "The hub Pi died").

A failing copy (the stick pulled out, a full disk) is logged and shown — in the status
file beside the store (:func:`status_path`, read by ``rummikub event backup`` and
``rummikub round status``) — and retried; it never stops the hub. The target's
directory is never created: a missing directory is an unmounted stick, and a copy made
on the hub's own card would only pretend to be a backup.

Changes are noticed by SQLite's ``data_version`` on the copier's own connection, so
commits of every process count: the hub's ingest and the organizer's ``rummikub``
commands alike.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from contextlib import closing, suppress
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, Final

import msgspec

from tablekit.core.errors import KitError, Phrase
from tablekit.core.messages import Wording
from tablekit.core.words import N_
from tablekit.shared.commandline import OS_REASONS
from tablekit.shared.i18n import Words

UNEXPECTED: Final = N_("unexpected error: {error}")

log = logging.getLogger("hub.backup")

DEFAULT_INTERVAL = 3.0
"""Seconds between two copies at most (a copy is made only when the store changed)."""
POLL = 0.5
"""Seconds between two looks at the store's ``data_version``."""
STATUS_SUFFIX = ".backup.json"
REPEAT_LOG = 60.0
"""Seconds before the same failure is logged again (it is counted every time)."""


class BackupError(KitError, RuntimeError):
    """A copy could not be made; the message says why."""


@dataclass(frozen=True)
class BackupStatus:
    """What the organizer sees of the copies (written as JSON beside the store)."""

    target: str
    interval: float
    copied_at: float | None = None
    """Wall time of the last good copy (None: none yet)."""
    copies: int = 0
    size: int = 0
    """Bytes of the last good copy."""
    seconds: float = 0.0
    """How long the last good copy took."""
    failures: int = 0
    error: str = ""
    """Why the last attempt failed, in English (the log's words); empty when it succeeded."""
    error_words: dict[str, Any] | None = None
    """The same as words to show in the reader's language
    (:class:`tablekit.core.messages.Wording` as JSON); None in a status of an earlier
    release, which shows ``error`` as written."""
    failed_at: float | None = None
    stopped: bool = False
    """The hub stopped (its final copy is the one above)."""
    same_disk: bool = False
    """The copy is on the store's own filesystem (the stick is not mounted?): it would
    die with the card."""


def status_path(store: Path) -> Path:
    """Where the hub writes the backup status of ``store``."""
    return store.with_name(store.name + STATUS_SUFFIX)


def read_status(store: Path) -> BackupStatus | None:
    """The backup status beside ``store``; None when the hub makes no copies."""
    path = status_path(store)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return BackupStatus(**data)
    except FileNotFoundError:
        return None
    except (OSError, ValueError, TypeError) as err:
        unreadable = Phrase(N_("status file {path}: {error}"), path=path, error=str(err))
        return BackupStatus(
            target="?", interval=0.0, error=str(unreadable), error_words=_json(unreadable)
        )


def status_lines(status: BackupStatus | None, now: float, words: Words) -> list[str]:
    """The organizer's view of the copies (one line, two when the last one failed), in
    ``words``' language."""
    _ = words.gettext
    if status is None:
        return [_("Backup copy: none (the hub runs without --backup)")]
    if status.copied_at is None:
        last = _("no copy made yet")
    else:
        age = max(0.0, now - status.copied_at)
        last = _("last copy {time} ({age} s ago, {size} KiB, {copies} copies)").format(
            time=time.strftime("%H:%M:%S", time.localtime(status.copied_at)),
            age=f"{age:.0f}",
            size=f"{status.size / 1024:.0f}",
            copies=status.copies,
        )
        if status.same_disk:
            last += _("; WARNING: on the hub's own disk, not off it (is the stick mounted?)")
    if status.stopped:
        last += _(", hub stopped")
    lines = [_("Backup copy: {target}: {last}").format(target=status.target, last=last)]
    if status.error:
        at = (
            "" if status.failed_at is None
            else _(" at {time}").format(time=time.strftime("%H:%M:%S",
                                                           time.localtime(status.failed_at)))
        )
        lines.append(
            _("BACKUP FAILING{at} ({failures} failures): {error}; the hub keeps running, the "
              "copy above is what a spare hub would get").format(
                at=at, failures=status.failures, error=error_text(status, words)
            )
        )
    return lines


def error_text(status: BackupStatus, words: Words) -> str:
    """Why the last copy failed, in ``words``' language (as written, from a status of an
    earlier release)."""
    if status.error_words is not None:
        try:
            return msgspec.convert(status.error_words, Wording).phrase().message(words.gettext)
        except (msgspec.ValidationError, KeyError, ValueError, IndexError):
            pass  # not words of this release: the English below
    return status.error


def _json(said: KitError | Phrase) -> dict[str, Any]:
    """What ``said`` says, as JSON for the status file."""
    words: dict[str, Any] = msgspec.to_builtins(Wording.of(said))
    return words


def copy_store(source: sqlite3.Connection, target: Path) -> int:
    """Copy the open store ``source`` to ``target`` atomically; the copy's size in bytes.

    BackupError (with the reason) when the target's directory is missing or the copy
    cannot be written or fails its check; the previous copy is then left as it was.
    """
    directory = target.parent
    if not directory.is_dir():
        raise BackupError(
            N_("the directory {directory} does not exist (is the stick mounted?)"),
            directory=directory,
        )
    tmp = directory / f".{target.name}.tmp"
    try:
        tmp.unlink(missing_ok=True)
        with closing(sqlite3.connect(tmp, isolation_level=None)) as dst:
            source.backup(dst)
            dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
            check = str(dst.execute("PRAGMA quick_check").fetchone()[0])
            if check != "ok":
                raise BackupError(N_("the copy failed its check: {check}"), check=check)
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, target)
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        return target.stat().st_size
    except (OSError, sqlite3.Error) as err:
        with suppress(OSError):
            tmp.unlink(missing_ok=True)
        reason = OS_REASONS.get(err.errno or 0) if isinstance(err, OSError) else None
        raise BackupError(
            N_("cannot write {target}: {error}"),
            target=target, error=str(err) if reason is None else Phrase(reason),
        ) from err


class StoreBackup:
    """Copies ``store`` to ``target`` on its own thread while the hub runs."""

    def __init__(
        self,
        store: Path,
        target: Path,
        *,
        interval: float = DEFAULT_INTERVAL,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.target = target
        self.interval = interval
        self.clock = clock
        self._status = BackupStatus(target=str(target), interval=interval)
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._copied_version: int | None = None
        self._last_attempt = float("-inf")
        self._logged: tuple[str, float] = ("", float("-inf"))
        self._db = sqlite3.connect(store, check_same_thread=False, isolation_level=None)
        self._thread = threading.Thread(target=self._run, name="hub-backup", daemon=True)

    def start(self) -> None:
        self._write_status()
        self._thread.start()

    def stop(self, timeout: float = 30.0) -> None:
        """Make the final copy (if the store changed since the last) and stop."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout)
        with self._lock:
            self._status = replace(self._status, stopped=True)
        self._write_status()
        self._db.close()

    def status(self) -> BackupStatus:
        with self._lock:
            return self._status

    def copy_if_changed(self) -> bool:
        """One copy now when the store changed since the last good one; whether it made one."""
        version = int(self._db.execute("PRAGMA data_version").fetchone()[0])
        if version == self._copied_version:
            return False
        started = time.monotonic()
        self._last_attempt = started
        try:
            size = copy_store(self._db, self.target)
        except BackupError as err:
            self._failed(err)
            return False
        self._copied_version = version
        try:
            same_disk = os.stat(self.target).st_dev == os.stat(self.store).st_dev
        except OSError:
            same_disk = False
        with self._lock:
            self._status = replace(
                self._status,
                copied_at=self.clock(),
                copies=self._status.copies + 1,
                size=size,
                seconds=round(time.monotonic() - started, 3),
                error="",
                error_words=None,
                same_disk=same_disk,
            )
        if self._logged[0]:
            log.info("backup: copying to %s works again", self.target)
            self._logged = ("", float("-inf"))
        self._write_status()
        return True

    # -- internals ------------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.wait(POLL):
            if time.monotonic() - self._last_attempt < self.interval:
                continue
            try:
                self.copy_if_changed()
            except Exception as err:  # never let the copier die: the hub must not notice
                self._failed(Phrase(UNEXPECTED, error=str(err)))
        try:
            self.copy_if_changed()
        except Exception as err:
            self._failed(Phrase(UNEXPECTED, error=str(err)))

    def _failed(self, why: KitError | Phrase) -> None:
        now = self.clock()
        reason = str(why)  # the log's words: English
        with self._lock:
            self._status = replace(
                self._status, failures=self._status.failures + 1, error=reason,
                error_words=_json(why), failed_at=now,
            )
        last_reason, last_at = self._logged
        if reason != last_reason or time.monotonic() - last_at >= REPEAT_LOG:
            log.error("backup: %s (the hub keeps running; retrying)", reason)
            self._logged = (reason, time.monotonic())
        self._write_status()

    def _write_status(self) -> None:
        path = status_path(self.store)
        tmp = path.with_name(f".{path.name}.tmp")
        try:
            tmp.write_text(json.dumps(asdict(self.status())), encoding="utf-8")
            os.replace(tmp, path)
        except OSError as err:
            log.warning("backup: cannot write the status file %s: %s", path, err)

