"""What the central's pages show (pure: no I/O), live and in the static site alike.

Every tournament as the public reads it (:func:`hub.privacy.published`: the event's own
privacy setting, minors included), the season table with each person named as the most
private of their tournaments names them (a surname hidden in one tournament is hidden in
the season table too), the Polish championship ticket, and each person's season with
the informational rating (:mod:`hub.league.rating`). A person's page address is
:func:`slug` of the person.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from hub.competition import Competition
from hub.exports.grid import Grid
from hub.exports.results import results_grid
from hub.exports.standings import ranking_grid, standings_grid
from hub.league.rating import Played, Rating, season_ratings
from hub.league.season import Counted, Season, Ticket
from hub.privacy import public_people, published
from hub.tournament import EventPhase
from hub.tournament.standings import place_labels
from tablekit.core.errors import KitError
from tablekit.shared.i18n import Words


@dataclass(frozen=True)
class Tournament:
    """One venue's event as the central holds it."""

    venue: str
    event: str
    competition: Competition
    counted: Counted | None
    """How the season counts it; None while it cannot count (:attr:`why_not`)."""
    why_not: KitError | None

    @property
    def name(self) -> str:
        created = self.competition.created
        return created.name if created is not None else self.event



def slug(person: str) -> str:
    """A person's page name: ``nr-KRK-1`` for ``nr KRK-1``, ``3fa2…-P004`` for an entry."""
    return re.sub(r"[^A-Za-z0-9._-]", "-", person)


@dataclass(frozen=True)
class TournamentView:
    venue: str
    event: str
    name: str
    phase: EventPhase | None
    """None before the event's first record arrived."""
    public: Competition
    """As the public reads it."""
    counted: bool
    """Whether the season counts it (a finished league tournament)."""

    @property
    def page(self) -> str:
        return f"{self.venue}-{self.event}"


@dataclass(frozen=True)
class PublicLine:
    place: str
    """``2=`` for a shared place."""
    person: str
    slug: str
    name: str
    club: str | None
    points: int
    starts: int
    per_tournament: tuple[int | None, ...]
    rating: Rating | None


@dataclass(frozen=True)
class SeasonView:
    tournaments: tuple[TournamentView, ...]
    counted: tuple[str, ...]
    """The tournaments the season counts, in its order (their names)."""
    lines: tuple[PublicLine, ...]
    ticket: PublicLine | None
    """Who gets the Polish championship ticket (None: no tournament counts yet, or the
    place it falls to is shared: :attr:`ticket_level`)."""
    ticket_level: tuple[PublicLine, ...]
    ticket_passed: tuple[PublicLine, ...]
    open_questions: int

    def line(self, slug: str) -> PublicLine | None:
        return next((line for line in self.lines if line.slug == slug), None)


def tournament_view(t: Tournament) -> TournamentView:
    comp = t.competition
    phase = comp.event.phase if comp.state is not None else None
    return TournamentView(t.venue, t.event, t.name, phase, published(comp), t.counted is not None)


def season_view(
    tournaments: Sequence[Tournament], season: Season, holders: Collection[str] = ()
) -> SeasonView:
    """The season as the public reads it (see the module)."""
    views = tuple(tournament_view(t) for t in tournaments)
    by_key = {
        t.counted.key: (t.competition, view.public)
        for t, view in zip(tournaments, views, strict=True)
        if t.counted is not None
    }
    others = [t.competition for t in tournaments if t.counted is None]
    people = public_people(season, {key: comp for key, (comp, _) in by_key.items()}, others)
    ratings = season_ratings(
        Played(by_key[t.key][0], {e.player: season.identities.person(e) for e in t.entries})
        for t in season.tournaments
    )
    labels = place_labels([line.place for line in season.lines])
    lines = tuple(
        PublicLine(label, line.person, slug(line.person), *people[line.person], line.points,
                   line.starts, line.per_tournament, ratings.get(line.person))
        for label, line in zip(labels, season.lines, strict=True)
    )
    by_person = {line.person: line for line in lines}
    ticket: Ticket | None = season.ticket(holders)
    return SeasonView(
        views,
        tuple(t.name for t in season.tournaments),
        lines,
        None if ticket is None or ticket.person is None else by_person[ticket.person],
        () if ticket is None else tuple(by_person[p] for p in ticket.level),
        () if ticket is None else tuple(by_person[p] for p in ticket.passed),
        len(season.identities.questions),
    )


def tournament_grids(view: TournamentView, words: Words) -> list[Grid]:
    """A tournament's page: the final ranking once finished, the latest standings, then
    every stage's results, latest first."""
    comp = view.public
    if comp.state is None or not comp.event.stages_played:
        return []
    grids = []
    if comp.event.phase is EventPhase.FINISHED:
        grids.append(ranking_grid(comp, words))
    grids.append(standings_grid(comp, words=words))
    grids += [results_grid(comp, stage, words) for stage in reversed(comp.event.stages_played)]
    return grids


def person_tournaments(
    season: SeasonView, line: PublicLine
) -> list[tuple[str, int | None]]:
    """(tournament, league points or None: did not start) in the season's order."""
    return list(zip(season.counted, line.per_tournament, strict=True))
