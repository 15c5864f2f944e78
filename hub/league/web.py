"""The central's web pages (``rummikub-league serve --web``): every venue's tournaments
as their public pages show them, the season table and each person's season, read-only
and without a login, following the results as they arrive (a page's ``/live`` stream
says when the league store changed; the page fetches itself again). The same pages are
written as a static site (:mod:`hub.league.site`).

Two kinds of account sign in (``central/web-accounts.toml`` of ``rummikub-league
venues``): the **league organizer** answers the name questions (the same person, or
somebody else) and reads every venue's data; a **local partner** reads only their own
venue's: its tournaments with the names as stored (not as the public reads them), what
the central holds of each and the records themselves. A partner asking for another
venue's data gets 403.
"""

from __future__ import annotations

import asyncio
import secrets
import threading
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any, Final

import msgspec
from markupsafe import Markup
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from hub.league.central import Central
from hub.league.identity import IdentityError
from hub.league.pages import (
    Links,
    grids_markup,
    home_page,
    page_html,
    person_page,
    season_page,
    tournament_page,
)
from hub.league.views import SeasonView, Tournament, TournamentView, season_view
from hub.web.accounts import WebRole, WebUser
from hub.web.app import SecurityHeaders
from hub.web.pages import event_text, reader_language
from hub.web.sessions import SESSION_COOKIE, Gate, Refused, Session
from tablekit.shared.i18n import words

LOGIN_COOKIE: Final = "league_login"
LOOK_EVERY: Final = 1.0
"""Seconds between two looks at the league store by an open page's stream."""
KEEPALIVE: Final = 15.0


@dataclass
class CentralSite:
    """What the pages read: the central (its store, its rules), who may sign in, and
    ``changed``, called after the league organizer answered a question (the season is
    then sent to the venues again)."""

    central: Central
    gate: Gate
    changed: Callable[[], None] = lambda: None


class Snapshots:
    """The season as the pages show it, made once per state of the league store."""

    def __init__(self, central: Central) -> None:
        self.central = central
        self._lock = threading.Lock()
        self._kept: tuple[tuple[int, int], list[Tournament], SeasonView] | None = None

    def stamp(self) -> tuple[int, int]:
        return (self.central.store.version(), len(self.central.store.decisions()))

    def now(self) -> tuple[list[Tournament], SeasonView]:
        with self._lock:
            stamp = self.stamp()
            if self._kept is None or self._kept[0] != stamp:
                tournaments = self.central.tournaments()
                season = self.central.season()
                view = season_view(tournaments, season, self.central.ticket_holders)
                self._kept = (stamp, tournaments, view)
            return self._kept[1], self._kept[2]


def make_central_app(site: CentralSite) -> Starlette:
    central = site.central
    snapshots = Snapshots(central)
    league = central.title

    def session_of(request: Request) -> Session | None:
        return site.gate.session(request.cookies.get(SESSION_COOKIE))

    def page(request: Request, html: str, status: int = 200) -> HTMLResponse:
        return HTMLResponse(html, status_code=status)

    def links(request: Request, here: str) -> Links:
        return Links(reader_language(request), here=here)

    def extra(request: Request) -> dict[str, Any]:
        session = session_of(request)
        if session is None:
            return {}
        token = session.csrf
        return {"user": session.user, "csrf_field": lambda: _hidden("csrf", token)}

    def refused(request: Request, status: int, message: str, here: str = "") -> HTMLResponse:
        html = page_html("league_message.html", links(request, here), league=league,
                      message=message, **extra(request))
        return page(request, html, status)

    async def home(request: Request) -> Response:
        _, season = await run_in_threadpool(snapshots.now)
        return page(request, home_page(season, links(request, ""), league, **extra(request)))

    async def season_(request: Request) -> Response:
        _, season = await run_in_threadpool(snapshots.now)
        html = season_page(season, links(request, "season"), league, **extra(request))
        return page(request, html)

    async def tournament(request: Request) -> Response:
        _, season = await run_in_threadpool(snapshots.now)
        name = request.path_params["page"]
        here = f"t/{name}"
        view = next((t for t in season.tournaments if t.page == name), None)
        if view is None:
            w = words(reader_language(request))
            return refused(request, 404, w.gettext("No such tournament."), here)
        html = await run_in_threadpool(
            tournament_page, season, view, links(request, here), league, **extra(request)
        )
        return page(request, html)

    async def person(request: Request) -> Response:
        _, season = await run_in_threadpool(snapshots.now)
        slug = request.path_params["slug"]
        here = f"people/{slug}"
        if season.line(slug) is None:
            w = words(reader_language(request))
            return refused(request, 404, w.gettext("No such player in the season table."), here)
        return page(request, person_page(season, slug, links(request, here), league,
                                         **extra(request)))

    async def live(request: Request) -> Response:
        return StreamingResponse(_changes(snapshots), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache"})

    # -- signing in ----------------------------------------------------------------------

    def login_form(request: Request, problem: str = "", status: int = 200) -> Response:
        token = request.cookies.get(LOGIN_COOKIE) or secrets.token_urlsafe(32)
        html = page_html("league_login.html", links(request, "login"), league=league,
                      problem=problem, csrf_field=lambda: _hidden("csrf", token))
        response = page(request, html, status)
        response.set_cookie(LOGIN_COOKIE, token, path="/login", httponly=True,
                            samesite="strict", secure=request.url.scheme == "https")
        return response

    async def login(request: Request) -> Response:
        form = await request.form()
        token, cookie = form.get("csrf"), request.cookies.get(LOGIN_COOKIE)
        w = words(reader_language(request))
        if not isinstance(token, str) or not cookie or not secrets.compare_digest(token, cookie):
            return login_form(request, w.gettext("Open the page again and sign in anew."), 403)
        name, password = str(form.get("name", ""))[:64], str(form.get("password", ""))[:256]
        address = request.client.host if request.client is not None else ""
        outcome = await run_in_threadpool(site.gate.login, address, name, password)
        if isinstance(outcome, Refused):
            if outcome.wait > 0:
                text = w.gettext("Too many failed attempts. Try again in {seconds} s.").format(
                    seconds=max(1, round(outcome.wait)))
                return login_form(request, text, 429)
            if outcome.problem is not None:
                return login_form(request, outcome.problem.message(w.gettext), 503)
            return login_form(request, w.gettext("Wrong account name or password."), 400)
        session_token, session = outcome
        user = session.user
        if user.role not in (WebRole.LEAGUE, WebRole.PARTNER):
            site.gate.sessions.close(session_token)
            return login_form(request, w.gettext("Wrong account name or password."), 400)
        start = "league" if user.role is WebRole.LEAGUE else f"partner/{user.venue}"
        response = RedirectResponse(Links(reader_language(request)).url(start), 303)
        response.set_cookie(SESSION_COOKIE, session_token, path="/", httponly=True,
                            samesite="strict", secure=request.url.scheme == "https",
                            max_age=int(site.gate.sessions.longest))
        return response

    async def logout(request: Request) -> Response:
        if await checked(request) is not None:
            site.gate.sessions.close(request.cookies.get(SESSION_COOKIE))
        response = RedirectResponse(Links(reader_language(request)).url(""), 303)
        response.delete_cookie(SESSION_COOKIE, path="/")
        return response

    async def checked(request: Request) -> dict[str, str] | None:
        """The posted form when its token is the session's, else None."""
        form = await request.form()
        session = session_of(request)
        token = form.get("csrf")
        if session is None or not isinstance(token, str):
            return None
        if not secrets.compare_digest(token, session.csrf):
            return None
        return {k: v for k, v in form.items() if isinstance(v, str)}

    def signed(request: Request, role: WebRole, venue: str = "") -> WebUser | Response:
        """The signed-in user who may read this (a partner: their own venue), else the
        page that says why."""
        session = session_of(request)
        w = words(reader_language(request))
        if session is None:
            return RedirectResponse(Links(reader_language(request)).url("login"), 303)
        user = session.user
        if not user.role.may(role) or (user.role is WebRole.PARTNER and user.venue != venue):
            return refused(request, 403, w.gettext(
                "Signed in as {name}: this page is another venue's or the league organizer's."
            ).format(name=user.name))
        return user

    # -- the league organizer ------------------------------------------------------------

    async def organizer(request: Request) -> Response:
        user = signed(request, WebRole.LEAGUE)
        if not isinstance(user, WebUser):
            return user
        season = await run_in_threadpool(central.season)
        names = {t.key: t.name for t in season.tournaments}
        html = page_html("league_organizer.html", links(request, "league"), league=league,
                      questions=season.identities.questions, names=names,
                      venues=sorted({m.venue for m in central.store.marks()}),
                      conflicts=central.store.conflict_count(),
                      done=request.query_params.get("done"), **extra(request))
        return page(request, html)

    async def answer(request: Request) -> Response:
        user = signed(request, WebRole.LEAGUE)
        if not isinstance(user, WebUser):
            return user
        form = await checked(request)
        w = words(reader_language(request))
        if form is None:
            return refused(request, 403, w.gettext(
                "This form was not sent from your open page: nothing was changed."))
        try:
            await run_in_threadpool(central.decide, form.get("entry", ""),
                                    form.get("same_as", ""), user.name)
        except IdentityError as err:
            return refused(request, 400, err.message(w.gettext), "league")
        site.changed()
        return RedirectResponse(Links(reader_language(request)).url("league", done="1"), 303)

    # -- a local partner -----------------------------------------------------------------

    async def partner(request: Request) -> Response:
        venue = request.path_params["venue"]
        user = signed(request, WebRole.PARTNER, venue)
        if not isinstance(user, WebUser):
            return user
        tournaments, _ = await run_in_threadpool(snapshots.now)
        here = f"partner/{venue}"
        w = words(reader_language(request))
        own = [t for t in tournaments if t.venue == venue]
        full = [
            (t, central.store.mark(t.venue, t.event), grids_markup(_as_stored(t), w))
            for t in own
        ]
        html = page_html("league_partner.html", links(request, here), league=league, venue=venue,
                      tournaments=full, **extra(request))
        return page(request, html)

    async def records(request: Request) -> Response:
        venue, event = request.path_params["venue"], request.path_params["event"]
        user = signed(request, WebRole.PARTNER, venue)
        if not isinstance(user, WebUser):
            return user
        rows = await run_in_threadpool(central.store.records, venue, event)
        body = b"".join(msgspec.json.encode(row) + b"\n" for row in rows)
        return Response(body, media_type="application/x-ndjson", headers={
            "Content-Disposition": f'attachment; filename="{venue}-{event}.jsonl"'})

    routes = [
        Route("/", home, methods=["GET"]),
        Route("/season", season_, methods=["GET"]),
        Route("/t/{page}", tournament, methods=["GET"]),
        Route("/people/{slug}", person, methods=["GET"]),
        Route("/live", live, methods=["GET"]),
        Route("/login", login_form, methods=["GET"]),
        Route("/login", login, methods=["POST"]),
        Route("/logout", logout, methods=["POST"]),
        Route("/league", organizer, methods=["GET"]),
        Route("/league/answer", answer, methods=["POST"]),
        Route("/partner/{venue}", partner, methods=["GET"]),
        Route("/partner/{venue}/{event}/records.jsonl", records, methods=["GET"]),
        Mount("/static", StaticFiles(packages=[("hub.web", "static")]), name="static"),
    ]
    app = Starlette(routes=routes)
    app.add_middleware(SecurityHeaders)
    return app


def _as_stored(t: Tournament) -> TournamentView:
    """A tournament with the names as stored (a partner's and the league's own view)."""
    comp = t.competition
    phase = comp.event.phase if comp.state is not None else None
    return TournamentView(t.venue, t.event, t.name, phase, comp, t.counted is not None)


def _hidden(name: str, value: str) -> Markup:
    return Markup('<input type="hidden" name="{}" value="{}">').format(name, value)


async def _changes(snapshots: Snapshots) -> AsyncIterator[str]:
    """An open page's stream: ``changed`` whenever the league store changed."""
    yield "retry: 3000\n\n"
    yield event_text("link", {"live": True})
    seen = await asyncio.to_thread(snapshots.stamp)
    quiet = 0.0
    while True:
        await asyncio.sleep(LOOK_EVERY)
        stamp = await asyncio.to_thread(snapshots.stamp)
        if stamp != seen:
            seen = stamp
            quiet = 0.0
            yield event_text("changed", {})
            continue
        quiet += LOOK_EVERY
        if quiet >= KEEPALIVE:
            quiet = 0.0
            yield ": still here\n\n"

