"""What the store's limits on what it keeps say to the organizer, in the reader's words:
one line per table the hub had to hold back (the command line's ``event show``,
``round status`` and ``event refusals``, the web console's round page)."""

from __future__ import annotations

from collections.abc import Iterable

from hub.store import (
    DROPPED,
    JOURNAL_PERIOD,
    JOURNALS,
    MAX_SET_ASIDE,
    MAX_SET_ASIDE_TABLE,
    NEW_JOURNALS_LIMIT,
)
from hub.store_rows import RefusalCount
from tablekit.shared.i18n import Words


def over_limit_lines(counts: Iterable[RefusalCount], words: Words) -> list[str]:
    """One line per table whose unit or account the hub had to hold back: refused events
    answered but not kept (over what the store keeps of what it refuses), events of new
    journals refused (more new journals than card swaps explain)."""
    lines = []
    for count in counts:
        table = "?" if count.table is None else str(count.table)
        if count.code == DROPPED:
            lines.append(words.ngettext(
                "table {table}: {n} refused event not kept (the hub keeps at most {own} of "
                "one table's and {all} in all): check the table's unit and its account",
                "table {table}: {n} refused events not kept (the hub keeps at most {own} of "
                "one table's and {all} in all): check the table's unit and its account",
                count.count,
            ).format(table=table, n=count.count, own=MAX_SET_ASIDE_TABLE, all=MAX_SET_ASIDE))
        elif count.code == JOURNALS:
            lines.append(words.ngettext(
                "table {table}: {n} event of a new journal refused (more than {limit} new "
                "journals within {minutes} minutes: the unit is replaced again and again, or "
                "its account is misused); its events are taken once the time has passed",
                "table {table}: {n} events of new journals refused (more than {limit} new "
                "journals within {minutes} minutes: the unit is replaced again and again, or "
                "its account is misused); its events are taken once the time has passed",
                count.count,
            ).format(table=table, n=count.count, limit=NEW_JOURNALS_LIMIT,
                     minutes=int(JOURNAL_PERIOD // 60)))
    return lines
