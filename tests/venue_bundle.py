"""A venue as ``hub.credentials`` makes it, run for real: Mosquitto started from the
generated config (the same generator as ``deploy/mosquitto/rummikub.conf``, pointed at free
loopback ports and a tmp directory, with the opt-in anonymous loopback listener and the
websockets listener switched on), its password file and ACL; and the hub's and the units'
config files as provisioned, their secrets' paths moved into the bundle."""

from __future__ import annotations

import argparse
import getpass
import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from hub.broker import free_port, mosquitto_binary, wait_for_port
from hub.config import HubSettings, Program, add_config_options, resolve
from hub.credentials import (
    MosquittoSettings,
    broker_config,
    make_accounts,
    make_bundle,
    write_bundle,
)
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
    binary = mosquitto_binary()
    assert binary is not None, "mosquitto is not installed (apt-get install mosquitto)"
    accounts = make_accounts(tables, screens=1, dashboards=1)
    ports = [free_port() for _ in range(3)]
    while len(set(ports)) < 3:
        ports = [free_port() for _ in range(3)]
    bundle = tmp / "bundle"
    settings = MosquittoSettings(
        port=ports[0],
        bind="127.0.0.1",
        local_port=ports[1],
        websockets_port=ports[2],
        password_file=str(bundle / "mosquitto" / "rummikub.passwd"),
        acl_file=str(bundle / "mosquitto" / "rummikub.acl"),
        persistence_location=f"{tmp / 'data'}/",
        log_file=str(tmp / "mosquitto.log"),
        autosave_interval=5,
        run_as=getpass.getuser() if os.geteuid() == 0 else "",
    )
    write_bundle(make_bundle(topics, accounts, host="127.0.0.1", broker=settings), bundle)
    (tmp / "data").mkdir()
    conf = tmp / "mosquitto.conf"
    conf.write_text(broker_config(settings), encoding="utf-8")
    proc = subprocess.Popen(
        [binary, "-c", str(conf)], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        ok = all(wait_for_port("127.0.0.1", p, 10) for p in ports)
        if not ok or proc.poll() is not None:
            err = proc.stderr.read().decode() if proc.poll() is not None and proc.stderr else ""
            log = (tmp / "mosquitto.log").read_text() if (tmp / "mosquitto.log").exists() else ""
            pytest.fail(f"mosquitto did not start with the generated config: {err}\n{log}")
        yield Venue(
            ports[0], ports[1], ports[2], {a.username: a.secret for a in accounts}, bundle,
            tmp / "mosquitto.log",
        )
    finally:
        proc.kill()
        proc.wait()
        if proc.stderr is not None:
            proc.stderr.close()


def bundle_config(venue: Venue, **changed: str) -> Path:
    """The bundle's hub.toml as provisioned to /etc/rummikub/hub.toml, the secrets' paths
    moved into the bundle; ``changed`` top-level keys edited as an organizer would
    (``event``, ``db``: a new event)."""
    text = (venue.bundle / "hub" / "hub.toml").read_text()
    for name in ("hub-password", "screen-password", "admin-password"):
        text = text.replace(f"/etc/tablekit/{name}", str(venue.bundle / "hub" / name))
    lines = text.splitlines()
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
    name = f"table-{table:02d}"
    text = (venue.bundle / "units" / name / "unit.toml").read_text()
    password_file = venue.bundle / "units" / name / "mqtt-password"
    text = text.replace("/etc/tablekit/mqtt-password", str(password_file))
    text = text.replace(f"port = {1883}", f"port = {venue.port}")
    config = parse_config(text + extra, "unit.toml")
    assert config.link is not None and config.link.port == venue.port
    return config
