"""The organizer's round in a real browser (Debian's Chromium through Selenium, as
``tests/test_web_browser.py``): signed in as the organizer, the round's status with every
result in, then close → draw → start clicked through, the draw's seating and the exports
page — at a phone's and a laptop's size (and the laptop's at 200 % zoom), in Polish and
English; and the league season's table. Screenshots in ``artifacts/web/rounds/``."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from selenium import webdriver
from selenium.webdriver.common.by import By
from test_cli_support import play_round
from test_web_rounds import finished_league
from web_console import (
    LAPTOP,
    PHONE,
    browser,
    browser_signed_in,
    school_hall,
    serve_console,
    shot,
    text,
    waiting,
    web_bundle_accounts,
)

from hub.broker import free_port
from hub.web.auth import WebRole
from hub.web.live import LiveTables
from hub.web.pages import Console, EventReader
from hub.web.serve import ConsoleThread
from hub.web.sessions import Gate
from tablekit.core.topics import Topics

TOPICS = Topics("hall", "browser-rounds")
AREA = "rounds"
ZOOMED = (LAPTOP[0] // 2, LAPTOP[1] // 2)
"""A laptop's window at 200 % zoom: the page is laid out in half the CSS pixels."""


def press(driver: webdriver.Chrome, css: str) -> None:
    """Click the button ``css`` as a person does: scrolled to the middle of the window
    first (the live state's bar is fixed at the bottom); found again if a live update
    replaced it meanwhile."""

    def pressed(d: webdriver.Chrome) -> bool:
        button = d.find_element(By.CSS_SELECTOR, css)
        d.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
        button.click()
        return True

    waiting(driver).until(pressed)


def fits(driver: webdriver.Chrome) -> bool:
    """The page needs no sideways scrolling (a wide table scrolls in its own box)."""
    return bool(driver.execute_script(
        "return document.documentElement.scrollWidth <= window.innerWidth"
    ))


def test_the_organizer_closes_draws_and_starts_a_round_in_the_browser(
    tmp_path: Path, chromium: list[Any]
) -> None:
    c = school_hall(tmp_path / "event.sqlite3", "Mistrzostwa Szkół")
    play_round(c, random.Random(5))
    with serve_console(c.db, None, TOPICS) as served:
        phone, laptop, zoomed = browser(PHONE), browser(LAPTOP), browser(ZOOMED)
        chromium.extend([phone, laptop, zoomed])
        for driver in (phone, laptop, zoomed):
            browser_signed_in(driver, served.url, WebRole.ORGANIZER, "/organizer/round")

        # the round's status, every result in
        for driver, size in ((phone, "phone"), (laptop, "laptop")):
            for lang, heading, done in (
                ("pl", "Runda w toku: runda 1", "Zakończone stoliki: 2 z 2"),
                ("en", "Round in play: round-1", "2 of 2"),
            ):
                driver.get(f"{served.url}/organizer/round" + ("?lang=en" if lang == "en" else ""))
                assert text(driver, "h1") == heading
                assert text(driver, "#tables-title").startswith(done)
                assert "Łukasz Żółć" in text(driver, ".round-tables")
                assert fits(driver), (size, lang)
                shot(driver, f"{size}-{lang}-round-status", AREA)
        zoomed.get(f"{served.url}/organizer/round")
        assert fits(zoomed)
        assert zoomed.find_element(By.CSS_SELECTOR, "#close-form button").is_displayed()
        shot(zoomed, "laptop-200%-pl-round-status", AREA)

        # close → draw → start, on the phone
        phone.get(f"{served.url}/organizer/round")
        press(phone, "#close-form button")
        waiting(phone).until(lambda d: "Zamknięto: runda 1." in text(d, ".done"))
        assert "Klasyfikacja" in text(phone, "main")
        shot(phone, "phone-pl-round-closed", AREA)
        press(phone, "#draw-form button.primary")
        waiting(phone).until(lambda d: "Rozlosowano: runda 2" in text(d, ".done"))
        assert text(phone, "h1") == "Przydział do stolików: runda 2"
        comp = c.competition()
        for table in comp.event.seating("round-2"):
            for i, pid in enumerate(table.players):
                assert comp.event.players[pid].name in text(phone, ".seating")
                assert f"{table.number}{'ABCD'[i]}" in text(phone, ".seating")
        assert fits(phone)
        shot(phone, "phone-pl-draw", AREA)
        laptop.get(f"{served.url}/organizer/round/seating?stage=round-2&lang=en")
        assert text(laptop, "h1") == "Seating: round-2"
        shot(laptop, "laptop-en-draw", AREA)
        laptop.get(f"{served.url}/organizer/round/seating?stage=round-2")
        shot(laptop, "laptop-pl-draw", AREA)
        phone.get(f"{served.url}/organizer/round/seating?stage=round-2&lang=en")
        shot(phone, "phone-en-draw", AREA)

        laptop.get(f"{served.url}/organizer/round/seating?stage=round-2")
        laptop.find_element(By.ID, "start-minutes").send_keys("40")
        press(laptop, "#start-form button")
        waiting(laptop).until(lambda d: "Rozpoczęto: runda 2" in text(d, ".done"))
        assert "40 min" in text(laptop, ".clock")
        shot(laptop, "laptop-pl-round-started", AREA)
        assert "round-2" in c.competition().started

        # a result entered elsewhere shows on the open round page without a reload
        laptop.execute_script("window.stillTheSamePage = true")
        (first,) = [t for t in c.competition().tables() if t.table == 1]
        assert f"0/{first.games}" in text(laptop, "#round-table-1")
        c.ok("result", "enter", "--table", "1", "--game", "1", "--racks", "A=0 B=12 C=30 D=7")
        waiting(laptop).until(lambda d: f"1/{first.games}" in text(d, "#round-table-1"))
        assert laptop.execute_script("return window.stillTheSamePage") is True
        assert "stolik 1 gra 1" not in text(laptop, ".missing")

        # a refusal: closing with results missing, said next to the button
        press(laptop, "#close-form button")
        waiting(laptop).until(lambda d: text(d, "#close-error") != "")
        assert "brak wyników" in text(laptop, "#close-error").lower()
        shot(laptop, "laptop-pl-close-refused", AREA)

        # the exports
        for driver, size in ((phone, "phone"), (laptop, "laptop")):
            for lang, heading in (("pl", "Eksport"), ("en", "Exports")):
                driver.get(f"{served.url}/organizer/exports" + ("?lang=en" if lang == "en" else ""))
                assert text(driver, "h1") == heading
                assert "standings.csv" in text(driver, "main")
                assert fits(driver), (size, lang)
                shot(driver, f"{size}-{lang}-exports", AREA)


def test_the_season_table_in_the_browser(tmp_path: Path, chromium: list[Any]) -> None:
    c = school_hall(tmp_path / "event.sqlite3", "Mistrzostwa Szkół")
    season = tmp_path / "sezon"
    season.mkdir()
    finished_league(season / "liga-1.sqlite3", "Liga 1")
    reader = EventReader(c.db)
    console = Console(reader, LiveTables(None, TOPICS, reader.version),
                      gate=Gate(web_bundle_accounts()), season=season)
    server = ConsoleThread(console, "127.0.0.1", free_port())
    server.start()
    try:
        url = server.url.rstrip("/")
        for size, label in ((PHONE, "phone"), (LAPTOP, "laptop")):
            driver = browser(size)
            chromium.append(driver)
            browser_signed_in(driver, url, WebRole.ORGANIZER, "/organizer/season")
            for lang, heading in (("pl", "Sezon ligowy"), ("en", "League season")):
                driver.get(f"{url}/organizer/season" + ("?lang=en" if lang == "en" else ""))
                assert text(driver, "h1") == heading
                assert "Liga 1" in text(driver, "#season-form")
                column = "Turniej 1" if lang == "pl" else "Tournament 1"
                assert column in text(driver, "table.grid")
                assert fits(driver), (label, lang)
                shot(driver, f"{label}-{lang}-season", AREA)
    finally:
        server.stop()
        reader.close()
