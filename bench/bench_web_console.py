"""The web console under a hall of phones, run as its own process as on the hub Pi.

A school event of ``--players`` (default 240: 60 tables) drawn and started, loopback
Mosquitto, and ``rummikub-web`` started as a process of its own (so its memory and CPU
are its own, read from /proc). While the tables play (a snapshot of a random table every
``1 / --rate`` s, default 12 a second: each of 60 tables moving every 5 s):

1. ``--pages`` phones (default 300) on a table's page, its live stream: ``--events``
   messages of that table, each timed from its publish until every page has the new card.
2. the same number of phones on the standings page: ``--results`` results entered as the
   command line enters them (the judges' ``enter_result``), each timed from its commit
   until every phone has fetched the standings again (what ``live.js`` does on the
   stream's ``standings`` event).
3. the tables' link beside it: a bare MQTT QoS 1 round trip through the same broker,
   with no page open and with the phones following.
4. ``--requests`` GETs of the standings page, one after another, beside a bare Starlette
   endpoint on the same uvicorn set-up, in a process of its own, returning the same bytes.

Prints each figure beside its baseline, the web process's peak RSS (VmHWM) and CPU (its
user + system time over the phones' phases, as a share of one core), and the machine's
load; asserts nothing.

    .venv/bin/python bench/bench_web_console.py [--players 240] [--pages 300]
        [--events 20] [--results 5] [--requests 200] [--rate 12]
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import http.client
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import paho.mqtt.client as mqtt
from measure import percentiles
from paho.mqtt.enums import CallbackAPIVersion

from hub.broker import MosquittoBroker, free_port
from hub.cli.racks import ending_for, racks_arg
from hub.organizer import Organizer
from hub.store import EventStore
from hub.tournament import Player
from tablekit.core.clock import Phase
from tablekit.core.codec import encode
from tablekit.core.messages import TableSnapshot
from tablekit.core.scoring import GameReport
from tablekit.core.seats import Seat
from tablekit.core.topics import Topics

TOPICS = Topics("bench", "web")
ROOT = Path(__file__).resolve().parents[1]


def make_event(db: Path, players: int) -> int:
    """A school event of ``players``, its first round drawn and started; its tables."""
    org = Organizer(EventStore(db), by="bench")
    org.create_event("Bench", "school")
    org.register([Player(f"P{i:03d}", f"Gracz Numer{i:03d}", "SP 1")
                  for i in range(1, players + 1)], check_in=True)
    org.draw(seed=1)
    org.start_round()
    tables = len(org.competition.tables())
    org.store.close()
    return tables


def state(table: int, move: int) -> bytes:
    return encode(TableSnapshot(
        v=1, table=table, unit=f"table-{table:02d}", game=1, move=move, phase=Phase.RUNNING,
        active=Seat("ABCD"[move % 4]), remaining=40.0, measured_at=time.time(), paused=None,
        last_lap_left=None, timeouts=(0, 0, 0, 0), seats=4, move_seconds=40.0,
    ))


# --- the processes ------------------------------------------------------------------------


class Process:
    """A server in a process of its own; its CPU time and peak memory from /proc."""

    def __init__(self, argv: list[str], port: int) -> None:
        self.port = port
        env = {k: v for k, v in os.environ.items() if not k.startswith("RUMMIKUB_")}
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 (read when it fails)
        self.proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                                     stderr=self.log)
        deadline = time.monotonic() + 60
        while True:
            try:
                status, _ = get_once(port, "/")
                if status in (200, 404):
                    return
            except OSError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(self.said())
            time.sleep(0.1)

    def said(self) -> str:
        """What the process logged."""
        self.log.seek(0)
        return self.log.read().decode("utf-8", "replace")

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def peak_rss_mib(self) -> float:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
        return float("nan")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def console_process(db: Path, broker: MosquittoBroker, pages: int) -> Process:
    """``rummikub-web`` with room for ``pages`` live pages (``[web] streams``)."""
    config = db.with_name("hub.toml")
    config.write_text(f"[web]\nstreams = {pages + 10}\nconnections = {3 * pages + 100}\n")
    port = free_port()
    program = "from hub.web.serve import main; raise SystemExit(main())"
    return Process([sys.executable, "-c", program, "--config", str(config), "--db", str(db),
                    "--broker", f"{broker.host}:{broker.port}",
                    "--venue", TOPICS.venue, "--event", TOPICS.event,
                    "--host", "127.0.0.1", "--port", str(port)], port)


BARE = """
import sys, uvicorn
from pathlib import Path
from starlette.applications import Starlette
from starlette.responses import HTMLResponse
from starlette.routing import Route
from hub.web.serve import server_config
body = Path(sys.argv[1]).read_bytes()
async def same(request):
    return HTMLResponse(body)
async def home(request):
    return HTMLResponse("")
app = Starlette(routes=[Route("/standings", same), Route("/", home)])
uvicorn.Server(server_config(app, "127.0.0.1", int(sys.argv[2]))).run()
"""


def bare_process(body: bytes, where: Path) -> Process:
    (where / "standings.html").write_bytes(body)
    port = free_port()
    return Process([sys.executable, "-c", BARE, str(where / "standings.html"), str(port)], port)


# --- clients --------------------------------------------------------------------------------


def get_once(port: int, path: str) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path)
        answer = conn.getresponse()
        return answer.status, answer.read()
    finally:
        conn.close()


def get_times(port: int, path: str, n: int) -> tuple[list[float], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    times, body = [], b""
    for _ in range(n):
        start = time.perf_counter()
        conn.request("GET", path)
        body = conn.getresponse().read()
        times.append(time.perf_counter() - start)
    conn.close()
    return times, body


async def phone(port: int, path: str, on_event: Callable[[str], object]) -> None:
    """One page's live stream: ``on_event(kind or data line)`` for each line that says
    something (awaited when it is a coroutine)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.0\r\n\r\n".encode())
    await writer.drain()
    while line := await reader.readline():
        text = line.decode("utf-8", "replace").rstrip("\r\n")
        if text.startswith(("event: ", "data: ")):
            done = on_event(text)
            if asyncio.iscoroutine(done):
                await done


async def fetch(port: int, path: str) -> bytes:
    """A page fetched as a phone's script does (a connection of its own)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.0\r\nHost: hub\r\n\r\n".encode())
    await writer.drain()
    answer = await reader.read()
    writer.close()
    return answer.partition(b"\r\n\r\n")[2]


class Phones:
    """Open pages: each :meth:`open` runs its phones in an event loop of its own, in a
    thread of the bench."""

    def open(self, n: int, port: int, path: str, on_event: Callable[[int, str], object]) -> None:
        async def all_of_them() -> None:
            pages = [phone(port, path, functools.partial(on_event, i)) for i in range(n)]
            for failed in await asyncio.gather(*pages, return_exceptions=True):
                if isinstance(failed, BaseException):
                    print(f"a phone's page failed: {failed!r}", file=sys.stderr)

        threading.Thread(target=asyncio.run, args=(all_of_them(),), daemon=True).start()


def wait_for(what: Callable[[], bool], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while not what():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.005)
    return True


class Tables(threading.Thread):
    """The hall playing: a snapshot of a random table (not ``quiet``) ``rate`` times a
    second."""

    def __init__(self, client: mqtt.Client, tables: int, rate: float, quiet: int) -> None:
        super().__init__(daemon=True)
        self.client, self.tables, self.rate, self.quiet = client, tables, rate, quiet
        self.stop = threading.Event()
        self.moves = dict.fromkeys(range(1, tables + 1), 0)

    def run(self) -> None:
        rng = random.Random(7)
        while not self.stop.wait(1 / self.rate):
            table = rng.choice([t for t in range(1, self.tables + 1) if t != self.quiet])
            self.moves[table] += 1
            self.client.publish(TOPICS.state(table), state(table, self.moves[table]), qos=1,
                                retain=True)


def bare_round_trip(broker: MosquittoBroker, n: int) -> list[float]:
    got = threading.Event()
    sub = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"bench-sub-{random.random()}")
    sub.on_message = lambda *_: got.set()
    sub.connect(broker.host, broker.port)
    sub.subscribe("bench/bare", qos=1)
    sub.loop_start()
    pub = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"bench-pub-{random.random()}")
    pub.connect(broker.host, broker.port)
    pub.loop_start()
    time.sleep(0.5)
    times = []
    for _ in range(n):
        got.clear()
        start = time.perf_counter()
        pub.publish("bench/bare", b"x" * 200, qos=1)
        got.wait(5)
        times.append(time.perf_counter() - start)
        time.sleep(0.01)
    for client in (sub, pub):
        client.loop_stop()
        client.disconnect()
    return times


def ms(samples: list[float]) -> str:
    if not samples:
        return "no samples"
    p50, p99 = percentiles(samples)
    return f"p50 {p50 * 1000:7.1f} ms  p99 {p99 * 1000:7.1f} ms"


# --- the run --------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=240)
    parser.add_argument("--pages", type=int, default=300)
    parser.add_argument("--events", type=int, default=20)
    parser.add_argument("--results", type=int, default=5)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--rate", type=float, default=12.0)
    args = parser.parse_args()
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "event.sqlite3"
        tables = make_event(db, args.players)
        broker = MosquittoBroker(Path(tmp) / "broker")
        broker.start()
        units = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="bench-units")
        units.connect(broker.host, broker.port)
        units.loop_start()
        for table in range(1, tables + 1):
            units.publish(TOPICS.state(table), state(table, 0), qos=1, retain=True)
        quiet_link = bare_round_trip(broker, 200)
        web = console_process(db, broker, 2 * args.pages)
        try:
            last = f'id="table-{tables}"'.encode()
            ok = wait_for(lambda: last in get_once(web.port, "/tables")[1], 30)
            assert ok, "the console does not show the tables"
            playing = Tables(units, tables, args.rate, quiet=1)
            playing.start()
            phones = Phones()
            cpu_start, wall_start = web.cpu_seconds(), time.monotonic()

            # 1. a table's page: a message -> every page has the card
            seen: dict[int, list[float]] = {}

            def card(i: int, text: str) -> None:
                for move in list(seen):
                    if text.startswith("data: ") and f"· {move} ruch" in text:
                        seen[move].append(time.perf_counter())

            phones.open(args.pages, web.port, "/live?tables=1", card)
            cards: list[float] = []
            missed_cards = 0
            time.sleep(3)
            for move in range(5, 5 + args.events):
                seen[move] = []
                start = time.perf_counter()
                units.publish(TOPICS.state(1), state(1, move), qos=1, retain=True)
                wait_for(lambda: len(seen[move]) >= args.pages, 10)  # noqa: B023
                missed_cards += args.pages - len(seen[move])
                cards += [t - start for t in seen[move]]
                time.sleep(0.2)

            # 2. the standings page: a result -> every phone has the new standings
            fetched: dict[int, list[float]] = {}
            told: dict[int, list[float]] = {}
            current = {"result": -1}
            fresh_bodies: list[bytes] = []

            async def standings(i: int, text: str) -> None:
                if text == "event: standings" and current["result"] >= 0:
                    result = current["result"]
                    told[result].append(time.perf_counter())
                    body = await fetch(web.port, "/standings")
                    fetched[result].append(time.perf_counter())
                    if i == 0:
                        fresh_bodies.append(body)

            phones.open(args.pages, web.port, "/live?tables=0", standings)
            time.sleep(3)
            org = Organizer(EventStore(db), by="bench judge")
            results: list[float] = []
            events: list[float] = []
            missed_results = 0
            missing = org.competition.event.missing_results()
            for n in range(args.results):
                game = missing[n]
                racks = racks_arg("A=0 B=12 C=30 D=7", 4)
                report = GameReport(game=game.game, ending=ending_for(racks, None), racks=racks)
                fetched[n], told[n] = [], []
                current["result"] = n
                start = time.perf_counter()
                org.enter_result(game.table, report)
                wait_for(lambda: len(fetched[n]) >= args.pages, 15)  # noqa: B023
                missed_results += args.pages - len(fetched[n])
                results += [t - start for t in fetched[n]]
                events += [t - start for t in told[n]]
                time.sleep(1.0)
            org.store.close()
            busy_link = bare_round_trip(broker, 200)
            cpu = (web.cpu_seconds() - cpu_start) / (time.monotonic() - wall_start)
            followers = 2 * args.pages
            stale = bool(fresh_bodies) and fresh_bodies[-1] != get_once(web.port, "/standings")[1]
            playing.stop.set()

            # 4. the standings page against bare Starlette, the same bytes
            console_get, body = get_times(web.port, "/standings", args.requests)
            rss = web.peak_rss_mib()
        finally:
            web.stop()
        bare = bare_process(body, Path(tmp))
        try:
            baseline_get, _ = get_times(bare.port, "/standings", args.requests)
        finally:
            bare.stop()
        units.loop_stop()
        units.disconnect()
        broker.stop()
    load_after = os.getloadavg()
    print(f"{args.players} players, {tables} tables playing ({args.rate:g} messages/s), "
          f"{followers} open pages ({args.pages} on a table, {args.pages} on the standings)")
    print(f"table message -> every open page     {ms(cards)}   ({missed_cards} missed)")
    print(f"result stored -> its event on every page {ms(events)}")
    print(f"result stored -> every phone fetched {ms(results)}   ({missed_results} missed;"
          f" last fetched page {'STALE' if stale else 'current'})")
    print(f"MQTT round trip, no page open        {ms(quiet_link)}")
    print(f"MQTT round trip, {followers} pages following {ms(busy_link)}")
    print(f"standings page ({len(body)} bytes)     {ms(console_get)}")
    print(f"bare Starlette, same bytes           {ms(baseline_get)}")
    ratio = percentiles(console_get)[0] / percentiles(baseline_get)[0]
    ratio99 = percentiles(console_get)[1] / percentiles(baseline_get)[1]
    print(f"standings / bare: p50 x{ratio:.1f}, p99 x{ratio99:.1f}")
    print(f"web process: peak RSS {rss:.0f} MiB, CPU {cpu * 100:.0f}% of one core "
          f"while the pages followed")
    print(f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f} "
          f"({os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
