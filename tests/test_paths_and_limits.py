"""Settings checked at start with a clear error: a store's or a journal's folder that does
not exist (a typo would otherwise make an empty event), and table numbers beyond the
protocol's topics (a unit that runs while the hub refuses all it sends)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from hub import cli, serve
from hub.config import HubConfigError, parse_hub_config
from hub.web import serve as web_serve
from tablekit.app import build
from tablekit.config import ConfigError, parse_config


def test_a_store_in_a_folder_that_does_not_exist_is_refused_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    typo = tmp_path / "typo" / "x" / "hub.sqlite3"
    said = f"{typo}: the folder {typo.parent} does not exist — a typo in the path?"
    with pytest.raises(SystemExit) as hub:
        serve.main(["serve", "--lang", "en", "--db", str(typo), "--broker", "127.0.0.1:9",
                    "--venue", "hall", "--event", "cup"])
    assert hub.value.code == 2 and f"--db {said}" in capsys.readouterr().err
    with pytest.raises(SystemExit) as web:
        web_serve.main(["--lang", "en", "--db", str(typo), "--port", "9"])
    assert web.value.code == 2 and f"--db {said}" in capsys.readouterr().err
    out = io.StringIO()
    assert cli.main(["--lang", "en", "--db", str(typo), "event", "create", "--preset", "school",
                     "--name", "Konkurs"], out=out) == 2
    assert said in capsys.readouterr().err
    assert not (tmp_path / "typo").exists()  # nothing made: no empty event


def test_a_units_journal_in_a_folder_that_does_not_exist_stops_it_saying_where(
    tmp_path: Path,
) -> None:
    journal = tmp_path / "tablica" / "journal.sqlite3"
    config = parse_config("[unit]\ntable = 3\n", "unit.toml")
    with pytest.raises(SystemExit) as stopped:
        build(config, journal)
    assert f"folder {journal.parent} nie istnieje — literówka w ścieżce?" in str(stopped.value.code)
    assert not journal.parent.exists()


def test_table_numbers_beyond_the_protocol_are_refused_at_start(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as unit:
        parse_config("[unit]\ntable = 1000\n", "unit.toml")
    assert "unit.table" in str(unit.value)
    assert "tables are numbered 1–999 (the protocol's topics), got 1000" in str(unit.value)
    with pytest.raises(HubConfigError) as hub:
        parse_hub_config("[hub]\ntables = 5000\n", "hub.toml")
    assert str(hub.value) == (
        "hub.toml: hub.tables: an event has 1–999 tables (the protocol's topics), got 5000"
    )
