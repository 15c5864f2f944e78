"""A tiny sd_notify(3) client: tell systemd the service is ready and alive.

Without ``NOTIFY_SOCKET`` (not started by systemd: a desktop, a test) every call
does nothing, so the same program runs everywhere.
"""

from __future__ import annotations

import os
import socket
import time


class Notifier:
    def __init__(self, environ: dict[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        address = env.get("NOTIFY_SOCKET", "")
        if address.startswith("@"):
            address = "\0" + address[1:]  # abstract namespace
        self.address = address
        usec = env.get("WATCHDOG_USEC", "")
        self.watchdog = int(usec) / 1e6 if usec.isdigit() else None
        """Seconds within which systemd wants to hear from us, or None."""
        self._last = 0.0

    def notify(self, *lines: str) -> bool:
        if not self.address:
            return False
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            try:
                sock.sendto("\n".join(lines).encode(), self.address)
            except OSError:
                return False
        return True

    def ready(self, status: str = "") -> bool:
        return self.notify("READY=1", *([f"STATUS={status}"] if status else []))

    def stopping(self) -> bool:
        return self.notify("STOPPING=1")

    def alive(self, now: float | None = None) -> bool:
        """Ping the watchdog, at most twice per watchdog period."""
        if self.watchdog is None:
            return False
        now = time.monotonic() if now is None else now
        if now - self._last < self.watchdog / 2:
            return False
        self._last = now
        return self.notify("WATCHDOG=1")
