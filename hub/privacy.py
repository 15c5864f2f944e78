"""How the public reads a player's name: the event's privacy setting (pure: no I/O).

Every page a player opens without a login (find your table, the standings, the tables
live, a player's own page), the hub screen in the hall and the exports for publication
name a player by :func:`public_name`: the full name, or the given name and the surname's
initial ("Anna K.") — for everyone when the organizer chose :attr:`NameShown.INITIAL`,
and for every player marked minor whatever the setting (003 §8, 004's school contest of
children); a player marked minor is shown without a club too (a pupil's school would
tell who "Magda M." is). The organizer's own pages, the command line and the archive keep
the full names and clubs. After the personal data is erased every name is the player's id.

:func:`published` is the event with every player so named: a page or an export made from
it shows nothing else, and it adds no rule (its standings, seating and results are the
event's, by id).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from hub.competition import Competition, NameShown
from hub.tournament import Player
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


NAME_SHOWN_WORDS: Final[Mapping[NameShown, str]] = {
    NameShown.FULL: N_(
        "full names; players marked minor as given name and initial, without their club"
    ),
    NameShown.INITIAL: N_("everyone as given name and initial"),
}
"""Each privacy setting as the organizer reads it (translated where it is shown)."""
