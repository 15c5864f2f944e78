"""The tables' SD cards on the web console: the organizer gives the venue's Wi-Fi (and an
SSH key, if any) and downloads one zip with every table's card folder — what
``rummikub hall cards`` writes for the tables, made by the same functions
(:mod:`hub.cards`) from the tables' own files installed on the hub (``[web] cards``).

The zip holds every table's broker secret: it is the organizer's alone, never cached,
and the Wi-Fi password typed is put into the cards only, never kept by the console.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from hub.cards import CardError, CardSettings, read_units, table_cards, zip_of
from hub.web.auth import posted_form, session_of
from hub.web.organizer import organizer_page
from hub.web.pages import PageError, Pages, csrf_input
from hub.web.rounds_exports import download

PAGE = "/organizer/cards"
ZIP_NAME = "karty-stolikow.zip"
FIELDS = ("wifi", "wifi_password", "wifi_country", "ssh_key", "host")


def _text(form: FormData, name: str, default: str = "") -> str:
    value = form.get(name)
    return value.strip() if isinstance(value, str) and value.strip() else default


def card_settings(form: FormData) -> CardSettings:
    """The form's settings; :class:`CardError` naming one no Pi can use."""
    password = form.get("wifi_password")
    return CardSettings(
        wifi_ssid=_text(form, "wifi"),
        wifi_password=password if isinstance(password, str) else "",
        wifi_country=_text(form, "wifi_country", "PL"),
        ssh_key=_text(form, "ssh_key"),
        hub_host=_text(form, "host", "hub.local"),
    )


def routes(pages: Pages) -> list[BaseRoute]:
    console = pages.console

    def units() -> dict[str, dict[str, str]] | None:
        folder: Path | None = console.cards
        return None if folder is None or not folder.is_dir() else read_units(folder)

    def page(
        request: Request, status: int = 200, problem: str = "", typed: dict[str, str] | None = None
    ) -> Response:
        session = session_of(request)
        # A download leaves the page where it is: the same form may be sent again.
        field: Callable[[], object] = lambda: csrf_input("" if session is None else session.csrf)  # noqa: E731
        return pages.render(
            request, "hall_cards.html", status, tables=units(), problem=problem,
            typed=typed or {}, csrf_field=field,
        )

    def show(request: Request) -> Response:
        return page(request)

    async def cards_zip(request: Request) -> Response:
        form = await posted_form(request)
        own = units()
        if not own:
            w = pages.words(request)
            raise PageError(404, w.gettext("The hub holds no table's files to write cards from."))
        try:
            settings = card_settings(form)
        except CardError as err:
            typed = {k: _text(form, k) for k in FIELDS if k != "wifi_password"}
            w = pages.words(request)
            return await run_in_threadpool(page, request, 400, err.message(w.gettext), typed)
        data = await run_in_threadpool(zip_of, table_cards(own, settings))
        answer = download(data, "application/zip", ZIP_NAME)
        answer.headers["Cache-Control"] = "no-store"
        return answer

    return [
        Route(PAGE, organizer_page(pages, show), methods=["GET"]),
        Route(f"{PAGE}/{ZIP_NAME}", organizer_page(pages, cards_zip), methods=["POST"]),
    ]
