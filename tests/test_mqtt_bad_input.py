"""10,000 hostile messages at the hub: it stays up, refuses each with a reason, stores only
the genuine units' events, and a real unit playing meanwhile is not affected.

The broker here has no access list (every message reaches the hub: the worst case); with
the generated one most of these would not get past the broker (tests/test_deploy_broker.py).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import msgspec
import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from hub.broker import MosquittoBroker
from hub.service import HubService
from hub.store import DROPPED, MAX_REFUSAL_LOG, MAX_SET_ASIDE_TABLE
from tablekit.config import LinkSettings
from tablekit.core.clock import ClockRules, MoveClock
from tablekit.core.clock_events import ClockPaused, MovePassed, PauseReason
from tablekit.core.codec import encode
from tablekit.core.messages import MAX_PAYLOAD, WINDOW, StatusReason, UnitStatus, envelope
from tablekit.core.seats import Seat
from tablekit.core.topics import Topics
from tablekit.journal import Journal
from tablekit.link import TableLink

pytestmark = pytest.mark.mqtt

TOPICS = Topics("hall", "fuzz")
UNIT, TABLE = "table-03", 3


@pytest.fixture
def hub(
    tmp_path: Path, mosquitto: Callable[..., MosquittoBroker]
) -> Iterator[tuple[MosquittoBroker, HubService]]:
    broker = mosquitto()
    service = HubService(broker.client_settings(), tmp_path / "hub.db", TOPICS, tables=9)
    service.start()
    assert service.wait_online(10)
    yield broker, service
    service.stop()


def good_event(seq: int) -> bytes:
    event = MovePassed(game=1, move=seq, seat=Seat("ABCD"[(seq - 1) % 4]), used=seq % 40 + 0.5)
    return encode(envelope(UNIT, TABLE, seq, 1_700_000_000.0 + seq, event))


def bad_messages(rng: random.Random, good: list[bytes]) -> list[tuple[str, bytes, str]]:
    """(topic, payload, expected outcome: a rejection code, 'duplicate' or 'conflict')."""
    events = TOPICS.events(TABLE)

    def mutate(**changes: object) -> bytes:
        data = json.loads(rng.choice(good))
        data.update(changes)
        return json.dumps(data).encode()

    def mutate_event(**changes: object) -> bytes:
        data = json.loads(rng.choice(good))
        data["event"].update(changes)
        return json.dumps(data).encode()

    makers: list[Callable[[], tuple[str, bytes, str]]] = [
        lambda: (events, rng.randbytes(rng.randint(0, 200)), "json"),
        lambda: (events, rng.choice(good)[: rng.randint(0, 60)], "json"),
        lambda: (events, b"[" * 2000, "json"),
        lambda: (events, rng.choice(good) + b" " * MAX_PAYLOAD, "oversize"),
        lambda: (events, mutate(v=rng.choice([0, 2, 99, "1", None])), "version"),
        lambda: (events, mutate(sneaky=True), "invalid"),
        lambda: (events, mutate(seq=rng.choice([0, -1, 2**60, "7", 1.5])), "invalid"),
        lambda: (events, mutate(unit=rng.choice(["", "a/b", "x" * 65, 5, "tab\x01le"])), "invalid"),
        lambda: (events, mutate(unit=rng.choice(["table-04", "table-1", "hub"])), "identity"),
        lambda: (events, mutate(seq=50 + WINDOW + rng.randint(1, 2**40)), "window"),
        lambda: (TOPICS.events(10 + rng.randint(0, 989)), rng.choice(good), "unprovisioned"),
        lambda: (events, mutate_event(type="move\x00passed"), "invalid"),
        lambda: (events, mutate(ts=rng.choice([-5, 1e300, "now"])), "invalid"),
        lambda: (events, mutate_event(used=rng.choice([-1.0, 1e9])), "range"),
        lambda: (events, mutate_event(game=rng.choice([0, 10**6])), "range"),
        lambda: (events, mutate_event(type="move_stolen"), "invalid"),
        lambda: (events, mutate_event(seat="Z"), "invalid"),
        lambda: (events, mutate(v=1, table=TABLE + 1), "table"),
        lambda: (TOPICS.events(TABLE + 1), rng.choice(good), "table"),
        lambda: (f"{TOPICS.base}/table/0/events", rng.choice(good), "topic"),
        lambda: (f"{TOPICS.base}/table/03/events", rng.choice(good), "topic"),
        lambda: (f"{TOPICS.base}/table/abc/state", b"{}", "topic"),
        lambda: (TOPICS.state(TABLE), mutate(), "invalid"),
        lambda: (TOPICS.status(TABLE), b'{"v":1,"online":"yes"}', "invalid"),
        lambda: (events, rng.choice(good), "duplicate"),
        lambda: (events, mutate_event(used=77.7), "conflict"),
    ]
    return [rng.choice(makers)() for _ in range(10_000)]


def test_hub_survives_10000_hostile_messages_and_a_real_unit_is_unaffected(  # type: ignore[no-untyped-def]
    hub, wait_until, tmp_path: Path
) -> None:
    broker, service = hub
    rng = random.Random(20250101)
    good = [good_event(seq) for seq in range(1, 301)]
    first, rest = good[:50], good[50:]
    bad = bad_messages(rng, first)
    journal = Journal(tmp_path / "table-01.db", "table-01")
    settings = LinkSettings(host=broker.host, port=broker.port, venue="hall", event="fuzz")
    link = TableLink(settings, journal, 1, "table-01", lambda _: None)
    link.start()
    clock = MoveClock(ClockRules(seats=4, move_seconds=40.0, lockout=0.0))
    played: list[bytes] = []

    client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
    client.connect(broker.host, broker.port)
    client.loop_start()
    published = 0
    for payload in first:  # known events, so that replays are replays
        client.publish(TOPICS.events(TABLE), payload, 1)
        published += 1
    wait_until(lambda: service.store.counts().get("total") == 50, 30, "the first good events")
    infos = []
    good_iter = iter(rest)
    for i, (topic, payload, _) in enumerate(bad):
        infos.append(client.publish(topic, payload, rng.choice([0, 1])))
        published += 1
        if i % 40 == 0:
            nxt = next(good_iter, None)
            if nxt is not None:
                infos.append(client.publish(TOPICS.events(TABLE), nxt, 1))
                published += 1
        if i % 100 == 0:  # the real unit at table 1 plays through the flood
            events = clock.press(i / 10)
            journal.record(events, state=b"{}")
            played += [msgspec.json.encode(e) for e in events]
            link.notify()
    for payload in good_iter:
        client.publish(TOPICS.events(TABLE), payload, 1)
        published += 1

    expected = Counter(outcome for _, _, outcome in bad)
    rejected_codes = {k: v for k, v in expected.items() if k not in ("duplicate", "conflict")}

    def settled() -> bool:
        # Every hostile message answered by its own outcome: a sum over all outcomes would
        # also count the real unit's events and resends, and could be reached while a
        # slow hub still has some of the flood to handle.
        c = service.counters()
        done = ("stored", "duplicates", "conflicts", "rejected", "snapshots", "statuses")
        return (
            sum(c.get(k, 0) for k in done) >= published
            and all(c.get(f"rejected_{code}", 0) >= n for code, n in rejected_codes.items())
            and c.get("conflicts", 0) >= expected["conflict"]
        )

    wait_until(settled, 120, "every message handled")
    wait_until(lambda: journal.pending_count() == 0, 60, "the real unit's queue drained")

    counters = service.counters()
    for code, n in rejected_codes.items():
        assert counters.get(f"rejected_{code}", 0) == n, (code, counters)
    assert counters["rejected"] == sum(rejected_codes.values())
    assert counters["duplicates"] >= expected["duplicate"], (counters, expected)
    assert counters["conflicts"] == expected["conflict"]
    assert counters.get("callback_errors", 0) == 0
    # Each refusal has a reason on record: counted per reason and table, the latest logged
    # in a bounded log, and a unit's own events set aside (conflicts, bad content) up to
    # the store's limit, the rest counted as not kept.
    wait_until(
        lambda: sum(c.count for c in service.store.refusal_counts() if c.code != DROPPED)
        == counters["rejected"] + counters["conflicts"],
        10,
        "every refusal counted in the store",
    )
    counted: Counter[str] = Counter()
    for c in service.store.refusal_counts():
        counted[c.code] += c.count
    assert counted["identity"] == expected["identity"]
    assert counted["conflict"] == expected["conflict"]
    log_rows = service.store.refusal_log(10**6)
    assert len(log_rows) == MAX_REFUSAL_LOG and all(r.reason for r in log_rows)
    aside = service.store.set_aside()
    assert aside and all(a.source == UNIT and a.seq <= 50 and a.reason for a in aside)
    assert len(aside) == MAX_SET_ASIDE_TABLE and counted[DROPPED] > 0

    # The real unit at table 1 was not affected: all it played is stored, nothing set aside.
    assert journal.set_aside_entries() == []
    assert [e.payload for e in service.store.events(source="table-01")] == played
    link.stop()
    journal.close()

    stored = service.store.events(source=UNIT)
    assert {e.source for e in service.store.events()} == {UNIT, "table-01"}
    assert [e.seq for e in stored] == list(range(1, 301))
    assert [e.payload for e in stored] == [
        json.dumps(json.loads(p)["event"], separators=(",", ":")).encode() for p in good
    ]
    assert service.store.counts()["total"] == 300 + len(played)
    assert service.store.mark(UNIT).contiguous == 300  # type: ignore[union-attr]
    assert service.online and service.store.integrity_check() == "ok"

    # ... and it still answers: a new unit's event is stored and its status seen.
    client.publish(
        TOPICS.status(9),
        encode(
            UnitStatus(
                v=1, unit="table-09", table=9, online=True, reason=StatusReason.CONNECTED, ts=1.0
            )
        ),
        1,
    )
    pause = ClockPaused(game=1, move=1, seat=Seat.A, reason=PauseReason.JUDGE, remaining=3.0)
    client.publish(TOPICS.events(9), encode(envelope("table-09", 9, 1, 2.0, pause)), 1)
    wait_until(lambda: service.store.mark("table-09") is not None, 10, "a later good event")
    wait_until(lambda: service.live.table(9).online is True, 10, "a later status")
    client.loop_stop()
    client.disconnect()
