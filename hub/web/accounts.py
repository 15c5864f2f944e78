"""The web console's accounts: the organizer, the head judge and the judges, each a name,
a role, a password hash and the person's name, in a file the credentials bundle writes
(``python -m hub.credentials``, ``hub/web-accounts.toml``; installed in the hub's state
folder as ``/var/lib/rummikub-hub/web-accounts.toml``, readable by the service user
alone) or the console's first start page (:mod:`hub.web.first_start`) writes there, and
``[web] accounts`` in ``hub.toml`` names::

    [[account]]
    name = "organizer"
    role = "organizer"
    hash = "scrypt$16384$8$1$<salt>$<key>"

The hash is scrypt (Python's own ``hashlib.scrypt``: memory-hard, nothing to compile on
a Pi), its cost and salt written beside the key so a later cost still reads old hashes.
No Starlette here: the credentials bundle imports it without the web console's libraries.
"""

from __future__ import annotations

import base64
import enum
import hashlib
import json
import os
import re
import secrets
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final

import msgspec

from hub.first_start import CODE_FILE
from tablekit.core.errors import KitError
from tablekit.core.words import N_
from tablekit.shared.tomlfile import SettingsFileError, decode_toml

SCRYPT_N: Final = 2**14
"""scrypt's cost: 16 MiB and some 50 ms a password on a laptop, about ten times that
on a Pi Zero 2 W; a login is rare, and the login's rate limit bounds the guessing."""
SCRYPT_R: Final = 8
SCRYPT_P: Final = 1
KEY_BYTES: Final = 32
SALT_BYTES: Final = 16
MAX_MEMORY: Final = 64 * 1024 * 1024
NAME: Final = re.compile(r"[a-z0-9][a-z0-9._-]{0,31}")
"""An account's name: what a judge types on a tablet (lower case, no spaces)."""
PASSWORD_ALPHABET: Final = "abcdefghjkmnpqrstuvwxyz23456789"
"""A web password is typed on a phone: lower case and digits, none that look alike
(no i, l, o, 0, 1)."""
PASSWORD_GROUPS: Final = 4
PASSWORD_GROUP: Final = 4
"""Four groups of four (``k7mq-x3pd-9vtr-w2hn``): about 79 bits."""


class WebRole(enum.StrEnum):
    """Who an account is: at the event, an organizer may do everything a judge may; at
    the central league service (``rummikub-league``), the league organizer everything a
    local partner may, for every venue."""

    ORGANIZER = "organizer"
    HEAD_JUDGE = "head-judge"
    """A judge who also records the head judge's decisions (ties at a cut)."""
    JUDGE = "judge"
    LEAGUE = "league"
    PARTNER = "partner"

    def may(self, needed: WebRole) -> bool:
        """Whether this role may do what ``needed`` may."""
        return self is needed or (needed, self) in _ABOVE


_ABOVE: Final = {
    (WebRole.JUDGE, WebRole.ORGANIZER), (WebRole.JUDGE, WebRole.HEAD_JUDGE),
    (WebRole.PARTNER, WebRole.LEAGUE),
}


@dataclass(frozen=True)
class WebUser:
    """A signed-in person: the account's name and role (a local partner's: their
    venue)."""

    name: str
    role: WebRole
    venue: str = ""
    person: str = ""
    """The name of the person the account is for ("": not known)."""

    @property
    def signature(self) -> str:
        """Who did it, as the records keep it: the person's name, else the account's."""
        return self.person or self.name


class WebAccountsError(KitError, ValueError):
    """The accounts file cannot be used (missing, unreadable, a bad entry)."""


class WebAccount(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    role: WebRole
    hash: str
    venue: str = ""
    """A local partner's venue at the central league service (they read its data only)."""
    person: str = ""
    """The name of the person the account is for, as records name them."""

    def __post_init__(self) -> None:
        if NAME.fullmatch(self.name) is None:
            raise WebAccountsError(
                N_("name: {name!r} is not an account name (a-z, 0-9, . _ -; at most 32)"),
                name=self.name,
            )
        if not _parts(self.hash):
            raise WebAccountsError(N_("hash of {name}: not a scrypt hash"), name=self.name)


class WebAccountsFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    account: list[WebAccount] = []


def new_password(choice: Callable[[str], str] = secrets.choice) -> str:
    """A random password to type on a phone (:data:`PASSWORD_ALPHABET`)."""
    groups = (
        "".join(choice(PASSWORD_ALPHABET) for _ in range(PASSWORD_GROUP))
        for _ in range(PASSWORD_GROUPS)
    )
    return "-".join(groups)


def hash_password(password: str, salt: bytes | None = None) -> str:
    """``scrypt$N$r$p$salt$key`` (base64) for ``password``."""
    salt = os.urandom(SALT_BYTES) if salt is None else salt
    key = _scrypt(password, salt, (SCRYPT_N, SCRYPT_R, SCRYPT_P))
    b64 = base64.b64encode
    return f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${b64(salt).decode()}${b64(key).decode()}"


def verify_password(password: str, hashed: str) -> bool:
    """Whether ``password`` is the one ``hashed`` was made from."""
    parts = _parts(hashed)
    if not parts:
        return False
    n, r, p, salt, key = parts
    return secrets.compare_digest(_scrypt(password, salt, (n, r, p), len(key)), key)


@cache
def dummy_hash() -> str:
    """Checked against when the name is unknown, so an unknown name takes as long to
    refuse as a wrong password."""
    return hash_password("", b"\0" * SALT_BYTES)


def _scrypt(password: str, salt: bytes, cost: tuple[int, int, int], size: int = KEY_BYTES) -> bytes:
    n, r, p = cost
    return hashlib.scrypt(
        password.encode(), salt=salt, n=n, r=r, p=p, maxmem=MAX_MEMORY, dklen=size
    )


def _parts(hashed: str) -> tuple[int, int, int, bytes, bytes] | None:
    fields = hashed.split("$")
    if len(fields) != 6 or fields[0] != "scrypt" or not all(f.isdigit() for f in fields[1:4]):
        return None
    n, r, p = (int(f) for f in fields[1:4])
    if n < 2 or n & (n - 1) or not 1 <= r <= 64 or not 1 <= p <= 16 or n * r * 128 > MAX_MEMORY:
        return None
    try:
        salt, key = (
            base64.b64decode(fields[4], validate=True),
            base64.b64decode(fields[5], validate=True),
        )
    except ValueError:
        return None
    if len(salt) < 8 or len(key) < 16:
        return None
    return n, r, p, salt, key


def accounts_text(
    accounts: Iterable[tuple[str, WebRole, str]],
    earlier: Mapping[str, str] | None = None,
    venues: Mapping[str, str] | None = None,
    people: Mapping[str, str] | None = None,
) -> str:
    """The accounts file for ``(name, role, password)``: each password hashed, or its
    hash in ``earlier`` (name → hash, the file made before) kept when it is that
    password's, so the signed-in stay signed in when the file is made anew; ``venues``
    names a local partner's venue (name → venue); ``people`` the person an account is for
    (name → their name)."""
    earlier = earlier or {}
    venues = venues or {}
    people = people or {}
    lines = [
        "# The web console's accounts (rummikub-web). Made by python -m hub.credentials or",
        "# the console's first start page; installed as /var/lib/rummikub-hub/web-accounts.toml,",
        "# readable by the service user alone. Here only the passwords' scrypt hashes.",
    ]
    for name, role, password in accounts:
        if NAME.fullmatch(name) is None:
            raise WebAccountsError(N_("{name!r} is not an account name"), name=name)
        hashed = _kept(password, earlier.get(name)) or hash_password(password)
        lines += ["", "[[account]]", f'name = "{name}"', f'role = "{role.value}"',
                  f'hash = "{hashed}"']
        if name in venues:
            lines.append(f'venue = "{venues[name]}"')
        if name in people:
            lines.append(f"person = {json.dumps(people[name], ensure_ascii=False)}")
    return "\n".join(lines) + "\n"


def _kept(password: str, hashed: str | None) -> str:
    return hashed if hashed is not None and verify_password(password, hashed) else ""


def parse_accounts(text: str, source: str) -> dict[str, WebAccount]:
    """name → account; :class:`WebAccountsError` naming ``source`` and what is wrong."""
    try:
        parsed = decode_toml(text, WebAccountsFile, source)
    except SettingsFileError as err:
        raise WebAccountsError(err.template, **err.values) from None
    accounts: dict[str, WebAccount] = {}
    for account in parsed.account:
        if account.name in accounts:
            raise WebAccountsError(
                N_("{source}: the account {name} is there twice"), source=source,
                name=account.name,
            )
        accounts[account.name] = account
    return accounts


def read_accounts(path: Path) -> dict[str, WebAccount]:
    """The accounts of the file at ``path``."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise WebAccountsError(N_("{file}: no such file"), file=str(path)) from None
    except OSError as err:
        raise WebAccountsError(
            N_("{file}: cannot read: {reason}"), file=str(path), reason=err.strerror or ""
        ) from None
    return parse_accounts(text, str(path))


def has_organizer(path: Path) -> bool:
    """Whether the accounts file at ``path`` has an organizer's account (a file that
    cannot be read counts as having one: its accounts are not written over)."""
    try:
        accounts = read_accounts(path)
    except WebAccountsError:
        return path.exists()
    return any(a.role is WebRole.ORGANIZER for a in accounts.values())


def first_start_code(path: Path) -> str | None:
    """The first start's code for the accounts file at ``path``, made and written beside
    it when there is none yet; None once the organizer's account exists."""
    if has_organizer(path):
        return None
    code_path = path.with_name(CODE_FILE)
    try:
        return code_path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        pass
    code = f"{secrets.randbelow(10**4):04d}-{secrets.randbelow(10**4):04d}"
    descriptor = os.open(code_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w", encoding="ascii") as out:
        out.write(code + "\n")
    return code
