"""Tournament formats as data: a sequence of stages, each a round of play.

A **stage** is one seating and ``games`` games at every table, under a ruleset named by
a string ("000", "002" … resolved elsewhere). A stage has one or more **groups**; each
group picks its players with a **selector**, seats them with a seating method and plays
on its own tables (tables are numbered across the stage in group order). Groups of one
stage play for different final places: a player in an earlier group always ranks above
a player in a later group of the same stage.

Each stage also says how its players are **ranked** (:class:`RankRule`) and over which
stages' games its totals count (``counts``, default: the stage itself). The final
ranking walks the stages from the last to the first: the last stage's ranking gives the
top places, then the players who stopped at the stage before follow in that stage's
order, and so on.
"""

from __future__ import annotations

import enum

import msgspec

from hub.tournament.errors import FormatError, PlayerCountError
from hub.tournament.format_words import describe
from hub.tournament.seating import SeatingMethod, table_sizes
from hub.tournament.stage_words import stage_phrase
from tablekit.core.errors import quoted
from tablekit.core.roundgames import MAX_ROUND_GAMES
from tablekit.core.words import N_


class RankRule(enum.StrEnum):
    #: BP then SP over the games of the stages in ``counts``, level players share a place.
    TOTALS = "totals"
    #: Table 1's players above table 2's …; inside a table BP then SP over this stage.
    TABLE_BLOCKS = "table-blocks"
    #: Place at one's own table in this stage, then BP, then SP over this stage.
    TABLE_PLACE = "table-place"


class Everyone(msgspec.Struct, frozen=True, tag="everyone"):
    """Every player present (checked in or arrived late, not withdrawn)."""


class TopOverall(msgspec.Struct, frozen=True, tag="top-overall"):
    """The best ``k`` of stage ``of``'s ranking; a tie at the cut is the head judge's
    (:mod:`hub.tournament.cuts`)."""

    k: int
    of: str


class TablePlaces(msgspec.Struct, frozen=True, tag="table-places"):
    """Places ``first``–``last`` at each table of stage ``of`` (BP, SP there; a tie at
    the cut is the head judge's)."""

    first: int
    last: int
    of: str


class TopAcrossTables(msgspec.Struct, frozen=True, tag="top-across-tables"):
    """The best ``k`` (all when ``None``) of stage ``of`` ranked across tables by table
    place, then BP, then SP, then the head judge at a cut (8 tables of 4, k = 16: the top
    2 of each table); only the tables of group ``group`` of that stage when given."""

    of: str
    k: int | None = None
    group: str | None = None


class Rest(msgspec.Struct, frozen=True, tag="rest"):
    """The players of stage ``of`` whom the earlier groups of this stage did not select,
    best first across tables (003's consolation games: every participant plays at least
    4 games). Counts that cannot sit at tables of 3 or 4 (1, 2, 5) are the organizer's
    decision (:class:`~hub.tournament.facts.ConsolationDecided`)."""

    of: str


Selector = Everyone | TopOverall | TablePlaces | TopAcrossTables | Rest


class Group(msgspec.Struct, frozen=True):
    """Players of one stage who play together for a block of places."""

    name: str
    entry: Selector
    seating: SeatingMethod
    #: Fixed number of tables (league schemes); ``None`` = balanced split.
    tables: int | None = None


class Stage(msgspec.Struct, frozen=True):
    name: str
    games: int
    ruleset: str
    groups: tuple[Group, ...]
    ranking: RankRule = RankRule.TOTALS
    #: Stages whose games count for this stage's TOTALS ranking; empty = this stage only.
    counts: tuple[str, ...] = ()

    def counted(self) -> tuple[str, ...]:
        return self.counts or (self.name,)


class Title(msgspec.Struct, frozen=True):
    """A title for final places ``first``–``last`` (a shared place keeps the title); a
    preset's ``name`` is a key of ``hub.exports.words.TITLES`` (``champion``: *mistrzyni*,
    *mistrz*), which a front end shows agreeing with the player who holds it."""

    first: int
    last: int
    name: str


class TournamentFormat(msgspec.Struct, frozen=True):
    name: str
    stages: tuple[Stage, ...]
    min_players: int
    max_players: int
    titles: tuple[Title, ...] = ()
    #: League tournament: final places earn league tournament points (003).
    league: bool = False
    description: str = ""

    def stage_index(self, name: str) -> int:
        for i, stage in enumerate(self.stages):
            if stage.name == name:
                return i
        raise FormatError(
            N_("format {format!r}: no stage named {stage!r}"), format=self.name, stage=name
        )

    def check_player_count(self, count: int) -> None:
        """Raise :class:`PlayerCountError` naming ``count`` and what is wrong with it: out
        of the format's range, or not seatable at the first stage's tables of 3 or 4."""
        if not self.min_players <= count <= self.max_players:
            raise PlayerCountError(
                N_("format {format}: {count} players, it needs {fewest}–{most}"),
                format=quoted(describe(self)), count=count,
                fewest=self.min_players, most=self.max_players,
            )
        first = self.stages[0]
        for group in first.groups:
            if isinstance(group.entry, Everyone):
                try:
                    table_sizes(count, group.tables)
                except PlayerCountError as err:
                    raise PlayerCountError(
                        N_("format {format}, stage {stage}: {error}"),
                        format=quoted(describe(self)), stage=stage_phrase(first.name),
                        error=err,
                    ) from None

    def validate(self) -> TournamentFormat:
        """Check names and references; returns ``self`` for chaining."""
        if not self.stages:
            raise FormatError(N_("format {format!r}: no stages"), format=self.name)
        if self.min_players > self.max_players:
            raise FormatError(
                N_("format {format!r}: min_players above max_players"), format=self.name
            )
        seen: list[str] = []
        for stage in self.stages:
            if stage.name in seen:
                raise FormatError(
                    N_("format {format!r}: stage {stage!r} defined twice"),
                    format=self.name, stage=stage.name,
                )
            if not 1 <= stage.games <= MAX_ROUND_GAMES:
                raise FormatError(
                    N_("stage {stage!r}: games must be 1 to {most}, got {games}"),
                    stage=stage.name, most=MAX_ROUND_GAMES, games=stage.games,
                )
            if not stage.groups:
                raise FormatError(N_("stage {stage!r}: no groups"), stage=stage.name)
            for name in stage.counts:
                if name not in [*seen, stage.name]:
                    raise FormatError(
                        N_("stage {stage!r}: counts stage {counted!r}, which is not this or "
                           "an earlier stage"),
                        stage=stage.name, counted=name,
                    )
            for group in stage.groups:
                entry = group.entry
                if not isinstance(entry, Everyone) and entry.of not in seen:
                    raise FormatError(
                        N_("stage {stage!r} group {group!r}: selects from {source!r}, which "
                           "is not an earlier stage"),
                        stage=stage.name, group=group.name, source=entry.of,
                    )
                if isinstance(entry, Rest) and group is stage.groups[0]:
                    raise FormatError(
                        N_("stage {stage!r} group {group!r}: the rest of {source!r} needs an "
                           "earlier group in the stage"),
                        stage=stage.name, group=group.name, source=entry.of,
                    )
                if isinstance(entry, TablePlaces) and not 1 <= entry.first <= entry.last:
                    raise FormatError(
                        N_("stage {stage!r} group {group!r}: table places {first}–{last} are "
                           "not a range from 1"),
                        stage=stage.name, group=group.name, first=entry.first, last=entry.last,
                    )
            seen.append(stage.name)
        return self
