"""A player's own page in a real browser (Debian's Chromium through Selenium): opened from
the standings on a phone (390×844), it shows the games, the place and the time use, and
takes a new result without being loaded again; a laptop's window too, in Polish and
English. Screenshots in ``artifacts/web/player/``."""

from __future__ import annotations

from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from selenium import webdriver
from selenium.webdriver.common.by import By
from test_web_player import ingest, moves_of, seat_of, started
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

from tablekit.core.codec import encode
from tablekit.core.seats import Seat
from tablekit.core.topics import Topics

pytestmark = pytest.mark.mqtt

AREA = "player"
TOPICS = Topics("hall", "player")


def test_a_player_sees_their_games_and_time_use_live(
    tmp_path: Path, mosquitto, chromium: list[webdriver.Chrome]  # type: ignore[no-untyped-def]
) -> None:
    c = school_hall(tmp_path / "event.sqlite3", "Mistrzostwa Szkół")
    table, seat, _ = seat_of(c, "P001")
    ingest(c.db, table, 1_800_000_000.0, *moves_of(seat), started(2))  # now at game 2
    c.ok("result", "enter", "--table", str(table), "--game", "1", "--racks",
         " ".join(f"{s}={0 if s == seat.value else 25}" for s in "ABCD"))
    broker = mosquitto()
    unit = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="table")
    unit.connect(broker.host, broker.port)
    (assigned,) = [a for a in c.competition().assignments() if a.table == table]
    unit.publish(TOPICS.assign(table), encode(assigned), qos=1, retain=True).wait_for_publish(5)
    unit.publish(TOPICS.state(table), encode(snapshot(table, game=2, move=3, active=Seat.C)),
                 qos=1, retain=True).wait_for_publish(5)
    unit.disconnect()
    with serve_console(c.db, broker.client_settings(), TOPICS) as served:
        phone = browser(PHONE)
        chromium.append(phone)
        wait = waiting(phone)
        phone.get(f"{served.url}/standings")
        phone.find_element(By.LINK_TEXT, "Łukasz Żółć").click()
        wait.until(lambda d: d.current_url.endswith("/players/P001"))
        wait.until(lambda d: "Na żywo" in text(d, "#live-state"))
        assert text(phone, "h1").startswith("Łukasz Żółć")
        assert text(phone, ".place") == "Miejsce w klasyfikacji: 1"
        figures = text(phone, "#time-use")
        assert "Średni ruch\n20,0 s" in figures and "Najdłuższy ruch\n40,0 s" in figures
        assert "Przekroczenia czasu\n1" in figures
        assert text(phone, ".round .seat").startswith(f"Stolik {table}, miejsce {seat}")
        rows = phone.find_elements(By.CSS_SELECTOR, ".games tbody tr")
        assert [r.text.split()[0] for r in rows] == ["1", "2"]
        assert "brak wyniku" in rows[1].text
        card = text(phone, f"#table-{table}")  # the table's live card
        assert "GRA TRWA" in card and "Gra 2 · 3 ruchy" in card and "Łukasz Żółć" in card
        # nothing is wider than the phone
        assert phone.execute_script("return document.documentElement.scrollWidth") <= PHONE[0]
        shot(phone, "phone-pl-player", AREA)

        phone.execute_script("window.stillTheSamePage = true")
        winner = next(s for s in "ABCD" if s != seat.value)
        c.ok("result", "enter", "--table", str(table), "--game", "2", "--racks",
             " ".join(f"{s}={0 if s == winner else 15}" for s in "ABCD"))
        wait.until(lambda d: "brak wyniku" not in text(d, ".games"))
        assert phone.execute_script("return window.stillTheSamePage") is True
        shot(phone, "phone-pl-player-second-result", AREA)

        phone.get(f"{served.url}/players/P001?lang=en")
        assert text(phone, ".place") == "Place 1 in the standings"
        assert "Average move\n20.0 s" in text(phone, "#player")
        shot(phone, "phone-en-player", AREA)

        laptop = browser(LAPTOP)
        chromium.append(laptop)
        laptop.get(f"{served.url}/players/P001")
        waiting(laptop).until(lambda d: "Na żywo" in text(d, "#live-state"))
        assert len(laptop.find_elements(By.CSS_SELECTOR, ".games tbody tr")) == 2
        shot(laptop, "laptop-pl-player", AREA)
        # at 200 % zoom the laptop's 1280 pixels hold a 640-pixel page: it still fits
        laptop.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": 640, "height": 400, "deviceScaleFactor": 2,
                                "mobile": False})
        laptop.refresh()
        waiting(laptop).until(lambda d: "Czas ruchów" in text(d, "#player"))
        assert laptop.execute_script("return window.innerWidth") == 640
        assert laptop.execute_script("return document.documentElement.scrollWidth") <= 640
        shot(laptop, "laptop-pl-player-zoom-200", AREA)
        laptop.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        laptop.get(f"{served.url}/players/P001?lang=en")
        assert "Time use" in text(laptop, "#player")
        shot(laptop, "laptop-en-player", AREA)
