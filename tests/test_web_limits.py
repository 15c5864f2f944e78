"""The web console under many phones: at most ``[web] streams`` pages follow the live
updates (one more works without them and says so), at most ``[web] connections`` are
open (one more is answered 503 at once), and the console's import does not load pygame.

On real uvicorn on a loopback port, with an event made by the organizer's command line.
"""

from __future__ import annotations

import asyncio
import http.client
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.testclient import TestClient
from test_cli_support import Cli
from web_console import EventStream, form_token, school_hall, serve_console, signed_in

from hub.broker import free_port
from hub.config import HubConfigError, resolve
from hub.web.accounts import WebRole
from hub.web.app import make_app
from hub.web.cache import PageCache
from hub.web.live import LiveTables
from hub.web.pages import Console, EventReader
from hub.web.serve import ConsoleThread, build_parser, web_settings
from tablekit.core.topics import Topics
from tablekit.shared.i18n import words

TOPICS = Topics("hall", "limits")


@pytest.fixture
def hall(tmp_path: Path) -> Cli:
    return school_hall(tmp_path / "event.sqlite3")


def until(what: Callable[[], bool], timeout: float = 20.0) -> None:
    """Wait until ``what()`` holds (AssertionError after ``timeout`` seconds)."""
    deadline = time.monotonic() + timeout
    while not what():
        assert time.monotonic() < deadline, "not within the time"
        time.sleep(0.02)


def get(url: str) -> tuple[int, str]:
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=10)
    try:
        conn.request("GET", parts.path + (f"?{parts.query}" if parts.query else ""))
        answer = conn.getresponse()
        return answer.status, answer.read().decode("utf-8")
    finally:
        conn.close()


def test_beyond_the_most_streams_a_page_works_without_live_updates_and_says_so(
    hall: Cli,
) -> None:
    with serve_console(hall.db, None, TOPICS, streams=2) as served:
        live = served.console.live
        following = [EventStream(f"{served.url}/live") for _ in range(2)]
        for stream in following:
            stream.next("link")
        turned = EventStream(f"{served.url}/live?tables=1")
        turned.next("busy")
        turned.close_when_ended(10)  # told, and let go: its browser tries later
        assert live.turned_away == 1 and live.pages == 2
        status, page = get(f"{served.url}/standings")  # the page itself still works
        assert status == 200 and "Klasyfikacja" in page
        busy = words("pl").gettext(
            "Not live: too many phones follow the console now. This page shows what it "
            "showed when it was opened; it tries again in a minute, or reload it."
        )
        assert busy.startswith("Brak aktualizacji na żywo") and busy in page.replace("&#39;", "'")
        following.pop().close()
        until(lambda: live.pages == 1)  # a page that went frees its place
        again = EventStream(f"{served.url}/live")
        again.next("link")
        for stream in (again, *following):
            stream.close()


def test_beyond_the_most_connections_a_request_is_answered_at_once(hall: Cli) -> None:
    reader = EventReader(hall.db)
    console = Console(reader, LiveTables(None, TOPICS, reader.version))
    server = ConsoleThread(console, "127.0.0.1", free_port(), connections=3)
    server.start()
    url = server.url.rstrip("/")
    try:
        streams = [EventStream(f"{url}/live") for _ in range(2)]
        for stream in streams:
            stream.next("link")
        status, _ = get(f"{url}/standings")  # the third connection of three
        assert status == 503
        streams.pop().close()
        until(lambda: console.live.pages == 1)
        status, page = get(f"{url}/standings")
        assert status == 200 and "Klasyfikacja" in page
        streams[0].close()
    finally:
        server.stop()
        reader.close()


def test_a_kept_page_is_never_a_signed_in_readers(hall: Cli) -> None:
    """The standings are kept for readers who are not signed in; a signed-in reader's
    page (which names them and holds their form token) is made for them alone."""
    reader = EventReader(hall.db)
    app = make_app(Console(reader, LiveTables(None, TOPICS, reader.version)))
    with TestClient(app) as judge, TestClient(app) as phone:
        phone.get("/standings")  # kept
        name = signed_in(judge, WebRole.JUDGE)
        theirs = judge.get("/standings").text
        assert name in theirs and 'name="csrf"' in theirs
        public = phone.get("/standings").text
        assert name not in public and 'name="csrf"' not in public
        assert name in judge.get("/standings").text  # not the kept one either
    reader.close()


def test_phones_asking_at_once_wait_for_one_page_being_made() -> None:
    """After a result every phone fetches the standings at once: the page is made once
    for all of them, then kept."""
    made: list[float] = []

    def make(request: Request) -> Response:
        made.append(time.monotonic())
        time.sleep(0.2)  # a page of many players being made
        return HTMLResponse(f"<p>page {len(made)}</p>")

    async def phones() -> list[bytes]:
        cache = PageCache()
        asked = Request({"type": "http", "method": "GET", "path": "/standings",
                         "query_string": b"", "headers": []})
        answers = await asyncio.gather(*(cache.serve(asked, (7, 0), make) for _ in range(20)))
        again = await cache.serve(asked, (7, 0), make)
        newer = await cache.serve(asked, (8, 0), make)
        return [bytes(a.body) for a in (*answers, again, newer)]

    bodies = asyncio.run(phones())
    assert bodies[:21] == [b"<p>page 1</p>"] * 21 and bodies[21] == b"<p>page 2</p>"
    assert len(made) == 2


def test_the_most_streams_and_connections_come_from_the_file(tmp_path: Path) -> None:
    config = tmp_path / "hub.toml"
    config.write_text("[web]\nstreams = 40\nconnections = 100\n")

    def settings(text: str) -> tuple[int, int]:
        config.write_text(text)
        args = build_parser().parse_args(["--db", "e.db"])
        web = web_settings(args, resolve("web", args, {"RUMMIKUB_CONFIG": str(config)}))
        return web.streams, web.connections

    assert settings("[web]\nstreams = 40\nconnections = 100\n") == (40, 100)
    assert settings("") == (500, 1200)
    with pytest.raises(HubConfigError, match=r"streams: must be 1 or more, got 0"):
        settings("[web]\nstreams = 0\n")
    with pytest.raises(HubConfigError, match=r"connections: must be more than streams \(40\)"):
        settings("[web]\nstreams = 40\nconnections = 40\n")


def test_the_consoles_program_does_not_load_pygame() -> None:
    """``rummikub-web`` follows the tables with the hub screen's feed; the screen's
    package loads pygame only when a screen runs."""
    code = (
        "import sys\n"
        "from hub.web.serve import main\n"
        "from hub.web.live import LiveTables\n"
        "from tablekit.core.topics import Topics\n"
        "from tablekit.shared.broker import BrokerSettings\n"
        "live = LiveTables(BrokerSettings(), Topics('hall', 'web'))\n"
        "assert live.feed is not None\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'pygame'))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONSTARTUP"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_the_server_keeps_its_limits_and_says_them_in_the_readers_language(hall: Cli) -> None:
    """What a form's own limits keep a browser to, the server holds for a hand-made
    request too; and its own refusals are pages of the console, in Polish."""
    reader = EventReader(hall.db)
    app = make_app(Console(reader, LiveTables(None, TOPICS, reader.version)))
    with TestClient(app) as client:
        signed_in(client, WebRole.ORGANIZER)
        token = form_token(client.get("/judge/tables/1").text)
        before = hall.records()
        long = client.post("/judge/tables/1/calls", data={"csrf": token, "note": "x" * 800})
        assert long.status_code == 400 and "ma 800 znaków, najwyżej 500" in long.text
        hand_made = client.post("/judge/tables/1/calls", data={"csrf": token, "note": "x" * 5000})
        assert hand_made.status_code == 400 and "5000 znaków" in hand_made.text
        assert hall.records() == before
        # a table that is not waiting gets a note, not a resolved call
        noted = client.post("/judge/tables/1/calls", data={"csrf": token, "note": "cisza"})
        assert "Notatka sędziego zapisana" in noted.text and "nie czekał" in noted.text

        big = b"Imi\xc4\x99 i nazwisko\n" + b"Anna Kowalska\n" * 250_000  # 3.5 MB
        upload = client.post("/organizer/players/upload", data={"csrf": token},
                             files={"file": ("lista.csv", big, "text/csv")})
        assert upload.status_code == 400 and "3 500 017 bajtów" in upload.text.replace("\xa0", " ")

        for answer, says in (
            (client.get("/nie-ma-takiej"), "Nie ma takiej strony w konsoli"),
            (client.post("/standings", data={"q": "x"}), "Tego adresu nie można użyć"),
            (client.post("/judge/tables/1/calls", data={"csrf": token, "note": "y" * 1_100_000}),
             "Pole formularza jest większe"),
            (client.post("/judge/tables/1/calls",
                         data={"csrf": token, **{f"f{i}": "1" for i in range(3000)}}),
             "Formularz ma więcej pól"),
        ):
            assert answer.status_code in (400, 404, 405), answer.status_code
            assert answer.headers["content-type"].startswith("text/html"), answer.text[:80]
            assert says in answer.text and '<html lang="pl">' in answer.text
            assert 'class="top"' in answer.text  # the console's layout
        assert client.get("/nie-ma?lang=en").text.count("There is no such page") == 1
    reader.close()
