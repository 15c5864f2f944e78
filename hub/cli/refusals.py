"""What the hub refused from the tables and which units were replaced (``event refusals``, and
the lines ``round status`` and ``event show`` add)."""

from __future__ import annotations

import argparse

from hub.cli.common import Ctx, render, when
from hub.exports.grid import Grid
from hub.store import MAX_REFUSAL_LOG, EventStore


def refusals_summary(store: EventStore) -> list[str]:
    """One line when the hub has refused anything from the tables (for ``round status``)."""
    counts = store.refusal_counts()
    if not counts:
        return []
    aside = len(store.set_aside())
    total = sum(c.count for c in counts)
    return [
        f"The hub refused {total} message(s) from the tables; {aside} event(s) set aside "
        "for the judge: rummikub event refusals"
    ]


def replaced_lines(store: EventStore, *, table: int | None = None, prefix: str = "") -> list[str]:
    """One line per table unit replaced (or journal wiped) during the event: a new journal
    epoch, whose events the hub keeps beside the earlier ones."""
    return [
        f"{prefix}table {item.table}'s unit was replaced at {when(item.at)} (a new journal, "
        f"epoch {item.epoch or '-'}; its events are kept as {item.source} beside the earlier "
        "unit's)"
        for item in store.replacements(table=table)
    ]


def cmd_event_refusals(ctx: Ctx, args: argparse.Namespace) -> int:
    store = ctx.organizer().store
    replaced = replaced_lines(store, table=args.table, prefix="  ")
    if replaced:
        ctx.print("Units replaced:", *replaced, "")
    aside = store.set_aside(table=args.table)
    counts = [c for c in store.refusal_counts() if args.table is None or c.table == args.table]
    if not aside and not counts:
        ctx.print("The hub has refused nothing from the tables.")
        return 0
    if aside:
        ctx.print("Set aside for the judge (the unit keeps its copy too):")
        for item in aside:
            ctx.print(
                f"  table {item.table} {item.source} seq {item.seq} at {when(item.received)}: "
                f"{item.code}: {item.reason}",
                f"    sent:   {item.payload.decode('utf-8', 'replace')}",
            )
            if item.stored is not None:
                ctx.print(f"    stored: {item.stored.decode('utf-8', 'replace')}")
    if counts:
        rows = [
            (
                "?" if c.table is None else str(c.table),
                c.code,
                str(c.count),
                when(c.first),
                when(c.last),
            )
            for c in counts
        ]
        ctx.print(
            "",
            render(
                Grid(
                    "Refused by the hub",
                    ("Table", "Why", "Count", "First", "Last"),
                    rows,
                    numeric=frozenset({0, 2}),
                )
            ),
        )
    logged = [r for r in store.refusal_log(args.last) if args.table in (None, r.table)]
    if logged:
        ctx.print("", f"Latest refusals (of the last {MAX_REFUSAL_LOG} kept):")
        for r in logged:
            ctx.print(f"  {when(r.at)} {r.topic}: {r.reason}")
    return 0
