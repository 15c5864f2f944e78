"""What one table account can make the hub keep: bounded, proven with the venue's real
Mosquitto, the credentials bundle's accounts and ACL, and the hub service as provisioned.

* Refused events: the store keeps at most ``MAX_SET_ASIDE_TABLE`` of one table's and
  ``MAX_SET_ASIDE`` in all for the judge; further ones are answered and counted, not kept.
* New journals: at most ``NEW_JOURNALS_LIMIT`` later journal epochs of one table within
  ``JOURNAL_PERIOD``; the events of another are refused (logged and counted, not answered,
  so a real unit sends them again) until older ones have left the period.

Accepted events are never dropped: a real unit at another table plays through it all.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from test_deploy_broker import Peer, ok
from venue_bundle import Venue, bundle_hub, venue_broker

from hub import cli
from hub.service import HubService
from hub.store import (
    DROPPED,
    JOURNAL_PERIOD,
    JOURNALS,
    MAX_SET_ASIDE,
    MAX_SET_ASIDE_TABLE,
    NEW_JOURNALS_LIMIT,
    EventStore,
)
from tablekit.core.clock_events import MovePassed
from tablekit.core.codec import encode
from tablekit.core.messages import MAX_PAYLOAD, envelope
from tablekit.core.seats import Seat
from tablekit.core.topics import Topics

pytestmark = pytest.mark.mqtt

TOPICS = Topics("hall", "cup2026")
TABLES = 12
ATTACKERS = range(1, 12)
"""Tables 1–11: eleven stolen passwords, more refused events than the event keeps."""
HONEST = 12


@pytest.fixture(scope="module")
def venue(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Venue]:
    with venue_broker(tmp_path_factory.mktemp("venue"), TOPICS, TABLES) as made:
        yield made


@pytest.fixture
def hub(venue: Venue, tmp_path: Path) -> Iterator[HubService]:
    service = bundle_hub(venue, tmp_path / "hub.sqlite3")
    service.start()
    assert service.wait_online(10)
    yield service
    service.stop()


@pytest.fixture
def account(venue: Venue) -> Iterator[Callable[[int], Peer]]:
    """A table's own account, logged in with its bundle password (stolen, say)."""
    made: list[Peer] = []

    def login(table: int) -> Peer:
        name = f"table-{table:02d}"
        peer = Peer(venue.port, name, venue.secrets[name])
        assert not peer.connect().is_failure
        made.append(peer)
        return peer

    yield login
    for peer in made:
        peer.close()


def move(table: int, seq: int, *, used: float = 5.0, epoch: str = "") -> bytes:
    """Table ``table``'s pass as its unit sends it (``used`` -1: refused, out of range)."""
    event = MovePassed(game=1, move=seq, seat=Seat.A, used=max(used, 0.0))
    data = msgspec.json.decode(encode(envelope(f"table-{table:02d}", table, seq, 1e9, event,
                                               epoch=epoch)))
    data["event"]["used"] = used
    return json.dumps(data).encode()


def refusals(db: Path) -> str:
    out = io.StringIO()
    assert cli.main(["--db", str(db), "--lang", "en", "event", "refusals"], out=out) == 0
    return " ".join(out.getvalue().split())


def test_refused_events_kept_are_bounded_per_table_and_per_event(
    hub: HubService, account: Callable[[int], Peer], wait_until: Callable[..., Any],
    tmp_path: Path,
) -> None:
    per_attacker = MAX_SET_ASIDE_TABLE + 10
    sent = per_attacker * len(ATTACKERS)
    assert len(ATTACKERS) * MAX_SET_ASIDE_TABLE > MAX_SET_ASIDE  # the event's bound binds
    honest = account(HONEST)
    for seq in range(1, 21):
        assert ok(honest.publish(TOPICS.events(HONEST), move(HONEST, seq)))
    for table in ATTACKERS:
        thief = account(table)
        for seq in range(1, per_attacker + 1):
            assert ok(thief.publish(TOPICS.events(table), move(table, seq, used=-1.0)))
    for seq in range(21, 41):  # the honest table plays on through it
        assert ok(honest.publish(TOPICS.events(HONEST), move(HONEST, seq)))
    wait_until(lambda: hub.counters().get("set_aside", 0) >= sent, 30, "every refusal")
    wait_until(lambda: hub.counters().get("stored", 0) >= 40, 10, "the honest table's events")

    store = hub.store
    kept = store.set_aside()
    assert len(kept) == MAX_SET_ASIDE
    by_table = {t: sum(1 for k in kept if k.table == t) for t in ATTACKERS}
    assert max(by_table.values()) == MAX_SET_ASIDE_TABLE
    assert max(len(k.payload) for k in kept) <= MAX_PAYLOAD
    dropped = {c.table: c.count for c in store.refusal_counts() if c.code == DROPPED}
    assert sum(dropped.values()) == sent - MAX_SET_ASIDE == hub.counters()["dropped"]
    assert [e.seq for e in store.events(table=HONEST)] == list(range(1, 41))  # none dropped
    said = refusals(store.path)
    assert f"table 11: {dropped[11]} refused events not kept (the hub keeps at most " \
        f"{MAX_SET_ASIDE_TABLE} of one table's and {MAX_SET_ASIDE} in all)" in said


def test_new_journals_of_one_table_are_bounded_and_a_card_swap_still_counts(
    hub: HubService, account: Callable[[int], Peer], wait_until: Callable[..., Any],
) -> None:
    """Table 3's account sends 40 passes, each from a new journal; table 2's spare card
    (a journal of its own) is still taken."""
    thief = account(3)
    for n in range(40):
        assert ok(thief.publish(TOPICS.events(3), move(3, 1, epoch=f"e{n:07d}")))
    swap = account(2)
    assert ok(swap.publish(TOPICS.events(2), move(2, 1, epoch="a0000001")))
    assert ok(swap.publish(TOPICS.events(2), move(2, 1, epoch="b0000002")))  # the spare
    wait_until(lambda: hub.counters().get("received", 0) >= 42, 10, "every message")
    wait_until(lambda: len(hub.store.events(table=2)) == 2, 10, "the swapped card's event")
    store = hub.store
    assert len(store.events(table=3)) == 1 + NEW_JOURNALS_LIMIT
    assert len(store.replacements(table=3)) == NEW_JOURNALS_LIMIT
    [refused] = [c for c in store.refusal_counts() if c.code == JOURNALS and c.table == 3]
    assert refused.count == 40 - 1 - NEW_JOURNALS_LIMIT
    assert [r.epoch for r in store.replacements(table=2)] == ["b0000002"]
    minutes = int(JOURNAL_PERIOD // 60)
    assert f"table 3: {refused.count} events of new journals refused (more than " \
        f"{NEW_JOURNALS_LIMIT} new journals within {minutes} minutes" in refusals(store.path)


def test_a_journal_refused_for_the_limit_is_taken_once_the_period_has_passed(
    tmp_path: Path,
) -> None:
    """The unit sends its events again; once older journals have left the period, they
    are stored like any other journal's."""
    store = EventStore(tmp_path / "hub.sqlite3")
    start = 1_900_000_000.0

    def send(epoch: str, at: float) -> None:
        event = MovePassed(game=1, move=1, seat=Seat.A, used=5.0)
        store.ingest([envelope("table-03", 3, 1, at, event, epoch=epoch)], received=at)

    send("first", start)
    for n in range(NEW_JOURNALS_LIMIT):
        send(f"swap{n}", start + n)
    send("late", start + 60)
    assert "table-03@late" not in store.marks()
    send("late", start + JOURNAL_PERIOD + 1)  # the first swap has left the period
    assert store.marks()["table-03@late"].contiguous == 1
    store.close()
