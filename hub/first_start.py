"""The web console's first start's code, in a file beside its accounts file while it has
no organizer's account (:mod:`hub.web.first_start` makes it; the hub screen shows it):
what both ends agree on, and the screen's reading of it."""

from __future__ import annotations

from pathlib import Path
from typing import Final

CODE_FILE: Final = "first-start-code"
"""The code's file, beside the accounts file; gone once the accounts are made."""
CODE_LOOKS: Final = 2.0
"""Seconds between the hub screen's looks at the code."""


class FirstStartCode:
    """The first start's code beside an accounts file, as the hub screen shows it: read
    again every :data:`CODE_LOOKS` seconds ("": none, the accounts are made or the
    console has not started)."""

    def __init__(self, accounts: Path) -> None:
        self.path = accounts.with_name(CODE_FILE)
        self._code = ""
        self._read_at: float | None = None

    def at(self, now: float) -> str:
        if self._read_at is None or not 0 <= now - self._read_at < CODE_LOOKS:
            self._read_at = now
            try:
                self._code = self.path.read_text(encoding="ascii").strip()[:20]
            except (OSError, UnicodeDecodeError):
                self._code = ""
        return self._code
