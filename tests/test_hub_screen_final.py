"""The end of the event on the hub screen: the hub sends the final standings with the
ranking's titles, and the screen says the EVENT is finished (not just the round), marks
the podium with its titles, and lists every name whole — with the 60-table sample hall,
in both languages, at 720p and 1080p.
"""

from __future__ import annotations

import os
import random
from dataclasses import replace
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import msgspec
import pygame
import pytest

from hub.conductor import Conductor
from hub.hall import PageKind
from hub.organizer import Organizer
from hub.samples import final_hall
from hub.screen.render import HallScreen
from hub.store import EventStore
from hub.tournament.ranking import UNDECIDED_TITLE
from tablekit.core.codec import decode
from tablekit.core.messages import StandingLine, StandingsBoard
from tablekit.core.topics import Topics
from tests.test_cli_support import Cli, Clock, play_rounds

NOW = 1_800_000_000.0
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "hub-screen"
WORDS = {
    "pl": ("TURNIEJ ZAKOŃCZONY", "KLASYFIKACJA KOŃCOWA"),
    "en": ("EVENT FINISHED", "FINAL STANDINGS"),
}
TITLES = {  # (champion, vice-champion) said of a woman and of a man
    "pl": {"f": ("MISTRZYNI", "WICEMISTRZYNI"), "m": ("MISTRZ", "WICEMISTRZ")},
    "en": {"f": ("CHAMPION", "VICE-CHAMPION"), "m": ("CHAMPION", "VICE-CHAMPION")},
}


@pytest.fixture(scope="module", autouse=True)
def _pygame():
    pygame.init()
    yield
    pygame.quit()


def test_the_hub_sends_the_final_standings_with_the_rankings_titles(tmp_path: Path) -> None:
    c = Cli(tmp_path / "event.sqlite3")
    c.ok("event", "create", "--preset", "school", "--name", "Szkoła")
    for i in range(8):
        c.ok("players", "add", f"Uczeń {i + 1:02d}", "--check-in")
    play_rounds(c, random.Random(5), range(1, 5))
    org = Organizer(EventStore(c.db), by="Ala", clock=Clock())
    topics = Topics("hall", "final")
    sent = {m.topic: m.payload for m in Conductor(org, topics, clock=Clock()).messages()}
    board = decode(StandingsBoard, sent[topics.standings])
    assert board.final
    assert [r.title for r in board.rows if r.place == 1] == ["winner"] * sum(
        r.place == 1 for r in board.rows
    )
    assert {r.title for r in board.rows if r.place > 1} == {""}
    assert b'"title":"winner"' in sent[topics.standings]
    # the title's holder's gender beside it ("Uczeń" is a boy's word), none without a title
    assert {r.gender for r in board.rows if r.title} == {"m"}
    assert {r.gender for r in board.rows if not r.title} == {None}


def test_a_standing_line_without_a_title_keeps_its_wire_format() -> None:
    line = StandingLine(place=2, name="Ann", big=2, small=-5, games=3)
    assert msgspec.json.encode(line) == b'{"place":2,"name":"Ann","big":2,"small":-5,"games":3}'
    titled = msgspec.structs.replace(line, place=1, title="champion")
    assert msgspec.json.decode(msgspec.json.encode(titled), type=StandingLine) == titled


@pytest.mark.parametrize("language", ["pl", "en"])
@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_final_standings_say_the_event_is_finished_and_mark_the_podium(size, language):
    finished, final_title = WORDS[language]
    hall = replace(final_hall(60, NOW), language=language)
    screen = HallScreen(pygame.Surface(size))
    pages = [p for p in screen.sequence(hall) if p.kind is PageKind.STANDINGS]
    assert pages and PageKind.SEATING not in {p.kind for p in screen.sequence(hall)}
    out = ARTIFACTS / language / f"{size[0]}x{size[1]}" / "final"
    out.mkdir(parents=True, exist_ok=True)
    board = hall.standings
    assert board is not None and board.final
    drawn_names: list[str] = []
    for page in pages:
        screen.draw_page(hall, page, NOW)
        pygame.image.save(screen.surface, str(out / f"standings-{page.index + 1}.png"))
        header = [p.text for p in screen.placed["header"]]
        assert finished in header and final_title in header[2], header
        assert not any("ROUND CLOSED" in t or "RUNDA ZAMKNIĘTA" in t for t in header)
        body = screen.placed["body"]
        for p in body:
            assert p.box.contains(p.rect) and p.size >= screen.layout.text
            assert p.text == p.wanted, f"{p.wanted!r} cut to {p.text!r} on page {page.index}"
        drawn_names += [p.text for p in body if p.name]
        if page.index == 0:
            podium = [r for r in board.rows if r.place <= 3]
            assert {r.gender for r in podium} == {"f", "m"}  # the sample has girls and boys
            # The names of the podium in gold, beside their titles, which agree with them.
            for r in podium:
                assert r.gender is not None
                champion, vice = TITLES[language][r.gender]
                name = next(p for p in body if p.name and p.wanted == r.name)
                title = next(p for p in body if p.box.top == name.box.top and p.text.isupper()
                             and p is not name)
                assert title.text == (champion if r.place == 1 else vice)
                assert name.rect.right < title.rect.left
    assert drawn_names == [r.name for r in board.rows]  # every name, whole, in order


@pytest.mark.parametrize("language", ["pl", "en"])
def test_an_undecided_tie_for_a_title_is_said_whole_beside_both_names(language: str) -> None:
    """Two players level for 3rd where only 3rd is a vice-champion: neither is shown as
    one; the screen says the head judge decides, beside each name, whole."""
    hall = replace(final_hall(60, NOW), language=language)
    board = hall.standings
    assert board is not None
    rows = [
        msgspec.structs.replace(r, place=3, title=UNDECIDED_TITLE) if r.place in (3, 4) else r
        for r in board.rows
    ]
    hall = replace(hall, standings=msgspec.structs.replace(board, rows=tuple(rows)))
    screen = HallScreen(pygame.Surface((1280, 720)))
    [first, *_] = [p for p in screen.sequence(hall) if p.kind is PageKind.STANDINGS]
    screen.draw_page(hall, first, NOW)
    out = ARTIFACTS / language / "1280x720" / "final"
    out.mkdir(parents=True, exist_ok=True)
    pygame.image.save(screen.surface, str(out / "standings-undecided.png"))
    said = {"pl": "REMIS — DECYDUJE SĘDZIA", "en": "TIE — THE HEAD JUDGE DECIDES"}[language]
    body = screen.placed["body"]
    undecided = [p for p in body if p.wanted == said]
    assert len(undecided) == 2 and all(p.text == p.wanted for p in undecided)
    assert all(p.box.contains(p.rect) for p in undecided)
