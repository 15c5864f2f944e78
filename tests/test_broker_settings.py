"""tablekit.shared.broker: one BrokerSettings, its checks, and the paho client it builds."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import msgspec
import paho.mqtt.client as mqtt
import pytest

from hub.broker import PORTS_FROM, ephemeral_start, free_port
from tablekit.config import ConfigError, parse_config
from tablekit.shared.broker import (
    BrokerSettings,
    BrokerSettingsError,
    Will,
    disconnect,
    make_client,
    read_secret,
)


def test_the_defaults_are_one_set_for_every_program() -> None:
    settings = BrokerSettings()
    assert (settings.host, settings.port, settings.keepalive, settings.mqtt_version) == (
        "127.0.0.1", 1883, 15, 5
    )
    assert (settings.username, settings.password_file, settings.tls) == (None, None, False)
    assert settings.where == "127.0.0.1:1883"
    assert BrokerSettings(tls=True, port=8883).where == "127.0.0.1:8883 (TLS)"


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"port": 0}, "port: must be 1 to 65535, got 0"),
        ({"keepalive": 2}, "keepalive: must be 5 to 3600 s, got 2"),
        ({"password_file": "/x"}, "password_file: needs a username"),
        ({"ca_file": "/ca.pem"}, "ca_file: needs tls = true"),
        ({"tls": True, "key_file": "/k"}, "key_file: needs cert_file"),
        ({"host": " "}, "host: must name the broker"),
    ],
)
def test_a_wrong_setting_is_named(fields: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        BrokerSettings(**fields)  # type: ignore[arg-type]


def test_the_unit_link_section_is_the_broker_settings_with_topic_levels() -> None:
    config = parse_config('[link]\nhost = "hub.local"\ntls = true\nmqtt_version = 3\n')
    assert config.link is not None and isinstance(config.link, BrokerSettings)
    assert (config.link.tls, config.link.mqtt_version, config.link.venue) == (True, 3, "hall")
    with pytest.raises(ConfigError, match=r"unit.toml: link.mqtt_version"):
        parse_config('[link]\nhost = "h"\nmqtt_version = 4\n', "unit.toml")
    with pytest.raises(ConfigError, match=r"link.cafile: unknown field"):
        parse_config('[link]\nhost = "h"\ncafile = "x"\n', "unit.toml")
    with pytest.raises(ConfigError, match=r"unit.toml: link: object missing required field `host`"):
        parse_config("[link]\nport = 1\n", "unit.toml")


def test_a_password_file_that_cannot_be_used_is_named(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.write_text("\n")
    with pytest.raises(BrokerSettingsError, match=f"--password-file {empty}: the file is empty"):
        read_secret(empty, "--password-file")
    settings = BrokerSettings(username="hub", password_file=str(tmp_path / "none"))
    with pytest.raises(BrokerSettingsError, match=r"link.password_file .*: cannot read it"):
        make_client(settings, "x", section="link")


def test_a_tls_file_that_cannot_be_used_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "ca.pem"
    bad.write_text("not a certificate")
    settings = BrokerSettings(tls=True, ca_file=str(bad))
    with pytest.raises(BrokerSettingsError, match=f"broker.ca_file {bad}: cannot use it"):
        make_client(settings, "x")


def test_the_client_is_configured_from_the_settings(tmp_path: Path) -> None:
    secret = tmp_path / "secret"
    secret.write_text("s3cret\n")
    settings = BrokerSettings(username="hub", password_file=str(secret), mqtt_version=3)
    client = make_client(settings, "hub-hall-cup", will=Will("t/status", b"gone"))
    assert client.protocol == mqtt.MQTTv311
    assert (client.username, client.password) == ("hub", "s3cret")
    assert client._client_id == b"hub-hall-cup"
    named = make_client(msgspec.structs.replace(settings, client_id="mine"), "hub-hall-cup")
    assert named._client_id == b"mine"
    assert make_client(BrokerSettings(), "x").protocol == mqtt.MQTTv5


class _ThreadEndsDuringLoopStop(mqtt.Client):
    """A client whose network thread ends, as after a DISCONNECT, between ``loop_stop``'s
    check of the thread and its join: paho's thread clears the attribute as it ends."""

    def __init__(self) -> None:
        self._reads = -1  # before __init__ has set the thread, reads are paho's own
        self._network: Any = None
        super().__init__(mqtt.CallbackAPIVersion.VERSION2)
        self._network = threading.Thread(target=lambda: None)
        self._network.start()
        self._reads = 0

    @property  # type: ignore[override]
    def _thread(self) -> Any:
        if self._reads < 0:
            return self._network
        self._reads += 1
        return self._network if self._reads == 1 else None

    @_thread.setter
    def _thread(self, value: Any) -> None:
        self._network = value


def test_disconnecting_survives_the_network_thread_ending_on_its_own() -> None:
    with pytest.raises(AttributeError):  # paho's loop_stop alone loses that race
        _ThreadEndsDuringLoopStop().loop_stop()
    disconnect(_ThreadEndsDuringLoopStop())  # a unit following a new event stops its link


def test_a_free_port_is_below_the_ephemeral_range() -> None:
    """The system numbers outgoing connections from its ephemeral range: a test broker's
    port below it is still free when the broker is restarted on it after a kill."""
    start = ephemeral_start()
    ports = {free_port() for _ in range(20)}
    assert all(PORTS_FROM <= port < start for port in ports) and len(ports) > 1
