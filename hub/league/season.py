"""The league season over its tournaments, person by person (pure: no I/O).

003: a tournament's points go to its places (``hub.tournament.league``: participants + 1
for the winner, at most 17, none from the 17th place on — the ruling of 2026-11-28);
the season table sums each person's points over the finished tournaments; level
players are ranked by the number of starts (more starts ranks higher, a parameter),
and those still level share the place. The people are :mod:`hub.league.identity`'s.

The Polish championship ticket (003 §6): the season's winner gets it; a winner who
already holds one passes it to the next in the table. Who holds one already is the
league's parameter; a shared place where the ticket falls is left to the league
organizer, said, never drawn.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from hub.league.identity import Decision, Entry, Identities, resolve
from hub.tournament import season_table
from hub.tournament.league import SEEDED_PER_TOURNAMENT
from tablekit.core.names import name_order


@dataclass(frozen=True)
class Counted:
    """A finished league tournament as the season counts it."""

    key: str
    """Its :func:`~hub.league.identity.tournament_key`."""
    name: str
    created: float
    """When it was created: the season's order of tournaments."""
    entries: tuple[Entry, ...]
    """Its participants, by player id."""
    points: Mapping[str, int]
    """League points by player id."""


@dataclass(frozen=True)
class SeasonLine:
    place: int
    person: str
    name: str
    club: str | None
    number: str
    """The league number ("" when the person has none)."""
    points: int
    starts: int
    per_tournament: tuple[int | None, ...]
    """Points in each tournament in the season's order (None: did not start)."""


@dataclass(frozen=True)
class Ticket:
    """Who gets the Polish championship ticket (003 §6)."""

    person: str | None
    """None while the place it falls to is shared (the league organizer decides)."""
    level: tuple[str, ...] = ()
    """The people sharing that place, when it is shared."""
    passed: tuple[str, ...] = ()
    """Better-placed people who hold a ticket already (it passes them by)."""


@dataclass(frozen=True)
class Season:
    tournaments: tuple[Counted, ...]
    identities: Identities
    lines: tuple[SeasonLine, ...]

    def seeds(self, present: Collection[str], k: int = SEEDED_PER_TOURNAMENT) -> list[str]:
        """The best ``k`` people of the table among ``present`` (people), best first."""
        return [line.person for line in self.lines if line.person in present][:k]

    def ticket(self, holders: Collection[str] = ()) -> Ticket | None:
        """The ticket's person (``holders``: people or league numbers holding one
        already); None before any tournament counts."""
        passed = []
        for i, line in enumerate(self.lines):
            if line.person in holders or (line.number and line.number in holders):
                passed.append(line.person)
                continue
            level = tuple(
                other.person for other in self.lines[i:]
                if other.place == line.place
                and other.person not in holders and other.number not in holders
            )
            if len(level) > 1:
                return Ticket(None, level, tuple(passed))
            return Ticket(line.person, (), tuple(passed))
        return None


def fold_season(
    tournaments: Sequence[Counted],
    decisions: Sequence[Decision] = (),
    *,
    more_starts_ranks_higher: bool = True,
) -> Season:
    """The season table over ``tournaments`` (ordered here by when each was created)."""
    ordered = tuple(sorted(tournaments, key=lambda t: (t.created, t.key)))
    entries = [e for t in ordered for e in sorted(t.entries, key=lambda e: e.player)]
    identities = resolve(entries, decisions)
    latest: dict[str, Entry] = {}
    for entry in entries:
        latest[identities.person(entry)] = entry
    points = [
        {identities.person_of[f"{t.key}/{pid}"]: pts for pid, pts in t.points.items()}
        for t in ordered
    ]
    rows = season_table(
        points,
        more_starts_ranks_higher=more_starts_ranks_higher,
        order=lambda person: name_order(latest[person].name, latest[person].surname),
    )
    lines = tuple(
        SeasonLine(
            row.place, row.player_id, latest[row.player_id].name, latest[row.player_id].club,
            _number(row.player_id), row.points, row.starts,
            tuple(p.get(row.player_id) for p in points),
        )
        for row in rows
    )
    return Season(ordered, identities, lines)


def _number(person: str) -> str:
    return person.removeprefix("nr ") if person.startswith("nr ") else ""

