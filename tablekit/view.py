"""What a table unit shows: one immutable snapshot for every output device.

The loop builds a :class:`TableView` after each change; the display, the LEDs
and buzzer, and the terminal printer render it with the current time
(``render(view, now)``), so outputs are views and never poked from elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tablekit.controls import JudgeMenu, TableAsk
from tablekit.core.clock import ClockState, PauseReason, Phase
from tablekit.core.hallcheck import CheckView
from tablekit.core.seats import Seat
from tablekit.result_entry import EntryView, Step

_ENTRY_WORDS = {
    Step.TILES: "ENTER RESULT",
    Step.CONFIRM: "CONFIRM RESULT",
    Step.READY: "RESULT CONFIRMED",
    Step.SUBMITTED: "RESULT SENT",
    Step.ACCEPTED: "RESULT IN",
    Step.REJECTED: "RESULT REJECTED",
}


@dataclass(frozen=True)
class TableView:
    clock: ClockState
    table: int | None = None
    names: dict[Seat, str] = field(default_factory=dict)
    """Player names by seat, from the hub's assignment; empty before one arrives."""
    menu: JudgeMenu | None = None
    ask: TableAsk | None = None
    """A table action (empty rack, bank empty) waiting for the players' ENTER."""
    check: CheckView | None = None
    """The hall check, while it runs (and its results until a press)."""
    message: str = ""
    online: bool | None = None
    """Link to the hub: None when the unit runs without one."""
    offline_since: float | None = None
    entry: EntryView | None = None
    """The result being entered after the game (keypad), if any."""

    def name(self, seat: Seat | None) -> str:
        if seat is None:
            return ""
        return self.names.get(seat, f"Seat {seat}")

    def remaining(self, now: float) -> float:
        return self.clock.remaining_at(now)

    @property
    def judge_called(self) -> bool:
        return self.clock.paused is PauseReason.PLAYER_CALL

    @property
    def state_word(self) -> str:
        """The state in words, so that no state is told by colour alone."""
        c = self.clock
        if c.phase is Phase.GAME_OVER and self.entry is not None:
            return _ENTRY_WORDS[self.entry.step]
        return clock_word(c.phase, c.paused, c.last_lap_left)


def clock_word(phase: Phase, paused: PauseReason | None, last_lap_left: int | None) -> str:
    """A table's clock state in words (the unit's display and the hub's views)."""
    if paused is PauseReason.JUDGE:
        return "PAUSED — JUDGE"
    if paused is PauseReason.PLAYER_CALL:
        return "JUDGE CALLED"
    if paused is PauseReason.RECOVERED:
        return "PAUSED — RESTARTED"
    if phase is Phase.TIME_UP:
        return "TIME"
    if phase is Phase.GAME_OVER:
        return "GAME OVER"
    if phase is Phase.READY:
        return "READY"
    if last_lap_left is not None:
        return "LAST LAP"
    return "PLAYING"
