"""Shared fixtures: private Mosquitto brokers on free loopback ports, polling helpers."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from hub.broker import MosquittoBroker


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
    """``wait_until(predicate, timeout=10, what="…")``: poll until truthy, else fail."""

    def wait(predicate: Callable[[], Any], timeout: float = 10.0, what: str = "") -> Any:
        deadline = time.monotonic() + timeout
        while True:
            value = predicate()
            if value:
                return value
            if time.monotonic() > deadline:
                pytest.fail(f"timed out after {timeout} s waiting for {what or predicate}")
            time.sleep(0.02)

    return wait
