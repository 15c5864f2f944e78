"""Flaky Wi-Fi: table units reach the broker through a fault proxy (tests/fault_proxy.py)
that resets connections, refuses reconnects, stalls and delays bytes on a seeded
schedule, while the hub service (straight on the broker) stores what arrives.

The clocks keep running at the tables while they are cut off (their journals keep
assigning seqs), the hub's live view shows which tables are cut off and for how long,
and at the end each unit's journal against the hub's store counts 0 lost, 0 duplicated.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fault_proxy import FaultProxy
from fault_rig import EVENT, VENUE, Procs, finish, journal_seqs, tally

from hub.broker import MosquittoBroker
from hub.service import HubService
from tablekit.core.topics import Topics

pytestmark = [pytest.mark.mqtt, pytest.mark.slow]

TABLES = (1, 2, 3, 4)
EVENTS = 500


@pytest.fixture
def rig(
    tmp_path: Path, mosquitto: Callable[..., MosquittoBroker]
) -> Iterator[tuple[FaultProxy, Procs, HubService]]:
    broker = mosquitto()
    proxy = FaultProxy(broker.port).start()
    procs = Procs(tmp_path, broker, unit_port=proxy.port)
    hub = HubService(broker.client_settings(), tmp_path / "hub.db", Topics(VENUE, EVENT))
    hub.start()
    assert hub.wait_online(10)
    yield proxy, procs, hub
    proxy.stop()
    procs.kill_all()
    hub.stop()


def test_units_behind_a_flaky_link_lose_nothing_and_the_hub_shows_who_lags(
    rig: tuple[FaultProxy, Procs, HubService], tmp_path: Path, wait_until: Callable[..., object]
) -> None:
    proxy, procs, hub = rig
    # The units play on until the chaos below has hit them and each has made EVENTS events,
    # however slow the machine is.
    stop = tmp_path / "stop"
    units = [procs.unit(t, 20 * EVENTS, pace=0.03, keepalive=2, stop_file=stop) for t in TABLES]
    wait_until(
        lambda: all(hub.live.table(t).online is True for t in TABLES), 15, "every table online"
    )
    wait_until(lambda: hub.store.counts().get("total", 0) >= 40, 20, "events before the cut")

    # The access point drops everyone and refuses them until they have been seen knocking: a
    # loaded machine may take a while to notice the cut, and a fixed window could end first.
    proxy.refuse(120.0)
    proxy.cut()
    # Each table as the hub sees it and as its board shows it, whenever that happens: a
    # loaded hub may see the first table back before it marks the last one offline.
    seen_offline: set[int] = set()
    shown_offline: set[int] = set()

    def every_table_seen_offline() -> bool:
        seen_offline.update(hub.live.offline)
        board = hub.live.render_text(time.time()).splitlines()
        shown_offline.update(
            t
            for t in TABLES
            for line in board
            if line.split()[:1] == [str(t)] and "OFFLINE" in line
        )
        return set(TABLES) <= seen_offline and set(TABLES) <= shown_offline

    wait_until(every_table_seen_offline, 10, "the hub seeing and showing the tables cut off")
    before = {t: journal_seqs(procs.journal(t))[0] for t in TABLES}
    wait_until(
        lambda: all(journal_seqs(procs.journal(t))[0] >= before[t] + 10 for t in TABLES),
        10,
        "the clocks running on at the tables while they are cut off",
    )
    assert any(journal_seqs(procs.journal(t))[1] > 0 for t in TABLES), "moves queued offline"
    wait_until(lambda: proxy.refused > 0, 30, "the units trying to reconnect during the storm")
    proxy.admit()
    wait_until(
        lambda: all(hub.live.table(t).online is True for t in TABLES), 20, "tables back online"
    )

    # Then hours of bad Wi-Fi, compressed: seeded random cuts, refusals, stalls, latency.
    proxy.chaos(15, every=(0.5, 2.0), longest=2.5)
    storm = len(proxy.faults)
    wait_until(
        lambda: len(proxy.faults) >= storm + 6
        and all(journal_seqs(procs.journal(t))[0] >= EVENTS for t in TABLES),
        90,
        "six faults of the chaos and every table's events",
    )
    stop.touch()
    finish(units, timeout=120)
    proxy.calm()
    journals = {f"table-{t:02d}": procs.journal(t) for t in TABLES}
    assert tally(tmp_path / "hub.db", journals, EVENTS) == (0, 0)
    print(*(f"{f.kind} {f.seconds:.1f} s" for f in proxy.faults), sep="\n")
    assert "cut" in {f.kind for f in proxy.faults[storm:]}, proxy.faults
    for t in TABLES:
        snap = hub.live.table(t).snapshot
        assert snap is not None
        last, _ = journal_seqs(procs.journal(t))
        assert hub.store.mark(f"table-{t:02d}") is not None
        assert max(e.seq for e in hub.store.events(source=f"table-{t:02d}")) == last
