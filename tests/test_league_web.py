"""The central's pages over a real league store: every venue's tournaments as their
public pages name the players (a minor by given name and initial), the season table with
the championship ticket, a person's season with the informational rating, the league
organizer's and the local partners' sign-in (a partner reads only their own venue), and
the static site with the same standings as the live pages."""

from __future__ import annotations

import html
import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import msgspec
import pytest
from starlette.testclient import TestClient
from test_cli_support import Cli, play_round

from hub.league.bridge import LEAGUE_ORGANIZER, partner_username
from hub.league.central import Central
from hub.league.rating import ranks
from hub.league.site import write_site
from hub.league.store import LeagueStore
from hub.league.views import season_view
from hub.league.web import CentralSite, make_central_app
from hub.league.wire import UpRecord
from hub.store import HUB_SOURCE, EventStore
from hub.web.accounts import WebRole, accounts_text
from hub.web.sessions import Gate

NAMES = [f"Gracz {chr(65 + i)}" for i in range(8)]
NAMES[1] = "Basia Kowalska"  # marked minor in the first tournament
PASSWORD = "abcd-efgh-jkmn-pqrs"


def league_event(db: Path, names: list[str], seed: int, numbers: list[int]) -> Cli:
    c = Cli(db)
    c.ok("event", "create", "--preset", "league", "--name", f"Liga {db.stem}")
    for name, number in zip(names, numbers, strict=True):
        c.ok("players", "add", name, "--club", "KS Rummi", "--league-number", f"L{number}",
             "--check-in")  # fmt: skip
    rng = random.Random(seed)
    for _ in range(2):
        c.ok("round", "draw")
        c.ok("round", "start")
        play_round(c, rng)
        c.ok("round", "close")
    return c


def up(store: LeagueStore, venue: str, event: str, db: Path) -> None:
    events = EventStore(db)
    try:
        records = [UpRecord(e.seq, e.kind, e.ts, msgspec.Raw(e.payload))
                   for e in events.events(source=HUB_SOURCE)]  # fmt: skip
    finally:
        events.close()
    store.ingest(venue, event, records)


@dataclass
class League:
    central: Central
    client: TestClient
    minor: str


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> Iterator[League]:
    tmp = tmp_path_factory.mktemp("league")
    first = league_event(tmp / "krakow.sqlite3", NAMES, 1, list(range(8)))
    first.ok("players", "minor", "P002", "--consent")
    second = league_event(tmp / "gdansk.sqlite3", [*NAMES[:6], "Nowa Ola", "Nowy Jan"], 2,
                          [0, 1, 2, 3, 4, 5, 8, 9])  # fmt: skip
    store = LeagueStore(tmp / "league.sqlite3")
    up(store, "krakow", "liga1", first.db)
    up(store, "gdansk", "liga1", second.db)
    accounts = tmp / "web-accounts.toml"
    accounts.write_text(accounts_text(
        [(LEAGUE_ORGANIZER, WebRole.LEAGUE, PASSWORD),
         (partner_username("krakow"), WebRole.PARTNER, PASSWORD)],
        venues={partner_username("krakow"): "krakow"}))  # fmt: skip
    central = Central("liga", store, ticket_holders={"L0"}, title="Liga Rummikub 2026")
    app = make_central_app(CentralSite(central, Gate(accounts)))
    with TestClient(app) as client:
        yield League(central, client, NAMES[1])
    store.close()


def text(page: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def season_rows(page: str) -> list[list[str]]:
    table = page.split('id="season"', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r"<tr>(.*?)</tr>", table, re.S)
    return [[" ".join(text(cell).split()) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row,
                                                                  re.S)]
            for row in rows if "<td" in row]  # fmt: skip


def test_the_public_pages_show_every_venue_and_the_season(league: League) -> None:
    home = league.client.get("/")
    assert home.status_code == 200 and "Liga krakow" in home.text and "Liga gdansk" in home.text
    season = league.central.season()
    assert not season.identities.questions  # league numbers: nothing to ask
    page = league.client.get("/season").text
    rows = season_rows(page)
    assert len(rows) == len(season.lines) == 10
    points = {line.name: line.points for line in season.lines}
    for row in rows:
        name = row[1].replace(" KS Rummi", "")
        assert int(row[2]) == points.get(name, points.get(NAMES[1])), row
    # A minor of one tournament is given name and initial in the season table too.
    assert "Kowalska" not in text(page) and "Basia K." in text(page)
    ticket = season.ticket({"L0"})  # a holder already: it passes to the next
    assert ticket is not None and "nr L0" not in (ticket.person, *ticket.level)
    public = {line.person: line.name if line.person != "nr L1" else "Basia K."
              for line in season.lines}  # fmt: skip
    said = " ".join(text(page).split())
    if ticket.person is not None:
        assert f"Bilet na Mistrzostwa Polski: {public[ticket.person]}" in said
    else:
        shared = ", ".join(public[p] for p in ticket.level)
        assert f"Bilet na Mistrzostwa Polski: {shared} dzielą miejsce" in said
    tournament = text(league.client.get("/t/krakow-liga1").text)
    assert "Klasyfikacja końcowa" in tournament or "Ranking" in tournament
    assert "Kowalska" not in tournament and "Basia K." in tournament
    english = league.client.get("/season?lang=en").text
    assert "Season table (2 tournaments)" in english


def test_a_person_page_shows_the_rating_for_information(league: League) -> None:
    season = league.central.season()
    person = season.lines[0].person.replace(" ", "-")
    page = " ".join(text(league.client.get(f"/people/{person}").text).split())
    assert "OpenSkill" in page and "decydują tylko punkty ligowe" in page
    assert re.search(r"Ocena -?\d+\.\d Ocenione gry \d+", page), page
    assert league.client.get("/people/nobody").status_code == 404
    again = season_view(league.central.tournaments(), league.central.season())
    assert [line.rating for line in again.lines] == [
        line.rating for line in season_view(league.central.tournaments(),
                                            league.central.season()).lines
    ]  # deterministic from the records
    assert ranks([("a", 3, 10), ("b", 1, -5), ("c", 1, -5), ("d", 0, -20)]) == [1, 2, 2, 3]


def sign_in(client: TestClient, name: str) -> None:
    client.cookies.clear()
    form = client.get("/login").text
    token = re.search(r'name="csrf" value="([^"]+)"', form)
    assert token is not None
    answer = client.post("/login", data={"csrf": token[1], "name": name, "password": PASSWORD},
                         follow_redirects=False)  # fmt: skip
    assert answer.status_code == 303, answer.text


def test_a_partner_reads_only_their_own_venue(league: League) -> None:
    client = league.client
    assert client.get("/partner/krakow", follow_redirects=False).status_code == 303
    sign_in(client, partner_username("krakow"))
    own = client.get("/partner/krakow")
    assert own.status_code == 200 and "Basia Kowalska" in text(own.text)
    assert client.get("/partner/gdansk").status_code == 403
    records = client.get("/partner/krakow/liga1/records.jsonl")
    lines = [json.loads(line) for line in records.text.splitlines()]
    assert [r["seq"] for r in lines] == list(range(1, len(lines) + 1))
    assert client.get("/partner/gdansk/liga1/records.jsonl").status_code == 403
    assert client.get("/league").status_code == 403
    client.cookies.clear()


def test_the_static_site_has_the_live_pages_standings(league: League, tmp_path: Path) -> None:
    written = write_site(league.central, tmp_path / "site")
    assert written > 20
    live = season_rows(league.client.get("/season").text)
    static = season_rows((tmp_path / "site/season.html").read_text())
    assert static == live
    data = json.loads((tmp_path / "site/data/season.json").read_text())
    assert [[line["place"], line["name"], str(line["points"])] for line in data["lines"]] == [
        [row[0], row[1].replace(" KS Rummi", ""), row[2]] for row in live
    ]
    assert (tmp_path / "site/en/season.html").is_file()
    assert 'href="../static/console.css"' in (tmp_path / "site/t/krakow-liga1.html").read_text()
