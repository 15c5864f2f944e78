"""The organizer's exports on the web console, to download: every CSV file of
``rummikub export csv`` (Polish: ``;`` between fields, a decimal comma, Polish column
names; English: the columns scripts read), the printouts of ``export html`` (shown to
print) and ``export pdf``, and the archive of ``export archive`` — made by the same
functions (:mod:`hub.exports`, :mod:`hub.archive`, :mod:`hub.printing`) from the event
as stored now.

``?public=1`` makes every file for publication: players named as the event's privacy
setting says (:mod:`hub.privacy`), as ``--public`` on the command line.

A file's language is its own (``?language=pl`` or ``en``, default: the page's), so an
organizer reading the console in Polish can still fetch the English CSV a script reads.
"""

from __future__ import annotations

import re
import time
from typing import Final
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from hub import archive, printing
from hub.competition import Competition
from hub.exports.files import csv_files
from hub.exports.grid import Sheet, event_name
from hub.exports.printouts import printouts
from hub.exports.words import stage_label
from hub.privacy import published
from hub.web.organizer import organizer_page, the_event
from hub.web.pages import PageError, Pages
from tablekit.core.errors import KitError
from tablekit.shared.i18n import LANGUAGES, Words, words

PRINTOUT_POLICY: Final = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; " \
    "frame-ancestors 'none'"
"""A printout's own policy: its style sheet is inside it (it is the same file the command
line writes), and it has no script."""


def disposition(how: str, name: str) -> str:
    """``Content-Disposition`` for a file called ``name`` (an ASCII fallback and the name
    itself, RFC 6266: a stage or event name may have Polish letters)."""
    plain = re.sub(r"[^A-Za-z0-9._-]", "_", name)
    return f"{how}; filename=\"{plain}\"; filename*=UTF-8''{quote(name, safe='')}"


def file_words(pages: Pages, request: Request) -> Words:
    """The language of the file asked (``?language=``), else the page's."""
    asked = request.query_params.get("language", "")
    if asked in LANGUAGES:
        return words(asked)
    if asked:
        w = pages.words(request)
        raise PageError(400, w.gettext("No language {asked}: the console speaks "
                                       "{languages}.").format(
            asked=asked, languages=", ".join(LANGUAGES)))
    return pages.words(request)


def download(data: bytes, media_type: str, name: str) -> Response:
    """A file to save as ``name``."""
    return Response(data, media_type=media_type,
                    headers={"Content-Disposition": disposition("attachment", name)})


def printout_page(doc: str, name: str) -> Response:
    """A printout shown in the browser to print (saved as ``name``), with its own
    policy (:data:`PRINTOUT_POLICY`)."""
    return Response(
        doc.encode("utf-8"),
        media_type="text/html; charset=utf-8",
        headers={"Content-Disposition": disposition("inline", name),
                 "Content-Security-Policy": PRINTOUT_POLICY},
    )


def routes(pages: Pages) -> list[BaseRoute]:

    def public(request: Request) -> bool:
        """``?public=1``: for publication, players named as the event's privacy setting
        says (:func:`hub.privacy.published`), as ``rummikub export … --public``."""
        return request.query_params.get("public") == "1"

    def competition(request: Request) -> Competition:
        comp = the_event(pages, request)
        return published(comp) if public(request) else comp

    def drawn(request: Request, comp: Competition) -> str:
        """The stage asked (``?stage=``, default: the latest drawn); 404 naming it when
        it is not drawn, or when nothing is."""
        w = pages.words(request)
        played = comp.event.stages_played
        if not played:
            raise PageError(404, w.gettext("Nothing is drawn yet: the exports come with the "
                                           "first draw."))
        stage = request.query_params.get("stage") or played[-1]
        if stage not in played:
            raise PageError(
                404, w.gettext("No stage {stage} is drawn in this event.").format(stage=stage)
            )
        return stage

    def sheet(request: Request) -> Sheet:
        semicolon = request.query_params.get("semicolon") == "1"
        return Sheet(file_words(pages, request), ";" if semicolon else None)

    def refused(request: Request, err: KitError) -> PageError:
        return PageError(503, err.message(pages.words(request).gettext))

    def page(request: Request) -> Response:
        comp = competition(request)
        w = pages.words(request)
        played = comp.event.stages_played
        if not played:
            return pages.render(request, "rounds_exports.html", stage="", stages=[],
                                csvs=[], docs=[], public="")
        stage = drawn(request, comp)
        return pages.render(
            request, "rounds_exports.html", stage=stage,
            stages=[(s, stage_label(s, w)) for s in played],
            csvs=sorted(csv_files(comp, Sheet(w))), docs=list(printouts(comp, w, stage)),
            public="1" if public(request) else "",
        )

    def csv(request: Request) -> Response:
        comp = competition(request)
        drawn(request, comp)
        name = request.path_params["name"]
        files = csv_files(comp, sheet(request))
        if name not in files:
            w = pages.words(request)
            raise PageError(404, w.gettext("No file {name} in this event's exports.").format(
                name=name))
        return download(files[name].encode("utf-8-sig"), "text/csv; charset=utf-8", name)

    def printout(request: Request) -> Response:
        comp = competition(request)
        stage = drawn(request, comp)
        stem, kind = request.path_params["stem"], request.path_params["kind"]
        docs = printouts(comp, file_words(pages, request), stage)
        if stem not in docs or kind not in ("html", "pdf"):
            w = pages.words(request)
            raise PageError(404, w.gettext("No file {name} in this event's exports.").format(
                name=f"{stem}.{kind}"))
        name = f"{stem}-{stage}.{kind}"
        if kind == "html":
            return printout_page(docs[stem], name)
        try:
            data = printing.pdf(docs[stem])
        except KitError as err:
            raise refused(request, err) from None
        return download(data, "application/pdf", name)

    def event_archive(request: Request) -> Response:
        comp = competition(request)
        drawn(request, comp)
        try:
            data = archive.event_archive(comp, pdf=printing.pdf, at=time.time(),
                                         sheet=sheet(request))
        except KitError as err:
            raise refused(request, err) from None
        name = f"{archive.slug(event_name(comp))}.zip"
        return download(data, "application/zip", name)

    return [
        Route(path, organizer_page(pages, endpoint), methods=["GET"])
        for path, endpoint in (
            ("/organizer/exports", page),
            ("/organizer/exports/csv/{name}", csv),
            ("/organizer/exports/print/{stem}.{kind}", printout),
            ("/organizer/exports/archive.zip", event_archive),
        )
    ]
