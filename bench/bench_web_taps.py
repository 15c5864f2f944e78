"""A phone tapping through the web console's pages with Chromium's back/forward cache on.

A school event of ``--players`` (default 32) drawn and started, the console served by
uvicorn in this process, and Debian's Chromium in a phone's viewport with its default
settings (the back/forward cache on). The phone opens ``--taps`` pages (default 40) in a
row — find your table, the standings, the tables, players' pages — each timed from the
request until the page has loaded and its live stream says it is connected; the console's
open streams are counted after each. The baseline, in the same run: the same taps in a
second Chromium with JavaScript off (the pages with no live stream at all).

Prints p50/p99 of both and the most streams the console held for the one tab; asserts
nothing.

    .venv/bin/python bench/bench_web_taps.py [--players 32] [--taps 40]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from measure import percentiles
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

from hub.broker import free_port
from hub.organizer import Organizer
from hub.store import EventStore
from hub.tournament import Player
from hub.web.live import LiveTables
from hub.web.pages import Console, EventReader
from hub.web.serve import ConsoleThread
from tablekit.core.topics import Topics

PHONE = (390, 844)


def make_event(db: Path, players: int) -> None:
    org = Organizer(EventStore(db), by="bench")
    org.create_event("Bench", "school")
    org.register([Player(f"P{i:03d}", f"Gracz Numer{i:03d}", "SP 1")
                  for i in range(1, players + 1)], check_in=True)
    org.draw(seed=1)
    org.start_round()
    org.store.close()


def phone(scripts: bool) -> webdriver.Chrome:
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                 f"--window-size={PHONE[0]},{PHONE[1]}"):
        options.add_argument(flag)
    if not scripts:
        options.add_experimental_option(
            "prefs", {"profile.managed_default_content_settings.javascript": 2}
        )
    return webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))


def taps(driver: webdriver.Chrome, url: str, addresses: list[str], live: LiveTables,
         scripts: bool) -> tuple[list[float], int]:
    """Each page's time to load (and to be live, with scripts); the most streams held."""
    took, most = [], 0
    for address in addresses:
        start = time.perf_counter()
        driver.get(url + address)
        if scripts:
            WebDriverWait(driver, 60).until(lambda d: d.execute_script(
                "return !document.getElementById('live-state').hidden"))
        took.append((time.perf_counter() - start) * 1000)
        most = max(most, live.pages)
    return took, most


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=32)
    parser.add_argument("--taps", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "bench.sqlite3"
        make_event(db, args.players)
        reader = EventReader(db)
        live = LiveTables(None, Topics("hall", "bench"), reader.version)
        server = ConsoleThread(Console(reader, live), "127.0.0.1", free_port())
        server.start()
        url = server.url.rstrip("/")
        pages = ["/standings", "/tables", "/find?q=numer001"]
        pages += [f"/players/P{i:03d}" for i in range(1, args.players + 1)]
        addresses = [pages[i % len(pages)] for i in range(args.taps)]
        try:
            for scripts in (True, False):
                driver = phone(scripts)
                try:
                    driver.get(url + "/")
                    took, most = taps(driver, url, addresses, live, scripts)
                finally:
                    driver.quit()
                p50, p99 = percentiles(took)
                what = "with live streams" if scripts else "baseline, no scripts"
                print(f"{args.taps} taps, {what}: p50 {p50:.0f} ms, p99 {p99:.0f} ms, "
                      f"slowest {max(took):.0f} ms; most streams held: {most}")
        finally:
            server.stop()
            reader.close()


if __name__ == "__main__":
    main()
