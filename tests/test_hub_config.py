"""The hub's config file: strict (a wrong field is named with its file), and one precedence
for every hub program: the file < the environment < the flags."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from hub.config import (
    HubConfigError,
    add_config_options,
    load_hub_config,
    parse_hub_config,
    resolve,
)
from hub.serve import _store_settings as store_settings
from hub.serve import build_parser, main
from tablekit.shared.broker import BrokerSettings

FILE = """\
venue = "hall"
event = "cup2026"
db = "{db}"

[broker]
host = "hub.local"
port = 1884
mqtt_version = 3

[hub]
username = "hub"
password_file = "{secret}"
tables = 12
backup = "/media/stick/hub.sqlite3"

[screen]
username = "screen"
"""


@pytest.fixture
def config(tmp_path: Path) -> Path:
    secret = tmp_path / "hub-password"
    secret.write_text("s3cret\n")
    path = tmp_path / "hub.toml"
    path.write_text(FILE.format(db=tmp_path / "hub.sqlite3", secret=secret))
    return path


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[broker]\nprot = 1\n", "hub.toml: broker.prot: unknown field; [broker] has host, port"),
        ("[hub]\ntables = \"12\"\n", "hub.toml: hub.tables: expected `int | null`, got `str`"),
        ("[hub]\ntables = 0\n",
         "hub.toml: hub.tables: an event has 1–999 tables (the protocol's topics), got 0"),
        ("[broker]\nport = 70000\n", "hub.toml: broker.port: must be 1 to 65535, got 70000"),
        ("[broker]\nca_file = \"ca.pem\"\n", "hub.toml: broker.ca_file: needs tls = true"),
        ("[sreen]\nusername = \"x\"\n", "hub.toml: sreen: unknown field; the file has venue"),
        ("venue = 7\n", "hub.toml: venue: expected `str`, got `int`"),
        ("[broker\n", "hub.toml: not valid TOML"),
        ("[web]\npublic_url = \"rummikub.local:8080\"\n",
         "hub.toml: web.public_url: an address such as http://rummikub.local:8080"),
    ],
)
def test_a_wrong_field_is_named_with_its_file(text: str, message: str) -> None:
    with pytest.raises(HubConfigError) as err:
        parse_hub_config(text, "hub.toml")
    assert str(err.value).startswith(message), str(err.value)


def test_an_empty_file_is_the_defaults() -> None:
    config = parse_hub_config("")
    assert (config.venue, config.event, config.db) == ("hall", "demo", None)
    assert config.broker == BrokerSettings()


def test_a_named_file_must_exist(tmp_path: Path) -> None:
    with pytest.raises(HubConfigError, match=r"none.toml: cannot read the config"):
        load_hub_config(tmp_path / "none.toml", {})
    with pytest.raises(HubConfigError, match=r"env.toml: cannot read the config"):
        load_hub_config(None, {"RUMMIKUB_CONFIG": str(tmp_path / "env.toml")})


def parse(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(["serve", *argv])


def test_the_file_alone(config: Path) -> None:
    settings = resolve("hub", parse("--config", str(config)), {})
    broker = settings.broker
    assert (broker.host, broker.port, broker.mqtt_version, broker.username) == (
        "hub.local", 1884, 3, "hub"
    )
    assert settings.topics.base == "rummikub/v1/hall/cup2026"
    store = store_settings(parse(), settings)
    assert (store.db, store.tables) == (config.parent / "hub.sqlite3", 12)
    assert store.backup == Path("/media/stick/hub.sqlite3")


def test_the_consoles_public_address_file_then_environment(config: Path) -> None:
    """What the hub publishes for the QR codes: the file's ``[web] public_url``, else
    ``RUMMIKUB_WEB_PUBLIC_URL``'s; the trailing ``/`` dropped; none without either."""
    assert store_settings(parse(), resolve("hub", parse("--config", str(config)), {})
                          ).console_url == ""
    config.write_text(config.read_text() + '[web]\npublic_url = "http://rummikub.local:8080/"\n')
    args = parse("--config", str(config))
    assert resolve("hub", args, {}).public_url() == "http://rummikub.local:8080"
    env = {"RUMMIKUB_WEB_PUBLIC_URL": "https://10.0.9.1:8443"}
    assert store_settings(parse(), resolve("hub", args, env)).console_url == (
        "https://10.0.9.1:8443"
    )
    with pytest.raises(HubConfigError, match=r"RUMMIKUB_WEB_PUBLIC_URL: an address .*'hub 8080'"):
        resolve("hub", args, {"RUMMIKUB_WEB_PUBLIC_URL": "hub 8080"}).public_url()


def test_the_environment_beats_the_file_and_the_flags_beat_both(
    config: Path, tmp_path: Path
) -> None:
    other = tmp_path / "other-password"
    other.write_text("x\n")
    env = {
        "RUMMIKUB_CONFIG": str(config),
        "RUMMIKUB_BROKER": "10.0.0.2:1885",
        "RUMMIKUB_EVENT": "spring",
        "RUMMIKUB_USERNAME": "hub-admin",
        "RUMMIKUB_PASSWORD_FILE": str(other),
        "RUMMIKUB_TABLES": "20",
        "RUMMIKUB_DB": str(tmp_path / "env.sqlite3"),
    }
    by_env = resolve("hub", parse(), env)
    assert (by_env.broker.host, by_env.broker.port) == ("10.0.0.2", 1885)
    assert (by_env.broker.username, by_env.broker.password_file) == ("hub-admin", str(other))
    assert by_env.broker.mqtt_version == 3  # the file's, where nothing overrides it
    assert by_env.topics.base == "rummikub/v1/hall/spring"
    store = store_settings(parse(), by_env)
    assert (store.db, store.tables) == (tmp_path / "env.sqlite3", 20)

    flags = parse(
        "--broker", "10.0.0.3:1886", "--event", "final", "--username", "hub", "--mqtt", "5",
        "--tables", "4", "--db", str(tmp_path / "flag.sqlite3"), "--backup", str(tmp_path / "b"),
    )
    by_flags = resolve("hub", flags, env)
    assert (by_flags.broker.host, by_flags.broker.port) == ("10.0.0.3", 1886)
    assert (by_flags.broker.username, by_flags.broker.mqtt_version) == ("hub", 5)
    assert by_flags.topics.base == "rummikub/v1/hall/final"
    store = store_settings(flags, by_flags)
    assert (store.db, store.tables, store.backup) == (
        tmp_path / "flag.sqlite3", 4, tmp_path / "b"
    )


def test_each_program_logs_in_with_its_own_section(config: Path) -> None:
    parser = argparse.ArgumentParser()
    add_config_options(parser, account="x")
    args = parser.parse_args(["--config", str(config)])
    assert resolve("hub", args, {}).broker.username == "hub"
    screen = resolve("screen", args, {}).broker
    assert (screen.username, screen.password_file, screen.host) == ("screen", None, "hub.local")
    assert resolve("organizer", args, {}).broker.username is None  # [broker] has none


def test_a_bad_setting_is_refused_in_the_readers_language(tmp_path: Path) -> None:
    from tablekit.shared.i18n import words

    bad = tmp_path / "hub.toml"
    bad.write_text("[broker]\nport = 70000\n")
    with pytest.raises(HubConfigError) as refused:
        resolve("hub", parse("--config", str(bad)), {})
    assert str(refused.value) == f"{bad}: broker.port: must be 1 to 65535, got 70000"
    polish = refused.value.message(words("pl").gettext)
    assert polish.startswith(f"{bad}: broker.port: ") and "65535" in polish
    assert "must be" not in polish and "port: port" not in polish
    with pytest.raises(HubConfigError) as refused:  # a flag, checked with the others
        resolve("hub", parse("--ca-file", "ca.pem"), {})
    assert str(refused.value) == "--ca-file: needs tls = true"
    assert refused.value.message(words("pl").gettext) == "--ca-file: wymaga tls = true"


def test_a_bad_value_is_named_where_it_came_from(config: Path, tmp_path: Path) -> None:
    with pytest.raises(HubConfigError, match="RUMMIKUB_BROKER: port must be 1-65535"):
        resolve("hub", parse(), {"RUMMIKUB_BROKER": "h:0"})
    with pytest.raises(HubConfigError, match=r"RUMMIKUB_TABLES='many': expected a whole number"):
        env = {"RUMMIKUB_TABLES": "many", "RUMMIKUB_DB": "x"}
        store_settings(parse(), resolve("hub", parse(), env))
    with pytest.raises(HubConfigError, match=r"--password-file needs --username"):
        resolve("organizer", parse("--password-file", str(tmp_path / "p")), {})
    gone = tmp_path / "gone"
    with pytest.raises(HubConfigError, match=f"RUMMIKUB_PASSWORD_FILE {gone}: cannot read it"):
        resolve("hub", parse("--config", str(config)), {"RUMMIKUB_PASSWORD_FILE": str(gone)})
    with pytest.raises(HubConfigError, match=r"--venue: venue: 1-32 letters"):
        resolve("hub", parse("--venue", "a/b"), {})


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["serve", "--db", "x.db", "--broker", "host:99999"], "port must be 1-65535"),
        (["serve", "--db", "x.db", "--venue", "a/b"], "venue: 1-32 letters"),
        (["serve", "--db", "x.db", "--backup", "x.db"], "--backup x.db is the store itself"),
        (["serve", "--db", "x.db", "--backup-every", "0"], "more than 0 seconds"),
        (["serve", "--config", "/nonexistent/hub.toml"], "cannot read the config"),
        (["serve"], "no event store: give --db FILE"),
    ],
)
def test_bad_arguments_are_named(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main([*argv, "--lang", "en"])  # the English words (Polish: tests/test_cli_polish.py)
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err
