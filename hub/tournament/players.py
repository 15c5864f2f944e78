"""Players and registration-list helpers (no I/O: CSV import lives elsewhere)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Final, Protocol, TypeVar

import msgspec

from hub.tournament.errors import DuplicatePlayerError, LeagueNumberError
from tablekit.core.errors import Phrase, quoted
from tablekit.core.gender import Gender, propose
from tablekit.core.names import NameKey, name_order, split_name
from tablekit.core.words import N_


class Player(msgspec.Struct, frozen=True):
    """A registered player.

    ``rating`` is whatever orders players for seeding: a rating, or the current season's
    league points. ``None`` means unrated (ranked after every rated player).

    ``name`` is written given name(s) first; ``surname`` is its end that is the surname
    ("" — as in records of hub versions before it existed — means the last word; see
    :mod:`tablekit.core.names`).

    ``league_number`` is the number the league gives the player (:func:`league_number`):
    the same number in two tournaments is the same person in the season table
    (:mod:`hub.league.identity`); "" when none was given.

    ``gender`` is the grammatical gender the players file or the organizer gave (the words
    about the player agree with it: *Mistrzyni*, *obecna*); None — not given, as in
    records of hub versions before it existed — means the one :func:`propose` finds in
    the given name (:attr:`grammatical_gender`).
    """

    id: str
    name: str
    club: str | None = None
    rating: float | None = None
    surname: str = ""
    league_number: str = ""
    gender: Gender | None = None

    @property
    def given_name(self) -> str:
        return split_name(self.name, self.surname)[0]

    @property
    def family_name(self) -> str:
        return split_name(self.name, self.surname)[1]

    @property
    def grammatical_gender(self) -> Gender:
        """The gender the words about the player agree with: the one given, else the one
        proposed from the given name."""
        return self.gender if self.gender is not None else propose(self.given_name)


MAX_LEAGUE_NUMBER: Final = 20
_LEAGUE_NUMBER = re.compile(r"[0-9A-Z][0-9A-Z./-]*")


def league_number(text: str) -> str:
    """A league number as stored: upper case, no blanks around it; "" for a blank one.
    LeagueNumberError (a ValueError) naming it for anything but 1-20 letters, digits,
    ``-``, ``/`` or ``.`` starting with a letter or digit."""
    number = text.strip().upper()
    if number and not (
        len(number) <= MAX_LEAGUE_NUMBER and _LEAGUE_NUMBER.fullmatch(number)
    ):
        raise LeagueNumberError(
            N_("league number {number}: at most {most} letters, digits, '-', '/' or '.', "
               "starting with a letter or digit"),
            number=quoted(text.strip()), most=MAX_LEAGUE_NUMBER,
        )
    return number


def player_order(player: Player) -> tuple[NameKey, str]:
    """The order of every list of people: surname, then given name, Polish order (then id)."""
    return (name_order(player.name, player.surname), player.id)


class Placed(Protocol):
    @property
    def place(self) -> int: ...

    @property
    def player_id(self) -> str: ...


PlacedT = TypeVar("PlacedT", bound=Placed)


def ties_by_name(rows: Iterable[PlacedT], players: Mapping[str, Player]) -> list[PlacedT]:
    """Standings or ranking rows as printed and shown: by place, players sharing a place
    by surname, then given name (:func:`player_order`). Display only: the core breaks
    ties where they matter by its own rules, never by this order."""

    def key(row: PlacedT) -> tuple[int, tuple[NameKey, str]]:
        player = players.get(row.player_id) or Player(row.player_id, row.player_id)
        return (row.place, player_order(player))

    return sorted(rows, key=key)


def index_players(players: Iterable[Player]) -> dict[str, Player]:
    """Players keyed by id, in input order; a repeated id is an error naming it."""
    out: dict[str, Player] = {}
    for player in players:
        if not player.id:
            raise DuplicatePlayerError(
                N_("players: empty player id for {name!r}"), name=player.name
            )
        if player.id in out:
            raise DuplicatePlayerError(
                N_("players: player id {player!r} registered twice"), player=player.id
            )
        out[player.id] = player
    return out


def require_distinct(ids: Sequence[str], what: Phrase) -> None:
    """Raise :class:`DuplicatePlayerError` naming the first id that appears twice."""
    seen: set[str] = set()
    for pid in ids:
        if pid in seen:
            raise DuplicatePlayerError(
                N_("{what}: player {player!r} appears twice"), what=what, player=pid
            )
        seen.add(pid)


def by_rating(players: Iterable[Player], rng: random.Random) -> list[Player]:
    """Players ordered by rating, highest first; unrated last; equal ratings by lot."""
    pool = sorted(players, key=lambda p: p.id)
    lots = {p.id: rng.random() for p in pool}
    return sorted(
        pool,
        key=lambda p: (p.rating is None, -(p.rating or 0.0), lots[p.id]),
    )
