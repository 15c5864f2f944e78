"""What registering players says, the same on the command line and the web console: one
player added, a players file imported, a player's details corrected (in the reader's
language)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from hub.competition import PlayerChange
from hub.exports.lists import change_details
from hub.exports.words import gender_word
from hub.players_csv import CsvImport
from hub.tournament import Player
from tablekit.core.gender import Gender, gendered
from tablekit.core.words import NP_
from tablekit.shared.i18n import Words

# Translators: one player registered, said of a woman, of a man and without gender
_REGISTERED: Final = gendered(
    NP_("said of a woman", "{who} registered"),
    NP_("said of a man", "{who} registered"),
    NP_("said without gender", "{who} registered"),
)
_CHECKED_IN: Final = gendered(
    NP_("said of a woman", "{who} registered and checked in"),
    NP_("said of a man", "{who} registered and checked in"),
    NP_("said without gender", "{who} registered and checked in"),
)
_LATE: Final = gendered(
    NP_("said of a woman", "{who} registered, a late arrival: plays from the next draw"),
    NP_("said of a man", "{who} registered, a late arrival: plays from the next draw"),
    NP_("said without gender", "{who} registered, a late arrival: plays from the next draw"),
)


def added_line(words: Words, player: Player, late: bool, check_in: bool) -> str:
    """One player registered (``late``: recorded as a late arrival), in words that agree
    with the player's gender."""
    who = f"{player.id}  {player.name}" + (f" ({player.club})" if player.club else "")
    if player.league_number:
        who += ", " + words.gettext("league number {number}").format(number=player.league_number)
    said = _LATE if late else _CHECKED_IN if check_in else _REGISTERED
    line = words.gendered(said, player.grammatical_gender).format(who=who)
    if player.gender is None:
        line += words.gettext(" ({gender}: from the given name)").format(
            gender=gender_word(words, player.grammatical_gender)
        )
    return line


# Translators: a player arrived after the first draw, said of a woman, of a man and without
# gender
_ARRIVED_LATE: Final = gendered(
    NP_("said of a woman", "{id} arrived late: joins the next round drawn for everyone present"),
    NP_("said of a man", "{id} arrived late: joins the next round drawn for everyone present"),
    NP_("said without gender",
        "{id} arrived late: joins the next round drawn for everyone present"),
)
# Translators: a player left the event, said of a woman, of a man and without gender
_WITHDRAWN: Final = gendered(
    NP_("said of a woman", "{id} withdrawn ({reason}): not drawn again; results already "
        "played stay"),
    NP_("said of a man", "{id} withdrawn ({reason}): not drawn again; results already "
        "played stay"),
    NP_("said without gender", "{id} withdrawn ({reason}): not drawn again; results "
        "already played stay"),
)


def late_line(words: Words, player: Player) -> str:
    """A player recorded as arriving after the first draw."""
    return words.gendered(_ARRIVED_LATE, player.grammatical_gender).format(id=player.id)


def withdrawn_line(words: Words, player: Player, reason: str) -> str:
    """A player withdrawn from the event, for ``reason``."""
    said = words.gendered(_WITHDRAWN, player.grammatical_gender)
    return said.format(id=player.id, reason=reason)


def minor_line(words: Words, ids: Sequence[str], *, adult: bool, consent: bool) -> str:
    """Players recorded as of age, or as minors with or without a guardian's written
    consent (in words that fit any player: *osoba niepełnoletnia*)."""
    _ = words.gettext
    one = len(ids) == 1
    if adult:
        said = _("Of age: {ids}") if one else _("Of age ({n}): {ids}")
    elif consent:
        said = (
            _("Minor, a guardian's written consent received: {ids}")
            if one
            else _("Minors ({n}), a guardian's written consent received: {ids}")
        )
    else:
        said = (
            _("Minor, no guardian's written consent yet: {ids}; the kit asks at the check-in "
              "and the draw")
            if one
            else _("Minors ({n}), no guardian's written consent yet: {ids}; the kit asks at "
                   "the check-in and the draw")
        )
    return said.format(ids=", ".join(ids), n=len(ids))


def genders_line(words: Words, players: Sequence[Player]) -> str | None:
    """How many of ``players`` have each gender, and how many were proposed from the
    given name (the organizer checks those); None when every gender was given."""
    proposed = [p for p in players if p.gender is None]
    if not proposed:
        return None
    counts = {g: sum(1 for p in proposed if p.grammatical_gender is g) for g in Gender}
    neutral = [p.name for p in proposed if p.grammatical_gender is Gender.NEUTRAL]
    names = f" ({', '.join(neutral[:12])}{', …' if len(neutral) > 12 else ''})" if neutral else ""
    return words.gettext(
        "Gender proposed from the given name for {n}: female {female}, male {male}, without "
        "gender {neutral}{names}; the titles and the words about each player agree with it: "
        "check it in the players list"
    ).format(n=len(proposed), female=counts[Gender.FEMALE], male=counts[Gender.MALE],
             neutral=counts[Gender.NEUTRAL], names=names)


def change_lines(words: Words, change: PlayerChange) -> list[str]:
    """A correction of a player's details: the name and club before and after (with the
    gender when it changed), and the league number's change when it changed."""
    before, after = change.before, change.after
    shown = change_details(before, after, words)
    lines = [f"{after.id}: {shown[0]} → {shown[1]}"]
    if before.league_number != after.league_number:
        none = words.gettext("none")
        lines.append(words.gettext("League number: {before} → {after}").format(
            before=before.league_number or none, after=after.league_number or none))
    return lines


def minors_of(parsed: CsvImport, players: Sequence[Player]) -> dict[str, bool]:
    """The players a file marks minor, by the id they are registered under, with whether a
    guardian's written consent is received (``players`` in the file's order)."""
    return {
        player.id: row.consent
        for row, player in zip(parsed.players, players, strict=True)
        if row.minor
    }


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
    genders = genders_line(words, players)
    if genders is not None:
        lines.append(genders)
    if parsed.ignored_columns:
        lines.append(
            _("Ignored columns: {columns}").format(columns=", ".join(parsed.ignored_columns))
        )
    if parsed.surname_comma:
        lines.append(
            _("Names written 'Surname, Given' were read surname first ('Kowalski, Jan' is "
              "Jan Kowalski): {lines}").format(lines=lines_text(parsed.surname_comma, words))
        )
    minors = minors_of(parsed, players)
    if minors:
        without = [pid for pid, consent in minors.items() if not consent]
        lines.append(words.ngettext(
            "Marked minor: {n} player; a guardian's written consent received for {consent}",
            "Marked minor: {n} players; a guardian's written consent received for {consent}",
            len(minors),
        ).format(n=len(minors), consent=len(minors) - len(without)))
        if without and check_in:
            lines.append(_(
                "Not checked in, marked minor without a guardian's written consent: {ids}; "
                "record the consent or admit them on the players page"
            ).format(ids=", ".join(without)))
    if parsed.long_rows:
        lines.append(
            _("More cells than the header's {columns}, the extra ones left out: {lines}; check "
              "these players (a comma in a name splits it in a comma-separated file unless "
              "the name is in quotes)").format(
                columns=parsed.columns, lines=lines_text(parsed.long_rows, words)
            )
        )
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
