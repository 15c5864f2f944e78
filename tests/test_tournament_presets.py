"""Every preset played end to end, with random valid results and with hand-set ones."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest
from test_tournament_support import (
    Scores,
    check_invariants,
    make_players,
    placement,
    play_event,
)

from hub.tournament import (
    PRESET_NAMES,
    ConsolationDecided,
    ConsolationError,
    EventState,
    Fact,
    FormatError,
    GameRecorded,
    PlayerCountError,
    RoundStateError,
    SeatedTable,
    TournamentFormat,
    check_in_all,
    compute_standings,
    league_scheme_for,
    preset,
    table_sizes,
    tournament_points,
)
from hub.tournament.presets import league

WIN_ONLY_BP = (1, 0, 0, 0)
PLACEMENT_BP = {4: (4, 2, 1, 0), 3: (4, 2, 0)}


def by_seat(stages: set[str], placement_bp: bool = False) -> Callable[..., Scores | None]:
    """Hand-set results: at every table of ``stages`` the last seat goes out, and the
    earlier a seat the larger its rack (10 per place below the winner, plus the table
    number, so that equal places at different tables never tie)."""

    def fixed(stage: str, table: int, game: int, players: tuple[str, ...]) -> Scores | None:
        if stage not in stages:
            return None
        return _seat_scores(players, table, placement_bp)

    return fixed


def _seat_scores(players: Sequence[str], table: int, placement_bp: bool) -> Scores:
    n = len(players)
    racks = {players[i]: 10 * (n - 1 - i) + table for i in range(n - 1)}
    bp = PLACEMENT_BP[n] if placement_bp else WIN_ONLY_BP
    scores = {pid: (bp[n - 1 - i], -racks[pid]) for i, pid in enumerate(players[:-1])}
    scores[players[-1]] = (bp[0], sum(racks.values()))
    return scores


def cross_order(tables: Sequence[SeatedTable], games: int, placement_bp: bool = False) -> list[str]:
    """Expected order across tables (table place, BP, SP) under :func:`by_seat` results."""
    keys = []
    for t in tables:
        scores = _seat_scores(t.players, t.number, placement_bp)
        n = len(t.players)
        for i, pid in enumerate(t.players):
            big, small = scores[pid]
            keys.append((n - i, -big * games, -small * games, pid))
    return [k[-1] for k in sorted(keys)]


def fill(order: Sequence[str]) -> list[tuple[str, ...]]:
    out, start = [], 0
    for size in table_sizes(len(order)):
        out.append(tuple(order[start : start + size]))
        start += size
    return out


def tables_of(state: EventState, stage: str) -> list[tuple[str, ...]]:
    return [t.players for t in state.seating(stage)]


# --------------------------------------------------------------------------- winter


@pytest.mark.parametrize("n", [3, 4, 6, 7, 9, 10, 13, 21])
def test_winter_end_to_end(n: int) -> None:
    state, log = play_event(preset("winter"), make_players(n), seed=n)
    check_invariants(state, log)
    after_one = state.standings("round-1")
    places = [[after_one.place_of(pid) for pid in table] for table in tables_of(state, "round-2")]
    flat = [p for table in places for p in table]
    assert flat == sorted(flat)  # seated by standings: best at table 1, seat A first
    assert [len(t) for t in places] == list(table_sizes(n))
    final = state.final_ranking()
    again = compute_standings(
        [g for s in ("round-1", "round-2") for g in state.results(s).values()]
    )
    assert [(r.place, r.player_id) for r in final] == [(r.place, r.player_id) for r in again.rows]
    for row in final:
        expected = {1: "school champion", 2: "vice-champion", 3: "vice-champion"}.get(row.place)
        assert row.title == expected


def test_winter_hand_set_lowest_id_always_wins() -> None:
    def lowest_wins(stage: str, table: int, game: int, players: tuple[str, ...]) -> Scores:
        return _seat_scores(sorted(players, reverse=True), table, False)

    state, log = play_event(preset("winter"), make_players(8), 1, fixed=lowest_wins)
    check_invariants(state, log)
    round_one = tables_of(state, "round-1")
    winners = sorted(min(t) for t in round_one)
    seconds = sorted(sorted(t)[1] for t in round_one)
    assert set(tables_of(state, "round-2")[0]) == {*winners, *seconds}
    final = state.final_ranking()
    assert (final[0].player_id, final[0].big, final[0].title) == ("p01", 6, "school champion")
    assert [r.title for r in final[1:3]] == ["vice-champion", "vice-champion"]


def test_winter_rejects_five() -> None:
    state = EventState.replay(preset("winter"), check_in_all(make_players(5)))
    with pytest.raises(PlayerCountError, match="5 players cannot be split"):
        state.draw_next(1)


# --------------------------------------------------------------------------- school


@pytest.mark.parametrize("n", [3, 7, 11, 18, 24, 30])
def test_school_end_to_end(n: int) -> None:
    state, log = play_event(preset("school"), make_players(n), seed=n)
    check_invariants(state, log)
    assert state.stages_played == ("round-1", "round-2", "round-3", "round-4")
    all_games = [g for s in state.stages_played for g in state.results(s).values()]
    final = state.final_ranking()
    again = compute_standings(all_games)
    assert [(r.place, r.player_id, r.big, r.small) for r in final] == [
        (r.place, r.player_id, r.big, r.small) for r in again.rows
    ]
    assert all(r.games == 8 for r in final)
    assert [r.title for r in final if r.title] == ["winner"] * sum(r.place == 1 for r in final)


def test_school_hand_set_winner() -> None:
    def p05_wins(stage: str, table: int, game: int, players: tuple[str, ...]) -> Scores | None:
        if "p05" not in players:
            return None
        return _seat_scores([*(p for p in players if p != "p05"), "p05"], table, False)

    state, log = play_event(preset("school"), make_players(14), 3, fixed=p05_wins)
    check_invariants(state, log)
    final = state.final_ranking()
    assert (final[0].player_id, final[0].big, final[0].title) == ("p05", 8, "winner")
    assert final[1].place == 2


# --------------------------------------------------------------------------- championship


@pytest.mark.parametrize("n", [16, 17, 18, 23, 36])
@pytest.mark.parametrize("semifinal", [8, 6])
def test_championship_end_to_end(n: int, semifinal: int) -> None:
    fmt = preset("championship", players=n, semifinal=semifinal)
    state, log = play_event(fmt, make_players(n), seed=n * semifinal, results=placement)
    check_invariants(state, log)
    elim = state.standings("elimination-3")
    semi_tables = tables_of(state, "semifinal")
    semi = [pid for t in semi_tables for pid in t]
    assert len(semi) == semifinal
    cut = max(elim.place_of(pid) for pid in semi)
    assert all(elim.place_of(pid) <= cut for pid in semi)
    assert {r.player_id for r in elim.rows if r.place < cut} <= set(semi)
    # seeded snake: place order alternates between the two tables
    snake = [semi_tables[i % 2][i // 2] for i in range(semifinal)]
    snake_places = [elim.place_of(pid) for pid in snake]
    assert snake_places == sorted(snake_places)
    # final: the top 2 of each semifinal table (by BP then SP at that table)
    final_players = set(tables_of(state, "final")[0])
    assert len(final_players) == 4
    for number in (1, 2):
        table = state.table_standings("semifinal", number)
        mine = [pid for pid in table.ids() if pid in final_players]
        assert len(mine) == 2
        assert max(table.place_of(p) for p in mine) <= min(
            table.place_of(p) for p in table.ids() if p not in final_players
        )
    ranking = state.final_ranking()
    assert [r.stage for r in ranking[:4]] == ["final"] * 4
    final_table = compute_standings(state.results("final").values())
    # the final's order; players level there at a title were ordered by the judge's lot
    placed = [final_table.place_of(r.player_id) for r in ranking[:4]]
    assert placed == sorted(placed) and {r.player_id for r in ranking[:4]} == set(
        final_table.ids()
    )
    assert [r.place for r in ranking[:4]] == [1, 2, 3, 4]
    losers = [r for r in ranking if r.stage == "semifinal"]
    assert [r.place for r in losers][:1] == [5] and len(losers) == semifinal - 4
    semi_st = state.standings("semifinal")
    assert [semi_st.place_of(r.player_id) for r in losers] == sorted(
        semi_st.place_of(r.player_id) for r in losers
    )
    rest = [r for r in ranking if r.stage == "elimination-3"]
    assert [elim.place_of(r.player_id) for r in rest] == sorted(
        elim.place_of(r.player_id) for r in rest
    )
    assert len(ranking) == n
    assert ranking[0].title == "champion"


def test_championship_hand_set_semifinal_and_final() -> None:
    fmt = preset("championship")
    state, log = play_event(
        fmt, make_players(20), 9, results=placement, fixed=by_seat({"semifinal", "final"}, True)
    )
    check_invariants(state, log)
    semi = state.seating("semifinal")
    (s1, s2) = (semi[0].players, semi[1].players)
    # top 2 per semifinal table = the last two seats; seated by table placement
    expected_final = [pid for pid in cross_order(semi, 2, True) if pid in {*s1[2:], *s2[2:]}]
    assert tables_of(state, "final") == [tuple(expected_final)]
    ranking = state.final_ranking()
    assert [r.player_id for r in ranking[:4]] == list(reversed(expected_final))
    # places 5–8: semifinal losers by BP then SP over the semifinal (B seats, then A seats)
    assert [r.player_id for r in ranking[4:8]] == [s1[1], s2[1], s1[0], s2[0]]
    assert [r.place for r in ranking[:8]] == list(range(1, 9))
    assert [r.title for r in ranking[:4]] == [
        "champion",
        "vice-champion",
        "second vice-champion",
        None,
    ]


@pytest.mark.parametrize("n", [15, 37])
def test_championship_rejects_counts_outside_16_to_36(n: int) -> None:
    with pytest.raises(PlayerCountError, match=rf"{n} players, it needs 16–36"):
        preset("championship", players=n)
    state = EventState.replay(preset("championship"), check_in_all(make_players(n)))
    with pytest.raises(PlayerCountError, match=rf"{n} players, it needs 16–36"):
        state.draw_next(1)


@pytest.mark.parametrize("semifinal", [7, 10, 5])
def test_championship_semifinal_is_eight_or_six_at_creation(semifinal: int) -> None:
    with pytest.raises(FormatError, match=rf"a semifinal of {semifinal} players; 002 .* 8 or 6"):
        preset("championship", semifinal=semifinal)


@pytest.mark.parametrize(
    ("name", "described", "n"),
    [("winter", "Winter tournament", 5), ("school", "Inter-school contest", 5),
     ("winter", "Winter tournament", 2)],
)
def test_a_count_the_first_stage_cannot_seat_is_refused_at_creation(
    name: str, described: str, n: int
) -> None:
    with pytest.raises(PlayerCountError, match=rf"'{described} .*{n} players"):
        preset(name, players=n)


def test_a_league_scheme_built_for_a_count_checks_it_at_creation() -> None:
    with pytest.raises(PlayerCountError, match="TOP32 scheme': 20 players, it needs 21–23"):
        league("top32", players=20)
    with pytest.raises(PlayerCountError, match="TOP12 scheme': 13 players, it needs 9–12"):
        league("top12", players=13)


# --------------------------------------------------------------------------- league


@pytest.mark.parametrize(
    ("n", "scheme", "first_tables"),
    [
        (8, "top8", 2),
        (10, "top12", 3),
        (12, "top12", 3),
        (13, "top16", 4),
        (14, "top16", 4),
        (16, "top16", 4),
        (17, "top20", 5),
        (18, "top20", 5),
        (20, "top20", 5),
        (22, "top32", 7),
        (24, "top32", 8),
        (27, "top32", 8),
        (32, "top32", 8),
    ],
)
def test_league_end_to_end(n: int, scheme: str, first_tables: int) -> None:
    assert league_scheme_for(n) == scheme
    fmt = preset("league", players=n)
    assert fmt.name == f"league-{scheme}"
    state, log = play_event(fmt, make_players(n), seed=n, extra=awkward(fmt, n))
    check_invariants(state, log)
    assert len(state.seating("tables")) == first_tables
    ranking = state.final_ranking()
    assert sorted(r.player_id for r in ranking) == sorted(p.id for p in make_players(n))
    last = state.stages_played[-1]
    finalists = [pid for t in tables_of(state, last) for pid in t]
    assert {r.player_id for r in ranking[: len(finalists)]} == set(finalists)
    points = state.league_points()
    assert points == {r.player_id: tournament_points(r.place, n) for r in ranking}
    assert all(points[r.player_id] == 0 for r in ranking if r.place > 16)


def awkward(fmt: TournamentFormat, n: int) -> list[Fact]:
    """The organizer's decision for counts whose consolation players cannot sit at tables
    of 3 or 4 (TOP 20: 17 → 2 left, both move up; 20 → 5 left, 1 moves up; TOP 32: 21 →
    5 left, 1 moves up)."""
    promote = {("league-top20", 17): 2, ("league-top20", 20): 1, ("league-top32", 21): 1}
    k = promote.get((fmt.name, n))
    return [] if k is None else [ConsolationDecided(fmt.stages[1].name, promote=k)]


def _league_expected(state: EventState) -> None:
    """Check seating and final ranking of a league event played with :func:`by_seat`."""
    stages = state.stages_played
    first = state.seating("tables")
    scheme = state.format.name
    if scheme == "league-top8":
        order = cross_order(first, 2)
        top2 = {pid for t in first for pid in t.players[-2:]}
        final = tuple(p for p in order if p in top2)
        consolation = tuple(p for p in order if p not in top2)
        assert tables_of(state, "finals") == [final, consolation]
    else:
        source = first
        if len(stages) == 3:
            middle = state.seating(stages[1])
            main = [t for t in middle if t.group == stages[1]]
            consolation = [t for t in middle if t.group == "consolation"]
            qualified = {pid for t in main for pid in t.players}
            if scheme == "league-top20":
                base = {pid for t in first for pid in t.players[-3:]}
            else:
                base = set(cross_order(first, 2)[:16])
            rest = [pid for pid in cross_order(first, 2) if pid not in base]
            moved_up = len(qualified) - len(base)
            assert qualified == base | set(rest[:moved_up])
            assert sorted(pid for t in consolation for pid in t.players) == sorted(
                rest[moved_up:]
            )
            source = main
        assert tables_of(state, "placement") == fill(cross_order(source, 2))
    last = state.seating(stages[-1])
    expected = [pid for t in last for pid in reversed(t.players)]
    if len(stages) == 3:
        expected += cross_order(consolation, 2)
    expected += [pid for pid in cross_order(first, 2) if pid not in set(expected)]
    ranking = state.final_ranking()
    assert [r.player_id for r in ranking] == expected
    assert [r.place for r in ranking] == list(range(1, len(expected) + 1))


@pytest.mark.parametrize("n", [8, 10, 12, 13, 16, 17, 20, 22, 27, 32])
def test_league_hand_set_results(n: int) -> None:
    fmt = preset("league", players=n)
    stage_names = {s.name for s in fmt.stages}
    state, log = play_event(
        fmt, make_players(n), seed=7 * n, fixed=by_seat(stage_names), extra=awkward(fmt, n)
    )
    check_invariants(state, log)
    _league_expected(state)
    points = state.league_points()
    ranking = state.final_ranking()
    if n == 8:
        assert [points[r.player_id] for r in ranking] == [9, 7, 6, 5, 4, 3, 2, 1]
    if n == 32:
        assert all(points[r.player_id] == 0 for r in ranking[16:])


def test_league_top20_who_does_not_qualify_plays_the_consolation_for_16_to_20() -> None:
    fmt = preset("league-top20")
    state, log = play_event(fmt, make_players(19), seed=5, fixed=by_seat({"tables"}))
    ranking = state.final_ranking()
    fourths = {t.players[0] for t in state.seating("tables") if len(t.players) == 4}
    assert len(fourths) == 4  # 19 players: 4, 4, 4, 4, 3
    assert {r.player_id for r in ranking[15:]} == fourths
    assert [r.place for r in ranking[15:]] == [16, 17, 18, 19]
    assert all(r.stage == "top-15" for r in ranking[15:])  # ranked by the consolation
    consolation = [t for t in state.seating("top-15") if t.group == "consolation"]
    assert [set(t.players) for t in consolation] == [fourths]
    played = games_played(log)
    assert [played[pid] for pid in fourths] == [4] * 4


def games_played(log: Sequence[Fact]) -> dict[str, int]:
    played: dict[str, int] = {}
    for fact in log:
        if isinstance(fact, GameRecorded):
            for score in fact.scores:
                played[score.player_id] = played.get(score.player_id, 0) + 1
    return played


@pytest.mark.parametrize(
    ("name", "n", "left", "promote", "qualified", "consolation"),
    [
        ("league-top20", 17, 2, 2, 17, 0),
        ("league-top20", 20, 5, 1, 16, 4),
        ("league-top20", 20, 5, 2, 17, 3),
        ("league-top32", 21, 5, 1, 17, 4),
    ],
)
def test_every_participant_plays_at_least_four_games(
    name: str, n: int, left: int, promote: int, qualified: int, consolation: int
) -> None:
    """003 §7; 2 or 5 left over cannot sit at tables of 3 or 4: the organizer is asked."""
    fmt = preset(name, players=n)
    with pytest.raises(ConsolationError, match=rf"{left} player\(s\) do not reach") as caught:
        play_event(fmt, make_players(n), seed=n)
    assert len(caught.value.players) == left and promote in caught.value.options
    decided = [ConsolationDecided(fmt.stages[1].name, promote=promote)]
    state, log = play_event(fmt, make_players(n), seed=n, extra=decided)
    played = games_played(log)
    assert len(played) == n and min(played.values()) >= 4
    middle = state.seating(fmt.stages[1].name)
    assert sum(len(t.players) for t in middle if t.group != "consolation") == qualified
    assert sum(len(t.players) for t in middle if t.group == "consolation") == consolation
    assert sorted(played.values()).count(6) == qualified


def test_the_organizer_may_decide_no_consolation_games() -> None:
    fmt = preset("league-top20", players=17)
    decided = [ConsolationDecided("top-15", none=True)]
    state, log = play_event(fmt, make_players(17), seed=17, extra=decided)
    played = games_played(log)
    assert sorted(played.values()) == [2, 2] + [6] * 15
    ranking = state.final_ranking()
    assert [r.stage for r in ranking[15:]] == ["tables", "tables"]


@pytest.mark.parametrize("n", [7, 33])
def test_league_automatic_choice_range(n: int) -> None:
    with pytest.raises(PlayerCountError, match=rf"league: {n} players, .*8–32"):
        preset("league", players=n)


def test_league_scheme_ranges_and_names() -> None:
    with pytest.raises(PlayerCountError, match="TOP16 scheme': 11 players, it needs 12–16"):
        preset("league-top16", players=11)
    with pytest.raises(FormatError, match="needs the number of players"):
        preset("league")
    with pytest.raises(FormatError, match="unknown preset 'top9'"):
        preset("top9")
    counts = {"league-top8": 8, "league-top12": 12, "league-top20": 20, "league-top32": 32}
    for name in PRESET_NAMES:
        fmt = preset(name, players=counts.get(name, 16))
        assert fmt.name == ("league-top16" if name == "league" else name)


def test_final_ranking_before_the_end_is_refused() -> None:
    state = EventState.replay(preset("winter"), check_in_all(make_players(8)))
    with pytest.raises(RoundStateError, match="not finished"):
        state.final_ranking()
