"""An event state's rankings (pure): the standings of a stage, of a table and overall,
the final ranking with titles, its undecided shared places, and league points."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from hub.tournament.cuts import (
    RANKING_SCOPE,
    Tie,
    TieAtCutError,
    TieDecided,
    TieHow,
    resolve,
)
from hub.tournament.errors import (
    RoundStateError,
    TournamentError,
)
from hub.tournament.facts import SeatedTable
from hub.tournament.format_words import describe
from hub.tournament.formats import (
    RankRule,
)
from hub.tournament.league import award_points, tournament_points
from hub.tournament.ranking import RankingRow, stack_blocks, title_for
from hub.tournament.seating import (
    TablePlacing,
)
from hub.tournament.stage_words import stage_phrase
from hub.tournament.standings import (
    StandingRow,
    Standings,
    compute_standings,
    standings_from_totals,
    totals,
)
from hub.tournament.state import DrawnRound, EventPhase, StateBase
from tablekit.core.errors import Phrase, quoted
from tablekit.core.words import N_


class RankedState(StateBase):
    """An event state that ranks its players."""

    def overall_standings(self) -> Standings:
        """BP then SP over every game played so far, every player who played or is present."""
        played = [pid for rnd in self._rounds for pid in rnd.player_ids()]
        return compute_standings(
            (g for rnd in self._rounds for g in rnd.games()),
            [*played, *sorted(self._present)],
            self.deducted(),
        )

    def table_standings(self, stage: str, table: int) -> Standings:
        """Standings of one table over that stage's games (for top-k per table)."""
        rnd = self._round(stage)
        if not 1 <= table <= len(rnd.tables):
            raise RoundStateError(
                N_("stage {stage}: no table {table}"), stage=stage_phrase(stage), table=table
            )
        return compute_standings(
            rnd.table_games(table), rnd.tables[table - 1].players, self._deductions((stage,))
        )

    def standings(self, stage: str | None = None) -> Standings:
        """The ranking of ``stage``'s players by its rule (default: the latest stage).

        For a TOTALS stage this is the standings after that round; groups of a stage rank
        one under another (an earlier group plays for better places).
        """
        if stage is None:
            if not self._rounds:
                raise RoundStateError(N_("standings: nothing is drawn yet"))
            stage = self._rounds[-1].stage.name
        return self._stage_ranking(self._round(stage))

    def counted_in(self, stage: str) -> tuple[str, ...]:
        """The stages whose games (and the judge's deductions) ``stage``'s standings
        count: its own and those it sums (``counts``) for a stage ranked by totals, its
        own for one ranked at its tables."""
        rnd = self._round(stage)
        if rnd.stage.ranking is RankRule.TOTALS:
            return rnd.stage.counted()
        return (stage,)

    def _stage_ranking(self, rnd: DrawnRound) -> Standings:
        rows: list[StandingRow] = []
        for group in rnd.stage.groups:
            tables = [t for t in rnd.tables if t.group == group.name]
            chunks: list[Standings]
            if rnd.stage.ranking is RankRule.TOTALS:
                ids = [pid for t in tables for pid in t.players]
                counted = rnd.stage.counted()
                acc = totals(self._games(counted), ids, self._deductions(counted))
                chunks = [standings_from_totals(acc[pid] for pid in ids)]
            elif rnd.stage.ranking is RankRule.TABLE_BLOCKS:
                chunks = [self.table_standings(rnd.stage.name, t.number) for t in tables]
            else:
                chunks = [self._table_place_ranking(rnd, tables)]
            for chunk in chunks:
                offset = len(rows)
                rows.extend(msgspec.structs.replace(r, place=r.place + offset) for r in chunk.rows)
        return Standings(tuple(rows))

    def _placings(self, rnd: DrawnRound, tables: Sequence[SeatedTable]) -> list[TablePlacing]:
        out: list[TablePlacing] = []
        for t in tables:
            for row in self.table_standings(rnd.stage.name, t.number).rows:
                out.append(TablePlacing(row.player_id, t.number, row.place, row.big, row.small))
        return out

    def _table_place_ranking(self, rnd: DrawnRound, tables: Sequence[SeatedTable]) -> Standings:
        placings = sorted(
            self._placings(rnd, tables), key=lambda p: (p.place, -p.big, -p.small, p.player_id)
        )
        games = {pid: sum(1 for g in rnd.games() if pid in g) for pid in rnd.player_ids()}
        deducted = self._deductions((rnd.stage.name,))
        rows: list[StandingRow] = []
        for i, p in enumerate(placings):
            prev = placings[i - 1] if i else None
            same = prev is not None and (prev.place, prev.big, prev.small) == (
                p.place,
                p.big,
                p.small,
            )
            place = rows[-1].place if same else i + 1
            rows.append(
                StandingRow(
                    place, p.player_id, p.big, p.small, games[p.player_id],
                    deducted.get(p.player_id, 0),
                )
            )
        return Standings(tuple(rows))

    def _raw_ranking(self) -> tuple[RankingRow, ...]:
        """Final places before the head judge's tie decisions (shared places kept)."""
        blocks = [(rnd.stage.name, self._stage_ranking(rnd)) for rnd in reversed(self._rounds)]
        if not self._disqualified:
            return stack_blocks(blocks, self.format.titles)
        # Disqualified players are ranked after everyone, in the order of their last stage.
        kept = [(name, _without(ranking, self._disqualified)) for name, ranking in blocks]
        out = list(stack_blocks(kept, self.format.titles))
        placed = {row.player_id for row in out}
        last = len(out)
        for name, ranking in blocks:
            for row in ranking.rows:
                if row.player_id in self._disqualified and row.player_id not in placed:
                    placed.add(row.player_id)
                    last += 1
                    out.append(
                        RankingRow(last, row.player_id, name, row.big, row.small, row.games)
                    )
        return tuple(out)

    def final_ranking(self) -> tuple[RankingRow, ...]:
        """Final places with titles (RULES.md §4); only when the event is finished.

        Players level on a place share it, unless the head judge ordered them (a
        :class:`TieDecided` in scope ``"ranking"``): then they take consecutive places.
        A shared place the head judge has not decided whose places carry different
        titles or league points gives no title: its rows are marked ``undecided``.
        """
        if self.phase is not EventPhase.FINISHED:
            raise RoundStateError(
                N_("final ranking: the event is not finished ({phase})"), phase=self.phase
            )
        return self._decided_ranking()[0]

    def ranking_ties(self) -> tuple[Tie, ...]:
        """Shared final places the head judge has not decided and that are a cut: the
        places they span carry different titles or different league points."""
        if self.phase is not EventPhase.FINISHED:
            return ()
        return self._decided_ranking()[1]

    def _decided_ranking(self) -> tuple[tuple[RankingRow, ...], tuple[Tie, ...]]:
        """The final ranking after the head judge's decisions, and the ties at a cut
        still to decide (their rows without a title, marked ``undecided``)."""
        decisions = self._decisions.get(RANKING_SCOPE, [])
        raw = self._raw_ranking()
        titles = self.format.titles
        rows: list[RankingRow] = []
        ties: list[Tie] = []
        for block in _place_blocks(raw):
            ids = [r.player_id for r in block]
            order, met = resolve([(ids, 0, 0)], RANKING_SCOPE, decisions, {})
            if met and met[0].decision:  # ordered by the judge: consecutive places
                by_id = {r.player_id: r for r in block}
                first = block[0].place
                rows.extend(
                    msgspec.structs.replace(
                        by_id[pid], place=first + i, title=title_for(first + i, titles)
                    )
                    for i, pid in enumerate(order)
                )
            elif len(block) > 1 and self._at_cut(block, len(raw), decisions):
                ties.append(Tie(RANKING_SCOPE, tuple(ids), block[0].big, block[0].small,
                                place=block[0].place))
                rows.extend(msgspec.structs.replace(r, title=None, undecided=True) for r in block)
            else:  # alone, or shared with one title and one value of points
                rows.extend(block)
        return tuple(rows), tuple(ties)

    def _at_cut(
        self, block: Sequence[RankingRow], ranked: int, decisions: Sequence[TieDecided]
    ) -> bool:
        """Whether players sharing a place are at a cut: the places they span carry
        different titles or league points, and the judge has not let them share it."""
        ids = {r.player_id for r in block}
        if any(d.how is TieHow.SHARED for d in decisions if ids <= set(d.order)):
            return False
        span = range(block[0].place, block[0].place + len(block))
        titles = {title_for(p, self.format.titles) for p in span}
        points = {tournament_points(p, ranked) for p in span} if self.format.league else set()
        return len(titles) > 1 or len(points) > 1

    def league_points(self) -> dict[str, int]:
        """League tournament points per participant (003), from the final ranking.

        Raises :class:`TieAtCutError` while players share a place whose points differ
        and the head judge has not decided (their order, or that they share it: then
        each gets the better place's points)."""
        if not self.format.league:
            raise TournamentError(
                N_("league points: format {format} is not a league"),
                format=quoted(describe(self.format)),
            )
        undecided = self.ranking_ties()
        if undecided:
            names = {pid: p.name for pid, p in self._players.items()}
            raise TieAtCutError(Phrase(N_("league points")), undecided, names)
        return {pid: n or 0 for pid, n in self.league_points_so_far().items()}

    def league_points_so_far(self) -> dict[str, int | None]:
        """League points as :meth:`league_points`, but ``None`` for the players of a
        shared place the head judge has not decided yet (to show, not to count)."""
        if not self.format.league:
            raise TournamentError(
                N_("league points: format {format} is not a league"),
                format=quoted(describe(self.format)),
            )
        undecided = {pid for tie in self.ranking_ties() for pid in tie.players}
        ranking = self.final_ranking()
        points = award_points({row.player_id: row.place for row in ranking})
        return {
            pid: None if pid in undecided else 0 if pid in self._disqualified else n
            for pid, n in points.items()
        }


def _without(standings: Standings, players: frozenset[str] | set[str]) -> Standings:
    """``standings`` without ``players``; the others keep their order and shared places,
    renumbered (competition ranking)."""
    rows = [r for r in standings.rows if r.player_id not in players]
    out: list[StandingRow] = []
    for i, row in enumerate(rows):
        same = i > 0 and rows[i - 1].place == row.place
        out.append(msgspec.structs.replace(row, place=out[-1].place if same else i + 1))
    return Standings(tuple(out))


def _place_blocks(rows: Sequence[RankingRow]) -> list[list[RankingRow]]:
    """Consecutive rows sharing a place."""
    blocks: list[list[RankingRow]] = []
    for row in rows:
        if blocks and blocks[-1][0].place == row.place:
            blocks[-1].append(row)
        else:
            blocks.append([row])
    return blocks
