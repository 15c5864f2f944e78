"""What every page of the web console shares: the event as the command line reads it,
the live tables, and how a page is rendered in the reader's language.

Pages are rendered on the server by Jinja2 in the reader's language (Polish unless the
address says ``?lang=en``); every word goes through the kit's catalogs
(:mod:`tablekit.shared.i18n`), the templates' through Jinja2's i18n extension, which
Babel extracts (pyproject.toml's ``[tool.babel]``).
"""

from __future__ import annotations

import contextlib
import inspect
import json
import threading
import time
from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Final, TypeVar, cast
from urllib.parse import urlencode

import jinja2
from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from hub.competition import Competition, CompetitionError
from hub.exports.pages import printed_number
from hub.exports.words import said_of, stage_title
from hub.organizer import Organizer
from hub.privacy import published
from hub.store import HUB_SOURCE, EventStore
from hub.web.live import LiveTables
from hub.web.sessions import SESSION_COOKIE, Gate, Session
from hub.web.views import (
    TableCard,
)
from tablekit.core.status import Colour, TableState, look, word
from tablekit.core.words import N_
from tablekit.shared.i18n import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    LanguageError,
    Words,
    language,
    words,
)

T = TypeVar("T")


class EventReader:
    """The event as the organizer's command line reads it: an
    :class:`~hub.organizer.Organizer` over the event store (the same fold), opened once
    the file exists. Its reads are serialised (pages are served from a thread pool)."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self._organizer: Organizer | None = None
        self._lock = threading.RLock()

    def _open(self) -> Organizer | None:
        if self._organizer is None and self.db.is_file():
            self._organizer = Organizer(EventStore(self.db), by="web")
        return self._organizer

    def competition(self) -> Competition | None:
        """The event as stored now; None before the event file exists."""
        with self._lock:
            organizer = self._open()
            return None if organizer is None else organizer.competition

    def published(self) -> Competition | None:
        """The event as the public reads it (:func:`hub.privacy.published`: every player
        named as the event's privacy setting says): what every page without a login
        shows. None before the event file exists."""
        comp = self.competition()
        return None if comp is None else published(comp)

    def version(self) -> int:
        """Grows with every record the hub stores (0: none yet). One short query, not
        behind a page's fold (the event loop asks it for every kept page)."""
        organizer = self._organizer
        if organizer is None:
            with self._lock:
                organizer = self._open()
        mark = None if organizer is None else organizer.store.mark(HUB_SOURCE)
        return 0 if mark is None else mark.max_seq

    def read(self, query: Callable[[EventStore], T]) -> T | None:
        """``query`` of the event store, serialised with the other reads; None before the
        event file exists."""
        with self._lock:
            organizer = self._open()
            return None if organizer is None else query(organizer.store)

    @contextlib.contextmanager
    def acting(self, by: str) -> Iterator[Organizer]:
        """The organizer's commands (the command line's own) on the event store, one at
        a time, recorded as ``by``'s: the signed-in judge's or organizer's name. Nothing
        is read meanwhile, so a page never sees half of an action."""
        with self._lock:
            organizer = self._open()
            if organizer is None:
                raise CompetitionError(N_("no event yet: create one first (rummikub event create)"))
            organizer.by = by
            try:
                yield organizer
            finally:
                organizer.by = "web"

    def close(self) -> None:
        with self._lock:
            if self._organizer is not None:
                self._organizer.store.close()
                self._organizer = None


Endpoint = Callable[[Request], Response] | Callable[[Request], Awaitable[Response]]
"""A page: plain (served from a thread pool) or async."""


# --- words --------------------------------------------------------------------------------


def state_word(w: Words, card: TableCard) -> str:
    return w.gettext(word(card.state))


def css_colour(colour: Colour) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


@cache
def state_styles() -> str:
    """The band of every table state in the status model's colours (the hub screen's and
    the table display's), as a style sheet: the pages' policy allows no inline style."""
    return "".join(
        f".state-{state.value} {{ background: {css_colour(look(state).bg)}; "
        f"color: {css_colour(look(state).fg)}; }}\n"
        for state in TableState
    )


def translated_templates(package: str, code: str) -> jinja2.Environment:
    """Jinja2 over ``package``'s ``templates/`` speaking ``code`` through the catalogs
    (one environment per language: nothing is switched while a page renders); also the
    central league service's pages (:mod:`hub.league.pages`)."""
    w = words(code)
    env = jinja2.Environment(
        loader=jinja2.PackageLoader(package, "templates"),
        autoescape=True,
        extensions=["jinja2.ext.i18n"],
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.install_gettext_callables(  # type: ignore[attr-defined]
        w.gettext, w.ngettext, newstyle=False, pgettext=w.pgettext
    )
    env.globals["lang"] = code
    return env


@cache
def environment(code: str) -> jinja2.Environment:
    """The console's templates in one language."""
    w = words(code)
    env = translated_templates("hub.web", code)
    env.globals.update(
        stage_label=lambda stage, number: stage_title(stage, number, w),
        state_word=lambda card: state_word(w, card),
        said=lambda key, player: said_of(player, key, w),
        clock=lambda at: time.strftime("%H:%M", time.localtime(at)),
        printed_number=printed_number,
    )
    return env


# --- the application ----------------------------------------------------------------------


@dataclass
class Console:
    """What the pages read: the event store and the live tables; who may sign in."""

    reader: EventReader
    live: LiveTables
    title: str = ""
    """Shown when the event has no name yet (the venue, say)."""
    gate: Gate = field(default_factory=Gate)
    """The web accounts, the open sessions and the login's rate limit."""
    season: Path | None = None
    """The folder where the league season's finished events' files are kept (the
    organizer's season page reads them); None: no season page."""
    cards: Path | None = None
    """The tables' own files (``table-07/unit.toml``, ``mqtt-password``) the organizer's
    cards page writes every table's SD card from; None: no cards to write."""


class PageError(Exception):
    """A page that cannot be shown as asked: its status and the message (translated)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def reader_language(request: Request, default: str = DEFAULT_LANGUAGE) -> str:
    """The language ``?lang=`` names, else ``default`` (the event's: Polish unless the
    organizer chose another)."""
    asked = request.query_params.get("lang")
    if asked is None or asked == "":
        return default
    try:
        return language(asked)
    except LanguageError:
        w = words(default)
        raise PageError(
            400,
            w.gettext("No language {asked}: the console speaks {languages}.").format(
                asked=asked, languages=", ".join(LANGUAGES)
            ),
        ) from None


def link(code: str, default: str = DEFAULT_LANGUAGE) -> Callable[..., str]:
    """``url(path, **query)``: a link that keeps the reader's language (named when it is
    not the event's)."""

    def url(path: str, **query: Any) -> str:
        params = {k: v for k, v in query.items() if v is not None and v != ""}
        if code != default:
            params["lang"] = code
        return f"{path}?{urlencode(params, doseq=True)}" if params else path

    return url


def switch_language(request: Request, code: str, default: str = DEFAULT_LANGUAGE) -> str:
    """The same page in the other language."""
    params = {k: v for k, v in request.query_params.items() if k != "lang"}
    other = "en" if code == "pl" else "pl"
    if other != default:
        params["lang"] = other
    return f"{request.url.path}?{urlencode(params)}" if params else request.url.path


def event_language(comp: Competition | None) -> str:
    """The language the event speaks (Polish before it exists)."""
    return DEFAULT_LANGUAGE if comp is None else comp.language


class Pages:
    """What every page of the console shares: the event and its live tables, and how a
    page is rendered in the reader's language. Each area of the console (the public
    pages, :mod:`hub.web.public`; the judges' and the organizer's) is a module with a
    ``routes(pages)`` function; :func:`make_app` joins them."""

    def __init__(self, console: Console) -> None:
        self.console = console

    def language(self, request: Request) -> str:
        """The reader's language: ``?lang=``, else the event's."""
        return reader_language(request, event_language(self.console.reader.competition()))

    def words(self, request: Request) -> Words:
        return words(self.language(request))

    def session(self, request: Request) -> Session | None:
        """The live session of the request's cookie (:mod:`hub.web.auth`), if any."""
        return self.console.gate.session(request.cookies.get(SESSION_COOKIE))

    def render(
        self, request: Request, template: str, status: int = 200, lang: str = "", **values: Any
    ) -> HTMLResponse:
        comp = self.console.reader.competition()
        default = event_language(comp)
        code = lang or reader_language(request, default)
        name = comp.created.name if comp is not None and comp.created is not None else ""
        session = self.session(request)
        shared: dict[str, Any] = {
            "request": request,
            "url": link(code, default),
            "other_language": switch_language(request, code, default),
            "event_name": name or self.console.title,
            "comp": comp,
            "live": self.console.live.live,
            "user": None if session is None else session.user,
            "csrf_field": lambda: csrf_input(
                "" if session is None else session.csrf,
                "" if session is None else session.form_token(),
            ),
        }
        page = environment(code).get_template(template).render({**shared, **values})
        return HTMLResponse(page, status_code=status)

    def words_or_default(self, request: Request) -> Words:
        """The reader's language, else the event's (an address asking for a language the
        console does not speak)."""
        try:
            return self.words(request)
        except PageError:
            return words(event_language(self.console.reader.competition()))

    def render_error(self, request: Request, err: PageError, sign_in: str = "") -> Response:
        """``err`` as a page (``sign_in``: a link to the login, for a page that needs
        another account)."""
        default = event_language(self.console.reader.competition())
        try:
            code = reader_language(request, default)
        except PageError:  # the language itself was wrong: the message says so
            code = default
        return self.render(
            request, "error.html", err.status, code, message=err.message, sign_in=sign_in
        )

    def guarded(self, endpoint: Endpoint) -> Endpoint:
        """``endpoint`` (plain or async) with its :class:`PageError` shown as a page."""
        if inspect.iscoroutinefunction(endpoint):
            asynchronous = cast(Callable[[Request], Awaitable[Response]], endpoint)

            async def page_async(request: Request) -> Response:
                try:
                    return await asynchronous(request)
                except PageError as err:
                    return self.render_error(request, err)

            return page_async
        plain = cast(Callable[[Request], Response], endpoint)

        def page(request: Request) -> Response:
            try:
                return plain(request)
            except PageError as err:
                return self.render_error(request, err)

        return page


def http_error_text(w: Words, status: int, detail: str) -> str:
    """What a refusal of the web server itself (no such page, a method the address does
    not take, a form it cannot read) says to the reader, in their language."""
    if status == 404:
        return w.gettext("There is no such page in the console. Check the address, or start "
                         "again from the start page.")
    if status == 405:
        return w.gettext("This address cannot be used that way: a page is opened, a form is "
                         "sent from its page.")
    if status == 400:
        return form_error_text(w, detail)
    return w.gettext("The console could not answer this request.")


def form_error_text(w: Words, detail: str) -> str:
    """A form the web server could not read (Starlette's English ``detail``), said in the
    reader's language."""
    if "maximum size" in detail:
        return w.gettext("A field of the form is larger than the console takes (1 MB at most); "
                         "nothing was changed.")
    if "Too many" in detail:
        return w.gettext("The form has more fields than the console takes; nothing was "
                         "changed.")
    return w.gettext("The console could not read the form that was sent; nothing was changed.")


CSRF_FIELD: Final = "csrf"
"""The name of every form's hidden CSRF token (:func:`hub.web.auth.posted_form`)."""
ONCE_FIELD: Final = "once"
"""The name of a form's hidden one-time token: the form is taken once."""


def csrf_input(token: str, once: str = "") -> Markup:
    """A form's hidden CSRF token and its one-time token (``{{ csrf_field() }}`` in a
    template)."""
    if not token:
        return Markup("")
    hidden = Markup('<input type="hidden" name="{}" value="{}">')
    fields = hidden.format(CSRF_FIELD, token)
    return fields + hidden.format(ONCE_FIELD, once) if once else fields


def event_text(kind: str, data: Mapping[str, object]) -> str:
    """One server-sent event: its name and its data as one line of JSON."""
    return f"event: {kind}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"
