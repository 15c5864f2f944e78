"""``rummikub-rehearsal`` (``./kit rehearsal``): a hall on one computer set up from the
venue's own bundle, whose simulated tables play whatever the person draws.

Here the command: what it prints, that an event made after it started reaches the
tables with nothing done on them, that it stops everything it started on Ctrl-C and
SIGTERM, and that the same folder goes on.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import sys
import time
import urllib.request
from pathlib import Path

from running import Running, processes_naming

from hub.organizer import Organizer
from hub.store import EventStore
from hub.tournament import Player
from hub.web.accounts import read_accounts, verify_password

REHEARSAL = [sys.executable, "-c", "from hub.demo.rehearsal import main; raise SystemExit(main())"]
READY = "próba: Ctrl-C kończy próbę"
SIGN_IN = re.compile(r"zaloguj się jako organizator: nazwa organizer, hasło ([a-z0-9-]+)")
NAMES = ("Anna Nowak", "Jan Kowalski", "Ewa Ślęzak", "Ola Kot",
         "Piotr Zięba", "Marta Wąs", "Ignacy Łoś", "Hanna Ryś")  # fmt: skip


def rehearsal(folder: Path) -> Running:
    """The rehearsal of two tables in ``folder``, quick players, no desktop."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    return Running(
        [*REHEARSAL, "--tables", "2", "--dir", str(folder), "--lang", "pl", "--no-browser",
         "--pace", "0.02", "--moves", "3-4", "--timeouts", "0", "--judge-calls", "0"],
        {**env, "SDL_VIDEODRIVER": "dummy"},
    )  # fmt: skip


def stop(running: Running, how: signal.Signals, folder: Path) -> None:
    """Stopped by ``how`` sent as a terminal or systemd sends it, leaving nothing."""
    os.killpg(running.proc.pid, how)
    assert running.stopped_within(30) is not None, running.output
    assert running.proc.returncode == 0, running.output
    assert f"próba: zatrzymywanie ({how.name})" in running.output
    assert "Traceback" not in running.output, running.output
    assert processes_naming(folder) == []


def test_the_tables_play_what_is_drawn_after_the_start_and_it_stops_everything(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "próba"
    first = rehearsal(folder)
    try:
        first.wait_for(READY, 90)
        out = first.output
        url = re.search(r"otwórz konsolę WWW w przeglądarce na tym komputerze: (\S+)", out)
        sign_in = SIGN_IN.search(out)
        assert url is not None and sign_in is not None, out
        accounts = read_accounts(folder / "bundle" / "hub" / "web-accounts.toml")
        assert verify_password(sign_in.group(1), accounts["organizer"].hash)
        with urllib.request.urlopen(url.group(1), timeout=10) as page:
            assert '<html lang="pl">' in page.read().decode()
        # an event made after the start (here as the console's pages make it) reaches the
        # tables, which follow the event their hub announces
        org = Organizer(EventStore(folder / "hub.sqlite3"), by="test")
        try:
            org.create_event("Próba generalna", "school")
            org.register([Player(org.next_player_id(i), name) for i, name in enumerate(NAMES)],
                         check_in=True)  # fmt: skip
            org.draw(seed=1)
            deadline = time.monotonic() + 120
            while len(org.competition.results) < 4:  # both games at both tables, typed
                assert time.monotonic() < deadline, first.output
                time.sleep(0.5)
        finally:
            org.store.close()
        stop(first, signal.SIGINT, folder)

        again = rehearsal(folder)
        try:
            again.wait_for(READY, 90)
            assert SIGN_IN.search(again.output).group(1) == sign_in.group(1)  # type: ignore[union-attr]
            stop(again, signal.SIGTERM, folder)
        finally:
            again.kill()
    finally:
        first.kill()
        for pid in processes_naming(folder):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
