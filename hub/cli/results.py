"""Commands on results: enter or correct a game's result (asking before it changes who
qualified, places or titles), its history, every correction."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Final

from hub.cli.common import CliError, Ctx, render, stage_arg, table_seats, when
from hub.cli.racks import ending_for, racks_arg
from hub.competition import (
    Competition,
    OrganizerFact,
    ResultRecorded,
    ResultSource,
    ResultVersion,
)
from hub.effects import Change, ChangeKind
from hub.exports.grid import Grid
from hub.exports.results import corrections_grid, version_grid
from hub.exports.words import stage_named
from hub.organizer import Organizer
from hub.tournament import RoundUndone
from tablekit.core.racks import RackNotationError, parse_rack
from tablekit.core.scoring import GameEnding, GameReport, RackReport
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
    stage = stage_arg(comp, args.stage)
    players = table_seats(comp, stage, args.table)
    interactive = args.racks is None
    if interactive:
        if not sys.stdin.isatty():
            raise CliError(N_("result enter: give --racks (stdin is not a terminal to ask on)"))
        racks = _prompt_racks(comp, players, args.table, input, w)
    else:
        racks = racks_arg(args.racks, len(players))
    why = args.why or ""
    if interactive and not why:
        open_stage = comp.open_stage()
        if comp.history(stage, args.table, args.game):
            why = input(_("A result is recorded: reason for the correction: "))
        elif open_stage is None or open_stage.name != stage:
            why = input(
                _("{stage} is not the round being played: reason for the late result: ").format(
                    stage=stage_named(stage, w)
                )
            )
    report = GameReport(game=args.game, ending=ending_for(racks, args.ending), racks=racks)
    record = org.result_record(args.table, report, why=why, stage=stage)
    subject = _("table {table} game {game} of {stage}").format(
        table=args.table, game=args.game, stage=stage_named(stage, w)
    )
    confirmed = confirm(ctx, org, record, "result enter", subject, yes=args.yes)
    if confirmed is None:
        return 1
    version = org.enter_result(args.table, report, why=why, stage=stage, confirmed=confirmed)
    versions = org.competition.history(stage, args.table, args.game)
    ctx.print(_version_header(len(versions), version, w))
    grid = version_grid(
        org.competition, stage, args.table, [version], len(versions), words=w
    )
    ctx.print(render(grid, w))
    return 0


CHANGE_WORDS: Final[Mapping[ChangeKind, str]] = {
    ChangeKind.QUALIFIES: N_("would now qualify"),
    ChangeKind.DROPS: N_("would no longer qualify"),
    ChangeKind.SEATING: N_("seating already drawn"),
    ChangeKind.DRAW: N_("draw already made"),
    ChangeKind.PLACE: N_("final place"),
    ChangeKind.TITLE: N_("title"),
    ChangeKind.LEAGUE: N_("league points"),
    ChangeKind.STANDINGS: N_("place in the standings"),
}
ENDING_WORDS: Final[Mapping[GameEnding, str]] = {
    GameEnding.WENT_OUT: N_("went out"),
    GameEnding.NOBODY_OUT: N_("nobody out"),
}
SOURCE_WORDS: Final[Mapping[ResultSource, str]] = {
    ResultSource.TABLE: N_("table"),
    ResultSource.JUDGE: N_("judge"),
}


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
        )  # fmt: skip
    answer = input(_("Record it? [y/N] ")).strip().casefold()
    if answer not in ("y", "yes", "t", "tak"):
        ctx.print(_("Nothing recorded"))
        return None
    return True


def changes_grid(comp: Competition, changes: Sequence[Change], words: Words) -> Grid:
    """What a correction changes, for whom: the weighty first, then the standings."""
    _ = words.gettext
    ordered = sorted(changes, key=lambda c: not c.weighty)
    rows = [
        (
            c.stage or "-",
            _(CHANGE_WORDS[c.kind]),
            c.player_id,
            comp.event.players[c.player_id].name if c.player_id else "",
            c.before,
            c.after,
        )
        for c in ordered
    ]
    return Grid(
        _("What changes"),
        (_("Stage"), _("Change"), _("ID"), _("Player"), _("Before"), _("After")),
        rows,
        note=_("The rounds already drawn keep their tables: undo a draw no table has started "
               "(rummikub round undo), or decide at the tables."),
    )  # fmt: skip


def _version_header(number: int, version: ResultVersion, words: Words) -> str:
    _ = words.gettext
    record = version.record
    values = {
        "number": number,
        "source": _(SOURCE_WORDS[record.source]),
        "at": when(record.at),
        "by": record.by or "-",
        "ending": _(ENDING_WORDS[record.report.ending]),
    }
    if number > 1:
        text = _("Version {number} (correction, {source}) recorded {at} by {by}, "
                 "ending: {ending}").format(**values)  # fmt: skip
    else:
        text = _("Version {number} (result, {source}) recorded {at} by {by}, "
                 "ending: {ending}").format(**values)  # fmt: skip
    return text + (_("; why: {why}").format(why=record.why) if record.why else "")


def cmd_result_history(ctx: Ctx, args: argparse.Namespace) -> int:
    comp = ctx.competition()
    w = ctx.words
    stage = stage_arg(comp, args.stage)
    table_seats(comp, stage, args.table)
    comp.table_playing(stage, args.table, args.game)
    versions = comp.history(stage, args.table, args.game)
    if not versions:
        ctx.print(
            w.gettext("Table {table} game {game} of {stage}: no result yet").format(
                table=args.table, game=args.game, stage=stage_named(stage, w)
            )
        )
        return 0
    for number, version in enumerate(versions, start=1):
        ctx.print(_version_header(number, version, w))
    ctx.print(render(version_grid(comp, stage, args.table, versions, words=w), w))
    return 0


def cmd_result_corrections(ctx: Ctx, args: argparse.Namespace) -> int:
    comp = ctx.competition()
    w = ctx.words
    grid = corrections_grid(comp, w)
    ctx.print(render(grid, w) if grid.rows else w.gettext("No corrections recorded"))
    for record, tables in comp.undone:
        stage = record.fact.stage if isinstance(record.fact, RoundUndone) else "?"
        ctx.print(
            w.ngettext(
                "Draw of {stage} undone {at} by {by} ({n} table); why: {why}",
                "Draw of {stage} undone {at} by {by} ({n} tables); why: {why}",
                len(tables),
            ).format(stage=stage_named(stage, w), at=when(record.at), by=record.by or "-",
                     n=len(tables),
                     why=record.why)
        )  # fmt: skip
    return 0
