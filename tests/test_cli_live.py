"""``rummikub round status --broker``: the tables' live clocks from a real Mosquitto."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from retained import publish_retained
from test_cli_support import Cli, school_round_playing

from hub.broker import MosquittoBroker, free_port
from hub.cli.common import render
from hub.cli.status import LIVE_HINT, live_summary, status_grid
from hub.live import LiveView
from hub.retained import fold_retained
from tablekit.core.clock import Phase
from tablekit.core.clock_events import PauseReason
from tablekit.core.codec import encode
from tablekit.core.messages import PROTOCOL_VERSION, StatusReason, TableSnapshot, UnitStatus
from tablekit.core.seats import Seat
from tablekit.core.topics import Topics
from tablekit.shared.i18n import words

NOW = 1_750_000_000.0
TOPICS = Topics("hall", "cup26")
ENV = (
    "RUMMIKUB_BROKER",
    "RUMMIKUB_VENUE",
    "RUMMIKUB_EVENT",
    "RUMMIKUB_USERNAME",
    "RUMMIKUB_PASSWORD_FILE",
    "RUMMIKUB_CONFIG",
)

EN = words("en")
"""The tests check the English words (the Polish: tests/test_cli_polish.py)."""


@pytest.fixture(autouse=True)
def no_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ENV:
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def playing(tmp_path: Path) -> Cli:
    """A school contest of 16 players: round 1 drawn (4 tables of 4) and started."""
    return school_round_playing(tmp_path / "event.sqlite3")


def snapshot(
    table: int,
    measured_at: float,
    *,
    game: int = 1,
    phase: Phase = Phase.RUNNING,
    active: Seat | None = Seat.A,
    remaining: float = 40.0,
    paused: PauseReason | None = None,
    last_lap_left: int | None = None,
) -> TableSnapshot:
    return TableSnapshot(
        v=PROTOCOL_VERSION,
        table=table,
        unit=f"table-{table:02d}",
        game=game,
        move=7,
        phase=phase,
        active=active,
        remaining=remaining,
        measured_at=measured_at,
        paused=paused,
        last_lap_left=last_lap_left,
        timeouts=(0, 0, 0, 0),
        seats=4,
        move_seconds=40.0,
    )


def status(table: int, online: bool, reason: StatusReason, ts: float) -> UnitStatus:
    return UnitStatus(
        v=PROTOCOL_VERSION,
        unit=f"table-{table:02d}",
        table=table,
        online=online,
        reason=reason,
        ts=ts,
    )


def seat_name(c: Cli, table: int, seat: Seat) -> str:
    comp = c.competition()
    progress = comp.tables()[table - 1]
    return comp.event.players[progress.players[seat.position]].name


def row(out: str, table: int) -> str:
    lines = [line for line in out.splitlines() if line.split()[:1] == [str(table)]]
    assert len(lines) == 1, out
    return lines[0]


def test_round_status_shows_live_clocks_from_the_broker(
    playing: Cli, mosquitto: Callable[..., MosquittoBroker], monkeypatch: pytest.MonkeyPatch
) -> None:
    broker = mosquitto()
    # As the units publish them, retained: table 1 plays game 2 (seat B, 30 s left 10 s
    # ago), the judge paused table 2 two minutes ago, table 3 shut down 5 min ago and a
    # player at table 4 called the judge 45 s ago.
    messages = [
        (TOPICS.status(1), status(1, True, StatusReason.CONNECTED, NOW - 3600)),
        (TOPICS.state(1), snapshot(1, NOW - 10, game=2, active=Seat.B, remaining=30.0)),
        (TOPICS.status(2), status(2, True, StatusReason.CONNECTED, NOW - 3600)),
        (TOPICS.state(2), snapshot(2, NOW - 125, active=Seat.C, paused=PauseReason.JUDGE)),
        (TOPICS.state(3), snapshot(3, NOW - 900)),
        (TOPICS.status(3), status(3, False, StatusReason.SHUTDOWN, NOW - 300)),
        (TOPICS.status(4), status(4, True, StatusReason.CONNECTED, NOW - 3600)),
        (
            TOPICS.state(4),
            snapshot(4, NOW - 45, active=Seat.D, remaining=12.5, paused=PauseReason.PLAYER_CALL),
        ),
        # Another event's table on the same broker is not read.
        (Topics("hall", "other").state(1), snapshot(1, NOW, paused=PauseReason.JUDGE)),
    ]
    publish_retained(broker.client_settings(), [(t, encode(m)) for t, m in messages])

    playing.clock.now = NOW - 1  # status reads the clock once: NOW
    started = time.monotonic()
    result = playing.run(
        "round", "status", "--broker", f"{broker.host}:{broker.port}", "--event", "cup26"
    )
    assert time.monotonic() - started < 3.0
    assert result.code == 0 and result.err == "", result.err
    out = result.out
    assert "round-1: 0 of 4 tables done" in out
    assert "Live" in out and "Seat" in out and "Left" in out

    one = row(out, 1)
    assert "1/2" in one and "PLAYING" in one
    assert f"B {seat_name(playing, 1, Seat.B)}" in one
    assert one.rstrip().endswith(" 20")  # 30 s measured 10 s ago: 20 left
    two = row(out, 2)
    assert "PAUSED — JUDGE for 2 min 5 s" in two and f"C {seat_name(playing, 2, Seat.C)}" in two
    assert two.rstrip().endswith(" 40")  # frozen while paused
    three = row(out, 3)
    assert "OFFLINE for 5 min" in three and three.rstrip().endswith(" -")
    four = row(out, 4)
    assert "JUDGE CALLED for 45 s" in four and f"D {seat_name(playing, 4, Seat.D)}" in four
    assert four.rstrip().endswith(" 13")

    assert "Tables: 0 done, 1 playing, 1 paused, 1 judge call, 1 offline" in out
    queue = out.split("Waiting for the judge, oldest first:\n", 1)[1].splitlines()
    assert queue[0].startswith("  table 2: PAUSED — JUDGE for 2 min 5 s")
    assert queue[1].startswith("  table 4: JUDGE CALLED for 45 s, seat D")
    assert LIVE_HINT not in out

    # The same from the environment, set once for the day.
    monkeypatch.setenv("RUMMIKUB_BROKER", f"{broker.host}:{broker.port}")
    monkeypatch.setenv("RUMMIKUB_EVENT", "cup26")
    playing.clock.now = NOW - 1
    assert playing.ok("round", "status") == out

    # A wrong event name: no table data, and a hint to check it.
    monkeypatch.setenv("RUMMIKUB_EVENT", "nosuch")
    out = playing.ok("round", "status")
    assert "NO DATA" in row(out, 1) and "check --venue and --event" in out


def test_without_a_broker_it_says_what_it_needs(playing: Cli) -> None:
    out = playing.ok("round", "status")
    assert "round-1: 0 of 4 tables done" in out
    assert out.splitlines()[2].split() == ["Table", "Players", "Games", "State"]
    assert out.splitlines()[-1] == LIVE_HINT and out.count("need --broker") == 1
    err = playing.fails("round", "status", "--event", "cup26")
    assert "--event needs --broker" in err


def test_unreachable_broker_is_one_line_and_exit_2(playing: Cli) -> None:
    port = free_port()
    err = playing.fails("round", "status", "--broker", f"127.0.0.1:{port}")
    assert err.startswith("rummikub: cannot reach the MQTT broker at 127.0.0.1:")
    err = playing.fails("round", "status", "--broker", "127.0.0.1:99999")
    assert "port must be 1-65535" in err


def test_lost_units_last_lap_time_and_result_entry(playing: Cli) -> None:
    """The pure part: the Last Will says only when the unit connected, so the grid says
    when it was last heard of; a finished game is "entering result" until the hub has
    its result."""
    comp = playing.competition()
    live = LiveView()
    messages: list[TableSnapshot | UnitStatus] = [
        snapshot(1, NOW - 30, game=1, phase=Phase.GAME_OVER, active=None),
        snapshot(2, NOW - 30, game=1, phase=Phase.GAME_OVER, active=None),
        snapshot(3, NOW - 5, last_lap_left=3, remaining=25.0, active=Seat.B),
        snapshot(4, NOW - 200, phase=Phase.TIME_UP, remaining=0.0, active=Seat.A),
        status(4, False, StatusReason.LOST, NOW - 4000),
    ]
    for message in messages:
        if isinstance(message, TableSnapshot):
            live = live.with_snapshot(message, NOW, retained=True)
        else:
            live = live.with_status(message, NOW)
    grid = render(status_grid(comp, NOW, EN, live), EN)
    assert "RESULT IN" in row(grid, 1)  # table 1 game 1 was entered at the hub
    assert "ENTERING RESULT" in row(grid, 2)
    three = row(grid, 3)
    assert "LAST LAP — 3 MOVES LEFT" in three and three.rstrip().endswith(" 20")
    assert "OFFLINE (connection lost; last heard 3 min 20 s ago)" in row(grid, 4)
    summary = live_summary(comp, live, NOW, EN)
    assert summary == [
        "Tables: 0 done, 1 playing, 0 paused, 0 judge calls, 1 offline, "
        "1 entering result, 1 between games"
    ]


def test_fold_ignores_foreign_and_broken_messages() -> None:
    good = snapshot(5, NOW - 2, paused=PauseReason.PLAYER_CALL)
    live, ignored = fold_retained(
        TOPICS,
        [
            (TOPICS.state(5), encode(good)),
            (TOPICS.state(6), encode(snapshot(5, NOW))),  # payload for another table
            (TOPICS.status(7), b"{not json"),
            (TOPICS.status(8), b""),  # a cleared retained message
        ],
        NOW,
    )
    assert ignored == 2
    assert sorted(live.tables) == [5] and live.tables[5].judge_called


def test_broker_account_from_the_password_file(
    playing: Cli, mosquitto: Callable[..., MosquittoBroker], tmp_path: Path
) -> None:
    passwd = tmp_path / "broker.passwd"
    subprocess.run(
        ["mosquitto_passwd", "-c", "-b", str(passwd), "dashboard-1", "s3cret"], check=True
    )
    broker = mosquitto(extra=["allow_anonymous false", f"password_file {passwd}"])
    right, wrong = tmp_path / "right.password", tmp_path / "wrong.password"
    right.write_text("s3cret\n", encoding="utf-8")
    wrong.write_text("guess\n", encoding="utf-8")
    publish_retained(
        broker.client_settings(username="dashboard-1", password_file=str(right)),
        [(TOPICS.state(2), encode(snapshot(2, NOW - 5, paused=PauseReason.PLAYER_CALL)))],
    )
    where = ("--broker", f"{broker.host}:{broker.port}", "--event", "cup26")

    playing.clock.now = NOW - 1
    out = playing.ok(
        "round", "status", *where, "--username", "dashboard-1", "--password-file", str(right)
    )
    assert "JUDGE CALLED for 5 s" in row(out, 2)

    err = playing.fails(
        "round", "status", *where, "--username", "dashboard-1", "--password-file", str(wrong)
    )
    assert "refused the connection" in err and f"{broker.host}:{broker.port}" in err
    err = playing.fails("round", "status", *where)
    assert "refused the connection" in err
    err = playing.fails("round", "status", *where, "--password-file", str(right))
    assert "--password-file needs --username" in err
    err = playing.fails(
        "round", "status", *where, "--username", "u", "--password-file", str(tmp_path / "none")
    )
    assert "none" in err
