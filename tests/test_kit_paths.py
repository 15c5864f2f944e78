"""``./kit run`` from the organizer's own folder: file names are relative to where they
were typed, and what the kit writes is named by the path where it really is."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # each ./kit run checks the venv and the packages first

ROOT = Path(__file__).resolve().parents[1]
KIT = ROOT / "kit"


def kit(cwd: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RUMMIKUB_")}
    env["USER"] = "Ola"
    return subprocess.run(
        [str(KIT), *argv],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def ok(cwd: Path, *argv: str) -> str:
    proc = kit(cwd, *argv)
    assert proc.returncode == 0, f"{argv}: {proc.stderr}"
    return proc.stdout


def test_kit_run_works_in_the_callers_folder(tmp_path: Path) -> None:
    folder = tmp_path / "turniej"
    folder.mkdir()
    names = ["Anna Nowak", "Jan Kowalski", "Ewa Wiśniewska", "Piotr Zięba", "Ola Kot", "Ida Łoś"]
    (folder / "zapisy.csv").write_text(
        "imię i nazwisko;klub\n" + "".join(f"{n};Klub {i % 2}\n" for i, n in enumerate(names)),
        encoding="utf-8",
    )
    out = ok(folder, "run", "rummikub", "event", "create", "--preset", "school", "--name", "T")
    event_file = folder / "rummikub-event.sqlite3"
    assert str(event_file) in out
    assert event_file.is_file()
    assert not (ROOT / "zapisy.csv").exists()

    out = ok(folder, "run", "rummikub", "players", "import", "zapisy.csv", "--check-in",
             "--lang", "pl")
    assert f"Zaimportowano 6 graczy z pliku {folder / 'zapisy.csv'}" in out
    ok(folder, "run", "rummikub", "round", "draw", "--seed", "1")

    out = ok(folder, "run", "rummikub", "export", "csv", "wyniki")
    written = [Path(line) for line in out.splitlines()]
    assert written and all(p.is_absolute() and p.is_file() for p in written), out
    assert {p.parent for p in written} == {folder / "wyniki"}
    assert not (ROOT / "wyniki").exists()

    # A second folder has its own event file: nothing leaks through the kit's folder.
    other = tmp_path / "inny"
    other.mkdir()
    proc = kit(other, "run", "rummikub", "players", "list", "--lang", "en")
    assert proc.returncode == 2
    assert f"no event file {other / 'rummikub-event.sqlite3'}" in proc.stderr


def test_kit_run_names_a_command_it_does_not_have(tmp_path: Path) -> None:
    proc = kit(tmp_path, "run", "no-such-command")
    assert proc.returncode == 2
    assert "no command no-such-command" in proc.stderr


def test_kit_names_its_commands_when_one_is_mistyped(tmp_path: Path) -> None:
    forgot_run = kit(tmp_path, "rummikub", "players", "list")
    assert forgot_run.returncode == 2
    assert "kit: rummikub runs inside the kit's venv: ./kit run rummikub players list" in (
        forgot_run.stderr
    )
    typo = kit(tmp_path, "run", "rumikub")
    assert typo.returncode == 2
    assert "kit: no command rumikub; the kit's commands: rummikub rummikub-hub" in typo.stderr
