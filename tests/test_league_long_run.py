"""A whole league tournament played by simulated table units at a venue bridged to the
league's central, with the uplink cut while it plays (the central broker killed, the
central service restarted): every record of the event reaches the central once and in
order when the uplink returns, and the central's season table is the one
``rummikub season table`` computes from the event file. The short version cuts the
uplink for a few seconds; the long one (``slow``) for three minutes of the day."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import fault_rig
import msgspec
import pytest
from test_league_bridge import League, hub_seqs, league, start_central, start_hub

from hub.competition import new_event
from hub.organizer import Organizer
from hub.season import season_event, season_of
from hub.store import EventStore
from hub.tournament import EventPhase, Player
from tablekit.core.rulesets import get_ruleset

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import chaos_soak

pytestmark = pytest.mark.mqtt

__all__ = ["league"]  # the fixture, from tests/test_league_bridge.py


def create_league_event(db: Path) -> None:
    """Eight players with league numbers, every move 5 s, the first round drawn and
    started."""
    org = Organizer(EventStore(db), by=chaos_soak.ORGANIZER)
    rules = msgspec.structs.replace(get_ruleset("004"), name="fast", move_seconds=5.0)
    org.record(new_event("Liga długa", "league", at=time.time(), by=chaos_soak.ORGANIZER,
                         ruleset="fast", rulesets={"fast": rules}))
    org.register([Player(org.next_player_id(i), f"Gracz {i + 1}", league_number=f"K{i}")
                  for i in range(8)], check_in=True)
    org.draw(seed=1)
    org.start_round()
    org.store.close()


def phase_of(db: Path) -> EventPhase:
    org = Organizer(EventStore(db))
    try:
        return org.competition.event.phase
    finally:
        org.store.close()


def play_with_the_uplink_cut(
    league: League,
    tmp: Path,
    cut: float,
    wait_until: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(fault_rig, "VENUE", "krakow")
    monkeypatch.setattr(fault_rig, "EVENT", "liga1")
    db = tmp / "krakow.sqlite3"
    create_league_event(db)
    service, central = start_central(league)
    hub = start_hub(league, "krakow", db)
    procs = fault_rig.Procs(tmp, league.venues["krakow"])
    stop = tmp / "stop"
    director = chaos_soak.Director(db)
    try:
        for table in (1, 2):
            procs.table(table, stop_file=stop, keepalive=5, drain_timeout=120)
        director.start()
        wait_until(lambda: len(central.store.seqs("krakow", "liga1")) > 10, timeout=60,
                   what="the first records at the central")
        league.central.kill()  # the uplink cut: the venue plays on
        service.stop()
        cut_at, stored = time.monotonic(), len(hub_seqs(db))
        wait_until(lambda: time.monotonic() - cut_at > cut and len(hub_seqs(db)) > stored,
                   timeout=cut + 120, what="play while the uplink is cut")
        league.central.restart()  # the central back (its service restarted mid-day)
        service, central = start_central(league)
        wait_until(lambda: phase_of(db) is EventPhase.FINISHED, timeout=600,
                   what="the tournament played to the end")
        assert director.errors == []
        stop.touch()
        wait_until(lambda: central.store.seqs("krakow", "liga1") == hub_seqs(db), timeout=120,
                   what="every record at the central")
        seqs = central.store.seqs("krakow", "liga1")
        assert seqs == list(range(1, len(seqs) + 1)) and central.store.conflict_count() == 0
        over_file = season_of([season_event(db)])
        assert [(x.name, x.points, x.number) for x in central.season().lines] == [
            (x.name, x.points, x.number) for x in over_file.lines
        ]
    finally:
        director.stop()
        procs.kill_all()
        hub.stop()
        service.stop()


def test_a_tournament_with_the_uplink_cut_for_seconds(
    league: League, tmp_path: Path, wait_until: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    play_with_the_uplink_cut(league, tmp_path, 5.0, wait_until, monkeypatch)


@pytest.mark.slow
def test_a_tournament_with_the_uplink_cut_for_minutes(
    league: League, tmp_path: Path, wait_until: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    play_with_the_uplink_cut(league, tmp_path, 180.0, wait_until, monkeypatch)
