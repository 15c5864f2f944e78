"""What registering players says, the same on the command line and the web console: one
player added, a players file imported, a player's details corrected (in the reader's
language)."""

from __future__ import annotations

from collections.abc import Sequence

from hub.competition import PlayerChange
from hub.exports.lists import player_details
from hub.players_csv import CsvImport
from hub.tournament import Player
from tablekit.shared.i18n import Words


def added_line(words: Words, player: Player, late: bool, check_in: bool) -> str:
    """One player registered (``late``: recorded as a late arrival)."""
    _ = words.gettext
    who = f"{player.id}  {player.name}" + (f" ({player.club})" if player.club else "")
    if player.league_number:
        who += ", " + _("league number {number}").format(number=player.league_number)
    if late:
        return _("{who} registered, a late arrival: plays from the next draw").format(who=who)
    if check_in:
        return _("{who} registered and checked in").format(who=who)
    return _("{who} registered").format(who=who)


def change_lines(words: Words, change: PlayerChange) -> list[str]:
    """A correction of a player's details: the name and club before and after, and the
    league number's change when it changed."""
    before, after = change.before, change.after
    lines = [f"{after.id}: {player_details(before)} → {player_details(after)}"]
    if before.league_number != after.league_number:
        none = words.gettext("none")
        lines.append(words.gettext("League number: {before} → {after}").format(
            before=before.league_number or none, after=after.league_number or none))  # fmt: skip
    return lines


def import_lines(
    words: Words,
    parsed: CsvImport,
    players: Sequence[Player],
    *,
    source: str,
    late: bool,
    check_in: bool,
    encoding_line: str,
) -> list[str]:
    """What an import did and what the organizer should check (``encoding_line``: how
    the file was read, said as the front end offers to read it otherwise)."""
    _ = words.gettext
    imported = words.ngettext(
        "Imported {n} player from {file} ({first}–{last})",
        "Imported {n} players from {file} ({first}–{last})",
        len(players),
    ).format(n=len(players), file=source, first=players[0].id, last=players[-1].id)
    if late:
        imported += _(", late arrivals: they play from the next draw")
    elif check_in:
        imported += _(", checked in")
    lines = [imported, encoding_line]
    if parsed.ignored_columns:
        lines.append(
            _("Ignored columns: {columns}").format(columns=", ".join(parsed.ignored_columns))
        )
    if parsed.surname_comma:
        lines.append(
            _("Names written 'Surname, Given' were read surname first ('Kowalski, Jan' is "
              "Jan Kowalski): {lines}").format(lines=lines_text(parsed.surname_comma, words))
        )  # fmt: skip
    if parsed.long_rows:
        lines.append(
            _("More cells than the header's {columns}, the extra ones left out: {lines}; check "
              "these players (a comma in a name splits it in a comma-separated file unless "
              "the name is in quotes)").format(
                columns=parsed.columns, lines=lines_text(parsed.long_rows, words)
            )
        )  # fmt: skip
    return lines


def lines_text(lines: Sequence[int], words: Words, shown: int = 12) -> str:
    """``line 4`` or ``lines 2, 5, 9`` (the first ``shown``, then how many more)."""
    listed = ", ".join(str(n) for n in lines[:shown])
    if len(lines) == 1:  # a list: "wiersze 2, 5, 9" in Polish whatever its length
        text = words.gettext("line {lines}").format(lines=listed)
    else:
        text = words.gettext("lines {lines}").format(lines=listed)
    if len(lines) > shown:
        text += words.gettext(" and {n} more").format(n=len(lines) - shown)
    return text
