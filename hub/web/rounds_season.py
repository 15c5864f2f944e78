"""The league season on the web console: the season table over the finished league
tournaments whose event files are kept in the console's season folder (``[web] season``,
``--season``), and its files to download — what ``rummikub season table`` prints and
``season export`` writes, made by the same functions (:mod:`hub.season`): for
publication, minors named as the public pages name them, and apart from them the
organizer's internal list, saying it is not for publication.

The organizer ticks the tournaments that count; a file that cannot count (not a league
event, not finished, shared places undecided) is listed with the reason, as the command
line refuses it. Only files in that folder are read, named by their file name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from hub import printing
from hub.exports.grid import Sheet
from hub.league.season import Season
from hub.season import (
    SeasonEvent,
    exported_season,
    ordered_events,
    question_lines,
    season_csv,
    season_event,
    season_grid,
    season_html,
    season_legend,
    season_of,
    season_stem,
)
from hub.web.organizer import organizer_page
from hub.web.pages import PageError, Pages
from hub.web.rounds_exports import download, file_words, printout_page
from tablekit.core.errors import KitError

EVENT_FILES = "*.sqlite3"
"""The event files the season folder is looked through for."""


@dataclass(frozen=True)
class SeasonFile:
    """One event file of the season folder: what it counts for the season, or why not."""

    name: str
    event: SeasonEvent | None
    refusal: str
    """Why it cannot count (the season's own error, in the reader's language)."""


def season_files(folder: Path, gettext: Callable[[str], str]) -> list[SeasonFile]:
    """Every event file in ``folder``, by name, read as ``season table`` reads it."""
    files = []
    for path in sorted(folder.glob(EVENT_FILES)):
        if not path.is_file():
            continue
        try:
            event = season_event(path, path.name)
        except KitError as err:
            files.append(SeasonFile(path.name, None, err.message(gettext)))
            continue
        except OSError as err:
            files.append(SeasonFile(path.name, None, str(err)))
            continue
        files.append(SeasonFile(path.name, event, ""))
    return files


def routes(pages: Pages) -> list[BaseRoute]:
    console = pages.console

    def folder(request: Request) -> Path:
        season = console.season
        if season is None or not season.is_dir():
            w = pages.words(request)
            raise PageError(404, w.gettext(
                "No season folder is set: give the console the folder where the season's "
                "finished league events' files are kept ([web] season, or --season)."
            ))
        return season

    def chosen(request: Request) -> tuple[list[SeasonFile], list[SeasonEvent], Season]:
        """Every file of the folder, and the events ticked (``?event=NAME``, each a
        countable file of the folder; none ticked: all that count)."""
        w = pages.words(request)
        files = season_files(folder(request), w.gettext)
        asked = request.query_params.getlist("event")
        countable = {f.name: f.event for f in files if f.event is not None}
        unknown = [name for name in asked if name not in countable]
        if unknown:
            raise PageError(404, w.gettext(
                "{name} is no league event of the season folder that counts."
            ).format(name=unknown[0]))
        names = asked or list(countable)
        events = [event for name in names if (event := countable[name]) is not None]
        season = season_of(events)
        return files, ordered_events(events, season), season

    def page(request: Request) -> Response:
        w = pages.words(request)
        if console.season is None:
            return pages.render(request, "rounds_season.html", files=None, grid=None,
                                legend=[], names=[])
        files, events, season = chosen(request)
        grid = season_grid(season, w) if events else None
        legend = [*season_legend(events, w), *question_lines(season, w)]
        return pages.render(
            request, "rounds_season.html", files=files, grid=grid,
            legend=legend, names=[e.source for e in events],
        )

    def season_file(request: Request) -> Response:
        kind, stem = request.path_params["kind"], request.path_params["stem"]
        _, events, season = chosen(request)
        w = pages.words(request)
        internal = stem == season_stem(internal=True)
        if not events or kind not in ("csv", "html", "pdf") or stem != season_stem(internal):
            raise PageError(404, w.gettext("No league event of the season folder counts yet."))
        season = exported_season(season, events, internal)
        name = f"{stem}.{kind}"
        if kind == "csv":
            semicolon = request.query_params.get("semicolon") == "1"
            sheet = Sheet(file_words(pages, request), ";" if semicolon else None)
            data = season_csv(season, sheet).encode("utf-8-sig")
            return download(data, "text/csv; charset=utf-8", name)
        doc = season_html(season, events, file_words(pages, request), internal=internal)
        if kind == "html":
            return printout_page(doc, name)
        try:
            data = printing.pdf(doc)
        except KitError as err:
            raise PageError(503, err.message(w.gettext)) from None
        return download(data, "application/pdf", name)

    return [
        Route("/organizer/season", organizer_page(pages, page), methods=["GET"]),
        Route("/organizer/season/{stem}.{kind}", organizer_page(pages, season_file),
              methods=["GET"]),
    ]
