"""Helpers for the web console's tests: the console served by a real uvicorn on a free
loopback port, a reader of its event stream, a table's snapshots as a unit sends them,
the real browser (Debian's Chromium through Selenium) with its screenshots, and a test
client signed in as the organizer or a judge of a test bundle's web accounts."""

from __future__ import annotations

import atexit
import contextlib
import json
import queue
import re
import shutil
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from html import unescape
from pathlib import Path
from urllib.parse import urlsplit

import paho.mqtt.client as mqtt
from pace import scaled
from paho.mqtt.enums import CallbackAPIVersion
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait
from starlette.testclient import TestClient
from test_cli_support import Cli

from hub.broker import MosquittoBroker, free_port
from hub.config import WEB_STREAMS
from hub.web.accounts import WebRole, accounts_text
from hub.web.live import LiveTables
from hub.web.pages import Console, EventReader
from hub.web.serve import ConsoleThread
from hub.web.sessions import Gate
from tablekit.core.clock import Phase
from tablekit.core.codec import encode
from tablekit.core.messages import Assignment, SeatAssignment, TableSnapshot
from tablekit.core.seats import Seat
from tablekit.core.topics import Topics
from tablekit.shared.broker import BrokerSettings

PLAYERS = ("Łukasz Żółć", "Anna Nowak", "Jan Nowakowski", "Ewa Kowalska", "Piotr Wiśniewski",
           "Zofia Dąbrowska", "Adam Lewandowski", "Maria Wójcik")
"""A school's eight players (P001 … P008), Polish letters in every other name."""


def school_hall(db: Path, name: str = "Turniej Szkolny") -> Cli:
    """A school event of :data:`PLAYERS` made by the organizer's command line, its first
    round drawn and started: two tables of four."""
    c = Cli(db)
    c.ok("event", "create", "--preset", "school", "--name", name)
    for player in PLAYERS:
        c.ok("players", "add", player, "--club", "SP 12", "--check-in")
    c.ok("round", "draw", "--seed", "3")
    c.ok("round", "start")
    return c


# --- in a real browser ------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "artifacts" / "web"
"""Where the browser tests write their screenshots (one folder per area under it)."""
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
PHONE = (390, 844)
NARROW_PHONE = (360, 780)
"""The narrowest phone the public pages are made for."""
LAPTOP = (1280, 800)


def waiting(driver: webdriver.Chrome) -> WebDriverWait[webdriver.Chrome]:
    """A patient wait that looks again when a live update replaced the element it read
    (the page swaps a table's card for its new one: the old one is stale, not wrong)."""
    return WebDriverWait(driver, 20, ignored_exceptions=(StaleElementReferenceException,))


def click(driver: webdriver.Chrome, css: str) -> None:
    """Clicks the element ``css`` finds, finding it again if a live update replaced it first."""
    waiting(driver).until(lambda d: d.find_element(By.CSS_SELECTOR, css).click() or True)


def submit(driver: webdriver.Chrome, form: str) -> None:
    """Sends the form ``form`` selects with its submit button."""
    click(driver, f"{form} button[type=submit]")


def browser(size: tuple[int, int]) -> webdriver.Chrome:
    """Headless Chromium whose page is ``size`` CSS pixels (a phone's: as its browser
    lays pages out, with touch)."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                 "--lang=pl-PL", "--no-first-run", "--disable-extensions"):
        options.add_argument(flag)
    width, height = size
    if size in (PHONE, NARROW_PHONE):
        options.add_experimental_option(
            "mobileEmulation",
            {"deviceMetrics": {"width": width, "height": height, "pixelRatio": 2, "touch": True}},
        )
    options.add_argument(f"--window-size={width},{height}")
    return webdriver.Chrome(options=options, service=Service(executable_path=CHROMEDRIVER))


AXE = ROOT / ".cache" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
"""axe-core, the accessibility checker (from npm: ``./kit test`` installs it; not shipped)."""
SERIOUS = frozenset({"serious", "critical"})


@cache
def axe_source() -> str:
    assert AXE.is_file(), f"no {AXE}: ./kit test installs axe-core from npm"
    return AXE.read_text(encoding="utf-8")


def axe_violations(driver: webdriver.Chrome) -> list[str]:
    """axe-core's violations on the page open in ``driver`` (WCAG 2.x A and AA, and
    axe's best practices), each as ``impact rule-id: where — what``."""
    if not driver.execute_script("return !!window.axe"):
        driver.execute_script(axe_source())
    found = driver.execute_script("return axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['impact']} {v['id']}: {len(v['nodes'])}× {v['nodes'][0]['target']} — {v['help']}"
        for v in found["violations"]
    ]


def shot(driver: webdriver.Chrome, name: str, area: str = "") -> Path:
    """A screenshot of the page as ``artifacts/web/[area/]name.png``."""
    folder = ARTIFACTS / area if area else ARTIFACTS
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    assert driver.save_screenshot(str(path)), path
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    return path


def text(driver: webdriver.Chrome, css: str) -> str:
    """The text of the element ``css`` now (read in the page at once: the live script may
    replace the element between a look-up and a read)."""
    return str(driver.execute_script(
        "const e = document.querySelector(arguments[0]); return e ? e.innerText : '';", css
    ))


@dataclass
class Served:
    url: str
    console: Console


@contextmanager
def serve_console(
    db: Path,
    broker: BrokerSettings | None,
    topics: Topics,
    gate: Gate | None = None,
    *,
    streams: int = WEB_STREAMS,
) -> Iterator[Served]:
    """``rummikub-web``'s application on uvicorn in a thread, until the block ends (its
    web accounts and sessions ``gate``, default: the test bundle's accounts; at most
    ``streams`` pages following the live updates)."""
    reader = EventReader(db)
    gate = gate if gate is not None else Gate(web_bundle_accounts())
    live = LiveTables(broker, topics, reader.version, streams=streams)
    console = Console(reader, live, gate=gate)
    server = ConsoleThread(console, "127.0.0.1", free_port())
    server.start()
    try:
        yield Served(server.url.rstrip("/"), console)
    finally:
        server.stop()
        reader.close()


class EventStream:
    """Reads a page's server-sent events in a thread, as a browser's EventSource does;
    ``next(kind, accept)`` waits for one. HTTP/1.0 on a plain socket, so :meth:`close`
    ends the connection at once (the console must notice the page went)."""

    def __init__(self, url: str) -> None:
        self.events: queue.Queue[tuple[str, dict[str, object]]] = queue.Queue()
        parts = urlsplit(url)
        self._sock = socket.create_connection((parts.hostname, parts.port), timeout=10)
        self._sock.settimeout(None)
        path = f"{parts.path}?{parts.query}" if parts.query else parts.path
        self._sock.sendall(f"GET {path} HTTP/1.0\r\nAccept: text/event-stream\r\n\r\n".encode())
        self.head = ""
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        with self._sock.makefile("rb") as stream:
            head = []
            for raw in stream:
                line = raw.decode().rstrip("\r\n")
                if not line:
                    break
                head.append(line)
            self.head = "\n".join(head)
            kind, data = "", ""
            for raw in stream:
                line = raw.decode("utf-8").rstrip("\r\n")
                if line.startswith("event: "):
                    kind = line[7:]
                elif line.startswith("data: "):
                    data = line[6:]
                elif line == "" and kind:
                    self.events.put((kind, json.loads(data)))
                    kind, data = "", ""

    def next(self, kind: str, accept: object = None, timeout: float = 20.0) -> dict[str, object]:
        """The next event ``kind`` whose data ``accept(data)`` takes (any, without one),
        within ``timeout`` as long as this machine needs (tests/pace.py)."""
        timeout = scaled(timeout)
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            assert left > 0, f"no {kind} event within {timeout} s"
            try:
                got, data = self.events.get(timeout=left)
            except queue.Empty:
                continue
            if got == kind and (accept is None or accept(data)):  # type: ignore[operator]
                return data

    def close_when_ended(self, timeout: float) -> None:
        """Wait until the console ends the stream (AssertionError if it does not)."""
        self._thread.join(timeout)
        ended = not self._thread.is_alive()
        self.close()
        assert ended, f"the stream did not end within {timeout} s"

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._sock.shutdown(socket.SHUT_RDWR)
        self._sock.close()
        self._thread.join(10)


class TableLink:
    """The tables' side of the broker in a test: publishes what units publish (retained,
    QoS 1, waiting until the broker has it)."""

    def __init__(self, broker: MosquittoBroker, topics: Topics) -> None:
        self.topics = topics
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="tables")
        self.client.connect(broker.host, broker.port)
        self.client.loop_start()

    def publish(self, topic: str, message: object, retain: bool = True) -> None:
        self.client.publish(topic, encode(message), qos=1, retain=retain).wait_for_publish(5)

    def seat(self, table: int, names: list[str], game: int = 1, round_no: int = 1) -> None:
        """The hub's assignment of ``table``: who sits where (the cards' names)."""
        seats = tuple(SeatAssignment(seat=Seat("ABCD"[i]), name=n) for i, n in enumerate(names))
        assignment = Assignment(v=1, table=table, game=game, seats=seats, round=round_no)
        self.publish(self.topics.assign(table), assignment)

    def state(self, table: int, **fields: object) -> None:
        """``table``'s clock state as its unit publishes it (:func:`snapshot`)."""
        self.publish(self.topics.state(table), snapshot(table, **fields))

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


def snapshot(table: int, **fields: object) -> TableSnapshot:
    """A table's clock state as its unit publishes it (retained, ``…/table/N/state``)."""
    values: dict[str, object] = {
        "v": 1, "table": table, "unit": f"table-{table:02d}", "game": 1, "move": 0,
        "phase": Phase.RUNNING, "active": Seat.A, "remaining": 40.0,
        "measured_at": time.time(), "paused": None, "last_lap_left": None,
        "timeouts": (0, 0, 0, 0), "seats": 4, "move_seconds": 40.0,
    }
    values.update(fields)
    return TableSnapshot(**values)  # type: ignore[arg-type]


# --- signing in -------------------------------------------------------------------------------

WEB_ACCOUNTS = {
    "organizer": (WebRole.ORGANIZER, "tq7k-mx3p-9vtr-w2hn"),
    "head-judge": (WebRole.HEAD_JUDGE, "m6xs-2kqe-p8tn-c3wd"),
    "judge-1": (WebRole.JUDGE, "b4zc-ka8e-r6ny-fu5s"),
    "judge-2": (WebRole.JUDGE, "h3wd-p9gm-x2eq-v7ja"),
}
"""A test bundle's web accounts: name → (role, password)."""


def write_web_accounts(path: Path) -> Path:
    """:data:`WEB_ACCOUNTS` as the credentials bundle writes them (hashed) at ``path``."""
    path.write_text(accounts_text((name, role, password)
                                  for name, (role, password) in WEB_ACCOUNTS.items()))
    return path


@cache
def web_bundle_accounts() -> Path:
    """One web accounts file for the whole test run (hashing takes a moment)."""
    folder = Path(tempfile.mkdtemp(prefix="rummikub-web-accounts-"))
    atexit.register(shutil.rmtree, folder, True)
    return write_web_accounts(folder / "web-accounts.toml")


def text_of(html: str) -> str:
    """The words a reader sees: tags dropped, spaces joined."""
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def form_token(html: str) -> str:
    """The CSRF token of the (first) form of a page."""
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found is not None, "the page has no form with a CSRF token"
    return found.group(1)


def form_tokens(html: str) -> dict[str, str]:
    """The hidden tokens of the (first) form of a page, as a browser sends them: its
    CSRF token and its one-time token."""
    found = re.search(r'name="csrf" value="([^"]+)">\s*<input type="hidden" name="once" '
                      r'value="([^"]+)"', html)
    assert found is not None, "the page has no form with a CSRF and a one-time token"
    return {"csrf": found.group(1), "once": found.group(2)}


def signed_in(client: TestClient, role: WebRole = WebRole.JUDGE, name: str = "") -> str:
    """Signs ``client`` in through the login page as the test bundle's organizer or first
    judge (or the account ``name``), giving the console the test bundle's accounts if it
    has none; the name signed in as."""
    gate = client.app.state.pages.console.gate  # type: ignore[attr-defined]
    if gate.accounts is None:
        gate.accounts = web_bundle_accounts()
    name = name or {WebRole.ORGANIZER: "organizer", WebRole.HEAD_JUDGE: "head-judge"}.get(
        role, "judge-1"
    )
    token = form_token(client.get("/login").text)
    answer = client.post(
        "/login",
        data={"csrf": token, "name": name, "password": WEB_ACCOUNTS[name][1], "next": "/"},
        follow_redirects=False,
    )
    assert answer.status_code == 303, answer.text
    return name


def browser_signed_in(driver: webdriver.Chrome, url: str, role: WebRole, path: str = "") -> None:
    """Opens ``url`` + ``path`` (default: the role's start page) in ``driver`` and signs
    in on the login page it leads to as the test bundle's organizer or first judge."""
    name = "organizer" if role is WebRole.ORGANIZER else "judge-1"
    driver.get(url + (path or ("/organizer" if role is WebRole.ORGANIZER else "/judge")))
    waiting(driver).until(lambda d: d.find_elements(By.ID, "password"))
    driver.find_element(By.ID, "name").send_keys(name)
    driver.find_element(By.ID, "password").send_keys(WEB_ACCOUNTS[name][1])
    driver.find_element(By.CSS_SELECTOR, "form.login button").click()
    waiting(driver).until(lambda d: "/login" not in d.current_url)
