"""The console's first start, in the browser: while its accounts file has no organizer's
account, a one-time page (``/setup``) creates the organizer's, the head judge's and the
judges' accounts, each beside the name of the person it is for, in that file (``[web]
accounts``: the hub's state folder on a hub Pi, which the console may write). The page
asks for a code the console wrote beside the file (``first-start-code``) when it
started and printed to its log; the code is gone, and the page with it, once the
accounts are made. The passwords are new ones (:func:`hub.web.accounts.new_password`),
shown once on the page that follows, to print or write down.
"""

from __future__ import annotations

import os
import secrets
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from hub.first_start import CODE_FILE
from hub.web.accounts import (
    WebRole,
    accounts_text,
    first_start_code,
    new_password,
)
from hub.web.auth import FORGED, cookie_options, new_token, refused_form
from hub.web.pages import CSRF_FIELD, PageError, Pages, csrf_input
from tablekit.core.errors import KitError, Phrase
from tablekit.core.words import N_

SETUP_COOKIE: Final = "rummikub_setup"
"""The page's own CSRF token, repeated in this cookie (nobody is signed in yet)."""
MAX_JUDGES: Final = 30
MAX_PERSON: Final = 80
"""The longest name of a person (the players' names have the same limit)."""


class FirstStartError(KitError, ValueError):
    """What was typed on the first start's page cannot make the accounts."""


@dataclass(frozen=True)
class NewAccount:
    name: str
    role: WebRole
    person: str
    password: str


def person_name(text: str, what: Phrase) -> str:
    """A person's name as typed, spaces tidied; FirstStartError naming ``what``."""
    name = " ".join(text.split())
    if not name:
        raise FirstStartError(N_("{what}: write the person's given name and surname"), what=what)
    if len(name) > MAX_PERSON or any(unicodedata.category(c)[0] == "C" for c in name):
        raise FirstStartError(
            N_("{what}: a name of at most {most} letters, spaces and hyphens"),
            what=what, most=MAX_PERSON,
        )  # fmt: skip
    return name


def new_accounts(organizer: str, head_judge: str, judges: Sequence[str]) -> list[NewAccount]:
    """The accounts for the people named: ``organizer``, ``head-judge``, ``judge-1`` …"""
    named = [line for line in judges if line.strip()]
    if len(named) > MAX_JUDGES:
        raise FirstStartError(N_("at most {most} judges"), most=MAX_JUDGES)
    people = [
        ("organizer", WebRole.ORGANIZER, person_name(organizer, Phrase(N_("the organizer")))),
        ("head-judge", WebRole.HEAD_JUDGE,
         person_name(head_judge, Phrase(N_("the head judge")))),
    ]  # fmt: skip
    people += [
        (f"judge-{i}", WebRole.JUDGE, person_name(line, Phrase(N_("a judge"))))
        for i, line in enumerate(named, start=1)
    ]
    return [NewAccount(name, role, person, new_password()) for name, role, person in people]


def write_accounts(path: Path, accounts: Sequence[NewAccount]) -> None:
    """The accounts file at ``path`` (readable by the console's user alone), then the
    first start's code removed: the page is not offered again."""
    text = accounts_text(
        ((a.name, a.role, a.password) for a in accounts),
        people={a.name: a.person for a in accounts},
    )
    written = path.with_name(f".{path.name}.new")
    descriptor = os.open(written, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as out:
        out.write(text)
        out.flush()
        os.fsync(out.fileno())
    os.replace(written, path)
    path.with_name(CODE_FILE).unlink(missing_ok=True)


def routes(pages: Pages) -> list[BaseRoute]:
    gate = pages.console.gate

    def accounts_file(request: Request) -> Path:
        if gate.accounts is None or first_start_code(gate.accounts) is None:
            w = pages.words(request)
            raise PageError(403, w.gettext("The accounts are made: sign in with yours."))
        return gate.accounts

    def page(request: Request, token: str, *, typed: dict[str, str] | None = None,
             problem: str = "", status: int = 200) -> Response:  # fmt: skip
        response = pages.render(
            request, "first_start.html", status, typed=typed or {}, problem=problem,
            most=MAX_JUDGES, csrf_field=lambda: csrf_input(token),
        )  # fmt: skip
        response.set_cookie(SETUP_COOKIE, token, path="/setup", **cookie_options(request))  # type: ignore[arg-type]
        return response

    def setup_form(request: Request) -> Response:
        accounts_file(request)
        return page(request, request.cookies.get(SETUP_COOKIE) or new_token())

    async def setup(request: Request) -> Response:
        path = accounts_file(request)
        form = await request.form()
        token, cookie = form.get(CSRF_FIELD), request.cookies.get(SETUP_COOKIE)
        if (
            not isinstance(token, str)
            or not cookie
            or not secrets.compare_digest(token.encode(), cookie.encode())
        ):
            raise refused_form(request, 403, FORGED)
        typed = {k: str(form.get(k, ""))[:4000] for k in ("code", "organizer", "head_judge",
                                                          "judges")}  # fmt: skip
        w = pages.words(request)
        address = request.client.host if request.client is not None else ""
        wait = gate.limiter.wait(address, CODE_FILE)
        if wait > 0:
            problem = w.gettext("Too many failed attempts. Try again in {seconds} s.")
            return page(request, cookie, typed=typed, status=429,
                        problem=problem.format(seconds=max(1, round(wait))))  # fmt: skip
        code = first_start_code(path) or ""
        if not secrets.compare_digest(typed["code"].strip().encode(), code.encode()):
            gate.limiter.failed(address, CODE_FILE)
            problem = w.gettext("Wrong code: type the one the hub screen or the console's "
                                "log shows.")  # fmt: skip
            return page(request, cookie, typed=typed, problem=problem, status=400)
        try:
            made = new_accounts(typed["organizer"], typed["head_judge"],
                                typed["judges"].splitlines())  # fmt: skip
        except FirstStartError as err:
            return page(request, cookie, typed=typed, problem=err.message(w.gettext), status=400)
        write_accounts(path, made)
        response = pages.render(request, "first_start_done.html", accounts=made)
        response.delete_cookie(SETUP_COOKIE, path="/setup")
        response.headers["Cache-Control"] = "no-store"  # the passwords: never kept
        return response

    return [
        Route("/setup", pages.guarded(setup_form), methods=["GET"]),
        Route("/setup", pages.guarded(setup), methods=["POST"]),
    ]
