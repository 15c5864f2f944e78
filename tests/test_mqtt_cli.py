"""rummikub-hub's command line: assign and broadcast reach a broker; bad arguments are named."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from hub.broker import MosquittoBroker
from hub.service import main
from hub.store import EventStore
from tablekit.core.codec import decode
from tablekit.core.messages import Assignment, Broadcast, BroadcastKind
from tablekit.core.topics import Topics

pytestmark = pytest.mark.mqtt


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["assign", "--table", "3", "--names", "A=Ann,B"], "expected SEAT=NAME"),
        (["assign", "--table", "3", "--names", "A=Ann,E=Eve,C=Cy"], "seat must be A, B, C or D"),
        (["assign", "--table", "0", "--names", "A=a,B=b,C=c"], "whole number from 1"),
        (["assign", "--table", "3", "--names", "A=a,C=c,D=d"], "seats must be A,B,C in order"),
        (["serve", "--db", "x.db", "--broker", "host:99999"], "port must be 1-65535"),
        (["serve", "--db", "x.db", "--venue", "a/b"], "venue: 1-32 letters"),
    ],
)
def test_bad_arguments_are_named(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err


def test_assign_and_broadcast_from_the_command_line(  # type: ignore[no-untyped-def]
    tmp_path: Path, mosquitto: Callable[..., MosquittoBroker], wait_until
) -> None:
    broker = mosquitto()
    where = ["--broker", f"{broker.host}:{broker.port}", "--venue", "hall", "--event", "cli"]
    db = tmp_path / "hub.db"
    names = "A=Ann,B=Bob,C=Cy,D=Di"
    assert (
        main(["assign", *where, "--table", "3", "--names", names, "--game", "2", "--db", str(db)])
        == 0
    )
    assert main(["broadcast", "last-lap", *where, "--round", "4", "--db", str(db)]) == 0
    topics = Topics("hall", "cli")
    seen: dict[str, bytes] = {}
    client = mqtt.Client(CallbackAPIVersion.VERSION2)
    client.on_message = lambda c, u, m: seen.__setitem__(m.topic, m.payload)
    client.connect(broker.host, broker.port)
    client.subscribe(f"{topics.base}/hub/#", 1)
    client.loop_start()
    wait_until(lambda: len(seen) == 2, 10, "both retained messages")
    client.loop_stop()
    assignment = decode(Assignment, seen[topics.assign(3)])
    assert assignment.game == 2 and assignment.names()["D"] == "Di"  # type: ignore[index]
    bcast = decode(Broadcast, seen[topics.broadcast])
    assert bcast.kind is BroadcastKind.LAST_LAP and bcast.round == 4
    store = EventStore(db)
    assert [e.kind for e in store.events(source="hub")] == ["assign", "broadcast"]
    assert bcast.id == 2  # the broadcast's id is its fact's seq in the store


@pytest.mark.parametrize(
    ("argv", "reason"),
    [
        (["assign", "--table", "3", "--names", "A=Ann,B=Bob,C=Cy", "--move-seconds", "0"],
         "Expected `float` > 0.0 - at `$.rules.move_seconds`"),
        (["assign", "--table", "3", "--names", "A=" + "N" * 41 + ",B=Bob,C=Cy"],
         "Expected `str` of length <= 40 - at `$.seats[0].name`"),
        (["broadcast", "message", "--text", "x" * 201],
         "Expected `str` of length <= 200 - at `$.text`"),
    ],
)
def test_commands_refuse_what_units_would_refuse(
    argv: list[str], reason: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        code = main([*argv, "--broker", "127.0.0.1:1"])
        raise SystemExit(code)
    assert stop.value.code == 2
    assert reason in capsys.readouterr().err
