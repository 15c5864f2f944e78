"""The organizer's desk: one landing page (``/organizer``) leading to every area of the
organizer's pages (the round and its exports: :mod:`hub.web.rounds`), and what they share:
the organizer's guard and the event they act on."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from hub.competition import Competition
from hub.web.auth import WebRole, needs
from hub.web.pages import Endpoint, PageError, Pages


def organizer_page(pages: Pages, endpoint: Endpoint) -> Endpoint:
    """``endpoint`` (plain or async) for the organizer alone (:func:`hub.web.auth.needs`),
    its :class:`~hub.web.pages.PageError` shown as a page."""
    return pages.guarded(needs(WebRole.ORGANIZER)(endpoint))


def the_event(pages: Pages, request: Request) -> Competition:
    """The event as stored now; :class:`~hub.web.pages.PageError` 404 before it is
    created."""
    comp = pages.console.reader.competition()
    if comp is None or comp.created is None:
        w = pages.words(request)
        raise PageError(404, w.gettext("There is no event yet: create it first."))
    return comp


def routes(pages: Pages) -> list[BaseRoute]:
    def home(request: Request) -> Response:
        return pages.render(request, "organizer_home.html")

    return [Route("/organizer", organizer_page(pages, home), methods=["GET"])]
