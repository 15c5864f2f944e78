"""What a table unit shows: one immutable snapshot for every output device.

The loop builds a :class:`TableView` after each change; the display, the LEDs
and buzzer, and the terminal printer render it with the current time
(``render(view, now)``), so outputs are views and never poked from elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tablekit.controls import JudgeMenu, TableAsk
from tablekit.core.clock import ClockState, Phase
from tablekit.core.clock_events import PauseReason
from tablekit.core.hallcheck import CheckResult, CheckStep, CheckView
from tablekit.core.roundgames import RoundGames
from tablekit.core.seats import Seat
from tablekit.core.status import TableState, clock_state, word
from tablekit.notes import NOTHING, Note
from tablekit.result_entry import EntryView, Step
from tablekit.shared.i18n import DEFAULT_LANGUAGE, words

_ENTRY_STATES = {
    Step.TILES: TableState.ENTERING_RESULT,
    Step.CONFIRM: TableState.CONFIRMING_RESULT,
    Step.READY: TableState.RESULT_CONFIRMED,
    Step.SUBMITTED: TableState.RESULT_SENT,
    Step.ACCEPTED: TableState.RESULT_IN,
    Step.REJECTED: TableState.RESULT_REFUSED,
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
    """What the unit tells the table, in English (the logs, the terminal)."""
    online: bool | None = None
    """Link to the hub: None when the unit runs without one."""
    offline_since: float | None = None
    entry: EntryView | None = None
    """The result being entered after the game (keypad), if any."""
    said: Note = NOTHING
    """The same as :attr:`message`, said on the display in :attr:`language`."""
    language: str = DEFAULT_LANGUAGE
    """The language every word is shown in (``pl`` or ``en``, :mod:`tablekit.shared.i18n`):
    the unit's (:meth:`tablekit.unit.TableUnit.set_language`)."""
    console_url: str = ""
    """Where phones open the web console (the hub's ``hub/console``): between games the
    display shows the QR code of this table's page there. "": none."""
    games: RoundGames = field(default_factory=RoundGames)
    """The round's games and which results the hub holds (its assignment)."""
    held: bool = False
    """The unit holds the table for the judge (put back from an older copy of its
    journal): shown as a pause after a restart until the judge key."""

    @property
    def table_page(self) -> str:
        """The address of this table's page on the web console ("" without one)."""
        if not self.console_url or self.table is None:
            return ""
        return f"{self.console_url}/tables/{self.table}"

    def name(self, seat: Seat | None) -> str:
        if seat is None:
            return ""
        name = self.names.get(seat)
        if name is None:  # no assignment yet: the seat stands for its player
            return words(self.language).gettext("Seat {seat}").format(seat=seat)
        return name

    def remaining(self, now: float) -> float:
        return self.clock.remaining_at(now)

    @property
    def judge_called(self) -> bool:
        return self.clock.paused is PauseReason.PLAYER_CALL

    @property
    def state(self) -> TableState:
        """The table's state (:mod:`tablekit.core.status`): the hall check while it runs,
        the result's step after a game, otherwise what the clock tells."""
        if self.check is not None:
            if self.check.step is not CheckStep.DONE:
                return TableState.HALL_CHECK
            if any(r is CheckResult.FAILED for _, r in self.check.results):
                return TableState.HALL_CHECK_FAULT
            return TableState.HALL_CHECK_READY
        c = self.clock
        if self.held:
            return TableState.PAUSED_RESTART
        if c.phase is Phase.GAME_OVER and self.entry is not None:
            return _ENTRY_STATES[self.entry.step]
        return clock_state(c.phase, c.paused, c.last_lap_left)

    @property
    def state_word(self) -> str:
        """The state in words, so that no state is told by colour alone."""
        return word(self.state)
