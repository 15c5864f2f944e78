"""Shared fixtures: private Mosquitto brokers on free loopback ports, private X servers,
polling helpers."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Final

import pytest
from hypothesis import HealthCheck, settings
from pace import scaled

from hub.broker import MosquittoBroker

# Property tests check properties, never speed: no per-example deadline and no "input
# generation is slow" check, which fail on a slow CPU (arm64 emulation, a Pi Zero 2 W)
# for reasons that have nothing to do with the kit.
settings.register_profile("kit", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("kit")


EMULATED: Final = os.environ.get("RUMMIKUB_EMULATED", "")
"""Set by deploy/test-arm64.sh: the suite runs in an arm64 root under qemu's user-mode
emulation (its name, e.g. ``qemu-aarch64``)."""
NO_BROWSER_UNDER_EMULATION: Final = (
    "Chromium cannot start under {how} user-mode emulation ('session not created: Chrome "
    "instance exited'); the hub Pi serves these pages, it does not run a browser, and the "
    "native run drives them"
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test of a ``tests/*_browser.py`` file drives the real browser: marked
    ``browser``, which ``./kit test --quick`` leaves out; skipped, with the reason, in the
    emulated arm64 root."""
    for item in items:
        if item.path.name.endswith("_browser.py"):
            item.add_marker(pytest.mark.browser)
            if EMULATED:
                reason = NO_BROWSER_UNDER_EMULATION.format(how=EMULATED)
                item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture
def mosquitto(tmp_path: Path) -> Iterator[Callable[..., MosquittoBroker]]:
    """A factory of started private Mosquitto brokers, each with its own directory.

    ``broker = mosquitto()`` listens on a free 127.0.0.1 port with persistence on, a
    log file (``broker.log_path``; see ``broker.log_tail()``) and ``max_queued_messages``
    raised. Keyword arguments go to :class:`hub.broker.MosquittoBroker` (e.g.
    ``extra=["max_packet_size 2048"]``). ``broker.kill()`` is ``kill -9``;
    ``broker.restart()`` starts it again on the same port. All are killed at teardown.
    """
    brokers: list[MosquittoBroker] = []

    def make(**options: Any) -> MosquittoBroker:
        broker = MosquittoBroker(tmp_path / f"mosquitto-{len(brokers)}", **options)
        brokers.append(broker)
        broker.start()
        return broker

    yield make
    for broker in brokers:
        broker.kill()


@pytest.fixture
def wait_until() -> Callable[..., Any]:
    """``wait_until(predicate, timeout=10, what="…")``: poll until truthy, else fail. The
    timeout is scaled by this machine's measured slowness (tests/pace.py)."""

    def wait(predicate: Callable[[], Any], timeout: float = 10.0, what: str = "") -> Any:
        timeout = scaled(timeout)
        deadline = time.monotonic() + timeout
        while True:
            value = predicate()
            if value:
                return value
            if time.monotonic() > deadline:
                pytest.fail(f"timed out after {timeout} s waiting for {what or predicate}")
            time.sleep(0.02)

    return wait


def _accepts(path: Path) -> bool:
    """The X server listens on its socket (the file appears before it accepts)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(str(path))
        except OSError:
            return False
    return True


@pytest.fixture
def xvfb() -> Iterator[Callable[[int, int], str]]:
    """``display = xvfb(width, height)``: a private X server (Xvfb, 24-bit) on a free
    display number, for real windows; stopped at teardown."""
    servers: list[subprocess.Popen[bytes]] = []

    def start(width: int, height: int) -> str:
        binary = shutil.which("Xvfb")
        assert binary, "Xvfb is needed (./kit test installs it: apt-get install xvfb)"
        # -displayfd: the server takes a free display number itself and writes it once it
        # accepts clients; picking a number here raced other workers' servers for it.
        read_end, write_end = os.pipe()
        proc = subprocess.Popen(
            [binary, "-displayfd", str(write_end), "-screen", "0", f"{width}x{height}x24",
             "-nolisten", "tcp"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            pass_fds=(write_end,),
        )
        servers.append(proc)
        os.close(write_end)
        with os.fdopen(read_end) as numbers:
            number = numbers.readline().strip()  # empty when the server ended first
        if not number or proc.poll() is not None:
            pytest.fail("Xvfb did not start")
        assert _accepts(Path(f"/tmp/.X11-unix/X{number}"))
        return f":{number}"

    yield start
    for proc in servers:
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture
def chromium() -> Iterator[list[Any]]:
    """Browsers a test opens (``web_console.browser``), all closed at the end."""
    opened: list[Any] = []
    yield opened
    for driver in opened:
        driver.quit()
