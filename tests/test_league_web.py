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
from openskill.models import PlackettLuce
from starlette.testclient import TestClient
from test_cli_support import Cli, play_round

from hub.league.bridge import LEAGUE_ORGANIZER, partner_username
from hub.league.central import Central
from hub.league.pages import Links, season_page
from hub.league.rating import ranks, rate
from hub.league.site import write_site
from hub.league.store import LeagueStore
from hub.league.views import season_view
from hub.league.web import CentralSite, make_central_app
from hub.league.wire import UpRecord
from hub.season import seeds_for
from hub.store import HUB_SOURCE, EventStore
from hub.tournament import Player
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
             "--check-in")
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
                   for e in events.events(source=HUB_SOURCE)]
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
                          [0, 1, 2, 3, 4, 5, 8, 9])
    store = LeagueStore(tmp / "league.sqlite3")
    up(store, "krakow", "liga1", first.db)
    up(store, "gdansk", "liga1", second.db)
    accounts = tmp / "web-accounts.toml"
    accounts.write_text(accounts_text(
        [(LEAGUE_ORGANIZER, WebRole.LEAGUE, PASSWORD),
         (partner_username("krakow"), WebRole.PARTNER, PASSWORD)],
        venues={partner_username("krakow"): "krakow"}))
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
            for row in rows if "<td" in row]


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
              for line in season.lines}
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


def test_the_rating_is_shown_for_information_beside_the_table(league: League) -> None:
    """The season table and each person's page show the same OpenSkill figure (Polish
    decimal comma), each with what it is and that league points alone rank."""
    view = season_view(league.central.tournaments(), league.central.season())
    first = view.lines[0]
    assert first.rating is not None and first.rating.games == 8
    shown = f"{first.rating.ordinal:.1f}".replace(".", ",").replace("-", "−")
    page = " ".join(text(league.client.get(f"/people/{first.slug}").text).split())
    assert "OpenSkill" in page and "decydują tylko punkty ligowe" in page
    assert f"Ocena {shown} Ocenione gry 8" in page, page
    season = league.client.get("/season").text
    said = " ".join(text(season).split())
    assert "Turniej 1 Turniej 2 Ocena" in said
    assert "Turniej 1: Liga krakow" in said and "T1" not in said
    assert "o miejscu decydują wyłącznie punkty ligowe" in said
    assert season_rows(season)[0][-1] == shown
    assert league.client.get("/people/nobody").status_code == 404
    again = season_view(league.central.tournaments(), league.central.season())
    assert [line.rating for line in again.lines] == [line.rating for line in view.lines]


def test_the_rating_is_openskills_plackett_luce_game_by_game() -> None:
    """Two games at one table: the rating is the model's own update, game after game,
    each table ranked by big then small points (level players share the rank)."""
    games = [
        [("a", 1, 30), ("b", 0, -5), ("c", 0, -5), ("d", 0, -20)],
        [("a", 0, -2), ("b", 1, 12), ("c", 0, -4), ("d", 0, -6)],
    ]
    model = PlackettLuce()
    expected = {p: model.rating() for p in "abcd"}
    for game in games:
        teams = [[expected[p]] for p, _, _ in game]
        for (p, _, _), (new,) in zip(game, model.rate(teams, ranks=ranks(game)), strict=True):
            expected[p] = new
    rated = rate(games)
    assert {p: (r.mu, r.sigma, r.games) for p, r in rated.items()} == {
        p: (r.mu, r.sigma, 2) for p, r in expected.items()
    }
    assert rated["a"].ordinal == rated["a"].mu - 3 * rated["a"].sigma
    assert ranks(games[0]) == [1, 2, 2, 3]


def sign_in(client: TestClient, name: str) -> None:
    client.cookies.clear()
    form = client.get("/login").text
    token = re.search(r'name="csrf" value="([^"]+)"', form)
    assert token is not None
    answer = client.post("/login", data={"csrf": token[1], "name": name, "password": PASSWORD},
                         follow_redirects=False)
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


def test_a_minor_of_a_tournament_still_played_is_shown_as_a_minor(tmp_path: Path) -> None:
    """Marked minor at a venue whose tournament the season does not count yet, Basia is
    "Basia K." without her club on every page of the central — as that venue's own public
    pages show her — though the finished tournament lists her in full."""
    finished = league_event(tmp_path / "krakow.sqlite3", NAMES, 1, list(range(8)))
    live = Cli(tmp_path / "gdansk.sqlite3")
    live.ok("event", "create", "--preset", "league", "--name", "Liga gdansk")
    live.ok("players", "add", "Basia Kowalska", "--club", "SP 2 Gdańsk", "--league-number",
            "L1", "--check-in")
    live.ok("players", "minor", "P001", "--consent")
    store = LeagueStore(tmp_path / "league.sqlite3")
    try:
        up(store, "krakow", "liga1", finished.db)
        up(store, "gdansk", "liga1", live.db)
        central = Central("liga", store)
        season = season_view(central.tournaments(), central.season())
        [basia] = [line for line in season.lines if line.person == "nr L1"]
        assert (basia.name, basia.club) == ("Basia K.", None)
        write_site(central, tmp_path / "site")
        for page in ("season.html", f"people/{basia.slug}.html", "data/season.json"):
            said = (tmp_path / "site" / page).read_text(encoding="utf-8")
            assert "Kowalska" not in said and "Basia K." in said, page
        row = next(r for r in season_rows((tmp_path / "site/season.html").read_text())
                   if r[1].startswith("Basia"))
        assert row[1] == "Basia K."
    finally:
        store.close()


def test_an_erasure_at_the_venue_reaches_the_central(tmp_path: Path) -> None:
    """The venue erases its players' personal data after the season: the erasure record
    goes up like any other, and the central rewrites what it holds of the tournament —
    no name, club or league number is left in its store, and its pages name the ids."""
    db = tmp_path / "krakow.sqlite3"
    venue = league_event(db, NAMES, 1, list(range(8)))
    store = LeagueStore(tmp_path / "league.sqlite3")
    try:
        up(store, "krakow", "liga1", db)
        held = store.mark("krakow", "liga1")
        assert held is not None
        venue.ok("event", "erase", "--confirm", "Liga krakow")
        events = EventStore(db)
        try:  # what the uplink sends next: the records after the central's mark
            later = [UpRecord(e.seq, e.kind, e.ts, msgspec.Raw(e.payload))
                     for e in events.events(source=HUB_SOURCE, after_seq=held.contiguous)]
        finally:
            events.close()
        assert store.ingest("krakow", "liga1", later).erased
        central = Central("liga", store)
        view = season_view(central.tournaments(), central.season())
        assert {line.name for line in view.lines} == {f"P{i:03d}" for i in range(1, 9)}
        assert all(line.club is None for line in view.lines)
    finally:
        store.close()
    data = b"".join(p.read_bytes() for p in tmp_path.glob("league.sqlite3*"))
    for text in ("Gracz", "Basia", "Kowalska", "KS Rummi"):
        assert text.encode() not in data, text


def test_the_ticket_passes_a_holder_and_the_season_page_says_so(league: League) -> None:
    """003: the season's winner gets the ticket to the Polish championship; a winner who
    holds one already passes it to the next in the table, and the page names both."""
    season = league.central.season()
    first = season.lines[0]
    assert first.number, "the league fixture's players have league numbers"
    holders = {first.number}
    central = Central("liga", league.central.store, ticket_holders=holders)
    view = season_view(central.tournaments(), central.season(), central.ticket_holders)
    said = " ".join(text(season_page(view, Links("pl"), "Liga")).split())
    assert view.ticket_passed[0].person == first.person
    assert f"Mają już bilet (przechodzi na następną osobę w klasyfikacji): {first.name}" in said
    ticket = season.ticket(holders)
    assert ticket is not None
    if ticket.person is not None:
        assert view.ticket is not None and ticket.person != first.person
        assert f"Bilet na Mistrzostwa Polski: {view.ticket.name}" in said
    else:
        assert "dzielą miejsce; decyduje organizator ligi" in said


def test_the_board_every_venue_receives_names_a_minor_as_the_public_does(league: League) -> None:
    """Every venue receives the same season table: another venue's minor in it is given
    name and initial, without a club, and a venue still seeds her by league number."""
    board = league.central.board()
    assert "Kowalska" not in msgspec.json.encode(board).decode()
    basia = next(line for line in board.lines if line.number == "L1")
    assert (basia.name, basia.club) == ("Basia K.", None)
    assert all(line.club == "KS Rummi" for line in board.lines if line.number != "L1")
    basia_at_venue = Player("P001", "Basia Kowalska", "SP 12 Kraków", league_number="L1")
    others = [Player(f"P{i:03}", f"Gracz {i}") for i in range(2, 6)]
    players = {p.id: p for p in (basia_at_venue, *others)}
    seeded = seeds_for(board.lines, players)
    assert (basia_at_venue, basia.points) in seeded
