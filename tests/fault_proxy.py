"""A fault-injecting TCP proxy on loopback, for the flaky Wi-Fi test and the chaos soak.

``FaultProxy(upstream_port)`` listens on a free 127.0.0.1 port and pipes every
connection to ``127.0.0.1:upstream_port`` (the broker the test started). Units
connect to ``proxy.port`` instead of the broker's. What a hall's Wi-Fi does to TCP:

- ``latency``/``jitter``: each chunk of bytes waits that long (both directions);
- ``stall(seconds)``: bytes stop flowing without the connection closing (a lossy
  stretch: TCP retransmits lost packets, so to MQTT loss looks like a stall);
- ``cut()``: every open connection is reset (an access point dropping its clients);
- ``refuse(seconds)``: new connections are reset as soon as they are accepted, so
  clients fail to reconnect again and again (a reconnect storm);
- ``chaos(seed, …)``: a seeded random schedule of the above in a background thread,
  every fault recorded in ``faults`` with its start time.

Only loopback: it never listens or connects elsewhere. Threads, two per connection.
"""

from __future__ import annotations

import contextlib
import random
import socket
import struct
import threading
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Fault:
    at: float
    """time.monotonic() when the fault began."""
    kind: str
    """'cut', 'refuse', 'stall' or 'latency'."""
    seconds: float
    """How long it lasted (0 for a cut)."""


def _reset(sock: socket.socket) -> None:
    """Close with RST (SO_LINGER 0), as a dropped link looks to the peer."""
    with contextlib.suppress(OSError):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    with contextlib.suppress(OSError):
        sock.close()


class FaultProxy:
    def __init__(self, upstream_port: int, upstream_host: str = "127.0.0.1") -> None:
        if upstream_host not in ("127.0.0.1", "localhost", "::1"):
            raise ValueError(f"the fault proxy only forwards to loopback, not {upstream_host}")
        self.upstream = (upstream_host, upstream_port)
        self.host = "127.0.0.1"
        self.latency = 0.0
        self.jitter = 0.0
        self.faults: list[Fault] = []
        self.accepted = 0
        self.refused = 0
        self._lock = threading.Lock()
        self._flowing = threading.Event()
        self._flowing.set()
        self._refuse_until = 0.0
        self._conns: set[socket.socket] = set()
        self._stop = threading.Event()
        self._rng = random.Random(0)
        self._listener = socket.create_server((self.host, 0))
        self.port: int = self._listener.getsockname()[1]
        self._threads: list[threading.Thread] = []

    def start(self) -> FaultProxy:
        self._spawn(self._accept_loop)
        return self

    def stop(self) -> None:
        self._stop.set()
        self._flowing.set()
        with contextlib.suppress(OSError):
            self._listener.close()
        self.cut(record=False)

    # -- faults ------------------------------------------------------------------------------

    def cut(self, *, record: bool = True) -> int:
        """Reset every open connection; returns how many."""
        with self._lock:
            conns = list(self._conns)
            self._conns.clear()
        for conn in conns:
            _reset(conn)
        if record:
            self._record("cut", 0.0)
        return len(conns) // 2

    def refuse(self, seconds: float) -> None:
        """Reset new connections for ``seconds`` (open ones are not touched)."""
        self._refuse_until = time.monotonic() + seconds
        self._record("refuse", seconds)

    def admit(self) -> None:
        """End a :meth:`refuse` before its time: new connections go through again."""
        self._refuse_until = 0.0

    def stall(self, seconds: float) -> None:
        """Hold every byte for ``seconds`` (blocks the caller that long)."""
        self._record("stall", seconds)
        self._flowing.clear()
        try:
            self._stop.wait(seconds)
        finally:
            self._flowing.set()

    def slow(self, latency: float, jitter: float, seconds: float) -> None:
        """Delay every chunk by ``latency`` ± ``jitter`` for ``seconds`` (blocks)."""
        self._record("latency", seconds)
        self.latency, self.jitter = latency, jitter
        try:
            self._stop.wait(seconds)
        finally:
            self.latency = self.jitter = 0.0

    def chaos(
        self,
        seed: int,
        *,
        every: tuple[float, float] = (1.0, 3.0),
        longest: float = 3.0,
        kinds: tuple[str, ...] = ("cut", "refuse", "stall", "latency"),
    ) -> threading.Thread:
        """Start a seeded random schedule of faults until :meth:`stop` or :meth:`calm`:
        a quiet gap drawn from ``every``, then one fault of up to ``longest`` seconds."""
        rng = random.Random(seed)
        self._calm = threading.Event()

        def run() -> None:
            while not (self._stop.is_set() or self._calm.is_set()):
                if self._stop.wait(rng.uniform(*every)) or self._calm.is_set():
                    return
                kind = rng.choice(kinds)
                seconds = rng.uniform(0.2, longest)
                if kind == "cut":
                    self.cut()
                elif kind == "refuse":
                    self.cut()
                    self.refuse(seconds)
                    self._stop.wait(seconds)
                elif kind == "stall":
                    self.stall(seconds)
                else:
                    self.slow(rng.uniform(0.02, 0.3), rng.uniform(0.0, 0.1), seconds)

        return self._spawn(run)

    def calm(self) -> None:
        """End the :meth:`chaos` schedule (the fault under way runs to its end)."""
        calm = getattr(self, "_calm", None)
        if calm is not None:
            calm.set()

    # -- plumbing ----------------------------------------------------------------------------

    def _record(self, kind: str, seconds: float) -> None:
        with self._lock:
            self.faults.append(Fault(time.monotonic(), kind, seconds))

    def _spawn(self, target: object, *args: object) -> threading.Thread:
        thread = threading.Thread(target=target, args=args, daemon=True)  # type: ignore[arg-type]
        thread.start()
        self._threads.append(thread)
        return thread

    def _accept_loop(self) -> None:
        while not self._stop.is_set():
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            if time.monotonic() < self._refuse_until:
                self.refused += 1
                _reset(client)
                continue
            try:
                server = socket.create_connection(self.upstream, timeout=5)
                server.settimeout(None)
            except OSError:
                _reset(client)
                continue
            for sock in (client, server):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            with self._lock:
                self._conns.update((client, server))
                self.accepted += 1
            threading.Thread(target=self._pump, args=(client, server), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, client), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                delay = self.latency + self.jitter * self._rng.random()
                if delay > 0:
                    time.sleep(delay)
                self._flowing.wait()
                dst.sendall(data)
        except OSError:
            pass
        finally:
            with self._lock:
                self._conns.discard(src)
                self._conns.discard(dst)
            _reset(src)
            _reset(dst)
