"""Long-running programs under test: started in their own session (as a terminal or
systemd starts them), their output collected, stopped by signals, what they leave."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest


class Running:
    """A program started in its own session (like a terminal's or systemd's), its output
    collected line by line on a thread."""

    def __init__(self, argv: list[str], env: dict[str, str], stdin: int | None = None) -> None:
        self.proc = subprocess.Popen(
            argv, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            env=env, start_new_session=True,
        )
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line)

    @property
    def output(self) -> str:
        return "".join(self.lines)

    def wait_for(self, text: str, timeout: float, count: int = 1) -> None:
        """Until ``text`` is in the output ``count`` times (else the program is killed)."""
        deadline = time.monotonic() + timeout
        while self.output.count(text) < count:
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.kill()
                pytest.fail(f"no {text!r} within {timeout} s:\n{self.output}")
            time.sleep(0.1)

    def stopped_within(self, seconds: float) -> float | None:
        """Seconds until the program ended, or None (then it is killed)."""
        start = time.monotonic()
        try:
            self.proc.wait(seconds)
        except subprocess.TimeoutExpired:
            self.kill()
            return None
        self._reader.join(5)
        return time.monotonic() - start

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)


def session_left(sid: int) -> list[str]:
    """Command lines of the processes still in session ``sid``."""
    left = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if os.getsid(int(entry.name)) != sid:
                continue
            left.append((entry / "cmdline").read_bytes().replace(b"\0", b" ").decode())
        except (OSError, ProcessLookupError):
            continue
    return left


def processes_naming(path: Path, program: str = "") -> list[int]:
    """Pids of the processes whose command line names ``path`` (and ``program``)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            if program in cmd and str(path) in cmd:
                pids.append(int(entry.name))
    return pids
