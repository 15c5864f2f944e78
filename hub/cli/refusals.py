"""What the hub refused from the tables and which units were replaced (``event refusals``, and
the lines ``round status`` and ``event show`` add)."""

from __future__ import annotations

import argparse

from hub.cli.common import Ctx, render, when
from hub.exports.grid import Grid
from hub.store import DROPPED, JOURNALS, MAX_REFUSAL_LOG, EventStore
from hub.store_report import over_limit_lines
from tablekit.core.topics import reason_words
from tablekit.shared.i18n import Words


def code_word(code: str, words: Words) -> str:
    """A refusal's code (``tablekit.core.codec.DecodeError.code``, the hub store's own) in
    ``words``' language; a code of another version as it is."""
    # Translators: why the hub refused a message from a table, in a column of codes
    known = {
        "invalid": words.pgettext("refusal code", "invalid"),
        "range": words.pgettext("refusal code", "range"),
        "version": words.pgettext("refusal code", "version"),
        "conflict": words.pgettext("refusal code", "conflict"),
        "json": words.pgettext("refusal code", "json"),
        "oversize": words.pgettext("refusal code", "oversize"),
        "topic": words.pgettext("refusal code", "topic"),
        "table": words.pgettext("refusal code", "table"),
        "identity": words.pgettext("refusal code", "identity"),
        "unprovisioned": words.pgettext("refusal code", "unprovisioned"),
        "window": words.pgettext("refusal code", "window"),
        DROPPED: words.pgettext("refusal code", "not kept"),
        JOURNALS: words.pgettext("refusal code", "new journal"),
    }
    return known.get(code, code)


def refusals_summary(store: EventStore, words: Words) -> list[str]:
    """One line when the hub has refused anything from the tables (for ``round status``)."""
    counts = store.refusal_counts()
    if not counts:
        return []
    aside = len(store.set_aside())
    total = sum(c.count for c in counts)
    return [
        words.gettext(
            "The hub refused {total} message(s) from the tables; {aside} event(s) set aside "
            "for the judge: rummikub event refusals"
        ).format(total=total, aside=aside),
        *over_limit_lines(counts, words),
    ]


def replaced_lines(
    store: EventStore, words: Words, *, table: int | None = None, prefix: str = ""
) -> list[str]:
    """One line per table unit replaced (or journal wiped) during the event: a new journal
    epoch, whose events the hub keeps beside the earlier ones."""
    return [
        prefix
        + words.gettext(
            "table {table}'s unit was replaced at {at} (a new journal, epoch {epoch}; its "
            "events are kept as {source} beside the earlier unit's)"
        ).format(table=item.table, at=when(item.at), epoch=item.epoch or "-", source=item.source)
        for item in store.replacements(table=table)
    ]


def cmd_event_refusals(ctx: Ctx, args: argparse.Namespace) -> int:
    store = ctx.organizer().store
    w = ctx.words
    _ = w.gettext
    replaced = replaced_lines(store, w, table=args.table, prefix="  ")
    if replaced:
        ctx.print(_("Units replaced:"), *replaced, "")
    held_back = over_limit_lines(
        (c for c in store.refusal_counts() if args.table in (None, c.table)), w
    )
    if held_back:
        ctx.print(*held_back, "")
    aside = store.set_aside(table=args.table)
    counts = [c for c in store.refusal_counts() if args.table is None or c.table == args.table]
    if not aside and not counts:
        ctx.print(_("The hub has refused nothing from the tables."))
        return 0
    if aside:
        ctx.print(_("Set aside for the judge (the unit keeps its copy too):"))
        for item in aside:
            ctx.print(
                "  "
                + _("table {table} {source} seq {seq} at {at}: {code}: {reason}").format(
                    table=item.table,
                    source=item.source,
                    seq=item.seq,
                    at=when(item.received),
                    code=code_word(item.code, w),
                    reason=reason_words(item.reason).message(_),
                ),
                "    " + _("sent:   {payload}").format(
                    payload=item.payload.decode("utf-8", "replace")
                ),
            )
            if item.stored is not None:
                ctx.print(
                    "    " + _("stored: {payload}").format(
                        payload=item.stored.decode("utf-8", "replace")
                    )
                )
    if counts:
        rows = [
            (
                "?" if c.table is None else str(c.table),
                code_word(c.code, w),
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
                    _("Refused by the hub"),
                    (_("Table"), _("Why"), _("Count"), _("First"), _("Last")),
                    rows,
                    numeric=frozenset({0, 2}),
                ),
                w,
            ),
        )
    logged = [r for r in store.refusal_log(args.last) if args.table in (None, r.table)]
    if logged:
        ctx.print("", _("Latest refusals (of the last {kept} kept):").format(kept=MAX_REFUSAL_LOG))
        for r in logged:
            ctx.print(f"  {when(r.at)} {r.topic}: {reason_words(r.reason).message(_)}")
    return 0
