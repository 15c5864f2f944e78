"""Commands on rounds: draw the seating, consolation games, start, the starting seat, undo a
draw, close."""

from __future__ import annotations

import argparse

from hub.cli.common import CliError, Ctx, render, when
from hub.cli.judges import tie_text
from hub.competition import Competition
from hub.exports.lists import seating_grid
from hub.exports.notes import consolation_text, repeats_text
from hub.exports.standings import standings_grid
from hub.exports.words import stage_label, stage_title
from hub.hall_board import expected_tables, hall_board, latest_checks, unchecked_warning
from hub.organizer import ConsentMissingError
from hub.tournament import (
    ConsolationError,
    EventPhase,
    MissingResultsError,
    RoundSeated,
    TieAtCutError,
)
from tablekit.core.seats import SEATS, Seat
from tablekit.core.words import N_
from tablekit.shared.i18n import Words


def seating_text(comp: Competition, seated: RoundSeated, words: Words) -> str:
    _ = words.gettext
    grid = seating_grid(comp, seated.stage, words=words)
    three = sum(len(t.players) == 3 for t in seated.tables)
    games = comp.format.stages[comp.format.stage_index(seated.stage)].games
    starts = ", ".join(
        _("game {game}: seat {seat}").format(game=g, seat=SEATS[(g - 1) % 4])
        for g in range(1, games + 1)
    )
    rotation = _("Starting seat by rotation — {starts}").format(starts=starts)
    if three and games > 3:
        rotation += _(" (3-player tables wrap after C)")
    return "\n".join(
        [
            words.ngettext(
                "{stage}: {n} table ({three} of 3 players), seed {seed}, "
                "repeated pairs: {repeats}",
                "{stage}: {n} tables ({three} of 3 players), seed {seed}, "
                "repeated pairs: {repeats}",
                len(seated.tables),
            ).format(
                stage=stage_title(seated.stage, comp.round_number(seated.stage), words),
                n=len(seated.tables),
                three=three,
                seed=seated.seed,
                repeats=repeats_text(seated, words),
            ),
            render(grid, words),
            rotation,
        ]
    )


def cmd_round_draw(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    w = ctx.words
    _ = w.gettext
    try:
        seated = org.draw(args.seed, admit_minors=args.admit_minors)
    except ConsentMissingError as err:
        raise CliError(N_("{error}; to admit them: --admit-minors"), error=err) from None
    except ConsolationError as err:
        options = " | ".join(f"--promote {k}" for k in err.options)
        ctx.print(
            _("The draw stops: {reason}").format(reason=err.message(_)),
            _("Record the organizer's decision: rummikub round consolation {options} | --none "
              "--why …, then draw again.").format(options=options),
        )
        raise CliError(
            N_("round draw: {count} player(s) for consolation games cannot sit at tables of 3 "
               "or 4; the organizer decides; nothing drawn"),
            count=len(err.players),
        ) from None
    except TieAtCutError as err:
        comp = org.competition
        ctx.print(
            _("The draw stops at a cut: players level on big and small points reach different "
              "things ({what}); the head judge decides (002, RULES.md §3.5).").format(
                what=err.what.message(_)),
            *(tie_text(comp, tie, w) for tie in err.ties),
        )
        if len(err.ties) == 1:
            raise CliError(
                N_("round draw: 1 tie at a cut for the head judge; nothing drawn")
            ) from None
        raise CliError(
            N_("round draw: {count} ties at a cut for the head judge; nothing drawn"),
            count=len(err.ties),
        ) from None
    comp = org.competition
    ctx.print(seating_text(comp, seated, w))
    if comp.event.stages_played == (seated.stage,):  # the event's first draw
        rows = hall_board(expected_tables(comp), latest_checks(org.store))
        warning = unchecked_warning(rows, w)
        if warning is not None:
            ctx.print(warning)
    return 0


def cmd_round_consolation(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    record = org.decide_consolation(promote=args.promote or 0, none=args.none, why=args.why)
    ctx.print(consolation_text(record, ctx.words), ctx.words.gettext("Next: rummikub round draw"))
    return 0


def cmd_round_start(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    _ = ctx.words.gettext
    started = org.start_round(args.minutes)
    comp = org.competition
    ctx.print(
        _("Started {stage} at {at}").format(
            stage=stage_label(started.stage, ctx.words), at=when(started.at)
        )
    )
    deadline = comp.round_deadline()
    if deadline is not None:
        ctx.print(
            _("Round time ends at {at}: then every table still playing gets the last "
              "lap").format(at=when(deadline[1]))
        )
    return 0


def cmd_round_starter(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    chosen = org.choose_starter(args.table, Seat(args.seat), game=args.game, why=args.why)
    ctx.print(
        ctx.words.gettext(
            "Table {table}, game {game} of {stage}: seat {seat} starts (sent to the table "
            "with its seating; the table can still choose before the first press)"
        ).format(
            table=chosen.table, game=chosen.game, stage=stage_label(chosen.stage, ctx.words),
            seat=chosen.seat,
        )
    )
    return 0


def cmd_round_undo(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    _ = ctx.words.gettext
    undone = org.undo_draw(args.why)
    comp = org.competition
    ctx.print(
        _("Draw of {stage} undone: its tables are told they have no assignment; draw it "
          "again with rummikub round draw").format(stage=stage_label(undone.stage, ctx.words))
    )
    if comp.event.phase is EventPhase.REGISTRATION:
        ctx.print(
            _("{count} players present; check-in is open again").format(
                count=len(comp.event.present)
            )
        )
    return 0


def cmd_round_close(ctx: Ctx, args: argparse.Namespace) -> int:
    if args.why and not args.force:
        raise CliError(N_("round close: --why goes with --force"))
    org = ctx.organizer()
    _ = ctx.words.gettext
    try:
        closed = org.close_round(force=args.force, why=args.why or "")
    except MissingResultsError as err:
        raise CliError(
            N_("{error}: enter them (rummikub result enter), or close without them: "
               "rummikub round close --force --why \"…\" (they count as not played)"),
            error=err,
        ) from None
    comp = org.competition
    if closed.forced:
        ctx.print(
            _("Closed {stage} (forced: missing games count as not played)").format(
                stage=stage_label(closed.stage, ctx.words)
            )
        )
    else:
        ctx.print(_("Closed {stage}").format(stage=stage_label(closed.stage, ctx.words)))
    ctx.print(render(standings_grid(comp, closed.stage, words=ctx.words), ctx.words))
    nxt = comp.event.current_stage
    if comp.event.phase is EventPhase.FINISHED:
        ctx.print(_("The event is finished: rummikub ranking"))
    elif nxt is not None:
        ctx.print(
            _("Next: {stage} (rummikub round draw)").format(stage=stage_label(nxt.name, ctx.words))
        )
    return 0
