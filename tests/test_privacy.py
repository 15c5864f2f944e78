"""Personal data and minors: the privacy setting on everything the public reads, a
guardian's consent asked at the check-in and the draw, and erasing the players' data after
the event — through the organizer's command line on real SQLite files."""

from __future__ import annotations

import csv
import random
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from test_cli_support import Cli, play_round

from hub.competition import MinorAdmitted, NameShown
from hub.conductor import Conductor
from hub.erasure import Erasure
from hub.organizer import ConsentMissingError, Organizer
from hub.privacy import initial_name, public_name, published
from hub.store import EventStore
from hub.tournament import Player
from hub.web.app import make_app
from hub.web.live import LiveTables
from hub.web.pages import Console, EventReader
from tablekit.core.topics import Topics

NAMES = [
    "Anna Kowalska",
    "Łukasz Żółć",
    "Jan Maria Wiśniewski",
    "Zofia Brzęczyszczykiewicz",
    "Piotr Nowak",
    "Ewa Ślęzak",
    "Ola Kot",
    "Marta Źdźbło",
]
CLUB = "Szkoła Podstawowa nr 7 w Sopocie"


def school(tmp_path: Path, *extra: str) -> Cli:
    """A school contest of the eight :data:`NAMES` (one club), registered, none present."""
    c = Cli(tmp_path / "school.sqlite3")
    c.ok("event", "create", "--preset", "school", "--name", "Konkurs klas 4", *extra)
    for name in NAMES:
        c.ok("players", "add", name, "--club", CLUB)
    return c


def test_initial_name_is_the_given_name_and_the_surnames_initial() -> None:
    assert initial_name(Player("P1", "Anna Kowalska")) == "Anna K."
    assert initial_name(Player("P1", "Łukasz Żółć")) == "Łukasz Ż."
    assert initial_name(Player("P1", "Jan Maria de Lange", surname="de Lange")) == "Jan Maria d."
    assert initial_name(Player("P1", "Madonna")) == "M."


def test_a_minor_without_consent_is_asked_about_at_the_check_in(tmp_path: Path) -> None:
    c = school(tmp_path)
    c.ok("players", "minor", "P001", "P002")
    refused = c.fails("players", "check-in", "--all")
    assert "P001 Anna Kowalska, P002 Łukasz Żółć: marked minor" in refused
    assert "003 §8" in refused and "--admit-minors" in refused
    assert not c.competition().event.present  # nothing checked in: not even the adults

    out = c.ok("players", "minor", "P002", "--consent")
    assert "Minor, a guardian's written consent received: P002" in out
    out = c.ok("players", "check-in", "--all", "--admit-minors", by="organizer Ola")
    assert "Admitted without a guardian's written consent recorded" in out and "P001" in out
    comp = c.competition()
    assert len(comp.event.present) == 8
    admitted = comp.admitted["P001"]
    assert isinstance(admitted, MinorAdmitted) and admitted.by == "organizer Ola"
    assert "P002" not in comp.admitted  # their consent is recorded: nothing to decide
    shown = c.ok("event", "show")
    assert "Minors:   2, a guardian's written consent recorded for 1" in shown


def test_the_draw_asks_about_a_minor_marked_after_the_check_in(tmp_path: Path) -> None:
    c = school(tmp_path)
    c.ok("players", "check-in", "--all")
    c.ok("players", "minor", "P005")
    refused = c.fails("round", "draw", "--seed", "3")
    assert "draw: P005 Piotr Nowak: marked minor" in refused
    c.ok("round", "draw", "--seed", "3", "--admit-minors")
    comp = c.competition()
    assert comp.event.stages_played == ("round-1",) and "P005" in comp.admitted
    # of age after all: nothing to ask about from now on
    c.ok("players", "minor", "P005", "--adult")
    assert not c.competition().is_minor("P005")


def test_the_organizers_functions_refuse_without_storing(tmp_path: Path) -> None:
    store = EventStore(tmp_path / "e.sqlite3")
    org = Organizer(store, by="Ola")
    org.create_event("Liga", "school", privacy=NameShown.INITIAL)
    org.register([Player(f"P{i:03d}", name) for i, name in enumerate(NAMES, 1)])
    org.record_minor(["P003"])
    before = store.counts()["total"]
    with pytest.raises(ConsentMissingError) as refused:
        org.late_arrival("P003")
    assert refused.value.missing == ("P003",)
    with pytest.raises(ConsentMissingError):
        org.check_in(["P001", "P003"])
    assert store.counts()["total"] == before
    assert org.competition.names_shown is NameShown.INITIAL
    store.close()


def test_privacy_names_the_public_and_the_hub_screen_only(tmp_path: Path) -> None:
    c = school(tmp_path)
    c.ok("players", "minor", "P001", "--consent")
    c.ok("players", "check-in", "--all")
    c.ok("round", "draw", "--seed", "5")
    comp = c.competition()
    assert public_name(comp, "P001") == "Anna K."
    assert public_name(comp, "P002") == "Łukasz Żółć"
    assert published(c.competition()).event.players["P002"].name == "Łukasz Żółć"

    # the tables and the hub screen: every message the hub retains for the hall
    store = EventStore(c.db)
    sent = b"".join(
        m.payload for m in Conductor(Organizer(store), Topics("v", "e")).messages()
    )
    assert b"Anna K." in sent and b"Kowalska" not in sent
    assert "Łukasz Żółć".encode() in sent

    shown = c.ok("event", "privacy", "initial", "--why", "a school contest")
    assert "everyone as given name and initial" in shown
    messages = Conductor(Organizer(store), Topics("v", "e")).messages()
    sent = b"".join(m.payload for m in messages)
    store.close()
    for name in NAMES:
        assert name.split()[-1].encode() not in sent, name
    topics = Topics("v", "e")
    assert {topics.assign(1), topics.seating, topics.standings} <= {m.topic for m in messages}
    assert "everyone as given name and initial" in c.ok("event", "privacy")

    # the organizer's own lists keep the full names
    assert "Anna Kowalska" in c.ok("players", "list")


def test_exports_for_publication_follow_the_setting(tmp_path: Path) -> None:
    c = school(tmp_path, "--privacy", "initial")
    c.ok("players", "check-in", "--all")
    c.ok("round", "draw", "--seed", "2")
    c.ok("round", "start")
    play_round(c, random.Random(2))
    c.ok("round", "close")
    c.ok("export", "csv", str(tmp_path / "public"), "--public")
    c.ok("export", "csv", str(tmp_path / "full"))
    c.ok("export", "html", str(tmp_path / "html"), "--public")
    public = _texts(tmp_path / "public", "*.csv") + _texts(tmp_path / "html", "*.html")
    full = _texts(tmp_path / "full", "*.csv")
    assert "Anna K." in public and "Łukasz Ż." in public
    for name in NAMES:
        assert name.split()[-1] not in public, name
        assert name in full
    rows = list(csv.reader(next((tmp_path / "public").glob("*standings*")).open(
        encoding="utf-8-sig")))
    assert any("Zofia B." in row for row in rows)


def _texts(folder: Path, pattern: str) -> str:
    return "\n".join(p.read_text(encoding="utf-8-sig") for p in sorted(folder.glob(pattern)))


def test_erasure_leaves_no_name_in_the_file_and_the_standings_as_they_were(
    tmp_path: Path,
) -> None:
    c = school(tmp_path)
    c.ok("players", "rename", "P008", "Marta Źdźbło-Nowicka", "--why", "a double surname")
    out = c.ok("players", "rename", "P002", "--league-number", "gda-0707", "--why",
               "the league's number GDA-0707 came late")
    assert "League number: none → GDA-0707" in out
    c.ok("players", "minor", "P004")
    c.ok("players", "check-in", "--all", "--admit-minors")
    rng = random.Random(8)
    for seed in range(1, 5):
        c.ok("round", "draw", "--seed", str(seed))
        c.ok("round", "start")
        play_round(c, rng)
        if seed == 2:
            c.ok("players", "withdraw", "P006", "--reason", "Ewa Ślęzak felt ill")
        c.ok("round", "close")
    before = c.competition()
    standings = {s: before.event.standings(s).rows for s in before.event.stages_played}
    ranking = before.event.final_ranking()

    refused = c.fails("event", "erase", "--confirm", "Konkurs")
    assert "type the event's name 'Konkurs klas 4' to confirm" in refused
    out = c.ok("event", "erase", "--confirm", "Konkurs klas 4")
    assert "Personal data of 8 players erased" in out
    assert "copied anew" in out

    after = c.competition()
    assert {p.name for p in after.event.players.values()} == {f"P{i:03d}" for i in range(1, 9)}
    assert all(p.club is None and not p.league_number for p in after.event.players.values())
    assert {s: after.event.standings(s).rows for s in after.event.stages_played} == standings
    assert after.event.final_ranking() == ranking
    assert after.erased is not None and after.erased.by == "organizer Ola"
    assert after.event.withdrawn == before.event.withdrawn

    data = b"".join(
        p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith("school.sqlite3")
    )
    for name in [*NAMES, "Źdźbło-Nowicka", CLUB, "GDA-0707"]:
        for text in {name, *name.split()}:
            if len(text) > 3:
                assert text.encode() not in data, text
    # once erased, the command only copies the file anew; the record stays the first one
    again = c.ok("event", "erase", "--confirm", "Konkurs klas 4")
    assert "Personal data of 8 players erased" in again
    assert c.competition().erased == after.erased
    assert "P001" in c.ok("standings")


def test_erasure_rewrites_a_seat_a_change_and_free_text() -> None:
    anna = Player("P001", "Anna Kowalska", "SP 3")
    erasure = Erasure.of([anna, Player("P001", "Anna Kowalsky", "SP 3")])
    seat = b'{"seat":"A","name":"Anna Kowalska","player":"P001"}'
    assert erasure.payload(seat) == b'{"seat":"A","name":"P001","player":"P001"}'
    change = (
        b'{"record":"organizer","at":1.0,"by":"Ola","why":"Anna Kowalsky is Kowalska",'
        b'"fact":{"fact":"player-details-changed","player_id":"P001","name":"Anna Kowalska",'
        b'"surname":"","club":"SP 3"}}'
    )
    erased = erasure.payload(change)
    assert erased is not None
    assert b"Kowals" not in erased and b"SP 3" not in erased
    assert b'"why":"P001 is \xe2\x80\x94"' in erased and b'"by":"Ola"' in erased
    assert erasure.payload(b'{"kind":"move_passed","seat":"A"}') is None
    assert erasure.payload(b"not json") is None


def test_the_public_pages_name_players_as_the_setting_says(tmp_path: Path) -> None:
    c = school(tmp_path)
    c.ok("players", "minor", "P001", "--consent")
    c.ok("players", "check-in", "--all")
    c.ok("round", "draw", "--seed", "5")
    c.ok("round", "start")
    reader = EventReader(c.db)
    app = make_app(Console(reader, LiveTables(None, Topics("hall", "web"), reader.version)))
    with TestClient(app) as client:
        found = client.get("/find", params={"q": "anna k"}).text
        assert "Anna K." in found and "Kowalska" not in found
        assert "Anna" not in client.get("/find", params={"q": "kowalska"}).text
        standings = client.get("/standings").text
        assert "Anna K." in standings and "Kowalska" not in standings
        assert "Łukasz Żółć" in standings
        c.ok("event", "privacy", "initial")
        standings = client.get("/standings").text
        for name in NAMES:
            assert name.split()[-1] not in standings, name
        assert "Łukasz Ż." in standings
    reader.close()


def test_a_players_own_page_names_them_as_the_setting_says(tmp_path: Path) -> None:
    c = school(tmp_path)
    c.ok("players", "minor", "P001", "--consent")
    c.ok("players", "check-in", "--all")
    c.ok("round", "draw", "--seed", "5")
    reader = EventReader(c.db)
    app = make_app(Console(reader, LiveTables(None, Topics("hall", "web"), reader.version)))
    with TestClient(app) as client:
        page = client.get("/players/P001").text
        assert "Anna K." in page and "Kowalska" not in page
    reader.close()


def test_a_minors_club_is_not_public(tmp_path: Path) -> None:
    """A pupil's school beside "Magda M." would tell who she is: a player marked minor is
    shown without a club wherever the public reads them; the organizer keeps it."""
    c = Cli(tmp_path / "school.sqlite3")
    c.ok("event", "create", "--preset", "school", "--name", "Konkurs klas 4")
    c.ok("players", "add", "Magda Mazur", "--club", "SP 12 Kraków")
    for name in NAMES[1:4]:
        c.ok("players", "add", name, "--club", CLUB)
    c.ok("players", "minor", "P001", "--consent")
    c.ok("players", "check-in", "--all")
    c.ok("round", "draw", "--seed", "5")
    c.ok("export", "csv", str(tmp_path / "public"), "--public")
    c.ok("export", "csv", str(tmp_path / "full"))
    assert "SP 12 Kraków" not in _texts(tmp_path / "public", "*.csv")
    assert "SP 12 Kraków" in _texts(tmp_path / "full", "*.csv")
    assert CLUB in _texts(tmp_path / "public", "*.csv")
    reader = EventReader(c.db)
    app = make_app(Console(reader, LiveTables(None, Topics("hall", "web"), reader.version)))
    with TestClient(app) as client:
        for page in ("/find?q=magda", "/standings", "/players/P001"):
            shown = client.get(page).text
            assert "Magda M." in shown and "SP 12" not in shown, page
    reader.close()
