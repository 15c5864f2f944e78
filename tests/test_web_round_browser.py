"""A whole round clicked through in a real browser (Debian's Chromium through Selenium,
as ``tests/test_web_browser.py``), on the real parts of a hall: real Mosquitto, the real
hub service (``hub.service.HubService``, as ``rummikub-hub serve`` runs it) and a real
table unit per table (``tablekit.app.build``: its loop, journal and MQTT link), played by
the simulator's bot pressing its pass button.

The organizer signs in, creates the event, imports the players' file (checking them
all in), draws and starts the round; a phone (390×844) finds its
table by name and watches the table's moves arrive on the table's page without it being
loaded again; a judge enters a result on the judges' form; a standings page left open
shows it without being loaded again. Screenshots in ``artifacts/web/round/``.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By
from test_cli_support import Cli
from web_console import (
    LAPTOP,
    PHONE,
    PLAYERS,
    browser,
    browser_signed_in,
    click,
    serve_console,
    shot,
    submit,
    text,
    waiting,
)

from hub.service import HubService
from hub.web.auth import WebRole
from tablekit.app import build
from tablekit.bot import BotStyle, TableBot
from tablekit.config import LinkSettings, UnitConfig, UnitSettings
from tablekit.core.topics import Topics
from tablekit.unit import Quit, TableUnit
from tablekit.view import TableView

pytestmark = pytest.mark.mqtt

TOPICS = Topics("hall", "round-browser")
AREA = "round"
MOVES = re.compile(r"(\d+) ruch")


def viewer(unit: TableUnit) -> Callable[[], TableView]:
    return lambda: unit.view


def moves_on(driver: webdriver.Chrome, card: str) -> int:
    """The moves a table's card says (0 before the first)."""
    found = MOVES.search(text(driver, card))
    return int(found.group(1)) if found else 0


def test_a_whole_round_in_the_browser(
    tmp_path: Path, mosquitto, chromium: list[webdriver.Chrome]  # type: ignore[no-untyped-def]
) -> None:
    c = Cli(tmp_path / "event.sqlite3", lang=None)  # reads what the pages stored
    players = tmp_path / "lista.csv"
    players.write_text("Imię i nazwisko;Szkoła\n"
                       + "".join(f"{name};SP 12\n" for name in PLAYERS), encoding="utf-8")
    broker = mosquitto()
    settings = broker.client_settings()
    hub = HubService(settings, c.db, TOPICS, tables=2)
    hub.start()
    units: list[TableUnit] = []
    bots: list[TableBot] = []
    try:
        for number in (1, 2):
            link = LinkSettings(host=broker.host, port=broker.port, venue=TOPICS.venue,
                                event=TOPICS.event, mqtt_version=settings.mqtt_version)
            unit = build(UnitConfig(unit=UnitSettings(table=number), link=link),
                         tmp_path / f"table-{number:02d}.sqlite3")
            threading.Thread(target=unit.run, daemon=True).start()
            units.append(unit)
        with serve_console(c.db, settings, TOPICS) as served:
            served.console.live.wait_subscribed(20)
            url = served.url

            # the organizer creates the event, imports the players, draws and starts
            laptop = browser(LAPTOP)
            chromium.append(laptop)
            browser_signed_in(laptop, url, WebRole.ORGANIZER, "/organizer/event")
            waiting(laptop).until(lambda d: d.find_elements(By.ID, "name"))
            laptop.find_element(By.ID, "name").send_keys("Mistrzostwa Szkół")
            laptop.find_element(By.ID, "privacy-full").click()
            submit(laptop, "form[action='/organizer/event']")
            waiting(laptop).until(lambda d: "Utworzono turniej" in text(d, ".done"))
            shot(laptop, "laptop-pl-organizer-event", AREA)
            laptop.get(f"{url}/organizer/players")
            laptop.find_element(By.ID, "file").send_keys(str(players))
            laptop.find_element(By.ID, "upload-check-in").click()
            submit(laptop, "form[action^='/organizer/players/upload']")
            waiting(laptop).until(lambda d: "Zaimportowano 8 graczy" in text(d, ".done"))
            shot(laptop, "laptop-pl-organizer-players", AREA)
            laptop.get(f"{url}/organizer/round")
            shot(laptop, "laptop-pl-organizer-before-draw", AREA)
            click(laptop, "#draw-form button.primary")
            waiting(laptop).until(lambda d: "Rozlosowano: runda 1" in text(d, ".done"))
            shot(laptop, "laptop-pl-organizer-drawn", AREA)
            assert "Uruchom czas rundy" in text(laptop, "#start-form button")
            laptop.get(f"{url}/organizer/round")
            # the tables play from the draw: the round page says so, not "not started"
            assert "stoliki grają, czas rundy nie biegnie" in text(laptop, "#round-head")
            laptop.find_element(By.ID, "start-minutes").send_keys("40")
            click(laptop, "#start-form button")
            waiting(laptop).until(lambda d: "Rozpoczęto: runda 1" in text(d, ".done"))
            shot(laptop, "laptop-pl-organizer-started", AREA)
            comp = c.competition()
            assert "round-1" in comp.started
            laptop.execute_script("window.stillTheSamePage = true")
            assert "4 gry nie mają wyniku" in text(laptop, "#round-next")
            (pid,) = [p for p, player in comp.event.players.items()
                      if player.name == "Łukasz Żółć"]
            (table,) = [t for t in comp.event.seating("round-1") if pid in t.players]
            seat = "ABCD"[table.players.index(pid)]

            # the units get their players from the hub; the simulated players play
            waiting(laptop).until(lambda _: all(u.view.names for u in units))
            for number, unit in enumerate(units, start=1):
                style = BotStyle(pace=0.05, start_games=False, judge_chance=0.0,
                                 timeout_chance=0.0, moves_per_game=(2000, 3000))
                bot = TableBot(unit.put, viewer(unit), style, seed=number)
                bot.start()
                bots.append(bot)

            # a phone finds its table and watches it live
            phone = browser(PHONE)
            chromium.append(phone)
            phone.get(url)
            box = phone.find_element(By.ID, "q")
            box.send_keys("lukasz zolc")
            box.submit()
            waiting(phone).until(lambda d: "Stolik" in text(d, ".seat"))
            assert text(phone, ".seat").startswith(f"Stolik {table.number}, miejsce {seat}")
            shot(phone, "phone-pl-find", AREA)
            phone.get(f"{url}/tables/{table.number}")
            card = f"#table-{table.number}"
            waiting(phone).until(lambda d: "Na żywo" in text(d, "#live-state"))
            phone.execute_script("window.stillTheSamePage = true")
            first = moves_on(phone, card)
            waiting(phone).until(lambda d: moves_on(d, card) > first + 2)
            assert phone.execute_script("return window.stillTheSamePage") is True
            shot(phone, "phone-pl-table-live", AREA)

            # the standings, left open; a judge enters a result
            standings = browser(PHONE)
            chromium.append(standings)
            standings.get(f"{url}/standings")
            waiting(standings).until(lambda d: "Na żywo" in text(d, "#live-state"))
            standings.execute_script("window.stillTheSamePage = true")
            before = text(standings, ".standings tbody")
            shot(standings, "phone-pl-standings-before", AREA)
            judge = browser(LAPTOP)
            chromium.append(judge)
            browser_signed_in(judge, url, WebRole.JUDGE,
                              f"/judge/result?table={table.number}&game=1")
            waiting(judge).until(lambda d: d.find_elements(By.ID, "A-tiles"))
            for s, tiles in zip("ABCD", ("0", "23", "12", "30"), strict=True):
                judge.find_element(By.ID, f"{s}-tiles").send_keys(tiles)
            button = judge.find_element(By.CSS_SELECTOR, ".judge-form button")
            judge.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
            button.click()
            waiting(judge).until(lambda d: "Wynik zapisany" in text(d, "h1"))
            shot(judge, "laptop-pl-judge-stored", AREA)
            winner = comp.event.players[table.players[0]].name  # seat A went out
            waiting(standings).until(lambda d: text(d, ".standings tbody") != before)
            assert standings.execute_script("return window.stillTheSamePage") is True
            row = standings.execute_script("""
                const row = Array.from(document.querySelectorAll(".standings tbody tr"))
                  .find(r => r.innerText.includes(arguments[0]));
                return Array.from(row.cells).map(c => c.innerText.trim());
            """, winner)
            assert row[0] == "1" and row[2:5] == ["1", "+65", "1"]  # place, BP, SP, games
            shot(standings, "phone-pl-standings-after", AREA)
            # the organizer's round page, left open, follows: its next step too
            waiting(laptop).until(lambda d: "3 gry nie mają wyniku" in text(d, "#round-next"))
            assert laptop.execute_script("return window.stillTheSamePage") is True
            waiting(laptop).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-state-of]"))
            shot(laptop, "laptop-pl-organizer-round-live", AREA)
            assert len(c.competition().history("round-1", table.number, 1)) == 1
    finally:
        for bot in bots:
            bot.stop()
        for unit in units:
            unit.put(Quit())
        hub.stop()
