"""Keys → unit inputs: pygame window events, a pipe and a pseudo-terminal."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import itertools
import queue
import termios
import time
from collections.abc import Callable, Iterator
from typing import Any

import pygame
import pytest

from tablekit.controls import Button, ButtonEdge, JudgeAction, JudgeMenu, TableControls
from tablekit.core.clock import MoveClock
from tablekit.keyboard import (
    HOLD_MARGIN,
    KeyPress,
    TerminalKeys,
    WindowKeys,
    digit_input,
    display_available,
)
from tablekit.unit import MenuChoice, Quit

MENU = JudgeMenu((JudgeAction.RESUME, JudgeAction.RESTART_MOVE, JudgeAction.CLOSE))


def ticker() -> Callable[[], float]:
    counter = itertools.count(100)
    return lambda: float(next(counter))


@pytest.fixture
def window() -> Iterator[None]:
    pygame.display.init()
    pygame.display.set_mode((64, 48))
    pygame.event.clear()
    yield
    pygame.display.quit()


def key(kind: int, k: int) -> pygame.event.Event:
    return pygame.event.Event(kind, key=k, mod=0, unicode="", scancode=0)


def test_window_keys_become_button_edges_and_inputs(window: None) -> None:
    got: list[object] = []
    keys = WindowKeys(got.append, clock=ticker())
    for e in [
        key(pygame.KEYDOWN, pygame.K_SPACE),
        key(pygame.KEYUP, pygame.K_SPACE),
        key(pygame.KEYDOWN, pygame.K_j),
        key(pygame.KEYDOWN, pygame.K_j),  # key repeat: ignored
        key(pygame.KEYUP, pygame.K_j),
        key(pygame.KEYDOWN, pygame.K_c),
        key(pygame.KEYUP, pygame.K_c),
        key(pygame.KEYDOWN, pygame.K_3),
        key(pygame.KEYDOWN, pygame.K_KP5),
        key(pygame.KEYDOWN, pygame.K_KP_ENTER),
        key(pygame.KEYDOWN, pygame.K_BACKSPACE),
        key(pygame.KEYDOWN, pygame.K_KP_MINUS),
        key(pygame.KEYDOWN, pygame.K_x),  # not a key of the unit
        key(pygame.KEYDOWN, pygame.K_ESCAPE),
        pygame.event.Event(pygame.QUIT),
    ]:
        pygame.event.post(e)
    keys.pump()
    assert got == [
        ButtonEdge(Button.PASS, True, 100.0),
        ButtonEdge(Button.PASS, False, 101.0),
        ButtonEdge(Button.JUDGE, True, 102.0),
        ButtonEdge(Button.JUDGE, False, 104.0),
        ButtonEdge(Button.CALL, True, 105.0),
        ButtonEdge(Button.CALL, False, 106.0),
        KeyPress("3", 107.0),  # no judge menu open: a data key
        KeyPress("5", 108.0),
        KeyPress("enter", 109.0),
        KeyPress("backspace", 110.0),
        KeyPress("-", 111.0),
        Quit(),
        Quit(),
    ]


def test_window_number_keys_choose_in_an_open_menu(window: None) -> None:
    got: list[object] = []
    menu: list[JudgeMenu | None] = [MENU]
    keys = WindowKeys(got.append, clock=ticker(), menu=lambda: menu[0])
    for k in (pygame.K_2, pygame.K_KP1, pygame.K_7):
        pygame.event.post(key(pygame.KEYDOWN, k))
    keys.pump()
    assert got == [
        MenuChoice(JudgeAction.RESTART_MOVE, 100.0),
        MenuChoice(JudgeAction.RESUME, 101.0),
        KeyPress("7", 102.0),  # the menu has 3 items
    ]


def test_window_focus_loss_releases_held_buttons_and_expose_redraws(window: None) -> None:
    got: list[object] = []
    exposed: list[bool] = []
    keys = WindowKeys(got.append, clock=ticker(), on_expose=lambda: exposed.append(True))
    pygame.event.post(key(pygame.KEYDOWN, pygame.K_j))
    pygame.event.post(pygame.event.Event(pygame.WINDOWFOCUSLOST))
    pygame.event.post(key(pygame.KEYUP, pygame.K_j))  # already released: nothing more
    pygame.event.post(pygame.event.Event(pygame.WINDOWEXPOSED))
    keys.pump()
    assert got == [ButtonEdge(Button.JUDGE, True, 100.0), ButtonEdge(Button.JUDGE, False, 101.0)]
    assert exposed == [True]


def test_digit_input() -> None:
    assert digit_input("1", lambda: MENU, 5.0) == MenuChoice(JudgeAction.RESUME, 5.0)
    assert digit_input("4", lambda: MENU, 5.0) == KeyPress("4", 5.0)
    assert digit_input("0", lambda: MENU, 5.0) == KeyPress("0", 5.0)
    assert digit_input("2", lambda: None, 5.0) == KeyPress("2", 5.0)
    assert digit_input("2", None, 5.0) == KeyPress("2", 5.0)


# --- terminal ------------------------------------------------------------------------


def read_all(data: str, **options: Any) -> list[object]:
    got: list[object] = []
    r, w = os.pipe()
    os.write(w, data.encode())
    os.close(w)
    keys = TerminalKeys(got.append, fd=r, **options)
    try:
        keys.start()
        keys.join(timeout=10)
    finally:
        keys.stop()
        os.close(r)
    return got


def test_terminal_keys_from_a_pipe() -> None:
    got = read_all(" jc30+\r\x7f\x1b[Ax9.", judge_hold=0.05)
    kinds = [
        (
            type(g).__name__,
            getattr(g, "button", getattr(g, "key", None)),
            getattr(g, "pressed", None),
        )
        for g in got
    ]
    assert kinds == [
        ("ButtonEdge", Button.PASS, True),
        ("ButtonEdge", Button.PASS, False),
        ("ButtonEdge", Button.JUDGE, True),
        ("ButtonEdge", Button.JUDGE, False),
        ("ButtonEdge", Button.CALL, True),
        ("ButtonEdge", Button.CALL, False),
        ("KeyPress", "3", None),
        ("KeyPress", "0", None),
        ("KeyPress", "+", None),
        ("KeyPress", "enter", None),
        ("KeyPress", "backspace", None),
        # the arrow key's escape sequence and the unknown x are skipped
        ("KeyPress", "9", None),
        ("KeyPress", ".", None),
        ("Quit", None, None),  # end of input
    ]
    stamps = [g.at for g in got if isinstance(g, ButtonEdge)]
    assert stamps == sorted(stamps)


def test_terminal_hold_keys_release_after_the_hold_in_real_time() -> None:
    got = read_all("J P ", judge_hold=0.1, call_hold=0.2, quit_on_eof=False)
    edges = [g for g in got if isinstance(g, ButtonEdge)]
    judge = [e for e in edges if e.button is Button.JUDGE]
    assert [e.pressed for e in judge] == [True, False]
    assert judge[1].at - judge[0].at >= 0.1 + HOLD_MARGIN
    passes = [e for e in edges if e.button is Button.PASS]
    # A space taps the pass button; P holds it, and the space typed while it is held
    # cannot press it again.
    assert [e.pressed for e in passes] == [True, False, True, False]
    assert passes[3].at - passes[2].at >= 0.2 + HOLD_MARGIN
    assert not any(isinstance(g, Quit) for g in got)


def test_terminal_digits_choose_in_an_open_menu() -> None:
    got = read_all("2", menu=lambda: MENU)
    assert isinstance(got[0], MenuChoice) and got[0].action is JudgeAction.RESTART_MOVE


def test_terminal_lone_escape_and_q_quit() -> None:
    assert [type(g) for g in read_all("\x1b", quit_on_eof=False)] == [Quit]
    assert [type(g) for g in read_all("q", quit_on_eof=False)] == [Quit]


def test_a_pty_is_put_in_cbreak_mode_and_restored(wait_until: Callable[..., Any]) -> None:
    master, slave = os.openpty()
    try:
        before = termios.tcgetattr(slave)
        got: list[object] = []
        with TerminalKeys(got.append, fd=slave, quit_on_eof=False):
            during = termios.tcgetattr(slave)
            assert not during[3] & termios.ICANON and not during[3] & termios.ECHO
            os.write(master, b" q")
            wait_until(lambda: any(isinstance(g, Quit) for g in got), timeout=5, what="quit")
        assert termios.tcgetattr(slave) == before
        assert [type(g) for g in got] == [ButtonEdge, ButtonEdge, Quit]
    finally:
        os.close(master)
        os.close(slave)


def test_a_terminal_hold_opens_the_judge_menu_through_the_controls() -> None:
    """The design end to end: J held in a terminal → the pure controls open the menu."""
    clock = MoveClock()
    controls = TableControls(clock, judge_hold=0.1)
    clock.start_game(time.monotonic())
    inbox: queue.SimpleQueue[object] = queue.SimpleQueue()
    r, w = os.pipe()
    keys = TerminalKeys(
        inbox.put, fd=r, judge_hold=0.1, quit_on_eof=True, menu=lambda: controls.menu
    )
    keys.start()
    try:
        os.write(w, b"J")
        deadline = time.monotonic() + 5
        chosen: list[object] = []
        while time.monotonic() < deadline:
            try:
                item = inbox.get(timeout=0.05)
            except queue.Empty:
                item = None
            if isinstance(item, ButtonEdge):
                controls.edge(item)
                if not item.pressed and item.button is Button.JUDGE:
                    assert controls.menu is not None, "the hold opened the menu"
                    os.write(w, b"2")
                    os.close(w)
            elif isinstance(item, MenuChoice):
                chosen.append(item)
                controls.choose(item.action, item.at)
            elif isinstance(item, Quit):
                break
            controls.tick(time.monotonic())
        assert [c.action for c in chosen if isinstance(c, MenuChoice)] == [JudgeAction.RESTART_MOVE]
        assert controls.menu is None
    finally:
        keys.stop()
        os.close(r)


# --- is there a display? ---------------------------------------------------------------


def test_display_available_rules(tmp_path: Any) -> None:
    nowhere = str(tmp_path / "card*")
    assert not display_available({"SDL_VIDEODRIVER": "dummy", "DISPLAY": ":0"}, probe=False)
    assert not display_available({"SDL_VIDEODRIVER": "offscreen"}, probe=False)
    assert not display_available({}, dri_glob=nowhere)
    assert display_available({"DISPLAY": ":5"}, probe=False, dri_glob=nowhere)
    assert display_available({"WAYLAND_DISPLAY": "wayland-0"}, probe=False, dri_glob=nowhere)
    assert not display_available(
        {"SDL_VIDEODRIVER": "kmsdrm", "DISPLAY": ":5"}, probe=False, dri_glob=nowhere
    )
    (tmp_path / "card0").write_text("")
    assert display_available({"SDL_VIDEODRIVER": "kmsdrm"}, probe=False, dri_glob=nowhere)
    # A DISPLAY that names no X server fails the real probe.
    env = {k: v for k, v in os.environ.items() if k not in ("SDL_VIDEODRIVER", "WAYLAND_DISPLAY")}
    env["DISPLAY"] = ":197"
    assert not display_available(env, dri_glob=nowhere)
