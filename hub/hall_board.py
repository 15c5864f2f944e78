"""The hall check board: which tables are online, checked and ready before the first round.

Each unit's hall check (``tablekit.core.hallcheck``) reaches the hub as a ``hall_checked``
event in its store; whether a unit is online comes from the broker's retained status
messages (a :class:`hub.live.LiveView`), when the organizer asks the broker. Pure
functions over those: the organizer sees the board and decides; the kit only informs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from hub.competition import Competition
from hub.live import LiveView
from hub.store import EventStore
from hub.tournament.seating import table_sizes
from tablekit.core.hallcheck import STEP_WORDS, CheckResult, HallChecked
from tablekit.core.seats import MIN_SEATS
from tablekit.core.status import TableState, word


@dataclass(frozen=True)
class HallRow:
    table: int
    online: bool | None
    """None: not known (the broker was not asked, or the unit never published)."""
    check: HallChecked | None
    """The table's latest hall check, if any."""
    checked_at: float | None = None
    """Unit's wall time of that check."""

    @property
    def faults(self) -> list[str]:
        return [STEP_WORDS[s] for s in self.check.faults] if self.check is not None else []

    @property
    def ready(self) -> bool:
        """Checked without a fault, and not known to be offline."""
        return self.check is not None and not self.faults and self.online is not False

    @property
    def status(self) -> str:
        if self.online is False:
            return word(TableState.OFFLINE)
        if self.check is None:
            return "not checked"
        if self.faults:
            return "FAULT: " + ", ".join(self.faults)
        skipped = [
            STEP_WORDS[s] for s, r in self.check.results.items() if r is CheckResult.SKIPPED
        ]
        return "ready" + (f" (no {', '.join(skipped)})" if skipped else "")


def latest_checks(store: EventStore) -> dict[int, tuple[float, HallChecked]]:
    """Every table's latest hall check: (unit's wall time, outcome)."""
    latest: dict[int, tuple[float, HallChecked]] = {}
    for stored in store.events(kind="hall_checked"):
        event = stored.event()
        if stored.table is not None and isinstance(event, HallChecked):
            latest[stored.table] = (stored.ts, event)
    return latest


def expected_tables(comp: Competition) -> list[int]:
    """The tables the event needs: those of the latest draw, or before the first draw as
    many as the players present fill (tables of 4, some of 3)."""
    state = comp.event
    if state.stages_played:
        return [t.number for t in state.seating(state.stages_played[-1])]
    present = len(state.present)
    if present < MIN_SEATS:
        return []
    try:
        return list(range(1, len(table_sizes(present)) + 1))
    except ValueError:
        return []


def hall_board(
    tables: Iterable[int],
    checks: Mapping[int, tuple[float, HallChecked]],
    live: LiveView | None = None,
) -> list[HallRow]:
    """One row per table: the ones expected and any other that checked or published."""
    numbers = set(tables) | set(checks)
    if live is not None:
        numbers |= set(live.tables)
    rows = []
    for number in sorted(numbers):
        online = live.tables[number].online if live is not None and number in live.tables else None
        at, check = checks.get(number, (None, None))
        rows.append(HallRow(number, online, check, at))
    return rows


def unchecked_warning(rows: Iterable[HallRow]) -> str | None:
    """One line naming the tables not checked or with a fault, or None when all are."""
    unchecked = [r.table for r in rows if r.check is None]
    faulty = [f"{r.table} ({', '.join(r.faults)})" for r in rows if r.faults]
    parts = []
    if unchecked:
        parts.append(f"not checked: table{'s' if len(unchecked) > 1 else ''} "
                     + ", ".join(map(str, unchecked)))
    if faulty:
        parts.append(f"fault at table{'s' if len(faulty) > 1 else ''} " + ", ".join(faulty))
    if not parts:
        return None
    return "Hall check: " + "; ".join(parts) + " (rummikub event hall)"
