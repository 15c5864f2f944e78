"""Signing in to the web console: the accounts file, the login page, sessions that end
(logout, idle time, longest time), the CSRF check of every posted form, the role guard,
the login's rate limit and the cookies' flags.

Through the real application (Starlette's test client) on an event made by the
organizer's command line; an action of the test's own, guarded as the organizer's and
judges' pages are, changes the real event store through the same Organizer the command
line uses, so "nothing was stored" is read from the store itself.
"""

from __future__ import annotations

import re
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route
from starlette.testclient import TestClient
from test_cli_support import Cli
from test_web import TOPICS, text_of
from web_console import (
    WEB_ACCOUNTS,
    form_token,
    school_hall,
    signed_in,
    web_bundle_accounts,
)

from hub import credentials
from hub.config import HubConfigError, parse_hub_config, resolve
from hub.organizer import Organizer
from hub.store import HUB_SOURCE, EventStore
from hub.web.accounts import (
    WebAccountsError,
    WebRole,
    accounts_text,
    hash_password,
    new_password,
    parse_accounts,
    read_accounts,
    verify_password,
)
from hub.web.app import make_app
from hub.web.auth import START_PAGES, needs, posted_form
from hub.web.auth import signed_in as user_of
from hub.web.live import LiveTables
from hub.web.pages import Console, EventReader
from hub.web.rounds import HOME as ROUND_PAGE
from hub.web.serve import build_parser, web_settings
from hub.web.sessions import (
    ADDRESS_FAILURES,
    FIRST_WAIT,
    NAME_FAILURES,
    SESSION_COOKIE,
    Gate,
    LoginLimiter,
)


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def stored(db: Path) -> int:
    store = EventStore(db)
    try:
        mark = store.mark(HUB_SOURCE)
        return 0 if mark is None else mark.max_seq
    finally:
        store.close()


def console_app(db: Path, gate: Gate, base_url: str = "http://testserver") -> TestClient:
    """The console with a withdrawing action of the test's own, for the organizer only,
    and a page for the judges, guarded as the areas' pages are."""
    reader = EventReader(db)
    app = make_app(Console(reader, LiveTables(None, TOPICS, reader.version), gate=gate))

    @needs(WebRole.ORGANIZER)
    async def withdraw(request: Request) -> Response:
        form = await posted_form(request)
        user = user_of(request)
        assert user is not None
        organizer = Organizer(EventStore(db), by=user.name)
        try:
            organizer.withdraw(str(form["player"]), "test")
        finally:
            organizer.store.close()
        return PlainTextResponse("withdrawn")

    @needs(WebRole.JUDGE)
    def calls(request: Request) -> Response:
        return PlainTextResponse("the judges' page")

    pages = app.state.pages
    app.router.routes[:0] = [  # before the areas' own pages, which they stand in for
        Route("/organizer/withdraw", pages.guarded(withdraw), methods=["POST"]),
        Route("/judge", pages.guarded(calls), methods=["GET"]),
    ]
    return TestClient(app, base_url=base_url)


@pytest.fixture
def hall(tmp_path: Path) -> Cli:
    return school_hall(tmp_path / "event.sqlite3")


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def client(hall: Cli, clock: Clock) -> Iterator[TestClient]:
    gate = Gate(web_bundle_accounts(), idle=600, longest=3600, clock=clock)
    with console_app(hall.db, gate) as c:
        yield c


def login(client: TestClient, name: str, password: str, **extra: str) -> Any:
    token = form_token(client.get("/login").text)
    data = {"csrf": token, "name": name, "password": password, "next": "/"} | extra
    return client.post("/login", data=data, follow_redirects=False)


# --- the accounts file ---------------------------------------------------------------------


def test_a_password_verifies_against_its_hash_and_no_other() -> None:
    password = new_password()
    assert re.fullmatch(r"[a-z2-9]{4}(-[a-z2-9]{4}){3}", password)
    hashed = hash_password(password)
    assert hashed.startswith("scrypt$16384$8$1$") and password not in hashed
    assert verify_password(password, hashed)
    assert not verify_password(password.upper(), hashed)
    assert hash_password(password) != hashed  # a new salt each time
    for broken in ("", "scrypt$16384$8$1$x$y", "$7$101$abc$def", hashed.replace("$8$", "$0$")):
        assert not verify_password(password, broken)


def test_the_accounts_file_names_what_is_wrong() -> None:
    text = accounts_text([("organizer", WebRole.ORGANIZER, "a"), ("judge-1", WebRole.JUDGE, "b")])
    accounts = parse_accounts(text, "web-accounts.toml")
    assert {name: a.role for name, a in accounts.items()} == {
        "organizer": WebRole.ORGANIZER, "judge-1": WebRole.JUDGE,
    }
    with pytest.raises(WebAccountsError, match="there twice"):
        parse_accounts(text + text.split("\n\n", 1)[1], "web-accounts.toml")
    with pytest.raises(WebAccountsError, match=r"web-accounts\.toml: account"):
        parse_accounts('[[account]]\nname = "x"\nrole = "king"\nhash = "h"\n', "web-accounts.toml")
    with pytest.raises(WebAccountsError, match="not a scrypt hash"):
        parse_accounts('[[account]]\nname = "x"\nrole = "judge"\nhash = "h"\n', "web-accounts.toml")


# --- the login page ------------------------------------------------------------------------


def test_the_login_page_is_polish_with_a_label_on_every_input(client: TestClient) -> None:
    page = client.get("/login")
    assert page.status_code == 200
    assert "Zaloguj się" in text_of(page.text)
    for field in ("name", "password"):
        assert re.search(rf'<label for="{field}">[^<]+</label>', page.text), field
    english = client.get("/login", params={"lang": "en"})
    assert "Sign in" in text_of(english.text) and 'action="/login?lang=en"' in english.text


def test_the_home_page_leads_the_judge_and_the_organizer_to_the_login(client: TestClient) -> None:
    page = client.get("/").text
    assert 'href="/login?next=%2Fjudge">Sędzia</a>' in page
    assert 'href="/login?next=%2Forganizer">Organizator</a>' in page


def test_signing_in_shows_who_and_a_logout_button_on_every_page(client: TestClient) -> None:
    answer = login(client, "judge-1", WEB_ACCOUNTS["judge-1"][1], next="/judge")
    assert answer.status_code == 303 and answer.headers["location"] == "/judge"
    for path in ("/", "/standings", "/tables", "/login"):
        page = client.get(path)
        assert "Zalogowano: judge-1 (sędzia)" in text_of(page.text), path
        assert re.search(r'<form class="account" action="/logout" method="post">', page.text)
        assert 'name="csrf"' in page.text
    assert client.get("/judge").text == "the judges' page"


def test_a_wrong_password_and_an_unknown_name_get_the_same_answer(client: TestClient) -> None:
    wrong = login(client, "judge-1", "not-the-password")
    unknown = login(client, "judge-9", WEB_ACCOUNTS["judge-1"][1])
    assert wrong.status_code == unknown.status_code == 400
    said = [re.search(r'class="problem"[^>]*>([^<]+)<', a.text) for a in (wrong, unknown)]
    assert said[0] is not None and said[1] is not None
    assert said[0].group(1) == said[1].group(1) == "Błędna nazwa konta lub hasło."
    assert 'value="judge-1"' in wrong.text  # what was typed, but never the password
    assert "not-the-password" not in wrong.text
    assert SESSION_COOKIE not in client.cookies


def test_the_login_goes_nowhere_outside_the_console(client: TestClient) -> None:
    for elsewhere in ("//evil.example/", "https://evil.example/", "/\\evil.example"):
        answer = login(client, "organizer", WEB_ACCOUNTS["organizer"][1], next=elsewhere)
        assert answer.status_code == 303
        assert answer.headers["location"] == START_PAGES[WebRole.ORGANIZER], elsewhere


def test_a_login_form_from_elsewhere_is_refused(client: TestClient) -> None:
    """No login token in a cookie (a page of another site posting the form)."""
    answer = client.post(
        "/login",
        data={"csrf": "x" * 43, "name": "organizer", "password": WEB_ACCOUNTS["organizer"][1]},
        follow_redirects=False,
    )
    assert answer.status_code == 403 and SESSION_COOKIE not in client.cookies


# --- cookies and sessions ------------------------------------------------------------------


def test_the_session_cookie_is_httponly_strict_and_secure_over_https(hall: Cli) -> None:
    for base, secure in (("http://testserver", False), ("https://testserver", True)):
        with console_app(hall.db, Gate(web_bundle_accounts()), base) as c:
            answer = login(c, "organizer", WEB_ACCOUNTS["organizer"][1])
        cookie = next(
            v for k, v in answer.headers.multi_items()
            if k == "set-cookie" and v.startswith(SESSION_COOKIE)
        )
        flags = {part.strip().lower() for part in cookie.split(";")}
        assert {"httponly", "samesite=strict", "path=/"} <= flags
        assert ("secure" in flags) is secure, base


def test_a_session_cookie_replayed_after_logout_is_refused(client: TestClient) -> None:
    signed_in(client, WebRole.JUDGE)
    cookie = client.cookies[SESSION_COOKIE]
    page = client.get("/standings").text
    assert client.post("/logout", follow_redirects=False).status_code == 403  # no token
    assert client.get("/judge").status_code == 200  # still signed in
    answer = client.post("/logout", data={"csrf": form_token(page)}, follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"] == "/"
    assert SESSION_COOKIE not in client.cookies
    client.cookies.set(SESSION_COOKIE, cookie)  # the old cookie, replayed
    answer = client.get("/judge", follow_redirects=False)
    assert answer.status_code == 303
    assert answer.headers["location"] == "/login?next=%2Fjudge"
    assert "Zalogowano" not in client.get("/").text


def test_a_session_ends_after_its_idle_time_and_its_longest(
    client: TestClient, clock: Clock
) -> None:
    signed_in(client, WebRole.JUDGE)
    clock.now += 599
    assert client.get("/judge").status_code == 200  # a page: the idle time starts again
    clock.now += 599
    assert client.get("/judge").status_code == 200
    clock.now += 601
    assert client.get("/judge", follow_redirects=False).status_code == 303  # idle too long
    signed_in(client, WebRole.JUDGE)
    for _ in range(7):
        clock.now += 500
        assert client.get("/judge").status_code == 200
    clock.now += 101  # 3601 s since the login, never idle
    assert client.get("/judge", follow_redirects=False).status_code == 303


# --- forms and roles -----------------------------------------------------------------------


def test_a_forged_form_post_is_refused_and_stores_nothing(hall: Cli, client: TestClient) -> None:
    signed_in(client, WebRole.ORGANIZER)
    before = stored(hall.db)
    for data in ({"player": "P001"}, {"player": "P001", "csrf": "forged"}):
        answer = client.post("/organizer/withdraw", data=data)
        assert answer.status_code == 403
        assert "nic nie zmieniono" in text_of(answer.text)
        assert stored(hall.db) == before
    token = form_token(client.get("/").text)
    answer = client.post("/organizer/withdraw", data={"player": "P001", "csrf": token})
    assert answer.status_code == 200 and stored(hall.db) > before
    assert "P001" in hall.competition().event.withdrawn


def test_a_judge_calling_an_organizer_action_gets_403(hall: Cli, client: TestClient) -> None:
    signed_in(client, WebRole.JUDGE)
    token = form_token(client.get("/").text)
    before = stored(hall.db)
    answer = client.post("/organizer/withdraw", data={"player": "P001", "csrf": token})
    assert answer.status_code == 403
    assert "tylko organizator" in text_of(answer.text)
    assert stored(hall.db) == before
    english = client.post("/organizer/withdraw?lang=en", data={"player": "P001", "csrf": token})
    assert "only the organizer may do this" in text_of(english.text)


def test_the_organizer_may_open_a_judges_page(client: TestClient) -> None:
    signed_in(client, WebRole.ORGANIZER)
    assert client.get("/judge").text == "the judges' page"


def test_a_public_client_posting_anywhere_is_refused(hall: Cli, client: TestClient) -> None:
    for path in ("/", "/find", "/standings", "/tables", "/tables/1", "/live", "/states.css"):
        assert client.post(path, data={"q": "x"}).status_code == 405, path
    assert client.get("/logout").status_code == 405
    answer = client.post("/organizer/withdraw", data={"player": "P001"}, follow_redirects=False)
    assert answer.status_code == 403
    assert 'class="sign-in" href="/login?next=%2F">Zaloguj się</a>' in answer.text
    assert client.post("/logout", data={}).status_code == 403
    before = stored(hall.db)
    client.post("/organizer/withdraw", data={"player": "P002", "csrf": "x"})
    assert stored(hall.db) == before


# --- the login's rate limit ----------------------------------------------------------------


def test_failed_logins_make_the_next_wait_and_say_so(hall: Cli, clock: Clock) -> None:
    gate = Gate(web_bundle_accounts(), clock=clock)
    with (
        console_app(hall.db, gate) as near,
        TestClient(near.app, client=("10.0.0.99", 5000)) as far,
    ):
        for _ in range(ADDRESS_FAILURES):
            assert login(near, "organizer", "guess").status_code == 400
        answer = login(near, "organizer", WEB_ACCOUNTS["organizer"][1])  # right, but too soon
        assert answer.status_code == 429
        assert "Zbyt wiele nieudanych prób. Spróbuj za 30 s." in text_of(answer.text)
        assert SESSION_COOKIE not in near.cookies
        # another address is not held back by these failures
        assert login(far, "organizer", WEB_ACCOUNTS["organizer"][1]).status_code == 303
        clock.now += FIRST_WAIT
        assert login(near, "organizer", "guess").status_code == 400
        answer = login(near, "organizer", "guess")
        assert "Spróbuj za 60 s." in text_of(answer.text)  # the wait doubles
        clock.now += 2 * FIRST_WAIT
        assert login(near, "judge-1", WEB_ACCOUNTS["judge-1"][1]).status_code == 303


def test_a_names_failures_from_everywhere_spare_an_address_it_signed_in_from(
    clock: Clock,
) -> None:
    limiter = LoginLimiter(clock)
    limiter.succeeded("10.0.0.5", "judge-1")  # the judge's tablet, earlier
    for n in range(NAME_FAILURES):
        assert limiter.wait(f"10.0.1.{n}", "judge-1") == 0
        limiter.failed(f"10.0.1.{n}", "judge-1")
    assert limiter.wait("10.0.2.1", "judge-1") == FIRST_WAIT  # a new address waits
    assert limiter.wait("10.0.0.5", "judge-1") == 0  # the judge's own tablet does not
    assert limiter.wait("10.0.2.1", "judge-2") == 0  # nor another account
    clock.now += 3601
    assert limiter.wait("10.0.2.1", "judge-1") == 0  # forgotten after an hour


def test_the_accounts_file_and_session_times_come_from_the_settings(tmp_path: Path) -> None:
    config = tmp_path / "hub.toml"
    config.write_text(
        'db = "e.sqlite3"\n[web]\naccounts = "/etc/rummikub/web-accounts.toml"\n'
        "session_idle_minutes = 30\nsession_hours = 10\n"
    )
    env = {"RUMMIKUB_CONFIG": str(config)}
    args = build_parser().parse_args([])
    gate = web_settings(args, resolve("web", args, env)).gate()
    assert gate.accounts == Path("/etc/rummikub/web-accounts.toml")
    assert (gate.sessions.idle, gate.sessions.longest) == (1800, 36000)
    env["RUMMIKUB_WEB_ACCOUNTS"] = "/srv/accounts.toml"
    args = build_parser().parse_args(["--accounts", "mine.toml"])
    assert web_settings(args, resolve("web", args, env)).accounts == Path("mine.toml")
    args = build_parser().parse_args([])
    assert web_settings(args, resolve("web", args, env)).accounts == Path("/srv/accounts.toml")
    config.write_text("[web]\nsession_hours = 0\n")
    with pytest.raises(HubConfigError, match="session_hours: must be more than 0"):
        resolve("web", args, env)


# --- the credentials bundle's web accounts -------------------------------------------------


def make_bundle_at(out: Path, *args: str) -> dict[str, tuple[str, str]]:
    """``python -m hub.credentials`` into ``out``: accounts.tsv's name → (role, secret)."""
    argv = ["--tables", "2", "--venue", "hall", "--event", "cup", "--out", str(out), *args]
    assert credentials.main(argv) == 0
    rows = (out / "accounts.tsv").read_text().splitlines()[1:]
    return {name: (role, secret) for name, role, _, secret in (r.split("\t") for r in rows)}


def test_the_bundle_makes_web_accounts_whose_passwords_verify_and_a_rerun_keeps_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "bundle"
    first = make_bundle_at(out, "--judges", "3")
    assert "konsola WWW: organizator, sędzia główny i sędziowie (3)" in capsys.readouterr().out
    web = {n: v for n, v in first.items() if v[0].startswith("web-")}
    assert {n: role for n, (role, _) in web.items()} == {
        "organizer": "web-organizer", "head-judge": "web-head-judge", "judge-1": "web-judge",
        "judge-2": "web-judge", "judge-3": "web-judge",
    }  # fmt: skip
    accounts = read_accounts(out / "hub/web-accounts.toml")
    assert {n: a.role for n, a in accounts.items()} == {
        "organizer": WebRole.ORGANIZER, "head-judge": WebRole.HEAD_JUDGE,
        "judge-1": WebRole.JUDGE, "judge-2": WebRole.JUDGE, "judge-3": WebRole.JUDGE,
    }  # fmt: skip
    for name, (_, password) in web.items():
        assert verify_password(password, accounts[name].hash), name
        assert password not in (out / "hub/web-accounts.toml").read_text()
    assert not verify_password(web["judge-1"][1], accounts["judge-2"].hash)
    # the broker knows none of them
    passwd = (out / "mosquitto/rummikub.passwd").read_text()
    acl = (out / "mosquitto/rummikub.acl").read_text()
    for name in web:
        assert f"\n{name}:" not in f"\n{passwd}" and f"user {name}\n" not in acl
    hub = parse_hub_config((out / "hub/hub.toml").read_text())
    assert hub.web.accounts == "/var/lib/rummikub-hub/web-accounts.toml"
    assert (hub.web.session_idle_minutes, hub.web.session_hours) == (120, 16)
    assert oct(stat.S_IMODE((out / "hub/web-accounts.toml").stat().st_mode)) == "0o600"

    again = make_bundle_at(out, "--judges", "4")  # a rerun: the same passwords, one judge more
    assert {n: again[n] for n in web} == web
    accounts = read_accounts(out / "hub/web-accounts.toml")
    assert verify_password(web["judge-2"][1], accounts["judge-2"].hash)
    assert verify_password(again["judge-4"][1], accounts["judge-4"].hash)
    rotated = make_bundle_at(out, "--rotate")
    assert rotated["organizer"] != web["organizer"] and "judge-3" not in rotated


def test_a_bundles_organizer_signs_in_to_the_console(tmp_path: Path, hall: Cli) -> None:
    accounts = make_bundle_at(tmp_path / "bundle")
    with console_app(hall.db, Gate(tmp_path / "bundle/hub/web-accounts.toml")) as c:
        answer = login(c, "organizer", accounts["organizer"][1])
        assert answer.status_code == 303
        assert "Zalogowano: organizer (organizator)" in text_of(c.get("/").text)


# --- every area's forms and actions ---------------------------------------------------------


def test_every_post_form_of_a_template_carries_the_csrf_token() -> None:
    """Every area's forms: a posted form without ``{{ csrf_field() }}`` would be refused."""
    templates = Path(__file__).resolve().parents[1] / "hub/web/templates"
    missing = []
    for path in sorted(templates.glob("*.html")):
        text = path.read_text(encoding="utf-8")
        for form in re.findall(r"<form\b[^>]*>.*?</form>", text, re.S | re.I):
            if re.search(r'method="post"', form, re.I) and "csrf_field()" not in form:
                missing.append(path.name)
    assert missing == []


def test_no_action_of_any_area_answers_a_client_not_signed_in(
    hall: Cli, client: TestClient
) -> None:
    """Whatever routes the areas add: a POST (or PUT, PATCH, DELETE) from a public client
    is refused (403; 405 where the address takes no such method) and stores nothing."""
    before = stored(hall.db)
    tried = []
    for route in client.app.routes:  # type: ignore[attr-defined]
        methods = getattr(route, "methods", None) or set()
        path = re.sub(r"\{[^}]+\}", "1", getattr(route, "path", ""))
        for method in ({"POST", "PUT", "PATCH", "DELETE"} & methods):
            answer = client.request(method, path, data={"csrf": "forged", "player": "P001"},
                                    follow_redirects=False)
            assert answer.status_code in (403, 405), (method, path, answer.status_code)
            tried.append(path)
    assert {"/login", "/logout", "/organizer/withdraw"} <= set(tried)
    assert stored(hall.db) == before


def test_a_judge_posting_to_the_organizers_round_page_gets_403(hall: Cli) -> None:
    """A real organizer's action (hub.web.rounds): a judge's post, with the judge's own
    valid CSRF token, is refused and stores nothing; the organizer's is not refused."""
    reader = EventReader(hall.db)
    app = make_app(Console(reader, LiveTables(None, TOPICS, reader.version),
                           gate=Gate(web_bundle_accounts())))
    with TestClient(app) as judge, TestClient(app) as organizer:
        signed_in(judge, WebRole.JUDGE)
        refused = judge.get(ROUND_PAGE)
        assert refused.status_code == 403
        assert 'href="/login?next=%2Forganizer%2Fround">Zaloguj się jako inne konto</a>' in (
            refused.text
        )
        assert 'href="/judge">Sędzia</a>' in judge.get("/").text  # no login on the way
        token = form_token(judge.get("/judge").text)
        before = stored(hall.db)
        answer = judge.post(f"{ROUND_PAGE}/undo", data={"csrf": token, "why": "test"})
        assert answer.status_code == 403 and "tylko organizator" in text_of(answer.text)
        assert stored(hall.db) == before
        signed_in(organizer, WebRole.ORGANIZER)
        page = organizer.get(ROUND_PAGE)
        assert page.status_code == 200
        answer = organizer.post(f"{ROUND_PAGE}/undo", data={"csrf": form_token(page.text),
                                                            "why": "test"})
        assert answer.status_code != 403
    reader.close()


def test_a_sign_in_lasts_while_its_account_does(tmp_path: Path, hall: Cli) -> None:
    """The bundle made anew keeps a kept password's hash (nobody is signed out); a new
    password (--rotate) or an account no longer made ends its sessions at the next page."""
    out = tmp_path / "bundle"
    first = make_bundle_at(out, "--judges", "2")
    hashes = (out / "hub/web-accounts.toml").read_text()
    gate = Gate(out / "hub/web-accounts.toml")
    with console_app(hall.db, gate) as organizer, console_app(hall.db, gate) as judge:
        assert login(organizer, "organizer", first["organizer"][1]).status_code == 303
        assert login(judge, "judge-2", first["judge-2"][1]).status_code == 303
        make_bundle_at(out, "--judges", "2")  # made anew: the same passwords
        assert (out / "hub/web-accounts.toml").read_text() == hashes
        make_bundle_at(out, "--judges", "1")  # judge-2 is no more
        assert judge.get("/judge", follow_redirects=False).status_code == 303
        assert organizer.get("/judge").status_code == 200
        rotated = make_bundle_at(out, "--rotate")
        assert organizer.get("/judge", follow_redirects=False).status_code == 303
        assert login(organizer, "organizer", first["organizer"][1]).status_code == 400
        assert login(organizer, "organizer", rotated["organizer"][1]).status_code == 303


def test_the_login_says_when_the_console_has_no_accounts(hall: Cli) -> None:
    with console_app(hall.db, Gate(None)) as c:
        answer = login(c, "organizer", "whatever")
    assert answer.status_code == 503
    assert "konsola nie ma kont: klucz accounts w sekcji [web]" in text_of(answer.text)


def test_the_login_leads_back_to_a_page_with_its_numbers(client: TestClient) -> None:
    """``next`` may be any page of the console, one with a table's number in it too."""
    answer = login(client, "judge-1", WEB_ACCOUNTS["judge-1"][1], next="/judge/tables/2?x=1")
    assert answer.headers["location"] == "/judge/tables/2?x=1"
    answer = login(client, "judge-1", WEB_ACCOUNTS["judge-1"][1], next="/no/such/page")
    assert answer.headers["location"] == "/judge"  # a judge's start page
