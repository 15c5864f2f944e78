"""Commands on results: enter or correct a game's result (asking before it changes who
qualified, places or titles), its history, every correction."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from hub.cli.common import CliError, Ctx, render, stage_arg, table_seats, when
from hub.cli.racks import ending_for, racks_arg
from hub.competition import (
    Competition,
    OrganizerFact,
    ResultRecorded,
)
from hub.exports.results import (
    changes_grid,
    corrections_grid,
    undone_lines,
    version_grid,
    version_header,
)
from hub.exports.words import stage_label
from hub.organizer import Organizer
from hub.table_play import GameNotEndedError
from tablekit.core.racks import RackNotationError, parse_rack
from tablekit.core.scoring import GameReport, RackReport
from tablekit.core.seats import seats_for
from tablekit.core.words import N_
from tablekit.shared.i18n import Words


def _prompt_racks(
    comp: Competition,
    players: Sequence[str],
    table: int,
    ask: Callable[[str], str],
    words: Words,
) -> tuple[RackReport, ...]:
    racks = []
    for seat, pid in zip(seats_for(len(players)), players, strict=True):
        while True:
            text = ask(f"{table}{seat} {comp.event.players[pid].name}: ")
            try:
                racks.append(parse_rack(text, seat))
                break
            except RackNotationError as err:
                print(err.message(words.gettext), file=sys.stderr)
    return tuple(racks)


def cmd_result_enter(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    w = ctx.words
    _ = w.gettext
    comp = org.competition
    stage = stage_arg(comp, args.stage, ctx.words)
    players = table_seats(comp, stage, args.table)
    interactive = args.racks is None
    if interactive:
        if not sys.stdin.isatty():
            raise CliError(N_("result enter: give --racks (stdin is not a terminal to ask on)"))
        racks = _prompt_racks(comp, players, args.table, input, w)
    else:
        racks = racks_arg(args.racks, len(players))
    why = args.why or ""
    if args.force and not why.strip() and not interactive:
        raise CliError(
            N_("result enter: --force goes with --why: say why a game the table has not ended "
               "is entered")
        )
    if interactive and not why:
        open_stage = comp.open_stage()
        if comp.history(stage, args.table, args.game):
            why = input(_("A result is recorded: reason for the correction: "))
        elif open_stage is None or open_stage.name != stage:
            why = input(
                _("{stage} is not the round being played: reason for the late result: ").format(
                    stage=stage_label(stage, w)
                )
            )
        elif args.force:
            why = input(_("The table has not ended this game: reason for entering it: "))
    report = GameReport(game=args.game, ending=ending_for(racks, args.ending), racks=racks)
    try:
        record = org.result_record(
            args.table, report, why=why, stage=stage, not_ended=args.force
        )
        subject = _("table {table} game {game} of {stage}").format(
            table=args.table, game=args.game, stage=stage_label(stage, w)
        )
        confirmed = confirm(ctx, org, record, "result enter", subject, yes=args.yes)
        if confirmed is None:
            return 1
        version = org.enter_result(
            args.table, report, why=why, stage=stage, confirmed=confirmed, not_ended=args.force
        )
    except GameNotEndedError as err:
        raise CliError(
            N_("result enter: {refusal}. Nothing recorded: enter the game the table has ended "
               "(--game, --stage), or, on purpose, give --force and --why"),
            refusal=err,
        ) from None
    versions = org.competition.history(stage, args.table, args.game)
    ctx.print(version_header(len(versions), version, w, when))
    grid = version_grid(
        org.competition, stage, args.table, [version], len(versions), words=w
    )
    ctx.print(render(grid, w))
    return 0


def confirm(
    ctx: Ctx,
    org: Organizer,
    record: ResultRecorded | OrganizerFact,
    command: str,
    subject: str,
    *,
    yes: bool,
) -> bool | None:
    """Whether ``record`` may be stored: True once confirmed (or when it changes nothing
    weighty: False, nothing to confirm), None when the person declined. What it changes
    is printed first; without a terminal to ask on, only ``--yes`` confirms. ``command``
    is what was typed (``result enter``), ``subject`` what it records, in the reader's
    language."""
    _ = ctx.words.gettext
    changes = org.effects(record)
    if not any(c.weighty for c in changes):
        return False
    ctx.print(_("{subject}: this changes").format(subject=subject), "")
    ctx.print(render(changes_grid(org.competition, changes, ctx.words), ctx.words), "")
    if yes:
        return True
    if not sys.stdin.isatty():
        raise CliError(
            N_("{command}: {subject} changes what is listed above; nothing recorded: run "
               "again with --yes to record it"),
            command=command,
            subject=subject,
        )
    answer = input(_("Record it? [y/N] ")).strip().casefold()
    if answer not in ("y", "yes", "t", "tak"):
        ctx.print(_("Nothing recorded"))
        return None
    return True


def cmd_result_history(ctx: Ctx, args: argparse.Namespace) -> int:
    comp = ctx.competition()
    w = ctx.words
    stage = stage_arg(comp, args.stage, ctx.words)
    table_seats(comp, stage, args.table)
    comp.table_playing(stage, args.table, args.game)
    versions = comp.history(stage, args.table, args.game)
    if not versions:
        ctx.print(
            w.gettext("Table {table} game {game} of {stage}: no result yet").format(
                table=args.table, game=args.game, stage=stage_label(stage, w)
            )
        )
        return 0
    for number, version in enumerate(versions, start=1):
        ctx.print(version_header(number, version, w, when))
    ctx.print(render(version_grid(comp, stage, args.table, versions, words=w), w))
    return 0


def cmd_result_corrections(ctx: Ctx, args: argparse.Namespace) -> int:
    comp = ctx.competition()
    w = ctx.words
    grid = corrections_grid(comp, w)
    ctx.print(render(grid, w) if grid.rows else w.gettext("No corrections recorded"))
    ctx.print(*undone_lines(comp, w, when))
    return 0
