"""The central's pages in the real browser (Debian's chromium): the static site opened
from its files has the same season table as the live pages, its style sheet found by
its relative links; an open live page follows the league store by itself (a tournament
arriving shows up without a reload). Screenshots in ``artifacts/web/league/``."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from selenium import webdriver
from selenium.webdriver.common.by import By
from test_league_web import NAMES, league_event, up
from web_console import LAPTOP, NARROW_PHONE, axe_violations, browser, shot, waiting

from hub.broker import free_port
from hub.league.central import Central
from hub.league.site import write_site
from hub.league.store import LeagueStore
from hub.league.web import CentralSite, make_central_app
from hub.web.sessions import Gate

ROWS = """return [...document.querySelectorAll('#season tbody tr')].map(
    r => [...r.cells].map(c => c.textContent.trim()).join(' | '));"""
FITS = """const box = document.querySelector('#season').parentElement;
return {scrolls: box.scrollWidth > box.clientWidth
                 || document.documentElement.scrollWidth > window.innerWidth,
        wrapped: [...document.querySelectorAll('#season .name a')]
                 .filter(a => a.getClientRects().length > 1).map(a => a.textContent),
        shown: [...document.querySelectorAll('#season thead th')]
               .filter(th => th.offsetParent !== null).map(th => th.textContent)};"""


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Central, str, Path]]:
    tmp = tmp_path_factory.mktemp("league-browser")
    first = league_event(tmp / "krakow.sqlite3", NAMES, 1, list(range(8)))
    first.ok("players", "minor", "P002", "--consent")
    store = LeagueStore(tmp / "league.sqlite3")
    up(store, "krakow", "liga1", first.db)
    central = Central("liga", store, title="Liga Rummikub 2026")
    port = free_port()
    app = make_central_app(CentralSite(central, Gate(None)))
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                            timeout_graceful_shutdown=1)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline
        time.sleep(0.02)
    yield central, f"http://127.0.0.1:{port}", tmp
    server.should_exit = True
    thread.join(10)
    store.close()


@pytest.fixture
def phone() -> Iterator[webdriver.Chrome]:
    driver = browser(NARROW_PHONE)
    yield driver
    driver.quit()


def test_the_static_site_shows_the_live_pages_season_table(
    league: tuple[Central, str, Path], phone: webdriver.Chrome
) -> None:
    central, url, tmp = league
    site = tmp / "site"
    write_site(central, site)
    phone.get(f"{url}/season")
    live = phone.execute_script(ROWS)
    assert len(live) == 8 and any("Basia K." in row for row in live)
    # A 360 px phone reads the table without sideways scrolling, each name on one line:
    # each tournament's points and the rating are on the player's page, as it says.
    fits = phone.execute_script(FITS)
    assert fits == {"scrolls": False, "wrapped": [],
                    "shown": ["Miejsce", "Gracz", "Punkty", "Starty"]}, fits
    said = phone.find_element(By.ID, "season-more")
    assert said.is_displayed() and "na stronie gracza" in said.text
    assert axe_violations(phone) == []
    shot(phone, "season-live-phone", "league")
    phone.get((site / "season.html").as_uri())
    assert phone.execute_script(ROWS) == live
    header = phone.find_element(By.CSS_SELECTOR, "header.top")
    assert header.value_of_css_property("background-color") == "rgba(27, 38, 56, 1)"
    shot(phone, "season-static-phone", "league")
    phone.find_element(By.LINK_TEXT, "English").click()
    assert phone.current_url.endswith("/en/season.html")
    english = phone.execute_script(ROWS)  # the same, but the rating's decimal point
    assert english == [row.replace(",", ".") for row in live] != live
    phone.get((site / "t/krakow-liga1.html").as_uri())
    assert "Basia K." in phone.page_source and "Kowalska" not in phone.page_source
    shot(phone, "tournament-static-phone", "league")


def test_an_open_page_follows_the_league_as_results_arrive(
    league: tuple[Central, str, Path],
) -> None:
    central, url, tmp = league
    laptop = browser(LAPTOP)
    try:
        laptop.get(url + "/")
        waiting(laptop).until(lambda d: "Na żywo" in d.find_element(By.ID, "live-state").text)
        assert "Liga gdansk" not in laptop.page_source
        second = league_event(tmp / "gdansk.sqlite3", [*NAMES[:6], "Nowa Ola", "Nowy Jan"], 2,
                              [0, 1, 2, 3, 4, 5, 8, 9])
        up(central.store, "gdansk", "liga1", second.db)
        waiting(laptop).until(lambda d: "Liga gdansk" in d.find_element(By.ID, "content").text)
        shot(laptop, "home-live-laptop", "league")
        laptop.get(url + "/season")
        shot(laptop, "season-live-laptop", "league")
    finally:
        laptop.quit()
