"""The hub's live view of every table (pure): what a hub screen renders.

Built from the tables' retained snapshots and online/offline status plus the
arrival of their events; nothing here reads a clock or a socket: every update
takes the hub's wall time ``at`` and every countdown is extrapolated to the
``now`` the renderer passes in (tables do not stream ticks).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from tablekit.core.clock_events import PauseReason
from tablekit.core.messages import StatusReason, TableSnapshot, UnitStatus
from tablekit.core.status import TableState, clock_state, word


@dataclass(frozen=True)
class TableLive:
    table: int
    unit: str | None = None
    snapshot: TableSnapshot | None = None
    online: bool | None = None
    """None until a status arrives."""
    status_at: float | None = None
    """Hub wall time of the last online/offline change."""
    last_heard: float | None = None
    """Hub wall time of the last message of any kind from this table."""
    skew: float = 0.0
    """Hub wall time minus the unit's, estimated when the snapshot arrived."""
    status: UnitStatus | None = None
    """The last online/offline status message (its ``ts`` is on the unit's clock)."""

    @property
    def judge_called(self) -> bool:
        return self.snapshot is not None and self.snapshot.paused is PauseReason.PLAYER_CALL

    def remaining(self, now: float) -> float | None:
        """Seconds left for the active seat at hub time ``now`` (None without a snapshot)."""
        if self.snapshot is None:
            return None
        return self.snapshot.remaining_at(now - self.skew)

    @property
    def went_offline_at(self) -> float | None:
        """Hub wall time at which the unit went offline, when its status tells: only a
        clean shutdown notice carries it. A Last Will (``lost``) was composed when the
        unit connected, so it does not say when the connection was lost: None then."""
        status = self.status
        if status is None or status.online or status.reason is not StatusReason.SHUTDOWN:
            return None
        return status.ts + self.skew

    @property
    def last_alive_at(self) -> float | None:
        """The latest hub wall time at which the unit's own messages show it running
        (its last snapshot or status), None without either; for a table whose
        connection was lost, it has been offline for at most ``now - last_alive_at``."""
        times = [m.ts for m in (self.status,) if m is not None]
        if self.snapshot is not None:
            times.append(self.snapshot.measured_at)
        return max(times) + self.skew if times else None

    def state(self) -> TableState:
        """What the table's status and clock tell of its state."""
        s = self.snapshot
        if self.online is False:
            return TableState.OFFLINE
        if s is None:
            return TableState.NO_DATA
        return clock_state(s.phase, s.paused, s.last_lap_left)

    def state_word(self) -> str:
        return word(self.state())


@dataclass(frozen=True)
class LiveView:
    tables: Mapping[int, TableLive] = field(default_factory=lambda: MappingProxyType({}))

    def table(self, table: int) -> TableLive:
        return self.tables.get(table, TableLive(table))

    def with_snapshot(
        self, snap: TableSnapshot, at: float, max_skew: float = 5.0, *, retained: bool = False
    ) -> LiveView:
        """A new snapshot arrived at hub time ``at``.

        A unit's wall clock may be off (a Pi without RTC before NTP); the skew is
        taken into account only when it is larger than ``max_skew``, where it
        cannot be network delay. A ``retained`` snapshot (delivered because we just
        subscribed) may be minutes old, so its age says nothing about the unit's
        clock: the table keeps the skew it had (none, for a table not yet heard live).
        """
        old = self.table(snap.table)
        skew = old.skew if retained else at - snap.measured_at
        return self._put(
            replace(
                old,
                unit=snap.unit,
                snapshot=snap,
                last_heard=at,
                skew=skew if abs(skew) > max_skew else 0.0,
            )
        )

    def with_status(self, status: UnitStatus, at: float) -> LiveView:
        old = self.table(status.table)
        changed = old.online != status.online
        return self._put(
            replace(
                old,
                unit=status.unit,
                online=status.online,
                status=status,
                status_at=at if changed or old.status_at is None else old.status_at,
                last_heard=at if status.online else old.last_heard,
            )
        )

    def heard(self, table: int, at: float) -> LiveView:
        """Any message (e.g. an event) from ``table`` arrived at ``at``."""
        return self._put(replace(self.table(table), last_heard=at))

    @property
    def offline(self) -> list[int]:
        return sorted(t for t, live in self.tables.items() if live.online is False)

    def rows(self, now: float) -> list[tuple[str, ...]]:
        """One row of text per table, for a terminal or a simple screen."""
        out: list[tuple[str, ...]] = []
        for number in sorted(self.tables):
            live = self.tables[number]
            s = live.snapshot
            remaining = live.remaining(now)
            heard = "-" if live.last_heard is None else f"{max(0.0, now - live.last_heard):.0f}s"
            out.append(
                (
                    str(number),
                    live.unit or "-",
                    live.state_word(),
                    "-" if s is None else str(s.game),
                    "-" if s is None else str(s.move),
                    "-" if s is None or s.active is None else str(s.active),
                    "-" if remaining is None else f"{remaining:.0f}",
                    heard,
                )
            )
        return out

    def render_text(self, now: float) -> str:
        header = ("table", "unit", "state", "game", "move", "seat", "left", "heard")
        rows = [header, *self.rows(now)]
        widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
        return "\n".join(
            "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in rows
        )

    def _put(self, live: TableLive) -> LiveView:
        tables = dict(self.tables)
        tables[live.table] = live
        return LiveView(MappingProxyType(tables))
