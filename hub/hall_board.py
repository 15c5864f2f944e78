"""The hall check board: which tables are online, checked and ready before the first round.

Each unit's hall check (``tablekit.core.hallcheck``) reaches the hub as a ``hall_checked``
event in its store; whether a unit is online comes from the broker's retained status
messages (a :class:`hub.live.LiveView`), when the organizer asks the broker. Pure
functions over those: the organizer sees the board and decides; the kit only informs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from hub.competition import Competition
from hub.exports.grid import Grid
from hub.live import LiveView
from hub.store import EventStore
from hub.tournament.seating import table_sizes
from tablekit.core.hallcheck import STEP_WORDS, CheckResult, HallChecked
from tablekit.core.seats import MIN_SEATS
from tablekit.core.status import TableState, word
from tablekit.shared.i18n import Words


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
        """The steps that failed, in English (:meth:`faults_in` for the reader's words)."""
        return [STEP_WORDS[s] for s in self.check.faults] if self.check is not None else []

    def faults_in(self, words: Words) -> list[str]:
        """The steps that failed, in ``words``' language."""
        return [words.gettext(f) for f in self.faults]

    @property
    def ready(self) -> bool:
        """Checked without a fault, and not known to be offline."""
        return self.check is not None and not self.faults and self.online is not False

    def status(self, words: Words) -> str:
        """The table's line on the board, in ``words``' language."""
        _ = words.gettext
        if self.online is False:
            return _(word(TableState.OFFLINE))
        if self.check is None:
            return _("not checked")
        if self.faults:
            return _("FAULT: {steps}").format(steps=", ".join(self.faults_in(words)))
        skipped = [
            _(STEP_WORDS[s]) for s, r in self.check.results.items() if r is CheckResult.SKIPPED
        ]
        if skipped:
            return _("ready (no {steps})").format(steps=", ".join(skipped))
        return _("ready")


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


def hall_grid(rows: Iterable[HallRow], words: Words, at_text: Callable[[float], str]) -> Grid:
    """The board as a grid: each table, whether it is online, its check and when
    (``at_text``: a moment as the front end writes it)."""
    _ = words.gettext
    online_words = {True: _("yes"), False: _("NO"), None: "?"}
    lines = [
        (str(row.table), online_words[row.online], row.status(words),
         at_text(row.checked_at) if row.checked_at is not None else "")
        for row in rows
    ]
    title = _("Hall check before the first round")
    headers = (_("Table"), _("Online"), _("Hall check"), _("Checked at"))
    return Grid(title, headers, lines, numeric=frozenset({0}))


def unchecked_parts(rows: Iterable[HallRow], words: Words) -> list[str]:
    """What is not ready in the hall check: the tables not checked, those with a fault;
    empty when every table is checked and ready."""
    rows = list(rows)
    unchecked = [r.table for r in rows if r.check is None]
    faulty = [f"{r.table} ({', '.join(r.faults_in(words))})" for r in rows if r.faults]
    parts = []
    # A list of tables is "stoliki 1, 2, 5" in Polish whatever its length: one message
    # for one table, one for several (no plural forms).
    _ = words.gettext
    if len(unchecked) == 1:
        parts.append(_("not checked: table {tables}").format(tables=unchecked[0]))
    elif unchecked:
        parts.append(
            _("not checked: tables {tables}").format(tables=", ".join(map(str, unchecked)))
        )
    if len(faulty) == 1:
        parts.append(_("fault at table {tables}").format(tables=faulty[0]))
    elif faulty:
        parts.append(_("fault at tables {tables}").format(tables=", ".join(faulty)))
    return parts


def unchecked_warning(rows: Iterable[HallRow], words: Words) -> str | None:
    """One line naming the tables not checked or with a fault, or None when all are."""
    parts = unchecked_parts(rows, words)
    if not parts:
        return None
    return words.gettext("Hall check: {what} (rummikub event hall)").format(
        what="; ".join(parts)
    )
