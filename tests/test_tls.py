"""TLS for every program: Mosquitto with only a TLS listener, its certificate signed by a CA
made here (trustme), and each program of the kit exchanging messages through it — a table
unit's link and the hub service (an event stored and acknowledged), the hub screen's feed
(the hall it shows) and the organizer's live view (``rummikub round status``)."""

from __future__ import annotations

import queue
import ssl
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
import trustme
from paho.mqtt.enums import CallbackAPIVersion
from retained import press_and_send
from test_cli_support import Cli

from hub.broker import MosquittoBroker
from hub.cli.status import LIVE_HINT
from hub.screen.feed import ScreenFeed
from hub.service import HubService
from tablekit.config import LinkSettings
from tablekit.core.clock import ClockRules, MoveClock
from tablekit.core.messages import Ack, snapshot_of
from tablekit.core.topics import Topics
from tablekit.journal import Journal
from tablekit.link import TableLink
from tablekit.shared.broker import BrokerSettings

pytestmark = pytest.mark.mqtt

TOPICS = Topics("hall", "tls")


@pytest.fixture
def tls_broker(
    tmp_path: Path, mosquitto: Callable[..., MosquittoBroker]
) -> tuple[MosquittoBroker, Path]:
    """A Mosquitto whose one listener speaks TLS only; and the CA's certificate (PEM)."""
    ca = trustme.CA()
    server = ca.issue_cert("127.0.0.1", "localhost")
    ca_pem, cert_pem, key_pem = (tmp_path / n for n in ("ca.pem", "server.pem", "server.key"))
    ca.cert_pem.write_to_path(str(ca_pem))
    server.cert_chain_pems[0].write_to_path(str(cert_pem))
    server.private_key_pem.write_to_path(str(key_pem))
    broker = mosquitto(extra=[f"cafile {ca_pem}", f"certfile {cert_pem}", f"keyfile {key_pem}"])
    return broker, ca_pem


def test_a_client_without_the_ca_or_without_tls_gets_nowhere(
    tls_broker: tuple[MosquittoBroker, Path],
) -> None:
    broker, _ = tls_broker
    plain = mqtt.Client(CallbackAPIVersion.VERSION2)
    with pytest.raises((OSError, ConnectionError)):
        plain.connect(broker.host, broker.port, 5)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            if plain.loop(0.1) != mqtt.MQTT_ERR_SUCCESS:
                raise ConnectionError("the broker closed a plain connection")
        raise AssertionError("a plain client stayed connected to the TLS listener")
    untrusted = mqtt.Client(CallbackAPIVersion.VERSION2)
    untrusted.tls_set_context(ssl.create_default_context())  # the system's CAs only
    with pytest.raises(ssl.SSLCertVerificationError):
        untrusted.connect(broker.host, broker.port, 5)


def test_every_program_exchanges_messages_over_tls(
    tmp_path: Path, tls_broker: tuple[MosquittoBroker, Path], wait_until: Callable[..., Any]
) -> None:
    broker, ca_pem = tls_broker
    tls = BrokerSettings(host="127.0.0.1", port=broker.port, tls=True, ca_file=str(ca_pem))
    service = HubService(tls, tmp_path / "hub.db", TOPICS)
    inbox: queue.SimpleQueue[object] = queue.SimpleQueue()
    journal = Journal(tmp_path / "unit.db", "table-01")
    link_settings = LinkSettings(
        host="127.0.0.1", port=broker.port, tls=True, ca_file=str(ca_pem),
        venue=TOPICS.venue, event=TOPICS.event,
    )
    link = TableLink(link_settings, journal, 1, "table-01", inbox.put)
    feed = ScreenFeed(tls, TOPICS, title="TLS cup")
    try:
        service.start()
        assert service.wait_online(10), "the hub did not connect over TLS"
        link.start()
        wait_until(lambda: link.online, what="the unit online over TLS")
        # The unit journals presses; the hub stores them and acks them: both directions.
        clock = MoveClock(ClockRules(seats=4, move_seconds=40.0, lockout=0.0))
        sent = press_and_send(clock, journal, link, 5, 5.0)
        link.publish_state(snapshot_of(clock.state, 25.0, time.time(), 1, "table-01"))
        wait_until(lambda: journal.pending_count() == 0, what="the hub's acks over TLS")
        assert [e.event() for e in service.store.events(source="table-01")] == sent
        got = []
        while not inbox.empty():
            got.append(inbox.get())
        assert any(isinstance(m, Ack) for m in got)
        # The hub screen's feed sees the table's retained state.
        feed.start()
        assert feed.connected.wait(10), f"the screen feed did not connect: {feed.refusal}"
        wait_until(
            lambda: [t.number for t in feed.hall(time.time()).tables] == [1],
            what="table 1 on the hub screen's feed",
        )
        # The organizer's live view reads the same over TLS.
        cli = Cli(tmp_path / "event.sqlite3")
        cli.ok("event", "create", "--preset", "school", "--name", "TLS")
        for i in range(4):
            cli.ok("players", "add", f"Gracz {i + 1}", "--check-in")
        cli.ok("round", "draw", "--seed", "1")
        cli.ok("round", "start")
        out = cli.ok(
            "round", "status", "--broker", f"127.0.0.1:{broker.port}", "--venue", TOPICS.venue,
            "--event", TOPICS.event, "--tls", "--ca-file", str(ca_pem),
        )
        assert LIVE_HINT not in out  # the tables' live states were read …
        [row] = [line for line in out.splitlines() if line.startswith("    1 ")]
        assert " PLAYING " in row  # … and table 1's is the unit's, over TLS
    finally:
        feed.stop()
        link.stop()
        service.stop()
        journal.close()
