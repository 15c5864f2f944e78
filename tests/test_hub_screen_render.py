"""The hub screen rendered with SDL's dummy driver: every page to PNG, layout and content.

PNGs go to ``artifacts/hub-screen/<W>x<H>/<N>-tables/`` at the repo root.
"""

from __future__ import annotations

import os
from dataclasses import replace
from itertools import combinations
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import msgspec
import pygame
import pytest

from hub.exports.pages import printed_number
from hub.hall import (
    HallView,
    Page,
    PageKind,
    countdown_text,
    judge_queue,
    remaining_at,
    state_of,
)
from hub.samples import sample_hall
from hub.screen import main
from hub.screen.geometry import min_text
from hub.screen.lists import standings_title
from hub.screen.render import HallScreen
from hub.screen.wall import cell_content
from hub.tournament.standings import place_labels, signed
from tablekit.core.status import TableState
from tablekit.shared.i18n import words

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "hub-screen"
NOW = 1_800_000_000.0
SIZES = [(1920, 1080), (1280, 720)]
COUNTS = [1, 9, 24, 60]


def english_hall(count: int, now: float, seed: int = 7) -> HallView:
    """The sample hall of ``count`` tables, its screen in English (these tests read its
    English words; tests/test_hub_screen_words.py reads both languages)."""
    return replace(sample_hall(count, now, seed), language="en")


@pytest.fixture(scope="module", autouse=True)
def _pygame():
    pygame.init()
    yield
    pygame.quit()


def check_texts_fit(screen: HallScreen) -> None:
    bounds = screen.surface.get_rect()
    placed = screen.all_placed()
    assert placed
    for p in placed:
        assert p.box.contains(p.rect), f"{p.text!r} ({p.rect}) overflows its box {p.box}"
        assert bounds.contains(p.rect), f"{p.text!r} is off screen"
        assert p.size >= screen.layout.text, f"{p.text!r} at {p.size} px < {screen.layout.text}"


def texts_in(screen: HallScreen, region: str) -> list[str]:
    return [p.text for p in screen.placed.get(region, [])]


def cell_region(screen: HallScreen, number: int) -> str:
    rect = screen.cells[number]
    grid = screen._grid
    assert grid is not None
    return f"cell:{grid.cells.index(rect)}"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("count", COUNTS)
def test_every_page_renders_to_png_with_a_sound_layout(count, size, capsys):
    hall = english_hall(count, NOW)
    surface = pygame.Surface(size)
    screen = HallScreen(surface)
    out = ARTIFACTS / f"{size[0]}x{size[1]}" / f"{count}-tables"
    out.mkdir(parents=True, exist_ok=True)
    pages = screen.sequence(hall)
    kinds = [p.kind for p in pages]
    assert kinds.count(PageKind.STANDINGS) >= 1
    assert kinds.count(PageKind.SEATING) >= 1
    shown: list[int] = []
    for page in pages:
        screen.draw_page(hall, page, NOW)
        path = out / f"{page.kind.value}-{page.index + 1}.png"
        pygame.image.save(surface, str(path))
        check_texts_fit(screen)
        if page.kind is PageKind.WALL:
            cells = list(screen.cells.values())
            for a, b in combinations(cells, 2):
                assert not a.colliderect(b), f"cells {a} and {b} overlap"
            for rect in cells:
                assert screen.layout.wall.contains(rect)
                assert not rect.colliderect(screen.layout.sidebar)
                assert not rect.colliderect(screen.layout.header)
                assert rect.height * 100 >= size[1] * 15  # a cell is at least 15 % high
            shown.extend(screen.cells)
    assert sorted(shown) == [t.number for t in hall.tables]  # each table on one page
    with capsys.disabled():
        print(f"\n  hub screen PNGs: {out}")


def test_sixty_tables_fit_on_two_pages_at_both_resolutions():
    for size in SIZES:
        screen = HallScreen(pygame.Surface(size))
        grid = screen.grid(60)
        assert (grid.pages, grid.per_page) == (2, 30)
        assert screen.layout.text == min_text(size[1]) >= 13


def test_wall_content_judge_queue_offline_countdown():
    hall = english_hall(24, NOW)
    screen = HallScreen(pygame.Surface((1920, 1080)))
    now = NOW + 3.4
    screen.draw_page(hall, Page(PageKind.WALL), now)

    paused = [t for t in hall.tables if state_of(t) is TableState.PAUSED_JUDGE]
    assert paused
    sidebar = texts_in(screen, "sidebar")
    for t in paused:
        assert f"T{t.number}" in sidebar
    assert "PAUSED" in sidebar and "CALLED" in sidebar
    queue = judge_queue(hall, now)
    assert sidebar.index(f"T{queue[0].table}") < sidebar.index(f"T{queue[1].table}")

    offline = next(t for t in hall.tables if state_of(t) is TableState.OFFLINE)
    assert "OFFLINE for 45 s" in texts_in(screen, cell_region(screen, offline.number))

    for t in hall.tables:
        if state_of(t) is TableState.PLAYING:
            expected = countdown_text(remaining_at(t, now))
            assert expected in texts_in(screen, cell_region(screen, t.number))
            assert cell_content(t, now, False).countdown == expected


def test_the_countdown_shown_follows_the_clock_for_a_given_now():
    t = replace(english_hall(1, NOW).tables[0], remaining=30.0, measured_at=NOW)
    hall = HallView(tables=(t,), language="en")
    screen = HallScreen(pygame.Surface((1280, 720)))
    for elapsed, shown in ((0.0, "30"), (0.5, "30"), (1.0, "29"), (12.3, "18"), (31.0, "0")):
        screen.draw_page(hall, Page(PageKind.WALL), NOW + elapsed)
        assert shown in texts_in(screen, "cell:0"), (elapsed, texts_in(screen, "cell:0"))


def test_shared_places_render_as_shared():
    hall = english_hall(9, NOW)
    assert hall.standings is not None
    screen = HallScreen(pygame.Surface((1920, 1080)))
    screen.draw_page(hall, Page(PageKind.STANDINGS, 0, 1), NOW)
    texts = texts_in(screen, "body")
    places = [r.place for r in hall.standings.rows]
    shared = {p for p in places if places.count(p) > 1}
    assert shared
    for p in shared:
        assert texts.count(f"{p}=") == places.count(p)
    assert "2= shared place (level on BP and SP)" in texts


def test_hidden_standings_leave_the_rotation_and_show_a_notice():
    hall = replace(english_hall(9, NOW), hide_standings=True)
    screen = HallScreen(pygame.Surface((1280, 720)))
    assert PageKind.STANDINGS not in {p.kind for p in screen.sequence(hall)}
    screen.key(pygame.K_2, hall, NOW)
    screen.frame(hall, NOW)
    assert "Standings are shown when round 2 is closed" in texts_in(screen, "body")
    assert hall.round is not None
    closed = replace(hall, round=msgspec.structs.replace(hall.round, closed=True))
    assert PageKind.STANDINGS in {p.kind for p in screen.sequence(closed)}


def test_keys_switch_pages():
    hall = english_hall(60, NOW)
    screen = HallScreen(pygame.Surface((1280, 720)), cycle=0)
    screen.frame(hall, NOW)
    assert screen.pager.current == Page(PageKind.WALL, 0, 2)
    for key, expected in (
        (pygame.K_SPACE, Page(PageKind.WALL, 1, 2)),
        (pygame.K_3, PageKind.SEATING),
        (pygame.K_2, PageKind.STANDINGS),
        (pygame.K_1, Page(PageKind.WALL, 0, 2)),
        (pygame.K_LEFT, PageKind.SEATING),
    ):
        assert screen.key(key, hall, NOW)
        screen.frame(hall, NOW)
        current = screen.pager.current
        assert current == expected or current.kind == expected
    assert not screen.key(pygame.K_q, hall, NOW)


def test_only_what_changed_is_redrawn():
    hall = english_hall(60, NOW)
    screen = HallScreen(pygame.Surface((1920, 1080)), cycle=0)
    assert screen.frame(hall, NOW) == [screen.surface.get_rect()]  # a new page: all of it
    on_page = hall.tables[:30]
    slow = {t.number for t in on_page if t.number == 10}
    previous = NOW
    for now in (NOW + 0.1, NOW + 0.2, NOW + 1.0, NOW + 1.1, NOW + 2.5):
        dirty = screen.frame(hall, now)
        expected = {
            tuple(screen.cells[t.number])
            for t in on_page
            if cell_content(t, previous, t.number in slow) != cell_content(t, now, t.number in slow)
        }
        cells = set(map(tuple, screen.cells.values()))
        assert {tuple(r) for r in dirty if tuple(r) in cells} == expected
        assert len(expected) < len(on_page)
        previous = now
    assert screen.frame(hall, NOW + 2.5) == []  # the same instant again: nothing


def test_png_command_renders_every_page(tmp_path, capsys):
    assert main(["--demo", "9", "--size", "1280x720", "--png", str(tmp_path)]) == 0
    written = capsys.readouterr().out.split()
    names = sorted(Path(p).name for p in written)
    assert names == [
        "final-standings-1.png", "final-wall-1.png",  # the sample event once it is over
        "seating-1.png", "standings-1.png", "wall-1.png",
    ]
    image = pygame.image.load(written[0])
    assert image.get_size() == (1280, 720)


def test_png_command_renders_every_page_in_every_language(tmp_path, capsys):
    argv = ["--demo", "9", "--size", "1280x720", "--png", str(tmp_path), "--all-languages"]
    assert main(argv) == 0
    written = [Path(p) for p in capsys.readouterr().out.split()]
    for language in ("pl", "en"):
        names = sorted(p.name for p in written if p.parent == tmp_path / language)
        assert names == [
            "final-standings-1.png", "final-wall-1.png",
            "seating-1.png", "standings-1.png", "wall-1.png",
        ]
    assert all(p.exists() for p in written)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--size", "100x100"], "size must be from 640x360"),
        (["--size", "big"], "expected WIDTHxHEIGHT"),
        (["--broker", "host:0"], "port must be 1-65535"),
        (["--cycle", "-3"], "seconds must be 0-3600"),
        (["--demo", "0"], "number of tables 1-200"),
    ],
)
def test_bad_arguments_get_clear_errors(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main([*argv, "--lang", "en"])
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_bad_topic_level_is_a_clear_error(capsys):
    argv = ["--venue", "no spaces", "--png", "/nonexistent-never-written", "--lang", "en"]
    assert main(argv) == 2
    assert "venue" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("setup", "with_user", "message"),
    [
        (None, True, "cannot read it: No such file or directory"),
        ("dir", True, "cannot read it: Is a directory"),
        ("", True, "the file is empty"),
        ("\n\n", True, "the file is empty"),
        (b"\xff\xfe", True, "not UTF-8 text"),
        ("secret-secret-secret\n", False, "--password-file needs --username"),
    ],
)
def test_password_file_problems_are_one_line_and_exit_2(
    tmp_path, capsys, setup, with_user, message
):
    path = tmp_path / "screen-password"
    if setup == "dir":
        path.mkdir()
    elif isinstance(setup, bytes):
        path.write_bytes(setup)
    elif setup is not None:
        path.write_text(setup)
    argv = ["--password-file", str(path), "--png", str(tmp_path / "never-written"), "--lang", "en"]
    argv += ["--username", "screen"] if with_user else []
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("rummikub-screen: error: --password-file")
    assert message in err
    assert not (tmp_path / "never-written").exists()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_small_points_show_winner_plus(size):
    hall = english_hall(9, NOW)
    board = hall.standings
    assert board is not None
    assert any(r.small > 0 for r in board.rows) and any(r.small < 0 for r in board.rows)
    screen = HallScreen(pygame.Surface(size))
    screen.draw_page(hall, Page(PageKind.STANDINGS, 0, 1), NOW)
    check_texts_fit(screen)
    texts = texts_in(screen, "body")
    heads = 5 * texts.count("#")  # each column's heads: #, NAME, BP, SP, G
    cells = texts[heads : heads + 5 * len(board.rows)]
    drawn = [cells[i : i + 5] for i in range(0, len(cells), 5)]
    assert [row[0] for row in drawn] == place_labels([r.place for r in board.rows])
    for row, (_place, _name, big, small, games) in zip(board.rows, drawn, strict=True):
        shown = printed_number(signed(row.small))  # −7: the minus sign of print
        assert (big, small, games) == (str(row.big), shown, str(row.games))
    winner = board.rows[0]
    assert winner.small > 0
    assert drawn[0][3] == f"+{winner.small}"
    notes = [t for t in texts if "shared place" in t]
    assert notes == ["2= shared place (level on BP and SP)"]


@pytest.mark.parametrize(
    ("after", "in_play", "closed", "final", "title"),
    [
        (0, 1, False, False, "STANDINGS · ROUND 1 IN PLAY"),
        (1, 2, False, False, "STANDINGS · ROUND 2 IN PLAY"),
        (2, 2, True, False, "STANDINGS AFTER ROUND 2"),
        (2, None, False, False, "STANDINGS AFTER ROUND 2"),
        (0, None, False, False, "STANDINGS"),
        (6, 6, True, True, "FINAL STANDINGS"),
    ],
)
def test_the_standings_title_names_the_last_closed_round_or_the_one_in_play(
    after, in_play, closed, final, title
):
    hall = english_hall(9, NOW)
    assert hall.standings is not None and hall.round is not None
    board = msgspec.structs.replace(hall.standings, after_round=after, final=final)
    info = (
        None if in_play is None
        else msgspec.structs.replace(hall.round, round=in_play, closed=closed)
    )
    assert standings_title(words("en"), board, info) == title
    for size in SIZES:
        screen = HallScreen(pygame.Surface(size))
        page = Page(PageKind.STANDINGS, 0, 1)
        screen.draw_page(replace(hall, standings=board, round=info), page, NOW)
        check_texts_fit(screen)
        assert title in texts_in(screen, "header"), texts_in(screen, "header")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("count", [14, 24, 60])
def test_the_wall_shows_each_result_in_missing_or_refused_and_who_finished(count, size):
    hall = english_hall(count, NOW)  # 8 entering, 9 in, 12 refused, 13 finished, 14 missing
    screen = HallScreen(pygame.Surface(size))
    out = ARTIFACTS / f"{size[0]}x{size[1]}" / f"{count}-tables"
    out.mkdir(parents=True, exist_ok=True)
    screen.draw_page(hall, Page(PageKind.WALL, 0, screen.grid(count).pages), NOW)
    pygame.image.save(screen.surface, str(out / "wall-results.png"))
    check_texts_fit(screen)

    def cell(number: int) -> list[str]:
        return texts_in(screen, cell_region(screen, number))

    assert "ENTERING RESULT" in cell(8) and "RESULT IN" in cell(9)
    assert "RESULT REFUSED" in cell(12) and "ROUND FINISHED" in cell(13)
    assert "1 RESULT MISSING" in cell(14) and "34" in cell(14)  # still playing, its clock on
    assert not any("MISSING" in text for n in (8, 9, 12, 13) for text in cell(n))
    header = texts_in(screen, "header")
    assert any(text.endswith(f" · 1/{count} tables finished") for text in header), header
    # The judge panel lists them on every page of the wall.
    sidebar = texts_in(screen, "sidebar")
    results = sidebar[sidebar.index("RESULTS · 2") + 1 :]
    assert results[:2] == ["T12", results[1]] and results[1].startswith("refused: jokers")
    assert results[2:4] == ["T14", "1 result missing"]


def test_a_first_start_shows_its_code_and_where_to_type_it_on_every_page():
    """The web console has no organizer's account yet: the header says its code and the
    address of the page that makes the accounts, in the hall's language."""
    hall = replace(sample_hall(9, NOW, 7), language="pl", first_start="4821-0937",
                   console_url="http://192.168.8.2:8080")  # fmt: skip
    screen = HallScreen(pygame.Surface((1280, 720)))
    for page in screen.sequence(hall):
        screen.draw_page(hall, page, NOW)
        said = texts_in(screen, "header")
        assert said == ["PIERWSZE URUCHOMIENIE — KOD 4821-0937",
                        "Otwórz 192.168.8.2:8080/setup w przeglądarce i utwórz konta "
                        "organizatora i sędziów, wpisując ten kod"], said  # fmt: skip
        check_texts_fit(screen)
        if page.kind is PageKind.WALL:
            out = ARTIFACTS / "first-start"
            out.mkdir(parents=True, exist_ok=True)
            pygame.image.save(screen.surface, str(out / "pl-1280x720.png"))
