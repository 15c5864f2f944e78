"""A teacher's contest day, run alone from a browser: the rehearsal started with its one
command (``rummikub-rehearsal``, as ``./kit rehearsal`` runs it), then nothing but a real
Chromium at a laptop's size from the console's first page — signing in as the organizer
with what the command printed, creating the event, importing the pupils (minors, with
their guardians' consent, from the file), checking everyone in, then every round of the
school contest drawn, started and closed while the simulated tables play it, the final
standings and the printouts downloaded. Screenshots in ``artifacts/web/teachers-day/``."""

from __future__ import annotations

import contextlib
import os
import re
import signal
from pathlib import Path
from typing import Any

from pace import scaled
from running import processes_naming
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait
from test_rehearsal import NAMES, SIGN_IN, rehearsal
from test_web_rounds_browser import press
from web_console import LAPTOP, browser, shot, text, waiting

AREA = "teachers-day"
PUPILS = (
    "Imię i nazwisko;Szkoła;Niepełnoletni;Zgoda opiekuna\n"
    + "".join(
        f"{name};SP {1 + i % 3};tak;tak\n"
        for i, name in enumerate(NAMES)
    )
)
ROUNDS = 4
"""The school contest's rounds (004: 4 rounds of 2 games, a new draw each round)."""
PLAYED = 180
"""Seconds the simulated tables have to play a round's games (as long as this machine needs)."""


def pressed(driver: Any, css: str) -> None:
    """Press the button ``css``, found again if a live update replaced it first."""
    waiting(driver).until(lambda d: press(d, css) or True)


def follow(driver: Any, label: str) -> None:
    """Click the link ``label`` of the page, as a person does."""
    link = driver.find_element(By.LINK_TEXT, label)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)
    link.click()


def every_result_in(driver: Any) -> bool:
    """The round page says every table has played its games; on the way no table lacks
    a result (the simulated tables type every one as its game ends)."""
    page = text(driver, "main")
    assert "BRAK WYNIKU" not in page, page
    return text(driver, "#tables-title").startswith("Zakończone stoliki: 2 z 2")


def download(driver: Any, href: str) -> tuple[int, str, bytes]:
    """What the browser gets at ``href`` with its sign-in: (status, type, first bytes)."""
    got = driver.execute_async_script(
        """const done = arguments[arguments.length - 1];
        fetch(arguments[0]).then(async r => {
          const head = new Uint8Array(await r.arrayBuffer()).slice(0, 8);
          done([r.status, r.headers.get('content-type'), Array.from(head)]);
        });""",
        href,
    )
    return int(got[0]), str(got[1]), bytes(got[2])


def test_a_teacher_runs_the_contest_day_in_the_browser_after_one_command(
    tmp_path: Path, chromium: list[Any]
) -> None:
    pupils = tmp_path / "uczniowie.csv"
    pupils.write_text(PUPILS, encoding="utf-8")
    folder = tmp_path / "próba"
    hall = rehearsal(folder)
    try:
        hall.wait_for("próba: Ctrl-C kończy próbę", 90)
        url = re.search(r"konsolę WWW w przeglądarce na tym komputerze: (\S+)", hall.output)
        sign_in = SIGN_IN.search(hall.output)
        assert url is not None and sign_in is not None, hall.output
        laptop = browser(LAPTOP)
        chromium.append(laptop)
        wait = waiting(laptop)
        played = WebDriverWait(laptop, scaled(PLAYED))

        # the first page, then the organizer's sign-in as the command printed it
        laptop.get(url.group(1))
        assert "Turniej nie został jeszcze utworzony" in text(laptop, "main")
        shot(laptop, "laptop-pl-first-page", AREA)
        follow(laptop, "Organizator")
        wait.until(lambda d: d.find_elements(By.ID, "password"))
        laptop.find_element(By.ID, "name").send_keys("organizer")
        laptop.find_element(By.ID, "password").send_keys(sign_in.group(1))
        laptop.find_element(By.CSS_SELECTOR, "form.login button").click()
        wait.until(lambda d: text(d, "h1") == "Stanowisko organizatora")

        # the event, and the pupils from the school's file
        follow(laptop, "Turniej")
        laptop.find_element(By.ID, "name").send_keys("Konkurs klas 4–6")
        laptop.find_element(By.ID, "minutes").send_keys("30")
        press(laptop, "form[action='/organizer/event'] button[type=submit]")
        wait.until(lambda d: "Utworzono turniej" in text(d, ".done"))
        shot(laptop, "laptop-pl-event", AREA)
        follow(laptop, "Gracze: wczytaj listę, dodaj, potwierdź obecność")
        laptop.find_element(By.ID, "file").send_keys(str(pupils))
        press(laptop, "form[action^='/organizer/players/upload'] button[type=submit]")
        wait.until(lambda d: "Zaimportowano 8 graczy" in text(d, ".done"))
        assert text(laptop, ".players").count("zgoda otrzymana") == 8, text(laptop, ".players")
        press(laptop, "form.arrive button[value=all]")
        wait.until(lambda d: "Potwierdzono obecność (8)" in text(d, ".done"))
        shot(laptop, "laptop-pl-players", AREA)

        # every round: drawn, its time started, played at the tables, closed
        for number in range(1, ROUNDS + 1):
            laptop.get(url.group(1).rstrip("/") + "/organizer")
            press(laptop, ".desk a[href='/organizer/round']")
            pressed(laptop, "#draw-form button.primary")
            wait.until(lambda d, n=number: f"Rozlosowano: runda {n}" in text(d, ".done"))
            pressed(laptop, "#start-form button")
            wait.until(lambda d, n=number: f"Rozpoczęto: runda {n}" in text(d, ".done"))
            laptop.get(url.group(1).rstrip("/") + "/organizer/round")
            played.until(every_result_in)
            if number == 1:
                shot(laptop, "laptop-pl-round-played", AREA)
            pressed(laptop, "#close-form button")
            wait.until(lambda d, n=number: f"Zamknięto: runda {n}." in text(d, ".done"))

        # the final standings and the printouts
        laptop.get(url.group(1).rstrip("/") + "/organizer")
        press(laptop, ".desk a[href='/organizer/standings']")
        wait.until(lambda d: text(d, "h1") == "Klasyfikacja")
        shot(laptop, "laptop-pl-final-standings", AREA)
        final = text(laptop, "main")
        assert "Klasyfikacja końcowa — Konkurs klas 4–6" in final, final
        assert re.search(r"^1\t.+\tzwycię(zca|żczyni)\t", final, re.M), final  # the title
        laptop.get(url.group(1).rstrip("/") + "/organizer")
        press(laptop, ".desk a[href='/organizer/exports']")
        shot(laptop, "laptop-pl-exports", AREA)
        pdfs = [a.get_attribute("href") for a in laptop.find_elements(By.LINK_TEXT, "PDF (A4)")]
        assert pdfs, text(laptop, "main")
        for href in pdfs:
            status, kind, head = download(laptop, href)
            assert (status, kind, head[:5]) == (200, "application/pdf", b"%PDF-"), href
        archive = laptop.find_element(By.LINK_TEXT, "Pobierz archiwum").get_attribute("href")
        assert download(laptop, archive)[2][:2] == b"PK"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(hall.proc.pid, signal.SIGINT)
        hall.stopped_within(30)
        hall.kill()
        for pid in processes_naming(folder):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
