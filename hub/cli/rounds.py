"""Commands on rounds: draw the seating, consolation games, start, the starting seat, undo a
draw, close."""

from __future__ import annotations

import argparse

from hub.cli.common import CliError, Ctx, render, when
from hub.cli.judges import tie_text
from hub.competition import Competition
from hub.exports.lists import seating_grid
from hub.exports.notes import consolation_text
from hub.exports.standings import standings_grid
from hub.hall_board import expected_tables, hall_board, latest_checks, unchecked_warning
from hub.tournament import ConsolationError, Phase, RoundSeated, TieAtCutError
from tablekit.core.seats import SEATS, Seat


def seating_text(comp: Competition, seated: RoundSeated) -> str:
    grid = seating_grid(comp, seated.stage)
    three = sum(len(t.players) == 3 for t in seated.tables)
    games = comp.format.stages[comp.format.stage_index(seated.stage)].games
    starts = ", ".join(f"game {g}: seat {SEATS[(g - 1) % 4]}" for g in range(1, games + 1))
    return "\n".join(
        [
            f"Round {comp.round_number(seated.stage)} ({seated.stage}): {len(seated.tables)} "
            f"tables ({three} of 3 players), seed {seated.seed}, repeated pairs: "
            f"{seated.repeats}",
            render(grid),
            f"Starting seat by rotation — {starts}"
            + (" (3-player tables wrap after C)" if three and games > 3 else ""),
        ]
    )


def cmd_round_draw(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    try:
        seated = org.draw(args.seed)
    except ConsolationError as err:
        options = " | ".join(f"--promote {k}" for k in err.options)
        ctx.print(
            "The draw stops: " + str(err),
            f"Record the organizer's decision: rummikub round consolation {options} | --none "
            "--why …, then draw again.",
        )
        raise CliError(
            f"round draw: {len(err.players)} player(s) for consolation games cannot sit at "
            "tables of 3 or 4; the organizer decides; nothing drawn"
        ) from None
    except TieAtCutError as err:
        comp = org.competition
        ctx.print(
            f"The draw stops at a cut: players level on big and small points reach different "
            f"things ({err.what}); the head judge decides (002, RULES.md §3.5).",
            *(tie_text(comp, tie) for tie in err.ties),
        )
        raise CliError(
            f"round draw: {len(err.ties)} tie(s) at a cut for the head judge; nothing drawn"
        ) from None
    comp = org.competition
    ctx.print(seating_text(comp, seated))
    if comp.event.stages_played == (seated.stage,):  # the event's first draw
        rows = hall_board(expected_tables(comp), latest_checks(org.store))
        warning = unchecked_warning(rows)
        if warning is not None:
            ctx.print(warning)
    return 0


def cmd_round_consolation(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    record = org.decide_consolation(promote=args.promote or 0, none=args.none, why=args.why)
    ctx.print(consolation_text(record), "Next: rummikub round draw")
    return 0


def cmd_round_start(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    started = org.start_round(args.minutes)
    comp = org.competition
    ctx.print(f"Started {started.stage} at {when(started.at)}")
    deadline = comp.round_deadline()
    if deadline is not None:
        ctx.print(
            f"Round time ends at {when(deadline[1])}: then every table still playing "
            "gets the last lap"
        )
    return 0


def cmd_round_starter(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    chosen = org.choose_starter(args.table, Seat(args.seat), game=args.game, why=args.why)
    ctx.print(
        f"Table {chosen.table}, game {chosen.game} of {chosen.stage}: seat {chosen.seat} "
        "starts (sent to the table with its seating; the table can still choose before the "
        "first press)"
    )
    return 0


def cmd_round_undo(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    undone = org.undo_draw(args.why)
    comp = org.competition
    ctx.print(
        f"Draw of {undone.stage} undone: its tables are told they have no assignment; "
        "draw it again with rummikub round draw"
    )
    if comp.event.phase is Phase.REGISTRATION:
        ctx.print(f"{len(comp.event.present)} players present; check-in is open again")
    return 0


def cmd_round_close(ctx: Ctx, args: argparse.Namespace) -> int:
    if args.why and not args.force:
        raise CliError("round close: --why goes with --force")
    org = ctx.organizer()
    closed = org.close_round(force=args.force, why=args.why or "")
    comp = org.competition
    ctx.print(
        f"Closed {closed.stage}"
        + (" (forced: missing games count as not played)" if closed.forced else "")
    )
    ctx.print(render(standings_grid(comp, closed.stage)))
    nxt = comp.event.current_stage
    if comp.event.phase is Phase.FINISHED:
        ctx.print("The event is finished: rummikub ranking")
    elif nxt is not None:
        ctx.print(f"Next: {nxt.name} (rummikub round draw)")
    return 0
