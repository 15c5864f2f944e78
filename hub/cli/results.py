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
    ResultVersion,
)
from hub.effects import Change, ChangeKind
from hub.exports.grid import Grid
from hub.exports.results import corrections_grid, version_grid
from hub.organizer import Organizer
from hub.tournament import RoundUndone
from tablekit.core.racks import RackNotationError, parse_rack
from tablekit.core.scoring import GameReport, RackReport
from tablekit.core.seats import seats_for


def _prompt_racks(
    comp: Competition, players: Sequence[str], table: int, ask: Callable[[str], str]
) -> tuple[RackReport, ...]:
    racks = []
    for seat, pid in zip(seats_for(len(players)), players, strict=True):
        while True:
            text = ask(f"{table}{seat} {comp.event.players[pid].name}: ")
            try:
                racks.append(parse_rack(text, seat))
                break
            except RackNotationError as err:
                print(err, file=sys.stderr)
    return tuple(racks)


def cmd_result_enter(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    comp = org.competition
    stage = stage_arg(comp, args.stage)
    players = table_seats(comp, stage, args.table)
    interactive = args.racks is None
    if interactive:
        if not sys.stdin.isatty():
            raise CliError("result enter: give --racks (stdin is not a terminal to ask on)")
        racks = _prompt_racks(comp, players, args.table, input)
    else:
        racks = racks_arg(args.racks, len(players))
    why = args.why or ""
    if interactive and not why:
        open_stage = comp.open_stage()
        if comp.history(stage, args.table, args.game):
            why = input("A result is recorded: reason for the correction: ")
        elif open_stage is None or open_stage.name != stage:
            why = input(f"{stage} is not the round being played: reason for the late result: ")
    report = GameReport(game=args.game, ending=ending_for(racks, args.ending), racks=racks)
    record = org.result_record(args.table, report, why=why, stage=stage)
    confirmed = confirm(
        ctx, org, record, f"result enter: table {args.table} game {args.game} of {stage}", args.yes
    )
    if confirmed is None:
        return 1
    version = org.enter_result(args.table, report, why=why, stage=stage, confirmed=confirmed)
    versions = org.competition.history(stage, args.table, args.game)
    ctx.print(_version_header(len(versions), version))
    grid = version_grid(org.competition, stage, args.table, [version], len(versions))
    ctx.print(render(grid))
    return 0


CHANGE_WORDS: Final[Mapping[ChangeKind, str]] = {
    ChangeKind.QUALIFIES: "would now qualify",
    ChangeKind.DROPS: "would no longer qualify",
    ChangeKind.SEATING: "seating already drawn",
    ChangeKind.DRAW: "draw already made",
    ChangeKind.PLACE: "final place",
    ChangeKind.TITLE: "title",
    ChangeKind.LEAGUE: "league points",
    ChangeKind.STANDINGS: "place in the standings",
}


def confirm(
    ctx: Ctx, org: Organizer, record: ResultRecorded | OrganizerFact, what: str, yes: bool
) -> bool | None:
    """Whether ``record`` may be stored: True once confirmed (or when it changes nothing
    weighty: False, nothing to confirm), None when the person declined. What it changes
    is printed first; without a terminal to ask on, only ``--yes`` confirms."""
    changes = org.effects(record)
    if not any(c.weighty for c in changes):
        return False
    ctx.print(f"{what.split(': ', 1)[-1]}: this changes", "")
    ctx.print(render(changes_grid(org.competition, changes)), "")
    if yes:
        return True
    if not sys.stdin.isatty():
        raise CliError(
            f"{what} changes what is listed above; nothing recorded: run again with --yes "
            "to record it"
        )
    answer = input("Record it? [y/N] ").strip().casefold()
    if answer not in ("y", "yes", "t", "tak"):
        ctx.print("Nothing recorded")
        return None
    return True


def changes_grid(comp: Competition, changes: Sequence[Change]) -> Grid:
    """What a correction changes, for whom: the weighty first, then the standings."""
    ordered = sorted(changes, key=lambda c: not c.weighty)
    rows = [
        (
            c.stage or "-",
            CHANGE_WORDS[c.kind],
            c.player_id,
            comp.event.players[c.player_id].name if c.player_id else "",
            c.before,
            c.after,
        )
        for c in ordered
    ]
    return Grid(
        "What changes",
        ("Stage", "Change", "ID", "Player", "Before", "After"),
        rows,
        note="The rounds already drawn keep their tables: undo a draw no table has started "
        "(rummikub round undo), or decide at the tables.",
    )


def _version_header(number: int, version: ResultVersion) -> str:
    record = version.record
    kind = "correction" if number > 1 else "result"
    text = (
        f"Version {number} ({kind}, {record.source.value}) recorded {when(record.at)} by "
        f"{record.by or '-'}, ending {record.report.ending.value}"
    )
    return text + (f"; why: {record.why}" if record.why else "")


def cmd_result_history(ctx: Ctx, args: argparse.Namespace) -> int:
    comp = ctx.competition()
    stage = stage_arg(comp, args.stage)
    table_seats(comp, stage, args.table)
    comp.table_playing(stage, args.table, args.game)
    versions = comp.history(stage, args.table, args.game)
    if not versions:
        ctx.print(f"Table {args.table} game {args.game} ({stage}): no result yet")
        return 0
    for number, version in enumerate(versions, start=1):
        ctx.print(_version_header(number, version))
    ctx.print(render(version_grid(comp, stage, args.table, versions)))
    return 0


def cmd_result_corrections(ctx: Ctx, args: argparse.Namespace) -> int:
    comp = ctx.competition()
    grid = corrections_grid(comp)
    ctx.print(render(grid) if grid.rows else "No corrections recorded")
    for record, tables in comp.undone:
        stage = record.fact.stage if isinstance(record.fact, RoundUndone) else "?"
        ctx.print(
            f"Draw of {stage} undone {when(record.at)} by {record.by or '-'} "
            f"({len(tables)} tables); why: {record.why}"
        )
    return 0
