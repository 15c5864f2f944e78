"""Drawing an event's next stage (pure): who each group selects, in which order, and
how they are seated; the head judge's decisions on ties at a cut and the organizer's
on consolation players.

Each stage is one round. Within a draw, the generator ``random.Random(seed)`` first
draws one lot number per registered player (in id order) used to order level players
where it changes nothing they can reach (a seeded order, seat A), then seats the groups
in order. Level players whose order decides what they reach are never ordered by it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence, Set

import msgspec

from hub.tournament.cuts import (
    OVERALL_SCOPE,
    RANKING_SCOPE,
    Tie,
    TieAtCutError,
    resolve,
    scope_phrase,
    split_scope,
    table_scope,
)
from hub.tournament.draw import draw_avoiding_repeats, met_pairs
from hub.tournament.errors import (
    DuplicatePlayerError,
    PlayerCountError,
    RoundStateError,
    SeatingMismatchError,
    TournamentError,
    UnknownPlayerError,
)
from hub.tournament.facts import RoundSeated, SeatedTable
from hub.tournament.formats import (
    Everyone,
    Group,
    RankRule,
    Rest,
    Selector,
    Stage,
    TablePlaces,
    TopAcrossTables,
    TopOverall,
)
from hub.tournament.players import by_rating
from hub.tournament.repeats import least_repeats
from hub.tournament.seating import (
    Seating,
    SeatingMethod,
    TablePlacing,
    by_standings,
    by_table_placement,
    league_seeded,
    random_draw,
    seeded_snake,
    table_sizes,
)
from hub.tournament.stage_words import stage_phrase
from hub.tournament.standings import (
    Standings,
    lot_keys,
)
from hub.tournament.state import DrawnRound, EventPhase
from hub.tournament.state_rankings import RankedState
from tablekit.core.errors import Phrase, joined
from tablekit.core.words import N_

LEAGUE_SEEDS = 4


class ConsolationError(RoundStateError):
    """Players left for consolation games who cannot sit at tables of 3 or 4, and no
    decision of the organizer for them yet; ``options`` are the ``promote`` counts that
    seat everyone."""

    def __init__(self, stage: str, main: str, players: Sequence[str], options: Sequence[int]):
        self.stage = stage
        self.players = tuple(players)
        self.options = tuple(options)
        n = len(players)
        group = stage_phrase(main)
        choices = [
            Phrase(N_("promote {k} (the best {k} join {main}, {rest} play the consolation "
                      "games)"), k=k, main=group, rest=n - k)
            if k < n
            else Phrase(N_("promote {k} (the best {k} join {main}, everyone plays on)"),
                        k=k, main=group)
            for k in options
        ]
        super().__init__(
            N_("draw {stage}: {n} player(s) do not reach {main} ({players}, best first) "
               "and cannot sit at consolation tables of 3 or 4; 003 §7 wants at least 4 "
               "games each and §10e lets the organizer adjust the tables — the organizer "
               "decides: {choices}; or none (they play no more games)"),
            stage=stage_phrase(stage), n=n, main=group, players=", ".join(players),
            choices=joined(choices, "; "),
        )


class DrawingState(RankedState):
    """An event state that draws its next stage."""

    def draw_next(self, seed: int) -> RoundSeated:
        """The seating of the next stage drawn with ``seed`` (a fact to record; not applied)."""
        phase = self.phase
        if phase is EventPhase.PLAYING:
            raise RoundStateError(
                N_("draw: stage {stage} is still open, close it first"),
                stage=stage_phrase(self._rounds[-1].stage.name),
            )
        if phase is EventPhase.FINISHED:
            raise RoundStateError(N_("draw: the event is finished"))
        stage = self.format.stages[len(self._rounds)]
        if not self._rounds:
            self.format.check_player_count(len(self._present))
        rng = random.Random(seed)
        lots = lot_keys(self._players, rng)
        met_before = met_pairs(t.players for rnd in self._rounds for t in rnd.tables)
        tables: list[SeatedTable] = []
        repeats = 0
        floors: list[int | None] = []
        taken: set[str] = set()
        ties: list[Tie] = []
        selected: list[list[str]] = []
        for group in stage.groups:
            entrants, met = self._select(group.entry, lots, taken)
            ties += met
            if not entrants and not isinstance(group.entry, Rest):
                raise RoundStateError(
                    N_("draw {stage} group {group!r}: no players are selected"),
                    stage=stage_phrase(stage.name), group=group.name,
                )
            clash = taken.intersection(entrants)
            if clash:
                raise DuplicatePlayerError(
                    N_("draw {stage}: {players} selected by two groups"),
                    stage=stage_phrase(stage.name), players=sorted(clash),
                )
            taken.update(entrants)
            selected.append(entrants)
        self._seat_consolation(stage, selected)
        for group, entrants in zip(stage.groups, selected, strict=True):
            if not entrants:
                continue
            seating = self._seat_group(group, entrants=entrants, rng=rng, seed=seed, met=met_before)
            repeats += seating.repeats
            floors.append(self._repeats_floor(group, seating, met_before))
            for players in seating.tables:
                tables.append(SeatedTable(len(tables) + 1, group.name, players))
        _check_cuts(stage, tables, ties, {pid: p.name for pid, p in self._players.items()})
        floor = None if None in floors else sum(f for f in floors if f is not None)
        return RoundSeated(stage.name, seed, tuple(tables), repeats, floor)

    def _repeats_floor(
        self, group: Group, seating: Seating, met: dict[str, set[str]]
    ) -> int | None:
        """The fewest repeated pairs any draw of the group's players at its tables could
        have (proven), for a group seated by a draw; None for one seated by a rule."""
        if group.seating not in (SeatingMethod.RANDOM, SeatingMethod.RANDOM_AVOIDING_REPEATS):
            return None
        if seating.floor is not None:
            return seating.floor
        sizes = [len(t) for t in seating.tables]
        earlier = ([t.players for t in rnd.tables] for rnd in self._rounds)
        return least_repeats(seating.player_ids(), sizes, met, earlier)

    def _seat_consolation(self, stage: Stage, selected: list[list[str]]) -> None:
        """Apply the organizer's decision on players left for consolation games (in
        ``selected``, in place), or raise :class:`ConsolationError` when they cannot sit
        at tables of 3 or 4 and nothing is decided."""
        for i, group in enumerate(stage.groups):
            if not isinstance(group.entry, Rest) or not selected[i]:
                continue
            main = selected[0]
            rest = selected[i]
            decision = self._consolation.get(stage.name)
            if decision is not None and decision.none:
                selected[i] = []
                continue
            if decision is not None and decision.promote:
                k = min(decision.promote, len(rest))
                main.extend(rest[:k])
                selected[i] = rest = rest[k:]
            if (rest and not _seatable(len(rest))) or not _seatable(len(main), stage.groups[0]):
                options = [
                    k
                    for k in range(1, len(rest) + 1)
                    if (k == len(rest) or _seatable(len(rest) - k))
                    and _seatable(len(main) + k, stage.groups[0])
                ]
                raise ConsolationError(stage.name, stage.groups[0].name, rest, options)

    def _strict(
        self, standings: Standings, scope: str, lots: Mapping[str, float], keep: Set[str] | None
    ) -> tuple[list[str], list[Tie]]:
        """``standings`` in a strict order (kept players only): level players by the
        judge's decision in ``scope``, else by lot; with the ties met."""
        groups: list[tuple[list[str], int, int]] = []
        for row in standings.rows:
            if keep is not None and row.player_id not in keep:
                continue
            if groups and groups[-1][0] and standings.row(groups[-1][0][-1]).place == row.place:
                groups[-1][0].append(row.player_id)
            else:
                groups.append(([row.player_id], row.big, row.small))
        return resolve(groups, scope, self._decisions.get(scope, []), lots)

    def _select(
        self, entry: Selector, lots: Mapping[str, float], taken: Set[str] = frozenset()
    ) -> tuple[list[str], list[Tie]]:
        """The players ``entry`` selects, best first, and the ties met on the way
        (``taken``: those the stage's earlier groups selected)."""
        if isinstance(entry, Everyone):
            return self._strict(self.overall_standings(), OVERALL_SCOPE, lots, self._present)
        rnd = self._round(entry.of)
        active = {pid for pid in rnd.player_ids() if self._active(pid)}
        if isinstance(entry, TopOverall):
            ranking = self._stage_ranking(rnd)
            order, ties = self._strict(ranking, rnd.stage.name, lots, active)
            return order[: entry.k], ties
        placings, ties = self._active_placings(rnd, lots)
        if isinstance(entry, TopAcrossTables) and entry.group is not None:
            own = {t.number for t in rnd.tables if t.group == entry.group}
            placings = [p for p in placings if p.table in own]
        order, across = self._across_tables(rnd, placings, lots)
        ties += across
        if isinstance(entry, Rest):
            return [pid for pid in order if pid not in taken], ties
        if isinstance(entry, TopAcrossTables):
            return (order if entry.k is None else order[: entry.k]), ties
        assert isinstance(entry, TablePlaces)
        chosen = {p.player_id for p in placings if entry.first <= p.place <= entry.last}
        return [pid for pid in order if pid in chosen], ties

    def _active_placings(
        self, rnd: DrawnRound, lots: Mapping[str, float]
    ) -> tuple[list[TablePlacing], list[Tie]]:
        """Active players of ``rnd`` with their strict place at their table (level
        players by the judge's decision for that table, else by lot) and the ties met."""
        out: list[TablePlacing] = []
        ties: list[Tie] = []
        active = {pid for pid in rnd.player_ids() if self._active(pid)}
        for t in rnd.tables:
            table = self.table_standings(rnd.stage.name, t.number)
            order, met = self._strict(table, table_scope(rnd.stage.name, t.number), lots, active)
            ties += met
            for place, pid in enumerate(order, start=1):
                row = table.row(pid)
                out.append(TablePlacing(pid, t.number, place, row.big, row.small))
        return out, ties

    def _across_tables(
        self, rnd: DrawnRound, placings: Sequence[TablePlacing], lots: Mapping[str, float]
    ) -> tuple[list[str], list[Tie]]:
        """Players ranked across ``rnd``'s tables by table place, then BP, then SP; level
        players by the judge's decision in the stage's scope, else by lot."""
        ranked = sorted(placings, key=lambda p: (p.place, -p.big, -p.small, p.player_id))
        groups: list[tuple[list[str], int, int]] = []
        last: tuple[int, int, int] | None = None
        for p in ranked:
            key = (p.place, p.big, p.small)
            if key == last:
                groups[-1][0].append(p.player_id)
            else:
                groups.append(([p.player_id], p.big, p.small))
            last = key
        name = rnd.stage.name
        return resolve(groups, name, self._decisions.get(name, []), lots)

    def _seat_group(
        self,
        group: Group,
        *,
        entrants: list[str],
        rng: random.Random,
        seed: int,
        met: dict[str, set[str]],
    ) -> Seating:
        method = group.seating
        if method is SeatingMethod.RANDOM:
            return random_draw(sorted(entrants), rng, seed=seed, tables=group.tables, met=met)
        if method is SeatingMethod.RANDOM_AVOIDING_REPEATS:
            return draw_avoiding_repeats(sorted(entrants), met, rng, seed=seed, tables=group.tables)
        if method is SeatingMethod.BY_STANDINGS:
            return by_standings(entrants, tables=group.tables, met=met)
        if method is SeatingMethod.SEEDED_SNAKE:
            return seeded_snake(entrants, tables=group.tables, met=met)
        if method is SeatingMethod.BY_TABLE_PLACEMENT:
            # The entrants come in their decided order: it breaks every remaining tie.
            order = {pid: float(i) for i, pid in enumerate(entrants)}
            entry = group.entry
            if isinstance(entry, Everyone):
                raise RoundStateError(
                    N_("group {group!r}: seating by table placement needs an earlier stage"),
                    group=group.name,
                )
            wanted = set(entrants)
            source, _ = self._active_placings(self._round(entry.of), order)
            placings = [p for p in source if p.player_id in wanted]
            return by_table_placement(
                placings, rng, seed=seed, tables=group.tables, met=met, lots=order
            )
        seeds = self._league_seeds(entrants, rng)
        return league_seeded(sorted(entrants), seeds, rng, seed=seed, tables=group.tables, met=met)

    def _league_seeds(self, entrants: Sequence[str], rng: random.Random) -> list[str]:
        pool = set(entrants)
        if self._seeds:
            return [pid for pid in self._seeds if pid in pool][:LEAGUE_SEEDS]
        rated = [p for pid in sorted(pool) if (p := self._players[pid]).rating is not None]
        return [p.id for p in by_rating(rated, rng)][:LEAGUE_SEEDS]

    def audit_draw(self, fact: RoundSeated) -> None:
        """Check that ``fact`` is exactly the draw of its seed from this state (the one
        before it was applied); :class:`SeatingMismatchError` if not."""
        expected = self.draw_next(fact.seed)
        if fact.stage != expected.stage or fact.tables != expected.tables:
            raise SeatingMismatchError(
                N_("seat {stage}: the recorded tables differ from the draw of seed {seed}"),
                stage=stage_phrase(fact.stage), seed=fact.seed,
            )

    def pending_consolation(self) -> ConsolationError | None:
        """Why the next draw would stop for the organizer's seating of consolation
        players (2 or 5 of them), or None."""
        if self.phase is not EventPhase.BETWEEN_ROUNDS:
            return None
        try:
            self.draw_next(0)
        except ConsolationError as err:
            return err
        except TournamentError:
            return None
        return None

    def pending_ties(self) -> tuple[Tie, ...]:
        """Ties at a cut the head judge must decide before the event can go on: at the
        next draw, or (when finished) at final places with titles or league points."""
        if self.phase is EventPhase.FINISHED:
            return self.ranking_ties()
        if self.phase is not EventPhase.BETWEEN_ROUNDS:
            return ()
        try:
            self.draw_next(0)
        except TieAtCutError as err:
            return err.ties
        except TournamentError:
            return ()
        return ()

    def check_tie(self, scope: str, players: Sequence[str]) -> None:
        """Refuse a decision naming players who are not level in ``scope`` now.

        Checked when the judge records it, not when stored decisions are folded: a later
        correction of an earlier game may part the players, and then the decision simply
        orders nobody (big and small points decide first)."""
        keys = self._level_keys(scope)
        unknown = [pid for pid in players if pid not in keys]
        if unknown:
            raise UnknownPlayerError(
                N_("tie decision ({where}): {players} not ranked there"),
                where=scope_phrase(scope), players=", ".join(unknown),
            )
        if len({keys[pid] for pid in players}) != 1:
            shown = [
                Phrase(N_("{player} {big} BP {small} SP"), player=pid, big=keys[pid][1],
                       small=f"{keys[pid][2]:+d}")
                for pid in players
            ]
            raise TournamentError(
                N_("tie decision ({where}): the players are not level there ({players})"),
                where=scope_phrase(scope), players=joined(shown, ", "),
            )
        level = {pid for pid, key in keys.items() if key == keys[players[0]]}
        if scope != RANKING_SCOPE:  # a draw leaves withdrawn players out
            level = {pid for pid in level if self._active(pid)}
        missing = sorted(level - set(players))
        if missing:
            raise TournamentError(
                N_("tie decision ({where}): name every player level there, best first: "
                   "also {players}"),
                where=scope_phrase(scope), players=", ".join(missing),
            )

    def _level_keys(self, scope: str) -> dict[str, tuple[int, int, int]]:
        """``(place, big, small)`` of every player ranked in ``scope``, for checking that
        a decision names level players; the scope's ranking must be final."""
        if scope == RANKING_SCOPE:
            if self.phase is not EventPhase.FINISHED:
                raise RoundStateError(
                    N_("tie decision ({where}): the event is not finished ({phase})"),
                    where=scope_phrase(scope), phase=self.phase,
                )
            return {r.player_id: (r.place, r.big, r.small) for r in self._raw_ranking()}
        if scope == OVERALL_SCOPE:
            if self.phase is not EventPhase.BETWEEN_ROUNDS:
                raise RoundStateError(
                    N_("tie decision ({where}): decided between rounds, before the draw "
                       "({phase})"),
                    where=scope_phrase(scope), phase=self.phase,
                )
            standings = self.overall_standings()
            return {r.player_id: (r.place, r.big, r.small) for r in standings.rows}
        stage, table = split_scope(scope)
        rnd = self._round(stage)
        if not rnd.closed:
            raise RoundStateError(
                N_("tie decision ({where}): stage {stage} is still being played"),
                where=scope_phrase(scope), stage=stage_phrase(stage),
            )
        if table is not None:
            standings = self.table_standings(stage, table)
            return {r.player_id: (r.place, r.big, r.small) for r in standings.rows}
        keys = {r.player_id: (r.place, r.big, r.small) for r in self._stage_ranking(rnd).rows}
        if rnd.stage.ranking is RankRule.TOTALS:
            return keys
        placings, _ = self._active_placings(rnd, {})
        return {p.player_id: (p.place, p.big, p.small) for p in placings}


def _seatable(count: int, group: Group | None = None) -> bool:
    """Whether ``count`` players sit at tables of 3 or 4 (the group's fixed number of
    tables, if it has one)."""
    try:
        table_sizes(count, group.tables if group else None)
    except PlayerCountError:
        return False
    return True


def _check_cuts(
    stage: Stage, tables: Sequence[SeatedTable], ties: Sequence[Tie], names: Mapping[str, str]
) -> None:
    """Raise :class:`TieAtCutError` for every undecided tie whose players reach different
    things in ``stage``: a group, or a table when its tables play for different places or
    are filled in standings order (000 round II: places 4 and 5 level sit at table 1 or
    table 2)."""
    blocks = stage.ranking is RankRule.TABLE_BLOCKS
    in_order = {g.name for g in stage.groups if g.seating is SeatingMethod.BY_STANDINGS}
    outcome = {
        pid: (t.group, t.number if blocks or t.group in in_order else 0)
        for t in tables
        for pid in t.players
    }
    unique = {(tie.scope, tie.players): tie for tie in ties}  # groups select from one ranking
    at_cut = [
        tie
        for tie in unique.values()
        if tie.decision is None and len({outcome.get(pid, ("", 0)) for pid in tie.players}) > 1
    ]
    if at_cut:  # named in id order: the lot's order must not look like a proposal
        named = [
            msgspec.structs.replace(
                t, players=tuple(sorted(t.players)), stage=stage.name,
                going_on=sum(pid in outcome for pid in t.players),
            )
            for t in at_cut
        ]
        drawing = Phrase(N_("draw {stage}"), stage=stage_phrase(stage.name))
        raise TieAtCutError(drawing, named, names)
