"""Commands on players: register, import, check in, late arrivals, withdrawals, seeds, a
player's history, name corrections."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from hub.cli.common import CliError, Ctx, render, resolve_player, when
from hub.exports.lists import player_changes_grid, players_grid, sanctions_grid, status_of
from hub.exports.results import player_games_grid
from hub.exports.standings import player_stages_grid
from hub.exports.words import gender_word, status_word
from hub.organizer import ConsentMissingError
from hub.players_csv import new_players, read_players_csv
from hub.players_report import (
    added_line,
    change_lines,
    import_lines,
    late_line,
    minor_line,
    minors_of,
    withdrawn_line,
)
from hub.season import seeding_text
from tablekit.core.errors import quoted
from tablekit.core.words import N_


def cmd_players_add(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    player, late = org.add_player(
        args.name, surname=args.surname or "", club=args.club, rating=args.rating,
        league_number=args.league_number, gender=args.gender, check_in=args.check_in,
    )
    ctx.print(added_line(ctx.words, player, late, args.check_in))
    return 0


def cmd_players_import(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    _ = ctx.words.gettext
    source = args.file.absolute()
    parsed = read_players_csv(source, args.encoding)
    players = new_players(
        parsed.players, org.competition.event.players, org.next_player_id, str(source)
    )
    late = org.register(players, check_in=args.check_in, minors=minors_of(parsed, players))
    if args.encoding:
        read_as = _("Read as {encoding} (as given)").format(encoding=_(parsed.encoding_label))
    else:
        read_as = _(
            "Read as {encoding} (detected; --encoding ENCODING to read it otherwise)"
        ).format(encoding=_(parsed.encoding_label))
    ctx.print(*import_lines(ctx.words, parsed, players, source=str(source), late=late,
                            check_in=args.check_in, encoding_line=read_as))
    return 0


def cmd_players_list(ctx: Ctx, args: argparse.Namespace) -> int:
    ctx.print(render(players_grid(ctx.competition(), ctx.words), ctx.words))
    return 0


def cmd_players_check_in(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    _ = ctx.words.gettext
    comp = org.competition
    event = comp.event
    if args.all:
        if args.ids:
            raise CliError(N_("players check-in: give player ids or --all, not both"))
        ids = [
            pid
            for pid in sorted(event.players)
            if pid not in event.present and pid not in event.withdrawn
        ]
        if not ids:
            ctx.print(_("Everyone registered is already checked in"))
            return 0
    elif not args.ids:
        raise CliError(N_("players check-in: give player ids or --all"))
    else:
        ids = [resolve_player(comp, text) for text in args.ids]
    admitted = comp.without_consent(ids) if args.admit_minors else []
    try:
        org.check_in(ids, admit_minors=args.admit_minors)
    except ConsentMissingError as err:
        raise CliError(N_("{error}; to admit them: --admit-minors"), error=err) from None
    _admitted_line(ctx, admitted)
    ctx.print(
        _("Checked in {n}: {ids}; {present} present").format(
            n=len(ids), ids=", ".join(ids), present=len(org.competition.event.present)
        )
    )
    return 0


def cmd_players_late(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    pid = resolve_player(org.competition, args.id)
    admitted = org.competition.without_consent([pid]) if args.admit_minors else []
    try:
        org.late_arrival(pid, admit_minors=args.admit_minors)
    except ConsentMissingError as err:
        raise CliError(N_("{error}; to admit them: --admit-minors"), error=err) from None
    _admitted_line(ctx, admitted)
    ctx.print(late_line(ctx.words, org.competition.event.players[pid]))
    return 0


def _admitted_line(ctx: Ctx, admitted: Sequence[str]) -> None:
    if admitted:
        ctx.print(
            ctx.words.gettext(
                "Admitted without a guardian's written consent recorded (the organizer's "
                "decision, recorded): {ids}"
            ).format(ids=", ".join(admitted))
        )


def cmd_players_minor(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    if args.adult and args.consent:
        raise CliError(N_("players minor: give --consent or --adult, not both"))
    comp = org.competition
    ids = [resolve_player(comp, text) for text in args.ids]
    org.record_minor(ids, minor=not args.adult, consent=args.consent, why=args.why or "")
    ctx.print(minor_line(ctx.words, ids, adult=args.adult, consent=args.consent))
    return 0


def cmd_players_withdraw(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    pid = resolve_player(org.competition, args.id)
    reason = " ".join(args.reason.split())
    org.withdraw(pid, reason)
    ctx.print(withdrawn_line(ctx.words, org.competition.event.players[pid], reason))
    return 0


def cmd_players_seeds(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    _ = ctx.words.gettext
    comp = org.competition
    ids = [resolve_player(comp, text) for text in args.ids]
    org.declare_seeds(ids)
    names = ", ".join(f"{pid} {comp.event.players[pid].name}" for pid in ids)
    ctx.print(_("Seeds (best first): {names}").format(names=names))
    ctx.print(
        _("Seeding: {statement}").format(
            statement=seeding_text(org.competition, len(ids)).message(_)
        )
    )
    return 0


def cmd_players_history(ctx: Ctx, args: argparse.Namespace) -> int:
    comp = ctx.competition()
    w = ctx.words
    pid = resolve_player(comp, args.id)
    event = comp.event
    player = event.players[pid]
    status = status_word(status_of(event, pid), w, player.grammatical_gender)
    ctx.print(f"{pid} {player.name}" + (f", {player.club}" if player.club else "") + f": {status}")
    ctx.print(render(player_stages_grid(comp, pid, w), w))
    ctx.print(render(player_games_grid(comp, pid, w), w))
    if comp.numbered_sanctions(pid):
        ctx.print(render(sanctions_grid(comp, pid, words=w), w))
    else:
        ctx.print(w.gettext("No sanctions"))
    if comp.changes_of(pid):
        ctx.print(render(player_changes_grid(comp, pid, words=w), w))
    return 0


def cmd_players_rename(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    pid = resolve_player(org.competition, args.id)
    if args.club is not None and args.no_club:
        raise CliError(N_("players rename: give --club or --no-club, not both"))
    change = org.change_player(
        pid,
        why=args.why,
        name=args.name,
        given=args.given,
        surname=args.surname,
        club=args.club,
        clear_club=args.no_club,
        league_number=args.league_number,
        gender=args.gender,
    )
    after = change.after
    w = ctx.words
    ctx.print(*change_lines(w, change))
    ctx.print(
        w.gettext(
            "Surname {surname}, given name {given}, gender: {gender}; recorded {at} by {by}: "
            "{why}"
        ).format(
            surname=quoted(after.family_name).message(w.gettext),
            given=quoted(after.given_name).message(w.gettext),
            gender=gender_word(w, after.grammatical_gender),
            at=when(change.record.at),
            by=change.record.by or "-",
            why=change.record.why,
        )
    )
    return 0
