"""Signing in to the web console: the login page, logout, who is signed in, the guard
of the organizer's and judges' pages, and the CSRF check of every posted form.

For the other areas:

* ``needs(WebRole.JUDGE)`` (or ``ORGANIZER``) around an endpoint, plain or async: nobody
  signed in → a GET goes to ``/login?next=<the page>`` (303), any other method gets 403;
  signed in without the role → 403, a page saying so. An organizer may do what a judge may.
* ``signed_in(request)``: the :class:`WebUser` (``.name``, ``.role``) or None; every
  template gets it as ``user`` (:meth:`hub.web.pages.Pages.render`).
* ``await posted_form(request)``: the posted form once its CSRF token (``{{ csrf_field()
  }}`` in every form) is the session's; else :class:`PageError` 403, and nothing was done.
  The same field gives the form a one-time token: a form sent again gets 409, and
  nothing is done a second time.

The session's cookie is HttpOnly and SameSite=Strict, and Secure when the page came over
HTTPS (the request's scheme), so the console works with and without HTTPS. The login
form, before any session exists, carries a token of its own that a cookie repeats
(a double-submit token): a page of another site cannot sign a browser in either.
"""

from __future__ import annotations

import functools
import inspect
import secrets
from collections.abc import Awaitable, Callable
from typing import Final, cast
from urllib.parse import urlencode, urlsplit

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Match, Route

from hub.web.accounts import WebRole, WebUser
from hub.web.pages import (
    CSRF_FIELD,
    ONCE_FIELD,
    Endpoint,
    PageError,
    Pages,
    csrf_input,
    form_error_text,
)
from hub.web.sessions import SESSION_COOKIE, Refused, Session
from tablekit.core.words import N_

__all__ = ["WebRole", "WebUser", "needs", "posted_form", "routes", "signed_in"]

LOGIN_COOKIE: Final = "rummikub_login"
"""The login form's own CSRF token, repeated in this cookie (no session exists yet)."""
START_PAGES: Final = {
    WebRole.JUDGE: "/judge", WebRole.HEAD_JUDGE: "/judge", WebRole.ORGANIZER: "/organizer"
}
"""Where the home page's "Judge" and "Organizer" lead, through the login."""
READING: Final = frozenset({"GET", "HEAD"})


def _pages(request: Request) -> Pages:
    pages = getattr(request.app.state, "pages", None)
    if not isinstance(pages, Pages):
        raise RuntimeError("the console's application (hub.web.app.make_app) sets its pages")
    return pages


def session_of(request: Request) -> Session | None:
    return _pages(request).session(request)


def signed_in(request: Request) -> WebUser | None:
    """Who is signed in on this request (None: nobody)."""
    session = session_of(request)
    return None if session is None else session.user


def needs(role: WebRole) -> Callable[[Endpoint], Endpoint]:
    """An endpoint (plain or async) only for ``role`` (an organizer may do what a judge
    may): see the module's note for what the others get."""

    def refusal(request: Request) -> Response | None:
        user = signed_in(request)
        if user is not None and user.role.may(role):
            return None
        pages = _pages(request)
        w = pages.words(request)
        if user is None and request.method in READING:
            return RedirectResponse(login_url(request, request_path(request)), 303)
        target = request_path(request) if request.method in READING else "/"
        sign_in = login_url(request, target)
        if user is None:
            message = w.gettext("Sign in first: this page is for the organizer and the judges.")
        elif role is WebRole.HEAD_JUDGE:
            message = w.gettext(
                "Signed in as {name}: only the head judge records this decision (the "
                "head judge's account)."
            ).format(name=user.name)
        elif role is WebRole.ORGANIZER:
            message = w.gettext(
                "Signed in as {name} (judge): only the organizer may do this."
            ).format(name=user.name)
        else:
            message = w.gettext("Signed in as {name}: this page is for the judges.").format(
                name=user.name
            )
        return pages.render_error(request, PageError(403, message), sign_in)

    def guard(endpoint: Endpoint) -> Endpoint:
        if inspect.iscoroutinefunction(endpoint):
            asynchronous = cast(Callable[[Request], Awaitable[Response]], endpoint)

            @functools.wraps(asynchronous)
            async def guarded_async(request: Request) -> Response:
                refused = refusal(request)
                return refused if refused is not None else await asynchronous(request)

            return guarded_async
        plain = cast(Callable[[Request], Response], endpoint)

        @functools.wraps(plain)
        def guarded(request: Request) -> Response:
            refused = refusal(request)
            return refused if refused is not None else plain(request)

        return guarded

    return guard


FORGED: Final = N_(
    "This form was not sent from your open page of the console (or your sign-in has "
    "ended): nothing was changed. Open the page again and send the form anew."
)
SENT_BEFORE: Final = N_(
    "This form was already sent (or its page is too old): it was not stored a second "
    "time. Open the page again to see what is stored, and send a new form if something "
    "is still to change."
)


def refused_form(request: Request, status: int, why: str) -> PageError:
    """A posted form refused before anything was done, ``why`` in the reader's words."""
    return PageError(status, _pages(request).words(request).gettext(why))


FIELD_MOST: Final = 1000
"""Characters a form's text field may carry at most: above every form's own limit (a
browser keeps to a field's ``maxlength``), so only a hand-made request meets it; what
one account can make the console store stays bounded."""
FIELDS_MOST: Final = 2500
"""Fields a form may carry at most (a check-in of the most players a file may hold)."""


async def posted_form(request: Request) -> FormData:
    """The posted form, once its CSRF token is the session's; :class:`PageError` 403
    otherwise (no session, no token or another one), 400 for a form the console does not
    read (a field longer than :data:`FIELD_MOST` characters, more than
    :data:`FIELDS_MOST` fields). A form the console rendered also carries a one-time
    token: sent again (a second click, the browser's back and send again), it is refused
    with 409 and nothing is done a second time."""
    try:
        form = await request.form(max_fields=FIELDS_MOST)
    except HTTPException as err:
        w = _pages(request).words_or_default(request)
        raise PageError(err.status_code, form_error_text(w, err.detail)) from None
    longest = max((len(v) for v in form.values() if isinstance(v, str)), default=0)
    if longest > FIELD_MOST:
        w = _pages(request).words(request)
        raise PageError(400, w.gettext(
            "A field of the form has {n} characters; the console takes at most {most}: "
            "shorten it and send the form again."
        ).format(n=longest, most=FIELD_MOST))
    session = session_of(request)
    token = form.get(CSRF_FIELD)
    if (
        session is None
        or not isinstance(token, str)
        or not secrets.compare_digest(token.encode(), session.csrf.encode())
    ):
        raise refused_form(request, 403, FORGED)
    once = form.get(ONCE_FIELD)
    if isinstance(once, str) and not session.spend_form(once):
        raise refused_form(request, 409, SENT_BEFORE)
    return form


def request_path(request: Request) -> str:
    query = request.url.query
    return f"{request.url.path}?{query}" if query else request.url.path


def safe_next(target: str) -> str:
    """``target`` if it is a page of this console (a path), else ``/``: the login never
    sends a browser to another site."""
    parts = urlsplit(target)
    if (
        not target.startswith("/")
        or target.startswith("//")
        or "\\" in target
        or parts.scheme
        or parts.netloc
    ):
        return "/"
    return target


def login_url(request: Request, target: str) -> str:
    params = {"next": target}
    lang = request.query_params.get("lang")
    if lang:
        params["lang"] = lang
    return f"/login?{urlencode(params)}"


def _routed(request: Request, target: str) -> bool:
    """Whether some page of the console answers a GET of ``target``."""
    scope = {"type": "http", "method": "GET", "path": urlsplit(target).path}
    return any(route.matches(scope)[0] is Match.FULL for route in request.app.routes)


def cookie_options(request: Request) -> dict[str, object]:
    return {"httponly": True, "samesite": "strict", "secure": request.url.scheme == "https"}


def routes(pages: Pages) -> list[BaseRoute]:
    gate = pages.console.gate

    def login_page(
        request: Request,
        token: str,
        target: str,
        *,
        name: str = "",
        problem: str = "",
        status: int = 200,
    ) -> Response:
        response = pages.render(
            request, "auth_login.html", status, name=name, problem=problem, target=target,
            csrf_field=lambda: csrf_input(token),
        )  # fmt: skip
        response.set_cookie(LOGIN_COOKIE, token, path="/login", **cookie_options(request))  # type: ignore[arg-type]
        return response

    def login_form(request: Request) -> Response:
        target = safe_next(request.query_params.get("next", "/"))
        return login_page(request, request.cookies.get(LOGIN_COOKIE) or new_token(), target)

    async def login(request: Request) -> Response:
        form = await request.form()
        token, cookie = form.get(CSRF_FIELD), request.cookies.get(LOGIN_COOKIE)
        if (
            not isinstance(token, str)
            or not cookie
            or not secrets.compare_digest(token.encode(), cookie.encode())
        ):
            raise refused_form(request, 403, FORGED)
        name, password = str(form.get("name", ""))[:64], str(form.get("password", ""))[:256]
        target = safe_next(str(form.get("next", "/")))
        address = request.client.host if request.client is not None else ""
        # scrypt takes a while (half a second on a Pi Zero): not in the event loop, which
        # keeps every open page's live stream going
        outcome = await run_in_threadpool(gate.login, address, name, password)
        w = pages.words(request)
        if isinstance(outcome, Refused):
            if outcome.wait > 0:
                problem = w.gettext("Too many failed attempts. Try again in {seconds} s.").format(
                    seconds=max(1, round(outcome.wait))
                )
                return login_page(request, cookie, target, name=name, problem=problem, status=429)
            if outcome.problem is not None:
                return login_page(request, cookie, target, name=name, status=503,
                                  problem=outcome.problem.message(w.gettext))
            problem = w.gettext("Wrong account name or password.")
            return login_page(request, cookie, target, name=name, problem=problem, status=400)
        session_token, session = outcome
        gate.sessions.close(request.cookies.get(SESSION_COOKIE))  # one before: ended
        if target == "/" or not _routed(request, target):
            start = START_PAGES[session.user.role]
            target = start if _routed(request, start) else "/"
        response = RedirectResponse(target, 303)
        response.set_cookie(
            SESSION_COOKIE, session_token, path="/", max_age=int(gate.sessions.longest),
            **cookie_options(request),  # type: ignore[arg-type]
        )  # fmt: skip
        response.delete_cookie(LOGIN_COOKIE, path="/login")
        return response

    async def logout(request: Request) -> Response:
        await posted_form(request)
        gate.sessions.close(request.cookies.get(SESSION_COOKIE))
        lang = request.query_params.get("lang")
        response = RedirectResponse(f"/?{urlencode({'lang': lang})}" if lang else "/", 303)
        response.delete_cookie(SESSION_COOKIE, path="/", **cookie_options(request))  # type: ignore[arg-type]
        return response

    return [
        Route("/login", pages.guarded(login_form), methods=["GET"]),
        Route("/login", pages.guarded(login), methods=["POST"]),
        Route("/logout", pages.guarded(logout), methods=["POST"]),
    ]


def new_token() -> str:
    return secrets.token_urlsafe(32)
