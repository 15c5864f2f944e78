"""An informational rating beside the season table: OpenSkill's Plackett–Luce model
(``openskill``, the ``[league]`` extra) over every stored game of the season.

The rule books rank the league by league points (003); this rating ranks nothing and
decides nothing: it estimates each person's skill from who finished ahead of whom at
every table, game by game. It is deterministic from the records: the season's
tournaments in their order (when each was created), each one's stages in play order,
tables by number, games by number, every player at the table ranked by the game's big
points, then small points (players level on both share the rank). Every person starts
at the model's defaults (μ 25, σ 25/3); the rating shown is the conservative ``μ − 3σ``
(OpenSkill's ordinal), which grows as games confirm the estimate.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from hub.competition import Competition


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        """What the pages show: μ − 3σ."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class Played:
    """A season's tournament as the rating reads it: its games and who is who."""

    competition: Competition
    person_of: Mapping[str, str]
    """Player id → person (:mod:`hub.league.identity`)."""


def games_of(comp: Competition) -> list[list[tuple[str, int, int]]]:
    """Every recorded game of ``comp`` in play order: (player id, big, small) per seat."""
    event = comp.event
    out = []
    for stage in event.stages_played:
        results = event.results(stage)
        for key in sorted(results):
            out.append([(pid, big, small) for pid, (big, small) in sorted(results[key].items())])
    return out


def ranks(game: Sequence[tuple[str, int, int]]) -> list[float]:
    """Each seat's rank (1 best): by big points, then small; level players share it."""
    order = sorted({(big, small) for _, big, small in game}, reverse=True)
    return [float(order.index((big, small)) + 1) for _, big, small in game]


def season_ratings(tournaments: Iterable[Played]) -> dict[str, Rating]:
    """Every person's rating after every game of ``tournaments`` (in the season's order)."""
    return rate(
        [(t.person_of.get(pid, pid), big, small) for pid, big, small in game]
        for t in tournaments
        for game in games_of(t.competition)
    )


def rate(games: Iterable[Sequence[tuple[str, int, int]]]) -> dict[str, Rating]:
    """Every person's rating after ``games`` in their order: (person, big, small) per
    seat; a game with fewer than two people rates nobody."""
    model = PlackettLuce()
    current: dict[str, tuple[float, float]] = {}
    played: dict[str, int] = {}
    for game in games:
        people = [person for person, _, _ in game]
        if len(set(people)) < 2:
            continue
        teams = [[model.rating(*current.get(person, (model.mu, model.sigma)))] for person in people]
        rated = model.rate(teams, ranks=ranks(game))
        for person, (new,) in zip(people, rated, strict=True):
            current[person] = (new.mu, new.sigma)
            played[person] = played.get(person, 0) + 1
    return {person: Rating(mu, sigma, played[person]) for person, (mu, sigma) in current.items()}
