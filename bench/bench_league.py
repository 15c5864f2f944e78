"""The league across towns under load: 3 venues of 60 tables each, their hubs bridged to
one central (Mosquitto bridges from the generated configs, the central league service
and its web pages in this process).

* **Result → central page**: at each venue the judges enter results for their 60 tables
  at once (each venue a thread, one result after another, the organizer's command as
  ``rummikub result enter`` runs it on the hub's store); a result counts as visible when
  the central holds it and its tournament page, fetched over HTTP, shows it. p50/p99.
  Beside it, in the same run: the venue's command alone (what a result costs the venue
  before anything goes up), and a bare paho message published at a venue broker and
  received at the central through the same bridge (the transport alone).
* **Central ingest**: batches of 100 records published straight to the central broker
  by the venues' accounts, stored by the league service (committed, acked) — records/s;
  beside it the same messages received by a bare paho subscriber that only counts.

Prints the figures; asserts nothing.

    .venv/bin/python bench/bench_league.py [--tables 60] [--results 60] [--batches 200]
"""

from __future__ import annotations

import argparse
import getpass
import os
import random
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import msgspec
import paho.mqtt.client as mqtt
import uvicorn
from paho.mqtt.enums import CallbackAPIVersion

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from test_cli_support import Cli, random_racks, seat_counts

from hub.broker import MosquittoBroker, free_port
from hub.credentials import Account, Role, password_file_text, write_bundle
from hub.league.bridge import (
    SERVICE_USER,
    CentralBroker,
    bridge_name,
    central_config,
    league_accounts,
    league_bundle,
    venue_username,
)
from hub.league.central import Central
from hub.league.service import LeagueService
from hub.league.web import CentralSite, make_central_app
from hub.league.wire import LEAGUE_VERSION, CentralTopics, RecordBatch, UpRecord, VenueLeagueTopics
from hub.service import HubService
from hub.store import HUB_SOURCE, EventStore
from hub.uplink import UplinkSettings
from hub.web.sessions import Gate
from tablekit.core.topics import Topics
from tablekit.shared.broker import BrokerSettings

LEAGUE = "bench"
READER = Account("bench-reader", Role.READER, "bench-reader-secret")
"""The bare subscribers' own account at the central (read only), beside the service's."""
VENUES = ("krakow", "gdansk", "poznan")
EVENT = "liga1"


class CentralMosquitto(MosquittoBroker):
    def __init__(self, workdir: Path, text: str, port: int) -> None:
        super().__init__(workdir, port=port)
        self._text = text

    def config_text(self) -> str:
        return self._text


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def hub_mark(db: Path) -> int:
    store = EventStore(db)
    try:
        mark = store.mark(HUB_SOURCE)
        return 0 if mark is None else mark.max_seq
    finally:
        store.close()


def venue_event(db: Path, tables: int) -> Cli:
    """A school event of ``tables`` tables of four, its first round drawn and started."""
    c = Cli(db, by="sędzia")
    c.ok("event", "create", "--preset", "school", "--name", f"Turniej {db.stem}")
    for i in range(4 * tables):
        c.ok("players", "add", f"Gracz {i + 1}", "--check-in")
    c.ok("round", "draw", "--seed", "1")
    c.ok("round", "start")
    return c


def rows(page: str) -> int:
    return page.count("</tr>")


def page_text(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as answer:
        return str(answer.read().decode())


def results_to_page(
    c: Cli, venue: str, central: Central, url: str, count: int, out: list[float],
    entering: list[float],
) -> None:
    """Enter ``count`` results one after another; each one's time until the central's
    page shows it (``out``), and the venue's command alone (``entering``)."""
    rng = random.Random(venue)
    seats = seat_counts(c.competition())
    page = f"{url}/t/{venue}-{EVENT}"
    before = rows(page_text(page))
    for missing in c.competition().event.missing_results()[:count]:
        racks = random_racks(seats[missing.table], rng)
        t0 = time.perf_counter()
        c.ok("result", "enter", "--table", str(missing.table), "--game", str(missing.game),
             "--racks", racks)
        entering.append(time.perf_counter() - t0)
        seq = hub_mark(c.db)
        while True:
            mark = central.store.mark(venue, EVENT)
            if mark is not None and mark.contiguous >= seq:
                break
            time.sleep(0.005)
        shown = rows(page_text(page))
        out.append(time.perf_counter() - t0)
        assert shown > before, "the result is not on the central's page"
        before = shown


EMPTY = msgspec.json.encode(RecordBatch(LEAGUE_VERSION, ()))
"""A batch of no records: the league service takes no notice of it."""


def reader(client_id: str, port: int) -> mqtt.Client:
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id)
    client.username_pw_set(READER.username, READER.secret)
    return client


def bare_round_trips(venue: MosquittoBroker, port: int, n: int) -> list[float]:
    """paho at a venue broker → the bridge → a paho subscriber at the central."""
    topic = VenueLeagueTopics("krakow").up("bare")
    remote = f"{CentralTopics(LEAGUE).venue_base('krakow')}/up/bare"
    got = threading.Event()
    sub = reader("bench-bare-sub", port)
    sub.on_message = lambda *a: got.set()
    subscribed = threading.Event()
    sub.on_subscribe = lambda *a: subscribed.set()
    sub.on_connect = lambda c, *a: c.subscribe(remote, 1)
    sub.connect("127.0.0.1", port)
    sub.loop_start()
    pub = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="bench-bare-pub")
    pub.connect("127.0.0.1", venue.port)
    pub.loop_start()
    assert subscribed.wait(10)
    times = []
    for _ in range(n):
        got.clear()
        t0 = time.perf_counter()
        pub.publish(topic, EMPTY, 1)
        assert got.wait(10), "the bare message did not cross the bridge"
        times.append(time.perf_counter() - t0)
        time.sleep(0.01)
    for client in (pub, sub):
        client.disconnect()
        client.loop_stop()
    return times


def batches(n: int) -> list[tuple[str, str, bytes]]:
    """(venue, event, payload): ``n`` batches of 100 consecutive records per venue."""
    record = msgspec.Raw(b'{"record":"bench","at":1.0}')
    out = []
    for venue in VENUES:
        for b in range(n):
            records = tuple(UpRecord(b * 100 + i + 1, "bench", 1.0, record) for i in range(100))
            out.append((venue, "ingest", msgspec.json.encode(RecordBatch(LEAGUE_VERSION, records))))
    return out


def publish_all(port: int, secrets: dict[str, str], messages: list[tuple[str, str, bytes]]) -> None:
    """Each venue's batches from its own account, QoS 1, as fast as the broker takes them."""
    topics = CentralTopics(LEAGUE)
    threads = []
    for venue in VENUES:
        mine = [(f"{topics.venue_base(v)}/up/{e}", p) for v, e, p in messages if v == venue]

        def run(venue: str = venue, mine: list[tuple[str, bytes]] = mine) -> None:
            c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"bench-{venue}")
            c.username_pw_set(venue_username(venue), secrets[venue_username(venue)])
            c.max_inflight_messages_set(100)
            c.connect("127.0.0.1", port)
            c.loop_start()
            infos = [c.publish(t, p, 1) for t, p in mine]
            for info in infos:
                info.wait_for_publish(60)
            c.disconnect()
            c.loop_stop()

        threads.append(threading.Thread(target=run))
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def bare_ingest(secrets: dict[str, str], port: int, n: int) -> float:
    messages = batches(n)
    count = threading.Event()
    seen = [0]

    def on_message(*a: object) -> None:
        seen[0] += 1
        if seen[0] == len(messages):
            count.set()

    sub = reader("bench-bare-ingest", port)
    sub.on_message = on_message
    subscribed = threading.Event()
    sub.on_subscribe = lambda *a: subscribed.set()
    sub.on_connect = lambda c, *a: c.subscribe(CentralTopics(LEAGUE).up_filter, 1)
    sub.connect("127.0.0.1", port)
    sub.loop_start()
    assert subscribed.wait(10)
    t0 = time.perf_counter()
    publish_all(port, secrets, messages)
    assert count.wait(120)
    elapsed = time.perf_counter() - t0
    sub.disconnect()
    sub.loop_stop()
    return len(messages) * 100 / elapsed


def forget_session(port: int, secret: str) -> None:
    """The league service's persistent session ended at the central broker (a clean
    connect under its account): what the bare run publishes is not kept for it."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=SERVICE_USER, clean_session=True)
    client.username_pw_set(SERVICE_USER, secret)
    client.connect("127.0.0.1", port)
    client.loop_start()
    time.sleep(0.2)
    client.disconnect()
    client.loop_stop()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=60)
    p.add_argument("--results", type=int, default=60, help="results measured per venue")
    p.add_argument("--batches", type=int, default=200, help="ingest batches per venue")
    args = p.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="bench-league-"))
    accounts = league_accounts(VENUES)
    secrets = {a.username: a.secret for a in accounts}
    local = free_port()
    settings = CentralBroker(port=free_port(), local_port=local, tls=False,
                             password_file=str(work / "bundle/central/league.passwd"),
                             acl_file=str(work / "bundle/central/league.acl"),
                             persistence_location=str(work / "central-data") + "/",
                             log_file=str(work / "central.log"),
                             run_as=getpass.getuser() if os.geteuid() == 0 else "")
    write_bundle(league_bundle(LEAGUE, VENUES, accounts, host="127.0.0.1", broker=settings,
                               cafile=None), work / "bundle")
    with open(work / "bundle/central/league.passwd", "a") as passwd:
        passwd.write(password_file_text([READER]))
    with open(work / "bundle/central/league.acl", "a") as acl:
        acl.write(f"user {READER.username}\ntopic read {CentralTopics(LEAGUE).base}/#\n")
    (work / "central-data").mkdir()
    central_broker = CentralMosquitto(work / "central", central_config(settings), settings.port)
    central_broker.start()
    service_settings = BrokerSettings(host="127.0.0.1", port=local, username=SERVICE_USER,
                                      password_file=str(work / "bundle/central/league-password"))
    venues, hubs = {}, []
    for venue in VENUES:
        broker = MosquittoBroker(work / venue)
        broker.extra = (work / f"bundle/venues/{venue}/bridge.conf").read_text().splitlines()
        broker.start()
        venues[venue] = broker
    print(f"3 venues × {args.tables} tables; setting up the events …", flush=True)
    events = {v: venue_event(work / f"{v}.sqlite3", args.tables) for v in VENUES}
    central = Central(LEAGUE, work / "league.sqlite3")
    service = LeagueService(service_settings, central)
    service.start()
    assert service.wait_online(10)
    for venue, broker in venues.items():
        hub = HubService(broker.client_settings(), events[venue].db, Topics(venue, EVENT),
                         league=UplinkSettings(bridge_name(venue)))
        hub.start()
        hubs.append(hub)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(make_central_app(CentralSite(central, Gate(None))),
                                           host="127.0.0.1", port=port, log_level="warning",
                                           timeout_graceful_shutdown=1))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while any(central.store.mark(v, EVENT) is None for v in VENUES):
            assert time.monotonic() < deadline, "the venues' events did not reach the central"
            time.sleep(0.1)
        bare = bare_round_trips(venues["krakow"], local, args.results * 3)
        samples: list[float] = []
        entering: list[float] = []
        threads = [
            threading.Thread(target=results_to_page,
                             args=(events[v], v, central, url, args.results, samples, entering))
            for v in VENUES
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        ms = [s * 1000 for s in samples]
        bare_ms = [s * 1000 for s in bare]
        print(f"result at a venue → on the central's page: p50 {statistics.median(ms):.0f} ms, "
              f"p99 {percentile(ms, 0.99):.0f} ms ({len(ms)} results, 3 venues at once)")
        own = [s * 1000 for s in entering]
        print(f"  of which the venue's own command (rummikub result enter): p50 "
              f"{statistics.median(own):.0f} ms, p99 {percentile(own, 0.99):.0f} ms")
        print(f"bare paho round trip venue → bridge → central: p50 "
              f"{statistics.median(bare_ms):.1f} ms, p99 {percentile(bare_ms, 0.99):.1f} ms "
              f"({len(bare_ms)} messages)")
        service.stop()
        forget_session(local, secrets[SERVICE_USER])  # nothing queued for the next service
        bare_rate = bare_ingest(secrets, local, args.batches)
        central.store.close()
        ingest = Central(LEAGUE, work / "ingest.sqlite3")
        service = LeagueService(service_settings, ingest)
        service.start()
        assert service.wait_online(10)
        t0 = time.perf_counter()
        publish_all(settings.port, secrets, batches(args.batches))
        total = len(VENUES) * args.batches * 100
        while sum(len(ingest.store.seqs(v, "ingest")) for v in VENUES) < total:
            assert time.perf_counter() - t0 < 600, "the central did not store every record"
            time.sleep(0.05)
        rate = total / (time.perf_counter() - t0)
        print(f"central ingest: {rate:,.0f} records/s stored and acked ({total:,} records in "
              f"batches of 100); bare paho subscriber: {bare_rate:,.0f} records/s")
    finally:
        server.should_exit = True
        for hub in hubs:
            hub.stop()
        service.stop()
        for broker in venues.values():
            broker.kill()
        central_broker.kill()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
