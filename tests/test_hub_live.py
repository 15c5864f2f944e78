"""The hub's live view: countdowns from snapshots, and units whose clocks are off."""

from __future__ import annotations

from hub.live import LiveView
from tablekit.core.clock import Phase
from tablekit.core.messages import TableSnapshot
from tablekit.core.seats import Seat


def snapshot(measured_at: float, remaining: float = 40.0) -> TableSnapshot:
    return TableSnapshot(
        v=1, table=3, unit="table-03", game=1, move=5, phase=Phase.RUNNING, active=Seat.B,
        remaining=remaining, measured_at=measured_at, paused=None, last_lap_left=None,
        timeouts=(0, 0, 0, 0), seats=4, move_seconds=40.0,
    )


def test_a_live_snapshot_corrects_a_units_wrong_clock() -> None:
    # the unit's clock is 60 s behind; a live snapshot arrives at once
    live = LiveView().with_snapshot(snapshot(measured_at=940.0), at=1000.0)
    assert live.table(3).remaining(1010.0) == 30.0


def test_an_old_retained_snapshot_is_not_taken_for_clock_error() -> None:
    # the screen starts 25 s after the unit published; the unit's clock is right
    live = LiveView().with_snapshot(snapshot(measured_at=975.0), at=1000.0, retained=True)
    assert live.table(3).remaining(1000.0) == 15.0
    # a later live snapshot still measures the clock
    live = live.with_snapshot(snapshot(measured_at=1001.0, remaining=40.0), at=1001.2)
    assert live.table(3).remaining(1011.0) == 30.0
