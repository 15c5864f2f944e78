"""Ties at a cut (RULES.md §3.5): the draw stops, names the level players, and goes on
only with the head judge's decision (an order, or a lot the judge orders)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

import pytest
from test_tournament_support import Scores, make_players, play_round

from hub.tournament import (
    EventPhase,
    EventState,
    RoundStateError,
    SeatingMismatchError,
    TieAtCutError,
    TieDecided,
    TieHow,
    TournamentError,
    check_in_all,
    lot_order,
    preset,
)

Fixed = Callable[[str, int, int, tuple[str, ...]], Scores | None]


def per_player(points: Mapping[str, tuple[int, int]], stages: set[str] | None = None) -> Fixed:
    """Every game: each player scores ``points[player]`` (the core takes any scores),
    so the standings are exactly what a test wants."""

    def fixed(stage: str, table: int, game: int, players: tuple[str, ...]) -> Scores | None:
        if stages is not None and stage not in stages:
            return None
        return {pid: points[pid] for pid in players}

    return fixed


def played(preset_name: str, count: int, rounds: int, level: tuple[str, ...]) -> EventState:
    """``count`` players of ``preset_name`` after ``rounds`` rounds, p01 best … worst in
    every game, except ``level``, who share the place of the first of them."""
    players = make_players(count)
    points = {p.id: (0, -int(p.id[1:])) for p in players}
    for pid in level:
        points[pid] = points[level[0]]
    state = EventState.replay(preset(preset_name), check_in_all(players))
    rng = random.Random(1)
    for seed in range(1, rounds + 1):
        state = play_round(state, seed, rng, fixed=per_player(points))
    return state


def championship_after_eliminations(level: tuple[str, ...]) -> EventState:
    """16 players after the three eliminations (see :func:`played`)."""
    return played("championship", 16, 3, level)


def test_a_tie_for_the_last_semifinal_place_stops_the_draw_and_names_the_players() -> None:
    state = championship_after_eliminations(("p08", "p09"))
    with pytest.raises(TieAtCutError) as caught:
        state.draw_next(5)
    (tie,) = caught.value.ties
    assert (tie.scope, set(tie.players), tie.big, tie.small) == (
        "elimination-3",
        {"p08", "p09"},
        0,
        -48,
    )
    assert "head judge decides" in str(caught.value) and "p08" in str(caught.value)
    assert state.pending_ties() == caught.value.ties
    # the judge's choice: p09 goes through
    decided = state.apply(TieDecided("elimination-3", ("p09", "p08"), TieHow.JUDGE))
    semi = {pid for t in decided.draw_next(5).tables for pid in t.players}
    assert "p09" in semi and "p08" not in semi and len(semi) == 8
    assert decided.pending_ties() == ()


def test_a_lot_the_judge_orders_is_recorded_and_audited() -> None:
    state = championship_after_eliminations(("p08", "p09", "p10"))
    with pytest.raises(TieAtCutError):
        state.draw_next(5)
    order = lot_order(("p08", "p09", "p10"), 77)
    decided = state.apply(TieDecided("elimination-3", order, TieHow.LOT, 77))
    semi = {pid for t in decided.draw_next(5).tables for pid in t.players}
    assert semi == {f"p0{i}" for i in range(1, 8)} | {order[0]}
    wrong = (order[1], order[0], order[2])
    with pytest.raises(SeatingMismatchError, match="not the lot of seed 77"):
        state.apply(TieDecided("elimination-3", wrong, TieHow.LOT, 77))


def test_a_tie_that_changes_nothing_reached_is_not_a_cut() -> None:
    state = championship_after_eliminations(("p01", "p02"))  # both reach the semifinal
    assert state.pending_ties() == ()
    semi = {pid for t in state.draw_next(5).tables for pid in t.players}
    assert semi == {f"p0{i}" for i in range(1, 9)}


def winter_after_round_one(level: tuple[str, ...]) -> EventState:
    """000 with 8 players after round I (see :func:`played`)."""
    return played("winter", 8, 1, level)


def test_a_tie_at_a_table_boundary_when_seating_by_standings_is_the_judges() -> None:
    """000 round II: places 4 and 5 level decide who sits at table 1 or table 2."""
    state = winter_after_round_one(("p04", "p05"))
    with pytest.raises(TieAtCutError) as caught:
        state.draw_next(5)
    (tie,) = caught.value.ties
    assert (tie.scope, tie.players) == ("overall", ("p04", "p05"))
    assert state.pending_ties() == caught.value.ties
    state.check_tie("overall", ("p05", "p04"))
    decided = state.apply(TieDecided("overall", ("p05", "p04"), TieHow.JUDGE))
    first, second = decided.draw_next(5).tables
    assert first.players == ("p01", "p02", "p03", "p05") and second.players[0] == "p04"
    # level players at one table only change seat A: no question asked
    inside = winter_after_round_one(("p02", "p03"))
    assert inside.pending_ties() == ()
    assert set(inside.draw_next(5).tables[0].players) == {"p01", "p02", "p03", "p04"}


def test_a_decision_must_name_level_players_of_a_finished_ranking() -> None:
    state = championship_after_eliminations(("p08", "p09"))
    with pytest.raises(TournamentError, match="not level there"):
        state.check_tie("elimination-3", ("p07", "p08"))
    state.check_tie("elimination-3", ("p08", "p09"))
    three = championship_after_eliminations(("p08", "p09", "p10"))
    with pytest.raises(TournamentError, match=r"name every player level there.*also p10"):
        three.check_tie("elimination-3", ("p09", "p08"))
    with pytest.raises(TournamentError, match="only final places can stay shared"):
        state.apply(TieDecided("elimination-3", ("p08", "p09"), TieHow.SHARED))
    with pytest.raises(TournamentError, match="two or more different players"):
        state.apply(TieDecided("elimination-3", ("p08",)))
    with pytest.raises(RoundStateError, match="not been drawn yet"):
        state.apply(TieDecided("semifinal", ("p08", "p09")))


def test_a_tie_for_second_at_a_semifinal_table_is_the_final_cut() -> None:
    state = championship_after_eliminations(())
    rng = random.Random(2)
    semi = state.draw_next(5)
    table1 = semi.tables[0].players  # seeds 1, 3, 5, 7
    points = {pid: (0, -10 * i) for t in semi.tables for i, pid in enumerate(t.players)}
    points[table1[2]] = points[table1[1]]  # seats B and C of table 1 level for 2nd
    state = play_round(state, 5, rng, fixed=per_player(points))
    with pytest.raises(TieAtCutError) as caught:
        state.draw_next(6)
    (tie,) = caught.value.ties
    assert tie.scope == "semifinal/table-1" and set(tie.players) == {table1[1], table1[2]}
    decided = state.apply(TieDecided("semifinal/table-1", (table1[2], table1[1])))
    final = set(decided.draw_next(6).tables[0].players)
    assert table1[2] in final and table1[1] not in final


def first_stage_with_a_tie(name: str, n: int, table: int) -> tuple[EventState, tuple[str, ...]]:
    """League first stage: seat order is table order, except seats A and B of ``table``
    level for first place. Returns the state and that table's players."""
    state = EventState.replay(preset(name), check_in_all(make_players(n)))
    seated = state.draw_next(3)
    points = {pid: (0, -10 * i) for t in seated.tables for i, pid in enumerate(t.players)}
    players = seated.tables[table - 1].players
    points[players[1]] = points[players[0]]
    return play_round(state, 3, random.Random(0), fixed=per_player(points)), players


def test_league_top16_a_tie_at_a_table_changes_the_placement_table() -> None:
    state, t2 = first_stage_with_a_tie("league-top16", 16, 2)
    with pytest.raises(TieAtCutError) as caught:
        state.draw_next(4)
    assert [(t.scope, set(t.players)) for t in caught.value.ties] == [
        ("tables/table-2", {t2[0], t2[1]})
    ]
    decided = state.apply(TieDecided("tables/table-2", (t2[1], t2[0])))
    placement = decided.draw_next(4).tables
    assert t2[1] in placement[0].players and t2[0] in placement[1].players


def test_league_top8_level_for_first_and_second_both_reach_the_final() -> None:
    state, t1 = first_stage_with_a_tie("league-top8", 8, 1)
    assert state.pending_ties() == ()
    final = state.draw_next(4).tables[0].players
    assert {t1[0], t1[1]} <= set(final)


def test_final_places_with_different_titles_or_league_points_are_the_judges() -> None:
    players = make_players(8)
    # everyone level in every game: the finals share places at both tables
    flat = per_player({p.id: (0, 0) for p in players})
    state = EventState.replay(preset("league-top8"), check_in_all(players))
    state = play_round(state, 3, random.Random(0), fixed=flat)
    ties = state.pending_ties()
    assert [t.scope for t in ties] == ["tables/table-1", "tables/table-2"]
    for tie in ties:  # the judge's order at each first-stage table
        state = state.apply(TieDecided(tie.scope, tie.players))
    state = play_round(state, 4, random.Random(0), fixed=flat)
    assert state.phase is EventPhase.FINISHED
    ties = state.ranking_ties()
    assert [len(t.players) for t in ties] == [4, 4]
    with pytest.raises(TieAtCutError, match="league points"):
        state.league_points()
    final, consolation = ties
    state = state.apply(TieDecided("ranking", final.players, TieHow.SHARED))
    order = lot_order(consolation.players, 9)
    state = state.apply(TieDecided("ranking", order, TieHow.LOT, 9))
    assert state.ranking_ties() == ()
    points = state.league_points()
    assert [points[pid] for pid in final.players] == [9, 9, 9, 9]  # shared 1st place
    assert [points[pid] for pid in order] == [4, 3, 2, 1]  # places 5–8 by the lot
    assert [r.place for r in state.final_ranking()] == [1, 1, 1, 1, 5, 6, 7, 8]
