"""The web console's QR codes, read back: every code the kit draws is decoded from the
drawn pixels by zbar (Debian's zbar-tools, installed by ``./kit test``) and must give the
address it was drawn for; the drawn modules are also compared with segno's, pixel by
pixel. PNGs in ``artifacts/hub-screen/qr/`` (the hub screen, the printouts) and
``artifacts/display/qr/`` (a table's display between games)."""

from __future__ import annotations

import os
import subprocess
import time
from dataclasses import replace
from pathlib import Path

import pygame
import pytest
from test_cli_support import Cli
from test_hall_language import TOPICS as LANG_TOPICS
from test_hall_language import Link

from hub.exports.printouts import find_table_html
from hub.hall import Page, PageKind
from hub.samples import sample_hall
from hub.screen.feed import HallTracker, ScreenFeed
from hub.screen.render import HallScreen
from hub.service import HubService
from tablekit.core.clock import ClockRules, MoveClock
from tablekit.core.messages import ConsoleLink
from tablekit.core.topics import Cleared, Kind
from tablekit.display import Renderer, render_surface
from tablekit.layout.compose import compose
from tablekit.layout.scene import QrCode, Text, layout_for
from tablekit.samples import sample_views
from tablekit.shared.i18n import words
from tablekit.shared.qr import DARK, LIGHT, QUIET, Modules, place, qr_modules
from tablekit.unit import TableUnit

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "hub-screen" / "qr"
DISPLAY = Path(__file__).resolve().parents[1] / "artifacts" / "display" / "qr"
URL = "http://rummikub.local:8080"
NOW = 1_760_000_000.0


def zbar(png: Path) -> list[str]:
    """What zbar reads in ``png``: one line per code found."""
    done = subprocess.run(
        ["zbarimg", "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", str(png)],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode in (0, 4), done.stderr  # 4: no code found
    return done.stdout.splitlines()


def read_modules(surface: pygame.Surface, square: pygame.Rect, count: int) -> Modules:
    """The modules drawn in ``square`` (quiet zone included), sampled at each one's
    centre: dark or light, nothing in between."""
    module = square.width // (count + 2 * QUIET)
    rows = []
    for r in range(count):
        row = []
        for c in range(count):
            x = square.left + (QUIET + c) * module + module // 2
            y = square.top + (QUIET + r) * module + module // 2
            colour = tuple(surface.get_at((x, y)))[:3]
            assert colour in (DARK, LIGHT), (r, c, colour)
            row.append(colour == DARK)
        rows.append(tuple(row))
    return tuple(rows)


def test_modules_are_placed_whole_and_centred() -> None:
    modules = qr_modules(URL + "/find")
    count = len(modules)
    assert count in (21, 25, 29, 33)  # a short address: a small code
    placed = place(modules, 10, 20, 300, 200)
    assert placed is not None
    module = 200 // (count + 2 * QUIET)
    assert placed.module == module and placed.size == module * (count + 2 * QUIET)
    assert placed.square[1] == 20 + (200 - placed.size) // 2  # centred in the box
    assert len(placed.dark) == sum(map(sum, modules))
    assert place(modules, 0, 0, count, count) is None  # not even a pixel per module


@pytest.fixture(scope="module")
def _pygame():  # type: ignore[no-untyped-def]
    pygame.init()
    yield
    pygame.quit()


@pytest.mark.usefixtures("_pygame")
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
@pytest.mark.parametrize(
    ("kind", "path"), [(PageKind.SEATING, "/find"), (PageKind.STANDINGS, "/standings")]
)
def test_the_hub_screens_list_pages_show_the_consoles_code(
    size: tuple[int, int], kind: PageKind, path: str
) -> None:
    hall = replace(sample_hall(24, NOW), console_url=URL)
    surface = pygame.Surface(size)
    screen = HallScreen(surface)
    page = next(p for p in screen.sequence(hall) if p.kind is kind)
    screen.draw_page(hall, page, NOW)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    png = ARTIFACTS / f"{size[0]}x{size[1]}-{kind.value}.png"
    pygame.image.save(surface, str(png))
    assert zbar(png) == [URL + path]
    modules = qr_modules(URL + path)
    code = screen.placed["qr"]
    assert [p.text for p in code] == ["Znajdź swój stolik" if path == "/find" else "Klasyfikacja",
                                      "rummikub.local:8080" + path]
    placed = place(modules, *screen_column(screen))
    assert placed is not None and placed.module >= 5  # big enough to read across a hall
    assert read_modules(surface, pygame.Rect(placed.square), len(modules)) == modules
    # the list keeps clear of the code's column
    for text in screen.placed["body"]:
        assert text.rect.right <= placed.square[0]


def screen_column(screen: HallScreen) -> tuple[int, int, int, int]:
    """The box the code was placed in (as the screen's draw_qr does)."""
    from hub.screen.qr import qr_column

    rect = qr_column(screen.canvas)
    line = round(screen.layout.text * 1.4)
    return rect.left, rect.top, rect.width, min(rect.width, rect.height - 3 * line)


@pytest.mark.usefixtures("_pygame")
def test_without_an_address_the_lists_have_the_whole_body() -> None:
    hall = replace(sample_hall(24, NOW), console_url="")
    screen = HallScreen(pygame.Surface((1280, 720)))
    screen.draw_page(hall, Page(PageKind.SEATING, 0, 1), NOW)
    assert "qr" not in screen.placed
    assert max(t.rect.right for t in screen.placed["body"]) > 1280 * 0.8


def test_the_screens_feed_takes_the_address_and_its_clearing() -> None:
    tracker = HallTracker()
    tracker.apply(ConsoleLink(v=1, url=URL), NOW, retained=True)
    assert tracker.view(NOW).console_url == URL
    tracker.apply(Cleared(Kind.CONSOLE, None), NOW + 1)
    assert tracker.view(NOW + 1).console_url == ""


# --- the printed sheets for the wall ---------------------------------------------------------


def test_the_printed_seating_sheets_carry_the_consoles_code(tmp_path: Path) -> None:
    """``rummikub export pdf`` with ``[web] public_url`` set: the seating by table and the
    find-your-table sheet each carry the code of the console's find your table, which a
    phone reads off the printed page (rendered at 150 dpi, as a printer's copy)."""
    config = tmp_path / "hub.toml"
    config.write_text(f'[web]\npublic_url = "{URL}/"\n')
    c = Cli(tmp_path / "e.sqlite3")
    c.ok("event", "create", "--preset", "school", "--name", "Szkoła")
    for i in range(8):
        c.ok("players", "add", f"Uczeń {i + 1}", "--check-in")
    c.ok("round", "draw", "--seed", "1")
    out = tmp_path / "out"
    c.ok("--config", str(config), "export", "pdf", str(out))
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for stem in ("seating", "find-your-table"):
        png = ARTIFACTS / f"printout-{stem}"
        subprocess.run(["pdftoppm", "-png", "-r", "150", "-f", "1", "-l", "1", "-singlefile",
                        str(out / f"{stem}.pdf"), str(png)], check=True)
        assert zbar(png.with_suffix(".png")) == [URL + "/find"], stem
    html = find_table_html(c.competition(), words("pl"), console_url=URL)
    assert "rummikub.local:8080/find" in html and 'src="data:image/svg+xml' in html
    plain = tmp_path / "plain"
    c.ok("export", "html", str(plain))  # no address: no code
    assert "data:image/svg" not in (plain / "seating.html").read_text()
    assert "data:image/svg" not in (out / "standings.pdf").read_bytes().decode("latin-1")


# --- the table's display ---------------------------------------------------------------------


@pytest.mark.usefixtures("_pygame")
@pytest.mark.parametrize("size", [(480, 320), (800, 480), (320, 480), (1024, 600)])
def test_between_games_the_display_shows_its_tables_page(size: tuple[int, int]) -> None:
    """The hub's address reached the unit: while the next game waits for its first press
    the clock panel shows the code of the table's own page (``/tables/7``) beside the move
    time; playing, nothing takes the digits' room."""
    views = sample_views(NOW, "pl")
    ready = views["ready-console"]
    assert ready.table_page == URL + "/tables/7"
    surface = render_surface(ready, NOW, size, Renderer())
    DISPLAY.mkdir(parents=True, exist_ok=True)
    png = DISPLAY / f"{size[0]}x{size[1]}-ready.png"
    pygame.image.save(surface, str(png))
    assert zbar(png) == [URL + "/tables/7"]
    (clock,) = [p for p in compose(ready, NOW, layout_for(*size)) if p.name == "clock"]
    (code,) = [i for i in clock.items if isinstance(i, QrCode)]
    assert code.modules == qr_modules(URL + "/tables/7")
    placed = place(code.modules, *code.box.as_tuple())
    assert placed is not None and placed.module >= 3
    assert read_modules(surface, pygame.Rect(placed.square), len(code.modules)) == code.modules
    digits = next(i for i in clock.items if isinstance(i, Text))
    assert digits.text == "40" and not digits.box.overlaps(code.box)
    playing = replace(views["playing"], console_url=URL)
    clock_playing = [p for p in compose(playing, NOW, layout_for(*size)) if p.name == "clock"]
    assert not any(isinstance(i, QrCode) for p in clock_playing for i in p.items)


def test_the_unit_takes_the_address_and_its_clearing() -> None:
    unit = TableUnit(MoveClock(ClockRules(seats=4, move_seconds=40)), table=3)
    unit.handle(ConsoleLink(v=1, url=URL))
    assert unit.view.table_page == URL + "/tables/3"
    unit.handle(Cleared(Kind.CONSOLE, None))
    assert unit.view.console_url == "" and unit.view.table_page == ""


@pytest.mark.mqtt
def test_the_hubs_address_reaches_the_tables_and_the_screen(
    tmp_path: Path, mosquitto, wait_until  # type: ignore[no-untyped-def]
) -> None:
    """rummikub-hub with ``[web] public_url``: a table's link and the hub screen's feed
    (real Mosquitto) both get the address, retained, before any event exists."""
    broker = mosquitto()
    service = HubService(broker.client_settings(), tmp_path / "hub.sqlite3", LANG_TOPICS,
                         console_url=URL)
    service.start()
    link = Link(tmp_path, broker, 3)
    feed = ScreenFeed(broker.client_settings(), LANG_TOPICS)
    try:
        assert service.wait_online(10)
        link.link.start()
        feed.start()
        wait_until(lambda: ConsoleLink(v=1, url=URL) in link.got(), 10, "the unit's address")
        wait_until(lambda: feed.hall(time.time()).console_url == URL, 10, "the screen's")
    finally:
        feed.stop()
        link.link.stop()
        link.journal.close()
        service.stop()
