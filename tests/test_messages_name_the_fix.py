"""Messages that name the fix: a judge call's resolution takes what the table's unit
reported, a player is named by name as well as by ID, a refusal says what to do, and a
note never advises what cannot be done."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_cli_support import Cli, checked_in, play_rounds
from test_cli_ties import NAMES, league_top8_with_a_tie_at_table_1
from test_corrections import lift

from hub.organizer import Organizer
from hub.store import EventStore
from hub.tournament import TieAtCutError
from tablekit.core.clock_events import ClockPaused, ClockResumed, PauseReason
from tablekit.core.messages import EventEnvelope
from tablekit.core.seats import Seat


@pytest.fixture
def playing(tmp_path: Path) -> Cli:
    """A school event of eight, its first round drawn and started."""
    c = checked_in(tmp_path, "school", 8)
    c.ok("players", "add", "Tomasz Gil", "--club", "SP 2", "--check-in")
    c.ok("round", "draw", "--seed", "5")
    c.ok("round", "start")
    return c


def unit_reports(db: Path, table: int, *events: ClockPaused | ClockResumed) -> None:
    """What the table's unit sent and the hub stored: its clock's events, seq 1 on, two
    minutes before the command line's clock reads."""
    store = EventStore(db)
    try:
        store.ingest(
            EventEnvelope(v=1, unit=f"table-{table:02d}", table=table, seq=seq,
                          ts=1_699_999_880.0 + seq, event=event)
            for seq, event in enumerate(events, start=1)
        )
    finally:
        store.close()


def test_a_call_resolved_without_its_game_takes_the_open_call(playing: Cli) -> None:
    paused = ClockPaused(game=2, move=14, seat=Seat.B, reason=PauseReason.PLAYER_CALL,
                         remaining=21.0)
    unit_reports(playing.db, 2, paused)
    playing.ok("call", "resolve", "--table", "2", "--note", "B oddaje kostkę")
    (call,) = playing.competition().judge_calls
    assert (call.game, call.called, call.since) == (2, PauseReason.PLAYER_CALL, 1_699_999_881.0)
    listed = Cli(playing.db, lang="pl").ok("call", "list", "--table", "2")
    row = " ".join(next(ln for ln in listed.splitlines() if "B oddaje kostkę" in ln).split())
    assert "runda 1 2 2 WEZWANO SĘDZIEGO 2 min" in row  # the game, why and how long it waited
    # no call open at table 1 (its unit reports none): the game must be said
    said = playing.fails("call", "resolve", "--table", "1", "--note", "x")
    assert "no judge call is open there" in said and "--game N" in said
    unit_reports(playing.db, 1, paused, ClockResumed(game=2, move=14, seat=Seat.B,
                                                      remaining=21.0, paused_for=30.0))
    assert "no judge call is open there" in playing.fails(
        "call", "resolve", "--table", "1", "--note", "x"
    )
    assert len(playing.competition().judge_calls) == 1


def test_a_player_is_named_by_the_whole_name_as_well_as_the_id(playing: Cli) -> None:
    out = playing.ok("players", "rename", "tomasz  gil", "--club", "SP 3", "--why", "szkoła")
    assert "P009" in out
    assert "P009" in playing.ok("players", "withdraw", "Tomasz Gil", "--reason", "choroba")
    playing.ok("players", "add", "Tomasz Gil", "--club", "SP 7")
    twice = playing.fails("players", "late", "Tomasz Gil")
    assert "'Tomasz Gil' is the name of 2 players: P009 (SP 3), P010 (SP 7); give the ID" in twice
    unknown = playing.fails("players", "late", "Tomasz Gul")
    assert "rummikub players list shows every player's name and ID" in unknown
    assert 'rummikub players add "NAME" --check-in' in unknown


def test_a_late_correction_of_a_finished_event_advises_no_draw_to_undo(tmp_path: Path) -> None:
    c = checked_in(tmp_path, "school", 8)
    play_rounds(c, random.Random(2), range(1, 5))
    comp = c.competition()
    last = comp.event.final_ranking()[-1].player_id
    table, game, racks = lift(comp, last, "round-4")
    out = c.ok("result", "enter", "--stage", "round-4", "--table", str(table), "--game",
               str(game), "--racks", racks, "--why", "źle odczytana karta", "--yes")
    assert "What changes" in out and "undo" not in out and "undone" not in out


def test_a_tie_at_a_cut_names_the_players_not_only_their_ids(tmp_path: Path) -> None:
    c, b, d = league_top8_with_a_tie_at_table_1(tmp_path)
    org = Organizer(EventStore(c.db), by="organizer")
    with pytest.raises(TieAtCutError) as caught:
        org.draw(seed=6)
    said = str(caught.value)
    for pid in (b, d):
        assert f"{NAMES[int(pid[1:]) - 1]} ({pid})" in said
