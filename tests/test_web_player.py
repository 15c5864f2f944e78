"""A player's own page: their games round by round, their place and their time use from
the moves their tables' units journalled (hub.time_use, pure, tested on known moves), on
an event made by the organizer's command line with the units' events in the real store."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_cli_support import Cli, checked_in, play_rounds
from test_web import client_for, text_of
from web_console import EventStream, school_hall, serve_console

from hub.exports.pages import printed_number
from hub.store import EventStore
from hub.time_use import DrawnStage, Move, TableEvent, played_moves, stage_of, time_use
from hub.tournament.standings import signed
from tablekit.core.clock_events import (
    ClockPaused,
    GameStarted,
    MovePassed,
    MoveTimedOut,
    PassUndone,
    PauseReason,
)
from tablekit.core.messages import AnyUnitEvent, envelope
from tablekit.core.result import ResultSubmitted
from tablekit.core.scoring import GameEnding, GameReport, RackReport
from tablekit.core.seats import Seat
from tablekit.core.topics import Topics

A, B, C, D = Seat.A, Seat.B, Seat.C, Seat.D
STAGES = (DrawnStage("round-1", 1, 1000.0), DrawnStage("round-2", 2, 5000.0))


def journal(source: str, ts: float, *events: AnyUnitEvent) -> list[TableEvent]:
    """``events`` as one unit journalled them: seq 1, 2, …, a second apart from ``ts``."""
    return [TableEvent(source, seq, ts + seq, e) for seq, e in enumerate(events, start=1)]


def passed(game: int, move: int, seat: Seat, used: float, **late: object) -> MovePassed:
    return MovePassed(game=game, move=move, seat=seat, used=used, **late)  # type: ignore[arg-type]


def started(game: int) -> GameStarted:
    return GameStarted(game=game, move=1, starter=A, seats=4, move_seconds=40.0)


def submitted(game: int, move: int, round_no: int) -> ResultSubmitted:
    racks = (RackReport(A), RackReport(B, 10), RackReport(C, 20), RackReport(D, 30))
    report = GameReport(game=game, ending=GameEnding.WENT_OUT, racks=racks)
    return ResultSubmitted(game=game, move=move, report=report, round=round_no)


# --- time use from known moves (pure) -----------------------------------------------------


def test_average_longest_and_timeouts_of_a_seat() -> None:
    moves = [
        Move(1, A, 10.0, False), Move(2, B, 5.0, False), Move(3, A, 40.0, True, 6.5),
        Move(4, B, 7.0, False), Move(5, A, 4.0, False), Move(6, B, None, True),
    ]
    a = time_use(moves, A)
    assert (a.moves, a.total, a.longest, a.timeouts) == (3, 54.0, 40.0, 1)
    assert a.average == 18.0
    b = time_use(moves, B)
    assert (b.moves, b.average, b.longest, b.timeouts) == (2, 6.0, 7.0, 1)  # move 6 never pressed
    assert time_use(moves, C).average == 0.0 and time_use(moves, C).moves == 0
    both = a + b
    assert (both.moves, both.total, both.longest, both.timeouts) == (5, 66.0, 40.0, 2)


def test_an_undone_pass_counts_once_with_the_time_of_the_move_played_again() -> None:
    events = journal(
        "table-01", 2000.0,
        started(1),
        passed(1, 1, A, 12.0),
        passed(1, 2, B, 3.0),  # B pressed too early ...
        PassUndone(game=1, move=2, seat=B, remaining=37.0),  # ... the judge undid it
        passed(1, 2, B, 9.0),  # B's whole move, the time before the undo included
        MoveTimedOut(game=1, move=3, seat=C),
        ClockPaused(game=1, move=3, seat=C, reason=PauseReason.JUDGE, remaining=0.0),
        passed(1, 3, C, 40.0, timed_out=True, overtime=4.0),
        submitted(1, 3, 1),
    )
    game = played_moves({1: events}, STAGES)[("round-1", 1, 1)]
    assert sorted(game) == [1, 2, 3]
    assert game[2] == Move(2, B, 9.0, False)
    assert game[3] == Move(3, C, 40.0, True, 4.0)
    assert time_use(game.values(), B).moves == 1
    assert time_use(game.values(), C).timeouts == 1


def test_game_one_of_each_round_is_told_apart() -> None:
    """Units number games within a round: table 1's game 1 comes back in round 2. The
    result submission names the round (a late one too); a game without one (still being
    played, or its result entered by the judge) goes by the unit's clock."""
    round_1 = journal("table-01", 2000.0, started(1), passed(1, 1, A, 11.0),
                      submitted(1, 1, 1))
    round_2 = journal("table-01", 6000.0, started(1), passed(1, 1, A, 22.0), passed(1, 2, B, 8.0))
    late = journal("table-02", 6000.0, started(2), passed(2, 1, C, 33.0), submitted(2, 1, 1))
    round_2 = [TableEvent(e.source, e.seq + 3, e.ts, e.event) for e in round_2]
    moves = played_moves({1: round_1 + round_2, 2: late}, STAGES)
    assert moves[("round-1", 1, 1)] == {1: Move(1, A, 11.0, False)}
    assert moves[("round-2", 1, 1)] == {1: Move(1, A, 22.0, False), 2: Move(2, B, 8.0, False)}
    # delivered after round 2 was drawn, it names round 1
    assert moves[("round-1", 2, 2)] == {1: Move(1, C, 33.0, False)}
    assert stage_of(0, 999.0, STAGES) is None  # before any draw: no round's
    assert stage_of(3, 9999.0, STAGES) is None  # a round the event never drew


def test_a_game_played_again_replaces_and_a_replaced_unit_continues() -> None:
    first = journal("table-03", 2000.0, started(1), passed(1, 1, A, 30.0), passed(1, 2, B, 30.0))
    again = [TableEvent("table-03", 10 + e.seq, e.ts, e.event)
             for e in journal("", 2100.0, started(1), passed(1, 1, A, 5.0))]
    # the unit was replaced mid-game: its successor's journal goes on with the same game
    successor = journal("table-03@e2", 2200.0, passed(1, 2, B, 6.0), passed(1, 3, C, 7.0))
    moves = played_moves({3: first + again + successor}, STAGES)[("round-1", 3, 1)]
    assert moves == {1: Move(1, A, 5.0, False), 2: Move(2, B, 6.0, False),
                     3: Move(3, C, 7.0, False)}


# --- the page --------------------------------------------------------------------------------


def ingest(db: Path, table: int, ts: float, *events: AnyUnitEvent, unit: str = "") -> None:
    """``events`` stored as the hub stores what table ``table``'s unit sends."""
    store = EventStore(db)
    try:
        first = 1 + len(store.events(table=table, source=unit or f"table-{table:02d}"))
        store.ingest(
            envelope(unit or f"table-{table:02d}", table, first + i, ts + i, event)
            for i, event in enumerate(events)
        )
    finally:
        store.close()


@pytest.fixture
def hall(tmp_path: Path) -> Cli:
    return school_hall(tmp_path / "event.sqlite3")


def seat_of(c: Cli, player_id: str) -> tuple[int, Seat, list[str]]:
    comp = c.competition()
    (table,) = [t for t in comp.event.seating("round-1") if player_id in t.players]
    return table.number, Seat("ABCD"[table.players.index(player_id)]), list(table.players)


def moves_of(seat: Seat) -> list[AnyUnitEvent]:
    """Game 1 of a table of four, ``seat`` moving in 8.0, 12.0 and 40.0 s (timed out, 3 s
    late); the other seats in 5.0 s."""
    events: list[AnyUnitEvent] = [started(1)]
    own = iter([(8.0, False), (12.0, False), (40.0, True)])
    for move in range(1, 13):
        mover = "ABCD"[(move - 1) % 4]
        if mover == seat.value:
            used, late = next(own)
            if late:
                events.append(MoveTimedOut(game=1, move=move, seat=seat))
            events.append(passed(1, move, seat, used, timed_out=late,
                                 overtime=3.0 if late else 0.0))
        else:
            events.append(passed(1, move, Seat(mover), 5.0))
    return events


def test_the_page_shows_the_games_the_place_and_the_time_use(hall: Cli) -> None:
    table, seat, players = seat_of(hall, "P001")
    ingest(hall.db, table, 1_800_000_000.0, *moves_of(seat))
    racks = " ".join(f"{s}={0 if s == seat.value else 10 * (i + 1)}" for i, s in enumerate("ABCD"))
    hall.ok("result", "enter", "--table", str(table), "--game", "1", "--racks", racks)
    comp = hall.competition()
    with client_for(hall.db) as client:
        page = client.get("/players/P001")
        english = text_of(client.get("/players/P001", params={"lang": "en"}).text)
    assert page.status_code == 200
    words = text_of(page.text)
    assert "Łukasz Żółć SP 12" in words
    assert "Miejsce w klasyfikacji: 1" in words  # the only winner so far
    assert f"Stolik {table}, miejsce {seat} ({table}{seat})" in words
    for pid in players:
        if pid != "P001":
            name = comp.event.players[pid].name
            assert name in words
            assert f'href="/players/{pid}"' in page.text
    score = comp.history("round-1", table, 1)[-1].score.for_seat(seat)
    assert score.big > 0 and score.winner
    assert f"1 {score.big} +{score.small} 20,0 s 40,0 s 1" in words  # game 1's row
    assert "2 brak wyniku — — —" in words  # game 2 not played yet
    assert "Średni ruch 20,0 s Najdłuższy ruch 40,0 s Przekroczenia czasu 1" in words
    assert "Average move 20.0 s Longest move 40.0 s Timeouts 1 Moves timed 3" in english
    assert "Place 1 in the standings" in english and f"Table {table}, seat {seat}" in english


def test_an_opponents_moves_are_not_the_players(hall: Cli) -> None:
    table, seat, players = seat_of(hall, "P001")
    ingest(hall.db, table, 1_800_000_000.0, *moves_of(seat))
    other = next(pid for pid in players if pid != "P001")
    with client_for(hall.db) as client:
        words = text_of(client.get(f"/players/{other}").text)
    assert "Średni ruch 5,0 s Najdłuższy ruch 5,0 s Przekroczenia czasu 0" in words
    assert "1 brak wyniku 5,0 s 5,0 s 0" in words


def test_a_player_page_is_linked_from_find_and_standings(hall: Cli) -> None:
    with client_for(hall.db) as client:
        found = client.get("/find", params={"q": "zolc"}).text
        standings = client.get("/standings", params={"lang": "en"}).text
    assert '<a href="/players/P001">Łukasz Żółć</a>' in found
    assert '<a href="/players/P001?lang=en">Łukasz Żółć</a>' in standings


def test_an_unknown_player_and_an_event_not_yet_made(hall: Cli, tmp_path: Path) -> None:
    with client_for(hall.db) as client:
        unknown = client.get("/players/P999")
        posted = client.post("/players/P001")
    assert unknown.status_code == 404
    assert "W tym turnieju nie ma gracza P999." in text_of(unknown.text)
    assert posted.status_code == 405
    with client_for(tmp_path / "none.sqlite3") as client:
        assert client.get("/players/P001").status_code == 404
    assert not (tmp_path / "none.sqlite3").exists()


def test_before_the_draw_and_after_a_withdrawal(tmp_path: Path) -> None:
    c = Cli(tmp_path / "e.sqlite3")
    c.ok("event", "create", "--preset", "school", "--name", "Szkoła")
    c.ok("players", "add", "Ola Lis", "--check-in")
    with client_for(c.db) as client:
        before = text_of(client.get("/players/P001").text)
        c.ok("players", "withdraw", "P001", "--reason", "choroba")
        after = text_of(client.get("/players/P001").text)
    assert "Jeszcze nie rozlosowano" in before
    assert "Wycofała się z turnieju." in after


@pytest.mark.mqtt
def test_an_open_page_hears_a_new_result(hall: Cli, mosquitto) -> None:  # type: ignore[no-untyped-def]
    """The page follows its table's card and is told when the store changed; fetched
    again, it shows the new result."""
    table, seat, _ = seat_of(hall, "P003")
    broker = mosquitto()
    with serve_console(hall.db, broker.client_settings(), Topics("hall", "player")) as served:
        import urllib.request

        with urllib.request.urlopen(f"{served.url}/players/P003") as answer:
            page = answer.read().decode()
        assert f'data-live="/live?tables={table}"' in page and 'data-refresh="player"' in page
        stream = EventStream(f"{served.url}/live?tables={table}")
        try:
            stream.next("link")
            hall.ok("result", "enter", "--table", str(table), "--game", "1",
                    "--racks", "A=0 B=10 C=20 D=30")
            stream.next("standings")
        finally:
            stream.close()
        with urllib.request.urlopen(f"{served.url}/players/P003") as answer:
            words = text_of(answer.read().decode())
    big = hall.competition().history("round-1", table, 1)[-1].score.for_seat(seat).big
    assert f"1 {big} " in words and "1 brak wyniku" not in words


def test_a_corrected_result_shows_its_latest_version_marked(hall: Cli) -> None:
    table, seat, _ = seat_of(hall, "P001")
    winner = "A=0 B=10 C=20 D=30"
    hall.ok("result", "enter", "--table", str(table), "--game", "1", "--racks", winner)
    out = "ABCD"[("ABCD".index(seat.value) + 1) % 4]  # the next seat went out after all
    loser = " ".join(f"{s}={0 if s == out else 40 if s == seat.value else 5}" for s in "ABCD")
    hall.ok("result", "enter", "--table", str(table), "--game", "1", "--racks", loser,
            "--why", "the sheet was misread")
    score = hall.competition().history("round-1", table, 1)[-1].score.for_seat(seat)
    with client_for(hall.db) as client:
        words = text_of(client.get("/players/P001").text)
    small = printed_number(signed(score.small))  # −40: the minus sign of print
    assert f"1 {score.big} {small} poprawiony" in words and not score.winner


def test_a_player_left_out_by_a_cut_keeps_their_last_place(tmp_path: Path) -> None:
    """002's semifinal seats the top 8 of 16: one left out still sees their place after
    the eliminations, and their three elimination rounds."""
    c = checked_in(tmp_path, "championship", 16)
    play_rounds(c, random.Random(3), range(1, 4))
    c.ok("round", "draw", "--seed", "5")
    comp = c.competition()
    semifinal = {p for t in comp.event.seating("semifinal") for p in t.players}
    out = next(p for p in sorted(comp.event.players) if p not in semifinal)
    line = next(r for r in comp.event.standings("elimination-3").rows if r.player_id == out)
    with client_for(c.db) as client:
        words = text_of(client.get(f"/players/{out}").text)
    assert f"Miejsce w klasyfikacji: {line.place}" in words
    assert "Po etapie: Etap 3 (runda eliminacyjna 3)" in words
    assert words.count("Przeciwnicy:") == 3  # the three elimination rounds, no semifinal
