"""The judges' decisions: ties at a cut (the head judge's order or a lot), sanctions
(warning, big points deducted, disqualification, lifted) and judge calls resolved."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from hub.cli.common import (
    CliError,
    Ctx,
    render,
    resolve_player,
    stage_arg,
    table_seats,
    when,
)
from hub.cli.results import confirm
from hub.competition import Competition
from hub.exports.lists import (
    judge_calls_grid,
    sanction_given_text,
    sanction_lifted_text,
    sanctions_grid,
)
from hub.exports.notes import consolation_text, tie_decision_text
from hub.exports.standings import standings_grid
from hub.exports.words import stage_label
from hub.tournament import RANKING_SCOPE, SanctionKind, Tie, TieHow
from hub.tournament.cuts import scope_phrase
from hub.tournament.standings import signed
from tablekit.core.words import N_
from tablekit.shared.i18n import Words


def tie_text(comp: Competition, tie: Tie, words: Words) -> str:
    """Level players at a cut, with names, and how the head judge records the decision."""
    _ = words.gettext
    players = comp.event.players
    names = ", ".join(
        f"{pid} {players[pid].name}" if pid in players else pid for pid in tie.players
    )
    ids = " ".join(tie.players)
    values = {
        "scope": tie.scope,
        "where": scope_phrase(tie.scope).message(_),
        "big": tie.big,
        "small": signed(tie.small),
        "names": names,
        "ids": ids,
    }
    if tie.scope == RANKING_SCOPE:
        return _(
            "Level {where} ({big} BP, {small} SP): {names}. The head judge decides: "
            "rummikub tie decide --scope {scope} {ids} --why … (best first), or --shared to "
            "keep the shared place; or a lot the judge orders: rummikub tie lot --scope "
            "{scope} {ids}"
        ).format(**values)
    return _(
        "Level {where} ({big} BP, {small} SP): {names}. The head judge decides: "
        "rummikub tie decide --scope {scope} {ids} --why … (best first); or a lot the judge "
        "orders: rummikub tie lot --scope {scope} {ids}"
    ).format(**values)


def ties_lines(comp: Competition, words: Words) -> list[str]:
    """Ties the head judge must decide now, then every decision recorded."""
    pending = comp.event.pending_ties()
    lines = [tie_text(comp, tie, words) for tie in pending]
    if pending:
        lines.insert(0, words.gettext("Ties at a cut to decide ({count}):").format(
            count=len(pending)))
    consolation = comp.event.pending_consolation()
    if consolation is not None:
        lines.insert(
            0,
            words.gettext("To decide: {what} (rummikub round consolation)").format(
                what=consolation
            ),
        )
    lines += [tie_decision_text(comp, record, words) for record in comp.ties]
    lines += [consolation_text(record, words) for record in comp.consolations]
    return lines


def _tie_target(
    comp: Competition, ids: Sequence[str], scope: str | None
) -> tuple[str, tuple[str, ...]]:
    """The scope and players of a decision: as given, else the pending tie they name."""
    players = tuple(resolve_player(comp, text) for text in ids)
    pending = comp.event.pending_ties()
    if scope is not None and players:
        return scope, players
    matching = [
        t
        for t in pending
        if (scope is None or t.scope == scope) and set(players) <= set(t.players)
    ]
    if len(matching) != 1:
        if not pending:
            raise CliError(
                N_("tie: give --scope and the players (best first); no tie to decide now")
            )
        listed = "; ".join(f"{t.scope}: {' '.join(t.players)}" for t in pending)
        raise CliError(
            N_("tie: give --scope and the players (best first); ties to decide now: {ties}"),
            ties=listed,
        )
    tie = matching[0]
    return tie.scope, players or tie.players


def cmd_tie_list(ctx: Ctx, args: argparse.Namespace) -> int:
    comp = ctx.competition()
    lines = ties_lines(comp, ctx.words)
    ctx.print(*(lines or [ctx.words.gettext("No tie at a cut to decide, none decided")]))
    return 0


def cmd_tie_decide(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    scope, players = _tie_target(org.competition, args.ids, args.scope)
    how = TieHow.SHARED if args.shared else TieHow.JUDGE
    record = org.decide_tie(scope, players, how, why=args.why or "")
    ctx.print(tie_decision_text(org.competition, record, ctx.words))
    return 0


def cmd_tie_lot(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    scope, players = _tie_target(org.competition, args.ids, args.scope)
    record = org.decide_tie(scope, players, TieHow.LOT, why=args.why or "", seed=args.seed)
    ctx.print(tie_decision_text(org.competition, record, ctx.words))
    return 0


def _sanction(ctx: Ctx, args: argparse.Namespace, kind: SanctionKind, big: int = 0) -> int:
    org = ctx.organizer()
    w = ctx.words
    _ = w.gettext
    comp = org.competition
    pid = resolve_player(comp, args.id)
    stage = None if args.stage is None else stage_arg(comp, args.stage, ctx.words)
    draft = org.sanction_record(pid, kind, why=args.why, big=big, stage=stage)
    confirmed = confirm(ctx, org, draft, f"sanction {args.command}", pid, yes=args.yes)
    if confirmed is None:
        return 1
    record = org.sanction(draft, confirmed=confirmed)
    comp = org.competition
    ctx.print(sanction_given_text(comp, record, w, when))
    if kind is SanctionKind.DEDUCTION and comp.event.stages_played:
        ctx.print(render(standings_grid(comp, stage_arg(comp, None, ctx.words), words=w), w))
    return 0


def cmd_sanction_warn(ctx: Ctx, args: argparse.Namespace) -> int:
    return _sanction(ctx, args, SanctionKind.WARNING)


def cmd_sanction_deduct(ctx: Ctx, args: argparse.Namespace) -> int:
    return _sanction(ctx, args, SanctionKind.DEDUCTION, args.big)


def cmd_sanction_disqualify(ctx: Ctx, args: argparse.Namespace) -> int:
    return _sanction(ctx, args, SanctionKind.DISQUALIFICATION)


def cmd_sanction_lift(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    _ = ctx.words.gettext
    draft = org.lift_record(args.number, why=args.why)
    subject = _("sanction {number}").format(number=args.number)
    confirmed = confirm(ctx, org, draft, "sanction lift", subject, yes=args.yes)
    if confirmed is None:
        return 1
    record = org.sanction(draft, confirmed=confirmed)
    ctx.print(sanction_lifted_text(org.competition, args.number, record, ctx.words, when))
    return 0


def cmd_sanction_list(ctx: Ctx, args: argparse.Namespace) -> int:
    comp = ctx.competition()
    if not comp.sanctions:
        ctx.print(ctx.words.gettext("No sanctions recorded"))
        return 0
    ctx.print(render(sanctions_grid(comp, words=ctx.words), ctx.words))
    return 0


def cmd_call_resolve(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    comp = org.competition
    stage = stage_arg(comp, args.stage, ctx.words)
    table_seats(comp, stage, args.table)
    call = None if args.game else org.open_call(args.table, stage)
    if not args.game and call is None:
        raise CliError(
            N_("table {table}: no judge call is open there (its unit reports none since the "
               "draw); say which game the decision is about: --game N"),
            table=args.table,
        )
    if call is None:
        record = org.resolve_call(args.table, args.note, stage=stage, game=args.game)
    else:
        record = org.resolve_call(args.table, args.note, stage=stage, game=call.game,
                                  called=call.why, since=call.since)
    ctx.print(
        ctx.words.gettext(
            "Judge call at table {table} ({stage}) resolved; recorded {at} by {by}: {note}"
        ).format(
            table=record.table, stage=stage_label(record.stage, ctx.words), at=when(record.at),
            by=record.by or "-",
            note=record.note,
        )
    )
    return 0


def cmd_call_list(ctx: Ctx, args: argparse.Namespace) -> int:
    comp = ctx.competition()
    stage = (
        None if args.stage is None and args.table is None
        else stage_arg(comp, args.stage, ctx.words)
    )
    grid = judge_calls_grid(comp, stage, args.table, words=ctx.words)
    ctx.print(render(grid, ctx.words) if grid.rows else ctx.words.gettext(
        "No judge call resolved yet"))
    return 0
