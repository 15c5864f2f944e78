"""The league across towns on real parts: two venue Mosquittos bridged over TLS to a
central Mosquitto with the generated configs, accounts and ACL; each venue's hub service
sends its event's records up while the uplink is cut (the central broker killed, a
venue broker killed with its bridge queue), the central service restarted mid-day.
Every record arrives once and in order; the central's season table equals
``rummikub season table`` over the event files with the same identities; the seeds of
the second town's tournament come down from the central; a venue that forges another
venue's topic is refused by the central's ACL.
"""

from __future__ import annotations

import getpass
import html
import os
import random
import re
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
import paho.mqtt.client as mqtt
import pytest
import trustme
from paho.mqtt.enums import CallbackAPIVersion
from starlette.testclient import TestClient

from hub.broker import MosquittoBroker, free_port
from hub.credentials import write_bundle
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
from hub.league.identity import decisions_json
from hub.league.service import LeagueService
from hub.league.wire import (
    LEAGUE_VERSION,
    CentralTopics,
    RecordBatch,
    UpRecord,
    VenueLeagueTopics,
)
from hub.retained import LiveSource, season_board
from hub.season import open_competition, season_event, season_of
from hub.service import HubService
from hub.store import HUB_SOURCE, EventStore
from hub.uplink import REGISTRY_NAME, UplinkRegistry, UplinkRegistryError, UplinkSettings
from hub.web.accounts import WebRole
from hub.web.app import make_app
from hub.web.live import LiveTables
from hub.web.pages import Console, EventReader
from tablekit.core.topics import Topics
from tablekit.shared.broker import BrokerSettings, connect, disconnect, make_client
from tests.test_cli_support import Cli, play_round
from tests.web_console import form_token, signed_in

pytestmark = pytest.mark.mqtt

LEAGUE = "liga"
VENUES = ("krakow", "gdansk")


class ConfiguredBroker(MosquittoBroker):
    """A Mosquitto run from a config text of its own (the generated central's)."""

    def __init__(self, workdir: Path, text: Callable[[MosquittoBroker], str], **kw: Any) -> None:
        super().__init__(workdir, **kw)
        self._text = text

    def config_text(self) -> str:
        return self._text(self)


@dataclass
class League:
    central: ConfiguredBroker
    local_port: int
    secrets: dict[str, str]
    bundle: Path
    venues: dict[str, MosquittoBroker]
    store: Path

    def service_settings(self) -> BrokerSettings:
        secret = str(self.bundle / "central/league-password")
        return BrokerSettings(host="127.0.0.1", port=self.local_port, username=SERVICE_USER,
                              password_file=secret)


@pytest.fixture
def league(tmp_path: Path, mosquitto: Callable[..., MosquittoBroker]) -> Iterator[League]:
    ca = trustme.CA()
    cert = ca.issue_cert("127.0.0.1", "localhost")
    pems = tmp_path / "pems"
    pems.mkdir()
    ca.cert_pem.write_to_path(str(pems / "ca.pem"))
    cert.private_key_pem.write_to_path(str(pems / "key.pem"))
    cert.cert_chain_pems[0].write_to_path(str(pems / "cert.pem"))
    bundle = tmp_path / "bundle"
    accounts = league_accounts(VENUES)
    tls_port, local_port = free_port(), free_port()
    settings = CentralBroker(
        port=tls_port, local_port=local_port, certfile=str(pems / "cert.pem"),
        keyfile=str(pems / "key.pem"), password_file=str(bundle / "central/league.passwd"),
        acl_file=str(bundle / "central/league.acl"),
        persistence_location=str(tmp_path / "central-data") + "/",
        log_file=str(tmp_path / "central.log"),
        run_as=getpass.getuser() if os.geteuid() == 0 else "",
    )
    write_bundle(
        league_bundle(LEAGUE, VENUES, accounts, host="127.0.0.1", broker=settings,
                      cafile=str(pems / "ca.pem")),
        bundle,
    )
    (tmp_path / "central-data").mkdir()
    central = ConfiguredBroker(tmp_path / "central", lambda b: central_config(settings),
                               port=tls_port)
    central.log_path = tmp_path / "central.log"
    central.start()
    venues = {
        venue: mosquitto(extra=(bundle / f"venues/{venue}/bridge.conf").read_text().splitlines())
        for venue in VENUES
    }
    yield League(central, local_port, {a.username: a.secret for a in accounts}, bundle,
                 venues, tmp_path / "league.sqlite3")
    central.kill()


def start_central(league: League) -> tuple[LeagueService, Central]:
    central = Central(LEAGUE, league.store)
    service = LeagueService(league.service_settings(), central)
    service.start()
    assert service.wait_online(10), league.central.log_tail()
    return service, central


def start_hub(league: League, venue: str, db: Path, event: str = "liga1") -> HubService:
    broker = league.venues[venue]
    hub = HubService(broker.client_settings(), db, Topics(venue, event),
                     league=UplinkSettings(bridge_name(venue)))
    hub.start()
    assert hub.wait_online(10)
    return hub


def hub_seqs(db: Path) -> list[int]:
    store = EventStore(db)
    try:
        return [e.seq for e in store.events(source=HUB_SOURCE)]
    finally:
        store.close()


def league_event(
    db: Path,
    names: list[str],
    *,
    rounds: int = 0,
    by: str = "Ola",
    details: Mapping[str, Sequence[str]] | None = None,
) -> Cli:
    """A league event of ``names`` (``details``: more of a name's ``players add``
    options), ``rounds`` played."""
    c = Cli(db, by=by)
    c.ok("event", "create", "--preset", "league", "--name", f"Liga {db.stem}")
    for name in names:
        c.ok("players", "add", name, "--check-in", *(details or {}).get(name, ()))
    rng = random.Random(db.stem)
    for _ in range(rounds):
        c.ok("round", "draw")
        c.ok("round", "start")
        play_round(c, rng)
        c.ok("round", "close")
    return c


def test_two_towns_a_cut_uplink_and_seeds_from_the_central(
    league: League, tmp_path: Path, wait_until: Callable[..., Any]
) -> None:
    service, central = start_central(league)
    krakow_db = tmp_path / "krakow.sqlite3"
    hub = start_hub(league, "krakow", krakow_db)
    names = [f"Gracz {chr(65 + i)}" for i in range(8)]
    c = league_event(krakow_db, names, rounds=1)
    wait_until(lambda: central.store.seqs("krakow", "liga1") == hub_seqs(krakow_db),
               what="round 1 at the central")

    # The uplink cut: the central broker killed; the venue plays on.
    league.central.kill()
    rng = random.Random(2)
    c.ok("round", "draw")
    c.ok("round", "start")
    play_round(c, rng)
    # The venue broker killed too, with whatever its bridge had queued; back again.
    league.venues["krakow"].kill()
    league.venues["krakow"].restart()
    hub.stop()  # and the venue's hub restarted
    hub = start_hub(league, "krakow", krakow_db)
    c.ok("round", "close")
    assert c.competition().event.phase.name == "FINISHED"
    # The best of those who play the second tournament too is a pupil: marked minor
    # here, with the school as club and a league number.
    players = c.competition().event.players
    pupil = next(r.player_id for r in c.competition().event.final_ranking()
                 if players[r.player_id].name in names[:7])
    c.ok("players", "rename", pupil, "--club", "SP 12 Kraków", "--league-number", "L1",
         "--why", "the league's number")
    c.ok("players", "minor", pupil, "--consent")
    pupil_name = players[pupil].name
    service.stop()  # the central service restarted while the uplink is down
    league.central.restart()
    service, central = start_central(league)
    wait_until(lambda: central.store.seqs("krakow", "liga1") == hub_seqs(krakow_db),
               timeout=60, what="every record at the central after the uplink returned")
    seqs = central.store.seqs("krakow", "liga1")
    assert seqs == list(range(1, len(seqs) + 1))  # once each, in order
    assert central.store.conflict_count() == 0
    comp, _ = central.store.competition("krakow", "liga1")
    assert comp.event.league_points() == open_competition(krakow_db).event.league_points()

    # A duplicated batch (a bridge resending) is stored once.
    first = EventStore(krakow_db)
    stored = first.events(source=HUB_SOURCE, limit=3)
    first.close()
    again = RecordBatch(LEAGUE_VERSION, tuple(
        UpRecord(e.seq, e.kind, e.ts, msgspec.Raw(e.payload)) for e in stored))
    publish_retained_free(league.venues["krakow"].client_settings(),
                          VenueLeagueTopics("krakow").up("liga1"), msgspec.json.encode(again))
    wait_until(lambda: service.counts.get("duplicates", 0) >= 3, what="the duplicates")
    assert central.store.seqs("krakow", "liga1") == seqs

    # A venue forging another venue's records is refused by the central's ACL.
    hub.stop()
    league.venues["krakow"].stop()  # its bridge would take the session back
    topics = CentralTopics(LEAGUE)
    forged = f"{topics.venue_base('gdansk')}/up/liga1"
    own = f"{topics.venue_base('krakow')}/up/liga1"
    assert publish_as(league, "krakow", [(forged, msgspec.json.encode(again)),
                                         (own, msgspec.json.encode(again))]) == [True, False]
    wait_until(lambda: service.counts.get("duplicates", 0) >= 6, what="its own topic")
    assert central.store.mark("gdansk", "liga1") is None

    # The second town: its organizer pulls the seeds from the central.
    gdansk_db = tmp_path / "gdansk.sqlite3"
    hub2 = start_hub(league, "gdansk", gdansk_db)
    wait_until(lambda: central.board().lines, what="the season board")
    newcomers = [f"Nowy {i}" for i in range(6)]  # 13: four first tables
    second = league_event(gdansk_db, [*names[:7], *newcomers], by="Ewa",
                          details={pupil_name: ("--league-number", "L1")})
    broker = league.venues["gdansk"]
    out = wait_until(lambda: _seeds(second, broker.port), timeout=30, what="the seeds")
    # The table every venue receives names the other venue's minor as the public does.
    board = season_board(LiveSource(broker.client_settings(), Topics("gdansk", "liga1")))
    pupil_line = next(line for line in board.lines if line.number == "L1")
    assert (pupil_line.name, pupil_line.club) == (f"{pupil_name}.", None)
    assert "SP 12" not in msgspec.json.encode(board).decode()
    present = {*names[:7], *newcomers}
    top4 = [line.name for line in central.season().lines if line.name in present][:4]
    assert pupil_name in top4  # seeded by the league number
    declared = [
        line.split("  ")[1] for line in out.splitlines() if line[:2] in ("1.", "2.", "3.", "4.")
    ]
    assert declared == top4
    # The same seeds with one click on the venue's web console (003 §10a).
    second.ok("players", "seeds", "P001")  # declared otherwise before the click
    assert one_click_seeds(gdansk_db, broker.client_settings()) == top4
    second.ok("round", "draw")
    seating = second.competition().event.seating(second.competition().event.stages_played[0])
    comp2 = second.competition()
    table_of = {pid: t.number for t in seating for pid in t.players}
    by_name = {p.name: pid for pid, p in comp2.event.players.items()}
    assert len({table_of[by_name[name]] for name in top4}) == 4  # 003 §10a
    rng = random.Random(3)
    for stage in range(2):
        if stage:
            second.ok("round", "draw")
        second.ok("round", "start")
        play_round(second, rng)
        second.ok("round", "close")
    assert second.competition().event.phase.name == "FINISHED"
    wait_until(lambda: central.store.seqs("gdansk", "liga1") == hub_seqs(gdansk_db),
               what="the second tournament at the central")

    # The same names are questions at the central; the league organizer answers them, and
    # the table over the files with the same answers is the central's table.
    season = central.season()
    assert len(season.identities.questions) == 6  # Gracz B: the same league number
    for question in season.identities.questions:
        central.decide(question.entry.ref, question.candidates[0].ref, "league organizer")
    season = central.season()
    assert not season.identities.questions
    ids = tmp_path / "identities.json"
    ids.write_bytes(decisions_json(central.store.decisions()))
    files = [season_event(krakow_db), season_event(gdansk_db)]
    over_files = season_of(files, central.store.decisions())
    assert [(x.name, x.points, x.starts) for x in over_files.lines] == [
        (x.name, x.points, x.starts) for x in season.lines
    ]
    table = Cli(gdansk_db).ok("season", "table", str(krakow_db), str(gdansk_db),
                              "--identities", str(ids))
    assert "counted apart" not in table
    hub2.stop()
    service.stop()


def one_click_seeds(db: Path, broker: BrokerSettings) -> list[str]:
    """The organizer's click on the round page's seeding button; the seeds' names as the
    page says them back."""
    live = LiveTables(broker, Topics("gdansk", "liga1"))
    with TestClient(make_app(Console(EventReader(db), live))) as client:
        assert live.wait_subscribed(10)
        signed_in(client, WebRole.ORGANIZER)
        page = client.get("/organizer/round").text
        assert "Rozstaw najlepszą czwórkę sezonu" in page
        answer = client.post("/organizer/round/seeds", data={"csrf": form_token(page)})
        said = re.search(r"najlepsi pierwsi: ([^.]*)\.", html.unescape(answer.text))
        assert answer.status_code == 200 and said is not None, answer.text
    return said[1].split(", ")


def _seeds(c: Cli, port: int) -> str | None:
    result = c.run("season", "seeds", "--league", "--declare", "--broker", f"127.0.0.1:{port}",
                   "--venue", "gdansk")
    return result.out if result.code == 0 else None


def publish_retained_free(broker: BrokerSettings, topic: str, payload: bytes) -> None:
    """One QoS 1 message at the venue broker, as the hub's uplink sends one."""
    client = make_client(broker, "")
    connect(client, broker, blocking=True)
    client.loop_start()
    try:
        client.publish(topic, payload, 1).wait_for_publish(10)
    finally:
        disconnect(client)


def publish_as(league: League, venue: str, messages: list[tuple[str, bytes]]) -> list[bool]:
    """Publish at the central (MQTT 5, TLS) with ``venue``'s own account; whether each
    publish was refused (PUBACK "Not authorized")."""
    done = threading.Event()
    refused: dict[int, bool] = {}
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=venue_username(venue),
                         protocol=mqtt.MQTTv5)
    client.username_pw_set(venue_username(venue), league.secrets[venue_username(venue)])
    client.tls_set(ca_certs=str(league.central.workdir.parent / "pems/ca.pem"))

    def on_publish(c: Any, u: Any, mid: int, reason: Any, props: Any) -> None:
        refused[mid] = reason.is_failure
        if len(refused) == len(messages):
            done.set()

    client.on_publish = on_publish
    client.connect("127.0.0.1", league.central.port)
    client.loop_start()
    try:
        mids = [client.publish(topic, payload, 1).mid for topic, payload in messages]
        assert done.wait(10)
    finally:
        disconnect(client)
    return [refused[mid] for mid in mids]


def test_an_event_left_unsent_goes_up_when_the_hub_serves_the_next_one(
    league: League, tmp_path: Path, wait_until: Callable[..., Any]
) -> None:
    """The hub moves to the next event while the central is out of reach: the first
    event's records go up from its own store, beside the new event's."""
    league.central.kill()
    first_db, second_db = tmp_path / "jesien.sqlite3", tmp_path / "zima.sqlite3"
    hub = start_hub(league, "krakow", first_db, "jesien")
    league_event(first_db, [f"Gracz {chr(65 + i)}" for i in range(8)], rounds=1)
    hub.stop()
    hub = start_hub(league, "krakow", second_db, "zima")  # the next event, a new store
    league_event(second_db, [f"Nowy {i}" for i in range(8)])
    league.central.restart()
    service, central = start_central(league)
    for event, db in (("jesien", first_db), ("zima", second_db)):
        wait_until(lambda event=event, db=db: central.store.seqs("krakow", event) == hub_seqs(db),
                   timeout=60, what=f"{event} at the central")
    marks = {"jesien": len(hub_seqs(first_db)), "zima": len(hub_seqs(second_db))}
    assert hub.uplink is not None
    wait_until(lambda: hub.uplink.marks() == marks, what="both events' marks at the hub")
    hub.stop()
    # The registry keeps both events and their marks: a restarted hub knows them at once.
    registry = UplinkRegistry(tmp_path / REGISTRY_NAME)
    assert {(r.event, r.acked) for r in registry.events("krakow")} == set(marks.items())
    with pytest.raises(UplinkRegistryError, match=r"from .*jesien\.sqlite3"):
        registry.register("krakow", "jesien", tmp_path / "another.sqlite3")
    registry.close()
    service.stop()
