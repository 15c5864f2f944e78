"""The central's pages rendered in the reader's language, for the live server
(:mod:`hub.league.web`) and the static site (:mod:`hub.league.site`) alike: the same
templates (``hub/league/templates``), the same values (:mod:`hub.league.views`); only
where the links go differs (:class:`Links`).

Pages: the league's start page (every venue's tournaments, live ones first), the season
table (with the championship ticket), a tournament (its ranking, standings and every
round's results, as the venue's own public pages name the players) and a person's season
(points per tournament, the informational rating).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

import jinja2
from markupsafe import Markup

from hub.exports.pages import grid_html
from hub.exports.words import phase_label
from hub.league.views import SeasonView, TournamentView, person_tournaments, tournament_grids
from hub.web.pages import translated_templates
from tablekit.shared import forms
from tablekit.shared.i18n import DEFAULT_LANGUAGE, Words, words

OTHER = {"pl": "en", "en": "pl"}


@dataclass(frozen=True)
class Links:
    """Where a page's links go. A page is named without an ending (``""`` the start
    page, ``season``, ``t/krakow-liga1``, ``people/nr-KRK-1``): the live server answers
    ``/season?lang=en``; the static site has ``season.html``, its English pages under
    ``en/``, every link relative to the page it is on (any host, any folder)."""

    lang: str
    static: bool = False
    here: str = ""
    """The page the links are on (the static site's links are relative to it)."""

    def url(self, page: str, **query: str) -> str:
        if not self.static:
            params = dict(query, **({"lang": self.lang} if self.lang != DEFAULT_LANGUAGE else {}))
            tail = "&".join(f"{k}={v}" for k, v in params.items())
            return f"/{page}" + (f"?{tail}" if tail else "")
        return self._up() + (page or "index") + ".html"

    def asset(self, name: str) -> str:
        return f"/static/{name}" if not self.static else self._up(root=True) + f"static/{name}"

    def other_language(self) -> str:
        other = OTHER[self.lang]
        if not self.static:
            return Links(other, here=self.here).url(self.here)
        return self._switch(other)

    def _switch(self, other: str) -> str:
        up = "../" * (self.here.count("/") + (self.lang != DEFAULT_LANGUAGE))
        folder = "" if other == DEFAULT_LANGUAGE else f"{other}/"
        return f"{up}{folder}{self.here or 'index'}.html"

    def _up(self, root: bool = False) -> str:
        depth = self.here.count("/") + (root and self.lang != DEFAULT_LANGUAGE)
        return "../" * depth


@cache
def environment(code: str) -> jinja2.Environment:
    w = words(code)
    env = translated_templates("hub.league", code)
    env.globals["phase_word"] = lambda phase: phase_label(phase, w)
    env.globals["rating"] = lambda rating: forms.number(rating.ordinal, w, places=1)
    return env


def page_html(template: str, links: Links, **values: Any) -> str:
    shared: dict[str, Any] = {
        "url": links.url,
        "asset": links.asset,
        "other_language": links.other_language(),
        "static": links.static,
        "user": None,
        "csrf_field": lambda: Markup(""),
    }
    return environment(links.lang).get_template(template).render({**shared, **values})


def grids_markup(view: TournamentView, w: Words) -> list[Markup]:
    """A tournament's tables as HTML (the exports' own: the same columns and words)."""
    return [Markup(grid_html(grid, "h2")) for grid in tournament_grids(view, w)]


PageMaker = Callable[[SeasonView, Links], str]


def home_page(season: SeasonView, links: Links, league: str, **extra: Any) -> str:
    return page_html("league_home.html", links, season=season, league=league, **extra)


def season_page(season: SeasonView, links: Links, league: str, **extra: Any) -> str:
    return page_html("league_season.html", links, season=season, league=league, **extra)


def tournament_page(
    season: SeasonView, view: TournamentView, links: Links, league: str, **extra: Any
) -> str:
    grids = grids_markup(view, words(links.lang))
    return page_html("league_tournament.html", links, season=season, view=view, grids=grids,
                  league=league, **extra)


def person_page(season: SeasonView, slug: str, links: Links, league: str, **extra: Any) -> str:
    line = season.line(slug)
    assert line is not None
    return page_html("league_person.html", links, season=season, line=line, league=league,
                  played=person_tournaments(season, line), **extra)
