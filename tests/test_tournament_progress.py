"""The event fold: facts, replay, late arrivals, withdrawals and bad input."""

from __future__ import annotations

import random

import msgspec
import pytest
from test_tournament_support import make_players, play_event, play_round, win_only

from hub.tournament import (
    EventPhase,
    EventState,
    GameRecorded,
    MissingResultsError,
    Player,
    PlayerCheckedIn,
    PlayerLateArrived,
    PlayerRegistered,
    PlayerScore,
    PlayerStatusError,
    PlayerWithdrawn,
    ResultError,
    RoundClosed,
    RoundStateError,
    RoundUndone,
    SeatingMismatchError,
    UnknownPlayerError,
    check_in_all,
    decode_fact,
    encode_fact,
    preset,
    seat_next,
)
from hub.tournament.errors import DuplicatePlayerError


def _start(name: str = "school", n: int = 10) -> EventState:
    return EventState.replay(preset(name), check_in_all(make_players(n)))


def _record_all(state: EventState, rng: random.Random) -> EventState:
    stage = state.current_stage
    assert stage is not None
    for table in state.seating(stage.name):
        for game in range(1, stage.games + 1):
            scores = win_only(table.players, rng)
            state = state.apply(
                GameRecorded(
                    stage.name,
                    table.number,
                    game,
                    tuple(PlayerScore(p, b, s) for p, (b, s) in scores.items()),
                )
            )
    return state


def test_replay_of_the_recorded_facts_rebuilds_the_same_event() -> None:
    state, log = play_event(preset("championship"), make_players(19), seed=4)
    again = EventState.replay(preset("championship"), log)
    assert again.final_ranking() == state.final_ranking()
    assert again.facts_applied == len(log)
    wire = [encode_fact(f) for f in log]
    decoded = [decode_fact(b) for b in wire]
    assert decoded == log
    assert EventState.replay(preset("championship"), decoded).final_ranking() == (
        state.final_ranking()
    )
    assert b'"fact":"round-seated"' in next(w for w in wire if b"round-seated" in w)


def test_draw_is_reproducible_from_its_seed() -> None:
    state = _start("winter", 13)
    assert state.draw_next(42) == state.draw_next(42)
    assert state.draw_next(42) != state.draw_next(43)
    assert state.draw_next(42).seed == 42


def test_phases_missing_results_and_closing() -> None:
    state = _start("school", 7)
    assert state.phase is EventPhase.REGISTRATION
    state, fact = seat_next(state, 5)
    assert state.phase is EventPhase.PLAYING
    assert [(m.table, m.game) for m in state.missing_results()] == [(1, 1), (1, 2), (2, 1), (2, 2)]
    assert not state.can_close()
    with pytest.raises(
        MissingResultsError,
        match=r"close round-1: no result for table 1 game 1, "
        r"table 1 game 2, table 2 game 1, table 2 game 2",
    ):
        state.apply(RoundClosed("round-1"))
    t2 = fact.tables[1]
    scores = tuple(
        PlayerScore(p, int(i == 0), 10 if i == 0 else -5) for i, p in enumerate(t2.players)
    )
    partial = state.apply(GameRecorded("round-1", 2, 1, scores))
    assert [(m.table, m.game) for m in partial.missing_results()] == [(1, 1), (1, 2), (2, 2)]
    assert state.missing_results() != partial.missing_results()  # apply returns a new state
    with pytest.raises(RoundStateError, match="round-1 is still open"):
        partial.draw_next(1)
    full = _record_all(state, random.Random(1))
    assert full.can_close()
    closed = full.apply(RoundClosed("round-1"))
    assert closed.phase is EventPhase.BETWEEN_ROUNDS
    assert closed.current_stage is not None and closed.current_stage.name == "round-2"
    with pytest.raises(RoundStateError, match="close round-1: it is not the open stage"):
        closed.apply(RoundClosed("round-1"))


def test_bad_results_are_named() -> None:
    state, fact = seat_next(_start("school", 8), 3)
    t1 = fact.tables[0].players
    good = tuple(PlayerScore(p, 0, 0) for p in t1)
    with pytest.raises(ResultError, match="no table 3"):
        state.apply(GameRecorded("round-1", 3, 1, good))
    with pytest.raises(ResultError, match="no game 3"):
        state.apply(GameRecorded("round-1", 1, 3, good))
    with pytest.raises(ResultError, match="do not match the table's"):
        state.apply(GameRecorded("round-1", 1, 1, good[:3]))
    with pytest.raises(ResultError, match=r"round-2: not drawn \(drawn: round-1\)"):
        state.apply(GameRecorded("round-2", 1, 1, good))


def test_correction_replaces_the_game() -> None:
    state, fact = seat_next(_start("school", 8), 3)
    players = fact.tables[0].players
    first = tuple(
        PlayerScore(p, int(p == players[0]), 30 if p == players[0] else -10) for p in players
    )
    fixed = tuple(
        PlayerScore(p, int(p == players[1]), 30 if p == players[1] else -10) for p in players
    )
    state = state.apply(GameRecorded("round-1", 1, 1, first)).apply(
        GameRecorded("round-1", 1, 1, fixed)
    )
    assert state.table_standings("round-1", 1).rows[0].player_id == players[1]
    assert state.table_standings("round-1", 1).row(players[0]).games == 1


def test_withdraw_unknown_player() -> None:
    with pytest.raises(UnknownPlayerError, match="withdraw: unknown player 'p99'"):
        _start().apply(PlayerWithdrawn("p99"))
    state = _start().apply(PlayerWithdrawn("p01", "ill"))
    with pytest.raises(PlayerStatusError, match="'p01' has already withdrawn"):
        state.apply(PlayerWithdrawn("p01"))


def test_registration_errors() -> None:
    state = _start()
    with pytest.raises(DuplicatePlayerError, match="'p01' is already registered"):
        state.apply(PlayerRegistered(Player("p01", "Again")))
    with pytest.raises(UnknownPlayerError, match="check-in: unknown player 'zz'"):
        state.apply(PlayerCheckedIn("zz"))
    with pytest.raises(PlayerStatusError, match="'p02' is already present"):
        state.apply(PlayerCheckedIn("p02"))
    with pytest.raises(RoundStateError, match="nothing is drawn yet, check the player in"):
        state.apply(PlayerRegistered(Player("new", "New"))).apply(PlayerLateArrived("new"))


def test_only_checked_in_players_are_drawn() -> None:
    facts = [*check_in_all(make_players(8)), PlayerRegistered(Player("ghost", "No Show"))]
    state = EventState.replay(preset("winter"), facts)
    seated = {pid for t in state.draw_next(1).tables for pid in t.players}
    assert seated == {f"p{i:02d}" for i in range(1, 9)}


def test_late_arrival_and_withdrawal_change_the_next_draw() -> None:
    rng = random.Random(8)
    state = play_round(_start("school", 11), 1, rng)
    assert len(state.seating("round-1")) == 3
    with pytest.raises(RoundStateError, match="record a late arrival"):
        state.apply(PlayerRegistered(Player("late", "Late"))).apply(PlayerCheckedIn("late"))
    state = state.apply(PlayerRegistered(Player("late", "Late"))).apply(PlayerLateArrived("late"))
    state = state.apply(PlayerWithdrawn("p03", "went home"))
    state = play_round(state, 2, rng)
    seated = [pid for t in state.seating("round-2") for pid in t.players]
    assert "late" in seated and "p03" not in seated
    assert len(seated) == 11
    standings = state.standings("round-2")
    assert standings.row("late").games == 2
    assert "p03" not in standings.ids()
    # a withdrawal during a round still needs that round's results
    state, _ = seat_next(state.apply(PlayerWithdrawn("p04")), 3)
    assert any("p04" not in t.players for t in state.seating("round-3"))
    assert state.missing_results()
    state = _record_all(state, rng).apply(RoundClosed("round-3"))
    state = play_round(state, 4, rng)
    ranking = state.final_ranking()
    assert [r.player_id for r in ranking if r.stage == "round-1"] == ["p03"]
    assert ranking[-1].player_id == "p03"


def test_withdrawn_finalist_is_replaced_by_the_next_at_the_table() -> None:
    fmt = preset("league-top8")
    rng = random.Random(2)
    state = play_round(EventState.replay(fmt, check_in_all(make_players(8))), 11, rng)
    table_one = state.table_standings("tables", 1)
    winner = table_one.rows[0].player_id
    state = state.apply(PlayerWithdrawn(winner))
    draw = state.draw_next(12)
    final, consolation = draw.tables
    assert winner not in final.players + consolation.players
    assert len(final.players) == 4 and len(consolation.players) == 3


def test_draw_audit_finds_a_tampered_seating() -> None:
    state = _start("school", 8)
    fact = state.draw_next(9)
    t1, t2 = fact.tables
    swapped = msgspec.structs.replace(
        fact,
        tables=(
            msgspec.structs.replace(t1, players=(t2.players[0], *t1.players[1:])),
            msgspec.structs.replace(t2, players=(t1.players[0], *t2.players[1:])),
        ),
    )
    with pytest.raises(SeatingMismatchError, match="differ from the draw of seed 9"):
        state.audit_draw(swapped)
    state.audit_draw(fact)
    assert state.apply(swapped).seating("round-1") == swapped.tables  # what was played stands
    with pytest.raises(RoundStateError, match="next stage to draw is round-1"):
        state.apply(msgspec.structs.replace(fact, stage="round-2"))


def test_seeds_by_rating_when_none_declared() -> None:
    players = [Player(f"r{i}", f"R{i}", rating=float(i)) for i in range(1, 17)]
    state = EventState.replay(preset("league-top16"), check_in_all(players))
    for seed in range(10):
        tables = state.draw_next(seed).tables
        assert [t.players[0] for t in tables] == ["r16", "r15", "r14", "r13"]


def test_has_result_answers_without_copying() -> None:
    state = _start("school", 8)
    seated = state.draw_next(1)
    state = state.apply(seated)
    table = seated.tables[0]
    assert not state.has_result(seated.stage, 1, 1)
    scores = tuple(PlayerScore(pid, int(i == 0), 10 if i == 0 else -5) for i, pid in
                   enumerate(table.players))
    state = state.apply(GameRecorded(seated.stage, 1, 1, scores))
    assert state.has_result(seated.stage, 1, 1) and not state.has_result(seated.stage, 1, 2)


def test_an_earlier_round_is_corrected_after_the_next_is_drawn() -> None:
    state = _record_all(seat_next(_start("school", 8), 3)[0], random.Random(2))
    state = state.apply(RoundClosed("round-1"))
    drawn, _ = seat_next(state, 4)
    table = drawn.seating("round-1")[0]
    before = drawn.standings("round-1")
    last = table.players[-1]
    scores = tuple(PlayerScore(p, int(p == last), 99 if p == last else -33) for p in table.players)
    fixed = drawn.apply(GameRecorded("round-1", 1, 1, scores))
    assert fixed.results("round-1")[(1, 1)][last] == (1, 99)
    assert fixed.standings("round-1") != before
    assert fixed.seating("round-2") == drawn.seating("round-2")  # the tables played stay
    # The state it was applied to is unchanged: earlier rounds are copied before a write.
    assert drawn.standings("round-1") == before
    assert drawn.results("round-1")[(1, 1)] != fixed.results("round-1")[(1, 1)]


def test_the_latest_draw_is_undone_before_any_result() -> None:
    state = _record_all(seat_next(_start("school", 8), 3)[0], random.Random(2))
    closed = state.apply(RoundClosed("round-1"))
    drawn, fact = seat_next(closed, 4)
    undone = drawn.apply(RoundUndone("round-2"))
    assert undone.stages_played == ("round-1",) and undone.phase is EventPhase.BETWEEN_ROUNDS
    assert undone.draw_next(4) == fact  # drawn again as if never drawn
    with pytest.raises(RoundStateError, match=r"only the latest draw.*latest: round-1, closed"):
        undone.apply(RoundUndone("round-1"))
    with pytest.raises(RoundStateError, match=r"results are recorded \(table 1 game 1, "):
        state.apply(RoundUndone("round-1"))
    first = seat_next(_start("school", 8), 3)[0]
    assert first.apply(RoundUndone("round-1")).phase is EventPhase.REGISTRATION
