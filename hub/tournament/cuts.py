"""Ties at a cut (RULES.md §3.5): the head judge decides, the kit asks and records.

A **cut** is any boundary where a tie changes what a player can reach: the next stage
(002's semifinal of 8, the final's first two of each semifinal table, 003's top 3 of a
table), a table of placement (003: winners play for 1–4, seconds for 5–8), a place that
carries a title or different league points. Players level on big and small points
there are never separated by a silent lot: the draw stops and names them
(:class:`TieAtCutError`), and the judge's decision is a :class:`TieDecided` fact —
the judge's own order, or a lot the judge orders (drawn from a recorded seed, so it
can be audited), or, for final places only, that the players keep the shared place.

Ties that change nothing (two qualifiers level for places 1 and 2 of a semifinal that
both reach) are still ordered by the draw's lot, as a seeded order for seat A and the
snake; that is not a cut.

Scopes name the ranking a tie is in: a stage's name (its ranking, or the order across
its tables by table place, then BP, then SP), ``"<stage>/table-<n>"`` (places at one
table), ``"overall"`` (every game so far, which seats a round of everyone by standings)
and ``"ranking"`` (the final ranking).
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterable, Mapping, Sequence

import msgspec

from hub.tournament.errors import RoundStateError
from hub.tournament.stage_words import after_stage_phrase, stage_phrase
from tablekit.core.errors import Phrase, joined
from tablekit.core.words import N_

RANKING_SCOPE = "ranking"
OVERALL_SCOPE = "overall"
"""The standings over every game so far, which seat a stage of everyone present (000
round II by standings)."""


def table_scope(stage: str, table: int) -> str:
    """The scope of places at table ``table`` of ``stage``."""
    return f"{stage}/table-{table}"


def split_scope(scope: str) -> tuple[str, int | None]:
    """``("semifinal", 2)`` for ``"semifinal/table-2"``, ``("elimination-3", None)`` for a
    stage scope; a malformed table scope gives table 0 (no such table)."""
    stage, sep, table = scope.partition("/table-")
    if not sep:
        return scope, None
    return stage, int(table) if table.isdigit() else 0


def scope_phrase(scope: str) -> Phrase:
    """Where players are level, as a sentence says it: *in the standings after
    elimination-3* (Polish: *w klasyfikacji po 3. rundzie eliminacji*), *at table 2 of
    semifinal*, *in the final ranking*."""
    stage, table = split_scope(scope)
    if stage == RANKING_SCOPE:
        return Phrase(N_("in the final ranking"))
    if stage == OVERALL_SCOPE:
        return Phrase(N_("in the standings over every game so far"))
    if table is None:
        return Phrase(N_("in the standings {after}"), after=after_stage_phrase(stage))
    return Phrase(N_("at table {table} of {stage}"), table=table, stage=stage_phrase(stage))


class TieHow(enum.StrEnum):
    JUDGE = "judge"
    """The head judge's order (best first)."""
    LOT = "lot"
    """A lot the judge ordered: ``order`` is :func:`lot_order` of the players and seed."""
    SHARED = "shared"
    """Final ranking only: the players keep the shared place (each gets its title and
    league points, those of the better place)."""


class TieDecided(msgspec.Struct, frozen=True, tag="tie-decided", tag_field="fact"):
    """The head judge's decision on players level at a cut, best first."""

    scope: str
    order: tuple[str, ...]
    how: TieHow = TieHow.JUDGE
    seed: int | None = None


def lot_order(players: Iterable[str], seed: int) -> tuple[str, ...]:
    """The order a lot with ``seed`` gives ``players`` (reproducible: sorted, then shuffled)."""
    pool = sorted(set(players))
    random.Random(seed).shuffle(pool)
    return tuple(pool)


class Tie(msgspec.Struct, frozen=True):
    """Players level on BP and SP in ``scope``, in the order used (decided or by lot)."""

    scope: str
    players: tuple[str, ...]
    big: int
    small: int
    decision: TieDecided | None = None
    place: int = 0
    """The first of the places they share in ``scope`` (0: not known)."""
    stage: str = ""
    """At a draw's cut: the stage whose draw they stop ("" at the final ranking)."""
    going_on: int = 0
    """At a draw's cut: how many of them ``stage`` seats (the others go out there); all
    of them when it seats them all, at tables that play for different places."""


def decision_for(decisions: Sequence[TieDecided], players: Iterable[str]) -> TieDecided | None:
    """The latest decision naming every one of ``players`` (a later one replaces it)."""
    wanted = set(players)
    for decision in reversed(decisions):
        if wanted <= set(decision.order):
            return decision
    return None


def resolve(
    groups: Iterable[tuple[Sequence[str], int, int]],
    scope: str,
    decisions: Sequence[TieDecided],
    lots: Mapping[str, float],
) -> tuple[list[str], list[Tie]]:
    """A strict order from groups of level players (best group first, each with its BP
    and SP): the judge's decision inside a group when there is one, else the lot. Also
    the ties met (groups of two or more), for the caller to check against its cuts."""
    order: list[str] = []
    ties: list[Tie] = []
    for players, big, small in groups:
        if len(players) == 1:
            order.append(players[0])
            continue
        decision = decision_for(decisions, players)
        if decision is not None and decision.how is not TieHow.SHARED:
            ranked = sorted(players, key=decision.order.index)
        else:
            decision = None
            ranked = sorted(players, key=lambda p: (p not in lots, lots.get(p, 0.0), p))
        ties.append(Tie(scope, tuple(ranked), big, small, decision, place=len(order) + 1))
        order.extend(ranked)
    return order, ties


class TieAtCutError(RoundStateError):
    """Players level at a cut and no decision of the head judge for them yet; the message
    names them (``names``: each player's name by id) as well as their ids."""

    def __init__(
        self, what: Phrase, ties: Sequence[Tie], names: Mapping[str, str] | None = None
    ) -> None:
        self.what = what
        self.ties = tuple(ties)
        known = names or {}
        listed = [
            Phrase(N_("{players} level {where} ({big} BP, {small} SP)"),
                   players=", ".join(f"{known[p]} ({p})" if p in known else p
                                     for p in t.players),
                   where=scope_phrase(t.scope), big=t.big, small=f"{t.small:+d}")
            for t in self.ties
        ]
        super().__init__(
            N_("{what}: players level at a cut, the head judge decides (their order, or a "
               "lot the judge orders): {ties}"),
            what=what, ties=joined(listed, "; "),
        )
