"""The console's first start in the browser's place (Starlette's TestClient): with no
organizer's account the home page leads to the one-time page, which asks for the code
the console wrote beside its accounts file, makes the organizer's, the head judge's and
the judges' accounts with the people's names, and is gone once they are made; the
judges' records then name the person."""

from __future__ import annotations

import re
from pathlib import Path

from test_web_auth import console_app, login
from test_web_judge import post_form
from web_console import form_token, school_hall

from hub.first_start import CODE_FILE
from hub.web.accounts import WebRole, first_start_code, read_accounts
from hub.web.sessions import Gate

PEOPLE = {"organizer": "Maria Zielińska", "head_judge": "Maria Zielińska",
          "judges": "Anna Nowak\n\n  Jan   Kowalski \n"}  # fmt: skip


def made(html: str) -> dict[str, tuple[str, str, str]]:
    """The done page's table: account name → (person, role, password)."""
    rows = re.findall(
        r"<tr><td>([^<]*)</td><td>([^<]*)</td><td><code>([^<]*)</code></td>"
        r"<td><code>([^<]*)</code></td></tr>", html,
    )  # fmt: skip
    return {name: (person, role, password) for person, role, name, password in rows}


def test_the_first_start_page_makes_the_accounts_once_with_the_peoples_names(
    tmp_path: Path,
) -> None:
    hall = school_hall(tmp_path / "event.sqlite3")
    state = tmp_path / "state"
    state.mkdir()
    accounts = state / "web-accounts.toml"
    code = first_start_code(accounts)
    assert code is not None and re.fullmatch(r"\d{4}-\d{4}", code)
    assert first_start_code(accounts) == code  # the same until the accounts are made
    assert (state / CODE_FILE).stat().st_mode & 0o077 == 0
    with console_app(hall.db, Gate(accounts)) as client:
        home = client.get("/").text
        assert 'href="/setup"' in home and "Pierwsze uruchomienie" in home
        page = client.get("/setup")
        assert page.status_code == 200 and "kod" in page.text.lower()
        token = form_token(page.text)
        wrong = client.post("/setup", data={"csrf": token, "code": "0000-0000", **PEOPLE})
        assert wrong.status_code == 400 and "Zły kod" in wrong.text
        assert not accounts.exists()
        nameless = client.post("/setup", data={"csrf": token, "code": code,
                                               **PEOPLE, "head_judge": " "})  # fmt: skip
        assert nameless.status_code == 400 and "sędzia główny" in nameless.text
        done = client.post("/setup", data={"csrf": token, "code": code, **PEOPLE})
        assert done.status_code == 200 and done.headers["cache-control"] == "no-store"
        shown = made(done.text)
        assert {name: shown[name][:2] for name in shown} == {
            "organizer": ("Maria Zielińska", "organizator"),
            "head-judge": ("Maria Zielińska", "sędzia główny"),
            "judge-1": ("Anna Nowak", "sędzia"),
            "judge-2": ("Jan Kowalski", "sędzia"),
        }
        stored = read_accounts(accounts)
        assert {n: (a.role, a.person) for n, a in stored.items()} == {
            "organizer": (WebRole.ORGANIZER, "Maria Zielińska"),
            "head-judge": (WebRole.HEAD_JUDGE, "Maria Zielińska"),
            "judge-1": (WebRole.JUDGE, "Anna Nowak"),
            "judge-2": (WebRole.JUDGE, "Jan Kowalski"),
        }
        assert accounts.stat().st_mode & 0o077 == 0 and not (state / CODE_FILE).exists()
        # once made, the page is gone and the home page no longer offers it
        again = client.post("/setup", data={"csrf": token, "code": code, **PEOPLE})
        assert again.status_code == 403 and client.get("/setup").status_code == 403
        assert 'href="/setup"' not in client.get("/").text
        assert first_start_code(accounts) is None
        # each signs in with what the page showed; the records name the person
        assert login(client, "head-judge", shown["head-judge"][2]).status_code == 303
        assert "Zalogowano: head-judge (sędzia główny)" in client.get("/").text
        assert login(client, "judge-1", shown["judge-1"][2]).status_code == 303
        given = post_form(client, "/judge/sanctions", "/judge/sanctions", player="P002",
                          kind="warning", why="głośne uwagi")  # fmt: skip
        assert given.status_code == 303
    assert "Anna Nowak" in hall.ok("sanction", "list")
