"""Commands on players: register, import, check in, late arrivals, withdrawals, seeds, a
player's history, name corrections."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from hub.cli.common import CliError, Ctx, render, resolve_player, when
from hub.exports.lists import player_changes_grid, player_details, players_grid, sanctions_grid
from hub.exports.results import player_games_grid
from hub.exports.standings import player_stages_grid
from hub.players_csv import MAX_NAME, clean, new_players, player_key, read_players_csv
from hub.season import seeding_text
from hub.tournament import Player
from tablekit.core.names import check_surname


def cmd_players_add(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    comp = org.competition
    try:
        name = clean(args.name)
        surname = clean(args.surname) if args.surname else ""
        club = clean(args.club, "club") if args.club else None
        check_surname(name, surname)
    except ValueError as err:
        raise CliError(f"players add: {err}") from None
    if not name:
        raise CliError("players add: the name is empty")
    if len(name) > MAX_NAME:
        raise CliError(f"players add: the name is longer than {MAX_NAME} characters")
    key = player_key(name, club)
    for player in comp.event.players.values():
        if player_key(player.name, player.club) == key:
            raise CliError(
                f"players add: duplicate player {name!r}"
                + (f" ({club})" if club else "")
                + f": already registered as {player.id}"
            )
    player = Player(org.next_player_id(), name, club, args.rating, surname=surname)
    late = org.register([player], check_in=args.check_in)
    ctx.print(
        f"{player.id}  {name}"
        + (f" ({club})" if club else "")
        + (
            " registered, a late arrival: plays from the next draw"
            if late
            else " registered and checked in"
            if args.check_in
            else " registered"
        )
    )
    return 0


def cmd_players_import(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    source = args.file.absolute()
    parsed = read_players_csv(source, args.encoding)
    players = new_players(
        parsed.players, org.competition.event.players, org.next_player_id, str(source)
    )
    late = org.register(players, check_in=args.check_in)
    ctx.print(
        f"Imported {len(players)} players from {args.file.absolute()} "
        f"({players[0].id}–{players[-1].id})"
        + (
            ", late arrivals: they play from the next draw"
            if late
            else ", checked in"
            if args.check_in
            else ""
        )
    )
    how = "as given" if args.encoding else "detected; --encoding ENCODING to read it otherwise"
    ctx.print(f"Read as {parsed.encoding_label} ({how})")
    if parsed.ignored_columns:
        ctx.print(f"Ignored columns: {', '.join(parsed.ignored_columns)}")
    if parsed.surname_comma:
        ctx.print(
            "Names written 'Surname, Given' were read surname first ('Kowalski, Jan' is "
            f"Jan Kowalski): {_lines_text(parsed.surname_comma)}"
        )
    if parsed.long_rows:
        ctx.print(
            f"More cells than the header's {parsed.columns}, the extra ones left out: "
            f"{_lines_text(parsed.long_rows)}; check these players (a comma in a name "
            "splits it in a comma-separated file unless the name is in quotes)"
        )
    return 0


def _lines_text(lines: Sequence[int], shown: int = 12) -> str:
    """``line 4`` or ``lines 2, 5, 9`` (the first ``shown``, then how many more)."""
    more = f" and {len(lines) - shown} more" if len(lines) > shown else ""
    listed = ", ".join(str(n) for n in lines[:shown])
    return f"line{'s' if len(lines) > 1 else ''} {listed}{more}"


def cmd_players_list(ctx: Ctx, args: argparse.Namespace) -> int:
    ctx.print(render(players_grid(ctx.competition())))
    return 0


def cmd_players_check_in(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    comp = org.competition
    event = comp.event
    if args.all:
        if args.ids:
            raise CliError("players check-in: give player ids or --all, not both")
        ids = [
            pid
            for pid in sorted(event.players)
            if pid not in event.present and pid not in event.withdrawn
        ]
        if not ids:
            ctx.print("Everyone registered is already checked in")
            return 0
    elif not args.ids:
        raise CliError("players check-in: give player ids or --all")
    else:
        ids = [resolve_player(comp, text) for text in args.ids]
    org.check_in(ids)
    ctx.print(
        f"Checked in {len(ids)}: {', '.join(ids)}; {len(org.competition.event.present)} present"
    )
    return 0


def cmd_players_late(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    pid = resolve_player(org.competition, args.id)
    org.late_arrival(pid)
    ctx.print(f"{pid} arrived late: joins the next round drawn for everyone present")
    return 0


def cmd_players_withdraw(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    pid = resolve_player(org.competition, args.id)
    reason = args.reason.strip()
    if not reason:
        raise CliError("players withdraw: --reason is empty")
    org.withdraw(pid, reason)
    ctx.print(f"{pid} withdrawn ({reason}): not drawn again; results already played stay")
    return 0


def cmd_players_seeds(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    comp = org.competition
    ids = [resolve_player(comp, text) for text in args.ids]
    org.declare_seeds(ids)
    names = ", ".join(f"{pid} {comp.event.players[pid].name}" for pid in ids)
    ctx.print(f"Seeds (best first): {names}")
    ctx.print(f"Seeding: {seeding_text(org.competition, len(ids))}")
    return 0


def cmd_players_history(ctx: Ctx, args: argparse.Namespace) -> int:
    comp = ctx.competition()
    pid = resolve_player(comp, args.id)
    event = comp.event
    player = event.players[pid]
    status = (
        "disqualified" if pid in event.disqualified
        else "withdrawn" if pid in event.withdrawn
        else "present" if pid in event.present
        else "registered"
    )
    ctx.print(f"{pid} {player.name}" + (f", {player.club}" if player.club else "") + f": {status}")
    ctx.print(render(player_stages_grid(comp, pid)))
    ctx.print(render(player_games_grid(comp, pid)))
    if comp.numbered_sanctions(pid):
        ctx.print(render(sanctions_grid(comp, pid)))
    else:
        ctx.print("No sanctions")
    if comp.changes_of(pid):
        ctx.print(render(player_changes_grid(comp, pid)))
    return 0


def cmd_players_rename(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    pid = resolve_player(org.competition, args.id)
    if args.club is not None and args.no_club:
        raise CliError("players rename: give --club or --no-club, not both")
    change = org.change_player(
        pid,
        why=args.why,
        name=args.name,
        given=args.given,
        surname=args.surname,
        club=args.club,
        clear_club=args.no_club,
    )
    before, after = change.before, change.after
    ctx.print(f"{pid}: {player_details(before)} → {player_details(after)}")
    ctx.print(
        f"Surname {after.family_name!r}, given name {after.given_name!r}; "
        f"recorded {when(change.record.at)} by {change.record.by or '-'}: {change.record.why}"
    )
    return 0
