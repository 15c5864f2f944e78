"""Who is signed in to the web console, and who may try: server-side sessions and the
login's rate limit (pure but for reading the accounts file; the clock is injected).

A session is a random token the browser keeps in a cookie (HttpOnly, SameSite=Strict,
Secure over HTTPS: :mod:`hub.web.auth`); the console keeps only the token's SHA-256 with
the user, the session's CSRF token and its times. A session ends after ``idle`` seconds
without a page, after ``longest`` seconds in all, or at logout, and an ended session's
cookie is refused. Sessions live in the console's memory: a restart of ``rummikub-web``
signs everyone out.

The login's rate limit counts failed logins per client address and per account name:
after :data:`ADDRESS_FAILURES` failures from one address, or :data:`NAME_FAILURES` for
one name from anywhere, the next try waits :data:`FIRST_WAIT` seconds, doubling with
every further failure up to :data:`LONGEST_WAIT`. An address that has signed in as a name
before is not held back by that name's failures from elsewhere, so someone guessing a
judge's password does not lock the judge out of their own tablet.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from hub.web.accounts import (
    WebAccount,
    WebAccountsError,
    WebRole,
    WebUser,
    dummy_hash,
    read_accounts,
    verify_password,
)
from tablekit.core.words import N_

SESSION_COOKIE: Final = "rummikub_session"
"""The cookie holding a session's token."""
IDLE: Final = 2 * 3600.0
"""Seconds a session lasts without a page opened (``[web] session_idle_minutes``)."""
LONGEST: Final = 16 * 3600.0
"""Seconds a session lasts in all (``[web] session_hours``): a tournament day."""
TOKEN_BYTES: Final = 32
FORM_TOKEN_BYTES: Final = 16
FORMS: Final = 500
"""One-time form tokens a session keeps (the pages it opened most recently)."""
MAX_SESSIONS: Final = 1000
"""Sessions kept at once; the oldest goes first (a venue has a few organizers and judges)."""
ADDRESS_FAILURES: Final = 5
NAME_FAILURES: Final = 10
FIRST_WAIT: Final = 30.0
LONGEST_WAIT: Final = 900.0
FORGET: Final = 3600.0
"""Failures older than this (seconds, counted from the last one) are forgotten."""
MAX_TRACKED: Final = 10_000
"""Addresses and names whose failures are kept at once (the oldest go first)."""


@dataclass
class Session:
    user: WebUser
    csrf: str
    """The token every form of this session carries (:func:`hub.web.auth.posted_form`)."""
    started: float
    seen: float
    hash: str = ""
    """The account's password hash at sign-in: a new password (a bundle made with
    ``--rotate``) or a removed account ends the session."""
    _forms: OrderedDict[str, None] = field(default_factory=OrderedDict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def form_token(self) -> str:
        """A new one-time token for one form of a page (the latest :data:`FORMS` kept)."""
        token = secrets.token_urlsafe(FORM_TOKEN_BYTES)
        with self._lock:
            self._forms[token] = None
            while len(self._forms) > FORMS:
                self._forms.popitem(last=False)
        return token

    def spend_form(self, token: str) -> bool:
        """Whether ``token`` is a form's one-time token not spent yet (it is spent now):
        a form sent twice, or from a page too old, is False."""
        with self._lock:
            return self._forms.pop(token, False) is None


def _key(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Sessions:
    """The open sessions, by their token's hash."""

    def __init__(
        self, idle: float = IDLE, longest: float = LONGEST, clock: Callable[[], float] = time.time
    ) -> None:
        self.idle, self.longest, self.clock = idle, longest, clock
        self._open: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()

    def open(self, user: WebUser, hashed: str = "") -> tuple[str, Session]:
        """A new session for ``user`` (whose password hash is ``hashed``): its token (for
        the cookie) and the session."""
        token = secrets.token_urlsafe(TOKEN_BYTES)
        now = self.clock()
        session = Session(user, secrets.token_urlsafe(TOKEN_BYTES), now, now, hashed)
        with self._lock:
            self._open[_key(token)] = session
            while len(self._open) > MAX_SESSIONS:
                self._open.popitem(last=False)
        return token, session

    def find(self, token: str | None) -> Session | None:
        """The live session of ``token`` (its idle time starts again); None when there is
        none, or it ended (it is then forgotten)."""
        if not token:
            return None
        key = _key(token)
        now = self.clock()
        with self._lock:
            session = self._open.get(key)
            if session is None:
                return None
            if now - session.seen > self.idle or now - session.started > self.longest:
                del self._open[key]
                return None
            session.seen = now
            return session

    def close(self, token: str | None) -> None:
        """End the session of ``token`` (logout): its cookie is refused from now on."""
        if token:
            with self._lock:
                self._open.pop(_key(token), None)

    def __len__(self) -> int:
        return len(self._open)


@dataclass
class _Failures:
    count: int
    last: float


class LoginLimiter:
    """Failed logins per address and per name, and how long the next try waits."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self._failures: OrderedDict[tuple[str, str], _Failures] = OrderedDict()
        self._trusted: OrderedDict[tuple[str, str], float] = OrderedDict()
        self._lock = threading.Lock()

    def wait(self, address: str, name: str) -> float:
        """Seconds before ``address`` may try ``name`` (0: now)."""
        with self._lock:
            now = self.clock()
            waits = [self._wait(("address", address), ADDRESS_FAILURES, now)]
            if (address, name) not in self._trusted:
                waits.append(self._wait(("name", name), NAME_FAILURES, now))
            return max(waits)

    def failed(self, address: str, name: str) -> None:
        with self._lock:
            now = self.clock()
            for key in (("address", address), ("name", name)):
                seen = self._current(key, now)
                self._failures[key] = _Failures(1 if seen is None else seen.count + 1, now)
                self._failures.move_to_end(key)
            _trim(self._failures)

    def succeeded(self, address: str, name: str) -> None:
        """A right password: the address's failures are forgotten, and the address may
        sign in as ``name`` whatever others try against it."""
        with self._lock:
            self._failures.pop(("address", address), None)
            self._trusted[(address, name)] = self.clock()
            self._trusted.move_to_end((address, name))
            _trim(self._trusted)

    def _current(self, key: tuple[str, str], now: float) -> _Failures | None:
        seen = self._failures.get(key)
        if seen is not None and now - seen.last > FORGET:
            del self._failures[key]
            return None
        return seen

    def _wait(self, key: tuple[str, str], allowed: int, now: float) -> float:
        seen = self._current(key, now)
        if seen is None or seen.count < allowed:
            return 0.0
        wait = min(FIRST_WAIT * 2.0 ** (seen.count - allowed), LONGEST_WAIT)
        return max(0.0, seen.last + wait - now)


def _trim(
    table: OrderedDict[tuple[str, str], _Failures] | OrderedDict[tuple[str, str], float],
) -> None:
    while len(table) > MAX_TRACKED:
        table.popitem(last=False)


@dataclass(frozen=True)
class Refused:
    """A login refused: ``wait`` seconds to wait (the rate limit), else a wrong name or
    password (never which), or ``problem``: the accounts file cannot be read."""

    wait: float = 0.0
    problem: WebAccountsError | None = None


class Gate:
    """The console's accounts (the file, read at every login: a new bundle needs no
    restart), its sessions and its login's rate limit. A session lasts while its account
    does: when the file changes (a bundle made anew), a session whose account is gone, or
    has another password or role, ends at its next page."""

    def __init__(
        self,
        accounts: Path | None = None,
        *,
        idle: float = IDLE,
        longest: float = LONGEST,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.accounts = accounts
        self.sessions = Sessions(idle, longest, clock)
        self.limiter = LoginLimiter(clock)
        self._seen: tuple[Path, int, int] | None = None
        """The accounts file as last read (path, modification time, size)."""
        self._known: dict[str, WebAccount] = {}
        self._lock = threading.Lock()

    def session(self, token: str | None) -> Session | None:
        """The live session of ``token`` whose account is still as it was at sign-in."""
        session = self.sessions.find(token)
        if session is None:
            return None
        account = self._current().get(session.user.name)
        if account is None or account.hash != session.hash or account.role != session.user.role:
            self.sessions.close(token)
            return None
        return session

    def has_organizer(self) -> bool:
        """Whether the accounts file (as last read) has an organizer's account."""
        return any(a.role is WebRole.ORGANIZER for a in self._current().values())

    def _current(self) -> dict[str, WebAccount]:
        """The accounts file now, read again only when it changed (a missing file: no
        accounts; one that cannot be read or parsed keeps what was read before)."""
        path = self.accounts
        if path is None:
            return {}
        try:
            stat = path.stat()
        except FileNotFoundError:
            return {}
        except OSError:
            return self._known
        seen = (path, stat.st_mtime_ns, stat.st_size)
        with self._lock:
            if seen != self._seen:
                try:
                    self._known = read_accounts(path)
                except WebAccountsError:
                    return self._known
                self._seen = seen
            return self._known

    def _accounts(self) -> dict[str, WebAccount]:
        if self.accounts is None:
            raise WebAccountsError(
                N_("the console has no web accounts: [web] accounts in hub.toml names "
                   "none (docs/deployment.md)")
            )
        return read_accounts(self.accounts)

    def login(self, address: str, name: str, password: str) -> tuple[str, Session] | Refused:
        """A new session when ``password`` is ``name``'s, else why not."""
        name = name.strip().lower()
        wait = self.limiter.wait(address, name)
        if wait > 0:
            return Refused(wait=wait)
        try:
            accounts = self._accounts()
        except WebAccountsError as err:
            return Refused(problem=err)
        account = accounts.get(name)
        right = verify_password(password, account.hash if account else dummy_hash())
        if account is None or not right:
            self.limiter.failed(address, name)
            return Refused()
        self.limiter.succeeded(address, name)
        user = WebUser(account.name, account.role, account.venue, account.person)
        return self.sessions.open(user, account.hash)
