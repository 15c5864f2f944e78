"""Commands on players: register, import, check in, late arrivals, withdrawals, seeds, a
player's history, name corrections."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from hub.cli.common import CliError, Ctx, render, resolve_player, when
from hub.exports.lists import player_changes_grid, player_details, players_grid, sanctions_grid
from hub.exports.results import player_games_grid
from hub.exports.standings import player_stages_grid
from hub.organizer import ConsentMissingError
from hub.players_csv import MAX_NAME, clean, new_players, player_key, read_players_csv
from hub.season import seeding_text
from hub.tournament import Player
from tablekit.core.errors import KitError
from tablekit.core.names import check_surname
from tablekit.core.words import N_
from tablekit.shared.i18n import Words


def _reason(err: ValueError) -> KitError | str:
    """A refused value's reason, translated where it is a kit error."""
    return err if isinstance(err, KitError) else str(err)


def cmd_players_add(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    _ = ctx.words.gettext
    comp = org.competition
    try:
        name = clean(args.name)
        surname = clean(args.surname) if args.surname else ""
        club = clean(args.club, "club") if args.club else None
        check_surname(name, surname)
    except ValueError as err:
        raise CliError(N_("players add: {error}"), error=_reason(err)) from None
    if not name:
        raise CliError(N_("players add: the name is empty"))
    if len(name) > MAX_NAME:
        raise CliError(
            N_("players add: the name is longer than {most} characters"), most=MAX_NAME
        )
    key = player_key(name, club)
    for player in comp.event.players.values():
        if player_key(player.name, player.club) == key:
            who = f"{name!r}" + (f" ({club})" if club else "")
            raise CliError(
                N_("players add: duplicate player {who}: already registered as {id}"),
                who=who,
                id=player.id,
            )
    player = Player(org.next_player_id(), name, club, args.rating, surname=surname)
    late = org.register([player], check_in=args.check_in)
    who = f"{player.id}  {name}" + (f" ({club})" if club else "")
    if late:
        ctx.print(_("{who} registered, a late arrival: plays from the next draw").format(who=who))
    elif args.check_in:
        ctx.print(_("{who} registered and checked in").format(who=who))
    else:
        ctx.print(_("{who} registered").format(who=who))
    return 0


def cmd_players_import(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    w = ctx.words
    _ = w.gettext
    source = args.file.absolute()
    parsed = read_players_csv(source, args.encoding)
    players = new_players(
        parsed.players, org.competition.event.players, org.next_player_id, str(source)
    )
    late = org.register(players, check_in=args.check_in)
    imported = w.ngettext(
        "Imported {n} player from {file} ({first}–{last})",
        "Imported {n} players from {file} ({first}–{last})",
        len(players),
    ).format(n=len(players), file=source, first=players[0].id, last=players[-1].id)
    if late:
        imported += _(", late arrivals: they play from the next draw")
    elif args.check_in:
        imported += _(", checked in")
    ctx.print(imported)
    if args.encoding:
        ctx.print(_("Read as {encoding} (as given)").format(encoding=parsed.encoding_label))
    else:
        ctx.print(
            _("Read as {encoding} (detected; --encoding ENCODING to read it otherwise)").format(
                encoding=parsed.encoding_label
            )
        )
    if parsed.ignored_columns:
        ctx.print(
            _("Ignored columns: {columns}").format(columns=", ".join(parsed.ignored_columns))
        )
    if parsed.surname_comma:
        ctx.print(
            _("Names written 'Surname, Given' were read surname first ('Kowalski, Jan' is "
              "Jan Kowalski): {lines}").format(lines=_lines_text(parsed.surname_comma, w))
        )  # fmt: skip
    if parsed.long_rows:
        ctx.print(
            _("More cells than the header's {columns}, the extra ones left out: {lines}; check "
              "these players (a comma in a name splits it in a comma-separated file unless "
              "the name is in quotes)").format(
                columns=parsed.columns, lines=_lines_text(parsed.long_rows, w)
            )
        )  # fmt: skip
    return 0


def _lines_text(lines: Sequence[int], words: Words, shown: int = 12) -> str:
    """``line 4`` or ``lines 2, 5, 9`` (the first ``shown``, then how many more)."""
    listed = ", ".join(str(n) for n in lines[:shown])
    if len(lines) == 1:  # a list: "wiersze 2, 5, 9" in Polish whatever its length
        text = words.gettext("line {lines}").format(lines=listed)
    else:
        text = words.gettext("lines {lines}").format(lines=listed)
    if len(lines) > shown:
        text += words.gettext(" and {n} more").format(n=len(lines) - shown)
    return text


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
    ctx.print(
        ctx.words.gettext(
            "{id} arrived late: joins the next round drawn for everyone present"
        ).format(id=pid)
    )
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
    _ = ctx.words.gettext
    if args.adult and args.consent:
        raise CliError(N_("players minor: give --consent or --adult, not both"))
    comp = org.competition
    ids = [resolve_player(comp, text) for text in args.ids]
    org.record_minor(ids, minor=not args.adult, consent=args.consent, why=args.why or "")
    listed = ", ".join(ids)
    if args.adult:
        ctx.print(_("Of age: {ids}").format(ids=listed))
    elif args.consent:
        ctx.print(
            _("Minor, a guardian's written consent received: {ids}").format(ids=listed)
        )
    else:
        ctx.print(
            _("Minor, no guardian's written consent yet: {ids}; the kit asks at the "
              "check-in and the draw").format(ids=listed)
        )  # fmt: skip
    return 0


def cmd_players_withdraw(ctx: Ctx, args: argparse.Namespace) -> int:
    org = ctx.organizer()
    pid = resolve_player(org.competition, args.id)
    reason = args.reason.strip()
    if not reason:
        raise CliError(N_("players withdraw: --reason is empty"))
    org.withdraw(pid, reason)
    ctx.print(
        ctx.words.gettext(
            "{id} withdrawn ({reason}): not drawn again; results already played stay"
        ).format(id=pid, reason=reason)
    )
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


PLAYER_STATUS_WORDS = {
    "disqualified": N_("disqualified"),
    "withdrawn": N_("withdrawn"),
    "present": N_("present"),
    "registered": N_("registered"),
}


def cmd_players_history(ctx: Ctx, args: argparse.Namespace) -> int:
    comp = ctx.competition()
    w = ctx.words
    pid = resolve_player(comp, args.id)
    event = comp.event
    player = event.players[pid]
    status = (
        "disqualified" if pid in event.disqualified
        else "withdrawn" if pid in event.withdrawn
        else "present" if pid in event.present
        else "registered"
    )  # fmt: skip
    ctx.print(
        f"{pid} {player.name}"
        + (f", {player.club}" if player.club else "")
        + f": {w.gettext(PLAYER_STATUS_WORDS[status])}"
    )
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
    )
    before, after = change.before, change.after
    ctx.print(f"{pid}: {player_details(before)} → {player_details(after)}")
    ctx.print(
        ctx.words.gettext(
            "Surname {surname}, given name {given}; recorded {at} by {by}: {why}"
        ).format(
            surname=repr(after.family_name),
            given=repr(after.given_name),
            at=when(change.record.at),
            by=change.record.by or "-",
            why=change.record.why,
        )
    )
    return 0
