"""The web console under open phones: a table's message -> every open page's update, and
the standings page's answer time.

A school event of ``--players`` (default 240) drawn and started, the console on uvicorn
with loopback Mosquitto, ``--pages`` open event streams (default 300, read by one asyncio
loop), and ``--events`` table messages published one at a time: for each, the time until
every page has the changed card (p50/p99 over all pages and events). Beside it, in the
same run: a bare paho QoS 1 publish -> subscriber round trip through the same broker
(what the console adds is the rest). Then ``--requests`` GETs of the standings page
against a bare Starlette endpoint on the same uvicorn set-up returning the same bytes.
Prints the figures and their ratios; asserts nothing.

    .venv/bin/python bench/bench_web_console.py [--players 240] [--pages 300] [--events 30]
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import resource
import tempfile
import threading
import time
from pathlib import Path

import paho.mqtt.client as mqtt
import uvicorn
from measure import percentiles
from paho.mqtt.enums import CallbackAPIVersion
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Route

from hub.broker import MosquittoBroker, free_port
from hub.organizer import Organizer
from hub.store import EventStore
from hub.tournament import Player
from hub.web.live import LiveTables
from hub.web.pages import Console, EventReader
from hub.web.serve import ConsoleThread
from tablekit.core.clock import Phase
from tablekit.core.codec import encode
from tablekit.core.messages import TableSnapshot
from tablekit.core.seats import Seat
from tablekit.core.topics import Topics

TOPICS = Topics("bench", "web")


def make_event(db: Path, players: int) -> int:
    """A school event of ``players``, its first round drawn and started; its tables."""
    org = Organizer(EventStore(db), by="bench")
    org.create_event("Bench", "school")
    org.register([Player(f"P{i:03d}", f"Gracz Numer{i:03d}", "SP 1")
                  for i in range(1, players + 1)], check_in=True)  # fmt: skip
    org.draw(seed=1)
    org.start_round()
    tables = len(org.competition.tables())
    org.store.close()
    return tables


def state(table: int, move: int) -> bytes:
    return encode(TableSnapshot(
        v=1, table=table, unit=f"table-{table:02d}", game=1, move=move, phase=Phase.RUNNING,
        active=Seat.A, remaining=40.0, measured_at=time.time(), paused=None,
        last_lap_left=None, timeouts=(0, 0, 0, 0), seats=4, move_seconds=40.0,
    ))  # fmt: skip


async def open_pages(port: int, pages: int, arrived: dict[int, list[float]]) -> None:
    """``pages`` event streams of table 1; each marks when it sees the card of a move
    awaited in ``arrived`` (``· 7 ruchów``: the event speaks Polish)."""

    async def page() -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET /live?tables=1 HTTP/1.0\r\n\r\n")
        await writer.drain()
        while line := await reader.readline():
            text = line.decode("utf-8", "replace")
            if text.startswith("data: ") and '"table": 1' in text:
                for move in list(arrived):
                    if f"· {move} ruch" in text:
                        arrived[move].append(time.perf_counter())

    await asyncio.gather(*(page() for _ in range(pages)))


def bare_round_trip(broker: MosquittoBroker, n: int) -> list[float]:
    got = threading.Event()
    sub = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="bench-sub")
    sub.on_message = lambda *_: got.set()
    sub.connect(broker.host, broker.port)
    sub.subscribe("bench/bare", qos=1)
    sub.loop_start()
    pub = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="bench-pub")
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
    for client in (sub, pub):
        client.loop_stop()
        client.disconnect()
    return times


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


def bare_server(body: bytes) -> tuple[uvicorn.Server, int]:
    async def same(request: Request) -> HTMLResponse:
        return HTMLResponse(body)

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(Starlette(routes=[Route("/standings", same)]),
                                           host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.02)
    return server, port


def ms(samples: list[float]) -> str:
    p50, p99 = percentiles(samples)
    return f"p50 {p50 * 1000:7.1f} ms  p99 {p99 * 1000:7.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=240)
    parser.add_argument("--pages", type=int, default=300)
    parser.add_argument("--events", type=int, default=30)
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "event.sqlite3"
        tables = make_event(db, args.players)
        broker = MosquittoBroker(Path(tmp) / "broker")
        broker.start()
        reader = EventReader(db)
        console = Console(reader, LiveTables(broker.client_settings(), TOPICS, reader.version))
        server = ConsoleThread(console, "127.0.0.1", free_port())
        server.start()
        units = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="bench-units")
        units.connect(broker.host, broker.port)
        units.loop_start()
        for table in range(1, tables + 1):
            sent = units.publish(TOPICS.state(table), state(table, 0), qos=1, retain=True)
            sent.wait_for_publish()
        arrived: dict[int, list[float]] = {}
        loop = asyncio.new_event_loop()
        threading.Thread(target=loop.run_until_complete,
                         args=(open_pages(server.port, args.pages, arrived),), daemon=True).start()
        deadline = time.monotonic() + 30
        while console.live.pages < args.pages and time.monotonic() < deadline:
            time.sleep(0.05)
        latencies: list[float] = []
        missed = 0
        for move in range(5, 5 + args.events):
            arrived[move] = []
            start = time.perf_counter()
            units.publish(TOPICS.state(1), state(1, move), qos=1, retain=True).wait_for_publish()
            end = time.monotonic() + 10
            while len(arrived[move]) < args.pages and time.monotonic() < end:
                time.sleep(0.005)
            missed += args.pages - len(arrived[move])
            latencies += [t - start for t in arrived[move]]
        bare = bare_round_trip(broker, args.events * 10)
        console_get, body = get_times(server.port, "/standings", args.requests)
        bare_http, port = bare_server(body)
        baseline_get, _ = get_times(port, "/standings", args.requests)
        bare_http.should_exit = True
        print(f"{args.players} players, {tables} tables, {console.live.pages} open pages, "
              f"{args.events} table messages")  # fmt: skip
        print(f"table message -> every open page   {ms(latencies)}   ({missed} updates missed)")
        print(f"bare MQTT round trip (baseline)    {ms(bare)}")
        print(f"standings page ({len(body)} bytes)   {ms(console_get)}")
        print(f"bare Starlette, same bytes          {ms(baseline_get)}")
        ratio = percentiles(console_get)[0] / percentiles(baseline_get)[0]
        print(f"standings / bare: p50 x{ratio:.1f}")
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"peak RSS of this process (console, pages' readers, clients): {rss:.0f} MiB")
        units.loop_stop()
        units.disconnect()
        server.stop()
        reader.close()
        broker.stop()


if __name__ == "__main__":
    main()
