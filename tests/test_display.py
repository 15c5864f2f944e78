"""The table display: every state drawn to PNG (artifacts/display/) and checked."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from itertools import combinations
from pathlib import Path

import msgspec
import pygame
import pytest

from tablekit.controls import JudgeMenu
from tablekit.core.clock import Phase
from tablekit.core.clock_events import PauseReason
from tablekit.core.status import TableState, look
from tablekit.display import (
    Renderer,
    TableScreen,
    colour_under,
    main,
    render_surface,
    rotated_rect,
)
from tablekit.keyboard import display_available
from tablekit.layout.compose import compose
from tablekit.layout.play import format_seconds, shown_seconds
from tablekit.layout.scene import (
    AMBER,
    BACKGROUND,
    BLACK,
    GREY,
    RED_TEXT,
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
from tablekit.samples import sample_views
from tablekit.view import TableView

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "artifacts" / "display" / "en"  # the English views; both: test_display_fit
NOW = 1000.0
SIZES = [(480, 320), (800, 480), (640, 400)]
ALL_SIZES = [*SIZES, (320, 480), (1024, 600), (1920, 1080)]
VIEWS = sample_views(NOW, "en")
TIME_RED = look(TableState.TIME).bg


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


def said(p: Panel) -> str:
    """The panel's words as read: its lines one after another."""
    return " ".join(t.text for t in texts(p))


def ink_rect(surface: pygame.Surface, box: Box, bg: tuple[int, int, int]) -> pygame.Rect:
    """Bounding box (screen coordinates) of the pixels in ``box`` that differ from ``bg``."""
    sub = surface.subsurface(pygame.Rect(box.x, box.y, box.w, box.h))
    mask = pygame.mask.from_threshold(sub, bg, (1, 1, 1, 255))
    mask.invert()
    rects = mask.get_bounding_rects()
    assert rects, "nothing drawn"
    union = rects[0].unionall(rects[1:])
    return union.move(box.x, box.y)


def count_colour(surface: pygame.Surface, box: Box, colour: tuple[int, int, int]) -> int:
    sub = surface.subsurface(pygame.Rect(box.x, box.y, box.w, box.h))
    return pygame.mask.from_threshold(sub, colour, (1, 1, 1, 255)).count()


def assert_drawn(surface: pygame.Surface, renderer: Renderer, p: Panel, item: Text) -> None:
    """The text's rendered surface is on ``surface`` exactly where the layout puts it."""

    expected, dest = renderer.place(item, colour_under(p, item.box))
    crop = surface.subsurface(dest)
    assert pygame.image.tobytes(crop, "RGB") == pygame.image.tobytes(expected, "RGB"), item.text


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_state_is_drawn_to_png(size: tuple[int, int], renderer: Renderer) -> None:
    w, h = size
    for i, (name, view) in enumerate(VIEWS.items()):
        surface = render_surface(view, NOW, size, renderer)
        path = ARTIFACTS / f"{w}x{h}-{i:02d}-{name}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(surface, str(path))
        assert path.stat().st_size > 1000
        # Every text of the scene is really on the picture.
        for p in compose(view, NOW, layout_for(w, h)):
            for item in texts(p):
                if item.text:
                    assert_drawn(surface, renderer, p, item)
    print(f"\ndisplay PNGs: {ARTIFACTS}/{w}x{h}-*.png")


@pytest.mark.parametrize("size", ALL_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("state", ["playing", "last-10s", "last-5s", "paused-judge", "ready"])
def test_the_seconds_take_most_of_the_height(
    size: tuple[int, int], state: str, renderer: Renderer
) -> None:
    view = VIEWS[state]
    lay = layout_for(*size)
    scene = compose(view, NOW, lay)
    clock = panel(scene, "clock")
    digits = texts(clock)[0]
    assert (
        digits.text
        == {"playing": "38", "last-10s": "9", "last-5s": "4", "paused-judge": "24", "ready": "40"}[
            state
        ]
    )
    surface = render_surface(view, NOW, size, renderer)
    ink = ink_rect(surface, digits.box, clock.bg)
    # portrait: the width limits the digits; landscape: the message line, tall enough to
    # read from the chairs, leaves them 43 % of the height at least
    share = 0.3 if lay.portrait else 0.43
    assert ink.h >= share * size[1], (ink, size)


def test_the_seconds_change_colour_and_the_bar_shrinks_near_the_end() -> None:
    lay = layout_for(480, 320)
    colours = {}
    bars = {}
    for state in ("playing", "last-10s", "last-5s", "paused-judge"):
        clock = panel(compose(VIEWS[state], NOW, lay), "clock")
        colours[state] = texts(clock)[0].colour
        fills = [i for i in clock.items if isinstance(i, Fill)]
        bars[state] = fills[-1].box.w if len(fills) > 1 else 0
    assert colours["playing"] == WHITE
    assert colours["last-10s"] == AMBER
    assert colours["last-5s"] == RED_TEXT
    assert colours["paused-judge"] == GREY
    assert bars["playing"] > bars["paused-judge"] > bars["last-10s"] > bars["last-5s"] > 0


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_time_is_red_with_the_word_and_names_the_seat(
    size: tuple[int, int], renderer: Renderer
) -> None:
    view = VIEWS["time"]
    scene = compose(view, NOW, layout_for(*size))
    surface = render_surface(view, NOW, size, renderer)
    band, clock = panel(scene, "band"), panel(scene, "clock")
    assert texts(band)[0].text == "TIME — SEAT C Celina Żak"
    assert [i.kind for i in band.items if isinstance(i, Icon)] == [IconKind.STOP]
    assert texts(clock)[0].text == "STOP!"  # what to do; the band says TIME
    assert count_colour(surface, clock.box, TIME_RED) > 0.5 * clock.box.area
    assert count_colour(surface, band.box, TIME_RED) > 0.5 * band.box.area
    for p in (band, clock):
        assert_drawn(surface, renderer, p, texts(p)[0])
    word = texts(clock)[0].box
    ink = ink_rect(surface, word, TIME_RED)
    assert ink.h >= 0.15 * size[1] and ink.w >= 0.5 * word.w  # large
    # Other states have no red at all (red means TIME, or the last 5 seconds' digits).
    calm = render_surface(VIEWS["playing"], NOW, size, renderer)
    assert count_colour(calm, layout_for(*size).screen, TIME_RED) == 0


def test_every_state_has_a_word_and_a_shape() -> None:
    lay = layout_for(480, 320)
    seen = {}
    for name, view in VIEWS.items():
        band = panel(compose(view, NOW, lay), "band")
        word = texts(band)[0].text
        icon = next(i.kind for i in band.items if isinstance(i, Icon))
        seen[name] = (word, icon)
    assert seen["ready"] == ("READY", IconKind.READY)
    assert seen["playing"] == ("PLAYING", IconKind.PLAY)
    assert seen["paused-judge"] == ("PAUSED — JUDGE", IconKind.PAUSE)
    assert seen["judge-called"] == ("JUDGE CALLED", IconKind.ALERT)
    assert seen["restarted"] == ("PAUSED — RESTARTED", IconKind.PAUSE)
    assert seen["last-lap"] == ("LAST LAP — 3 MOVES LEFT", IconKind.LAP)
    assert seen["game-over"] == ("GAME OVER", IconKind.FLAG)
    assert seen["time"][1] is IconKind.STOP


def test_ready_names_game_starter_and_how_to_start() -> None:
    scene = compose(VIEWS["ready"], NOW, layout_for(480, 320))
    seat = texts(panel(scene, "seat"))
    # the starting player's name whole: on two lines where one would be too small
    assert [t.text for t in seat] == ["STARTS", "B", "Bartłomiej", "Wiśniewski"]
    assert texts(panel(scene, "message"))[0].text == (
        "Seat B starts — press to start · 1–4: other seat"
    )
    chosen = compose(VIEWS["ready-chosen"], NOW, layout_for(480, 320))
    assert [t.text for t in texts(panel(chosen, "seat"))][1] == "D"
    assert texts(panel(chosen, "message"))[0].text == (
        "Seat D starts (chosen here) — press to start"
    )
    footer = [t.text for t in texts(panel(scene, "footer"))]
    assert footer == ["ON DECK", "C  Celina Żak", "GAME 2"]


def test_playing_shows_seat_name_on_deck_game_and_move() -> None:
    scene = compose(VIEWS["playing"], NOW, layout_for(800, 480))
    assert [t.text for t in texts(panel(scene, "seat"))] == ["TO MOVE", "C", "Celina Żak"]
    footer = [t.text for t in texts(panel(scene, "footer"))]
    assert footer == ["ON DECK", "D  Dariusz Lewandowski-Grabowski", "GAME 2 · MOVE 14"]
    assert texts(panel(scene, "band"))[-1].text == "TABLE 7"
    plain = compose(VIEWS["no-names"], NOW, layout_for(800, 480))
    assert [t.text for t in texts(panel(plain, "seat"))][-1] == "Seat C"


@pytest.mark.parametrize("size", ALL_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_panels_tile_the_screen_and_text_fits(size: tuple[int, int], renderer: Renderer) -> None:
    lay = layout_for(*size)
    for name, view in VIEWS.items():
        scene = compose(view, NOW, lay)
        assert sum(p.box.area for p in scene) == size[0] * size[1], name
        for a, b in combinations(scene, 2):
            assert not a.box.overlaps(b.box), (name, a.name, b.name)
        for p in scene:
            assert lay.screen.contains(p.box)
            boxes = [i.box for i in p.items if isinstance(i, (Text, Icon))]
            for item in p.items:
                assert p.box.contains(item.box), (name, p.name, item)
            for a_box, b_box in combinations(boxes, 2):
                assert not a_box.overlaps(b_box), (name, p.name, a_box, b_box)
            for item in texts(p):
                if not item.text:
                    continue
                _surf, dest = renderer.place(item, p.bg)
                assert item.box.w >= dest.w and item.box.h >= dest.h, (name, item.text)
                assert item.box.contains(Box(dest.x, dest.y, dest.w, dest.h)), (name, item.text)
                if not item.tight:  # legible: never shrunk below its floor
                    assert dest.h >= int(item.box.h * item.shrink) - 2, (name, item.text, dest)


def test_long_text_is_cut_with_an_ellipsis_not_squeezed(renderer: Renderer) -> None:
    box = Box(0, 0, 140, 30)
    item = Text("Dariusz Lewandowski-Grabowski of Wrocław", box, WHITE)
    short = Text("Anna", box, WHITE)
    long_surf, dest = renderer.place(item, BACKGROUND)
    short_surf, _ = renderer.place(short, BACKGROUND)
    assert dest.w <= 140
    assert long_surf.get_height() >= 0.7 * short_surf.get_height()


@pytest.mark.parametrize("size", [(480, 320), (800, 480), (320, 480)], ids=str)
def test_judge_menu_marks_the_selected_action(size: tuple[int, int], renderer: Renderer) -> None:
    view = VIEWS["judge-menu"]
    assert view.menu is not None
    for selected in range(len(view.menu.actions)):
        v = TableView(
            view.clock,
            table=7,
            names=view.names,
            menu=JudgeMenu(view.menu.actions, selected),
            online=True,
            language="en",
        )
        scene = compose(v, NOW, layout_for(*size))
        menu = panel(scene, "menu")
        fills = [i for i in menu.items if isinstance(i, Fill)]
        pointers = [i for i in menu.items if isinstance(i, Icon) and i.kind is IconKind.POINTER]
        assert len(fills) == 1 and len(pointers) == 1
        assert fills[0].box.contains(pointers[0].box)
        inverse = [t for t in texts(menu) if fills[0].box.contains(t.box)]
        assert [t.text for t in inverse] == [str(selected + 1), view.menu.actions[selected].value]
        assert all(t.colour == BLACK for t in inverse)
        surface = render_surface(v, NOW, size, renderer)
        row = fills[0].box
        assert count_colour(surface, row, WHITE) > 0.5 * row.area
        for t in inverse:
            assert_drawn(surface, renderer, menu, t)
    assert not any(p.name in ("seat", "clock") for p in scene)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_offline_marker_only_when_offline(size: tuple[int, int], renderer: Renderer) -> None:
    lay = layout_for(*size)
    offline = compose(VIEWS["offline"], NOW, lay)
    marker = panel(offline, "offline")
    assert said(marker) == "OFFLINE for 2 min 15 s"  # a duration, never like a clock time
    polish = compose(replace(VIEWS["offline"], language="pl"), NOW, lay)
    assert said(panel(polish, "offline")) == "BRAK POŁĄCZENIA od 2 min 15 s"
    assert any(isinstance(i, Icon) and i.kind is IconKind.OFFLINE for i in marker.items)
    surface = render_surface(VIEWS["offline"], NOW, size, renderer)
    assert count_colour(surface, marker.box, look(TableState.OFFLINE).bg) > 0.3 * marker.box.area
    for name, view in VIEWS.items():
        if name == "offline":
            continue
        scene = compose(view, NOW, lay)
        assert not any(p.name == "offline" for p in scene)
        assert not any("OFFLINE" in t.text for p in scene for t in texts(p))
    later = compose(VIEWS["offline"], NOW - 135 + 3600 + 5, lay)
    assert said(panel(later, "offline")) == "OFFLINE for 1 h 0 min"
    fresh = compose(VIEWS["offline"], VIEWS["offline"].offline_since or 0.0, lay)
    assert said(panel(fresh, "offline")) == "OFFLINE for 0 s"


def test_message_line_shows_the_controls_message() -> None:
    scene = compose(VIEWS["message"], NOW, layout_for(480, 320))
    msg = panel(scene, "message")
    said = " ".join(t.text for t in texts(msg))  # on two lines: legible from the chairs
    assert said == "undo pass: there is no pass to undo in this game"
    assert all(t.colour == AMBER for t in texts(msg))
    assert any(isinstance(i, Icon) and i.kind is IconKind.ALERT for i in msg.items)


def test_seconds_are_whole_and_rounded_up() -> None:
    assert [shown_seconds(r) for r in (40.0, 39.99, 39.0, 0.01, 0.0)] == [40, 40, 39, 1, 0]
    assert [format_seconds(s) for s in (9, 40, 99, 100, 600, 3600)] == [
        "9",
        "40",
        "99",
        "1:40",
        "10:00",
        "1:00:00",
    ]


# --- the screen: only what changed is redrawn --------------------------------------


@pytest.fixture
def screen() -> Iterator[TableScreen]:
    s = TableScreen(480, 320)
    yield s
    s.close()


def test_same_second_updates_nothing_and_a_new_second_only_the_digits(screen: TableScreen) -> None:
    view = VIEWS["playing"]  # 37.3 s left at NOW: shows 38
    screen.show(view, NOW)
    assert sum(r.w * r.h for r in screen.last_update_rects) == 480 * 320
    screen.show(view, NOW + 0.25)
    assert screen.last_update_rects == []
    fresh = replace(view, names=dict(view.names))  # equal, new
    screen.show(fresh, NOW + 0.29)
    assert screen.last_update_rects == []
    screen.show(view, NOW + 0.31)  # 36.99 → 37
    clock = screen.layout.clock
    assert screen.last_update_rects == [pygame.Rect(clock.as_tuple())]
    screen.show(view, NOW + 0.9)
    assert screen.last_update_rects == []
    paused = TableView(
        msgspec.structs.replace(
            view.clock, paused=PauseReason.JUDGE, remaining=36.5, since=NOW + 1
        ),
        table=7,
        names=view.names,
        online=True,
        language="en",
    )
    screen.show(paused, NOW + 1)
    changed = {tuple(r) for r in screen.last_update_rects}
    lay = screen.layout
    assert changed == {lay.band.as_tuple(), lay.clock.as_tuple(), lay.message.as_tuple()}
    screen.show(paused, NOW + 30)  # paused time never counts: nothing moves
    assert screen.last_update_rects == []


def test_offline_time_updates_only_the_marker(screen: TableScreen) -> None:
    base = VIEWS["offline"]
    view = TableView(
        msgspec.structs.replace(base.clock, paused=PauseReason.JUDGE),
        table=7,
        names=base.names,
        online=False,
        offline_since=NOW - 10,
        language="en",
    )
    screen.show(view, NOW)
    screen.show(view, NOW + 1.0)
    _, marker = screen.layout.offline_split()
    assert screen.last_update_rects == [pygame.Rect(marker.as_tuple())]


def test_a_countdown_renders_each_value_once_then_hits_the_cache(screen: TableScreen) -> None:
    view = VIEWS["playing"]
    clock = msgspec.structs.replace(view.clock, remaining=40.0, since=NOW)
    v = TableView(clock, table=7, names=view.names, online=True, language="en")
    updates = []
    for tenth in range(0, 400, 1):
        screen.show(v, NOW + tenth / 10)
        updates.append(len(screen.last_update_rects))
    assert sum(1 for u in updates if u) == 40  # the first frame and one per second
    first = screen.renderer.renders
    v2 = TableView(
        msgspec.structs.replace(clock, since=NOW + 100),
        table=7,
        names=view.names,
        online=True,
        language="en",
    )
    for tenth in range(0, 400, 1):
        screen.show(v2, NOW + 100 + tenth / 10)
    assert screen.renderer.renders == first


def test_invalidate_redraws_everything(screen: TableScreen) -> None:
    screen.show(VIEWS["playing"], NOW)
    screen.invalidate()
    screen.show(VIEWS["playing"], NOW)
    assert sum(r.w * r.h for r in screen.last_update_rects) == 480 * 320


@pytest.mark.parametrize("rotate", [90, 180, 270])
def test_rotated_screen_shows_the_turned_picture(rotate: int) -> None:
    screen = TableScreen(480, 320, rotate=rotate)
    try:
        logical = (320, 480) if rotate in (90, 270) else (480, 320)
        assert screen.size == logical
        for now in (NOW, NOW + 1.0, NOW + 1.2):
            screen.show(VIEWS["playing"], now)
            want = pygame.transform.rotate(render_surface(VIEWS["playing"], now, logical), -rotate)
            assert want.get_size() == (480, 320)
            got = screen.snapshot()
            assert pygame.image.tobytes(got, "RGB") == pygame.image.tobytes(want, "RGB")
        clock = pygame.Rect(screen.layout.clock.as_tuple())
        assert screen.last_update_rects == [] or screen.last_update_rects == [
            rotated_rect(clock, logical, rotate)
        ]
    finally:
        screen.close()


def test_bad_rotation_is_refused() -> None:
    with pytest.raises(ValueError, match=r"display\.rotate"):
        TableScreen(480, 320, rotate=45)


def test_layout_refuses_tiny_screens() -> None:
    with pytest.raises(ValueError, match="160x120"):
        layout_for(100, 80)


# --- the command -------------------------------------------------------------------------


def test_png_command_writes_the_states(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANGUAGE", "pl")  # the command speaks Polish unless told
    assert main(["--png", str(tmp_path), "--size", "400x240", "--state", "time"]) == 0
    out = capsys.readouterr().out.split()
    assert out == [str(tmp_path / code / "400x240-04-time.png") for code in ("pl", "en")]
    polish, english = (pygame.image.load(path) for path in out)
    assert polish.get_size() == english.get_size() == (400, 240)
    band = pygame.Rect(layout_for(400, 240).band.as_tuple())
    bands = [pygame.image.tobytes(p.subsurface(band), "RGB") for p in (polish, english)]
    assert bands[0] != bands[1]  # CZAS MINĄŁ, TIME
    assert main(["--png", str(tmp_path / "one"), "--state", "ready", "--lang", "en"]) == 0
    out = capsys.readouterr().out.split()
    assert [Path(path).parent.name for path in out] == ["en"] * 3  # the three default sizes
    assert main(["--png", str(tmp_path), "--lang", "de"]) == 2
    assert "nie ma języka „de”" in capsys.readouterr().err
    assert main(["--png", str(tmp_path), "--state", "nonsense"]) == 2
    assert "stan: nieznany nonsense; znane: ready, playing" in capsys.readouterr().err
    monkeypatch.setenv("LANGUAGE", "en")
    assert main(["--png", str(tmp_path), "--state", "nonsense"]) == 2
    assert "state: unknown nonsense; known: ready, playing" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--size", "big"])


# --- a real X server ----------------------------------------------------------------------


WINDOW_SCRIPT = """
import sys
from tablekit.display import TableScreen
from tablekit.samples import sample_views
import pygame
s = TableScreen(480, 320)
v = sample_views(1000.0)["time"]
s.show(v, 1000.0)
pygame.event.pump()
pygame.image.save(s.snapshot(), sys.argv[1])
print(pygame.display.get_driver(), len(s.last_update_rects), flush=True)
sys.stdin.readline()  # the window stays open until the test has its screenshot
s.close()
"""


def test_a_window_opens_on_a_real_x_server(
    xvfb: Callable[[int, int], str], tmp_path: Path
) -> None:
    display = xvfb(800, 600)
    env = {k: v for k, v in os.environ.items() if k not in ("SDL_VIDEODRIVER", "WAYLAND_DISPLAY")}
    env["DISPLAY"] = display
    assert display_available(env)
    assert not display_available({**env, "SDL_VIDEODRIVER": "dummy"})
    shot = tmp_path / "x11.png"
    child = subprocess.Popen(
        [sys.executable, "-c", WINDOW_SCRIPT, str(shot)],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    try:
        assert child.stdout is not None and child.stdin is not None
        line = child.stdout.readline()
        assert line, child.stderr.read() if child.stderr else ""
        driver, rects = line.split()
        assert driver == "x11" and int(rects) >= 4
        picture = pygame.image.load(str(shot))
        clock = layout_for(480, 320).clock
        assert count_colour(picture, clock, TIME_RED) > 0.5 * clock.area
        time.sleep(0.2)
        dump = subprocess.run(
            ["xwd", "-root", "-display", display, "-silent"],
            capture_output=True,
            timeout=30,
            check=True,
        ).stdout
        child.stdin.write("done\n")
        child.stdin.flush()
        assert child.wait(30) == 0
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    # The X server's own screenshot (xwd, 32-bit pixels) shows the red TIME panel too.
    r, g, b = TIME_RED
    red_pixels = max(dump.count(bytes([b, g, r])), dump.count(bytes([r, g, b])))
    assert red_pixels > 0.5 * clock.area


def test_phase_words_match_the_view() -> None:
    # The band uses the view's own state words (one source of truth).
    for name in ("ready", "playing", "paused-judge", "judge-called", "game-over"):
        view = VIEWS[name]
        band = panel(compose(view, NOW, layout_for(480, 320)), "band")
        assert texts(band)[0].text == view.state_word
    assert VIEWS["time"].clock.phase is Phase.TIME_UP


@pytest.mark.parametrize("size", [(480, 320), (800, 480), (320, 480)], ids=str)
def test_a_table_action_is_asked_large_with_the_keys_that_answer_it(
    size: tuple[int, int], renderer: Renderer
) -> None:
    lay = layout_for(*size)
    rack = compose(VIEWS["ask-empty-rack"], NOW, lay)
    words = [t.text for t in texts(panel(rack, "main"))]
    assert words[0] == "EMPTY RACK?"
    assert "C (Celina Żak) shows an empty rack" in " ".join(words)
    assert words[-4:] == ["ENTER", "yes, game over", "any other key", "no"]
    assert "seat" not in {p.name for p in rack}  # the question takes the seat and clock's place
    title = texts(panel(rack, "main"))[0]
    assert title.colour == AMBER and title.box.h >= 0.15 * size[1]
    bank = compose(VIEWS["ask-bank-empty"], NOW, lay)
    assert texts(panel(bank, "main"))[0].text == "BANK EMPTY?"
    hint = " ".join(t.text for t in texts(panel(bank, "message")))
    assert hint == "The move's clock runs on until the answer"
    # while playing, the line under the footer names the two keys
    playing = compose(VIEWS["playing"], NOW, lay)
    hint = " ".join(t.text for t in texts(panel(playing, "message")))
    assert hint == "Keypad: * empty rack · − bank empty"
