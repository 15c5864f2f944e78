"""The result-entry screens of the table display: drawn to PNG (artifacts/display/) and checked."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from collections.abc import Iterator
from dataclasses import replace
from itertools import combinations
from pathlib import Path

import pygame
import pytest

from tablekit.controls import JudgeAction
from tablekit.core.rulesets import get_ruleset
from tablekit.core.scoring import GameEnding, Opening
from tablekit.core.seats import Seat
from tablekit.core.status import TableState, look
from tablekit.display import Renderer, TableScreen, colour_under, render_surface
from tablekit.layout.compose import compose
from tablekit.layout.scene import (
    AMBER,
    BACKGROUND,
    BLACK,
    BRIGHT_GREEN,
    GREY,
    KEYCAP,
    SLATE,
    WHITE,
    Box,
    Fill,
    Icon,
    IconKind,
    Panel,
    Scene,
    Text,
    layout_for,
)
from tablekit.result_entry import Key, ResultEntry, Step
from tablekit.samples import sample_views
from tablekit.view import TableView

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "artifacts" / "display" / "en"  # the English views; both: test_display_fit
NOW = 1000.0
SIZES = [(480, 320), (800, 480)]
VIEWS = sample_views(NOW, "en")
ENTRY_STATES = [name for name in VIEWS if name.startswith("entry-")]


@pytest.fixture(scope="module", autouse=True)
def _pygame() -> Iterator[None]:
    pygame.display.init()
    pygame.font.init()
    yield
    pygame.display.quit()


@pytest.fixture(scope="module")
def renderer() -> Renderer:
    return Renderer()


def panel(scene: Scene, name: str) -> Panel:
    found = [p for p in scene if p.name == name]
    assert len(found) == 1, f"{name} in {[p.name for p in scene]}"
    return found[0]


def texts(p: Panel) -> list[Text]:
    return [i for i in p.items if isinstance(i, Text)]


def words(p: Panel) -> list[str]:
    return [t.text for t in texts(p) if t.text]


def icons(p: Panel, kind: IconKind) -> list[Icon]:
    return [i for i in p.items if isinstance(i, Icon) and i.kind is kind]


def count_colour(surface: pygame.Surface, box: Box, colour: tuple[int, int, int]) -> int:
    sub = surface.subsurface(pygame.Rect(box.x, box.y, box.w, box.h))
    return pygame.mask.from_threshold(sub, colour, (1, 1, 1, 255)).count()


def ink_rect(surface: pygame.Surface, box: Box, bg: tuple[int, int, int]) -> pygame.Rect:
    sub = surface.subsurface(pygame.Rect(box.x, box.y, box.w, box.h))
    mask = pygame.mask.from_threshold(sub, bg, (1, 1, 1, 255))
    mask.invert()
    rects = mask.get_bounding_rects()
    assert rects, "nothing drawn"
    return rects[0].unionall(rects[1:]).move(box.x, box.y)


def flow(
    keys: str, ruleset: str = "000", seats: int = 4, ending: GameEnding = GameEnding.WENT_OUT
) -> ResultEntry:
    entry = ResultEntry(2, tuple(Seat)[:seats], get_ruleset(ruleset), ending)
    for word in keys.split():
        for key in [word] if word in ("ENTER", "BACKSPACE") else list(word):
            entry.press(Key(key))
    return entry


def view_of(entry: ResultEntry) -> TableView:
    return replace(VIEWS["entry-tiles"], entry=entry.view)


def row_words(p: Panel, y_of: Text) -> list[str]:
    """The texts of the table row holding ``y_of`` (same vertical band), left to right."""
    mid = y_of.box.y + y_of.box.h // 2
    row = [t for t in texts(p) if t.box.y <= mid < t.box.bottom and t.text]
    return [t.text for t in sorted(row, key=lambda t: t.box.x)]


def name_text(p: Panel, name: str) -> Text:
    return next(t for t in texts(p) if t.text == name)


# --- every state: drawn, fitting, tiling -------------------------------------------------


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_entry_state_is_drawn_to_png_and_every_text_fits(
    size: tuple[int, int], renderer: Renderer
) -> None:
    w, h = size
    lay = layout_for(w, h)
    assert len(ENTRY_STATES) >= 10
    for name in ENTRY_STATES:
        view = VIEWS[name]
        surface = render_surface(view, NOW, size, renderer)
        path = ARTIFACTS / f"entry-{w}x{h}-{name.removeprefix('entry-')}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(surface, str(path))
        assert path.stat().st_size > 1000
        scene = compose(view, NOW, lay)
        assert sum(p.box.area for p in scene) == w * h, name
        for a, b in combinations(scene, 2):
            assert not a.box.overlaps(b.box), (name, a.name, b.name)
        for p in scene:
            marks = [i.box for i in p.items if isinstance(i, (Text, Icon))]
            for a_box, b_box in combinations(marks, 2):
                assert not a_box.overlaps(b_box), (name, p.name, a_box, b_box)
            for item in p.items:
                assert p.box.contains(item.box), (name, p.name, item)
            for item in texts(p):
                if not item.text:
                    continue
                expected, dest = renderer.place(item, colour_under(p, item.box))
                assert item.box.contains(Box(dest.x, dest.y, dest.w, dest.h)), (name, item.text)
                if not item.tight:  # never shrunk below its legible floor
                    assert dest.h >= int(item.box.h * item.shrink) - 2, (name, item.text)
                crop = surface.subsurface(dest)  # and it is really on the picture, there
                got = pygame.image.tobytes(crop, "RGB")
                assert got == pygame.image.tobytes(expected, "RGB"), (name, item.text)
    print(f"\nentry PNGs: {ARTIFACTS}/entry-{w}x{h}-*.png")


def test_each_step_has_its_word_and_shape_in_the_band() -> None:
    lay = layout_for(480, 320)
    seen = {}
    for name in ENTRY_STATES:
        band = panel(compose(VIEWS[name], NOW, lay), "band")
        icon = next(i.kind for i in band.items if isinstance(i, Icon))
        seen[name] = (texts(band)[0].text, icon, band.bg)
    assert seen["entry-tiles"][:2] == ("ENTERING RESULT", IconKind.KEYPAD)
    assert seen["entry-jokers"][:2] == ("ENTERING RESULT", IconKind.KEYPAD)
    assert seen["entry-confirm"][:2] == ("CONFIRM RESULT", IconKind.CHECK)
    assert seen["entry-sent"][:2] == ("RESULT SENT", IconKind.HOURGLASS)
    assert seen["entry-accepted"] == ("RESULT IN", IconKind.CHECK, look(TableState.RESULT_IN).bg)
    assert seen["entry-rejected"] == (
        "RESULT REFUSED", IconKind.ALERT, look(TableState.RESULT_REFUSED).bg
    )


# --- typing a seat's values --------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_typing_shows_whose_turn_what_to_type_and_the_number_very_large(
    size: tuple[int, int], renderer: Renderer
) -> None:
    view = VIEWS["entry-tiles"]  # seat C, "17" typed
    scene = compose(view, NOW, layout_for(*size))
    assert words(panel(scene, "entry-seat")) == ["C", "SEAT C · 3 OF 4", "Celina Żak"]
    assert words(panel(scene, "entry-ask")) == [
        "Tiles left on the rack (sum)",
        "0 = empty rack · + for each joker",
    ]
    buffer = panel(scene, "entry-buffer")
    [digits] = texts(buffer)
    assert digits.text == "17" and digits.colour == WHITE
    surface = render_surface(view, NOW, size, renderer)
    ink = ink_rect(surface, digits.box, buffer.bg)
    assert ink.h >= 0.2 * size[1], (ink, size)  # the largest thing under the band
    name = next(t for t in texts(panel(scene, "entry-seat")) if t.text == "Celina Żak")
    assert digits.box.h > name.box.h
    # "+" puts a joker beside the digits, in words, in the same step
    jokers = compose(VIEWS["entry-jokers"], NOW, layout_for(*size))
    assert words(panel(jokers, "entry-ask"))[0] == "Tiles left on the rack (sum)"
    label, digits17 = texts(panel(jokers, "entry-buffer"))
    assert (label.text, label.colour, digits17.text) == ("+1 joker", AMBER, "17")
    assert label.box.x > digits17.box.right
    # back at a seat already entered, greyed: what a bare ENTER keeps
    kept = compose(view_of(flow("17+ ENTER -")), NOW, layout_for(*size))
    assert [(t.text, t.colour) for t in texts(panel(kept, "entry-buffer"))] == [
        ("+1 joker", GREY),
        ("17", GREY),
    ]
    assert words(panel(kept, "entry-ask"))[1] == "ENTER alone keeps 17 +1 joker"


def test_the_seat_list_shows_values_so_far_checks_and_the_seat_being_typed() -> None:
    scene = compose(VIEWS["entry-jokers"], NOW, layout_for(800, 480))
    seats = panel(scene, "entry-seats")
    assert words(seats) == [
        "A",
        "Anna",
        "23",
        "B",
        "Bartłomiej",
        "0",
        "C",
        "Celina",
        "typing…",
        "D",
        "Dariusz",
        "—",
    ]
    assert len(icons(seats, IconKind.CHECK)) == 2  # A and B complete
    lit = [i for i in seats.items if isinstance(i, Fill) and i.colour == SLATE]
    assert len(lit) == 1
    assert [t.text for t in texts(seats) if lit[0].box.contains(t.box)] == [
        "C",
        "Celina",
        "typing…",
    ]
    done = compose(VIEWS["entry-not-opened"], NOW, layout_for(800, 480))
    listed = words(panel(done, "entry-seats"))
    assert "17 +1 joker" in listed
    assert "NEVER OPENED" in listed and "Dariusz" not in listed


def test_never_opened_is_marked_where_it_is_typed_and_in_the_list() -> None:
    scene = compose(VIEWS["entry-not-opened"], NOW, layout_for(480, 320))
    ask = texts(panel(scene, "entry-ask"))
    assert ask[1].text == "NEVER OPENED — scores 100 · * undoes" and ask[1].colour == AMBER
    tag = next(t for t in texts(panel(scene, "entry-seats")) if t.text == "NEVER OPENED")
    assert tag.colour == AMBER
    # the judge's 200 is named with its own number
    entry = flow("23 ENTER 0 ENTER 17+ ENTER")
    entry.judge_set_opening(Seat.D, Opening.COULD_HAVE_OPENED)
    judged = compose(view_of(entry), NOW, layout_for(480, 320))
    assert texts(panel(judged, "entry-ask"))[1].text == "JUDGE: COULD HAVE OPENED — scores 200"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_problem_is_shown_large_in_amber_with_a_warning_sign(
    size: tuple[int, int], renderer: Renderer
) -> None:
    view = VIEWS["entry-error"]
    assert view.entry is not None
    assert view.entry.message == "seat C: tiles must be an integer between 0 and 728, got 999"
    scene = compose(view, NOW, layout_for(*size))
    hint = panel(scene, "entry-hint")
    lines = texts(hint)
    assert " ".join(t.text for t in lines) == view.entry.message
    assert all(t.colour == BLACK for t in lines)
    assert icons(hint, IconKind.ALERT)
    [amber] = [i for i in hint.items if isinstance(i, Fill) and i.colour == AMBER]
    surface = render_surface(view, NOW, size, renderer)
    assert count_colour(surface, amber.box, AMBER) > 0.5 * amber.box.area
    for line in lines:
        assert line.box.h >= 0.045 * size[1]  # not a footnote
    # without a problem the same place lists the keys, as keycaps
    keys = panel(compose(VIEWS["entry-tiles"], NOW, layout_for(*size)), "entry-hint")
    assert words(keys) == ["ENTER", "next", "+", "joker", "−", "back", "*", "never opened"]
    caps = [i for i in keys.items if isinstance(i, Fill) and i.colour == KEYCAP]
    assert len(caps) == 4


# --- the score table and the confirmations -----------------------------------------------


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_confirm_shows_the_whole_table_and_who_confirms_now(size: tuple[int, int]) -> None:
    scene = compose(VIEWS["entry-confirm"], NOW, layout_for(*size))
    table = panel(scene, "entry-table")
    rows = {
        name: row_words(table, name_text(table, name))
        for name in ("Anna Kowalska", "Bartłomiej Wiśniewski", "Celina Żak")
    }
    # seat, player, rack value (penalised), small, big, place
    assert rows["Anna Kowalska"] == ["A", "Anna Kowalska", "23", "−23", "0", "2nd"]
    assert rows["Bartłomiej Wiśniewski"] == ["B", "Bartłomiej Wiśniewski", "0", "+190", "1", "1st"]
    assert rows["Celina Żak"] == ["C", "Celina Żak", "67", "−67", "0", "3rd"]  # 17 + joker 50
    dariusz = next(t for t in texts(table) if t.text.startswith("Dariusz"))
    assert row_words(table, dariusz)[-4:] == ["100", "−100", "0", "4th"]  # never opened: 100
    assert "NEVER OPENED" in words(table)
    # the winner is marked by a shape, each confirmation by a check
    [star] = icons(table, IconKind.STAR)
    winner = name_text(table, "Bartłomiej Wiśniewski")
    assert winner.box.y <= star.box.y + star.box.h // 2 < winner.box.bottom
    checks = icons(table, IconKind.CHECK)
    assert len(checks) == 2  # A and B confirmed
    # the seat to confirm is on a white row, with the prompt naming it large
    wide = [i for i in table.items if isinstance(i, Fill) and i.box.w > table.box.w // 2]
    [lit] = [i for i in wide if i.colour == WHITE]
    celina = name_text(table, "Celina Żak")
    assert lit.box.contains(celina.box) and celina.colour == BLACK
    prompt = panel(scene, "entry-prompt")
    assert " ".join(words(prompt)) == "Seat C — Celina Żak: press ENTER to confirm"
    assert all(t.box.h >= 0.07 * size[1] for t in texts(prompt))
    assert words(panel(scene, "entry-hint")) == [
        "ENTER",
        "confirm",
        "1–4",
        "correct seat A–D",
        "−",
        "back",
    ]


def test_002_shows_small_points_winner_plus_like_every_ruleset() -> None:
    lay = layout_for(800, 480)
    plain = panel(compose(VIEWS["entry-confirm"], NOW, lay), "entry-table")
    championship = panel(compose(VIEWS["entry-confirm-002"], NOW, lay), "entry-table")
    for name, small in (
        ("Anna Kowalska", "−23"),
        ("Bartłomiej Wiśniewski", "+190"),  # the winner plus, 002 too (RULES.md §3.3)
        ("Celina Żak", "−67"),
    ):
        assert row_words(plain, name_text(plain, name))[3] == small
        assert row_words(championship, name_text(championship, name))[3] == small
    # 002 scores big points by placement: 4/2/1/0
    bigs = [
        row_words(championship, name_text(championship, n))[4]
        for n in ("Anna Kowalska", "Celina Żak")
    ]
    assert bigs == ["2", "1"]
    assert row_words(championship, name_text(championship, "Bartłomiej Wiśniewski"))[4] == "4"


def test_a_three_player_table_and_tied_winners() -> None:
    entry = flow("5 ENTER 5 ENTER 20 ENTER", "002", 3, GameEnding.NOBODY_OUT)
    assert entry.view.step is Step.CONFIRM
    scene = compose(view_of(entry), NOW, layout_for(480, 320))
    table = panel(scene, "entry-table")
    assert len(icons(table, IconKind.STAR)) == 2  # both at 5 win
    assert row_words(table, name_text(table, "Anna Kowalska"))[-1] == "1st"
    assert row_words(table, name_text(table, "Bartłomiej Wiśniewski"))[-1] == "1st"
    assert "1–3" in words(panel(scene, "entry-hint"))
    assert not any(t.text.startswith("Dariusz") for t in texts(table))


# --- the hub's answer ----------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_sent_accepted_and_rejected(size: tuple[int, int], renderer: Renderer) -> None:
    lay = layout_for(*size)
    sent = compose(VIEWS["entry-sent"], NOW, lay)
    status = panel(sent, "entry-status")
    assert words(status) == ["Sent to the hub", "waiting for its answer…"]
    assert icons(status, IconKind.HOURGLASS)
    assert len(icons(panel(sent, "entry-table"), IconKind.CHECK)) == 4
    offline = compose(replace(VIEWS["entry-sent"], online=False, offline_since=NOW - 5), NOW, lay)
    assert "offline: it goes when the link is back" in " ".join(
        words(panel(offline, "entry-status"))
    )

    accepted = compose(VIEWS["entry-accepted"], NOW, lay)
    status = panel(accepted, "entry-status")
    assert words(status) == ["Result in", "Game 2 is recorded at the hub"]
    [check] = icons(status, IconKind.CHECK)
    surface = render_surface(VIEWS["entry-accepted"], NOW, size, renderer)
    assert count_colour(surface, check.box, BRIGHT_GREEN) > 0.1 * check.box.area
    table = panel(accepted, "entry-table")
    assert row_words(table, name_text(table, "Bartłomiej Wiśniewski"))[3:5] == ["+190", "1"]

    view = VIEWS["entry-rejected"]
    assert view.entry is not None
    reason = (
        "table 7 game 2: a result is already recorded (the game is closed); a judge "
        "corrects it at the hub"
    )
    assert view.entry.rejection == reason
    rejected = compose(view, NOW, lay)
    status = panel(rejected, "entry-status")
    lines = [t for t in texts(status) if t.colour == WHITE]
    assert " ".join(t.text for t in lines) == reason
    assert all(t.box.h >= 0.06 * size[1] for t in lines)  # the reason is large (a real one)
    assert "THE HUB DID NOT ACCEPT IT:" in " ".join(words(status))
    assert icons(status, IconKind.ALERT)
    hint = panel(rejected, "entry-hint")  # sending again cannot change it: not offered
    assert words(hint) == ["The judge corrects it at the hub; play on"]
    # the entry's own "rejected by the hub: …" is not shown twice
    assert sum(reason in " ".join(words(p)) for p in rejected) == 1
    wrong_values = compose(VIEWS["entry-rejected-values"], NOW, lay)  # the table corrects
    hint = panel(wrong_values, "entry-hint")
    assert words(hint) == ["−", "or", "1–4", "correct", "ENTER", "send again"]


# --- the judge menu over an entry screen ---------------------------------------------------


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_judge_menu_covers_the_entry_and_names_the_seat(
    size: tuple[int, int], renderer: Renderer
) -> None:
    view = VIEWS["entry-judge-menu"]
    scene = compose(view, NOW, layout_for(*size))
    assert [p.name for p in scene] == ["band", "menu"]
    menu = panel(scene, "menu")
    title = texts(menu)[0].text
    assert title == "JUDGE MENU — SEAT D  Dariusz Lewandowski-Grabowski"
    assert JudgeAction.COULD_HAVE_OPENED.value in words(menu)
    [row] = [i for i in menu.items if isinstance(i, Fill)]
    surface = render_surface(view, NOW, size, renderer)
    assert count_colour(surface, row.box, WHITE) > 0.5 * row.box.area
    # outside result entry the title stays as it was
    plain = panel(compose(VIEWS["judge-menu"], NOW, layout_for(*size)), "menu")
    assert texts(plain)[0].text == "JUDGE MENU"


# --- only what changed is redrawn ------------------------------------------------------------


@pytest.fixture
def screen() -> Iterator[TableScreen]:
    s = TableScreen(480, 320)
    yield s
    s.close()


def test_typing_a_digit_redraws_only_the_number(screen: TableScreen) -> None:
    entry = flow("23 ENTER 0 ENTER")
    screen.show(view_of(entry), NOW)
    assert sum(r.w * r.h for r in screen.last_update_rects) == 480 * 320
    regions = {p.name: p.box for p in compose(view_of(entry), NOW, screen.layout)}
    buffer = pygame.Rect(regions["entry-buffer"].as_tuple())
    for key, shown in ((Key.D1, "1"), (Key.D7, "17"), (Key.BACKSPACE, "1"), (Key.D4, "14")):
        entry.press(key)
        assert entry.view.buffer == shown
        screen.show(view_of(entry), NOW + 0.1)
        assert screen.last_update_rects == [buffer], shown
        picture = screen.snapshot()
        [digits] = texts(panel(compose(view_of(entry), NOW, screen.layout), "entry-buffer"))
        assert digits.text == shown
        expected, dest = screen.renderer.place(digits, BACKGROUND)
        got = pygame.image.tobytes(picture.subsurface(dest), "RGB")
        assert got == pygame.image.tobytes(expected, "RGB")
    screen.show(view_of(entry), NOW + 5)  # nothing changed, time does not matter here
    assert screen.last_update_rects == []
    entry.press(Key.PLUS)  # a joker: only the number's panel
    screen.show(view_of(entry), NOW + 5.1)
    assert screen.last_update_rects == [buffer]
    entry.press(Key.ENTER)  # to seat D: the seat, the number and the list change
    screen.show(view_of(entry), NOW + 5.2)
    changed = {tuple(r) for r in screen.last_update_rects}
    assert changed == {
        regions[name].as_tuple() for name in ("entry-seat", "entry-buffer", "entry-seats")
    }
