"""The central's public pages as a static site: HTML and JSON files that any static
host or CDN serves to any number of readers (``rummikub-league serve --site DIR`` writes
them anew whenever a tournament changed; ``rummikub-league site`` once).

The same pages as the live server's (:mod:`hub.league.pages`), Polish at the top, English
under ``en/``, every link relative (the site works from any folder), plus the data:
``data/season.json`` (the season table, the ticket) and ``data/t/<venue>-<event>.json``
(a tournament's tables: the ranking, the standings, every round's results, as the pages
show them). Each file is written beside and renamed into place, so a reader never gets
half a page; files of tournaments or people no longer in the season are removed.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterable
from dataclasses import asdict
from importlib import resources
from pathlib import Path

import msgspec

from hub.league.central import Central
from hub.league.pages import Links, home_page, person_page, season_page, tournament_page
from hub.league.views import SeasonView, season_view, tournament_grids
from tablekit.shared.i18n import LANGUAGES, words

ASSETS = ("console.css",)


def write_site(central: Central, out: Path, now: float | None = None) -> int:
    """Every page and data file of the league into ``out``; how many files were written."""
    season = season_view(central.tournaments(), central.season(), central.ticket_holders)
    made = time.strftime("%Y-%m-%d %H:%M", time.localtime(time.time() if now is None else now))
    files: dict[str, bytes] = {}
    for lang in LANGUAGES:
        folder = "" if lang == "pl" else f"{lang}/"
        for here, html in _pages(season, lang, central.title, made):
            files[f"{folder}{here or 'index'}.html"] = html.encode()
    files.update(_data(season))
    static = resources.files("hub.web") / "static"
    for name in ASSETS:
        files[f"static/{name}"] = (static / name).read_bytes()
    for name, data in files.items():
        _put(out / name, data)
    _prune(out, set(files))
    return len(files)


def _pages(season: SeasonView, lang: str, league: str, made: str) -> Iterable[tuple[str, str]]:
    def links(here: str) -> Links:
        return Links(lang, static=True, here=here)

    yield "", home_page(season, links(""), league, made=made)
    yield "season", season_page(season, links("season"), league, made=made)
    for view in season.tournaments:
        here = f"t/{view.page}"
        yield here, tournament_page(season, view, links(here), league, made=made)
    for line in season.lines:
        here = f"people/{line.slug}"
        yield here, person_page(season, line.slug, links(here), league, made=made)


def _data(season: SeasonView) -> dict[str, bytes]:
    w = words("pl")
    lines = [
        {
            "place": line.place, "person": line.slug, "name": line.name, "club": line.club,
            "points": line.points, "starts": line.starts,
            "per_tournament": list(line.per_tournament),
            "rating": None if line.rating is None else round(line.rating.ordinal, 2),
        }
        for line in season.lines
    ]
    out = {
        "data/season.json": msgspec.json.encode({
            "tournaments": list(season.counted),
            "lines": lines,
            "ticket": None if season.ticket is None else season.ticket.slug,
        }),
    }
    for view in season.tournaments:
        grids = [asdict(grid) for grid in tournament_grids(view, w)]
        for grid in grids:
            grid.pop("numeric")
        out[f"data/t/{view.page}.json"] = msgspec.json.encode({
            "venue": view.venue, "event": view.event, "name": view.name,
            "phase": None if view.phase is None else view.phase.value, "tables": grids,
        })
    return out


def _put(path: Path, data: bytes) -> None:
    if path.is_file() and path.read_bytes() == data:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(path)


def _prune(out: Path, keep: set[str]) -> None:
    for path in sorted(out.rglob("*"), reverse=True):
        name = path.relative_to(out).as_posix()
        if path.is_file() and name not in keep:
            path.unlink()
        elif path.is_dir() and not any(path.iterdir()):
            shutil.rmtree(path)
