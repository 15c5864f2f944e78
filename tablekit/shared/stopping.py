"""Stopping a long-running program on SIGTERM and SIGINT, whatever pygame does.

When pygame's display initialises, SDL installs its own SIGTERM and SIGINT handlers
(where none was set) that only turn the signal into an SDL quit event: a program
that never polls SDL's events (a headless renderer, the demo between PNGs, the hub
screen collecting retained messages) then ignores ``timeout``, a closed terminal
and systemd. Every long-running entry point therefore calls
:func:`keep_signals_from_sdl` before pygame initialises and handles both signals in
Python with :func:`stop_on_signals`.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType

SDL_NO_SIGNALS = "SDL_NO_SIGNAL_HANDLERS"
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


def keep_signals_from_sdl() -> None:
    """Tell SDL (read when pygame initialises) to leave SIGTERM and SIGINT alone."""
    os.environ[SDL_NO_SIGNALS] = "1"


@contextmanager
def stop_on_signals(stop: Callable[[int], None]) -> Iterator[None]:
    """Within the block, SIGTERM and SIGINT call ``stop(signum)`` (on the main thread,
    between two Python instructions: ``stop`` should only set a flag or enqueue);
    the previous handlers come back after it. Off the main thread (a test calling an
    entry point) signals cannot be handled here and the block runs unchanged."""
    keep_signals_from_sdl()
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: FrameType | None) -> None:
        stop(signum)

    previous = {sig: signal.signal(sig, handler) for sig in STOP_SIGNALS}
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)
