"""The console's first start in a real browser (Debian's Chromium through Selenium):
from the first page to the accounts made, at a laptop's and a phone's size. Screenshots in
``artifacts/web/first-start/``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from selenium.webdriver.common.by import By
from test_web_rounds_browser import fits, press
from web_console import (
    LAPTOP,
    PHONE,
    SERIOUS,
    axe_violations,
    browser,
    school_hall,
    serve_console,
    shot,
    text,
    waiting,
)

from hub.web.accounts import first_start_code
from hub.web.sessions import Gate
from tablekit.core.topics import Topics

AREA = "first-start"


def test_the_accounts_are_made_from_the_first_page_in_the_browser(
    tmp_path: Path, chromium: list[Any]
) -> None:
    hall = school_hall(tmp_path / "event.sqlite3")
    accounts = tmp_path / "web-accounts.toml"
    code = first_start_code(accounts)
    assert code is not None
    with serve_console(hall.db, None, Topics("hall", "first"), Gate(accounts)) as served:
        phone, laptop = browser(PHONE), browser(LAPTOP)
        chromium.extend([phone, laptop])
        phone.get(f"{served.url}/setup")
        assert fits(phone)
        shot(phone, "phone-pl-setup", AREA)
        assert [v for v in axe_violations(phone) if v.split()[0] in SERIOUS] == []
        laptop.get(served.url)
        press(laptop, ".first-start a")
        wait = waiting(laptop)
        wait.until(lambda d: text(d, "h1") == "Pierwsze uruchomienie: konta")
        laptop.find_element(By.ID, "code").send_keys(code)
        laptop.find_element(By.ID, "organizer").send_keys("Maria Zielińska")
        laptop.find_element(By.ID, "head_judge").send_keys("Maria Zielińska")
        laptop.find_element(By.ID, "judges").send_keys("Anna Nowak\nJan Kowalski")
        shot(laptop, "laptop-pl-setup", AREA)
        press(laptop, "form.setup button[type=submit]")
        wait.until(lambda d: text(d, "h1") == "Konta są utworzone")
        table = text(laptop, "table.accounts")
        assert "Anna Nowak" in table and "head-judge" in table, table
        shot(laptop, "laptop-pl-accounts-made", AREA)
        assert [v for v in axe_violations(laptop) if v.split()[0] in SERIOUS] == []
        press(laptop, "main a.button")
        wait.until(lambda d: d.find_elements(By.ID, "password"))
