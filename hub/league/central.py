"""The central's view of the league: its store's tournaments folded with the hub's own
code, the season over the finished ones, who is who, and the board sent to venues."""

from __future__ import annotations

import time
from collections.abc import Collection, Sequence
from pathlib import Path

from hub.league.identity import Decision, check_decision
from hub.league.season import Counted, Season, fold_season
from hub.league.store import LeagueStore
from hub.league.views import Tournament
from hub.league.wire import LEAGUE_VERSION, BoardLine, SeasonBoard
from hub.privacy import published_season
from hub.season import SeasonError, counted
from tablekit.core.errors import KitError


class Central:
    """The league's store and its rules' parameters."""

    def __init__(
        self,
        league: str,
        store: LeagueStore | str | Path,
        *,
        ticket_holders: Collection[str] = (),
        more_starts_ranks_higher: bool = True,
        title: str = "",
    ) -> None:
        self.league = league
        self.title = title or league
        """The league's name as its pages say it (the topic level when none is given)."""
        self.store = store if isinstance(store, LeagueStore) else LeagueStore(store)
        self.ticket_holders = frozenset(ticket_holders)
        """League numbers (or people) who hold a Polish championship ticket already."""
        self.more_starts_ranks_higher = more_starts_ranks_higher

    def tournaments(self) -> list[Tournament]:
        out = []
        for mark in self.store.marks():
            comp, created = self.store.competition(mark.venue, mark.event)
            source = f"{mark.venue}/{mark.event}"
            try:
                made: Counted | None = counted(comp, created, source)
                why: KitError | None = None
            except SeasonError as err:
                made, why = None, err
            out.append(Tournament(mark.venue, mark.event, comp, made, why))
        return out

    def season(self, tournaments: Sequence[Tournament] | None = None) -> Season:
        """The season over ``tournaments`` (default: the store's)."""
        held = self.tournaments() if tournaments is None else tournaments
        counting = [t.counted for t in held if t.counted is not None]
        return fold_season(
            counting, self.store.decisions(),
            more_starts_ranks_higher=self.more_starts_ranks_higher,
        )

    def decide(self, entry: str, same_as: str, by: str, at: float | None = None) -> Decision:
        """The league organizer's answer to an open question (IdentityError unless it
        answers one)."""
        decision = Decision(entry, same_as, by, time.time() if at is None else at)
        check_decision(self.season().identities, decision)
        self.store.decide(decision)
        return decision

    def board(self, now: float | None = None) -> SeasonBoard:
        """The season table every venue receives: each person named as the public reads
        them (a minor of any venue by given name and initial, without their club), with
        their league number for the venues' seeds."""
        tournaments = self.tournaments()
        season = published_season(
            self.season(tournaments),
            {t.counted.key: t.competition for t in tournaments if t.counted is not None},
            [t.competition for t in tournaments if t.counted is None],
        )
        return SeasonBoard(
            LEAGUE_VERSION,
            self.league,
            time.time() if now is None else now,
            tuple(t.name for t in season.tournaments),
            tuple(
                BoardLine(line.place, line.person, line.name, line.points, line.starts,
                          line.club, line.number)
                for line in season.lines
            ),
            len(season.identities.questions),
        )
