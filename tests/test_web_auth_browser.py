"""Signing in to the web console in a real browser (Debian's Chromium through Selenium,
as ``tests/test_web_browser.py``): the login page at a phone's and a laptop's size, in
Polish and English, a wrong password said on the page, a judge signed in and out.
Screenshots in ``artifacts/web/auth/``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from selenium.webdriver.common.by import By
from web_console import (
    LAPTOP,
    PHONE,
    WEB_ACCOUNTS,
    browser,
    school_hall,
    serve_console,
    shot,
    text,
    waiting,
)

from tablekit.core.topics import Topics

TOPICS = Topics("hall", "browser-auth")
AREA = "auth"


def test_the_login_page_on_a_phone_and_a_laptop(tmp_path: Path, chromium: list[Any]) -> None:
    c = school_hall(tmp_path / "event.sqlite3", "Mistrzostwa Szkół")
    with serve_console(c.db, None, TOPICS) as served:
        for size, label in ((PHONE, "phone"), (LAPTOP, "laptop")):
            driver = browser(size)
            chromium.append(driver)
            driver.get(served.url)
            driver.find_element(By.LINK_TEXT, "Sędzia").click()
            waiting(driver).until(lambda d: "Zaloguj się" in text(d, "h1"))
            assert driver.execute_script("return window.innerWidth") == size[0]
            for field in ("name", "password"):
                label_text = text(driver, f"label[for={field}]")
                assert label_text in ("Nazwa konta", "Hasło"), label_text
            shot(driver, f"{label}-pl-login", AREA)

            driver.find_element(By.ID, "name").send_keys("judge-1")
            driver.find_element(By.ID, "password").send_keys("not-the-password")
            driver.find_element(By.CSS_SELECTOR, "form.login button").click()
            waiting(driver).until(lambda d: text(d, ".problem") != "")
            assert text(driver, ".problem") == "Błędna nazwa konta lub hasło."
            assert driver.find_element(By.ID, "name").get_attribute("value") == "judge-1"
            assert driver.find_element(By.ID, "password").get_attribute("value") == ""
            shot(driver, f"{label}-pl-login-wrong", AREA)

            driver.find_element(By.ID, "password").send_keys(WEB_ACCOUNTS["judge-1"][1])
            driver.find_element(By.CSS_SELECTOR, "form.login button").click()
            waiting(driver).until(lambda d: "Zalogowano" in text(d, ".top .account"))
            assert "judge-1 (sędzia)" in text(driver, ".top .account")
            cookies = {cookie["name"]: cookie for cookie in driver.get_cookies()}
            session = cookies["rummikub_session"]
            assert session["httpOnly"] and session["sameSite"] == "Strict"
            shot(driver, f"{label}-pl-signed-in", AREA)

            driver.find_element(By.CSS_SELECTOR, ".top .account button").click()
            waiting(driver).until(lambda d: text(d, ".top .account") == "")
            assert "rummikub_session" not in {c["name"] for c in driver.get_cookies()}

            driver.get(f"{served.url}/login?lang=en")
            assert text(driver, "h1") == "Sign in"
            assert text(driver, "label[for=name]") == "Account name"
            shot(driver, f"{label}-en-login", AREA)

        # at 200 % zoom the laptop's 1280 pixels hold a 640-pixel page: the form still fits
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": 640, "height": 400, "deviceScaleFactor": 2,
                                "mobile": False})
        driver.get(f"{served.url}/login")
        assert driver.execute_script("return window.innerWidth") == 640
        assert driver.execute_script("return document.documentElement.scrollWidth") <= 640
        assert driver.find_element(By.ID, "password").is_displayed()
        shot(driver, "laptop-pl-login-zoom-200", AREA)
