"""Private MQTT brokers for tests, benchmarks and the demo.

* :class:`MosquittoBroker` runs the system's ``mosquitto`` on a loopback port with
  its own config file, persistence directory and log file; it can be stopped,
  ``kill -9``-ed and restarted on the same port (MQTT 3.1.1 and 5).
* :class:`EmbeddedBroker` runs amqtt (MQTT 3.1.1 only) in a background thread, for
  machines without Mosquitto. Fine for a demo, not for a venue.
* :func:`start_broker` picks Mosquitto when it is installed, else amqtt.
"""

from __future__ import annotations

import asyncio
import getpass
import logging
import os
import random
import shutil
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from tablekit.core.errors import KitError
from tablekit.core.words import N_
from tablekit.shared.broker import BrokerSettings

log = logging.getLogger(__name__)

MQTT_V311 = 4
MQTT_V5 = 5


class BrokerError(KitError, RuntimeError):
    """A broker could not be started."""


class Broker(Protocol):
    host: str
    port: int
    mqtt_version: int
    """The newest MQTT version it speaks: 4 (3.1.1) or 5."""

    def start(self) -> None: ...

    def stop(self) -> None: ...


PORTS_FROM = 20000
"""The lowest port :func:`free_port` picks."""

_PICK = random.Random()  # its own, seeded by the system: a seeded ``random`` changes nothing


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port that nothing listens on right now, below the system's ephemeral range
    where there is room: the system numbers outgoing connections from that range, so a
    broker killed and restarted on its port never finds it taken by another program's
    connection meanwhile."""
    top = ephemeral_start()
    for _ in range(100 if top > PORTS_FROM else 0):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            try:
                s.bind((host, _PICK.randrange(PORTS_FROM, top)))
            except OSError:
                continue
            return int(s.getsockname()[1])
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def ephemeral_start() -> int:
    """The first port of the system's ephemeral range (Linux's default where unknown)."""
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def wait_for_port(host: str, port: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((host, port), timeout=0.2):
                return True
        except OSError:
            time.sleep(0.02)
    return False


def mosquitto_binary() -> str | None:
    found = shutil.which("mosquitto")
    if found:
        return found
    for candidate in ("/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto"):
        if os.access(candidate, os.X_OK):
            return candidate
    return None


class _Reachable:
    """What a client of the kit needs to reach a broker started here."""

    host: str
    port: int

    mqtt_version: int

    def client_settings(self, **fields: Any) -> BrokerSettings:
        """The kit's broker settings for this broker, in the newest MQTT version it
        speaks (``fields``: a login, TLS, …)."""
        fields.setdefault("mqtt_version", 5 if self.mqtt_version == MQTT_V5 else 3)
        return BrokerSettings(host=self.host, port=self.port, **fields)


class MosquittoBroker(_Reachable):
    """A private Mosquitto: ``listener PORT 127.0.0.1``, persistence on, log to a file."""

    mqtt_version = MQTT_V5

    def __init__(
        self,
        workdir: str | Path,
        port: int | None = None,
        *,
        host: str = "127.0.0.1",
        binary: str | None = None,
        persistence: bool = True,
        autosave_interval: int = 60,
        max_queued_messages: int = 100_000,
        max_inflight_messages: int = 100,
        extra: Sequence[str] = (),
        config: str | None = None,
        log_file: Path | None = None,
    ) -> None:
        """``config``: the whole config to run instead of one made here (a venue's,
        :func:`hub.credentials.broker_config`, listening on ``host`` and ``port``), its
        ``log_file`` named."""
        found = binary or mosquitto_binary()
        if found is None:
            raise BrokerError(N_("mosquitto is not installed (apt install mosquitto)"))
        self.binary = found
        self.workdir = Path(workdir)
        self.host = host
        self.port = port if port is not None else free_port(host)
        self.persistence = persistence
        self.autosave_interval = autosave_interval
        self.max_queued_messages = max_queued_messages
        self.max_inflight_messages = max_inflight_messages
        self.extra = list(extra)
        self.config = config
        self.conf_path = self.workdir / "mosquitto.conf"
        self.log_path = log_file or self.workdir / "mosquitto.log"
        self.data_dir = self.workdir / "data"
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def config_text(self) -> str:
        if self.config is not None:
            return self.config
        lines = [
            f"listener {self.port} {self.host}",
            "allow_anonymous true",
            f"persistence {'true' if self.persistence else 'false'}",
            f"persistence_location {self.data_dir}/",
            f"autosave_interval {self.autosave_interval}",
            f"log_dest file {self.log_path}",
            "log_type error",
            "log_type warning",
            "log_type notice",
            "log_type information",
            "connection_messages true",
            f"max_queued_messages {self.max_queued_messages}",
            f"max_inflight_messages {self.max_inflight_messages}",
            "set_tcp_nodelay true",
        ]
        if os.geteuid() == 0:
            lines.append(f"user {getpass.getuser()}")  # do not drop to user mosquitto
        return "\n".join([*lines, *self.extra, ""])

    def start(self, timeout: float = 10.0) -> None:
        if self.running:
            return
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.conf_path.write_text(self.config_text(), encoding="utf-8")
        self.process = subprocess.Popen(
            [self.binary, "-c", str(self.conf_path)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            # Its own session: a Ctrl-C at the terminal (SIGINT to the whole foreground
            # group) stops the program that started it, which stops its clients and then
            # the broker, instead of the broker dying first under live connections.
            start_new_session=True,
        )
        self.starts += 1
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                err = (
                    self.process.stderr.read().decode(errors="replace")
                    if self.process.stderr
                    else ""
                )
                raise BrokerError(
                    N_("mosquitto exited at start: {error} {log}"),
                    error=err.strip(),
                    log=self.log_tail(),
                )
            if wait_for_port(self.host, self.port, 0.1):
                return
        self.kill()
        raise BrokerError(
            N_("mosquitto did not listen on {host}:{port} in {seconds} s"),
            host=self.host,
            port=self.port,
            seconds=timeout,
        )

    def stop(self, timeout: float = 5.0) -> None:
        """SIGTERM: a clean shutdown (writes the persistence file)."""
        self._signal(signal.SIGTERM, timeout)

    def kill(self) -> None:
        """SIGKILL (kill -9): nothing is saved."""
        self._signal(signal.SIGKILL, 5.0)

    def restart(self, timeout: float = 10.0) -> None:
        """Start again on the same port (after :meth:`kill` or :meth:`stop`)."""
        if self.running:
            self.stop()
        self.start(timeout)

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    @property
    def pid(self) -> int | None:
        return None if self.process is None else self.process.pid

    def log_tail(self, lines: int = 20) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def _signal(self, sig: signal.Signals, timeout: float) -> None:
        process = self.process
        if process is None:
            return
        if process.poll() is None:
            process.send_signal(sig)
            try:
                process.wait(timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if process.stderr is not None:
            process.stderr.close()
        self.process = None


class EmbeddedBroker(_Reachable):
    """amqtt in a background thread with its own event loop (MQTT 3.1.1 only)."""

    mqtt_version = MQTT_V311

    def __init__(self, port: int | None = None, *, host: str = "127.0.0.1") -> None:
        self.host = host
        self.port = port if port is not None else free_port(host)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._broker: Any = None
        self._ready = threading.Event()
        self._error: BaseException | None = None

    def start(self, timeout: float = 10.0) -> None:
        if self._thread is not None:
            return
        self._ready.clear()
        self._thread = threading.Thread(target=self._run, name="amqtt", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout):
            raise BrokerError(N_("amqtt did not start in {seconds} s"), seconds=timeout)
        if self._error is not None:
            self._thread = None
            raise BrokerError(
                N_("amqtt failed to start: {error}"), error=str(self._error)
            ) from self._error

    def stop(self, timeout: float = 5.0) -> None:
        loop, thread = self._loop, self._thread
        if loop is None or thread is None:
            return
        fut = asyncio.run_coroutine_threadsafe(self._shutdown(), loop)
        try:
            fut.result(timeout)
        except Exception:
            log.exception("amqtt shutdown")
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout)
        self._thread = None
        self._loop = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(self._start())
        except BaseException as err:
            self._error = err
            self._ready.set()
            loop.close()
            return
        self._ready.set()
        try:
            loop.run_forever()
        finally:
            loop.close()

    async def _start(self) -> None:
        try:
            from amqtt.broker import Broker as AmqttBroker
        except ImportError as err:
            raise BrokerError(
                N_("the embedded broker is amqtt, which only the kit's demo extra installs "
                   "(pip install 'rummikub-tablekit[demo]'); or use Mosquitto")
            ) from err

        config = {
            "listeners": {"default": {"type": "tcp", "bind": f"{self.host}:{self.port}"}},
            "plugins": {
                "amqtt.plugins.authentication.AnonymousAuthPlugin": {"allow_anonymous": True},
            },
        }
        for noisy in ("amqtt", "transitions"):
            logging.getLogger(noisy).setLevel(logging.WARNING)
        self._broker = AmqttBroker(config)
        await self._broker.start()

    async def _shutdown(self) -> None:
        if self._broker is not None:
            await self._broker.shutdown()


def start_broker(
    workdir: str | Path, port: int | None = None, *, prefer: str = "auto"
) -> MosquittoBroker | EmbeddedBroker:
    """Start Mosquitto if it is installed (or ``prefer="mosquitto"``), else amqtt."""
    if prefer not in ("auto", "mosquitto", "amqtt"):
        raise ValueError(f"prefer: auto, mosquitto or amqtt, got {prefer!r}")
    broker: MosquittoBroker | EmbeddedBroker
    if prefer == "mosquitto" or (prefer == "auto" and mosquitto_binary() is not None):
        broker = MosquittoBroker(workdir, port)
    else:
        broker = EmbeddedBroker(port)
    broker.start()
    return broker
