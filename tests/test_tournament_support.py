"""Shared helpers for the tournament tests: valid game results and a full event driver.

Imported by the other ``test_tournament_*`` modules; its own tests check the generators.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence

from hub.tournament import (
    EventPhase,
    EventState,
    Fact,
    GameRecorded,
    Player,
    PlayerScore,
    RoundClosed,
    RoundSeated,
    TieDecided,
    TieHow,
    TournamentFormat,
    check_in_all,
    compute_standings,
    lot_order,
)

Scores = dict[str, tuple[int, int]]
ResultMaker = Callable[[Sequence[str], random.Random], Scores]


def _racks(losers: Sequence[str], rng: random.Random) -> dict[str, int]:
    """Rack values a real game can leave: tiles, a joker (50) or never opened (100/200)."""
    out: dict[str, int] = {}
    for pid in losers:
        roll = rng.random()
        if roll < 0.1:
            out[pid] = 100
        elif roll < 0.12:
            out[pid] = 200
        else:
            out[pid] = rng.randint(1, 60) + (50 if roll > 0.9 else 0)
    return out


def win_only(players: Sequence[str], rng: random.Random) -> Scores:
    """One player goes out: +1 BP and +sum of racks; the others 0 BP and −rack."""
    winner = rng.choice(list(players))
    racks = _racks([p for p in players if p != winner], rng)
    scores = {pid: (0, -value) for pid, value in racks.items()}
    scores[winner] = (1, sum(racks.values()))
    return scores


def placement(players: Sequence[str], rng: random.Random) -> Scores:
    """002 scheme: SP as in win_only, BP 4/2/1/0 (3 players 4/2/0) by SP, ties share higher."""
    small = {pid: sp for pid, (_, sp) in win_only(players, rng).items()}
    points = (4, 2, 1, 0) if len(players) == 4 else (4, 2, 0)
    ordered = sorted(small.values(), reverse=True)
    return {pid: (points[ordered.index(sp)], sp) for pid, sp in small.items()}


def make_players(n: int) -> list[Player]:
    return [Player(f"p{i:02d}", f"Player {i}") for i in range(1, n + 1)]


def play_round(
    state: EventState,
    seed: int,
    rng: random.Random,
    results: ResultMaker = win_only,
    fixed: Callable[[str, int, int, tuple[str, ...]], Scores | None] | None = None,
    log: list[Fact] | None = None,
) -> EventState:
    """Draw the next stage, record every game and close it."""
    seated = state.draw_next(seed)
    facts: list[Fact] = [seated]
    stage = state.format.stages[state.format.stage_index(seated.stage)]
    for table in seated.tables:
        for game in range(1, stage.games + 1):
            scores = fixed(seated.stage, table.number, game, table.players) if fixed else None
            if scores is None:
                scores = results(table.players, rng)
            facts.append(
                GameRecorded(
                    seated.stage,
                    table.number,
                    game,
                    tuple(PlayerScore(pid, b, s) for pid, (b, s) in scores.items()),
                )
            )
    facts.append(RoundClosed(seated.stage))
    for fact in facts:
        state = state.apply(fact)
    if log is not None:
        log.extend(facts)
    return state


def play_event(
    fmt: TournamentFormat,
    players: Sequence[Player],
    seed: int,
    results: ResultMaker = win_only,
    fixed: Callable[[str, int, int, tuple[str, ...]], Scores | None] | None = None,
    extra: Sequence[Fact] = (),
    judge_lots: bool = True,
) -> tuple[EventState, list[Fact]]:
    """Play a whole event in-process; returns the final state and every fact recorded.

    With ``judge_lots`` every tie at a cut is decided as a head judge may: by a lot
    the judge orders (recorded); without it a tie at a cut stops the draw."""
    log: list[Fact] = [*check_in_all(players), *extra]
    state = EventState.replay(fmt, log)
    rng = random.Random(seed)
    while state.phase is not EventPhase.FINISHED:
        if judge_lots:
            state = decide_by_lot(state, log)
        state = play_round(state, rng.randrange(2**32), rng, results, fixed, log)
    if judge_lots:
        state = decide_by_lot(state, log)
    return state, log


def decide_by_lot(state: EventState, log: list[Fact]) -> EventState:
    """Record a lot for every tie at a cut now pending (seeded by the number of facts,
    so the draws' own seeds stay those of the event without ties)."""
    for tie in state.pending_ties():
        seed = state.facts_applied
        fact = TieDecided(tie.scope, lot_order(tie.players, seed), TieHow.LOT, seed)
        state = state.apply(fact)
        log.append(fact)
    return state


def seated_rounds(log: Sequence[Fact]) -> Iterator[RoundSeated]:
    return (f for f in log if isinstance(f, RoundSeated))


def check_invariants(state: EventState, log: Sequence[Fact]) -> None:
    """Every seated player plays every game of the round exactly once; tables of 3–4;
    every stage ranking's totals equal a from-scratch recomputation."""
    for seated in seated_rounds(log):
        ids = [pid for t in seated.tables for pid in t.players]
        assert len(ids) == len(set(ids)), seated.stage
        assert all(3 <= len(t.players) <= 4 for t in seated.tables), seated.stage
        assert [t.number for t in seated.tables] == list(range(1, len(seated.tables) + 1))
        stage = state.format.stages[state.format.stage_index(seated.stage)]
        results = state.results(seated.stage)
        assert sorted(results) == [
            (t.number, g) for t in seated.tables for g in range(1, stage.games + 1)
        ]
        played: dict[str, int] = {}
        for (table, _), game in results.items():
            assert set(game) == set(seated.tables[table - 1].players)
            for pid in game:
                played[pid] = played.get(pid, 0) + 1
        assert played == dict.fromkeys(ids, stage.games)
        if not stage.counts and stage.ranking.value == "totals":
            again = compute_standings(results.values(), ids)
            assert state.standings(seated.stage) == again
        if stage.counts:
            games = [
                g
                for f in seated_rounds(log)
                if f.stage in stage.counts
                for g in state.results(f.stage).values()
            ]
            again = compute_standings(games, ids)
            by_id = {r.player_id: (r.big, r.small, r.games) for r in again.rows}
            mine = state.standings(seated.stage)
            assert {r.player_id: (r.big, r.small, r.games) for r in mine.rows} == by_id
            assert [r.place for r in mine.rows] == [r.place for r in again.rows]


def test_win_only_is_zero_sum_with_one_winner() -> None:
    rng = random.Random(1)
    for size in (3, 4):
        for _ in range(200):
            scores = win_only([f"x{i}" for i in range(size)], rng)
            assert sum(sp for _, sp in scores.values()) == 0
            assert sorted(bp for bp, _ in scores.values()) == [0] * (size - 1) + [1]
            winner = next(pid for pid, (bp, _) in scores.items() if bp == 1)
            assert all(sp < 0 for pid, (_, sp) in scores.items() if pid != winner)


def test_placement_points_follow_small_points() -> None:
    rng = random.Random(2)
    for size, total in ((4, 7), (3, 6)):
        for _ in range(200):
            scores = placement([f"x{i}" for i in range(size)], rng)
            ordered = sorted(scores.values(), key=lambda s: -s[1])
            assert ordered[0][0] == 4
            assert [bp for bp, _ in ordered] == sorted((bp for bp, _ in ordered), reverse=True)
            if len({sp for _, sp in scores.values()}) == size:
                assert sum(bp for bp, _ in scores.values()) == total
