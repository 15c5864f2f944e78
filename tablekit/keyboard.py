"""Keys standing in for the table's buttons: the desktop window and a plain terminal.

Both only ``put`` input values on the unit's queue; the loop owns all state.

Window (pygame events, :class:`WindowKeys`; call :meth:`WindowKeys.pump` from the
loop, on the thread that opened the window):

=================  ==========================================================
space              pass button (press on key down, release on key up)
J                  judge key (held ≥ ``judge_hold`` opens the judge menu — the
                   controls see the hold from the press/release timestamps)
C                  call-judge button
digits (row or     with a judge menu open, 1–7 put ``unit.MenuChoice`` for the
keypad)            n-th action; otherwise :class:`KeyPress` ("0"–"9")
Enter, Backspace,  :class:`KeyPress` ("enter", "backspace", "+", "-", "*", "/",
+ - * / .          ".") for result entry, and during a game the table's own
                   actions (``*`` empty rack, ``-`` bank empty, then Enter)
Q, Escape, close   ``unit.Quit``
M                  the simulator's sound off / on (``on_mute``)
=================  ==========================================================

Terminal (:class:`TerminalKeys`, stdin in cbreak mode or any readable fd such as a
pipe). A terminal reports no key releases, so each key makes a whole press:

=================  ==========================================================
space              pass button press + release
j                  judge key short press (pause / resume / choose in the menu)
J or h             judge key **held**: the press now; the release is put
                   ``judge_hold + HOLD_MARGIN`` s later by the reader thread
c                  call-judge button press + release
P                  pass button held ``call_hold + HOLD_MARGIN`` s (a player's
                   judge call by holding the pass button after a pass)
digits            as in the window (menu action when a menu is open, else data)
+ - * / .          :class:`KeyPress`; Enter → "enter", Backspace → "backspace"
q, Q, Escape       ``unit.Quit`` (also at end of input when ``quit_on_eof``)
=================  ==========================================================

The menu and quit inputs are the loop's own types (:class:`tablekit.unit.MenuChoice`,
:class:`tablekit.unit.Quit`). Whether a menu is open is asked of ``menu`` (e.g.
``lambda: unit.view.menu``: an immutable snapshot, safe to read from the reader
thread; the controls ignore a choice that is no longer in the menu).

Every timestamp is the real monotonic time at which the edge is put, so a held
key's release really comes after the hold; the loop must ``tick`` the controls up
to an edge's time before handing it over, or the hold is not seen.
"""

from __future__ import annotations

import codecs
import glob
import os
import select
import subprocess
import sys
import termios
import threading
import time
import tty
from collections.abc import Callable, Mapping
from types import TracebackType
from typing import Any

from tablekit.controls import DEFAULT_CALL_HOLD, DEFAULT_JUDGE_HOLD, Button, ButtonEdge, JudgeMenu
from tablekit.unit import KeyPress, MenuChoice, Quit

Put = Callable[[object], None]
Clock = Callable[[], float]

HOLD_MARGIN = 0.3
"""A terminal 'hold' lasts this much longer than the hold threshold, so the loop's
tick at 10–20 Hz sees the key held past the threshold before the release arrives."""
MENU_KEYS = 7
"""Number keys 1..MENU_KEYS choose judge-menu actions."""
KEYPAD_KEYS = frozenset(
    [
        "0",
        "1",
        "2",
        "3",
        "4",
        "5",
        "6",
        "7",
        "8",
        "9",
        "enter",
        "backspace",
        "+",
        "-",
        "*",
        "/",
        ".",
    ]
)


AnyKeyInput = ButtonEdge | KeyPress | MenuChoice | Quit
MenuSource = Callable[[], JudgeMenu | None]
"""Gives the judge menu open right now (e.g. ``lambda: unit.view.menu``), or None."""


def digit_input(digit: str, menu: MenuSource | None, at: float) -> MenuChoice | KeyPress:
    """A digit key: the n-th action of an open judge menu, else a data key."""
    current = menu() if menu is not None else None
    number = int(digit)
    if current is not None and 1 <= number <= min(MENU_KEYS, len(current.actions)):
        return MenuChoice(current.actions[number - 1], at)
    return KeyPress(digit, at)


# --- display detection -------------------------------------------------------------

_PROBE = (
    "import os, sys\n"
    "os.environ['PYGAME_HIDE_SUPPORT_PROMPT'] = '1'\n"
    "import pygame\n"
    "pygame.display.init()\n"
    "print(pygame.display.get_driver())\n"
)


def display_available(
    env: Mapping[str, str] | None = None, *, probe: bool = True, dri_glob: str = "/dev/dri/card*"
) -> bool:
    """Whether SDL can open a real video driver (not dummy/offscreen) here.

    A quick look first: ``SDL_VIDEODRIVER`` naming dummy/offscreen, or neither
    ``DISPLAY``/``WAYLAND_DISPLAY`` nor a DRM card (KMSDRM) → False. Then, with
    ``probe``, a child Python initialises pygame's display with that environment
    (so this process's pygame state is untouched) and reports the driver it got.
    """
    env = dict(os.environ if env is None else env)
    driver = env.get("SDL_VIDEODRIVER", "").strip().lower()
    if driver in ("dummy", "offscreen"):
        return False
    has_window = bool(env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"))
    has_drm = bool(glob.glob(dri_glob))
    if driver == "kmsdrm":
        candidates = has_drm
    elif driver in ("x11", "wayland"):
        candidates = has_window
    else:
        candidates = has_window or has_drm
    if not candidates:
        return False
    if not probe:
        return True
    try:
        done = subprocess.run(
            [sys.executable, "-c", _PROBE],
            env=env,
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    got = done.stdout.strip().lower()
    return done.returncode == 0 and got not in ("", "dummy", "offscreen")


# --- window keys (pygame) ---------------------------------------------------------------


class WindowKeys:
    """Turns pygame keyboard events into unit inputs."""

    def __init__(
        self,
        put: Put,
        clock: Clock = time.monotonic,
        on_expose: Callable[[], None] | None = None,
        menu: MenuSource | None = None,
        on_mute: Callable[[], None] | None = None,
    ) -> None:
        import pygame

        self._pg: Any = pygame
        self.put = put
        self.clock = clock
        self.on_expose = on_expose
        """Called when the window needs a full redraw (e.g. ``TableScreen.invalidate``)."""
        self.menu = menu
        self.on_mute = on_mute
        """Called for M: the simulator's sound off or on again."""
        self._down: dict[int, Button] = {}
        k = pygame
        self._buttons: dict[int, Button] = {
            k.K_SPACE: Button.PASS,
            k.K_j: Button.JUDGE,
            k.K_c: Button.CALL,
        }
        self._digits: dict[int, str] = {getattr(k, f"K_{n}"): str(n) for n in range(10)}
        self._digits.update({getattr(k, f"K_KP{n}"): str(n) for n in range(10)})
        self._data: dict[int, str] = {}
        self._data.update(
            {
                k.K_RETURN: "enter",
                k.K_KP_ENTER: "enter",
                k.K_BACKSPACE: "backspace",
                k.K_KP_PLUS: "+",
                k.K_PLUS: "+",
                k.K_KP_MINUS: "-",
                k.K_MINUS: "-",
                k.K_KP_MULTIPLY: "*",
                k.K_ASTERISK: "*",
                k.K_KP_DIVIDE: "/",
                k.K_SLASH: "/",
                k.K_KP_PERIOD: ".",
                k.K_PERIOD: ".",
            }
        )
        self._quit = {k.K_q, k.K_ESCAPE}

    def pump(self) -> None:
        """Handle every pending pygame event (keeps the window responsive too)."""
        for event in self._pg.event.get():
            self.handle(event)

    def handle(self, event: Any) -> bool:
        """Put the input for one pygame event; True when the event meant something."""
        pg = self._pg
        now = self.clock()
        if event.type == pg.QUIT:
            self.put(Quit())
            return True
        if event.type in (pg.WINDOWEXPOSED, pg.VIDEOEXPOSE, pg.WINDOWRESTORED):
            if self.on_expose is not None:
                self.on_expose()
            return True
        if event.type == pg.WINDOWFOCUSLOST:
            self.release_all(now)
            return True
        if event.type == pg.KEYDOWN:
            return self._key_down(event.key, now)
        if event.type == pg.KEYUP:
            button = self._down.pop(event.key, None)
            if button is None:
                return False
            self.put(ButtonEdge(button, False, now))
            return True
        return False

    def release_all(self, now: float) -> None:
        """Release every button still held (the window lost the keyboard)."""
        for button in self._down.values():
            self.put(ButtonEdge(button, False, now))
        self._down.clear()

    def _key_down(self, key: int, now: float) -> bool:
        button = self._buttons.get(key)
        if button is not None:
            if key in self._down:  # key repeat: a button cannot go down twice
                return False
            self._down[key] = button
            self.put(ButtonEdge(button, True, now))
            return True
        if key in self._digits:
            self.put(digit_input(self._digits[key], self.menu, now))
            return True
        if key in self._data:
            self.put(KeyPress(self._data[key], now))
            return True
        if key in self._quit:
            self.put(Quit())
            return True
        if key == self._pg.K_m and self.on_mute is not None:
            self.on_mute()
            return True
        return False


# --- terminal keys ---------------------------------------------------------------------


class TerminalKeys:
    """Reads keys from a terminal or pipe on a background thread and puts inputs.

    Use as a context manager: on entry a terminal is put in cbreak mode (echo off,
    no line buffering, Ctrl-C still interrupts) and the reader starts; on exit the
    reader stops and the terminal's settings are restored.
    """

    def __init__(
        self,
        put: Put,
        fd: int | None = None,
        *,
        judge_hold: float = DEFAULT_JUDGE_HOLD,
        call_hold: float = DEFAULT_CALL_HOLD,
        clock: Clock = time.monotonic,
        quit_on_eof: bool = True,
        menu: MenuSource | None = None,
    ) -> None:
        self.put = put
        self.menu = menu
        self.fd = sys.stdin.fileno() if fd is None else fd
        self.judge_hold = judge_hold
        self.call_hold = call_hold
        self.clock = clock
        self.quit_on_eof = quit_on_eof
        self.eof = False
        self._pending: list[tuple[float, Button]] = []
        """Releases to put later: (due time, button)."""
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._saved: list[Any] | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # -- lifecycle ------------------------------------------------------------------

    def __enter__(self) -> TerminalKeys:
        self.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    def start(self) -> None:
        if self._thread is not None and self._thread.is_alive():
            return  # already reading: a second start would save cbreak as "the original"
        if os.isatty(self.fd):
            self._saved = termios.tcgetattr(self.fd)
            tty.setcbreak(self.fd)
        self._stop.clear()
        self._thread = threading.Thread(target=self.run, name="terminal-keys", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
            self._thread = None
        if self._saved is not None:
            termios.tcsetattr(self.fd, termios.TCSADRAIN, self._saved)
            self._saved = None

    def join(self, timeout: float | None = None) -> None:
        """Wait for the reader to finish (end of input and pending releases put)."""
        if self._thread is not None:
            self._thread.join(timeout)

    # -- the reader -----------------------------------------------------------------

    def run(self) -> None:
        while not self._stop.is_set():
            self.release_due()
            if self.eof:
                if not self._pending:
                    if self.quit_on_eof:
                        self.put(Quit())
                    return
                self._stop.wait(self._wait_time())
                continue
            ready, _, _ = select.select([self.fd], [], [], self._wait_time())
            if not ready:
                continue
            try:
                data = os.read(self.fd, 256)
            except OSError:  # the terminal went away (a closed pty)
                data = b""
            if not data:
                self.eof = True
                self.feed(self._decoder.decode(b"", final=True))
                continue
            self.feed(self._decoder.decode(data))

    def _wait_time(self) -> float:
        if not self._pending:
            return 0.1
        return min(0.1, max(0.0, min(due for due, _ in self._pending) - self.clock()))

    def release_due(self) -> None:
        """Put the releases of held keys whose time has come."""
        if not self._pending:
            return
        now = self.clock()
        due = [p for p in self._pending if p[0] <= now]
        if not due:
            return
        self._pending = [p for p in self._pending if p[0] > now]
        for _, button in sorted(due, key=lambda p: p[0]):
            self.put(ButtonEdge(button, False, self.clock()))

    # -- mapping ----------------------------------------------------------------------

    def feed(self, text: str) -> None:
        """Put the inputs for typed ``text`` (escape sequences such as arrows are skipped)."""
        i = 0
        while i < len(text):
            ch = text[i]
            if ch == "\x1b":
                if i + 1 < len(text) and text[i + 1] in "[O":
                    i = _skip_escape(text, i)
                    continue
                self.put(Quit())
                i += 1
                continue
            self.key(ch)
            i += 1

    def key(self, ch: str) -> None:
        """Put the inputs for one typed character."""
        now = self.clock()
        if ch == " ":
            self._tap(Button.PASS, now)
        elif ch == "j":
            self._tap(Button.JUDGE, now)
        elif ch in ("J", "h"):
            self._hold(Button.JUDGE, now, self.judge_hold)
        elif ch in ("c", "C"):
            self._tap(Button.CALL, now)
        elif ch == "P":
            self._hold(Button.PASS, now, self.call_hold)
        elif ch in ("q", "Q"):
            self.put(Quit())
        elif ch in "0123456789":
            self.put(digit_input(ch, self.menu, now))
        elif ch in ("\r", "\n"):
            self.put(KeyPress("enter", now))
        elif ch in ("\x7f", "\x08"):
            self.put(KeyPress("backspace", now))
        elif ch in KEYPAD_KEYS:
            self.put(KeyPress(ch, now))

    def _tap(self, button: Button, now: float) -> None:
        if self._held(button):
            return
        self.put(ButtonEdge(button, True, now))
        self.put(ButtonEdge(button, False, self.clock()))

    def _hold(self, button: Button, now: float, hold: float) -> None:
        if self._held(button):
            return
        self.put(ButtonEdge(button, True, now))
        self._pending.append((now + hold + HOLD_MARGIN, button))

    def _held(self, button: Button) -> bool:
        """A button already held down by an earlier 'hold' key cannot go down again."""
        return any(b is button for _, b in self._pending)


def _skip_escape(text: str, i: int) -> int:
    """Index after the escape sequence starting at ``text[i]`` (ESC [ … final byte)."""
    j = i + 2
    while j < len(text) and not ("@" <= text[j] <= "~"):
        j += 1
    return j + 1
