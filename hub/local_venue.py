"""A venue on one computer: the venue's credentials bundle (:mod:`hub.credentials`) made in
a folder, every path its config files name inside that folder, and its Mosquitto run from
the bundle's own config by whoever runs it (no root, nothing under ``/etc``).

A rehearsal (``rummikub-rehearsal``, :mod:`hub.demo.rehearsal`) runs its hall so, and the
tests run the deploy bundle so: the same accounts, access list and config files as a hub
Pi's, only their paths are the folder's (:meth:`hub.credentials.Installed.in_place`).
Made again in the same folder it keeps every secret (as ``python -m hub.credentials``
run again with the same ``--out``), so the tables' journals and the event stay valid.
"""

from __future__ import annotations

import getpass
import os
from dataclasses import dataclass
from pathlib import Path

from hub.broker import MosquittoBroker, free_port
from hub.credentials import (
    Account,
    Installed,
    MosquittoSettings,
    earlier_web_hashes,
    make_accounts,
    make_bundle,
    make_web_accounts,
    read_known,
    table_username,
    write_bundle,
)
from tablekit.core.topics import Topics


@dataclass(frozen=True)
class LocalVenue:
    """A venue's bundle made in :attr:`folder`, ready to run."""

    folder: Path
    topics: Topics
    broker: MosquittoSettings
    accounts: tuple[Account, ...]

    @property
    def bundle(self) -> Path:
        return self.folder / "bundle"

    @property
    def config(self) -> Path:
        """The hub's config file (on a hub Pi ``/etc/rummikub/hub.toml``)."""
        return self.bundle / "hub" / "hub.toml"

    @property
    def db(self) -> Path:
        """The event store the hub's config file names."""
        return self.folder / "hub.sqlite3"

    def unit_config(self, table: int) -> Path:
        """Table ``table``'s config file (on its Pi ``/etc/tablekit/unit.toml``)."""
        return self.bundle / "units" / table_username(table) / "unit.toml"

    def secret(self, username: str) -> str:
        (found,) = (a.secret for a in self.accounts if a.username == username)
        return found

    def mosquitto(self) -> MosquittoBroker:
        """The venue's Mosquitto (not started): the bundle's config, its files here."""
        s = self.broker
        return MosquittoBroker(
            self.folder / "broker", s.port, host="127.0.0.1",
            config=self.bundle.joinpath("mosquitto", "rummikub.conf").read_text(),
            log_file=Path(s.log_file),
        )  # fmt: skip


def make_local_venue(
    folder: Path,
    topics: Topics,
    tables: int,
    *,
    judges: int = 1,
    port: int | None = None,
    local_port: int = 0,
    websockets_port: int = 0,
    dashboards: int = 1,
    web_port: int = 8080,
    public_url: str = "",
    autosave_interval: int = 120,
) -> LocalVenue:
    """The bundle of a venue of ``tables`` tables for ``topics`` (its venue, and the event
    its hub serves first) written in ``folder/bundle``, its broker listening on
    127.0.0.1:``port`` (default: a free port) and keeping its files in ``folder``; the
    secrets of a bundle made there before are kept."""
    folder = folder.absolute()
    bundle = folder / "bundle"
    known = read_known(bundle / "accounts.tsv")
    accounts = make_accounts(tables, screens=1, dashboards=dashboards, known=known)
    accounts += make_web_accounts(judges, known=known)
    broker_files = folder / "broker"
    broker_files.mkdir(parents=True, exist_ok=True)
    settings = MosquittoSettings(
        port=free_port() if port is None else port,
        bind="127.0.0.1",
        local_port=local_port,
        websockets_port=websockets_port,
        password_file=str(bundle / "mosquitto" / "rummikub.passwd"),
        acl_file=str(bundle / "mosquitto" / "rummikub.acl"),
        persistence_location=f"{broker_files}/",
        log_file=str(broker_files / "mosquitto.log"),
        autosave_interval=autosave_interval,
        # started as root Mosquitto would drop to its own user, who cannot read the folder
        run_as=getpass.getuser() if os.geteuid() == 0 else "",
    )
    made = make_bundle(
        topics, accounts, host="127.0.0.1", broker=settings,
        web_hashes=earlier_web_hashes(bundle / "hub" / "web-accounts.toml"),
        installed=Installed.in_place(bundle, folder / "hub.sqlite3"),
        web_port=web_port, public_url=public_url,
    )  # fmt: skip
    write_bundle(made, bundle)
    return LocalVenue(folder, topics, settings, tuple(accounts))
