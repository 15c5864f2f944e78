"""The web console as a Starlette application: every area's pages joined, with the
security headers on every answer.

A page works without JavaScript; one small script of the kit's own (``static/live.js``,
no build step) follows the server-sent events of ``/live`` and replaces what changed.
The areas: :mod:`hub.web.public` (no login, read-only), :mod:`hub.web.player` (a
player's own page, public too), :mod:`hub.web.auth` (login, logout; the guard the
other areas' pages use), :mod:`hub.web.judge` and :mod:`hub.web.judge_decisions` (the judges').
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Final

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from hub.web import (
    auth,
    first_start,
    hall_cards,
    judge,
    judge_decisions,
    organizer,
    player,
    players,
    public,
    rounds,
    rounds_exports,
    rounds_season,
)
from hub.web.pages import Console, PageError, Pages, http_error_text

HEADERS: Final = {
    "Content-Security-Policy": "default-src 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
"""On every answer: scripts and styles only from the console itself, never framed."""


def make_app(console: Console) -> Starlette:
    """The console's application over ``console`` (its live tables start and stop with
    the application)."""
    pages = Pages(console)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await console.live.start()
        try:
            yield
        finally:
            await console.live.stop()

    routes = [
        *public.routes(pages),
        *player.routes(pages),
        *auth.routes(pages),
        *first_start.routes(pages),
        *judge.routes(pages),
        *organizer.routes(pages),
        *rounds.routes(pages),
        *rounds_exports.routes(pages),
        *judge_decisions.routes(pages),
        *rounds_season.routes(pages),
        *hall_cards.routes(pages),
        *players.routes(pages),
        Mount("/static", StaticFiles(packages=[("hub.web", "static")]), name="static"),
    ]
    async def refused(request: Request, exc: Exception) -> Response:
        """The web server's own refusals (no such page, a method an address does not
        take, a form it cannot read) as a page of the console in the reader's language."""
        if isinstance(exc, PageError):
            return await run_in_threadpool(pages.render_error, request, exc)
        assert isinstance(exc, HTTPException)
        w = pages.words_or_default(request)
        err = PageError(exc.status_code, http_error_text(w, exc.status_code, exc.detail))
        page = await run_in_threadpool(pages.render_error, request, err)
        page.headers.update(exc.headers or {})
        return page

    app = Starlette(
        routes=routes, lifespan=lifespan,
        exception_handlers={HTTPException: refused, PageError: refused},
    )
    app.state.pages = pages  # hub.web.auth finds the sessions through it
    app.add_middleware(SecurityHeaders)
    return app


class SecurityHeaders:
    """Adds :data:`HEADERS` to every answer that does not set its own (a printout brings
    its own policy: its style sheet is inside it)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                own = {name for name, _ in headers}
                headers += [
                    (k.lower().encode(), v.encode())
                    for k, v in HEADERS.items()
                    if k.lower().encode() not in own
                ]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)
