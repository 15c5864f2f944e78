"""The organizer's event and players pages in a real browser (Debian's Chromium through
Selenium, as tests/test_web_browser.py): the organizer signs in, creates the event, uploads
a players file with wrong rows and sees each error beside its row, uploads a good one,
checks players in with the checkboxes, marks a minor and chooses the privacy setting —
on a phone (390×844) and a laptop (1280×800), in Polish and English. The screenshots are
written to ``artifacts/web/players/``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from web_console import (
    LAPTOP,
    PHONE,
    browser,
    browser_signed_in,
    serve_console,
    shot,
    submit,
    text,
    waiting,
)

from hub.web.auth import WebRole
from tablekit.core.topics import Topics

AREA = "players"
TOPICS = Topics("hall", "players")
BAD_ROWS = "Imię i nazwisko;Szkoła;Punkty\nAnna Kowalska;SP 3;12\n;SP 1;3\nJan Nowak;SP 3;dużo\n"
GOOD = "Imię i nazwisko;Szkoła\n" + "".join(
    f"{name};SP {1 + i % 3}\n"
    for i, name in enumerate(["Anna Kowalska", "Łukasz Żółć", "Jan Nowak", "Ewa Wiśniewska",
                              "Piotr Zięba", "Zofia Ćwik", "Ola Kot", "Marta Źdźbło"])
)


@pytest.fixture
def chromium() -> Iterator[list[webdriver.Chrome]]:
    opened: list[webdriver.Chrome] = []
    yield opened
    for driver in opened:
        driver.quit()


def labelled(driver: webdriver.Chrome) -> None:
    """Every input, select and text box of the page has its label (or is hidden)."""
    missing = driver.execute_script("""
        return [...document.querySelectorAll('input, select, textarea')]
          .filter(e => e.type !== 'hidden')
          .filter(e => !(e.labels && e.labels.length))
          .map(e => e.name);""")
    assert missing == [], missing


def test_the_organizer_sets_the_event_and_its_players_up_in_a_browser(
    tmp_path: Path, chromium: list[webdriver.Chrome]
) -> None:
    bad, good = tmp_path / "lista-z-bledami.csv", tmp_path / "lista.csv"
    bad.write_text(BAD_ROWS, encoding="utf-8")
    good.write_text(GOOD, encoding="utf-8")
    with serve_console(tmp_path / "event.sqlite3", None, TOPICS) as served:
        laptop = browser(LAPTOP)
        chromium.append(laptop)
        browser_signed_in(laptop, served.url, WebRole.ORGANIZER, "/organizer/event")
        wait = waiting(laptop)
        wait.until(lambda d: "Utwórz turniej" in text(d, "h1"))
        labelled(laptop)
        shot(laptop, "laptop-pl-create", AREA)
        laptop.find_element(By.ID, "name").send_keys("Konkurs klas 4")
        laptop.find_element(By.ID, "minutes").send_keys("50")
        laptop.find_element(By.ID, "privacy-full").click()
        submit(laptop, "form[action='/organizer/event']")
        wait.until(lambda d: "Utworzono turniej" in text(d, ".done"))
        assert "Międzyszkolny konkurs" in text(laptop, ".settings")
        shot(laptop, "laptop-pl-event", AREA)

        laptop.get(f"{served.url}/organizer/players")
        # the skip link comes first and leads past the menus to the page's first field
        body = laptop.find_element(By.TAG_NAME, "body")
        body.send_keys(Keys.TAB)
        skip = laptop.switch_to.active_element
        assert skip.get_attribute("class") == "skip" and skip.text == "Przejdź do treści strony"
        skip.send_keys(Keys.ENTER)
        laptop.switch_to.active_element.send_keys(Keys.TAB)
        first = laptop.switch_to.active_element
        assert first.get_attribute("id") == laptop.execute_script(
            "return document.querySelector('main input:not([type=hidden]), main select, "
            "main textarea').id")
        laptop.find_element(By.ID, "file").send_keys(str(bad))
        submit(laptop, "form[action^='/organizer/players/upload']")
        wait.until(lambda d: "nic nie zapisano" in text(d, "#file-problem"))
        # the refused form's first wrong field has the focus
        assert laptop.switch_to.active_element.get_attribute("id") == "file"
        rows = laptop.find_elements(By.CSS_SELECTOR, ".rows tbody tr")
        assert [r.find_element(By.CSS_SELECTOR, "td").text for r in rows] == ["3", "4"]
        assert "dużo" in rows[1].text and "to nie liczba" in rows[1].text
        shot(laptop, "laptop-pl-upload-errors", AREA)

        laptop.find_element(By.ID, "file").send_keys(str(good))
        submit(laptop, "form[action^='/organizer/players/upload']")
        wait.until(lambda d: "Zaimportowano 8 graczy" in text(d, ".done"))
        assert len(laptop.find_elements(By.CSS_SELECTOR, ".players tbody tr")) == 8
        for pid in ("P001", "P002", "P003", "P004", "P005", "P006"):
            laptop.find_element(By.ID, f"here-{pid}").click()
        submit(laptop, "form.arrive")
        wait.until(lambda d: "Potwierdzono obecność (6)" in text(d, ".done"))
        labelled(laptop)
        shot(laptop, "laptop-pl-players", AREA)
        laptop.get(f"{served.url}/organizer/players?lang=en")
        assert "Upload the players' file" in text(laptop, "#upload")
        shot(laptop, "laptop-en-players", AREA)

        phone = browser(PHONE)
        chromium.append(phone)
        browser_signed_in(phone, served.url, WebRole.ORGANIZER, "/organizer/players")
        phone.get(f"{served.url}/organizer/players/P008")
        pwait = waiting(phone)
        pwait.until(lambda d: "Marta Źdźbło" in text(d, "h1"))
        assert phone.execute_script("return document.documentElement.scrollWidth") <= PHONE[0]
        phone.find_element(By.ID, "minor-minor").click()
        submit(phone, "form[action*='/minor']")
        pwait.until(lambda d: "Osoba niepełnoletnia" in text(d, ".done"))
        labelled(phone)
        shot(phone, "phone-pl-player", AREA)
        phone.get(f"{served.url}/organizer/players")
        phone.find_element(By.ID, "here-P008").click()
        submit(phone, "form.arrive")
        pwait.until(lambda d: "bez zapisanej pisemnej zgody" in text(d, ".arrive .problem"))
        assert phone.execute_script("return document.documentElement.scrollWidth") <= PHONE[0]
        shot(phone, "phone-pl-minor-asked", AREA)
        assert phone.find_element(By.ID, "here-P008").is_selected()  # as it was ticked
        phone.find_element(By.ID, "admit").click()
        submit(phone, "form.arrive")
        pwait.until(lambda d: "Dopuszczono" in text(d, ".done"))
        shot(phone, "phone-pl-players", AREA)

        phone.get(f"{served.url}/organizer/event")
        phone.find_element(By.ID, "names-initial").click()
        submit(phone, "form[action^='/organizer/event/privacy']")
        pwait.until(lambda d: "wszyscy jako imię i inicjał nazwiska" in text(d, ".done"))
        shot(phone, "phone-pl-privacy", AREA)
        phone.get(f"{served.url}/organizer/event?lang=en")
        assert "everyone as given name and initial" in text(phone, ".settings")
        shot(phone, "phone-en-privacy", AREA)
        phone.get(f"{served.url}/find?q=marta")
        pwait.until(lambda d: "Marta Ź." in text(d, ".found"))
        assert "Źdźbło" not in text(phone, "main")
        shot(phone, "phone-pl-find-private", AREA)

        phone.get(f"{served.url}/organizer/players")
        phone.find_element(By.ID, "file").send_keys(str(bad))
        submit(phone, "form[action^='/organizer/players/upload']")
        pwait.until(lambda d: "nic nie zapisano" in text(d, "#file-problem"))
        assert phone.execute_script("return document.documentElement.scrollWidth") <= PHONE[0]
        phone.execute_script("document.getElementById('file-problem').scrollIntoView()")
        shot(phone, "phone-pl-upload-errors", AREA)
        phone.get(f"{served.url}/organizer/players?lang=en")
        assert "Players" in text(phone, "h1")
        shot(phone, "phone-en-players", AREA)

        laptop.get(f"{served.url}/organizer/players?lang=en")
        laptop.find_element(By.ID, "file").send_keys(str(bad))
        submit(laptop, "form[action^='/organizer/players/upload']")
        wait.until(lambda d: "nothing was stored" in text(d, "#file-problem"))
        assert "is not a number" in text(laptop, ".rows") or "not a number" in text(laptop, ".rows")
        shot(laptop, "laptop-en-upload-errors", AREA)
        laptop.get(f"{served.url}/organizer/event")
        laptop.execute_script("document.getElementById('privacy').scrollIntoView()")
        assert laptop.find_element(By.ID, "names-initial").is_selected()
        shot(laptop, "laptop-pl-privacy", AREA)
        laptop.get(f"{served.url}/organizer/event?lang=en")
        laptop.execute_script("document.getElementById('privacy').scrollIntoView()")
        shot(laptop, "laptop-en-privacy", AREA)
        # at 200 % zoom the laptop's 1280 pixels hold a 640-pixel page: the pages still fit
        laptop.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": 640, "height": 400, "deviceScaleFactor": 2,
                                "mobile": False})
        for page, name in (("/organizer/players", "players"), ("/organizer/event", "event"),
                           ("/organizer/players/P001", "player")):
            laptop.get(f"{served.url}{page}")
            assert laptop.execute_script("return window.innerWidth") == 640
            assert laptop.execute_script("return document.documentElement.scrollWidth") <= 640
            shot(laptop, f"laptop-pl-{name}-zoom-200", AREA)
        laptop.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
