"""The judges' pages in a real browser (Debian's Chromium through Selenium, as
``tests/test_web_browser.py``): a judge signs in, sees a player's call arrive in the queue
without the page being loaded again, opens it, records the decision, enters a result with
a mistake (shown next to its field), enters it right, corrects it, and reads every version.

Screenshots of every judge page at a phone's size (390×844) and a laptop's (1280×800), in
Polish and English, go to ``artifacts/web/judge/``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select
from test_cli_ties import league_top8_with_a_tie_at_table_1
from web_console import (
    LAPTOP,
    PHONE,
    WEB_ACCOUNTS,
    TableLink,
    browser,
    school_hall,
    serve_console,
    shot,
    text,
    waiting,
    web_bundle_accounts,
)

from tablekit.core.clock_events import PauseReason
from tablekit.core.seats import Seat
from tablekit.core.topics import Topics

pytestmark = pytest.mark.mqtt

TOPICS = Topics("hall", "judge-browser")


def sign_in(driver: webdriver.Chrome, url: str, name: str = "judge-1") -> None:
    """Through the login page, as a judge would (it leads back to the queue)."""
    driver.get(f"{url}/judge")
    waiting(driver).until(lambda d: d.find_elements(By.ID, "password"))
    driver.find_element(By.ID, "name").send_keys(name)
    driver.find_element(By.ID, "password").send_keys(WEB_ACCOUNTS[name][1])
    driver.find_element(By.ID, "password").submit()
    waiting(driver).until(lambda d: "/judge" in d.current_url and "login" not in d.current_url)


def press(driver: webdriver.Chrome, css: str) -> None:
    """Click the button ``css`` as a person would: scrolled into the middle of the screen
    (the live state's bar keeps the bottom line of the window)."""
    button = driver.find_element(By.CSS_SELECTOR, css)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()


def unlabelled(driver: webdriver.Chrome) -> list[str]:
    """The ids of the page's visible inputs without a <label for> (none may be)."""
    return list(driver.execute_script("""
        return Array.from(document.querySelectorAll("input, select, textarea"))
          .filter(e => e.type !== "hidden")
          .filter(e => !e.id || !document.querySelector(`label[for="${e.id}"]`))
          .map(e => e.name || e.outerHTML);
    """))


def test_a_judge_works_the_queue_and_the_results_in_a_browser(
    tmp_path: Path, mosquitto, chromium: list[webdriver.Chrome]  # type: ignore[no-untyped-def]
) -> None:
    c = school_hall(tmp_path / "event.sqlite3", "Mistrzostwa Szkół")
    comp = c.competition()
    names = {t.number: [comp.event.players[p].name for p in t.players]
             for t in comp.event.seating("round-1")}
    broker = mosquitto()
    tables = TableLink(broker, TOPICS)
    for number, seated in names.items():
        tables.seat(number, seated)
        tables.state(number, move=4, active=Seat.B)
    try:
        with serve_console(c.db, broker.client_settings(), TOPICS) as served:
            served.console.gate.accounts = web_bundle_accounts()
            laptop = browser(LAPTOP)
            chromium.append(laptop)
            sign_in(laptop, served.url)
            wait = waiting(laptop)
            wait.until(lambda d: "Na żywo" in text(d, "#live-state"))
            assert "Żaden stolik nie czeka na sędziego." in text(laptop, "#judge-queue")
            laptop.execute_script("window.stillTheSamePage = true")

            # a player's call arrives without the page being loaded again
            tables.state(2, move=5, active=Seat.C, paused=PauseReason.PLAYER_CALL)
            wait.until(lambda d: "WEZWANO SĘDZIEGO" in text(d, "#judge-queue"))
            assert laptop.execute_script("return window.stillTheSamePage") is True
            queue = text(laptop, "#judge-queue")
            assert "Stolik 2" in queue and all(name in queue for name in names[2])
            first = text(laptop, "[data-waited]")
            wait.until(lambda d: text(d, "[data-waited]") != first)  # it counts on by itself
            shot(laptop, "laptop-pl-queue", "judge")

            laptop.find_element(By.LINK_TEXT, "Otwórz wezwanie").click()
            wait.until(lambda d: "Decyzja sędziego" in text(d, "main"))
            assert "WEZWANO SĘDZIEGO" in text(laptop, "#judge-table")
            assert unlabelled(laptop) == []
            laptop.find_element(By.ID, "note").send_keys("B cofnął kostkę; ostrzeżenie ustne")
            press(laptop, ".judge-form button")
            wait.until(lambda d: "Decyzja sędziego jest zapisana" in text(d, "main"))
            assert "B cofnął kostkę; ostrzeżenie ustne" in text(laptop, "#judge-table-results")
            shot(laptop, "laptop-pl-table", "judge")

            # a result with a mistake: said next to the field, the form as it was typed
            assert text(laptop, ".game .button") == "Wprowadź wynik"  # game 1 of table 2
            press(laptop, ".game .button")
            wait.until(lambda d: d.find_elements(By.ID, "A-tiles"))
            assert unlabelled(laptop) == []
            for seat, tiles in zip("ABCD", ("0", "23", "12a", "85"), strict=True):
                laptop.find_element(By.ID, f"{seat}-tiles").send_keys(tiles)
            Select(laptop.find_element(By.ID, "C-jokers")).select_by_value("1")
            Select(laptop.find_element(By.ID, "D-opening")).select_by_value("not_opened")
            press(laptop, ".judge-form button")
            wait.until(lambda d: d.find_elements(By.ID, "C-tiles-error"))
            assert "liczba całkowita" in text(laptop, "#C-tiles-error")
            assert laptop.find_element(By.ID, "C-tiles").get_attribute("value") == "12a"
            assert c.competition().history("round-1", 2, 1) == []
            shot(laptop, "laptop-pl-result-error", "judge")

            box = laptop.find_element(By.ID, "C-tiles")
            box.clear()
            box.send_keys("12")
            press(laptop, ".judge-form button")
            wait.until(lambda d: "Wynik zapisany" in text(d, "h1"))
            assert "Co zmieniło się w klasyfikacji" in text(laptop, "main")
            shot(laptop, "laptop-pl-stored", "judge")
            assert "12 + joker" in c.ok("result", "history", "--table", "2", "--game", "1")

            # a correction, with its reason; then every version
            c.ok("result", "enter", "--table", "2", "--game", "1", "--racks",
                 "A=0 B=20 C=12j D=85np", "--why", "B policzył źle", by="sędzia Ola")
            laptop.get(f"{served.url}/judge/result/history?table=2&game=1")
            assert "Wersja 2 (poprawka, sędzia)" in text(laptop, "main")
            assert "B policzył źle" in text(laptop, "main")
            shot(laptop, "laptop-pl-history", "judge")

            pages = {
                "queue": "/judge",
                "table": "/judge/tables/2",
                "choose": "/judge/result",
                "result": "/judge/result?table=1&game=1",
                "stored": "/judge/result/stored?stage=round-1&table=2&game=1",
                "history": "/judge/result/history?table=2&game=1",
                "sanctions": "/judge/sanctions",
                "ties": "/judge/ties",
                "corrections": "/judge/corrections",
            }
            phone = browser(PHONE)
            chromium.append(phone)
            sign_in(phone, served.url, "judge-2")
            for driver, size in ((phone, "phone"), (laptop, "laptop")):
                for lang in ("pl", "en"):
                    for name, path in pages.items():
                        joiner = "&" if "?" in path else "?"
                        driver.get(f"{served.url}{path}" + (f"{joiner}lang=en" if lang == "en"
                                                           else ""))
                        assert text(driver, "h1"), (size, lang, name)
                        wide = driver.execute_script(
                            "return document.documentElement.scrollWidth > window.innerWidth"
                        )
                        assert not wide, f"{name} is wider than the {size}'s screen"
                        shot(driver, f"{size}-{lang}-{name}", "judge")
                    assert "B cofnął kostkę" in text(driver, "main")  # the corrections page
                    # the result form with a mistake, in each size and language
                    driver.get(f"{served.url}/judge/result?table=1&game=1"
                               + ("&lang=en" if lang == "en" else ""))
                    driver.find_element(By.ID, "A-tiles").send_keys("x")
                    press(driver, ".judge-form button")
                    waiting(driver).until(lambda d: d.find_elements(By.ID, "A-tiles-error"))
                    assert ("whole number" if lang == "en" else "liczba całkowita") in text(
                        driver, "#A-tiles-error"
                    )
                    shot(driver, f"{size}-{lang}-result-error", "judge")
    finally:
        tables.close()


def test_the_head_judge_decides_a_tie_in_a_browser(
    tmp_path: Path, chromium: list[webdriver.Chrome]
) -> None:
    c, b, d = league_top8_with_a_tie_at_table_1(tmp_path)
    names = {pid: c.competition().event.players[pid].name for pid in (b, d)}
    with serve_console(c.db, None, TOPICS) as served:
        served.console.gate.accounts = web_bundle_accounts()
        for size, name in ((PHONE, "phone"), (LAPTOP, "laptop")):
            driver = browser(size)
            chromium.append(driver)
            sign_in(driver, served.url, "head-judge")
            for lang in ("pl", "en"):
                driver.get(f"{served.url}/judge/ties" + ("?lang=en" if lang == "en" else ""))
                section = text(driver, ".tie")
                assert names[b] in section and names[d] in section
                assert unlabelled(driver) == []
                shot(driver, f"{name}-{lang}-ties-pending", "judge")
        Select(driver.find_element(By.ID, "tie-1-place-1")).select_by_value(d)
        Select(driver.find_element(By.ID, "tie-1-place-2")).select_by_value(b)
        driver.find_element(By.ID, "tie-1-why").send_keys("head judge: fewer penalties")
        press(driver, ".tie button[value=judge]")
        waiting(driver).until(lambda d_: "ahead of" in text(d_, ".done"))
        assert f"{names[d]} ({d}) ahead of {names[b]} ({b})" in text(driver, ".done")
        shot(driver, "laptop-en-ties-decided", "judge")
    (record,) = c.competition().ties
    assert record.by == "head-judge" and record.why == "head judge: fewer penalties"
