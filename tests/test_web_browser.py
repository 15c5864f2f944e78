"""The web console in a real browser: Debian's Chromium, driven by Selenium through
Debian's chromedriver (both installed by ``./kit test``; nothing is downloaded).

A phone-sized window (390×844, as a phone's browser lays the page out) finds a player's
table by typing a name without its Polish letters, and sees the table's state change when
the unit's message comes through real Mosquitto, without the page being loaded again.
The screenshots are written to ``artifacts/web/`` (phone and laptop sizes, Polish and
English) for a person to look at.
"""

from __future__ import annotations

from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from selenium import webdriver
from selenium.webdriver.common.by import By
from web_console import (
    LAPTOP,
    PHONE,
    browser,
    school_hall,
    serve_console,
    shot,
    snapshot,
    text,
    waiting,
)

from tablekit.core.clock_events import PauseReason
from tablekit.core.codec import encode
from tablekit.core.messages import Assignment, SeatAssignment
from tablekit.core.seats import Seat
from tablekit.core.topics import Topics

pytestmark = pytest.mark.mqtt

TOPICS = Topics("hall", "browser")


def test_a_phone_finds_its_table_and_sees_it_live(
    tmp_path: Path,
    mosquitto,
    chromium: list[webdriver.Chrome],  # type: ignore[no-untyped-def]
) -> None:
    c = school_hall(tmp_path / "event.sqlite3", "Mistrzostwa Szkół")
    comp = c.competition()
    tables = comp.event.seating("round-1")
    (table,) = [t for t in tables if "P001" in t.players]
    seat = "ABCD"[table.players.index("P001")]

    broker = mosquitto()
    units = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="tables")
    units.connect(broker.host, broker.port)
    units.loop_start()

    def publish(topic: str, message: object) -> None:
        units.publish(topic, encode(message), qos=1, retain=True).wait_for_publish(5)

    for seated in tables:
        seats = tuple(
            SeatAssignment(seat=Seat("ABCD"[i]), name=comp.event.players[p].name)
            for i, p in enumerate(seated.players)
        )
        publish(TOPICS.assign(seated.number),
                Assignment(v=1, table=seated.number, game=1, seats=seats, round=1))
        publish(TOPICS.state(seated.number), snapshot(seated.number, move=4, active=Seat.B))

    try:
        with serve_console(c.db, broker.client_settings(), TOPICS) as served:
            phone = browser(PHONE)
            chromium.append(phone)
            wait = waiting(phone)
            phone.get(served.url)
            assert phone.execute_script("return window.innerWidth") == PHONE[0]
            shot(phone, "phone-pl-home")
            box = phone.find_element(By.ID, "q")
            assert phone.find_element(By.CSS_SELECTOR, "label[for=q]").text
            box.send_keys("lukasz zolc")
            box.submit()
            wait.until(lambda d: "Stolik" in text(d, ".seat"))
            assert text(phone, ".player h2").startswith("Łukasz Żółć")
            assert text(phone, ".seat").startswith(f"Stolik {table.number}, miejsce {seat}")
            opponents = text(phone, ".opponents")
            for pid in table.players:
                if pid != "P001":
                    assert comp.event.players[pid].name in opponents
            card = f"#table-{table.number}"
            wait.until(lambda d: "Na żywo" in text(d, "#live-state"))
            assert "GRA TRWA" in text(phone, card)
            # The page is not loaded again: what a script leaves on it stays.
            phone.execute_script("window.stillTheSamePage = true")
            shot(phone, "phone-pl-find")

            publish(TOPICS.state(table.number),
                    snapshot(table.number, move=5, active=Seat.C,
                             paused=PauseReason.PLAYER_CALL))
            wait.until(lambda d: "WEZWANO SĘDZIEGO" in text(d, card))
            assert phone.execute_script("return window.stillTheSamePage") is True
            assert "5 ruchów" in text(phone, card)
            shot(phone, "phone-pl-find-judge-called")

            phone.get(f"{served.url}/standings")
            assert "Klasyfikacja — Runda 1 w trakcie" in text(phone, "h1")
            assert len(phone.find_elements(By.CSS_SELECTOR, ".standings tbody tr")) == 8
            shot(phone, "phone-pl-standings")
            phone.get(f"{served.url}/find?q=zolc&lang=en")
            wait.until(lambda d: "Live" in text(d, "#live-state"))
            assert text(phone, ".seat").startswith(f"Table {table.number}, seat {seat}")
            assert "JUDGE CALLED" in text(phone, card)
            shot(phone, "phone-en-find")

            laptop = browser(LAPTOP)
            chromium.append(laptop)
            laptop.get(f"{served.url}/tables")
            waiting(laptop).until(lambda d: "Na żywo" in text(d, "#live-state"))
            assert len(laptop.find_elements(By.CSS_SELECTOR, ".card")) == len(tables)
            publish(TOPICS.state(table.number), snapshot(table.number, move=6, active=Seat.D))
            waiting(laptop).until(lambda d: "6 ruchów" in text(d, card))
            to_move = comp.event.players[table.players[3]].name  # seat D
            assert to_move in text(laptop, f"{card} .active")
            shot(laptop, "laptop-pl-tables")
            laptop.get(f"{served.url}/standings?lang=en")
            shot(laptop, "laptop-en-standings")
    finally:
        units.loop_stop()
        units.disconnect()


def test_a_phone_taps_twenty_pages_and_none_waits_for_a_connection(
    tmp_path: Path,
    chromium: list[webdriver.Chrome],  # type: ignore[no-untyped-def]
    wait_until,  # type: ignore[no-untyped-def]
) -> None:
    """Chromium with its default back/forward cache keeps a page it leaves; were its live
    stream left open, six such pages would hold every connection the browser opens to
    the console and the next page would wait for one. Each page closes its stream when
    it is left and opens it again when it is shown: the console never holds more than
    one stream for the phone's one tab, and going back shows a live page again."""
    c = school_hall(tmp_path / "event.sqlite3", "Mistrzostwa Szkół")
    with serve_console(c.db, None, TOPICS) as served:
        phone = browser(PHONE)
        chromium.append(phone)
        live = served.console.live
        tapped = ["/find?q=nowak", "/standings", "/tables", "/players/P001", "/players/P002",
                  "/find?q=zolc", "/standings?lang=en", "/players/P003", "/tables",
                  "/find?q=ewa", "/standings", "/players/P004", "/players/P005",
                  "/find?q=adam", "/standings", "/players/P006", "/find?q=maria",
                  "/players/P007", "/standings", "/players/P008"]
        for address in tapped:
            phone.get(served.url + address)  # returns once the page has loaded
            waiting(phone).until(lambda d: not d.find_element(By.ID, "live-state").get_attribute(
                "hidden"))
            wait_until(lambda: live.pages == 1, 10, f"one stream after {address}")
        assert live.pages == 1
        phone.back()
        waiting(phone).until(lambda d: "/standings" in d.current_url)
        wait_until(lambda: live.pages == 1, 10, "the page shown again follows the console")
        phone.execute_script("window.history.forward()")
        waiting(phone).until(lambda d: "/players/P008" in d.current_url)
        wait_until(lambda: live.pages == 1, 10, "one stream after going forward")
