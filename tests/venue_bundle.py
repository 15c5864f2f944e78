"""A venue as ``hub.credentials`` makes it, run for real (:mod:`hub.local_venue`):
Mosquitto started from the generated config (the same generator as
``deploy/mosquitto/rummikub.conf``, pointed at free loopback ports and a tmp directory,
with the opt-in anonymous loopback listener and the websockets listener switched on), its
password file and ACL; and the hub's and the units' config files as provisioned, their
files named where the bundle has them."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from hub.broker import BrokerError, free_port, wait_for_port
from hub.config import HubSettings, Program, add_config_options, resolve
from hub.local_venue import make_local_venue
from hub.service import HubService
from tablekit.config import UnitConfig, parse_config
from tablekit.core.topics import Topics


@dataclass
class Venue:
    port: int
    local_port: int
    ws_port: int
    secrets: dict[str, str]
    bundle: Path
    log: Path


@contextmanager
def venue_broker(tmp: Path, topics: Topics, tables: int) -> Iterator[Venue]:
    """The bundle of ``tables`` tables for ``topics`` (its venue, and the event its hub
    serves first) in ``tmp``, and its Mosquitto running."""
    ports = [free_port() for _ in range(3)]
    while len(set(ports)) < 3:
        ports = [free_port() for _ in range(3)]
    venue = make_local_venue(tmp, topics, tables, judges=2, port=ports[0], local_port=ports[1],
                             websockets_port=ports[2], autosave_interval=5)  # fmt: skip
    broker = venue.mosquitto()
    try:
        broker.start()
    except BrokerError as err:
        pytest.fail(f"mosquitto did not start with the generated config: {err}")
    try:
        ok = all(wait_for_port("127.0.0.1", p, 10) for p in ports)
        assert ok, f"mosquitto does not listen on {ports}: {broker.log_tail()}"
        yield Venue(
            ports[0], ports[1], ports[2], {a.username: a.secret for a in venue.accounts},
            venue.bundle, broker.log_path,
        )  # fmt: skip
    finally:
        broker.kill()


def bundle_config(venue: Venue, **changed: str) -> Path:
    """The bundle's hub.toml as provisioned to /etc/rummikub/hub.toml (its files named
    where the bundle has them); ``changed`` top-level keys edited as an organizer would
    (``event``, ``db``: a new event)."""
    lines = (venue.bundle / "hub" / "hub.toml").read_text().splitlines()
    for key, value in changed.items():
        [at] = [i for i, line in enumerate(lines) if line.startswith(f"{key} = ")]
        lines[at] = f'{key} = "{value}"'
    path = venue.bundle / "hub" / f"hub-test-{len(list(venue.bundle.glob('hub/hub-test*')))}.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def bundle_settings(venue: Venue, program: Program, **changed: str) -> HubSettings:
    """A hub program's settings as provisioned, read the way the program reads them."""
    parser = argparse.ArgumentParser()
    add_config_options(parser, account="")
    config = bundle_config(venue, **changed)
    return resolve(program, parser.parse_args(["--config", str(config)]), {})


def bundle_hub(venue: Venue, db: Path, **changed: str) -> HubService:
    """The hub service as ``rummikub-hub serve --config /etc/rummikub/hub.toml`` makes it
    (``db``: the store; ``changed``: see :func:`bundle_config`)."""
    settings = bundle_settings(venue, "hub", **changed)
    assert settings.broker.username == "hub"
    return HubService(settings.broker, db, settings.topics, tables=settings.config.hub.tables)


def bundle_unit_config(venue: Venue, table: int, *, extra: str = "") -> UnitConfig:
    """Table ``table``'s unit.toml as provisioned to /etc/tablekit/unit.toml (``extra``
    lines added to its ``[link]``)."""
    text = (venue.bundle / "units" / f"table-{table:02d}" / "unit.toml").read_text()
    config = parse_config(text + extra, "unit.toml")
    assert config.link is not None and config.link.port == venue.port
    return config
