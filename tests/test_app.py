"""The unit's entry points as a user runs them: a real process, keys on stdin."""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import termios
import threading
import time
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import msgspec
import pygame
import pytest
from running import Running
from xwd import screenshot

from tablekit.app import _parser, _setup, build, sim_main, unit_main
from tablekit.bot import BotStyle, TableBot
from tablekit.config import UnitConfig, parse_config
from tablekit.controls import Button, ButtonEdge
from tablekit.core.clock_events import MovePassed, PauseReason
from tablekit.core.seats import Seat
from tablekit.core.status import TableState, look
from tablekit.journal import Journal
from tablekit.result_entry import Step
from tablekit.shared import i18n
from tablekit.shared.sdnotify import Notifier
from tablekit.unit import BEAT_CHARGE, BEAT_INTERVAL, KeyPress, Quit, SavedUnit

EN = i18n.words("en")
SIM = [sys.executable, "-c", "from tablekit.app import sim_main; sim_main()"]


LOCKOUT_PAUSE = 0.6
"""Between two presses: longer than the clock's 0.4 s lockout, so the second one counts."""


class HeadlessSim(Running):
    """``tablekit-sim --headless`` in a real process; keys go in when its lines say so.

    Each key waits for the line that shows the state it is meant for (a slow CPU, a Pi
    Zero or emulation, takes seconds to start the sim), never for a fixed time.
    """

    def __init__(self, tmp_path: Path, *args: str) -> None:
        super().__init__(
            [*SIM, "--headless", "--lang", "en", "--journal", str(tmp_path / "journal.sqlite3"),
             *args],
            {**os.environ, "SDL_VIDEODRIVER": "dummy"},
            stdin=subprocess.PIPE,
        )

    def keys(self, keys: str, after: float = 0.0) -> None:
        time.sleep(after)
        assert self.proc.stdin is not None
        self.proc.stdin.write(keys)
        self.proc.stdin.flush()

    def quit(self) -> str:
        self.keys("q")
        assert self.stopped_within(60) is not None, self.output
        assert self.proc.returncode == 0, self.output
        return self.output


def play_two_moves(sim: HeadlessSim) -> None:
    sim.wait_for("READY  seat A starts", 60)
    sim.keys(" ")
    sim.wait_for("PLAYING  seat A", 30)
    sim.keys(" ", after=LOCKOUT_PAUSE)
    sim.wait_for("PLAYING  seat B", 30)


def test_headless_simulator_plays_and_enters_a_result(tmp_path: Path) -> None:
    sim = HeadlessSim(tmp_path)
    play_two_moves(sim)
    sim.keys("j", after=LOCKOUT_PAUSE)
    sim.wait_for("PAUSED — JUDGE  seat B", 30)
    sim.keys("j", after=LOCKOUT_PAUSE)
    sim.wait_for("PLAYING  seat B", 30, count=2)
    sim.keys("J", after=LOCKOUT_PAUSE)  # held: the judge menu
    sim.wait_for("judge menu: ▶1 Resume the clock", 30)
    sim.keys("5")
    sim.wait_for("ENTERING RESULT", 30)
    sim.keys("12\n\n0\n\n33\n\n7\n\n")
    sim.wait_for("CONFIRM RESULT", 30)
    sim.keys("\n\n\n\n")
    sim.wait_for("RESULT IN", 30)
    lines = sim.quit().splitlines()
    assert "A:-12/0 B:+52/1 C:-33/0 D:-7/0" in lines[-1]
    assert "RESULT IN" in lines[-1]
    journal = Journal(tmp_path / "journal.sqlite3", "table-01")
    assert journal.last_seq >= 6  # started, passed, paused, resumed, paused, over, result


def test_restarted_simulator_resumes_paused_from_its_journal(tmp_path: Path) -> None:
    sim = HeadlessSim(tmp_path)
    play_two_moves(sim)
    sim.keys(" ", after=LOCKOUT_PAUSE)
    sim.wait_for("PLAYING  seat C", 30)
    sim.quit()
    again = HeadlessSim(tmp_path)
    again.wait_for("PAUSED — RESTARTED  seat C", 60)
    again.quit()


def test_a_unit_killed_mid_move_never_comes_back_with_more_time_than_the_player_had(
    tmp_path: Path,
) -> None:
    journal = tmp_path / "journal.sqlite3"
    sim = HeadlessSim(tmp_path)
    sim.wait_for("READY  seat A starts", 60)
    sim.keys(" ")
    sim.wait_for("PLAYING  seat A", 30)

    def saved_remaining() -> float:  # the clock the journal holds, read while the sim writes
        with closing(sqlite3.connect(f"file:{journal}?mode=ro", uri=True, timeout=5)) as db:
            row = db.execute("SELECT blob FROM state WHERE id = 1").fetchone()
        return msgspec.json.decode(row[0], type=SavedUnit).clock.remaining

    # a beat has saved the running move (not only its start): kill -9 right after it
    deadline = time.monotonic() + 60
    while saved_remaining() > 40.0 - BEAT_CHARGE - BEAT_INTERVAL / 2:
        assert time.monotonic() < deadline, "no beat saved the running move"
    sim.proc.kill()
    killed = time.time()
    sim.proc.wait(30)
    with closing(sqlite3.connect(journal)) as db:  # when the game began, as journalled
        (started,) = db.execute("SELECT ts FROM entries WHERE seq = 1").fetchone()
    real = 40.0 - (killed - started)
    unit = build(UnitConfig(), journal)  # the unit comes back from its journal
    try:
        state = unit.clock.state
        assert state.paused is PauseReason.RECOVERED and state.active is Seat.A
        restored = state.remaining_at(time.monotonic() + 100)  # paused: the down time is free
        assert restored <= real, f"restored {restored:.3f} s, the player had {real:.3f} s"
        assert restored >= real - BEAT_CHARGE - 1.0  # charged ahead, not much more
    finally:
        unit.recorder.close()  # type: ignore[union-attr]


def test_simulated_players_finish_a_result_a_restarted_unit_was_entering(
    tmp_path: Path, wait_until: Callable[..., object]
) -> None:
    journal = tmp_path / "journal.sqlite3"
    unit = build(UnitConfig(), journal)
    now = time.monotonic()
    for at in (now, now + 1.0):  # the game starts, A passes
        unit.handle(ButtonEdge(Button.PASS, True, at))
        unit.handle(ButtonEdge(Button.PASS, False, at + 0.05))
    for key in ("*", "enter", "1", "2", "enter", "5", "enter"):  # B went out: A 12, B 5 ...
        unit.handle(KeyPress(key, now + 2.0))
    assert unit.view.entry is not None and unit.view.entry.seat is Seat.C
    unit.recorder.close()  # type: ignore[union-attr]  # ... and the unit restarts
    again = build(UnitConfig(), journal)
    loop = threading.Thread(target=again.run, daemon=True)
    bot = TableBot(again.put, lambda: again.view, BotStyle(pace=0.01, games=1), seed=3)
    loop.start()
    bot.start()
    try:
        wait_until(
            lambda: again.view.entry is not None and again.view.entry.step is Step.ACCEPTED,
            60, "the result the players finish typing",
        )
        entry = again.view.entry
        assert entry is not None
        assert [(r.seat, r.tiles) for r in entry.racks][:2] == [(Seat.A, 12), (Seat.B, 5)]
        assert any(r.tiles == 0 for r in entry.racks)  # someone went out, as typed
    finally:
        bot.stop()
        again.put(Quit())
        loop.join(5)
        again.recorder.close()  # type: ignore[union-attr]


def test_simulated_players_deal_each_games_racks_anew(
    tmp_path: Path, wait_until: Callable[..., object]
) -> None:
    unit = build(UnitConfig(), tmp_path / "journal.sqlite3")
    loop = threading.Thread(target=unit.run, daemon=True)
    style = BotStyle(
        pace=0.01, games=2, moves_per_game=(2, 3), timeout_chance=0.0, judge_chance=0.0
    )
    bot = TableBot(unit.put, lambda: unit.view, style, seed=11)
    accepted: dict[int, tuple[tuple[int | None, int | None], ...]] = {}

    def both_accepted() -> bool:
        entry = unit.view.entry
        if entry is not None and entry.step is Step.ACCEPTED:
            accepted[entry.game] = tuple((r.tiles, r.jokers) for r in entry.racks)
        return len(accepted) == 2

    loop.start()
    bot.start()
    try:
        wait_until(both_accepted, 60, "two games' results accepted")
        first, second = accepted.values()
        assert first != second  # the second game's racks are its own, not the first's
    finally:
        bot.stop()
        unit.put(Quit())
        loop.join(5)
        unit.recorder.close()  # type: ignore[union-attr]


def test_bad_config_is_a_clear_error(tmp_path: Path) -> None:
    config = tmp_path / "unit.toml"
    config.write_text("[clock]\nmove_seconds = 0\n")
    proc = subprocess.run(
        [*SIM, "--headless", "--lang", "en", "--config", str(config)],
        capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL, check=False,
    )
    assert proc.returncode != 0
    assert "clock.move_seconds" in proc.stderr and "Traceback" not in proc.stderr


def test_a_language_the_kit_does_not_speak_is_a_clear_error(tmp_path: Path) -> None:
    proc = subprocess.run(
        [*SIM, "--headless", "--lang", "de", "--journal", str(tmp_path / "j.sqlite3")],
        capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL, check=False,
        env={**os.environ, "LANG": "en_GB.UTF-8"},
    )
    assert proc.returncode != 0
    assert "--lang: no language 'de'" in proc.stderr and "Traceback" not in proc.stderr


def test_the_language_option_replaces_the_configs(tmp_path: Path) -> None:
    config = tmp_path / "unit.toml"
    config.write_text('[unit]\nlanguage = "pl"\n')
    parser = _parser("tablekit-sim", "", EN)
    args = parser.parse_args(["--config", str(config), "--lang", "en"])
    assert _setup(args, EN)[0].unit.language == "en"
    args = parser.parse_args(["--config", str(config)])
    assert _setup(args, EN)[0].unit.language == "pl"


def test_sd_notify_reaches_systemds_socket(tmp_path: Path) -> None:
    path = str(tmp_path / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(path)
        server.settimeout(2)
        notifier = Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "4000000"})
        assert notifier.ready("table 3")
        assert server.recv(100) == b"READY=1\nSTATUS=table 3"
        assert notifier.alive(100.0)
        assert not notifier.alive(101.0)  # at most twice per 4 s watchdog period
        assert notifier.alive(102.5)
        assert server.recv(100) == b"WATCHDOG=1"


def test_sd_notify_outside_systemd_does_nothing() -> None:
    notifier = Notifier({})
    assert not notifier.ready() and not notifier.alive(1.0) and notifier.watchdog is None


def test_another_units_journal_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    Journal(path, "table-07").close()
    proc = subprocess.run(
        [*SIM, "--headless", "--lang", "en", "--journal", str(path)],
        capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL, check=False,
    )
    assert proc.returncode != 0 and "Traceback" not in proc.stderr
    assert "belongs to unit 'table-07', not 'table-01'" in proc.stderr


def test_a_missing_password_file_is_a_clear_error(tmp_path: Path) -> None:
    config = tmp_path / "unit.toml"
    config.write_text(
        '[link]\nhost = "127.0.0.1"\nport = 1\nusername = "table-01"\n'
        f'password_file = "{tmp_path / "nope"}"\n'
    )
    proc = subprocess.run(
        [*SIM, "--headless", "--lang", "en", "--config", str(config), "--journal",
         str(tmp_path / "j.sqlite3")],
        capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL, check=False,
    )
    assert proc.returncode != 0 and "Traceback" not in proc.stderr
    assert "link.password_file" in proc.stderr and "cannot read it" in proc.stderr
    assert not (tmp_path / "j.sqlite3").exists()  # checked before any file is made


def test_the_simulator_opens_a_window_when_there_is_a_display(
    tmp_path: Path, xvfb: Callable[[int, int], str]
) -> None:
    display = xvfb(800, 600)
    env = {k: v for k, v in os.environ.items() if k not in ("SDL_VIDEODRIVER", "WAYLAND_DISPLAY")}
    journal = tmp_path / "journal.sqlite3"
    sim = subprocess.Popen(
        [*SIM, "--journal", str(journal), "--bot", "--pace", "0.05", "--seed", "4"],
        env={**env, "DISPLAY": display, "SDL_AUDIODRIVER": "dummy"},
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )

    def green(shot: pygame.Surface) -> int:  # the PLAYING band (the word is there too)
        return sum(
            1 for x in range(0, 800, 4) for y in range(0, 600, 4)
            if tuple(shot.get_at((x, y)))[:3] == look(TableState.PLAYING).bg
        )

    def journalled() -> int:  # read only, while the sim writes
        if not journal.exists():
            return 0
        with closing(sqlite3.connect(f"file:{journal}?mode=ro", uri=True, timeout=5)) as db:
            row = db.execute("SELECT value FROM meta WHERE key = 'last_seq'").fetchone()
        return int(row[0]) if row else 0

    try:
        # The bots play a few moves in the window: wait until it shows them (a slow CPU
        # takes seconds to start), then stop the sim as systemd would.
        deadline = time.monotonic() + 90
        while True:
            shot = screenshot(display)  # taken by the X server, not by pygame
            if green(shot) > 50 and journalled() >= 3:
                break
            assert sim.poll() is None, sim.communicate()[1].decode()
            assert time.monotonic() < deadline, "no bot moves in the window within 90 s"
            time.sleep(0.2)
    finally:
        sim.send_signal(signal.SIGTERM)
        out, err = sim.communicate(timeout=30)
    assert sim.returncode == 0, err.decode()
    assert b"headless" not in out  # it chose the window by itself
    pygame.image.save(shot, str(tmp_path / "sim-window.png"))
    assert Journal(journal, "table-01").last_seq >= 3


def test_headless_simulator_gives_the_terminal_back(tmp_path: Path) -> None:
    master, slave = os.openpty()
    assert termios.tcgetattr(slave)[3] & termios.ECHO
    sim = subprocess.Popen(
        [*SIM, "--headless", "--journal", str(tmp_path / "journal.sqlite3")],
        stdin=slave, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env={**os.environ, "SDL_VIDEODRIVER": "dummy"},
    )
    try:
        deadline = time.monotonic() + 60  # a loaded or slow machine takes long to start it
        while termios.tcgetattr(slave)[3] & termios.ICANON:  # until it reads keys
            assert time.monotonic() < deadline, "the simulator never read the terminal"
            time.sleep(0.05)
        os.write(master, b"q")
        assert sim.wait(timeout=15) == 0
    finally:
        if sim.poll() is None:
            sim.kill()
    mode = termios.tcgetattr(slave)[3]
    os.close(master)
    os.close(slave)
    assert mode & termios.ECHO and mode & termios.ICANON  # echo and line editing are back


def test_a_restarted_unit_still_shows_the_events_the_hub_refused(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.sqlite3", "table-01")
    journal.record([MovePassed(game=1, move=1, seat=Seat.A, used=100_000.0)])
    assert journal.set_aside(1, "range", "used out of range")
    journal.close()
    unit = build(parse_config("", "unit.toml"), tmp_path / "journal.sqlite3")
    assert unit.view.message == "The hub refused 1 event(s) (#1) — kept for the judge"


@pytest.mark.parametrize("main", [sim_main, unit_main])
def test_the_help_speaks_polish_unless_asked_for_english(
    main: Callable[[list[str]], None],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(variable, raising=False)
    with pytest.raises(SystemExit):
        main(["--help"])
    polish = " ".join(capsys.readouterr().out.split())  # argparse wraps the lines
    assert polish.startswith("użycie: tablekit-")
    assert "plik konfiguracji modułu (TOML); domyślnie: ustawienia wbudowane" in polish
    assert "pokaż" in polish and "usage" not in polish and "unit config file" not in polish
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "unit config file (TOML); default: built-in" in " ".join(capsys.readouterr().out.split())
    monkeypatch.setenv("LANG", "pl_PL.UTF-8")
    with pytest.raises(SystemExit):
        main(["--help", "--lang", "en"])
    english = " ".join(capsys.readouterr().out.split())
    assert english.startswith("usage: tablekit-")
    assert "simulated players press the buttons" in english


def test_the_sim_s_help_tells_its_keys_in_polish(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        sim_main(["--help", "--lang", "pl"])
    out = " ".join(capsys.readouterr().out.split())  # argparse wraps the lines
    assert "Moduł stolikowy na twoim komputerze: spacja = przycisk ruchu" in out
    assert "--headless nigdy nie otwieraj okna" in out


def test_the_headless_simulator_speaks_polish(tmp_path: Path) -> None:
    sim = HeadlessSim(tmp_path, "--lang", "pl")  # the last --lang given wins
    sim.wait_for("brak ekranu — praca w terminalu. Klawisze: spacja ruch", 60)
    sim.wait_for("[stolik 1 gra 1 ruch 0]", 60)
    sim.wait_for("zaczyna miejsce A (kolejno)", 60)
    sim.keys(" ")
    sim.wait_for("miejsce A  czas biegnie", 30)
    sim.quit()


def test_an_error_is_said_in_the_units_language(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    Journal(path, "table-07").close()
    config = tmp_path / "unit.toml"
    config.write_text('[unit]\nlanguage = "pl"\n')
    proc = subprocess.run(
        [*SIM, "--headless", "--config", str(config), "--journal", str(path)],
        capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL, check=False,
        env={**os.environ, "LANG": "en_GB.UTF-8"},
    )
    assert proc.returncode != 0 and "Traceback" not in proc.stderr
    assert "„table-07”" in proc.stderr and "belongs to" not in proc.stderr, proc.stderr
