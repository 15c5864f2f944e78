"""The wall shows which tables lag: a table that is online but whose events wait at the
hub (sent, not acknowledged, for longer than BEHIND_AFTER) is marked BEHIND on the hub
screen — its own word and colour, not those of an offline table — until the hub's acks
catch up. The screen sees it from the units' events and the hub's acks (not retained)."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from pathlib import Path

import pygame
import pytest

from hub.hall import (
    BEHIND_AFTER,
    Page,
    PageKind,
    countdown_text,
    remaining_at,
    state_of,
    state_text,
)
from hub.screen.feed import HallTracker
from hub.screen.render import HallScreen
from tablekit.core.clock import Phase
from tablekit.core.clock_events import MovePassed
from tablekit.core.messages import (
    Ack,
    Assignment,
    EventEnvelope,
    RoundInfo,
    SeatAssignment,
    StatusReason,
    TableSnapshot,
    UnitStatus,
)
from tablekit.core.seats import Seat
from tablekit.core.status import TableState, look

NOW = 1_800_000_000.0
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "hub-screen" / "behind"


def event(table: int, seq: int, epoch: str = "e1") -> EventEnvelope:
    move = MovePassed(game=1, move=seq, seat=Seat.A, used=2.0)
    return EventEnvelope(
        v=1, unit=f"table-{table:02d}", table=table, seq=seq, ts=NOW, event=move, epoch=epoch
    )


def ack(table: int, upto: int, epoch: str = "e1") -> Ack:
    return Ack(v=1, unit=f"table-{table:02d}", upto=upto, epoch=epoch)


def hall_tracker(tables: int) -> HallTracker:
    tr = HallTracker(title="Soak")
    tr.apply(RoundInfo(v=1, stage="R1", round=1, games=2), NOW)
    for t in range(1, tables + 1):
        seats = tuple(SeatAssignment(seat=s, name=f"Gracz {t}{s}") for s in Seat)
        tr.apply(Assignment(v=1, table=t, game=1, seats=seats, round=1), NOW)
        tr.apply(
            TableSnapshot(
                v=1,
                table=t,
                unit=f"table-{t:02d}",
                game=1,
                move=3,
                phase=Phase.RUNNING,
                active=Seat.B,
                remaining=30.0,
                measured_at=NOW,
                paused=None,
                last_lap_left=None,
                timeouts=(0, 0, 0, 0),
                seats=4,
                move_seconds=40.0,
            ),
            NOW,
        )
    return tr


def test_a_table_whose_events_wait_at_the_hub_is_behind_until_the_acks_catch_up() -> None:
    tr = hall_tracker(2)
    for seq in range(1, 6):
        tr.apply(event(1, seq), NOW + seq * 0.1)
        tr.apply(event(2, seq), NOW + seq * 0.1)
    tr.apply(ack(2, 5), NOW + 0.7, table=2)  # table 2: stored at once
    tr.apply(ack(1, 2), NOW + 0.7, table=1)  # table 1: 3 to 5 wait
    assert state_of(tr.view(NOW + 5).table(1)) is TableState.PLAYING  # not yet: a resend may come
    later = NOW + 0.3 + BEHIND_AFTER + 4
    t1, t2 = tr.view(later).table(1), tr.view(later).table(2)
    assert state_of(t1) is TableState.BEHIND and t1.unstored == 3
    assert state_text(t1, later) == "BEHIND for 14 s"
    assert state_of(t2) is TableState.PLAYING
    tr.apply(event(1, 4), later)  # a resend keeps the time it was first sent
    assert tr.view(later + 1).table(1).unstored_since == pytest.approx(NOW + 0.3)
    tr.apply(ack(1, 5, epoch="other"), later + 1, table=1)  # another journal's ack
    assert state_of(tr.view(later + 1).table(1)) is TableState.BEHIND
    tr.apply(ack(1, 5), later + 2, table=1)
    assert state_of(tr.view(later + 2).table(1)) is TableState.PLAYING
    # Offline wins: a table cut off is OFFLINE, whatever waits.
    tr.apply(event(1, 6), later + 3)
    tr.apply(
        UnitStatus(v=1, unit="table-01", table=1, online=False, reason=StatusReason.LOST, ts=NOW),
        later + 4,
    )
    assert state_of(tr.view(later + 3 + BEHIND_AFTER).table(1)) is TableState.OFFLINE


def test_the_wall_renders_a_table_behind_in_its_own_word_and_colour() -> None:
    pygame.init()
    try:
        tr = hall_tracker(9)
        for t in (4, 7):
            tr.apply(event(t, 1), NOW)
        tr.apply(
            UnitStatus(
                v=1, unit="table-07", table=7, online=False, reason=StatusReason.LOST, ts=NOW
            ),
            NOW + 1,
        )
        now = NOW + BEHIND_AFTER + 5
        assert tr.view(now).language == "pl"  # the screen's default
        tr.set_language("en_GB.UTF-8")
        hall = tr.view(now)
        assert hall.language == "en"
        assert state_of(hall.table(4)) is TableState.BEHIND
        assert state_of(hall.table(7)) is TableState.OFFLINE
        screen = HallScreen(pygame.Surface((1920, 1080)))
        screen.draw_page(hall, Page(PageKind.WALL), now)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        pygame.image.save(screen.surface, str(ARTIFACTS / "wall-table-4-behind.png"))
        grid = screen._grid
        assert grid is not None
        region = f"cell:{grid.cells.index(screen.cells[4])}"
        placed = {p.text: p for p in screen.placed[region]}
        assert "BEHIND for 15 s" in placed
        assert countdown_text(remaining_at(hall.table(4), now)) in placed  # the clock runs on
        band = placed["BEHIND for 15 s"].box
        bg = look(TableState.BEHIND).bg
        assert tuple(screen.surface.get_at((band.left + 1, band.centery)))[:3] == bg
        assert look(TableState.BEHIND) != look(TableState.OFFLINE)
        offline = f"cell:{grid.cells.index(screen.cells[7])}"
        assert not any(p.text.startswith("BEHIND") for p in screen.placed[offline])
    finally:
        pygame.quit()
