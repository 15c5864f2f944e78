"""How the public reads a player's name: the event's privacy setting (pure: no I/O).

Every page a player opens without a login (find your table, the standings, the tables
live, a player's own page), the hub screen in the hall and the exports for publication
name a player by :func:`public_name`: the full name, or the given name and the surname's
initial ("Anna K.") — for everyone when the organizer chose :attr:`NameShown.INITIAL`,
and for every player marked minor whatever the setting (003 §8, 004's school contest of
children); a player marked minor is shown without a club too (a pupil's school would
tell who "Magda M." is). The organizer's own pages, the command line and the archive keep
the full names and clubs. After the personal data is erased every name is the player's id.

A league season names each person as the most private of their tournaments names them
(:func:`public_people`): the central's pages, the season table it sends down to every
venue and the season's export for publication (:func:`published_season`).

:func:`published` is the event with every player so named: a page or an export made from
it shows nothing else, and it adds no rule (its standings, seating and results are the
event's, by id).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Final

from hub.competition import Competition, NameShown
from hub.league.identity import Entry
from hub.league.season import Season
from hub.tournament import Player
from tablekit.core.names import match_key
from tablekit.core.words import N_


def initial_name(player: Player) -> str:
    """The given name and the surname's initial: "Anna K.", "Jan Maria d." ("K." for a
    name of one word)."""
    given, surname = player.given_name, player.family_name
    initial = f"{surname[:1]}." if surname else ""
    return " ".join(part for part in (given, initial) if part)


def hides_surname(comp: Competition, player_id: str) -> bool:
    """Whether the public reads ``player_id`` as given name and initial."""
    if comp.erased is not None:
        return False  # the name is the id already
    return comp.names_shown is NameShown.INITIAL or comp.is_minor(player_id)


def public_name(comp: Competition, player_id: str) -> str:
    """The player's name as the public reads it (see the module); the id itself for a
    player the event does not know."""
    player = comp.event.players.get(player_id)
    if player is None:
        return player_id
    return initial_name(player) if hides_surname(comp, player_id) else player.name


def public_club(comp: Competition, player_id: str) -> str | None:
    """The player's club as the public reads it: none for a player marked minor."""
    player = comp.event.players.get(player_id)
    if player is None or (comp.erased is None and comp.is_minor(player_id)):
        return None
    return player.club


def published(comp: Competition) -> Competition:
    """``comp`` with every player named as the public reads them (:func:`public_name`,
    :func:`public_club`), and without the name corrections of those whose surname is
    hidden: what the public
    pages, the hub screen and the exports for publication are made from. ``comp`` itself
    when every name is public already (nothing copied)."""
    if comp.state is None:
        return comp
    players = comp.state.players
    hidden = {pid: p for pid, p in players.items() if hides_surname(comp, pid)}
    if not hidden:
        return comp
    renamed = {
        pid: Player(pid, initial_name(p), public_club(comp, pid), p.rating,
                    gender=p.grammatical_gender)
        for pid, p in hidden.items()
    }
    out = comp.apply_all(())  # a copy: its lists and maps are its own
    out.state = comp.state.renamed(renamed)
    out.player_changes = [c for c in comp.player_changes if c.after.id not in hidden]
    return out


def public_people(
    season: Season, comps: Mapping[str, Competition], others: Sequence[Competition] = ()
) -> dict[str, tuple[str, str | None]]:
    """Each person's (name, club) as the public reads them: the latest entry's, with the
    surname hidden when any of the person's tournaments hides it, and the club hidden for
    a person marked minor in any tournament of the league, finished (``comps``: by the
    season's tournament key) or not yet counted (``others``: matched by league number,
    else by name) — as a venue's public pages show a minor without a club."""
    latest: dict[str, Entry] = {}
    hidden_name: set[str] = set()
    hidden_club: set[str] = set()
    for tournament in season.tournaments:
        comp = comps[tournament.key]
        for entry in tournament.entries:
            person = season.identities.person(entry)
            latest[person] = entry
            if hides_surname(comp, entry.player):
                hidden_name.add(person)
            if public_club(comp, entry.player) is None and entry.club:
                hidden_club.add(person)
    by_number = {entry.number: person for person, entry in latest.items() if entry.number}
    by_name: dict[str, set[str]] = {}
    for person, entry in latest.items():
        by_name.setdefault(match_key(entry.name), set()).add(person)
    for comp in others:
        for pid, player in comp.event.players.items() if comp.state is not None else ():
            if comp.erased is not None or not comp.is_minor(pid):
                continue
            number = player.league_number
            people = {by_number[number]} if number in by_number else by_name.get(
                match_key(player.name), set())
            hidden_name |= people
            hidden_club |= people
    out = {}
    for person, entry in latest.items():
        player = Player(entry.player, entry.name, entry.club, surname=entry.surname)
        name = initial_name(player) if person in hidden_name else entry.name
        out[person] = (name, None if person in hidden_club else entry.club)
    return out


def published_season(
    season: Season, comps: Mapping[str, Competition], others: Sequence[Competition] = ()
) -> Season:
    """``season`` with every line named as the public reads the person
    (:func:`public_people`); its standings and league numbers unchanged."""
    people = public_people(season, comps, others)
    lines = tuple(
        replace(line, name=people[line.person][0], club=people[line.person][1])
        for line in season.lines
    )
    return replace(season, lines=lines)


NAME_SHOWN_WORDS: Final[Mapping[NameShown, str]] = {
    NameShown.FULL: N_(
        "full names; players marked minor as given name and initial, without their club"
    ),
    NameShown.INITIAL: N_("everyone as given name and initial"),
}
"""Each privacy setting as the organizer reads it (translated where it is shown)."""
